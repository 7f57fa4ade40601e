"""The phase-transition study stored with notebook 5 (``notebooks/data/phase.csv``), for all three families.

    python benchmarks/bench_phase.py                       # the stored study (about 15 minutes, --jobs 2)
    python benchmarks/bench_phase.py --quick -o /tmp/p.csv # a look in a minute

Gent, Jefferson and Nightingale (JAIR 2017) found a phase transition with hard instances for Blocked
n-Queens and for Excluded Diagonals, and no consistently hard instances from a natural generator of
n-Queens Completion.  Each family is swept over a range of densities around its crossing, with SAT
(sequential encoding on python-sat's MiniSat, which counts conflicts; pairwise on pycosat) and ILP (CBC,
which counts branch-and-bound nodes); every run is a fresh process with a wall-clock limit, every board is
verified.
"""

from __future__ import annotations

import argparse
import sys
import time

from nqueens_kit.bench import Config
from nqueens_kit.bench.phase import (
    STORED_CONFIGS,
    STORED_STUDY,
    crossing,
    hardest,
    phase_study,
    phase_summary,
    write_summary,
)

CONFIGS = [Config(*config) for config in STORED_CONFIGS]
QUICK = {
    "completion": ([12], [0.0, 0.4, 0.8]),
    "blocked": ([12], [0.0, 0.6, 0.8]),
    "excluded-diagonals": ([10], [0.0, 0.2, 0.4]),
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-o", "--out", default="notebooks/data/phase.csv", help="the summary CSV to write")
    parser.add_argument("--instances", type=int, default=20, help="random instances per point (default 20)")
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds one run may take (default 10)")
    parser.add_argument("--jobs", type=int, default=2, help="runs at a time (default 2)")
    parser.add_argument("--quick", action="store_true", help="a tiny study: one small n, three densities")
    args = parser.parse_args()
    study = QUICK if args.quick else STORED_STUDY
    instances = 3 if args.quick else args.instances
    summary = []
    for family, (ns, densities) in study.items():
        start = time.perf_counter()
        rows = phase_study(CONFIGS, ns, densities, instances=instances, timeout=args.timeout, seed=1,
                           jobs=args.jobs, family=family)
        part = phase_summary(rows)
        summary += part
        print(f"{family}: {len(rows)} runs in {time.perf_counter() - start:.0f} s", file=sys.stderr)
        for n in ns:
            where = crossing(part, n)
            print(f"  n = {n}: half have a solution up to density "
                  f"{'(never crosses)' if where is None else f'{where:.3f}'}")
            for config in dict.fromkeys(e["config"] for e in part):
                for cost in ("par2_seconds", "median_conflicts", "median_nodes"):
                    top = hardest(part, n, config, cost)
                    if top is not None:
                        print(f"    {config:30} {cost:17} largest at density {top['density']:.2f}: {top[cost]:.4g}")
    write_summary(summary, args.out)
    print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
