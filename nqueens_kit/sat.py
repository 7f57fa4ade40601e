"""Solving the CNF: the embedded pycosat, optional PySAT solvers, and any DIMACS solver binary.

Inside:

- :data:`SAT_SOLVERS`: an ordered registry (the first is the default) of :class:`SatSolver` backends.
  Each says whether it is installed (:meth:`SatSolver.available`) and how to install it, so a missing
  optional solver gives one clear line rather than an ImportError.  Any other executable on PATH can be
  named too; it is run as ``SOLVER FILE.cnf`` and must print the SAT-competition format.
- :func:`solve_clauses`: one formula, one solver, an optional wall-clock limit (in-process solvers then
  run in a child process that can be stopped).
- :func:`solve_sat`: an N-queens :class:`~nqueens_kit.board.Problem` to a verified
  :class:`~nqueens_kit.board.SolveResult`.
- :func:`parse_solver_output`: MiniSat's result file (``SAT`` / literals) and the competition format
  (``s SATISFIABLE`` / ``v ... 0``).
- :func:`iter_solutions`, :func:`count_solutions`, :func:`count_projected`: enumeration that counts every
  board once whatever the encoding: solvers that take clauses incrementally (PySAT) or one call per
  solution (DIMACS binaries) block each board on its board variables only; pycosat, whose ``itersolve``
  blocks over *all* variables, gets the formula with defined helpers (``build_cnf(define=True)``), where
  each board has exactly one model.  The search is split on the first rows' queens (:func:`_cubes`).

>>> solve_sat(8).status, solve_sat(3).status
('solved', 'infeasible')
>>> count_solutions(6, "sequential").count
4
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import islice
from typing import Any

from .board import Board, Problem, attacks, canonical, transform
from .cnf import CNF, build_cnf, decode_model
from .dimacs import parse_solver_output, write_dimacs_clauses
from .encodings import DEFAULT_ENCODING, Clause
from .errors import InputError, NQueensError, SolverNotAvailable
from .results import CountResult, SolveResult
from .isolate import ChildFailed, TimeLimitReached, run_with_time_limit


@dataclass
class SatOutcome:
    """A SAT solver's answer: ``sat`` with a model, ``unsat``, or ``timeout``."""

    status: str
    model: list[int] | None = None
    seconds: float = 0.0
    stats: dict[str, Any] = field(default_factory=dict)


class SatSolver:
    """A SAT backend.  Subclasses implement :meth:`_solve`; this class adds the time limit."""

    name = ""
    kind = ""
    description = ""
    in_process = True

    def available(self) -> bool:
        raise NotImplementedError

    def install_hint(self) -> str:
        raise NotImplementedError

    def require(self) -> None:
        if not self.available():
            raise SolverNotAvailable(f"SAT solver {self.name!r} is not installed: {self.install_hint()}")

    def _solve(self, clauses: Sequence[Clause], num_vars: int, time_limit: float | None) -> SatOutcome:
        raise NotImplementedError

    def solve(self, clauses: Sequence[Clause], num_vars: int, time_limit: float | None = None) -> SatOutcome:
        self.require()
        start = time.perf_counter()
        if time_limit is not None and self.in_process:
            try:
                outcome = run_with_time_limit(self._solve, (clauses, num_vars, None), time_limit)
            except TimeLimitReached:
                outcome = SatOutcome("timeout")
            except ChildFailed as exc:
                raise NQueensError(f"solver {self.name} failed: {exc}") from None
        else:
            outcome = self._solve(clauses, num_vars, time_limit)
        outcome.seconds = time.perf_counter() - start
        return outcome


class Pycosat(SatSolver):
    name = "pycosat"
    kind = "embedded"
    description = "PicoSAT embedded in Python (default)"

    def available(self) -> bool:
        return _importable("pycosat")

    def install_hint(self) -> str:
        return "pip install pycosat (or conda install -c conda-forge pycosat)"

    def _solve(self, clauses: Sequence[Clause], num_vars: int, time_limit: float | None) -> SatOutcome:
        import pycosat

        result = pycosat.solve(clauses, vars=num_vars)
        if result == "UNSAT":
            return SatOutcome("unsat")
        if result == "UNKNOWN":
            return SatOutcome("timeout")
        return SatOutcome("sat", result)


