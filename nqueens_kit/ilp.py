"""N-queens as an integer linear program: PuLP models solved by CBC (default) or HiGHS.

Inside:

- :data:`FORMULATIONS`: ``lines`` (default), ``pairwise`` and ``max-queens``, each built by
  :func:`build_model` from the same :meth:`~nqueens_kit.board.Problem.lines` the SAT side encodes: one
  binary x_r_c per cell and a named constraint per line (``row_3``, ``col_5``, ``diag_7``, ``anti_2``),
  pre-placed queens as ``placed_R_C``.
- :data:`ILP_SOLVERS`: an ordered registry (``cbc`` first, the default; ``highs``).  CBC is found in
  every way PuLP ships it, tried in order: the bundled ``PULP_CBC_CMD`` (PuLP 3.x), ``COIN_CMD`` with the
  ``cbcbox`` wheel (``pulp[cbc]``, PuLP 4.x), the ``cbcbox`` binary under an older PuLP, a ``cbc`` on PATH.
- :func:`solve_ilp`: a verified :class:`~nqueens_kit.board.SolveResult` with build and solve seconds
  apart and the solver's own statistics (nodes, iterations, its own timing) in ``stats``.  CBC runs the
  feasibility formulations with :data:`CBC_FEASIBILITY_OPTIONS` (why: see there).
- :func:`count_ilp`: enumeration by no-good cuts (one full re-solve per solution: slow by design).
- :func:`lp_relaxation`: the fractional values of the LP relaxation, for heat maps.
- :func:`export_model`: ``.lp`` / ``.mps`` files other solvers read.

Works with PuLP 2.7 to 4.x: variables come from ``LpProblem.add_variable_dict`` where it exists, and
solve outcomes are read from PuLP 4's ``LpSolveStats`` or from the older ``status`` / ``sol_status``.

>>> result = solve_ilp(8)
>>> result.status, result.verified, result.constraints
('solved', True, 42)
>>> solve_ilp(3).status
'infeasible'
>>> model = build_model(4, "pairwise")
>>> model.constraint_names()[:2], model.constraint_names()[-1]
(['row_1', 'row_2'], 'anti_6_pair_3_4')
"""

from __future__ import annotations

import math
import os
import re
import shutil
import tempfile
import time
import warnings
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path
from typing import Any

from .board import Board, Cell, Problem, canonical, verify
from .errors import InputError, NQueensError, SolverNotAvailable
from .results import CountResult, SolveResult

#: Formulation name -> what it is; the first is the default.
FORMULATIONS: dict[str, str] = {
    "lines": "row and column sums = 1, every diagonal sum <= 1; a feasibility problem with no objective",
    "pairwise": "row and column sums = 1, x_a + x_b <= 1 for every pair on a diagonal (the linear twin of "
                "the pairwise clauses; a much weaker LP relaxation)",
    "max-queens": "maximise the number of queens with every line <= 1 (the textbook variant; optimum n for n >= 4)",
}
DEFAULT_FORMULATION = "lines"

#: A binary reads as 1 above this value: solvers hand back 0.9999999 or 1e-9, so never test ``== 1``.
ONE = 0.5

#: CBC settings for the feasibility formulations (``lines``, ``pairwise``).  With CBC's defaults the
#: first integer point comes from the feasibility pump, whose cost jumps erratically with n, the CBC
#: build and even the column order (2.7 to 11 s at n = 100 across CBC 2.10 and the cbcbox build, PuLP 3
#: and 4); without pump, preprocessing and cuts, CBC's cheaper heuristics and a short search find it
#: about 2 to 10 times faster from n = 36 on, and at most 0.3 s slower on smaller boards.  Set it to []
#: for CBC's defaults (benchmarks/bench_ilp.py measures both).
CBC_FEASIBILITY_OPTIONS: list[str] = ["feas off", "preprocess off", "cuts off"]


def _pulp() -> Any:
    try:
        import pulp
    except ImportError:
        raise SolverNotAvailable(
            "PuLP is not installed: pip install pulp (or conda install -c conda-forge pulp)"
        ) from None
    return pulp


