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
- :func:`parse_n`, :func:`parse_cell`, :func:`board_cells`: input parsing with one-line errors.  Every
  public function here checks its arguments the same way, so a wrong type or a value off the board is an
  :class:`InputError` saying what would be valid, never a stray exception or an answer about something else.

Cells are ``(row, col)`` pairs, 1-based, as in the lectures' P_rc.  A board (a solution) is a tuple of
queens sorted by row; a board of millions of queens is a :class:`ColumnBoard` (:func:`from_columns` of a numpy
array): the same sequence of cells, held as an array of columns and checked with numpy.

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
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence, Set
from dataclasses import dataclass, field
from operator import add, sub
from typing import TYPE_CHECKING, Any, SupportsIndex, TypeGuard, overload

from ..errors import ConflictError, InputError
from .rules import board_ok, picture

if TYPE_CHECKING:  # numpy is imported where an array board is made or checked, not by every import of the kit
    import numpy as np
    from numpy.typing import NDArray

Cell = tuple[int, int]
#: A board as the methods enumerate it: a tuple of queens sorted by row (hashable, ordered).
Board = tuple[Cell, ...]

#: The largest board the kit accepts; the explicit construction handles it in seconds.
MAX_N = 10_000_000
#: The largest board whose cells are listed one by one (its lines, its lex-leader pairs): 4n² cells, about
#: 6 GB of Python tuples at this size.  Anything built from the lines is refused long before by its size guard.
MAX_LISTED_N = 4_000
#: The largest board :func:`draw` writes out as text (n lines of n cells).
MAX_DRAW_N = 2_000
#: The kinds of :class:`Line`.
LINE_KINDS = ("row", "col", "diag", "anti")

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


def attacks(a: Cell, b: Cell) -> str | None:
    """Why two distinct queens attack each other ("same row", ...), or None if they do not."""
    if not (_plain_cell(a) and _plain_cell(b)):
        a, b = parse_cell(a), parse_cell(b)
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
    cells = _cells(queens, "queens")
    pairs: list[tuple[int, int, str]] = []
    for why, keys in _line_keys(cells):
        if len(set(keys)) == len(keys):
            continue
        members: dict[int, list[int]] = {}
        for index, key in enumerate(keys):
            members.setdefault(key, []).append(index)
        for indices in members.values():
            for k, i in enumerate(indices):
                pairs += [(i, j, why) for j in indices[k + 1:] if cells[i] != cells[j]]
    pairs.sort()
    return [(cells[i], cells[j], why) for i, j, why in pairs]


def _line_keys(cells: Sequence[Cell]) -> list[tuple[str, list[int]]]:
    """Per kind of line, each cell's line: two distinct cells attack each other when one of these is equal
    (and then only one: two lines of different kinds meet in one cell)."""
    rows = [r for r, _ in cells]
    cols = [c for _, c in cells]
    return [("same row", rows), ("same column", cols), ("same diagonal", list(map(sub, rows, cols))),
            ("same anti-diagonal", list(map(add, rows, cols)))]


