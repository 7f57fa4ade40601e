"""The SAT method's native encoding: at-most-one as cardinality constraints, for the solvers that take them."""

from __future__ import annotations

import json

import pytest

from nqueens_kit.cli import main
from nqueens_kit.errors import InputError
from nqueens_kit.methods import count, get_method, iter_boards, solve
from nqueens_kit.methods.sat.native import (
    NATIVE,
    build_native,
    cnfplus_text,
    native_atmosts,
    native_size,
)
from nqueens_kit.problem.board import Problem, verify
from nqueens_kit.problem.reference import published_count
from nqueens_kit.solvers import SAT_SOLVERS

from .conftest import need

CARDINALITY = [name for name, entry in SAT_SOLVERS.items() if entry.capabilities.cardinality]


def _independent(n: int, queens: list[tuple[int, int]] | tuple[tuple[int, int], ...]) -> bool:
    """n queens, one per row and column, no two on a diagonal: checked here without the kit's code."""
    rows = [r for r, _ in queens]
    cols = [c for _, c in queens]
    return (len(queens) == n and sorted(rows) == list(range(1, n + 1)) and sorted(cols) == list(range(1, n + 1))
            and len({r - c for r, c in queens}) == n and len({r + c for r, c in queens}) == n)


def _ready(solver: str) -> None:
    need(SAT_SOLVERS[solver].available(), f"{solver} ({SAT_SOLVERS[solver].install_hint()})")


def test_the_solvers_that_take_it_are_minicard_and_gluecard() -> None:
    assert CARDINALITY == ["pysat-minicard", "pysat-gluecard4"]
    assert all("cardinality" in SAT_SOLVERS[name].capabilities.names() for name in CARDINALITY)
    assert not any(SAT_SOLVERS[name].capabilities.cardinality for name in ("pycosat", "pysat-cadical", "kissat"))


@pytest.mark.parametrize("solver", CARDINALITY)
@pytest.mark.parametrize("n", [1, 8, 30, 61])
def test_boards_are_verified_by_the_kit_and_independently(solver: str, n: int) -> None:
    _ready(solver)
    result = solve(n, "sat", NATIVE, solver)
    assert result.status == "solved" and result.verified, result.message
    assert verify(n, result.queens) and _independent(n, result.queens)
    assert result.variant == NATIVE and result.solver == solver
    assert result.stats["cardinality_constraints"] == native_atmosts(n)[0]


@pytest.mark.parametrize("solver", CARDINALITY)
def test_no_board_is_infeasible(solver: str) -> None:
    _ready(solver)
    assert solve(3, "sat", NATIVE, solver).status == "infeasible"
    assert solve(Problem(6, [(1, 1)]), "sat", NATIVE, solver).status == "infeasible"


@pytest.mark.parametrize("solver", CARDINALITY)
def test_counts_equal_the_published_ones(solver: str) -> None:
    _ready(solver)
    for n in range(1, 9):
        assert count(n, "sat", NATIVE, solver).count == published_count(n), n
    result = count(8, "sat", NATIVE, solver, fundamental=True)
    assert (result.count, result.fundamental) == (92, 12)


def _brute(problem: Problem) -> set[tuple[tuple[int, int], ...]]:
    from itertools import permutations

    n = problem.n
    found = set()
    for perm in permutations(range(1, n + 1)):
        board = tuple(enumerate(perm, 1))
        if (_independent(n, board) and set(problem.preplaced) <= set(board)
                and not set(problem.blocked) & set(board)):
            found.add(board)
    return found


def test_preplaced_blocked_and_symmetry_breaking_are_honoured() -> None:
    _ready("pysat-minicard")
    for problem in (Problem(6, [(1, 2)]), Problem(6, blocked=[(1, 2), (2, 4), (3, 3)]), Problem(7, [(1, 1), (2, 3)])):
        boards = set(iter_boards(problem, "sat", NATIVE, "pysat-minicard"))
        assert boards == _brute(problem), problem
        result = solve(problem, "sat", NATIVE, "pysat-minicard")
        assert tuple(result.queens) in boards
    assert count(Problem(8, break_symmetry=True), "sat", NATIVE, "pysat-minicard").count == 12
    assert count(Problem(10, break_symmetry=True), "sat", NATIVE, "pysat-minicard").count == 92


@pytest.mark.parametrize("solver", ["pycosat", "pysat-cadical", "kissat"])
def test_a_solver_of_clauses_is_refused_in_one_line_naming_those_that_take_it(solver: str) -> None:
    with pytest.raises(InputError) as excinfo:
        solve(8, "sat", NATIVE, solver)
    text = str(excinfo.value)
    assert "\n" not in text and f"--solver {solver}" in text and "pysat-minicard" in text, text


