"""The solving subcommands of ``nqueens-kit``: solve, count, cnf, decode, lp, solvers, notebooks.

Every method is reached through the method registry (:mod:`nqueens_kit.methods`): the options that name a
method's variant, solver and settings are checked by the method itself, and a verb or problem feature it
lacks is refused by it with one line.  A method that is not :attr:`~nqueens_kit.methods.Method.interruptible`
always runs in a child process, so Ctrl-C, SIGTERM or SIGHUP stop it, solvers included, at once.

``count`` lives in :mod:`.count` (registered here, with its names importable from here too).
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from ..errors import InputError
from .common import (
    EXIT_NO,
    EXIT_OK,
    JSON_LISTED_N,
    PROG,
    Later,
    _isolated,
    _place_and_json,
    add_board_file,
    add_choice,
    add_json,
    add_place,
    check_board_file,
    chosen_method,
    print_json,
    problem_from,
    read_board_file,
    report_solve,
    time_limit,
    variant,
)
from .count import CERTIFIED_BY as CERTIFIED_BY
from .count import EXIT_UNCERTIFIED as EXIT_UNCERTIFIED
from .count import WARN_SECONDS as WARN_SECONDS
from .count import _count_options
from .count import cmd_count as cmd_count
from .count import count_certified as count_certified
from .count import report_count as report_count

if TYPE_CHECKING:
    from ..methods import Choice, Method
    from ..problem.board import Problem
    from ..problem.results import JSON, SolveResult

# The kit itself is imported by the commands that use it: ``nqueens-kit --help`` lists them without it.


def _solve_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("n", metavar="N", help="board size")
    add_choice(p, "solve")
    add_place(p)
    p.add_argument("--break-symmetry", action="store_true",
                   help="find the canonical board of an orbit of the 8 symmetries (methods that honour it)")
    add_json(p, f"print one JSON object instead of text; it lists the queens of boards up to n = {JSON_LISTED_N:,} "
                "and gives a summary of a larger one (its size, the SHA-256 of its columns, the first ten): "
                "--board-file writes the whole board")
    add_board_file(p)
    p.add_argument("--proof", metavar="FILE", default=None,
                   help="SAT: when there is no solution, write the solver's proof of unsatisfiability to FILE "
                        "(text) and check it with an independent checker")
    p.add_argument("--checker", default=None, choices=["auto", "drup", "dratify"],
                   help="proof checker for --proof (default: drup, else dratify)")
    p.epilog = ("--method backtrack finds a first board in seconds up to n = 35; beyond, with no --time-limit, "
                "it says so and stops after 60 s")
    p.set_defaults(func=cmd_solve)


def _cnf_options(p: argparse.ArgumentParser) -> None:
    from ..methods.sat.encodings import DEFAULT_ENCODING, ENCODINGS

    p.add_argument("n", metavar="N", help="board size")
    p.add_argument("--encoding", default=DEFAULT_ENCODING,
                   help=f"one of: {', '.join(ENCODINGS)} (native, with cardinality constraints, is no CNF: "
                        "solve --encoding native --solver pysat-minicard)")
    p.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of standard output")
    p.add_argument("--no-comments", action="store_true", help="leave out the explanatory c lines")
    p.add_argument("--break-symmetry", action="store_true", help="add the lex-leader symmetry-breaking clauses")
    p.add_argument("--max-memory", default=None, metavar="SIZE", help="refuse formulas larger than this")
    add_place(p)
    p.set_defaults(func=cmd_cnf)


def _decode_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("output", metavar="SOLVER_OUTPUT",
                   help="MiniSat result file or competition-format output ('-': stdin)")
    p.add_argument("--n", dest="decode_n", metavar="N", required=True, help="board size")
    _place_and_json(p)
    p.set_defaults(func=cmd_decode)


def _verify_options(p: argparse.ArgumentParser) -> None:
    """``verify BOARD_FILE``: a board file read back and checked (:func:`cmd_verify`)."""
    p.add_argument("board", metavar="BOARD_FILE", help="a board as --board-file writes it: its columns row by row, one "
                                                       "per line, or FILE.json")
    p.add_argument("--n", dest="verify_n", metavar="N", default=None,
                   help="board size (default: the number of columns in the file)")
    _place_and_json(p)
    p.set_defaults(func=cmd_verify)


def _lp_options(p: argparse.ArgumentParser) -> None:
    def formulations() -> str:
        from ..methods.ilp.formulations import FORMULATIONS

        return f"one of: {', '.join(FORMULATIONS)} (default lines)"

    p.add_argument("n", metavar="N", help="board size")
    p.add_argument("--formulation", default=None, help=Later(formulations))
    p.add_argument("-o", "--output", metavar="FILE", required=True, help="FILE.lp or FILE.mps")
    p.add_argument("--max-memory", default=None, metavar="SIZE", help="refuse models larger than this")
    add_place(p)
    p.set_defaults(func=cmd_lp)


def _notebooks_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("dest", metavar="DEST", help="folder to copy them into (made if needed)")
    p.add_argument("--force", action="store_true", help="overwrite notebooks already there")
    p.set_defaults(func=cmd_notebooks)


def _solvers_options(p: argparse.ArgumentParser) -> None:
    add_json(p)
    p.set_defaults(func=cmd_solvers)


#: The subcommands of this module: name -> (help, the function that adds its options).
COMMANDS = {
    "solve": ("find one solution (SAT, ILP, CP, local search, backtracking, construction)", _solve_options),
    "count": ("count all (or fundamental) solutions", _count_options),
    "cnf": ("write the CNF in DIMACS format", _cnf_options),
    "decode": ("read a SAT solver's output and draw and check the board", _decode_options),
    "verify": ("check a board file (as solve --board-file writes it) with the independent verifier", _verify_options),
    "lp": ("export the ILP model as .lp or .mps", _lp_options),
    "notebooks": ("copy the notebooks (chapters and their data) into a folder", _notebooks_options),
    "solvers": ("list every method's solvers, whether they are installed, and what they can do", _solvers_options),
}


def register(sub: argparse._SubParsersAction) -> None:
    """Add this module's subcommands, with their options, to the ``nqueens-kit`` parser."""
    for name, (help_text, add_options) in COMMANDS.items():
        add_options(sub.add_parser(name, help=help_text))


