"""Two methods that need no solver: the explicit construction and bitmask backtracking.

- :func:`construct`: a closed-form placement valid for every n >= 4 (and n = 1), in O(n); the classic
  even-then-odd column lists with the adjustments for n mod 6 = 2 and n mod 6 = 3.  It gives a board for
  n = 1,000,000 in well under a second.
- :func:`iter_backtrack` and :func:`count_backtrack`: the standard bit-parallel backtracking search (free
  columns and both diagonal directions as bit masks), the ground truth the SAT and ILP counts are tested
  against and the baseline in the benchmarks.

>>> construct(8)
((1, 2), (2, 4), (3, 6), (4, 8), (5, 3), (6, 1), (7, 7), (8, 5))
>>> count_backtrack(8), count_backtrack(8, fundamental=True)
(92, 12)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

from ...errors import InputError
from ...problem.board import Board, Cell, Problem, canonical, from_columns, parse_n
from ...problem.results import SolveResult, Status

#: Progress is reported for every finished subtree of this many last rows.
REPORT_ROWS = 12
#: Up to this n the counter recurses (Python's recursion limit is 1000 frames); above, it iterates.
RECURSION_SAFE = 400


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
        return SolveResult(n=problem.n, method="construct", status=Status.INFEASIBLE, solve_seconds=seconds,
                           message=f"{problem.n}-queens has no solution (only n = 2 and n = 3 have none)")
    return SolveResult(n=problem.n, method="construct", status=Status.SOLVED, queens=from_columns(columns),
                       solve_seconds=seconds).check()


def iter_backtrack(n: int | Problem, preplaced: tuple[Cell, ...] = ()) -> Iterator[Board]:
    """Every solution by backtracking, row by row, in lexicographic order of columns (iterative: any n)."""
    problem = n if isinstance(n, Problem) else Problem(n, preplaced)
    n = problem.n
    fixed = dict(problem.preplaced)
    full = (1 << n) - 1
    columns: list[int] = []
    # per row on the stack: the columns still to try, and the masks the row was entered with
    stack: list[tuple[int, int, int, int]] = []

    def free_in(row: int, cols: int, left: int, right: int) -> int:
        free = full & ~(cols | left | right)
        return free & (1 << (fixed[row] - 1)) if row in fixed else free

    stack.append((free_in(1, 0, 0, 0), 0, 0, 0))
    while stack:  # choosing the queen of row len(stack); columns holds the rows above it
        free, cols, left, right = stack[-1]
        if not free:
            stack.pop()
            if columns:
                columns.pop()  # the row above tries its next column
            continue
        bit = free & -free
        stack[-1] = (free ^ bit, cols, left, right)
        row = len(stack)
        if row == n:
            yield from_columns([*columns, bit.bit_length()])
            continue
        columns.append(bit.bit_length())
        ncols, nleft, nright = cols | bit, ((left | bit) << 1) & full, (right | bit) >> 1
        stack.append((free_in(row + 1, ncols, nleft, nright), ncols, nleft, nright))


def count_backtrack(n: int, fundamental: bool = False, progress: Callable[[int], None] | None = None) -> int:
    """Number of solutions (or fundamental solutions) by bitmask backtracking.

    Counting all solutions uses the left-right mirror: first-row queens in the left half count twice.  The
    search is split on the first rows, and ``progress`` (if given) gets the running count after each part.
    """
    n = parse_n(n)
    if fundamental:
        return len({canonical(n, board) for board in iter_backtrack(n)})
    if n > RECURSION_SAFE:
        total = 0
        for total, _board in enumerate(iter_backtrack(n), start=1):  # noqa: B007
            if progress is not None and total % 4096 == 0:
                progress(total)
        if progress is not None:
            progress(total)
        return total
    full = (1 << n) - 1
    # progress is reported after every finished subtree of the last REPORT_ROWS rows, so even a count
    # that never ends (n = 30) shows its running total
    level = max(1, n - REPORT_ROWS)
    running = [0, 0]  # boards counted so far; weight of the current first-rows placement

    def count(cols: int, left: int, right: int, placed: int) -> int:
        if cols == full:
            return 1
        total = 0
        free = full & ~(cols | left | right)
        while free:
            bit = free & -free
            free ^= bit
            found = count(cols | bit, ((left | bit) << 1) & full, (right | bit) >> 1, placed + 1)
            total += found
            if placed + 1 == level and progress is not None:
                running[0] += found * running[1]
                progress(running[0])
        return total

    depth = 1 if n < 10 else 2 if n < 16 else 3
    total = 0
    for weight, cols, left, right in _prefixes(n, depth):
        running[0], running[1] = total, weight
        total += weight * count(cols, left, right, min(depth, n))
        if progress is not None:
            progress(total)
    return total


def _prefixes(n: int, depth: int) -> Iterator[tuple[int, int, int, int]]:
    """``(weight, cols, left, right)`` for every non-attacking placement of the first ``depth`` rows, with the
    first-row queen in the left half (weight 2: it stands for its mirror image too) or the middle (weight 1)."""
    full = (1 << n) - 1

    def extend(row: int, weight: int, cols: int, left: int, right: int) -> Iterator[tuple[int, int, int, int]]:
        if row == depth or cols == full:
            yield weight, cols, left, right
            return
        free = full & ~(cols | left | right)
        if row == 0:
            free &= (1 << ((n + 1) // 2)) - 1
        while free:
            bit = free & -free
            free ^= bit
            w = (1 if n % 2 and bit == 1 << (n // 2) else 2) if row == 0 else weight
            yield from extend(row + 1, w, cols | bit, ((left | bit) << 1) & full, (right | bit) >> 1)

    yield from extend(0, 1, 0, 0, 0)
