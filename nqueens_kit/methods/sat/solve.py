"""The SAT method: build the CNF, solve it, decode and verify; enumerate boards; count a foreign formula.

Inside:

- :func:`solve_here`: an N-queens :class:`~nqueens_kit.problem.board.Problem` to a verified
  :class:`~nqueens_kit.problem.results.SolveResult`, in this process (the time-limited, stoppable version is
  :func:`nqueens_kit.methods.solve`).
- :func:`iter_boards`: every board, each exactly once whatever the encoding.  The bare problem is split
  on the queens of its border (:func:`border_cubes`: one configuration of the first and last rows and
  columns per orbit under the 8 symmetries of the square), and each board found stands for its images
  (:func:`border_images`); with pre-placed queens or blocked cells, on the queens of a few rows
  (:func:`cubes`).  Each sub-problem is encoded over the cells its queens leave open
  (:func:`~nqueens_kit.methods.sat.cnf.build_residual`).  Incremental solvers (PySAT) and DIMACS binaries block each
  board on its board variables only; pycosat, whose ``itersolve`` blocks over *all* variables, gets the
  helpers defined (``define=True``), so each board has exactly one model.
- :func:`count_boards`: the count, from the boards of the border cubes alone, each counted for its orbit's
  share (its images are not built), every board found verified.

The solvers themselves are in :mod:`nqueens_kit.solvers`.

>>> solve_here(Problem(8)).status, solve_here(Problem(3)).status
('solved', 'infeasible')
>>> sum(1 for _ in iter_boards(Problem(6), "sequential"))
4
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from ...errors import SolverError
from ...problem.board import SYMMETRIES, Board, Cell, Line, Problem, attacks, canonical, transform, violations
from ...problem.results import Answer, SolveResult, Status
from ...solvers import SatSolver, get_solver
from ...solvers.embedded import Pycosat
from ...solvers.python_sat import PySat
from ..base import board_key, board_text, infeasible_message
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
    built = time.perf_counter()
    formula: Any
    renumber = None
    if order is not None:
        formula, renumber = permuted(cnf.clauses, cnf.num_vars, order)
    elif backend.takes_packed and not cnf.has_list():
        formula = cnf.packed  # built as arrays, handed over as arrays: no list of lists is made
    else:
        formula = cnf.clauses  # made from the arrays here if it was built as arrays
    build_seconds = built - start
    listing = time.perf_counter() - built  # part of the hand-over: the list of lists an in-process solver takes
    outcome = backend.solve(formula, cnf.num_vars, deadline)
    handed = outcome.stats.get("handover_seconds")
    if isinstance(handed, (int, float)):
        outcome.stats["handover_seconds"] = round(handed + listing, 6)
    outcome.seconds += listing
    if renumber is not None and outcome.model:
        back = {new: old for old, new in enumerate(renumber, start=1)}
        outcome.model = [back[abs(lit)] * (1 if lit > 0 else -1) for lit in outcome.model if abs(lit) in back]
    status = Answer(outcome.status).status
    result = SolveResult.of(problem, "sat", status, variant=cnf.encoding, variant_kind="encoding",
                            solver=backend.name, variables=cnf.num_vars, clauses=cnf.num_clauses,
                            build_seconds=build_seconds, solve_seconds=outcome.seconds, stats=outcome.stats)
    if outcome.status == "sat":
        decoding = time.perf_counter()
        result.queens = cnf.decode(outcome.model or [])
        result.stats["decode_seconds"] = round(time.perf_counter() - decoding, 6)
    elif status == Status.INFEASIBLE:
        result.message = infeasible_message(problem)
    elif outcome.stats.get("stopped") == "deadline" or deadline is not None and time.monotonic() >= deadline:
        result.status = Status.TIMEOUT  # the kit's limit stopped it, whatever the solver said
        result.message = "no answer within the time limit"
    else:  # status unknown: the solver's own word, before the kit's limit
        said = outcome.stats.get("solver_said")
        result.message = f"{backend.name} stopped without an answer" + (f" (it said {said!r})" if said else "")
    checking = time.perf_counter()
    result.check()
    if result.status == Status.SOLVED:
        result.stats["verify_seconds"] = round(time.perf_counter() - checking, 6)
    return result


def permuted(clauses: Sequence[Clause], num_vars: int, order: int) -> tuple[list[Clause], list[int]]:
    """The same formula renumbered and reordered by the seed ``order``: variable v becomes ``renumber[v - 1]``,
    and the clauses and the literals in each are shuffled.  Another instance of one problem for a solver,
    whose heuristics depend on the order (the same on every machine for the same seed).

    >>> clauses, renumber = permuted([[1, 2], [-1]], 2, order=3)
    >>> sorted(sorted(abs(lit) for lit in c) for c in clauses) == sorted([sorted(renumber), [renumber[0]]])
    True
    """
    import random  # only for reordered instances (benchmarks)

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
        # nothing else, whatever the helper variables do.  A solver that cannot take a clause after a
        # solve (Kissat through python-sat) solves afresh each time (its ``models`` says how).
        models = backend.models(residual.clauses, residual.num_vars,
                                lambda m: [-lit for lit in m if 0 < lit <= top])
    # In-process solvers list a model as variables 1, 2, ... in order: the cells come first.
    ordered = backend.capabilities.in_process
    for model in models:
        yield residual.board(model[:top] if ordered else model)


def iter_boards(problem: Problem, encoding: str | None = None, solver: str | None = None) -> Iterator[Board]:
    """Every solution board of the problem, each exactly once, found by SAT (not yet verified: the
    method layer verifies every board it counts).

    Cube and conquer.  The bare problem (n >= 4) is split on its border queens (:func:`border_cubes`): one
    configuration per orbit under the 8 symmetries of the square is searched, and each board found there is
    yielded with its images under :func:`border_images` (one symmetry per other configuration of the orbit).
    With pre-placed queens or blocked cells, each placement of a few rows' queens (:func:`cubes`) is a
    sub-problem of its own.  Either way each sub-problem's formula
    (:func:`~nqueens_kit.methods.sat.cnf.build_residual`) is the chosen encoding over the cells its queens
    leave open, so the solver never sees a dead cell.  With the symmetry broken, the whole formula with its
    lex-leader clauses is enumerated at once."""
    backend = _backend(solver)
    encoding = DEFAULT_ENCODING if encoding is None else encoding
    get_encoding(encoding)  # a bad name fails before any work
    n = problem.n
    if problem.break_symmetry:  # the lex-leader clauses span the whole board: one formula, no cubes
        cnf = build_cnf(problem, encoding, isinstance(backend, Pycosat))
        cells = [problem.cell(v) for v in range(1, n * n + 1)]
        yield from _cube_boards(Residual((), cells, cnf.clauses, cnf.num_vars), backend)
        return
    if problem.plain and n >= BORDER_MIN_N:
        symmetry = dict(SYMMETRIES)
        images: dict[tuple[Cell, ...], list[Callable[[int, int, int], Cell]]] = {}
        for cube, board in _border_boards(problem, encoding, backend):
            if cube.queens not in images:
                images[cube.queens] = [symmetry[name] for name in border_images(n, cube.queens)[1:]]
            yield board
            for f in images[cube.queens]:
                yield tuple(sorted([f(n, r, c) for r, c in board]))
        return
    yield from _row_cube_boards(problem, encoding, backend)


def _row_cube_boards(problem: Problem, encoding: str, backend: SatSolver) -> Iterator[Board]:
    """Every board by the row cubes of :func:`cubes` (any problem), images included."""
    n = problem.n
    define = isinstance(backend, Pycosat)
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


# ------------------------------------------------------------------------- the border and its symmetry

#: From this n on, the bare problem is split on its border queens (below, rows and columns overlap too much).
BORDER_MIN_N = 4


@dataclass(frozen=True)
class BorderCube:
    """One orbit of border configurations: ``queens`` are the queens of the first and last rows and columns
    (2 to 4 cells: a corner queen serves a row and a column) of the orbit's least configuration, and
    ``weight`` is how many configurations the orbit holds (8 divided by the order of its stabiliser)."""

    queens: tuple[Cell, ...]
    weight: int


def border_cubes(n: int) -> list[BorderCube]:
    """The orbits of border configurations of n-queens (n >= 4) under the 8 symmetries of the square.

    Every board has exactly one queen in row 1 (column a), row n (column b), column 1 (row c) and column n
    (row d); a symmetry of the board permutes and reflects (a, b, c, d), so boards of one orbit have
    configurations of one orbit.  Why searching one configuration r per orbit and counting each board found
    there ``weight`` times counts every board once: the boards of one board orbit O whose configuration is r
    are one orbit of the stabiliser of r, of size |Stab(r)| / |Stab(B)|; times the weight 8 / |Stab(r)| that is
    8 / |Stab(B)| = |O|, boards fixed by a symmetry included.  The configuration of a board is its own, so the
    images of a board found under r have other configurations, never searched: nothing is counted twice.

    >>> [(c.queens, c.weight) for c in border_cubes(4)]
    [(((1, 1), (3, 4), (4, 2)), 8), (((1, 2), (2, 4), (3, 1), (4, 3)), 2)]
    >>> len(border_cubes(12)), sum(c.weight for c in border_cubes(12))  # orbits searched, configurations
    (730, 5730)
    >>> sum(c.weight for c in border_cubes(8)) == sum(1 for _ in _border_configurations(8))
    True
    """
    found: list[BorderCube] = []
    m = n + 1
    for a in range(1, m // 2 + 1):  # the least configuration has the least first coordinate
        low, high = a, m - a
        for b in range(low, high + 1):
            if b == a or abs(a - b) == n - 1:
                continue
            for c in range(low, high + 1):
                if (a == 1) != (c == 1) or (b == 1) != (c == n):
                    continue
                for d in range(low, high + 1):
                    if (a == n) != (d == 1) or (b == n) != (d == n):
                        continue
                    config = (a, b, c, d)
                    orbit = {config, (m - a, m - b, d, c), (b, a, m - c, m - d), (m - b, m - a, m - d, m - c),
                             (c, d, a, b), (d, c, m - a, m - b), (m - c, m - d, b, a), (m - d, m - c, m - b, m - a)}
                    if min(orbit) != config:
                        continue
                    queens = _border_queens(n, config)
                    if queens is not None:
                        found.append(BorderCube(queens, len(orbit)))
    return found


def _border_queens(n: int, config: tuple[int, int, int, int]) -> tuple[Cell, ...] | None:
    """The distinct cells of a border configuration (a, b, c, d), or None if two of them attack each other."""
    a, b, c, d = config
    cells = sorted({(1, a), (n, b), (c, 1), (d, n)})
    for i, (r, q) in enumerate(cells):
        for r2, q2 in cells[:i]:
            if r == r2 or q == q2 or r - q == r2 - q2 or r + q == r2 + q2:
                return None
    return tuple(cells)


def _border_configurations(n: int) -> Iterator[tuple[Cell, ...]]:
    """Every consistent, non-attacking border configuration (for checking :func:`border_cubes`)."""
    for a in range(1, n + 1):
        for b in range(1, n + 1):
            for c in range(1, n + 1):
                for d in range(1, n + 1):
                    if (a == 1) == (c == 1) and (a == n) == (d == 1) and (b == 1) == (c == n) and (b == n) == (d == n):
                        queens = _border_queens(n, (a, b, c, d))
                        if queens is not None:
                            yield queens


def border_images(n: int, queens: Sequence[Cell]) -> tuple[str, ...]:
    """Symmetries (names of :data:`~nqueens_kit.problem.board.SYMMETRIES`), ``"identity"`` first, one per
    distinct image of a border configuration: what turns the boards found under it into the boards of the
    other configurations of its orbit, each exactly once.

    >>> border_images(4, [(1, 2), (2, 4), (3, 1), (4, 3)])
    ('identity', 'mirror left-right')
    """
    seen: dict[frozenset[Cell], str] = {}
    for name, f in SYMMETRIES:
        seen.setdefault(frozenset(f(n, r, c) for r, c in queens), name)
    return tuple(seen.values())


#: From this n on, pycosat gets each cube's own residual formula when the encoding has helper variables
#: (below, building 730 formulas at n = 12 costs more than the smaller searches save).
PYCOSAT_OWN_FORMULA_N = 13


def _border_boards(problem: Problem, encoding: str, backend: SatSolver) -> Iterator[tuple[BorderCube, Board]]:
    """Every board of the bare problem whose border configuration is one of :func:`border_cubes`, each once,
    with its cube.

    The cubes are grouped by their first- and last-row queens (a *pair*), whose residual formula
    (:func:`~nqueens_kit.methods.sat.cnf.build_residual` of the two queens) most ways below share.  How the
    cubes reach the solver is what measured fastest for it (n = 12 to 14):

    - a python-sat solver that takes assumptions: one solver per pair, each cube's column queens assumed in
      turn (:func:`_assumed_parts`);
    - pycosat, encoding without helper variables: one ``itersolve`` per cube, on the pair's formula with the
      cube's column queens as unit clauses (PicoSAT slows down as the blocking clauses of many boards pile
      up in one call);
    - pycosat, encoding with helpers: each cube's own residual formula from n = :data:`PYCOSAT_OWN_FORMULA_N`
      on (fewer helpers, shorter blocking clauses, which span every variable); below, one ``itersolve`` per
      pair and first-column queen, on the residual of those three queens with the last-column queens of the
      configurations not searched excluded (:func:`_excluding_boards`);
    - any other solver (no assumptions, or a process per solve): one run per pair, on the pair's formula
      with the column placements of the configurations not searched excluded.

    Boards are listed as by :func:`iter_boards`: pycosat with helpers defined (one model per board), other
    solvers blocking each board on its open cells."""
    n = problem.n
    lines = problem.lines()
    pycosat = isinstance(backend, Pycosat)
    assumptions = isinstance(backend, PySat) and backend.capabilities.assumptions and backend.capabilities.incremental
    helpers = get_encoding(encoding).counts(n)[0] > 0
    groups: dict[tuple[Cell, ...], dict[tuple[int, int], BorderCube]] = {}
    for cube in border_cubes(n):
        column = {c: r for r, c in cube.queens}
        pair = tuple(cell for cell in cube.queens if cell[0] == 1 or cell[0] == n)
        groups.setdefault(pair, {})[column[1], column[n]] = cube
    for pair, group in groups.items():
        if pycosat and helpers:
            yield from _pycosat_helper_boards(problem, encoding, backend, pair, group, lines)
            continue
        residual = build_residual(problem, pair, encoding, pycosat, lines)
        if residual is None:
            continue
        if not (assumptions or pycosat):
            yield from _excluding_boards(residual, group, backend, n)
            continue
        number = {cell: v for v, cell in enumerate(residual.cells, start=1)}
        # each cube's column queens as variables of the pair's formula (a configuration's queens do not attack
        # each other, so the pair leaves their cells open; a closed one would mean no board)
        parts = [(cube, [number.get(cell, 0) for cell in cube.queens if cell not in pair]) for cube in group.values()]
        parts = [(cube, assumed) for cube, assumed in parts if 0 not in assumed]
        if assumptions:
            yield from _assumed_parts(residual, parts, backend)
            continue
        for cube, units in parts:
            formula = Residual(residual.queens, residual.cells, residual.clauses + [[v] for v in units],
                               residual.num_vars)
            yield from ((cube, board) for board in _cube_boards(formula, backend))


def _pycosat_helper_boards(problem: Problem, encoding: str, backend: SatSolver, pair: tuple[Cell, ...],
                           group: dict[tuple[int, int], BorderCube],
                           lines: list[Line]) -> Iterator[tuple[BorderCube, Board]]:
    """pycosat and an encoding with helpers: the boards of one pair's cubes (see :func:`_border_boards`)."""
    n = problem.n
    if n >= PYCOSAT_OWN_FORMULA_N:
        for cube in group.values():
            own = build_residual(problem, cube.queens, encoding, True, lines)
            if own is not None:
                yield from ((cube, board) for board in _cube_boards(own, backend))
        return
    by_first: dict[int, dict[tuple[int, int], BorderCube]] = {}
    for (c, d), cube in group.items():
        by_first.setdefault(c, {})[c, d] = cube
    for c, cubes_of_first in by_first.items():
        three = build_residual(problem, sorted({*pair, (c, 1)}), encoding, True, lines)
        if three is not None:
            yield from _excluding_boards(three, cubes_of_first, backend, n)


