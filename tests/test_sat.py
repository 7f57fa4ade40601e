from __future__ import annotations

import itertools
import shutil
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nqueens_kit.board import Problem, attacks, verify
from nqueens_kit.cnf import build_cnf
from nqueens_kit.construct import iter_backtrack
from nqueens_kit.encodings import ENCODINGS
from nqueens_kit.errors import InputError, NQueensError, SolverNotAvailable
from nqueens_kit.reference import published_count
from nqueens_kit.sat import (
    SAT_SOLVERS,
    Binary,
    Pycosat,
    _cubes,
    count_projected,
    count_solutions,
    get_sat_solver,
    iter_solutions,
    solve_clauses,
    solve_sat,
)

from .conftest import brute_force, need

BINARIES = ["minisat", "cadical", "picosat"]


@pytest.mark.parametrize("encoding", list(ENCODINGS))
def test_solution_sets_equal_brute_force(encoding):
    for n in range(1, 9):
        found = list(iter_solutions(n, encoding))
        assert len(found) == len(set(found)), "a board was produced twice"
        assert set(found) == brute_force(n)


@pytest.mark.parametrize("encoding", list(ENCODINGS))
def test_counts_match_published(encoding):
    for n in range(1, 11):
        result = count_solutions(n, encoding, fundamental=n <= 9)
        assert result.count == published_count(n)
        if n <= 9:
            assert result.fundamental == published_count(n, fundamental=True)


def test_count_12_fundamental():
    result = count_solutions(12, "pairwise", fundamental=True)
    assert (result.count, result.fundamental) == (published_count(12), published_count(12, True))


def test_naive_itersolve_overcounts_with_helpers():
    """The pitfall the kit avoids: blocking over all variables counts helper assignments too."""
    import pycosat

    cnf = build_cnf(6, "sequential")
    naive = sum(1 for _ in itertools.islice(pycosat.itersolve(cnf.clauses, vars=cnf.num_vars), 2000))
    assert naive > published_count(6)
    assert count_solutions(6, "sequential").count == published_count(6)


@pytest.mark.parametrize("solver", ["pysat-cadical", "pysat-glucose", "pysat-minisat"])
@pytest.mark.parametrize("encoding", ["pairwise", "sequential", "binary"])
def test_pysat_enumeration(solver, encoding):
    need(SAT_SOLVERS[solver].available(), "python-sat")
    for n in range(4, 9):
        assert set(iter_solutions(n, encoding, solver)) == brute_force(n)


@pytest.mark.parametrize("solver", BINARIES)
def test_binary_solvers_count_with_helpers(solver):
    need(SAT_SOLVERS[solver].available(), solver)
    assert count_solutions(6, "sequential", solver).count == 4
    assert count_solutions(Problem(6, [(1, 2)]), "commander", solver).count == 1


@given(st.integers(min_value=4, max_value=7), st.lists(st.tuples(st.integers(1, 7), st.integers(1, 7)), max_size=3),
       st.sampled_from(list(ENCODINGS)))
@settings(max_examples=40, deadline=None)
def test_preplaced_counts_equal_backtracking(n, cells, encoding):
    cells = [c for c in cells if c[0] <= n and c[1] <= n]
    if any(attacks(a, b) for a, b in itertools.combinations(set(cells), 2)):
        with pytest.raises(InputError):
            Problem(n, cells)
        return
    problem = Problem(n, cells)
    expected = sorted(iter_backtrack(n, problem.preplaced))
    assert sorted(iter_solutions(problem, encoding)) == expected
    result = solve_sat(problem, encoding)
    assert result.status == ("solved" if expected else "infeasible")
    if expected:
        assert result.verified and set(problem.preplaced) <= set(result.queens)


def test_cubes_partition_the_search():
    for n in range(1, 11):
        cubes = _cubes(Problem(n))
        weight = sum(2 if mirrored else 1 for _, mirrored in cubes)
        assert weight >= 1
        prefixes = [tuple(units) for units, _ in cubes]
        assert len(prefixes) == len(set(prefixes))


