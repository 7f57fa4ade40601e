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
"""

from __future__ import annotations

import os
import random
import shutil
import tempfile
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...errors import InputError, SolverError
from ...problem.board import MAX_LISTED_N, Board, Cell, Problem, lex_pairs, whole_number
from ...problem.results import Options, SolveResult, Statistics, Status
from ...runtime.console import silenced
from ...runtime.files import output_path, written_whole
from ...runtime.limits import Size, builder_budget, check_room, check_size, human_bytes
from ...solvers import ILP_SOLVERS, get_solver
from ...solvers.ilp_pulp import IlpSolver, pulp_module
from ..base import infeasible_message
from .formulations import DEFAULT_FORMULATION, Formulation, get_formulation, get_settings

if TYPE_CHECKING:  # PuLP has no type information: these names say what the objects are
    from pulp import LpAffineExpression, LpConstraint, LpProblem, LpVariable

#: A binary reads as 1 above this value: solvers hand back 0.9999999 or 1e-9, so never test ``== 1``.
ONE = 0.5


def _entry(solver: str | None) -> IlpSolver:
    """The ILP solver entry called ``solver`` (None: the default), or a one-line error."""
    entry = get_solver("ilp", solver)
    if not isinstance(entry, IlpSolver):
        raise InputError(f"{entry.name} is not an ILP solver entry; valid: {', '.join(ILP_SOLVERS)}")
    return entry


def _as_problem(problem: Problem | int) -> Problem:
    return problem if isinstance(problem, Problem) else Problem(problem)


# -------------------------------------------------------------------------------------------- model


@dataclass
class IlpModel:
    """A PuLP model of one problem: ``prob`` (the ``LpProblem``) and ``x[(r, c)]`` (the cell variables)."""

    problem: Problem
    formulation: Formulation
    prob: LpProblem
    x: dict[Cell, LpVariable]
    relaxed: bool = False
    build_seconds: float = 0.0

    @property
    def num_variables(self) -> int:
        return len(self.x)

    @property
    def num_constraints(self) -> int:
        return len(_constraints(self.prob))

    def constraint_names(self) -> list[str]:
        """Constraint names in the order they were added."""
        return [c.name for c in _constraints(self.prob)]

    def constraint(self, name: str) -> LpConstraint:
        """The PuLP constraint called ``name`` (KeyError if there is none)."""
        found = (self.prob.get_constraint_by_name(name) if hasattr(self.prob, "get_constraint_by_name")
                 else self.prob.constraints.get(name))
        if found is None:
            raise KeyError(name)
        return found

    def board(self) -> Board:
        """The queens of the solution the solver left in the variables (x > 0.5)."""
        return tuple(sorted(cell for cell, var in self.x.items() if (var.varValue or 0.0) > ONE))


def _constraints(prob: LpProblem) -> list[LpConstraint]:
    """The constraints of an LpProblem: ``prob.constraints()`` in PuLP >= 3.3, a dict before."""
    listed = prob.constraints
    return list(listed()) if callable(listed) else list(listed.values())


def build_model(problem: Problem | int, formulation: str | Formulation = DEFAULT_FORMULATION,
                relax: bool = False, order: int | None = None, max_memory: object = None) -> IlpModel:
    """The PuLP model of ``problem`` in ``formulation``; ``relax`` makes the variables continuous in 0..1.
    ``order`` renames the variables in a random order and shuffles the constraints (another instance of the
    same model for a solver; the same on every machine for the same seed).

    One linear pass over :meth:`Problem.lines` (each line lists its own cells), so building costs
    O(n²) for ``lines`` and ``max-queens``; ``pairwise`` has O(n³) pair constraints by its nature.
    The size guard of the command line runs first: a model whose predicted memory is above ``max_memory``
    (bytes or a size such as ``"8G"``), or above what the process's own limits leave (``ulimit -v``, a
    control group: :func:`~nqueens_kit.runtime.limits.check_room`), is refused with one line rather than
    built.  Without ``max_memory`` the budget is the larger of the kit's
    (:func:`~nqueens_kit.runtime.limits.memory_budget`) and the machine's default share: a verb that builds
    the model has already held it to its own budget, which may be an explicit one above the environment's.
    """
    problem = _as_problem(problem)
    form = get_formulation(formulation)
    if not isinstance(relax, bool):
        raise InputError(f"relax is True or False, not {str(relax)[:40]!r}")
    if order is not None and (isinstance(order, str) or whole_number(order) is None):
        raise InputError(f"order is a whole number (a seed) or None, not {str(order)[:40]!r}")
    better = 'formulation="lines", ' if form.name == "pairwise" else ""
    what, advice = f"the {form.name} ILP model of {problem.n}-queens", \
        f'use {better}a smaller n, solve(n, "sat"), or construct(n) for one board of any size'
    check_size(form.size(problem), what, advice, builder_budget(max_memory))
    check_room(form.size(problem), what, advice)  # what the process's own limits leave (ulimit -v, a cgroup)
    pulp = pulp_module()
    start = time.perf_counter()
    n = problem.n
    prob = pulp.LpProblem(f"queens_{n}_{form.name.replace('-', '_')}",
                          pulp.LpMaximize if form.maximise else pulp.LpMinimize)
    rows = range(1, n + 1)
    category = pulp.LpContinuous if relax else pulp.LpBinary
    if order is not None:
        rng = random.Random(f"nqueens-kit-order:{order}")
        labels = list(range(n * n))
        rng.shuffle(labels)
        named = zip([(r, c) for r in rows for c in rows], labels, strict=True)
        if hasattr(prob, "add_variable"):
            x = {cell: prob.add_variable(f"x{label:07d}", 0, 1, category) for cell, label in named}
        else:
            x = {cell: pulp.LpVariable(f"x{label:07d}", 0, 1, category) for cell, label in named}
        constraints = list(form.constraints(problem, x, pulp.lpSum))
        rng.shuffle(constraints)
    else:
        if hasattr(prob, "add_variable_dict"):  # PuLP 4: variables owned by the problem, made in one batch
            x = prob.add_variable_dict("x", (rows, rows), 0, 1, category)
        else:
            x = pulp.LpVariable.dict("x", (rows, rows), 0, 1, category)
        constraints = list(form.constraints(problem, x, pulp.lpSum))
    for constraint, name in constraints:
        prob.addConstraint(constraint, name)
    objective = form.objective(x, pulp.lpSum)
    if objective is not None:
        prob.setObjective(objective)
    model = IlpModel(problem, form, prob, x, relax)
    if problem.break_symmetry:
        add_lex_leader(model)
    model.build_seconds = time.perf_counter() - start
    return model


def add_lex_leader(model: IlpModel) -> int:
    """Add x >=lex s(x) for the 7 non-identity symmetries (lex-leader symmetry breaking, as in
    :func:`~nqueens_kit.methods.sat.cnf.lex_leader_clauses`): per compared pair of cells a binary e, "equal so
    far", and six linear constraints; returns how many constraints were added."""
    pulp = pulp_module()
    added = 0
    category = pulp.LpContinuous if model.relaxed else pulp.LpBinary
    for k, (_name, pairs) in enumerate(lex_pairs(model.problem.n)):
        previous: LpAffineExpression | int = 1
        for i, (p, q) in enumerate(pairs):
            x, y = model.x[p], model.x[q]
            if hasattr(model.prob, "add_variable"):  # PuLP 4: variables belong to the problem
                e = model.prob.add_variable(f"lex_{k}_{i}", 0, 1, category)
            else:
                e = pulp.LpVariable(f"lex_{k}_{i}", 0, 1, cat=category)
            for constraint in (x - y >= previous - 1, e >= previous - x - y, e >= previous + x + y - 2,
                               e <= previous, e <= 1 - x + y, e <= 1 + x - y):
                model.prob.addConstraint(constraint, f"lex_{k}_{i}_{added % 6}")
                added += 1
            previous = e
    return added


