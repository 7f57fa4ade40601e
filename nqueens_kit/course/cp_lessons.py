"""Chapter 8's measurements that take more than a cell: CP's first-fail search run live with the solver's own
counters, how local search's work grows with n, and local search on the blocked-cell boards of chapter 5's
phase study at their crossing, against SAT's answers.

Every figure these return is a count (failures, nodes, steps, conflicts); seconds are returned beside them
only to be printed as this machine's.  Where MiniZinc is not installed, the chapter shows the first-fail runs
stored in ``data/ch8-first-fail.json`` (:func:`first_fail_record`, written by
``benchmarks/bench_ch8_first_fail.py``), which also holds the sizes beyond a lecture cell.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping, Sequence
from typing import Any, TypedDict

from ..bench.phase import instance_problem
from ..errors import InputError
from ..methods.search.local_search import budget, min_conflicts
from ..methods.verbs import solve
from ..solvers import available_solvers
from .stored import read_record


class FirstFailRow(TypedDict):
    """One live run of CP's integer model (:func:`first_fail_runs`)."""

    n: int
    solver: str
    status: str
    failures: int | None
    nodes: int | None
    propagations: int | None
    alldifferent: str
    seconds: float


def first_fail_solver() -> str | None:
    """The CP solver the live first-fail run uses: MiniZinc with Gecode (its search is first-fail by the kit's
    model), else CP-SAT, else None (then the chapter prints why and goes on)."""
    found = available_solvers("cp")
    return next((s for s in ("minizinc", "cp-sat") if s in found), None)


def _count(stats: Mapping[str, object], *keys: str) -> int | None:
    """The first of ``keys`` the solver reported as a number."""
    value = next((stats[k] for k in keys if isinstance(stats.get(k), (int, float))), None)
    return int(value) if isinstance(value, (int, float)) else None


def first_fail_runs(ns: Sequence[int], solver: str, time_limit: float = 10.0) -> list[FirstFailRow]:
    """Solve the AllDifferent model at each n with ``solver``; the failures (Gecode's ``failures``, CP-SAT's
    ``conflicts``), the search nodes (``nodes`` or ``branches``) and propagations it reports, and the
    AllDifferent consistency the run recorded (Gecode's default is value consistency)."""
    rows: list[FirstFailRow] = []
    for n in ns:
        start = time.perf_counter()
        result = solve(n, "cp", "alldifferent", solver, time_limit=time_limit)
        stats = result.stats
        rows.append({"n": n, "solver": solver, "status": result.status,
                     "failures": _count(stats, "failures", "conflicts"), "nodes": _count(stats, "nodes", "branches"),
                     "propagations": _count(stats, "propagations"),
                     "alldifferent": str(result.options.get("alldifferent") or "not recorded by this solver"),
                     "seconds": time.perf_counter() - start})
    return rows


#: Where the stored first-fail runs are (see :func:`first_fail_record`).
FIRST_FAIL_RECORD = "ch8-first-fail.json"


def first_fail_record(folder: str | None = None) -> dict[str, Any]:
    """The stored first-fail runs: ``live`` (the chapter's live sizes, MiniZinc with Gecode), ``tail`` (larger
    sizes, too long for a lecture cell), ``cp_sat`` (CP-SAT's own search at the largest), each a list of
    :class:`FirstFailRow`, with the limits, the command and the machine and versions that made them."""
    record = read_record(FIRST_FAIL_RECORD, folder)
    for part in ("live", "tail", "cp_sat"):
        rows = record.get(part)
        if not isinstance(rows, list) or not all(isinstance(row, dict) and {"n", "status"} <= set(row) for row in rows):
            raise InputError(f"{FIRST_FAIL_RECORD}: '{part}' is not a list of runs; "
                             "python benchmarks/bench_ch8_first_fail.py -o notebooks/data/ch8-first-fail.json "
                             "writes it again")
    return record


def first_fail_table(rows: Sequence[FirstFailRow]) -> str:
    """The runs as the chapter prints them: answer, Gecode's failures, nodes and propagations (CP-SAT's
    conflicts and branches), the AllDifferent consistency recorded, and the seconds of the machine that ran."""
    lines = [f"{'n':>5} {'solver':9} {'answer':8} {'failures':>9} {'nodes':>9} {'propagations':>12}   "
             f"{'AllDifferent':17} seconds"]
    for row in rows:
        lines.append(f"{row['n']:5} {row['solver']:9} {row['status']:8} {_shown(row['failures']):>9} "
                     f"{_shown(row['nodes']):>9} {_shown(row['propagations']):>12}   "
                     f"{row['alldifferent'] if row['status'] == 'solved' else '-':17} "
                     f"{row['seconds']:.2f}")
    return "\n".join(lines)


def _shown(count: int | None) -> str:
    return "-" if count is None else f"{count:,}"


def growth_exponent(ns: Sequence[float], counts: Sequence[float]) -> float:
    """The slope of log(count) against log(n) by least squares: count grows about like n to this power over
    the points given (a description of these points, not a law beyond them)."""
    xs, ys = [math.log(n) for n in ns], [math.log(c) for c in counts]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sum((x - mx) ** 2 for x in xs)


class CrossingRow(TypedDict):
    """One blocked-cell instance: what SAT answers and what local search finds (:func:`local_search_at_crossing`)."""

    instance: int
    sat_answer: str
    conflicts: int | None
    found: bool
    steps: int
    budget: int


def local_search_at_crossing(n: int, density: float, instances: int, seed: int = 1) -> list[CrossingRow]:
    """The first ``instances`` blocked-cell boards of chapter 5's phase study at (n, density, seed): SAT's
    answer (sequential encoding, MiniSat when python-sat has it, with its conflicts) and whether min-conflicts
    finds a board within its budget of steps (:func:`~nqueens_kit.methods.search.local_search.budget`)."""
    solver = "pysat-minisat" if "pysat-minisat" in available_solvers("sat") else None
    steps_per_run, runs = budget(n)
    rows: list[CrossingRow] = []
    for i in range(1, instances + 1):
        problem = instance_problem("blocked", n, density, seed, i)
        sat = solve(problem, "sat", "sequential", solver)
        columns, stats = min_conflicts(problem)
        conflicts = sat.stats.get("conflicts")
        rows.append({"instance": i, "sat_answer": sat.status,
                     "conflicts": int(conflicts) if isinstance(conflicts, (int, float)) else None,
                     "found": columns is not None, "steps": stats["steps"], "budget": steps_per_run * runs})
    return rows
