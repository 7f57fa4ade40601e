"""The verbs every front end uses, the same for every method: each checks its request, guards the size,
runs the method (in a child process when it must be stoppable) and verifies every board independently.

- :func:`solve`: one board (or infeasible / timeout), verified.  With ``time_limit`` (seconds of wall clock
  for the whole job: building, writing files, solving, decoding) or a ``stop`` callback the job runs in a
  child process (:mod:`nqueens_kit.runtime.isolate`) that is stopped, solvers and all, when the limit passes.
  An answer that comes after the limit (a solver that cannot stop itself, an answer in the grace before the
  kill) is a timeout all the same (:func:`~nqueens_kit.runtime.limits.over_limit`).
- :func:`count`: how many boards (and fundamental boards); every board is verified and a repeated one is
  an error; a count stopped by its time limit returns the boards counted so far as a lower bound.  A count
  expected to take more than a day needs a time limit.
- :func:`iter_boards`: the boards one by one, verified; :func:`first_boards`: the first k of them found in a
  child process under a time limit (what the apps use).
- :func:`count_estimate`: how many boards a count will meet and roughly how long it will take.

>>> solve(8, "sat", "sequential").status, solve(8, "backtrack").queens[:2]
('solved', ((1, 1), (2, 5)))
>>> count(6, "sat", "binary").count, count(8, "backtrack", fundamental=True).fundamental
(4, 12)
>>> solve(200, "sat", "sequential", time_limit=0.2).status
'timeout'
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Callable, Iterator
from typing import Any

from ..errors import InputError, SolverError, SolverGaveUp
from ..problem.board import Board, Cell, Problem, shown, whole_number
from ..problem.reference import published_count
from ..problem.results import CountResult, KnownBy, SolveResult, Status
from ..runtime import isolate
from ..runtime.isolate import Ended
from ..runtime.limits import check_time_limit, over_limit
from .base import Choice, Method, check_callback, check_flag, get_method, stopped_result, verified

ProblemLike = Problem | int

#: A count expected to take longer than this needs a time limit (it reports a lower bound when it stops).
COUNT_REFUSE_SECONDS = 86_400.0
#: The independent backtracking that checks a "no" or a count may place this many queens (a fraction of a
#: second): enough to settle every instance of up to about 13 rows, and completions that die early.
CHECK_STEPS = 400_000
#: The longest duration :func:`duration_text` words (and :func:`count_estimate` predicts): far beyond the age
#: of the universe, which is what both then say.
MAX_SECONDS = 1e300


def as_problem(problem: ProblemLike, preplaced: Any = ()) -> Problem:
    """``problem`` if it is a :class:`Problem`, else the problem of that size with ``preplaced`` queens."""
    return problem if isinstance(problem, Problem) else Problem(problem, preplaced)


def _check_isolated(isolated: object) -> None:
    if isolated is not None and not isinstance(isolated, bool):
        raise InputError(f"isolated is True, False or None (decide by the time limit), not {shown(isolated)}")


def prepare(problem: ProblemLike, method: str | Method | None, variant: str | None, solver: str | None,
            settings: str | None, time_limit: object, max_memory: object,
            verb: str = "solve") -> tuple[Problem, Method, Choice, float | None]:
    """Every check a verb makes before it starts: the problem, the method's verb and features, the choice,
    the time limit, the size."""
    problem = as_problem(problem)
    chosen = get_method(method)
    chosen.check(problem, verb)
    choice = chosen.choose(variant, solver, settings)
    chosen.check_entry(problem, verb, choice)  # what the chosen solver entry honours
    limit = check_time_limit(time_limit)
    chosen.check_size(problem, choice, max_memory)
    return problem, chosen, choice, limit


def finish(result: SolveResult, chosen: Method, choice: Choice, problem: Problem | None = None) -> SolveResult:
    """What every solve returns: the method's words and options, the independent verdict on the board, and
    for a "no" how it is known (:func:`judge_no`)."""
    result.variant_kind = chosen.variant_word
    if not result.options:
        result.options = chosen.options(choice)
    if not chosen.complete and result.status == Status.INFEASIBLE:  # an incomplete method cannot say "no"
        result.status = Status.TIMEOUT
    result.check()
    if result.status == Status.INFEASIBLE:
        judge_no(result.problem if problem is None else problem, result, choice.solver or chosen.name)
    return result


def judge_no(problem: Problem, result: SolveResult, who: str) -> None:
    """Believe a "no" only as far as it is known: a proof already checked stays; a problem the kit knows
    has a board (the construction's n = 1 and n >= 4 on an empty board, or a board independent backtracking
    finds) makes the "no" a solver error; backtracking that exhausts the problem within its budget confirms
    it; beyond that budget the "no" is the solver's word alone, and says so (``result.known_by``)."""
    from .search.backtrack import search_budgeted  # the independent check (imported when a "no" needs it)

    if result.known_by == KnownBy.CHECKED_PROOF:
        return
    if (problem.plain or problem.break_symmetry and not problem.preplaced and not problem.blocked) and (
            problem.n == 1 or problem.n >= 4):
        raise SolverError(f"{who} says {problem.n}-queens has no board, but it has "
                          f"{published_count(problem.n) or 'many'} (the construction gives one for every n >= 4): "
                          "the solver's answer is wrong")
    _found, board, finished = search_budgeted(problem, CHECK_STEPS)
    if board is not None:
        raise SolverError(f"{who} says {problem.describe()} has no board, but backtracking finds "
                          f"{' '.join(f'{r},{c}' for r, c in board)[:80]}: the solver's answer is wrong")
    result.known_by = KnownBy.BACKTRACKING if finished else KnownBy.SOLVER_ALONE
    if not finished:
        result.message += " (the solver's word alone: too large to check by backtracking)"