class PySat(SatSolver):
    """A solver from the python-sat package (``pysat.solvers``)."""

    kind = "pysat"

    def __init__(self, name: str, backend: str, description: str) -> None:
        self.name, self.backend, self.description = name, backend, description

    def available(self) -> bool:
        return _importable("pysat.solvers")

    def install_hint(self) -> str:
        return 'pip install "nqueens-kit[pysat]" (python-sat is published as .dev releases: pip install --pre python-sat)'

    def _solve(self, clauses: Sequence[Clause], num_vars: int, time_limit: float | None) -> SatOutcome:
        from pysat.solvers import Solver

        with Solver(name=self.backend, bootstrap_with=clauses) as solver:
            ok = solver.solve()
            stats = dict(solver.accum_stats() or {})
            return SatOutcome("sat", solver.get_model(), stats=stats) if ok else SatOutcome("unsat", stats=stats)


class Binary(SatSolver):
    """A DIMACS solver executable, run as a subprocess on a temporary file with a time limit."""

    kind = "binary"
    in_process = False

    def __init__(self, name: str, args: Sequence[str] = (), output_file: bool = False,
                 package: str | None = None, description: str = "") -> None:
        self.name = name
        self.args = list(args)
        self.output_file = output_file  # MiniSat style: the model goes to a second file argument
        self.package = package
        self.description = description or f"{name} (external DIMACS solver)"

    def executable(self) -> str | None:
        return shutil.which(self.name)

    def available(self) -> bool:
        return self.executable() is not None

    def install_hint(self) -> str:
        if self.package:
            return f"no '{self.name}' on PATH; on Debian/Ubuntu: sudo apt-get install {self.package}"
        return f"no '{self.name}' on PATH; install it or give the full path to the executable"

    def _solve(self, clauses: Sequence[Clause], num_vars: int, time_limit: float | None) -> SatOutcome:
        with tempfile.TemporaryDirectory(prefix="nqueens-kit-") as tmp:
            cnf_path = os.path.join(tmp, "problem.cnf")
            with open(cnf_path, "w", encoding="ascii") as out:
                write_dimacs_clauses(out, num_vars, clauses)
            command = [self.executable() or self.name, *self.args, cnf_path]
            out_path = os.path.join(tmp, "result.txt")
            if self.output_file:
                command.append(out_path)
            try:
                proc = subprocess.run(command, capture_output=True, text=True, timeout=time_limit)
            except subprocess.TimeoutExpired:
                return SatOutcome("timeout")
            except OSError as exc:
                raise SolverNotAvailable(f"cannot run {self.name}: {exc.strerror or exc}") from None
            text = proc.stdout
            if self.output_file and os.path.exists(out_path):
                with open(out_path, encoding="ascii", errors="replace") as result:
                    text = result.read()
            try:
                status, model = parse_solver_output(text)
            except InputError:
                detail = (proc.stderr or proc.stdout).strip().splitlines()
                raise NQueensError(
                    f"{self.name} gave no answer (exit code {proc.returncode}"
                    + (f": {detail[-1]}" if detail else "") + ")"
                ) from None
            if status == "unknown":
                return SatOutcome("timeout")
            return SatOutcome(status, model)


def _importable(module: str) -> bool:
    import importlib.util

    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


#: Ordered registry of SAT solvers: the first is the default.
SAT_SOLVERS: dict[str, SatSolver] = {
    s.name: s
    for s in (
        Pycosat(),
        PySat("pysat-cadical", "cadical195", "CaDiCaL 1.9.5 through python-sat"),
        PySat("pysat-glucose", "glucose4", "Glucose 4 through python-sat"),
        PySat("pysat-minisat", "minisat22", "MiniSat 2.2 through python-sat"),
        Binary("minisat", ["-verb=0"], output_file=True, package="minisat"),
        Binary("cadical", ["-q"], package="cadical"),
        Binary("kissat", ["-q"]),
        Binary("picosat", [], package="picosat"),
        Binary("cryptominisat5", ["--verb", "0"], package="cryptominisat"),
        Binary("glucose", ["-verb=0"], output_file=True),
    )
}
DEFAULT_SAT_SOLVER = "pycosat"


def get_sat_solver(name: str) -> SatSolver:
    """A registered solver, or any executable on PATH (or a path) that prints the competition format."""
    if name in SAT_SOLVERS:
        return SAT_SOLVERS[name]
    if os.sep in name or shutil.which(name):
        if not shutil.which(name):
            raise SolverNotAvailable(f"SAT solver {name!r} is not an executable file")
        return Binary(name)
    raise InputError(
        f"unknown SAT solver {name!r}; valid: {', '.join(SAT_SOLVERS)}, or any DIMACS solver on PATH"
    )


