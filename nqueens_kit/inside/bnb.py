"""A small branch and bound of the kit's own, over LP relaxations solved by HiGHS or CBC, every node kept.

What a MIP solver does, stripped to its idea: solve the LP relaxation (cells may hold fractions); if the
answer is a board, done; if the LP is infeasible, this branch has no board; if it cannot beat the best board
found (max-queens), prune it; otherwise pick a fractional cell and split: a queen there (x = 1) or not
(x = 0).  Depth first, the queen branch first.  Real solvers add presolve, cutting planes, heuristics and
strong branching, so their node counts differ (chapter 7 compares them); this one adds nothing, so its tree
*is* the certificate of its answer: for an infeasible instance every leaf is an infeasible LP.

- :func:`branch_and_bound` returns a :class:`Tree` of :class:`Node` s (id, parent, depth, branching
  decision, LP bound, fractional cells, status) with the answer.
- :func:`tree_text`: the tree as indented text (``nqueens-kit bnb``).
- :func:`root_lp`: one LP relaxation, solved as a node of a tree is: what it costs (the LP solver's own
  iterations and, for HiGHS, processor time, the best of a few solves) and what it says (its values, its
  bound).

>>> tree = branch_and_bound(3)
>>> tree.status, all(node.status in ("infeasible", "branched") for node in tree.nodes)
('infeasible', True)
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol, TypedDict

from ..errors import InputError
from ..methods.ilp.formulations import get_formulation
from ..methods.ilp.model import _run, build_model
from ..problem.board import Cell, Problem, conflicts, verify
from ..problem.results import JSON, Status
from ..runtime.limits import check_time_limit
from ..solvers import get_solver
from ..solvers.ilp_pulp import IlpSolver, state_of

#: The kit's tree is for reading: boards up to this size.
MAX_BNB_N = 10
DEFAULT_MAX_NODES = 2_000
TOLERANCE = 1e-6
#: What became of a node.
NODE_STATUSES = ("branched", "integral", "infeasible", "pruned", "open")


@dataclass
class Node:
    """One LP solved.  ``branch`` is the decision that made this node from its parent, e.g. ``((2, 4), 1)``
    (a queen on 2,4); ``bound`` the LP objective (max-queens) or None; ``values`` the LP's cell values."""

    id: int
    parent: int | None
    depth: int
    branch: tuple[Cell, int] | None
    status: str = "open"
    bound: float | None = None
    values: dict[Cell, float] = field(default_factory=dict)
    fractional: list[Cell] = field(default_factory=list)
    branched_on: Cell | None = None
    #: What the node's LP cost: simplex iterations (HiGHS reports them; None for CBC) and the solver's seconds.
    iterations: int | None = None
    lp_seconds: float = 0.0

    def as_dict(self) -> dict[str, JSON]:
        return {"id": self.id, "parent": self.parent, "depth": self.depth,
                "branch": None if self.branch is None else {"cell": list(self.branch[0]), "value": self.branch[1]},
                "bound": None if self.bound is None else round(self.bound, 6), "status": self.status,
                "fractional": [list(c) for c in self.fractional]}


@dataclass
class Tree:
    problem: Problem
    formulation: str
    solver: str
    nodes: list[Node]
    status: str
    queens: list[Cell] = field(default_factory=list)
    objective: float | None = None
    seconds: float = 0.0
    note: str = ""

    def as_dict(self) -> dict[str, JSON]:
        return {"n": self.problem.n, "formulation": self.formulation, "solver": self.solver,
                "preplaced": [list(q) for q in self.problem.preplaced], "status": self.status,
                "queens": [list(q) for q in self.queens], "objective": self.objective,
                "nodes": [node.as_dict() for node in self.nodes], "seconds": round(self.seconds, 6),
                **({"note": self.note} if self.note else {})}

    def counts(self) -> dict[str, int]:
        return {status: sum(node.status == status for node in self.nodes) for status in NODE_STATUSES}