# ------------------------------------------------------------------------------------------ solving


@dataclass
class _Run:
    """What one solve said, independent of the PuLP version.

    ``state``: ``optimal`` (a solution, proven best), ``feasible`` (a solution, search stopped early, e.g.
    at the time limit), ``infeasible``, or ``none`` (stopped without a solution).
    """

    state: str
    seconds: float
    stats: Statistics
    options: Options
    log: str = ""


def solved_state(prob: LpProblem, returned: Any) -> tuple[str, Statistics]:  # returned: PuLP 4 LpSolveStats
    """``(state, stats)`` from what ``prob.solve`` returned (PuLP 4) or left on ``prob`` (PuLP 2 / 3): the one
    way to read a solve's outcome on every PuLP version the kit allows (PuLP 4 has no ``LpStatus`` table)."""
    if hasattr(returned, "has_solution"):  # PuLP 4: an LpSolveStats
        status = getattr(returned.status, "name", str(returned.status))
        if returned.has_solution:
            state = "optimal" if status in ("Optimal", "GapLimit") else "feasible"
        else:
            state = "infeasible" if status == "Infeasible" else "none"
        stats: Statistics = {"solver_status": status, "solver_seconds": round(float(returned.time), 6)}
        if getattr(returned, "nodes", None) is not None:
            stats["nodes"] = int(returned.nodes)
        return state, stats
    pulp = pulp_module()
    status, solution = prob.status, prob.sol_status
    if solution == pulp.LpSolutionOptimal:
        state = "optimal"
    elif solution == pulp.LpSolutionIntegerFeasible:  # CBC "Stopped on time" with an incumbent, HiGHS at a limit
        state = "feasible"
    elif status == pulp.LpStatusInfeasible or solution == pulp.LpSolutionInfeasible:
        state = "infeasible"
    else:
        state = "none"
    stats = {"solver_status": pulp.LpStatus.get(status, str(status))}
    if getattr(prob, "solutionTime", None):
        stats["solver_seconds"] = round(float(prob.solutionTime), 6)
    return state, stats