def get_formulation(name: str) -> str:
    """``name`` if it is a formulation, else a one-line :class:`InputError` listing the valid ones."""
    if name not in FORMULATIONS:
        raise InputError(f"unknown formulation {name!r}; valid: {', '.join(FORMULATIONS)}")
    return name


def _as_problem(problem: Problem | int) -> Problem:
    return problem if isinstance(problem, Problem) else Problem(problem)


# ------------------------------------------------------------------------------------------ solvers


@dataclass(frozen=True)
class Candidate:
    """One way of reaching a solver: ``how`` it was found and ``make(**options)`` -> a PuLP solver.

    A ``{path}`` in ``how`` is filled in with the executable PuLP resolved, once it is found.
    """

    how: str
    make: Callable[..., Any]


class IlpSolver:
    """An ILP backend reached through PuLP: an ordered list of :class:`Candidate` ways to find it."""

    name = ""
    description = ""
    #: Whether the PuLP class runs an executable (it then takes ``logPath`` and writes temporary files).
    command_line = False

    def candidates(self) -> Iterator[Candidate]:
        """The ways to reach the solver, best first; each is tried only if the ones before failed."""
        raise NotImplementedError

    def find(self) -> Candidate | None:
        """The first candidate whose solver PuLP reports available, or None."""
        for candidate in self.candidates():
            try:
                engine = candidate.make(msg=False)
                if engine.available():
                    path = getattr(engine, "path", None) or "?"
                    if hasattr(engine, "executable"):  # PuLP keeps "cbc" as given; show where it is
                        path = engine.executable(path) or path
                    return Candidate(candidate.how.format(path=path), candidate.make)
            except Exception:  # a broken or half-installed backend is simply not a candidate
                continue
        return None

    def available(self) -> bool:
        return self.find() is not None

    def found_as(self) -> str | None:
        """How the solver was found, e.g. ``PULP_CBC_CMD (bundled with PuLP)``, or None."""
        found = self.find()
        return found.how if found else None

    def install_hint(self) -> str:
        raise NotImplementedError

    def require(self) -> Callable[..., Any]:
        """The factory of the PuLP solver found first (keyword arguments as the PuLP class takes them)."""
        return self._require().make

    def _require(self) -> Candidate:
        found = self.find()
        if found is None:
            raise SolverNotAvailable(f"ILP solver {self.name!r} is not installed: {self.install_hint()}")
        return found


def _quiet(factory: Callable[..., Any]) -> Callable[..., Any]:
    """PuLP 3.x warns that PULP_CBC_CMD goes away in 4.0; the lookup already falls back to COIN_CMD."""

    def make(**options: Any) -> Any:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            return factory(**options)

    return make


def _cbcbox_binary() -> str | None:
    """The CBC executable of the ``cbcbox`` wheel (what ``pulp[cbc]`` installs), if present."""
    try:
        import cbcbox  # type: ignore[import-not-found]

        path = cbcbox.cbc_bin_path()
    except Exception:  # not installed, or a wheel without a binary for this platform
        return None
    return path if path and os.path.isfile(path) else None


class Cbc(IlpSolver):
    name = "cbc"
    description = "COIN-OR CBC through PuLP (default)"
    command_line = True

    def candidates(self) -> Iterator[Candidate]:
        pulp = _pulp()
        if hasattr(pulp, "PULP_CBC_CMD"):
            yield Candidate("PULP_CBC_CMD (bundled with PuLP)", _quiet(pulp.PULP_CBC_CMD))
        # PuLP 4.x: COIN_CMD's default path is the cbcbox binary, else "cbc" on PATH (3.x: PATH only).
        yield Candidate("COIN_CMD ({path})", pulp.COIN_CMD)
        box = _cbcbox_binary()
        if box:
            yield Candidate("COIN_CMD ({path}, from cbcbox)", lambda **kw: pulp.COIN_CMD(path=box, **kw))
        path = shutil.which("cbc")
        if path:
            yield Candidate("COIN_CMD ({path})", lambda **kw: pulp.COIN_CMD(path=path, **kw))

    def install_hint(self) -> str:
        return ('pip install "pulp[cbc]" (PuLP 4 no longer bundles CBC), or conda install -c conda-forge '
                "coin-or-cbc, or apt-get install coinor-cbc")


