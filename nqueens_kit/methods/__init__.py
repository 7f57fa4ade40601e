"""The method layer: one registry of the ways to solve N-queens, and the verbs every front end uses.

A :class:`Method` (``sat``, ``ilp``, ``construct``, ``backtrack``) has its *variants* (the SAT encodings,
the ILP formulations; none for the others), its *solvers* (from :mod:`nqueens_kit.solvers`), a predicted
size, and knows how to solve in this process and how to enumerate boards.  :data:`METHODS` is the
registry; the command line, the timing harness, the apps and the notebooks only look things up in it.

The verbs, each with the one time-limit check and the one size check:

- :func:`solve`: one board (or infeasible / timeout), verified.  With ``time_limit`` (seconds of wall clock
  for the whole job: building, writing files, solving, decoding) or a ``stop`` callback the job runs in a
  child process (:mod:`nqueens_kit.runtime.isolate`) that is stopped, solvers and all, when the limit passes.
- :func:`count`: how many boards (and fundamental boards); every board is verified and a repeated one is
  an error; a count stopped by its time limit returns the boards counted so far as a lower bound.
- :func:`iter_boards`: the boards one by one, verified; :func:`first_boards`: the first k of them found in a
  child process under a time limit (what the apps use).
- :func:`count_estimate`: how many boards a count will meet and roughly how long it will take.

Choosing: :meth:`Method.choose` turns ``variant`` / ``solver`` / ``settings`` into a :class:`Choice`, with
a one-line error when one of them does not apply to the method.

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
from dataclasses import dataclass
from typing import Any

from ..errors import InputError, SolverError
from ..problem.board import Board, Cell, Problem, canonical, verify, violations
from ..problem.results import CountResult, SolveResult, Status
from ..runtime import isolate
from ..runtime.limits import Size, check_size, check_time_limit, sat_size
from ..solvers import ILP_SOLVERS, SAT_SOLVERS, Solver, get_solver

ProblemLike = Problem | int


def as_problem(problem: ProblemLike, preplaced: Any = ()) -> Problem:
    return problem if isinstance(problem, Problem) else Problem(problem, tuple(preplaced))


@dataclass(frozen=True)
class Choice:
    """A method with its variant, solver and solver settings resolved (names, so it can cross processes)."""

    method: str
    variant: str | None = None
    solver: str | None = None
    settings: str | None = None
    #: A seed that renumbers the variables and reorders the clauses or constraints (one *instance* of the
    #: same problem, for benchmarks); None keeps the natural order.
    order: int | None = None

    @property
    def label(self) -> str:
        """``SAT pairwise/pycosat``, ``ILP lines/cbc``, ``backtrack``."""
        if self.variant is None:
            return self.method
        return f"{self.method.upper()} {self.variant}/{self.solver}"


class Method:
    """A way of solving N-queens (see the module docstring); subclasses fill in the parts they have."""

    name = ""
    title = ""
    summary = ""
    variant_word: str | None = None  # "encoding" or "formulation"
    model_word = "model"  # what the method builds: "CNF", "ILP model"
    honours_preplaced = True
    can_count = True
    #: Rough boards per second a count enumerates at (2-core machine of 2026), for estimates only.
    count_rate = 10_000.0

    def variants(self) -> dict[str, Any]:
        return {}

    def solvers(self) -> dict[str, Solver]:
        return {}

    def default_variant(self) -> str | None:
        return next(iter(self.variants()), None)

    def default_solver(self) -> str | None:
        return next(iter(self.solvers()), None)

    def choose(self, variant: str | None = None, solver: str | None = None, settings: str | None = None) -> Choice:
        """Resolve the names; a variant, solver or settings where the method has none is a one-line error."""
        if variant is not None and not self.variants():
            raise InputError(f"--encoding / --formulation do not apply to --method {self.name} ({self.summary})")
        if solver is not None and not self.solvers():
            raise InputError(f"--solver does not apply to --method {self.name}: it uses no solver")
        if settings is not None and self.name != "ilp":
            raise InputError(f"--settings applies to --method ilp only, not to --method {self.name}")
        if not self.variants():
            return Choice(self.name)
        variant = self.default_variant() if variant is None else self._variant_name(variant)
        backend = get_solver(self.name, solver)
        return Choice(self.name, variant, backend.name, settings)

    def _variant_name(self, variant: str) -> str:
        if not isinstance(variant, str) or variant not in self.variants():
            raise InputError(f"unknown {self.variant_word} {variant!r} for --method {self.name}; "
                             f"valid: {', '.join(self.variants())}")
        return variant

    def require_counting(self) -> None:
        """A one-line error if the method gives one board and cannot count."""
        if not self.can_count:
            raise InputError(f"--method {self.name} gives one board and does not count; count with --method sat, "
                             "ilp or backtrack")

    def check_problem(self, problem: Problem) -> None:
        if problem.preplaced and not self.honours_preplaced:
            raise InputError(f"--method {self.name} cannot honour pre-placed queens; use --method sat or ilp")

    def size(self, problem: Problem, choice: Choice) -> Size | None:
        """The predicted size of what the method builds (None: it builds nothing of note)."""
        return None

    def check_size(self, problem: Problem, choice: Choice, max_memory: Any = None) -> None:
        size = self.size(problem, choice)
        if size is not None:
            check_size(size, f"the {choice.variant} {self.model_word} of {problem.n}-queens",
                       self.size_advice(problem, choice), max_memory)

    def size_advice(self, problem: Problem, choice: Choice) -> str:
        return "use a smaller n, or --method construct for one board of any size"

    def solve_here(self, problem: Problem, choice: Choice, deadline: float | None) -> SolveResult:
        raise NotImplementedError

    def iter_boards(self, problem: Problem, choice: Choice) -> Iterator[Board]:
        raise NotImplementedError

    def count_here(self, problem: Problem, choice: Choice, fundamental: bool) -> tuple[int, int | None]:
        """``(boards, fundamental boards or None)``, every board verified; :func:`isolate.report` sends
        ``(count, fundamental so far)`` about five times a second."""
        seen: set[bytes] = set()
        classes: set[bytes] = set()
        last = time.monotonic()
        for board in self.iter_boards(problem, choice):
            key = _key(board)
            if key in seen:
                raise SolverError(f"{choice.solver or self.name} returned the board {_text(board)} twice; "
                                  "the count cannot be trusted (is the solver ignoring blocking clauses?)")
            seen.add(key)
            if fundamental:
                classes.add(_key(canonical(problem.n, board)))
            now = time.monotonic()
            if now - last > 0.2:
                isolate.report((len(seen), len(classes) if fundamental else None))
                last = now
        return len(seen), (len(classes) if fundamental else None)


def _key(board: Board) -> bytes:
    """A compact key of a verified board (its columns, one queen per row), to remember millions cheaply."""
    if len(board) < 256:  # every column fits in a byte
        return bytes([c for _, c in board])
    return b"".join(c.to_bytes(4, "little") for _, c in board)


def _cells_key(board: Board) -> bytes:
    """A key of any set of cells (an unverified board may hold two queens in a row)."""
    return b"".join(r.to_bytes(4, "little") + c.to_bytes(4, "little") for r, c in board)


def _text(board: Board) -> str:
    return " ".join(f"{r},{c}" for r, c in board)


def _verified(boards: Iterator[Board], problem: Problem, who: str) -> Iterator[Board]:
    """Pass boards on after the independent verifier has accepted each one."""
    n, preplaced = problem.n, problem.preplaced
    for board in boards:
        if not verify(n, board, preplaced):
            wrong = violations(n, board, preplaced) or ["rejected by verify"]
            raise SolverError(f"{who} returned a board that is not a solution ({wrong[0]}): {_text(board)[:80]}")
        yield board


class SatMethod(Method):
    name, title = "sat", "SAT"
    summary = "a CNF formula solved by a SAT solver"
    variant_word = "encoding"
    model_word = "CNF"
    count_rate = 12_000.0

    def variants(self) -> dict[str, Any]:
        from .sat.encodings import ENCODINGS

        return dict(ENCODINGS)

    def solvers(self) -> dict[str, Solver]:
        return dict(SAT_SOLVERS)

    def size(self, problem: Problem, choice: Choice) -> Size:
        return sat_size(problem.n, choice.variant or "pairwise", len(problem.preplaced))

    def size_advice(self, problem: Problem, choice: Choice) -> str:
        better = "a helper-variable encoding (--encoding sequential), " if choice.variant == "pairwise" else ""
        return f"use {better}a smaller n, or --method construct for one board of any size"

    def solve_here(self, problem: Problem, choice: Choice, deadline: float | None) -> SolveResult:
        from .sat.solve import solve_here

        return solve_here(problem, choice.variant, choice.solver, deadline, order=choice.order)

    def iter_boards(self, problem: Problem, choice: Choice) -> Iterator[Board]:
        from .sat.solve import iter_boards

        return _verified(iter_boards(problem, choice.variant, choice.solver), problem, choice.solver or "sat")


class IlpMethod(Method):
    name, title = "ilp", "ILP"
    summary = "an integer linear program solved by CBC or HiGHS through PuLP"
    variant_word = "formulation"
    model_word = "ILP model"
    count_rate = 7.0

    def variants(self) -> dict[str, Any]:
        from .ilp.formulations import FORMULATIONS

        return dict(FORMULATIONS)

    def solvers(self) -> dict[str, Solver]:
        return dict(ILP_SOLVERS)

    def choose(self, variant: str | None = None, solver: str | None = None, settings: str | None = None) -> Choice:
        from .ilp.formulations import get_settings

        choice = super().choose(variant, solver, None)
        return Choice(choice.method, choice.variant, choice.solver, get_settings(settings))

    def size(self, problem: Problem, choice: Choice) -> Size:
        from .ilp.formulations import get_formulation

        return get_formulation(choice.variant).size(problem.n, len(problem.preplaced))

    def size_advice(self, problem: Problem, choice: Choice) -> str:
        better = "--formulation lines, " if choice.variant == "pairwise" else ""
        return f"use {better}a smaller n, --method sat, or --method construct for one board of any size"

    def solve_here(self, problem: Problem, choice: Choice, deadline: float | None) -> SolveResult:
        from .ilp.model import solve_here

        return solve_here(problem, choice.variant, choice.solver, deadline, choice.settings, order=choice.order)

    def iter_boards(self, problem: Problem, choice: Choice) -> Iterator[Board]:
        from .ilp.model import iter_boards

        return _verified(iter_boards(problem, choice.variant, choice.solver, choice.settings), problem,
                         choice.solver or "ilp")


class ConstructMethod(Method):
    name, title = "construct", "construction"
    summary = "the explicit O(n) construction: one board, no search"
    honours_preplaced = False
    can_count = False

    def solve_here(self, problem: Problem, choice: Choice, deadline: float | None) -> SolveResult:
        from .search.construct import solve_construct

        return solve_construct(problem)

    def iter_boards(self, problem: Problem, choice: Choice) -> Iterator[Board]:
        result = self.solve_here(problem, choice, None)
        if result.status == Status.SOLVED:
            yield result.queens


class BacktrackMethod(Method):
    name, title = "backtrack", "backtracking"
    summary = "bitmask backtracking row by row, no solver"
    count_rate = 110_000.0

    def solve_here(self, problem: Problem, choice: Choice, deadline: float | None) -> SolveResult:
        start = time.perf_counter()
        board = next(self.iter_boards(problem, choice), None)
        seconds = time.perf_counter() - start
        if board is None:
            from .sat.solve import infeasible_message

            return SolveResult(n=problem.n, method=self.name, status=Status.INFEASIBLE, preplaced=problem.preplaced,
                               solve_seconds=seconds, message=infeasible_message(problem))
        return SolveResult(n=problem.n, method=self.name, status=Status.SOLVED, queens=board,
                           preplaced=problem.preplaced, solve_seconds=seconds).check()

    def iter_boards(self, problem: Problem, choice: Choice) -> Iterator[Board]:
        from .search.construct import iter_backtrack

        return iter_backtrack(problem)

    def count_here(self, problem: Problem, choice: Choice, fundamental: bool) -> tuple[int, int | None]:
        if problem.preplaced or fundamental:
            return super().count_here(problem, choice, fundamental)
        from .search.construct import count_backtrack

        last = [time.monotonic()]

        def progress(total: int) -> None:
            if time.monotonic() - last[0] > 0.2:
                isolate.report((total, None))
                last[0] = time.monotonic()

        return count_backtrack(problem.n, progress=progress), None


#: Name -> method; the first is the default.
METHODS: dict[str, Method] = {m.name: m for m in (SatMethod(), IlpMethod(), ConstructMethod(), BacktrackMethod())}
DEFAULT_METHOD = "sat"


def get_method(name: str | Method | None) -> Method:
    """A method by name (None: the default), or a one-line :class:`InputError` listing the valid ones."""
    if isinstance(name, Method):
        return name
    if name is None:
        return METHODS[DEFAULT_METHOD]
    try:
        return METHODS[name]
    except (KeyError, TypeError):
        raise InputError(f"unknown method {name!r}; valid: {', '.join(METHODS)}") from None


# ------------------------------------------------------------------------------------------ the verbs


def _prepare(problem: ProblemLike, method: str | Method | None, variant: str | None, solver: str | None,
             settings: str | None, time_limit: Any, max_memory: Any) -> tuple[Problem, Method, Choice, float | None]:
    """Every check a verb makes before it starts: the problem, the choice, the time limit, the size."""
    problem = as_problem(problem)
    chosen = get_method(method)
    choice = chosen.choose(variant, solver, settings)
    limit = check_time_limit(time_limit)
    chosen.check_problem(problem)
    chosen.check_size(problem, choice, max_memory)
    return problem, chosen, choice, limit


def _solve_job(problem: Problem, choice: Choice, limit: float | None, explain: bool = True) -> SolveResult:
    deadline = None if limit is None else time.monotonic() + limit
    chosen = get_method(choice.method)
    result = chosen.solve_here(problem, choice, deadline)
    if result.status == Status.TIMEOUT and limit is not None:
        result.message = result.message.replace("the time limit", f"the time limit of {limit:g} s", 1)
    if explain and result.status == Status.INFEASIBLE and problem.preplaced and chosen.honours_preplaced:
        result.core = minimal_core(problem, choice, deadline)
        if result.core is not None and len(problem.preplaced) > 1:
            cells = " ".join(f"{r},{c}" for r, c in result.core)
            result.message += f"; already impossible: the queens at {cells}"
    return result


def minimal_core(problem: Problem, choice: Choice, deadline: float | None = None) -> tuple[Cell, ...] | None:
    """A minimal set of the pre-placed queens that already has no completion: removing any one of them
    makes the board completable.  None when the problem is completable (or the deadline passes first).

    Deletion-based: try each queen in turn without it; if the rest is still impossible, it was not needed.
    One solve per pre-placed queen, with the same method, variant and solver.
    """
    chosen = get_method(choice.method)

    def impossible(cells: list[Cell]) -> bool | None:
        if deadline is not None and time.monotonic() > deadline:
            return None
        status = chosen.solve_here(Problem(problem.n, tuple(cells)), choice, deadline).status
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
          solver: str | None = None, *, time_limit: Any = None, settings: str | None = None,
          isolated: bool | None = None, max_memory: Any = None, stop: Callable[[], bool] | None = None,
          explain: bool = True, order: int | None = None) -> SolveResult:
    """Solve ``problem`` with a method (see the module docstring); returns a verified :class:`SolveResult`.

    ``explain``: for an infeasible completion, also find a minimal impossible subset of the pre-placed
    queens (``result.core``; one extra solve per pre-placed queen; the timing harness turns it off).

    ``isolated`` (default: when there is a time limit or a ``stop`` callback) runs the whole job in a child
    process; the command line always isolates, so Ctrl-C stops any solver at once.  ``isolated=False`` with a
    time limit passes the limit to the solvers that can stop themselves (CBC, HiGHS, PySAT, DIMACS binaries)
    and runs the rest to the end.  ``order`` (sat and ilp) solves the same problem with its variables
    renumbered and its clauses or constraints reordered by that seed: a different instance for a solver.
    """
    problem, chosen, choice, limit = _prepare(problem, method, variant, solver, settings, time_limit, max_memory)
    if order is not None:
        if chosen.name not in ("sat", "ilp"):
            raise InputError(f"--method {chosen.name} has no formula to reorder; order= is for sat and ilp")
        choice = dataclasses.replace(choice, order=int(order))
    if isolated is None:
        isolated = limit is not None or stop is not None
    if not isolated:  # the limit then binds only the solvers that stop themselves (not pycosat)
        return _solve_job(problem, choice, limit, explain)
    run = isolate.run_in_child(_solve_job, (problem, choice, limit, explain), time_limit=limit, stop=stop)
    if run.status == "done":
        return run.value
    if run.status == "failed":
        run.raise_error()
    size = chosen.size(problem, choice)
    stopped = run.error == "stopped"
    result = SolveResult(
        n=problem.n, method=chosen.name, status=Status.TIMEOUT if run.status == "timeout" else Status.MEMOUT,
        variant=choice.variant, solver=choice.solver, preplaced=problem.preplaced, solve_seconds=run.wall,
        variables=size.variables if size else None, clauses=size.clauses if size else None,
        constraints=size.constraints if size else None,
        message="stopped" if stopped else (f"no answer within the time limit of {limit:g} s" if run.status == "timeout"
                                           else "ran out of memory"),
    )
    return result


def _count_job(problem: Problem, choice: Choice, fundamental: bool) -> tuple[int, int | None]:
    return get_method(choice.method).count_here(problem, choice, fundamental)


def count(problem: ProblemLike, method: str | Method | None = None, variant: str | None = None,
          solver: str | None = None, *, fundamental: bool = False, time_limit: Any = None,
          settings: str | None = None, progress: Callable[[int, int | None], None] | None = None,
          isolated: bool | None = None, max_memory: Any = None,
          stop: Callable[[], bool] | None = None) -> CountResult:
    """Count the boards of ``problem`` (and the fundamental ones, up to the 8 symmetries, if asked).

    ``progress(count, fundamental_so_far)`` is called about five times a second.  A count stopped by
    ``time_limit`` (or ``stop``) has status timeout and holds the boards counted so far: a lower bound.
    """
    problem, chosen, choice, limit = _prepare(problem, method, variant, solver, settings, time_limit, max_memory)
    chosen.require_counting()
    if isolated is None:
        isolated = limit is not None or stop is not None
    start = time.monotonic()
    result = CountResult(n=problem.n, count=0, method=chosen.name, variant=choice.variant, solver=choice.solver,
                         preplaced=problem.preplaced)

    def relay(message: Any) -> None:
        if progress is not None:
            progress(*message)

    if not isolated:
        with isolate.reporting(relay):
            result.count, result.fundamental = chosen.count_here(problem, choice, fundamental)
    else:
        run = isolate.run_in_child(_count_job, (problem, choice, fundamental), time_limit=limit,
                                   on_message=relay, stop=stop)
        if run.status == "done":
            result.count, result.fundamental = run.value
        elif run.status == "failed":
            run.raise_error()
        else:
            result.status = Status.TIMEOUT if run.status == "timeout" else Status.MEMOUT
            result.count, result.fundamental = run.progress or (0, 0 if fundamental else None)
            why = "stopped" if run.error == "stopped" else (
                f"the time limit of {limit:g} s" if run.status == "timeout" else "the memory limit")
            result.note = f"a lower bound: {result.count:,} boards were counted before {why}"
    result.seconds = time.monotonic() - start
    if chosen.name == "ilp" and result.status == Status.SOLVED:
        solves = result.count + 1
        result.note = (f"{solves} full re-solves, one no-good cut per solution "
                       f"({result.seconds / solves * 1000:.0f} ms each): slow by design; --method sat or "
                       "backtrack count in milliseconds")
    return result


def iter_boards(problem: ProblemLike, method: str | Method | None = None, variant: str | None = None,
                solver: str | None = None, settings: str | None = None) -> Iterator[Board]:
    """Every board of ``problem``, each verified, in the method's order (in this process)."""
    problem, chosen, choice, _ = _prepare(problem, method, variant, solver, settings, None, None)
    return chosen.iter_boards(problem, choice)


