"""Google OR-Tools CP-SAT as a CP solver entry: lazy clause generation, a CDCL search with CP propagators.

:func:`build_model` writes the method's :class:`~.cp.CpModel` as a CP-SAT model.  Symmetry breaking is the
lex-leader condition of the SAT and ILP methods on the row-major cell vector (for ``alldifferent`` on booleans
channelled to q), with helpers that are functions of the board, so CP-SAT's enumeration of all solutions lists
every board exactly once.  CP-SAT runs on one worker unless the ``all-cores`` settings are chosen.

OR-Tools ships its own HiGHS, and with highspy 1.15 in the same process whichever of the two is loaded
second fails with an undefined symbol (PuLP loads highspy when it is imported).  So in a process that has
loaded highspy and not yet OR-Tools, every CP-SAT job runs in a fresh interpreter.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

from ..errors import SolverError
from ..problem.board import Board, Problem, lex_pairs
from ..problem.results import Answer, Options
from ..runtime import isolate
from ..runtime.isolate import Ended
from ..runtime.limits import Size
from .base import Capabilities, Outcome, PackageSolver
from .cp import CP_FEATURES, CP_VERBS, FORMULATION_NAMES, CpModel, CpSolver, Feed, model_counts, workers

if TYPE_CHECKING:
    from ortools.sat.python.cp_model import CpModel as Native
    from ortools.sat.python.cp_model import CpSolver as Engine
    from ortools.sat.python.cp_model import CpSolverSolutionCallback, IntVar, LinearExprT, LiteralT

#: The module whose import loads OR-Tools' shared library.
CP_MODULE = "ortools.sat.python.cp_model"
#: CP-SAT's own default seed, used when no instance order is asked for.
DEFAULT_SEED = 1

# Peak memory of a solve (measured with ortools 9.15: the Python objects of the model while building, its
# proto, CP-SAT's presolved copy and propagators): the interpreter with OR-Tools loaded, then per variable
# and per literal; alldifferent grows with n (its propagators and encodings: ~0.6 GB at n = 2000, 1 GB at
# n = 5000), not with n².
CP_BASE_BYTES = 100 * 1024**2
CP_BYTES_PER_VARIABLE = 700
CP_BYTES_PER_LITERAL = 120
CP_BYTES_PER_ROW = 256 * 1024


def must_isolate() -> bool:
    """True when importing OR-Tools here could fail: highspy is loaded and CP-SAT is not yet."""
    return "highspy" in sys.modules and CP_MODULE not in sys.modules


def model_size(model: CpModel) -> Size:
    """Variables, constraints, literals and memory of :func:`build_model`'s model, without building it."""
    variables, constraints, literals = model_counts(model)
    inside = CP_BYTES_PER_ROW * model.problem.n if model.integer else 0
    memory = CP_BASE_BYTES + inside + CP_BYTES_PER_VARIABLE * variables + CP_BYTES_PER_LITERAL * literals
    return Size(variables=variables, constraints=constraints, nonzeros=literals, memory=memory)


@dataclass
class BuiltModel:
    """A built CP-SAT model and how to read a board from a solution (``reader`` is a solver or a solution
    callback: both have ``value``)."""

    problem: Problem
    model: Native
    columns: list[LinearExprT]  # per row, an expression whose value is the queen's column
    variables: int
    constraints: int
    build_seconds: float = 0.0

    def board(self, reader: Engine | CpSolverSolutionCallback) -> Board:
        return tuple((r, int(reader.value(expr))) for r, expr in enumerate(self.columns, start=1))


T = TypeVar("T")


