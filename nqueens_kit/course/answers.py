"""How every checker reads an answer: one rule for numbers, truth values, cells, literals and clauses.

An answer is read for its value, not its type:

- a **whole number** (a count, a row, a column): an int, a float with nothing after the point (``4.0``), a
  whole ``Fraction`` or ``Decimal``, a NumPy integer or a whole NumPy float (a scalar or a 0-d array);
- a **real number** (a score, a bound, a multiplier): any of those, whole or not, as long as it is finite;
- a **truth value**: ``True`` or ``False``, or a NumPy bool;
- a **cell**: a pair (row, column) of whole numbers, as a tuple, a list or a NumPy array, or the kit's text
  ``"2,3"``;
- a **literal**: a non-zero whole number (DIMACS: 3 is variable 3, -3 its negation) or, where a formula
  gives its variables names, a name such as ``P[1,2]``, ``¬P[1,2]``, ``-P[1,2]``, ``~P[1,2]``, ``not P[1,2]``
  or ``h3`` (a helper);
- a **clause**: a list, tuple, set or NumPy array of literals (where names are read, also one string with the
  literals joined by ``∨``, ``or``, ``,`` or ``|``).

Refused, each in one line that names what was given and what is valid: a bool where a number is asked
(``True`` is a truth value, not 1), a string where a number is asked ("a bound is a number, not the string
'2'"), a number that is not whole where a whole one is asked, NaN and the infinities.  A refusal is an
:class:`AnswerError`; a checker turns it into a "Not yet" :class:`Verdict`, it never raises at a student.
What is handed to a checker itself (a function that is not one, a size out of range) is the caller's
mistake, not the student's answer: :func:`student_function`, :func:`board_sizes` and :func:`flag` raise a
plain :class:`~nqueens_kit.errors.InputError` for it, as everywhere in the kit.

Two real numbers are the same answer when :func:`same_real` says so: ``math.isclose`` with relative and
absolute tolerance 1e-9 (a few units of its own precision for a NumPy float of fewer bits).

Nothing here imports NumPy (the browser edition may not have it): a NumPy value is known by its type's module.

>>> from fractions import Fraction
>>> whole(4.0, "a count"), whole(Fraction(8, 2), "a count"), cell([4, 2], 8)
(4, 4, (4, 2))
>>> real("2", "a bound")
Traceback (most recent call last):
...
nqueens_kit.course.answers.AnswerError: a bound is a number, not the string '2'
>>> whole(True, "a count")
Traceback (most recent call last):
...
nqueens_kit.course.answers.AnswerError: a count is a whole number, not True (type bool)
>>> same_real(84.00000000000003, 84), same_real(0.5, 0.51)
(True, False)
"""

from __future__ import annotations

import decimal
import math
import numbers
import operator
import re
from collections.abc import Iterable, Mapping, Sequence, Set
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Protocol, cast

from ..errors import InputError
from ..problem.board import Cell, parse_n, shown

if TYPE_CHECKING:
    from ..methods.sat.cnf import CNF

#: Relative and absolute tolerance of :func:`same_real`.
TOLERANCE = 1e-9


class AnswerError(InputError):
    """An answer in a form no checker reads; its message, one line, names what was given and what is valid."""


@dataclass
class Verdict:
    """A checker's answer: ``ok``, a friendly ``message``, and the ``counterexample`` when there is one.

    A verdict is true when the answer is right, so ``assert check_...(f)`` works in a test; in a notebook
    its text is what is shown.
    """

    ok: bool
    message: str
    counterexample: object = None

    def __bool__(self) -> bool:
        return self.ok

    def __repr__(self) -> str:
        return self.message

    __str__ = __repr__


# ------------------------------------------------------------------------------------------------ numbers


class _Item(Protocol):
    """A NumPy scalar or array: ``item()`` is its Python value, ``tolist()`` its items."""

    shape: tuple[int, ...]

    def item(self) -> object: ...

    def tolist(self) -> object: ...


def _is_numpy(value: object) -> bool:
    return type(value).__module__ == "numpy"


def _plain(value: object) -> object:
    """A NumPy scalar or 0-d array as its Python value (``np.int64(3)`` is 3, ``np.bool_(True)`` is True);
    anything else as it is."""
    if _is_numpy(value) and getattr(value, "shape", None) == ():
        return cast(_Item, value).item()
    return value


Number = int | float | Fraction | decimal.Decimal