# --------------------------------------------------------------------------------------------- solve


def cmd_solve(args: argparse.Namespace) -> int:
    from ..methods import solve

    chosen = chosen_method(args)
    problem = problem_from(args.n, args.place, args.break_symmetry)
    limit = time_limit(args)
    if args.checker is not None and args.proof is None:
        raise InputError("--checker checks a proof: it goes with --proof FILE")
    check_board_file(args.board_file)  # a path that cannot be written is refused before the solve, not after
    if args.proof is not None:
        return _solve_with_proof(args, chosen, problem, limit)
    default_limit = getattr(chosen, "solve_limit", None)  # a method whose search may not end (backtracking)
    if default_limit is not None:  # gets a limit where it cannot be expected to finish, and says so
        limit, warning = default_limit(problem, limit)
        if warning:
            print(f"{PROG}: {warning}", file=sys.stderr)
    result = solve(problem, chosen, variant(args, chosen), args.solver, time_limit=limit, settings=args.settings,
                   isolated=_isolated(chosen), max_memory=args.max_memory)
    return report_solve(result, args.json, chosen.describe(_choice_of(result, chosen)), args.board_file)


def _choice_of(result: SolveResult, chosen: Method) -> Choice:
    from ..methods import Choice

    settings = result.options.get("settings")
    return Choice(chosen.name, result.variant, result.solver, settings if isinstance(settings, str) else None)


def _solve_with_proof(args: argparse.Namespace, chosen: Method, problem: Problem, limit: float | None) -> int:
    """``solve N --proof FILE``: for methods whose solvers write proofs of unsatisfiability."""
    from ..inside.proofs import solve_with_proof
    from ..methods import METHODS
    from ..methods.sat.encodings import DEFAULT_ENCODING

    if not chosen.proves:
        able = [m.name for m in METHODS.values() if m.proves]
        raise InputError(f"--proof needs {' or '.join('--method ' + name for name in able)}, whose solvers write "
                         f"proofs of unsatisfiability; --method {chosen.name} has none (for ILP see 'nqueens-kit bnb')")
    if args.settings is not None:
        raise InputError("--settings does not apply to --proof: the proof solver runs with its own settings")
    choice = chosen.choose(variant(args, chosen), None)
    chosen.check(problem, "solve", choice)
    chosen.check_size(problem, choice, args.max_memory)
    result = solve_with_proof(problem, args.proof, choice.variant or DEFAULT_ENCODING, args.solver,
                              args.checker or "auto", limit)
    return report_solve(result, args.json, chosen.describe(_choice_of(result, chosen)), args.board_file)