class Highs(IlpSolver):
    name = "highs"
    description = "HiGHS through PuLP and highspy"

    def candidates(self) -> Iterator[Candidate]:
        pulp = _pulp()
        if hasattr(pulp, "HiGHS"):
            yield Candidate("HiGHS (highspy)", pulp.HiGHS)
        path = shutil.which("highs")
        if path and hasattr(pulp, "HiGHS_CMD"):
            yield Candidate("HiGHS_CMD ({path})", lambda **kw: pulp.HiGHS_CMD(path=path, **kw))

    def install_hint(self) -> str:
        hint = 'pip install "nqueens-kit[highs]" (that is, pip install highspy)'
        if not hasattr(_pulp(), "HiGHS"):
            hint += f", and a PuLP that can call it: pip install -U pulp (this is PuLP {_pulp().__version__})"
        return hint


#: Ordered registry of ILP solvers: the first is the default.
ILP_SOLVERS: dict[str, IlpSolver] = {s.name: s for s in (Cbc(), Highs())}
DEFAULT_ILP_SOLVER = "cbc"


def get_ilp_solver(name: str) -> IlpSolver:
    """A registered ILP solver, or a one-line :class:`InputError` (naming SAT solvers as such)."""
    if name in ILP_SOLVERS:
        return ILP_SOLVERS[name]
    from .sat import SAT_SOLVERS

    valid = ", ".join(ILP_SOLVERS)
    if name in SAT_SOLVERS:
        raise InputError(f"{name} is a SAT solver, not an ILP solver; ILP solvers: {valid} (or use --method sat)")
    raise InputError(f"unknown ILP solver {name!r}; valid: {valid}")


def available_ilp_solvers() -> list[str]:
    return [name for name, solver in ILP_SOLVERS.items() if solver.available()]


# -------------------------------------------------------------------------------------------- model


@dataclass
class IlpModel:
    """A PuLP model of one problem: ``prob`` (the ``LpProblem``) and ``x[(r, c)]`` (the cell variables)."""

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
        return len(_constraints(self.prob))

    def constraint_names(self) -> list[str]:
        """Constraint names in the order they were added."""
        return [c.name for c in _constraints(self.prob)]

    def constraint(self, name: str) -> Any:
        """The PuLP constraint called ``name`` (KeyError if there is none)."""
        found = (self.prob.get_constraint_by_name(name) if hasattr(self.prob, "get_constraint_by_name")
                 else self.prob.constraints.get(name))
        if found is None:
            raise KeyError(name)
        return found


def _constraints(prob: Any) -> list[Any]:
    """The constraints of an LpProblem: ``prob.constraints()`` in PuLP >= 3.3, a dict before."""
    listed = prob.constraints
    return list(listed()) if callable(listed) else list(listed.values())


def _cell_variables(prob: Any, n: int, category: str) -> dict[Cell, Any]:
    """x_r_c for every cell, created in one batch and owned by ``prob`` (PuLP 4 style) where possible."""
    pulp = _pulp()
    rows = range(1, n + 1)
    if hasattr(prob, "add_variable_dict"):
        return prob.add_variable_dict("x", (rows, rows), 0, 1, category)
    return pulp.LpVariable.dict("x", (rows, rows), 0, 1, category)


