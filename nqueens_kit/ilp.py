"""N-queens as an integer linear program: PuLP models solved by CBC (default) or HiGHS.

Inside:

- :data:`FORMULATIONS`: ``lines`` (default), ``pairwise`` and ``max-queens``; each built by
  :func:`build_model` from the same :meth:`~nqueens_kit.board.Problem.lines` the SAT side encodes, one
  binary x_rc per cell and a named constraint per line (``row_3``, ``col_5``, ``diag_7``, ``anti_2``).
- :data:`ILP_SOLVERS`: an ordered registry (``cbc`` first, the default; ``highs``).  CBC is found in
  every way PuLP ships it: the bundled ``PULP_CBC_CMD`` (PuLP 3.x), ``COIN_CMD`` with the ``cbcbox``
  wheel (``pulp[cbc]``, PuLP 4.x) or a ``cbc`` binary on PATH.
- :func:`solve_ilp` (a verified :class:`~nqueens_kit.board.SolveResult`), :func:`count_ilp` (no-good
  cuts), :func:`lp_relaxation` (fractional values), :func:`export_model` (``.lp`` / ``.mps``).

>>> result = solve_ilp(8)
>>> result.status, result.verified, result.constraints
('solved', True, 42)
>>> solve_ilp(3).status
'infeasible'
>>> str(build_model(4, "lines").constraint("row_1"))
'x_1_1 + x_1_2 + x_1_3 + x_1_4 = 1.0'
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path
from typing import Any

from .board import Cell, CountResult, Problem, SolveResult, canonical
from .errors import InputError, NQueensError, SolverNotAvailable

#: Formulation name -> what it is; the first is the default.
FORMULATIONS: dict[str, str] = {
    "lines": "row and column sums = 1, every diagonal sum <= 1; a feasibility problem with no objective",
    "pairwise": "row and column sums = 1, x_a + x_b <= 1 for every pair on a diagonal (the linear twin of "
                "the pairwise clauses; a much weaker LP relaxation)",
    "max-queens": "maximise the number of queens with every line <= 1 (the textbook variant; optimum n for n >= 4)",
}
DEFAULT_FORMULATION = "lines"

#: A binary reads as 1 above this value: solvers return 0.9999999 or 1e-9, never trust == 1.
ONE = 0.5


def _pulp() -> Any:
    try:
        import pulp
    except ImportError:
        raise SolverNotAvailable("PuLP is not installed: pip install pulp (or conda install -c conda-forge pulp)") from None
    return pulp


def get_formulation(name: str) -> str:
    if name not in FORMULATIONS:
        raise InputError(f"unknown formulation {name!r}; valid: {', '.join(FORMULATIONS)}")
    return name


# ------------------------------------------------------------------------------------------ solvers


class IlpSolver:
    """An ILP backend reached through PuLP."""

    name = ""
    description = ""

    def candidates(self) -> list[tuple[str, Callable[..., Any]]]:
        """``(how, factory)`` pairs to try in order; a factory takes PuLP solver keyword arguments."""
        raise NotImplementedError

    def _find(self) -> tuple[str, Callable[..., Any]] | None:
        for how, factory in self.candidates():
            try:
                if factory(msg=False).available():
                    return how, factory
            except Exception:  # a broken or half-installed backend is simply not a candidate
                continue
        return None

    def available(self) -> bool:
        return self._find() is not None

    def found_as(self) -> str | None:
        """How the solver was found (e.g. ``PULP_CBC_CMD (bundled with PuLP)``), or None."""
        found = self._find()
        return found[0] if found else None

    def install_hint(self) -> str:
        raise NotImplementedError

    def require(self) -> Callable[..., Any]:
        found = self._find()
        if found is None:
            raise SolverNotAvailable(f"ILP solver {self.name!r} is not installed: {self.install_hint()}")
        return found[1]


class Cbc(IlpSolver):
    name = "cbc"
    description = "COIN-OR CBC through PuLP (default)"

    def candidates(self) -> list[tuple[str, Callable[..., Any]]]:
        pulp = _pulp()
        found: list[tuple[str, Callable[..., Any]]] = []
        if hasattr(pulp, "PULP_CBC_CMD"):
            found.append(("PULP_CBC_CMD (bundled with PuLP)", _bundled_cbc))
        if hasattr(pulp, "COIN_CMD"):
            found.append(("COIN_CMD (pulp[cbc] / cbcbox)", pulp.COIN_CMD))
            path = shutil.which("cbc")
            if path:
                found.append((f"COIN_CMD ({path})", lambda **kw: pulp.COIN_CMD(path=path, **kw)))
        return found

    def install_hint(self) -> str:
        return ('pip install "pulp[cbc]" (PuLP 4.x no longer bundles CBC), or conda install -c conda-forge '
                "coin-or-cbc, or apt-get install coinor-cbc")


def _bundled_cbc(**options: Any) -> Any:
    """PuLP 3.x's bundled CBC.  PuLP 3.3 warns that 4.0 drops it; the kit already looks for COIN_CMD
    next, so the warning tells the user nothing they must act on."""
    pulp = _pulp()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return pulp.PULP_CBC_CMD(**options)


class Highs(IlpSolver):
    name = "highs"
    description = "HiGHS through PuLP and highspy"

    def candidates(self) -> list[tuple[str, Callable[..., Any]]]:
        pulp = _pulp()
        return [("HiGHS (highspy)", pulp.HiGHS)] if hasattr(pulp, "HiGHS") else []

    def install_hint(self) -> str:
        return 'pip install "nqueens-kit[highs]" (or pip install highspy)'


#: Ordered registry of ILP solvers: the first is the default.
ILP_SOLVERS: dict[str, IlpSolver] = {s.name: s for s in (Cbc(), Highs())}
DEFAULT_ILP_SOLVER = "cbc"


def get_ilp_solver(name: str) -> IlpSolver:
    if name in ILP_SOLVERS:
        return ILP_SOLVERS[name]
    from .sat import SAT_SOLVERS

    if name in SAT_SOLVERS:
        raise InputError(f"{name} is a SAT solver; ILP solvers: {', '.join(ILP_SOLVERS)} (or use --method sat)")
    raise InputError(f"unknown ILP solver {name!r}; valid: {', '.join(ILP_SOLVERS)}")


# -------------------------------------------------------------------------------------------- model


@dataclass
class IlpModel:
    """A PuLP model of one problem: ``prob`` (the ``LpProblem``) and ``x[(r, c)]`` (the cell binaries)."""

    problem: Problem
    formulation: str
    prob: Any
    x: dict[Cell, Any]
    relaxed: bool = False
    build_seconds: float = 0.0

    @property
    def num_variables(self) -> int:
        return len(self.x)

    @property
    def num_constraints(self) -> int:
        return int(self.prob.numConstraints())

    def constraint(self, name: str) -> Any:
        """A constraint by name (``row_3``, ``placed_1_1``, ...)."""
        if hasattr(self.prob, "get_constraint_by_name"):  # PuLP >= 3.3 (the 4.0 API)
            found = self.prob.get_constraint_by_name(name)
        else:
            found = self.prob.constraints.get(name)
        if found is None:
            raise KeyError(name)
        return found

    def constraint_names(self) -> list[str]:
        listing = self.prob.constraints
        items = listing() if callable(listing) else listing.values()
        return [c.name for c in items]


def build_model(problem: Problem | int, formulation: str = DEFAULT_FORMULATION, relax: bool = False) -> IlpModel:
    """The PuLP model of a problem in a formulation (``relax``: continuous 0 <= x <= 1)."""
    pulp = _pulp()
    if not isinstance(problem, Problem):
        problem = Problem(problem)
    get_formulation(formulation)
    start = time.perf_counter()
    n = problem.n
    sense = pulp.LpMaximize if formulation == "max-queens" else pulp.LpMinimize
    prob = pulp.LpProblem(f"queens_{n}_{formulation.replace('-', '_')}", sense)
    category = pulp.LpContinuous if relax else pulp.LpBinary
    # PuLP 4.0 attaches variables to the model (add_variable); PuLP 3.3 has both and warns on the old one.
    new_var = (lambda name: prob.add_variable(name, 0, 1, cat=category)) if hasattr(prob, "add_variable") else (
        lambda name: pulp.LpVariable(name, 0, 1, category))
    x = {(r, c): new_var(f"x_{r}_{c}") for r in range(1, n + 1) for c in range(1, n + 1)}
    if formulation == "max-queens":
        prob.setObjective(pulp.lpSum(x.values()))
    constraints: dict[str, Any] = {}
    for line in problem.lines():
        total = pulp.lpSum(x[cell] for cell in line.cells)
        if formulation == "max-queens":
            constraints[line.name] = total <= 1
        elif line.exact:
            constraints[line.name] = total == 1
        elif formulation == "lines":
            constraints[line.name] = total <= 1
        else:  # pairwise: one edge constraint per attacking pair on the diagonal
            for (r1, c1), (r2, c2) in combinations(line.cells, 2):
                constraints[f"{line.name}_pair_{r1}_{c1}_{r2}_{c2}"] = x[r1, c1] + x[r2, c2] <= 1
    for r, c in problem.preplaced:
        constraints[f"placed_{r}_{c}"] = x[r, c] == 1
    for name, constraint in constraints.items():
        prob.addConstraint(constraint, name)
    return IlpModel(problem, formulation, prob, x, relax, time.perf_counter() - start)


_CBC_STATS = {
    "nodes": r"Enumerated nodes:\s+(\d+)",
    "iterations": r"Total iterations:\s+(\d+)",
    "solver_cpu_seconds": r"Time \(CPU seconds\):\s+([\d.]+)",
}


def _solve_model(model: IlpModel, solver: str, time_limit: float | None) -> tuple[str, float, dict[str, Any]]:
    """Run the solver on the model: ``(kind, seconds, stats)`` with kind ``solution``, ``infeasible``,
    ``timeout`` or ``unsolved``."""
    pulp = _pulp()
    if time_limit is not None and not time_limit > 0:
        raise InputError(f"time limit must be a positive number of seconds, not {time_limit:g}")
    backend = get_ilp_solver(solver)
    factory = backend.require()
    options: dict[str, Any] = {"msg": False}
    if time_limit is not None:
        options["timeLimit"] = time_limit
    stats: dict[str, Any] = {"found_as": backend.found_as()}
    with tempfile.TemporaryDirectory(prefix="nqueens-kit-ilp-") as tmp:
        log = os.path.join(tmp, "cbc.log")
        if backend.name == "cbc":
            options["logPath"] = log
            # N-queens models have nothing for CBC's presolve to remove; skipping it saves about a
            # third of the solve time from n = 40 up (benchmarks/bench_ilp.py).
            options["presolve"] = False
        engine = factory(**options)
        start = time.perf_counter()
        try:
            status = model.prob.solve(engine)
        except pulp.PulpSolverError as exc:
            raise NQueensError(f"{backend.name} failed: {str(exc).splitlines()[0]}") from None
        seconds = time.perf_counter() - start
        if backend.name == "cbc" and os.path.exists(log):
            text = Path(log).read_text(errors="replace")
            for key, pattern in _CBC_STATS.items():
                match = re.search(pattern, text)
                if match:
                    stats[key] = float(match.group(1)) if "." in match.group(1) else int(match.group(1))
    highs = getattr(model.prob, "solverModel", None)
    if backend.name == "highs" and highs is not None and hasattr(highs, "getInfo"):
        info = highs.getInfo()
        stats["nodes"] = int(getattr(info, "mip_node_count", 0))
        stats["iterations"] = int(getattr(info, "simplex_iteration_count", 0))
    stats["status"] = pulp.LpStatus.get(status, str(status))
    has_solution = model.prob.sol_status in (pulp.LpSolutionOptimal, pulp.LpSolutionIntegerFeasible)
    if status == pulp.LpStatusInfeasible or model.prob.sol_status == pulp.LpSolutionInfeasible:
        kind = "infeasible"
    elif has_solution or status == pulp.LpStatusOptimal:
        kind = "solution"
    elif time_limit is not None:
        kind = "timeout"
    else:
        kind = "unsolved"
    return kind, seconds, stats


def _board(model: IlpModel) -> tuple[Cell, ...]:
    return tuple(sorted(cell for cell, var in model.x.items() if (var.varValue or 0.0) > ONE))


def solve_ilp(problem: Problem | int, formulation: str = DEFAULT_FORMULATION, solver: str = DEFAULT_ILP_SOLVER,
              time_limit: float | None = None) -> SolveResult:
    """Build the model, solve it, read the board with a tolerance and verify it independently.

    For ``max-queens`` the status is ``solved`` only when the optimum places n queens; otherwise the
    optimum is reported in ``stats["optimum"]`` and the status is ``infeasible`` (no full board exists).
    """
    if not isinstance(problem, Problem):
        problem = Problem(problem)
    get_formulation(formulation)
    get_ilp_solver(solver).require()
    model = build_model(problem, formulation)
    kind, seconds, stats = _solve_model(model, solver, time_limit)
    result = SolveResult(
        n=problem.n, method="ilp", status="solved", formulation=formulation, solver=solver,
        preplaced=problem.preplaced, variables=model.num_variables, constraints=model.num_constraints,
        build_seconds=model.build_seconds, solve_seconds=seconds, stats=stats,
    )
    if kind == "solution":
        board = _board(model)
        if formulation == "max-queens":
            stats["optimum"] = len(board)
        if formulation == "max-queens" and len(board) < problem.n:
            result.status = "infeasible"
            result.message = (f"at most {len(board)} non-attacking queens fit"
                              f"{' with these pre-placed queens' if problem.preplaced else ''}; "
                              f"{problem.n} are needed for a solution")
        else:
            result.queens = board
    elif kind == "infeasible":
        result.status = "infeasible"
        result.message = (f"the pre-placed queens cannot be completed to a solution of {problem.n}-queens"
                          if problem.preplaced else f"{problem.n}-queens has no solution (only n = 2 and n = 3 have none)")
    elif kind == "timeout":
        result.status = "timeout"
        result.message = f"no solution within the time limit of {time_limit:g} s"
    else:
        result.status = "error"
        result.message = f"{solver} stopped without an answer (status {stats['status']})"
    return result.check()


def count_ilp(problem: Problem | int, formulation: str = DEFAULT_FORMULATION, solver: str = DEFAULT_ILP_SOLVER,
              time_limit: float | None = None, fundamental: bool = False) -> CountResult:
    """Count solutions by no-good cuts: after each board B add Σ_{(r,c) in B} x_rc <= n - 1 and solve again.

    Each cut forbids exactly one board (any other board differs in at least one queen).  Every solution
    costs a full re-solve of a growing model: the 92 boards of n = 8 take several seconds (CBC starts a
    new process per solve; HiGHS runs in process and is about twice as fast) against milliseconds for SAT
    enumeration or backtracking, and the cost grows with the number of solutions.  Fine for seeing the
    idea, not a way to count large boards.  ``time_limit`` bounds each solve.
    """
    pulp = _pulp()
    if not isinstance(problem, Problem):
        problem = Problem(problem)
    get_ilp_solver(solver).require()
    model = build_model(problem, formulation)
    n = problem.n
    start = time.perf_counter()
    boards: list[tuple[Cell, ...]] = []
    while True:
        kind, _, stats = _solve_model(model, solver, time_limit)
        if kind == "timeout":
            raise NQueensError(f"a solve hit the time limit of {time_limit:g} s after {len(boards)} solutions")
        if kind == "unsolved":
            raise NQueensError(f"{solver} stopped without an answer after {len(boards)} solutions ({stats['status']})")
        if kind != "solution":
            break
        board = _board(model)
        if len(board) < n:  # max-queens: the best remaining placement is no longer a full board
            break
        boards.append(board)
        model.prob.addConstraint(pulp.lpSum(model.x[cell] for cell in board) <= n - 1, f"nogood_{len(boards)}")
    return CountResult(
        n=n, count=len(boards), method="ilp", encoding=formulation, solver=solver,
        fundamental=len({canonical(n, b) for b in boards}) if fundamental else None,
        seconds=time.perf_counter() - start, preplaced=problem.preplaced,
        note=f"{len(boards) + 1} full re-solves, one no-good cut per solution: slow by design, "
             "use --method sat or backtrack to count larger boards",
    )


@dataclass
class Relaxation:
    """The LP relaxation's answer: fractional cell values, the objective, the solver status."""

    n: int
    formulation: str
    values: dict[Cell, float] = field(default_factory=dict)
    objective: float | None = None
    status: str = ""
    seconds: float = 0.0

    def fractional_cells(self, tolerance: float = 1e-6) -> list[Cell]:
        return [c for c, v in self.values.items() if tolerance < v < 1 - tolerance]


