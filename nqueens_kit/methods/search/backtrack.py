"""Bitmask backtracking: the standard bit-parallel search, row by row, with no solver.

- :func:`iter_backtrack`: every solution in lexicographic order of columns (free columns and both diagonal
  directions as bit masks; pre-placed queens and blocked cells restrict each row's free columns);
- :func:`count_backtrack`: the count of the bare problem, using the left-right mirror (first-row queens in
  the left half count twice) and the same masks; the ground truth the SAT and ILP counts are tested against
  and the baseline of the benchmarks;
- :class:`BacktrackMethod`: the method (solve, count, iterate; pre-placed queens, blocked cells, and symmetry
  breaking by keeping the canonical board of every orbit).

The functions here are the readable version (the course reads it; the browser runs it).  Where numba is
installed, the same algorithms run compiled (:mod:`.backtrack_jit`, counts on every core): ``compiled=None``
(the default) picks them for boards of more than :data:`~.backtrack_jit.PYTHON_UP_TO` rows, False keeps the
Python, True insists on the compiled kernels.  Both give the same counts and the boards in the same order.

>>> count_backtrack(8), count_backtrack(8, fundamental=True)
(92, 12)
>>> next(iter_backtrack(Problem(5, blocked=[(1, 1)])))
((1, 2), (2, 4), (3, 1), (4, 3), (5, 5))
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

from ...problem.board import Board, Cell, Problem, canonical, from_columns, parse_n
from ...problem.results import SolveResult, Status
from ...runtime import isolate
from ...runtime.jit import jit_available, jit_name
from ...runtime.limits import Size, deadline
from ..base import Choice, Method, check_callback, check_flag, infeasible_message
from . import backtrack_jit as jit
from .backtrack_jit import MAX_N as COMPILED_MAX_N
from .backtrack_jit import PYTHON_UP_TO, use_compiled

#: Backtracking finds the first board of every n up to this in seconds (measured, compiled, on a busy 2-core
#: machine: n = 30 in 1 s, 33 in 2.6 s, 34 in 16 s, 35 in 1.9 s); beyond, the time jumps with n and grows
#: exponentially (n = 36 not in 100 s, 37 in 13 s, none of 38, 40, 44, 48, 60, 100, 1000 in 20 s).
SOLVE_SURE_UP_TO = 35
#: The time limit (seconds) a backtracking solve above :data:`SOLVE_SURE_UP_TO` runs with when none is given.
SOLVE_DEFAULT_LIMIT = 60.0


def solve_limit(problem: Problem, limit: float | None) -> tuple[float | None, str | None]:
    """``(limit, warning)`` for a backtracking solve of ``problem``: above :data:`SOLVE_SURE_UP_TO` with no
    limit given, the search cannot be expected to finish, so it runs with :data:`SOLVE_DEFAULT_LIMIT` and a
    one-line warning says so; otherwise the limit as given and no warning.

    >>> solve_limit(Problem(8), None)
    (None, None)
    >>> solve_limit(Problem(100), None)[0]
    60.0
    """
    if problem.n <= SOLVE_SURE_UP_TO or limit is not None:
        return limit, None
    return SOLVE_DEFAULT_LIMIT, (
        f"backtracking finds a first board in seconds only up to n = {SOLVE_SURE_UP_TO}, and its search grows "
        f"exponentially beyond: {problem.n}-queens stops after {SOLVE_DEFAULT_LIMIT:g} s (--time-limit S to "
        "change that; --method construct or local-search finds one board of any size)")


#: Progress is reported for every finished subtree of this many last rows.
REPORT_ROWS = 12
#: A count's running total goes to the parent at most this often (the first at once).
REPORT_SECONDS = 0.1
#: The Python counter that runs while the compiled one loads checks every this many placements whether it has.
LOAD_CHECK = 4096
#: Up to this n the counter recurses (Python's recursion limit is 1000 frames); above, it iterates.
RECURSION_SAFE = 400


class BacktrackMethod(Method):
    name = "backtrack"
    title = "backtracking"
    summary = "bitmask backtracking row by row, no solver"
    verbs = frozenset({"solve", "count", "iterate"})
    features = frozenset({"preplaced", "blocked", "break_symmetry"})
    linestyle = "-."
    colours = {None: "#666666"}
    interruptible = True
    # boards per second of a count on a 2-core machine (n = 15 to 17): compiled on both cores, or in Python
    count_rate = 4_000_000.0 if jit_available() else 110_000.0

    def describe(self, choice: Choice) -> str:
        if jit_available():
            return f"bitmask backtracking, compiled by {jit_name()} (in Python up to n = {PYTHON_UP_TO} and " \
                   f"beyond n = {COMPILED_MAX_N})"
        return "bitmask backtracking, in Python"

    def size(self, problem: Problem, choice: Choice) -> Size:
        """The search keeps one row's bit masks (three n-bit integers and a candidate set) per row on its
        stack: about n²/2 bytes at full depth."""
        n = problem.n
        return Size(n, memory=n * n // 2 + 200 * n)

    def size_advice(self, problem: Problem, choice: Choice) -> str:
        return "use a smaller n (bitmask backtracking finds first boards quickly only up to n of about 30), or " \
               "--method construct or local-search for one board of any size"

    def solve_limit(self, problem: Problem, limit: float | None) -> tuple[float | None, str | None]:
        """The limit a solve of ``problem`` runs with, and a warning (the command line asks): see
        :func:`solve_limit`."""
        return solve_limit(problem, limit)

    def solve_here(self, problem: Problem, choice: Choice, deadline: float | None) -> SolveResult:
        start = time.perf_counter()
        board = next(self.iter_boards(problem, choice), None)
        seconds = time.perf_counter() - start
        if board is None:
            return SolveResult.of(problem, self.name, Status.INFEASIBLE, solve_seconds=seconds,
                                  message=infeasible_message(problem))
        return SolveResult.of(problem, self.name, Status.SOLVED, queens=board, solve_seconds=seconds)

    def iter_boards(self, problem: Problem, choice: Choice) -> Iterator[Board]:
        boards = iter_backtrack(problem)
        if problem.break_symmetry:  # the canonical board of each orbit, as lex-leader constraints keep
            return (board for board in boards if canonical(problem.n, board) == board)
        return boards

    def count_here(self, problem: Problem, choice: Choice, fundamental: bool) -> tuple[int, int | None]:
        if not problem.plain or fundamental:
            return super().count_here(problem, choice, fundamental)
        last = [-REPORT_SECONDS]

        def progress(total: int) -> None:
            if time.monotonic() - last[0] >= REPORT_SECONDS:
                isolate.report((total, None))
                last[0] = time.monotonic()

        return count_backtrack(problem.n, progress=progress), None


#: The search says it is still alive (a None) every this many placements, so a budget can stop it.
TICK = 4096


def _search(problem: Problem) -> Iterator[Board | None]:
    """Every board of ``problem`` in lexicographic order of columns (pre-placed queens and blocked cells
    restrict each row's free columns), with a None after every :data:`TICK` placements (iterative: any n)."""
    n = problem.n
    fixed = dict(problem.preplaced)
    full = (1 << n) - 1
    closed: dict[int, int] = {}
    for r, c in problem.blocked:
        closed[r] = closed.get(r, 0) | (1 << (c - 1))
    columns: list[int] = []
    # per row on the stack: the columns still to try, and the masks the row was entered with
    stack: list[tuple[int, int, int, int]] = []

    def free_in(row: int, cols: int, left: int, right: int) -> int:
        free = full & ~(cols | left | right | closed.get(row, 0))
        return free & (1 << (fixed[row] - 1)) if row in fixed else free

    steps = 0
    stack.append((free_in(1, 0, 0, 0), 0, 0, 0))
    while stack:  # choosing the queen of row len(stack); columns holds the rows above it
        free, cols, left, right = stack[-1]
        if not free:
            stack.pop()
            if columns:
                columns.pop()  # the row above tries its next column
            continue
        steps += 1
        if steps % TICK == 0:
            yield None
        bit = free & -free
        stack[-1] = (free ^ bit, cols, left, right)
        row = len(stack)
        if row == n:
            yield from_columns([*columns, bit.bit_length()])
            continue
        columns.append(bit.bit_length())
        ncols, nleft, nright = cols | bit, ((left | bit) << 1) & full, (right | bit) >> 1
        stack.append((free_in(row + 1, ncols, nleft, nright), ncols, nleft, nright))


def iter_backtrack(n: int | Problem, preplaced: tuple[Cell, ...] = (), compiled: bool | None = None) -> Iterator[Board]:
    """Every solution by backtracking, row by row, in lexicographic order of columns (iterative: any n).
    A :class:`Problem` brings its pre-placed queens and blocked cells (its symmetry is the method's affair).
    ``compiled``: the numba kernel of the same search (None: where it pays, see the module's text)."""
    problem = n if isinstance(n, Problem) else Problem(n, preplaced)
    if use_compiled(problem.n, compiled):
        return (board for board in jit.compiled_boards(problem) if board is not None)
    return (board for board in _search(problem) if board is not None)


def search_budgeted(problem: Problem, max_steps: int, count: bool = False,
                    compiled: bool | None = None) -> tuple[int, Board | None, bool]:
    """Independent backtracking with a budget of about ``max_steps`` placements: ``(boards found, the first
    board, finished)``; with ``count`` it goes on past the first board.  Symmetry breaking keeps only
    canonical boards.  What the verbs use to check another method's "no" and its counts (the search of
    :func:`iter_backtrack`, which shares no code with any encoder or solver).  ``compiled``: the numba kernel
    of the same search, which stops at the same placement (None: only if this process has loaded it already,
    since a budget of a fraction of a second in Python is less than numba's start).

    >>> search_budgeted(Problem(3), 1000)[0::2], search_budgeted(Problem(6), 10_000, count=True)[0]
    ((0, True), 4)
    """
    found, first, ticks = 0, None, 0
    boards = _search(problem)
    if use_compiled(problem.n, compiled) and (compiled or jit.kernel_loaded()):
        # the Python search stops on its first tick past the budget, before that tick's placement
        boards = jit.compiled_boards(problem, max_steps=TICK * (max_steps // TICK + 1) - 1)
        ticks = max_steps // TICK  # its one None is the tick that ends the search
    for board in boards:
        if board is None:
            ticks += 1
            if ticks * TICK > max_steps:
                return found, first, False
            continue
        if problem.break_symmetry and canonical(problem.n, board) != board:
            continue
        found += 1
        first = first or board
        if not count:
            return found, first, True
    return found, first, True


def count_backtrack(n: int, fundamental: bool = False, progress: Callable[[int], None] | None = None,
                    compiled: bool | None = None) -> int:
    """Number of solutions (or fundamental solutions) by bitmask backtracking.

    Counting all solutions uses the left-right mirror: first-row queens in the left half count twice.  The
    search is split on the first rows, and ``progress`` (if given) gets the running count after each part.
    ``compiled``: the numba kernel of the same counter, the parts shared out to every core (None: where it
    pays, see the module's text).
    """
    n = parse_n(n)
    check_flag(fundamental, "fundamental")
    check_callback(progress, "progress")
    on = use_compiled(n, compiled)
    if fundamental:
        return len({canonical(n, board) for board in iter_backtrack(n, compiled=on)})
    if on:
        # more, smaller parts than the Python split: the cores share them out evenly
        prefixes = list(_prefixes(n, 2 if n < 12 else 3 if n < 16 else 4))
        if deadline() is None:
            return jit.count_prefixes(n, prefixes, progress)
        shown = [0]

        def at_least(boards: int) -> None:  # every total said stays true: a lower bound only grows
            if progress is not None and boards >= shown[0]:
                shown[0] = boards
                progress(boards)

        done, total = _count_while_loading(n, prefixes, at_least)
        if done == len(prefixes):
            return total
        return total + jit.count_prefixes(n, prefixes[done:], lambda more: at_least(total + more))
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


def _count_while_loading(n: int, prefixes: list[tuple[int, int, int, int]],
                         progress: Callable[[int], None] | None) -> tuple[int, int]:
    """Under a deadline (a count with a time limit), while the compiled counter loads (numba's import and the
    cached kernel: seconds on a busy machine) in a thread, count the first prefixes in Python, so that a count
    stopped early still has a lower bound; ``(prefixes counted, their boards)``.  The prefix the Python is in
    when the kernel is ready is left to the kernel whole."""
    if jit.counter_loaded():
        return 0, 0
    import threading

    loaded = threading.Event()

    def load() -> None:
        try:
            jit._counter()
        finally:
            loaded.set()

    threading.Thread(target=load, name="nqueens-load", daemon=True).start()
    full = (1 << n) - 1
    done = total = 0
    while done < len(prefixes) and not loaded.is_set():
        weight, cols, left, right = prefixes[done]

        def partial(found: int, weight: int = weight, base: int = total) -> bool:  # this prefix's boards so far
            if progress is not None:
                progress(base + weight * found)
            return loaded.is_set()

        found = _count_below(full, cols, left, right, partial)
        if found is None:
            break
        total += weight * found
        done += 1
        if progress is not None:
            progress(total)
    if done == len(prefixes):
        return done, total
    loaded.wait()
    return done, total


def _count_below(full: int, cols: int, left: int, right: int, stop: Callable[[int], bool]) -> int | None:
    """The boards below one placement of the first rows (iterative, Somers' counter as the kernel runs it);
    None if ``stop(boards so far)`` turns True first (asked every :data:`LOAD_CHECK` placements)."""
    if cols == full:
        return 1
    found = steps = 0
    stack = [(full & ~(cols | left | right), cols, left, right)]
    while stack:
        free, c, lf, rt = stack[-1]
        if not free:
            stack.pop()
            continue
        steps += 1
        if steps % LOAD_CHECK == 0 and stop(found):
            return None
        bit = free & -free
        stack[-1] = (free ^ bit, c, lf, rt)
        c |= bit
        if c == full:
            found += 1
            continue
        lf, rt = ((lf | bit) << 1) & full, (rt | bit) >> 1
        free = full & ~(c | lf | rt)
        if free:
            stack.append((free, c, lf, rt))
    return found


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
