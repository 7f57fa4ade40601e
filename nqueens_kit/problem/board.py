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

Its parts live beside it and every public name of theirs is importable from here as well: :mod:`.cells`
(parsing and checking sizes and cells), :mod:`.columns` (:class:`ColumnBoard`), :mod:`.symmetry` (the 8
symmetries, :func:`canonical`).

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

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from operator import add, sub
from typing import TYPE_CHECKING

from ..errors import ConflictError, InputError
from .cells import MAX_LISTED_N as MAX_LISTED_N
from .cells import MAX_N as MAX_N
from .cells import Board as Board
from .cells import Cell as Cell
from .cells import _cells, _listed_n, _plain_cell, _whole_numbers
from .cells import board_cells as board_cells
from .cells import check_cell as check_cell
from .cells import parse_cell as parse_cell
from .cells import parse_n as parse_n
from .cells import shown as shown
from .cells import whole_number as whole_number
from .columns import LISTED_BOARD_N as LISTED_BOARD_N
from .columns import AnyBoard as AnyBoard
from .columns import ColumnBoard as ColumnBoard
from .columns import _distinct
from .columns import column_board as column_board
from .columns import from_columns as from_columns
from .rules import board_ok, picture
from .symmetry import SYMMETRIES as SYMMETRIES
from .symmetry import canonical as canonical
from .symmetry import lex_pairs as lex_pairs
from .symmetry import orbit as orbit
from .symmetry import transform as transform

if TYPE_CHECKING:  # numpy is imported where an array board is made or checked, not by every import of the kit
    import numpy as np
    from numpy.typing import NDArray


#: The largest board :func:`draw` writes out as text (n lines of n cells).
MAX_DRAW_N = 2_000
#: The kinds of :class:`Line`.
LINE_KINDS = ("row", "col", "diag", "anti")


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
