"""Cells and board sizes as the user gives them, parsed and checked with one-line errors.

:func:`parse_n` and :func:`whole_number` (a board size, a count), :func:`parse_cell` and :func:`check_cell`
(a ``(row, col)`` pair, 1-based), :func:`board_cells` (a whole board of them), :func:`shown` (a value quoted in
an error).  Every public function of :mod:`nqueens_kit.problem` checks its arguments through these, so a wrong
type or a value off the board is an :class:`~nqueens_kit.errors.InputError` saying what would be valid.
(:mod:`.board` re-exports every public name here.)

>>> parse_cell("2,3", 4)
(2, 3)
>>> parse_n("0")
Traceback (most recent call last):
...
nqueens_kit.errors.InputError: N must be a whole number from 1 to 10,000,000, not 0
"""

from __future__ import annotations

import operator
import re
from collections.abc import Iterable, Mapping, Set
from typing import TYPE_CHECKING, SupportsIndex, TypeGuard

from ..errors import InputError

if TYPE_CHECKING:  # numpy is imported where an array board is made or checked, not by every import of the kit
    pass


Cell = tuple[int, int]


#: A board as the methods enumerate it: a tuple of queens sorted by row (hashable, ordered).
Board = tuple[Cell, ...]


#: The largest board the kit accepts; the explicit construction handles it in seconds.
MAX_N = 10_000_000


#: The largest board whose cells are listed one by one (its lines, its lex-leader pairs): 4n² cells, about
#: 6 GB of Python tuples at this size.  Anything built from the lines is refused long before by its size guard.
MAX_LISTED_N = 4_000


_WHOLE = re.compile(r"[+-]?[0-9]+")


def whole_number(value: object) -> int | None:
    """``value`` as an int if it is one (an int, or a string of ASCII digits), else None.

    Floats, bools and strings such as ``"2.5"``, ``"1_000"`` or non-ASCII digits are not whole numbers.

    >>> whole_number("12"), whole_number(" -3 "), whole_number(2.0), whole_number("²")
    (12, -3, None, None)
    """
    if isinstance(value, bool):
        return None
    if isinstance(value, str):
        text = value.strip()
        return int(text) if _WHOLE.fullmatch(text) and len(text) < 40 else None
    if type(value) is int:
        return value
    if not isinstance(value, SupportsIndex):
        return None
    try:
        return operator.index(value)  # numpy integers
    except TypeError:
        return None


def parse_n(value: object, *, minimum: int = 1, maximum: int = MAX_N, what: str = "N") -> int:
    """Read a board size from user input (an int or a string) or raise a one-line :class:`InputError`.

    >>> parse_n("8")
    8
    """
    low, high = whole_number(minimum), whole_number(maximum)
    if low is None or high is None or isinstance(minimum, str) or isinstance(maximum, str):
        raise InputError(f"the bounds of {str(what)[:40]} must be whole numbers, not {shown(minimum)} and "
                         f"{shown(maximum)}")
    number = whole_number(value)
    if number is None or not low <= number <= high:
        raise InputError(f"{str(what)[:40]} must be a whole number from {low:,} to {high:,}, "
                         f"not {shown(value if number is None else number)}")
    return number


def shown(value: object) -> str:
    """A value as an error message shows it: its repr, cut to 40 characters (a string stripped first)."""
    if isinstance(value, str):
        return repr(value.strip()[:40])
    try:
        text = repr(value)
    except Exception:  # a repr that fails is still a value to name
        text = f"a {type(value).__name__}"
    return text if len(text) <= 40 else text[:37] + "..."


def _plain_cell(value: object) -> TypeGuard[Cell]:
    """True for a (row, col) tuple of two ints: the form every cell takes inside the kit (checked fast)."""
    return type(value) is tuple and len(value) == 2 and type(value[0]) is int and type(value[1]) is int


