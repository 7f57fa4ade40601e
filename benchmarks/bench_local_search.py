"""Local search and construction against a C min-conflicts: CPU time and peak memory, ratios, one run.

    python benchmarks/bench_local_search.py            # n = 10⁶ and 10⁷, medians of 3 interleaved runs
    python benchmarks/bench_local_search.py --quick    # n = 10⁶, one run of each

For each n, each round runs, one after the other:

- **kit, in process**: a Python process that imports the kit, solves a board of ``COMPILED_FROM`` queens
  first (so that loading the compiled kernels is not counted), then times ``solve(n, "local-search")`` in
  itself (CPU of the search alone, from its ``min_conflicts``, and of the whole solve with its verification);
- **kit, CLI**: ``nqueens-kit solve n --method local-search`` as a subprocess (the board to /dev/null), its
  CPU and peak memory as the kernel reports them for the process tree (``os.wait4``);
- **C**: ``benchmarks/anchors/min_conflicts.c`` built here with ``cc -O2`` (skipped when no C compiler is on
  PATH): the same greedy start and the same kind of steps;
- **construct, CLI**: ``nqueens-kit solve n --method construct``, against the same C program.

It prints each figure (this machine's, with the load average before and after) and the ratios of medians.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ANCHOR = Path(__file__).with_name("anchors") / "min_conflicts.c"

Figure = dict[str, float]


def worker(n: int) -> None:
    """The in-process measurement, run in a fresh interpreter: JSON of CPU seconds on stdout."""
    from nqueens_kit.methods import solve
    from nqueens_kit.methods.search.local_search import COMPILED_FROM, min_conflicts
    from nqueens_kit.problem.board import Problem
    from nqueens_kit.runtime.jit import jit_name

    solve(COMPILED_FROM, "local-search", isolated=False)  # imports done, compiled kernels loaded (from this n)
    cpu = time.process_time()
    columns, stats = min_conflicts(Problem(n))
    search = time.process_time() - cpu
    del columns
    cpu = time.process_time()
    result = solve(n, "local-search", isolated=False)
    whole = time.process_time() - cpu
    if result.status != "solved" or not result.verified:
        raise SystemExit(f"no verified board of {n:,} queens: {result.status} {result.message}")
    print(json.dumps({"search_cpu": search, "solve_cpu": whole, "steps": stats["steps"], "runs": jit_name()}))


def measured(command: list[str], stdout: int | None = subprocess.DEVNULL) -> tuple[Figure, str]:
    """Run ``command``; its CPU seconds (user + system, children included), peak RSS in MB and wall seconds,
    and its output when asked."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=stdout, stderr=subprocess.PIPE, text=True)
    out = process.stdout.read() if process.stdout else ""
    err = process.stderr.read() if process.stderr else ""
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - start
    if process.returncode:
        raise SystemExit(f"{' '.join(command)} failed ({process.returncode}): {err.strip()[-500:]}")
    return {"cpu": usage.ru_utime + usage.ru_stime, "rss_mb": usage.ru_maxrss / 1024, "wall": wall}, out


def build_anchor(directory: str) -> str | None:
    """The C program built with ``cc -O2``, or None without a compiler."""
    compiler = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if compiler is None:
        print("no C compiler on PATH: the C anchor is skipped")
        return None
    binary = str(Path(directory) / "min_conflicts")
    subprocess.run([compiler, "-O2", "-o", binary, str(ANCHOR)], check=True)
    return binary


def cli(n: int, method: str) -> list[str]:
    return [sys.executable, "-m", "nqueens_kit", "solve", str(n), "--method", method]


def median(figures: list[Figure], key: str) -> float:
    return statistics.median(f[key] for f in figures)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="n = 10⁶ only, one run of each")
    parser.add_argument("--worker", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        worker(args.worker)
        return 0
    sizes = [10**6] if args.quick else [10**6, 10**7]
    rounds = 1 if args.quick else 3
    print(f"load average before: {os.getloadavg()}", flush=True)
    with tempfile.TemporaryDirectory() as directory:
        anchor = build_anchor(directory)
        measured([sys.executable, __file__, "--worker", "100"])  # kernels compiled and cached before timing
        for n in sizes:
            jobs: dict[str, list[Figure]] = {"in process": [], "CLI": [], "C": [], "construct CLI": []}
            steps: list[int] = []
            for _ in range(rounds):  # interleaved: a change of load hits every job alike
                figure, out = measured([sys.executable, __file__, "--worker", str(n)], stdout=subprocess.PIPE)
                inner = json.loads(out)
                steps.append(inner["steps"])
                figure.update(search_cpu=inner["search_cpu"], solve_cpu=inner["solve_cpu"])
                jobs["in process"].append(figure)
                jobs["CLI"].append(measured(cli(n, "local-search"))[0])
                if anchor is not None:
                    figure, out = measured([anchor, str(n)], stdout=subprocess.PIPE)
                    if "verified" not in out:
                        raise SystemExit(f"the C anchor gave no verified board: {out}")
                    jobs["C"].append(figure)
                jobs["construct CLI"].append(measured(cli(n, "construct"))[0])
                print(f"  n = {n:,}: round done, load {os.getloadavg()}", flush=True)
            print(f"\nn = {n:,} ({inner['runs']}; medians of {rounds}; CPU seconds, peak RSS in MB; steps {steps})")
            search, solve_cpu = median(jobs["in process"], "search_cpu"), median(jobs["in process"], "solve_cpu")
            print(f"  kit in process: search {search:.2f} s, solve with verification {solve_cpu:.2f} s "
                  f"(the worker process: {median(jobs['in process'], 'cpu'):.2f} s, "
                  f"{median(jobs['in process'], 'rss_mb'):.0f} MB)")
            for name in ("CLI", "C", "construct CLI"):
                if jobs[name]:
                    print(f"  {name:15} {median(jobs[name], 'cpu'):7.2f} s CPU {median(jobs[name], 'rss_mb'):7.0f} MB "
                          f"(wall {median(jobs[name], 'wall'):.2f} s)")
            if jobs["C"]:
                c = median(jobs["C"], "cpu")
                print(f"  ratios to C (CPU): search in process {search / c:.2f}x, solve in process "
                      f"{solve_cpu / c:.2f}x, local-search CLI {median(jobs['CLI'], 'cpu') / c:.2f}x, "
                      f"construct CLI {median(jobs['construct CLI'], 'cpu') / c:.2f}x")
                c_rss = median(jobs["C"], "rss_mb")
                print(f"  memory to C: local-search CLI {median(jobs['CLI'], 'rss_mb') / c_rss:.1f}x, "
                      f"construct CLI {median(jobs['construct CLI'], 'rss_mb') / c_rss:.1f}x")
    print(f"\nload average after: {os.getloadavg()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
