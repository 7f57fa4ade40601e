"""The ``count`` subcommand of ``nqueens-kit`` (registered with the others of :mod:`.solve`): count a board's
solutions, or a DIMACS file's models (``--from-cnf``), with a progress bar on a terminal, a warning before a
count that would take long, and a total that says whether it is certified (exit status
:data:`EXIT_UNCERTIFIED` when its end rests on the solver's word).
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from ..errors import InputError
from .common import (
    EXIT_OK,
    EXIT_TIMEOUT,
    PROG,
    _isolated,
    _place_and_json,
    add_choice,
    chosen_method,
    print_json,
    problem_from,
    time_limit,
    variant,
)

if TYPE_CHECKING:
    from ..methods import Method
    from ..problem.board import Problem
    from ..problem.results import JSON, CountResult

# The kit itself is imported by the commands that use it: ``nqueens-kit --help`` lists them without it.


#: A count expected to take longer than this many seconds says so before it starts.
WARN_SECONDS = 10.0


#: The exit status of a complete count that is not certified: its total rests on the solver's word (the book's
#: page "Outcomes and exit statuses" has it; 0 is kept for certified counts).
EXIT_UNCERTIFIED = 4


#: How a complete count of n-queens is known when it is certified: checked by something other than the solver
#: that counted (values of :class:`~nqueens_kit.problem.results.KnownBy`).
CERTIFIED_BY = ("checked proof", "published count", "backtracking")


def _count_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("n", metavar="N", nargs="?", help="board size (omit with --from-cnf)")
    add_choice(p, "count")
    p.add_argument("--fundamental", action="store_true", help="also count solutions up to rotation and reflection")
    p.add_argument("--break-symmetry", action="store_true",
                   help="add constraints that keep one board of every orbit of the 8 symmetries (lex-leader): the "
                        "count is that of the fundamental solutions")
    p.add_argument("--no-projection", action="store_true",
                   help="model counting: count every model, helper variables included (--settings unprojected)")
    p.add_argument("--from-cnf", metavar="FILE", help="count the boards of a DIMACS file (projected onto 1..n²)")
    p.add_argument("--n", dest="cnf_n", metavar="N",
                   help="board size of --from-cnf (read from the file's header when the kit wrote it)")
    p.add_argument("--require-certificate", action="store_true",
                   help="make a count whose total rests on the solver's word an error (one line) instead of a "
                        f"count with exit status {EXIT_UNCERTIFIED}; --from-cnf is certified by solvers that write "
                        "proofs")
    _place_and_json(p)
    p.epilog = ("A complete count exits 0 when it is certified (checked against the published count or backtracking; "
                "--from-cnf: every model checked and a checked proof that there are no others), "
                f"{EXIT_UNCERTIFIED} when its total rests on the solver's word, 3 when a limit stopped it (a lower "
                "bound).")
    p.set_defaults(func=cmd_count)


def count_certified(result: CountResult) -> bool:
    """Whether a count is complete and certified: a formula's count (``count --from-cnf``) when its models were
    checked and a checked proof says there are no others (``extra["certified"]``), a count of n-queens when its
    total was checked against the published count or backtracking (:data:`CERTIFIED_BY`)."""
    from ..problem.results import Status

    if result.status != Status.SOLVED:
        return False
    if "certified" in result.extra:
        return result.extra["certified"] is True
    return result.known_by in CERTIFIED_BY


def report_count(result: CountResult, as_json: bool, how: str, extra: dict[str, JSON] | None = None,
                 require_certificate: bool = False) -> int:
    """Print a count (text or JSON) and return its exit status: 0 complete and certified, :data:`EXIT_UNCERTIFIED`
    complete but resting on the solver's word (with ``require_certificate``, a one-line error instead), 3 a
    lower bound."""
    from ..problem.board import Problem
    from ..problem.results import KNOWN_BY, Status

    certified = count_certified(result)
    code = EXIT_TIMEOUT if result.status != Status.SOLVED else EXIT_OK if certified else EXIT_UNCERTIFIED
    if require_certificate and code == EXIT_UNCERTIFIED:
        return _uncertified_error(result, as_json)
    if as_json:
        data = result.to_dict()
        data.update(extra or {})
        data["certified"] = certified
        print_json(data)
        return code
    what = Problem(result.n, result.preplaced, result.blocked).describe() if result.n else "the formula"
    bound = "at least " if result.status != Status.SOLVED else ""
    noun = "solutions" if result.extra.get("projected", True) else "models (helper variables included)"
    line = f"{what}: {bound}{result.count:,} {noun}"
    if result.break_symmetry:
        line = f"{what}: {bound}{result.count:,} fundamental solutions (one per orbit of the 8 symmetries)"
    elif result.fundamental is not None:
        line += f", {bound}{result.fundamental:,} fundamental (up to rotation and reflection)"
    print(f"{line} [{how}, {result.seconds:.3f} s]")
    if result.note:
        print(result.note)
    if result.known_by in KNOWN_BY:  # a count of n-queens, checked against the published count or backtracking
        print(f"the total is checked against: {result.known_by}")
    elif result.known_by:  # a formula's count (count --from-cnf): how its models were checked
        print(result.known_by if certified else f"known by: {result.known_by}")
    if code == EXIT_UNCERTIFIED:
        print(f"NOT CERTIFIED: {_uncertified_why(result)} (exit status {EXIT_UNCERTIFIED})")
    return code


def _uncertified_why(result: CountResult) -> str:
    """What an uncertified count rests on, and what would certify it."""
    from ..methods.sat.certificate import proof_writers

    if "certified" not in result.extra:  # a count of n-queens
        if result.known_by is None:
            return "nothing checks this total; it rests on the counter's word"
        return "the total rests on the solver's word (too large to check by backtracking)"
    writers = proof_writers()
    hint = (f"a solver that writes proofs certifies it: --solver {writers[0]} (or {', '.join(writers[1:4])})"
            if len(writers) > 1 else f"a solver that writes proofs certifies it: --solver {writers[0]}" if writers
            else "no installed solver writes proofs")
    return f"that there are no models beyond these rests on {result.solver or 'the solver'}'s word; {hint}"


def _uncertified_error(result: CountResult, as_json: bool) -> int:
    """``--require-certificate`` and a count that is not certified: one line on stderr (and with ``--json`` an
    error object), exit status :data:`EXIT_UNCERTIFIED`."""
    message = (f"--require-certificate: the count of {result.count:,} is not certified: {_uncertified_why(result)}")
    print(f"{PROG}: error: {message}", file=sys.stderr)
    if as_json:
        print_json({"status": "error", "error": message, "exit": EXIT_UNCERTIFIED, "certified": False})
    return EXIT_UNCERTIFIED


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


def _warn_long_count(problem: Problem, chosen: Method, limit: float | None) -> float | None:
    from ..methods import count_estimate
    from ..methods.verbs import duration_text

    estimate = count_estimate(problem, chosen)
    if estimate is None:
        return None
    boards, seconds = estimate
    if seconds > WARN_SECONDS and (limit is None or limit > WARN_SECONDS):
        stop = "stop it with Ctrl-C" if limit is None else f"it stops after {limit:g} s"
        many = f"about {boards:.3g}" if boards < 1e300 else "more than 10^300"
        print(f"{PROG}: {problem.n}-queens has {many} solutions; counting them with {chosen.name} takes "
              f"{duration_text(seconds)} on a typical machine ({stop}; with --time-limit S a count reports the boards "
              "found so far)", file=sys.stderr)
    return boards


def cmd_count(args: argparse.Namespace) -> int:
    from ..methods import count
    from ..methods.verbs import refuse_endless_count

    limit = time_limit(args)
    settings = args.settings
    if args.no_projection:
        if settings is not None:
            raise InputError("give --no-projection or --settings, not both")
        settings = "unprojected"
    if args.from_cnf:
        return _count_from_cnf(args, limit)
    if args.n is None:
        raise InputError("count needs a board size N (or --from-cnf FILE)")
    if args.cnf_n is not None:
        raise InputError("--n goes with --from-cnf; give the board size as the first argument")
    chosen = chosen_method(args)
    problem = problem_from(args.n, args.place, args.break_symmetry)
    chosen.check(problem, "count")  # every check before the warning below
    choice = chosen.choose(variant(args, chosen), args.solver, settings)
    chosen.check_entry(problem, "count", choice)
    chosen.check_size(problem, choice, args.max_memory)
    if limit is None:
        refuse_endless_count(problem, chosen)  # before the warning, which would only say the same
    boards = _warn_long_count(problem, chosen, limit)
    bar = _Progress(boards, not args.json and sys.stderr.isatty())
    try:
        result = count(problem, chosen, choice.variant, choice.solver, fundamental=args.fundamental,
                       time_limit=limit, settings=choice.settings, progress=bar, isolated=_isolated(chosen),
                       max_memory=args.max_memory)
    finally:
        bar.close()
    return report_count(result, args.json, chosen.describe(choice), require_certificate=args.require_certificate)


def _count_from_cnf(args: argparse.Namespace, limit: float | None) -> int:
    from ..methods.sat.formula import count_formula
    from ..problem.board import parse_n

    if args.n is not None:
        raise InputError("with --from-cnf give the board size as --n N, not as an argument")
    named = [option for option in ("place", "method", "encoding", "formulation", "settings", "no_projection")
             if getattr(args, option, None)]
    if named:
        raise InputError(f"--{named[0].replace('_', '-')} does not apply to --from-cnf: the file holds the whole "
                         "formula, counted by SAT")
    if args.fundamental and args.break_symmetry:
        raise InputError("with --break-symmetry every board counted is fundamental; drop --fundamental")
    n = parse_n(args.cnf_n, what="--n") if args.cnf_n is not None else None
    if args.require_certificate:
        _refuse_uncertifiable(args.solver)
    result, invalid = count_formula(args.from_cnf, None, n, args.solver, fundamental=args.fundamental,
                                    break_symmetry=args.break_symmetry, time_limit=limit, max_memory=args.max_memory)
    if invalid:
        result.note = f"warning: {invalid} of the {result.count} boards are not valid {result.n}-queens solutions"
    return report_count(result, args.json, f"SAT, {result.solver}",
                        {"file": str(args.from_cnf), "invalid_boards": invalid, **result.extra},
                        require_certificate=args.require_certificate)


def _refuse_uncertifiable(solver: str | None) -> None:
    """``count --from-cnf --require-certificate`` with a solver that writes no proofs (or no proof checker
    installed): refused in one line before the count, naming the solvers that write proofs."""
    from ..errors import SolverNotAvailable
    from ..methods.sat.certificate import CHECKER_HINT, checker_name, proof_writers
    from ..methods.sat.formula import counting_solver

    backend = counting_solver(solver)
    if not backend.capabilities.proofs:
        writers = proof_writers()
        able = (f"solvers that do: {', '.join(writers)}" if writers else
                'none installed does: pip install "nqueens-kit[pysat]" or sudo apt-get install cadical')
        raise InputError(f"--require-certificate: {backend.name} writes no proofs, so its count of --from-cnf "
                         f"cannot be certified; {able}")
    try:
        checker_name()
    except SolverNotAvailable:
        raise InputError(f"--require-certificate: no proof checker is installed to check the proof; {CHECKER_HINT}") \
            from None
