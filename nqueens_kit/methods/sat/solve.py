"""The SAT method: build the CNF, solve it, decode and verify; enumerate boards; count a foreign formula.

Inside:

- :func:`solve_here`: an N-queens :class:`~nqueens_kit.problem.board.Problem` to a verified
  :class:`~nqueens_kit.problem.results.SolveResult`, in this process (the time-limited, stoppable version is
  :func:`nqueens_kit.methods.solve`).
- :func:`iter_boards`: every board, each exactly once whatever the encoding.  The search is split on the
  queens of a few rows (:func:`cubes`, up to the symmetries that keep the first and last rows at the
  ends), and each sub-problem is encoded over the cells those queens leave open
  (:func:`~nqueens_kit.methods.sat.cnf.build_residual`).  Incremental solvers (PySAT) and DIMACS binaries block each
  board on its board variables only; pycosat, whose ``itersolve`` blocks over *all* variables, gets the
  helpers defined (``define=True``), so each board has exactly one model.

The solvers themselves are in :mod:`nqueens_kit.solvers`.

>>> solve_here(Problem(8)).status, solve_here(Problem(3)).status
('solved', 'infeasible')
>>> sum(1 for _ in iter_boards(Problem(6), "sequential"))
4
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator, Sequence

from ...problem.board import SYMMETRIES, Board, Cell, Problem, attacks, transform
from ...problem.results import Answer, SolveResult, Status
from ...solvers import SatSolver, get_solver
from ...solvers.embedded import Pycosat
from ..base import infeasible_message
from .cnf import CNF, Residual, build_cnf, build_residual
from .encodings import DEFAULT_ENCODING, Clause, get_encoding


def _backend(solver: str | None) -> SatSolver:
    backend = get_solver("sat", solver).require()
    assert isinstance(backend, SatSolver)
    return backend


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
    status = Answer(outcome.status).status
    result = SolveResult.of(problem, "sat", status, variant=cnf.encoding, variant_kind="encoding",
                            solver=backend.name, variables=cnf.num_vars, clauses=cnf.num_clauses,
                            build_seconds=build_seconds, solve_seconds=outcome.seconds, stats=outcome.stats)
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

#: The symmetries of the square that keep the first and last rows as the first and last rows.
ROW_END_SYMMETRIES = ("identity", "mirror left-right", "mirror top-bottom", "rotate 180")


def cubes(problem: Problem, depth: int | None = None) -> list[tuple[list[int], tuple[str, ...]]]:
    """Split the search into sub-problems: ``(unit literals, images)`` per sub-problem.

    Each sub-problem fixes one non-attacking placement of ``depth`` rows (consistent with any pre-placed
    queens), so each solver call holds few solutions and few blocking clauses.  ``images`` names the
    symmetries (of :data:`~nqueens_kit.problem.board.SYMMETRIES`) that turn each board found there into the boards
    it stands for, ``"identity"`` first.

    With pre-placed queens or blocked cells the first ``depth`` rows are fixed and every sub-problem stands for
    itself.
    Without, the four symmetries that keep the first and last rows at the ends (:data:`ROW_END_SYMMETRIES`)
    act on the pair (first-row column, last-row column); one pair per orbit is searched, with rows 1, n,
    2, 3, ... fixed (at least two), and each board found stands for its images under the symmetries that
    carry its pair to the other pairs of the orbit: every board of the problem is found or made exactly once.
    """
    n = problem.n
    if depth is None:
        depth = CUBE_ROWS if n >= 8 else 1
    depth = max(1, min(depth, n))
    if not problem.plain or n < 4:
        rows = list(range(1, depth + 1))
        return [(units, ("identity",)) for units in _placements(problem, rows, {})]
    rows = [1, n] + list(range(2, n))[: max(0, depth - 2)]
    found: list[tuple[list[int], tuple[str, ...]]] = []
    for a in range(1, n + 1):
        for b in range(1, n + 1):
            if a == b or abs(a - b) == n - 1:
                continue  # the two queens would attack each other
            images: dict[tuple[int, int], str] = {}
            for name in ROW_END_SYMMETRIES:
                images.setdefault(_end_pair(name, n, a, b), name)
            if min(images) != (a, b):
                continue  # another pair of the orbit is searched instead
            names = tuple(images.values())
            found += [(units, names) for units in _placements(problem, rows, {1: a, n: b})]
    return found


def _end_pair(symmetry: str, n: int, a: int, b: int) -> tuple[int, int]:
    """Where a symmetry of :data:`ROW_END_SYMMETRIES` takes the (first-row, last-row) columns."""
    first, last = sorted(transform(n, [(1, a), (n, b)], symmetry))
    return first[1], last[1]


def _placements(problem: Problem, rows: list[int], given: dict[int, int]) -> list[list[int]]:
    """The board variables of every non-attacking placement of queens on ``rows`` (in that order) that keeps
    the columns ``given`` for some rows and the pre-placed queens."""
    fixed = dict(problem.preplaced) | given
    closed = set(problem.blocked)
    found: list[list[int]] = []

    def extend(prefix: list[Cell]) -> None:
        if len(prefix) == len(rows):
            found.append([problem.var(r, c) for r, c in prefix])
            return
        row = rows[len(prefix)]
        for col in [fixed[row]] if row in fixed else range(1, problem.n + 1):
            cell = (row, col)
            if cell in closed:
                continue
            if not any(attacks(cell, other) for other in prefix) and not any(
                    attacks(cell, other) for other in problem.preplaced):
                extend(prefix + [cell])

    extend([])
    return found


def _cube_boards(residual: Residual, backend: SatSolver) -> Iterator[Board]:
    """Every board of one sub-problem, each exactly once."""
    if not residual.cells:  # the fixed queens fill the board
        yield residual.queens
        return
    top = len(residual.cells)
    if isinstance(backend, Pycosat):
        # Every variable is a function of the board (no helpers, or defined helpers), so pycosat's own
        # blocking over all variables excludes exactly one board: incremental and exact.
        models = backend.all_models(residual.clauses, residual.num_vars)
    else:
        # A board has exactly one queen per open row, so "not all of these queens" excludes it and
        # nothing else, whatever the helper variables do.
        models = backend.models(residual.clauses, residual.num_vars,
                                lambda m: [-lit for lit in m if 0 < lit <= top])
    # In-process solvers list a model as variables 1, 2, ... in order: the cells come first.
    ordered = backend.capabilities.in_process
    for model in models:
        yield residual.board(model[:top] if ordered else model)


def iter_boards(problem: Problem, encoding: str | None = None, solver: str | None = None) -> Iterator[Board]:
    """Every solution board of the problem, each exactly once, found by SAT (not yet verified: the
    method layer verifies every board it counts).

    Cube and conquer: each placement of a few rows' queens (:func:`cubes`) is a sub-problem whose
    formula (:func:`~nqueens_kit.methods.sat.cnf.build_residual`) is the chosen encoding over the cells those
    queens leave open, so the solver never sees a dead cell; pycosat gets the helpers defined.  With the
    symmetry broken, the whole formula with its lex-leader clauses is enumerated at once."""
    backend = _backend(solver)
    define = isinstance(backend, Pycosat)
    encoding = DEFAULT_ENCODING if encoding is None else encoding
    get_encoding(encoding)  # a bad name fails before any work
    n = problem.n
    if problem.break_symmetry:  # the lex-leader clauses span the whole board: one formula, no cubes
        cnf = build_cnf(problem, encoding, define)
        cells = [problem.cell(v) for v in range(1, n * n + 1)]
        yield from _cube_boards(Residual((), cells, cnf.clauses, cnf.num_vars), backend)
        return
    lines = problem.lines()
    symmetry = dict(SYMMETRIES)
    for units, names in cubes(problem):
        images = [symmetry[name] for name in names[1:]]
        residual = build_residual(problem, [problem.cell(u) for u in units], encoding, define, lines)
        if residual is None:
            continue
        for board in _cube_boards(residual, backend):
            yield board
            for f in images:
                yield tuple(sorted(f(n, r, c) for r, c in board))