def build_model(problem: Problem | int, formulation: str = DEFAULT_FORMULATION, relax: bool = False) -> IlpModel:
    """The PuLP model of ``problem`` in ``formulation``; ``relax`` makes the variables continuous in 0..1.

    One linear pass over :meth:`Problem.lines` (each line lists its own cells), so building costs
    O(n²) for ``lines`` and ``max-queens``; ``pairwise`` has O(n³) pair constraints by its nature.
    ``pairwise`` adds no pairs inside rows and columns: x ≥ 0 with a row sum of 1 already implies
    x_a + x_b ≤ 1 there, for the integer model and the LP relaxation alike.
    """
    pulp = _pulp()
    problem = _as_problem(problem)
    get_formulation(formulation)
    start = time.perf_counter()
    n = problem.n
    maximise = formulation == "max-queens"
    prob = pulp.LpProblem(f"queens_{n}_{formulation.replace('-', '_')}",
                          pulp.LpMaximize if maximise else pulp.LpMinimize)
    x = _cell_variables(prob, n, pulp.LpContinuous if relax else pulp.LpBinary)
    add = prob.addConstraint
    for line in problem.lines():
        cells = line.cells
        if maximise:
            add(pulp.lpSum([x[c] for c in cells]) <= 1, line.name)
        elif line.exact:
            add(pulp.lpSum([x[c] for c in cells]) == 1, line.name)
        elif formulation == "lines":
            add(pulp.lpSum([x[c] for c in cells]) <= 1, line.name)
        else:  # pairwise: one constraint per attacking pair, named by the pair's two rows
            for a, b in combinations(cells, 2):
                add(x[a] + x[b] <= 1, f"{line.name}_pair_{a[0]}_{b[0]}")
    for r, c in problem.preplaced:
        add(x[r, c] + 0 == 1, f"placed_{r}_{c}")
    if maximise:
        prob.setObjective(pulp.lpSum(list(x.values())))
    return IlpModel(problem, formulation, prob, x, relax, time.perf_counter() - start)


# ------------------------------------------------------------------------------------------ solving


@dataclass
class _Run:
    """What one solve said, independent of the PuLP version.

    ``state``: ``optimal`` (a solution, proven best), ``feasible`` (a solution, search stopped early, e.g.
    at the time limit), ``infeasible``, or ``none`` (stopped without a solution).
    """

    state: str
    seconds: float
    stats: dict[str, Any]


_CBC_LOG = {
    "nodes": r"Enumerated nodes:\s+(\d+)",
    "iterations": r"Total iterations:\s+(\d+)",
    "solver_seconds": r"Time \(Wallclock seconds\):\s+([\d.]+)",
    "solver_cpu_seconds": r"Time \(CPU seconds\):\s+([\d.]+)",
}


def _classify(prob: Any, returned: Any) -> tuple[str, dict[str, Any]]:
    """``(state, stats)`` from what ``prob.solve`` returned (PuLP 4) or left on ``prob`` (PuLP 2 / 3)."""
    if hasattr(returned, "has_solution"):  # PuLP 4: an LpSolveStats
        status = getattr(returned.status, "name", str(returned.status))
        if returned.has_solution:
            state = "optimal" if status in ("Optimal", "GapLimit") else "feasible"
        else:
            state = "infeasible" if status == "Infeasible" else "none"
        stats: dict[str, Any] = {"solver_status": status, "solver_seconds": round(float(returned.time), 6)}
        if getattr(returned, "nodes", None) is not None:
            stats["nodes"] = int(returned.nodes)
        return state, stats
    pulp = _pulp()
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


def _highs_stats(prob: Any, state: str, stats: dict[str, Any]) -> str:
    """Add HiGHS's own counters; HiGHS's primal solution status overrides a hopeful PuLP reading."""
    highs = getattr(prob, "solverModel", None)
    if highs is None or not hasattr(highs, "getInfo"):
        return state
    info = highs.getInfo()
    stats["nodes"] = int(getattr(info, "mip_node_count", 0) or 0)
    stats["iterations"] = int(getattr(info, "simplex_iteration_count", 0) or 0)
    if hasattr(highs, "getRunTime"):
        stats["solver_seconds"] = round(float(highs.getRunTime()), 6)
    stats["solver_status"] = highs.modelStatusToString(highs.getModelStatus())
    feasible = 2  # kSolutionStatusFeasible
    if state in ("optimal", "feasible") and getattr(info, "primal_solution_status", feasible) != feasible:
        return "none"
    return state


def _check_time_limit(time_limit: float | None) -> None:
    if time_limit is None:
        return
    if isinstance(time_limit, bool) or not isinstance(time_limit, (int, float)) or not (
        time_limit > 0 and math.isfinite(time_limit)
    ):
        raise InputError(f"time limit must be a positive number of seconds, not {time_limit!r}")