def first_conflict(cells: Sequence[Cell]) -> tuple[Cell, Cell, str] | None:
    """``conflicts(cells)[0]`` for distinct cells, in linear time: a pre-placed list of millions of queens
    is checked by bucketing them per row, column and diagonal rather than by comparing every pair.

    The first pair (i, j) in the order of ``cells`` is, on its line, the first two queens; so the least
    pair over every line that holds two queens is the first of all.

    >>> first_conflict([(1, 1), (2, 3), (3, 5), (4, 3)])
    ((2, 3), (4, 3), 'same column')
    """
    best: tuple[int, int, str] | None = None
    for why, keys in _line_keys(cells):
        if len(set(keys)) == len(keys):
            continue
        first: dict[int, int] = {}
        for j, key in enumerate(keys):
            i = first.setdefault(key, j)
            if i != j and (best is None or (i, j) < best[:2]):
                best = (i, j, why)
    return None if best is None else (cells[best[0]], cells[best[1]], best[2])


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

    def __post_init__(self) -> None:
        if not isinstance(self.kind, str) or self.kind not in LINE_KINDS:
            raise InputError(f"a line's kind is one of {', '.join(LINE_KINDS)}, not {shown(self.kind)}")
        if type(self.index) is not int or not 1 <= self.index < 2 * MAX_N:
            raise InputError(f"a line's index is a whole number from 1 to {2 * MAX_N - 1:,}, not {shown(self.index)}")
        if type(self.cells) is not tuple:
            raise InputError(f"a line's cells are a tuple of (row, col) pairs, not {shown(self.cells)}")

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
    n = _listed_n(n, "the lines")
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
    """An N-queens instance: everything a method is asked to honour, in one value.

    - ``n``: the board size;
    - ``preplaced``: queens that must be on the board (1-based cells); two that attack each other raise
      :class:`ConflictError` at once, naming the pair;
    - ``blocked``: cells no queen may use (the *blocked* and *excluded-diagonals* families of Gent,
      Jefferson and Nightingale: an excluded diagonal is the set of its cells, :func:`diagonal_cells`);
    - ``break_symmetry``: keep exactly one board of every orbit of the 8 symmetries, the canonical one
      (:func:`canonical`); it needs an empty board, since queens or blocked cells already break the symmetry.

    A valid instance may have no board (an impossible completion, too many blocked cells): its answer is
    *infeasible*.  Every method either honours each of these or refuses it with one line
    (:meth:`nqueens_kit.methods.Method.check`).

    >>> Problem(8, [(1, 1)]).preplaced
    ((1, 1),)
    >>> Problem(8, blocked=[(2, 3)]).describe()
    '8-queens with 1 blocked cell'
    """

    n: int
    preplaced: tuple[Cell, ...] = field(default=())
    blocked: tuple[Cell, ...] = field(default=())
    break_symmetry: bool = False

    def __post_init__(self) -> None:
        n = parse_n(self.n)
        object.__setattr__(self, "n", n)
        cells = sorted(set(_cells(self.preplaced, "pre-placed queens", n)))
        clash = first_conflict(cells)
        if clash:
            a, b, why = clash
            raise ConflictError(
                f"pre-placed queens at {a[0]},{a[1]} and {b[0]},{b[1]} attack each other ({why}); "
                "pre-placed queens must not share a row, column or diagonal"
            )
        object.__setattr__(self, "preplaced", tuple(cells))
        blocked = tuple(sorted(set(_cells(self.blocked, "blocked cells", n))))
        both = set(blocked) & set(cells)
        if both:
            r, c = min(both)
            raise ConflictError(f"the cell {r},{c} holds a pre-placed queen and is blocked; a cell is one or the other")
        object.__setattr__(self, "blocked", blocked)
        if not isinstance(self.break_symmetry, bool):
            raise InputError(f"break_symmetry is True or False, not {str(self.break_symmetry)[:40]!r}")
        if self.break_symmetry and (cells or blocked):
            raise InputError("symmetry breaking needs an empty board: pre-placed queens or blocked cells already "
                             "break the symmetry of the problem (drop them, or drop --break-symmetry)")

    @property
    def plain(self) -> bool:
        """True for the bare n-queens problem: no queens, no blocked cells, symmetry not broken."""
        return not (self.preplaced or self.blocked or self.break_symmetry)

    def features(self) -> frozenset[str]:
        """What this instance asks of a method beyond the bare problem: ``preplaced``, ``blocked``,
        ``break_symmetry`` (the words of :attr:`nqueens_kit.methods.Method.features`)."""
        asked = {"preplaced": bool(self.preplaced), "blocked": bool(self.blocked),
                 "break_symmetry": self.break_symmetry}
        return frozenset(name for name, wanted in asked.items() if wanted)

    def lines(self) -> list[Line]:
        """The rules as lines (see :class:`Line`); pre-placed queens and blocked cells are separate unit facts."""
        return board_lines(self.n)

    def var(self, row: int, col: int) -> int:
        """The SAT variable of the queen at (row, col): ``(row - 1) * n + col``, in 1 .. n²."""
        n = self.n
        if not (type(row) is int and type(col) is int and 0 < row <= n and 0 < col <= n):
            row, col = parse_cell((row, col), n)
        return (row - 1) * n + col

    def cell(self, var: int) -> Cell:
        """Inverse of :meth:`var` for board variables 1 .. n²."""
        if not (type(var) is int and 0 < var <= self.n * self.n):
            var = parse_n(var, maximum=self.n * self.n, what=f"a board variable of {self.n}-queens")
        row, col = divmod(var - 1, self.n)
        return (row + 1, col + 1)

    def verify(self, queens: Iterable[Cell]) -> bool:
        """:func:`verify` with this problem's pre-placed queens and blocked cells."""
        return verify(self.n, queens, self.preplaced, self.blocked)

    def describe(self) -> str:
        parts = []
        if self.preplaced:
            parts.append("queens placed at " + " ".join(f"{r},{c}" for r, c in self.preplaced))
        if self.blocked:
            parts.append(f"{len(self.blocked)} blocked cell{'s' if len(self.blocked) != 1 else ''}")
        if self.break_symmetry:
            parts.append("symmetry broken")
        return f"{self.n}-queens" + (" with " + " and ".join(parts) if parts else "")


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


