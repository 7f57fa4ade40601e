"""The CP method: the problem as a constraint program, solved by a CP solver entry (OR-Tools CP-SAT by default,
Gecode through MiniZinc).

Its two *formulations* show what a constraint model can say that CNF and linear constraints cannot:

- ``alldifferent``: n integer variables q[r] in 1..n, the column of row r's queen (one queen per row is
  built into the variables), and three global constraints: AllDifferent on q (columns), on q[r] + r
  (anti-diagonals) and on q[r] - r (diagonals).  Pre-placed queens and blocked cells shrink domains.
- ``boolean``: the n² booleans and the lines of the SAT and ILP models: exactly one queen per row and
  column, at most one per diagonal of two or more cells.

The method describes the model (:func:`~.formulations.describe`: the problem in a formulation, with the instance
order and the settings' name) and hands it to the chosen entry of the CP family (:mod:`nqueens_kit.solvers.cp`),
which builds its own native model, solves it, lists its boards and says what it honours; symmetry breaking is the
lex-leader condition of the SAT and ILP methods.  What an entry answers is an
:class:`~nqueens_kit.solvers.base.Outcome`; only :func:`result_of` makes a result of it and words its message.

>>> CpMethod().choose("boolean").label
'CP boolean/cp-sat'
>>> CpMethod().choose("alldifferent", "minizinc").label
'CP alldifferent/minizinc'
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from ...palette import TOL_MUTED
from ...problem.board import Board, Problem
from ...problem.results import Answer, CountResult, Options, SolveResult, Status, infeasible_message
from ...runtime.limits import Size
from ...solvers import registry
from ...solvers.base import Outcome
from ...solvers.cp import CpModel, CpSolver
from ..base import Choice, Method
from .formulations import DEFAULT_SETTINGS, FORMULATIONS, SETTINGS, Formulation, describe

#: The message of a solve stopped at its time limit (the verbs add the limit's seconds).
NO_BOARD = "no board within the time limit"


def result_of(outcome: Outcome, model: CpModel, entry: CpSolver) -> SolveResult:
    """The result of ``entry``'s :class:`~nqueens_kit.solvers.base.Outcome` for ``model``: solved with its board,
    infeasible, timeout (at the deadline; ``why`` adds what it was doing) or error (the entry's reason)."""
    problem, size = model.problem, entry.size(model)
    result = SolveResult.of(problem, "cp", Answer(outcome.status).status, variant=model.name,
                            variant_kind="formulation", solver=entry.name, variables=size.variables,
                            constraints=size.constraints, build_seconds=outcome.build_seconds,
                            solve_seconds=outcome.seconds, stats=dict(outcome.stats), options=dict(outcome.options))
    if outcome.status == Answer.SAT:
        result.queens = tuple(outcome.board or ())
    elif outcome.status == Answer.UNSAT:
        result.message = infeasible_message(problem)
    elif outcome.memory:
        result.status, result.message = Status.MEMOUT, outcome.memory
    elif outcome.limit:
        result.status, result.message = Status.TIMEOUT, NO_BOARD + (f" ({outcome.why})" if outcome.why else "")
    else:
        result.status = Status.ERROR
        result.message = f"{entry.product_name} stopped without an answer ({outcome.why or 'no reason given'})"
    return result


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

    def settings_of(self, choice: Choice) -> str:
        """The settings' name a run of ``choice`` takes (the entry's default when none is named)."""
        return choice.settings or self.default_settings(choice.solver) or DEFAULT_SETTINGS

    def options(self, choice: Choice) -> Options:
        return self.entry(choice).options(self.settings_of(choice), choice.order)

    def size(self, problem: Problem, choice: Choice) -> Size:
        return self.entry(choice).size(describe(problem, choice.variant))

    def size_advice(self, problem: Problem, choice: Choice) -> str:
        better = "--formulation alldifferent, " if choice.variant == "boolean" else ""
        return f"use {better}a smaller n, or --method construct for one board of any size"

    def solve_here(self, problem: Problem, choice: Choice, deadline: float | None) -> SolveResult:
        entry, model = self.entry(choice), describe(problem, choice.variant)
        entry.require()
        return result_of(entry.solve(model, deadline, self.settings_of(choice), choice.order), model, entry)

    def iter_boards(self, problem: Problem, choice: Choice) -> Iterator[Board]:
        entry = self.entry(choice)
        entry.require()
        return entry.boards(describe(problem, choice.variant), self.settings_of(choice), choice.order)

    def count_note(self, result: CountResult) -> str:
        return self.solvers()[result.solver or next(iter(self.solvers()))].count_note(result)
