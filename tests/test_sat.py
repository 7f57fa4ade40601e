from __future__ import annotations

import itertools
import shutil
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nqueens_kit.errors import InputError, NQueensError, SolverNotAvailable
from nqueens_kit.methods import count_solutions, iter_solutions, solve_sat
from nqueens_kit.methods.sat.cnf import build_cnf
from nqueens_kit.methods.sat.encodings import ENCODINGS
from nqueens_kit.methods.sat.formula import count_formula, iter_projected
from nqueens_kit.methods.sat.solve import ROW_END_SYMMETRIES, cubes, iter_boards
from nqueens_kit.methods.search.backtrack import iter_backtrack
from nqueens_kit.problem.board import Problem, attacks, transform, verify
from nqueens_kit.problem.reference import published_count
from nqueens_kit.solvers import SAT_SOLVERS, Binary, Pycosat, get_solver

from .conftest import brute_force, need

BINARIES = ["minisat", "cadical", "picosat", "kissat"]


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
    """Every board lies in exactly one cube, directly or as the image of a board of the cube under one of the
    cube's symmetries (checked by the independent backtracker, with and without pre-placed queens)."""
    for n in range(1, 11):
        for problem in (Problem(n), Problem(n, [(2, 1)]) if n >= 2 else Problem(n)):
            parts = cubes(problem)
            depth = max((len(units) for units, _ in parts), default=0)
            symmetric = not problem.preplaced and n >= 4  # rows 1 and n are fixed together
            assert depth == (3 if n >= 8 else 2 if symmetric else 1) or n < 3
            prefixes = [tuple(sorted(units)) for units, _ in parts]
            assert len(prefixes) == len(set(prefixes))
            for _units, images in parts:
                assert images[0] == "identity" and len(set(images)) == len(images)
                assert all(image in ROW_END_SYMMETRIES for image in images)
                assert problem.preplaced == () or images == ("identity",)
            for board in iter_backtrack(problem):
                covers = 0
                for units, images in parts:
                    cells = {problem.cell(u) for u in units}
                    # the four row-end symmetries are their own inverses: board = image(found) iff
                    # found = image(board)
                    covers += sum(1 for image in images if cells <= set(transform(n, board, image)))
                assert covers == 1, (n, problem.preplaced, board)


@pytest.mark.parametrize("solver, sizes", [("pycosat", "all"), ("pysat-minisat", "all"), ("minisat", "small"),
                                           pytest.param("minisat", "deep", marks=pytest.mark.deep, id="minisat-deep")])
def test_symmetric_cubes_count_every_board_once(solver, sizes):
    """The boards iter_boards yields are exactly the backtracker's, with no repeats (sorted lists, not sets),
    for every encoding: pycosat's defined helpers, python-sat's blocking on the open cells of an in-process
    model, and a DIMACS binary's unordered model (one process per board: the binary gets the smaller
    problems, and the larger ones in the deep profile)."""
    need(SAT_SOLVERS[solver].available(), solver)
    problems = {"all": [Problem(5), Problem(6), Problem(8), Problem(9, [(4, 2)]), Problem(9),
                        Problem(10, [(1, 3), (9, 9)])],
                "small": [Problem(5), Problem(6)], "deep": [Problem(8), Problem(9, [(4, 2)])]}[sizes]
    for problem in problems:
        truth = sorted(iter_backtrack(problem))
        for encoding in ENCODINGS:
            found = list(iter_boards(problem, encoding, solver))
            assert sorted(found) == truth, (problem, encoding, solver)


def test_count_from_cnf_keys_cells_not_columns():
    """A foreign formula's assignments may put two queens in a row: they are distinct, not repeats."""
    result, invalid = count_formula([[1, 2, 3, 4]], 4, 2, "pycosat")
    assert result.count == 15 and invalid == 15


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


#: How long the sleepy solver takes: a solve that ends much sooner was stopped, not waited for.
SLEEPY_SECONDS = 600