def _run(model: IlpModel, solver: str, time_limit: float | None) -> _Run:
    """Solve ``model`` once.  PuLP's files and CBC's log live in a private temporary folder."""
    pulp = _pulp()
    backend = get_ilp_solver(solver)
    found = backend._require()
    options: dict[str, Any] = {"msg": False}
    if time_limit is not None:
        options["timeLimit"] = time_limit
    if model.formulation == "max-queens" and not model.relaxed:
        options["gapRel"] = 0  # "optimal" must mean proven: the status depends on the optimum being n
    elif backend.name == "cbc" and not model.relaxed and CBC_FEASIBILITY_OPTIONS:
        options["options"] = list(CBC_FEASIBILITY_OPTIONS)
    with tempfile.TemporaryDirectory(prefix="nqueens-kit-ilp-") as tmp:
        log = os.path.join(tmp, "solver.log")
        if backend.command_line:
            options["logPath"] = log
        engine = found.make(**options)
        if hasattr(engine, "tmpDir"):
            # PuLP's default is $TMPDIR, or the working directory when that is unusable: never there.
            engine.tmpDir = tmp
            engine.keepFiles = False
        start = time.perf_counter()
        try:
            returned = model.prob.solve(engine)
        except pulp.PulpSolverError as exc:
            detail = str(exc).strip().splitlines()
            raise NQueensError(f"{backend.name} failed: {detail[0] if detail else exc!r}") from None
        seconds = time.perf_counter() - start
        state, stats = _classify(model.prob, returned)
        if backend.command_line and os.path.exists(log):
            text = Path(log).read_text(errors="replace")
            for key, pattern in _CBC_LOG.items():
                match = re.search(pattern, text)
                if match:
                    stats[key] = float(match.group(1)) if "." in match.group(1) else int(match.group(1))
    state = _highs_stats(model.prob, state, stats)
    stats["found_as"] = found.how
    return _Run(state, seconds, stats)


def _board(model: IlpModel) -> Board:
    return tuple(sorted(cell for cell, var in model.x.items() if (var.varValue or 0.0) > ONE))


def _infeasible_message(problem: Problem) -> str:
    if problem.preplaced:
        return f"the pre-placed queens cannot be completed to a solution of {problem.n}-queens"
    return f"{problem.n}-queens has no solution (only n = 2 and n = 3 have none)"


def solve_ilp(problem: Problem | int, formulation: str = DEFAULT_FORMULATION, solver: str = DEFAULT_ILP_SOLVER,
              time_limit: float | None = None) -> SolveResult:
    """Build the model, solve it, read the board with a tolerance and verify it independently.

    ``max-queens`` is ``solved`` only when its proven optimum is n queens; a smaller optimum makes the
    status ``infeasible`` with ``stats["optimum"]`` and a message saying so.  A solve stopped by
    ``time_limit`` without a full board is ``timeout`` (for ``max-queens`` with the best count so far in
    ``stats["best_found"]``).
    """
    problem = _as_problem(problem)
    get_formulation(formulation)
    _check_time_limit(time_limit)
    get_ilp_solver(solver)._require()
    model = build_model(problem, formulation)
    run = _run(model, solver, time_limit)
    n = problem.n
    result = SolveResult(
        n=n, method="ilp", status="solved", variant=formulation, solver=solver, preplaced=problem.preplaced,
        variables=model.num_variables, constraints=model.num_constraints, build_seconds=model.build_seconds,
        solve_seconds=run.seconds, stats=run.stats,
    )
    if run.state in ("optimal", "feasible"):
        board = _board(model)
        if formulation == "max-queens":
            run.stats["optimum" if run.state == "optimal" else "best_found"] = len(board)
        if len(board) == n or formulation != "max-queens":
            result.queens = board  # check() below flags a wrong board rather than hiding it
        elif run.state == "optimal":
            result.status = "infeasible"
            result.message = (f"at most {len(board)} non-attacking queens fit"
                              f"{' with these pre-placed queens' if problem.preplaced else ''}; "
                              f"a solution needs {n}")
        else:  # stopped before proving the optimum
            result.status = "timeout" if time_limit is not None else "error"
            limit = f"within the time limit of {time_limit:g} s" if time_limit is not None else "before stopping"
            result.message = f"the best placement found {limit} has {len(board)} of {n} queens"
    elif run.state == "infeasible":
        result.status = "infeasible"
        result.message = _infeasible_message(problem)
    elif time_limit is not None:
        result.status = "timeout"
        result.message = f"no solution within the time limit of {time_limit:g} s"
    else:
        result.status = "error"
        result.message = f"{solver} stopped without an answer ({run.stats.get('solver_status', 'no status')})"
    return result.check()