def lp_relaxation(problem: Problem | int, formulation: str = DEFAULT_FORMULATION,
                  solver: str = DEFAULT_ILP_SOLVER) -> Relaxation:
    """Solve with 0 <= x <= 1 continuous.  For ``lines`` every x = 1/n is feasible, so the relaxation
    alone says nothing about where the queens go; the solver returns some vertex of the polytope."""
    if not isinstance(problem, Problem):
        problem = Problem(problem)
    model = build_model(problem, formulation, relax=True)
    kind, seconds, stats = _solve_model(model, solver, None)
    values = {cell: float(var.varValue or 0.0) for cell, var in model.x.items()}
    objective = model.prob.objective.value() if model.prob.objective is not None else None
    return Relaxation(problem.n, formulation, values if kind == "solution" else {}, objective, stats["status"], seconds)


def export_model(problem: Problem | int, formulation: str, path: str | os.PathLike[str]) -> Path:
    """Write the model as ``.lp`` or ``.mps`` (chosen by the suffix), readable by other solvers."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in (".lp", ".mps"):
        raise InputError(f"cannot tell the format of {path.name!r}: name the file FILE.lp or FILE.mps")
    model = build_model(problem, formulation)
    if not path.parent.is_dir():
        raise InputError(f"cannot write {path}: folder {path.parent} does not exist")
    try:
        if suffix == ".lp":
            model.prob.writeLP(str(path))
        else:
            model.prob.writeMPS(str(path))
    except OSError as exc:
        raise InputError(f"cannot write {path}: {exc.strerror or exc}") from None
    return path