def _boards_job(problem: Problem, choice: Choice, limit: int | None) -> bool:
    """Report each board to the parent as it is found; True when the enumeration ended (all were found)."""
    found = 0
    for board in get_method(choice.method).iter_boards(problem, choice):
        isolate.report(board)
        found += 1
        if limit is not None and found >= limit:
            return False
    return True


def first_boards(problem: ProblemLike, method: str | Method | None = None, variant: str | None = None,
                 solver: str | None = None, *, limit: int | None = None, time_limit: Any = None,
                 settings: str | None = None, stop: Callable[[], bool] | None = None) -> tuple[list[Board], bool]:
    """The first ``limit`` boards (all of them if None), each verified, found in a child process.

    Returns the boards and whether they are all there are.  When the time limit or ``stop`` ends the search,
    the boards found so far come back (and False).
    """
    problem, chosen, choice, limit_seconds = _prepare(problem, method, variant, solver, settings, time_limit, None)
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 1):
        raise InputError(f"limit must be a whole number of boards of at least 1, not {limit!r}")
    boards: list[Board] = []
    run = isolate.run_in_child(_boards_job, (problem, choice, limit), time_limit=limit_seconds,
                               on_message=boards.append, stop=stop)
    if run.status == "failed":
        run.raise_error()
    return boards, run.status == "done" and bool(run.value)


