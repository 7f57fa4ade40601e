"""Counting by SAT against the bitmask backtracking counter, as ratios measured in the same run.

    python benchmarks/bench_count.py                  # n = 12 and 13, median of 3 runs, then count 14
    python benchmarks/bench_count.py --quick          # one run each
    python benchmarks/bench_count.py --sizes 12 --solvers pycosat,pysat-minisat --no-14

Each row times one SAT method's ``count_here`` (the work of ``nqueens-kit count N --method sat``, in this
process) for one encoding and solver, and the backtracking method's ``count_here`` right before it, so a
busy machine slows both alike; the ratio is the median SAT time over the median backtracking time of that
row, in processor seconds of this process (what other work on a shared machine disturbs least; the
wall-clock ratio is printed beside it).  Every count is checked against the published count (OEIS A000170).

Goals: every encoding within 5x and the best configuration within 1.5x of backtracking in Python at n = 12
and 13, and ``count 14`` by SAT (the best configuration at n = 13) within a minute.  Backtracking now runs
compiled (numba, both cores) from n = 13: each SAT row prints its ratio to both backtrackers.

The machine's speed (``--anchor``, on by default): a C bitmask counter (benchmarks/anchors/queens_count.c,
Somers' algorithm with the half-board symmetry, ``cc -O2``, compiled here when a C compiler is on PATH)
against the kit's compiled backtracking (in this process: processor time of all threads; and as the
command ``nqueens-kit count N --method backtrack``: the child's processor time, start-up included), the
kit's Python backtracking and the default SAT count, each as a ratio to the C counter's processor time,
medians of 3 interleaved runs; then the counting frontier: the largest n the compiled count finishes
within 60 s.  Goals: within 2x the C counter at n = 14 and 15 (in process), the frontier at n >= 17.

How SAT gets there (:mod:`nqueens_kit.methods.sat.solve`): the bare problem is split on its border queens,
one configuration per orbit under the 8 symmetries of the square, so about one board in 8 is found by the
solver and counted for its orbit's share; python-sat keeps one solver per pair of row queens and fixes the
column queens by assumptions.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from nqueens_kit.methods.base import get_method
from nqueens_kit.methods.sat.encodings import ENCODINGS
from nqueens_kit.methods.search.backtrack import count_backtrack
from nqueens_kit.problem.board import Problem
from nqueens_kit.problem.reference import published_count
from nqueens_kit.runtime.jit import jit_available
from nqueens_kit.solvers import SAT_SOLVERS

DEFAULT_SOLVERS = ("pycosat", "pysat-minisat", "pysat-cadical", "pysat-glucose")
EVERY_ENCODING_GOAL = 5.0
BEST_GOAL = 1.5
COUNT_14_SECONDS = 60.0
ANCHOR_GOAL = 2.0
FRONTIER_SECONDS = 60.0
FRONTIER_GOAL = 17
ANCHOR = Path(__file__).parent / "anchors" / "queens_count.c"
CLI = [sys.executable, "-m", "nqueens_kit"]


def compile_anchor(folder: str) -> str | None:
    """The C counter compiled with ``cc -O2`` into ``folder``; None (said) without a C compiler."""
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        print("no C compiler on PATH: the C anchor is skipped")
        return None
    program = os.path.join(folder, "queens_count")
    subprocess.run([cc, "-O2", "-o", program, str(ANCHOR)], check=True)
    return program


def child_cpu(command: list[str], n: int, timeout: float | None = None) -> tuple[float, float] | None:
    """``(processor s, wall s)`` of a child that prints the count of n (checked); None after ``timeout``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall = time.perf_counter()
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=True)
    except subprocess.TimeoutExpired:
        return None
    wall = time.perf_counter() - wall
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if f"{published_count(n):,}" not in done.stdout and str(published_count(n)) not in done.stdout.split():
        sys.exit(f"{' '.join(command)} printed {done.stdout!r}, not the count {published_count(n):,}")
    return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, wall


def in_process(job: Callable[[], int], n: int) -> float:
    """Processor seconds (every thread of this process) of one count, checked."""
    cpu = time.process_time()
    total = job()
    cpu = time.process_time() - cpu
    if total != published_count(n):
        sys.exit(f"counted {total:,} boards of {n}-queens, not {published_count(n):,}")
    return cpu