def branch_and_bound(problem: Problem | int, formulation: str = "lines", solver: str | None = None,
                     max_nodes: int = DEFAULT_MAX_NODES, time_limit: float | None = None,
                     stop: Callable[[], bool] | None = None) -> Tree:
    """Solve ``problem`` by the kit's own branch and bound (see the module docstring).

    Status ``solved`` (a verified board; for max-queens the proven optimum), ``infeasible`` (every leaf
    infeasible: the tree is the proof), or ``timeout`` when ``max_nodes``, ``time_limit`` or ``stop()``
    ended the search (unexplored nodes stay ``open``).
    """
    problem = problem if isinstance(problem, Problem) else Problem(problem)
    if problem.n > MAX_BNB_N:
        raise InputError(f"the kit's branch and bound draws every node: boards up to n = {MAX_BNB_N}, not "
                         f"{problem.n} (solve larger ones with --method ilp)")
    if isinstance(max_nodes, bool) or not isinstance(max_nodes, int) or max_nodes < 1:
        raise InputError(f"max_nodes must be a whole number of at least 1, not {max_nodes!r}")
    limit = check_time_limit(time_limit)
    form = get_formulation(formulation)
    backend = get_solver("ilp", solver).require()
    assert isinstance(backend, IlpSolver)
    model = build_model(problem, form, relax=True)
    start = time.monotonic()
    deadline = start + limit if limit is not None else None
    nodes: list[Node] = [Node(0, None, 0, None)]
    stack = [0]
    fixed: dict[int, dict[Cell, int]] = {0: {}}
    best: tuple[float, list[Cell]] | None = None
    tree = Tree(problem, form.name, backend.name, nodes, Status.INFEASIBLE)
    while stack:
        if len([n for n in nodes if n.status != "open"]) >= max_nodes or (
                deadline is not None and time.monotonic() > deadline) or (stop is not None and stop()):
            tree.status, tree.note = Status.TIMEOUT, f"stopped after {len(nodes):,} nodes"
            break
        node = nodes[stack.pop()]
        for cell, var in model.x.items():
            value = fixed[node.id].get(cell)
            var.lowBound, var.upBound = (0, 1) if value is None else (value, value)
        run = _run(model, backend, deadline, None)
        iterations, seconds = run.stats.get("iterations"), run.stats.get("solver_seconds")
        node.iterations = iterations if isinstance(iterations, int) else None
        node.lp_seconds = float(seconds) if isinstance(seconds, (int, float)) and seconds else run.seconds
        state = state_of(run)
        if state not in ("optimal", "feasible"):
            node.status = "infeasible" if state == "infeasible" else "open"
            if state != "infeasible":
                tree.status, tree.note = Status.TIMEOUT, f"the LP solver stopped ({state})"
                break
            continue
        node.values = {cell: min(1.0, max(0.0, float(var.varValue or 0.0))) for cell, var in model.x.items()}
        node.bound = sum(node.values.values()) if form.maximise else None
        node.fractional = [c for c, v in node.values.items() if TOLERANCE < v < 1 - TOLERANCE]
        if form.maximise and best is not None and math.floor((node.bound or 0) + TOLERANCE) <= best[0]:
            node.status = "pruned"
            continue
        if not node.fractional:
            node.status = "integral"
            queens = sorted(c for c, v in node.values.items() if v > 0.5)
            if form.maximise:
                if best is None or len(queens) > best[0]:
                    best = (float(len(queens)), queens)
                continue
            best = (float(len(queens)), queens)
            break  # a feasibility model: the first board answers the question
        cell = min(node.fractional, key=lambda c: (abs(node.values[c] - 0.5), c))
        node.status, node.branched_on = "branched", cell
        for value in (0, 1):  # pushed so that the queen branch (1) is explored first
            child = Node(len(nodes), node.id, node.depth + 1, (cell, value))
            nodes.append(child)
            fixed[child.id] = {**fixed[node.id], cell: value}
            stack.append(child.id)
    tree.seconds = time.monotonic() - start
    if best is not None and tree.status != Status.TIMEOUT:
        tree.status, tree.queens = Status.SOLVED, best[1]
        tree.objective = best[0] if form.maximise else None
    elif best is not None:
        tree.queens = best[1]
        tree.objective = best[0] if form.maximise else None
    if tree.queens:
        full = len(tree.queens) == problem.n
        ok = verify(problem.n, tree.queens, problem.preplaced) if full else not conflicts(tree.queens)
        if not ok:
            raise AssertionError(f"the kit's branch and bound produced an invalid placement: {tree.queens}")
    return tree


