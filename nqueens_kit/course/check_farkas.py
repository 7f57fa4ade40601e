"""A certificate of infeasibility for an LP, checked exactly: Farkas' lemma on the lines model with the 2×2 blocks.

Chapter 3's exercise (:func:`~nqueens_kit.course.check_bnb.check_blocks`) adds to the LP relaxation of the
*lines* model one constraint per 2×2 block, ``x[r,c] + x[r+1,c] + x[r,c+1] + x[r+1,c+1] <= 1``, and then the
LP alone proves n = 2 and n = 3 impossible.  :func:`farkas_constraints` lists that LP's constraints in a fixed
order, named as the kit's ILP model names its lines (``row_1``, ``col_2``, ``diag_3`` for r − c + n = 3,
``anti_4`` for r + c − 1 = 4) and ``block_r_c`` for the block whose top-left cell is (r, c):

- ``row_r`` and ``col_c``: the cells of the line sum to 1 (``=``);
- ``diag_d``, ``anti_a`` (lines of two or more cells) and ``block_r_c``: the cells sum to at most 1 (``<=``);
- every x >= 0.  The upper bounds x <= 1 are left out: each cell's row already says x <= 1 (the row sums to
  1 and its other cells are >= 0), so they take no multiplier.

**Farkas' lemma** for this system, ``A_eq x = b_eq``, ``A_le x <= b_le``, ``x >= 0``: it has no point exactly
when there are multipliers ``y``, one per constraint, of any sign on an equality and ``>= 0`` on an
inequality, such that

1. every cell's combined coefficient ``(yᵀA)[cell]`` (the sum of the multipliers of the constraints that hold
   the cell) is ``>= 0``, and
2. the combined right-hand side ``yᵀb`` (the sum of multiplier × right-hand side) is ``< 0``.

Why that is a proof: for any x >= 0 meeting the constraints, multiplying each by its multiplier (an equality
stays true whatever the sign, a ``<=`` keeps its direction under a factor >= 0) and adding gives
``yᵀA x <= yᵀb < 0``, while ``yᵀA x >= 0`` because every coefficient and every x is >= 0.

A certificate for n = 3, in small integers: ``row_1: -1, row_2: -2, row_3: -1, col_2: -1`` and ``+1`` on each
of the four blocks (every other multiplier 0).  In words: the four blocks hold each corner once, each edge
cell twice and the centre four times, so together they add up to *all nine cells* + *row 2* + *column 2* +
``x[2,2]``, and they allow at most 4.  But the three rows force three queens on the nine cells, and row 2
and column 2 one more each: 3 + 1 + 1 + x[2,2] <= 4, so x[2,2] <= −1, which no x >= 0 meets.  The
multipliers say exactly that: the combination is ``x[2,2] <= -1``.  For n = 2 the one block and the two
rows do it: ``row_1: -1, row_2: -1, block_1_1: 1`` gives ``0 <= -1``.

>>> certificate = {"row_1": -1, "row_2": -2, "row_3": -1, "col_2": -1,
...                "block_1_1": 1, "block_1_2": 1, "block_2_1": 1, "block_2_2": 1}
>>> check_farkas(certificate)  # doctest: +NORMALIZE_WHITESPACE
Correct: the multipliers add the constraints up to x[2,2] <= -1: every coefficient is >= 0, so the left side
is >= 0 for every x >= 0, yet the right side is -1 < 0. No x >= 0 meets the constraints: the LP of n = 3 has
no point.
>>> print(check_farkas({"row_1": -1, "row_2": -1, "row_3": -1, "block_1_1": 1}))  # doctest: +NORMALIZE_WHITESPACE
Not yet: the combined coefficient of x[1,3] is -1 (row_1: -1): every cell needs a coefficient >= 0, so that
the left side is >= 0 for every x >= 0.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from ..problem.board import Cell, board_lines, parse_n, shown
from .answers import AnswerError, Verdict, given, inexact, items, rational, same_real

#: The largest board :func:`farkas_constraints` lists.
FARKAS_MAX_N = 30
_KINDS = {"row": "row", "col": "column", "diag": "diagonal", "anti": "anti-diagonal"}


@dataclass(frozen=True)
class FarkasConstraint:
    """One constraint of the LP: ``name`` (``row_1``, ``block_1_2``), ``label`` in words (``row 1``,
    ``diagonal r - c = 0``, ``block (1,2)``), its ``cells``, its ``sense`` (``=`` or ``<=``) and its right-hand
    side ``rhs``."""

    name: str
    label: str
    cells: tuple[Cell, ...]
    sense: str
    rhs: int

    def __str__(self) -> str:
        left = " + ".join(f"x[{r},{c}]" for r, c in self.cells)
        return f"{self.name}: {left} {self.sense} {self.rhs}"


def farkas_constraints(n: int = 3) -> list[FarkasConstraint]:
    """The constraints of the lines LP of n-queens with one constraint per 2×2 block, in a fixed order: rows,
    columns, diagonals, anti-diagonals (as :func:`~nqueens_kit.problem.board.board_lines` lists them), then
    the blocks row by row.  The variables are x[r,c] >= 0.

    >>> for constraint in farkas_constraints(2):
    ...     print(constraint)
    row_1: x[1,1] + x[1,2] = 1
    row_2: x[2,1] + x[2,2] = 1
    col_1: x[1,1] + x[2,1] = 1
    col_2: x[1,2] + x[2,2] = 1
    diag_2: x[1,1] + x[2,2] <= 1
    anti_2: x[1,2] + x[2,1] <= 1
    block_1_1: x[1,1] + x[1,2] + x[2,1] + x[2,2] <= 1
    >>> [c.label for c in farkas_constraints(3)][6:9]
    ['diagonal r - c = -1', 'diagonal r - c = 0', 'diagonal r - c = 1']
    """
    size = parse_n(n, maximum=FARKAS_MAX_N, what="n")
    listed: list[FarkasConstraint] = []
    for line in board_lines(size):
        if line.kind == "diag":
            label = f"diagonal r - c = {line.index - size}"
        elif line.kind == "anti":
            label = f"anti-diagonal r + c = {line.index + 1}"
        else:
            label = f"{_KINDS[line.kind]} {line.index}"
        listed.append(FarkasConstraint(line.name, label, line.cells, "=" if line.exact else "<=", 1))
    for r in range(1, size):
        for c in range(1, size):
            listed.append(FarkasConstraint(f"block_{r}_{c}", f"block ({r},{c})",
                                           ((r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)), "<=", 1))
    return listed


def _text(value: Fraction, loose: bool) -> str:
    """A multiplier or a sum as it is shown: ``2``, ``-1/3``, or a float's few digits."""
    if value.denominator == 1:
        return str(value.numerator)
    return f"{float(value):.6g}" if loose else f"{value.numerator}/{value.denominator}"