def anchor_rows(program: str, runs: int, full: bool) -> bool:
    """The kit's counts against the C counter: ratios of processor time, medians of ``runs`` interleaved."""
    count_backtrack(8, compiled=True)  # numba loads its kernels once, before the clock
    jobs: dict[tuple[str, int], Callable[[], float]] = {}
    for n in (14, 15):
        jobs["C counter (cc -O2)", n] = lambda n=n: child_cpu([program, str(n)], n)[0]  # type: ignore[index]
        jobs["compiled backtracking, in process", n] = \
            lambda n=n: in_process(lambda: count_backtrack(n, compiled=True), n)
        jobs["compiled backtracking, the command", n] = \
            lambda n=n: child_cpu([*CLI, "count", str(n), "--method", "backtrack"], n)[0]  # type: ignore[index]
    for n in (14, 15) if full else (14,):
        jobs["Python backtracking", n] = lambda n=n: in_process(lambda: count_backtrack(n, compiled=False), n)
    for n in (12, 13, 14) if full else (12, 13):
        jobs["C counter (cc -O2)", n] = lambda n=n: child_cpu([program, str(n)], n)[0]  # type: ignore[index]
        jobs["SAT count (default)", n] = lambda n=n: timed_count("sat", n)[0]
    times: dict[tuple[str, int], list[float]] = {key: [] for key in jobs}
    for _ in range(runs):
        for key, job in jobs.items():
            times[key].append(job())
    ok = True
    print(f"\n{'job':<36} {'n':>3} {'CPU s':>8} {'x C':>7}   (load {os.getloadavg()[0]:.2f})")
    for (what, n), spent in sorted(times.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        median = statistics.median(spent)
        ratio = median / max(statistics.median(times["C counter (cc -O2)", n]), 1e-3)
        flag = ""
        if what == "compiled backtracking, in process":
            met = ratio <= ANCHOR_GOAL
            ok &= met
            flag = f"  ({'within' if met else 'above'} {ANCHOR_GOAL:g}x)"
        print(f"{what:<36} {n:>3} {median:>8.3f} {ratio:>7.2f}{flag}", flush=True)
    return ok


def frontier(limit: int = 30) -> int:
    """The largest n whose compiled count (the command) finishes within :data:`FRONTIER_SECONDS` of wall time."""
    best = 15
    for n in range(16, limit):
        measured = child_cpu([*CLI, "count", str(n), "--method", "backtrack"], n, timeout=FRONTIER_SECONDS)
        if measured is None:
            print(f"count {n}: over {FRONTIER_SECONDS:g} s (load {os.getloadavg()[0]:.2f})")
            break
        print(f"count {n}: {measured[1]:.1f} s wall, {measured[0]:.1f} s processor (load {os.getloadavg()[0]:.2f})",
              flush=True)
        best = n
    return best


def timed_count(method: str, n: int, variant: str | None = None, solver: str | None = None) -> tuple[float, float]:
    """``(processor seconds, wall seconds)`` of one in-process count of the bare n-queens, checked against the
    published count."""
    chosen = get_method(method)
    choice = chosen.choose(variant, solver)
    cpu, wall = time.process_time(), time.perf_counter()
    total, _ = chosen.count_here(Problem(n), choice, False)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    if total != published_count(n):
        sys.exit(f"{choice.label} counted {total:,} boards of {n}-queens; the published count is "
                 f"{published_count(n):,}")
    return cpu, wall


def row(n: int, encoding: str, solver: str, runs: int) -> tuple[float, float, float, float]:
    """Medians of Python backtracking, SAT and compiled backtracking, alternating: ``(Python backtracking s,
    SAT s, wall-clock ratio to Python backtracking, compiled backtracking s)``, in processor seconds."""
    backtrack, sat, compiled = [], [], []
    for _ in range(runs):
        backtrack.append(timed_wall(lambda: count_backtrack(n, compiled=False)))
        sat.append(timed_count("sat", n, encoding, solver))
        compiled.append(timed_wall(lambda: count_backtrack(n, compiled=True)))
    wall = statistics.median(w for _, w in sat) / statistics.median(w for _, w in backtrack)
    return (statistics.median(c for c, _ in backtrack), statistics.median(c for c, _ in sat), wall,
            statistics.median(c for c, _ in compiled))


def timed_wall(job: Callable[[], int]) -> tuple[float, float]:
    """``(processor s, wall s)`` of one call."""
    cpu, wall = time.process_time(), time.perf_counter()
    job()
    return time.process_time() - cpu, time.perf_counter() - wall


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="one run per row instead of three")
    parser.add_argument("--sizes", default="12,13", help="board sizes, comma-separated (default 12,13)")
    parser.add_argument("--solvers", default=",".join(DEFAULT_SOLVERS), help="SAT solvers, comma-separated")
    parser.add_argument("--encodings", default=",".join(ENCODINGS), help="encodings, comma-separated")
    parser.add_argument("--no-14", dest="count14", action="store_false", help="skip count 14")
    parser.add_argument("--no-anchor", dest="anchor", action="store_false", help="skip the C counter rows")
    parser.add_argument("--no-frontier", dest="frontier", action="store_false", help="skip the frontier")
    parser.add_argument("--full", action="store_true", help="Python backtracking at 15 and SAT at 14 as well")
    args = parser.parse_args(argv)
    runs = 1 if args.quick else 3
    sizes = [int(s) for s in args.sizes.split(",")]
    solvers = [s for s in args.solvers.split(",") if SAT_SOLVERS[s].available()]
    encodings = args.encodings.split(",")
    ok = True
    best_at: dict[int, tuple[float, str, str]] = {}
    if jit_available():
        count_backtrack(8, compiled=True)  # numba loads its kernels once, before the clock
    print(f"load average {os.getloadavg()[0]:.2f}; backtracking in Python (the 1.5x goal) and compiled (numba)")
    print(f"{'n':>3} {'solver':<15} {'encoding':<11} {'Python bt s':>11} {'SAT s':>8} {'ratio':>6} {'(wall)':>7} "
          f"{'compiled s':>10} {'x compiled':>10}")
    for n in sizes:
        for solver in solvers:
            for encoding in encodings:
                backtrack, sat, wall, compiled = row(n, encoding, solver, runs)
                ratio = sat / backtrack
                flag = "" if ratio <= EVERY_ENCODING_GOAL else f"  above {EVERY_ENCODING_GOAL:g}x"
                ok &= not flag
                print(f"{n:>3} {solver:<15} {encoding:<11} {backtrack:>11.3f} {sat:>8.3f} {ratio:>6.2f} ({wall:>5.2f})"
                      f" {compiled:>10.3f} {sat / max(compiled, 1e-4):>10.1f}{flag}", flush=True)
                if n not in best_at or ratio < best_at[n][0]:
                    best_at[n] = (ratio, encoding, solver)
    for n, (ratio, encoding, solver) in best_at.items():
        met = ratio <= BEST_GOAL
        ok &= met
        print(f"best at n = {n}: {encoding}/{solver} {ratio:.2f}x ({'meets' if met else 'misses'} {BEST_GOAL:g}x)")
    if args.count14 and best_at:
        _ratio, encoding, solver = best_at[max(best_at)]
        backtrack14, _ = timed_count("backtrack", 14)
        sat14, wall14 = timed_count("sat", 14, encoding, solver)
        met = wall14 <= COUNT_14_SECONDS
        ok &= met
        print(f"count 14 by SAT ({encoding}/{solver}): {wall14:.1f} s wall, {sat14:.1f} s processor; backtracking "
              f"{backtrack14:.1f} s processor, ratio {sat14 / backtrack14:.2f} ({'within' if met else 'above'} "
              f"{COUNT_14_SECONDS:g} s)")
    if args.anchor:
        with tempfile.TemporaryDirectory() as folder:
            program = compile_anchor(folder)
            if program is not None:
                ok &= anchor_rows(program, runs, args.full)
    if args.frontier:
        reached = frontier()
        met = reached >= FRONTIER_GOAL
        ok &= met
        print(f"the counting frontier by compiled backtracking: n = {reached} within {FRONTIER_SECONDS:g} s "
              f"({'meets' if met else 'misses'} n >= {FRONTIER_GOAL})")
    print("every goal met" if ok else "some goal missed")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
