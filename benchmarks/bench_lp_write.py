"""Writing the ILP model as an LP file: the kit's ``lp N -o FILE`` beside a bare PuLP script, in one run.

    python benchmarks/bench_lp_write.py                 # n = 1000, three runs of each, medians
    python benchmarks/bench_lp_write.py --n 300 --runs 5

The bare script (:data:`BARE`) is what one writes with PuLP alone: one binary per cell from
``LpVariable.dicts``, one ``lpSum`` constraint per row, column and diagonal, named as the kit names them,
then ``prob.writeLP``.  Each run is a fresh process timed from start to exit (imports included), so both
sides pay the same start-up; the two alternate, so a busy machine disturbs both alike.  It prints the
median seconds of each, their ratio (kit / bare PuLP) and whether the two files hold the same lines once
sorted (the same model, written in the same syntax).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

#: The bare PuLP script: the lines model of n-queens, written with ``writeLP`` (argv: n, output file).
BARE = """
import sys
import pulp

n, out = int(sys.argv[1]), sys.argv[2]
rows = range(1, n + 1)
prob = pulp.LpProblem(f"queens_{n}_lines", pulp.LpMinimize)
x = pulp.LpVariable.dicts("x", (rows, rows), 0, 1, pulp.LpBinary)
for r in rows:
    prob += pulp.lpSum(x[r][c] for c in rows) == 1, f"row_{r}"
for c in rows:
    prob += pulp.lpSum(x[r][c] for r in rows) == 1, f"col_{c}"
for d in range(2, 2 * n - 1):
    cells = [(r, r - d + n) for r in rows if 1 <= r - d + n <= n]
    prob += pulp.lpSum(x[r][c] for r, c in cells) <= 1, f"diag_{d}"
for a in range(2, 2 * n - 1):
    cells = [(r, a + 1 - r) for r in rows if 1 <= a + 1 - r <= n]
    prob += pulp.lpSum(x[r][c] for r, c in cells) <= 1, f"anti_{a}"
prob.writeLP(out)
"""


def timed(command: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1000, help="board size (default 1000)")
    parser.add_argument("--runs", type=int, default=3, help="runs of each side (default 3)")
    args = parser.parse_args()
    kit_exe = Path(sys.executable).with_name("nqueens-kit")
    kit_prefix = [str(kit_exe)] if kit_exe.exists() else [sys.executable, "-m", "nqueens_kit"]
    with tempfile.TemporaryDirectory(prefix="bench-lp-write-") as scratch:
        kit_file, bare_file = Path(scratch) / "kit.lp", Path(scratch) / "bare.lp"
        kit_times, bare_times = [], []
        for run in range(args.runs):
            kit_times.append(timed([*kit_prefix, "lp", str(args.n), "-o", str(kit_file)]))
            bare_times.append(timed([sys.executable, "-c", BARE, str(args.n), str(bare_file)]))
            print(f"run {run + 1}: kit {kit_times[-1]:.2f} s, bare PuLP {bare_times[-1]:.2f} s", flush=True)
        kit, bare = statistics.median(kit_times), statistics.median(bare_times)
        with open(kit_file, encoding="ascii") as a, open(bare_file, encoding="ascii") as b:
            same = sorted(a) == sorted(b)
        size = kit_file.stat().st_size / 2**20
    print(f"n = {args.n}: kit {kit:.2f} s, bare PuLP {bare:.2f} s (medians of {args.runs}); "
          f"ratio kit / bare PuLP = {kit / bare:.3f}; {size:.1f} MB; same lines: {same}")


if __name__ == "__main__":
    main()
