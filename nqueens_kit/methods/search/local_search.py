"""Min-conflicts local search (Minton, Johnston, Philips and Laird 1992): one board of a large n in seconds.

One queen per row, never two.  Each *step* picks an attacked queen at random and moves it, within its row,
to a column where it is attacked least (ties broken at random).  A run that has not reached a board within
its budget of steps starts again from a new placement (a *restart*).  Attack counters per column, diagonal
and anti-diagonal follow every move, and so does the sum of the rows on each line: when a line comes to hold
two queens, the other one is that sum minus the mover, so every attacked queen is on the list steps pick
from without a scan of the board.

- The initial placement is greedy and randomized: row by row, each queen goes to a column no queen uses
  yet, the first of up to :data:`PLACEMENT_CANDIDATES` random ones whose diagonals are free, else the least
  attacked of them.  A random placement leaves most queens attacked, each a step to repair; this one
  leaves about a thousand at n = 10⁶, which is what makes a million queens a matter of seconds.  The first
  run places the rows top to bottom; restarts place them in random order, since the ordered placement can
  lead into the same trap every time (it always does at n = 6).
- A step at large n finds a least-attacked column without scanning the row: a column attacked by nobody
  is an empty one (the placement leaves few or none), so those are tried one by one; if none is free, a
  column attacked once is a least-attacked one, and random columns are drawn until one is (the first
  hit of uniform draws is uniform among them).  Only when that fails does the step scan the whole row, as
  it always does below :data:`SCAN_BELOW`.  Either way the move is min-conflicts' own.
- It is incomplete: it finds boards but never proves there is none.  After the budget of :func:`budget`
  (scaled with n), or at the deadline, it ends as ``timeout`` (impossible completions end so), and it
  cannot count.  n = 2 and 3, which have no board by the published counts, end so at once, without a
  search (:func:`known_without_board`).
- Pre-placed queens never move; no queen stands on a blocked cell; with the symmetry broken it returns the
  canonical board of the board it found.  Its random generator is seeded from the problem, so a run is
  reproducible.
- Where numba is installed, the same algorithm runs compiled (:mod:`.local_search_jit`, about twenty times
  faster: 10⁷ queens in seconds) for large problems without blocked cells; this module is the readable
  version, and the one that runs in the browser, with ``NQUEENS_KIT_NO_JIT=1``, with blocked cells and on
  small boards (below :data:`COMPILED_FROM`, where importing numba would cost more than it saves).

>>> from nqueens_kit.problem.board import verify
>>> columns, stats = min_conflicts(Problem(8))
>>> verify(8, from_columns(columns)), sorted(stats)
(True, ['initial_conflicts', 'restarts', 'steps'])
"""

from __future__ import annotations

import random
import time
from array import array
from collections.abc import Callable, Sequence
from itertools import compress, repeat
from operator import add
from typing import TYPE_CHECKING

from ...palette import TOL_MUTED
from ...problem.board import Problem, canonical, from_columns
from ...problem.reference import published_count
from ...problem.results import SolveResult, Statistics, Status
from ...runtime.jit import jit_available
from ...runtime.limits import Size
from ..base import Choice, Method
from .min_conflicts_rules import CLOCK_EVERY as CLOCK_EVERY
from .min_conflicts_rules import PLACEMENT_CANDIDATES as PLACEMENT_CANDIDATES
from .min_conflicts_rules import SCAN_BELOW as SCAN_BELOW
from .min_conflicts_rules import STEP_DRAWS as STEP_DRAWS
from .min_conflicts_rules import Stats as Stats
from .min_conflicts_rules import Stopped as Stopped
from .min_conflicts_rules import budget as budget

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

