"""The course's speed comparisons, measured live: every method at the speed of the machine.

The chapters compare methods by processor time, so a comparison is fair only when each method runs as
compiled code.  These helpers time the counters and the one-board methods of chapters 5, 7 and 8 side by
side, in this process, and check every count against the published one:

- :func:`count_speeds`: counting the boards of one ``n`` three ways: bitmask backtracking compiled by numba
  (on every core), the same search in readable Python, and the kit's SAT count;
- :func:`board_speeds`: one board of a large ``n`` by the explicit construction and by min-conflicts, compiled
  and in Python, each verified;
- :func:`recorded_runner`: whether a stored run's search ran compiled, from its record.

Where numba cannot run (the browser edition, or ``NQUEENS_KIT_NO_JIT=1``) only the Python versions run, and
:func:`compiled_missing` says why in one line.  The clock is the processor's (all threads of this process);
a browser has only a wall clock.

>>> speeds = count_speeds(6, repeat=1)
>>> speeds.python.count, speeds.sat.count
(4, 4)
"""

from __future__ import annotations

import inspect
import os
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from ..methods import Choice, get_method
from ..methods.search.backtrack import count_backtrack
from ..methods.verbs import count
from ..problem.board import Problem, verify
from ..problem.reference import published_count
from ..runtime.browser import IN_BROWSER
from ..runtime.jit import NO_JIT, jit_available, jit_name


def clock_name() -> str:
    """What the clock measures: ``processor`` time of all this process's threads, or ``wall`` in a browser,
    whose Python has no processor clock."""
    return "wall" if IN_BROWSER else "processor"


def _clock() -> float:
    return time.perf_counter() if IN_BROWSER else time.process_time()


def compiled_missing() -> str | None:
    """None when the compiled backtracker runs here, else one line saying why it does not."""
    if not jit_available():
        if IN_BROWSER:
            return "no numba in the browser: only the Python backtracker runs here"
        if os.environ.get(NO_JIT, "").strip() not in ("", "0"):
            return f"{NO_JIT} is set: only the Python backtracker runs here"
        return "numba is not installed here: only the Python backtracker runs"
    if "compiled" not in inspect.signature(count_backtrack).parameters:
        return "this version of the kit has no compiled backtracker: only the Python one runs"
    return None


def compiled_from() -> int | None:
    """The smallest n whose count runs compiled by default (below it the Python count finishes before numba
    would have loaded), or None where no count runs compiled."""
    if compiled_missing() is not None:
        return None
    from ..methods.search.backtrack_jit import MAX_N, use_compiled

    return next((n for n in range(1, MAX_N + 1) if use_compiled(n, None)), None)


@dataclass(frozen=True)
class Timed:
    """One way of doing one job: what ran, what it found (a count, or the board's size), and its time."""

    label: str
    found: int
    seconds: float  # the best of the repeats, on :func:`clock_name`

    @property
    def count(self) -> int:
        return self.found


@dataclass(frozen=True)
class CountSpeeds:
    """:func:`count_speeds`' answer.  ``compiled`` is None where numba does not run (``missing`` says why);
    ``first_call`` is the wall time of the first compiled count in this process (it compiles the kernels on
    a fresh machine, or loads them from numba's cache)."""

    n: int
    compiled: Timed | None
    python: Timed
    sat: Timed
    missing: str | None
    first_call: float | None

    def ratio(self, slower: Timed, faster: Timed) -> float:
        """How many times ``faster``'s time ``slower`` needs."""
        return slower.seconds / max(faster.seconds, 1e-9)

    def lines(self) -> list[str]:
        """The table the chapters print: each counter's time, boards per second, and its ratio."""
        rows = [timed for timed in (self.compiled, self.python, self.sat) if timed is not None]
        base = self.compiled or self.python
        out = [f"count n = {self.n} ({published_count(self.n):,} boards), {clock_name()} time, best of the repeats, "
               "this machine, now:"]
        for timed in rows:
            out.append(f"  {timed.label:44} {timed.seconds * 1000:9.2f} ms  {self.ratio(timed, base):8.1f} x "
                       f"the {'compiled' if base is self.compiled else 'Python'} backtracker")
        if self.missing:
            out.append(f"  ({self.missing})")
        if self.first_call is not None:
            out.append(f"  first compiled count in this process: {self.first_call:.2f} s of wall time "
                       "(numba compiles on a machine's first run, loads from its cache afterwards)")
        return out


