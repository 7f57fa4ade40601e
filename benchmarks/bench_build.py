"""Building and writing large N-queens formulas: the array builder and writer beside the readable ones.

    python benchmarks/bench_build.py                      # n = 500 and 1000; commander, sequential, product
    python benchmarks/bench_build.py --n 1000 --encodings commander --handoff
    python benchmarks/bench_build.py --quick              # the array path only (no readable reference runs)

Every case runs in a fresh child process, so that its peak resident set is its own.  Per case it prints:

- *build*: :func:`~nqueens_kit.methods.sat.cnf.build_cnf` (the array builder above ``FAST_ABOVE`` clauses)
  beside :func:`~nqueens_kit.methods.sat.cnf.build_readable` (clause by clause, the reference), and their ratio;
- *write*: :func:`~nqueens_kit.methods.sat.cnf.write_dimacs` (arrays to text) beside the clause-by-clause
  writer, both through the kit's atomic writer (a temporary file, fsync, rename), and their ratio;
- *bound*: writing the very same bytes from a prepared buffer through the same atomic writer, the least a
  write can cost on this machine, and the array writer's ratio to it;
- *peak*: the child's peak resident set (MB) for each path; *same*: whether both paths wrote the same bytes;
- then the build and write again in processor seconds of the child.

``--handoff`` adds what an in-process solver costs beyond the build: the list of lists pycosat and
python-sat take (``cnf.clauses``), and loading it into each (pycosat stopped after one propagation;
python-sat's ``append_formula``, not solved).  Pairwise is quadratic per line: it is measured at the sizes
``--pairwise-n`` gives (the size guard refuses its list form from n = 500 on).

The machine may be busy: compare the ratios, measured in the same run, before the absolute figures.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy  # noqa: F401  # imported before any clock starts, as the array path needs it and the readable one not

from nqueens_kit.formats.dimacs import write_dimacs_clauses
from nqueens_kit.methods.sat.cnf import _dimacs_header_comments, build_cnf, build_readable, write_dimacs
from nqueens_kit.problem.board import Problem
from nqueens_kit.runtime.files import written_whole


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _digest(path: Path) -> str:
    sha = hashlib.sha256()
    with open(path, "rb") as handle:
        while block := handle.read(1 << 24):
            sha.update(block)
    return sha.hexdigest()


def run_case(encoding: str, n: int, mode: str, folder: str, handoff: bool) -> dict[str, Any]:
    """One measurement in this process: ``mode`` is ``arrays`` or ``readable``."""
    path = Path(folder) / f"{encoding}-{n}-{mode}.cnf"
    start, cpu = time.perf_counter(), time.process_time()
    cnf = build_cnf(n, encoding, max_memory="64G") if mode == "arrays" else build_readable(Problem(n), encoding)
    build, build_cpu = time.perf_counter() - start, time.process_time() - cpu
    peak_build = _peak_mb()
    start, cpu = time.perf_counter(), time.process_time()
    if mode == "arrays":
        write_dimacs(cnf, path)
    else:  # the clause-by-clause writer, as write_dimacs wrote every formula before
        with written_whole(path, encoding="ascii") as out:
            write_dimacs_clauses(out, cnf.num_vars, cnf.clauses, _dimacs_header_comments(cnf), cnf.groups)
    write, write_cpu = time.perf_counter() - start, time.process_time() - cpu
    result: dict[str, Any] = {"encoding": encoding, "n": n, "mode": mode, "clauses": cnf.num_clauses,
                              "variables": cnf.num_vars, "build": build, "write": write, "build_cpu": build_cpu,
                              "write_cpu": write_cpu, "bytes": path.stat().st_size,
                              "peak_build_mb": peak_build, "peak_mb": _peak_mb(), "sha256": _digest(path)}
    if mode == "arrays":
        data = path.read_bytes()
        bound = Path(folder) / f"{encoding}-{n}-bound.cnf"
        start = time.perf_counter()
        with written_whole(bound, "wb") as out:
            out.write(data)
        result["bound"] = time.perf_counter() - start
        bound.unlink()
        del data
    path.unlink()
    if handoff and mode == "arrays":
        result |= _handoff(cnf)
    return result


def _handoff(cnf: Any) -> dict[str, Any]:
    """The list of lists, and loading it into pycosat and python-sat (each in-process path's cost)."""
    start = time.perf_counter()
    clauses = cnf.clauses
    found: dict[str, Any] = {"tolist": time.perf_counter() - start, "peak_list_mb": _peak_mb()}
    try:
        import pycosat

        start = time.perf_counter()
        pycosat.solve(clauses, vars=cnf.num_vars, prop_limit=1)
        found["pycosat_load"] = time.perf_counter() - start
    except ImportError:
        pass
    try:
        from pysat.solvers import Solver

        for name in ("cadical195", "minisat22"):
            start = time.perf_counter()
            solver = Solver(name=name)
            solver.append_formula(clauses)
            found[f"pysat_{name}_load"] = time.perf_counter() - start
            solver.delete()
    except ImportError:
        pass
    found["peak_handoff_mb"] = _peak_mb()
    return found


def measure(encoding: str, n: int, mode: str, folder: str, handoff: bool) -> dict[str, Any] | str:
    """:func:`run_case` in a fresh child process; its JSON, or the last line it printed on failure."""
    args = [sys.executable, __file__, "--case", encoding, str(n), mode, folder] + (["--handoff"] if handoff else [])
    done = subprocess.run(args, capture_output=True, text=True)
    if done.returncode:
        lines = (done.stderr or done.stdout).strip().splitlines()
        return lines[-1] if lines else f"exit {done.returncode}"
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def _f(value: Any, digits: int = 2) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _ratio(a: Any, b: Any) -> str:
    return "-" if a is None or b is None or not b else f"{a / b:.1f}x"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, nargs="+", default=[500, 1000])
    parser.add_argument("--encodings", nargs="+", default=["commander", "sequential", "product"])
    parser.add_argument("--pairwise-n", type=int, nargs="*", default=[200],
                        help="sizes at which pairwise is measured too (none: leave it out)")
    parser.add_argument("--quick", action="store_true", help="the array path only")
    parser.add_argument("--handoff", action="store_true", help="also the list of lists and in-process solvers")
    parser.add_argument("--case", nargs=4, metavar=("ENCODING", "N", "MODE", "FOLDER"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.case:
        encoding, n, mode, folder = args.case
        print(json.dumps(run_case(encoding, int(n), mode, folder, args.handoff)))
        return
    cases = [(e, n) for n in args.n for e in args.encodings] + [("pairwise", n) for n in args.pairwise_n]
    print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at the start; seconds; peak in MB\n")
    print("| n | encoding | clauses | build readable | build arrays | ratio | write readable | write arrays | ratio "
          "| bound | arrays/bound | peak readable | peak arrays | same bytes |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    cpu_rows = []
    handoffs = []
    with tempfile.TemporaryDirectory(prefix="bench-build-") as folder:
        for encoding, n in cases:
            fast = measure(encoding, n, "arrays", folder, args.handoff)
            slow = None if args.quick else measure(encoding, n, "readable", folder, False)
            if isinstance(fast, str):
                print(f"| {n} | {encoding} | arrays failed: {fast} |")
                continue
            old = slow if isinstance(slow, dict) else {}
            same = "-" if not old else ("yes" if old["sha256"] == fast["sha256"] else "NO")
            print(f"| {n} | {encoding} | {fast['clauses']:,} | {_f(old.get('build'))} | {_f(fast['build'])} | "
                  f"{_ratio(old.get('build'), fast['build'])} | {_f(old.get('write'))} | {_f(fast['write'])} | "
                  f"{_ratio(old.get('write'), fast['write'])} | {_f(fast['bound'])} | "
                  f"{_ratio(fast['write'], fast['bound'])} | {_f(old.get('peak_mb'), 0)} | {_f(fast['peak_mb'], 0)} | "
                  f"{same} |", flush=True)
            cpu_rows.append(f"| {n} | {encoding} | {_f(old.get('build_cpu'))} | {_f(fast['build_cpu'])} | "
                            f"{_ratio(old.get('build_cpu'), fast['build_cpu'])} | {_f(old.get('write_cpu'))} | "
                            f"{_f(fast['write_cpu'])} | {_ratio(old.get('write_cpu'), fast['write_cpu'])} |")
            if isinstance(slow, str):
                print(f"|   | {encoding} | readable: {slow} |")
            if args.handoff:
                handoffs.append(fast)
    print("\nThe same, in seconds of this process's processor time (less sensitive to a busy machine; the array "
          "writer converts on two threads, so its processor time may exceed its wall time):\n")
    print("| n | encoding | build readable | build arrays | ratio | write readable | write arrays | ratio |")
    print("|---|---|---|---|---|---|---|---|")
    print("\n".join(cpu_rows))
    if handoffs:
        print("\nIn-process solvers (seconds beyond the build; peak MB):\n")
        print("| n | encoding | list of lists | pycosat load | python-sat cadical195 | python-sat minisat22 | peak |")
        print("|---|---|---|---|---|---|---|")
        for r in handoffs:
            print(f"| {r['n']} | {r['encoding']} | {_f(r.get('tolist'))} | {_f(r.get('pycosat_load'))} | "
                  f"{_f(r.get('pysat_cadical195_load'))} | {_f(r.get('pysat_minisat22_load'))} | "
                  f"{_f(r.get('peak_handoff_mb'), 0)} |")


if __name__ == "__main__":
    main()
