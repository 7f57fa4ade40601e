"""The CP method: the problem as a constraint program, solved by a CP solver entry (OR-Tools CP-SAT by default,
Gecode through MiniZinc).

Its two *formulations* show what a constraint model can say that CNF and linear constraints cannot:

- ``alldifferent``: n integer variables q[r] in 1..n, the column of row r's queen (one queen per row is
  built into the variables), and three global constraints: AllDifferent on q (columns), on q[r] + r
  (anti-diagonals) and on q[r] - r (diagonals).  Pre-placed queens and blocked cells shrink domains.
- ``boolean``: the n² booleans and the lines of the SAT and ILP models: exactly one queen per row and
  column, at most one per diagonal of two or more cells.

The method describes the model (problem, formulation, instance order) and hands it to the chosen entry of the
CP family (:mod:`nqueens_kit.solvers.cp`), which builds its own native model, solves it, lists its boards and
says what it honours; symmetry breaking is the lex-leader condition of the SAT and ILP methods.

>>> CpMethod().choose("boolean").label
'CP boolean/cp-sat'
>>> CpMethod().choose("alldifferent", "minizinc").label
'CP alldifferent/minizinc'
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from ..palette import TOL_MUTED
from ..problem.board import Board, Problem
from ..problem.results import CountResult, Options, SolveResult
from ..runtime.limits import Size
from ..solvers import registry
from ..solvers.cp import FORMULATIONS, SETTINGS, CpSolver, Formulation, get_formulation
from .base import Choice, Method


class CpMethod(Method):
    name = "cp"
    title = "CP"
    summary = "a constraint program solved by OR-Tools CP-SAT or Gecode (MiniZinc)"
    variant_word = "formulation"
    model_word = "CP model"
    verbs = frozenset({"solve", "count", "iterate"})
    features = frozenset({"preplaced", "blocked", "break_symmetry", "reorder"})
    linestyle = (0, (5, 2))
    colours = {"alldifferent": TOL_MUTED["green"], "boolean": TOL_MUTED["wine"]}
    count_rate = 2_000.0
    bench_variants = ("alldifferent", "boolean")

    def variants(self) -> Mapping[str, Formulation]:
        return FORMULATIONS

    def solvers(self) -> Mapping[str, CpSolver]:
        return {name: entry for name, entry in registry("cp").items() if isinstance(entry, CpSolver)}

    def settings(self) -> Mapping[str, str]:
        return SETTINGS

    def entry(self, choice: Choice) -> CpSolver:
        return self.solvers()[choice.solver or next(iter(self.solvers()))]

    def options(self, choice: Choice) -> Options:
        return self.entry(choice).options(choice.settings, choice.order)

    def size(self, problem: Problem, choice: Choice) -> Size:
        return self.entry(choice).size(problem, get_formulation(choice.variant))

    def size_advice(self, problem: Problem, choice: Choice) -> str:
        better = "--formulation alldifferent, " if choice.variant == "boolean" else ""
        return f"use {better}a smaller n, or --method construct for one board of any size"

    def solve_here(self, problem: Problem, choice: Choice, deadline: float | None) -> SolveResult:
        entry = self.entry(choice)
        entry.require()
        return entry.solve(problem, get_formulation(choice.variant), choice.settings, choice.order, deadline)

    def iter_boards(self, problem: Problem, choice: Choice) -> Iterator[Board]:
        entry = self.entry(choice)
        entry.require()
        return entry.boards(problem, get_formulation(choice.variant), choice.settings, choice.order)

    def count_note(self, result: CountResult) -> str:
        return self.solvers()[result.solver or next(iter(self.solvers()))].count_note(result)
