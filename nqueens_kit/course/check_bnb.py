"""Chapter 3's reasoning checks: an answer is a piece of reasoning about an LP, and the kit checks it.

- :func:`check_blocks`: the student's extra clique constraints (every 2×2 block) for the lines LP: valid (no
  board of n <= 8 cut off), complete (every 2×2 block of every n checked is held by a group) and strong enough
  that the LP alone proves n = 2 and 3 impossible.
- :func:`check_branching`: given a root LP and the branching rule "a fractional cell closest to 1/2", the
  cell branched on and the LP bound of one child.  Every tied cell is a correct answer.

Each returns a :class:`~nqueens_kit.course.answers.Verdict`: true when right, else one line naming the flaw.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator
from itertools import combinations

from ..errors import InputError
from ..methods.ilp.model import Relaxation, build_model, lp_relaxation, solved_state
from ..problem.board import Cell, Problem, parse_n, shown
from ..solvers import get_solver
from ..solvers.ilp_pulp import IlpSolver
from .answers import AnswerError, Verdict, cells, given, items, real
from .answers import cell as read_cell
from .strength import boards

#: A cell counts as fractional strictly between these; two distances to 1/2 within it are a tie.
TOLERANCE = 1e-6
#: How close a student's bound must be to the LP's optimum (a bound read off a printout to 3 decimals).
BOUND_TOLERANCE = 5e-3
#: :func:`check_blocks` checks every board up to this n (it lists them all).
MAX_BLOCKS_N = 8


def _attack(a: Cell, b: Cell) -> bool:
    return a[0] == b[0] or a[1] == b[1] or abs(a[0] - b[0]) == abs(a[1] - b[1])


def lines_lp_with(n: int, groups: Iterable[Iterable[Cell]], solver: str | None = None) -> str:
    """The state (``optimal`` or ``infeasible``) of the lines LP of ``n`` with ``sum(group) <= 1`` added."""
    import pulp

    backend = get_solver("ilp", solver).require()
    assert isinstance(backend, IlpSolver)
    model = build_model(Problem(n), "lines", relax=True)
    for k, group in enumerate(groups):
        model.prob += pulp.lpSum(model.x[cell] for cell in group) <= 1, f"extra_{k}"
    state, _ = solved_state(model.prob, model.prob.solve(backend.engine(msg=False)))
    return state


def _blocks(n: int) -> list[frozenset[Cell]]:
    return [frozenset({(r, c), (r + 1, c), (r, c + 1), (r + 1, c + 1)}) for r in range(1, n) for c in range(1, n)]


def _groups(student_blocks: Callable[[int], Iterable[Iterable[Cell]]], n: int) -> list[list[Cell]] | Verdict:
    """The student's groups for ``n``, each a list of cells, or the verdict that says what is wrong."""
    try:
        raw = student_blocks(n)
        listed = list(raw) if isinstance(raw, Iterator) else items(raw)  # a generator runs here
    except Exception as exc:  # a student's code
        return Verdict(False, f"Not yet: your function raised {type(exc).__name__}: {exc} at n = {n}.", n)
    if listed is None:
        return Verdict(False, f"Not yet: at n = {n} your function returned {given(raw)}; it returns a list of "
                              "groups, each a list of (row, column) cells.", n)
    try:
        return [cells(group, None, "a group", single=False) for group in listed]
    except AnswerError as error:
        return Verdict(False, f"Not yet: at n = {n} each group must be a list of (row, column) cells ({error}).", n)


