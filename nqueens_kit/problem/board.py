"""The N-queens problem described once, and what a solution is.

Inside:

- :class:`Problem`: board size ``n`` and optional pre-placed queens; :meth:`Problem.lines` describes the
  rules as *lines of cells with a cardinality* (rows and columns: exactly one queen; every diagonal and
  anti-diagonal with two or more cells: at most one).  Both the SAT and the ILP side translate these lines.
- :func:`verify` and :func:`violations`: the one independent checker every decoded board goes through.
  It does not use :meth:`Problem.lines`, so an error there cannot hide itself.
- :data:`SYMMETRIES`, :func:`transform`, :func:`canonical`: the 8 symmetries of the square and the canonical
  form used to count fundamental solutions.
- :func:`attacks` and :func:`conflicts`: which queens attack each other, and why.
- :func:`parse_n`, :func:`parse_cell`: input parsing with one-line errors.

Cells are ``(row, col)`` pairs, 1-based, as in the lectures' P_rc.  A board (a solution) is a tuple of
queens sorted by row.

>>> p = Problem(4)
>>> [line.name for line in p.lines()][:3]
['row_1', 'row_2', 'row_3']
>>> verify(4, [(1, 2), (2, 4), (3, 1), (4, 3)])
True
>>> canonical(4, [(1, 3), (2, 1), (3, 4), (4, 2)])
((1, 2), (2, 4), (3, 1), (4, 3))
"""

from __future__ import annotations

import operator
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from operator import add, sub
from typing import Any

from ..errors import ConflictError, InputError

Cell = tuple[int, int]
Board = tuple[Cell, ...]

#: The largest board the kit accepts; the explicit construction handles it in seconds.
MAX_N = 10_000_000

_WHOLE = re.compile(r"[+-]?[0-9]+")


def whole_number(value: Any) -> int | None:
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
    try:
        return operator.index(value)  # int, numpy integers
    except TypeError:
        return None


def parse_n(value: Any, *, minimum: int = 1, maximum: int = MAX_N, what: str = "N") -> int:
    """Read a board size from user input (an int or a string) or raise a one-line :class:`InputError`.

    >>> parse_n("8")
    8
    """
    number = whole_number(value)
    if number is None or not minimum <= number <= maximum:
        shown = value if number is None else number
        if isinstance(shown, str):
            shown = shown.strip()[:40]
        raise InputError(f"{what} must be a whole number from {minimum:,} to {maximum:,}, not {shown!r}")
    return number


def parse_cell(value: Any, n: int | None = None) -> Cell:
    """A cell from ``"R,C"`` or a pair of whole numbers (1-based), checked to lie on the board if n is given.

    >>> parse_cell("2,3", 8), parse_cell((4, 1))
    ((2, 3), (4, 1))
    """
    parts: Any = value.replace(" ", "").split(",") if isinstance(value, str) else value
    try:
        row, col = (whole_number(p) for p in parts)
    except (TypeError, ValueError):
        row = col = None
    if row is None or col is None:
        raise InputError(f"a queen is written ROW,COL with whole numbers (e.g. 2,3), not {str(value)[:40]!r}")
    cell = (row, col)
    if n is not None:
        check_cell(cell, n)
    return cell


def check_cell(cell: Cell, n: int) -> None:
    """Raise :class:`InputError` if ``cell`` is not on the n x n board."""
    row, col = cell
    if not (1 <= row <= n and 1 <= col <= n):
        raise InputError(
            f"queen at {row},{col} is off the board: rows and columns run from 1 to {n}"
        )


def attacks(a: Cell, b: Cell) -> str | None:
    """Why two distinct queens attack each other ("same row", ...), or None if they do not."""
    if a == b:
        return None
    if a[0] == b[0]:
        return "same row"
    if a[1] == b[1]:
        return "same column"
    if a[0] - a[1] == b[0] - b[1]:
        return "same diagonal"
    if a[0] + a[1] == b[0] + b[1]:
        return "same anti-diagonal"
    return None


def conflicts(queens: Iterable[Cell]) -> list[tuple[Cell, Cell, str]]:
    """Every pair of queens that attack each other, with the reason, in the order of ``queens``.

    >>> conflicts([(1, 1), (2, 2), (3, 5)])
    [((1, 1), (2, 2), 'same diagonal')]
    """
    cells = list(queens)
    found = []
    for a, b in combinations(cells, 2):
        why = attacks(a, b)
        if why:
            found.append((a, b, why))
    return found


@dataclass(frozen=True)
class Line:
    """One rule of the puzzle: a set of cells holding exactly one (``exact``) or at most one queen.

    ``kind`` is ``row``, ``col``, ``diag`` (r - c constant) or ``anti`` (r + c constant); ``index`` numbers
    lines of one kind from 1: row r and column c by themselves, diagonal ``r - c + n`` and anti-diagonal
    ``r + c - 1`` (both 1 .. 2n-1; the one-cell corner lines are left out because they constrain nothing).
    """

    kind: str
    index: int
    cells: tuple[Cell, ...]

    @property
    def exact(self) -> bool:
        """True for rows and columns (exactly one queen), False for diagonals (at most one)."""
        return self.kind in ("row", "col")

    @property
    def name(self) -> str:
        """The name used for clauses and ILP constraints, e.g. ``row_3``, ``anti_5``."""
        return f"{self.kind}_{self.index}"

    @property
    def cardinality(self) -> str:
        return "exactly_one" if self.exact else "at_most_one"

    def __len__(self) -> int:
        return len(self.cells)


