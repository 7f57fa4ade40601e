"""A Farkas certificate for the lines LP with the 2×2 blocks: the LP has no point at n = 2 and 3 (HiGHS says so,
independently), the block argument's multipliers pass, and each broken condition is named."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from nqueens_kit.course.exercises import FarkasConstraint, check_farkas, farkas_constraints
from nqueens_kit.errors import InputError

#: The block argument at n = 3: the four blocks hold each corner once, each edge cell twice and the centre four
#: times, so they add up to all nine cells + row 2 + column 2 + x[2,2] <= 4; the rows put 3 queens on the nine
#: cells, row 2 and column 2 one each: 3 + 1 + 1 + x[2,2] <= 4, i.e. x[2,2] <= -1.
CERTIFICATE_3 = {"row_1": -1, "row_2": -2, "row_3": -1, "col_2": -1,
                 "block_1_1": 1, "block_1_2": 1, "block_2_1": 1, "block_2_2": 1}
#: At n = 2 the two rows ask for two queens and the one block allows one.
CERTIFICATE_2 = {"row_1": -1, "row_2": -1, "block_1_1": 1}


def _highs_status(n: int) -> str:
    """The status HiGHS gives the LP of farkas_constraints(n), built here from the listed constraints, x >= 0."""
    highspy = pytest.importorskip("highspy")
    constraints = farkas_constraints(n)
    cells = [(r, c) for r in range(1, n + 1) for c in range(1, n + 1)]
    index = {cell: i for i, cell in enumerate(cells)}
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    for _ in cells:
        h.addVar(0.0, highspy.kHighsInf)
    for constraint in constraints:
        columns = np.array([index[cell] for cell in constraint.cells], dtype=np.int32)
        lower = float(constraint.rhs) if constraint.sense == "=" else -highspy.kHighsInf
        h.addRow(lower, float(constraint.rhs), len(columns), columns, np.ones(len(columns)))
    h.run()
    return h.modelStatusToString(h.getModelStatus())


def test_highs_finds_the_lp_infeasible_at_2_and_3_and_feasible_at_4() -> None:
    assert _highs_status(3) == "Infeasible"
    assert _highs_status(2) == "Infeasible"
    assert _highs_status(4) == "Optimal"  # boards exist from n = 4, and every board meets the constraints


def test_the_constraints_are_listed_in_a_fixed_order_with_the_kits_names() -> None:
    constraints = farkas_constraints(3)
    assert [c.name for c in constraints] == [
        "row_1", "row_2", "row_3", "col_1", "col_2", "col_3", "diag_2", "diag_3", "diag_4", "anti_2", "anti_3",
        "anti_4", "block_1_1", "block_1_2", "block_2_1", "block_2_2"]
    assert [c.label for c in constraints][9:13] == ["anti-diagonal r + c = 3", "anti-diagonal r + c = 4",
                                                   "anti-diagonal r + c = 5", "block (1,1)"]
    assert all(isinstance(c, FarkasConstraint) and c.rhs == 1 for c in constraints)
    assert {c.sense for c in constraints[:6]} == {"="} and {c.sense for c in constraints[6:]} == {"<="}
    assert str(constraints[12]) == "block_1_1: x[1,1] + x[1,2] + x[2,1] + x[2,2] <= 1"
    assert len(farkas_constraints(2)) == 7 and len(farkas_constraints(4)) == 8 + 10 + 9


def test_the_block_argument_is_a_certificate() -> None:
    verdict = check_farkas(CERTIFICATE_3)
    assert verdict and "x[2,2] <= -1" in verdict.message and verdict.message.startswith("Correct")
    two = check_farkas(CERTIFICATE_2, n=2)
    assert two and "0 <= -1" in two.message


def test_the_certificate_in_every_form() -> None:
    names = [c.name for c in farkas_constraints(3)]
    as_list = [CERTIFICATE_3.get(name, 0) for name in names]
    labels = {c.label: CERTIFICATE_3[c.name] for c in farkas_constraints(3) if c.name in CERTIFICATE_3}
    assert check_farkas(as_list) and check_farkas(tuple(as_list)) and check_farkas(np.array(as_list))
    assert check_farkas(labels) and check_farkas({name: np.int64(v) for name, v in CERTIFICATE_3.items()})
    assert check_farkas({name: Fraction(v, 3) for name, v in CERTIFICATE_3.items()})  # any positive scale
    assert check_farkas({name: v / 3 for name, v in CERTIFICATE_3.items()})  # floats: sums within 1e-9
    assert check_farkas({name: float(v) for name, v in CERTIFICATE_3.items()})
    assert check_farkas({**CERTIFICATE_3, "diag_3": 0.5})  # more weight on a <= only adds to the left side


@pytest.mark.parametrize(("answer", "said", "where"), [
    ({**CERTIFICATE_3, "block_2_2": -1}, "the multiplier of block_2_2 (block (2,2)) is -1", "block_2_2"),
    ({**CERTIFICATE_3, "col_2": 0}, "add up to x[1,2] + 2x[2,2] + x[3,2] <= 0", "0"),
    ({**CERTIFICATE_3, "row_2": -3}, "the combined coefficient of x[2,1] is -1", (2, 1)),
    ({"row_1": -1, "row_2": -1, "row_3": -1, "block_1_1": 1}, "coefficient of x[1,3] is -1", (1, 3)),
    ({}, "the right side must be < 0", "0"),
    ({"block_1_1": 1}, "add up to x[1,1] + x[1,2] + x[2,1] + x[2,2] <= 1", "1"),
    ({**CERTIFICATE_3, "row_1": "-1"}, "the multiplier of row_1 is a number, not the string '-1'", None),
    ({**CERTIFICATE_3, "row 4": -1}, "there is no constraint called 'row 4'", None),
    ({**CERTIFICATE_3, "row 1": -1}, "row_1 is given twice", None),
    ([-1, -2, -1], "one number per constraint, 16", None),
    ("row_1: -1", "a dict (constraint name -> number) or a list", None),
    ({**CERTIFICATE_3, "row_1": float("nan")}, "a finite number, not nan", None),
])
def test_each_broken_condition_is_named(answer, said: str, where) -> None:
    verdict = check_farkas(answer)
    assert not verdict and verdict.message.startswith("Not yet") and "\n" not in verdict.message
    assert said in verdict.message, verdict.message
    if where is not None:
        assert verdict.counterexample == where


def test_the_coefficient_check_is_exact_with_fractions_and_loose_only_for_floats() -> None:
    thirds = {name: Fraction(v, 3) for name, v in CERTIFICATE_3.items()}
    thirds["row_1"] += Fraction(1, 10**12)  # exactly: x[1,1] and x[1,3] get a tiny positive coefficient
    assert check_farkas(thirds)
    thirds["row_1"] -= Fraction(2, 10**12)  # exactly: now a tiny negative one, and fractions are exact
    assert not check_farkas(thirds)
    floats = {name: v / 3 for name, v in CERTIFICATE_3.items()}
    floats["row_1"] += 1e-13  # a float within 1e-9 of the right one is the right one
    assert check_farkas(floats)


def test_misuse_is_a_one_line_error() -> None:
    for call in (lambda: farkas_constraints(0), lambda: farkas_constraints("x"), lambda: check_farkas({}, n=10**6)):
        with pytest.raises(InputError):
            call()
