"""Two methods that need no solver: the explicit construction and a bitmask backtracking counter.

- :func:`construct`: a closed-form placement valid for every n >= 4 (and n = 1), in O(n); the classic
  even-then-odd column lists with the adjustments for n mod 6 = 2 and n mod 6 = 3.  It gives a board for
  n = 1,000,000 in well under a second.
- :func:`count_backtrack` and :func:`iter_backtrack`: the standard bit-parallel backtracking search (free
  columns and both diagonal directions as bit masks), the ground truth the SAT and ILP counts are tested
  against and the baseline in the benchmarks.

>>> construct(8)
((1, 2), (2, 4), (3, 6), (4, 8), (5, 3), (6, 1), (7, 7), (8, 5))
>>> count_backtrack(8), count_backtrack(8, fundamental=True)
(92, 12)
"""

from __future__ import annotations

import time
from collections.abc import Iterator

from .board import Board, Problem, canonical, from_columns
from .errors import InputError
from .results import SolveResult


def construction_columns(n: int) -> list[int] | None:
    """Queen columns row by row (1-based) from the explicit construction, or None for n = 2, 3."""
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


def solve_construct(problem: Problem | int) -> SolveResult:
    """The construction as a solve method (no pre-placed queens: it cannot honour them)."""
    if not isinstance(problem, Problem):
        problem = Problem(problem)
    if problem.preplaced:
        raise InputError("the construction method cannot honour pre-placed queens; use --method sat or ilp")
    start = time.perf_counter()
    columns = construction_columns(problem.n)
    seconds = time.perf_counter() - start
    if columns is None:
        return SolveResult(n=problem.n, method="construct", status="infeasible", solve_seconds=seconds,
                           message=f"{problem.n}-queens has no solution (only n = 2 and n = 3 have none)")
    return SolveResult(n=problem.n, method="construct", status="solved", queens=from_columns(columns),
                       solve_seconds=seconds).check()


def iter_backtrack(n: int, preplaced: tuple[tuple[int, int], ...] = ()) -> Iterator[Board]:
    """Every solution by backtracking, row by row, in lexicographic order of columns."""
    fixed = {r: c for r, c in preplaced}
    full = (1 << n) - 1
    columns: list[int] = []

    def place(cols: int, left: int, right: int) -> Iterator[Board]:
        row = len(columns) + 1
        if row > n:
            yield from_columns(columns)
            return
        free = full & ~(cols | left | right)
        if row in fixed:
            free &= 1 << (fixed[row] - 1)
        while free:
            bit = free & -free
            free ^= bit
            columns.append(bit.bit_length())
            yield from place(cols | bit, ((left | bit) << 1) & full, (right | bit) >> 1)
            columns.pop()

    yield from place(0, 0, 0)


def count_backtrack(n: int, fundamental: bool = False) -> int:
    """Number of solutions (or fundamental solutions) by bitmask backtracking.

    Counting all solutions uses the left-right mirror: first-row queens in the left half count twice.
    """
    if fundamental:
        return len({canonical(n, board) for board in iter_backtrack(n)})
    full = (1 << n) - 1

    def count(cols: int, left: int, right: int) -> int:
        if cols == full:
            return 1
        total = 0
        free = full & ~(cols | left | right)
        while free:
            bit = free & -free
            free ^= bit
            total += count(cols | bit, ((left | bit) << 1) & full, (right | bit) >> 1)
        return total

    total = 0
    for col in range(n // 2):
        bit = 1 << col
        total += 2 * count(bit, (bit << 1) & full, bit >> 1)
    if n % 2:
        bit = 1 << (n // 2)
        total += count(bit, (bit << 1) & full, bit >> 1)
    return total