def _excluding_boards(residual: Residual, group: dict[tuple[int, int], BorderCube], backend: SatSolver,
                      n: int) -> Iterator[tuple[BorderCube, Board]]:
    """One solver run for the cubes of ``group`` (keyed by the rows of their first- and last-column queens),
    on the residual of the queens they share plus a clause excluding every other placement of the column
    queens (a unit clause when one of the two is fixed already); each board's column queens tell its cube."""
    number = {cell: v for v, cell in enumerate(residual.cells, start=1)}
    fixed = {c: r for r, c in residual.queens}
    firsts = [fixed[1]] if 1 in fixed else [r for r in range(2, n) if (r, 1) in number]
    lasts = [fixed[n]] if n in fixed else [r for r in range(2, n) if (r, n) in number]
    excluded = [[-number[cell] for cell in ((c, 1), (d, n)) if cell in number]
                for c in firsts for d in lasts if (c, d) not in group]
    if [] in excluded:
        return  # both column queens fixed already, and not a searched configuration
    formula = Residual(residual.queens, residual.cells, residual.clauses + excluded, residual.num_vars)
    for board in _cube_boards(formula, backend):
        column = {c: r for r, c in board}
        cube = group.get((column.get(1, 0), column.get(n, 0)))
        if cube is None:
            raise SolverError(f"{backend.name} returned a board its formula excludes (column queens not of a "
                              f"searched configuration): {board_text(board)[:80]}")
        yield cube, board