# --------------------------------------------------------------------------------------------- count


# ------------------------------------------------------------------------------------- files and lists


def cmd_cnf(args: argparse.Namespace) -> int:
    from ..methods.sat.cnf import build_cnf, cnf_size, dimacs_text, write_dimacs
    from ..methods.sat.encodings import DEFAULT_ENCODING, ENCODINGS
    from ..runtime.limits import DIMACS_BYTES_PER_LITERAL, check_room, check_size, human_bytes

    problem = problem_from(args.n, args.place, args.break_symmetry)
    size = cnf_size(problem, args.encoding if args.encoding in ENCODINGS else DEFAULT_ENCODING)
    what, advice = (f"the {args.encoding} CNF of {problem.n}-queens",
                    "use a helper-variable encoding (--encoding sequential) or a smaller n")
    check_size(size, what, advice, args.max_memory)
    check_room(size, what, advice)  # ulimit -v, a cgroup: what no --max-memory raises
    cnf = build_cnf(problem, args.encoding)
    if args.output is not None:
        path = write_dimacs(cnf, args.output, comments=not args.no_comments)
        print(f"wrote {path}: p cnf {cnf.num_vars} {cnf.num_clauses} ({cnf.problem.describe()}, {cnf.encoding})",
              file=sys.stderr)
    else:
        if size.literals and size.literals * DIMACS_BYTES_PER_LITERAL > 1024**3 and sys.stdout.isatty():
            raise InputError(f"the formula is about {human_bytes(size.literals * DIMACS_BYTES_PER_LITERAL)} of "
                             "text; write it to a file with -o FILE")
        sys.stdout.write(dimacs_text(cnf, comments=not args.no_comments))
    return EXIT_OK


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
    - ``s UNKNOWN`` or MiniSat's ``INDET``: the solver stopped without an answer (it gave up, or its own
      limits stopped it), so status ``unknown`` (exit 3), with a message quoting the solver's own words;
    - contradictory output (two different answers, a model with a "no", a literal and its negation,
      literals after the model's ending 0): a lie caught, as ``solve`` reads it, one line on stderr
      naming the line (exit 1);
    - a status word other than those above, malformed lines or no answer at all: not a solver's answer,
      bad input, one line on stderr naming the line (exit 2); as is a folder, a device or a pipe, refused
      before anything is read (a pipe nobody writes to would keep the command waiting).
    """
    from ..errors import SolverError
    from ..formats.solver_output import Contradiction, read_solver_output
    from ..methods.sat.cnf import decode_model
    from ..problem.results import Answer, SolveResult, Status

    problem = problem_from(args.decode_n, args.place)
    try:
        if args.output == "-":
            source = "standard input"
            answer = read_solver_output(getattr(sys.stdin, "buffer", sys.stdin), source)
        else:
            source = args.output
            from ..runtime.files import opened_to_read  # a folder, device or FIFO is refused, never waited on

            with opened_to_read(args.output, "a solver's output (or - for standard input)", "r", encoding="utf-8",
                                errors="replace") as stream:
                answer = read_solver_output(stream, source)
    except Contradiction as exc:
        raise SolverError(f"the solver's answer contradicts itself: {exc}") from None
    said = Answer(answer.status)
    result = SolveResult.of(problem, "sat", said.status, solver=source,
                            extra={"complete": answer.complete})
    if said == Answer.SAT and not answer.complete:
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
    elif result.status == Status.UNKNOWN:
        result.message = (f"the solver stopped without an answer: it printed {answer.status_line!r} (it gave up, "
                          "or its own limits stopped it)")
    return report_solve(result, args.json, f"SAT, {source}")


def cmd_verify(args: argparse.Namespace) -> int:
    """Read a board file and check it with :func:`~nqueens_kit.problem.board.verify` (numpy on its columns, so
    a board of millions of queens takes a fraction of a second): exit 0 valid, 1 not (with what is wrong)."""
    from ..problem.board import parse_n, violations

    given = None if args.verify_n is None else parse_n(args.verify_n, what="--n")
    board = read_board_file(args.board, given)  # a board larger than --n is refused before it is read whole
    problem = problem_from(str(len(board) if given is None else given), args.place)
    problems = violations(problem.n, board, problem.preplaced)
    shown = problems[:10]
    if args.json:
        print_json({"n": problem.n, "file": args.board, "valid": not problems, "columns_sha256": board.digest(),
                    "problems": shown, "preplaced": [list(q) for q in problem.preplaced]})
    else:
        print(f"{problem.describe()}, board from {args.board}: {'valid' if not problems else 'NOT VALID'}")
        for text in shown:
            print(f"  {text[:300]}")
        if len(problems) > len(shown):
            print(f"  ... and {len(problems) - len(shown)} more")
    return EXIT_OK if not problems else EXIT_NO


def cmd_lp(args: argparse.Namespace) -> int:
    from ..methods.ilp.formulations import get_formulation
    from ..methods.ilp.model import export_model, export_size
    from ..runtime.limits import check_room, check_size

    problem = problem_from(args.n, args.place)
    form = get_formulation(args.formulation)
    size, what = export_size(problem, form, args.output), f"the {form.name} ILP model of {problem.n}-queens"
    check_size(size, what, "use a smaller n", args.max_memory)
    check_room(size, what, "use a smaller n")  # ulimit -v, a cgroup: what no --max-memory raises
    path = export_model(problem, form, args.output, args.max_memory)
    print(f"wrote {path} ({problem.describe()}, {form.name} formulation)", file=sys.stderr)
    return EXIT_OK


def cmd_notebooks(args: argparse.Namespace) -> int:
    from ..course.notebooks import copy_notebooks

    if not args.dest.strip():
        raise InputError("notebooks needs a folder to copy them into, not an empty string")
    written = copy_notebooks(args.dest, force=args.force)
    chapters = sum(1 for path in written if path.suffix == ".ipynb")
    import importlib.util

    copied = f"copied {chapters} notebooks and {len(written) - chapters} other files to {args.dest}"
    if importlib.util.find_spec("jupyterlab") is None:  # a plain install: no JupyterLab, and not every solver
        print(f"{copied}; to open them, install JupyterLab and the chapters' solvers: "
              f'pip install "nqueens-kit[course]", then: jupyter lab {args.dest}', file=sys.stderr)
    else:
        print(f"{copied}; open them with: jupyter lab {args.dest}", file=sys.stderr)
    return EXIT_OK


def solver_rows() -> list[dict[str, JSON]]:
    """One row per method and solver (a method without solvers gets one row, ``built in``)."""
    from ..methods import METHODS

    rows: list[dict[str, JSON]] = []
    for method in METHODS.values():
        solvers = method.solvers()
        if not solvers:
            rows.append({"name": "(built in)", "method": method.name, "kind": method.title, "installed": True,
                         "description": method.summary, "version": None, "capabilities": [], "install": "",
                         "advice": "", "verbs": sorted(method.verbs), "features": sorted(method.features)})
        for solver in solvers.values():
            row = solver.describe()
            row.update(method=method.name, verbs=sorted(v for v in method.verbs if solver.does(v)),
                       features=sorted(f for f in method.features if solver.honours(f)),
                       settings=[s for s in method.settings() if solver.takes(s)])
            rows.append(row)
    return rows


def _words(value: JSON) -> list[str]:
    """A list of names in a row of :func:`solver_rows` (capabilities, features), as text."""
    return [str(word) for word in value] if isinstance(value, (list, tuple)) else []


def cmd_solvers(args: argparse.Namespace) -> int:
    from ..methods import METHODS
    from ..methods.base import FEATURE_TEXT

    rows = solver_rows()
    if args.json:
        print_json(rows)
        return EXIT_OK
    current: str | None = None
    for row in rows:
        if str(row["method"]) != current:
            current = str(row["method"])
            method = METHODS[current]
            print(f"--method {method.name}: {method.summary} (verbs: {', '.join(sorted(method.verbs))})")
        mark = "yes" if row["installed"] else "no "
        tail = f"  {row['version']}" if row["version"] else ""
        tail += f"  -> {row['install']}" if row["install"] else ""
        print(f"  {row['name']:<16} {mark}  {row['description']}{tail}")
        if row["capabilities"]:
            print(f"  {'':16}      can: {', '.join(_words(row['capabilities']))}")
        unhonoured = sorted(set(method.features) - set(_words(row["features"])))
        if unhonoured:
            print(f"  {'':16}      does not honour: {', '.join(FEATURE_TEXT[f] for f in unhonoured)}")
        if row["advice"]:
            print(f"  {'':16}      pick it for: {row['advice']}")
    return EXIT_OK