def build_model(described: CpModel, order: int | None = None) -> BuiltModel:
    """The CP-SAT model of the method's model ``described``.  ``order`` creates the variables in a seeded random
    order and adds the constraints (and the terms inside each) shuffled: another instance of the same model, the
    same on every machine for the same seed."""
    from ortools.sat.python import cp_model

    start = time.perf_counter()
    problem = described.problem
    n = problem.n
    model = cp_model.CpModel()
    rng = random.Random(f"nqueens-kit-order:{order}") if order is not None else None

    def shuffled(items: list[T]) -> list[T]:
        if rng is not None:
            rng.shuffle(items)
        return items

    rows = list(range(1, n + 1))
    constraints: list[tuple[Callable[..., object], tuple[object, ...]]] = []  # added at the end, maybe shuffled
    x: dict[tuple[int, int], IntVar] = {}
    columns: list[LinearExprT]
    if described.integer:
        fixed = dict(problem.preplaced)
        closed = set(problem.blocked)
        q: dict[int, IntVar] = {}
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
    return BuiltModel(problem, model, columns, len(proto.variables), len(proto.constraints),
                      time.perf_counter() - start)


def lex_leader(n: int, x: Mapping[tuple[int, int], IntVar],
               new_bool: Callable[[str], IntVar]) -> Iterator[list[LiteralT]]:
    """The clauses of x >=lex s(x) for the 7 symmetries other than the identity, on the row-major cell
    vector x: the chain of the SAT method's :func:`~nqueens_kit.methods.sat.cnf.lex_leader_clauses`, whose
    helper e_i ("x and s(x) agree on the first i compared cells") is defined exactly by the board."""
    for k, (_name, pairs) in enumerate(lex_pairs(n)):
        previous: IntVar | None = None  # e_0 is true
        for i, (p, q) in enumerate(pairs):
            a, b = x[p], x[q]
            guard: list[LiteralT] = [] if previous is None else [~previous]
            yield [*guard, a, ~b]
            e = new_bool(f"lex{k}_{i}")
            defined: list[list[LiteralT]] = [[*guard, a, b, e], [*guard, ~a, ~b, e], [~e, ~a, b], [~e, a, ~b]]
            yield from defined
            if previous is not None:
                yield [~e, previous]
            previous = e


def solver_options(settings: str, order: int | None, enumerate_all: bool = False) -> Options:
    """The CP-SAT parameters a run uses under the method's ``settings`` (recorded in results)."""
    seed = DEFAULT_SEED if order is None else order % 2**31
    options: Options = {"settings": settings, "num_workers": workers(settings, enumerate_all),
                        "random_seed": seed}
    if enumerate_all:
        options["enumerate_all_solutions"] = True
    return options


def _engine(options: Options) -> Engine:
    from ortools.sat.python import cp_model

    solver = cp_model.CpSolver()
    for key, value in options.items():
        if key != "settings":
            setattr(solver.parameters, key, value)
    return solver


def _solve(model: CpModel, deadline: float | None, settings: str, order: int | None) -> Outcome:
    """Build, solve and decode in this process."""
    from ortools.sat.python import cp_model

    built = build_model(model, order)
    options = solver_options(settings, order)
    if deadline is not None:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return Outcome(Answer.UNKNOWN, options=options, limit=True, why="it went on building the model",
                           build_seconds=built.build_seconds)
        options["max_time_in_seconds"] = round(remaining, 3)
    solver = _engine(options)
    start = time.perf_counter()
    status = solver.solve(built.model)
    said = solver.status_name(status)
    outcome = Outcome(Answer.UNKNOWN, seconds=time.perf_counter() - start, options=options,
                      build_seconds=built.build_seconds,
                      stats={"status": said, "branches": solver.num_branches, "conflicts": solver.num_conflicts,
                             "booleans": solver.num_booleans, "solver_seconds": solver.wall_time})
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        outcome.status, outcome.board = Answer.SAT, list(built.board(solver))
    elif status == cp_model.INFEASIBLE:
        outcome.status = Answer.UNSAT
    elif status == cp_model.UNKNOWN and deadline is not None:
        outcome.limit = True
    else:
        reason = built.model.validate() if status == cp_model.MODEL_INVALID else ""
        outcome.why = f"status {said}" + (f": {reason}" if reason else "")
    return outcome


