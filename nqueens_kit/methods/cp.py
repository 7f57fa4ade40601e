"""The CP method: the problem as a constraint program, solved by Google OR-Tools' CP-SAT.

Its two *formulations* show what a constraint model can say that CNF and linear constraints cannot:

- ``alldifferent``: n integer variables q[r] in 1..n, the column of row r's queen (one queen per row is
  built into the variables), and three global constraints: AllDifferent on q (columns), on q[r] + r
  (anti-diagonals) and on q[r] - r (diagonals).  Pre-placed queens and blocked cells shrink domains.
- ``boolean``: the n² booleans and the lines of the SAT and ILP models: exactly one queen per row and
  column, at most one per diagonal of two or more cells.

Symmetry breaking is the lex-leader condition of the SAT and ILP methods on the row-major cell vector
(for ``alldifferent`` on booleans channelled to q), with helpers that are functions of the board, so
CP-SAT's enumeration of all solutions lists every board exactly once.  CP-SAT runs on one worker unless the
``all-cores`` settings are chosen.

OR-Tools ships its own HiGHS, and with highspy 1.15 in the same process whichever of the two is loaded
second fails with an undefined symbol (PuLP loads highspy when it is imported).  So in a process that has
loaded highspy and not yet OR-Tools, every CP job runs in a fresh interpreter.

>>> CpMethod().choose("boolean").label
'CP boolean/cp-sat'
>>> model_size(Problem(8), "alldifferent").variables, model_size(Problem(8), "boolean").constraints
(8, 42)
"""

from __future__ import annotations

import os
import queue
import random
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from ..errors import InputError, SolverError
from ..palette import TOL_MUTED
from ..problem.board import Board, Problem, lex_pairs
from ..problem.results import CountResult, SolveResult, Status
from ..runtime import isolate
from ..runtime.browser import importable
from ..runtime.isolate import Ended
from ..runtime.limits import Size
from ..solvers.base import Capabilities, Solver, package_version
from .base import Choice, Method, infeasible_message, stopped_result

INSTALL_HINT = 'pip install "nqueens-kit[cp]" (that is, pip install ortools)'

#: The module whose import loads OR-Tools' shared library.
CP_MODULE = "ortools.sat.python.cp_model"

SETTINGS = {"one-worker": "one search worker, as every other method has one core (fair benchmarks)",
            "all-cores": "CP-SAT's parallel portfolio, one worker per core (solve only: enumeration uses one)"}
DEFAULT_SETTINGS = "one-worker"
#: CP-SAT's own default seed, used when no instance order is asked for.
DEFAULT_SEED = 1
#: Boards the solver thread may find ahead of the consumer of :meth:`CpMethod.iter_boards`.
QUEUE_BOARDS = 256

# Peak memory of a solve (measured with ortools 9.15: the Python objects of the model while building, its
# proto, CP-SAT's presolved copy and propagators): the interpreter with OR-Tools loaded, then per variable
# and per literal; alldifferent grows with n (its propagators and encodings: ~0.6 GB at n = 2000, 1 GB at
# n = 5000), not with n².
CP_BASE_BYTES = 100 * 1024**2
CP_BYTES_PER_VARIABLE = 700
CP_BYTES_PER_LITERAL = 120
CP_BYTES_PER_ROW = 256 * 1024


@dataclass(frozen=True)
class Formulation:
    """One way of writing N-queens as a CP-SAT model; ``integer``: one integer variable per row."""

    name: str
    summary: str
    integer: bool


FORMULATIONS: dict[str, Formulation] = {
    "alldifferent": Formulation("alldifferent", "q[r] in 1..n per row; AllDifferent on q, q[r] + r and q[r] - r",
                                integer=True),
    "boolean": Formulation("boolean", "n² booleans; exactly one per row and column, at most one per diagonal",
                           integer=False),
}


def get_formulation(name: str | None) -> Formulation:
    if name is None:
        return next(iter(FORMULATIONS.values()))
    if not isinstance(name, str) or name not in FORMULATIONS:
        raise InputError(f"unknown formulation {str(name)[:40]!r} for --method cp; valid: {', '.join(FORMULATIONS)}")
    return FORMULATIONS[name]