def _remaining(deadline: float | None) -> float | None:
    return None if deadline is None else max(0.05, deadline - time.monotonic())


def _run(model: IlpModel, backend: IlpSolver, deadline: float | None, settings: str | None,
         keep_log: bool = False) -> _Run:
    """Solve ``model`` once.  PuLP's files and the solver's log live in a private temporary folder."""
    pulp = pulp_module()
    recorded = backend.options(get_settings(settings)) if not model.relaxed else {
        "settings": "relaxation", **backend.thread_options()}
    options: dict[str, object] = {"msg": False, **backend.engine_options(recorded)}
    limit = _remaining(deadline)
    if limit is not None:
        options["timeLimit"] = limit
    if model.formulation.maximise and not model.relaxed:
        options["gapRel"] = recorded["gapRel"] = 0  # "optimal" must mean proven: solved needs the optimum n
    with tempfile.TemporaryDirectory(prefix="nqueens-kit-ilp-") as tmp:
        log_path = os.path.join(tmp, "solver.log")
        if backend.command_line or keep_log:  # an executable's statistics are in its log
            options.update(backend.log_options(log_path))
        try:
            engine = backend.engine(**options)
        except TypeError:  # a PuLP whose solver takes no thread count: it runs single-threaded anyway
            options.pop("threads", None)
            engine = backend.engine(**options)
        if hasattr(engine, "tmpDir"):
            # PuLP's default is $TMPDIR, or the working directory when that is unusable: never there.
            engine.tmpDir = tmp
            engine.keepFiles = False
        start = time.perf_counter()
        try:
            if backend.command_line:
                returned = model.prob.solve(engine)
            else:  # in this process: its log goes to a file, and nothing it prints reaches the console
                with silenced():
                    returned = model.prob.solve(engine)
                    if backend.ask_again(model.prob):
                        returned = model.prob.solve(engine)
        except OSError as exc:
            raise InputError(f"{backend.name} could not write its files in {tmp}: {exc.strerror or exc}") from None
        except getattr(pulp, "PulpError", pulp.PulpSolverError) as exc:
            detail = (str(exc).strip().splitlines() or [repr(exc)])[0]
            if "os error" in detail.lower():  # PuLP 4 reports a failed file write this way
                raise InputError(f"{backend.name} could not write its files in {tmp}: {detail}") from None
            raise SolverError(f"{backend.name} failed: {detail}") from None
        seconds = time.perf_counter() - start
        state, stats = solved_state(model.prob, returned)
        text = Path(log_path).read_text(errors="replace") if os.path.exists(log_path) else ""
        state = backend.read_statistics(model.prob, text, state, stats)
    stats["found_as"] = backend.found_as()
    return _Run(state, seconds, stats, recorded, text if keep_log else "")


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
    run = _run(model, backend, deadline, settings, keep_log)
    n = problem.n
    result = SolveResult.of(problem, "ilp", Status.SOLVED, variant=form.name, variant_kind="formulation",
                            solver=backend.name, variables=model.num_variables, constraints=model.num_constraints,
                            build_seconds=model.build_seconds, solve_seconds=run.seconds, stats=run.stats,
                            options=run.options)
    if run.log:
        result.extra["solver_log"] = run.log
    if run.state in ("optimal", "feasible"):
        board = model.board()
        if form.maximise:
            run.stats["optimum" if run.state == "optimal" else "best_found"] = len(board)
        if len(board) == n or not form.maximise:
            result.queens = board  # check() below flags a wrong board rather than hiding it
        elif run.state == "optimal":
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
    elif run.state == "infeasible":
        result.status = Status.INFEASIBLE
        result.message = infeasible_message(problem)
    elif deadline is not None:
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
        if run.state == "infeasible":
            return
        if run.state not in ("optimal", "feasible"):
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
    status = {"optimal": "optimal", "feasible": "optimal", "infeasible": "infeasible"}.get(run.state, "error")
    values: dict[Cell, float] = {}
    objective = None
    if status == "optimal":
        # Clip the solver's 1e-12-sized excursions so callers can rely on 0 <= value <= 1.
        values = {cell: min(1.0, max(0.0, float(var.varValue or 0.0))) for cell, var in model.x.items()}
        if form.maximise:
            objective = round(sum(values.values()), 9)
    return Relaxation(problem.n, form.name, values, objective, status, run.seconds, backend.name)