def _multipliers(answer: object, constraints: list[FarkasConstraint]) -> tuple[list[Fraction], bool]:
    """One multiplier per constraint, exactly, and whether any was a float; an :class:`AnswerError` names the
    flaw."""
    by_key = {c.name: i for i, c in enumerate(constraints)} | {c.label: i for i, c in enumerate(constraints)}
    values: list[object] = [0] * len(constraints)
    if isinstance(answer, Mapping):
        seen: dict[int, object] = {}
        for key, value in answer.items():
            index = by_key.get(key.strip()) if isinstance(key, str) else None
            if index is None:
                raise AnswerError(f"there is no constraint called {shown(key)}; they are named "
                                  f"{constraints[0].name}, {constraints[1].name}, ... {constraints[-1].name} "
                                  "(farkas_constraints(n) lists them)")
            if index in seen:
                raise AnswerError(f"{constraints[index].name} is given twice ({shown(seen[index])} and "
                                  f"{shown(key)})")
            seen[index] = key
            values[index] = value
    else:
        listed = items(answer, sets=False)
        if listed is None:
            raise AnswerError(f"the multipliers are a dict (constraint name -> number) or a list of "
                              f"{len(constraints)} numbers in the order of farkas_constraints(n), not {given(answer)}")
        if len(listed) != len(constraints):
            raise AnswerError(f"a list of multipliers has one number per constraint, {len(constraints)} in the order "
                              f"of farkas_constraints(n), not {len(listed)}")
        values = listed
    exact = [rational(value, f"the multiplier of {c.name}") for value, c in zip(values, constraints, strict=True)]
    return exact, any(inexact(value) for value in values)


