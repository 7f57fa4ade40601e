"""Where SAT against ILP turns round as n grows: HiGHS on the ``lines`` model against the SAT configuration of
chapter 5's sweep (pycosat, sequential encoding) and against MiniSat on the same clauses.

HiGHS does not branch on this model: a heuristic at the root finds the board, so its cost is the model's
size, which grows smoothly; PicoSAT's search grows faster.  Each solve is timed in processor seconds (what
other work on a busy machine disturbs least), beside the counters that are the same on every machine.

- :func:`flip_run`: the three configurations at a few n, in this process, now.
- :func:`stored_flip`: the same table from a stored sweep (``nqueens-kit bench`` results: medians of the
  processor time of each run's fresh process), such as chapter 7's ``notebooks/data/ch7-flip.csv``.

>>> [sorted(row) for row in flip_run([8])]  # doctest: +NORMALIZE_WHITESPACE
[['highs', 'highs_iterations', 'highs_nodes', 'minisat', 'minisat_conflicts', 'n', 'pycosat']]
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import TYPE_CHECKING

from ..errors import InputError, SolverError
from ..problem.results import Status
from ..runtime.limits import processor_seconds

if TYPE_CHECKING:
    from ..bench.results import ResultRow

#: A row of the flip table: ``n``, processor seconds per configuration, the solvers' counters (None: none).
FlipRow = dict[str, int | float | str | None]

#: The three configurations: (key of a row, method, variant, solver); labels as ``nqueens-kit bench`` writes them.
CONFIGS = (("highs", "ilp", "lines", "highs"), ("pycosat", "sat", "sequential", "pycosat"),
           ("minisat", "sat", "sequential", "pysat-minisat"))
LABELS = {"highs": "ILP lines/highs", "pycosat": "SAT sequential/pycosat", "minisat": "SAT sequential/pysat-minisat"}




def flip_run(ns: Iterable[int]) -> list[FlipRow]:
    """One solve of each configuration per n, in this process (no time limit: keep n small), every board
    verified: per n the processor ``seconds`` of building and solving for ``highs``, ``pycosat`` and
    ``minisat``, HiGHS's ``highs_nodes`` and ``highs_iterations`` (simplex) and MiniSat's
    ``minisat_conflicts``."""
    from ..methods import solve

    rows = []
    for n in ns:
        if isinstance(n, bool) or not isinstance(n, int) or n < 4:
            raise InputError(f"board sizes must be whole numbers of at least 4 (boards exist), not {n!r}")
        row: FlipRow = {"n": n}
        for key, method, variant, solver in CONFIGS:
            start = processor_seconds()
            result = solve(n, method, variant, solver, isolated=False)
            row[key] = processor_seconds() - start
            if result.status != Status.SOLVED or not result.verified:
                raise SolverError(f"{LABELS[key]} did not return a verified board of {n}-queens: {result.status}")
            if key == "highs":
                row["highs_nodes"], row["highs_iterations"] = result.stats.get("nodes"), result.stats.get("iterations")
            if key == "minisat":
                row["minisat_conflicts"] = result.stats.get("conflicts")
        rows.append(row)
    return rows


def _count(row: ResultRow, column: str) -> int | None:
    """The row's ``nodes`` or ``conflicts``."""
    return row.get("nodes") if column == "nodes" else row.get("conflicts")


def stored_flip(path: str | os.PathLike[str]) -> list[FlipRow]:
    """The rows of :func:`flip_run` from a stored ``nqueens-kit bench`` sweep of the three configurations:
    per n the median processor seconds of each (None where a configuration has no finished run), the
    largest node count HiGHS reported, the median conflicts of MiniSat, and ``runs``, the runs per
    configuration.  A file without the three configurations is a one-line error."""
    from ..bench import read_results, summarise

    rows = read_results(path)
    found = {e["config"] for e in summarise(rows)}
    missing = [label for label in LABELS.values() if label not in found]
    if missing:
        raise InputError(f"{os.fspath(path)} has no runs of {', '.join(missing)}; it needs all of "
                         f"{', '.join(LABELS.values())}")
    table: dict[int, FlipRow] = {}
    for entry in summarise(rows):
        key = next((k for k, label in LABELS.items() if label == entry["config"]), None)
        n = entry["n"]
        if key is None or not isinstance(n, int):
            continue
        row = table.setdefault(n, {"n": n, "runs": entry["runs"]})
        row[key] = entry["cpu_median"]
    for key, label in (("highs_nodes", "highs"), ("minisat_conflicts", "pysat-minisat")):
        column = "nodes" if key == "highs_nodes" else "conflicts"
        for n, row in table.items():
            values = sorted(v for r in rows if r["n"] == n and r["solver"] == label
                            and (v := _count(r, column)) is not None)
            row[key] = (max(values) if key == "highs_nodes" else values[len(values) // 2]) if values else None
    return [table[n] for n in sorted(table)]