# ------------------------------------------------------------------------------------- the solver


class CpSat(Solver):
    """OR-Tools CP-SAT in process: lazy clause generation, a CDCL search with CP propagators."""

    name = "cp-sat"
    method = "cp"
    kind = "ortools"
    description = "Google OR-Tools CP-SAT (CDCL search with global-constraint propagators)"
    capabilities = Capabilities(in_process=True, time_limit=True, statistics=True)
    marker = "D"

    def available(self) -> bool:
        return importable("ortools")

    def install_hint(self) -> str:
        return INSTALL_HINT

    def version(self) -> str | None:
        found = package_version("ortools")
        return f"CP-SAT (ortools {found})" if found else None

    def preload(self) -> None:
        """Import CP-SAT, unless highspy is loaded here: then every job runs in a fresh interpreter."""
        if must_isolate():
            return
        try:
            import ortools.sat.python.cp_model  # noqa: F401
        except ImportError:
            pass  # the solve explains a missing OR-Tools itself


CP_SAT = CpSat()


def must_isolate() -> bool:
    """True when importing OR-Tools here could fail: highspy is loaded and CP-SAT is not yet."""
    return "highspy" in sys.modules and CP_MODULE not in sys.modules


# ------------------------------------------------------------------------------------- the model


def lex_size(n: int) -> tuple[int, int, int]:
    """``(helpers, clauses, literals)`` of :func:`lex_leader`: per symmetry and cell it moves one helper and six
    clauses of 19 literals, less one clause of 5 literals for the first cell (the cells each symmetry moves,
    in closed form: what :func:`~nqueens_kit.problem.board.lex_pairs` lists)."""
    odd = n % 2
    moved = [m for m in [n * n - odd] * 3 + [n * n - n * odd] * 2 + [n * n - n] * 2 if m]
    return sum(moved), sum(6 * m - 1 for m in moved), sum(19 * m - 5 for m in moved)


def model_size(problem: Problem, formulation: str | None = None) -> Size:
    """Variables, constraints, literals and memory of :func:`build_model`'s model, without building it."""
    form = get_formulation(formulation)
    n = problem.n
    helpers, clauses, lex_literals = lex_size(n) if problem.break_symmetry else (0, 0, 0)
    if form.integer:
        placed = {r for r, _ in problem.preplaced}
        blocked = Counter(r for r, _ in problem.blocked)
        empty = sum(1 for r, cells in blocked.items() if cells == n and r not in placed)  # rows with no cell left
        variables, constraints, literals = n, 3 + empty, 3 * n
        if problem.break_symmetry:
            variables += n * n
            constraints += 2 * n * n
            literals += 4 * n * n
        inside = CP_BYTES_PER_ROW * n
    else:
        diagonals = max(0, 2 * n - 3)
        variables = n * n
        constraints = 2 * n + 2 * diagonals + len(problem.preplaced) + len(problem.blocked)
        literals = 2 * n * n + (2 * (n * n - 2) if n > 1 else 0) + len(problem.preplaced) + len(problem.blocked)
        inside = 0
    variables += helpers
    constraints += clauses
    literals += lex_literals
    memory = CP_BASE_BYTES + inside + CP_BYTES_PER_VARIABLE * variables + CP_BYTES_PER_LITERAL * literals
    return Size(variables=variables, constraints=constraints, nonzeros=literals, memory=memory)


@dataclass
class BuiltModel:
    """A built CP-SAT model and how to read a board from a solution (``reader`` is a solver or a solution
    callback: both have ``value``)."""

    problem: Problem
    formulation: Formulation
    model: Any
    columns: list[Any]  # per row, an expression whose value is the queen's column
    variables: int
    constraints: int
    build_seconds: float = 0.0

    def board(self, reader: Any) -> Board:
        return tuple((r, int(reader.value(expr))) for r, expr in enumerate(self.columns, start=1))


