"""The ``nqueens-kit`` command.

::

    nqueens-kit solve N [--method sat|ilp|construct] [--encoding NAME] [--formulation NAME]
                        [--solver NAME] [--place R,C ...] [--time-limit S] [--json]
    nqueens-kit count N [--method sat|backtrack|ilp] [--encoding NAME] [--fundamental] [--json]
    nqueens-kit count --from-cnf FILE [--n N] [--json]
    nqueens-kit cnf N [--encoding NAME] [--place R,C ...] [-o FILE]
    nqueens-kit decode SOLVER_OUTPUT --n N [--json]
    nqueens-kit lp N [--formulation NAME] [--place R,C ...] -o FILE.lp|FILE.mps
    nqueens-kit solvers
    nqueens-kit bench ... | plot ... | report ...

Exit status: 0 solved (or counted, or written), 1 infeasible or an invalid board, 2 bad input (one line on
stderr saying what is wrong and what is valid), 3 time limit reached, 130 interrupted.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from .board import Cell, Problem, draw, parse_cell, parse_n, violations
from .errors import InputError, NQueensError
from .results import CountResult, SolveResult

PROG = "nqueens-kit"
EXIT_OK, EXIT_NO, EXIT_INPUT, EXIT_TIMEOUT, EXIT_INTERRUPTED = 0, 1, 2, 3, 130
#: Boards larger than this are not drawn as text (use --json for the queens).
DRAW_LIMIT = 64


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors (the usage is one ``--help`` away)."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_INPUT, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def _time_limit(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"time limit must be a positive number of seconds, not {text!r}") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"time limit must be a positive number of seconds, not {text!r}")
    return value


def _add_place(p: argparse.ArgumentParser) -> None:
    p.add_argument("--place", metavar="R,C", nargs="+", action="extend", default=[],
                   help="pre-place a queen at row R, column C (1-based); repeatable")


def _add_json(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help="print one JSON object instead of text")


def _problem(n_text: str, places: Sequence[str]) -> Problem:
    n = parse_n(n_text)
    cells: list[Cell] = [parse_cell(text, n) for text in places]
    return Problem(n, tuple(cells))


def build_parser() -> argparse.ArgumentParser:
    from .encodings import DEFAULT_ENCODING, ENCODINGS

    parser = _Parser(prog=PROG, description="N-queens as SAT and as ILP: solve, count, encode, measure.",
                     epilog="Exit status: 0 solved, 1 infeasible, 2 bad input, 3 time limit reached.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    encodings = ", ".join(ENCODINGS)

    p = sub.add_parser("solve", help="find one solution (SAT, ILP or the explicit construction)")
    p.add_argument("n", metavar="N", help="board size")
    p.add_argument("--method", choices=["sat", "ilp", "construct"], default="sat")
    p.add_argument("--encoding", default=DEFAULT_ENCODING, help=f"SAT encoding: {encodings}")
    p.add_argument("--formulation", default=None, help="ILP formulation: lines (default), pairwise, max-queens")
    p.add_argument("--solver", default=None, help="pycosat (SAT default), cbc (ILP default), see 'solvers'")
    _add_place(p)
    p.add_argument("--time-limit", type=_time_limit, default=None, metavar="S", help="stop after S seconds")
    _add_json(p)
    p.set_defaults(func=cmd_solve)

    p = sub.add_parser("count", help="count all (or fundamental) solutions")
    p.add_argument("n", metavar="N", nargs="?", help="board size (omit with --from-cnf)")
    p.add_argument("--method", choices=["sat", "backtrack", "ilp"], default="sat")
    p.add_argument("--encoding", default=DEFAULT_ENCODING, help=f"SAT encoding: {encodings}")
    p.add_argument("--formulation", default=None, help="ILP formulation (with --method ilp)")
    p.add_argument("--solver", default=None, help="solver to enumerate with")
    p.add_argument("--fundamental", action="store_true", help="also count solutions up to rotation and reflection")
    p.add_argument("--from-cnf", metavar="FILE", help="count the boards of a DIMACS file (projected onto 1..n²)")
    p.add_argument("--n", dest="cnf_n", metavar="N", help="board size of --from-cnf (default: √variables)")
    _add_place(p)
    _add_json(p)
    p.set_defaults(func=cmd_count)

    p = sub.add_parser("cnf", help="write the CNF in DIMACS format")
    p.add_argument("n", metavar="N", help="board size")
    p.add_argument("--encoding", default=DEFAULT_ENCODING, help=f"one of: {encodings}")
    _add_place(p)
    p.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of standard output")
    p.add_argument("--no-comments", action="store_true", help="leave out the explanatory c lines")
    p.set_defaults(func=cmd_cnf)

    p = sub.add_parser("decode", help="read a SAT solver's output and draw and check the board")
    p.add_argument("output", metavar="SOLVER_OUTPUT", help="MiniSat result file or competition-format output ('-': stdin)")
    p.add_argument("--n", dest="decode_n", metavar="N", required=True, help="board size")
    _add_place(p)
    _add_json(p)
    p.set_defaults(func=cmd_decode)

    p = sub.add_parser("lp", help="export the ILP model as .lp or .mps")
    p.add_argument("n", metavar="N", help="board size")
    p.add_argument("--formulation", default=None, help="lines (default), pairwise, max-queens")
    _add_place(p)
    p.add_argument("-o", "--output", metavar="FILE", required=True, help="FILE.lp or FILE.mps")
    p.set_defaults(func=cmd_lp)

    p = sub.add_parser("solvers", help="list the SAT and ILP solvers and whether they are installed")
    _add_json(p)
    p.set_defaults(func=cmd_solvers)

    from . import cli_bench

    cli_bench.register(sub, _Parser)
    return parser


def _version() -> str:
    from . import __version__

    return __version__


def _print_json(data: Any) -> None:
    print(json.dumps(data, indent=None, separators=(",", ":")))


def _resolve_sat_solver(name: str | None) -> str:
    from .ilp import ILP_SOLVERS
    from .sat import DEFAULT_SAT_SOLVER, get_sat_solver

    if name is None:
        return DEFAULT_SAT_SOLVER
    if name in ILP_SOLVERS:
        raise InputError(f"{name} is an ILP solver; use it with --method ilp (SAT solvers: see '{PROG} solvers')")
    return get_sat_solver(name).name


def _check_ilp_options(args: argparse.Namespace) -> None:
    if args.method != "ilp" and args.formulation is not None:
        raise InputError("--formulation belongs to --method ilp; SAT uses --encoding")


def _report_solve(result: SolveResult, as_json: bool) -> int:
    if as_json:
        _print_json(result.to_dict())
    else:
        how = {"sat": f"SAT, {result.encoding} encoding, {result.solver}",
               "ilp": f"ILP, {result.formulation} formulation, {result.solver}",
               "construct": "explicit construction"}.get(result.method, result.method)
        problem = Problem(result.n, result.preplaced)
        head = f"{problem.describe()} ({how}): {result.status}"
        if result.status == "solved":
            head += ", verified" if result.verified else ", NOT VALID"
        print(head)
        size = []
        if result.variables is not None:
            size.append(f"{result.variables:,} variables")
        if result.clauses is not None:
            size.append(f"{result.clauses:,} clauses")
        if result.constraints is not None:
            size.append(f"{result.constraints:,} constraints")
        size.append(f"built in {result.build_seconds:.3f} s, solved in {result.solve_seconds:.3f} s")
        print("; ".join(size))
        if result.message:
            print(result.message)
        if result.status == "solved":
            if result.n <= DRAW_LIMIT:
                print(draw(result.n, result.queens, result.preplaced))
            else:
                print(f"(a {result.n}x{result.n} board is too large to draw; --json lists the queens)")
            if not result.verified:
                for problem_text in violations(result.n, result.queens, result.preplaced):
                    print(f"  {problem_text}")
    if result.status == "solved":
        return EXIT_OK if result.verified else EXIT_NO
    return EXIT_TIMEOUT if result.status == "timeout" else EXIT_NO


def cmd_solve(args: argparse.Namespace) -> int:
    problem = _problem(args.n, args.place)
    _check_ilp_options(args)
    if args.method == "sat":
        from .sat import solve_sat

        result = solve_sat(problem, args.encoding, _resolve_sat_solver(args.solver), args.time_limit)
    elif args.method == "ilp":
        from .ilp import DEFAULT_FORMULATION, solve_ilp

        result = solve_ilp(problem, args.formulation or DEFAULT_FORMULATION, args.solver or "cbc", args.time_limit)
    else:
        from .construct import solve_construct

        if args.solver is not None:
            raise InputError("the construction uses no solver; drop --solver or use --method sat|ilp")
        result = solve_construct(problem)
    return _report_solve(result, args.json)


def _report_count(result: CountResult, as_json: bool) -> int:
    if as_json:
        _print_json(result.to_dict())
        return EXIT_OK
    how = {"sat": f"SAT, {result.variant} encoding, {result.solver}",
           "ilp": f"ILP, {result.variant} formulation, {result.solver}",
           "backtrack": "bitmask backtracking"}.get(result.method, result.method)
    problem = Problem(result.n, result.preplaced) if result.n else None
    what = problem.describe() if problem else "the formula"
    line = f"{what}: {result.count:,} solutions"
    if result.fundamental is not None:
        line += f", {result.fundamental:,} fundamental (up to rotation and reflection)"
    print(f"{line} [{how}, {result.seconds:.3f} s]")
    if result.note:
        print(result.note)
    return EXIT_OK


def cmd_count(args: argparse.Namespace) -> int:
    import time

    if args.from_cnf:
        return _count_from_cnf(args)
    if args.n is None:
        raise InputError("count needs a board size N (or --from-cnf FILE)")
    if args.cnf_n is not None:
        raise InputError("--n goes with --from-cnf; give the board size as the first argument")
    problem = _problem(args.n, args.place)
    _check_ilp_options(args)
    if args.method == "sat":
        from .sat import count_solutions

        result = count_solutions(problem, args.encoding, _resolve_sat_solver(args.solver), args.fundamental)
    elif args.method == "ilp":
        from .ilp import DEFAULT_FORMULATION, count_ilp

        result = count_ilp(problem, args.formulation or DEFAULT_FORMULATION, args.solver or "cbc",
                           fundamental=args.fundamental)
    else:
        from .board import canonical
        from .construct import count_backtrack, iter_backtrack

        if args.solver is not None:
            raise InputError("backtracking uses no solver; drop --solver or use --method sat|ilp")
        start = time.perf_counter()
        if problem.preplaced:
            boards = list(iter_backtrack(problem.n, problem.preplaced))
            count = len(boards)
            fundamental = len({canonical(problem.n, b) for b in boards}) if args.fundamental else None
        else:
            count = count_backtrack(problem.n)
            fundamental = count_backtrack(problem.n, fundamental=True) if args.fundamental else None
        result = CountResult(n=problem.n, count=count, method="backtrack", fundamental=fundamental,
                             seconds=time.perf_counter() - start, preplaced=problem.preplaced)
    return _report_count(result, args.json)


def _count_from_cnf(args: argparse.Namespace) -> int:
    import time

    from .board import canonical
    from .dimacs import read_dimacs
    from .sat import count_projected

    if args.n is not None:
        raise InputError("with --from-cnf give the board size as --n N, not as an argument")
    if args.method != "sat" or args.place:
        raise InputError("--from-cnf counts a file's own solutions by SAT; --method and --place do not apply")
    dimacs = read_dimacs(args.from_cnf)
    if args.cnf_n is not None:
        n = parse_n(args.cnf_n, what="--n")
    else:
        guessed = dimacs.board_size()
        if guessed is None:
            raise InputError(
                f"{args.from_cnf} has {dimacs.num_vars} variables, not a perfect square: "
                "pass --n N to say that variables 1..N² are the board"
            )
        n = guessed
    solver = _resolve_sat_solver(args.solver)
    start = time.perf_counter()
    count, boards = count_projected(dimacs.clauses, dimacs.num_vars, n, solver)
    bad = sum(1 for b in boards if violations(n, b))
    result = CountResult(
        n=n, count=count, method="sat", solver=solver, seconds=time.perf_counter() - start,
        fundamental=len({canonical(n, b) for b in boards}) if args.fundamental else None,
        note=(f"warning: {bad} of the {count} boards are not valid {n}-queens solutions" if bad else ""),
    )
    if args.json:
        data = result.to_dict()
        data.update(file=str(args.from_cnf), variables=dimacs.num_vars, clauses=dimacs.num_clauses,
                    invalid_boards=bad)
        _print_json(data)
        return EXIT_OK
    return _report_count(result, False)


def cmd_cnf(args: argparse.Namespace) -> int:
    from .cnf import build_cnf, dimacs_text, write_dimacs

    cnf = build_cnf(_problem(args.n, args.place), args.encoding)
    if args.output:
        path = write_dimacs(cnf, args.output, comments=not args.no_comments)
        print(f"wrote {path}: p cnf {cnf.num_vars} {cnf.num_clauses} ({cnf.problem.describe()}, {cnf.encoding})",
              file=sys.stderr)
    else:
        sys.stdout.write(dimacs_text(cnf, comments=not args.no_comments))
    return EXIT_OK


def cmd_decode(args: argparse.Namespace) -> int:
    """Read a SAT solver's answer (MiniSat result file or competition format) and draw and check the board.

    The output is read line by line (comments are not kept, so gigabytes of them are fine); the rules
    for what is accepted are those of :mod:`nqueens_kit.dimacs`.  What the solver said decides the
    status and the exit code:

    - SAT with a model ended by its 0: the board, ``solved`` and verified (exit 0) or ``NOT VALID``
      (exit 1);
    - SAT with an incomplete model (not ended by 0: the output was cut off; or no model at all):
      status ``error``, a message saying that the model is incomplete, no board (exit 1);
    - UNSAT: ``infeasible`` (exit 1);
    - ``s UNKNOWN`` or MiniSat's ``INDET``: the solver stopped without an answer, as solvers do at their
      own time or memory limit, so status ``timeout`` (exit 3), with a message quoting the solver's
      own words;
    - contradictory output (two different answers, a literal and its negation, literals after the
      model's ending 0), a status word other than those above, malformed lines or no answer at all:
      bad input, one line on stderr naming the line (exit 2).
    """
    from .cnf import decode_model
    from .dimacs import read_solver_output

    problem = _problem(args.decode_n, args.place)
    if args.output == "-":
        source = "standard input"
        answer = read_solver_output(getattr(sys.stdin, "buffer", sys.stdin), source)
    else:
        source = args.output
        try:
            with open(args.output, encoding="utf-8", errors="replace") as stream:
                answer = read_solver_output(stream, source)
        except FileNotFoundError:
            raise InputError(f"no such file: {args.output}") from None
        except OSError as exc:
            raise InputError(f"cannot read {args.output}: {exc.strerror or exc}") from None
    status = {"sat": "solved", "unsat": "infeasible", "unknown": "timeout"}[answer.status]
    result = SolveResult(n=problem.n, method="sat", status=status, preplaced=problem.preplaced, solver=source,
                         extra={"complete": answer.complete})
    if answer.status == "sat" and not answer.complete:
        result.status = "error"
        result.message = f"the model is incomplete, so no board is read from it: {answer.note}"
    elif answer.model is not None:
        top = max((abs(lit) for lit in answer.model), default=0)
        if top < problem.n ** 2:
            result.message = f"the model assigns only {top} variables; {problem.n}-queens has {problem.n ** 2}"
        result.queens = decode_model(answer.model, problem.n)
        result.variables = top
    result.check()
    if result.status == "infeasible":
        result.message = "the solver reports the formula unsatisfiable"
    elif result.status == "timeout":
        result.message = (f"the solver stopped without an answer (it printed {answer.status_line!r}), "
                          "usually because its own time or memory limit was reached")
    return _report_solve(result, args.json)


def cmd_lp(args: argparse.Namespace) -> int:
    from .ilp import DEFAULT_FORMULATION, export_model

    problem = _problem(args.n, args.place)
    path = export_model(problem, args.formulation or DEFAULT_FORMULATION, args.output)
    print(f"wrote {path} ({problem.describe()}, {args.formulation or DEFAULT_FORMULATION} formulation)", file=sys.stderr)
    return EXIT_OK


def cmd_solvers(args: argparse.Namespace) -> int:
    from .sat import SAT_SOLVERS

    rows = [{"name": s.name, "kind": f"SAT ({s.kind})", "installed": s.available(),
             "description": s.description, "install": "" if s.available() else s.install_hint()}
            for s in SAT_SOLVERS.values()]
    try:
        from .ilp import ILP_SOLVERS

        rows += [{"name": s.name, "kind": "ILP", "installed": s.available(), "description": s.description,
                  "install": "" if s.available() else s.install_hint()} for s in ILP_SOLVERS.values()]
    except ImportError as exc:  # PuLP itself missing
        rows.append({"name": "cbc", "kind": "ILP", "installed": False, "description": "CBC through PuLP",
                     "install": f"pip install pulp ({exc})"})
    if args.json:
        _print_json(rows)
        return EXIT_OK
    for row in rows:
        mark = "yes" if row["installed"] else "no "
        tail = f"  -> {row['install']}" if row["install"] else ""
        print(f"{row['name']:<16} {row['kind']:<16} {mark}  {row['description']}{tail}")
    return EXIT_OK


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, --version, or a usage error already reported in one line
        return int(exc.code or 0)
    if not getattr(args, "func", None):
        parser.print_help()
        return EXIT_INPUT
    try:
        return int(args.func(args))
    except NQueensError as exc:
        print(f"{PROG}: error: {exc}", file=sys.stderr)
        return EXIT_INPUT
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        return EXIT_OK


def run() -> NoReturn:
    """Console-script entry point."""
    sys.exit(main())


if __name__ == "__main__":
    run()
