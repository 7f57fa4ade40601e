"""The explicit construction: one board of any size without search (a method with the ``solve`` verb only).

:func:`construct` is a closed-form placement valid for every n >= 4 (and n = 1), in O(n): the classic
even-then-odd column lists with the adjustments for n mod 6 = 2 and n mod 6 = 3.  It gives a board for
n = 1,000,000 in well under a second.  It cannot honour pre-placed queens or blocked cells; with the
symmetry broken it returns the canonical board of the constructed one's orbit.  Its "no" for n = 2 and 3 is
a theorem, not a search.

>>> construct(8)
((1, 2), (2, 4), (3, 6), (4, 8), (5, 3), (6, 1), (7, 7), (8, 5))
"""

from __future__ import annotations

import time

from ...errors import InputError
from ...palette import OKABE_ITO
from ...problem.board import Board, Problem, canonical, from_columns, parse_n
from ...problem.results import SolveResult, Status
from ...runtime.limits import Size
from ..base import Choice, Method, infeasible_message


def construction_columns(n: int) -> list[int] | None:
    """Queen columns row by row (1-based) from the explicit construction, or None for n = 2, 3."""
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
    """A solution of n-queens without search; :class:`InputError` for n = 2, 3 (there is none)."""
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
        """A board of n cells as Python tuples, and verifying it: about 250 bytes a queen."""
        return Size(problem.n, memory=250 * problem.n)

    def solve_here(self, problem: Problem, choice: Choice, deadline: float | None) -> SolveResult:
        start = time.perf_counter()
        columns = construction_columns(problem.n)
        if columns is None:
            return SolveResult.of(problem, self.name, Status.INFEASIBLE, solve_seconds=time.perf_counter() - start,
                                  message=infeasible_message(problem))
        board = from_columns(columns)
        if problem.break_symmetry:
            board = canonical(problem.n, board)
        return SolveResult.of(problem, self.name, Status.SOLVED, queens=board,
                              solve_seconds=time.perf_counter() - start)


