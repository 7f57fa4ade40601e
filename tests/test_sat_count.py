"""Counting and listing by SAT with the symmetry of the border: the counts are the published ones, the boards
listed are exactly the backtracker's, each once, and a solver that lies is caught."""

from __future__ import annotations

import pytest

from nqueens_kit.errors import SolverError
from nqueens_kit.methods import count
from nqueens_kit.methods.sat import solve
from nqueens_kit.methods.sat.encodings import ENCODINGS
from nqueens_kit.methods.sat.solve import (
    BorderCube,
    _border_boards,
    _border_configurations,
    border_cubes,
    border_images,
    count_boards,
    iter_boards,
)
from nqueens_kit.methods.search.backtrack import iter_backtrack
from nqueens_kit.problem.board import SYMMETRIES, Problem, canonical, verify
from nqueens_kit.problem.reference import published_count
from nqueens_kit.solvers import SAT_SOLVERS

from .conftest import need

#: In-process solvers the properties run with (each through its own path: pycosat's itersolve, python-sat's
#: assumptions on one solver per pair of row queens).
SOLVERS = ["pycosat", "pysat-minisat", "pysat-cadical", "pysat-glucose"]


def border_of(n: int, board) -> frozenset:
    """The queens of a board on its first and last rows and columns."""
    return frozenset(cell for cell in board if cell[0] in (1, n) or cell[1] in (1, n))


def test_border_cubes_are_one_configuration_per_orbit():
    """The orbits' sizes add up to every configuration; the orbits are disjoint and closed under the 8
    symmetries; each weight is the number of distinct images, and border_images names one symmetry per
    image; every board of backtracking has its border in exactly one orbit."""
    for n in range(4, 11):
        cubes = border_cubes(n)
        configurations = {frozenset(q) for q in _border_configurations(n)}
        assert sum(cube.weight for cube in cubes) == len(configurations)
        covered: set[frozenset] = set()
        for cube in cubes:
            images = {frozenset(f(n, r, c) for r, c in cube.queens) for _, f in SYMMETRIES}
            assert len(images) == cube.weight and images <= configurations
            assert not images & covered, (n, cube)
            covered |= images
            names = border_images(n, cube.queens)
            assert names[0] == "identity" and len(names) == cube.weight
            table = dict(SYMMETRIES)
            assert {frozenset(table[name](n, r, c) for r, c in cube.queens) for name in names} == images
        assert covered == configurations
        for board in iter_backtrack(n):
            assert border_of(n, board) in configurations


@pytest.mark.parametrize("solver", SOLVERS)
def test_counts_are_published(solver):
    need(SAT_SOLVERS[solver].available(), solver)
    for encoding in ENCODINGS:
        for n in range(1, 11):
            total, classes = count_boards(Problem(n), encoding, solver, fundamental=n <= 8)
            assert total == published_count(n), (n, encoding, solver)
            if n <= 8:
                assert classes == published_count(n, fundamental=True)


@pytest.mark.parametrize("solver", SOLVERS)
def test_listed_boards_are_backtrackings_each_once(solver):
    need(SAT_SOLVERS[solver].available(), solver)
    for encoding in ENCODINGS:
        for n in range(1, 11) if encoding in ("pairwise", "binary") else range(1, 9):
            found = list(iter_boards(Problem(n), encoding, solver))
            assert all(verify(n, board) for board in found)
            assert sorted(found) == sorted(iter_backtrack(n)), (n, encoding, solver)  # lists: no repeats


@pytest.mark.parametrize(("solver", "sizes"), [
    ("pycosat", (6, 8, 9)), ("pysat-minisat", (6, 8, 9)), ("pysat-kissat", (6, 8, 9)), ("minisat", (6,)),
    pytest.param("minisat", (8,), marks=pytest.mark.deep)])  # a DIMACS binary: a process per cube and board
def test_each_cube_finds_exactly_the_boards_with_its_border(solver, sizes):
    """Each way the cubes reach a solver (pycosat: one formula per pair of row queens with the other column
    placements excluded; python-sat: assumptions; a solver without assumptions, a DIMACS binary) finds under
    each cube exactly the boards of backtracking with that border, each once."""
    need(SAT_SOLVERS[solver].available(), solver)
    backend = SAT_SOLVERS[solver]
    for n in sizes:
        truth: dict[frozenset, list] = {}
        for board in iter_backtrack(n):
            truth.setdefault(border_of(n, board), []).append(board)
        searched = {frozenset(c.queens) for c in border_cubes(n)}
        expected = {key: sorted(boards) for key, boards in truth.items() if key in searched}
        for encoding in ("pairwise", "sequential", "product"):
            found: dict[frozenset, list] = {}
            for cube, board in _border_boards(Problem(n), encoding, backend):
                assert border_of(n, board) == frozenset(cube.queens)
                found.setdefault(frozenset(cube.queens), []).append(board)
            assert {key: sorted(boards) for key, boards in found.items()} == expected, (n, encoding)