# ------------------------------------------------------------------------------------------- export


#: First line of an exported ``max-queens`` MPS file (an MPS comment), saying why the objective is negated.
MPS_MAX_NOTE = "* max-queens: maximise the number of queens, written as minimise -(number of queens)"
#: The longest line of an LP file before a term wraps onto the next (PuLP's ``LpCplexLPLineSize``).
LP_LINE_SIZE = 78
#: Memory the LP text writer needs beside the interpreter: one line's terms at a time, and the orders of
#: the rows and columns (measured: a peak 1.2 MB above the interpreter's at n = 1000, 5 MB at n = 4000).
LP_WRITER_BYTES = 32 * 1024**2
#: The largest LP file written (about n = 4000 in the lines formulation, 330 in the pairwise one, which grows
#: as n³): writing 4 GB of text takes minutes, and no solver reads such a file in reasonable time.
LP_MAX_BYTES = 4 * 1024**3


def export_size(problem: Problem | int, formulation: str | Formulation, path: str | os.PathLike[str]) -> Size:
    """The predicted size of :func:`export_model`'s work: the model's own size, with the memory of the path
    it takes.  An LP file of a problem without symmetry breaking is written as text, line by line, in a
    few megabytes; an MPS file (or a model with lex-leader constraints) is built as a PuLP model first."""
    problem = _as_problem(problem)
    form = get_formulation(formulation)
    size = form.size(problem)
    if _written_as_text(problem, Path(os.fspath(path))):
        return replace(size, memory=LP_WRITER_BYTES + 64 * problem.n)
    return size


