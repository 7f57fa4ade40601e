"""SCIP's presolve, propagation, cuts and conflict analysis switched off, stored with chapter 7
(``notebooks/data/ch7-mip-features.csv``).

    python benchmarks/bench_ch7_mip_features.py                         # the stored grid (under a minute)
    python benchmarks/bench_ch7_mip_features.py -o /tmp/grid.csv        # elsewhere, e.g. to compare versions

For each impossible completion of :data:`nqueens_kit.inside.mip_features.CASES`, each of SCIP's random seeds
(:data:`~nqueens_kit.inside.mip_features.SEEDS`) and each setting of
:data:`~nqueens_kit.inside.mip_features.SETTINGS`: SCIP's status, its own node and LP-iteration counters (the
same on every machine for one SCIP version) and the processor time of one run (this machine's).  Beside the CSV
it writes its sidecar (``ch7-mip-features.csv.meta.json``): the machine, the versions, the command line and the
load average before and after.  Chapter 7 runs three of the settings live and checks them against this file
when its SCIP is the one that wrote it.
"""

from __future__ import annotations

import argparse
import shlex
import sys
import time

from nqueens_kit.bench.environment import environment, load_average, now
from nqueens_kit.bench.results import write_meta
from nqueens_kit.inside.mip_features import (
    CASES,
    SEEDS,
    SETTINGS,
    impossible_completions,
    scip_features,
    write_features,
)
from nqueens_kit.methods import Choice


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("-o", "--out", default="notebooks/data/ch7-mip-features.csv", help="the CSV to write")
    args = parser.parse_args()
    meta = environment([Choice("ilp", "lines", "scip")])
    meta["study"] = {"cases": [list(case) for case in CASES], "seed": 1, "scip_seeds": list(SEEDS),
                     "settings": SETTINGS, "times": "processor seconds of SCIP's optimize, one run each"}
    start = time.perf_counter()
    session = {"started": now(),
               "command": shlex.join(["python", "benchmarks/bench_ch7_mip_features.py", *sys.argv[1:]]),
               "load_average_start": load_average()}
    meta["sessions"] = [session]
    rows = scip_features(impossible_completions(), seeds=SEEDS)
    for row in rows:
        print(f"n = {row['n']:2} seed {row['seed']} {row['setting']:35} {row['status']:10} {row['nodes']:5} nodes "
              f"{row['iterations']:6} LP iterations {row['seconds']:7.3f} s", file=sys.stderr, flush=True)
    write_features(rows, args.out)
    session.update(finished=now(), rows=len(rows), seconds=round(time.perf_counter() - start, 1),
                   load_average_end=load_average())
    write_meta(args.out, meta)
    print(f"wrote {args.out} ({len(rows)} rows) in {time.perf_counter() - start:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