def board_lines(n: int) -> list[Line]:
    """The lines of an n x n board: rows, columns, then diagonals and anti-diagonals of 2+ cells."""
    rng = range(1, n + 1)
    lines = [Line("row", r, tuple((r, c) for c in rng)) for r in rng]
    lines += [Line("col", c, tuple((r, c) for r in rng)) for c in rng]
    for d in range(2, 2 * n - 1):  # r - c + n = d; d = 1 and 2n-1 are one-cell corners
        lines.append(Line("diag", d, tuple((r, r - d + n) for r in rng if 1 <= r - d + n <= n)))
    for a in range(2, 2 * n - 1):  # r + c - 1 = a
        lines.append(Line("anti", a, tuple((r, a + 1 - r) for r in rng if 1 <= a + 1 - r <= n)))
    return lines


@dataclass(frozen=True)
class Problem:
    """An N-queens instance: board size and pre-placed queens (1-based cells).

    Pre-placed queens that attack each other raise :class:`ConflictError` at once, naming the pair;
    a non-attacking pre-placement that cannot be completed is a valid instance whose answer is
    *infeasible*.

    >>> Problem(8, [(1, 1)]).preplaced
    ((1, 1),)
    """

    n: int
    preplaced: tuple[Cell, ...] = field(default=())

    def __post_init__(self) -> None:
        n = parse_n(self.n)
        object.__setattr__(self, "n", n)
        if isinstance(self.preplaced, (str, bytes)) or not isinstance(self.preplaced, Iterable):
            raise InputError(f"pre-placed queens are a list of (row, col) pairs, not {str(self.preplaced)[:40]!r}")
        cells = sorted({parse_cell(cell, n) for cell in self.preplaced})
        clashes = conflicts(cells)
        if clashes:
            a, b, why = clashes[0]
            raise ConflictError(
                f"pre-placed queens at {a[0]},{a[1]} and {b[0]},{b[1]} attack each other ({why}); "
                "pre-placed queens must not share a row, column or diagonal"
            )
        object.__setattr__(self, "preplaced", tuple(cells))

    def lines(self) -> list[Line]:
        """The rules as lines (see :class:`Line`); the pre-placed queens are separate unit facts."""
        return board_lines(self.n)

    def var(self, row: int, col: int) -> int:
        """The SAT variable of the queen at (row, col): ``(row - 1) * n + col``, in 1 .. n²."""
        return (row - 1) * self.n + col

    def cell(self, var: int) -> Cell:
        """Inverse of :meth:`var` for board variables 1 .. n²."""
        row, col = divmod(var - 1, self.n)
        return (row + 1, col + 1)

    def describe(self) -> str:
        if not self.preplaced:
            return f"{self.n}-queens"
        cells = " ".join(f"{r},{c}" for r, c in self.preplaced)
        return f"{self.n}-queens with queens placed at {cells}"


def violations(n: int, queens: Iterable[Cell], preplaced: Iterable[Cell] = ()) -> list[str]:
    """Everything wrong with a claimed solution, as readable sentences (empty when it is valid).

    Deliberately written without :class:`Line` so it checks the encoders rather than repeating them.
    """
    queens = [(q[0], q[1]) for q in queens]
    problems: list[str] = []
    off = [q for q in queens if not (1 <= q[0] <= n and 1 <= q[1] <= n)]
    if off:
        problems.append(f"queens off the {n}x{n} board: {off}")
    if len(queens) != n:
        problems.append(f"{len(queens)} queens on a board of size {n} (need exactly {n})")
    if len(set(queens)) != len(queens):
        problems.append("a cell holds two queens")
    for what, key in (
        ("row", lambda q: q[0]),
        ("column", lambda q: q[1]),
        ("diagonal", lambda q: q[0] - q[1]),
        ("anti-diagonal", lambda q: q[0] + q[1]),
    ):
        for value, count in Counter(map(key, set(queens))).items():
            if count > 1:
                article = "an" if what[0] in "aeiou" else "a"
                problems.append(f"{count} queens share {article} {what} ({what} key {value})")
    missing = [p for p in preplaced if tuple(p) not in set(queens)]
    if missing:
        problems.append(f"pre-placed queens missing from the board: {missing}")
    return problems