# ---------------------------------------------------------------------------------------- counting


def iter_ilp(problem: Problem | int, formulation: str = DEFAULT_FORMULATION, solver: str = DEFAULT_ILP_SOLVER,
             time_limit: float | None = None) -> Iterable[Board]:
    """Every board, one solve each: after board B the cut Σ_{(r,c) in B} x_rc <= n - 1 forbids B alone.

    (Any other board differs from B in at least one queen, so the cut removes nothing else.)
    ``time_limit`` bounds the whole enumeration; running out raises :class:`NQueensError`.
    """
    pulp = _pulp()
    problem = _as_problem(problem)
    get_formulation(formulation)
    _check_time_limit(time_limit)
    get_ilp_solver(solver)._require()
    model = build_model(problem, formulation)
    n = problem.n
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    found = 0
    while True:
        remaining = None if deadline is None else deadline - time.perf_counter()
        if remaining is not None and remaining <= 0:
            raise NQueensError(f"time limit of {time_limit:g} s reached after {found} solutions")
        run = _run(model, solver, remaining)
        if run.state == "infeasible":
            return
        if run.state not in ("optimal", "feasible"):
            if remaining is not None:
                raise NQueensError(f"time limit of {time_limit:g} s reached after {found} solutions")
            raise NQueensError(f"{solver} stopped without an answer after {found} solutions "
                               f"({run.stats.get('solver_status', 'no status')})")
        board = _board(model)
        if formulation == "max-queens" and len(board) < n:
            if run.state == "optimal":
                return  # the best placement left is no longer a full board
            raise NQueensError(f"time limit of {time_limit:g} s reached after {found} solutions")
        if not verify(n, board, problem.preplaced):
            raise NQueensError(f"{solver} returned an invalid board after {found} solutions: {board}")
        found += 1
        yield board
        model.prob.addConstraint(pulp.lpSum([model.x[cell] for cell in board]) <= n - 1, f"nogood_{found}")


def count_ilp(problem: Problem | int, formulation: str = DEFAULT_FORMULATION, solver: str = DEFAULT_ILP_SOLVER,
              time_limit: float | None = None, fundamental: bool = False) -> CountResult:
    """Count boards by no-good cuts (see :func:`iter_ilp`); ``fundamental`` also counts them up to symmetry.

    This is the textbook way to enumerate with an ILP solver, and it scales badly: every solution costs
    a full re-solve of a model that grows by one cut each time.  n = 8 (92 boards, 93 solves) took
    13 s with CBC and 6 s with HiGHS on a 2-core machine, where SAT enumeration took 0.01 s and
    backtracking under a millisecond; n = 12 (14,200 boards) is out of reach.  Use it to see the idea;
    count with ``--method sat`` or ``backtrack``.
    ``CountResult.encoding`` holds the formulation name.
    """
    problem = _as_problem(problem)
    start = time.perf_counter()
    boards = list(iter_ilp(problem, formulation, solver, time_limit))
    seconds = time.perf_counter() - start
    solves = len(boards) + 1
    return CountResult(
        n=problem.n, count=len(boards), method="ilp", variant=formulation, solver=solver,
        fundamental=len({canonical(problem.n, b) for b in boards}) if fundamental else None,
        seconds=seconds, preplaced=problem.preplaced,
        note=(f"{solves} full re-solves, one no-good cut per solution ({seconds / solves * 1000:.0f} ms each): "
              "slow by design; --method sat or backtrack count in milliseconds"),
    )


# ----------------------------------------------------------------------------------- LP relaxation