def parse_cell(value: object, n: int | None = None) -> Cell:
    """A cell from ``"R,C"`` or a pair of whole numbers (1-based), checked to lie on the board if n is given.

    >>> parse_cell("2,3", 8), parse_cell((4, 1))
    ((2, 3), (4, 1))
    """
    if n is not None:
        n = parse_n(n)
    if _plain_cell(value):
        cell: Cell = value
    else:
        row = col = None
        if not isinstance(value, (bytes, bytearray, Mapping, Set)):
            parts: object = value.replace(" ", "").split(",") if isinstance(value, str) else value
            try:
                if not isinstance(parts, Iterable):
                    raise TypeError
                row, col = (whole_number(p) for p in parts)
            except (TypeError, ValueError):
                row = col = None
        if row is None or col is None:
            raise InputError(f"a queen is written ROW,COL with whole numbers (e.g. 2,3), not {shown(value)}")
        cell = (row, col)
    if n is not None:
        _check_on_board(cell, n)
    return cell


def check_cell(cell: Cell, n: int) -> None:
    """Raise :class:`InputError` if ``cell`` is not a cell of the n x n board."""
    parse_cell(cell, parse_n(n))


def _check_on_board(cell: Cell, n: int) -> None:
    row, col = cell
    if not (1 <= row <= n and 1 <= col <= n):
        raise InputError(
            f"queen at {row},{col} is off the board: rows and columns run from 1 to {n}"
        )


def _cell_items(value: object, what: str) -> list[object]:
    """The items of a list of cells, or a one-line error for a value that is not a list at all."""
    if isinstance(value, (str, bytes, bytearray, Mapping)) or not isinstance(value, Iterable):
        raise InputError(f"{what} are a list of (row, col) pairs, not {shown(value)}")
    try:
        return list(value)
    except TypeError:
        raise InputError(f"{what} are a list of (row, col) pairs, not {shown(value)}") from None


def _cells(value: object, what: str, n: int | None = None) -> list[Cell]:
    """A list of cells (on the n x n board if n is given), each checked; the kit's own tuples pass fast."""
    items = _cell_items(value, what)
    if n is None:
        return [q if _plain_cell(q) else parse_cell(q) for q in items]
    return [q if _plain_cell(q) and 0 < q[0] <= n and 0 < q[1] <= n else parse_cell(q, n) for q in items]


def _listed_n(n: object, what: str) -> int:
    """A board size small enough to list its cells one by one (:data:`MAX_LISTED_N`)."""
    n = parse_n(n)
    if n > MAX_LISTED_N:
        raise InputError(f"{what} of {n:,}-queens hold {4 * n * n:,} cells, too many to list: they are listed up "
                         f"to n = {MAX_LISTED_N:,} (anything built from them is far larger still)")
    return n


def _whole_numbers(values: object, what: str, low: int, high: int) -> set[int]:
    """A list of whole numbers from low to high, as a set, or a one-line error."""
    if isinstance(values, (str, bytes, bytearray, Mapping)) or not isinstance(values, Iterable):
        raise InputError(f"{what} are a list of whole numbers from {low} to {high}, not {shown(values)}")
    numbers = set()
    for value in values:
        number = whole_number(value)
        if number is None or isinstance(value, str) or not low <= number <= high:
            raise InputError(f"{what} are whole numbers from {low} to {high}, not {shown(value)}")
        numbers.add(number)
    return numbers


def board_cells(n: int, queens: object) -> list[Cell]:
    """``queens`` as a list of cells on the n x n board, or a one-line :class:`InputError` saying what is wrong.

    >>> board_cells(4, [(1, 2), "3,4"])
    [(1, 2), (3, 4)]
    """
    n = parse_n(n)
    if isinstance(queens, (str, bytes, bytearray, Mapping)) or not isinstance(queens, Iterable):
        raise InputError(f"a board is a list of (row, col) pairs, not {shown(queens)}")
    return _cells(queens, "the queens of a board", n)