class _Sleepy(Pycosat):
    name = "sleepy"

    def solve(self, clauses, num_vars, deadline=None, assumptions=()):
        time.sleep(SLEEPY_SECONDS)


def test_time_limit_gives_timeout_and_stops(monkeypatch):
    monkeypatch.setitem(SAT_SOLVERS, "sleepy", _Sleepy())
    start = time.perf_counter()
    result = solve_sat(8, solver="sleepy", time_limit=0.5)
    assert result.status == "timeout" and "time limit" in result.message
    assert time.perf_counter() - start < SLEEPY_SECONDS / 10  # the child was stopped, not waited for


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
    solver = get_solver("sat", shutil.which("picosat"))
    assert isinstance(solver, Binary)
    outcome = solver.solve([[1, 2], [-1], [-2, 3]], 3)
    assert outcome.status == "sat" and set(outcome.model) == {-1, 2, 3}


def test_missing_and_unknown_solvers():
    with pytest.raises(SolverNotAvailable, match="not installed"):
        Binary("no-such-solver-xyz", package="no-such").require()
    with pytest.raises(InputError, match="unknown SAT solver 'zchaff'; valid: pycosat"):
        get_solver("sat", "zchaff")
    with pytest.raises(InputError, match="time limit must be a positive"):
        solve_sat(8, time_limit=0)


def test_binary_that_prints_nothing_is_a_clear_error(tmp_path):
    fake = tmp_path / "silent-solver"
    fake.write_text("#!/bin/sh\necho 'segmentation fault' >&2\nexit 139\n")
    fake.chmod(0o755)
    with pytest.raises(NQueensError, match="gave no usable answer.*139.*segmentation fault"):
        get_solver("sat", str(fake)).solve([[1]], 1)


def _foreign_seven_queens():
    """A 7-queens CNF written the long way (every ordered pair of attacking cells, duplicates and all)."""
    n = 7
    var = lambda r, c: r * n + c + 1  # noqa: E731
    clauses = [[var(r, c) for c in range(n)] for r in range(n)]
    for r1, c1, r2, c2 in itertools.product(range(n), repeat=4):
        if (r1, c1) != (r2, c2) and (r1 == r2 or c1 == c2 or abs(r1 - r2) == abs(c1 - c2)):
            clauses.append([-var(r1, c1), -var(r2, c2)])
    return clauses


@pytest.mark.parametrize("solver", ["pycosat", "pysat-cadical", "minisat"])
def test_count_projected_on_foreign_formula(solver):
    need(SAT_SOLVERS[solver].available(), solver)
    boards = list(iter_projected(_foreign_seven_queens(), 49, 7, solver))
    assert len(boards) == published_count(7) and all(verify(7, b) for b in boards)


@pytest.mark.parametrize("solver", ["pycosat", "pysat-cadical", "minisat"])
def test_count_projected_with_helpers(solver):
    need(SAT_SOLVERS[solver].available(), solver)
    cnf = build_cnf(6, "binary")
    boards = list(iter_projected(cnf.clauses, cnf.num_vars, 6, solver))
    assert len(boards) == 4 and len(set(boards)) == 4
    with pytest.raises(InputError, match="fewer than the 64 board variables"):
        list(iter_projected(cnf.clauses, 40, 8))


def test_projected_partition_covers_every_assignment():
    """The pycosat route for formulas with helpers splits on the first rows; nothing may be lost or doubled."""
    from nqueens_kit.methods.sat.formula import _partition

    for n in (1, 2, 3):
        cubes_ = list(_partition(n, rows=min(2, n)))
        for bits in itertools.product([False, True], repeat=min(2, n) * n):
            assignment = {v + 1 for v, on in enumerate(bits) if on}
            matching = [c for c in cubes_ if all((lit > 0) == (abs(lit) in assignment) for lit in c)]
            assert len(matching) == 1