@dataclass
class Relaxation:
    """The LP relaxation's answer: fractional cell values, the objective, the status, the solve time.

    ``status`` is ``optimal``, ``infeasible`` or ``error``; ``values`` is empty unless optimal.  The
    objective of ``lines`` and ``pairwise`` is the constant 0 (they have none).
    """

    n: int
    formulation: str
    values: dict[Cell, float] = field(default_factory=dict)
    objective: float = 0.0
    status: str = ""
    seconds: float = 0.0
    solver: str = DEFAULT_ILP_SOLVER

    def fractional_cells(self, tolerance: float = 1e-6) -> list[Cell]:
        """Cells whose value is strictly between 0 and 1."""
        return [c for c, v in self.values.items() if tolerance < v < 1 - tolerance]


def lp_relaxation(problem: Problem | int, formulation: str = DEFAULT_FORMULATION,
                  solver: str = DEFAULT_ILP_SOLVER) -> Relaxation:
    """Solve with 0 <= x <= 1 continuous and return the (fractional) cell values.

    For ``lines`` x = 1/n everywhere satisfies every line, even for n = 2 and 3, which have no board:
    the relaxation alone neither places queens nor proves infeasibility.  The solver returns *some*
    vertex of the polytope (CBC and HiGHS may differ), not that centre point.  For ``max-queens`` the
    relaxation's optimum is n for every n, against an integer optimum of 1 for n = 2 and 2 for n = 3.
    """
    problem = _as_problem(problem)
    get_formulation(formulation)
    get_ilp_solver(solver)._require()
    model = build_model(problem, formulation, relax=True)
    run = _run(model, solver, None)
    status = {"optimal": "optimal", "feasible": "optimal", "infeasible": "infeasible"}.get(run.state, "error")
    values: dict[Cell, float] = {}
    objective = 0.0
    if status == "optimal":
        # Clip the solver's 1e-12-sized excursions so callers can rely on 0 <= value <= 1.
        values = {cell: min(1.0, max(0.0, float(var.varValue or 0.0))) for cell, var in model.x.items()}
        if formulation == "max-queens":
            objective = round(sum(values.values()), 9)
    return Relaxation(problem.n, formulation, values, objective, status, run.seconds, solver)


# ------------------------------------------------------------------------------------------- export


#: First line of an exported ``max-queens`` MPS file (an MPS comment), saying why the objective is negated.
MPS_MAX_NOTE = "* max-queens: maximise the number of queens, written as minimise -(number of queens)"


def export_model(problem: Problem | int, formulation: str, path: str | os.PathLike[str]) -> Path:
    """Write the model as ``.lp`` or ``.mps`` (chosen by the suffix) for other solvers to read.

    An LP file says ``Maximize`` for ``max-queens``.  MPS has no sense every reader agrees on: CBC 2.10
    ignores an ``OBJSENSE`` section and HiGHS honours it, so the MPS file of ``max-queens`` minimises
    minus the number of queens (optimum -n), which every reader solves alike.
    """
    target = Path(path)
    suffix = target.suffix.lower()
    if suffix not in (".lp", ".mps"):
        raise InputError(f"cannot tell the format of {str(target)!r}: name the file FILE.lp or FILE.mps")
    get_formulation(formulation)
    if target.is_dir():
        raise InputError(f"cannot write {target}: it is a folder; name a file FILE.lp or FILE.mps")
    if not target.parent.is_dir():
        raise InputError(f"cannot write {target}: folder {target.parent} does not exist")
    pulp = _pulp()
    model = build_model(problem, formulation)
    try:
        if suffix == ".lp":
            model.prob.writeLP(str(target))
        else:
            if formulation == "max-queens":
                # Negated here: PuLP 3 and 4 disagree on what writeMPS does with a maximisation.
                model.prob.sense = pulp.LpMinimize
                model.prob.setObjective(-pulp.lpSum(list(model.x.values())))
            model.prob.writeMPS(str(target))
            if formulation == "max-queens":
                text = target.read_text(encoding="ascii")
                target.write_text(f"{MPS_MAX_NOTE}\n{text}", encoding="ascii")
    except OSError as exc:
        raise InputError(f"cannot write {target}: {exc.strerror or exc}") from None
    return target
