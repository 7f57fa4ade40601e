"""The N-queens problem described once, and what a solution is.

Inside:

- :class:`Problem`: board size ``n`` and optional pre-placed queens; :meth:`Problem.lines` describes the
  rules as *lines of cells with a cardinality* (rows and columns: exactly one queen; every diagonal and
  anti-diagonal with two or more cells: at most one).  Both the SAT and the ILP side translate these lines.
- :func:`verify` and :func:`violations`: the one independent checker every decoded board goes through.
  It does not use :meth:`Problem.lines`, so an error there cannot hide itself.
- :data:`SYMMETRIES`, :func:`transform`, :func:`canonical`: the 8 symmetries of the square and the canonical
  form used to count fundamental solutions.
- :class:`SolveResult`: what every method (SAT, ILP, construction) returns.
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

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from operator import add, sub
from typing import Any

from .errors import ConflictError, InputError

Cell = tuple[int, int]
Board = tuple[Cell, ...]

#: The largest board the kit accepts; the explicit construction handles it in seconds.
MAX_N = 10_000_000

LINE_KINDS = ("row", "col", "diag", "anti")
#: What each kind of line means, for tables and captions.
LINE_KIND_TEXT = {
    "row": "row r",
    "col": "column c",
    "diag": "diagonal r - c = const (top-left to bottom-right)",
    "anti": "anti-diagonal r + c = const (top-right to bottom-left)",
}


def parse_n(value: Any, *, minimum: int = 1, maximum: int = MAX_N, what: str = "N") -> int:
    """Read a board size from user input (an int or a string) or raise a one-line :class:`InputError`.

    >>> parse_n("8")
    8
    """
    text = str(value).strip()
    if isinstance(value, bool):
        raise InputError(f"{what} must be a whole number from {minimum} to {maximum}, not {value!r}")
    if isinstance(value, int):
        number = value
    else:
        try:
            number = int(text)
        except ValueError:
            raise InputError(
                f"{what} must be a whole number from {minimum} to {maximum}, not {text!r}"
            ) from None
    if not minimum <= number <= maximum:
        raise InputError(f"{what} must be a whole number from {minimum} to {maximum}, not {number}")
    return number


def parse_cell(text: str, n: int | None = None) -> Cell:
    """Read ``"R,C"`` (1-based) into a cell, checking it lies on an n x n board if n is given.

    >>> parse_cell("2,3", 8)
    (2, 3)
    """
    parts = str(text).replace(" ", "").split(",")
    try:
        if len(parts) != 2:
            raise ValueError
        row, col = int(parts[0]), int(parts[1])
    except ValueError:
        raise InputError(f"a queen is written ROW,COL with whole numbers (e.g. 2,3), not {text!r}") from None
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
        cells: list[Cell] = []
        for cell in self.preplaced:
            cell = parse_cell(cell, n) if isinstance(cell, str) else (int(cell[0]), int(cell[1]))
            check_cell(cell, n)
            if cell not in cells:
                cells.append(cell)
        cells.sort()
        for a, b in combinations(cells, 2):
            why = attacks(a, b)
            if why:
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
    queens = [tuple(q) for q in queens]
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
    queens = list(queens)
    if len(queens) != n:
        return False
    if n == 0:
        return True
    rows, cols = zip(*queens)
    if min(rows) < 1 or min(cols) < 1 or max(rows) > n or max(cols) > n:
        return False
    if len(set(rows)) != n or len(set(cols)) != n:
        return False
    if len(set(map(sub, rows, cols))) != n or len(set(map(add, rows, cols))) != n:
        return False
    placed = set(zip(rows, cols))
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


def transform(n: int, queens: Iterable[Cell], symmetry: str | int) -> Board:
    """Apply one of :data:`SYMMETRIES` (by name or index) to a board; the result is sorted by row."""
    if isinstance(symmetry, int):
        f = SYMMETRIES[symmetry][1]
    else:
        table = dict(SYMMETRIES)
        if symmetry not in table:
            raise InputError(f"unknown symmetry {symmetry!r}; valid: {', '.join(table)}")
        f = table[symmetry]
    return tuple(sorted(f(n, r, c) for r, c in queens))


def orbit(n: int, queens: Iterable[Cell]) -> set[Board]:
    """All distinct boards the 8 symmetries make of one board (1, 2, 4 or 8 of them)."""
    queens = list(queens)
    return {transform(n, queens, i) for i in range(len(SYMMETRIES))}


def canonical(n: int, queens: Iterable[Cell]) -> Board:
    """The least board (lexicographically) in the orbit: equal for boards that are symmetric images."""
    return min(orbit(n, queens))


def as_columns(queens: Sequence[Cell]) -> list[int]:
    """A board as its queen columns listed by row (1-based), the compact form used in tables."""
    return [c for _, c in sorted(queens)]


def from_columns(columns: Sequence[int]) -> Board:
    """Inverse of :func:`as_columns`."""
    return tuple((r, c) for r, c in enumerate(columns, start=1))


def draw(n: int, queens: Iterable[Cell], preplaced: Iterable[Cell] = ()) -> str:
    """The board as text: ``Q`` a queen, ``P`` a pre-placed queen, ``.`` an empty cell.

    >>> print(draw(4, [(1, 2), (2, 4), (3, 1), (4, 3)]))
    . Q . .
    . . . Q
    Q . . .
    . . Q .
    """
    queens = set(map(tuple, queens))
    fixed = set(map(tuple, preplaced))
    rows = []
    for r in range(1, n + 1):
        rows.append(
            " ".join(
                ("P" if (r, c) in fixed else "Q") if (r, c) in queens else "." for c in range(1, n + 1)
            )
        )
    return "\n".join(rows)


#: Statuses every method reports.
STATUSES = ("solved", "infeasible", "timeout", "error")


@dataclass
class SolveResult:
    """The outcome of one solve, whichever method produced it.

    ``queens`` is the decoded board (1-based, sorted by row) when ``status == "solved"``; ``verified``
    is set by :func:`verify`, never by the encoder.  ``size`` holds the model size: ``variables`` and
    ``clauses`` (SAT) or ``constraints`` (ILP).  ``stats`` holds whatever the solver reports (conflicts,
    nodes, iterations, ...).
    """

    n: int
    method: str
    status: str
    queens: Board = ()
    encoding: str | None = None
    formulation: str | None = None
    solver: str | None = None
    preplaced: tuple[Cell, ...] = ()
    variables: int | None = None
    clauses: int | None = None
    constraints: int | None = None
    build_seconds: float = 0.0
    solve_seconds: float = 0.0
    verified: bool | None = None
    message: str = ""
    stats: dict[str, Any] = field(default_factory=dict)

    def check(self) -> SolveResult:
        """Run the independent verifier on a solved board and record the verdict; returns self."""
        if self.status == "solved":
            self.verified = verify(self.n, self.queens, self.preplaced)
        return self

    def to_dict(self) -> dict[str, Any]:
        """The JSON form shared by every method (one table can hold SAT and ILP runs)."""
        return {
            "n": self.n,
            "method": self.method,
            "encoding": self.encoding,
            "formulation": self.formulation,
            "solver": self.solver,
            "status": self.status,
            "queens": [list(q) for q in self.queens],
            "preplaced": [list(q) for q in self.preplaced],
            "variables": self.variables,
            "clauses": self.clauses,
            "constraints": self.constraints,
            "build_seconds": round(self.build_seconds, 6),
            "solve_seconds": round(self.solve_seconds, 6),
            "verified": self.verified,
            "message": self.message,
            "stats": self.stats,
        }


@dataclass
class CountResult:
    """How many boards a method found; ``fundamental`` is the count up to the 8 symmetries."""

    n: int
    count: int
    method: str
    fundamental: int | None = None
    encoding: str | None = None
    solver: str | None = None
    seconds: float = 0.0
    preplaced: tuple[tuple[int, int], ...] = ()
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "n": self.n, "count": self.count, "fundamental": self.fundamental, "method": self.method,
            "encoding": self.encoding, "solver": self.solver, "seconds": round(self.seconds, 6),
            "preplaced": [list(q) for q in self.preplaced], "note": self.note,
        }
