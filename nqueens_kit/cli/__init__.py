"""The ``nqueens-kit`` command: parses, looks things up in :mod:`nqueens_kit.methods`, prints.

::

    nqueens-kit solve N [--method sat|ilp|construct|backtrack] [--encoding NAME] [--formulation NAME]
                        [--solver NAME] [--settings tuned|default] [--place R,C ...] [--time-limit S]
                        [--max-memory SIZE] [--json]
    nqueens-kit count N [--method sat|ilp|backtrack] [--encoding NAME] [--fundamental] [--time-limit S] [--json]
    nqueens-kit count --from-cnf FILE [--n N] [--json]
    nqueens-kit cnf N [--encoding NAME] [--place R,C ...] [-o FILE]
    nqueens-kit decode SOLVER_OUTPUT --n N [--json]
    nqueens-kit lp N [--formulation NAME] [--place R,C ...] -o FILE.lp|FILE.mps
    nqueens-kit solvers [--json]
    nqueens-kit notebooks DEST [--force]
    nqueens-kit bench ... | plot ... | report ...

Every solve and count runs in a child process (:mod:`nqueens_kit.runtime.isolate`), so ``--time-limit`` bounds the
whole job and Ctrl-C, SIGTERM or SIGHUP stop it, solvers included, at once.

Exit status: 0 solved (or counted, or written), 1 infeasible, an invalid board or a wrong solver answer,
2 bad input (one line on stderr saying what is wrong and what is valid; with ``--json`` also an error
object on stdout), 3 time or memory limit reached, 130 interrupted (143 terminated, 129 hung up).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from ..errors import InputError, NQueensError, SolverError
from ..problem.board import Problem, draw, parse_cell, parse_n, violations
from ..problem.results import CountResult, SolveResult, Status
from ..runtime.limits import check_time_limit

PROG = "nqueens-kit"
EXIT_OK, EXIT_NO, EXIT_INPUT, EXIT_TIMEOUT, EXIT_INTERRUPTED = 0, 1, 2, 3, 130
#: Boards larger than this are not drawn as text (use --json for the queens).
DRAW_LIMIT = 64
#: A count expected to take longer than this many seconds says so before it starts.
WARN_SECONDS = 10.0


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors (the usage is one ``--help`` away)."""

    def error(self, message: str) -> NoReturn:
        raise InputError(f"{message} (see {self.prog} --help)")


class Interrupted(KeyboardInterrupt):
    """A signal asked the command to stop; ``code`` is the exit status it ends with."""

    def __init__(self, code: int, why: str) -> None:
        super().__init__(why)
        self.code, self.why = code, why


def _add_common(p: argparse.ArgumentParser, place: bool = True, json_flag: bool = True) -> None:
    if place:
        p.add_argument("--place", metavar="R,C", nargs="+", action="extend", default=[],
                       help="pre-place a queen at row R, column C (1-based); repeatable")
    if json_flag:
        p.add_argument("--json", action="store_true", help="print one JSON object instead of text")


def _add_choice(p: argparse.ArgumentParser, methods: Sequence[str], solver_help: str) -> None:
    from ..methods.ilp.formulations import FORMULATIONS, SETTINGS
    from ..methods.sat.encodings import ENCODINGS

    p.add_argument("--method", choices=list(methods), default="sat")
    p.add_argument("--encoding", default=None, help=f"SAT encoding: {', '.join(ENCODINGS)} (default pairwise)")
    p.add_argument("--formulation", default=None, help=f"ILP formulation: {', '.join(FORMULATIONS)} (default lines)")
    p.add_argument("--solver", default=None, help=solver_help)
    p.add_argument("--settings", default=None, choices=list(SETTINGS),
                   help="ILP solver settings: tuned (default; CBC without feasibility pump, preprocessing and "
                        "cuts) or default (each solver's own defaults)")
    p.add_argument("--time-limit", default=None, metavar="S",
                   help="wall-clock limit in seconds on the whole job (build, solve, decode)")
    p.add_argument("--max-memory", default=None, metavar="SIZE",
                   help="refuse models predicted to need more memory (e.g. 8G; default: half of this "
                        "machine's memory, or $NQUEENS_KIT_MAX_MEMORY)")


