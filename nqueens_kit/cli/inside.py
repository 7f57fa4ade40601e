"""The command line for looking inside the solvers: ``trace`` (a CDCL search step by step), ``bnb`` (a
branch-and-bound tree) and ``solve --proof`` (a checked proof of unsatisfiability)."""

from __future__ import annotations

import argparse
from typing import Any

from ..errors import InputError
from ..runtime.limits import check_time_limit
from . import EXIT_NO, EXIT_OK, EXIT_TIMEOUT, _print_json, _report_solve
from .bench import _whole


def register(sub: argparse._SubParsersAction) -> None:
    from ..inside.cdcl import DEFAULT_MAX_EVENTS, MAX_TRACE_N
    from ..methods.sat.encodings import DEFAULT_ENCODING, ENCODINGS

    p = sub.add_parser("trace", help="watch a CDCL solver: decisions, propagations, conflicts, learned clauses",
                       description="Solve one board with a CDCL solver and print every step, one a line: "
                                   "decide, propagate (with the clause that forced it), conflict, learn, "
                                   "backjump, restart.  The kit's own solver tells everything; --engine "
                                   f"cadical shows CaDiCaL's real trail without the clauses.  Boards up to "
                                   f"n = {MAX_TRACE_N}.")
    p.add_argument("n", metavar="N", help="board size")
    p.add_argument("--place", metavar="R,C", nargs="+", action="extend", default=[],
                   help="pre-place a queen at row R, column C (1-based); repeatable")
    p.add_argument("--encoding", default=DEFAULT_ENCODING, help=f"one of: {', '.join(ENCODINGS)}")
    p.add_argument("--engine", default="kit", choices=["kit", "cadical"],
                   help="kit: the kit's own CDCL (every clause shown); cadical: CaDiCaL 1.9.5 via python-sat")
    p.add_argument("--max-events", default=str(DEFAULT_MAX_EVENTS), metavar="K",
                   help=f"stop after K events (default {DEFAULT_MAX_EVENTS:,})")
    p.add_argument("--time-limit", default=None, metavar="S", help="wall-clock limit in seconds")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    p.set_defaults(func=cmd_trace)

    from ..inside.bnb import DEFAULT_MAX_NODES, MAX_BNB_N
    from ..methods.ilp.formulations import FORMULATIONS

    p = sub.add_parser("bnb", help="branch and bound made visible: every LP relaxation of the search tree",
                       description="Solve one board by the kit's own branch and bound over LP relaxations (HiGHS "
                                   "or CBC solve each LP) and print the tree: each node's branching decision, "
                                   "LP bound, fractional cells, and whether it branched, was integral, "
                                   f"infeasible or pruned.  Boards up to n = {MAX_BNB_N}.")
    p.add_argument("n", metavar="N", help="board size")
    p.add_argument("--place", metavar="R,C", nargs="+", action="extend", default=[],
                   help="pre-place a queen at row R, column C (1-based); repeatable")
    p.add_argument("--formulation", default="lines", help=f"one of: {', '.join(FORMULATIONS)}")
    p.add_argument("--solver", default=None, help="LP solver: highs or cbc (default: cbc)")
    p.add_argument("--max-nodes", default=str(DEFAULT_MAX_NODES), metavar="K",
                   help=f"stop after K nodes (default {DEFAULT_MAX_NODES:,})")
    p.add_argument("--time-limit", default=None, metavar="S", help="wall-clock limit in seconds")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    p.set_defaults(func=cmd_bnb)


