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
[(11, 3), (11, 3), (11, 3), (11, 3), (11, 3), (13, 4), (13, 4), (14, 4)]
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
#: seed 1) on which SCIP branches when its features are off: every one of them among the first 600 instances of
#: 3 queens on 11 x 11 and 12 x 12 and 4 queens on 13 x 13 to 15 x 15 (the other impossible ones there are
#: refuted by the root LP alone), but (11, 3, 216) and (11, 3, 299), which branch least.
CASES: tuple[tuple[int, int, int], ...] = ((11, 3, 57), (11, 3, 61), (11, 3, 213), (11, 3, 446), (11, 3, 507),
                                           (13, 4, 52), (13, 4, 279), (14, 4, 14))
#: SCIP's random seeds (``randomization/randomseedshift``) each setting runs with: its branching and heuristics
#: draw from them, so one seed is one sample of the same tree's size.
SEEDS: tuple[int, ...] = (0, 1, 2)


class FeatureRow(TypedDict):
    """One (problem, setting) of :func:`scip_features`."""

    board: int  # the problem's position in the list given (from 1)
    n: int
    queens: int
    setting: str
    seed: int
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


def _lines_model(problem: Problem, params: dict[str, object], seed: int = 0) -> object:
    """The ``lines`` feasibility model in SCIP: one binary per cell, = 1 per row and column, ≤ 1 per
    diagonal, the placed queens fixed to 1, under ``params`` and the random ``seed``, quiet, on one thread."""
    from pyscipopt import Model, quicksum

    model = Model()
    model.hideOutput()
    model.setParam("randomization/randomseedshift", seed)
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


def _scip_solve(problem: Problem, params: dict[str, object], seed: int = 0) -> tuple[str, int, int, float]:
    model = _lines_model(problem, params, seed)
    start = time.process_time()
    model.optimize()  # type: ignore[attr-defined]
    seconds = time.process_time() - start
    return (str(model.getStatus()), int(model.getNNodes()),  # type: ignore[attr-defined]
            int(model.getNLPIterations()), seconds)  # type: ignore[attr-defined]


def scip_features(problems: Iterable[Problem], settings: Sequence[str] = tuple(SETTINGS),
                  seeds: Sequence[int] = (0,)) -> list[FeatureRow]:
    """SCIP on the ``lines`` model of each problem under each setting of :data:`SETTINGS` and each random seed:
    its status, its own node and LP-iteration counters (the same on every machine for one SCIP version and
    seed), and processor time.  Rows: problem by problem, seed by seed, setting by setting."""
    if not scip_available():
        raise SolverNotAvailable("SCIP is not installed here: pip install pyscipopt")
    rows: list[FeatureRow] = []
    for board, problem in enumerate(problems, 1):
        for seed in seeds:
            for setting in settings:
                status, nodes, iterations, seconds = _scip_solve(problem, SETTINGS[setting], seed)
                rows.append({"board": board, "n": problem.n, "queens": len(problem.preplaced), "setting": setting,
                             "seed": seed, "status": status, "nodes": nodes, "iterations": iterations,
                             "seconds": seconds})
    return rows


class NodeCost(TypedDict):
    """What one node of SCIP's tree costs on top of its fixed part (:func:`node_cost`)."""

    boards: int  # the boards whose tree branched (the others tell nothing about a node's cost)
    nodes: int  # their nodes beyond the root
    seconds: float  # their processor time beyond the root-only run's
    per_node: float | None  # seconds a node, None if no board branched


def node_cost(problems: Iterable[Problem], setting: str = "everything off", seed: int = 0) -> NodeCost:
    """The processor time of one node of SCIP's tree under ``setting``, without SCIP's fixed part: each problem
    is solved twice, to the end and with a limit of one node (reading the model, presolve, the root LP and
    whatever SCIP does there), and the difference of the two times is shared among the nodes beyond the root.
    Summed over the problems whose tree branched."""
    if not scip_available():
        raise SolverNotAvailable("SCIP is not installed here: pip install pyscipopt")
    boards, nodes, seconds = 0, 0, 0.0
    for problem in problems:
        _, full_nodes, _, full_seconds = _scip_solve(problem, SETTINGS[setting], seed)
        if full_nodes <= 1:
            continue
        _, _, _, root_seconds = _scip_solve(problem, {**SETTINGS[setting], "limits/nodes": 1}, seed)
        boards, nodes, seconds = boards + 1, nodes + full_nodes - 1, seconds + max(0.0, full_seconds - root_seconds)
    return {"boards": boards, "nodes": nodes, "seconds": seconds, "per_node": seconds / nodes if nodes else None}


def feature_effects(rows: Sequence[FeatureRow]) -> dict[str, tuple[int, int]]:
    """Per setting: on how many (board, seed) runs its tree is larger than SCIP's defaults' on the same board
    and seed, of how many runs it has."""
    default = {(r["board"], r["seed"]): r["nodes"] for r in rows if r["setting"] == "everything on"}
    effects: dict[str, tuple[int, int]] = {}
    for row in rows:
        grown, runs = effects.get(row["setting"], (0, 0))
        larger = row["nodes"] > default.get((row["board"], row["seed"]), row["nodes"])
        effects[row["setting"]] = (grown + larger, runs + 1)
    return effects


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


FIELDS = ("board", "n", "queens", "setting", "seed", "status", "nodes", "iterations", "seconds")


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
        return [{"board": int(r["board"]), "n": int(r["n"]), "queens": int(r["queens"]), "setting": r["setting"],
                 "seed": int(r["seed"]), "status": r["status"], "nodes": int(r["nodes"]),
                 "iterations": int(r["iterations"]), "seconds": float(r["seconds"])}
                for r in csv.DictReader(handle)]


__all__ = ["CASES", "FEATURES", "FIELDS", "SEEDS", "SETTINGS", "CostRow", "FeatureRow", "NodeCost",
           "feature_effects", "impossible_completions", "node_and_conflict_cost", "node_cost", "read_features",
           "scip_available", "scip_features", "write_features"]
