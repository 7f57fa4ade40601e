"""Chapter 2's external DIMACS solvers: which are installed, what each costs against pycosat in this process,
and the stored run that stands in where none is (``data/ch2-external.json``, written by
``benchmarks/bench_ch2_external.py`` on a machine with every one of them).

An external solver is a program: the kit writes the formula to a file, starts it, and reads its answer back.
:func:`external_times` times that whole round trip on two formulas, one of a single cell (n = 1: nothing to
search, so all of its time is the round trip) and the chapter's 8-queens formula, so a reader sees how much of
a solve is starting the program and how much is search.  The seconds are the machine's wall clock: printed,
never compared in an assertion.

>>> rows = external_times([], sizes=(1, 4), repeat=1)
>>> [(row["solver"], sorted(row["verified"].values())) for row in rows]
[('pycosat', [True, True])]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypedDict

from ..methods.verbs import solve
from ..solvers import SAT_SOLVERS
from .stored import read_record

#: Where the stored run of every external solver is (see :func:`external_record`).
EXTERNAL_RECORD = "ch2-external.json"
#: The formulas timed: one cell (all round trip, no search) and the chapter's 8 queens.
SIZES = (1, 8)


class ExternalTime(TypedDict):
    """One solver's best wall-clock seconds of ``repeat`` solves per n, and whether each board was verified."""

    solver: str
    in_process: bool
    seconds: dict[str, float]
    verified: dict[str, bool]


def external_solvers() -> list[str]:
    """The external DIMACS solvers installed here (executables on PATH, or bundled by a wheel), in the
    registry's order."""
    return [name for name, entry in SAT_SOLVERS.items() if not entry.capabilities.in_process and entry.available()]


def external_times(names: Sequence[str], sizes: Sequence[int] = SIZES, repeat: int = 3) -> list[ExternalTime]:
    """pycosat in this process, then each solver of ``names``: the best of ``repeat`` solves of each n (the
    default encoding), the seconds the kit measured around the solver, and whether the board was verified.
    Keys of ``seconds`` and ``verified`` are the sizes as text (the rows go to JSON as they are)."""
    rows: list[ExternalTime] = []
    for name in ("pycosat", *names):
        seconds: dict[str, float] = {}
        verified: dict[str, bool] = {}
        for n in sizes:
            runs = [solve(n, "sat", None, name, isolated=False) for _ in range(repeat)]
            seconds[str(n)] = round(min(run.solve_seconds for run in runs), 5)
            verified[str(n)] = all(run.status == "solved" and run.verified for run in runs)
        rows.append({"solver": name, "in_process": SAT_SOLVERS[name].capabilities.in_process,
                     "seconds": seconds, "verified": verified})
    return rows


def external_table(rows: Sequence[ExternalTime]) -> str:
    """The rows as the chapter prints them: milliseconds per n, and the share of the 8-queens solve that the
    one-cell formula already costs (the round trip)."""
    sizes = list(rows[0]["seconds"]) if rows else []
    lines = [f"{'solver':22}" + "".join(f"{'n = ' + n:>10}" for n in sizes) + "   one cell / 8 queens"]
    for row in rows:
        where = f"{row['solver']} (in process)" if row["in_process"] else row["solver"]
        times = "".join(f"{row['seconds'][n] * 1000:8.2f} ms" for n in sizes)
        share = row["seconds"][sizes[0]] / max(row["seconds"][sizes[-1]], 1e-9) if len(sizes) > 1 else 1.0
        lines.append(f"{where:22}{times}   {share:8.0%}")
    return "\n".join(lines)


def external_record(folder: str | None = None) -> dict[str, Any]:
    """The stored run: ``minisat_answer`` (MiniSat's answer file for the chapter's formula), ``times`` (the
    rows of :func:`external_times` for every external solver), the command, the machine and versions."""
    return read_record(EXTERNAL_RECORD, folder)


__all__ = ["EXTERNAL_RECORD", "ExternalTime", "external_record", "external_solvers", "external_table",
           "external_times"]
