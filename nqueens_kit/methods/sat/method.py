"""The SAT method: the problem as a CNF formula in a chosen encoding, solved by a SAT solver.

Its variants are the registered *encodings* (:mod:`.encodings`): the at-most-one encodings in clauses and
``native`` (at-most-one as cardinality constraints, for the solvers that take them: :mod:`.native`); each
says its colour and the kind of formula it makes, which is what a solver entry declares it takes.  Its
solvers are every SAT registry entry (pycosat, python-sat's solvers, DIMACS executables, or any executable
on PATH).  It honours every feature
of a problem (pre-placed queens and blocked cells as unit clauses, symmetry breaking as lex-leader
clauses) and reordered instances, counts by cube and conquer (:mod:`.solve`), and its solvers that can
write proofs of unsatisfiability back ``solve --proof``.

>>> SatMethod().choose("commander", "pysat-minisat").label
'SAT commander/pysat-minisat'
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from ...errors import InputError
from ...problem.board import Board, Problem
from ...problem.results import SolveResult
from ...runtime import isolate
from ...runtime.limits import Size
from ...solvers import SAT_SOLVERS, Solver, executable_solver
from ..base import Choice, Method
from .cnf import cnf_size
from .encodings import CARDINALITY, KINDS, VARIANTS, Colours, SatVariant
from .native import NATIVE, count_native, iter_native, native_size, solve_native
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
    colours = Colours()  # each encoding's own, from the registry
    count_rate = 25_000.0  # boards per second of the default (pycosat, pairwise) counting by border cubes
    bench_variants = ("pairwise", "sequential")
    proves = True

    def variants(self) -> Mapping[str, SatVariant]:
        """The registered encodings: the clause encodings, then ``native`` (cardinality constraints, for the
        solvers that take them)."""
        return VARIANTS

    def variant_kind(self, variant: str) -> str:
        """The kind of formula the encoding makes (``clauses``, ``cardinality``): what an entry declares it takes.

        >>> SatMethod().variant_kind("binary"), SatMethod().variant_kind("native")
        ('clauses', 'cardinality')
        """
        return VARIANTS[variant].kind if variant in VARIANTS else variant

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
        """Refuse an encoding of cardinality constraints (``native``) with a solver that takes clauses only first,
        naming those that take them."""
        variant = choice.variant if choice is not None else None
        if variant is not None and self.variant_kind(variant) == CARDINALITY:
            entry = self._entry(choice)
            if entry is not None and not entry.capabilities.cardinality:
                able = [name for name, e in self.solvers().items() if e.capabilities.cardinality]
                raise InputError(f"--encoding {variant} needs a solver that takes {KINDS[CARDINALITY]} "
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
