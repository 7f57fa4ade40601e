"""The phase-transition study stored with notebook 5 (``notebooks/data/phase.csv``), for all three families.

    python benchmarks/bench_phase.py                       # the stored study (about 20 minutes, --jobs 2)
    python benchmarks/bench_phase.py --quick -o /tmp/p.csv # a look in a minute

Gent, Jefferson and Nightingale (JAIR 2017) found a phase transition with hard instances for Blocked
n-Queens and for Excluded Diagonals, and no consistently hard instances from a natural generator of
n-Queens Completion.  Each family is swept at several board sizes, each over a few coarse densities and a
fine grid around its crossing (``nqueens_kit.bench.phase.STORED_PARTS``), with SAT (sequential encoding on
python-sat's MiniSat, which counts conflicts) everywhere and ILP (CBC, which counts branch-and-bound nodes)
on the smaller boards; every run is a fresh process with a wall-clock limit, every board is verified.  The
summary keeps the spread of each count (percentiles 10 to 90 and the largest), not only its median.
Beside the CSV it writes its sidecar (``phase.csv.meta.json``): the machine, the versions, the command line,
the study's parts and the load average before and after.
"""

from __future__ import annotations

import argparse
import shlex
import sys
import time
from dataclasses import asdict

from nqueens_kit.bench.environment import environment, load_average, now
from nqueens_kit.bench.phase import (
    SAT_CONFIG,
    STORED_CONFIGS,
    STORED_INSTANCES,
    STORED_PARTS,
    STORED_SEED,
    StudyPart,
    peaks,
    stored_study,
    write_summary,
)
from nqueens_kit.bench.results import write_meta
from nqueens_kit.methods import Choice

QUICK = (StudyPart("blocked", 12, (0.0, 0.6, 0.8), (SAT_CONFIG,)),
         StudyPart("excluded-diagonals", 10, (0.0, 0.2, 0.4), (SAT_CONFIG,)),
         StudyPart("completion", 12, (0.0, 0.5, 0.75), (SAT_CONFIG,)))


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("-o", "--out", default="notebooks/data/phase.csv", help="the summary CSV to write")
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds one run may take (default 10)")
    parser.add_argument("--jobs", type=int, default=2, help="runs at a time (default 2)")
    parser.add_argument("--quick", action="store_true", help="a tiny study: one small n per family")
    args = parser.parse_args()
    sat = Choice(*SAT_CONFIG).label
    start = time.perf_counter()
    parts = QUICK if args.quick else STORED_PARTS
    meta = environment([Choice(*config) for config in STORED_CONFIGS])
    meta["study"] = {"seed": STORED_SEED, "timeout": args.timeout, "jobs": args.jobs,
                     "instances": {Choice(*config).label: k for config, k in STORED_INSTANCES.items()},
                     "parts": [asdict(part) for part in parts]}
    session = {"started": now(), "command": shlex.join(["python", "benchmarks/bench_phase.py", *sys.argv[1:]]),
               "load_average_start": load_average()}
    meta["sessions"] = [session]

    def report(part: StudyPart, summary: list[dict], seconds: float) -> None:
        found = peaks(summary, sat)
        where = f"crossing {found[0]['crossing']:.3f}, peak at {found[0]['peak']:.3f}" if found else "no crossing"
        print(f"{part.family:19} n = {part.n:2}: {len(part.densities)} densities x {len(part.configs)} "
              f"configurations in {seconds:4.0f} s; {where}", file=sys.stderr, flush=True)

    summary = stored_study(args.jobs, args.timeout, parts, report)
    write_summary(summary, args.out)
    session.update(finished=now(), points=len(summary), seconds=round(time.perf_counter() - start, 1),
                   load_average_end=load_average())
    write_meta(args.out, meta)
    print(f"wrote {args.out} ({len(summary)} points) in {time.perf_counter() - start:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