def available_sat_solvers() -> list[str]:
    return [name for name, solver in SAT_SOLVERS.items() if solver.available()]


# ------------------------------------------------------------------------------------------ solving


def solve_clauses(clauses: Sequence[Clause], num_vars: int, solver: str = DEFAULT_SAT_SOLVER,
                  time_limit: float | None = None) -> SatOutcome:
    """Solve a CNF with a named solver; ``time_limit`` in seconds (None: no limit)."""
    if time_limit is not None and time_limit <= 0:
        raise InputError(f"time limit must be a positive number of seconds, not {time_limit:g}")
    return get_sat_solver(solver).solve(clauses, num_vars, time_limit)


def solve_sat(problem: Problem | int, encoding: str = DEFAULT_ENCODING, solver: str = DEFAULT_SAT_SOLVER,
              time_limit: float | None = None, cnf: CNF | None = None) -> SolveResult:
    """Build (or reuse) the CNF, solve it, decode and independently verify the board."""
    if not isinstance(problem, Problem):
        problem = Problem(problem)
    backend = get_sat_solver(solver)
    backend.require()
    start = time.perf_counter()
    if cnf is None:
        cnf = build_cnf(problem, encoding)
    build_seconds = time.perf_counter() - start
    outcome = backend.solve(cnf.clauses, cnf.num_vars, time_limit)
    status = {"sat": "solved", "unsat": "infeasible", "timeout": "timeout"}[outcome.status]
    result = SolveResult(
        n=problem.n, method="sat", status=status, variant=cnf.encoding, solver=backend.name,
        preplaced=problem.preplaced, variables=cnf.num_vars, clauses=cnf.num_clauses,
        build_seconds=build_seconds, solve_seconds=outcome.seconds, stats=outcome.stats,
    )
    if outcome.status == "sat":
        result.queens = cnf.decode(outcome.model or [])
    elif status == "infeasible":
        result.message = _infeasible_message(problem)
    else:
        result.message = f"no answer within the time limit of {time_limit:g} s"
    return result.check()


def _infeasible_message(problem: Problem) -> str:
    if problem.preplaced:
        return f"the pre-placed queens cannot be completed to a solution of {problem.n}-queens"
    return f"{problem.n}-queens has no solution (only n = 2 and n = 3 have none)"


# ---------------------------------------------------------------------------------------- counting


#: How many rows the enumeration fixes per sub-problem (see :func:`_cubes`).
CUBE_ROWS = 3


def _cubes(problem: Problem, depth: int | None = None) -> list[tuple[list[int], bool]]:
    """Split the search on the queens of the first rows: ``(unit literals, mirrored)`` per sub-problem.

    Each sub-problem fixes one non-attacking placement of the first ``depth`` rows (consistent with any
    pre-placed queens), so each solver call holds few solutions and few blocking clauses.  Without
    pre-placed queens the left-right mirror maps row-1 column c to n+1-c, so only the left half is searched
    and each board found there stands for itself and its (distinct) mirror image.
    """
    n = problem.n
    if depth is None:
        depth = CUBE_ROWS if n >= 8 else 1
    depth = min(depth, n)
    fixed = dict(problem.preplaced)
    use_mirror = not problem.preplaced and n > 1
    cubes: list[tuple[list[int], bool]] = []

    def extend(prefix: list[tuple[int, int]], mirrored: bool) -> None:
        row = len(prefix) + 1
        if row > depth:
            cubes.append(([problem.var(r, c) for r, c in prefix], mirrored))
            return
        columns = [fixed[row]] if row in fixed else range(1, n + 1)
        for col in columns:
            if row == 1 and use_mirror and col > (n + 1) // 2:
                continue
            cell = (row, col)
            if any(attacks(cell, other) for other in prefix) or any(
                attacks(cell, other) for other in problem.preplaced
            ):
                continue
            extend(prefix + [cell], use_mirror and 2 * col != n + 1 if row == 1 else mirrored)

    extend([], False)
    return cubes


