"""Min-conflicts compiled: the algorithm of :mod:`.local_search`, in numba, on int32 arrays.

The same greedy randomized placement (:data:`~.min_conflicts_rules.PLACEMENT_CANDIDATES` random free columns per
row), the same steps (an attacked queen at random to a least-attacked column of its row, the empty columns
and :data:`~.min_conflicts_rules.STEP_DRAWS` draws before a scan of the row at large n), the same budget and
restarts, pre-placed queens that never move.  Two things differ from the Python version, neither in what
a step does:

- the random numbers come from numba's generator (seeded from the problem, so a run is reproducible: the
  same problem gives the same board), so a board differs from the Python version's;
- each line keeps the exclusive-or of the rows on it rather than their sum (the other queen on a line of
  two is still that value with the mover taken out, and it never overflows an int32).

Problems with blocked cells run the Python version (:func:`~.local_search.min_conflicts` decides).

The kernels work in slices (2,048 rows of the placement, or about a millisecond of steps) and return, so that
the deadline and Ctrl-C are looked at between slices; the state lives in arrays between calls.  The search
takes about 60 bytes per queen (measured at n = 10⁶ and 10⁷), against some 300 for the Python version.
"""

from __future__ import annotations

import functools
import time
import zlib
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from ...problem.board import Problem
from ...runtime.jit import compile_kernel
from .min_conflicts_rules import CLOCK_EVERY, PLACEMENT_CANDIDATES, SCAN_BELOW, STEP_DRAWS, Stats, Stopped, budget

Ints = npt.NDArray[np.int32]

#: Work (cells looked at, steps made) a slice of the repair does before it returns to look at the clock.
SLICE_WORK = 1 << 20

# what a slice of the repair ends with
_SOLVED, _GOING, _SPENT = 0, 1, 2


def _seed(seed: int) -> None:  # pragma: no cover - compiled
    """Seed numba's generator (its own, per thread: NumPy's global one is untouched)."""
    np.random.seed(seed)


def _shuffled(order: Ints) -> None:  # pragma: no cover - compiled
    """Rows in random order, for the placement of a restart."""
    np.random.shuffle(order)


def _place(n: int, order: Ints, start: int, stop: int, tries: int, queen: Ints, col: Ints, diag: Ints, anti: Ints,
           free: Ints, cursor: Ints) -> None:  # pragma: no cover - compiled
    """Place the rows ``order[start:stop]`` (rows ``start + 1 .. stop`` when ``order`` is empty) greedily.

    ``free[cursor[0]:cursor[1]]`` are the columns no queen uses yet; a row takes the first of up to ``tries``
    random ones whose diagonals are free, else the least attacked of them (all of them when few are left).
    """
    taken = cursor[0]
    end = cursor[1]
    shuffle = order.shape[0] > 0
    for k in range(start, stop):
        r = order[k] if shuffle else k + 1
        if queen[r] != 0:
            continue
        left = end - taken
        best = -1
        least = 3
        if left > tries:
            for _ in range(tries):
                i = taken + int(np.random.random() * left)
                c = free[i]
                a = diag[r - c + n] + anti[r + c]
                if a == 0:
                    best = i
                    break
                if a < least:
                    best = i
                    least = a
        if best < 0:
            for i in range(taken, end):
                c = free[i]
                a = diag[r - c + n] + anti[r + c]
                if a == 0:
                    best = i
                    break
                if a < least:
                    best = i
                    least = a
        if best >= 0:
            c = free[best]
            free[best] = free[taken]
            free[taken] = c
            taken += 1
        else:  # no free column left (cannot happen without blocked cells): the least attacked one
            c = 1
            least = 3 * n
            for x in range(1, n + 1):
                a = col[x] + diag[r - x + n] + anti[r + x]
                if a < least:
                    c = x
                    least = a
        queen[r] = c
        col[c] += 1
        diag[r - c + n] += 1
        anti[r + c] += 1
    cursor[0] = taken
    cursor[1] = end


