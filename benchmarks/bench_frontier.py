"""The frontier: the largest n each method and variant solves within a time limit on this machine.

    python benchmarks/bench_frontier.py              # 60 s per run (long: several minutes per configuration)
    python benchmarks/bench_frontier.py --limit 10   # a quicker look

Every run is a fresh process with a wall-clock limit, every board is verified, no run gets a hint from a
known solution (``nqueens_kit.bench.frontier``).  The SAT configurations cover the embedded pycosat and,
where installed, CaDiCaL through python-sat and the ``cadical`` and ``kissat`` executables; ILP covers CBC
(tuned) and HiGHS; the explicit construction is the yardstick for "one board of any size".
"""

from __future__ import annotations

import argparse
import sys

from nqueens_kit.bench import Config, make_configs
from nqueens_kit.bench.frontier import frontier
from nqueens_kit.solvers import get_solver


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=float, default=60.0, help="seconds one run may take (default 60)")
    parser.add_argument("--max-n", type=int, default=4096, help="the largest n tried (default 4096)")
    args = parser.parse_args()
    sat_solvers = [s for s in ("pycosat", "pysat-cadical", "cadical", "kissat") if get_solver("sat", s).available()]
    configs = make_configs("sat", encodings="pairwise,sequential", solvers=",".join(sat_solvers))
    configs += [c for c in make_configs("ilp", formulations="lines", solvers="cbc,highs")
                if get_solver("ilp", c.solver or "cbc").available()]
    configs.append(Config("construct"))

    def say(label: str, n: int, ok: bool, seconds: float) -> None:
        print(f"  {label}: n = {n} {'solved' if ok else 'not solved'} in {seconds:.2f} s", file=sys.stderr, flush=True)

    rows = frontier(configs, args.limit, 8, args.max_n, on_attempt=say)
    print(f"\n| configuration | largest n within {args.limit:g} s | its time | first n not solved |")
    print("|---|---:|---:|---:|")
    for row in rows:
        largest = "—" if row["largest_n"] is None else row["largest_n"]
        took = "—" if row["seconds"] is None else f"{row['seconds']:.2f} s"
        beyond = row["first_failure"] or f"none up to {args.max_n}"
        print(f"| {row['config']} | {largest} | {took} | {beyond} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
