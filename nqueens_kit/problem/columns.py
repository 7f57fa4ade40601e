"""A board of millions of queens: :class:`ColumnBoard`, the same sequence of ``(row, col)`` cells held as a
numpy array of columns (:func:`from_columns`, :func:`column_board`), checked with numpy rather than cell by
cell.  (:mod:`.board` re-exports every public name here.)
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, overload

from ..errors import InputError
from .cells import Board, Cell, _plain_cell, shown

if TYPE_CHECKING:  # numpy is imported where an array board is made or checked, not by every import of the kit
    import numpy as np
    from numpy.typing import NDArray


def _distinct(values: NDArray[Any], size: int) -> bool:
    """True when the non-negative ints ``values`` (each below ``size``) are all different: marked in a table
    of ``size`` flags, distinct values mark as many flags as there are values."""
    import numpy as np

    seen = np.zeros(size, dtype=bool)
    seen[values] = True
    return int(np.count_nonzero(seen)) == len(values)


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
    >>> from nqueens_kit.problem.board import verify
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