def verify(n: int, queens: Iterable[Cell], preplaced: Iterable[Cell] = ()) -> bool:
    """True when ``queens`` is a valid n-queens solution containing every pre-placed queen.

    Counts distinct rows, columns, diagonals and anti-diagonals with sets, so n = 10⁶ takes well under a
    second; :func:`violations` explains a failure.
    """
    try:
        queens = list(queens)
    except TypeError:  # not a list of anything
        return False
    if len(queens) != n:
        return False
    if n == 0:
        return True
    try:
        rows, cols = zip(*queens, strict=True)
        if set(map(type, rows)) | set(map(type, cols)) != {int}:
            return False
    except (TypeError, ValueError):  # not a list of (row, col) pairs
        return False
    if min(rows) < 1 or min(cols) < 1 or max(rows) > n or max(cols) > n:
        return False
    if len(set(rows)) != n or len(set(cols)) != n:
        return False
    if len(set(map(sub, rows, cols))) != n or len(set(map(add, rows, cols))) != n:
        return False
    preplaced = list(preplaced)
    if not preplaced:
        return True
    placed = set(zip(rows, cols, strict=True))
    return all(tuple(p) in placed for p in preplaced)


#: The dihedral group of the square acting on 1-based cells: (name, f(n, r, c) -> (r', c')).
SYMMETRIES: tuple[tuple[str, Callable[[int, int, int], Cell]], ...] = (
    ("identity", lambda n, r, c: (r, c)),
    ("rotate 90", lambda n, r, c: (c, n + 1 - r)),
    ("rotate 180", lambda n, r, c: (n + 1 - r, n + 1 - c)),
    ("rotate 270", lambda n, r, c: (n + 1 - c, r)),
    ("mirror left-right", lambda n, r, c: (r, n + 1 - c)),
    ("mirror top-bottom", lambda n, r, c: (n + 1 - r, c)),
    ("transpose", lambda n, r, c: (c, r)),
    ("anti-transpose", lambda n, r, c: (n + 1 - c, n + 1 - r)),
)


def board_cells(n: int, queens: Any) -> list[Cell]:
    """``queens`` as a list of cells on the n x n board, or a one-line :class:`InputError` saying what is wrong.

    >>> board_cells(4, [(1, 2), "3,4"])
    [(1, 2), (3, 4)]
    """
    n = parse_n(n)
    if isinstance(queens, (str, bytes)):
        raise InputError(f"a board is a list of (row, col) pairs, not {queens[:40]!r}")
    try:
        items = list(queens)
    except TypeError:
        raise InputError(f"a board is a list of (row, col) pairs, not {str(queens)[:40]!r}") from None
    cells = []
    for q in items:
        if type(q) is tuple and len(q) == 2 and type(q[0]) is int and type(q[1]) is int and (
                0 < q[0] <= n and 0 < q[1] <= n):
            cells.append(q)
        else:
            cells.append(parse_cell(q, n))
    return cells


def _symmetry(symmetry: str | int) -> Callable[[int, int, int], Cell]:
    if isinstance(symmetry, int) and not isinstance(symmetry, bool) and 0 <= symmetry < len(SYMMETRIES):
        return SYMMETRIES[symmetry][1]
    table = dict(SYMMETRIES)
    if not isinstance(symmetry, str) or symmetry not in table:
        raise InputError(f"unknown symmetry {str(symmetry)[:40]!r}; valid: {', '.join(table)} "
                         f"(or 0 to {len(SYMMETRIES) - 1})")
    return table[symmetry]


def transform(n: int, queens: Iterable[Cell], symmetry: str | int) -> Board:
    """Apply one of :data:`SYMMETRIES` (by name or index) to a board; the result is sorted by row."""
    f = _symmetry(symmetry)
    return tuple(sorted(f(n, r, c) for r, c in board_cells(n, queens)))


def orbit(n: int, queens: Iterable[Cell]) -> set[Board]:
    """All distinct boards the 8 symmetries make of one board (1, 2, 4 or 8 of them)."""
    cells = board_cells(n, queens)
    return {tuple(sorted(f(n, r, c) for r, c in cells)) for _, f in SYMMETRIES}


def canonical(n: int, queens: Iterable[Cell]) -> Board:
    """The least board (lexicographically) in the orbit: equal for boards that are symmetric images."""
    return min(orbit(n, queens))


def from_columns(columns: Sequence[int]) -> Board:
    """The board whose queen in row r (1-based) stands in column ``columns[r - 1]``."""
    return tuple((r, c) for r, c in enumerate(columns, start=1))


def draw(n: int, queens: Iterable[Cell], preplaced: Iterable[Cell] = ()) -> str:
    """The board as text: ``Q`` a queen, ``P`` a pre-placed queen, ``.`` an empty cell.

    >>> print(draw(4, [(1, 2), (2, 4), (3, 1), (4, 3)]))
    . Q . .
    . . . Q
    Q . . .
    . . Q .
    """
    queens = set(board_cells(n, queens))
    fixed = set(board_cells(n, preplaced))
    rows = []
    for r in range(1, n + 1):
        rows.append(
            " ".join(
                ("P" if (r, c) in fixed else "Q") if (r, c) in queens else "." for c in range(1, n + 1)
            )
        )
    return "\n".join(rows)
