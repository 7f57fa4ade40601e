"""The 8 symmetries of the square: :data:`SYMMETRIES`, :func:`transform`, :func:`orbit`, and :func:`canonical`,
the form used to count fundamental solutions; :func:`lex_pairs`, the lex-leader pairs that break them in a
formula.  A :class:`~nqueens_kit.problem.columns.ColumnBoard` is transformed as an array.
(:mod:`.board` re-exports every public name here.)

>>> canonical(4, [(1, 3), (2, 1), (3, 4), (4, 2)])
((1, 2), (2, 4), (3, 1), (4, 3))
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any, overload

from ..errors import InputError
from .cells import Board, Cell, _listed_n, board_cells, parse_n
from .columns import AnyBoard, ColumnBoard, _distinct

if TYPE_CHECKING:  # numpy is imported where an array board is made or checked, not by every import of the kit
    import numpy as np
    from numpy.typing import NDArray


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


def _array_less(a: NDArray[Any], b: NDArray[Any]) -> bool:
    """a < b in lexicographic order, for arrays of one length (at the first place they differ)."""
    import numpy as np

    differ = np.flatnonzero(a != b)
    return bool(differ.size) and bool(a[differ[0]] < b[differ[0]])
