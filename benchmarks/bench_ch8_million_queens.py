"""Chapter 8's million queens: one board of n = 10⁶ by local search, the search and its verification timed apart.

    python benchmarks/bench_ch8_million_queens.py                                              # print the record
    python benchmarks/bench_ch8_million_queens.py -o notebooks/data/ch8-million-queens.json    # what chapter 8 reads

Too long for a lecture cell on a busy machine, so chapter 8 runs a smaller board live and reads this record
beside it.  The search runs in this process (its ``solve_seconds`` is the search alone, after a board of
``COMPILED_FROM`` queens has loaded the compiled kernels: ``warm_up_seconds``); the board then goes
through the kit's own :func:`~nqueens_kit.problem.board.verify`.  The record keeps the counters (the same on
every machine: the search is seeded by the problem), the wall-clock and CPU seconds of this machine, the load
average before and after, and the machine and versions (:func:`~nqueens_kit.bench.environment.environment`,
with numba's version, or None when the search ran in Python: the counters are those of the version that ran).
"""

from __future__ import annotations

import argparse
import shlex
import sys
import time
from typing import Any

from nqueens_kit.bench.environment import emit_record, environment, load_average, package_version
from nqueens_kit.methods import solve
from nqueens_kit.methods.search.local_search import COMPILED_FROM
from nqueens_kit.problem.board import verify
from nqueens_kit.runtime.jit import jit_available, jit_name

N = 1_000_000


def record(n: int = N) -> dict[str, Any]:
    """Solve ``n`` by local search in this process, verify the board, and say what it took."""
    before = load_average()
    start = time.perf_counter()
    solve(COMPILED_FROM, "local-search", isolated=False)  # numba's kernels loaded (or compiled) apart from the search
    load_seconds = time.perf_counter() - start
    cpu = time.process_time()
    found = solve(n, "local-search", isolated=False)
    search_cpu = time.process_time() - cpu
    start = time.perf_counter()
    verified = verify(n, found.queens)
    verify_seconds = time.perf_counter() - start
    if found.status != "solved" or not verified:
        raise SystemExit(f"local search did not give a verified board of {n:,} queens: {found.status}, {found.message}")
    machine = environment()
    # compiled or not: the steps differ (another generator), so the record says which version ran
    machine["packages"]["numba"] = package_version("numba") if jit_available() else None
    return {"n": n, "method": "local-search", "runs": jit_name(), "status": str(found.status), "verified": verified,
            "stats": dict(found.stats), "search_seconds": round(found.solve_seconds, 3),
            "search_cpu_seconds": round(search_cpu, 3), "verify_seconds": round(verify_seconds, 3),
            "warm_up_seconds": round(load_seconds, 3),
            "load_average_start": before, "load_average_end": load_average(),
            "command": shlex.join(["python", *sys.argv]), "environment": machine}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=N, help=f"board size (default {N:,})")
    parser.add_argument("-o", "--out", help="write the record to this JSON file")
    args = parser.parse_args(argv)
    return emit_record(record(args.n), args.out)


if __name__ == "__main__":
    sys.exit(main())