#: From this n the compiled version runs where numba is (below, the Python one takes less time than numba's
#: import: under a tenth of a second at n = 20,000).
COMPILED_FROM = 20_000
#: Bytes per queen at the peak of a solve: the search's arrays and the placement's numpy temporaries,
#: then the board as tuples and its verification (measured at n = 10⁶, 64-bit CPython 3.11, with a margin).
BYTES_PER_QUEEN = 400
#: ... and with the symmetry broken, the eight images of the board :func:`canonical` compares.
BYTES_PER_QUEEN_CANONICAL = 1600
#: ... compiled: int32 arrays, the board as one of them and its vectorised check, with the symmetry broken
#: or not (58 bytes measured at n = 10⁶ and 10⁷ in a process with the kernels loaded; loading numba and them
#: takes about 130 MB once, which the margin covers from n = 2·10⁶).
BYTES_PER_QUEEN_COMPILED = 120



def _recorded(stats: Stats) -> Statistics:
    """The search's counters as a result records a solver's statistics."""
    recorded: Statistics = {**stats}
    return recorded


def min_conflicts(problem: Problem, deadline: float | None = None) -> tuple[npt.NDArray[np.int32] | None, Stats]:
    """The columns of a board found by min-conflicts (an int32 array, row by row, from 1), or None when the
    budget ran out, and the stats ``steps`` (all runs), ``restarts`` and ``initial_conflicts`` (attacked
    queens after the last placement).  Raises :class:`Stopped` at ``deadline`` (``time.monotonic()``
    seconds).  Compiled where numba is (:mod:`.local_search_jit`) from n = :data:`COMPILED_FROM`, unless the
    problem has blocked cells."""
    if compiled(problem):
        from .local_search_jit import min_conflicts_jit

        return min_conflicts_jit(problem, deadline, time.monotonic)  # one clock for both versions
    import numpy as np

    columns, stats = min_conflicts_python(problem, deadline)
    return (None if columns is None else np.array(columns, dtype=np.int32)), stats


def known_without_board(problem: Problem) -> bool:
    """True for a problem the published counts give no board: n = 2 and 3 with no queen placed and no cell
    blocked (with the symmetry broken or not).  Min-conflicts would repair such a placement until its budget
    or the time limit ran out; it says so at once instead."""
    if problem.preplaced or problem.blocked:
        return False
    return published_count(problem.n) == 0


def compiled(problem: Problem) -> bool:
    """True when :func:`min_conflicts` runs the compiled version for ``problem``."""
    return problem.n >= COMPILED_FROM and not problem.blocked and jit_available()


def min_conflicts_python(problem: Problem, deadline: float | None = None) -> tuple[list[int] | None, Stats]:
    """:func:`min_conflicts` in Python, whatever is installed: the columns as a list."""
    n = problem.n
    rng = random.Random(f"nqueens-kit-local-search:{n}:{problem.preplaced}:{problem.blocked}")
    steps_per_run, runs = budget(n)
    blocked = _blocked_rows(problem)
    stats: Stats = {"steps": 0, "restarts": 0, "initial_conflicts": 0}
    if any(len(cells) >= n for cells in blocked.values()):
        return None, stats
    # rows mostly blocked: their open columns, so that a step looks at those alone
    narrow = {r: [c for c in range(1, n + 1) if c not in cells] for r, cells in blocked.items() if 2 * len(cells) > n}
    for run in range(runs):
        stats["restarts"] = run
        columns = _run(n, dict(problem.preplaced), blocked, narrow, rng, deadline, steps_per_run, stats,
                       shuffle=run > 0)
        if columns is not None:
            return columns, stats
    return None, stats


def _blocked_rows(problem: Problem) -> dict[int, set[int]]:
    """Row -> its blocked columns (rows without blocked cells left out)."""
    blocked: dict[int, set[int]] = {}
    for r, c in problem.blocked:
        blocked.setdefault(r, set()).add(c)
    return blocked


def _counters(size: int) -> array[int]:
    """``size`` zeros as C ints (a quarter of a list's memory, and no slower to index)."""
    return array("i", bytes(size * array("i").itemsize))