def judge_count(problem: Problem, result: CountResult, fundamental: bool, who: str) -> None:
    """Check a complete count against the published count, or against independent backtracking where that
    is cheap; a different total is a solver error.  ``result.known_by`` says which check it passed."""
    from .search.backtrack import search_budgeted

    if problem.plain or (problem.break_symmetry and not problem.preplaced and not problem.blocked):
        published = published_count(problem.n, fundamental=problem.break_symmetry)
        if published is not None:
            if result.count != published:
                raise SolverError(f"{who} counted {result.count:,} boards of {problem.describe()}; the published "
                                  f"count is {published:,} (OEIS {'A002562' if problem.break_symmetry else 'A000170'})"
                                  ": the count cannot be trusted")
            if fundamental and result.fundamental != published_count(problem.n, fundamental=True):
                raise SolverError(f"{who} found {result.fundamental:,} fundamental boards of {problem.n}-queens; "
                                  f"the published count is {published_count(problem.n, fundamental=True):,}")
            result.known_by = KnownBy.PUBLISHED
            return
    found, _board, finished = search_budgeted(problem, CHECK_STEPS, count=True)
    if finished and found != result.count:
        raise SolverError(f"{who} counted {result.count:,} boards of {problem.describe()}; independent "
                          f"backtracking finds {found:,}: the count cannot be trusted")
    result.known_by = KnownBy.BACKTRACKING if finished else KnownBy.SOLVER_ALONE


def _solve_job(problem: Problem, choice: Choice, limit: float | None, explain: bool = True) -> SolveResult:
    start = time.monotonic()
    deadline = None if limit is None else start + limit
    chosen = get_method(choice.method)
    result = finish(chosen.solve_here(problem, choice, deadline), chosen, choice, problem)
    took = time.monotonic() - start
    if result.status.finished and over_limit(took, limit):  # a solver that cannot stop itself answered late
        return stopped_result(problem, chosen, choice, Status.TIMEOUT,
                              f"no answer within the time limit of {limit:g} s (it came after {took:.3g} s)", took)
    if result.status == Status.TIMEOUT and limit is not None:
        result.message = result.message.replace("the time limit", f"the time limit of {limit:g} s", 1)
    if explain and result.status == Status.INFEASIBLE and len(problem.preplaced) > 1:
        result.core = minimal_core(problem, choice, deadline)
        if result.core is not None:
            cells = " ".join(f"{r},{c}" for r, c in result.core)
            result.message += f"; already impossible: the queens at {cells}"
    return result