def diagonal_cells(n: int, differences: Iterable[int] = (), sums: Iterable[int] = ()) -> tuple[Cell, ...]:
    """The cells of the diagonals ``r - c = d`` for each d in ``differences`` and the anti-diagonals
    ``r + c = s`` for each s in ``sums``: how an excluded diagonal becomes blocked cells.  Each line is
    walked along its own cells, so a long board costs only the cells asked for.

    >>> diagonal_cells(3, differences=[0])
    ((1, 1), (2, 2), (3, 3))
    """
    n = parse_n(n)
    diffs = _whole_numbers(differences, "differences r - c of diagonals", 1 - n, n - 1)
    tops = _whole_numbers(sums, "sums r + c of anti-diagonals", 2, 2 * n)
    lines = [zip(range(max(1, 1 + d), min(n, n + d) + 1), range(max(1, 1 - d), min(n, n - d) + 1), strict=True)
             for d in diffs]
    lines += [zip(range(max(1, s - n), min(n, s - 1) + 1), range(min(n, s - 1), max(1, s - n) - 1, -1), strict=True)
              for s in tops]
    if len(lines) == 1:  # one line is already in row order
        return tuple(lines[0])
    return tuple(sorted({cell for line in lines for cell in line}))


def violations(n: int, queens: Iterable[Cell], preplaced: Iterable[Cell] = (),
               blocked: Iterable[Cell] = ()) -> list[str]:
    """Everything wrong with a claimed solution, as readable sentences (empty when it is valid).

    Deliberately written without :class:`Line` so it checks the encoders rather than repeating them.  Anything
    :func:`verify` rejects gets a sentence, a list of things that are not cells too.
    """
    n = parse_n(n)
    fixed, closed = _cells(preplaced, "pre-placed queens", n), _cells(blocked, "blocked cells", n)
    if isinstance(queens, ColumnBoard) and _verify_columns(n, queens.columns, fixed, closed):
        return []  # a valid board given by its columns is not listed to find nothing wrong with it
    if isinstance(queens, (str, bytes, bytearray, Mapping)) or not isinstance(queens, Iterable):
        return [f"a board is a list of (row, col) pairs, not {shown(queens)}"]
    items = list(queens)
    problems: list[str] = []
    not_cells = [q for q in items if not _int_pair(q)]
    if not_cells:
        problems.append(f"{len(not_cells)} item{'s' if len(not_cells) != 1 else ''} of the board "
                        f"{'are' if len(not_cells) != 1 else 'is'} not a (row, col) pair of ints: "
                        f"{shown(not_cells[0])}")
    queens = [(q[0], q[1]) for q in items if _int_pair(q)]
    off = [q for q in queens if not (1 <= q[0] <= n and 1 <= q[1] <= n)]
    if off:
        problems.append(f"queens off the {n}x{n} board: {_few(off)}")
    if len(items) != n:
        problems.append(f"{len(items)} queens on a board of size {n} (need exactly {n})")
    if len(set(queens)) != len(queens):
        problems.append("a cell holds two queens")
    shared: list[str] = []
    for what, key in (
        ("row", lambda q: q[0]),
        ("column", lambda q: q[1]),
        ("diagonal", lambda q: q[0] - q[1]),
        ("anti-diagonal", lambda q: q[0] + q[1]),
    ):
        for value, count in Counter(map(key, set(queens))).items():
            if count > 1:
                article = "an" if what[0] in "aeiou" else "a"
                shared.append(f"{count} queens share {article} {what} ({what} key {value})")
    problems += shared[:LISTED]
    if len(shared) > LISTED:  # a large wrong board: the first few lines say enough
        problems.append(f"... and {len(shared) - LISTED:,} more lines shared by queens")
    placed = set(queens)
    missing = [p for p in fixed if p not in placed]
    if missing:
        problems.append(f"pre-placed queens missing from the board: {_few(missing)}")
    on_blocked = sorted(placed & set(closed))
    if on_blocked:
        problems.append(f"queens on blocked cells: {_few(on_blocked)}")
    return problems


