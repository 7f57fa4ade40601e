"""The ``nqueens-kit`` command (:mod:`.main`), behind a light entry point.

:func:`run`, the console script, first makes Ctrl-C end the process with one line and exit status 130, then
imports the command and the kit: a Ctrl-C while Python is still loading them prints no traceback.
``main``, ``build_parser`` and the rest are :mod:`.main`'s, imported on first use.
"""

from __future__ import annotations

import importlib
import signal
import sys
import types
from typing import TYPE_CHECKING, NoReturn

from .startup import startup_interrupt

__all__ = ["EXIT_NO", "EXIT_OK", "build_parser", "main", "run"]

#: What ``Ctrl-C`` prints while the command is loading (the same line as later).
def run() -> NoReturn:
    """Console-script entry point."""
    try:
        signal.signal(signal.SIGINT, startup_interrupt)
    except (ValueError, OSError):  # not the main thread
        pass
    from .main import run as run_command

    run_command()


def __getattr__(name: str) -> object:
    """The command's names (``main``, ``build_parser``, ...), from :mod:`.main` on first use."""
    command = importlib.import_module(f"{__name__}.main")  # the module: the package's `main` is the function
    try:
        return getattr(command, name)
    except AttributeError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None


class _Package(types.ModuleType):
    """``nqueens_kit.cli.main`` is the function :func:`main`, as it always was, even once the module of
    the same name is imported (Python binds a submodule to its package's attribute)."""

    def __setattr__(self, name: str, value: object) -> None:
        if name == "main" and isinstance(value, types.ModuleType):
            value = value.main
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package

if TYPE_CHECKING:
    from .common import EXIT_NO, EXIT_OK
    from .main import build_parser, main
