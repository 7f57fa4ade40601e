"""N-queens as an integer linear program: PuLP models solved by CBC (default) or HiGHS.

Inside:

- :func:`build_model`: the PuLP model of a problem in a :class:`~nqueens_kit.methods.ilp.formulations.Formulation`
  (``lines``, ``pairwise``, ``max-queens``): one binary x_r_c per cell and a named constraint per line
  (``row_3``, ``col_5``, ``diag_7``, ``anti_2``), pre-placed queens as ``placed_R_C``.
- :func:`solve_here`: build, solve, read the board with a tolerance, verify it independently: a
  :class:`~nqueens_kit.problem.results.SolveResult` with build and solve seconds apart, the solver's own statistics
  (nodes, iterations, its own time) in ``stats`` and the settings it ran with in ``options``.
- :func:`iter_boards`: enumeration by no-good cuts (one full re-solve per board: slow by design).
- :func:`lp_relaxation`: the fractional values of the LP relaxation, for heat maps.
- :func:`log_highlights`: the lines of a CBC or HiGHS log that tell what the solver did.
- :func:`export_model`: ``.lp`` / ``.mps`` files other solvers read.

The solvers themselves (how CBC and HiGHS are found) are in :mod:`nqueens_kit.solvers.ilp_pulp`; the
public verbs with time limits are in :mod:`nqueens_kit.methods` (``solve_ilp``, ``count``).

Works with PuLP 2.7 to 4.x: variables come from ``LpProblem.add_variable_dict`` where it exists, and
solve outcomes are read from PuLP 4's ``LpSolveStats`` or from the older ``status`` / ``sol_status``.

>>> result = solve_here(Problem(8))
>>> result.status, result.verified, result.constraints
('solved', True, 42)
>>> solve_here(Problem(3)).status
'infeasible'
>>> model = build_model(4, "pairwise")
>>> model.constraint_names()[:2], model.constraint_names()[-1]
(['row_1', 'row_2'], 'anti_6_pair_3_4')

The model itself is built in :mod:`.build` and exported to a file in :mod:`.export`; their public names are
importable from here too.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from ...errors import InputError, SolverError
from ...problem.board import Board, Cell, Problem
from ...problem.results import Answer, SolveResult, Status
from ...solvers import ILP_SOLVERS, get_solver
from ...solvers.base import Outcome
from ...solvers.ilp_pulp import IlpSolver, pulp_module, state_of
from ...solvers.ilp_pulp import solved_state as solved_state
from ..base import infeasible_message
from .build import ONE as ONE
from .build import IlpModel as IlpModel
from .build import _as_problem
from .build import add_lex_leader as add_lex_leader
from .build import build_model as build_model
from .export import LP_LINE_SIZE as LP_LINE_SIZE
from .export import LP_MAX_BYTES as LP_MAX_BYTES
from .export import LP_WRITER_BYTES as LP_WRITER_BYTES
from .export import MPS_MAX_NOTE as MPS_MAX_NOTE
from .export import export_model as export_model
from .export import export_size as export_size
from .export import lp_bytes as lp_bytes
from .export import lp_text as lp_text
from .export import write_lp as write_lp
from .formulations import DEFAULT_FORMULATION, Formulation, get_formulation, get_settings


def _entry(solver: str | None) -> IlpSolver:
    """The ILP solver entry called ``solver`` (None: the default), or a one-line error."""
    entry = get_solver("ilp", solver)
    if not isinstance(entry, IlpSolver):
        raise InputError(f"{entry.name} is not an ILP solver entry; valid: {', '.join(ILP_SOLVERS)}")
    return entry


# ------------------------------------------------------------------------------------------ solving


def _run(model: IlpModel, backend: IlpSolver, deadline: float | None, settings: str | None) -> Outcome:
    """One solve of ``model`` by its entry, under the method's ``settings`` (None: a relaxation's)."""
    return backend.solve(model, deadline, None if model.relaxed else get_settings(settings))


def solve_here(problem: Problem, formulation: str | Formulation | None = None, solver: str | None = None,
               deadline: float | None = None, settings: str | None = None, keep_log: bool = False,
               order: int | None = None) -> SolveResult:
    """Build the model, solve it in this process, read the board with a tolerance and verify it independently.

    ``max-queens`` is ``solved`` only when its proven optimum is n queens; a smaller optimum makes the
    status ``infeasible`` with ``stats["optimum"]`` and a message saying so.  A solve stopped at
    ``deadline`` (``time.monotonic()`` seconds) without a full board is ``timeout`` (for ``max-queens``
    with the best count so far in ``stats["best_found"]``).  ``keep_log`` keeps CBC's log in
    ``extra["solver_log"]``.
    """
    form = get_formulation(formulation)
    backend = _entry(solver).require()
    model = build_model(problem, form, order=order)
    run = backend.solve(model, deadline, get_settings(settings), order, keep_log=keep_log)
    state = state_of(run)
    n = problem.n
    log = run.stats.pop("solver_log", None)
    result = SolveResult.of(problem, "ilp", Status.SOLVED, variant=form.name, variant_kind="formulation",
                            solver=backend.name, variables=model.num_variables, constraints=model.num_constraints,
                            build_seconds=model.build_seconds, solve_seconds=run.seconds, stats=run.stats,
                            options=run.options)
    if log is not None:
        result.extra["solver_log"] = log
    if state in ("optimal", "feasible"):
        board = model.board()
        if form.maximise:
            run.stats["optimum" if state == "optimal" else "best_found"] = len(board)
        if len(board) == n or not form.maximise:
            result.queens = board  # check() below flags a wrong board rather than hiding it
        elif state == "optimal":
            result.status = Status.INFEASIBLE
            result.message = (f"at most {len(board)} non-attacking queens fit"
                              f"{' with these pre-placed queens' if problem.preplaced else ''}"
                              f"{' off the blocked cells' if problem.blocked else ''}; "
                              f"a solution needs {n}")
            result.extra["best_placement"] = [list(q) for q in board]
        else:  # stopped before proving the optimum
            result.status = Status.TIMEOUT if deadline is not None else Status.ERROR
            limit = "within the time limit" if deadline is not None else "before stopping"
            result.message = f"the best placement found {limit} has {len(board)} of {n} queens"
    elif state == "infeasible":
        result.status = Status.INFEASIBLE
        result.message = infeasible_message(problem)
    elif run.limit:
        result.status = Status.TIMEOUT
        result.message = "no solution within the time limit"
    else:
        result.status = Status.ERROR
        result.message = f"{backend.name} stopped without an answer ({run.stats.get('solver_status', 'no status')})"
    return result.check()


# ---------------------------------------------------------------------------------------- counting


def iter_boards(problem: Problem, formulation: str | Formulation | None = None,
                solver: str | None = None, settings: str | None = None) -> Iterator[Board]:
    """Every board, one solve each: after board B the cut Σ_{(r,c) in B} x_rc <= n - 1 forbids B alone.

    (Any other board differs from B in at least one queen, so the cut removes nothing else.)  This is the
    textbook way to enumerate with an ILP solver, and it scales badly: every board costs a full re-solve of
    a model that grows by one cut each time (n = 8: 93 solves, several seconds).
    """
    pulp = pulp_module()
    form = get_formulation(formulation)
    backend = _entry(solver).require()
    model = build_model(problem, form)
    n = problem.n
    found = 0
    while True:
        run = _run(model, backend, None, settings)
        if run.status == Answer.UNSAT:
            return
        if run.status != Answer.SAT:
            raise SolverError(f"{backend.name} stopped without an answer after {found} solutions "
                               f"({run.stats.get('solver_status', 'no status')})")
        board = model.board()
        if form.maximise and len(board) < n:
            return  # the best placement left is no longer a full board
        if not problem.verify(board):
            raise SolverError(f"{backend.name} returned an invalid board after {found} solutions: {board}")
        found += 1
        yield board
        model.prob.addConstraint(pulp.lpSum([model.x[cell] for cell in board]) <= n - 1, f"nogood_{found}")


def log_highlights(log: str, solver: str) -> list[str]:
    """The lines of a solver's log (``extra["solver_log"]`` of :func:`solve_here` with ``keep_log``) that tell
    what it did: for CBC the settings, how each board was found, nodes, strong branching and times; for HiGHS
    the branch-and-bound table and where its LP iterations went (each entry says, :meth:`IlpSolver.highlights`)."""
    return _entry(solver).highlights(log)


# ----------------------------------------------------------------------------------- LP relaxation


@dataclass
class Relaxation:
    """The LP relaxation's answer: fractional cell values, the objective, the status, the solve time.

    ``status`` is ``optimal``, ``infeasible`` or ``error``; ``values`` is empty unless optimal.
    ``objective`` is None for the formulations without one (``lines`` and ``pairwise``).
    """

    n: int
    formulation: str
    values: dict[Cell, float] = field(default_factory=dict)
    objective: float | None = None
    status: str = ""
    seconds: float = 0.0
    solver: str = "cbc"

    def fractional_cells(self, tolerance: float = 1e-6) -> list[Cell]:
        """Cells whose value is strictly between 0 and 1."""
        return [c for c, v in self.values.items() if tolerance < v < 1 - tolerance]


def lp_relaxation(problem: Problem | int, formulation: str | Formulation = DEFAULT_FORMULATION,
                  solver: str | None = None) -> Relaxation:
    """Solve with 0 <= x <= 1 continuous and return the (fractional) cell values.

    For ``lines`` x = 1/n everywhere satisfies every line, even for n = 2 and 3, which have no board:
    the relaxation alone neither places queens nor proves infeasibility.  The solver returns *some*
    vertex of the polytope (CBC and HiGHS may differ), not that centre point.  For ``max-queens`` the
    relaxation's optimum is n for every n, against an integer optimum of 1 for n = 2 and 2 for n = 3.
    """
    problem = _as_problem(problem)
    form = get_formulation(formulation)
    backend = _entry(solver).require()
    model = build_model(problem, form, relax=True)
    run = _run(model, backend, None, None)
    status = {Answer.SAT: "optimal", Answer.UNSAT: "infeasible"}.get(Answer(run.status), "error")
    values: dict[Cell, float] = {}
    objective = None
    if status == "optimal":
        # Clip the solver's 1e-12-sized excursions so callers can rely on 0 <= value <= 1.
        values = {cell: min(1.0, max(0.0, float(var.varValue or 0.0))) for cell, var in model.x.items()}
        if form.maximise:
            objective = round(sum(values.values()), 9)
    return Relaxation(problem.n, form.name, values, objective, status, run.seconds, backend.name)
