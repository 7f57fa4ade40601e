"""SCIP's parts switched on and off, and the cost of a node against a conflict, on boards with no completion."""

from __future__ import annotations

import pycosat
import pytest

from nqueens_kit import build_cnf
from nqueens_kit.inside.mip_features import (
    CASES,
    FEATURES,
    SEEDS,
    SETTINGS,
    impossible_completions,
    node_and_conflict_cost,
    scip_available,
    scip_features,
)
from nqueens_kit.inside.propagation import truth

needs_scip = pytest.mark.skipif(not scip_available(), reason="pyscipopt is not installed")


def test_the_cases_have_no_completion_by_two_independent_searches() -> None:
    problems = impossible_completions()
    assert [(p.n, len(p.preplaced)) for p in problems] == [(n, k) for n, k, _ in CASES]
    for problem in problems:
        assert pycosat.solve(build_cnf(problem).clauses) == "UNSAT"
    assert not truth(problems[0])[2]  # exhaustive backtracking agrees (the smallest board; the others take longer)


def test_settings_switch_off_exactly_the_named_parts() -> None:
    assert SETTINGS["everything on"] == {}
    off = SETTINGS["everything off"]
    for name, params in FEATURES.items():
        assert SETTINGS[f"no {name}"] == params
        assert params.items() <= off.items()
        if name != "presolve":
            assert SETTINGS[f"no presolve, no {name}"] == FEATURES["presolve"] | params
    assert off["conflict/enable"] is False and off["presolving/maxrounds"] == 0


@needs_scip
def test_every_setting_proves_infeasibility_and_switching_everything_off_grows_the_tree() -> None:
    problems = impossible_completions()[:2]
    rows = scip_features(problems, ["everything on", "no conflict analysis", "everything off"])
    assert len(rows) == 6 and all(row["status"] == "infeasible" for row in rows)
    nodes = {setting: sum(r["nodes"] for r in rows if r["setting"] == setting)
             for setting in ("everything on", "everything off")}
    assert nodes["everything off"] >= 2 * nodes["everything on"]  # 264 against 2 with pyscipopt 6.3.0 and 5.0.1
    assert all(row["iterations"] >= 0 and row["seconds"] >= 0 for row in rows)


@needs_scip
def test_node_and_conflict_cost_reads_both_solvers_counters() -> None:
    problem = impossible_completions()[0]
    row, = node_and_conflict_cost([problem], repeat=1)
    assert row["n"] == problem.n and row["queens"] == len(problem.preplaced)
    assert row["nodes"] >= 0 and row["lp_iterations"] > 0  # SCIP solves at least its root LP
    assert row["conflicts"] > 0 and row["propagations"] > row["conflicts"]  # MiniSat searches on this board


def test_the_stored_grid_covers_every_case_and_setting_in_order() -> None:
    from pathlib import Path

    from nqueens_kit.bench import read_meta
    from nqueens_kit.inside.mip_features import read_features

    stored = Path(__file__).resolve().parents[1] / "notebooks" / "data" / "ch7-mip-features.csv"
    rows = read_features(stored)
    assert [(r["n"], r["queens"], r["seed"], r["setting"]) for r in rows] == [
        (n, k, seed, setting) for n, k, _ in CASES for seed in SEEDS for setting in SETTINGS]  # the chapter's order
    assert all(r["status"] == "infeasible" and r["nodes"] >= 0 for r in rows)
    total = {s: sum(r["nodes"] for r in rows if r["setting"] == s) for s in ("everything on", "everything off")}
    assert total["everything off"] >= 2 * total["everything on"]
    meta = read_meta(stored)
    assert meta is not None and "scip" in meta["solvers"] and "bench_ch7_mip_features.py" in meta["sessions"][-1]["command"]