def number(value: object) -> Number | None:
    """``value`` as a Python number if it is a real number of any kind (int, float, ``Fraction``, ``Decimal``,
    a NumPy integer or float, scalar or 0-d array); None for anything else, bools and strings included.

    >>> import numpy as np
    >>> number(np.int64(3)), number(np.array(2.5)), number(True), number("3"), number(np.array([1, 2]))
    (3, 2.5, None, None, None)
    """
    value = _plain(value)
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return float(value)
    if isinstance(value, (Fraction, decimal.Decimal)):
        return value
    if isinstance(value, numbers.Integral):
        return operator.index(value)
    if isinstance(value, numbers.Rational):
        return Fraction(int(value.numerator), int(value.denominator))
    if isinstance(value, numbers.Real):
        return float(value)
    return None


def given(value: object) -> str:
    """How a refusal names what it was given: ``the string '2'``, ``2.5 (type float)``."""
    if isinstance(value, str):
        return f"the string {shown(value)}"
    return f"{shown(value)} (type {type(value).__name__})"


def whole(value: object, what: str) -> int:
    """``value`` as an int if it is a whole number of any kind (see the module's rule), else an
    :class:`AnswerError` that says ``{what} is a whole number, not ...``."""
    read = number(value)
    if read is None:
        raise AnswerError(f"{what} is a whole number, not {given(value)}")
    if isinstance(read, int):
        return read
    try:
        integral = int(read)
    except (ValueError, OverflowError):  # NaN, an infinity
        raise AnswerError(f"{what} is a whole number, not {shown(value)}") from None
    if integral != read:
        raise AnswerError(f"{what} is a whole number, not {shown(value)}")
    return integral


def rational(value: object, what: str) -> Fraction:
    """``value`` exactly, as a ``Fraction`` (a float is read as the binary number it is); an
    :class:`AnswerError` for anything that is not a finite real number."""
    read = number(value)
    if read is None:
        raise AnswerError(f"{what} is a number, not {given(value)}")
    try:
        return Fraction(read)
    except (ValueError, OverflowError):
        raise AnswerError(f"{what} is a finite number, not {shown(value)}") from None


def real(value: object, what: str) -> float:
    """``value`` as a float if it is a finite real number of any kind, else an :class:`AnswerError` that says
    ``{what} is a number, not ...``."""
    read = number(value)
    if read is None:
        raise AnswerError(f"{what} is a number, not {given(value)}")
    try:
        result = float(read)
    except OverflowError:
        result = math.inf
    if not math.isfinite(result):
        raise AnswerError(f"{what} is a finite number, not {shown(value)}")
    return result


def inexact(value: object) -> bool:
    """True when ``value`` is a float (Python or NumPy): a number compared with a tolerance, not exactly."""
    return isinstance(number(value), float)


def _precision(value: object) -> float:
    """The relative tolerance ``value`` deserves: 1e-9, or a few units of its own precision when it is a NumPy
    float of fewer bits (a float32 result of the right formula is right)."""
    dtype = getattr(value, "dtype", None)
    if not _is_numpy(value) or getattr(dtype, "kind", None) != "f":
        return TOLERANCE
    import numpy as np  # the value is a NumPy float, so NumPy is there

    return max(TOLERANCE, 8 * float(np.finfo(dtype).eps))


def same_real(a: object, b: object) -> bool:
    """Whether two real numbers are the same answer: ``math.isclose`` with relative and absolute tolerance
    1e-9 (wider for a NumPy float of fewer bits); False when either is not a number or is NaN."""
    x, y = number(a), number(b)
    if x is None or y is None:
        return False
    try:
        fx, fy = float(x), float(y)
    except OverflowError:
        return x == y
    return math.isclose(fx, fy, rel_tol=max(_precision(a), _precision(b)), abs_tol=TOLERANCE)


def truth(value: object, what: str) -> bool:
    """``value`` as a bool if it is ``True``/``False`` or a NumPy bool, else an :class:`AnswerError`."""
    plain = _plain(value)
    if isinstance(plain, bool):
        return plain
    raise AnswerError(f"{what} is True or False, not {given(value)}")


# -------------------------------------------------------------------------------------------------- cells


def items(value: object, *, sets: bool = True) -> list[object] | None:
    """The items of a list-like answer (a list, a tuple, a NumPy array, any iterable; a set too unless
    ``sets`` is False), or None for a value that is not one (a string, a mapping, a number, a 0-d array)."""
    if isinstance(value, (str, bytes, bytearray, Mapping)) or (not sets and isinstance(value, Set)):
        return None
    if _is_numpy(value) and hasattr(value, "tolist"):
        listed = cast(_Item, value).tolist()
        return listed if isinstance(listed, list) else None
    if not isinstance(value, Iterable):
        return None
    try:
        return list(value)
    except Exception:  # an iterable that fails to iterate is still not a list to read
        return None


