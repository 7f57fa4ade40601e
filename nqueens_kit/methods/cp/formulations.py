"""The CP method's vocabulary: its formulations and its named settings.

A :class:`Formulation` is one way of writing N-queens as a constraint model; :meth:`Formulation.model` describes
it for a problem as the solver-neutral :class:`~nqueens_kit.solvers.cp.CpModel` every CP entry builds its own
native model from.  :data:`SETTINGS` names how many search workers a solve runs; each entry says which of them
it takes, and what it runs under each is its own.

>>> [f.name for f in FORMULATIONS.values()], get_formulation("boolean").model(Problem(8)).integer
(['alldifferent', 'boolean'], False)
"""

from __future__ import annotations

from dataclasses import dataclass

from ...errors import InputError
from ...problem.board import Problem
from ...solvers.cp import CpModel


@dataclass(frozen=True)
class Formulation:
    """One way of writing N-queens as a constraint model; ``integer``: one integer variable per row."""

    name: str
    summary: str
    integer: bool

    def model(self, problem: Problem) -> CpModel:
        """The model of ``problem`` in this formulation, as the method hands it to an entry."""
        return CpModel(problem, self.name, self.integer)


#: The formulations, the default first.
FORMULATIONS: dict[str, Formulation] = {
    "alldifferent": Formulation("alldifferent", "q[r] in 1..n per row; AllDifferent on q, q[r] + r and q[r] - r",
                                integer=True),
    "boolean": Formulation("boolean", "n² booleans; exactly one per row and column, at most one per diagonal",
                           integer=False),
}

#: Named settings of the CP method, the default first (an entry says which it honours and what each means).
SETTINGS = {"one-worker": "one search worker, as every other method has one core (fair benchmarks)",
            "all-cores": "one search worker per core (solve only: enumeration uses one)"}
DEFAULT_SETTINGS = "one-worker"


def get_formulation(name: str | Formulation | None) -> Formulation:
    """A formulation by name (None: the default), or a one-line error listing the valid ones."""
    if isinstance(name, Formulation):
        return name
    if name is None:
        return next(iter(FORMULATIONS.values()))
    if not isinstance(name, str) or name not in FORMULATIONS:
        raise InputError(f"unknown formulation {str(name)[:40]!r} for --method cp; valid: {', '.join(FORMULATIONS)}")
    return FORMULATIONS[name]


def describe(problem: Problem, formulation: str | Formulation | None = None) -> CpModel:
    """The model of ``problem`` in ``formulation`` (a name, None: the default) as every CP entry is handed it."""
    return get_formulation(formulation).model(problem)
