"""The ``native`` variant of the SAT method: at-most-one as cardinality constraints, not clauses.

A solver that takes cardinality constraints directly (python-sat's Minicard and Gluecard, whose registry
entries say ``capabilities.cardinality``) needs no at-most-one encoding at all: the n² board variables, one
at-least-one clause per row and per column, and one constraint ``x_1 + ... + x_k <= 1`` per row, column and
diagonal of two or more cells, which the solver propagates as a whole.  That is 6n - 6 constraints and 2n
clauses where the clause encodings write millions of clauses for a large board.

Inside:

- :data:`NATIVE` (the variant's name) and :data:`NATIVE_VARIANT` (its entry in the SAT method's variants,
  registered with the encodings: :mod:`.encodings.native`).
- :func:`build_native`: a :class:`NativeFormula` of a problem (pre-placed queens and blocked cells as unit
  clauses; the problem's symmetry broken by the lex-leader clauses of :func:`~.cnf.lex_leader_clauses`).
- :func:`native_size`: its size in closed form; :meth:`NativeFormula.to_cnfplus` and :func:`cnfplus_text`:
  the formula as python-sat's ``CNFPlus`` and its text (``p cnf+``: cardinality lines ``l1 l2 ... <= 1``).
- :func:`solve_native`, :func:`iter_native`, :func:`count_native`: one board, every board, the count.  One
  board is solved with the cells numbered in a seeded random order (:func:`cell_order`) and the phase "queen":
  the solver's first decisions are then a random greedy placement, which its constraints complete with almost
  no conflict (n = 2000: 0 conflicts, 1,933 decisions).

>>> formula = build_native(Problem(8))
>>> formula.num_vars, formula.num_clauses, formula.num_atmosts, formula.num_literals
(64, 16, 42, 380)
>>> size = native_size(Problem(8))
>>> size.variables, size.clauses, size.literals, native_atmosts(8)
(64, 16, 380, (42, 252))
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from ...errors import InputError, SolverError
from ...problem.board import Board, Problem, canonical, violations
from ...problem.results import SolveResult, Statistics, Status
from ...runtime.limits import SAT_BYTES_PER_CLAUSE, SAT_BYTES_PER_VARIABLE, Size
from ..base import board_key, board_text, infeasible_message
from .encodings import NATIVE, NATIVE_VARIANT, Clause, NativeVariant, VarPool

#: An at-most-k constraint: the literals and k.
AtMost = tuple[list[int], int]


@dataclass
class NativeFormula:
    """Clauses and cardinality constraints over the board variables (``(r - 1)·n + c``), helpers after n²
    (only the lex-leader chain of a problem whose symmetry is broken)."""

    problem: Problem
    clauses: list[Clause]
    atmosts: list[AtMost]
    num_vars: int
    names: list[str] = field(default_factory=list)  # the line of each cardinality constraint

    @property
    def num_clauses(self) -> int:
        return len(self.clauses)

    @property
    def num_atmosts(self) -> int:
        return len(self.atmosts)

    @property
    def num_literals(self) -> int:
        """Literals of the clauses and of the cardinality constraints together."""
        return sum(map(len, self.clauses)) + sum(len(lits) for lits, _k in self.atmosts)

    def decode(self, model: list[int]) -> Board:
        n = self.problem.n
        top = n * n
        return tuple(sorted(((lit - 1) // n + 1, (lit - 1) % n + 1) for lit in model if 0 < lit <= top))

    def to_cnfplus(self) -> object:
        """The formula as python-sat's ``pysat.formula.CNFPlus``."""
        from pysat.formula import CNFPlus

        plus = CNFPlus()
        plus.nv = self.num_vars
        plus.clauses = [list(c) for c in self.clauses]
        plus.atmosts = [[list(lits), k] for lits, k in self.atmosts]  # as CNFPlus reads them from text
        return plus


