"""The ILP side measured against plain baselines, side by side.

    python benchmarks/bench_ilp.py           # median of 3 runs per configuration
    python benchmarks/bench_ilp.py --quick   # one run each

1. n = 100 with CBC: the kit's default (``solve_ilp(n)``: the ``lines`` formulation) against the textbook
   model, which maximises the number of queens under ``<= 1`` rows and columns and builds each diagonal
   by scanning all n² cells.  Goal: the kit takes at most 0.35x the textbook's time.
2. n = 200 with HiGHS: ``solve_ilp(n, solver="highs")`` against a plain PuLP script that builds the same
   ``lines`` model directly and calls ``prob.solve(pulp.HiGHS(msg=False))``.  Goal: at most 1.5x.

Both sides of a row use the same solver binary (the kit's own lookup), runs alternate kit / baseline
so a busy machine slows both alike, and build and solve seconds are reported apart.  Every board is
checked with :func:`nqueens_kit.problem.board.verify`.

Where the kit's CBC time goes: the root LP takes about 0.1 s at n = 100; the rest is finding a first
integer point.  With CBC's defaults that is the feasibility pump, whose cost jumps with n, the CBC build
and even the column order PuLP writes (at n = 100: 2.7 to 11 s across CBC 2.10.3 and the cbcbox build,
PuLP 3 and 4, where the textbook model takes 8 to 12 s).  So for ``lines`` and ``pairwise`` the kit runs
CBC without pump, preprocessing and cuts (the ``tuned`` settings of
``nqueens_kit.methods.ilp.formulations``): about 2 to 10 times faster from n = 36 on with both builds, at
most 0.3 s slower on smaller boards.  The extra row
"kit, CBC defaults" shows what the formulation alone gives; the textbook side always runs CBC's defaults.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable
from typing import Any

import pulp

from nqueens_kit.methods import solve
from nqueens_kit.problem.board import verify
from nqueens_kit.solvers import ILP_SOLVERS

Model = tuple[Any, dict[tuple[int, int], Any]]


def _binary(prob: Any, name: str) -> Any:
    """A binary variable the way the installed PuLP wants it (PuLP 4 attaches variables to the model)."""
    if hasattr(prob, "add_variable"):
        return prob.add_variable(name, 0, 1, pulp.LpBinary)
    return pulp.LpVariable(name, cat=pulp.LpBinary)


def textbook_model(n: int) -> Model:
    """The course-notes model: maximise queens; rows and columns <= 1; diagonals by scanning every cell."""
    prob = pulp.LpProblem("textbook", pulp.LpMaximize)
    x = {(i, j): _binary(prob, f"x_{i}_{j}") for i in range(n) for j in range(n)}
    prob += pulp.lpSum(x.values())
    for i in range(n):
        prob += pulp.lpSum(x[i, j] for j in range(n)) <= 1
        prob += pulp.lpSum(x[j, i] for j in range(n)) <= 1
    for k in range(-(n - 1), n):
        prob += pulp.lpSum(x[i, j] for i in range(n) for j in range(n) if i - j == k) <= 1
    for k in range(2 * n - 1):
        prob += pulp.lpSum(x[i, j] for i in range(n) for j in range(n) if i + j == k) <= 1
    return prob, x


def plain_lines_model(n: int) -> Model:
    """The ``lines`` model written directly in PuLP: rows and columns == 1, diagonals of 2+ cells <= 1."""
    prob = pulp.LpProblem("plain", pulp.LpMinimize)
    x = {(i, j): _binary(prob, f"x_{i}_{j}") for i in range(n) for j in range(n)}
    for i in range(n):
        prob += pulp.lpSum(x[i, j] for j in range(n)) == 1
        prob += pulp.lpSum(x[j, i] for j in range(n)) == 1
    for k in range(-(n - 2), n - 1):
        prob += pulp.lpSum(x[i, i - k] for i in range(n) if 0 <= i - k < n) <= 1
    for k in range(1, 2 * n - 2):
        prob += pulp.lpSum(x[i, k - i] for i in range(n) if 0 <= k - i < n) <= 1
    return prob, x


Timing = tuple[float, float]  # build seconds, solve seconds


def baseline(make: Callable[[int], Model], n: int, engine: Callable[[], Any]) -> Callable[[], Timing]:
    def once() -> Timing:
        start = time.perf_counter()
        prob, x = make(n)
        build = time.perf_counter() - start
        start = time.perf_counter()
        prob.solve(engine())
        solve = time.perf_counter() - start
        board = [(i + 1, j + 1) for (i, j), v in x.items() if (v.varValue or 0) > 0.5]
        if not verify(n, board):
            raise SystemExit(f"baseline {make.__name__} produced an invalid board at n = {n}")
        return build, solve

    return once


def kit(n: int, solver: str, settings: str = "tuned") -> Callable[[], Timing]:
    """``solve(n, "ilp", "lines", solver, settings=...)`` in this process (``default``: CBC's own settings)."""

    def once() -> Timing:
        start = time.perf_counter()
        result = solve(n, "ilp", "lines", solver, settings=settings, isolated=False)
        total = time.perf_counter() - start
        if not result.verified:
            raise SystemExit(f"solve_ilp({n}, solver={solver!r}) gave {result.status}: {result.message}")
        return result.build_seconds, total - result.build_seconds

    return once


def measure(sides: tuple[Callable[[], Timing], ...], repeat: int) -> list[tuple[float, float, float]]:
    """Median (build, solve, total) of each side, the sides run alternately."""
    runs: list[list[Timing]] = [[] for _ in sides]
    for _ in range(repeat):
        for side, fn in enumerate(sides):
            runs[side].append(fn())
    return [(statistics.median(b for b, _ in r), statistics.median(s for _, s in r),
             statistics.median(b + s for b, s in r)) for r in runs]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="one run per configuration instead of three")
    args = parser.parse_args()
    repeat = 1 if args.quick else 3
    cbc = ILP_SOLVERS["cbc"]
    highs = ILP_SOLVERS["highs"]
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"PuLP {pulp.__version__}; CBC: {cbc.found_as()}; HiGHS: {highs.found_as()}; "
          f"{'1 run' if repeat == 1 else f'median of {repeat}'} per side; load average {load:.1f} "
          f"on {os.cpu_count()} cores")

    rows = []
    n = 100
    kit_t, base_t, plain_t = measure(
        (kit(n, "cbc"), baseline(textbook_model, n, lambda: cbc.engine(msg=False)), kit(n, "cbc", "default")),
        repeat)
    rows.append((f"n = {n}, CBC", "kit `lines`", "textbook max-queens", kit_t, base_t, 0.35))
    rows.append((f"n = {n}, CBC", "kit `lines`, CBC defaults", "textbook max-queens", plain_t, base_t, None))

    n = 200
    if highs.available():
        kit_t, base_t = measure((kit(n, "highs"), baseline(plain_lines_model, n, lambda: pulp.HiGHS(msg=False))),
                                repeat)
        rows.append((f"n = {n}, HiGHS", "kit `lines`", "plain PuLP + HiGHS", kit_t, base_t, 1.5))
    else:
        print(f"HiGHS row skipped: {highs.install_hint()}")

    print()
    print("| case | kit | baseline | kit build / solve / total | baseline build / solve / total "
          "| ratio (total) | goal |")
    print("|---|---|---|---|---|---|---|")
    for case, kit_name, base_name, k, b, goal in rows:
        ratio = k[2] / b[2]
        verdict = "for comparison" if goal is None else f"<= {goal}x {'met' if ratio <= goal else 'NOT met'}"
        print(f"| {case} | {kit_name} | {base_name} | {k[0]:.2f} / {k[1]:.2f} / {k[2]:.2f} s "
              f"| {b[0]:.2f} / {b[1]:.2f} / {b[2]:.2f} s | {ratio:.2f}x | {verdict} |")


if __name__ == "__main__":
    main()