#: A job quicker than this runs again within its round (up to :data:`QUICK_RUNS` times), the best time kept:
#: a compiled count of a few milliseconds is otherwise at the mercy of one late thread on a busy machine.
QUICK_SECONDS = 0.05
QUICK_RUNS = 10


def _best(job: Callable[[], int]) -> tuple[int, float]:
    found, best, spent, runs = 0, float("inf"), 0.0, 0
    while runs == 0 or (spent < QUICK_SECONDS and runs < QUICK_RUNS):
        start = _clock()
        found = job()
        seconds = _clock() - start
        best, spent, runs = min(best, seconds), spent + seconds, runs + 1
    return found, best


def _checked(label: str, n: int, found: int) -> int:
    if found != published_count(n):
        raise RuntimeError(f"{label} counted {found:,} boards for n = {n}, not the published {published_count(n):,}")
    return found


def count_speeds(n: int, repeat: int = 3, sat: Choice | None = None) -> CountSpeeds:
    """Count the boards of ``n`` by the compiled backtracker (where numba runs), the Python backtracker and
    SAT (``sat``, by default the SAT method's default configuration), ``repeat`` rounds, interleaved (a job
    quicker than :data:`QUICK_SECONDS` a few times per round); the best time of each (the same work every
    time: a busy machine only adds).  Every count is checked
    against the published one (a RuntimeError if one differs)."""
    sat = sat or get_method("sat").choose()
    missing = compiled_missing()
    first_call = None
    jobs: dict[str, Callable[[], int]] = {}
    if missing is None:
        from ..methods.search.backtrack_jit import threads

        start = time.perf_counter()
        count_backtrack(n, compiled=True)  # compiles or loads the kernels (a count of n is quick compiled)
        first_call = time.perf_counter() - start
        jobs[f"backtracking, compiled ({jit_name()}, {threads()} threads)"] = \
            lambda: count_backtrack(n, compiled=True)
        jobs["backtracking, the same search in Python"] = lambda: count_backtrack(n, compiled=False)
    else:
        jobs["backtracking in Python"] = lambda: count_backtrack(n)
    jobs[f"{sat.label} (a solver call per board)"] = lambda: count(
        n, sat.method, sat.variant, sat.solver, isolated=False).count
    best = {label: (0, float("inf")) for label in jobs}
    for _ in range(repeat):  # interleaved: a burst of other work falls on all of them alike
        for label, job in jobs.items():
            found, seconds = _best(job)
            best[label] = (_checked(label, n, found), min(seconds, best[label][1]))
    timed = [Timed(label, found, seconds) for label, (found, seconds) in best.items()]
    compiled = timed[0] if missing is None else None
    return CountSpeeds(n, compiled, timed[-2], timed[-1], missing, first_call)


def recorded_runner(record: Mapping[str, Any], row: Mapping[str, Any] | None = None) -> str:
    """How a stored run's search ran (``record``: a stored result with its ``environment``): the row's own
    ``runner`` (or, for a record of one run, its ``runs``) where it has one, else the environment's packages
    when the row was made in the run they describe (its ``created`` time), else the Python search (the
    record then predates the compiled one)."""
    said = row.get("runner") if row is not None else record.get("runs")  # what jit_name() said then
    if said:
        runner = str(said)
        return f"compiled ({runner})" if runner.startswith("numba") else "in Python" if runner == "Python" else runner
    environment = record.get("environment") or {}
    packages = environment.get("packages") or {}
    if row is None or row.get("created") in (None, environment.get("created")):
        if packages.get("numba"):
            return f"compiled (numba {packages['numba']})"
        if "numba" in packages:
            return "in Python (numba did not run)"
    return "in Python (its record names no numba: it was made before the kit compiled its search)"


@contextmanager
def _python_only() -> Iterator[None]:
    """Turn the compiled kernels off for the block (what ``NQUEENS_KIT_NO_JIT=1`` does for a whole run)."""
    before = os.environ.get(NO_JIT)
    os.environ[NO_JIT] = "1"
    try:
        yield
    finally:
        if before is None:
            del os.environ[NO_JIT]
        else:
            os.environ[NO_JIT] = before