#: :func:`violations` lists at most this many cells, or lines shared, of one kind (a large board can have
#: hundreds of thousands).
LISTED = 10


def _few(cells: list[Cell]) -> str:
    """The cells as a list, the first :data:`LISTED` of them with a count of the rest when there are more."""
    if len(cells) <= LISTED:
        return str(cells)
    return f"{str(cells[:LISTED])[:-1]}, ... and {len(cells) - LISTED:,} more]"


def _int_pair(value: object) -> bool:
    """A (row, col) pair of ints, as a tuple or a list: what :func:`verify` accepts as a queen."""
    return ((type(value) is tuple or type(value) is list) and len(value) == 2 and type(value[0]) is int
            and type(value[1]) is int)


def verify(n: int, queens: Iterable[Cell], preplaced: Iterable[Cell] = (), blocked: Iterable[Cell] = ()) -> bool:
    """True when ``queens`` is a valid n-queens solution containing every pre-placed queen and no queen on
    a blocked cell.

    Counts distinct rows, columns, diagonals and anti-diagonals with sets, so n = 10⁶ takes well under a
    second; a :class:`ColumnBoard` is checked on its array by the same rules (n = 10⁶ in a few hundredths of
    a second).  :func:`violations` explains a failure.  Anything that is not a list of (row, col) pairs of ints
    is not a board: False.  A bad ``n``, pre-placed queens or blocked cells are the caller's mistake, not
    the board's: :class:`InputError`.
    """
    n = parse_n(n)
    fixed, closed = _cells(preplaced, "pre-placed queens", n), _cells(blocked, "blocked cells", n)
    if isinstance(queens, ColumnBoard):
        return _verify_columns(n, queens.columns, fixed, closed)
    if isinstance(queens, (str, bytes, bytearray, Mapping)):
        return False
    try:
        queens = list(queens)
    except TypeError:  # not a list of anything
        return False
    if len(queens) != n:
        return False
    if not set(map(type, queens)) <= {tuple, list}:
        return False
    try:
        rows, cols = zip(*queens, strict=True)
        if set(map(type, rows)) | set(map(type, cols)) != {int}:
            return False
    except (TypeError, ValueError):  # not a list of (row, col) pairs
        return False
    return board_ok(n, rows, cols, fixed, closed)


def _verify_columns(n: int, columns: NDArray[np.int32], fixed: list[Cell], closed: list[Cell]) -> bool:
    """:func:`verify` of a :class:`ColumnBoard` (rows 1..n by construction) with numpy: columns in 1..n and
    all different, r - c and r + c all different, each pre-placed queen in its row's column, no queen on a
    blocked cell.  The same rules as for a list of cells, checked on the array itself."""
    import numpy as np

    if len(columns) != n or int(columns.min()) < 1 or int(columns.max()) > n:
        return False
    rows = np.arange(1, n + 1, dtype=np.int32)
    if not (_distinct(columns, n + 1) and _distinct(rows - columns + n, 2 * n)
            and _distinct(rows + columns, 2 * n + 1)):
        return False
    for cells, wanted in ((fixed, True), (closed, False)):
        if cells:
            at = np.array(cells, dtype=np.int64).reshape(-1, 2)
            hits = columns[at[:, 0] - 1] == at[:, 1]
            if bool(hits.all() if wanted else hits.any()) != wanted:
                return False
    return True


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