def build_parser() -> argparse.ArgumentParser:
    from ..methods import METHODS
    from ..methods.ilp.formulations import FORMULATIONS
    from ..methods.sat.encodings import DEFAULT_ENCODING, ENCODINGS

    parser = _Parser(prog=PROG, description="N-queens as SAT and as ILP: solve, count, encode, measure.",
                     epilog="Exit status: 0 solved, 1 infeasible, 2 bad input, 3 time limit reached.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    p = sub.add_parser("solve", help="find one solution (SAT, ILP, backtracking or the explicit construction)")
    p.add_argument("n", metavar="N", help="board size")
    _add_choice(p, list(METHODS), "pycosat (SAT default), cbc (ILP default); see 'nqueens-kit solvers'")
    _add_common(p)
    p.add_argument("--proof", metavar="FILE", default=None,
                   help="SAT: when there is no solution, write the solver's DRUP/DRAT proof to FILE (text) "
                        "and check it with an independent checker")
    p.add_argument("--checker", default="auto", choices=["auto", "drup", "dratify"],
                   help="proof checker for --proof (default: drup, else dratify)")
    p.set_defaults(func=cmd_solve)

    p = sub.add_parser("count", help="count all (or fundamental) solutions")
    p.add_argument("n", metavar="N", nargs="?", help="board size (omit with --from-cnf)")
    _add_choice(p, [name for name, m in METHODS.items() if m.can_count] + ["model-count"], "solver to enumerate with")
    p.add_argument("--fundamental", action="store_true", help="also count solutions up to rotation and reflection")
    p.add_argument("--break-symmetry", action="store_true",
                   help="add lex-leader constraints so that one board of every orbit of the 8 symmetries is "
                        "found: the count is that of the fundamental solutions (sat, ilp, model-count)")
    p.add_argument("--no-projection", action="store_true",
                   help="with --method model-count: count every model, helper variables included")
    p.add_argument("--from-cnf", metavar="FILE", help="count the boards of a DIMACS file (projected onto 1..n²)")
    p.add_argument("--n", dest="cnf_n", metavar="N",
                   help="board size of --from-cnf (read from the file's header when the kit wrote it)")
    _add_common(p)
    p.set_defaults(func=cmd_count)

    p = sub.add_parser("cnf", help="write the CNF in DIMACS format")
    p.add_argument("n", metavar="N", help="board size")
    p.add_argument("--encoding", default=DEFAULT_ENCODING, help=f"one of: {', '.join(ENCODINGS)}")
    p.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of standard output")
    p.add_argument("--no-comments", action="store_true", help="leave out the explanatory c lines")
    p.add_argument("--max-memory", default=None, metavar="SIZE", help="refuse formulas larger than this")
    _add_common(p, json_flag=False)
    p.set_defaults(func=cmd_cnf)

    p = sub.add_parser("decode", help="read a SAT solver's output and draw and check the board")
    p.add_argument("output", metavar="SOLVER_OUTPUT",
                   help="MiniSat result file or competition-format output ('-': stdin)")
    p.add_argument("--n", dest="decode_n", metavar="N", required=True, help="board size")
    _add_common(p)
    p.set_defaults(func=cmd_decode)

    p = sub.add_parser("lp", help="export the ILP model as .lp or .mps")
    p.add_argument("n", metavar="N", help="board size")
    p.add_argument("--formulation", default=None, help=f"one of: {', '.join(FORMULATIONS)} (default lines)")
    p.add_argument("-o", "--output", metavar="FILE", required=True, help="FILE.lp or FILE.mps")
    p.add_argument("--max-memory", default=None, metavar="SIZE", help="refuse models larger than this")
    _add_common(p, json_flag=False)
    p.set_defaults(func=cmd_lp)

    p = sub.add_parser("notebooks", help="copy the notebooks (chapters and their data) into a folder")
    p.add_argument("dest", metavar="DEST", help="folder to copy them into (made if needed)")
    p.add_argument("--force", action="store_true", help="overwrite notebooks already there")
    p.set_defaults(func=cmd_notebooks)

    p = sub.add_parser("solvers", help="list the SAT and ILP solvers and whether they are installed")
    _add_common(p, place=False)
    p.set_defaults(func=cmd_solvers)

    from . import bench, inside

    bench.register(sub)
    inside.register(sub)
    return parser


def _version() -> str:
    from .. import __version__

    return __version__


def _print_json(data: Any) -> None:
    print(json.dumps(data, indent=None, separators=(",", ":"), default=str))


def _problem(n_text: str, places: Sequence[str]) -> Problem:
    n = parse_n(n_text)
    return Problem(n, tuple(parse_cell(text, n) for text in places))


def _variant(args: argparse.Namespace) -> str | None:
    """The one variant the options name, refusing an encoding for ILP, a formulation for SAT, and both."""
    encoding, formulation = getattr(args, "encoding", None), getattr(args, "formulation", None)
    if encoding is not None and formulation is not None:
        raise InputError("give --encoding (SAT) or --formulation (ILP), not both")
    if args.method == "sat" and formulation is not None:
        raise InputError("--formulation belongs to --method ilp; SAT uses --encoding")
    if args.method == "ilp" and encoding is not None:
        raise InputError("--encoding belongs to --method sat; ILP uses --formulation")
    return encoding if encoding is not None else formulation


# --------------------------------------------------------------------------------------------- solve


def _how(method: str, variant: str | None, solver: str | None) -> str:
    from ..methods import get_method

    chosen = get_method(method)
    if chosen.variant_word:
        return f"{chosen.title}, {variant} {chosen.variant_word}, {solver}"
    return {"construct": "explicit construction", "backtrack": "bitmask backtracking"}.get(method, chosen.title)


def _report_solve(result: SolveResult, as_json: bool) -> int:
    if as_json:
        _print_json(result.to_dict())
    else:
        problem = Problem(result.n, result.preplaced)
        head = f"{problem.describe()} ({_how(result.method, result.variant, result.solver)}): {result.status}"
        if result.status == Status.SOLVED:
            head += ", verified" if result.verified else ", NOT VALID"
        print(head)
        size = []
        if result.variables is not None:
            size.append(f"{result.variables:,} variables")
        if result.clauses is not None:
            size.append(f"{result.clauses:,} clauses")
        if result.constraints is not None:
            size.append(f"{result.constraints:,} constraints")
        if result.status in (Status.TIMEOUT, Status.MEMOUT):
            size.append(f"stopped after {result.solve_seconds:.3f} s")
        else:
            size.append(f"built in {result.build_seconds:.3f} s, solved in {result.solve_seconds:.3f} s")
        print("; ".join(size))
        if result.options.get("cbc_options"):
            print(f"CBC options ({result.options['settings']}): {', '.join(result.options['cbc_options'])}")
        if result.message:
            print(result.message)
        if result.status == Status.SOLVED:
            if result.n <= DRAW_LIMIT:
                print(draw(result.n, result.queens, result.preplaced))
            else:
                print(f"(a {result.n}x{result.n} board is too large to draw; --json lists the queens)")
            if not result.verified:
                for problem_text in violations(result.n, result.queens, result.preplaced):
                    print(f"  {problem_text}")
    if result.status == Status.SOLVED:
        return EXIT_OK if result.verified else EXIT_NO
    return EXIT_TIMEOUT if result.status in (Status.TIMEOUT, Status.MEMOUT) else EXIT_NO


def _isolated(method: str) -> bool | None:
    """Methods with a solver always run in a child process (pycosat ignores Ctrl-C, CBC is a process of its
    own); the pure-Python ones are interrupted in place unless a time limit asks for a child."""
    from ..methods import get_method

    return True if get_method(method).solvers() else None


def cmd_solve(args: argparse.Namespace) -> int:
    from ..methods import solve

    if args.proof is not None:
        from .inside import solve_with_proof

        return solve_with_proof(args)
    problem = _problem(args.n, args.place)
    args.time_limit = check_time_limit(args.time_limit)
    if args.method == "construct" and problem.n > 1_000_000 and not args.json:
        print(f"{PROG}: building and verifying a board of {problem.n:,} queens takes about "
              f"{problem.n / 1_000_000 * 1.3:.0f} s", file=sys.stderr)
    result = solve(problem, args.method, _variant(args), args.solver, time_limit=args.time_limit,
                   settings=args.settings, isolated=_isolated(args.method), max_memory=args.max_memory)
    return _report_solve(result, args.json)


# --------------------------------------------------------------------------------------------- count


def _report_count(result: CountResult, as_json: bool, extra: dict[str, Any] | None = None) -> int:
    code = EXIT_OK if result.status == Status.SOLVED else EXIT_TIMEOUT
    if as_json:
        data = result.to_dict()
        data.update(extra or {})
        _print_json(data)
        return code
    what = Problem(result.n, result.preplaced).describe() if result.n else "the formula"
    if result.method == "sat" and result.variant is None:
        how = f"SAT, {result.solver}"
    elif result.method == "model-count":
        how = f"model counting, {result.variant} encoding, {result.solver}"
    else:
        how = _how(result.method, result.variant, result.solver)
    bound = "at least " if result.status != Status.SOLVED else ""
    noun = "solutions" if result.extra.get("projected", True) else "models (helper variables included)"
    line = f"{what}: {bound}{result.count:,} {noun}"
    if result.extra.get("break_symmetry"):
        line = f"{what}: {bound}{result.count:,} fundamental solutions (one per orbit of the 8 symmetries)"
    elif result.fundamental is not None:
        line += f", {bound}{result.fundamental:,} fundamental (up to rotation and reflection)"
    print(f"{line} [{how}, {result.seconds:.3f} s]")
    if result.note:
        print(result.note)
    return code


class _Progress:
    """A progress bar on stderr for a count, shown only on a terminal."""

    def __init__(self, total: float | None, show: bool) -> None:
        self.bar = None
        if show:
            from tqdm import tqdm

            self.bar = tqdm(total=int(total) if total and total < 1e15 else None, unit=" boards", file=sys.stderr,
                            dynamic_ncols=True, leave=False, unit_scale=True)

    def __call__(self, count: int, fundamental: int | None = None) -> None:
        if self.bar is not None:
            self.bar.update(count - self.bar.n)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def _warn_long_count(problem: Problem, method: str, time_limit: float | None) -> float | None:
    from ..methods import count_estimate

    estimate = count_estimate(problem, method)
    if estimate is None:
        return None
    boards, seconds = estimate
    if seconds > WARN_SECONDS and (time_limit is None or time_limit > WARN_SECONDS):
        stop = "stop it with Ctrl-C" if time_limit is None else f"it stops after {time_limit:g} s"
        many = f"about {boards:.3g}" if boards < 1e300 else "more than 10^300"
        print(f"{PROG}: {problem.n}-queens has {many} solutions; counting them with {method} takes "
              f"{'about ' + _duration(seconds) if seconds < 1e300 else 'longer than the age of the universe'} "
              f"on a typical machine ({stop}; with --time-limit S a count reports the boards found so far)",
              file=sys.stderr)
    return boards


def _duration(seconds: float) -> str:
    for unit, size in (("years", 365.25 * 86400), ("days", 86400), ("hours", 3600), ("minutes", 60)):
        if seconds >= 2 * size:
            return f"{seconds / size:,.3g} {unit}"
    return f"{seconds:.0f} s"


def cmd_count(args: argparse.Namespace) -> int:
    from ..methods import count

    args.time_limit = check_time_limit(args.time_limit)
    if args.from_cnf:
        return _count_from_cnf(args)
    if args.n is None:
        raise InputError("count needs a board size N (or --from-cnf FILE)")
    if args.cnf_n is not None:
        raise InputError("--n goes with --from-cnf; give the board size as the first argument")
    from ..methods import get_method

    problem = _problem(args.n, args.place)
    if args.method == "model-count" or args.break_symmetry or args.no_projection:
        from .inside import count_inside

        return _report_count(count_inside(args, problem), args.json)
    variant = _variant(args)
    chosen = get_method(args.method)  # every check before the warning below
    choice = chosen.choose(variant, args.solver, args.settings)
    chosen.check_problem(problem)
    chosen.check_size(problem, choice, args.max_memory)
    boards = _warn_long_count(problem, args.method, args.time_limit)
    bar = _Progress(boards, not args.json and sys.stderr.isatty())
    try:
        result = count(problem, args.method, variant, args.solver, fundamental=args.fundamental,
                       time_limit=args.time_limit, settings=args.settings, progress=bar,
                       isolated=_isolated(args.method),
                       max_memory=args.max_memory)
    finally:
        bar.close()
    return _report_count(result, args.json)


def _count_from_cnf(args: argparse.Namespace) -> int:
    from ..formats.dimacs import read_dimacs
    from ..methods import count_formula
    from ..methods.sat.cnf import kit_board_size

    if args.n is not None:
        raise InputError("with --from-cnf give the board size as --n N, not as an argument")
    for option in ("place", "encoding", "formulation", "settings"):
        if getattr(args, option):
            raise InputError(f"--{option} does not apply to --from-cnf: the file holds the whole formula")
    if args.method != "sat":
        raise InputError("--from-cnf counts a file's own solutions by SAT; --method does not apply")
    dimacs = read_dimacs(args.from_cnf)
    if args.cnf_n is not None:
        n = parse_n(args.cnf_n, what="--n")
    else:
        found = kit_board_size(dimacs)
        if found is None:
            raise InputError(f"{args.from_cnf} does not say its board size (it was not written by {PROG}): "
                             "pass --n N to say that variables 1..N² are the board")
        n = found
    result, invalid = count_formula(dimacs.clauses, dimacs.num_vars, n, args.solver, fundamental=args.fundamental,
                                    time_limit=args.time_limit, max_memory=args.max_memory)
    if invalid:
        result.note = f"warning: {invalid} of the {result.count} boards are not valid {n}-queens solutions"
    return _report_count(result, args.json, {"file": str(args.from_cnf), "variables": dimacs.num_vars,
                                             "clauses": dimacs.num_clauses, "invalid_boards": invalid})


# ------------------------------------------------------------------------------------- files and lists


def cmd_cnf(args: argparse.Namespace) -> int:
    from ..methods.sat.cnf import build_cnf, dimacs_text, write_dimacs
    from ..runtime.limits import DIMACS_BYTES_PER_LITERAL, check_size, human_bytes, sat_size

    problem = _problem(args.n, args.place)
    size = sat_size(problem.n, args.encoding if args.encoding in _encodings() else "pairwise", len(problem.preplaced))
    check_size(size, f"the {args.encoding} CNF of {problem.n}-queens",
               "use a helper-variable encoding (--encoding sequential) or a smaller n", args.max_memory)
    cnf = build_cnf(problem, args.encoding)
    if args.output:
        path = write_dimacs(cnf, args.output, comments=not args.no_comments)
        print(f"wrote {path}: p cnf {cnf.num_vars} {cnf.num_clauses} ({cnf.problem.describe()}, {cnf.encoding})",
              file=sys.stderr)
    else:
        if size.literals and size.literals * DIMACS_BYTES_PER_LITERAL > 1024**3 and sys.stdout.isatty():
            raise InputError(f"the formula is about {human_bytes(size.literals * DIMACS_BYTES_PER_LITERAL)} of "
                             "text; write it to a file with -o FILE")
        sys.stdout.write(dimacs_text(cnf, comments=not args.no_comments))
    return EXIT_OK


def _encodings() -> list[str]:
    from ..methods.sat.encodings import ENCODINGS

    return list(ENCODINGS)


def cmd_decode(args: argparse.Namespace) -> int:
    """Read a SAT solver's answer (MiniSat result file or competition format) and draw and check the board.

    The output is read line by line (comments are not kept, so gigabytes of them are fine); the rules
    for what is accepted are those of :mod:`nqueens_kit.formats.dimacs`.  What the solver said decides the
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
    from ..formats.dimacs import read_solver_output
    from ..methods.sat.cnf import decode_model

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
    status = {"sat": Status.SOLVED, "unsat": Status.INFEASIBLE, "unknown": Status.TIMEOUT}[answer.status]
    result = SolveResult(n=problem.n, method="sat", status=status, preplaced=problem.preplaced, solver=source,
                         extra={"complete": answer.complete})
    if answer.status == "sat" and not answer.complete:
        result.status = Status.ERROR
        result.message = f"the model is incomplete, so no board is read from it: {answer.note}"
    elif answer.model is not None:
        top = max((abs(lit) for lit in answer.model), default=0)
        if top < problem.n ** 2:
            result.message = f"the model assigns only {top} variables; {problem.n}-queens has {problem.n ** 2}"
        result.queens = decode_model(answer.model, problem.n)
        result.variables = top
    result.check()
    if result.status == Status.INFEASIBLE:
        result.message = "the solver reports the formula unsatisfiable"
    elif result.status == "timeout":
        result.message = (f"the solver stopped without an answer (it printed {answer.status_line!r}), "
                          "usually because its own time or memory limit was reached")
    return _report_solve(result, args.json)


def cmd_lp(args: argparse.Namespace) -> int:
    from ..methods.ilp.formulations import get_formulation
    from ..methods.ilp.model import export_model
    from ..runtime.limits import check_size

    problem = _problem(args.n, args.place)
    form = get_formulation(args.formulation)
    check_size(form.size(problem.n, len(problem.preplaced)), f"the {form.name} ILP model of {problem.n}-queens",
               "use a smaller n", args.max_memory)
    path = export_model(problem, form, args.output)
    print(f"wrote {path} ({problem.describe()}, {form.name} formulation)", file=sys.stderr)
    return EXIT_OK


def cmd_notebooks(args: argparse.Namespace) -> int:
    from ..course.bundle import copy_notebooks

    written = copy_notebooks(args.dest, force=args.force)
    chapters = sum(1 for path in written if path.suffix == ".ipynb")
    print(f"copied {chapters} notebooks and {len(written) - chapters} other files to {args.dest}; open them with: "
          f"jupyter lab {args.dest}", file=sys.stderr)
    return EXIT_OK


def cmd_solvers(args: argparse.Namespace) -> int:
    from ..solvers import REGISTRIES

    rows = [solver.describe() for registry in REGISTRIES.values() for solver in registry.values()]
    if args.json:
        _print_json(rows)
        return EXIT_OK
    for row in rows:
        mark = "yes" if row["installed"] else "no "
        kind = f"{row['method'].upper()}"
        tail = f"  {row['version']}" if row["version"] else ""
        tail += f"  -> {row['install']}" if row["install"] else ""
        print(f"{row['name']:<16} {kind:<4} {mark}  {row['description']}{tail}")
    return EXIT_OK


# ---------------------------------------------------------------------------------------------- main


def _wants_json(argv: Sequence[str]) -> bool:
    return "--json" in argv


def _raise_interrupted(signum: int, frame: Any) -> None:
    name = {signal.SIGTERM: "terminated", getattr(signal, "SIGHUP", -1): "hung up"}.get(signum, "interrupted")
    raise Interrupted(128 + signum, name)


def _install_signal_handlers() -> None:
    """SIGTERM and SIGHUP stop the command the way Ctrl-C does, so children and temporary files go too."""
    for name in ("SIGTERM", "SIGHUP"):
        sig = getattr(signal, name, None)
        if sig is not None:
            try:
                signal.signal(sig, _raise_interrupted)
            except (ValueError, OSError):  # not the main thread
                pass


def _fail(message: str, argv: Sequence[str], code: int = EXIT_INPUT) -> int:
    print(f"{PROG}: error: {message}", file=sys.stderr)
    if _wants_json(argv):
        try:
            _print_json({"status": "error", "error": message, "exit": code})
        except OSError:
            pass
    return code


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        parser = build_parser()
        try:
            args = parser.parse_args(argv)
        except SystemExit as exc:  # --help or --version, already printed
            return int(exc.code or 0)
        if not getattr(args, "func", None):
            commands = ", ".join(sorted(_subcommands(parser)))
            raise InputError(f"give a command: {commands} (see {PROG} --help)")
        _install_signal_handlers()
        code = int(args.func(args))
        sys.stdout.flush()
        return code
    except SolverError as exc:
        return _fail(str(exc), argv, EXIT_NO)
    except NQueensError as exc:
        return _fail(str(exc), argv)
    except Interrupted as stop:
        print(f"{PROG}: {stop.why}", file=sys.stderr)
        return stop.code
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        _silence_stdout()
        return EXIT_OK
    except OSError as exc:
        _silence_stdout()
        where = f" ({exc.filename})" if exc.filename else " (standard output)"
        print(f"{PROG}: error: cannot write the output{where}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_INPUT


def _subcommands(parser: argparse.ArgumentParser) -> list[str]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return list(action.choices)
    return []


def _silence_stdout() -> None:
    """After a failed write, point stdout at /dev/null so Python's exit does not fail writing it again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass


def run() -> NoReturn:
    """Console-script entry point."""
    sys.exit(main())


if __name__ == "__main__":
    run()