def _enumerate(model: CpModel, settings: str, order: int | None) -> Iterator[Board]:
    """Every board from one CP-SAT search with ``enumerate_all_solutions``, the solver in a thread."""
    from ortools.sat.python import cp_model

    built = build_model(model, order)
    solver = _engine(solver_options(settings, order, enumerate_all=True))
    feed: Feed[Board] = Feed()
    feed.on_stop = solver.stop_search

    class Collector(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self) -> None:
            if not feed.put(built.board(self)):
                self.stop_search()

    def produce() -> None:
        status = solver.solve(built.model, Collector())
        if not feed.stopped.is_set() and status not in (cp_model.OPTIMAL, cp_model.INFEASIBLE):
            raise SolverError(f"CP-SAT stopped before it had listed every board (status {solver.status_name(status)})")

    return feed.items(produce, "cp-sat enumeration")


def _enumerate_fresh(model: CpModel, settings: str, order: int | None) -> Iterator[Board]:
    """:func:`_enumerate` in a fresh interpreter, its boards streamed back as they are found."""
    feed: Feed[Board] = Feed()

    def produce() -> None:
        run = isolate.run_in_child(_report_boards, (model, settings, order), fresh=True, on_message=feed.hand_on,
                                   stop=feed.stopped.is_set)
        if feed.stopped.is_set():
            return
        run.raise_error()
        if run.status != Ended.DONE:
            raise SolverError(f"the CP-SAT enumeration in a fresh interpreter ended without finishing ({run.error})")

    return feed.items(produce, "cp-sat enumeration")


def _report_boards(model: CpModel, settings: str, order: int | None) -> bool:
    """A fresh child's job: send every board to the parent."""
    for board in _enumerate(model, settings, order):
        isolate.report(board)
    return True


class CpSat(PackageSolver, CpSolver):
    """OR-Tools CP-SAT in process (see the module docstring)."""

    name = "cp-sat"
    kind = "ortools"
    description = "Google OR-Tools CP-SAT (CDCL search with global-constraint propagators)"
    capabilities = Capabilities(in_process=True, time_limit=True, statistics=("branches", "conflicts"))
    marker = "D"
    verbs, features, variants = CP_VERBS, CP_FEATURES, FORMULATION_NAMES
    settings = frozenset({"one-worker", "all-cores"})
    module = "ortools"
    distribution = "ortools"
    product = "CP-SAT"
    product_name = "CP-SAT"
    hint = 'pip install "nqueens-kit[cp]" (that is, pip install ortools)'

    def preload(self) -> None:
        """Import CP-SAT, unless highspy is loaded here: then every job runs in a fresh interpreter."""
        if must_isolate():
            return
        try:
            import ortools.sat.python.cp_model  # noqa: F401
        except ImportError:
            pass  # the solve explains a missing OR-Tools itself

    def options(self, settings: str, order: int | None, enumerate_all: bool = False) -> Options:
        return solver_options(settings, order, enumerate_all)

    def size(self, model: CpModel) -> Size:
        return model_size(model)

    def solve(self, model: CpModel, deadline: float | None, settings: str, order: int | None) -> Outcome:
        if not must_isolate():
            return _solve(model, deadline, settings, order)
        limit = None if deadline is None else max(deadline - time.monotonic(), 0.001)
        # the deadline crosses as it is: time.monotonic() is one clock for every process of the machine
        run = isolate.run_in_child(_solve, (model, deadline, settings, order), fresh=True, time_limit=limit)
        if run.status == Ended.DONE:
            outcome: Outcome = run.value
            return outcome
        run.raise_error()
        if run.status == Ended.MEMOUT:
            return Outcome(Answer.UNKNOWN, seconds=run.wall, options=self.options(settings, order),
                           memory=run.limit_message(limit))
        return Outcome(Answer.UNKNOWN, seconds=run.wall, options=self.options(settings, order), limit=True)

    def boards(self, model: CpModel, settings: str, order: int | None) -> Iterator[Board]:
        enumerate_here = _enumerate_fresh if must_isolate() else _enumerate
        return enumerate_here(model, settings, order)


CP_SAT = CpSat()