def lex_pairs(n: int) -> Iterator[tuple[str, list[tuple[Cell, Cell]]]]:
    """For lex-leader symmetry breaking: per symmetry s (the identity left out), the cells in row-major order,
    each with the cell whose value s(x) holds there (s moves the queen at q to s(q), so s(x) at p is x at
    s⁻¹(p)); cells that s fixes are skipped.  Every method's symmetry-breaking constraints read these pairs.

    >>> name, pairs = next(lex_pairs(2))
    >>> name, pairs[0]
    ('rotate 90', ((1, 1), (2, 1)))
    """
    return _lex_pairs(_listed_n(n, "the lex-leader pairs"))


def _lex_pairs(n: int) -> Iterator[tuple[str, list[tuple[Cell, Cell]]]]:
    cells = [(r, c) for r in range(1, n + 1) for c in range(1, n + 1)]
    for name, f in SYMMETRIES[1:]:
        inverse = {f(n, r, c): (r, c) for r, c in cells}
        yield name, [(p, inverse[p]) for p in cells if inverse[p] != p]


def board_cells(n: int, queens: object) -> list[Cell]:
    """``queens`` as a list of cells on the n x n board, or a one-line :class:`InputError` saying what is wrong.

    >>> board_cells(4, [(1, 2), "3,4"])
    [(1, 2), (3, 4)]
    """
    n = parse_n(n)
    if isinstance(queens, (str, bytes, bytearray, Mapping)) or not isinstance(queens, Iterable):
        raise InputError(f"a board is a list of (row, col) pairs, not {shown(queens)}")
    return _cells(queens, "the queens of a board", n)


def _symmetry(symmetry: str | int) -> Callable[[int, int, int], Cell]:
    if isinstance(symmetry, int) and not isinstance(symmetry, bool) and 0 <= symmetry < len(SYMMETRIES):
        return SYMMETRIES[symmetry][1]
    table = dict(SYMMETRIES)
    if not isinstance(symmetry, str) or symmetry not in table:
        raise InputError(f"unknown symmetry {str(symmetry)[:40]!r}; valid: {', '.join(table)} "
                         f"(or 0 to {len(SYMMETRIES) - 1})")
    return table[symmetry]


@overload
def transform(n: int, queens: ColumnBoard, symmetry: str | int) -> ColumnBoard: ...  # type: ignore[overload-overlap]


@overload
def transform(n: int, queens: Iterable[Cell], symmetry: str | int) -> Board: ...


def transform(n: int, queens: Iterable[Cell], symmetry: str | int) -> AnyBoard:
    """Apply one of :data:`SYMMETRIES` (by name or index) to a board; the result is sorted by row (a
    :class:`ColumnBoard` for one, moved as an array)."""
    f = _symmetry(symmetry)
    if isinstance(queens, ColumnBoard):
        index = symmetry if isinstance(symmetry, int) else [name for name, _ in SYMMETRIES].index(str(symmetry))
        return _ColumnImages(n, queens).image(index)
    return tuple(sorted(f(n, r, c) for r, c in board_cells(n, queens)))


@overload
def orbit(n: int, queens: ColumnBoard) -> set[ColumnBoard]: ...  # type: ignore[overload-overlap]


@overload
def orbit(n: int, queens: Iterable[Cell]) -> set[Board]: ...