def _assumed_parts(residual: Residual, parts: list[tuple[BorderCube, list[int]]],
                   backend: SatSolver) -> Iterator[tuple[BorderCube, Board]]:
    """One python-sat solver for a pair's formula; each cube's column queens are assumptions, and each board
    found is blocked on its open cells (a blocked board stays blocked for the next cube: it is found already)."""
    from pysat.solvers import Solver

    assert isinstance(backend, PySat)
    top = len(residual.cells)
    solver = Solver(name=backend.backend, bootstrap_with=residual.clauses)
    try:
        for cube, assumed in parts:
            while solver.solve(assumptions=assumed):
                model = solver.get_model()[:top]
                yield cube, residual.board(model)
                solver.add_clause([-lit for lit in model if lit > 0])
    finally:
        solver.delete()


# --------------------------------------------------------------------------------------------- counting

#: Seconds between two progress reports of a count.
REPORT_SECONDS = 0.2


def count_boards(problem: Problem, encoding: str | None = None, solver: str | None = None,
                 fundamental: bool = False,
                 progress: Callable[[int, int | None], None] | None = None) -> tuple[int, int | None]:
    """``(boards, fundamental boards or None)`` by SAT, every board the solver finds verified and a board found
    twice a :class:`~nqueens_kit.errors.SolverError`; ``progress(count, fundamental so far)`` about five times
    a second.

    The bare problem is counted by its border cubes (:func:`border_cubes`): each board found counts for the
    configurations of its cube's orbit, and its images are neither built nor searched (the published counts
    check the total).  Otherwise every board of :func:`iter_boards` is counted.

    >>> count_boards(Problem(8)), count_boards(Problem(6), "sequential", fundamental=True)
    ((92, None), (4, 1))
    """
    backend = _backend(solver)
    encoding = DEFAULT_ENCODING if encoding is None else encoding
    get_encoding(encoding)
    n = problem.n
    who = solver or backend.name
    seen: set[bytes] = set()
    classes: set[bytes] = set()
    total = 0
    last = time.monotonic()
    border = problem.plain and not problem.break_symmetry and n >= BORDER_MIN_N
    found: Iterator[tuple[BorderCube | None, Board]] = (
        _border_boards(problem, encoding, backend) if border
        else ((None, board) for board in iter_boards(problem, encoding, solver)))
    for cube, board in found:
        if not problem.verify(board):
            wrong = violations(n, board, problem.preplaced, problem.blocked) or ["rejected by verify"]
            raise SolverError(f"{who} returned a board that is not a solution ({wrong[0]}): {board_text(board)[:80]}")
        if cube is not None and any(board[r - 1] != (r, c) for r, c in cube.queens):
            raise SolverError(f"{who} returned a board outside the sub-problem it was given (not the border queens "
                              f"{board_text(cube.queens)}): {board_text(board)[:80]}")
        if problem.break_symmetry and canonical(n, board) != board:
            raise SolverError(f"{who} let a board through that symmetry breaking excludes (not the canonical one of "
                              f"its orbit): {board_text(board)[:80]}")
        key = board_key(board)
        if key in seen:
            raise SolverError(f"{who} returned the board {board_text(board)} twice; the count cannot be trusted "
                              "(is the solver ignoring blocking clauses?)")
        seen.add(key)
        total += 1 if cube is None else cube.weight
        if fundamental:
            classes.add(board_key(canonical(n, board)))
        if progress is not None and time.monotonic() - last > REPORT_SECONDS:
            progress(total, len(classes) if fundamental else None)
            last = time.monotonic()
    return total, (len(classes) if fundamental else None)
