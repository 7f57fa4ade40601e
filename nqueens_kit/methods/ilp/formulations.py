"""The ILP formulations as objects: what each one builds from the problem's lines, and how it is solved.

A :class:`Formulation` says its sense and objective (feasibility, or maximise the number of queens), how
it turns each :class:`~nqueens_kit.problem.board.Line` into linear constraints, what "solved" means for it, and the
solver settings it runs with.  :data:`FORMULATIONS` is the registry (the first is the default).

Solver settings are a named, recorded choice (:data:`SETTINGS`): ``tuned`` (the default) switches off
CBC's feasibility pump, preprocessing and cut generation, because on these models the first integer
point comes from the pump, whose cost jumps erratically with n, the CBC build and the column order;
``default`` runs CBC with its own defaults.  HiGHS and SCIP run their defaults under ``tuned`` and refuse
``default``, a second name for the same run.  Whatever
was used is returned in ``SolveResult.options`` and written to ``--json`` and the bench sidecar.

>>> FORMULATIONS["lines"].maximise, FORMULATIONS["max-queens"].maximise
(False, True)
>>> solver_options("cbc", "tuned")
{'settings': 'tuned', 'cbc_options': ['feas off', 'preprocess off', 'cuts off']}
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import combinations
from typing import TYPE_CHECKING

from ...errors import InputError
from ...problem.board import Cell, Problem
from ...problem.results import Options
from ...runtime.limits import ILP_BYTES_PER_NONZERO, ILP_BYTES_PER_VARIABLE, Size
from ...solvers.ilp_pulp import IlpSolver

if TYPE_CHECKING:  # PuLP has no type information: these names say what the objects are
    from pulp import LpAffineExpression, LpConstraint, LpVariable


#: The ILP method's named settings, the first the default; each entry says which it takes (``settings``: a name
#: that would run it as another does is not one it takes) and what each means for it, and an entry may have settings
#: of its own (:attr:`~nqueens_kit.solvers.ilp_pulp.IlpSolver.own_settings`).
SETTINGS: dict[str, str] = {
    "tuned": "CBC with feasibility pump, preprocessing and cuts off (which of the two CBC settings is faster "
             "depends on n, the instance and the CBC build: chapter 5's sweep measures it); HiGHS and SCIP defaults",
    "default": "CBC with its own default settings (HiGHS and SCIP run theirs under tuned)",
}
DEFAULT_SETTINGS = "tuned"


def all_settings() -> dict[str, str]:
    """The method's named settings, then those that only some solver entry has (SCIP's ``no-conflicts``)."""
    from ...solvers import registry

    own = {name: text for entry in registry("ilp").values() if isinstance(entry, IlpSolver)
           for name, text in entry.own_settings.items()}
    return {**SETTINGS, **own}


def get_settings(name: str | None) -> str:
    if name is None:
        return DEFAULT_SETTINGS
    valid = all_settings()
    if not isinstance(name, str) or name not in valid:
        raise InputError(f"unknown solver settings {str(name)[:40]!r}; valid: {', '.join(valid)}")
    return name


def solver_options(solver: str, settings: str | None = None) -> Options:
    """The options ``solver`` runs with under ``settings``, as recorded in results (the entry says)."""
    from ...solvers import get_solver

    entry = get_solver("ilp", solver)
    if not isinstance(entry, IlpSolver):
        raise InputError(f"{solver!r} is not an ILP solver")
    return entry.options(get_settings(settings))


@dataclass(frozen=True)
class Formulation:
    """One way of writing N-queens as an integer program over binaries x[r, c].

    ``maximise``: maximise the number of queens with every line at most one (else a feasibility problem
    with no objective); ``exact_lines``: rows and columns sum to exactly one; ``pair_diagonals``: each
    diagonal becomes one constraint x_a + x_b <= 1 per attacking pair instead of one sum <= 1.
    """

    name: str
    summary: str
    maximise: bool = False
    exact_lines: bool = True
    pair_diagonals: bool = False

    @property
    def sense(self) -> str:
        return "maximise" if self.maximise else "feasibility"

    def constraints(self, problem: Problem, x: dict[Cell, LpVariable],
                    lp_sum: Callable[[list[LpVariable]], LpAffineExpression]) -> Iterator[tuple[LpConstraint, str]]:
        """``(constraint, name)`` for every line and every pre-placed queen.

        ``pair_diagonals`` adds no pairs inside rows and columns: x >= 0 with a row sum of 1 already implies
        x_a + x_b <= 1 there, for the integer model and the LP relaxation alike.
        """
        for line in problem.lines():
            cells = line.cells
            if line.exact and self.exact_lines:
                yield lp_sum([x[c] for c in cells]) == 1, line.name
            elif line.exact or not self.pair_diagonals:
                yield lp_sum([x[c] for c in cells]) <= 1, line.name
            else:  # one constraint per attacking pair, named by the pair's two rows
                for a, b in combinations(cells, 2):
                    yield x[a] + x[b] <= 1, f"{line.name}_pair_{a[0]}_{b[0]}"
        for r, c in problem.preplaced:
            yield x[r, c] + 0 == 1, f"placed_{r}_{c}"
        for r, c in problem.blocked:
            yield x[r, c] + 0 == 0, f"blocked_{r}_{c}"

    def objective(self, x: dict[Cell, LpVariable],
                  lp_sum: Callable[[list[LpVariable]], LpAffineExpression]) -> LpAffineExpression | None:
        """The objective expression, or None for a feasibility problem."""
        return lp_sum(list(x.values())) if self.maximise else None

    def size(self, problem: Problem) -> Size:
        """The size of the model: n² binaries; rows and columns, then one constraint per diagonal line or one per
        attacking pair on a diagonal (``pair_diagonals``); one per pre-placed queen and blocked cell; with the
        symmetry broken, one binary and six constraints per cell pair lex-leader compares."""
        n, fixed = problem.n, len(problem.preplaced) + len(problem.blocked)
        diagonal_cells = 2 * (n * n - 2) if n >= 2 else 0  # cells on diagonals of two or more, both directions
        pairs = n * (n - 1) * (2 * n - 1) // 3
        constraints = 2 * n + fixed + (pairs if self.pair_diagonals else max(0, 2 * (2 * n - 3)))
        nonzeros = 2 * n * n + fixed + (2 * pairs if self.pair_diagonals else diagonal_cells)
        variables = n * n
        if problem.break_symmetry:
            # The cell pairs lex_pairs lists, in closed form: the three rotations move every cell but the centre
            # of an odd board, the two mirrors all but its middle column or row, the two transposes all but n.
            odd = n % 2
            compared = 3 * (n * n - odd) + 2 * (n * n - n * odd) + 2 * (n * n - n)
            variables += compared
            constraints += 6 * compared
            nonzeros += 15 * compared
        return Size(variables, constraints=constraints, nonzeros=nonzeros,
                    memory=ILP_BYTES_PER_NONZERO * nonzeros + ILP_BYTES_PER_VARIABLE * variables)

    def solved_means(self) -> str:
        if self.maximise:
            return "the proven optimum is n queens (a smaller optimum means no board exists)"
        return "the solver finds a feasible point; it is a board by construction"


#: Name -> formulation, in teaching order; the first is the default.
FORMULATIONS: dict[str, Formulation] = {
    f.name: f
    for f in (
        Formulation("lines", "row and column sums = 1, every diagonal sum <= 1; a feasibility problem with no "
                             "objective"),
        Formulation("pairwise", "row and column sums = 1, x_a + x_b <= 1 for every pair on a diagonal (the "
                                "linear twin of the pairwise clauses; a much weaker LP relaxation)",
                    pair_diagonals=True),
        Formulation("max-queens", "maximise the number of queens with every line <= 1 (the textbook variant; "
                                  "optimum n for n >= 4)", maximise=True, exact_lines=False),
    )
}
DEFAULT_FORMULATION = "lines"


def get_formulation(name: str | Formulation | None) -> Formulation:
    """A formulation by name (None: the default), or a one-line :class:`InputError` listing the valid ones."""
    if name is None:
        return FORMULATIONS[DEFAULT_FORMULATION]
    if isinstance(name, Formulation):
        return name
    try:
        return FORMULATIONS[name]
    except (KeyError, TypeError):
        raise InputError(f"unknown formulation {name!r}; valid: {', '.join(FORMULATIONS)}") from None
