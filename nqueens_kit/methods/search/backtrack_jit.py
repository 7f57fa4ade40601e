"""The bitmask backtracking of :mod:`.backtrack`, compiled by numba: the same algorithms, at the machine's speed.

The readable Python in :mod:`.backtrack` is what the course reads and what the browser edition runs; this
module holds the same two searches as numba kernels (plain loops over integer arrays, explicit stacks
instead of recursion, one 64-bit integer per mask, so boards of up to :data:`MAX_N` rows):

- :func:`count_prefixes`: Somers' counter below each placement of the first rows (the prefixes the Python
  counter splits on, with their mirror weights), chunks of prefixes counted on every core at once (one
  thread per core; the kernel lets go of the interpreter lock).  The kernel returns after a few million
  placements with the count of the prefix it is in so far, and goes on where it was when called again: the
  running total (every board counted so far, finished prefixes or not: a lower bound) is reported about ten
  times a second, and Ctrl-C or a deadline stops the threads within a few hundredths of a second;
- :func:`compiled_boards`: every board of a problem (pre-placed queens, blocked cells) in lexicographic order
  of columns, the same order as :func:`.backtrack.iter_backtrack`, in batches: the kernel fills an array of
  boards and returns, keeping its stack in arrays, and is called again for the next batch.

:func:`use_compiled` decides which version runs.  numba is imported only when a kernel is first needed, and
numpy only when a kernel runs (the Python version of a small count needs neither).
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any

from ...errors import InputError
from ...problem.board import Board, Problem
from ...runtime.jit import compile_kernel, jit_available

#: The largest n the kernels take: a mask of n bits is one signed 64-bit integer (the sign bit stays clear).
MAX_N = 63
#: Up to this n the readable Python runs unless asked otherwise: it finishes before numba would have loaded
#: (importing numba and loading the cached kernels costs 0.6 to 0.8 s of processor time; the Python count
#: of n = 12 about 0.25 s, of n = 13 about 1.4 s).
PYTHON_UP_TO = 12
#: Placements a kernel call makes at most before it returns to Python (a few hundredths of a second), so a
#: lazy iteration, Ctrl-C and deadlines stay responsive.
STEPS_PER_CALL = 1 << 24
#: The most prefixes one counting call takes (about eight chunks per core otherwise): at n = 18 a chunk
#: is a fraction of a second, so the running total moves and the cores finish together.
CHUNK_MAX = 64
#: Placements a counting kernel call makes at most before it hands back (about a hundredth of a second):
#: how soon a stopped count's threads stop, and how often the partial counts are up to date.
COUNT_STEPS_PER_CALL = 1 << 22
#: Seconds between two reports of a count's running total while its chunks are counted.
REPORT_SECONDS = 0.1


def use_compiled(n: int, compiled: bool | None) -> bool:
    """Whether the compiled kernels run for an n-row board: ``compiled`` True (or a one-line
    :class:`InputError` saying why they cannot), False, or None (compiled when numba is there, the board fits
    and n is above :data:`PYTHON_UP_TO`)."""
    if compiled is not None and not isinstance(compiled, bool):
        raise InputError(f"compiled is True, False or None, not {compiled!r}")
    if compiled is False:
        return False
    if compiled is None:
        return PYTHON_UP_TO < n <= MAX_N and jit_available()
    if not jit_available():
        raise InputError("compiled backtracking needs numba, which is not installed here (or NQUEENS_KIT_NO_JIT "
                         "is set): use compiled=None or False for the Python version")
    if n > MAX_N:
        raise InputError(f"compiled backtracking takes boards of up to {MAX_N} rows, not {n}: use compiled=None "
                         "or False for the Python version")
    return True


# ------------------------------------------------------------------------------------------- counting


def _count_kernel(full: int, cols: Any, left: Any, right: Any, counts: Any, stack: Any, state: Any,
                  max_steps: int) -> bool:
    """``counts[i]``: the boards below the placement ``(cols[i], left[i], right[i])`` of the first rows, by
    Somers' counter made iterative; ``stack`` holds, per row below the prefix, the columns still to try and
    the three masks.  The count goes on from prefix ``state[0]`` at stack depth ``state[1]`` (-1: the prefix
    is not begun) and stops after ``max_steps`` placements, leaving in ``counts[i]`` the boards of the prefix
    found so far and in ``state`` where it stopped; True once every prefix is counted."""
    free_s = stack[0]
    cols_s = stack[1]
    left_s = stack[2]
    right_s = stack[3]
    i = state[0]
    d = state[1]
    steps = 0
    while i < cols.shape[0]:
        if d < 0:  # prefix i begins
            if cols[i] == full:
                counts[i] = 1
                i += 1
                continue
            counts[i] = 0
            d = 0
            cols_s[0], left_s[0], right_s[0] = cols[i], left[i], right[i]
            free_s[0] = full & ~(cols[i] | left[i] | right[i])
        found = counts[i]
        while d >= 0 and steps < max_steps:
            free = free_s[d]
            if free == 0:
                d -= 1
                continue
            steps += 1
            bit = free & -free
            free_s[d] = free ^ bit
            c = cols_s[d] | bit
            if c == full:
                found += 1
                continue
            lf = ((left_s[d] | bit) << 1) & full
            rt = (right_s[d] | bit) >> 1
            f = full & ~(c | lf | rt)
            if f != 0:  # a dead end is never pushed
                d += 1
                cols_s[d], left_s[d], right_s[d], free_s[d] = c, lf, rt, f
        counts[i] = found
        if d >= 0:  # the budget ran out inside prefix i
            state[0] = i
            state[1] = d
            return False
        i += 1
    state[0] = i
    state[1] = -1
    return True


@functools.cache
def _counter() -> Callable[..., None]:
    """The compiled counting kernel (numba imported here), loaded by a first call in this thread."""
    import numpy as np

    kernel = compile_kernel(_count_kernel)
    one = np.ones(1, np.int64)
    kernel(np.int64(1), one, one * 0, one * 0, np.zeros(1, np.int64), np.zeros((4, MAX_N + 1), np.int64),
           np.array([0, -1], np.int64), np.int64(1))
    return kernel


def counter_loaded() -> bool:
    """Whether this process has the compiled counter at hand already."""
    return _counter.cache_info().currsize > 0


def threads() -> int:
    """The processor cores this process may use: the threads a count runs on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def count_prefixes(n: int, prefixes: Sequence[tuple[int, int, int, int]],
                   progress: Callable[[int], None] | None = None, workers: int | None = None) -> int:
    """The weighted sum of the boards below each ``(weight, cols, left, right)`` prefix of an n-row board,
    counted by the compiled kernel on ``workers`` threads (default: every core), chunk by chunk:
    ``progress`` gets the running total (every board counted so far: a lower bound that only grows) after
    each chunk, in order, about every :data:`REPORT_SECONDS` while a chunk is counted, and once more at the
    end.

    The kernel lets go of the interpreter lock, so the threads count at once; each takes the next chunk
    when it is done with one, which shares the work out evenly however unequal the chunks are.  (numba's
    own parallel loops would need a threading layer, and the one a plain install finds, GNU OpenMP, ends
    any process that forks after using it, which the kit does to run a job with a time limit.)  The kernel
    hands back every :data:`COUNT_STEPS_PER_CALL` placements, so a count that is stopped (Ctrl-C, an error)
    ends its threads at once.
    """
    import numpy as np

    kernel = _counter()
    workers = threads() if workers is None else workers
    full = np.int64((1 << n) - 1)
    table = np.array([p[1:] for p in prefixes], dtype=np.int64).reshape(-1, 3).T.copy()
    weights = np.array([p[0] for p in prefixes], dtype=np.int64)
    counts = np.zeros(len(prefixes), np.int64)
    size = min(CHUNK_MAX, max(1, len(prefixes) // (8 * workers)))
    bounds = [(a, min(a + size, len(prefixes))) for a in range(0, len(prefixes), size)]
    stopping: list[bool] = []

    def part(a: int, b: int) -> None:
        stack = np.zeros((4, MAX_N + 1), np.int64)
        state = np.array([0, -1], np.int64)
        budget = np.int64(COUNT_STEPS_PER_CALL)
        while not stopping and not kernel(full, table[0, a:b], table[1, a:b], table[2, a:b], counts[a:b], stack,
                                          state, budget):
            pass

    def counted() -> int:  # the boards counted so far, in whole prefixes or in part: all of them are boards
        return int(np.dot(weights, counts)) if len(counts) else 0

    total = 0
    pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="nqueens-count")
    try:
        futures = [pool.submit(part, a, b) for a, b in bounds]  # taken in this order by whichever is free
        for future in futures:
            while True:
                try:
                    future.result(timeout=REPORT_SECONDS)
                    break
                except FutureTimeout:
                    now = counted()
                    if progress is not None and now > total:
                        total = now
                        progress(total)
            total = counted()
            if progress is not None:
                progress(total)
    finally:  # Ctrl-C or an error: the chunks not started are dropped, the running ones stop at once
        stopping.append(True)
        pool.shutdown(wait=True, cancel_futures=True)
    total = counted()
    if progress is not None and not prefixes:
        progress(total)
    return total


# ------------------------------------------------------------------------------------------- iterating


def _search_kernel(n: int, full: int, closed: Any, allowed: Any, free_s: Any, cols_s: Any, left_s: Any,
                   right_s: Any, bits: Any, state: Any, out: Any, max_steps: int) -> int:
    """Go on with the search whose stack is ``free_s``, ``cols_s``, ``left_s``, ``right_s`` (per row, 0-based)
    and ``bits`` (each row's queen), at row ``state[0]`` (-1: finished) after ``state[1]`` placements; write
    the next boards (1-based columns) into the rows of ``out`` until it is full or ``state[1]`` reaches
    ``max_steps``; return how many.  The same steps, in the same order, as :func:`.backtrack._search`:
    ``closed[r]`` are row r's blocked columns, ``allowed[r]`` its pre-placed queen (or every column)."""
    found = 0
    d = state[0]
    steps = state[1]
    while d >= 0:
        free = free_s[d]
        if free == 0:
            d -= 1  # the row above tries its next column
            continue
        if steps == max_steps:
            break
        steps += 1
        bit = free & -free
        free_s[d] = free ^ bit
        bits[d] = bit
        if d == n - 1:
            for r in range(n):
                b = bits[r]
                c = 1
                while b > 1:
                    b >>= 1
                    c += 1
                out[found, r] = c
            found += 1
            if found == out.shape[0]:
                break
            continue
        c2 = cols_s[d] | bit
        lf = ((left_s[d] | bit) << 1) & full
        rt = (right_s[d] | bit) >> 1
        d += 1
        cols_s[d], left_s[d], right_s[d] = c2, lf, rt
        free_s[d] = full & ~(c2 | lf | rt | closed[d]) & allowed[d]
    state[0] = d
    state[1] = steps
    return found


@functools.cache
def _searcher() -> Callable[..., int]:
    """The compiled search kernel (numba imported here)."""
    return compile_kernel(_search_kernel)


def kernel_loaded() -> bool:
    """Whether this process has the compiled search at hand already (then even a short budget pays for it)."""
    return _searcher.cache_info().currsize > 0


def compiled_boards(problem: Problem, max_steps: int | None = None,
                    kernel: Callable[..., int] | None = None) -> Iterator[Board | None]:
    """Every board of ``problem`` in lexicographic order of columns, found by the compiled search in batches
    (the first batch is one board: a solve asks for no more).  With ``max_steps``, the search stops after
    that many placements, yielding None if boards may remain.  ``kernel`` runs instead of the compiled one
    (the tests run the kernel as Python)."""
    import numpy as np

    n = problem.n
    run = kernel if kernel is not None else _searcher()
    full = (1 << n) - 1
    closed = np.zeros(n, np.int64)
    for r, c in problem.blocked:
        closed[r - 1] |= 1 << (c - 1)
    allowed = np.full(n, full, np.int64)
    for r, c in problem.preplaced:
        allowed[r - 1] = 1 << (c - 1)
    free_s, cols_s, left_s, right_s, bits = (np.zeros(n, np.int64) for _ in range(5))
    free_s[0] = full & ~int(closed[0]) & int(allowed[0])
    state = np.zeros(2, np.int64)  # the row being chosen (-1: finished), placements so far
    batch = 1
    rows = range(1, n + 1)
    while state[0] >= 0:
        limit = int(state[1]) + STEPS_PER_CALL
        if max_steps is not None:
            limit = min(limit, max_steps)
        out = np.zeros((batch, n), np.int32)
        found = run(n, np.int64(full), closed, allowed, free_s, cols_s, left_s, right_s, bits, state, out,
                    np.int64(limit))
        for columns in out[:found].tolist():
            yield tuple(zip(rows, columns, strict=True))
        if max_steps is not None and state[0] >= 0 and state[1] >= max_steps and found < len(out):
            yield None  # stopped by the budget, with placements left to make
            return
        batch = min(4 * batch, 4096)
