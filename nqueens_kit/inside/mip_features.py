"""What a MIP solver does besides solving LPs, switched on and off, and what one node costs against one conflict.

A branch-and-cut solver is not "LP plus branching" alone.  Before the search *presolve* simplifies the model;
at every node *bound propagation* does what unit propagation does in a SAT solver (fixing ``x = 1`` zeroes the
other cells of its lines; a row with one free cell left gets its queen); *cuts* tighten the LP; and SCIP, like a
CDCL solver, *analyses the conflict* of an infeasible node and learns a constraint from it.  What remains
different is the LP relaxation at every node, and the absence of clause learning's restarts and activity-driven
branching on learned constraints.

- :func:`impossible_completions`: queens placed at random that no board completes (:data:`CASES`).
- :func:`scip_features`: SCIP (through PySCIPOpt) on the ``lines`` model of each problem under each of
  :data:`SETTINGS`: nodes and LP iterations from SCIP's own counters, and processor time.
- :func:`node_and_conflict_cost`: on the same problems, SCIP's processor time and LP iterations per node
  against MiniSat's processor time and propagations per conflict.
- :func:`write_features` and :func:`read_features`: the grid as a CSV (chapter 7 stores the whole grid, written
  by ``benchmarks/bench_ch7_mip_features.py``, and runs part of it live).

>>> [(p.n, len(p.preplaced)) for p in impossible_completions()]
[(13, 4), (14, 4), (15, 5), (15, 5)]
"""

from __future__ import annotations

import csv
import io
import os
import time
from collections.abc import Iterable, Sequence
from typing import TypedDict

from ..errors import SolverNotAvailable
from ..problem.board import Problem
from ..problem.instances import random_preplacement
from ..runtime.browser import importable
from ..runtime.files import write_whole
from .propagation import load_and_search

#: SCIP parameters for each feature it switches off.
FEATURES: dict[str, dict[str, object]] = {
    "presolve": {"presolving/maxrounds": 0},
    "propagation": {"propagating/maxrounds": 0, "propagating/maxroundsroot": 0},
    "cuts": {"separating/maxrounds": 0, "separating/maxroundsroot": 0},
    "conflict analysis": {"conflict/enable": False},
}
#: The settings compared: SCIP's defaults, each feature off alone, each with presolve off too (presolve
#: alone settles many small instances, hiding the rest), and all four off.
SETTINGS: dict[str, dict[str, object]] = {"everything on": {}}
SETTINGS |= {f"no {name}": params for name, params in FEATURES.items()}
SETTINGS |= {f"no presolve, no {name}": FEATURES["presolve"] | params
             for name, params in FEATURES.items() if name != "presolve"}
SETTINGS["everything off"] = {key: value for params in FEATURES.values() for key, value in params.items()}
#: Impossible completions (n, queens, instance of :func:`~nqueens_kit.problem.instances.random_preplacement`,
#: seed 1) on which SCIP searches when its features are off: drawn from the first 150 instances of each size.
CASES: tuple[tuple[int, int, int], ...] = ((13, 4, 52), (14, 4, 14), (15, 5, 24), (15, 5, 31))


class FeatureRow(TypedDict):
    """One (problem, setting) of :func:`scip_features`."""

    n: int
    queens: int
    setting: str
    status: str
    nodes: int
    iterations: int
    seconds: float


class CostRow(TypedDict):
    """One problem of :func:`node_and_conflict_cost`: both sides' counters and processor times."""

    n: int
    queens: int
    nodes: int
    lp_iterations: int
    mip_seconds: float
    conflicts: int
    propagations: int
    sat_seconds: float


def scip_available() -> bool:
    """Whether PySCIPOpt (with its bundled SCIP) can be imported here."""
    return importable("pyscipopt")


def impossible_completions(cases: Sequence[tuple[int, int, int]] = CASES, seed: int = 1) -> list[Problem]:
    """The problems of ``cases``: ``(n, queens, instance)`` of seeded random placements that no board completes."""
    return [Problem(n, random_preplacement(n, queens, seed, instance)) for n, queens, instance in cases]