def _run(n: int, fixed: dict[int, int], blocked: dict[int, set[int]], narrow: dict[int, list[int]],
         rng: random.Random, deadline: float | None, steps_per_run: int, stats: Stats,
         shuffle: bool) -> list[int] | None:
    """One run: a greedy placement (rows in random order when ``shuffle``), then at most ``steps_per_run``
    steps.  The columns row by row, or None."""
    rand = rng.random
    clock = time.monotonic
    queen, col = _counters(n + 1), _counters(n + 1)
    diag, anti = _counters(2 * n + 1), _counters(2 * n + 1)  # diagonal r - c + n, anti-diagonal r + c
    for r, c in fixed.items():
        queen[r] = c
        col[c] += 1
        diag[r - c + n] += 1
        anti[r + c] += 1
    free = array("i", range(1, n + 1)) if not fixed else array("i", (c for c in range(1, n + 1) if not col[c]))
    taken, end = 0, len(free)  # free[taken:] are the columns no queen uses yet
    tries = PLACEMENT_CANDIDATES

    # ---- the greedy placement (counters only; the rows on each line are summed at the end, in numpy)
    rows: Sequence[int] = range(1, n + 1)
    if shuffle:
        order = list(rows)
        rng.shuffle(order)
        rows = order
    for start in range(0, n, CLOCK_EVERY):
        if deadline is not None and clock() > deadline:
            raise Stopped(stats)
        for r in rows[start:start + CLOCK_EVERY]:
            if queen[r]:
                continue
            cells = blocked.get(r) if blocked else None
            left = end - taken
            best, least = -1, 3
            if left > tries:
                for _ in repeat(None, tries):
                    i = taken + int(rand() * left)
                    c = free[i]
                    if cells is not None and c in cells:
                        continue
                    a = diag[r - c + n] + anti[r + c]
                    if not a:
                        best = i
                        break
                    if a < least:
                        best, least = i, a
            if best < 0:  # few free columns left, or every one drawn is blocked here: try them all
                best = _least_attacked_free(r, n, free, taken, end, diag, anti, cells)
            if best >= 0:
                c = free[best]
                free[best] = free[taken]
                free[taken] = c
                taken += 1
            else:  # every free column is blocked here
                c = _least_attacked(r, n, col, diag, anti, cells, narrow.get(r), rand)
            queen[r] = c
            col[c] += 1
            diag[r - c + n] += 1
            anti[r + c] += 1
    col_sum, diag_sum, anti_sum, attacked = _line_sums(n, queen, col, diag, anti, fixed, deadline, stats)
    stats["initial_conflicts"] = len(attacked)
    listed = bytearray(n + 1)  # on the list of attacked rows; fixed rows count as listed, so never join it
    for r in attacked:
        listed[r] = 1
    for r in fixed:
        listed[r] = 1

    # ---- the repair
    empty = set(free[taken:])  # columns without a queen
    scan = n < SCAN_BELOW
    steps = 0
    while attacked:
        size = len(attacked)
        i = int(rand() * size)
        r = attacked[i]
        c = queen[r]
        d, e = r - c + n, r + c
        if col[c] == 1 and diag[d] == 1 and anti[e] == 1:  # no longer attacked: off the list
            last = attacked.pop()
            if i < size - 1:
                attacked[i] = last
            listed[r] = 0
            continue
        if steps >= steps_per_run:
            stats["steps"] += steps
            return None
        steps += 1
        if not steps % CLOCK_EVERY and deadline is not None and clock() > deadline:
            stats["steps"] += steps
            raise Stopped(stats)
        # lift the queen, then put it down on a least-attacked column of its row
        x = col[c] - 1
        col[c] = x
        col_sum[c] -= r
        if not x:
            empty.add(c)
        diag[d] -= 1
        diag_sum[d] -= r
        anti[e] -= 1
        anti_sum[e] -= r
        cells = open_cells = None
        if blocked:
            cells = blocked.get(r)
            open_cells = narrow.get(r)
        b = 0
        if not scan:
            unattacked = [c for c in empty if not diag[r - c + n] and not anti[r + c]
                          and (cells is None or c not in cells)]
            if unattacked:
                b = unattacked[int(rand() * len(unattacked))]
            elif open_cells is None:  # no column is free of attacks, so one attacked once is a least-attacked one
                for _ in repeat(None, STEP_DRAWS):
                    c = int(rand() * n) + 1
                    if col[c] + diag[r - c + n] + anti[r + c] == 1 and (cells is None or c not in cells):
                        b = c
                        break
            else:
                for _ in repeat(None, STEP_DRAWS):
                    c = open_cells[int(rand() * len(open_cells))]
                    if col[c] + diag[r - c + n] + anti[r + c] == 1:
                        b = c
                        break
        if not b:
            b = _least_attacked(r, n, col, diag, anti, cells, open_cells, rand)
            if deadline is not None and clock() > deadline:
                stats["steps"] += steps
                raise Stopped(stats)
        queen[r] = b
        hit = False
        x = col[b] + 1
        col[b] = x
        s = col_sum[b] = col_sum[b] + r
        if x == 1:
            empty.discard(b)
        else:
            hit = True
            if x == 2 and not listed[s - r]:
                listed[s - r] = 1
                attacked.append(s - r)
        d = r - b + n
        x = diag[d] + 1
        diag[d] = x
        s = diag_sum[d] = diag_sum[d] + r
        if x > 1:
            hit = True
            if x == 2 and not listed[s - r]:
                listed[s - r] = 1
                attacked.append(s - r)
        e = r + b
        x = anti[e] + 1
        anti[e] = x
        s = anti_sum[e] = anti_sum[e] + r
        if x > 1:
            hit = True
            if x == 2 and not listed[s - r]:
                listed[s - r] = 1
                attacked.append(s - r)
        if not hit:  # attacked[i] is still r: the list has only grown at its end since
            last = attacked.pop()
            if last != r:
                attacked[i] = last
            listed[r] = 0
    stats["steps"] += steps
    return queen.tolist()[1:]


