"""Summaries of a sweep's rows (:func:`summarise`, PAR-2, censored medians): the arithmetic is
:mod:`nqueens_kit.methods.summary`'s, below the charts; the harness keeps its names here."""

from __future__ import annotations

# The arithmetic lives with the method layer, so the charts (below the harness) summarise rows without it.
from ..methods.summary import (
    FINISHED,
    UNSOLVED,
    Censored,
    SummaryEntry,
    censored_median,
    censored_times,
    par2,
    summarise,
)

__all__ = ["FINISHED", "UNSOLVED", "Censored", "SummaryEntry", "censored_median", "censored_times", "par2",
           "summarise"]