def orbit(n: int, queens: Iterable[Cell]) -> set[Board] | set[ColumnBoard]:
    """All distinct boards the 8 symmetries make of one board (1, 2, 4 or 8 of them)."""
    if isinstance(queens, ColumnBoard):
        images = _ColumnImages(n, queens)
        found: list[ColumnBoard] = []
        for index in range(len(SYMMETRIES)):  # told apart by their arrays: hashing a large board lists it
            image = images.image(index)
            if all(image != seen for seen in found):
                found.append(image)
        return set(found)
    cells = board_cells(n, queens)
    return {tuple(sorted(f(n, r, c) for r, c in cells)) for _, f in SYMMETRIES}


@overload
def canonical(n: int, queens: ColumnBoard) -> ColumnBoard: ...  # type: ignore[overload-overlap]


@overload
def canonical(n: int, queens: Iterable[Cell]) -> Board: ...


def canonical(n: int, queens: Iterable[Cell]) -> AnyBoard:
    """The least board (lexicographically) in the orbit: equal for boards that are symmetric images.

    Read as the bit vector of its cells in row-major order it is the *largest* of the orbit (its first queen
    as far left as possible, then the next ...): the board lex-leader symmetry breaking keeps.  For a
    :class:`ColumnBoard` the 8 images are made and compared as arrays, one at a time."""
    if isinstance(queens, ColumnBoard):
        images = _ColumnImages(n, queens)
        best = images.image(0)
        for index in range(1, len(SYMMETRIES)):
            image = images.image(index)
            if _array_less(image.columns, best.columns):
                best = image
        return best
    return min(orbit(n, queens))


class _ColumnImages:
    """The images of a :class:`ColumnBoard` under :data:`SYMMETRIES`, as arrays.  A board with a queen in
    every row and every column (columns a permutation p of 1..n) stays one: mirrors and the half turn
    reverse or reflect p, the quarter turns and transpositions do the same to its inverse."""

    def __init__(self, n: int, board: ColumnBoard) -> None:
        import numpy as np

        self.n = n = parse_n(n)
        p = board.columns
        if len(p) != n or (n and (int(p.min()) < 1 or int(p.max()) > n)) or not _distinct(p, n + 1):
            raise InputError(f"the symmetries of a board given by its columns are taken for a board of {n:,} rows "
                             f"with a queen in every column (its columns a permutation of 1..{n:,}); this one "
                             f"has {len(p):,} rows and is not: list its cells as (row, col) pairs instead")
        self.p = p
        self._inverse: NDArray[np.int32] | None = None
        self._np = np

    def inverse(self) -> NDArray[np.int32]:
        if self._inverse is None:
            inverse = self._np.empty(self.n, dtype=self._np.int32)
            inverse[self.p - 1] = self._np.arange(1, self.n + 1, dtype=self._np.int32)
            self._inverse = inverse
        return self._inverse

    def image(self, index: int) -> ColumnBoard:
        """The board symmetry ``index`` of :data:`SYMMETRIES` makes (row r's queen of it in column q[r-1])."""
        if not 0 <= index < len(SYMMETRIES):
            raise InputError(f"unknown symmetry {index}; valid: 0 to {len(SYMMETRIES) - 1}")
        top = self.n + 1
        base = self.p if index in (0, 2, 4, 5) else self.inverse()
        flipped = top - base if index in (1, 2, 4, 7) else base
        q = flipped[::-1] if index in (2, 3, 5, 7) else flipped
        array = self._np.array(q, dtype=self._np.int32, copy=True)  # its own memory, read-only
        array.flags.writeable = False
        return ColumnBoard(array)


def _distinct(values: NDArray[Any], size: int) -> bool:
    """True when the non-negative ints ``values`` (each below ``size``) are all different: marked in a table
    of ``size`` flags, distinct values mark as many flags as there are values."""
    import numpy as np

    seen = np.zeros(size, dtype=bool)
    seen[values] = True
    return int(np.count_nonzero(seen)) == len(values)


def _array_less(a: NDArray[Any], b: NDArray[Any]) -> bool:
    """a < b in lexicographic order, for arrays of one length (at the first place they differ)."""
    import numpy as np

    differ = np.flatnonzero(a != b)
    return bool(differ.size) and bool(a[differ[0]] < b[differ[0]])