def build_native(problem: Problem | int, numbering: Sequence[int] | None = None) -> NativeFormula:
    """The native formula of a problem: per row and column an at-least-one clause and an at-most-one
    constraint, per diagonal of two or more cells an at-most-one constraint; a unit clause per pre-placed queen
    and blocked cell; with the symmetry broken, the lex-leader clauses.

    The lines come from arithmetic on whole arrays where numpy is installed (no cell tuples: at n = 2000 the
    4n² cells of the lines would be millions of them), else from :meth:`~nqueens_kit.problem.board.Problem.lines`;
    both give the lines in the same order with their cells in the same order.  ``numbering`` (a permutation of
    1 .. n², :func:`cell_order`) writes board variable v as ``numbering[v - 1]`` (helpers keep their numbers)."""
    if not isinstance(problem, Problem):
        problem = Problem(problem)
    n = problem.n
    clauses: list[Clause] = []
    atmosts: list[AtMost] = []
    names: list[str] = []
    for name, exact, lits in _line_literals(problem, numbering):
        if exact:
            clauses.append(lits)
        if len(lits) >= 2:
            atmosts.append((lits, 1))
            names.append(name)
    table = None if numbering is None else [0, *numbering]

    def lit(x: int) -> int:  # a literal of a unit or lex-leader clause, renumbered if it is a board cell's
        return x if table is None or abs(x) > n * n else table[x] if x > 0 else -table[-x]

    clauses += [[lit((r - 1) * n + c)] for r, c in problem.preplaced]
    clauses += [[lit(-((r - 1) * n + c))] for r, c in problem.blocked]
    pool = VarPool(n * n)
    if problem.break_symmetry:
        from .cnf import lex_leader_clauses

        for _name, part in lex_leader_clauses(n, pool):
            clauses += [[lit(x) for x in clause] for clause in part]
    return NativeFormula(problem, clauses, atmosts, pool.top, names)


def _line_literals(problem: Problem, numbering: Sequence[int] | None = None
                   ) -> Iterator[tuple[str, bool, list[int]]]:
    """``(name, exact, board variables)`` of every line of the board, in the order of ``problem.lines()``
    (each variable v written as ``numbering[v - 1]`` when a numbering is given)."""
    n = problem.n
    try:
        import numpy as np

        from .packed import _board_line_cells
    except ImportError:  # no numpy (a browser without it): the lines' cells one by one
        table = list(range(n * n + 1)) if numbering is None else [0, *numbering]
        for line in problem.lines():
            yield line.name, line.exact, [table[(r - 1) * n + c] for r, c in line.cells]
        return
    renumber = None if numbering is None else np.concatenate([[0], np.asarray(numbering, dtype=np.int64)])
    for name, exact, cells in _board_line_cells(n):
        yield name, exact, (cells if renumber is None else renumber[cells]).tolist()


def native_size(problem: Problem) -> Size:
    """The size of :func:`build_native` in closed form: n² variables (plus the lex-leader helpers), 2n clauses
    of n literals plus the units, and 6n - 6 cardinality constraints over 4n² - 4 literals (n > 1)."""
    from .cnf import lex_leader_size

    if not isinstance(problem, Problem):
        raise InputError(f"problem is a Problem (e.g. Problem(8)), not {problem!r:.40}")
    n = problem.n
    variables = n * n
    clauses = 2 * n + len(problem.preplaced) + len(problem.blocked)
    literals = 2 * n * n + len(problem.preplaced) + len(problem.blocked)
    atmosts, atmost_literals = native_atmosts(n)
    literals += atmost_literals
    if problem.break_symmetry:
        helpers, lex = lex_leader_size(n)
        variables, clauses = variables + helpers, clauses + lex
        literals += 3 * lex  # at most 4 literals a clause, about 3 on average: an estimate for the memory
    return Size(variables, clauses=clauses, literals=literals,
                memory=NATIVE_BYTES_PER_CELL * n * n + SAT_BYTES_PER_CLAUSE * (clauses + atmosts)
                + SAT_BYTES_PER_VARIABLE * (variables - n * n))


#: The peak memory of a native solve per cell of the board, measured with Minicard end to end (the process that
#: builds, solves and reads the model): 428 MB at n = 1000, 1.6 GB at n = 2000, 3.1 GB at n = 2816.
NATIVE_BYTES_PER_CELL = 400


def native_atmosts(n: int) -> tuple[int, int]:
    """``(constraints, literals)`` of the at-most-one constraints of an n-board: 2n lines of n cells and, per
    diagonal direction, 2n - 3 lines of two or more cells holding n² - 2 cells (the corners are lines of one)."""
    if n < 2:
        return 0, 0
    return 2 * n + 2 * (2 * n - 3), 2 * n * n + 2 * (n * n - 2)