def minimal_core(problem: Problem, choice: Choice, deadline: float | None = None) -> tuple[Cell, ...] | None:
    """A minimal set of the pre-placed queens that already has no completion: removing any one of them
    makes the board completable.  None when the problem is completable (or the deadline passes first).

    Deletion-based: try each queen in turn without it; if the rest is still impossible, it was not needed.
    One solve per pre-placed queen, with the same method, variant and solver (a complete one).
    ``deadline`` is a :func:`time.monotonic` time.
    """
    if not isinstance(problem, Problem):
        raise InputError(f"problem is a Problem (e.g. Problem(8, [(1, 1)])), not {shown(problem)}")
    if not isinstance(choice, Choice):
        raise InputError(f"choice is a Choice (e.g. get_method('sat').choose()), not {shown(choice)}")
    if deadline is not None and (isinstance(deadline, bool) or not isinstance(deadline, (int, float))
                                 or not 0 < deadline < math.inf):
        raise InputError(f"deadline is a time of time.monotonic() or None, not {shown(deadline)}")
    chosen = get_method(choice.method)
    if not chosen.complete:
        return None

    def impossible(cells: list[Cell]) -> bool | None:
        if deadline is not None and time.monotonic() > deadline:
            return None
        trial = dataclasses.replace(problem, preplaced=tuple(cells))
        status = chosen.solve_here(trial, choice, deadline).status
        return None if not status.finished else status == Status.INFEASIBLE

    kept = list(problem.preplaced)
    index = 0
    while index < len(kept):
        trial = kept[:index] + kept[index + 1:]
        verdict = impossible(trial)
        if verdict is None:
            return None
        if verdict:
            kept = trial
        else:
            index += 1
    return tuple(kept)


def solve(problem: ProblemLike, method: str | Method | None = None, variant: str | None = None,
          solver: str | None = None, *, time_limit: object = None, settings: str | None = None,
          isolated: bool | None = None, max_memory: object = None, stop: Callable[[], bool] | None = None,
          explain: bool = True, order: int | None = None) -> SolveResult:
    """Solve ``problem`` with a method (see the module docstring); returns a verified :class:`SolveResult`.

    ``explain``: for an infeasible completion, also find a minimal impossible subset of the pre-placed
    queens (``result.core``; one extra solve per pre-placed queen; the timing harness turns it off).

    ``isolated`` (default: when there is a time limit or a ``stop`` callback) runs the whole job in a child
    process; the command line always isolates a method that is not :attr:`~Method.interruptible`, so Ctrl-C
    stops any solver at once.  ``isolated=False`` with a time limit passes the limit to the solvers that can
    stop themselves (their ``time_limit`` capability) and runs the rest to the end.  ``order`` (methods that
    honour ``reorder``) solves the same problem with its variables renumbered and its clauses or constraints
    reordered by that seed: a different instance for a solver.
    """
    problem, chosen, choice, limit = prepare(problem, method, variant, solver, settings, time_limit, max_memory)
    _check_isolated(isolated)
    check_callback(stop, "stop")
    check_flag(explain, "explain")
    if order is not None:
        seed = None if isinstance(order, str) else whole_number(order)
        if seed is None:
            raise InputError(f"order is a whole number (a seed) or None, not {shown(order)}")
        if not chosen.honours("reorder", choice):
            who = f"--method {chosen.name}" + (f" with --solver {choice.solver}" if chosen.honours("reorder") else "")
            raise InputError(f"{who} has no model to reorder; order= is for methods and solvers that "
                             "honour reordered instances")
        choice = dataclasses.replace(choice, order=seed)
    if isolated is None:
        isolated = limit is not None or stop is not None
    if not isolated:  # the limit then binds only the solvers that stop themselves (not pycosat)
        return _solve_job(problem, choice, limit, explain)
    run = isolate.run_in_child(_solve_job, (problem, choice, limit, explain), time_limit=limit, stop=stop)
    if run.status == Ended.DONE:
        result: SolveResult = run.value
        return result
    run.raise_error()
    return stopped_result(problem, chosen, choice, run.status.status, run.limit_message(limit), run.wall)


def _count_job(problem: Problem, choice: Choice, fundamental: bool) -> tuple[int, int | None]:
    return get_method(choice.method).count_here(problem, choice, fundamental)