#: Boards longer than this are shown, and written in JSON by the command line, by a summary (their size, the
#: digest of their columns, the first few) rather than queen by queen.
LISTED_BOARD_N = 10_000


class ColumnBoard(Sequence[Cell]):
    """A board with one queen in every row, held as an ``int32`` array of its columns: n = 10⁷ takes 40 MB
    where a tuple of cells takes about 2 GB.

    It reads as the tuple of its cells, sorted by row: item ``r - 1`` is ``(r, columns[r - 1])`` (Python
    ints), it compares equal to that tuple and hashes as it does, and :func:`verify`, :func:`violations`,
    :func:`canonical`, :func:`transform` and :func:`orbit` check or move it with numpy without listing its
    cells.  ``columns`` is read-only; a pickle holds the array (4 bytes a queen).  Made by
    :func:`from_columns` from an array.

    >>> import numpy as np
    >>> board = from_columns(np.array([2, 4, 1, 3]))
    >>> board[0], len(board), board == ((1, 2), (2, 4), (3, 1), (4, 3)), verify(4, board)
    ((1, 2), 4, True, True)
    """

    __slots__ = ("_columns", "_hash")

    def __init__(self, columns: NDArray[np.int32]) -> None:
        """Wrap a one-dimensional ``int32`` array nobody else writes to (:func:`from_columns` checks, copies)."""
        self._columns = columns
        self._hash: int | None = None

    @property
    def columns(self) -> NDArray[np.int32]:
        """The queens' columns row by row (1-based), read-only."""
        return self._columns

    def __len__(self) -> int:
        return int(self._columns.shape[0])

    @overload
    def __getitem__(self, index: int) -> Cell: ...

    @overload
    def __getitem__(self, index: slice) -> Board: ...

    def __getitem__(self, index: int | slice) -> Cell | Board:
        if isinstance(index, slice):
            rows = range(len(self))[index]
            return tuple(zip((r + 1 for r in rows), self._columns[index].tolist(), strict=True))
        row = operator.index(index)
        if row < 0:
            row += len(self)
        if not 0 <= row < len(self):
            raise IndexError(f"row index {index} out of range for a board of {len(self):,} rows")
        return (row + 1, int(self._columns[row]))

    def __iter__(self) -> Iterator[Cell]:
        return zip(range(1, len(self) + 1), self._columns.tolist(), strict=True)

    def __contains__(self, value: object) -> bool:
        if not _plain_cell(value):
            return False
        row, col = value
        return 1 <= row <= len(self) and int(self._columns[row - 1]) == col

    def __eq__(self, other: object) -> bool:
        if isinstance(other, ColumnBoard):
            import numpy as np

            return bool(np.array_equal(self._columns, other._columns))
        if isinstance(other, tuple):
            # compared row by row, stopping at the first difference: a tuple of millions of cells is not copied
            return len(other) == len(self) and all(a == b for a, b in zip(self, other, strict=True))
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __hash__(self) -> int:
        # equal to the hash of the tuple of cells (so a set or dict holds the two as one key): that hash is
        # defined by the tuple, so the tuple is made once, for this, and not kept
        if self._hash is None:
            self._hash = hash(tuple(self))
        return self._hash

    def __reduce__(self) -> tuple[Callable[[NDArray[np.int32]], ColumnBoard], tuple[NDArray[np.int32]]]:
        return (_column_board, (self._columns,))

    def __repr__(self) -> str:
        n = len(self)
        if n <= 12:
            return f"from_columns(array({self._columns.tolist()}))"
        head, tail = self._columns[:6].tolist(), int(self._columns[-1])
        return f"<ColumnBoard of {n:,} queens: columns {', '.join(map(str, head))}, ..., {tail}>"

    def digest(self) -> str:
        """The SHA-256 of the columns as 4-byte little-endian integers, row 1 first (hex): what a summary
        prints to name the board, and what a board read back from a file is checked against."""
        import hashlib

        return hashlib.sha256(self._columns.astype("<i4", copy=False).tobytes()).hexdigest()


