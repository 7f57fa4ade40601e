"""Chapter 3's boards with no solution: the kit's branch and bound, lines against pairwise, stored.

    python benchmarks/bench_ch3_impossible.py                                          # print the record
    python benchmarks/bench_ch3_impossible.py -o notebooks/data/ch3-impossible.json    # what chapter 3 reads

The instances are the 6-queens board with a queen in its corner and the first ``--count`` random impossible
3-queen completions of :func:`~nqueens_kit.course.strength.impossible_completions` (n = 8 to 10, seed 0, the
same on every machine).  One row per (instance, LP solver, formulation) of
:func:`~nqueens_kit.course.strength.impossible_trees`: the nodes (LPs solved) and whether the root LP is
infeasible.  Node counts depend on the LP solvers' versions, so the record names them, with the machine and
the command line; a sidecar ``.meta.json`` holds the same description without the rows.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from pathlib import Path
from typing import Any

from nqueens_kit.bench.environment import environment, load_average
from nqueens_kit.course.lessons import ilp_solvers_here
from nqueens_kit.course.strength import impossible_completions, impossible_trees
from nqueens_kit.problem.board import Problem
from nqueens_kit.solvers import get_solver

COUNT = 40


def record(count: int = COUNT) -> dict[str, Any]:
    """The trees for the corner-queen board and ``count`` random impossible completions, every LP solver here."""
    before = load_average()
    problems = [Problem(6, [(1, 1)]), *impossible_completions(count)]
    solvers = ilp_solvers_here()
    rows = impossible_trees(problems, solvers)
    return {"count": count, "rows": rows, "solvers": {name: get_solver("ilp", name).version() for name in solvers},
            "load_average_start": before, "load_average_end": load_average(),
            "command": shlex.join(["python", *sys.argv]), "environment": environment()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=COUNT, help=f"random instances (default {COUNT})")
    parser.add_argument("-o", "--out", help="write the record to this JSON file (and its .meta.json)")
    args = parser.parse_args(argv)
    made = record(args.count)
    text = json.dumps(made, indent=1) + "\n"
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
        meta = {key: value for key, value in made.items() if key != "rows"}
        Path(args.out + ".meta.json").write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    print(text, end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
