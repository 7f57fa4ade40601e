"""Counting the boards of any formula (``nqueens-kit count --from-cnf FILE``): a SAT-only verb.

- :func:`iter_projected`: the distinct assignments of the board variables 1..n² over all models of a formula
  (which may hold helper variables above n² and need not be N-queens at all).
- :func:`count_formula`: that count in a child process under a time limit, each board checked by
  :func:`~nqueens_kit.problem.board.verify` (invalid ones are counted apart).

>>> count_formula([[1, 2, 3, 4]], 4, 2)[0].count
15
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from ...errors import InputError, SolverError
from ...problem.board import Board, canonical, violations
from ...problem.results import CountResult, Status
from ...runtime import isolate
from ...runtime.limits import SAT_BYTES_PER_CLAUSE, Size, check_size, check_time_limit
from ...solvers import SAT_SOLVERS, get_solver
from ...solvers.embedded import Pycosat
from ..base import board_key, board_text, cells_key
from .cnf import decode_model
from .encodings import Clause
from .solve import _backend


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


def _count_formula_job(clauses: list[list[int]], num_vars: int, n: int, solver: str | None,
                       fundamental: bool) -> tuple[int, int | None, int]:
    seen = classes = invalid = 0
    keys: set[bytes] = set()
    fundamentals: set[bytes] = set()
    last = time.monotonic()
    for board in iter_projected(clauses, num_vars, n, solver):
        key = cells_key(board)
        if key in keys:
            raise SolverError(f"{solver or 'the solver'} returned the board assignment {board_text(board)} twice")
        keys.add(key)
        seen += 1
        if violations(n, board):
            invalid += 1
        elif fundamental:
            fundamentals.add(board_key(canonical(n, board)))
        now = time.monotonic()
        if now - last > 0.2:
            isolate.report((seen, len(fundamentals) if fundamental else None))
            last = now
    classes = len(fundamentals)
    return seen, (classes if fundamental else None), invalid


def count_formula(clauses: list[list[int]], num_vars: int, n: int, solver: str | None = None, *,
                  fundamental: bool = False, time_limit: Any = None, max_memory: Any = None,
                  progress: Callable[[int, int | None], None] | None = None) -> tuple[CountResult, int]:
    """Count the distinct assignments of the board variables 1..n² over the models of any formula (e.g. a
    DIMACS file); returns the count and how many of those boards are not valid n-queens solutions.

    Without a named solver, an incremental one (python-sat's CaDiCaL) is used where installed, else pycosat.

    Runs in a child process, so the time limit (a lower bound on timeout) and Ctrl-C hold.
    """
    limit = check_time_limit(time_limit)
    if solver is None:  # blocking clauses go best into a solver that keeps its state: python-sat's, if here
        solver = next((name for name, s in SAT_SOLVERS.items() if s.capabilities.incremental and s.available()),
                      None)
    backend = get_solver("sat", solver).require()
    check_size(Size(num_vars, clauses=len(clauses), memory=SAT_BYTES_PER_CLAUSE * len(clauses)),
               "the formula", "count a smaller formula", max_memory)
    start = time.monotonic()
    result = CountResult(n=n, count=0, method="sat", solver=backend.name)
    run = isolate.run_in_child(_count_formula_job, (clauses, num_vars, n, backend.name, fundamental),
                               time_limit=limit, on_message=(lambda m: progress(*m)) if progress else None)
    invalid = 0
    if run.status == "done":
        result.count, result.fundamental, invalid = run.value
    elif run.status == "failed":
        run.raise_error()
    else:
        result.status = Status.TIMEOUT if run.status == "timeout" else Status.MEMOUT
        result.count, result.fundamental = run.progress or (0, 0 if fundamental else None)
        result.note = f"a lower bound: {result.count:,} board assignments were found before the limit"
    result.seconds = time.monotonic() - start
    return result, invalid
