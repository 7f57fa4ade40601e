"""Max-queens, where an objective enters: the most queens a board with blocked cells can hold, asked of an
ILP solver (one solve, the LP bound at work) and of a SAT-based optimiser (MaxSAT: the same clauses as hard
constraints, one soft unit clause per cell), side by side.

- :func:`max_queens_maxsat`: the optimum by RC2 (python-sat's core-guided MaxSAT solver, Ignatiev, Morgado
  and Marques-Silva 2019) over the pairwise clauses, with its time and the cores it needed.
- :func:`max_queens_ilp`: the optimum by an ILP solver on the ``max-queens`` formulation (through the method
  layer: :func:`nqueens_kit.methods.solve`), with its time, nodes and simplex iterations.
- :func:`max_queens_race`: both on random blocked boards (``instances`` of them per n), each answer checked
  against the other; :func:`race_summary` counts, per n, on how many boards each is faster and by what factor:
  one board per n is an anecdote (the same n can flip the verdict from one board to the next).
- :data:`RACE_RECORD`: the stored sample of chapter 7 (``benchmarks/bench_ch7_maxsat.py``).

>>> from nqueens_kit.problem.instances import random_blocked
>>> problem = Problem(8, blocked=random_blocked(8, 0.7, 1, 1))
>>> max_queens_maxsat(problem)["optimum"] == max_queens_ilp(problem)["optimum"]
True
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Sequence
from itertools import combinations
from typing import TypedDict

from ..errors import SolverError
from ..problem.board import Problem, conflicts
from ..problem.instances import random_blocked
from ..runtime.limits import processor_seconds
from ..solvers import get_solver


class MaxSatOptimum(TypedDict):
    """What :func:`max_queens_maxsat` found."""

    optimum: int
    seconds: float
    cores: int | None
    queens: list[tuple[int, int]]  # (row, column) cells


class IlpOptimum(TypedDict):
    """What :func:`max_queens_ilp` found."""

    optimum: int
    seconds: float
    nodes: int | float | str | None
    iterations: int | float | str | None
    status: str


#: Where chapter 7's stored race is (``notebooks/data``; ``benchmarks/bench_ch7_maxsat.py`` writes it).
RACE_RECORD = "ch7-maxsat.json"


class RaceRow(TypedDict):
    """One board of :func:`max_queens_race`."""

    n: int
    instance: int
    blocked: int
    optimum: int
    maxsat_seconds: float
    ilp_seconds: float
    ilp_nodes: int | float | str | None
    ilp_iterations: int | float | str | None


def max_queens_maxsat(problem: Problem) -> MaxSatOptimum:
    """The most queens ``problem``'s open cells hold, by RC2 MaxSAT: hard clauses "not both" for every pair
    of open cells on a line, a soft clause P[r,c] of weight 1 per open cell.  ``optimum``, ``seconds``
    (processor time of RC2's search in this process), ``cores`` (the unsatisfiable cores RC2 relaxed); the
    placement is checked (no two queens attack)."""
    get_solver("sat", "pysat-minisat").require()  # python-sat
    from pysat.examples.rc2 import RC2
    from pysat.formula import WCNF

    n = problem.n
    closed = set(problem.blocked)
    formula = WCNF()
    for line in problem.lines():
        cells = [cell for cell in line.cells if cell not in closed]
        for a, b in combinations(cells, 2):
            formula.append([-problem.var(*a), -problem.var(*b)])
    open_cells = [(r, c) for r in range(1, n + 1) for c in range(1, n + 1) if (r, c) not in closed]
    for cell in open_cells:
        formula.append([problem.var(*cell)], weight=1)
    start = time.process_time()
    with RC2(formula) as solver:
        model = solver.compute()
        cores = len(getattr(solver, "cores_sum", []) or []) if hasattr(solver, "cores_sum") else None
    seconds = time.process_time() - start
    if model is None:  # pragma: no cover - every problem has the empty placement
        raise SolverError("RC2 found no placement at all")
    queens = [problem.cell(lit) for lit in model if 0 < lit <= n * n]
    if conflicts(queens) or set(queens) & closed:
        raise SolverError("RC2 returned a placement with attacking or blocked queens")
    return {"optimum": len(queens), "seconds": seconds, "cores": cores, "queens": sorted(queens)}


def max_queens_ilp(problem: Problem, solver: str = "highs") -> IlpOptimum:
    """The most queens ``problem``'s open cells hold, by the ``max-queens`` ILP formulation, solved in this
    process; ``optimum``, ``seconds`` (processor time of building and solving, every thread of this process
    and any solver program it waited for), ``nodes`` and ``iterations`` as the solver reports them."""
    from ..methods import solve

    start = processor_seconds()
    result = solve(problem, "ilp", "max-queens", solver, isolated=False)
    seconds = processor_seconds() - start
    optimum = result.stats.get("optimum")
    return {"optimum": len(result.queens or ()) if optimum is None else int(optimum),
            "seconds": seconds, "nodes": result.stats.get("nodes"),
            "iterations": result.stats.get("iterations"), "status": str(result.status)}


def max_queens_race(ns: Sequence[int], density: float, seed: int = 1, instance: int = 1,
                    solver: str = "highs", instances: int = 1) -> list[RaceRow]:
    """Max-queens on random blocked boards (``density`` of the cells blocked; ``instances`` boards per n,
    numbered from ``instance``) by MaxSAT and by ILP; one row per board with both optima (asserted equal),
    both processor times (``maxsat_seconds``, ``ilp_seconds``: see :func:`max_queens_maxsat` and
    :func:`max_queens_ilp`) and the ILP's nodes."""
    rows: list[RaceRow] = []
    for n in ns:
        for board in range(instance, instance + instances):
            problem = Problem(n, blocked=random_blocked(n, density, seed, board))
            sat, ilp = max_queens_maxsat(problem), max_queens_ilp(problem, solver)
            if sat["optimum"] != ilp["optimum"]:
                raise SolverError(f"MaxSAT and {solver} disagree on max-queens of {problem.describe()}: "
                                  f"{sat['optimum']} against {ilp['optimum']}")
            rows.append({"n": n, "instance": board, "blocked": len(problem.blocked), "optimum": sat["optimum"],
                         "maxsat_seconds": sat["seconds"], "ilp_seconds": ilp["seconds"], "ilp_nodes": ilp["nodes"],
                         "ilp_iterations": ilp["iterations"]})
    return rows


class RaceSummary(TypedDict):
    """The boards of one n of a race (:func:`race_summary`): how many, on how many MaxSAT is faster, on how
    many each side wins by more than ``margin`` times, and the spread of MaxSAT's time over ILP's."""

    n: int
    boards: int
    maxsat_faster: int
    maxsat_by_margin: int
    ilp_by_margin: int
    ratio_min: float
    ratio_median: float
    ratio_max: float


def race_summary(rows: Sequence[RaceRow], margin: float = 2.0) -> list[RaceSummary]:
    """Per n: the boards, the count each way, and MaxSAT's time over ILP's (below 1: MaxSAT is faster).

    >>> rows = [{"n": 8, "maxsat_seconds": a, "ilp_seconds": b} for a, b in ((1.0, 4.0), (3.0, 1.0))]
    >>> summary, = race_summary(rows)
    >>> summary["maxsat_faster"], summary["maxsat_by_margin"], summary["ilp_by_margin"], summary["ratio_max"]
    (1, 1, 1, 3.0)
    """
    by_n: dict[int, list[float]] = {}
    for row in rows:
        by_n.setdefault(row["n"], []).append(row["maxsat_seconds"] / max(row["ilp_seconds"], 1e-9))
    summary: list[RaceSummary] = []
    for n, ratios in sorted(by_n.items()):
        ratios.sort()
        summary.append({"n": n, "boards": len(ratios), "maxsat_faster": sum(r < 1 for r in ratios),
                        "maxsat_by_margin": sum(r < 1 / margin for r in ratios),
                        "ilp_by_margin": sum(r > margin for r in ratios), "ratio_min": ratios[0],
                        "ratio_median": statistics.median(ratios), "ratio_max": ratios[-1]})
    return summary
