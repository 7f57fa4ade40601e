"""Chapter 7's race with an objective: max-queens on random blocked boards, by MaxSAT (RC2) and by ILP (HiGHS),
on a sample of boards per n.

    python benchmarks/bench_ch7_maxsat.py                                       # print the record
    python benchmarks/bench_ch7_maxsat.py -o notebooks/data/ch7-maxsat.json     # what chapter 7 reads

One board per n is an anecdote: at the same n MaxSAT can be three times slower on one board and three times
faster on the next.  So every n gets ``BOARDS`` boards (80 % of the cells blocked, seed 1, boards 1 to
``BOARDS``); both optima are checked against each other, and each side's processor time is recorded (this
machine's, with the machine and the versions in ``environment``).  Chapter 7 runs a few of them live and
reads the whole sample from here.
"""

from __future__ import annotations

import shlex
import sys
from typing import Any

from nqueens_kit.bench.environment import environment, load_average, record_main
from nqueens_kit.inside.optimise import max_queens_race
from nqueens_kit.methods import Choice

SIZES = (12, 16, 20, 22, 24)
BOARDS = 8
DENSITY = 0.8


def record() -> dict[str, Any]:
    before = load_average()
    rows = max_queens_race(SIZES, DENSITY, seed=1, instance=1, instances=BOARDS)
    for row in rows:
        row["maxsat_seconds"], row["ilp_seconds"] = round(row["maxsat_seconds"], 4), round(row["ilp_seconds"], 4)
    return {"density": DENSITY, "seed": 1, "boards": BOARDS, "rows": rows, "load_average_start": before,
            "load_average_end": load_average(), "command": shlex.join(["python", *sys.argv]),
            "environment": environment([Choice("ilp", "max-queens", "highs")])}


def main(argv: list[str] | None = None) -> int:
    return record_main(record, __doc__.splitlines()[0], argv)


if __name__ == "__main__":
    sys.exit(main())