@dataclass(frozen=True)
class BoardSpeeds:
    """:func:`board_speeds`' answer: one verified board of ``n`` per way, with the search's own counters."""

    n: int
    construct: Timed
    compiled: Timed | None
    python: Timed | None
    steps: dict[str, int]
    first_call: float | None = None  # wall time of the first compiled run in this process (a small board)

    def lines(self) -> list[str]:
        """The table the chapter prints."""
        out = [f"one board of n = {self.n:,}, {clock_name()} time of the method (verification apart), "
               "this machine, now:"]
        for timed in (self.construct, self.compiled, self.python):
            if timed is not None:
                out.append(f"  {timed.label:44} {timed.seconds * 1000:9.2f} ms  "
                           f"{timed.seconds / max(self.construct.seconds, 1e-9):7.1f} x the construction")
        if self.first_call is not None and self.first_call >= LOADED:  # else loaded earlier in this process
            out.append(f"  first compiled run in this process: {self.first_call:.2f} s of wall time "
                       "(numba compiles on a machine's first run, loads from its cache afterwards)")
        return out


def _one_board(label: str, method: str, n: int) -> tuple[Timed, dict[str, int]]:
    """One verified board of ``n`` by ``method``, timed around the method alone (the verbs would verify too)."""
    chosen = get_method(method)
    problem, choice = Problem(n), chosen.choose()
    start = _clock()
    result = chosen.solve_here(problem, choice, None)
    seconds = _clock() - start
    if result.queens is None or not verify(n, result.queens):
        raise RuntimeError(f"{label} gave no verified board of n = {n}")
    return Timed(label, n, seconds), {k: int(v) for k, v in result.stats.items() if isinstance(v, int)}


#: A first compiled run quicker than this found its kernels loaded already (by an earlier run in this process).
LOADED = 0.05


def local_search_compiled(n: int) -> bool:
    """Whether min-conflicts runs compiled for an empty board of ``n`` here (small boards run in Python,
    which is done before numba would have loaded)."""
    from ..methods.search import local_search

    decide = getattr(local_search, "compiled", None)
    return bool(decide(Problem(n))) if decide is not None else False


def compiled_sizes() -> int | None:
    """The smallest empty board whose min-conflicts runs compiled here, or None."""
    from ..methods.search import local_search

    least = getattr(local_search, "COMPILED_FROM", 1)
    return least if local_search_compiled(least) else None


def load_compiled(counting: bool = False) -> float | None:
    """Load the compiled kernels of min-conflicts (or, with ``counting``, of the backtracking counter) with one
    small run, before anything is timed: the wall seconds it took (numba compiles on a machine's first run and
    loads from its cache afterwards), or None where nothing runs compiled."""
    if not jit_available():
        return None
    if counting:
        if compiled_missing():
            return None
        start = time.perf_counter()
        count_backtrack(8, compiled=True)
        return time.perf_counter() - start
    least = compiled_sizes()
    if not least:
        return None
    start = time.perf_counter()
    _one_board("min-conflicts", "local-search", least)
    return time.perf_counter() - start


def board_speeds(n: int, python: bool = True) -> BoardSpeeds:
    """One board of ``n`` by the construction and by min-conflicts: compiled where it runs compiled for ``n``
    (:func:`local_search_compiled`), and in Python when ``python`` or when it does not.  Each board is
    verified by the kit's :func:`verify` (a RuntimeError if not); the time of each is the method's alone, on
    :func:`clock_name`, in this process (verification apart)."""
    construct, _ = _one_board("construction (explicit formula)", "construct", n)
    compiled = python_run = first_call = None
    steps: dict[str, int] = {}
    if local_search_compiled(n):
        first_call = load_compiled()  # not part of the search's time
        compiled, stats = _one_board(f"min-conflicts, compiled ({jit_name()})", "local-search", n)
        steps["compiled"] = stats.get("steps", 0)
    if python or compiled is None:
        with _python_only():
            python_run, stats = _one_board("min-conflicts in Python", "local-search", n)
        steps["python"] = stats.get("steps", 0)
    return BoardSpeeds(n, construct, compiled, python_run, steps, first_call)