def count_estimate(problem: ProblemLike, method: str | Method | None = None) -> tuple[float, float] | None:
    """``(boards, seconds)`` a full count of an unconstrained board will take, roughly; None if unknown.

    The number of boards is the published count (OEIS A000170, n <= 27) or, beyond, that count grown by
    the last published ratio per row; the rate is the method's typical boards per second on a 2-core machine.
    """
    from ..problem.reference import published_count

    problem = as_problem(problem)
    if problem.preplaced:
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
    return boards, boards / chosen.count_rate


# -------------------------------------------------------------------- the per-method conveniences


def solve_sat(problem: ProblemLike, encoding: str | None = None, solver: str | None = None,
              time_limit: Any = None) -> SolveResult:
    """Solve by SAT: ``solve(problem, "sat", encoding, solver, time_limit=...)``."""
    return solve(problem, "sat", encoding, solver, time_limit=time_limit)


def solve_ilp(problem: ProblemLike, formulation: str | None = None, solver: str | None = None,
              time_limit: Any = None, settings: str | None = None) -> SolveResult:
    """Solve by ILP: ``solve(problem, "ilp", formulation, solver, time_limit=..., settings=...)``."""
    return solve(problem, "ilp", formulation, solver, time_limit=time_limit, settings=settings)


def count_solutions(problem: ProblemLike, encoding: str | None = None, solver: str | None = None,
                    fundamental: bool = False, time_limit: Any = None) -> CountResult:
    """Count by SAT enumeration: ``count(problem, "sat", encoding, solver, ...)``."""
    return count(problem, "sat", encoding, solver, fundamental=fundamental, time_limit=time_limit)


