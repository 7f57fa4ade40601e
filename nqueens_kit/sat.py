"""The SAT method: build the CNF, solve it, decode and verify; enumerate boards; count a foreign formula.

Inside:

- :func:`solve_here`: an N-queens :class:`~nqueens_kit.board.Problem` to a verified
  :class:`~nqueens_kit.results.SolveResult`, in this process (the time-limited, stoppable version is
  :func:`nqueens_kit.methods.solve`).
- :func:`iter_boards`: every board, each exactly once whatever the encoding.  Incremental solvers (PySAT)
  and DIMACS binaries block each board on its board variables only; pycosat, whose ``itersolve`` blocks
  over *all* variables, gets the formula with defined helpers (``build_cnf(define=True)``), where each
  board has exactly one model.  The search is split on the first rows' queens (:func:`cubes`) and uses the
  left-right mirror.
- :func:`iter_projected`: the distinct assignments of the board variables 1..n² over all models of any
  formula (``nqueens-kit count --from-cnf``).

The solvers themselves are in :mod:`nqueens_kit.solvers`.

>>> solve_here(Problem(8)).status, solve_here(Problem(3)).status
('solved', 'infeasible')
>>> sum(1 for _ in iter_boards(Problem(6), "sequential"))
4
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator, Sequence

from .board import Board, Problem, attacks, transform
from .cnf import CNF, build_cnf, decode_model
from .encodings import Clause
from .errors import InputError, SolverError
from .results import SolveResult, Status
from .solvers import SatSolver, get_solver
from .solvers.embedded import Pycosat


def _backend(solver: str | None) -> SatSolver:
    backend = get_solver("sat", solver).require()
    assert isinstance(backend, SatSolver)
    return backend


def infeasible_message(problem: Problem) -> str:
    if problem.preplaced:
        return f"the pre-placed queens cannot be completed to a solution of {problem.n}-queens"
    return f"{problem.n}-queens has no solution (only n = 2 and n = 3 have none)"


def solve_here(problem: Problem, encoding: str | None = None, solver: str | None = None,
               deadline: float | None = None, cnf: CNF | None = None, order: int | None = None) -> SolveResult:
    """Build (or reuse) the CNF, solve it, decode and independently verify the board, in this process.

    ``deadline`` (``time.monotonic()`` seconds) is passed to solvers that can stop themselves.  ``order``
    renumbers the variables and shuffles the clauses and their literals (:func:`permuted`) before solving.
    """
    backend = _backend(solver)
    start = time.perf_counter()
    if cnf is None:
        cnf = build_cnf(problem, encoding) if encoding is not None else build_cnf(problem)
    clauses, renumber = (cnf.clauses, None) if order is None else permuted(cnf.clauses, cnf.num_vars, order)
    build_seconds = time.perf_counter() - start
    outcome = backend.solve(clauses, cnf.num_vars, deadline)
    if renumber is not None and outcome.model:
        back = {new: old for old, new in enumerate(renumber, start=1)}
        outcome.model = [back[abs(lit)] * (1 if lit > 0 else -1) for lit in outcome.model if abs(lit) in back]
    status = {"sat": Status.SOLVED, "unsat": Status.INFEASIBLE}.get(outcome.status, Status.TIMEOUT)
    result = SolveResult(
        n=problem.n, method="sat", status=status, variant=cnf.encoding, solver=backend.name,
        preplaced=problem.preplaced, variables=cnf.num_vars, clauses=cnf.num_clauses,
        build_seconds=build_seconds, solve_seconds=outcome.seconds, stats=outcome.stats,
    )
    if outcome.status == "sat":
        result.queens = cnf.decode(outcome.model or [])
    elif status == Status.INFEASIBLE:
        result.message = infeasible_message(problem)
    elif deadline is None:
        said = outcome.stats.get("solver_said", "UNKNOWN")
        result.status = Status.ERROR
        result.message = f"{backend.name} stopped without an answer (it said {said})"
    else:
        result.message = "no answer within the time limit"
    return result.check()


def permuted(clauses: Sequence[Clause], num_vars: int, order: int) -> tuple[list[Clause], list[int]]:
    """The same formula renumbered and reordered by the seed ``order``: variable v becomes ``renumber[v - 1]``,
    and the clauses and the literals in each are shuffled.  Another instance of one problem for a solver,
    whose heuristics depend on the order (the same on every machine for the same seed).

    >>> clauses, renumber = permuted([[1, 2], [-1]], 2, order=3)
    >>> sorted(sorted(abs(lit) for lit in c) for c in clauses) == sorted([sorted(renumber), [renumber[0]]])
    True
    """
    import random

    rng = random.Random(f"nqueens-kit-order:{order}")
    renumber = list(range(1, num_vars + 1))
    rng.shuffle(renumber)
    out = [[renumber[abs(lit) - 1] * (1 if lit > 0 else -1) for lit in clause] for clause in clauses]
    for clause in out:
        rng.shuffle(clause)
    rng.shuffle(out)
    return out, renumber


# -------------------------------------------------------------------------------------- enumeration


#: How many rows the enumeration fixes per sub-problem (see :func:`cubes`).
CUBE_ROWS = 3


def cubes(problem: Problem, depth: int | None = None) -> list[tuple[list[int], bool]]:
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
    found: list[tuple[list[int], bool]] = []

    def extend(prefix: list[tuple[int, int]], mirrored: bool) -> None:
        row = len(prefix) + 1
        if row > depth:
            found.append(([problem.var(r, c) for r, c in prefix], mirrored))
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
    return found


def _cube_boards(cnf: CNF, units: list[int], backend: SatSolver) -> Iterator[Board]:
    """Every board of ``cnf`` with the unit literals added, each exactly once."""
    clauses = cnf.clauses + [[u] for u in units]
    n = cnf.n
    if isinstance(backend, Pycosat) and (cnf.defined or cnf.num_vars == cnf.board_vars):
        # Every variable is a function of the board (no helpers, or defined helpers), so pycosat's own
        # blocking over all variables excludes exactly one board: incremental and exact.
        for model in backend.all_models(clauses, cnf.num_vars):
            yield decode_model(model, n)
        return
    # A board has exactly one queen per row, so "not all of these n queens" excludes it and nothing
    # else, whatever the helper variables do.
    for model in backend.models(clauses, cnf.num_vars, lambda m: _queens_block(m, n)):
        yield decode_model(model, n)


def _queens_block(model: Iterable[int], n: int) -> Clause:
    top = n * n
    return [-lit for lit in model if 0 < lit <= top]


def iter_boards(problem: Problem, encoding: str | None = None, solver: str | None = None) -> Iterator[Board]:
    """Every solution board of the problem, each exactly once, found by SAT (not yet verified: the
    method layer verifies every board it counts)."""
    backend = _backend(solver)
    define = isinstance(backend, Pycosat)
    cnf = build_cnf(problem, encoding, define=define) if encoding is not None else build_cnf(problem, define=define)
    n = problem.n
    for units, mirrored in cubes(problem):
        for board in _cube_boards(cnf, units, backend):
            if not {problem.cell(u) for u in units} <= set(board):
                raise SolverError(f"{backend.name} returned a board outside the sub-problem it was given "
                                 f"({len(units)} fixed queens); the solver is not trustworthy here")
            yield board
            if mirrored:
                yield transform(n, board, "mirror left-right")


# ------------------------------------------------------------------------------- foreign formulas


def iter_projected(clauses: Sequence[Clause], num_vars: int, n: int, solver: str | None = None) -> Iterator[Board]:
    """The distinct assignments of variables 1..n² over all models of a formula, as boards (the true board
    variables of each); the formula may hold helper variables above n² and need not be N-queens at all.

    Linear in the number of assignments: with no helpers, pycosat's incremental ``itersolve`` is exact;
    incremental solvers (PySAT) take each blocking clause as it comes; otherwise the search is split on the
    cells of the first two rows (per row a decision list: cell 1 true; cell 1 false and cell 2 true; ...;
    all false), a disjoint cover of every assignment, so each solver call holds few blocking clauses.
    """
    top = n * n
    if num_vars < top:
        raise InputError(f"the formula has {num_vars} variables, fewer than the {top} board variables of n = {n}")
    backend = _backend(solver)
    if isinstance(backend, Pycosat) and num_vars == top:
        for model in backend.all_models(clauses, num_vars):
            yield decode_model(model, n)
        return
    if backend.capabilities.incremental:
        for model in backend.models(clauses, num_vars, lambda m: _projected_block(m, top)):
            yield decode_model(model, n)
        return
    for cube in _partition(n, rows=min(2, n)):
        extended = list(clauses) + [[lit] for lit in cube]
        for model in backend.models(extended, num_vars, lambda m: _projected_block(m, top)):
            yield decode_model(model, n)


def _partition(n: int, rows: int) -> Iterator[list[int]]:
    """Disjoint cubes covering every assignment of the first ``rows`` rows' variables: per row, the decision
    list x1; ¬x1 x2; ...; ¬x1 ... ¬xn (n + 1 cubes), and every combination of those across the rows."""
    if rows == 0:
        yield []
        return
    row = rows
    first = (row - 1) * n + 1
    choices = [[-v for v in range(first, var)] + [var] for var in range(first, first + n)]
    choices.append([-v for v in range(first, first + n)])
    for head in _partition(n, rows - 1):
        for choice in choices:
            yield head + choice


def _projected_block(model: Iterable[int], top: int) -> Clause:
    return [-lit for lit in model if 0 < abs(lit) <= top]