def build_model(problem: Problem, formulation: str | Formulation | None = None,
                order: int | None = None) -> BuiltModel:
    """The CP-SAT model of ``problem``.  ``order`` creates the variables in a seeded random order and adds the
    constraints (and the terms inside each) shuffled: another instance of the same model, the same on every
    machine for the same seed."""
    from ortools.sat.python import cp_model

    form = formulation if isinstance(formulation, Formulation) else get_formulation(formulation)
    start = time.perf_counter()
    n = problem.n
    model = cp_model.CpModel()
    rng = random.Random(f"nqueens-kit-order:{order}") if order is not None else None

    def shuffled(items: list[Any]) -> list[Any]:
        if rng is not None:
            rng.shuffle(items)
        return items

    rows = list(range(1, n + 1))
    constraints: list[tuple[Callable[..., Any], tuple[Any, ...]]] = []  # added at the end, maybe shuffled
    x: dict[tuple[int, int], Any] = {}
    if form.integer:
        fixed = dict(problem.preplaced)
        closed = set(problem.blocked)
        q: dict[int, Any] = {}
        for r in shuffled(list(rows)):
            allowed = [fixed[r]] if r in fixed else [c for c in rows if (r, c) not in closed]
            if allowed:
                q[r] = model.new_int_var_from_domain(cp_model.Domain.from_values(allowed), f"q{r}")
            else:  # every cell of the row is blocked
                q[r] = model.new_int_var(1, n, f"q{r}")
                constraints.append((model.add_bool_or, ([],)))
        for shift in (0, 1, -1):
            terms = shuffled([q[r] + shift * r for r in rows])
            constraints.append((model.add_all_different, (terms,)))
        columns = [q[r] for r in rows]
        if problem.break_symmetry:  # the cell booleans of the lex-leader condition, channelled to q
            for r in shuffled(list(rows)):
                row = [model.new_bool_var(f"x{r}_{c}") for c in rows]
                x.update({(r, c): var for c, var in zip(rows, row, strict=True)})
                constraints.append((model.add_map_domain, (q[r], row, 1)))
    else:
        for cell in shuffled([(r, c) for r in rows for c in rows]):
            x[cell] = model.new_bool_var(f"x{cell[0]}_{cell[1]}")
        for line in problem.lines():
            lits = shuffled([x[cell] for cell in line.cells])
            constraints.append((model.add_exactly_one if line.exact else model.add_at_most_one, (lits,)))
        for cell in problem.preplaced:
            constraints.append((model.add, (x[cell] == 1,)))
        for cell in problem.blocked:
            constraints.append((model.add, (x[cell] == 0,)))
        columns = [cp_model.LinearExpr.weighted_sum([x[r, c] for c in rows], rows) for r in rows]
    if problem.break_symmetry:
        for clause in lex_leader(n, x, model.new_bool_var):
            constraints.append((model.add_bool_or, (clause,)))
    for add, args in shuffled(constraints):
        add(*args)
    proto = model.proto
    return BuiltModel(problem, form, model, columns, len(proto.variables), len(proto.constraints),
                      time.perf_counter() - start)


def lex_leader(n: int, x: Mapping[tuple[int, int], Any], new_bool: Callable[[str], Any]) -> Iterator[list[Any]]:
    """The clauses of x >=lex s(x) for the 7 symmetries other than the identity, on the row-major cell
    vector x: the chain of the SAT method's :func:`~nqueens_kit.methods.sat.cnf.lex_leader_clauses`, whose
    helper e_i ("x and s(x) agree on the first i compared cells") is defined exactly by the board."""
    for k, (_name, pairs) in enumerate(lex_pairs(n)):
        previous: Any = None  # e_0 is true
        for i, (p, q) in enumerate(pairs):
            a, b = x[p], x[q]
            guard = [] if previous is None else [~previous]
            yield [*guard, a, ~b]
            e = new_bool(f"lex{k}_{i}")
            yield from ([*guard, a, b, e], [*guard, ~a, ~b, e], [~e, ~a, b], [~e, a, ~b])
            if previous is not None:
                yield [~e, previous]
            previous = e