@pytest.mark.parametrize(("own_from", "sizes"), [
    (4, (5, 8)), (100, (5, 8)), pytest.param(4, (9,), marks=pytest.mark.deep),
    pytest.param(100, (9,), marks=pytest.mark.deep)])
def test_pycosat_with_helpers_both_ways(monkeypatch, own_from, sizes):
    """pycosat with a helper encoding takes each cube's own formula from some n on, the formula of three
    border queens below: both find under each cube exactly the boards of backtracking with that border."""
    monkeypatch.setattr(solve, "PYCOSAT_OWN_FORMULA_N", own_from)
    for n in sizes:
        searched = {frozenset(c.queens) for c in border_cubes(n)}
        expected: dict[frozenset, list] = {}
        for board in iter_backtrack(n):
            if border_of(n, board) in searched:
                expected.setdefault(border_of(n, board), []).append(board)
        for encoding in ("sequential", "commander", "binary"):
            found: dict[frozenset, list] = {}
            for cube, board in _border_boards(Problem(n), encoding, SAT_SOLVERS["pycosat"]):
                assert border_of(n, board) == frozenset(cube.queens)
                found.setdefault(frozenset(cube.queens), []).append(board)
            assert {k: sorted(v) for k, v in found.items()} == {k: sorted(v) for k, v in expected.items()}
            assert count_boards(Problem(n), encoding, "pycosat") == (published_count(n), None)


def test_boards_fixed_by_a_symmetry_count_their_orbit_share():
    """n = 10 has boards with rotational symmetry (8 fundamental solutions of 92 have fewer than 8 images):
    the fundamental count and the total both hold, and so does each orbit's size."""
    n = 10
    totals: dict = {}
    for cube, board in _border_boards(Problem(n), "pairwise", SAT_SOLVERS["pysat-minisat"]):
        key = canonical(n, board)
        totals[key] = totals.get(key, 0) + cube.weight
    orbit_sizes = {key: len({tuple(sorted(f(n, r, c) for r, c in key)) for _, f in SYMMETRIES}) for key in totals}
    assert totals == orbit_sizes
    assert any(size < 8 for size in orbit_sizes.values())
    assert len(totals) == published_count(n, fundamental=True)


@pytest.mark.parametrize("solver", SOLVERS)
def test_preplaced_and_blocked_list_and_count_every_board(solver):
    """Without the symmetry (pre-placed queens, blocked cells) every board is searched for itself."""
    need(SAT_SOLVERS[solver].available(), solver)
    problems = [Problem(8, [(1, 1)]), Problem(9, [(4, 2)]), Problem(10, [(1, 3), (9, 9)]),
                Problem(8, blocked=[(1, 1), (4, 4), (5, 5)]), Problem(9, [(2, 4)], blocked=[(5, 5)]),
                Problem(6, blocked=[(1, 2), (1, 5)])]
    for problem in problems:
        truth = sorted(iter_backtrack(problem))
        for encoding in ("pairwise", "sequential", "commander"):
            found = list(iter_boards(problem, encoding, solver))
            assert all(problem.verify(board) for board in found)
            assert sorted(found) == truth, (problem, encoding, solver)
            assert count_boards(problem, encoding, solver) == (len(truth), None)


def test_symmetry_broken_counts_the_fundamental_boards():
    for n in range(1, 9):
        assert count_boards(Problem(n, break_symmetry=True), "pairwise", "pysat-minisat")[0] == \
            published_count(n, fundamental=True)


def test_the_verb_counts_by_the_border():
    for encoding in ENCODINGS:
        result = count(9, "sat", encoding, "pysat-minisat", fundamental=True)
        assert (result.count, result.fundamental) == (published_count(9), published_count(9, fundamental=True))


def test_progress_rises_to_the_count(monkeypatch):
    monkeypatch.setattr(solve, "REPORT_SECONDS", 0.0)
    seen: list[int] = []
    total, _ = count_boards(Problem(10), "pairwise", "pysat-minisat", progress=lambda c, f: seen.append(c))
    assert seen and seen == sorted(seen) and seen[-1] <= total == published_count(10)


def lying(boards, border):
    """A fake enumeration that hands out the boards given, under the cube of the border given."""
    def fake(problem, encoding, backend):
        cube = BorderCube(tuple(sorted(border)), 8)
        for board in boards:
            yield cube, board
    return fake


BOARDS = list(iter_backtrack(8))


@pytest.mark.parametrize("boards, border, why", [
    ([BOARDS[0]] * 2, border_of(8, BOARDS[0]), "twice"),
    ([tuple((r, 1) for r in range(1, 9))], {(1, 1), (8, 1)}, "not a solution"),
    ([BOARDS[0]], border_of(8, BOARDS[1]), "outside the sub-problem"),
])
def test_a_lying_solver_is_a_solver_error(monkeypatch, boards, border, why):
    monkeypatch.setattr(solve, "_border_boards", lying(boards, border))
    with pytest.raises(SolverError, match=why):
        count_boards(Problem(8), "pairwise", "pysat-minisat")
