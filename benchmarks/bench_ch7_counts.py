"""The model counts stored with chapter 7 (``notebooks/data/ch7-model-counts.csv``).

    python benchmarks/bench_ch7_counts.py                        # the stored study, n = 4..9 (about 20 minutes)
    python benchmarks/bench_ch7_counts.py --sizes 4:6 -o /tmp/c.csv   # a look in seconds

For every n and encoding (:func:`nqueens_kit.inside.counting.count_effort`): the boards counted by Ganak
projected on the board variables, every model counted unprojected, and the boards counted by SAT enumeration,
each count checked against the published one, each time in processor seconds of this process.  The counts
are the same on every machine; the times are this machine's.  Beside the CSV it writes its sidecar
(``ch7-model-counts.csv.meta.json``): the machine, the versions, the command line and the load average
before and after.  Chapter 7 counts n = 6 live and checks it against this file.
"""

from __future__ import annotations

import argparse
import shlex
import sys
import time

from nqueens_kit.bench.environment import environment, load_average, now
from nqueens_kit.bench.results import write_meta
from nqueens_kit.inside.counting import count_study, write_counts
from nqueens_kit.methods import Choice
from nqueens_kit.methods.sat.encodings import ENCODINGS


def sizes(text: str) -> list[int]:
    """``4:9`` (both ends included) or ``6,8``."""
    try:
        if ":" in text:
            start, stop = (int(part) for part in text.split(":"))
            return list(range(start, stop + 1))
        return [int(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"sizes are START:STOP or a list such as 6,8, not {text!r}") from None


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("-o", "--out", default="notebooks/data/ch7-model-counts.csv", help="the CSV to write")
    parser.add_argument("--sizes", type=sizes, default=list(range(4, 10)), help="board sizes (default 4:9)")
    args = parser.parse_args()
    encodings = list(ENCODINGS)
    meta = environment([Choice("model-count", "pairwise", "ganak"), Choice("sat", "pairwise", "pycosat")])
    meta["study"] = {"sizes": args.sizes, "encodings": encodings,
                     "times": "processor seconds of the counting process, one run each"}
    start = time.perf_counter()
    session = {"started": now(), "command": shlex.join(["python", "benchmarks/bench_ch7_counts.py", *sys.argv[1:]]),
               "load_average_start": load_average()}
    meta["sessions"] = [session]

    def report(row: dict) -> None:
        print(f"n = {row['n']:2} {row['encoding']:11} {row['boards']:6,} boards {row['models']:14,} models; "
              f"Ganak {row['count_seconds']:7.3f} s / {row['models_seconds']:7.3f} s, enumeration "
              f"{row['enumeration_seconds']:7.3f} s", file=sys.stderr, flush=True)

    rows = count_study(args.sizes, encodings, report)
    write_counts(rows, args.out)
    session.update(finished=now(), rows=len(rows), seconds=round(time.perf_counter() - start, 1),
                   load_average_end=load_average())
    write_meta(args.out, meta)
    print(f"wrote {args.out} ({len(rows)} rows) in {time.perf_counter() - start:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
