"""The Hall-set reasoning check of chapter 8: every correct answer accepted, typical wrong ones named, and the
reasoning it accepts sound (a removed cell is one no completion uses)."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest

from nqueens_kit import Problem
from nqueens_kit.course.check_hall import check_hall, hall_removals, start_domains
from nqueens_kit.errors import InputError
from nqueens_kit.inside.domains import domains
from nqueens_kit.inside.propagation import truth

EXERCISE = Problem(6, [(1, 3), (5, 1)])  # has a completion


@pytest.mark.parametrize(("rows", "removed"), [
    ([2, 4, 6], [(3, 4)]),
    ([2, 4, 6], [(3, 6)]),
    ([6, 2, 4], [(3, 4), (3, 6)]),
    ((2, 4, 6), (3, 4)),  # one cell as a bare pair, rows as a tuple
    ([1, 2, 4, 6], [(3, 6)]),  # a fixed row added: still a Hall set, the same removals
    ([1, 2, 4, 5, 6], [(3, 4), (3, 6)]),
])
def test_every_correct_answer_is_accepted(rows: object, removed: object) -> None:
    verdict = check_hall(EXERCISE, rows, removed)
    assert verdict, verdict.message
    assert verdict.message.startswith("Right")


@pytest.mark.parametrize(("rows", "removed", "flaw"), [
    ([2, 4], [(3, 4)], "not a Hall set"),  # three columns for two rows
    ([2, 3, 4], [(6, 4)], "not a Hall set"),
    ([2, 4, 6], [(2, 5)], "is in your Hall set"),  # removing the set's own value
    ([2, 4, 6], [(3, 5)], "no longer in row 3's domain"),  # a column arc consistency already took
    ([2, 4, 6], [(3, 2)], "not one of the set's"),  # a value the set does not own
    ([2, 4, 6], [], "at least one cell"),
    ([], [(3, 4)], "empty"),
    (3, [(3, 4)], "not a single number"),
    ([2, 2, 4], [(3, 4)], "named twice"),
    ([2, 9], [(3, 4)], "rows 1 to 6"),
    ([2, 4, 6], [(3, 9)], "off the board"),
    ("246", [(3, 4)], "whole numbers"),
])
def test_a_wrong_answer_gets_its_flaw_in_one_line(rows: object, removed: object, flaw: str) -> None:
    verdict = check_hall(EXERCISE, rows, removed)
    assert not verdict
    assert verdict.message.startswith("Not yet") and flaw in verdict.message and "\n" not in verdict.message


def test_the_exercise_has_exactly_the_answers_its_solution_names() -> None:
    state = start_domains(EXERCISE)
    open_rows = [r for r in range(1, 7) if len(state.domains[r]) > 1]
    pruning = [rows for k in range(2, len(open_rows))
               for rows in combinations(open_rows, k) if hall_removals(EXERCISE, rows)]
    assert pruning == [(2, 4, 6)]
    assert hall_removals(EXERCISE, [2, 4, 6]) == [(3, 4), (3, 6)]
    assert truth(EXERCISE)[2]  # the placement has a completion: the pruning is not vacuous


def test_what_a_hall_set_removes_is_sound_and_within_gac() -> None:
    """On every one-queen placement of n = 5 to 7 and every set of rows: each removed cell is used by no
    completion, and GAC (which sees every Hall set) removes it too."""
    seen = 0
    for n in (5, 6, 7):
        for cell in [(r, c) for r in range(1, n + 1) for c in range(1, n + 1)]:
            problem = Problem(n, [cell])
            if start_domains(problem).conflict:
                continue
            dead, _forced, feasible = truth(problem)
            gac = domains(problem, "gac")
            for k in range(1, n):
                for rows in combinations(range(1, n + 1), k):
                    removed = hall_removals(problem, rows)
                    seen += bool(removed)
                    assert not feasible or set(removed) <= dead, (problem.describe(), rows)
                    assert gac.conflict or set(removed) <= gac.ruled_out(n), (problem.describe(), rows)
                    if removed:
                        assert check_hall(problem, list(rows), removed[:1])
    assert seen > 0  # the property was tested on some pruning at all


def test_a_refuted_placement_is_refused_and_an_unknown_constraint_too() -> None:
    with pytest.raises(InputError):
        check_hall(Problem(4, [(1, 1), (2, 3)]), [3, 4], [(3, 2)])
    with pytest.raises(InputError):
        check_hall(EXERCISE, [2, 4, 6], [(3, 4)], constraint="rows")


def test_a_board_that_is_not_a_problem_is_refused_in_one_line() -> None:
    with pytest.raises(InputError, match="takes the board as a Problem"):
        check_hall("6 queens", [2, 4, 6], [(3, 4)])  # type: ignore[arg-type]


# ---------------------------------------------- one rule for answers: each defect it closes, caught by a test


@pytest.mark.parametrize(("rows", "removed"), [
    ([2, 4, 6], [3, 4]),  # one cell as a list
    (np.array([2, 4, 6]), np.array([3, 4])),
    ([np.int64(2), 4, 6], [np.array([3, 4]), (3, 6)]),
    ([2, 4, 6], np.array([[3, 4], [3, 6]])),
    ([2.0, 4, 6], [(3.0, 4)]),
    ([2, 4, 6], "3,4"),
])
def test_rows_and_cells_in_any_container_are_read(rows: object, removed: object) -> None:
    verdict = check_hall(EXERCISE, rows, removed)
    assert verdict, verdict.message


@pytest.mark.parametrize(("rows", "removed", "flaw"), [
    (np.int64(3), [(3, 4)], "not a single number"),
    ([2, 4, 6], [("3", "4")], "not the string '3'"),
    (["2", "4", "6"], [(3, 4)], "not the string '2'"),
    ([2.5, 4, 6], [(3, 4)], "not 2.5"),
    ([2, 4, 6], [(3, 4.5)], "not 4.5"),
])
def test_what_is_not_a_whole_number_is_named(rows: object, removed: object, flaw: str) -> None:
    verdict = check_hall(EXERCISE, rows, removed)
    assert not verdict and verdict.message.startswith("Not yet") and flaw in verdict.message, verdict.message