def _written_as_text(problem: Problem, target: Path) -> bool:
    """Whether :func:`export_model` writes ``target`` with :func:`write_lp` (no PuLP model built)."""
    return target.suffix.lower() == ".lp" and not problem.break_symmetry


def _name_orders(n: int) -> tuple[list[int], list[int]]:
    """The rows and the columns in the order PuLP sorts the names ``x_R_C`` (as text): by ``R_`` first, where
    ``x_10_1`` comes before ``x_1_1`` since ``0`` sorts before ``_``, then by ``C`` as text."""
    rows = range(1, n + 1)
    return sorted(rows, key=lambda r: f"{r}_"), sorted(rows, key=str)


def _wrapped(head: str, names: Iterable[str], tail: str) -> Iterator[str]:
    """``head: a + b + ... tail`` as PuLP writes an expression, line by line: a term that would take a line
    past :data:`LP_LINE_SIZE` characters starts the next line."""
    line = [head]
    count = len(head)
    first = True
    for name in names:
        term = f" {name}" if first else f" + {name}"
        first = False
        if count + len(term) > LP_LINE_SIZE:
            yield "".join(line) + "\n"
            line, count = [term], len(term)
        else:
            line.append(term)
            count += len(term)
    if tail:
        if count + len(tail) > LP_LINE_SIZE:
            yield "".join(line) + "\n"
            line = [tail]
        else:
            line.append(tail)
    yield "".join(line) + "\n"


def lp_bytes(problem: Problem, form: Formulation) -> int:
    """About how many bytes the LP file of ``problem`` takes (within a few per cent): a name and ``+`` per
    non-zero, a name and its sense per constraint, a line per binary."""
    size = form.size(problem)
    digits = len(str(problem.n))
    return ((size.nonzeros or 0) * (2 * digits + 6) + (size.constraints or 0) * (2 * digits + 16)
            + size.variables * (2 * digits + 4) + 200)


