"""The frontier: the largest n each method and variant solves (and counts) within a time limit on this machine.

    python benchmarks/bench_frontier.py              # 60 s per run (long: several minutes per configuration)
    python benchmarks/bench_frontier.py --limit 10   # a quicker look
    python benchmarks/bench_frontier.py --count      # the counting frontier only
    python benchmarks/bench_frontier.py -o notebooks/data/frontier.json   # what notebook 5 shows

Every run is a fresh process with a wall-clock limit, every board is verified, no run gets a hint from a
known solution (``nqueens_kit.bench.frontier``).  The SAT configurations (:data:`SOLVE_SAT`) cover the
embedded pycosat and, where installed, CaDiCaL through python-sat and the ``cadical`` and ``kissat``
executables, mostly in the encodings that scale (pairwise grows as n³); ILP covers CBC (tuned) and HiGHS; the
explicit construction is the yardstick for "one board of any size".  Every solver runs with its default
options.  The counting frontier counts every board by SAT in each encoding (pycosat), by ILP no-good cuts
(CBC) and by bitmask backtracking, each total checked against the published one.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from nqueens_kit.bench import Config, make_configs
from nqueens_kit.bench.environment import environment
from nqueens_kit.bench.frontier import count_frontier, frontier
from nqueens_kit.methods.sat.encodings import ENCODINGS
from nqueens_kit.solvers import get_solver

#: The solving frontier's SAT configurations (encoding, solver), where the solver is installed.
SOLVE_SAT = [("pairwise", "pycosat"), ("sequential", "pycosat"), ("commander", "pycosat"),
             ("commander", "cadical"),
             ("commander", "kissat"), ("sequential", "kissat"), ("product", "kissat")]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=float, default=60.0, help="seconds one run may take (default 60)")
    parser.add_argument("--max-n", type=int, default=4096, help="the largest n tried (default 4096)")
    parser.add_argument("--count", action="store_true", help="the counting frontier only")
    parser.add_argument("--solve", action="store_true", help="the solving frontier only")
    parser.add_argument("--only", default=None, metavar="TEXT,...",
                        help="only the configurations whose label contains one of these (e.g. kissat,construct)")
    parser.add_argument("-o", "--out", default=None, metavar="FILE.json",
                        help="also write the frontier (and the machine it ran on) to this JSON file, after each "
                             "configuration")
    args = parser.parse_args()
    record: dict[str, Any] = {"limit": args.limit, "solve": [], "count": []}

    def say(label: str, n: int, ok: bool, seconds: float) -> None:
        print(f"  {label}: n = {n} {'done' if ok else 'not done'} in {seconds:.2f} s", file=sys.stderr, flush=True)

    def save() -> None:
        if args.out:
            Path(args.out).write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")

    solve_configs = [Config("sat", encoding, solver) for encoding, solver in SOLVE_SAT
                     if get_solver("sat", solver).available()]
    solve_configs += [c for c in make_configs("ilp", formulations="lines", solvers="cbc,highs")
                      if get_solver("ilp", c.solver or "cbc").available()]
    solve_configs.append(Config("construct"))
    counters = [Config("sat", encoding, "pycosat") for encoding in ENCODINGS]
    counters += [Config("ilp", "lines", "cbc"), Config("backtrack")]
    if args.only:
        wanted = [word.strip() for word in args.only.split(",") if word.strip()]
        solve_configs = [c for c in solve_configs if any(word in c.label for word in wanted)]
        counters = [c for c in counters if any(word in c.label for word in wanted)]
    record["environment"] = environment([*solve_configs, *counters])
    if not args.count:
        for config in solve_configs:
            record["solve"] += frontier([config], args.limit, 8, args.max_n, on_attempt=say)
            save()
        print(f"\n| configuration | largest n solved within {args.limit:g} s | its time | first n not solved |")
        print("|---|---:|---:|---:|")
        for row in record["solve"]:
            largest = "—" if row["largest_n"] is None else row["largest_n"]
            took = "—" if row["seconds"] is None else f"{row['seconds']:.2f} s"
            beyond = row["first_failure"] or f"none up to {args.max_n}"
            print(f"| {row['config']} | {largest} | {took} | {beyond} |", flush=True)
    if not args.solve:
        for config in counters:
            record["count"] += count_frontier([config], args.limit, 8, on_attempt=say)
            save()
        print(f"\n| configuration | largest n counted within {args.limit:g} s | its time | boards "
              "| first n not counted |")
        print("|---|---:|---:|---:|---:|")
        for row in record["count"]:
            largest = "—" if row["largest_n"] is None else row["largest_n"]
            took = "—" if row["seconds"] is None else f"{row['seconds']:.2f} s"
            boards = "—" if row["count"] is None else f"{row['count']:,}"
            print(f"| {row['config']} | {largest} | {took} | {boards} | {row['first_failure'] or '—'} |", flush=True)
    save()
    return 0


if __name__ == "__main__":
    sys.exit(main())