def test_the_order_seeds_the_numbering_of_the_cells() -> None:
    """``order`` picks the seed of the cells' numbering: every seed gives a verified board, the same seed the same
    board, and a bad seed is refused in one line."""
    from nqueens_kit.methods.sat.native import cell_order

    _ready("pysat-minicard")
    boards = [solve(40, "sat", NATIVE, "pysat-minicard", order=k).queens for k in (1, 2, 1)]
    assert all(_independent(40, board) for board in boards)
    assert boards[0] == boards[2] and boards[0] != boards[1]
    assert sorted(cell_order(9, 5)) == list(range(1, 82)) and cell_order(9, 5) != cell_order(9, 6)
    with pytest.raises(InputError) as excinfo:
        solve_native_directly(-1)
    assert "\n" not in str(excinfo.value) and "order" in str(excinfo.value)


def solve_native_directly(order: int) -> object:
    from nqueens_kit.methods.sat.native import solve_native

    return solve_native(Problem(8), "pysat-minicard", order=order)


def test_the_command_line_solves_and_refuses(capsys: pytest.CaptureFixture[str]) -> None:
    _ready("pysat-minicard")
    assert main(["solve", "12", "--encoding", "native", "--solver", "pysat-minicard", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["status"] == "solved" and _independent(12, [tuple(q) for q in out["queens"]])
    assert main(["solve", "12", "--encoding", "native"]) == 2  # pycosat, the default, takes clauses only
    assert "pysat-minicard" in capsys.readouterr().err


@pytest.mark.parametrize("n", [1, 2, 3, 8, 13])
def test_sizes_in_closed_form_equal_the_built_formula(n: int) -> None:
    for problem in (Problem(n), Problem(n, break_symmetry=True)):
        formula = build_native(problem)
        size = native_size(problem)
        assert (size.variables, size.clauses) == (formula.num_vars, formula.num_clauses)
        assert native_atmosts(n) == (formula.num_atmosts, sum(len(lits) for lits, _ in formula.atmosts))
        assert all(k == 1 and len(lits) >= 2 for lits, k in formula.atmosts)
    plain = build_native(Problem(n))
    assert native_size(Problem(n)).literals == plain.num_literals
    assert plain.num_clauses == 2 * n and (n < 2 or plain.num_atmosts == 6 * n - 6)
    assert get_method("sat").size(Problem(n), get_method("sat").choose(NATIVE, "pysat-minicard")).variables == n * n


def test_the_cnfplus_text_read_back_by_python_sat_gives_the_same_models() -> None:
    need(SAT_SOLVERS["pysat-minicard"].available(), "python-sat")
    from pysat.formula import CNFPlus
    from pysat.solvers import Solver

    problem = Problem(7, [(1, 1)])
    formula = build_native(problem)
    text = cnfplus_text(formula)
    assert f"p cnf+ {formula.num_vars} {formula.num_clauses + formula.num_atmosts}" in text
    read = CNFPlus(from_string=text)
    assert read.nv == formula.num_vars and read.clauses == formula.clauses
    assert [(list(lits), k) for lits, k in read.atmosts] == formula.atmosts
    models = set()
    with Solver(name="minicard", bootstrap_with=read.clauses) as sat:
        for lits, k in read.atmosts:
            sat.add_atmost(lits, k)
        for model in sat.enum_models():
            models.add(formula.decode(model))
    assert models == set(iter_boards(problem, "sat", NATIVE, "pysat-minicard")) == _brute(problem)
    assert len(models) == 4  # n = 7 with a corner queen
    assert formula.to_cnfplus().atmosts == read.atmosts  # type: ignore[attr-defined]


@pytest.mark.parametrize("n", [1, 2, 5, 9])
def test_the_lines_from_arithmetic_are_the_problems_lines_in_order(n: int) -> None:
    from nqueens_kit.methods.sat.native import _line_literals

    problem = Problem(n)
    expected = [(line.name, line.exact, [(r - 1) * n + c for r, c in line.cells]) for line in problem.lines()]
    assert list(_line_literals(problem)) == expected


def test_no_dimacs_is_made_of_it_and_the_command_line_says_why(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cnf", "8", "--encoding", "native"]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "cardinality constraints" in err and "pysat-minicard" in err


def test_a_solve_reports_its_sizes_as_the_formula_has_them() -> None:
    _ready("pysat-minicard")
    result = solve(10, "sat", NATIVE, "pysat-minicard")
    formula = build_native(Problem(10))
    assert (result.variables, result.clauses, result.constraints) == (100, 20, formula.num_atmosts) == (100, 20, 54)