def check_blocks(student_blocks: Callable[[int], Iterable[Iterable[Cell]]], ns: Iterable[int] = range(2, 9),
                 solver: str | None = None) -> Verdict:
    """Check ``blocks(n)``: groups of cells, each to get ``sum(x) <= 1`` in the lines LP.  Right when, for every
    n of ``ns`` (and n = 2 and 3 always), every group is a clique of the queens graph (so no board is cut off:
    checked against every board up to n = 8), every 2×2 block of the board is held by a group (each one is a
    clique the lines miss), and the LP with them is infeasible for n = 2 and 3.  Groups beyond the 2×2 blocks
    are allowed.

    >>> def blocks(n):
    ...     return [[(r, c), (r + 1, c), (r, c + 1), (r + 1, c + 1)] for r in range(1, n) for c in range(1, n)]
    >>> check_blocks(blocks, ns=[2, 3, 4]).ok
    True
    >>> check_blocks(lambda n: blocks(n)[:-1], ns=[2, 3, 4]).counterexample
    (2, [(1, 1), (1, 2), (2, 1), (2, 2)])
    """
    if not callable(student_blocks):
        return Verdict(False, "Not yet: pass your function blocks(n), which returns a list of groups of cells.")
    sizes = [parse_n(n, maximum=MAX_BLOCKS_N, what="a board size in ns") for n in ns]
    sizes += [n for n in (2, 3) if n not in sizes]
    by_size: dict[int, list[list[Cell]]] = {}
    for n in sizes:
        groups = _groups(student_blocks, n)
        if isinstance(groups, Verdict):
            return groups
        by_size[n] = groups
        for group in groups:
            off = [cell for cell in group if not (1 <= cell[0] <= n and 1 <= cell[1] <= n)]
            if off:
                return Verdict(False, f"Not yet: at n = {n} the group {shown(group)} has {off[0]} off the board "
                                      f"(rows and columns run from 1 to {n}).", (n, group))
            pair = next(((a, b) for a, b in combinations(sorted(set(group)), 2) if not _attack(a, b)), None)
            if pair is not None:
                board = next((b for b in boards(n) if set(pair) <= set(b)), None)
                cut = f": it cuts off the board {board}" if board else ""
                return Verdict(False, f"Not yet: {pair[0]} and {pair[1]} do not attack each other, so two queens may "
                                      f"stand there and 'at most one' is not valid{cut}.", (n, group))
        for board in boards(n):  # the clique test above implies this; checked on every board all the same
            if any(sum(cell in board for cell in group) > 1 for group in groups):
                return Verdict(False, f"Not yet: at n = {n} your constraints cut off the board {board}.", (n, board))
        held = [set(group) for group in groups]
        missing = [sorted(block) for block in _blocks(n) if not any(block <= group for group in held)]
        if missing:
            more = f" (and {len(missing) - 1} more)" if len(missing) > 1 else ""
            return Verdict(False, f"Not yet: at n = {n} the 2×2 block {shown(missing[0])}{more} is in no group: "
                                  "every 2×2 block is a clique the lines miss, so each needs its own 'at most one'.",
                           (n, missing[0]))
    for n in (2, 3):
        if lines_lp_with(n, by_size[n], solver) != "infeasible":
            return Verdict(False, f"Not yet: with your constraints the lines LP of n = {n} is still feasible: the LP "
                                  "still finds a fractional point.", (n, []))
    return Verdict(True, "Right: every group is a clique (no board up to n = 8 is cut off), and with them the lines "
                         "LP alone proves that n = 2 and n = 3 have no solution.")


def child_bound(root: Relaxation, cell: Cell, value: int, solver: str | None = None) -> float | None:
    """The LP bound of the child of ``root`` with ``x[cell] = value`` (None when that LP is infeasible)."""
    if root.n < 1 or value not in (0, 1):
        raise InputError(f"a child fixes a cell to 0 or 1, not {value!r}")
    problem = Problem(root.n, (cell,)) if value == 1 else Problem(root.n, blocked=(cell,))
    child = lp_relaxation(problem, root.formulation, solver or root.solver)
    return None if child.status == "infeasible" else round(child.objective or 0.0, 6)


