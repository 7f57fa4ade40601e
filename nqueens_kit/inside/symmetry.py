"""Symmetry breaking: constraints that keep exactly one board of every orbit of the 8 symmetries.

A board and its rotations and reflections are "the same" solution.  Counting them all and dividing is
wrong (symmetric boards have smaller orbits), and canonicalising after the fact still makes the solver find
all of them.  *Lex-leader* constraints (Crawford, Ginsberg, Luks and Roy, KR 1996) make the solver skip
them: read the board as the bit vector x of its cells in row-major order; for each symmetry s, demand
x >=lex s(x).  Exactly one board per orbit satisfies all seven: the one whose bit vector is largest, which
is :func:`nqueens_kit.problem.board.canonical` (its first queen as far left as possible, then the next ...).

The comparison x >=lex y is a chain of helper variables e_i = "x and y agree on the first i cells":

- e_{i-1} -> (x_i or not y_i)                         (while equal so far, y may not have a 1 where x has 0)
- e_i <-> e_{i-1} and (x_i <-> y_i)                   (defined exactly, so every board has one model)

in CNF (:func:`lex_leader_clauses`) and as linear constraints on binaries (:func:`add_lex_leader`).  Cells
that a symmetry fixes are skipped.  Pre-placed queens break the symmetry of the problem itself, so
symmetry breaking refuses them.

:func:`count_broken` counts the boards that survive (the fundamental solutions, OEIS A002562) by SAT or
ILP; :func:`solve_broken` finds one.

>>> count_broken(8, "sat").count, count_broken(6, "sat").count
(12, 1)
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

from ..errors import InputError, SolverError
from ..methods.sat.encodings import Clause
from ..problem.board import SYMMETRIES, Board, Cell, Problem, canonical, verify
from ..problem.results import CountResult, SolveResult, Status
from ..runtime import isolate
from ..runtime.limits import check_time_limit


def _pairs(n: int) -> Iterator[tuple[str, list[tuple[Cell, Cell]]]]:
    """Per symmetry s (the identity left out): the cells in row-major order, each with the cell whose value
    s(x) holds there (s moves the queen at q to s(q), so s(x) at p is x at s⁻¹(p)); fixed cells skipped."""
    cells = [(r, c) for r in range(1, n + 1) for c in range(1, n + 1)]
    for name, f in SYMMETRIES[1:]:
        inverse = {f(n, r, c): (r, c) for r, c in cells}
        yield name, [(p, inverse[p]) for p in cells if inverse[p] != p]


def require_empty_board(problem: Problem) -> None:
    if problem.preplaced:
        raise InputError("symmetry breaking needs an empty board: pre-placed queens already break the "
                         "symmetry of the problem (drop --place or --break-symmetry)")


def lex_leader_clauses(n: int, first_helper: int) -> tuple[list[Clause], int]:
    """The CNF of x >=lex s(x) for the 7 non-identity symmetries, with helpers numbered from
    ``first_helper``; returns the clauses and the last variable used."""
    clauses: list[Clause] = []
    top = first_helper - 1
    for _name, pairs in _pairs(n):
        previous: int | None = None  # e_0 is true
        for (xr, xc), (yr, yc) in pairs:
            x, y = (xr - 1) * n + xc, (yr - 1) * n + yc
            guard = [] if previous is None else [-previous]
            clauses.append([*guard, x, -y])
            top += 1
            e = top
            clauses += [[*guard, x, y, e], [*guard, -x, -y, e], [-e, -x, y], [-e, x, -y]]
            if previous is not None:
                clauses.append([-e, previous])
            previous = e
    return clauses, top


def add_lex_leader(model: Any) -> int:
    """Add x >=lex s(x) for the 7 symmetries to an :class:`~nqueens_kit.methods.ilp.model.IlpModel` (binaries e and six
    linear constraints per compared cell); returns how many constraints were added."""
    from ..solvers.ilp_pulp import pulp_module

    pulp = pulp_module()
    n = model.problem.n
    added = 0
    for k, (_name, pairs) in enumerate(_pairs(n)):
        previous: Any = 1
        for i, (p, q) in enumerate(pairs):
            x, y = model.x[p], model.x[q]
            if hasattr(model.prob, "add_variable"):  # PuLP 4: variables belong to the problem
                e = model.prob.add_variable(f"lex_{k}_{i}", 0, 1, "Binary")
            else:
                e = pulp.LpVariable(f"lex_{k}_{i}", 0, 1, cat="Binary")
            for constraint in (x - y >= previous - 1, e >= previous - x - y, e >= previous + x + y - 2,
                               e <= previous, e <= 1 - x + y, e <= 1 + x - y):
                model.prob.addConstraint(constraint, f"lex_{k}_{i}_{added % 6}")
                added += 1
            previous = e
    return added


# ------------------------------------------------------------------------------------------ counting


def _boards_sat(problem: Problem, encoding: str, solver: str | None) -> Iterator[Board]:
    from ..methods.sat.cnf import build_cnf
    from ..methods.sat.solve import iter_projected

    cnf = build_cnf(problem, encoding)
    extra, top = lex_leader_clauses(problem.n, cnf.num_vars + 1)
    yield from iter_projected(cnf.clauses + extra, top, problem.n, solver)


def _boards_ilp(problem: Problem, formulation: str, solver: str | None, settings: str | None) -> Iterator[Board]:
    from ..methods.ilp.model import iter_boards

    yield from iter_boards(problem, formulation, solver, settings, extend=add_lex_leader)


def _count_job(problem: Problem, method: str, variant: str, solver: str | None, settings: str | None,
               first_only: bool) -> tuple[int, list[Board], float]:
    start = time.perf_counter()
    boards = (_boards_sat(problem, variant, solver) if method == "sat"
              else _boards_ilp(problem, variant, solver, settings))
    found: list[Board] = []
    last = time.monotonic()
    for board in boards:
        board = tuple(sorted(board))
        if not verify(problem.n, board):
            raise SolverError(f"the {method} solver returned an invalid board under symmetry breaking: {board}")
        if canonical(problem.n, board) != board:
            raise SolverError(f"symmetry breaking let a non-canonical board through: {board}")
        found.append(board)
        if first_only:
            break
        if time.monotonic() - last > 0.2:
            isolate.report(len(found))
            last = time.monotonic()
    return len(found), found, time.perf_counter() - start


def _choose(method: str, variant: str | None, solver: str | None) -> tuple[str, str, str | None]:
    from ..methods import get_method

    if method not in ("sat", "ilp"):
        raise InputError(f"symmetry breaking is for --method sat or ilp, not {method!r}")
    choice = get_method(method).choose(variant, solver)
    assert choice.variant is not None
    return method, choice.variant, choice.solver


def _run(problem: Problem | int, method: str, variant: str | None, solver: str | None, time_limit: Any,
         settings: str | None, first_only: bool) -> tuple[Problem, str, str, str | None, Any, float]:
    """Check the request, run the search in a child process; the resolved names, the run and its wall time."""
    problem = problem if isinstance(problem, Problem) else Problem(problem)
    require_empty_board(problem)
    method, variant, solver = _choose(method, variant, solver)
    limit = check_time_limit(time_limit)
    start = time.monotonic()
    run = isolate.run_in_child(_count_job, (problem, method, variant, solver, settings, first_only),
                               time_limit=limit)
    if run.status != "done":
        run.raise_error()
    return problem, method, variant, solver, run, time.monotonic() - start


def count_broken(problem: Problem | int, method: str = "sat", variant: str | None = None, solver: str | None = None,
                 time_limit: Any = None, settings: str | None = None) -> CountResult:
    """Count the boards left by lex-leader symmetry breaking (each canonical, each verified): the number of
    fundamental solutions.  Runs in a child process under ``time_limit``; a stopped count is a lower bound.
    ``seconds`` is the time of the count itself (building and solving, measured in the child, so it
    compares with an in-process count); ``extra["wall_seconds"]`` includes starting the child."""
    problem, method, variant, solver, run, wall = _run(problem, method, variant, solver, time_limit, settings, False)
    result = CountResult(n=problem.n, count=0, method=method, variant=variant, solver=solver, seconds=wall)
    if run.status == "done":
        result.count, _boards, result.seconds = run.value
        result.fundamental = result.count
        result.note = "symmetry broken: one board per orbit of the 8 symmetries (lex-leader), each canonical"
    else:
        result.status = Status.TIMEOUT if run.status == "timeout" else Status.MEMOUT
        result.count = int(run.progress or 0)
        result.note = f"a lower bound: {result.count:,} boards were counted before the limit"
    result.extra.update(wall_seconds=wall, break_symmetry=True)
    return result


def solve_broken(problem: Problem | int, method: str = "sat", variant: str | None = None, solver: str | None = None,
                 time_limit: Any = None, settings: str | None = None) -> SolveResult:
    """One canonical board with the symmetry-breaking constraints added (for timing against a plain solve:
    ``solve_seconds`` is measured in the child, building included; ``extra["wall_seconds"]`` is all of it)."""
    problem, method, variant, solver, run, wall = _run(problem, method, variant, solver, time_limit, settings, True)
    result = SolveResult(n=problem.n, method=method, variant=variant, solver=solver or "", status=Status.INFEASIBLE,
                         solve_seconds=wall)
    if run.status == "done":
        _count, boards, result.solve_seconds = run.value
        if boards:
            result.status, result.queens = Status.SOLVED, boards[0]
            result.check()
    else:
        result.status = Status.TIMEOUT if run.status == "timeout" else Status.MEMOUT
    result.extra.update(wall_seconds=wall, break_symmetry=True)
    return result