_CELL_TEXT = re.compile(r"\(?\s*([+-]?\d{1,9})\s*,\s*([+-]?\d{1,9})\s*\)?")


def _on_board(found: Cell, n: int | None, what: str) -> Cell:
    if n is not None and not (1 <= found[0] <= n and 1 <= found[1] <= n):
        raise AnswerError(f"{what} {found} is off the board: the {n} x {n} board's rows and columns run from 1 "
                          f"to {n}")
    return found


def is_pair(value: object) -> bool:
    """Whether ``value`` looks like one cell rather than a list of cells: "r,c" text, or an ordered pair of
    numbers (a tuple, a list, a NumPy array)."""
    if isinstance(value, str):
        return _CELL_TEXT.fullmatch(value.strip()) is not None
    if not (isinstance(value, Sequence) or _is_numpy(value)):
        return False  # a set is not ordered, and an iterator would be used up by looking
    listed = items(value, sets=False)
    return listed is not None and len(listed) == 2 and all(number(x) is not None for x in listed)


def cell(value: object, n: int | None = None, what: str = "a cell") -> Cell:
    """``value`` as a cell ``(row, column)``: a pair of whole numbers as a tuple, a list or a NumPy array, or
    the text ``"2,3"``; on the n x n board when ``n`` is given.  An :class:`AnswerError` names the flaw.

    >>> import numpy as np
    >>> cell([4, 2]), cell(np.array([4, 2]), 8), cell("2,3"), cell((2.0, 3))
    ((4, 2), (4, 2), (2, 3), (2, 3))
    """
    shape = f"{what} is a (row, column) pair of whole numbers, such as (2, 3)"
    if isinstance(value, str):
        found = _CELL_TEXT.fullmatch(value.strip())
        if found is None:
            raise AnswerError(f"{shape}, not {given(value)}")
        return _on_board((int(found[1]), int(found[2])), n, what)
    listed = items(value, sets=False)
    if listed is None or len(listed) != 2:
        raise AnswerError(f"{shape}, not {given(value)}")
    try:
        row, col = whole(listed[0], "a row"), whole(listed[1], "a column")
    except AnswerError as error:
        raise AnswerError(f"{shape}; in {shown(value)} {error}") from None
    return _on_board((row, col), n, what)


def cells(value: object, n: int | None = None, what: str = "the cells", *, single: bool = True,
          noun: str = "a cell") -> list[Cell]:
    """A list of cells, in the order given (repeats kept), from any list-like answer of cells (each read by
    :func:`cell`, ``noun`` naming one in a refusal); with ``single``, one cell on its own (``(2, 3)``,
    ``[2, 3]``, ``"2,3"``) is a list of one.

    >>> cells([(1, 1), [2, 3], "3,5"]), cells((2, 3)), cells([(1, 1)], 4, noun="a queen")
    ([(1, 1), (2, 3), (3, 5)], [(2, 3)], [(1, 1)])
    """
    if single and is_pair(value):
        return [cell(value, n, noun)]
    listed = items(value)
    if listed is None:
        raise AnswerError(f"{what} is a list of cells such as [(1, 1), (2, 3)], not {given(value)}")
    found: list[Cell] = []
    for item in listed:
        try:
            read = cell(item, None, noun)
        except AnswerError as error:
            raise AnswerError(f"{what}: {error}") from None
        found.append(_on_board(read, n, noun))
    return found


# ---------------------------------------------------------------------------------------- literals, clauses

_NEGATIONS = ("¬", "-", "~", "!", "not ")
_NAME = re.compile(r"^(?:P\[\s*(\d+)\s*,\s*(\d+)\s*\]|h(\d+)|(\d+))$")
_LITERAL = "a non-zero whole number (a DIMACS literal such as 3 or -3)"


def _named(text: str, names: CNF) -> int:
    """A literal written as a name of the formula ``names`` (``¬P[3,5]``, ``h4``, ``-7``)."""
    body, negative = text.strip(), False
    while True:  # a doubled negation cancels out
        for mark in _NEGATIONS:
            if body.startswith(mark):
                body, negative = body[len(mark):].strip(), not negative
                break
        else:
            break
    found = _NAME.match(body.replace("P(", "P[").replace(")", "]"))
    if found is None:
        raise AnswerError(f"{shown(text)} is not a literal: write P[r,c] (or ¬P[r,c]), h<k>, or a number")
    row, col, helper, digits = found.groups()
    if row is not None:
        r, c = int(row), int(col)
        if not (1 <= r <= names.n and 1 <= c <= names.n):
            raise AnswerError(f"{shown(text)}: there is no cell ({r},{c}) on a {names.n}×{names.n} board")
        var = names.problem.var(r, c)
    elif helper is not None:
        var = names.board_vars + int(helper)
    else:
        var = int(digits)
    return -var if negative else var