def count(problem: ProblemLike, method: str | Method | None = None, variant: str | None = None,
          solver: str | None = None, *, fundamental: bool = False, time_limit: object = None,
          settings: str | None = None, progress: Callable[[int, int | None], None] | None = None,
          isolated: bool | None = None, max_memory: object = None,
          stop: Callable[[], bool] | None = None) -> CountResult:
    """Count the boards of ``problem`` (and the fundamental ones, up to the 8 symmetries, if asked).

    ``progress(count, fundamental_so_far)`` is called about five times a second.  A count stopped by
    ``time_limit`` (or ``stop``) has status timeout and holds the boards counted so far: a lower bound.  A
    count of the bare problem expected to take more than a day (:func:`count_estimate`) is refused without a
    time limit or ``stop``.
    """
    problem, chosen, choice, limit = prepare(problem, method, variant, solver, settings, time_limit, max_memory,
                                             "count")
    check_flag(fundamental, "fundamental")
    check_callback(progress, "progress")
    _check_isolated(isolated)
    check_callback(stop, "stop")
    if fundamental and problem.break_symmetry:
        raise InputError("with the symmetry broken every board counted is fundamental; drop fundamental "
                         "(--fundamental)")
    if fundamental and not chosen.has("iterate"):
        raise InputError(f"--method {chosen.name} counts boards without listing them, so it cannot sort them into "
                         "fundamental ones; break the symmetry (--break-symmetry) to count the fundamental solutions")
    if limit is None and stop is None:
        refuse_endless_count(problem, chosen)
    if isolated is None:
        isolated = limit is not None or stop is not None
    start = time.monotonic()
    result = CountResult(n=problem.n, count=0, method=chosen.name, variant=choice.variant, solver=choice.solver,
                         preplaced=problem.preplaced, blocked=problem.blocked,
                         break_symmetry=problem.break_symmetry, variant_kind=chosen.variant_word,
                         settings=choice.settings)

    def relay(message: object) -> None:
        if progress is not None and isinstance(message, tuple):
            progress(*message)

    run = None
    try:
        if not isolated:
            with isolate.reporting(relay):
                result.count, result.fundamental = chosen.count_here(problem, choice, fundamental)
        else:
            run = isolate.run_in_child(_count_job, (problem, choice, fundamental), time_limit=limit,
                                       on_message=relay, stop=stop)
            if run.status == Ended.DONE:
                result.count, result.fundamental = run.value
            else:
                run.raise_error()
                result.status = run.status.status
                result.count, result.fundamental = run.progress or (0, 0 if fundamental else None)
                why = "it was stopped" if run.stopped else (
                    f"the time limit of {limit:g} s" if run.status == Ended.TIMEOUT else "the memory limit")
                result.note = (f"a lower bound: {result.count:,} boards were counted before {why}"
                               if chosen.partial_counts else
                               f"no count: {chosen.title} has no partial count and did not finish before {why}")
    except SolverGaveUp as gave_up:  # the solver's own "unknown": the count ends there, as at a limit
        result.status = Status.UNKNOWN
        result.count, result.fundamental = (run.progress if run is not None else None) or (
            0, 0 if fundamental else None)
        result.note = (f"a lower bound: {result.count:,} boards were counted before the solver stopped without an "
                       f"answer ({gave_up})")
    if problem.break_symmetry:
        result.fundamental = result.count
    result.seconds = time.monotonic() - start
    if result.status == Status.SOLVED and over_limit(result.seconds, limit):  # counted to the end, but late
        result.status = Status.TIMEOUT
        result.note = (f"a lower bound: {result.count:,} boards were counted, but only after the time limit of "
                       f"{limit:g} s")
    if result.status == Status.SOLVED:
        if chosen.counts_boards(choice):
            judge_count(problem, result, fundamental, choice.solver or chosen.name)
        result.note = chosen.count_note(result)
    return result



def refuse_endless_count(problem: Problem, chosen: Method) -> None:
    """Refuse (one line, with the hint) a count expected to run longer than :data:`COUNT_REFUSE_SECONDS`."""
    estimate = count_estimate(problem, chosen)
    if estimate is None or estimate[1] <= COUNT_REFUSE_SECONDS:
        return
    boards, seconds = estimate
    many = f"about {boards:.3g}" if boards < 1e300 else "more than 10^300"
    raise InputError(f"{problem.n}-queens has {many} solutions: counting them with {chosen.name} would take "
                     f"{duration_text(seconds)}; give a time limit (--time-limit S) to count for that long and "
                     "get a lower bound")


def duration_text(seconds: float) -> str:
    """``about 3.2 hours``, ``longer than the age of the universe``; ``seconds`` from 0 to :data:`MAX_SECONDS`."""
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not 0 <= seconds <= MAX_SECONDS:
        raise InputError(f"a duration is a number of seconds from 0 to {MAX_SECONDS:g}, not {shown(seconds)}")
    if seconds > 4.4e17:
        return "longer than the age of the universe"
    for unit, size in (("years", 365.25 * 86400), ("days", 86400), ("hours", 3600), ("minutes", 60)):
        if seconds >= 2 * size:
            return f"about {seconds / size:,.3g} {unit}"
    return f"about {seconds:.0f} s"