def _prepare(n: int, queen: Ints, col: Ints, diag: Ints, anti: Ints, col_x: Ints, diag_x: Ints, anti_x: Ints,
             fixed: npt.NDArray[np.uint8], listed: npt.NDArray[np.uint8], attacked: Ints, free: Ints, cursor: Ints,
             where: Ints) -> int:  # pragma: no cover - compiled
    """After a placement: the exclusive-or of the rows on each line, the attacked rows that may move (in
    ``attacked``, row order; their number returned), and the empty columns as a list ``free[:cursor[2]]``
    with each one's place in ``where`` (-1 for a column with a queen)."""
    for r in range(1, n + 1):
        c = queen[r]
        col_x[c] ^= r
        diag_x[r - c + n] ^= r
        anti_x[r + c] ^= r
    size = 0
    for r in range(1, n + 1):
        listed[r] = fixed[r]
        c = queen[r]
        if fixed[r] == 0 and (col[c] > 1 or diag[r - c + n] > 1 or anti[r + c] > 1):
            attacked[size] = r
            size += 1
            listed[r] = 1
    where[:] = -1
    m = 0
    for i in range(cursor[0], cursor[1]):
        c = free[i]
        free[m] = c
        where[c] = m
        m += 1
    cursor[2] = m
    return size


def _repair(n: int, steps_per_run: int, draws: int, scan: bool, queen: Ints, col: Ints, diag: Ints, anti: Ints,
            col_x: Ints, diag_x: Ints, anti_x: Ints, listed: npt.NDArray[np.uint8], attacked: Ints, free: Ints,
            where: Ints, state: npt.NDArray[np.int64], work_limit: int) -> int:  # pragma: no cover - compiled
    """Steps of min-conflicts until no queen is attacked (``_SOLVED``), the run's budget is spent
    (``_SPENT``) or about ``work_limit`` cells have been looked at (``_GOING``).  ``state`` holds the number
    of attacked rows listed, the steps of this run and the number of empty columns."""
    size = state[0]
    steps = state[1]
    m = state[2]
    work = 0
    while size > 0:
        if work >= work_limit:
            state[0] = size
            state[1] = steps
            state[2] = m
            return 1
        i = int(np.random.random() * size)
        r = attacked[i]
        c = queen[r]
        d = r - c + n
        e = r + c
        if col[c] == 1 and diag[d] == 1 and anti[e] == 1:  # no longer attacked: off the list
            size -= 1
            attacked[i] = attacked[size]
            listed[r] = 0
            work += 1
            continue
        if steps >= steps_per_run:
            state[0] = size
            state[1] = steps
            state[2] = m
            return 2
        steps += 1
        work += 1
        # lift the queen
        col[c] -= 1
        col_x[c] ^= r
        if col[c] == 0:
            free[m] = c
            where[c] = m
            m += 1
        diag[d] -= 1
        diag_x[d] ^= r
        anti[e] -= 1
        anti_x[e] ^= r
        b = 0
        if not scan:
            unattacked = 0
            for j in range(m):
                x = free[j]
                if diag[r - x + n] == 0 and anti[r + x] == 0:
                    unattacked += 1
            work += m
            if unattacked > 0:
                k = int(np.random.random() * unattacked)
                for j in range(m):
                    x = free[j]
                    if diag[r - x + n] == 0 and anti[r + x] == 0:
                        if k == 0:
                            b = x
                            break
                        k -= 1
            else:  # no column is free of attacks, so one attacked once is a least-attacked one
                for _ in range(draws):
                    x = int(np.random.random() * n) + 1
                    if col[x] + diag[r - x + n] + anti[r + x] == 1:
                        b = x
                        break
                work += draws
        if b == 0:  # the whole row: a least-attacked column, at random among the ties
            least = 3 * n
            ties = 0
            for x in range(1, n + 1):
                a = col[x] + diag[r - x + n] + anti[r + x]
                if a < least:
                    least = a
                    ties = 1
                elif a == least:
                    ties += 1
            k = int(np.random.random() * ties)
            for x in range(1, n + 1):
                if col[x] + diag[r - x + n] + anti[r + x] == least:
                    if k == 0:
                        b = x
                        break
                    k -= 1
            work += 2 * n
        # put it down on column b
        queen[r] = b
        hit = False
        col[b] += 1
        col_x[b] ^= r
        if col[b] == 1:
            j = where[b]
            m -= 1
            last = free[m]
            free[j] = last
            where[last] = j
            where[b] = -1
        else:
            hit = True
            other = col_x[b] ^ r
            if col[b] == 2 and listed[other] == 0:
                listed[other] = 1
                attacked[size] = other
                size += 1
        d = r - b + n
        diag[d] += 1
        diag_x[d] ^= r
        if diag[d] > 1:
            hit = True
            other = diag_x[d] ^ r
            if diag[d] == 2 and listed[other] == 0:
                listed[other] = 1
                attacked[size] = other
                size += 1
        e = r + b
        anti[e] += 1
        anti_x[e] ^= r
        if anti[e] > 1:
            hit = True
            other = anti_x[e] ^ r
            if anti[e] == 2 and listed[other] == 0:
                listed[other] = 1
                attacked[size] = other
                size += 1
        if not hit:  # attacked[i] is still r: the list has only grown at its end since
            size -= 1
            attacked[i] = attacked[size]
            listed[r] = 0
    state[0] = 0
    state[1] = steps
    state[2] = m
    return 0


