"""Chapter 8's first-fail search: MiniZinc with Gecode on the integer model, at the chapter's live sizes and
beyond them, and CP-SAT's own search at the largest size.

    python benchmarks/bench_ch8_first_fail.py                                         # print the record
    python benchmarks/bench_ch8_first_fail.py -o notebooks/data/ch8-first-fail.json   # what chapter 8 reads

Chapter 8 runs the live sizes itself where MiniZinc is installed; where it is not (``make run`` and pip install
no system packages), it shows the ``live`` rows of this record instead, labelled with the machine and versions
below.  The ``tail`` rows (n = 500 to 1000, each under a limit of ``TAIL_LIMIT`` seconds) are too long for a
lecture cell on any machine: the chapter reads them from here.  The counters (failures, nodes, propagations)
are Gecode's own, the same on every machine for one Gecode version; the seconds are this machine's.
"""

from __future__ import annotations

import shlex
import sys
from typing import Any

from nqueens_kit.bench.environment import environment, load_average, record_main
from nqueens_kit.course.cp_lessons import first_fail_runs
from nqueens_kit.methods import Choice
from nqueens_kit.solvers import available_solvers

#: The sizes chapter 8 runs live (the small ones under test and in the browser, then the full ones).
LIVE = (50, 100, 200, 300, 400)
LIVE_LIMIT = 60.0
#: Beyond a lecture cell: where first-fail's tail shows.
TAIL = (500, 600, 700, 800, 1000)
TAIL_LIMIT = 120.0


def record() -> dict[str, Any]:
    missing = [s for s in ("minizinc", "cp-sat") if s not in available_solvers("cp")]
    if missing:
        raise SystemExit(f"this record needs MiniZinc with Gecode and CP-SAT; missing here: {', '.join(missing)}")
    before = load_average()
    live = first_fail_runs(LIVE, "minizinc", time_limit=LIVE_LIMIT)
    tail = first_fail_runs(TAIL, "minizinc", time_limit=TAIL_LIMIT)
    cp_sat = first_fail_runs(TAIL[-1:], "cp-sat", time_limit=TAIL_LIMIT)
    configs = [Choice("cp", "alldifferent", "minizinc"), Choice("cp", "alldifferent", "cp-sat")]
    rounded = [dict(row, seconds=round(row["seconds"], 3)) for row in (*live, *tail, *cp_sat)]
    return {"live": rounded[:len(live)], "tail": rounded[len(live):len(live) + len(tail)],
            "cp_sat": rounded[len(live) + len(tail):], "limits": {"live": LIVE_LIMIT, "tail": TAIL_LIMIT},
            "load_average_start": before, "load_average_end": load_average(),
            "command": shlex.join(["python", *sys.argv]), "environment": environment(configs)}


def main(argv: list[str] | None = None) -> int:
    return record_main(record, __doc__.splitlines()[0], argv)


if __name__ == "__main__":
    sys.exit(main())