def _line_sums(n: int, queen: array[int], col: array[int], diag: array[int], anti: array[int], fixed: dict[int, int],
               deadline: float | None, stats: Stats) -> tuple[array[int], array[int], array[int], list[int]]:
    """The sum of the rows on each column, diagonal and anti-diagonal of a full placement, and its attacked
    rows that may move.  In numpy: kept up row by row in Python, the sums cost a third of the placement."""
    import numpy as np

    rows = np.arange(1, n + 1, dtype=np.int64)
    q = np.frombuffer(queen, dtype=np.int32)[1:].astype(np.int64)
    d, e = rows - q + n, rows + q
    moving = ((np.frombuffer(col, dtype=np.int32)[q] > 1) | (np.frombuffer(diag, dtype=np.int32)[d] > 1)
              | (np.frombuffer(anti, dtype=np.int32)[e] > 1))
    if fixed:
        moving[np.array(list(fixed), dtype=np.int64) - 1] = False
    attacked: list[int] = rows[moving].tolist()
    sums = []
    for lines, size in ((q, n + 1), (d, 2 * n + 1), (e, 2 * n + 1)):
        if deadline is not None and time.monotonic() > deadline:
            raise Stopped(stats)
        sums.append(array("q", np.bincount(lines, weights=rows, minlength=size).astype(np.int64).tobytes()))
    return sums[0], sums[1], sums[2], attacked


def _least_attacked_free(r: int, n: int, free: array[int], start: int, end: int, diag: array[int],
                         anti: array[int], cells: set[int] | None) -> int:
    """The index in ``free[start:end]`` of the first column of row r with the fewest diagonal attacks that is
    not blocked, or -1 when every one is blocked."""
    best, least = -1, 3
    for i in range(start, end):
        c = free[i]
        if cells is not None and c in cells:
            continue
        a = diag[r - c + n] + anti[r + c]
        if not a:
            return i
        if a < least:
            best, least = i, a
    return best