def tree_text(tree: Tree) -> list[str]:
    """The tree as indented lines, children under their parent, e.g.
    ``#3  x[2,4] = 1   LP bound 7.50, 6 fractional cells: branch on x[3,1]``."""
    children: dict[int | None, list[Node]] = {}
    for node in tree.nodes:
        children.setdefault(node.parent, []).append(node)
    lines: list[str] = []

    def walk(node: Node) -> None:
        how = "root" if node.branch is None else f"x[{node.branch[0][0]},{node.branch[0][1]}] = {node.branch[1]}"
        bound = f"LP bound {node.bound:.2f}, " if node.bound is not None else ""
        what = {"branched": f"{bound}{len(node.fractional)} fractional cells: branch on "
                            f"x[{node.branched_on[0]},{node.branched_on[1]}]" if node.branched_on else "",
                "integral": f"{bound}integral: a {'placement' if tree.objective is not None else 'board'}",
                "infeasible": "LP infeasible: no board below",
                "pruned": f"{bound}pruned: cannot beat the best placement found",
                "open": "not explored: a board was already found" if tree.status == Status.SOLVED
                        else "not explored (the limit stopped the search)"}[node.status]
        lines.append(f"{'  ' * node.depth}#{node.id:<3} {how:<14} {what}")
        for child in sorted(children.get(node.id, []), key=lambda c: -c.branch[1] if c.branch else 0):
            walk(child)

    for root in children.get(None, []):
        walk(root)
    return lines


class _Highs(Protocol):
    """What :func:`root_lp` uses of the ``highspy.Highs`` object PuLP solved with (CBC has none)."""

    def clearSolver(self) -> object: ...

    def run(self) -> object: ...

    def getInfo(self) -> object: ...


class RootLP(TypedDict):
    """The root LP of :func:`root_lp`."""

    n: int
    formulation: str
    solver: str
    state: str
    iterations: int | float | str | None
    seconds: float
    clock: str
    variables: int
    constraints: int | None
    nonzeros: int | None
    values: dict[Cell, float]
    fractional: int
    bound: float | None


def root_lp(problem: Problem | int, formulation: str = "lines", solver: str | None = None,
            repeat: int = 3) -> RootLP:
    """The LP relaxation of ``problem`` solved as the root of a tree is (through PuLP, as every node of
    :func:`branch_and_bound`), and timed ``repeat`` times: ``state``, ``iterations`` (simplex iterations,
    HiGHS; None for CBC), ``seconds`` (the best over the repeats: the same LP each time, so a busy machine can
    only add time) on the clock named by ``clock``: ``"processor"`` for HiGHS, which solves in this process
    and is re-run from scratch on the model it was given (processor time of the solve alone, not of handing
    the model over), else ``"solver"``, the LP solver's own report (CBC's processor seconds where its log
    gives them, else its wall clock); the model's ``variables``, ``constraints`` and ``nonzeros``, the cell
    ``values``, how many are ``fractional`` and the ``bound`` (the objective for max-queens, else None)."""
    problem = problem if isinstance(problem, Problem) else Problem(problem)
    if isinstance(repeat, bool) or not isinstance(repeat, int) or repeat < 1:
        raise InputError(f"repeat must be a whole number of at least 1, not {repeat!r}")
    form = get_formulation(formulation)
    backend = get_solver("ilp", solver).require()
    assert isinstance(backend, IlpSolver)
    model = build_model(problem, form, relax=True)
    run = _run(model, backend, None, None)
    highs: _Highs | None = getattr(model.prob, "solverModel", None)
    seconds = []
    if (not backend.command_line and highs is not None
            and all(hasattr(highs, name) for name in ("clearSolver", "run", "getInfo"))):
        clock = "processor"
        for _ in range(repeat):
            highs.clearSolver()  # the same LP from scratch: no basis kept from the last solve
            start = time.process_time()
            highs.run()
            seconds.append(time.process_time() - start)
    else:
        clock = "solver"
        for k in range(repeat):
            if k:
                model = build_model(problem, form, relax=True)
                run = _run(model, backend, None, None)
            own = run.stats.get("solver_cpu_seconds") or run.stats.get("solver_seconds")
            seconds.append(float(own if own is not None else run.seconds))
    values = {cell: min(1.0, max(0.0, float(var.varValue or 0.0))) for cell, var in model.x.items()}
    size = form.size(problem)
    return {"n": problem.n, "formulation": form.name, "solver": backend.name, "state": state_of(run),
            "iterations": run.stats.get("iterations"), "seconds": min(seconds), "clock": clock,
            "variables": size.variables, "constraints": size.constraints, "nonzeros": size.nonzeros,
            "values": values, "fractional": sum(TOLERANCE < v < 1 - TOLERANCE for v in values.values()),
            "bound": sum(values.values()) if form.maximise else None}
