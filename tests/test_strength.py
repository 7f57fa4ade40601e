"""Chapter 3's formulation strength (nqueens_kit.course.strength) and its reasoning checks (course.check_bnb)."""

from __future__ import annotations

import itertools
from dataclasses import replace

import pytest

from nqueens_kit import Problem
from nqueens_kit.course.check_bnb import check_blocks, check_branching, child_bound, lines_lp_with
from nqueens_kit.course.lessons import ilp_solvers_here
from nqueens_kit.course.strength import (
    assignment_lp,
    boards,
    cell_costs,
    cheapest,
    impossible_completions,
    impossible_trees,
)
from nqueens_kit.errors import InputError
from nqueens_kit.methods.ilp.model import Relaxation, lp_relaxation

SOLVERS = ilp_solvers_here()
KNOWN = {1: 1, 2: 0, 3: 0, 4: 2, 5: 10, 6: 4, 7: 40, 8: 92}  # OEIS A000170


def _attacks(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return a[0] == b[0] or a[1] == b[1] or abs(a[0] - b[0]) == abs(a[1] - b[1])


def test_boards_are_every_solution_and_keep_the_preplaced_queens() -> None:
    for n, count in KNOWN.items():
        found = list(boards(n))
        assert len(found) == count and len({tuple(b) for b in found}) == count
        assert all(not _attacks(a, b) for board in found for a, b in itertools.combinations(board, 2))
    assert all((1, 2) in board for board in boards(6, [(1, 2)])) and len(list(boards(6, [(1, 2)]))) == 1
    assert not list(boards(6, [(1, 1)]))  # no 6-queens board uses a corner


@pytest.mark.parametrize("solver", SOLVERS)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_rows_and_columns_give_permutation_matrices_and_the_diagonals_fractions(solver: str, seed: int) -> None:
    costs = cell_costs(6, seed)
    plain = assignment_lp(6, costs, False, solver)
    assert plain["fractional"] == 0 and abs(plain["objective"] - cheapest(6, costs, False)) < 1e-6
    queens = [cell for cell, v in plain["values"].items() if v > 0.5]
    assert sorted(r for r, _ in queens) == sorted(c for _, c in queens) == list(range(1, 7))
    lined = assignment_lp(6, costs, True, solver)
    assert lined["objective"] <= cheapest(6, costs, True) + 1e-6  # a relaxation: never above the best board
    assert lined["objective"] >= plain["objective"] - 1e-6  # more constraints: never below the rooks' LP


def test_the_seeded_costs_make_the_lines_lp_fractional() -> None:
    costs = cell_costs(8)
    assert assignment_lp(8, costs, True)["objective"] < cheapest(8, costs, True) - 1e-6


def test_impossible_completions_have_no_board_and_are_the_same_every_time() -> None:
    first = impossible_completions(6)
    assert first == impossible_completions(6) and first[:3] == impossible_completions(3)
    for problem in first:
        assert 8 <= problem.n <= 10 and len(problem.preplaced) == 3
        assert not list(boards(problem.n, problem.preplaced))
    assert impossible_completions(2, seed=1) != impossible_completions(2, seed=0)


@pytest.mark.parametrize("solver", SOLVERS)
def test_a_pairwise_root_lp_infeasible_makes_the_lines_one_infeasible(solver: str) -> None:
    problems = [Problem(6, [(1, 1)]), *impossible_completions(4)]
    rows = impossible_trees(problems, [solver])
    by = {(tuple(map(tuple, r["preplaced"])), r["formulation"]): r for r in rows}
    for problem in problems:
        lines, pairwise = by[problem.preplaced, "lines"], by[problem.preplaced, "pairwise"]
        assert lines["status"] == pairwise["status"] == "infeasible"
        assert lines["nodes"] % 2 == 1 and pairwise["nodes"] % 2 == 1  # every branch makes two children
        assert not pairwise["root_infeasible"] or lines["root_infeasible"]
        assert lines["root_infeasible"] == (lines["nodes"] == 1)


def test_the_stored_record_holds_what_chapter_3_says() -> None:
    import json
    from pathlib import Path

    record = json.loads((Path(__file__).parents[1] / "notebooks" / "data" / "ch3-impossible.json").read_text())
    rows = record["rows"]
    assert len(rows) == (record["count"] + 1) * 2 * len(record["solvers"])
    for solver in record["solvers"]:
        mine = [r for r in rows if r["solver"] == solver]
        lines = sum(r["nodes"] for r in mine if r["formulation"] == "lines")
        pairwise = sum(r["nodes"] for r in mine if r["formulation"] == "pairwise")
        assert lines <= 0.8 * pairwise


def _blocks(n: int) -> list[list[tuple[int, int]]]:
    return [[(r, c), (r + 1, c), (r, c + 1), (r + 1, c + 1)] for r in range(1, n) for c in range(1, n)]


@pytest.mark.parametrize("answer", [
    _blocks,
    lambda n: [tuple(reversed(block)) for block in _blocks(n)],  # another order, tuples
    lambda n: (block for block in reversed(_blocks(n))),  # a generator
    lambda n: _blocks(n) + [[(1, c) for c in range(1, n + 1)]],  # a line besides: valid, allowed
    lambda n: _blocks(n) + [[(1, 1), (1, 2)]] + _blocks(n),  # an edge and repeats: valid
    lambda n: [[[r, c], [r + 1, c], [r, c + 1], [r + 1, c + 1]] for r in range(1, n) for c in range(1, n)],
], ids=["blocks", "reordered", "generator", "with-a-line", "with-an-edge", "lists"])
def test_check_blocks_accepts_every_correct_answer(answer) -> None:
    assert check_blocks(answer)


@pytest.mark.parametrize(("answer", "flaw"), [
    (lambda n: [[(r, c), (r + 1, c), (r, c + 1), (r + 1, c + 1)] for r in range(1, n - 1) for c in range(1, n)],
     "is in no group"),
    (lambda n: [[(r, c), (r + 1, c), (r, c + 1), (r + 1, c + 1)] for r in range(1, n + 1) for c in range(1, n)],
     "off the board"),
    (lambda n: [[(r, c) for r in (1, 2, 3) for c in (1, 2, 3)]] if n >= 3 else _blocks(n), "do not attack"),
    (lambda n: [[a, b] for block in _blocks(n) for a, b in itertools.combinations(block, 2)], "is in no group"),
    (lambda n: [], "is in no group"),
    (lambda n: [[(1, 1), (2, 3)]] if n >= 3 else _blocks(n), "do not attack"),
    (lambda n: 1 / 0, "raised ZeroDivisionError"),
    (lambda n: [["a1"]], "(row, column)"),
    (42, "pass your function"),
], ids=["last-row-missing", "off-board", "3x3-block", "edges-only", "nothing", "knight-move", "raises",
        "not-cells", "not-a-function"])
def test_check_blocks_names_the_flaw(answer, flaw: str) -> None:
    verdict = check_blocks(answer)
    assert not verdict and flaw in verdict.message, verdict.message


def test_the_blocks_make_n_2_and_3_infeasible_and_the_lines_alone_do_not() -> None:
    for n in (2, 3):
        assert lp_relaxation(Problem(n), "lines").status == "optimal"
        assert lines_lp_with(n, _blocks(n)) == "infeasible"
    assert lines_lp_with(4, _blocks(4)) == "optimal"


def _ties(root: Relaxation) -> list[tuple[int, int]]:
    fractional = root.fractional_cells()
    closest = min(abs(root.values[c] - 0.5) for c in fractional)
    return [c for c in fractional if abs(root.values[c] - 0.5) <= closest + 1e-6]


@pytest.mark.parametrize("solver", SOLVERS)
def test_check_branching_accepts_every_tied_cell_and_names_the_flaws(solver: str) -> None:
    root = lp_relaxation(Problem(3), "max-queens", solver)
    ties = _ties(root)
    for cell in ties:
        up, down = child_bound(root, cell, 1), child_bound(root, cell, 0)
        assert check_branching(root, cell, up) and check_branching(root, list(cell), float(up))
        refused = check_branching(root, cell, str(up))  # a bound is a number, not its text
        assert not refused and "not the string" in refused.message, refused.message
        assert check_branching(root, cell, down, value=0)
        if up != down:
            assert "other child" in check_branching(root, cell, down).message
        if up != root.objective:
            flaw = check_branching(root, cell, root.objective).message  # the root's, and maybe the other child's
            assert "root's bound" in flaw or "other child" in flaw
        assert "above the root" in check_branching(root, cell, (root.objective or 0) + 1).message
        assert "not the optimum" in check_branching(root, cell, 0.25).message
    worse = [c for c in root.fractional_cells() if c not in ties]
    if worse:
        assert "is closer" in check_branching(root, worse[0], 2).message
    whole = [c for c, v in root.values.items() if v < 1e-6 or v > 1 - 1e-6]
    if whole:
        assert "already whole" in check_branching(root, whole[0], 2).message
    assert "not on the" in check_branching(root, (4, 4), 2).message
    assert "(row, column)" in check_branching(root, "middle", 2).message
    assert "is a number" in check_branching(root, ties[0], "two").message


def test_check_branching_tells_a_bound_of_another_tied_cell() -> None:
    root = lp_relaxation(Problem(4), "max-queens", SOLVERS[0])
    values = {cell: 0.0 for cell in root.values}
    values[1, 1] = values[2, 2] = 0.5  # a made-up root with two tied cells whose queen children differ
    made = replace(root, values=values)
    assert child_bound(made, (1, 1), 1) == 4 and child_bound(made, (2, 2), 1) == 3
    assert check_branching(made, (1, 1), 4) and check_branching(made, (2, 2), 3)
    assert "after branching on (2, 2)" in check_branching(made, (1, 1), 3).message
    assert "nothing to branch on" in check_branching(replace(root, values=dict.fromkeys(root.values, 1.0)),
                                                     (1, 1), 4).message


def test_check_branching_refuses_what_is_not_a_relaxation_in_one_line() -> None:
    with pytest.raises(InputError, match="solved max-queens LP relaxation"):
        check_branching(None, (1, 1), 2.0)  # type: ignore[arg-type]
