"""Every method agrees with every other on random completion instances, and every board is verified.

For random n <= 9 and random non-attacking pre-placements: every SAT encoding (pycosat), every ILP
formulation with CBC and with HiGHS, and bitmask backtracking agree on whether a completion exists; the
SAT encodings and backtracking agree on how many completions there are (the ILP formulations too when
there are few: each of their boards costs a full re-solve); each board passes the independent verifier.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nqueens_kit import ENCODINGS, FORMULATIONS, Problem, count, solve, verify
from nqueens_kit.problem.board import attacks
from nqueens_kit.solvers import ILP_SOLVERS

from .conftest import brute_force, need

#: ILP enumeration re-solves once per board; count completions by ILP only when there are this few.
ILP_COUNT_MAX = 12


@st.composite
def instances(draw):
    n = draw(st.integers(4, 9))
    cells = draw(st.lists(st.tuples(st.integers(1, n), st.integers(1, n)), min_size=1, max_size=3, unique=True))
    cells = [c for i, c in enumerate(cells) if not any(attacks(c, d) for d in cells[:i])]
    return Problem(n, cells)


@pytest.mark.parametrize("count", [6, pytest.param(24, marks=pytest.mark.deep)])
def test_methods_agree_on_completions(count):
    """``count`` random instances (the deep profile, pytest -m deep, tries four times as many)."""
    settings(max_examples=count, deadline=None, suppress_health_check=[HealthCheck.too_slow])(
        given(instances())(_agree_on_completion))()


def _agree_on_completion(problem):
    truth = brute_force(problem.n, problem.preplaced)  # independent of the kit: permutations
    assert count(problem, "backtrack").count == len(truth)
    for encoding in ENCODINGS:
        result = solve(problem, "sat", encoding)
        assert result.status == ("solved" if truth else "infeasible"), encoding
        if truth:
            assert result.verified and result.queens in truth
        assert count(problem, "sat", encoding).count == len(truth), encoding
    for solver, backend in ILP_SOLVERS.items():
        need(backend.available(), solver)
        for formulation in FORMULATIONS:
            result = solve(problem, "ilp", formulation, solver)
            assert result.status == ("solved" if truth else "infeasible"), (formulation, solver)
            if truth:
                assert result.verified and verify(problem.n, result.queens, problem.preplaced)
            if len(truth) <= ILP_COUNT_MAX:
                assert count(problem, "ilp", formulation, solver).count == len(truth), (formulation, solver)


@pytest.mark.parametrize("n", range(1, 9))
def test_methods_agree_without_preplaced_queens(n):
    truth = brute_force(n)
    statuses = {solve(n, "sat", e).status for e in ENCODINGS}
    statuses |= {solve(n, "ilp", f).status for f in FORMULATIONS}
    statuses.add(solve(n, "backtrack").status)
    assert statuses == {"solved" if truth else "infeasible"}
    assert {count(n, "sat", e).count for e in ENCODINGS} == {count(n, "backtrack").count} == {len(truth)}


def test_impossible_completion_core_is_minimal_for_every_method():
    problem = Problem(8, [(1, 1), (2, 3), (5, 8)])
    assert not brute_force(8, problem.preplaced)
    for method, variant in [("sat", e) for e in ENCODINGS] + [("ilp", f) for f in FORMULATIONS]:
        result = solve(problem, method, variant, isolated=True)
        assert result.status == "infeasible" and result.core, (method, variant)
        assert not brute_force(8, result.core)  # the core alone is already impossible
        for queen in result.core:  # and every queen of it is needed
            assert brute_force(8, [q for q in result.core if q != queen])
        assert set(result.core) <= set(problem.preplaced)
