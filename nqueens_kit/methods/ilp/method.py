"""The ILP method: the problem as an integer linear program in a chosen formulation, solved through PuLP.

Its variants are the *formulations* (:mod:`.formulations`), its solvers the ILP family's entries (CBC, HiGHS,
SCIP: :mod:`nqueens_kit.solvers.ilp_pulp`), its settings the recorded ``tuned`` / ``default`` solver options.
Pre-placed queens are ``x = 1``, blocked cells ``x = 0``, symmetry breaking lex-leader constraints; counting
is by no-good cuts, one full re-solve per board.

>>> IlpMethod().choose("pairwise", "highs").label
'ILP pairwise/highs'
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from ...palette import OKABE_ITO
from ...problem.board import Board, Problem
from ...problem.results import CountResult, Options, SolveResult
from ...runtime.limits import Size
from ...solvers import registry
from ...solvers.ilp_pulp import IlpSolver
from ..base import Choice, Method
from .formulations import FORMULATIONS, Formulation, all_settings, get_formulation, solver_options
from .model import iter_boards, solve_here


class IlpMethod(Method):
    name = "ilp"
    title = "ILP"
    summary = "an integer linear program solved through PuLP by CBC, HiGHS or SCIP"
    variant_word = "formulation"
    model_word = "ILP model"
    verbs = frozenset({"solve", "count", "iterate"})
    features = frozenset({"preplaced", "blocked", "break_symmetry", "reorder"})
    linestyle = "--"
    colours = {"lines": OKABE_ITO["vermillion"], "pairwise": "#8C510A",  # brown: the twin of the pairwise clauses
               "max-queens": OKABE_ITO["black"]}
    count_rate = 7.0
    bench_variants = ("lines",)

    def variants(self) -> Mapping[str, Formulation]:
        return FORMULATIONS

    def solvers(self) -> Mapping[str, IlpSolver]:
        return {name: entry for name, entry in registry("ilp").items() if isinstance(entry, IlpSolver)}

    def settings(self) -> Mapping[str, str]:
        return all_settings()

    def options(self, choice: Choice) -> Options:
        return solver_options(choice.solver or next(iter(self.solvers())), choice.settings)

    def size(self, problem: Problem, choice: Choice) -> Size:
        return get_formulation(choice.variant).size(problem)

    def size_advice(self, problem: Problem, choice: Choice) -> str:
        better = "--formulation lines, " if choice.variant == "pairwise" else ""
        return f"use {better}a smaller n, --method sat, or --method construct for one board of any size"

    def solve_here(self, problem: Problem, choice: Choice, deadline: float | None) -> SolveResult:
        return solve_here(problem, choice.variant, choice.solver, deadline, choice.settings, order=choice.order)

    def iter_boards(self, problem: Problem, choice: Choice) -> Iterator[Board]:
        return iter_boards(problem, choice.variant, choice.solver, choice.settings)

    def count_note(self, result: CountResult) -> str:
        solves = result.count + 1
        each = result.seconds / solves * 1000
        return (f"{solves} full re-solves, one no-good cut per solution ({each:.0f} ms each): "
                "slow by design; --method sat or backtrack count in milliseconds")