def literal(value: object, names: CNF | None = None, top: int | None = None, what: str = "a literal") -> int:
    """``value`` as a DIMACS literal: a non-zero whole number (an int, a NumPy integer, any whole number), or,
    when ``names`` (a formula) is given, a name of one of its variables (``¬P[1,2]``, ``h3``, ``"-4"``).  With
    a formula (or ``top``) the variable must be one of its variables 1 .. top.

    >>> import numpy as np
    >>> from nqueens_kit import build_cnf
    >>> literal(np.int64(-3)), literal("¬P[1,2]", build_cnf(2)), literal("~P(2,1)", build_cnf(2))
    (-3, -2, -3)
    """
    plain = _plain(value)
    if isinstance(plain, str):
        if names is None:
            raise AnswerError(f"{what} is {_LITERAL}, not {given(value)}")
        lit = _named(plain, names)
    else:
        read = number(value)
        if read is None:
            raise AnswerError(f"{what} is {_LITERAL}, not {given(value)}")
        try:
            lit = whole(value, what)
        except AnswerError:
            raise AnswerError(f"{what} is {_LITERAL}, not {shown(value)}") from None
    if lit == 0:
        raise AnswerError(f"{what} is {_LITERAL}, not 0 (in DIMACS, 0 ends a clause)")
    limit = names.num_vars if names is not None else top
    if limit is not None and abs(lit) > limit:
        raise AnswerError(f"{shown(value)} is not a literal of this formula (variables 1 to {limit})")
    return lit


_JOINS = re.compile(r"\s*(?:∨|\bor\b|,(?![^\[(]*[\])])|\|)\s*")


def clause(value: object, names: CNF | None = None, top: int | None = None, what: str = "a clause") -> tuple[int, ...]:
    """``value`` as a clause, its literals in the order given: a list, tuple, set or NumPy array of literals
    (each read by :func:`literal`), or, when ``names`` is given, one string joined by ``∨``, ``or``, ``,`` or
    ``|``.  The empty clause is an empty list (or an empty string).

    >>> from nqueens_kit import build_cnf
    >>> clause({3}), clause("¬P[1,1] ∨ P[2,2]", build_cnf(2)), clause([])
    ((3,), (-1, 4), ())
    """
    listed: list[object] | None
    if isinstance(value, str) and names is not None:
        listed = [part for part in _JOINS.split(value.strip()) if part]
    else:
        listed = items(value)
    if listed is None:
        written = ", or one string such as '¬P[1,1] ∨ P[2,3]'" if names is not None else ""
        raise AnswerError(f"{what} is a list of literals{written}, not {given(value)}")
    return tuple(literal(item, names, top) for item in listed)


# ------------------------------------------------------------------------------ what a checker is handed


def student_function(value: object, checker: str, shape: str) -> None:
    """Refuse (one line) anything but a function where a checker expects the student's function."""
    if not callable(value):
        raise InputError(f"{checker} takes your function, {shape}, not {shown(value)}")


def board_sizes(values: object, what: str, high: int) -> list[int]:
    """A non-empty list of board sizes from 1 to ``high``, or a one-line :class:`InputError`."""
    if isinstance(values, (str, bytes, bytearray)) or not isinstance(values, Iterable):
        raise InputError(f"{what} is a list of board sizes from 1 to {high}, not {shown(values)}")
    sizes = [parse_n(n, maximum=high, what=f"a board size in {what}") for n in values]
    if not sizes:
        raise InputError(f"{what} is a list of board sizes from 1 to {high}, not an empty list")
    return sizes


def flag(value: object, what: str) -> bool:
    """A checker's own True/False option, or a one-line :class:`InputError`."""
    if not isinstance(value, bool):
        raise InputError(f"{what} is True or False, not {shown(value)}")
    return value


__all__ = ["AnswerError", "Verdict", "board_sizes", "cell", "cells", "clause", "flag", "given", "inexact", "is_pair",
           "items", "literal", "number", "rational", "real", "same_real", "student_function", "truth", "whole"]
