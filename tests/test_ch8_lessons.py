"""Chapter 8's measurement helpers (nqueens_kit.course.cp_lessons), the renamed consistency of
nqueens_kit.inside.domains, and chapter 5's reading of unfinished runs in a phase study (crossing_range and
the unfinished share plot_phase draws)."""

from __future__ import annotations

import math

import pytest

from nqueens_kit import Problem
from nqueens_kit.bench.phase import crossing_range, instance_problem, unfinished_share
from nqueens_kit.course.cp_lessons import first_fail_runs, first_fail_solver, growth_exponent, local_search_at_crossing
from nqueens_kit.errors import InputError
from nqueens_kit.inside.domains import domains
from nqueens_kit.solvers import available_solvers
from nqueens_kit.viz.charts import plot_phase


def test_ac_is_the_taught_name_and_forward_still_means_it() -> None:
    for problem in (Problem(5, [(2, 2)]), Problem(8, [(1, 1), (2, 3)]), Problem(6, [(1, 3), (5, 1)])):
        ac, old = domains(problem, "ac"), domains(problem, "forward")
        assert (ac.domains, ac.conflict, ac.revisions) == (old.domains, old.conflict, old.revisions)
    with pytest.raises(InputError, match="valid: ac, gac"):
        domains(Problem(4), "fc")


def test_ac_is_a_fixpoint_not_one_pass_of_forward_checking() -> None:
    """Forward checking proper prunes once, from the placed rows; the fixpoint goes on from the rows that
    pruning fixes.  Queens on (1, 2) and (3, 6) of 6 x 6: one pass leaves row 2 only column 4, and the
    fixpoint takes column 4 (and its diagonals) from rows 4 to 6 as well."""
    problem = Problem(6, [(1, 2), (3, 6)])
    placed = dict(problem.preplaced)
    one_pass = {r: {placed[r]} if r in placed else
                {c for c in range(1, 7) if all(c != pc and abs(r - pr) != abs(c - pc) for pr, pc in placed.items())}
                for r in range(1, 7)}
    fixpoint = domains(problem, "ac").domains
    assert one_pass[2] == {4} and all(fixpoint[r] <= one_pass[r] for r in range(1, 7))
    assert {r: sorted(one_pass[r] - fixpoint[r]) for r in (4, 5, 6)} == {4: [4], 5: [1], 6: [4]}


@pytest.mark.parametrize(("power", "factor"), [(0.5, 3.0), (1.0, 0.2), (2.0, 7.0)])
def test_growth_exponent_recovers_a_power_law(power: float, factor: float) -> None:
    ns = [10, 100, 1000, 10_000]
    assert math.isclose(growth_exponent(ns, [factor * n**power for n in ns]), power, rel_tol=1e-9)
    assert growth_exponent(ns, [5, 5, 5, 5]) == 0


def test_local_search_at_the_crossing_never_claims_a_board_sat_refutes() -> None:
    rows = local_search_at_crossing(12, 0.55, 3)
    assert [row["instance"] for row in rows] == [1, 2, 3]
    for row in rows:
        assert row["sat_answer"] in ("solved", "infeasible")
        assert not (row["found"] and row["sat_answer"] == "infeasible")
        assert row["steps"] <= row["budget"]
        assert row["found"] or row["steps"] == row["budget"]  # gave up only with the budget spent
    assert instance_problem("blocked", 12, 0.55, 1, 1).blocked  # the instances have blocked cells at all


def test_first_fail_runs_report_the_solver_counts() -> None:
    solver = first_fail_solver()
    if solver is None:
        assert not {"minizinc", "cp-sat"} & set(available_solvers("cp"))
        pytest.skip("no CP solver installed")
    rows = first_fail_runs([8, 12], solver, time_limit=30)
    assert [row["status"] for row in rows] == ["solved", "solved"]
    assert all(row["failures"] is not None and row["nodes"] is not None for row in rows)
    if solver == "minizinc":
        assert {row["alldifferent"] for row in rows} == {"value consistency"}


def _point(density: float, completable: int, impossible: int, unsolved: int) -> dict[str, object]:
    decided = completable + impossible
    return {"config": "c", "n": 10, "density": density, "instances": completable + impossible + unsolved,
            "completable": completable, "impossible": impossible, "unsolved": unsolved, "family": "blocked",
            "method": "sat", "variant": "sequential", "solver": "pysat-minisat",
            "completable_share": completable / decided if decided else None, "median_conflicts": 10.0 + density,
            "median_seconds": 0.1, "par2_seconds": 0.1}


def test_crossing_range_brackets_the_crossing_of_decided_runs() -> None:
    summary = [_point(0.0, 8, 0, 0), _point(0.4, 5, 1, 2), _point(0.8, 1, 5, 2)]
    low, high = crossing_range(summary, 10, "c")
    assert low is not None and high is not None and low < high
    # every unfinished run impossible: shares 1, 5/8, 1/8; all completable: 1, 7/8, 3/8
    assert math.isclose(low, 0.4 + (5 / 8 - 0.5) / (5 / 8 - 1 / 8) * 0.4, abs_tol=1e-6)
    assert math.isclose(high, 0.4 + (7 / 8 - 0.5) / (7 / 8 - 3 / 8) * 0.4, abs_tol=1e-6)
    decided = [_point(0.0, 8, 0, 0), _point(0.4, 6, 2, 0), _point(0.8, 1, 7, 0)]
    assert crossing_range(decided, 10, "c")[0] == crossing_range(decided, 10, "c")[1]
    assert unfinished_share(summary, 10, "c") == [(0.0, 0.0), (0.4, 0.25), (0.8, 0.25)]


def test_plot_phase_draws_the_unfinished_share_only_where_runs_did_not_finish() -> None:
    with_unfinished = [_point(0.0, 8, 0, 0), _point(0.4, 5, 1, 2), _point(0.8, 1, 5, 2)]
    labels = [line.get_label() for line in plot_phase(with_unfinished, cost="conflicts").axes[0].get_lines()]
    assert "n = 10: share not finished" in labels
    decided = [_point(0.0, 8, 0, 0), _point(0.4, 6, 2, 0), _point(0.8, 1, 7, 0)]
    labels = [line.get_label() for line in plot_phase(decided, cost="conflicts").axes[0].get_lines()]
    assert not any("not finished" in label for label in labels)