def cmd_trace(args: argparse.Namespace) -> int:
    from ..inside.cdcl import trace, trace_cadical
    from ..problem.board import Problem, draw, parse_cell, parse_n
    from ..runtime import isolate

    n = parse_n(args.n)
    problem = Problem(n, tuple(parse_cell(text, n) for text in args.place))
    limit = check_time_limit(args.time_limit)
    max_events = _whole(args.max_events, "--max-events", 1)
    if args.engine == "kit":
        run = isolate.run_in_child(trace, (problem, args.encoding, max_events), time_limit=limit)
    else:
        run = isolate.run_in_child(trace_cadical, (problem, args.encoding, max_events), time_limit=limit)
    if run.status != "done":
        run.raise_error()
        raise InputError(f"the trace did not finish within the {limit:g} s limit; try a smaller board or "
                         "--max-events") if run.status == "timeout" else InputError("the trace ran out of memory")
    result = run.value
    if args.json:
        _print_json(result.as_dict())
    else:
        for line in result.lines():
            print(line)
        stats = ", ".join(f"{v:,} {k}" for k, v in result.stats.items())
        print(f"{problem.describe()} ({args.encoding}, {args.engine}): {result.status}; {stats}"
              + (f"; {result.note}" if result.note else ""))
        if result.queens:
            print(draw(n, result.queens, problem.preplaced))
    return {"solved": EXIT_OK, "infeasible": EXIT_NO}.get(str(result.status), EXIT_TIMEOUT)


def solve_with_proof(args: argparse.Namespace) -> int:
    """``solve N --proof FILE``: SAT only; the proof is written and checked when the answer is no."""
    from ..inside.proofs import solve_with_proof as run
    from ..problem.board import Problem, parse_cell, parse_n

    if args.method != "sat":
        raise InputError("--proof is for --method sat (a SAT solver's proof of unsatisfiability); for ILP "
                         "see 'nqueens-kit bnb'")
    if args.formulation is not None:
        raise InputError("--formulation belongs to --method ilp; SAT uses --encoding")
    n = parse_n(args.n)
    problem = Problem(n, tuple(parse_cell(text, n) for text in args.place))
    result = run(problem, args.proof, args.encoding or "pairwise", args.solver, args.checker,
                 check_time_limit(args.time_limit))
    code = _report_solve(result, args.json)
    return code


def count_inside(args: argparse.Namespace, problem: Any) -> Any:
    """``count`` with ``--method model-count``, ``--break-symmetry`` or ``--no-projection``."""
    limit = check_time_limit(args.time_limit)
    if args.no_projection and args.method != "model-count":
        raise InputError("--no-projection goes with --method model-count")
    if args.method == "model-count":
        from ..methods.modelcount import check_options, model_count

        check_options(args.fundamental)
        if args.formulation is not None or args.solver is not None or args.settings is not None:
            raise InputError("--method model-count counts a CNF with Ganak: give --encoding only")
        return model_count(problem, args.encoding or "pairwise", project=not args.no_projection,
                           break_symmetry=args.break_symmetry, time_limit=limit)
    from ..inside.symmetry import count_broken

    if args.fundamental:
        raise InputError("--break-symmetry already counts one board per orbit (the fundamental solutions); "
                         "drop --fundamental")
    variant = args.encoding if args.method == "sat" else args.formulation
    if args.method == "sat" and args.formulation is not None or args.method == "ilp" and args.encoding is not None:
        raise InputError("--encoding goes with --method sat and --formulation with --method ilp")
    return count_broken(problem, args.method, variant, args.solver, limit, args.settings)


def cmd_bnb(args: argparse.Namespace) -> int:
    from ..inside.bnb import branch_and_bound, tree_text
    from ..problem.board import Problem, draw, parse_cell, parse_n
    from ..runtime import isolate

    n = parse_n(args.n)
    problem = Problem(n, tuple(parse_cell(text, n) for text in args.place))
    limit = check_time_limit(args.time_limit)
    max_nodes = _whole(args.max_nodes, "--max-nodes", 1)
    run = isolate.run_in_child(branch_and_bound, (problem, args.formulation, args.solver, max_nodes, limit),
                               time_limit=None if limit is None else limit + 5)
    if run.status != "done":
        run.raise_error()
        raise InputError("the branch and bound did not finish in time")
    tree = run.value
    if args.json:
        _print_json(tree.as_dict())
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