def _enumerate_cube(cnf: CNF, units: list[int], solver: str) -> Iterator[Board]:
    """Every board of ``cnf`` with the unit literals added, each exactly once."""
    clauses = cnf.clauses + [[u] for u in units]
    n = cnf.n
    if solver == "pycosat" and (cnf.defined or cnf.num_vars == cnf.board_vars):
        # Every variable is a function of the board (no helpers, or defined helpers), so pycosat's own
        # blocking over all variables excludes exactly one board: incremental and exact.
        import pycosat

        for model in pycosat.itersolve(clauses, vars=cnf.num_vars):
            yield decode_model(model, n)
        return
    # A board has exactly one queen per row, so "not all of these n queens" excludes it and nothing
    # else, whatever the helper variables do.
    for model in _blocked_models(clauses, cnf.num_vars, get_sat_solver(solver), lambda m: _queens_block(m, n)):
        yield decode_model(model, n)


def _queens_block(model: Iterable[int], n: int) -> Clause:
    top = n * n
    return [-lit for lit in model if 0 < lit <= top]


def _blocked_models(clauses: Sequence[Clause], num_vars: int, backend: SatSolver,
                    block: Callable[[list[int]], Clause]) -> Iterator[list[int]]:
    """Every model up to ``block``: after each one, add ``block(model)`` and solve again.

    PySAT solvers take the blocking clause incrementally; any other solver is called afresh per model.
    """
    if isinstance(backend, PySat):
        from pysat.solvers import Solver

        with Solver(name=backend.backend, bootstrap_with=clauses) as sat:
            while sat.solve():
                model = sat.get_model()
                yield model
                sat.add_clause(block(model))
        return
    clauses = list(clauses)
    while True:
        outcome = backend.solve(clauses, num_vars)
        if outcome.status != "sat":
            return
        model = outcome.model or []
        yield model
        clauses.append(block(model))


def iter_solutions(problem: Problem | int, encoding: str = DEFAULT_ENCODING,
                   solver: str = DEFAULT_SAT_SOLVER) -> Iterator[Board]:
    """Every solution board of the problem, each exactly once, found by SAT."""
    if not isinstance(problem, Problem):
        problem = Problem(problem)
    get_sat_solver(solver).require()
    cnf = build_cnf(problem, encoding, define=solver == "pycosat")
    n = problem.n
    for units, mirrored in _cubes(problem):
        for board in _enumerate_cube(cnf, units, solver):
            yield board
            if mirrored:
                yield transform(n, board, "mirror left-right")


def count_solutions(problem: Problem | int, encoding: str = DEFAULT_ENCODING, solver: str = DEFAULT_SAT_SOLVER,
                    fundamental: bool = False, progress: Callable[[int], None] | None = None) -> CountResult:
    """Count solutions by SAT enumeration (and the fundamental ones, up to symmetry, if asked).

    ``progress`` is called with the running count now and then (for progress bars).
    """
    if not isinstance(problem, Problem):
        problem = Problem(problem)
    start = time.perf_counter()
    count = 0
    classes: set[Board] = set()
    for board in iter_solutions(problem, encoding, solver):
        count += 1
        if fundamental:
            classes.add(canonical(problem.n, board))
        if progress is not None and count % 256 == 0:
            progress(count)
    return CountResult(
        n=problem.n, count=count, method="sat", variant=encoding, solver=solver,
        fundamental=len(classes) if fundamental else None, seconds=time.perf_counter() - start,
        preplaced=problem.preplaced,
    )


def count_projected(clauses: Sequence[Clause], num_vars: int, n: int, solver: str = DEFAULT_SAT_SOLVER,
                    limit: int | None = None) -> tuple[int, list[Board]]:
    """Count the distinct assignments of variables 1..n² over all models of a foreign formula.

    The formula may hold helper variables above n²; each model is blocked on all n² of its board literals,
    so each distinct board-variable assignment is counted once whatever the formula says.  ``limit`` stops
    after that many.  Returns the count and the boards (the true board variables of each assignment).
    """
    top = n * n
    if num_vars < top:
        raise InputError(f"the formula has {num_vars} variables, fewer than the {top} board variables of n = {n}")
    backend = get_sat_solver(solver)
    backend.require()
    models = _blocked_models(clauses, num_vars, backend, lambda m: _projected_block(m, top))
    boards = [decode_model(model, n) for model in islice(models, limit)]
    return len(boards), boards


def _projected_block(model: Iterable[int], top: int) -> Clause:
    return [-lit for lit in model if 0 < abs(lit) <= top]
