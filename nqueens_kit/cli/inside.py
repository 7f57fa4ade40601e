"""The command line for looking inside the solvers: ``trace`` (a CDCL search step by step) and ``bnb`` (a
branch-and-bound tree).  (``solve --proof``, a checked proof of unsatisfiability, is in :mod:`.solve`.)"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

from .common import EXIT_NO, EXIT_OK, EXIT_TIMEOUT, PROG, add_json, add_place, print_json, problem_from, whole

if TYPE_CHECKING:
    from ..runtime.isolate import ChildRun


def _board_options(p: argparse.ArgumentParser, own: Callable[[argparse.ArgumentParser], None]) -> None:
    """What ``trace`` and ``bnb`` share, around the options ``own`` adds: the board (N, --place), then
    --time-limit and --json."""
    p.add_argument("n", metavar="N", help="board size")
    add_place(p)
    own(p)
    p.add_argument("--time-limit", default=None, metavar="S", help="wall-clock limit in seconds")
    add_json(p)


def _trace_options(p: argparse.ArgumentParser) -> None:
    from ..inside.cdcl import DEFAULT_MAX_EVENTS, MAX_TRACE_N
    from ..methods.sat.encodings import DEFAULT_ENCODING, ENCODINGS

    p.description = ("Solve one board with a CDCL solver and print every step, one a line: decide, propagate (with "
                     "the clause that forced it), conflict, learn, backjump, restart.  The kit's own solver tells "
                     "everything; --engine cadical shows CaDiCaL's real trail without the clauses.  Boards up to "
                     f"n = {MAX_TRACE_N}.")

    def own(p: argparse.ArgumentParser) -> None:
        p.add_argument("--encoding", default=DEFAULT_ENCODING, help=f"one of: {', '.join(ENCODINGS)}")
        p.add_argument("--engine", default="kit", choices=["kit", "cadical"],
                       help="kit: the kit's own CDCL (every clause shown); cadical: CaDiCaL 1.9.5 via python-sat")
        p.add_argument("--max-events", default=str(DEFAULT_MAX_EVENTS), metavar="K",
                       help=f"stop after K events (default {DEFAULT_MAX_EVENTS:,})")

    _board_options(p, own)
    p.set_defaults(func=cmd_trace)


def _bnb_options(p: argparse.ArgumentParser) -> None:
    from ..inside.bnb import DEFAULT_MAX_NODES, MAX_BNB_N
    from ..methods.ilp.formulations import FORMULATIONS

    p.description = ("Solve one board by the kit's own branch and bound over LP relaxations (HiGHS or CBC solve "
                     "each LP) and print the tree: each node's branching decision, LP bound, fractional cells, and "
                     f"whether it branched, was integral, infeasible or pruned.  Boards up to n = {MAX_BNB_N}.")

    def own(p: argparse.ArgumentParser) -> None:
        p.add_argument("--formulation", default="lines", help=f"one of: {', '.join(FORMULATIONS)}")
        p.add_argument("--solver", default=None, help="LP solver: highs or cbc (default: cbc)")
        p.add_argument("--max-nodes", default=str(DEFAULT_MAX_NODES), metavar="K",
                       help=f"stop after K nodes (default {DEFAULT_MAX_NODES:,})")

    _board_options(p, own)
    p.set_defaults(func=cmd_bnb)


#: The subcommands of this module: name -> (help, the function that adds its options).
COMMANDS = {
    "trace": ("watch a CDCL solver: decisions, propagations, conflicts, learned clauses", _trace_options),
    "bnb": ("branch and bound made visible: every LP relaxation of the search tree", _bnb_options),
}


def register(sub: argparse._SubParsersAction) -> None:
    """Add this module's subcommands, with their options, to the ``nqueens-kit`` parser."""
    for name, (help_text, add_options) in COMMANDS.items():
        add_options(sub.add_parser(name, help=help_text))


def _stopped(run: ChildRun, what: str, limit: float | None, hint: str) -> int:
    """A trace or tree that did not finish: the child's error raised, or one line and exit status 3."""
    from ..runtime.isolate import Ended

    run.raise_error()
    why = f"did not finish within the {limit:g} s limit" if run.status == Ended.TIMEOUT else "ran out of memory"
    print(f"{PROG}: {what} {why}; {hint}", file=sys.stderr)
    return EXIT_TIMEOUT


def cmd_trace(args: argparse.Namespace) -> int:
    from ..inside.cdcl import trace, trace_cadical
    from ..problem.board import draw
    from ..runtime import isolate
    from ..runtime.isolate import Ended
    from ..runtime.limits import check_time_limit

    problem = problem_from(args.n, args.place)
    n = problem.n
    limit = check_time_limit(args.time_limit)
    max_events = whole(args.max_events, "--max-events", 1)
    if args.engine == "kit":
        run = isolate.run_in_child(trace, (problem, args.encoding, max_events), time_limit=limit)
    else:
        run = isolate.run_in_child(trace_cadical, (problem, args.encoding, max_events), time_limit=limit)
    if run.status != Ended.DONE:
        return _stopped(run, "the trace", limit, "try a smaller board or --max-events")
    result = run.value
    if args.json:
        print_json(result.as_dict())
    else:
        for line in result.lines():
            print(line)
        stats = ", ".join(f"{v:,} {k}" for k, v in result.stats.items())
        print(f"{problem.describe()} ({args.encoding}, {args.engine}): {result.status}; {stats}"
              + (f"; {result.note}" if result.note else ""))
        if result.queens:
            print(draw(n, result.queens, problem.preplaced))
    return {"solved": EXIT_OK, "infeasible": EXIT_NO}.get(str(result.status), EXIT_TIMEOUT)


def cmd_bnb(args: argparse.Namespace) -> int:
    from ..inside.bnb import branch_and_bound, tree_text
    from ..problem.board import draw
    from ..runtime import isolate
    from ..runtime.isolate import Ended
    from ..runtime.limits import check_time_limit

    problem = problem_from(args.n, args.place)
    n = problem.n
    limit = check_time_limit(args.time_limit)
    max_nodes = whole(args.max_nodes, "--max-nodes", 1)
    run = isolate.run_in_child(branch_and_bound, (problem, args.formulation, args.solver, max_nodes, limit),
                               time_limit=None if limit is None else limit + 5)
    if run.status != Ended.DONE:
        return _stopped(run, "the branch and bound", limit, "try a smaller board or --max-nodes")
    tree = run.value
    if args.json:
        print_json(tree.as_dict())
    else:
        for line in tree_text(tree):
            print(line)
        counts = ", ".join(f"{v} {k}" for k, v in tree.counts().items() if v)
        best = f"; best {tree.objective:g} queens" if tree.objective is not None else ""
        print(f"{problem.describe()} ({tree.formulation}, LPs by {tree.solver}): {tree.status}{best}; "
              f"{len(tree.nodes)} nodes ({counts}) in {tree.seconds:.2f} s" + (f"; {tree.note}" if tree.note else ""))
        if tree.queens:
            print(draw(n, tree.queens, problem.preplaced))
    return {"solved": EXIT_OK, "infeasible": EXIT_NO}.get(str(tree.status), EXIT_TIMEOUT)