@pytest.mark.parametrize("n", [1, 4, 5, 8, 13, 30])
@pytest.mark.parametrize("encoding", list(ENCODINGS))
def test_solve_gives_verified_board(n, encoding):
    result = solve_sat(n, encoding)
    assert result.status == "solved" and result.verified and verify(n, result.queens)
    assert (result.variables, result.clauses) == (build_cnf(n, encoding).num_vars, build_cnf(n, encoding).num_clauses)


def test_statuses():
    assert solve_sat(1).queens == ((1, 1),)
    for n in (2, 3):
        result = solve_sat(n)
        assert result.status == "infeasible" and "no solution" in result.message and result.verified is None
    impossible = solve_sat(Problem(8, [(1, 1), (2, 3)]))
    assert impossible.status == "infeasible" and "cannot be completed" in impossible.message


class _Sleepy(Pycosat):
    name = "sleepy"

    def _solve(self, clauses, num_vars, time_limit):
        time.sleep(60)


def test_time_limit_gives_timeout_and_stops(monkeypatch):
    monkeypatch.setitem(SAT_SOLVERS, "sleepy", _Sleepy())
    start = time.perf_counter()
    result = solve_sat(8, solver="sleepy", time_limit=0.5)
    assert result.status == "timeout" and "time limit" in result.message
    assert time.perf_counter() - start < 30  # the child was stopped, not waited for


def test_in_process_solver_with_time_limit_still_solves():
    result = solve_sat(20, "sequential", time_limit=60)
    assert result.status == "solved" and result.verified


@pytest.mark.parametrize("solver", BINARIES)
def test_external_binaries(solver):
    need(SAT_SOLVERS[solver].available(), solver)
    result = solve_sat(Problem(10, [(1, 1)]), "sequential", solver)
    assert result.status == "solved" and result.verified
    assert solve_sat(3, solver=solver).status == "infeasible"


def test_any_executable_on_path_counts_as_competition_solver():
    need(shutil.which("picosat") is not None, "picosat")
    solver = get_sat_solver(shutil.which("picosat"))
    assert isinstance(solver, Binary)
    outcome = solve_clauses([[1, 2], [-1], [-2, 3]], 3, shutil.which("picosat"))
    assert outcome.status == "sat" and set(outcome.model) == {-1, 2, 3}


def test_missing_and_unknown_solvers():
    with pytest.raises(SolverNotAvailable, match="not installed"):
        Binary("no-such-solver-xyz", package="no-such").require()
    with pytest.raises(InputError, match="unknown SAT solver 'zchaff'; valid: pycosat"):
        get_sat_solver("zchaff")
    with pytest.raises(InputError, match="time limit must be a positive"):
        solve_clauses([[1]], 1, time_limit=0)


def test_binary_that_prints_nothing_is_a_clear_error(tmp_path):
    fake = tmp_path / "silent-solver"
    fake.write_text("#!/bin/sh\necho 'segmentation fault' >&2\nexit 139\n")
    fake.chmod(0o755)
    with pytest.raises(NQueensError, match="gave no answer.*139.*segmentation fault"):
        solve_clauses([[1]], 1, str(fake))


def _foreign_seven_queens():
    """A 7-queens CNF written the long way (every ordered pair of attacking cells, duplicates and all)."""
    n = 7
    var = lambda r, c: r * n + c + 1  # noqa: E731
    clauses = [[var(r, c) for c in range(n)] for r in range(n)]
    for r1, c1, r2, c2 in itertools.product(range(n), repeat=4):
        if (r1, c1) != (r2, c2) and (r1 == r2 or c1 == c2 or abs(r1 - r2) == abs(c1 - c2)):
            clauses.append([-var(r1, c1), -var(r2, c2)])
    return clauses


def test_count_projected_on_foreign_formula():
    count, boards = count_projected(_foreign_seven_queens(), 49, 7)
    assert count == published_count(7) and all(verify(7, b) for b in boards)


def test_count_projected_with_helpers():
    cnf = build_cnf(6, "binary")
    count, boards = count_projected(cnf.clauses, cnf.num_vars, 6)
    assert count == 4 and len(set(boards)) == 4
    with pytest.raises(InputError, match="fewer than the 64 board variables"):
        count_projected(cnf.clauses, 40, 8)