# --------------------------------------------------------------------------------------- solving


def solver_options(choice: Choice, enumerate_all: bool = False) -> dict[str, Any]:
    """The CP-SAT parameters a run of ``choice`` uses (recorded in results)."""
    settings = choice.settings or DEFAULT_SETTINGS
    workers = 1 if enumerate_all or settings == DEFAULT_SETTINGS else _cores()
    seed = DEFAULT_SEED if choice.order is None else choice.order % 2**31
    options: dict[str, Any] = {"settings": settings, "num_workers": workers, "random_seed": seed}
    if enumerate_all:
        options["enumerate_all_solutions"] = True
    return options


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def _solver(options: Mapping[str, Any]) -> Any:
    from ortools.sat.python import cp_model

    solver = cp_model.CpSolver()
    for key, value in options.items():
        if key != "settings":
            setattr(solver.parameters, key, value)
    return solver


def _solve(problem: Problem, choice: Choice, deadline: float | None) -> SolveResult:
    """Build, solve and decode in this process."""
    from ortools.sat.python import cp_model

    built = build_model(problem, choice.variant, choice.order)
    options = solver_options(choice)
    result = SolveResult.of(problem, "cp", Status.SOLVED, variant=built.formulation.name, variant_kind="formulation",
                            solver=CP_SAT.name, variables=built.variables, constraints=built.constraints,
                            build_seconds=built.build_seconds, options=options)
    if deadline is not None:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            result.status = Status.TIMEOUT
            result.message = "no board within the time limit (it went on building the model)"
            return result
        options["max_time_in_seconds"] = round(remaining, 3)
    solver = _solver(options)
    start = time.perf_counter()
    status = solver.solve(built.model)
    result.solve_seconds = time.perf_counter() - start
    result.stats = {"status": solver.status_name(status), "branches": solver.num_branches,
                    "conflicts": solver.num_conflicts, "booleans": solver.num_booleans,
                    "solver_seconds": solver.wall_time}
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        result.queens = built.board(solver)
    elif status == cp_model.INFEASIBLE:
        result.status = Status.INFEASIBLE
        result.message = infeasible_message(problem)
    elif status == cp_model.UNKNOWN and deadline is not None:
        result.status = Status.TIMEOUT
        result.message = "no board within the time limit"
    else:
        result.status = Status.ERROR
        why = built.model.validate() if status == cp_model.MODEL_INVALID else ""
        result.message = f"CP-SAT stopped with status {solver.status_name(status)} ({why or 'no reason given'})"
    return result


class _Feed:
    """Boards from a producer thread to the generator that hands them on, at most :data:`QUEUE_BOARDS`
    ahead; when the consumer stops, ``stopped`` is set and ``on_stop`` (the solver's stop) is called."""

    _END = object()

    def __init__(self) -> None:
        self.queue: queue.Queue[Any] = queue.Queue(maxsize=QUEUE_BOARDS)
        self.stopped = threading.Event()
        self.on_stop: Callable[[], None] | None = None

    def put(self, item: Any) -> bool:
        """Queue ``item``; False (and nothing queued) once the consumer has stopped."""
        while not self.stopped.is_set():
            try:
                self.queue.put(item, timeout=0.05)
                return True
            except queue.Full:
                continue
        return False

    def hand_on(self, item: Any) -> None:
        self.put(item)

    def _produce(self, produce: Callable[[], None]) -> None:
        try:
            produce()
        except BaseException as exc:  # handed to the consumer, which raises it
            self.put(exc)
        self.put(self._END)

    def boards(self, produce: Callable[[], None]) -> Iterator[Board]:
        thread = threading.Thread(target=self._produce, args=(produce,), name="cp-sat enumeration", daemon=True)
        thread.start()
        try:
            while True:
                item = self.queue.get()
                if item is self._END:
                    return
                if isinstance(item, BaseException):
                    raise item
                yield item
        finally:
            self.stopped.set()
            if self.on_stop is not None:
                self.on_stop()
            thread.join()