def _lines_model(problem: Problem, params: dict[str, object]) -> object:
    """The ``lines`` feasibility model in SCIP: one binary per cell, = 1 per row and column, ≤ 1 per
    diagonal, the placed queens fixed to 1, under ``params``, quiet, on one thread."""
    from pyscipopt import Model, quicksum

    model = Model()
    model.hideOutput()
    model.setParam("randomization/randomseedshift", 0)
    for key, value in params.items():
        model.setParam(key, value)
    n = problem.n
    x = {(r, c): model.addVar(vtype="B", name=f"x_{r}_{c}") for r in range(1, n + 1) for c in range(1, n + 1)}
    for line in problem.lines():
        total = quicksum(x[cell] for cell in line.cells)
        model.addCons(total == 1 if line.exact else total <= 1)
    for cell in problem.preplaced:
        model.addCons(x[cell] == 1)
    return model


def _scip_solve(problem: Problem, params: dict[str, object]) -> tuple[str, int, int, float]:
    model = _lines_model(problem, params)
    start = time.process_time()
    model.optimize()  # type: ignore[attr-defined]
    seconds = time.process_time() - start
    return (str(model.getStatus()), int(model.getNNodes()),  # type: ignore[attr-defined]
            int(model.getNLPIterations()), seconds)  # type: ignore[attr-defined]


def scip_features(problems: Iterable[Problem], settings: Sequence[str] = tuple(SETTINGS)) -> list[FeatureRow]:
    """SCIP on the ``lines`` model of each problem under each setting of :data:`SETTINGS`: its status, its own
    node and LP-iteration counters (the same on every machine for one SCIP version), and processor time."""
    if not scip_available():
        raise SolverNotAvailable("SCIP is not installed here: pip install pyscipopt")
    rows: list[FeatureRow] = []
    for problem in problems:
        for setting in settings:
            status, nodes, iterations, seconds = _scip_solve(problem, SETTINGS[setting])
            rows.append({"n": problem.n, "queens": len(problem.preplaced), "setting": setting, "status": status,
                         "nodes": nodes, "iterations": iterations, "seconds": seconds})
    return rows


def node_and_conflict_cost(problems: Iterable[Problem], repeat: int = 3) -> list[CostRow]:
    """Per problem: SCIP (defaults) with its nodes, LP iterations and processor time, beside MiniSat (pairwise,
    :func:`~nqueens_kit.inside.propagation.load_and_search`, best of ``repeat``) with its conflicts,
    propagations and search processor time; a problem either side settles without search still gets a row."""
    if not scip_available():
        raise SolverNotAvailable("SCIP is not installed here: pip install pyscipopt")
    rows: list[CostRow] = []
    for problem in problems:
        runs = [_scip_solve(problem, {}) for _ in range(repeat)]
        _, nodes, iterations, _ = runs[0]
        sat, = load_and_search(problem, ["pairwise"], repeat=repeat)
        rows.append({"n": problem.n, "queens": len(problem.preplaced), "nodes": nodes, "lp_iterations": iterations,
                     "mip_seconds": min(run[3] for run in runs), "conflicts": sat["conflicts"],
                     "propagations": sat["propagations"], "sat_seconds": sat["search"]})
    return rows


FIELDS = ("n", "queens", "setting", "status", "nodes", "iterations", "seconds")


def write_features(rows: Sequence[FeatureRow], path: str | os.PathLike[str]) -> None:
    """The rows of :func:`scip_features` as a CSV (one line per problem and setting), written in one step."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=FIELDS, lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({**row, "seconds": f"{row['seconds']:.6f}"})
    write_whole(path, out.getvalue(), what="the SCIP settings grid (CSV)")


def read_features(path: str | os.PathLike[str]) -> list[FeatureRow]:
    """The rows :func:`write_features` wrote, in their order."""
    with open(path, newline="", encoding="utf-8") as handle:
        return [{"n": int(r["n"]), "queens": int(r["queens"]), "setting": r["setting"], "status": r["status"],
                 "nodes": int(r["nodes"]), "iterations": int(r["iterations"]), "seconds": float(r["seconds"])}
                for r in csv.DictReader(handle)]


__all__ = ["CASES", "FEATURES", "FIELDS", "SETTINGS", "CostRow", "FeatureRow", "impossible_completions",
           "node_and_conflict_cost", "read_features", "scip_available", "scip_features", "write_features"]