def cnfplus_text(formula: NativeFormula, comments: bool = True) -> str:
    """The formula as text in python-sat's CNF+ format: ``p cnf+ VARIABLES CONSTRAINTS``, then each clause
    (``... 0``) and each cardinality constraint (``l1 l2 ... <= k``); what ``CNFPlus(from_string=...)`` reads."""
    n = formula.problem.n
    lines = []
    if comments:
        lines += [f"c {formula.problem.describe()}, encoding native (CNF+: cardinality constraints), written by "
                  "nqueens-kit",
                  f"c variable (r-1)*{n} + c is the queen at row r, column c (1-based): variables 1..{n * n}",
                  "c rows and columns: a clause (at least one) and a constraint '... <= 1' (at most one); "
                  "diagonals: a constraint"]
    lines.append(f"p cnf+ {formula.num_vars} {formula.num_clauses + formula.num_atmosts}")
    lines += [" ".join(map(str, clause)) + " 0" for clause in formula.clauses]
    lines += [" ".join(map(str, lits)) + f" <= {k}" for lits, k in formula.atmosts]
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------------------- solving


def _native_solver(solver: str | None) -> tuple[str, str]:
    """``(registry name, python-sat backend)`` of a solver that takes cardinality constraints, or the one-line
    refusal naming the solvers that do."""
    from ...solvers import SAT_SOLVERS, get_solver
    from ...solvers.python_sat import PySat

    able = [name for name, entry in SAT_SOLVERS.items() if entry.capabilities.cardinality]
    entry = get_solver("sat", solver)
    if not (isinstance(entry, PySat) and entry.capabilities.cardinality):
        raise InputError(f"--encoding native needs a solver that takes cardinality constraints ({', '.join(able)}); "
                         f"--solver {entry.name} takes clauses only: choose another encoding for it")
    entry.require()
    return entry.name, entry.backend


def _new_solver(backend: str, formula: NativeFormula) -> object:
    from pysat.solvers import Solver

    solver = Solver(name=backend, bootstrap_with=formula.clauses)
    for lits, k in formula.atmosts:
        solver.add_atmost(lits, k)
    return solver


#: Whether the board variables start with the phase "queen" (measured with Minicard at n = 1000 in natural
#: order: 7.6 s of search instead of 30 s, the default phase "no queen" deciding most of the n² cells one by one).
QUEEN_PHASE = True
#: The seed of the order the cells are numbered in for the solver, when a solve names none (``order``).
CELL_ORDER_SEED = 0


def cell_order(n: int, seed: int) -> list[int]:
    """A permutation of the board variables 1 .. n² by ``seed`` (the same on every machine): ``order[v - 1]``
    is the number the solver knows cell v by.

    Minicard decides its variables in the order of their numbers until conflicts reorder them, each decision
    a queen (:data:`QUEEN_PHASE`) that its constraints then propagate: in the natural numbering that is a
    row-by-row greedy placement, which jams near the last rows (n = 1000: 652 conflicts, 655,706 decisions,
    7.6 s of search), in a random numbering a random greedy placement, which leaves almost nothing to repair
    (n = 1000: 1 conflict, 947 decisions, 0.3 s).  No cell is preferred: the order knows no solution.

    >>> sorted(cell_order(3, 1)) == list(range(1, 10)), cell_order(3, 1) == cell_order(3, 1)
    (True, True)
    """
    try:
        import numpy as np
    except ImportError:  # no numpy: the standard library's shuffle (slower, another permutation)
        import random

        order = list(range(1, n * n + 1))
        random.Random(f"nqueens-kit-cells:{seed}").shuffle(order)
        return order
    permutation = np.random.Generator(np.random.PCG64(seed)).permutation(n * n) + 1
    return permutation.tolist()  # type: ignore[no-any-return]