def _least_attacked(r: int, n: int, col: array[int], diag: array[int], anti: array[int], cells: set[int] | None,
                    open_cells: list[int] | None, rand: Callable[[], float]) -> int:
    """A least-attacked column of row r that is not blocked, at random among the ties: the whole row (in C),
    or only its open cells when most are blocked."""
    if open_cells is not None:
        columns: Sequence[int] = open_cells
        attacks = [col[c] + diag[r - c + n] + anti[r + c] for c in open_cells]
    else:
        columns = range(1, n + 1)
        attacks = list(map(add, map(add, col[1:], diag[r + n - 1:r - 1:-1]), anti[r + 1:r + n + 1]))
        for c in cells or ():
            attacks[c - 1] = 3 * n  # more than any attack count
    least = min(attacks)
    ties = list(compress(columns, map(least.__eq__, attacks)))
    return ties[int(rand() * len(ties))]


class LocalSearchMethod(Method):
    name = "local-search"
    title = "local search"
    summary = "min-conflicts repair of a greedy placement: one board of a large n, no proof that none exists"
    model_word = "search state"
    verbs = frozenset({"solve"})
    complete = False
    features = frozenset({"preplaced", "blocked", "break_symmetry"})
    linestyle = (0, (3, 1, 1, 1))  # dash-dot, dense
    colours = {None: TOL_MUTED["teal"]}
    interruptible = True

    def describe(self, choice: Choice) -> str:
        return "min-conflicts local search"

    def preload(self, choice: Choice) -> None:
        import numpy  # noqa: F401  (the placement sums its lines in numpy)

    def size(self, problem: Problem, choice: Choice) -> Size:
        if compiled(problem):
            per_queen = BYTES_PER_QUEEN_COMPILED
        else:
            per_queen = BYTES_PER_QUEEN_CANONICAL if problem.break_symmetry else BYTES_PER_QUEEN
        return Size(variables=problem.n, memory=per_queen * problem.n)

    def solve_here(self, problem: Problem, choice: Choice, deadline: float | None) -> SolveResult:
        start = time.perf_counter()
        if known_without_board(problem):  # n = 2 and 3: nothing to search for, so no search at all
            return SolveResult.of(problem, self.name, Status.TIMEOUT, solve_seconds=time.perf_counter() - start,
                                  stats=_recorded({"steps": 0, "restarts": 0, "initial_conflicts": 0}),
                                  message=f"no board: {problem.n}-queens has none by the published counts (OEIS "
                                          "A000170), so local search, which cannot prove it, does not search "
                                          "(--method backtrack or sat proves it)")
        try:
            columns, stats = min_conflicts(problem, deadline)
        except Stopped as stop:
            return SolveResult.of(problem, self.name, Status.TIMEOUT, solve_seconds=time.perf_counter() - start,
                                  stats=_recorded(stop.args[0]),
                                  message="no board found before the time limit; local search cannot prove that there "
                                          "is none")
        seconds = time.perf_counter() - start
        full = next((r for r, cells in _blocked_rows(problem).items() if len(cells) >= problem.n), None)
        if columns is None and full is not None:
            return SolveResult.of(problem, self.name, Status.TIMEOUT, solve_seconds=seconds, stats=_recorded(stats),
                                  message=f"no board found: every cell of row {full} is blocked, so local search "
                                          "has nowhere to put its queen (--method backtrack or sat says whether "
                                          "a board exists)")
        if columns is None:
            steps, runs = budget(problem.n)
            return SolveResult.of(problem, self.name, Status.TIMEOUT, solve_seconds=seconds, stats=_recorded(stats),
                                  message=f"no board found within the budget of {runs} runs of {steps:,} steps "
                                          "each; local search cannot prove that there is none (--method "
                                          "backtrack or sat can)")
        board = from_columns(columns)
        if problem.break_symmetry:
            board = canonical(problem.n, board)
        return SolveResult.of(problem, self.name, Status.SOLVED, queens=board,
                              solve_seconds=time.perf_counter() - start, stats=_recorded(stats))
