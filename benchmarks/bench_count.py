"""Counting by SAT against the bitmask backtracking counter, as ratios measured in the same run.

    python benchmarks/bench_count.py                  # n = 12 and 13, median of 3 runs, then count 14
    python benchmarks/bench_count.py --quick          # one run each
    python benchmarks/bench_count.py --sizes 12 --solvers pycosat,pysat-minisat --no-14

Each row times one SAT method's ``count_here`` (the work of ``nqueens-kit count N --method sat``, in this
process) for one encoding and solver, and the backtracking method's ``count_here`` right before it, so a
busy machine slows both alike; the ratio is the median SAT time over the median backtracking time of that
row, in processor seconds of this process (what other work on a shared machine disturbs least; the
wall-clock ratio is printed beside it).  Every count is checked against the published count (OEIS A000170).

Goals: every encoding within 5x and the best configuration within 1.5x of backtracking at n = 12 and 13,
and ``count 14`` by SAT (the best configuration at n = 13) within a minute.

How SAT gets there (:mod:`nqueens_kit.methods.sat.solve`): the bare problem is split on its border queens,
one configuration per orbit under the 8 symmetries of the square, so about one board in 8 is found by the
solver and counted for its orbit's share; python-sat keeps one solver per pair of row queens and fixes the
column queens by assumptions.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from nqueens_kit.methods.base import get_method
from nqueens_kit.methods.sat.encodings import ENCODINGS
from nqueens_kit.problem.board import Problem
from nqueens_kit.problem.reference import published_count
from nqueens_kit.solvers import SAT_SOLVERS

DEFAULT_SOLVERS = ("pycosat", "pysat-minisat", "pysat-cadical", "pysat-glucose")
EVERY_ENCODING_GOAL = 5.0
BEST_GOAL = 1.5
COUNT_14_SECONDS = 60.0


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


def row(n: int, encoding: str, solver: str, runs: int) -> tuple[float, float, float]:
    """Medians of backtracking and SAT, alternating: ``(backtracking s, SAT s, wall-clock ratio)``, in
    processor seconds."""
    backtrack, sat = [], []
    for _ in range(runs):
        backtrack.append(timed_count("backtrack", n))
        sat.append(timed_count("sat", n, encoding, solver))
    wall = statistics.median(w for _, w in sat) / statistics.median(w for _, w in backtrack)
    return statistics.median(c for c, _ in backtrack), statistics.median(c for c, _ in sat), wall


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="one run per row instead of three")
    parser.add_argument("--sizes", default="12,13", help="board sizes, comma-separated (default 12,13)")
    parser.add_argument("--solvers", default=",".join(DEFAULT_SOLVERS), help="SAT solvers, comma-separated")
    parser.add_argument("--encodings", default=",".join(ENCODINGS), help="encodings, comma-separated")
    parser.add_argument("--no-14", dest="count14", action="store_false", help="skip count 14")
    args = parser.parse_args(argv)
    runs = 1 if args.quick else 3
    sizes = [int(s) for s in args.sizes.split(",")]
    solvers = [s for s in args.solvers.split(",") if SAT_SOLVERS[s].available()]
    encodings = args.encodings.split(",")
    ok = True
    best_at: dict[int, tuple[float, str, str]] = {}
    print(f"{'n':>3} {'solver':<15} {'encoding':<11} {'backtrack s':>11} {'SAT s':>8} {'ratio':>6} {'(wall)':>7}")
    for n in sizes:
        for solver in solvers:
            for encoding in encodings:
                backtrack, sat, wall = row(n, encoding, solver, runs)
                ratio = sat / backtrack
                flag = "" if ratio <= EVERY_ENCODING_GOAL else f"  above {EVERY_ENCODING_GOAL:g}x"
                ok &= not flag
                print(f"{n:>3} {solver:<15} {encoding:<11} {backtrack:>11.3f} {sat:>8.3f} {ratio:>6.2f} ({wall:>5.2f})"
                      f"{flag}", flush=True)
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
    print("every goal met" if ok else "some goal missed")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
