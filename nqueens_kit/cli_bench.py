"""The measuring subcommands of ``nqueens-kit``: bench, plot, report (registered by :mod:`nqueens_kit.cli`)."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction, parser_class: type[argparse.ArgumentParser]) -> None:
    """Add the bench, plot and report subcommands to the ``nqueens-kit`` parser."""
