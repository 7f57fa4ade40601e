"""Speed and memory of the core kit, each measured side by side with a plain baseline.

    python benchmarks/bench_core.py            # everything but the 45-second naive enumeration
    python benchmarks/bench_core.py --full     # also plain pycosat.itersolve over all variables at n = 12
    python benchmarks/bench_core.py --quick    # one repeat each, smaller sizes where it matters

Prints a Markdown table: what was measured, the kit's figure, the baseline's, and the ratio.
Each timing is the median of several runs; memory is the peak resident set of a fresh child process.
"""

from __future__ import annotations

import argparse
import itertools
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

import pycosat

from nqueens_kit.methods import count_solutions, solve_sat
from nqueens_kit.methods.sat.cnf import build_cnf
from nqueens_kit.methods.sat.encodings import ENCODINGS
from nqueens_kit.methods.search.backtrack import count_backtrack
from nqueens_kit.methods.search.construct import construct
from nqueens_kit.problem.board import verify


def median_time(fn: Callable[[], Any], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def naive_pairwise(n: int) -> list[list[int]]:
    """The straightforward build: at-least-one per row and column, then every 4-tuple of cells."""
    var = lambda r, c: r * n + c + 1  # noqa: E731
    clauses = [[var(r, c) for c in range(n)] for r in range(n)]
    clauses += [[var(r, c) for r in range(n)] for c in range(n)]
    for r1, c1, r2, c2 in itertools.product(range(n), repeat=4):
        if (r1, c1) < (r2, c2) and (r1 == r2 or c1 == c2 or abs(r1 - r2) == abs(c1 - c2)):
            clauses.append([-var(r1, c1), -var(r2, c2)])
    return clauses


def plain_sequential_solve(n: int) -> list[int]:
    """A plain script: Sinz's sequential counter on every line, then pycosat.solve (no decode, no checks)."""
    var = lambda r, c: r * n + c + 1  # noqa: E731
    top = n * n
    clauses: list[list[int]] = []

    def amo(lits: list[int]) -> None:
        nonlocal top
        k = len(lits)
        if k < 2:
            return
        s = list(range(top + 1, top + k))
        top += k - 1
        clauses.append([-lits[0], s[0]])
        for i in range(1, k - 1):
            clauses.extend(([-lits[i], s[i]], [-s[i - 1], s[i]], [-lits[i], -s[i - 1]]))
        clauses.append([-lits[-1], -s[-1]])

    for r in range(n):
        row = [var(r, c) for c in range(n)]
        clauses.append(row)
        amo(row)
    for c in range(n):
        col = [var(r, c) for r in range(n)]
        clauses.append(col)
        amo(col)
    for d in range(-(n - 2), n - 1):
        amo([var(r, r - d) for r in range(n) if 0 <= r - d < n])
    for a in range(1, 2 * n - 2):
        amo([var(r, a - r) for r in range(n) if 0 <= a - r < n])
    return pycosat.solve(clauses)


def peak_rss_mb(code: str) -> float:
    """Peak resident memory of a fresh interpreter running ``code`` (Linux ru_maxrss is in KiB)."""
    probe = code + "\nimport resource; print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    return int(out.split()[-1]) / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="one repeat each")
    parser.add_argument("--full", action="store_true", help="include plain itersolve at n = 12 (about 45 s)")
    args = parser.parse_args()
    repeat = 1 if args.quick else 3
    rows: list[tuple[str, str, str, str]] = []

    def row(what: str, kit: float, base: float | None, unit: str = "s", base_name: str = "") -> None:
        ratio = f"{kit / base:.3f}×" if base else ""
        base_text = f"{base:.3f} {unit} ({base_name})" if base is not None else ""
        rows.append((what, f"{kit:.3f} {unit}", base_text, ratio))
        print(f"  {what}: {kit:.3f} {unit}" + (f" vs {base:.3f} {unit} -> {ratio}" if base else ""), flush=True)

    print(f"Python {platform.python_version()}, pycosat {pycosat.__version__}, {platform.machine()}", flush=True)

    # 1. Build speed: pairwise at n = 64 against the 4-tuple loop (same clause set).
    n = 64
    assert sorted(map(sorted, naive_pairwise(8))) == sorted(map(sorted, build_cnf(8).clauses))
    kit = median_time(lambda: build_cnf(n), repeat)
    base = median_time(lambda: naive_pairwise(n), 1 if args.quick else 2)
    row(f"build pairwise CNF, n = {n} ({build_cnf(n).num_clauses:,} clauses)", kit, base, base_name="4-tuple loop")

    # 2. Memory: pairwise at n = 200 (13.25 M clauses), build only, in a fresh process.
    baseline = peak_rss_mb("import nqueens_kit.methods.sat.cnf")
    peak = peak_rss_mb("from nqueens_kit.methods.sat.cnf import build_cnf; "
                       "c = build_cnf(200); assert c.num_clauses == 13253800")
    row("peak RSS building pairwise n = 200 (13,253,800 clauses)", peak, baseline, unit="MB",
        base_name="interpreter + kit, nothing built")
    start = time.perf_counter()
    build_cnf(200)
    row("build pairwise CNF, n = 200", time.perf_counter() - start, None)

    # 3. Solving: sequential at n = 200 with pycosat, verified board vs a plain script.
    n = 200

    def kit_solve() -> None:
        result = solve_sat(n, "sequential")
        assert result.verified

    kit = median_time(kit_solve, repeat)
    base = median_time(lambda: plain_sequential_solve(n), repeat)
    row(f"solve sequential n = {n} with pycosat, verified board", kit, base, base_name="plain build + pycosat.solve")

    # 4. Counting n = 12 by SAT against the bitmask backtracking counter.
    n = 12
    counter = median_time(lambda: count_backtrack(n), max(repeat, 3))
    row(f"count n = {n} by bitmask backtracking (ground truth)", counter, None)
    for encoding in ENCODINGS:
        kit = median_time(lambda encoding=encoding: count_solutions(n, encoding), repeat)
        row(f"count n = {n} by SAT, {encoding}, pycosat", kit, counter, base_name="backtracking")
    try:
        import pysat  # noqa: F401

        kit = median_time(lambda: count_solutions(n, "sequential", "pysat-cadical"), repeat)
        row(f"count n = {n} by SAT, sequential, pysat-cadical", kit, counter, base_name="backtracking")
    except ImportError:
        pass
    if args.full:
        cnf = build_cnf(n)
        start = time.perf_counter()
        total = sum(1 for _ in pycosat.itersolve(cnf.clauses))
        naive = time.perf_counter() - start
        assert total == 14200
        row(f"count n = {n}: plain pycosat.itersolve over all variables", naive, counter, base_name="backtracking")

    # 5. The explicit construction at n = 1,000,000, verified.
    n = 1_000_000

    def construct_and_verify() -> None:
        assert verify(n, construct(n))

    row(f"construct and verify n = {n:,}", median_time(construct_and_verify, repeat), None)

    print("\n| measured | kit | baseline | ratio |\n|---|---|---|---|")
    for what, kit_text, base_text, ratio in rows:
        print(f"| {what} | {kit_text} | {base_text} | {ratio} |")


if __name__ == "__main__":
    main()
