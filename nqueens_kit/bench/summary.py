"""Summaries of a sweep's rows (:func:`summarise`, PAR-2, censored medians): the arithmetic is
:mod:`nqueens_kit.methods.summary`'s, below the charts; the harness keeps its names here."""

from __future__ import annotations

from collections.abc import Sequence

# The arithmetic lives with the method layer, so the charts (below the harness) summarise rows without it.
from ..methods.summary import (
    FINISHED,
    UNSOLVED,
    Censored,
    Duel,
    DuelSummary,
    SummaryEntry,
    censored_median,
    censored_times,
    duel_summary,
    head_to_head,
    par2,
    summarise,
)

__all__ = ["FINISHED", "UNSOLVED", "Censored", "Duel", "DuelSummary", "SummaryEntry", "censored_median",
           "censored_times", "duel_lines", "duel_summary", "head_to_head", "par2", "summarise"]


def duel_lines(summary: Sequence[DuelSummary], first: str, second: str, margin: float = 2.0) -> list[str]:
    """:func:`duel_summary`'s rows as a table: per n, on how many instances each side is faster (and by more
    than ``margin`` times), and the spread of the ratio (``second``'s time over ``first``'s: above 1, ``first``
    is faster)."""
    lines = [f"{'n':>3} {'instances':>9} {first + ' faster':>{len(first) + 7}} {'by ' + f'{margin:g}x':>6} "
             f"{second + ' by ' + f'{margin:g}x':>{len(second) + 7}}   {second}/{first}: min  q1  median  q3  max"]
    for s in summary:
        lines.append(f"{s['n']:3} {s['instances']:9} {s['first_faster']:{len(first) + 7}} {s['first_by_margin']:6} "
                     f"{s['second_by_margin']:{len(second) + 7}}   {s['ratio_min']:.2f} {s['ratio_q1']:.2f} "
                     f"{s['ratio_median']:.2f} {s['ratio_q3']:.2f} {s['ratio_max']:.2f}")
    return lines
