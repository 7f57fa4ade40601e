"""The frontier: the largest n each method and variant solves (and counts) within a time limit on this machine.

    python benchmarks/bench_frontier.py              # 60 s per run, 3 orderings per n (long: minutes per configuration)
    python benchmarks/bench_frontier.py --limit 10   # a quicker look
    python benchmarks/bench_frontier.py --count      # the counting frontier only
    python benchmarks/bench_frontier.py -o notebooks/data/frontier.json   # what notebook 5 shows
    python benchmarks/bench_frontier.py --solve --only cryptominisat5 --keep notebooks/data/frontier.json \
        -o notebooks/data/frontier.json   # run some configurations again, keep the other rows
    python benchmarks/bench_frontier.py --table notebooks/data/frontier.json   # the tables of book/timing.md
    python benchmarks/bench_frontier.py --table notebooks/data/frontier.json --readme book/timing.md  # put them there

Every run is a fresh process with a wall-clock limit, every board is verified, no run gets a hint from a
known solution (``nqueens_kit.bench.frontier``).  The SAT configurations (:data:`SOLVE_SAT`) cover the
embedded pycosat and, where installed, Kissat through python-sat (in process) and the ``cadical``,
``kissat`` and ``cryptominisat5`` executables, in the encodings that scale (pairwise grows as n³), and the
native encoding (cardinality constraints) on python-sat's Minicard and Gluecard; ILP
covers CBC (tuned) and HiGHS; CP covers CP-SAT (alldifferent, one worker); the explicit construction is the
yardstick for "one board of any size".  Every solver runs with its default
options (the native encoding as the kit always hands it over: the cells numbered in a seeded random order,
each starting with the phase "queen"; ``nqueens_kit.methods.sat.native``).  The counting frontier counts
every board by SAT in each encoding (pycosat), by ILP no-good cuts (CBC) and by bitmask backtracking, each total
checked against the published one.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from nqueens_kit.bench import make_configs
from nqueens_kit.bench.environment import environment
from nqueens_kit.bench.frontier import (
    count_frontier,
    frontier,
    frontier_table,
    merge_frontier,
    with_frontier_tables,
)
from nqueens_kit.methods import Choice as Config
from nqueens_kit.methods import get_method
from nqueens_kit.methods.sat.encodings import ENCODINGS
from nqueens_kit.solvers import get_solver

#: The solving frontier's SAT configurations (encoding, solver), where the solver is installed.
SOLVE_SAT = [("pairwise", "pycosat"), ("sequential", "pycosat"), ("commander", "pycosat"),
             ("commander", "cadical"),
             ("commander", "kissat"), ("sequential", "kissat"), ("product", "kissat"),
             ("commander", "pysat-kissat"), ("product", "pysat-kissat"),
             ("commander", "cryptominisat5"), ("product", "cryptominisat5"),
             ("native", "pysat-minicard"), ("native", "pysat-gluecard4")]


def _load() -> float | None:
    """The machine's load average over the last minute (how busy it was: runs share its cores)."""
    try:
        return round(os.getloadavg()[0], 2)
    except OSError:
        return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=float, default=30.0,
                        help="seconds one run may take (default 30, the stored frontier's limit)")
    parser.add_argument("--max-n", type=int, default=4096, help="the largest n tried (default 4096)")
    parser.add_argument("--orderings", type=int, default=3,
                        help="instances of each n, the model renumbered and reordered (default 3; a majority must "
                             "solve n)")
    parser.add_argument("--count", action="store_true", help="the counting frontier only")
    parser.add_argument("--solve", action="store_true", help="the solving frontier only")
    parser.add_argument("--only", default=None, metavar="TEXT,...",
                        help="only the configurations whose label contains one of these (e.g. kissat,construct)")
    parser.add_argument("-o", "--out", default=None, metavar="FILE.json",
                        help="also write the frontier (and the machine it ran on) to this JSON file, after each "
                             "configuration")
    parser.add_argument("--keep", default=None, metavar="FILE.json",
                        help="keep this earlier frontier's rows for the configurations not run now (same limit)")
    parser.add_argument("--table", default=None, metavar="FILE.json",
                        help="only print the Markdown tables of a stored frontier (book/timing.md's) and stop")
    parser.add_argument("--readme", default=None, metavar="FILE.md",
                        help="with --table: write the tables into this file between its frontier-table markers")
    args = parser.parse_args()
    if args.table:
        stored = json.loads(Path(args.table).read_text(encoding="utf-8"))
        if args.readme:
            page = Path(args.readme)
            page.write_text(with_frontier_tables(page.read_text(encoding="utf-8"), stored), encoding="utf-8")
        else:
            print(frontier_table(stored))
        return 0
    old = json.loads(Path(args.keep).read_text(encoding="utf-8")) if args.keep else None
    record: dict[str, Any] = {"limit": args.limit, "solve": [], "count": []}

    def say(label: str, n: int, ok: bool, seconds: float) -> None:
        print(f"  {label}: n = {n} {'done' if ok else 'not done'} in {seconds:.2f} s", file=sys.stderr, flush=True)

    def save() -> None:
        if args.out:
            stored = merge_frontier(record, old) if old is not None else record
            Path(args.out).write_text(json.dumps(stored, indent=1) + "\n", encoding="utf-8")

    solve_configs = [Config("sat", encoding, solver) for encoding, solver in SOLVE_SAT
                     if get_solver("sat", solver).available()]
    solve_configs += [c for c in make_configs("ilp", formulations="lines", solvers="cbc,highs")
                      if get_solver("ilp", c.solver or "cbc").available()]
    if get_method("cp").available():
        solve_configs.append(Config("cp", "alldifferent", "cp-sat"))
    solve_configs.append(Config("construct"))
    counters = [Config("sat", encoding, "pycosat") for encoding in ENCODINGS]  # the clause encodings
    if get_solver("sat", "pysat-minisat").available():  # the fastest SAT counter (benchmarks/bench_count.py)
        counters.append(Config("sat", "pairwise", "pysat-minisat"))
    counters += [Config("ilp", "lines", "cbc"), Config("backtrack")]
    if args.only:
        wanted = [word.strip() for word in args.only.split(",") if word.strip()]
        solve_configs = [c for c in solve_configs if any(word in c.label for word in wanted)]
        counters = [c for c in counters if any(word in c.label for word in wanted)]
    record["environment"] = environment([*solve_configs, *counters])
    if not args.count:
        for config in solve_configs:
            before = _load()
            rows = frontier([config], args.limit, 8, args.max_n, on_attempt=say, orderings=args.orderings)
            for row in rows:
                row["load"] = [before, _load()]
            record["solve"] += rows
            save()
    if not args.solve:
        for config in counters:
            before = _load()
            rows = count_frontier([config], args.limit, 8, on_attempt=say)
            for row in rows:
                row["load"] = [before, _load()]
            record["count"] += rows
            save()
    save()
    print(frontier_table(merge_frontier(record, old) if old is not None else record), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
