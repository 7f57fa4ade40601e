"""The ILP side measured against plain baselines, side by side.

    python benchmarks/bench_ilp.py           # median of 3 runs each
    python benchmarks/bench_ilp.py --quick   # one run each

1. n = 100, the kit's default (``lines`` with CBC) against the textbook model: maximise the number of
   queens with ``<= 1`` rows and columns, each diagonal built by scanning all n² cells.
2. n = 200 with HiGHS: the kit's ``solve_ilp`` against a plain PuLP + HiGHS script of the same model.
Build and solve seconds are reported separately.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

import pulp

from nqueens_kit.board import verify
from nqueens_kit.ilp import solve_ilp


def textbook_model(n: int) -> tuple[pulp.LpProblem, dict[tuple[int, int], pulp.LpVariable]]:
    """The course-notes model: maximise queens; rows and columns <= 1; diagonals by scanning every cell."""
    prob = pulp.LpProblem("textbook", pulp.LpMaximize)
    x = {(i, j): pulp.LpVariable(f"x_{i}_{j}", cat="Binary") for i in range(n) for j in range(n)}
    prob += pulp.lpSum(x.values())
    for i in range(n):
        prob += pulp.lpSum(x[i, j] for j in range(n)) <= 1
        prob += pulp.lpSum(x[j, i] for j in range(n)) <= 1
    for k in range(-(n - 1), n):
        prob += pulp.lpSum(x[i, j] for i in range(n) for j in range(n) if i - j == k) <= 1
    for k in range(2 * n - 1):
        prob += pulp.lpSum(x[i, j] for i in range(n) for j in range(n) if i + j == k) <= 1
    return prob, x


def plain_highs_model(n: int) -> tuple[pulp.LpProblem, dict[tuple[int, int], pulp.LpVariable]]:
    """The ``lines`` model written directly in PuLP."""
    prob = pulp.LpProblem("plain", pulp.LpMinimize)
    x = {(i, j): pulp.LpVariable(f"x_{i}_{j}", cat="Binary") for i in range(n) for j in range(n)}
    for i in range(n):
        prob += pulp.lpSum(x[i, j] for j in range(n)) == 1
        prob += pulp.lpSum(x[j, i] for j in range(n)) == 1
    for k in range(-(n - 2), n - 1):
        prob += pulp.lpSum(x[i, i - k] for i in range(n) if 0 <= i - k < n) <= 1
    for k in range(1, 2 * n - 2):
        prob += pulp.lpSum(x[i, k - i] for i in range(n) if 0 <= k - i < n) <= 1
    return prob, x


def timed(fn: Callable[[], tuple[float, float]], repeat: int) -> tuple[float, float, float]:
    """Median build, solve and total seconds of ``fn() -> (build, solve)``."""
    runs = [fn() for _ in range(repeat)]
    build = statistics.median(r[0] for r in runs)
    solve = statistics.median(r[1] for r in runs)
    total = statistics.median(r[0] + r[1] for r in runs)
    return build, solve, total


def run_baseline(make: Callable[[int], tuple[pulp.LpProblem, dict]], n: int, solver: Callable[[], object]):
    def once() -> tuple[float, float]:
        start = time.perf_counter()
        prob, x = make(n)
        build = time.perf_counter() - start
        start = time.perf_counter()
        prob.solve(solver())
        solve = time.perf_counter() - start
        board = [(i + 1, j + 1) for (i, j), v in x.items() if (v.varValue or 0) > 0.5]
        assert verify(n, board), "baseline produced an invalid board"
        return build, solve

    return once


def run_kit(n: int, solver: str):
    def once() -> tuple[float, float]:
        start = time.perf_counter()
        result = solve_ilp(n, "lines", solver)
        assert result.verified
        return result.build_seconds, time.perf_counter() - start - result.build_seconds

    return once


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    repeat = 1 if args.quick else 3
    rows = []

    n = 100
    kit = timed(run_kit(n, "cbc"), repeat)
    base = timed(run_baseline(textbook_model, n, lambda: pulp.PULP_CBC_CMD(msg=False)), repeat)
    rows.append((f"n = {n}, CBC: kit `lines` vs textbook max-queens", kit, base))

    n = 200
    kit = timed(run_kit(n, "highs"), repeat)
    base = timed(run_baseline(plain_highs_model, n, lambda: pulp.HiGHS(msg=False)), repeat)
    rows.append((f"n = {n}, HiGHS: kit vs plain PuLP + HiGHS script", kit, base))

    print("| measured | kit build / solve / total | baseline build / solve / total | ratio (total) |")
    print("|---|---|---|---|")
    for what, k, b in rows:
        print(f"| {what} | {k[0]:.2f} / {k[1]:.2f} / {k[2]:.2f} s | {b[0]:.2f} / {b[1]:.2f} / {b[2]:.2f} s "
              f"| {k[2] / b[2]:.2f}× |")


if __name__ == "__main__":
    main()
