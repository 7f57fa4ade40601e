"""The rules of the puzzle, checked on plain cells: the heart of the independent verifier, with nothing
imported, so that the command's quick path (:mod:`nqueens_kit.cli.quick`) checks its board with the very code
:func:`nqueens_kit.problem.board.verify` runs, without loading the rest of the kit.

:func:`board_ok` takes what :func:`~nqueens_kit.problem.board.verify` has already made sure of: the rows and
the columns of the queens as two sequences of ints of equal length, the pre-placed queens and blocked cells
as (row, column) pairs.  It shares no code with the encoders: it counts distinct rows, columns, diagonals and
anti-diagonals with sets.  :func:`picture` is the board as text (:func:`~nqueens_kit.problem.board.draw`).

>>> board_ok(4, (1, 2, 3, 4), (2, 4, 1, 3))
True
>>> board_ok(4, (1, 2, 3, 4), (1, 2, 3, 4))
False
>>> print(picture(4, [(1, 2), (2, 4), (3, 1), (4, 3)], fixed=[(1, 2)]))
. P . .
. . . Q
Q . . .
. . Q .
"""

from __future__ import annotations

from operator import add, sub

TYPE_CHECKING = False  # typing is not imported here: this module must load in no time (mypy reads it as True)
if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    Cell = tuple[int, int]


def board_ok(n: int, rows: Sequence[int], cols: Sequence[int], fixed: Iterable[Cell] = (),
             closed: Iterable[Cell] = ()) -> bool:
    """True when the queens on ``rows[i], cols[i]`` (ints, as many of each) are a solution of n-queens: n of
    them, all on the board, no two on a row, column, diagonal or anti-diagonal, on every cell of ``fixed`` and
    on none of ``closed``."""
    if len(rows) != n or len(cols) != n:
        return False
    if n and (min(rows) < 1 or min(cols) < 1 or max(rows) > n or max(cols) > n):
        return False
    if len(set(rows)) != n or len(set(cols)) != n:
        return False
    if len(set(map(sub, rows, cols))) != n or len(set(map(add, rows, cols))) != n:
        return False
    if not fixed and not closed:
        return True
    placed = set(zip(rows, cols, strict=True))
    return all(p in placed for p in fixed) and not any(b in placed for b in closed)


def picture(n: int, queens: Iterable[Cell], fixed: Iterable[Cell] = (), closed: Iterable[Cell] = ()) -> str:
    """The board as text: ``Q`` a queen, ``P`` a pre-placed queen, ``x`` a blocked cell, ``.`` an empty cell."""
    on, placed, shut = set(queens), set(fixed), set(closed)

    def mark(cell: Cell) -> str:
        if cell in on:
            return "P" if cell in placed else "Q"
        return "x" if cell in shut else "."

    return "\n".join(" ".join(mark((r, c)) for c in range(1, n + 1)) for r in range(1, n + 1))
