"""A CP entry to copy (see :mod:`nqueens_kit.solvers.templates`): a solver that builds its own model.

The method hands every CP entry a :class:`~nqueens_kit.solvers.cp.CpModel` (the problem, the formulation's name and
whether it is the integer one); the entry builds its solver's model from it, solves it and answers an
:class:`~nqueens_kit.solvers.base.Outcome` with the board, ``unsat``, or ``unknown`` (``limit`` at the deadline,
else ``why``); :meth:`TemplateCp.boards` lists every board.  This one takes the ``alldifferent`` formulation with
pre-placed queens and blocked cells, in OR-Tools CP-SAT: q[r] per row, three AllDifferent constraints.  What to
change: the names, ``marker``, :func:`_model`, and the solver calls of :func:`_solve` and :func:`_all_boards`; then
declare what it does (symmetry breaking, reordered instances, the boolean formulation, a time limit, counters)
only once it does it: the method refuses the rest in one line.

OR-Tools and highspy cannot share a process, so where highspy is loaded the solver runs in a fresh interpreter
(:func:`~nqueens_kit.solvers.cp_sat.must_isolate`).

One line in :mod:`nqueens_kit.solvers` registers it: ``"templates.cp:TemplateCp",`` in ``ENTRIES["cp"]``.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import TYPE_CHECKING

from ...errors import SolverError
from ...problem.board import Board
from ...problem.results import Answer, Options
from ...runtime import isolate
from ...runtime.isolate import Ended
from ...runtime.limits import Size
from ..base import Capabilities, Outcome, PackageSolver
from ..cp import CP_VERBS, CpModel, CpSolver
from ..cp_sat import must_isolate

if TYPE_CHECKING:
    from ortools.sat.python.cp_model import CpModel as Native
    from ortools.sat.python.cp_model import IntVar


def _model(model: CpModel) -> tuple[Native, list[IntVar]] | None:
    """The CP-SAT model and the rows' variables, or None when a row has no open cell (no board)."""
    from ortools.sat.python import cp_model

    problem, native = model.problem, cp_model.CpModel()
    fixed, closed = dict(problem.preplaced), set(problem.blocked)
    rows = range(1, problem.n + 1)
    q = []
    for r in rows:
        allowed = [fixed[r]] if r in fixed else [c for c in rows if (r, c) not in closed]
        if not allowed:
            return None
        q.append(native.new_int_var_from_domain(cp_model.Domain.from_values(allowed), f"q{r}"))
    for shift in (0, 1, -1):  # columns, anti-diagonals, diagonals
        native.add_all_different([q[r - 1] + shift * r for r in rows])
    return native, q


def _solve(model: CpModel, deadline: float | None) -> Outcome:
    from ortools.sat.python import cp_model

    built = _model(model)
    if built is None:
        return Outcome(Answer.UNSAT)
    native, q = built
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    if deadline is not None:
        solver.parameters.max_time_in_seconds = max(0.001, deadline - time.monotonic())
    start = time.perf_counter()
    status = solver.solve(native)
    seconds = time.perf_counter() - start
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return Outcome(Answer.SAT, board=[(r, solver.value(v)) for r, v in enumerate(q, start=1)], seconds=seconds)
    if status == cp_model.INFEASIBLE:
        return Outcome(Answer.UNSAT, seconds=seconds)
    stopped = status == cp_model.UNKNOWN and deadline is not None
    return Outcome(Answer.UNKNOWN, seconds=seconds, limit=stopped, why=solver.status_name(status))


def _all_boards(model: CpModel) -> list[Board]:
    """Every board, from one search that enumerates all solutions (kept in a list: a template's simplicity)."""
    from ortools.sat.python import cp_model

    built = _model(model)
    if built is None:
        return []
    native, q = built
    found: list[Board] = []

    class Collect(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self) -> None:
            found.append(tuple((r, self.value(v)) for r, v in enumerate(q, start=1)))

    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.enumerate_all_solutions = True
    solver.solve(native, Collect())
    return found


class TemplateCp(PackageSolver, CpSolver):
    """OR-Tools CP-SAT on the alldifferent formulation, as a template entry."""

    name = "template-cp"
    kind = "template"
    description = "CP-SAT on three AllDifferent constraints, as the template of a CP entry"
    product_name = "CP-SAT (template)"
    marker = "$C$"
    module, distribution, product = "ortools", "ortools", "CP-SAT"
    hint = 'pip install "nqueens-kit[cp]" (that is, pip install ortools)'
    capabilities = Capabilities(in_process=True)  # the method stops it with its process at a time limit
    verbs, features, variants = CP_VERBS, frozenset({"preplaced", "blocked"}), frozenset({"alldifferent"})
    settings = frozenset({"one-worker"})

    def preload(self) -> None:
        if not must_isolate():
            super().preload()

    def options(self, settings: str, order: int | None, enumerate_all: bool = False) -> Options:
        return {"settings": settings, "num_workers": 1}

    def size(self, model: CpModel) -> Size:
        n = model.problem.n
        return Size(variables=n, constraints=3, nonzeros=3 * n, memory=(100 << 20) + (256 << 10) * n)

    def solve(self, model: CpModel, deadline: float | None, settings: str, order: int | None) -> Outcome:
        if must_isolate():
            run = isolate.run_in_child(_solve, (model, deadline), fresh=True)
            run.raise_error()
            outcome: Outcome = run.value if run.status == Ended.DONE else Outcome(Answer.UNKNOWN, why=run.status.value)
        else:
            outcome = _solve(model, deadline)
        outcome.options = self.options(settings, order)
        return outcome

    def boards(self, model: CpModel, settings: str, order: int | None) -> Iterator[Board]:
        if must_isolate():
            run = isolate.run_in_child(_all_boards, (model,), fresh=True)
            run.raise_error()
            if run.status != Ended.DONE:  # never a list cut short
                raise SolverError(f"{self.product_name} ended before it had listed every board ({run.status.value})")
            yield from run.value
        else:
            yield from _all_boards(model)


TEMPLATE_CP = TemplateCp()