def iter_solutions(problem: ProblemLike, encoding: str | None = None, solver: str | None = None) -> Iterator[Board]:
    """Every board by SAT, each verified: ``iter_boards(problem, "sat", encoding, solver)``."""
    return iter_boards(problem, "sat", encoding, solver)


# ------------------------------------------------------------------------------------ foreign formulas


def _count_formula_job(clauses: list[list[int]], num_vars: int, n: int, solver: str | None,
                       fundamental: bool) -> tuple[int, int | None, int]:
    from .sat.solve import iter_projected

    seen = classes = invalid = 0
    keys: set[bytes] = set()
    fundamentals: set[bytes] = set()
    last = time.monotonic()
    for board in iter_projected(clauses, num_vars, n, solver):
        key = _cells_key(board)
        if key in keys:
            raise SolverError(f"{solver or 'the solver'} returned the board assignment {_text(board)} twice")
        keys.add(key)
        seen += 1
        if violations(n, board):
            invalid += 1
        elif fundamental:
            fundamentals.add(_key(canonical(n, board)))
        now = time.monotonic()
        if now - last > 0.2:
            isolate.report((seen, len(fundamentals) if fundamental else None))
            last = now
    classes = len(fundamentals)
    return seen, (classes if fundamental else None), invalid


def count_formula(clauses: list[list[int]], num_vars: int, n: int, solver: str | None = None, *,
                  fundamental: bool = False, time_limit: Any = None, max_memory: Any = None,
                  progress: Callable[[int, int | None], None] | None = None) -> tuple[CountResult, int]:
    """Count the distinct assignments of the board variables 1..n² over the models of any formula (e.g. a
    DIMACS file); returns the count and how many of those boards are not valid n-queens solutions.

    Without a named solver, an incremental one (python-sat's CaDiCaL) is used where installed, else pycosat.

    Runs in a child process, so the time limit (a lower bound on timeout) and Ctrl-C hold.
    """
    from ..runtime.limits import SAT_BYTES_PER_CLAUSE, Size

    limit = check_time_limit(time_limit)
    if solver is None:  # blocking clauses go best into a solver that keeps its state: python-sat's, if here
        solver = next((name for name, s in SAT_SOLVERS.items() if s.capabilities.incremental and s.available()),
                      None)
    backend = get_solver("sat", solver).require()
    check_size(Size(num_vars, clauses=len(clauses), memory=SAT_BYTES_PER_CLAUSE * len(clauses)),
               "the formula", "count a smaller formula", max_memory)
    start = time.monotonic()
    result = CountResult(n=n, count=0, method="sat", solver=backend.name)
    run = isolate.run_in_child(_count_formula_job, (clauses, num_vars, n, backend.name, fundamental),
                               time_limit=limit, on_message=(lambda m: progress(*m)) if progress else None)
    invalid = 0
    if run.status == "done":
        result.count, result.fundamental, invalid = run.value
    elif run.status == "failed":
        run.raise_error()
    else:
        result.status = Status.TIMEOUT if run.status == "timeout" else Status.MEMOUT
        result.count, result.fundamental = run.progress or (0, 0 if fundamental else None)
        result.note = f"a lower bound: {result.count:,} board assignments were found before the limit"
    result.seconds = time.monotonic() - start
    return result, invalid
