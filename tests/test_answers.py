"""One rule for reading a student's answer (nqueens_kit/course/answers.py): what every checker accepts, what it
refuses, and how a refusal is worded."""

from __future__ import annotations

import ast
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from nqueens_kit import build_cnf
from nqueens_kit.course.answers import (
    AnswerError,
    cell,
    cells,
    clause,
    given,
    literal,
    rational,
    real,
    same_real,
    truth,
    whole,
)
from nqueens_kit.errors import InputError

COURSE = Path(__file__).resolve().parents[1] / "nqueens_kit" / "course"


@pytest.mark.parametrize("value", [4, 4.0, np.int64(4), np.int32(4), np.uint8(4), np.float64(4.0), np.float32(4.0),
                                   np.array(4), np.array(4.0), Fraction(8, 2), Decimal("4"), Decimal("4.00")])
def test_a_whole_number_of_any_kind_is_read_as_an_int(value) -> None:
    read = whole(value, "a count")
    assert read == 4 and type(read) is int


@pytest.mark.parametrize(("value", "said"), [
    ("4", "a count is a whole number, not the string '4'"),
    (np.str_("4"), "not the string '4'"),
    (True, "not True (type bool)"),
    (np.bool_(True), "(type bool"),
    (4.5, "not 4.5"),
    (Fraction(9, 2), "not Fraction(9, 2)"),
    (np.float64(4.5), f"not {np.float64(4.5)!r}"),  # np.float64(4.5) from NumPy 2, 4.5 before
    (float("nan"), "not nan"),
    (float("inf"), "not inf"),
    (Decimal("NaN"), "not Decimal('NaN')"),
    (None, "not None (type NoneType)"),
    ([4], "not [4] (type list)"),
    (np.array([4, 2]), "(type ndarray)"),
    (4 + 0j, "(type complex)"),
])
def test_what_is_not_a_whole_number_is_refused_in_one_line_naming_it(value, said: str) -> None:
    with pytest.raises(AnswerError) as error:
        whole(value, "a count")
    message = str(error.value)
    assert said in message and message.startswith("a count is a whole number") and "\n" not in message
    assert isinstance(error.value, InputError) and isinstance(error.value, ValueError)


def test_a_real_number_is_any_finite_number_and_never_a_string() -> None:
    for value in (2, 2.5, np.float32(2.5), np.array(2.5), Fraction(5, 2), Decimal("2.5"), np.int64(2)):
        assert real(value, "a bound") in (2.0, 2.5)
    with pytest.raises(AnswerError, match=r"^a bound is a number, not the string '2'$"):
        real("2", "a bound")
    for value in (True, None, float("inf"), float("nan"), Fraction(10**400), [2.0]):
        with pytest.raises(AnswerError, match="^a bound is a"):
            real(value, "a bound")
    assert rational(0.5, "y") == Fraction(1, 2) and rational(np.int64(-3), "y") == -3
    assert rational(0.1, "y") == Fraction(0.1)  # a float is read as the binary number it is, exactly
    with pytest.raises(AnswerError, match="not the string"):
        rational("1/2", "y")


def test_two_reals_are_the_same_answer_within_1e_9() -> None:
    assert same_real(84.00000000000003, 84) and same_real(2 * 4 + 4 * 3 * 11 * (1 / 3) + 48, 100)
    assert same_real(1e-10, 0) and not same_real(1e-8, 0)
    assert same_real(np.float32(1 / 3), Fraction(1, 3))  # a float32 of the right value is right
    assert same_real(np.float16(8.1), 8.1) and not same_real(np.float64(8.1 + 1e-6), 8.1)
    assert not same_real(float("nan"), float("nan")) and not same_real("84", 84) and not same_real(None, 0)


def test_a_truth_value_is_a_bool_or_a_numpy_bool() -> None:
    assert truth(np.bool_(False), "x") is False and truth(np.array(True), "x") is True
    for value in (1, "True", None, np.array([True, True])):
        with pytest.raises(AnswerError, match="is True or False"):
            truth(value, "an answer")


@pytest.mark.parametrize("value", [(4, 2), [4, 2], np.array([4, 2]), np.array([4.0, 2.0]), (np.int64(4), 2),
                                   (4.0, 2.0), "4,2", " (4, 2) ", (Fraction(8, 2), 2)])
def test_a_cell_is_a_pair_of_whole_numbers_in_any_container(value) -> None:
    read = cell(value, 8)
    assert read == (4, 2) and all(type(x) is int for x in read)


@pytest.mark.parametrize(("value", "said"), [
    ((4,), "a (row, column) pair"),
    ((4, 2, 1), "a (row, column) pair"),
    ({4, 2}, "a (row, column) pair"),  # a set has no order
    (("4", "2"), "a row is a whole number, not the string '4'"),
    ((4.5, 2), "a row is a whole number, not 4.5"),
    ((True, 2), "not True (type bool)"),
    ("four, two", "not the string"),
    ((9, 2), "off the board"),
    ((0, 2), "off the board"),
])
def test_what_is_not_a_cell_is_refused_in_one_line(value, said: str) -> None:
    with pytest.raises(AnswerError) as error:
        cell(value, 8)
    assert said in str(error.value) and "\n" not in str(error.value)


