"""The ILP model of a problem in a formulation: :func:`build_model` (PuLP variables ``x_r_c``, the
formulation's constraints, the pre-placed and blocked cells, and with the symmetry broken the lex-leader
rows of :func:`add_lex_leader`), held with its counts as an :class:`IlpModel`.  :mod:`.model` re-exports
every public name here.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...errors import InputError
from ...problem.board import Board, Cell, Problem, lex_pairs, whole_number
from ...runtime.limits import builder_budget, check_room, check_size
from ...solvers.ilp_pulp import pulp_module
from .formulations import DEFAULT_FORMULATION, Formulation, get_formulation

if TYPE_CHECKING:  # PuLP has no type information: these names say what the objects are
    from pulp import LpAffineExpression, LpConstraint, LpProblem, LpVariable


#: A binary reads as 1 above this value: solvers hand back 0.9999999 or 1e-9, so never test ``== 1``.
ONE = 0.5


def _as_problem(problem: Problem | int) -> Problem:
    return problem if isinstance(problem, Problem) else Problem(problem)


@dataclass
class IlpModel:
    """A PuLP model of one problem: ``prob`` (the ``LpProblem``) and ``x[(r, c)]`` (the cell variables)."""

    problem: Problem
    formulation: Formulation
    prob: LpProblem
    x: dict[Cell, LpVariable]
    relaxed: bool = False
    build_seconds: float = 0.0

    @property
    def maximise(self) -> bool:
        """Whether the model maximises (its optimum must be proven for "solved")."""
        return self.formulation.maximise

    @property
    def variant(self) -> str:
        return self.formulation.name

    @property
    def num_variables(self) -> int:
        return len(self.x)

    @property
    def num_constraints(self) -> int:
        return len(_constraints(self.prob))

    def constraint_names(self) -> list[str]:
        """Constraint names in the order they were added."""
        return [c.name for c in _constraints(self.prob)]

    def constraint(self, name: str) -> LpConstraint:
        """The PuLP constraint called ``name`` (KeyError if there is none)."""
        found = (self.prob.get_constraint_by_name(name) if hasattr(self.prob, "get_constraint_by_name")
                 else self.prob.constraints.get(name))
        if found is None:
            raise KeyError(name)
        return found

    def board(self) -> Board:
        """The queens of the solution the solver left in the variables (x > 0.5)."""
        return tuple(sorted(cell for cell, var in self.x.items() if (var.varValue or 0.0) > ONE))


def _constraints(prob: LpProblem) -> list[LpConstraint]:
    """The constraints of an LpProblem: ``prob.constraints()`` in PuLP >= 3.3, a dict before."""
    listed = prob.constraints
    return list(listed()) if callable(listed) else list(listed.values())


def build_model(problem: Problem | int, formulation: str | Formulation = DEFAULT_FORMULATION,
                relax: bool = False, order: int | None = None, max_memory: object = None) -> IlpModel:
    """The PuLP model of ``problem`` in ``formulation``; ``relax`` makes the variables continuous in 0..1.
    ``order`` renames the variables in a random order and shuffles the constraints (another instance of the
    same model for a solver; the same on every machine for the same seed).

    One linear pass over :meth:`Problem.lines` (each line lists its own cells), so building costs
    O(n²) for ``lines`` and ``max-queens``; ``pairwise`` has O(n³) pair constraints by its nature.
    The size guard of the command line runs first: a model whose predicted memory is above ``max_memory``
    (bytes or a size such as ``"8G"``), or above what the process's own limits leave (``ulimit -v``, a
    control group: :func:`~nqueens_kit.runtime.limits.check_room`), is refused with one line rather than
    built.  Without ``max_memory`` the budget is the larger of the kit's
    (:func:`~nqueens_kit.runtime.limits.memory_budget`) and the machine's default share: a verb that builds
    the model has already held it to its own budget, which may be an explicit one above the environment's.
    """
    problem = _as_problem(problem)
    form = get_formulation(formulation)
    if not isinstance(relax, bool):
        raise InputError(f"relax is True or False, not {str(relax)[:40]!r}")
    if order is not None and (isinstance(order, str) or whole_number(order) is None):
        raise InputError(f"order is a whole number (a seed) or None, not {str(order)[:40]!r}")
    better = 'formulation="lines", ' if form.name == "pairwise" else ""
    what, advice = f"the {form.name} ILP model of {problem.n}-queens", \
        f'use {better}a smaller n, solve(n, "sat"), or construct(n) for one board of any size'
    check_size(form.size(problem), what, advice, builder_budget(max_memory))
    check_room(form.size(problem), what, advice)  # what the process's own limits leave (ulimit -v, a cgroup)
    pulp = pulp_module()
    start = time.perf_counter()
    n = problem.n
    prob = pulp.LpProblem(f"queens_{n}_{form.name.replace('-', '_')}",
                          pulp.LpMaximize if form.maximise else pulp.LpMinimize)
    rows = range(1, n + 1)
    category = pulp.LpContinuous if relax else pulp.LpBinary
    if order is not None:
        rng = random.Random(f"nqueens-kit-order:{order}")
        labels = list(range(n * n))
        rng.shuffle(labels)
        named = zip([(r, c) for r in rows for c in rows], labels, strict=True)
        if hasattr(prob, "add_variable"):
            x = {cell: prob.add_variable(f"x{label:07d}", 0, 1, category) for cell, label in named}
        else:
            x = {cell: pulp.LpVariable(f"x{label:07d}", 0, 1, category) for cell, label in named}
        constraints = list(form.constraints(problem, x, pulp.lpSum))
        rng.shuffle(constraints)
    else:
        if hasattr(prob, "add_variable_dict"):  # PuLP 4: variables owned by the problem, made in one batch
            x = prob.add_variable_dict("x", (rows, rows), 0, 1, category)
        else:
            x = pulp.LpVariable.dict("x", (rows, rows), 0, 1, category)
        constraints = list(form.constraints(problem, x, pulp.lpSum))
    for constraint, name in constraints:
        prob.addConstraint(constraint, name)
    objective = form.objective(x, pulp.lpSum)
    if objective is not None:
        prob.setObjective(objective)
    model = IlpModel(problem, form, prob, x, relax)
    if problem.break_symmetry:
        add_lex_leader(model)
    model.build_seconds = time.perf_counter() - start
    return model


def add_lex_leader(model: IlpModel) -> int:
    """Add x >=lex s(x) for the 7 non-identity symmetries (lex-leader symmetry breaking, as in
    :func:`~nqueens_kit.methods.sat.cnf.lex_leader_clauses`): per compared pair of cells a binary e, "equal so
    far", and six linear constraints; returns how many constraints were added."""
    pulp = pulp_module()
    added = 0
    category = pulp.LpContinuous if model.relaxed else pulp.LpBinary
    for k, (_name, pairs) in enumerate(lex_pairs(model.problem.n)):
        previous: LpAffineExpression | int = 1
        for i, (p, q) in enumerate(pairs):
            x, y = model.x[p], model.x[q]
            if hasattr(model.prob, "add_variable"):  # PuLP 4: variables belong to the problem
                e = model.prob.add_variable(f"lex_{k}_{i}", 0, 1, category)
            else:
                e = pulp.LpVariable(f"lex_{k}_{i}", 0, 1, cat=category)
            for constraint in (x - y >= previous - 1, e >= previous - x - y, e >= previous + x + y - 2,
                               e <= previous, e <= 1 - x + y, e <= 1 + x - y):
                model.prob.addConstraint(constraint, f"lex_{k}_{i}_{added % 6}")
                added += 1
            previous = e
    return added
