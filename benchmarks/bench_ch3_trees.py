"""Chapter 3's branch-and-bound trees: the kit's own branch and bound per n, LP solver and formulation, stored.

    python benchmarks/bench_ch3_trees.py                                      # print the record
    python benchmarks/bench_ch3_trees.py -o notebooks/data/ch3-trees.json     # what chapter 3 reads

One row per (n, LP solver, formulation) of :func:`~nqueens_kit.course.lessons.tree_sizes`: the nodes (LPs
solved), the depth of the deepest node, the status and, for max-queens, the optimum.  The edge model's trees
grow about fivefold per n, and with CBC every node is a process of its own, so n = 7 takes longer than a
lecture cell should; chapter 3 runs the small boards live and reads the rest from this record.  The node
counts depend on the LP solvers' versions (which vertex an LP returns), so the record names them, with the
machine and the command line (:func:`~nqueens_kit.bench.environment.environment`).
"""

from __future__ import annotations

import argparse
import shlex
import sys
from typing import Any

from nqueens_kit.bench.environment import emit_record, environment, load_average
from nqueens_kit.course.lessons import ilp_solvers_here, tree_sizes
from nqueens_kit.solvers import get_solver

SIZES = (4, 5, 6, 7)
#: Seconds per tree: far more than any of them needs, so that a busy machine cannot cut a tree short.
TIME_LIMIT = 3600.0


def record(sizes: tuple[int, ...] = SIZES) -> dict[str, Any]:
    """The trees for ``sizes`` with every LP solver installed here, and how they were made."""
    before = load_average()
    rows = tree_sizes(sizes, time_limit=TIME_LIMIT)
    if any(row["status"] != "solved" for row in rows):
        raise SystemExit(f"a tree did not finish: {[row for row in rows if row['status'] != 'solved']}")
    solvers = {name: get_solver("ilp", name).version() for name in ilp_solvers_here()}
    return {"sizes": list(sizes), "rows": rows, "solvers": solvers, "load_average_start": before,
            "load_average_end": load_average(), "command": shlex.join(["python", *sys.argv]),
            "environment": environment()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", default=",".join(map(str, SIZES)), help="board sizes, comma-separated (default 4,5,6,7)")
    parser.add_argument("-o", "--out", help="write the record to this JSON file")
    args = parser.parse_args(argv)
    sizes = tuple(int(part) for part in args.n.split(","))
    return emit_record(record(sizes), args.out)


if __name__ == "__main__":
    sys.exit(main())