@functools.cache
def _kernels() -> dict[str, Callable[..., Any]]:
    """The kernels, compiled on first use (from numba's disk cache after the first run on a machine)."""
    return {name: compile_kernel(function) for name, function in
            (("seed", _seed), ("shuffled", _shuffled), ("place", _place), ("prepare", _prepare), ("repair", _repair))}


def seed_of(problem: Problem) -> int:
    """The generator's seed: from the problem alone, so that the same problem gives the same board."""
    text = f"nqueens-kit-local-search:{problem.n}:{problem.preplaced}"
    return zlib.crc32(text.encode())


def min_conflicts_jit(problem: Problem, deadline: float | None = None,
                      clock: Callable[[], float] | None = None) -> tuple[Ints | None, Stats]:
    """:func:`~.local_search.min_conflicts` compiled, for problems without blocked cells: the columns of a
    board (an int32 array, row by row, from 1) or None when the budget ran out, and the same stats.  Raises
    :class:`~.min_conflicts_rules.Stopped` at ``deadline`` (seconds of ``clock``, by default ``time.monotonic``),
    which it reads before each slice."""
    if problem.blocked:
        raise ValueError("the compiled min-conflicts takes no blocked cells")
    kernels = _kernels()
    place, prepare, repair = kernels["place"], kernels["prepare"], kernels["repair"]
    n = problem.n
    steps_per_run, runs = budget(n)
    stats: Stats = {"steps": 0, "restarts": 0, "initial_conflicts": 0}
    kernels["seed"](seed_of(problem))
    queen = np.zeros(n + 1, dtype=np.int32)
    col = np.zeros(n + 1, dtype=np.int32)
    diag, anti = np.zeros(2 * n + 1, dtype=np.int32), np.zeros(2 * n + 1, dtype=np.int32)
    col_x = np.zeros(n + 1, dtype=np.int32)
    diag_x, anti_x = np.zeros(2 * n + 1, dtype=np.int32), np.zeros(2 * n + 1, dtype=np.int32)
    fixed = np.zeros(n + 1, dtype=np.uint8)
    listed = np.zeros(n + 1, dtype=np.uint8)
    attacked = np.zeros(n, dtype=np.int32)
    free = np.zeros(n, dtype=np.int32)
    where = np.zeros(n + 1, dtype=np.int32)
    cursor = np.zeros(3, dtype=np.int32)
    state = np.zeros(3, dtype=np.int64)
    no_order = np.zeros(0, dtype=np.int32)
    order = no_order
    scan = n < SCAN_BELOW
    clock = clock or time.monotonic
    for run in range(runs):
        stats["restarts"] = run
        for array in (queen, col, diag, anti, col_x, diag_x, anti_x, fixed):
            array[:] = 0
        for r, c in problem.preplaced:
            queen[r], fixed[r] = c, 1
            col[c] += 1
            diag[r - c + n] += 1
            anti[r + c] += 1
        # the columns no queen uses yet, in order (as the Python version starts)
        open_columns = np.flatnonzero(col[1:] == 0).astype(np.int32) + 1
        free[:open_columns.size] = open_columns
        cursor[0], cursor[1] = 0, open_columns.size
        del open_columns
        if run > 0:  # restarts place the rows in random order
            if order is no_order:
                order = np.arange(1, n + 1, dtype=np.int32)
            kernels["shuffled"](order)
        for start in range(0, n, CLOCK_EVERY):
            if deadline is not None and clock() > deadline:
                raise Stopped(stats)
            place(n, order, start, min(start + CLOCK_EVERY, n), PLACEMENT_CANDIDATES, queen, col, diag, anti,
                  free, cursor)
        size = prepare(n, queen, col, diag, anti, col_x, diag_x, anti_x, fixed, listed, attacked, free, cursor, where)
        stats["initial_conflicts"] = int(size)
        state[0], state[1], state[2] = size, 0, cursor[2]
        while True:
            ended = repair(n, steps_per_run, STEP_DRAWS, scan, queen, col, diag, anti, col_x, diag_x, anti_x,
                           listed, attacked, free, where, state, SLICE_WORK)
            if ended != _GOING:
                break
            if deadline is not None and clock() > deadline:
                stats["steps"] += int(state[1])
                raise Stopped(stats)
        stats["steps"] += int(state[1])
        if ended == _SOLVED:
            return queen[1:].copy(), stats
    return None, stats