def lp_text(problem: Problem | int, formulation: str | Formulation = DEFAULT_FORMULATION) -> Iterator[str]:
    """The LP file of the model :func:`build_model` builds, piece by piece, as PuLP's ``writeLP`` writes it
    (the same name, sense, objective, constraints by name, terms by variable name, lines wrapped at 78
    characters, bounds and binaries), without building the model: O(n) memory and text at the speed of
    string joins.  Symmetry breaking (lex-leader) is PuLP's to write: :func:`export_model` builds that model.

    >>> text = "".join(lp_text(Problem(4, [(1, 2)])))
    >>> "row_1: x_1_1 + x_1_2 + x_1_3 + x_1_4 = 1" in text, "placed_1_2: x_1_2 = 1" in text
    (True, True)
    """
    problem = _as_problem(problem)
    form = get_formulation(formulation)
    if problem.break_symmetry:
        raise InputError("the lex-leader constraints of symmetry breaking are written through PuLP: "
                         "use export_model")
    n = problem.n
    if n > MAX_LISTED_N:
        raise InputError(f"the {form.name} ILP model of {n}-queens would have {4 * n * n:,} terms in its LP file, "
                         f"more than the {4 * MAX_LISTED_N**2:,} of n = {MAX_LISTED_N:,}, the largest an LP file is "
                         "written for; use a smaller n")
    row_order, col_order = _name_orders(n)
    rank = {r: i for i, r in enumerate(row_order)}
    exact = "=" if form.exact_lines else "<="

    def name(r: int, c: int) -> str:
        return f"x_{r}_{c}"

    def line(kind: str, index: int) -> str:
        if kind == "row":
            terms = [name(index, c) for c in col_order]
        elif kind == "col":
            terms = [name(r, index) for r in row_order]
        else:
            terms = [name(r, c) for r, c in _diagonal(kind, index)]
        return "".join(_wrapped(f"{kind}_{index}:", terms, f" {exact if kind in ('row', 'col') else '<='} 1"))

    def _diagonal(kind: str, index: int) -> list[Cell]:
        # diagonal d: r - c + n = d; anti-diagonal a: r + c - 1 = a (Problem.lines numbers them so)
        shift, sign = (n - index, 1) if kind == "diag" else (index + 1, -1)
        return [(r, shift + sign * r) for r in row_order if 1 <= shift + sign * r <= n]

    def pairs(kind: str, index: int) -> Iterator[str]:
        cells = sorted(_diagonal(kind, index))  # by row, as the formulation names a pair by its two rows
        named = sorted(((f"{a[0]}_{b[0]}", a, b) for i, a in enumerate(cells) for b in cells[i + 1:]))
        for label, a, b in named:
            first, second = (a, b) if rank[a[0]] < rank[b[0]] else (b, a)
            yield f"{kind}_{index}_pair_{label}: {name(*first)} + {name(*second)} <= 1\n"

    # (the constraint's name or, for a diagonal's pairs, their common prefix; kind; index or row; column)
    blocks = [(f"{kind}_{i}", kind, i, 0) for kind in ("row", "col") for i in range(1, n + 1)]
    blocks += [(f"{kind}_{i}_pair_" if form.pair_diagonals else f"{kind}_{i}", kind, i, 0)
               for kind in ("diag", "anti") for i in range(2, 2 * n - 1)]
    blocks += [(f"{word}_{r}_{c}", word, r, c) for word, cells in (("placed", problem.preplaced),
                                                                    ("blocked", problem.blocked)) for r, c in cells]
    blocks.sort()
    yield f"\\* queens_{n}_{form.name.replace('-', '_')} *\\\n"
    if form.maximise:
        yield "Maximize\n"
        yield from _wrapped("OBJ:", (name(r, c) for r in row_order for c in col_order), "")
    else:
        yield "Minimize\nOBJ: __dummy\n"
    yield "Subject To\n"
    for _key, kind, i, c in blocks:
        if kind in ("placed", "blocked"):
            yield f"{kind}_{i}_{c}: {name(i, c)} = {1 if kind == 'placed' else 0}\n"
        elif kind in ("diag", "anti") and form.pair_diagonals:
            yield from pairs(kind, i)
        else:
            yield line(kind, i)
    if not form.maximise:
        yield "Bounds\n __dummy = 0\n"
    yield "Binaries\n"
    for r in row_order:
        yield "".join(f"x_{r}_{c}\n" for c in col_order)
    yield "End\n"


def write_lp(problem: Problem | int, formulation: str | Formulation, path: str | os.PathLike[str]) -> None:
    """Write :func:`lp_text` to ``path`` (an OSError is the caller's to report)."""
    with open(path, "w", encoding="ascii", newline="\n") as out:
        for piece in lp_text(problem, formulation):
            out.write(piece)


def _check_disk(target: Path, size: int, what: str) -> None:
    """Refuse (one line) a file of about ``size`` bytes above :data:`LP_MAX_BYTES`, or where the disk of its
    draft (the temporary folder) or of ``target`` has less room free."""
    advice = "use a smaller n" + (" or --formulation lines" if "pairwise" in what else "")
    if size > LP_MAX_BYTES:
        raise InputError(f"{what} would have about {human_bytes(size)} of text, more than the "
                         f"{human_bytes(LP_MAX_BYTES)} an LP file is written up to (no solver reads it in reasonable "
                         f"time); {advice}")
    for folder in {tempfile.gettempdir(), os.path.dirname(os.path.abspath(target))}:
        try:
            free = shutil.disk_usage(folder).free
        except OSError:
            continue
        if size > free:
            raise InputError(f"{what} would take about {human_bytes(size)}, more than the {human_bytes(free)} free "
                             f"in {folder}; {advice}")