def iter_boards(problem: ProblemLike, method: str | Method | None = None, variant: str | None = None,
                solver: str | None = None, settings: str | None = None) -> Iterator[Board]:
    """Every board of ``problem``, each verified, in the method's order (in this process)."""
    problem, chosen, choice, _ = prepare(problem, method, variant, solver, settings, None, None, "iterate")
    return verified(chosen.iter_boards(problem, choice), problem, choice.solver or chosen.name)


def _boards_job(problem: Problem, choice: Choice, limit: int | None) -> bool:
    """Report each board to the parent as it is found; True when the enumeration ended (all were found)."""
    found = 0
    chosen = get_method(choice.method)
    for board in verified(chosen.iter_boards(problem, choice), problem, choice.solver or chosen.name):
        isolate.report(board)
        found += 1
        if limit is not None and found >= limit:
            return False
    return True


def first_boards(problem: ProblemLike, method: str | Method | None = None, variant: str | None = None,
                 solver: str | None = None, *, limit: int | None = None, time_limit: object = None,
                 settings: str | None = None, stop: Callable[[], bool] | None = None) -> tuple[list[Board], bool]:
    """The first ``limit`` boards (all of them if None), each verified, found in a child process.

    Returns the boards and whether they are all there are.  When the time limit or ``stop`` ends the search,
    the boards found so far come back (and False).
    """
    problem, _chosen, choice, limit_seconds = prepare(problem, method, variant, solver, settings, time_limit, None,
                                                      "iterate")
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 1):
        raise InputError(f"limit must be a whole number of boards of at least 1, not {shown(limit)}")
    check_callback(stop, "stop")
    boards: list[Board] = []
    run = isolate.run_in_child(_boards_job, (problem, choice, limit), time_limit=limit_seconds,
                               on_message=boards.append, stop=stop)
    run.raise_error()
    return boards, run.status == Ended.DONE and bool(run.value)


def count_estimate(problem: ProblemLike, method: str | Method | None = None) -> tuple[float, float] | None:
    """``(boards, seconds)`` a full count of the bare problem will take, roughly; None if unknown.

    The number of boards is the published count (OEIS A000170, n <= 27) or, beyond, that count grown by
    the last published ratio per row; the rate is the method's typical boards per second on a 2-core machine.
    Beyond 10^300 boards the count is ``inf`` and the time :data:`MAX_SECONDS`.
    """
    problem = as_problem(problem)
    if not problem.plain:
        return None
    chosen = get_method(method)
    n = problem.n
    published = published_count(n)
    boards = float(published) if published is not None else math.nan
    if published is None:
        last = 27
        top, below = published_count(last), published_count(last - 1)
        if not top or not below:
            return None
        exponent = math.log10(top) + (n - last) * math.log10(top / below)
        boards = 10.0 ** exponent if exponent < 300 else math.inf
    return boards, min(boards / chosen.count_rate, MAX_SECONDS)


# -------------------------------------------------------------------- the per-method conveniences


def solve_sat(problem: ProblemLike, encoding: str | None = None, solver: str | None = None,
              time_limit: object = None) -> SolveResult:
    """Solve by SAT: ``solve(problem, "sat", encoding, solver, time_limit=...)``."""
    return solve(problem, "sat", encoding, solver, time_limit=time_limit)


def solve_ilp(problem: ProblemLike, formulation: str | None = None, solver: str | None = None,
              time_limit: object = None, settings: str | None = None) -> SolveResult:
    """Solve by ILP: ``solve(problem, "ilp", formulation, solver, time_limit=..., settings=...)``."""
    return solve(problem, "ilp", formulation, solver, time_limit=time_limit, settings=settings)


def count_solutions(problem: ProblemLike, encoding: str | None = None, solver: str | None = None,
                    fundamental: bool = False, time_limit: object = None) -> CountResult:
    """Count by SAT enumeration: ``count(problem, "sat", encoding, solver, ...)``."""
    return count(problem, "sat", encoding, solver, fundamental=fundamental, time_limit=time_limit)


def iter_solutions(problem: ProblemLike, encoding: str | None = None, solver: str | None = None) -> Iterator[Board]:
    """Every board by SAT, each verified: ``iter_boards(problem, "sat", encoding, solver)``."""
    return iter_boards(problem, "sat", encoding, solver)
