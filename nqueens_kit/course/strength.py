"""Chapter 3's formulation strength: the assignment polytope, and boards with no solution.

- :func:`boards`: every solution of a small board (plain backtracking), to check a model against all of them.
- :func:`assignment_lp`: the lines LP with a cost per cell, with or without its diagonals: rows and columns
  alone form the assignment (Birkhoff) polytope, whose corners are permutation matrices.
- :func:`impossible_completions`: random pre-placements with no completion (seeded, the same everywhere).
- :func:`impossible_trees`: the kit's branch and bound on such boards, lines against pairwise, with
  whether each model's root LP is already infeasible.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Iterator, Sequence
from typing import TypedDict

from ..inside.bnb import branch_and_bound
from ..methods.ilp.model import lp_relaxation, solved_state
from ..problem.board import Cell, Problem
from ..solvers import get_solver
from ..solvers.ilp_pulp import IlpSolver

TOLERANCE = 1e-6


def _attack(a: Cell, b: Cell) -> bool:
    return a != b and (a[0] == b[0] or a[1] == b[1] or abs(a[0] - b[0]) == abs(a[1] - b[1]))


def boards(n: int, preplaced: Iterable[Cell] = ()) -> Iterator[list[Cell]]:
    """Every solution of ``n``-queens that keeps the queens of ``preplaced`` (row by row backtracking)."""
    fixed = {r: c for r, c in preplaced}
    cols: list[int] = []

    def extend(r: int) -> Iterator[list[Cell]]:
        if r > n:
            yield [(i + 1, c) for i, c in enumerate(cols)]
            return
        for c in ([fixed[r]] if r in fixed else range(1, n + 1)):
            if all(c != d and abs(c - d) != r - 1 - i for i, d in enumerate(cols)):
                cols.append(c)
                yield from extend(r + 1)
                cols.pop()

    yield from extend(1)


class AssignmentLP(TypedDict):
    """One LP of :func:`assignment_lp`."""

    n: int
    diagonals: bool
    state: str
    objective: float
    values: dict[Cell, float]
    fractional: int


def cell_costs(n: int, seed: int = 0) -> dict[Cell, int]:
    """A whole-number cost from 1 to 9 per cell, the same on every machine for the same seed."""
    rng = random.Random(f"nqueens-kit-costs:{n}:{seed}")
    return {(r, c): rng.randint(1, 9) for r in range(1, n + 1) for c in range(1, n + 1)}


def assignment_lp(n: int, costs: dict[Cell, int], diagonals: bool, solver: str | None = None) -> AssignmentLP:
    """Minimise the cost of the queens over the LP relaxation of the lines model, rows and columns as
    equations and, with ``diagonals``, each diagonal at most 1.  The simplex method answers with a corner."""
    import pulp

    backend = get_solver("ilp", solver).require()
    assert isinstance(backend, IlpSolver)
    prob = pulp.LpProblem(f"assignment_{n}", pulp.LpMinimize)
    cells = [(r, c) for r in range(1, n + 1) for c in range(1, n + 1)]
    if hasattr(prob, "add_variable"):  # PuLP 4 makes a variable through its problem, older ones on its own
        x = {(r, c): prob.add_variable(f"x_{r}_{c}", 0, 1) for r, c in cells}
    else:
        x = {(r, c): pulp.LpVariable(f"x_{r}_{c}", 0, 1) for r, c in cells}
    prob += pulp.lpSum(costs[cell] * var for cell, var in x.items())
    for line in Problem(n).lines():
        total = pulp.lpSum(x[cell] for cell in line.cells)
        if line.name.startswith(("row", "col")):
            prob += total == 1, line.name
        elif diagonals:
            prob += total <= 1, line.name
    state, _ = solved_state(prob, prob.solve(backend.engine(msg=False)))
    values = {cell: min(1.0, max(0.0, float(var.varValue or 0.0))) for cell, var in x.items()}
    return {"n": n, "diagonals": diagonals, "state": state,
            "objective": round(sum(costs[cell] * v for cell, v in values.items()), 6), "values": values,
            "fractional": sum(TOLERANCE < v < 1 - TOLERANCE for v in values.values())}


def cheapest(n: int, costs: dict[Cell, int], diagonals: bool) -> int:
    """The cheapest integer point by enumeration: a permutation matrix, or with ``diagonals`` a board."""
    if diagonals:
        return min(sum(costs[q] for q in board) for board in boards(n))
    return min(sum(costs[r + 1, c] for r, c in enumerate(perm)) for perm in itertools.permutations(range(1, n + 1)))


def impossible_completions(count: int, sizes: Sequence[int] = (8, 9, 10), queens: int = 3,
                           seed: int = 0) -> list[Problem]:
    """``count`` random placements of ``queens`` non-attacking queens, on a board size drawn from ``sizes``,
    that no solution completes (checked by enumeration)."""
    rng = random.Random(f"nqueens-kit-impossible:{seed}")
    found: list[Problem] = []
    while len(found) < count:
        n = rng.choice(list(sizes))
        rows = sorted(rng.sample(range(1, n + 1), queens))
        placed = [(r, rng.randint(1, n)) for r in rows]
        if any(_attack(a, b) for a, b in itertools.combinations(placed, 2)):
            continue
        if next(boards(n, placed), None) is None:
            found.append(Problem(n, tuple(placed)))
    return found


class ImpossibleTree(TypedDict):
    """One tree of :func:`impossible_trees`."""

    n: int
    preplaced: list[list[int]]
    solver: str
    formulation: str
    nodes: int
    status: str
    root_infeasible: bool


def impossible_trees(problems: Iterable[Problem], solvers: Sequence[str],
                     formulations: Sequence[str] = ("lines", "pairwise")) -> list[ImpossibleTree]:
    """The kit's branch and bound on each problem per LP solver and formulation: its nodes (LPs solved) and
    whether the root LP alone is infeasible (the LP solved on its own by :func:`lp_relaxation`)."""
    rows: list[ImpossibleTree] = []
    for problem in problems:
        for solver in solvers:
            for formulation in formulations:
                tree = branch_and_bound(problem, formulation, solver)
                root = lp_relaxation(problem, formulation, solver).status == "infeasible"
                if tree.status != "infeasible" or root != (tree.nodes[0].status == "infeasible"):
                    raise AssertionError(f"{problem} with {formulation}/{solver}: {tree.status}, root {root}")
                rows.append({"n": problem.n, "preplaced": [list(q) for q in problem.preplaced], "solver": solver,
                             "formulation": formulation, "nodes": len(tree.nodes), "status": str(tree.status),
                             "root_infeasible": root})
    return rows