def check_branching(root: Relaxation, cell: object, bound: object, value: int = 1) -> Verdict:
    """Check the next branching step of the kit's branch and bound from the LP ``root`` (max-queens): ``cell``
    is a fractional cell whose value is closest to 1/2 (any of the tied cells is right), ``bound`` the LP
    bound of its child with ``x[cell] = value`` (None or ``"infeasible"`` if that LP has no point).  The cell
    may be a tuple, a list or a NumPy array; the bound any real number, never a string such as ``'2'``."""
    if not isinstance(root, Relaxation) or root.status != "optimal" or root.objective is None:
        raise InputError("check_branching needs a solved max-queens LP relaxation (lp_relaxation(..., 'max-queens'))")
    try:
        chosen = read_cell(cell, None, "the cell")
    except AnswerError as error:
        return Verdict(False, f"Not yet: {error}.")
    if chosen not in root.values:
        return Verdict(False, f"Not yet: {chosen} is not on the {root.n} × {root.n} board.")
    fractional = [c for c, v in root.values.items() if TOLERANCE < v < 1 - TOLERANCE]
    if not fractional:
        return Verdict(False, "This root LP is already a board: there is nothing to branch on.")
    distance = {c: abs(root.values[c] - 0.5) for c in fractional}
    best = min(distance.values())
    ties = sorted(c for c in fractional if distance[c] <= best + TOLERANCE)
    here = root.values[chosen]
    if chosen not in distance:
        return Verdict(False, f"Not yet: x{list(chosen)} = {here:g} is already whole; both children of a branch "
                              "there would leave the LP as it is, or cut off its point for nothing.")
    if chosen not in ties:
        return Verdict(False, f"Not yet: x{list(chosen)} = {here:.3f} is fractional, but the rule takes the value "
                              f"closest to 1/2: x{list(ties[0])} = {root.values[ties[0]]:.3f} is closer.")
    right = child_bound(root, chosen, value)
    if isinstance(bound, str) and bound.strip().lower() == "infeasible":
        given: float | None = None
    elif bound is None:
        given = None
    else:
        try:
            given = real(bound, "a bound")
        except AnswerError as error:
            return Verdict(False, f"Not yet: {error} (None, or 'infeasible', when the child's LP has no point).")
    if right is None or given is None:
        if right == given:
            return Verdict(True, f"Right: x{list(chosen)} is a tied choice, and fixing it to {value} leaves no "
                                 "LP point.")
        if right is None:
            return Verdict(False, f"Not yet: with x{list(chosen)} = {value} the LP has no point at all "
                                  "(infeasible).")
        return Verdict(False, f"Not yet: with x{list(chosen)} = {value} the LP still has points; solve it for "
                              "its bound.")
    if abs(given - right) <= BOUND_TOLERANCE:
        others = f" (so would {', '.join(str(c) for c in ties if c != chosen)})" if len(ties) > 1 else ""
        return Verdict(True, f"Right: x{list(chosen)} = {here:.3f} is closest to 1/2{others}, and its child with "
                             f"x = {value} has LP bound {right:g}.")
    if given > root.objective + BOUND_TOLERANCE:
        return Verdict(False, f"Not yet: {given:g} is above the root's bound {root.objective:g}; a child's LP has one "
                              "more constraint, so its bound can only be the same or lower.")
    other = child_bound(root, chosen, 1 - value)
    if other is not None and abs(given - other) <= BOUND_TOLERANCE and abs(other - right) > BOUND_TOLERANCE:
        return Verdict(False, f"Not yet: {given:g} is the bound of the other child (x{list(chosen)} = {1 - value}).")
    if abs(given - root.objective) <= BOUND_TOLERANCE:
        return Verdict(False, f"Not yet: {given:g} is the root's bound; fixing x{list(chosen)} = {value} changes "
                              "the LP, so solve the child again.")
    if abs(given - math.floor(right + TOLERANCE)) <= BOUND_TOLERANCE:
        return Verdict(False, "Not yet: you rounded down; the bound is the LP's optimum, which may be fractional "
                              "(rounding down is the pruning test, not the bound).")
    for tie in ties:
        if tie != chosen and (b := child_bound(root, tie, value)) is not None and abs(given - b) <= BOUND_TOLERANCE:
            return Verdict(False, f"Not yet: {given:g} is the bound after branching on {tie}, not on {chosen}.")
    return Verdict(False, f"Not yet: {given:g} is not the optimum of the child's LP (maximise the queens with "
                          f"x{list(chosen)} = {value}).")
