"""Summaries of a sweep's rows, as the field reports them: timeouts are censored data, not missing data.

:func:`summarise` groups rows by (configuration, instance family, n) and gives counts by status, medians,
minimum and maximum of each time, and PAR-2 (the mean time with every unsolved run counted as twice the
time limit, the SAT competition's score).  Unsolved: a run that hit the time or memory limit, or whose
solver said it does not know (``unknown``: it gave up before the limit, and is charged as if it had
reached it).  An ``error`` row (a solver that failed, or a wrong answer caught) is no time at all and
counts in ``errors`` only.  A timed-out run is longer than every finished one, so a median
is None once half or more of the runs timed out.

>>> rows = [{"n": 8, "method": "sat", "encoding": "pairwise", "solver": "pycosat", "repeat": r,
...          "status": "solved", "total_seconds": t, "build_seconds": 0.0, "solve_seconds": t,
...          "time_limit": 10.0} for r, t in ((1, 0.3), (2, 0.1), (3, 0.2))]
>>> s = summarise(rows)[0]
>>> s["config"], s["runs"], s["total_median"], s["total_min"], s["total_max"], round(s["par2"], 2)
('SAT pairwise/pycosat', 3, 0.2, 0.1, 0.3, 0.2)
"""

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
