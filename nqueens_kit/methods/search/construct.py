"""The explicit construction: one board of any size without search (a method with the ``solve`` verb only).

:func:`construct` is a closed-form placement valid for every n >= 4 (and n = 1), in O(n): the classic
even-then-odd column lists with the adjustments for n mod 6 = 2 and n mod 6 = 3 (E. J. Hoffman, J. C.
Loessi and R. C. Moore, *Mathematics Magazine* 42, 1969; B. Bernhardsson, *ACM SIGART Bulletin* 2, 1991).
:func:`construction_array` writes the columns straight into an ``int32`` array (4 bytes a queen, no Python
list), and the method returns that array as a :class:`~nqueens_kit.problem.board.ColumnBoard`: n = 10,000,000
in about a second.  It cannot honour pre-placed queens or blocked cells; with the symmetry broken it returns
the canonical board of the constructed one's orbit.  Its "no" for n = 2 and 3 is a theorem, not a search.

>>> construct(8)
((1, 2), (2, 4), (3, 6), (4, 8), (5, 3), (6, 1), (7, 7), (8, 5))
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from ...errors import InputError
from ...palette import OKABE_ITO
from ...problem.board import LISTED_BOARD_N, Board, Problem, canonical, from_columns, parse_n
from ...problem.results import SolveResult, Status
from ...runtime.limits import Size
from ..base import Choice, Method, infeasible_message

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

#: Peak memory of a construction run per queen, measured as the peak RSS of ``nqueens-kit solve N --method
#: construct`` less that of the same command at n = 1: 15 bytes at n = 10⁶ and 17 at 10⁷ (the columns, 4 bytes,
#: and the arrays and tables of flags :func:`~nqueens_kit.problem.board.verify` checks them with), 29 at 10⁷
#: with ``--break-symmetry`` (the images of the board compared with it); rounded up.
BYTES_PER_QUEEN = 32


def construction_array(n: int) -> NDArray[np.int32] | None:
    """Queen columns row by row (1-based) from the explicit construction as an ``int32`` array, or None for
    n = 2, 3: the even columns 2, 4, ... then the odd ones 1, 3, ..., adjusted for n mod 6 = 2 and 3.

    >>> construction_array(8).tolist()
    [2, 4, 6, 8, 3, 1, 7, 5]
    """
    import numpy as np

    n = parse_n(n)
    if n in (2, 3):
        return None
    columns = np.empty(n, dtype=np.int32)
    half = n // 2  # the number of even columns
    columns[:half] = np.arange(2, n + 1, 2, dtype=np.int32)
    columns[half:] = np.arange(1, n + 1, 2, dtype=np.int32)
    odds = columns[half:]  # a view: the adjustments below write into the board itself
    if n % 6 == 2:
        # swap 1 and 3, move 5 to the end: 3, 1, 7, 9, ..., 5
        odds[:2] = (3, 1)
        odds[2:-1] = odds[3:].copy()
        odds[-1] = 5
    elif n % 6 == 3:
        # move 2 to the end of the evens, 1 and 3 to the end of the odds
        columns[:half - 1] = columns[1:half].copy()
        columns[half - 1] = 2
        odds[:-2] = odds[2:].copy()
        odds[-2:] = (1, 3)
    return columns


def construction_columns(n: int) -> list[int] | None:
    """Queen columns row by row (1-based) from the explicit construction as a list, or None for n = 2, 3: the
    same columns as :func:`construction_array`, in plain Python (for small boards, and to read)."""
    n = parse_n(n)
    if n == 1:
        return [1]
    if n in (2, 3):
        return None
    evens = list(range(2, n + 1, 2))
    odds = list(range(1, n + 1, 2))
    if n % 6 == 2:
        # swap 1 and 3, move 5 to the end
        odds = [3, 1] + odds[3:] + [5]
    elif n % 6 == 3:
        # move 2 to the end of the evens, 1 and 3 to the end of the odds
        evens = evens[1:] + [2]
        odds = odds[2:] + [1, 3]
    return evens + odds


def construct(n: int) -> Board:
    """A solution of n-queens without search, as a tuple of cells; :class:`InputError` for n = 2, 3 (there is
    none).  For millions of queens, ``from_columns(construction_array(n))`` gives the same board held as an
    array (or ``solve(n, "construct")``)."""
    columns = construction_columns(n)
    if columns is None:
        raise InputError(f"{n}-queens has no solution, so there is nothing to construct (n = 2 and 3 have none)")
    return from_columns(columns)


class ConstructMethod(Method):
    name = "construct"
    title = "construction"
    summary = "the explicit O(n) construction: one board, no search"
    verbs = frozenset({"solve"})
    features = frozenset({"break_symmetry"})
    linestyle = ":"
    colours = {None: OKABE_ITO["grey"]}
    interruptible = True

    def describe(self, choice: Choice) -> str:
        return "explicit construction"

    def size(self, problem: Problem, choice: Choice) -> Size:
        """A board of n columns in an array, and verifying it: :data:`BYTES_PER_QUEEN` bytes a queen (a small
        board, up to ``LISTED_BOARD_N`` queens, is a tuple of cells: about 250 bytes a queen)."""
        per_queen = BYTES_PER_QUEEN if problem.n > LISTED_BOARD_N else 250
        return Size(problem.n, memory=per_queen * problem.n)

    def solve_here(self, problem: Problem, choice: Choice, deadline: float | None) -> SolveResult:
        large = problem.n > LISTED_BOARD_N
        if large:
            import numpy  # noqa: F401  (loaded before the clock starts: the time is the construction's)
        start = time.perf_counter()
        # a small board is a tuple of cells, made without numpy (whose import costs more than the whole
        # construction below some 10⁵ queens); a large one is an array of columns
        columns = construction_array(problem.n) if large else construction_columns(problem.n)
        if columns is None:
            return SolveResult.of(problem, self.name, Status.INFEASIBLE, solve_seconds=time.perf_counter() - start,
                                  message=infeasible_message(problem))
        board = from_columns(columns)
        if problem.break_symmetry:
            board = canonical(problem.n, board)
        return SolveResult.of(problem, self.name, Status.SOLVED, queens=board,
                              solve_seconds=time.perf_counter() - start)


