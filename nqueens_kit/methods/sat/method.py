"""The SAT method: the problem as a CNF formula in a chosen encoding, solved by a SAT solver.

Its variants are the at-most-one *encodings* (:mod:`.encodings`) and ``native`` (at-most-one as cardinality
constraints, for the solvers that take them: :mod:`.native`), its solvers every SAT registry entry
(pycosat, python-sat's solvers, DIMACS executables, or any executable on PATH).  It honours every feature
of a problem (pre-placed queens and blocked cells as unit clauses, symmetry breaking as lex-leader
clauses) and reordered instances, counts by cube and conquer (:mod:`.solve`), and its solvers that can
write proofs of unsatisfiability back ``solve --proof``.

>>> SatMethod().choose("commander", "pysat-minisat").label
'SAT commander/pysat-minisat'
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from ...errors import InputError
from ...palette import OKABE_ITO
from ...problem.board import Board, Problem
from ...problem.results import SolveResult
from ...runtime import isolate
from ...runtime.limits import Size
from ...solvers import SAT_SOLVERS, Solver, executable_solver
from ..base import Choice, Method
from .cnf import cnf_size
from .encodings import ENCODINGS, Encoding
from .native import NATIVE, NATIVE_VARIANT, NativeVariant, count_native, iter_native, native_size, solve_native
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
               "binary": OKABE_ITO["sky blue"], NATIVE: "#332288"}  # indigo: no Okabe-Ito colour is spare
    count_rate = 25_000.0  # boards per second of the default (pycosat, pairwise) counting by border cubes
    bench_variants = ("pairwise", "sequential")
    proves = True

    def variants(self) -> Mapping[str, Encoding | NativeVariant]:
        """The clause encodings, then ``native`` (cardinality constraints, for the solvers that take them)."""
        return {**ENCODINGS, NATIVE: NATIVE_VARIANT}

    def solvers(self) -> Mapping[str, Solver]:
        return SAT_SOLVERS

    unregistered_hint = "or any DIMACS solver on PATH (or a path to one)"

    def unregistered_solver(self, name: str) -> Solver | None:
        """Any executable on PATH, or a path to one, that prints the SAT-competition format."""
        return executable_solver(name)

    def size(self, problem: Problem, choice: Choice) -> Size:
        if choice.variant == NATIVE:
            return native_size(problem)
        return cnf_size(problem, choice.variant or "pairwise")

    def check_entry(self, problem: Problem | None, verb: str, choice: Choice | None) -> None:
        """Refuse ``native`` with a solver that takes clauses only first, naming those that take it."""
        if choice is not None and choice.variant == NATIVE:
            entry = self._entry(choice)
            if entry is not None and not entry.capabilities.cardinality:
                able = [name for name, e in self.solvers().items() if e.capabilities.cardinality]
                raise InputError(f"--encoding native needs a solver that takes cardinality constraints "
                                 f"({', '.join(able)}); --solver {entry.name} takes clauses only: choose another "
                                 "encoding for it")
        super().check_entry(problem, verb, choice)

    def size_advice(self, problem: Problem, choice: Choice) -> str:
        better = "a helper-variable encoding (--encoding sequential), " if choice.variant == "pairwise" else ""
        return f"use {better}a smaller n, or --method construct for one board of any size"

    def solve_here(self, problem: Problem, choice: Choice, deadline: float | None) -> SolveResult:
        if choice.variant == NATIVE:
            return solve_native(problem, choice.solver, deadline, order=choice.order)
        return solve_here(problem, choice.variant, choice.solver, deadline, order=choice.order)

    def iter_boards(self, problem: Problem, choice: Choice) -> Iterator[Board]:
        if choice.variant == NATIVE:
            return iter_native(problem, choice.solver)
        return iter_boards(problem, choice.variant, choice.solver)

    def count_here(self, problem: Problem, choice: Choice, fundamental: bool) -> tuple[int, int | None]:
        """By :func:`~.solve.count_boards`: the bare problem by its border cubes, each board found verified and
        counted for its orbit's share, its images neither built nor searched (``native``: every board found by
        one incremental solver, each blocked)."""
        if choice.variant == NATIVE:
            return count_native(problem, choice.solver, fundamental,
                                lambda count, classes: isolate.report((count, classes)))
        return count_boards(problem, choice.variant, choice.solver, fundamental,
                            lambda count, classes: isolate.report((count, classes)))