def check_farkas(multipliers: object, n: int = 3) -> Verdict:
    """Check a Farkas certificate that the lines LP with the 2×2 blocks (:func:`farkas_constraints`) has no
    point for ``n``: one multiplier per constraint, a dict ``name -> number`` (a missing name is 0; the
    label in words is a name too) or a list in the order of :func:`farkas_constraints`.

    The conditions (see the module): a multiplier >= 0 on every ``<=`` constraint (any sign on ``=``), every
    cell's combined coefficient >= 0, and the combined right-hand side < 0.  They are checked exactly, in
    fractions; a multiplier may be an int, a ``Fraction``, a NumPy number or a float (then the sums are
    compared with a tolerance of 1e-9), never a string.  A wrong certificate gets the condition it breaks,
    with the constraint or the cell that breaks it as ``counterexample``.
    """
    size = parse_n(n, maximum=FARKAS_MAX_N, what="n")
    constraints = farkas_constraints(size)
    try:
        y, loose = _multipliers(multipliers, constraints)
    except AnswerError as error:
        return Verdict(False, f"Not yet: {error}.", None)

    def negative(value: Fraction) -> bool:
        return value < 0 and not (loose and same_real(float(value), 0.0))

    for value, c in zip(y, constraints, strict=True):
        if c.sense == "<=" and negative(value):
            return Verdict(False, f"Not yet: the multiplier of {c.name} ({c.label}) is {_text(value, loose)}, but a "
                                  "<= constraint may only be multiplied by a number >= 0 (a negative one would turn "
                                  "<= into >=); the rows and columns, equalities, take either sign.", c.name)
    coefficient: dict[Cell, Fraction] = {(r, col): Fraction(0) for r in range(1, size + 1)
                                         for col in range(1, size + 1)}
    for value, c in zip(y, constraints, strict=True):
        for each in c.cells:
            coefficient[each] += value
    for each, total in coefficient.items():
        if negative(total):
            parts = ", ".join(f"{c.name}: {_text(value, loose)}" for value, c in zip(y, constraints, strict=True)
                              if value and each in c.cells)
            return Verdict(False, f"Not yet: the combined coefficient of x[{each[0]},{each[1]}] is "
                                  f"{_text(total, loose)} ({parts}): every cell needs a coefficient >= 0, so that "
                                  "the left side is >= 0 for every x >= 0.", each)
    right = sum((value * c.rhs for value, c in zip(y, constraints, strict=True)), Fraction(0))
    terms = [f"{'' if total == 1 else _text(total, loose)}x[{r},{col}]" for (r, col), total in coefficient.items()
             if total and not (loose and same_real(float(total), 0.0))]
    combined = f"{' + '.join(terms) or '0'} <= {_text(right, loose)}"
    if right >= 0 or (loose and same_real(float(right), 0.0)):
        return Verdict(False, f"Not yet: every multiplier has the right sign and every coefficient is >= 0, but the "
                              f"constraints add up to {combined}: the right side must be < 0 for a contradiction "
                              "(here some x >= 0 may still meet it).", _text(right, loose))
    return Verdict(True, f"Correct: the multipliers add the constraints up to {combined}: every coefficient is >= 0, "
                         f"so the left side is >= 0 for every x >= 0, yet the right side is {_text(right, loose)} < 0. "
                         f"No x >= 0 meets the constraints: the LP of n = {size} has no point.")


__all__ = ["FarkasConstraint", "check_farkas", "farkas_constraints"]