def export_model(problem: Problem | int, formulation: str | Formulation, path: str | os.PathLike[str],
                 max_memory: object = None) -> Path:
    """Write the model as ``.lp`` or ``.mps`` (chosen by the suffix) for other solvers to read.

    An LP file is written as text by :func:`lp_text` (what PuLP's ``writeLP`` writes, without the model: O(n)
    memory, n = 1000 in seconds); an MPS file, or a model with symmetry breaking, is built with PuLP and
    written by it.  Either way the size guard runs first (:func:`export_size`, ``max_memory`` as for
    :func:`build_model`).

    An LP file says ``Maximize`` for ``max-queens``.  MPS has no sense every reader agrees on: CBC 2.10
    ignores an ``OBJSENSE`` section and HiGHS honours it, so the MPS file of ``max-queens`` minimises
    minus the number of queens (optimum -n), which every reader solves alike.

    The file appears whole or not at all (:func:`~nqueens_kit.runtime.files.written_whole`): PuLP writes a
    draft in a private temporary folder, which is then copied into place; a full disk leaves no partial file
    and an older file at ``path`` as it was.
    """
    text = os.fspath(path) if isinstance(path, (str, os.PathLike)) else None
    if not isinstance(text, str):
        raise InputError(f"a model file is named by a path such as model.lp or model.mps, not {str(path)[:40]!r}")
    if not text.strip():
        raise InputError("a model file is named by a path such as model.lp or model.mps, not an empty string")
    if "\0" in text:
        raise InputError(f"a path cannot hold a NUL character: {text[:40]!r}")
    if text.endswith(("/", os.sep)):
        raise InputError(f"cannot write {text[:80]!r}: a path ending in {text[-1]} names a folder; "
                         "name a file FILE.lp or FILE.mps")
    target = Path(text)
    suffix = target.suffix.lower()
    if suffix not in (".lp", ".mps"):
        raise InputError(f"cannot tell the format of {str(target)!r}: name the file FILE.lp or FILE.mps")
    form = get_formulation(formulation)
    try:
        if target.is_dir():
            raise InputError(f"cannot write {target}: it is a folder; name a file FILE.lp or FILE.mps")
        output_path(target, "a model file")
    except OSError as exc:
        raise InputError(f"cannot write {target}: {exc.strerror or exc}") from None
    problem = _as_problem(problem)
    if _written_as_text(problem, target):  # no PuLP model: the text alone, in a few megabytes (export_size)
        what = f"writing the {form.name} LP file of {problem.n}-queens"
        check_size(export_size(problem, form, target), what, "use a smaller n", builder_budget(max_memory))
        check_room(export_size(problem, form, target), what, "use a smaller n")
        _check_disk(target, lp_bytes(problem, form), f"the {form.name} LP file of {problem.n}-queens")
        model = None
    else:
        model = build_model(problem, form, max_memory=max_memory)
    try:
        drafts = tempfile.TemporaryDirectory(prefix="nqueens-kit-model-")
    except OSError as exc:
        raise InputError(f"cannot write {target}: no temporary folder for the draft ({exc.strerror or exc})") from None
    with drafts as scratch:
        draft = Path(scratch) / f"model{suffix}"
        try:
            if model is None:
                write_lp(problem, form, draft)
            elif suffix == ".lp":
                model.prob.writeLP(str(draft))
            else:
                pulp = pulp_module()
                if form.maximise:
                    # Negated here: PuLP 3 and 4 disagree on what writeMPS does with a maximisation.
                    model.prob.sense = pulp.LpMinimize
                    model.prob.setObjective(-pulp.lpSum(list(model.x.values())))
                model.prob.writeMPS(str(draft))
        except OSError as exc:
            raise InputError(f"cannot write {target}: {exc.strerror or exc}; nothing was written") from None
        with written_whole(target, encoding="ascii") as out, open(draft, encoding="ascii") as drafted:
            if suffix == ".mps" and form.maximise:
                out.write(f"{MPS_MAX_NOTE}\n")
            shutil.copyfileobj(drafted, out)
    return target
