"""How quickly the command answers, against a plain 30-line pycosat script that solves 8 queens.

    python benchmarks/bench_cli.py              # 7 rounds
    python benchmarks/bench_cli.py --rounds 11

Each round runs the anchor script, ``nqueens-kit solve 8`` and ``nqueens-kit --help`` once, one after the
other, in an order that turns with the round (interleaved, so a busy moment of the machine falls on all of
them alike).  What is measured is the CPU time of the whole process tree: user + system time of the process
and of every process it waited for (``os.wait4``), so a child a command forks, or an interpreter it starts,
is counted.  Printed: the median CPU of each, and the median over the rounds of each command's ratio to the
anchor of the same round (paired).  Wall-clock figures are printed too, as this machine's.

Every run has its modules' bytecode cached, as an installed kit has (pip compiles it on install): in a
temporary folder (``PYTHONPYCACHEPREFIX``), written by a warm-up run, so the work tree stays as it is.
``--no-bytecode`` measures with none of the kit's cached (its modules compiled on every import, as under
``PYTHONDONTWRITEBYTECODE`` in a source tree; the standard library's bytecode is read as always).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

#: The anchor: what a newcomer would write to solve 8 queens with pycosat (exactly one queen per row and
#: column, at most one per diagonal, pairwise), and print the board.
ANCHOR = """\
import pycosat

n = 8


def var(r, c):
    return r * n + c + 1


clauses = []
for i in range(n):
    row = [var(i, c) for c in range(n)]
    col = [var(r, i) for r in range(n)]
    clauses += [row, col]
    for line in (row, col):
        clauses += [[-a, -b] for k, a in enumerate(line) for b in line[k + 1:]]
for d in range(-(n - 2), 2 * n - 1):
    for line in ([var(r, r - d) for r in range(n) if 0 <= r - d < n],
                 [var(r, d - r) for r in range(n) if 0 <= d - r < n]):
        clauses += [[-a, -b] for k, a in enumerate(line) for b in line[k + 1:]]
model = pycosat.solve(clauses)
queens = {v - 1 for v in model if v > 0}
for r in range(n):
    print(" ".join("Q" if r * n + c in queens else "." for c in range(n)))
assert len(queens) == n
"""


def command() -> list[str]:
    """The console script beside this interpreter (else ``python -m nqueens_kit``)."""
    script = os.path.join(os.path.dirname(sys.executable), "nqueens-kit")
    if os.path.exists(script):
        return [script]
    found = shutil.which("nqueens-kit")
    return [found] if found else [sys.executable, "-m", "nqueens_kit"]


def tree_cpu(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """CPU seconds (user + system, the process and every process it waited for) and wall seconds of a run."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    error = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
    if proc.stderr:
        proc.stderr.close()
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed (exit {proc.returncode}): {error.strip()[-400:]}")
    return usage.ru_utime + usage.ru_stime, wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=7, help="paired rounds (default 7; the medians are printed)")
    parser.add_argument("--no-bytecode", action="store_true", help="cache no bytecode: compile every module")
    args = parser.parse_args()
    if args.no_bytecode:  # the standard library's own bytecode is read as always; none is written
        env = {name: value for name, value in os.environ.items() if name != "PYTHONPYCACHEPREFIX"}
        measure(args.rounds, dict(env, PYTHONDONTWRITEBYTECODE="1"), "of the kit none cached")
        return
    with tempfile.TemporaryDirectory(prefix="bench-cli-") as cache:
        env = dict(os.environ, PYTHONPYCACHEPREFIX=cache)
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        measure(args.rounds, env, "cached")


def measure(rounds: int, env: dict[str, str], bytecode: str) -> None:
    kit = command()
    runs = {"pycosat script": [sys.executable, "-c", ANCHOR], "solve 8": [*kit, "solve", "8"],
            "--help": [*kit, "--help"]}
    for argv in runs.values():  # a warm-up: files in the page cache, bytecode written
        tree_cpu(argv, env)
    cpu: dict[str, list[float]] = {name: [] for name in runs}
    wall: dict[str, list[float]] = {name: [] for name in runs}
    names = list(runs)
    for round_ in range(rounds):
        for name in names[round_ % len(names):] + names[:round_ % len(names)]:
            seconds, took = tree_cpu(runs[name], env)
            cpu[name].append(seconds)
            wall[name].append(took)
    anchor = "pycosat script"
    print(f"{rounds} interleaved rounds, bytecode {bytecode}; CPU = user + system of the process tree (os.wait4): "
          f"the median per command, and the median of its paired ratios to the {anchor}")
    print(f"{'':16} {'CPU ms':>8} {'ratio':>7}   {'wall ms (this machine, under its load)':>38}")
    for name in names:
        ratios = [mine / base for mine, base in zip(cpu[name], cpu[anchor], strict=True)]
        ratio = f"{statistics.median(ratios):6.2f}x" if name != anchor else "      -"
        print(f"{name:16} {statistics.median(cpu[name]) * 1000:8.1f} {ratio:>7}   "
              f"{statistics.median(wall[name]) * 1000:38.1f}")


if __name__ == "__main__":
    main()