def test_a_list_of_cells_or_one_cell_on_its_own() -> None:
    assert cells([(1, 1), [2, 3], np.array([3, 5]), "4,4"]) == [(1, 1), (2, 3), (3, 5), (4, 4)]
    assert cells(np.array([[1, 1], [2, 3]])) == [(1, 1), (2, 3)]
    assert cells((2, 3)) == cells([2, 3]) == cells(np.array([2, 3])) == cells("2,3") == [(2, 3)]
    assert cells({(2, 3)}) == [(2, 3)] and cells([]) == [] and cells(c for c in [(1, 2)]) == [(1, 2)]
    with pytest.raises(AnswerError, match="list of cells"):
        cells("2,3", single=False)
    with pytest.raises(AnswerError, match=r"^ruled_out: a cell is a \(row, column\) pair"):
        cells([(1, 1), 5], 4, "ruled_out")
    with pytest.raises(AnswerError, match=r"a queen \(9, 5\) is off the board"):
        cells([(1, 1), (9, 5)], 8, noun="a queen")


def test_a_literal_is_a_non_zero_whole_number_or_a_name_of_the_formula() -> None:
    phi2 = build_cnf(2)
    assert literal(np.int64(-3)) == -3 and literal(np.array(4)) == 4 and literal(3.0) == 3
    names = ["P[1,2]", "¬P[1,2]", "-P[1,2]", "~P[1,2]", "not P[1,2]", "--P[1,2]", "P(1,2)", " 2 ", "-2"]
    assert [literal(name, phi2) for name in names] == [2, -2, -2, -2, -2, 2, 2, 2, -2]
    for value, said in ((0, "not 0"), (True, "True (type bool)"), (2.5, "not 2.5"), (None, "None"),
                        ("3", "not the string '3'")):
        with pytest.raises(AnswerError, match="non-zero whole number") as error:
            literal(value)
        assert said in str(error.value)
    for value in ("P[3,1]", "Q[1,1]", 5, -5):
        with pytest.raises(AnswerError):
            literal(value, phi2)


def test_a_clause_is_a_list_tuple_set_or_array_of_literals() -> None:
    phi2 = build_cnf(2)
    assert clause([1, -4]) == clause((1, -4)) == clause(np.array([1, -4])) == (1, -4)
    assert clause({3}) == (3,) and clause([]) == () and clause([np.int32(2), np.int64(-1)]) == (2, -1)
    assert clause("¬P[1,1] ∨ P[2,2]", phi2) == clause("-P[1,1] or P[2,2]", phi2) == (-1, 4)
    assert clause("P[1,1], ¬P[2,2] | 3", phi2) == (1, -4, 3)
    for value in ("1 2", 5, {"a": 1}, [1, "x"], [[1, 2]], b"12"):
        with pytest.raises(AnswerError):
            clause(value)


def test_given_names_a_string_as_a_string_and_anything_else_by_its_type() -> None:
    assert given("2") == "the string '2'" and given(2.5) == "2.5 (type float)" and given(None) == "None (type NoneType)"


def test_no_course_checker_imports_numpy_at_module_level() -> None:
    """The browser edition may lack NumPy: a checker knows a NumPy value by its type's module, and imports
    NumPy, if ever, only inside a function."""
    for name in ("answers", "exercises", "check_board", "check_encoding", "check_resolution", "check_farkas",
                 "check_bnb", "check_cdcl", "check_hall"):
        tree = ast.parse((COURSE / f"{name}.py").read_text())
        top = [node for node in tree.body if isinstance(node, (ast.Import, ast.ImportFrom))]
        imported = {alias.name.split(".")[0] for node in top for alias in node.names if isinstance(node, ast.Import)}
        imported |= {(node.module or "").split(".")[0] for node in top if isinstance(node, ast.ImportFrom)}
        assert "numpy" not in imported, name


def test_every_checker_reads_answers_through_the_one_rule() -> None:
    """The private readers each checker had of its own are gone: one rule, in answers.py."""
    for name in ("exercises", "check_board", "check_encoding", "check_bnb", "check_cdcl", "check_hall",
                 "check_resolution", "check_farkas"):
        text = (COURSE / f"{name}.py").read_text()
        for old in ("def _real(", "def _whole(", "def _truth(", "def _tolerance(", "def _literal_clauses(",
                    "def _literal(", "def _number(", "def _clause("):
            assert old not in text, (name, old)


def test_no_course_module_is_over_600_lines() -> None:
    for path in COURSE.glob("*.py"):
        assert len(path.read_text().splitlines()) <= 600, path.name