def solve_native(problem: Problem, solver: str | None = None, deadline: float | None = None,
                 order: int | None = None) -> SolveResult:
    """One board of ``problem`` by a solver that takes cardinality constraints (see the module docstring), the
    cells numbered for the solver by :func:`cell_order` (seed ``order``, else :data:`CELL_ORDER_SEED`)."""
    from ...solvers.python_sat import _solve

    if order is not None and (isinstance(order, bool) or not isinstance(order, int) or order < 0):
        raise InputError(f"order is a whole number from 0 (the seed of the cells' numbering), not {order!r:.40}")
    name, backend = _native_solver(solver)
    start = time.perf_counter()
    numbering = cell_order(problem.n, CELL_ORDER_SEED if order is None else order)
    formula = build_native(problem, numbering)
    built = time.perf_counter()
    sat = _new_solver(backend, formula)
    try:
        if QUEEN_PHASE:
            sat.set_phases(list(range(1, problem.n ** 2 + 1)))  # type: ignore[attr-defined]
        handed = time.perf_counter() - built
        ok = _solve(sat, [], deadline)
        stats: Statistics = {str(k): v for k, v in (sat.accum_stats() or {}).items()  # type: ignore[attr-defined]
                             if isinstance(v, (int, float, str))}
        model = sat.get_model() if ok else None  # type: ignore[attr-defined]
    finally:
        sat.delete()  # type: ignore[attr-defined]
    solved = time.perf_counter()
    stats |= {"handover_seconds": round(handed, 6), "cardinality_constraints": formula.num_atmosts}
    status = Status.SOLVED if ok else Status.INFEASIBLE if ok is False else Status.TIMEOUT
    result = SolveResult.of(problem, "sat", status, variant=NATIVE, variant_kind="encoding", solver=name,
                            variables=formula.num_vars, clauses=formula.num_clauses, constraints=formula.num_atmosts,
                            build_seconds=built - start, solve_seconds=solved - built, stats=stats)
    if ok:
        top = problem.n ** 2
        queens = {lit for lit in model or [] if 0 < lit <= top}  # n of the n² numbers: look only for those
        result.queens = formula.decode([v for v, number in enumerate(numbering, start=1) if number in queens])
    elif ok is False:
        result.message = infeasible_message(problem)
    else:
        result.message = "no answer within the time limit"
    result.check()
    return result


def iter_native(problem: Problem, solver: str | None = None) -> Iterator[Board]:
    """Every board of ``problem``, each once: one incremental solver, each board blocked on its queens (the
    board variables are all the variables there are, but for the lex-leader chain, which a board defines)."""
    _name, backend = _native_solver(solver)
    formula = build_native(problem)
    top = problem.n ** 2
    sat = _new_solver(backend, formula)
    try:
        while sat.solve():  # type: ignore[attr-defined]
            model = sat.get_model()  # type: ignore[attr-defined]
            board = formula.decode(model)
            yield board
            sat.add_clause([-lit for lit in model if 0 < lit <= top])  # type: ignore[attr-defined]
    finally:
        sat.delete()  # type: ignore[attr-defined]


def count_native(problem: Problem, solver: str | None = None, fundamental: bool = False,
                 progress: Callable[[int, int | None], None] | None = None) -> tuple[int, int | None]:
    """``(boards, fundamental boards or None)``: every board of :func:`iter_native` verified, none twice."""
    from .solve import REPORT_SECONDS

    who = solver or "the solver"
    seen: set[bytes] = set()
    classes: set[bytes] = set()
    last = time.monotonic()
    for board in iter_native(problem, solver):
        if not problem.verify(board):
            wrong = violations(problem.n, board, problem.preplaced, problem.blocked) or ["rejected by verify"]
            raise SolverError(f"{who} returned a board that is not a solution ({wrong[0]}): {board_text(board)[:80]}")
        key = board_key(board)
        if key in seen:
            raise SolverError(f"{who} returned the board {board_text(board)} twice; the count cannot be trusted")
        seen.add(key)
        if fundamental:
            classes.add(board_key(canonical(problem.n, board)))
        if progress is not None and time.monotonic() - last > REPORT_SECONDS:
            progress(len(seen), len(classes) if fundamental else None)
            last = time.monotonic()
    return len(seen), (len(classes) if fundamental else None)


__all__ = ["NATIVE", "NATIVE_VARIANT", "NativeFormula", "NativeVariant", "build_native", "cnfplus_text",
           "count_native", "iter_native", "native_atmosts", "native_size", "solve_native"]