def _column_board(columns: NDArray[np.int32]) -> ColumnBoard:
    """Unpickle a :class:`ColumnBoard` (the array arrives as a fresh copy: made read-only again)."""
    import numpy as np

    array = np.ascontiguousarray(columns, dtype=np.int32)
    array.flags.writeable = False
    return ColumnBoard(array)


#: Any board a result holds: a :data:`Board` or a :class:`ColumnBoard`.
AnyBoard = Board | ColumnBoard


def column_board(board: Iterable[Cell]) -> ColumnBoard | None:
    """``board`` as a :class:`ColumnBoard` when it has one queen in each row 1..n, listed in row order (as
    every method's board is); None for anything else.  A ColumnBoard is returned as it is."""
    if isinstance(board, ColumnBoard):
        return board
    import numpy as np

    cells = list(board)
    if not all(map(_plain_cell, cells)) or [r for r, _ in cells] != list(range(1, len(cells) + 1)):
        return None
    if cells and not 1 <= min(c for _, c in cells) <= max(c for _, c in cells) <= _INT32_MAX:
        return None
    return _array_board(np.array([c for _, c in cells], dtype=np.int64))

_INT32_MAX = 2**31 - 1


@overload
def from_columns(columns: NDArray[Any]) -> ColumnBoard: ...


@overload
def from_columns(columns: Sequence[int]) -> Board: ...


def from_columns(columns: Sequence[int] | NDArray[Any]) -> AnyBoard:
    """The board whose queen in row r (1-based) stands in column ``columns[r - 1]``.

    A list (or any sequence of ints) gives a tuple of cells; a one-dimensional numpy integer array gives a
    :class:`ColumnBoard` over a read-only ``int32`` copy of it (nothing listed, queen by queen).
    """
    if type(columns).__module__ == "numpy" and hasattr(columns, "dtype"):
        return _array_board(columns)
    if isinstance(columns, (str, bytes, bytearray, Mapping)) or not isinstance(columns, Iterable):
        raise InputError(f"columns are a list of whole numbers from 1, one per row, not {shown(columns)}")
    columns = list(columns)
    if columns and (set(map(type, columns)) != {int} or min(columns) < 1):
        wrong = next(c for c in columns if type(c) is not int or c < 1)
        raise InputError(f"columns are whole numbers from 1, one per row, not {shown(wrong)}")
    return tuple((r, c) for r, c in enumerate(columns, start=1))


def _array_board(columns: Any) -> ColumnBoard:
    """:func:`from_columns` of a numpy array: checked (integers from 1, one dimension) and copied read-only."""
    import numpy as np

    if getattr(columns, "ndim", None) != 1 or columns.dtype.kind not in "iu":
        raise InputError(f"columns are a one-dimensional array of whole numbers from 1, one per row, not an array "
                         f"of {getattr(columns, 'dtype', '?')} with shape {getattr(columns, 'shape', '?')}")
    if columns.size and (int(columns.min()) < 1 or int(columns.max()) > _INT32_MAX):
        wrong = int(columns.min()) if int(columns.min()) < 1 else int(columns.max())
        raise InputError(f"columns are whole numbers from 1 to {_INT32_MAX:,}, one per row, not {wrong}")
    array = np.array(columns, dtype=np.int32, order="C", copy=True)
    array.flags.writeable = False
    return ColumnBoard(array)


def draw(n: int, queens: Iterable[Cell], preplaced: Iterable[Cell] = (), blocked: Iterable[Cell] = ()) -> str:
    """The board as text: ``Q`` a queen, ``P`` a pre-placed queen, ``x`` a blocked cell, ``.`` an empty cell.

    >>> print(draw(4, [(1, 2), (2, 4), (3, 1), (4, 3)]))
    . Q . .
    . . . Q
    Q . . .
    . . Q .
    """
    n = parse_n(n)
    if n > MAX_DRAW_N:
        raise InputError(f"a {n:,} x {n:,} board is too large to draw as text: draw() writes boards up to "
                         f"n = {MAX_DRAW_N:,}; list the queens instead")
    return picture(n, board_cells(n, queens), _cells(preplaced, "pre-placed queens", n),
                   _cells(blocked, "blocked cells", n))