def _enumerate(problem: Problem, choice: Choice) -> Iterator[Board]:
    """Every board from one CP-SAT search with ``enumerate_all_solutions``, the solver in a thread."""
    from ortools.sat.python import cp_model

    built = build_model(problem, choice.variant, choice.order)
    solver = _solver(solver_options(choice, enumerate_all=True))
    feed = _Feed()
    feed.on_stop = solver.stop_search

    class Collector(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self) -> None:
            if not feed.put(built.board(self)):
                self.stop_search()

    def produce() -> None:
        status = solver.solve(built.model, Collector())
        if not feed.stopped.is_set() and status not in (cp_model.OPTIMAL, cp_model.INFEASIBLE):
            raise SolverError(f"CP-SAT stopped before it had listed every board (status {solver.status_name(status)})")

    return feed.boards(produce)


def _enumerate_fresh(problem: Problem, choice: Choice) -> Iterator[Board]:
    """:func:`_enumerate` in a fresh interpreter, its boards streamed back as they are found."""
    feed = _Feed()

    def produce() -> None:
        run = isolate.run_in_child(_report_boards, (problem, choice), fresh=True, on_message=feed.hand_on,
                                   stop=feed.stopped.is_set)
        if feed.stopped.is_set():
            return
        run.raise_error()
        if run.status != Ended.DONE:
            raise SolverError(f"the CP-SAT enumeration in a fresh interpreter ended without finishing ({run.error})")

    return feed.boards(produce)


def _report_boards(problem: Problem, choice: Choice) -> bool:
    """A fresh child's job: send every board to the parent."""
    for board in _enumerate(problem, choice):
        isolate.report(board)
    return True


# ---------------------------------------------------------------------------------------- the method


class CpMethod(Method):
    name = "cp"
    title = "CP"
    summary = "a constraint program solved by OR-Tools CP-SAT"
    variant_word = "formulation"
    model_word = "CP model"
    verbs = frozenset({"solve", "count", "iterate"})
    features = frozenset({"preplaced", "blocked", "break_symmetry", "reorder"})
    linestyle = (0, (5, 2))
    colours = {"alldifferent": TOL_MUTED["green"], "boolean": TOL_MUTED["wine"]}
    count_rate = 2_000.0
    bench_variants = ("alldifferent", "boolean")

    def variants(self) -> Mapping[str, Any]:
        return FORMULATIONS

    def solvers(self) -> Mapping[str, Solver]:
        return {CP_SAT.name: CP_SAT}

    def settings(self) -> Mapping[str, str]:
        return SETTINGS

    def options(self, choice: Choice) -> dict[str, Any]:
        return solver_options(choice)

    def size(self, problem: Problem, choice: Choice) -> Size:
        return model_size(problem, choice.variant)

    def size_advice(self, problem: Problem, choice: Choice) -> str:
        better = "--formulation alldifferent, " if choice.variant == "boolean" else ""
        return f"use {better}a smaller n, or --method construct for one board of any size"

    def solve_here(self, problem: Problem, choice: Choice, deadline: float | None) -> SolveResult:
        CP_SAT.require()
        if not must_isolate():
            return _solve(problem, choice, deadline)
        limit = None if deadline is None else max(deadline - time.monotonic(), 0.001)
        # the deadline crosses as it is: time.monotonic() is one clock for every process of the machine
        run = isolate.run_in_child(_solve, (problem, choice, deadline), fresh=True, time_limit=limit)
        if run.status == Ended.DONE:
            result: SolveResult = run.value
            return result
        run.raise_error()
        return stopped_result(problem, self, choice, run.status.status,
                              "no board within the time limit" if run.status == Ended.TIMEOUT else
                              run.limit_message(limit), run.wall)

    def iter_boards(self, problem: Problem, choice: Choice) -> Iterator[Board]:
        CP_SAT.require()
        return _enumerate_fresh(problem, choice) if must_isolate() else _enumerate(problem, choice)

    def count_note(self, result: CountResult) -> str:
        return "every board from one CP-SAT search that enumerates all solutions, each verified"
