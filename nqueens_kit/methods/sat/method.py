"""The SAT method: the problem as a CNF formula in a chosen encoding, solved by a SAT solver.

Its variants are the at-most-one *encodings* (:mod:`.encodings`), its solvers every SAT registry entry
(pycosat, python-sat's solvers, DIMACS executables, or any executable on PATH).  It honours every feature
of a problem (pre-placed queens and blocked cells as unit clauses, symmetry breaking as lex-leader
clauses) and reordered instances, counts by cube and conquer (:mod:`.solve`), and its solvers that can
write proofs of unsatisfiability back ``solve --proof``.

>>> SatMethod().choose("commander", "pysat-minisat").label
'SAT commander/pysat-minisat'
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from ...palette import OKABE_ITO
from ...problem.board import Board, Problem
from ...problem.results import SolveResult
from ...runtime import isolate
from ...runtime.limits import Size
from ...solvers import SAT_SOLVERS, Solver, executable_solver
from ..base import Choice, Method
from .cnf import cnf_size
from .encodings import ENCODINGS, Encoding
from .solve import count_boards, iter_boards, solve_here


class SatMethod(Method):
    name = "sat"
    title = "SAT"
    summary = "a CNF formula solved by a SAT solver"
    variant_word = "encoding"
    model_word = "CNF"
    verbs = frozenset({"solve", "count", "iterate"})
    features = frozenset({"preplaced", "blocked", "break_symmetry", "reorder"})
    linestyle = "-"
    colours = {"pairwise": OKABE_ITO["blue"], "sequential": OKABE_ITO["orange"],
               "commander": OKABE_ITO["bluish green"], "product": OKABE_ITO["reddish purple"],
               "binary": OKABE_ITO["sky blue"]}
    count_rate = 25_000.0  # boards per second of the default (pycosat, pairwise) counting by border cubes
    bench_variants = ("pairwise", "sequential")
    proves = True

    def variants(self) -> Mapping[str, Encoding]:
        return ENCODINGS

    def solvers(self) -> Mapping[str, Solver]:
        return SAT_SOLVERS

    unregistered_hint = "or any DIMACS solver on PATH (or a path to one)"

    def unregistered_solver(self, name: str) -> Solver | None:
        """Any executable on PATH, or a path to one, that prints the SAT-competition format."""
        return executable_solver(name)

    def size(self, problem: Problem, choice: Choice) -> Size:
        return cnf_size(problem, choice.variant or "pairwise")

    def size_advice(self, problem: Problem, choice: Choice) -> str:
        better = "a helper-variable encoding (--encoding sequential), " if choice.variant == "pairwise" else ""
        return f"use {better}a smaller n, or --method construct for one board of any size"

    def solve_here(self, problem: Problem, choice: Choice, deadline: float | None) -> SolveResult:
        return solve_here(problem, choice.variant, choice.solver, deadline, order=choice.order)

    def iter_boards(self, problem: Problem, choice: Choice) -> Iterator[Board]:
        return iter_boards(problem, choice.variant, choice.solver)

    def count_here(self, problem: Problem, choice: Choice, fundamental: bool) -> tuple[int, int | None]:
        """By :func:`~.solve.count_boards`: the bare problem by its border cubes, each board found verified and
        counted for its orbit's share, its images neither built nor searched."""
        return count_boards(problem, choice.variant, choice.solver, fundamental,
                            lambda count, classes: isolate.report((count, classes)))
