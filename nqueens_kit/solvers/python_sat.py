"""Solvers of the python-sat package (``pysat.solvers``): CaDiCaL, Kissat, Glucose, Lingeling, MiniSat, ...,
in process.

What each can do differs, so each registry entry states its own :class:`~.base.Capabilities` (measured on
python-sat 1.9): Glucose, MiniSat and MapleSAT can be interrupted at a deadline, CaDiCaL, Kissat and
Lingeling cannot (python-sat has no interrupt for them: a time limit then holds by stopping the process
the kit runs them in); Kissat reports no statistics, takes no assumptions and writes no proofs.  A clause
added between solves keeps the solver's state where ``incremental`` is true; Kissat is not incremental (a
clause added after a solve aborts the process), so :meth:`PySat.models` gives it a fresh solver for each
model, and :meth:`PySat.solve` hands it assumptions as unit clauses.  Minicard and Gluecard also take
cardinality constraints (``capabilities.cardinality``): the SAT method's ``native`` encoding
(:mod:`nqueens_kit.methods.sat.native`) hands them at-most-one constraints instead of clauses.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence

from ..problem.results import Answer, Statistics
from .base import Capabilities, Clause, PackageSolver, SatOutcome, SatSolver

#: python-sat is published as .dev releases only, so pip needs the pre-release named.
INSTALL_HINT = ('pip install "nqueens-kit[pysat]" '
                '(python-sat is published as .dev releases: pip install --pre python-sat)')


class PySat(PackageSolver, SatSolver):
    """One solver of python-sat, by its backend name (``cadical195``, ``glucose4``, ``minisat22``)."""

    kind = "pysat"
    module = "pysat.solvers"
    distribution = "python-sat"
    hint = INSTALL_HINT

    def __init__(self, name: str, backend: str, description: str, *, marker: str, proofs: bool = False,
                 time_limit: bool = False, incremental: bool = False, statistics: tuple[str, ...] = (),
                 assumptions: bool = False, advice: str = "", verbs: frozenset[str] = frozenset(),
                 features: frozenset[str] = frozenset(), variants: frozenset[str] = frozenset()) -> None:
        """An entry claims what its arguments say and nothing more: every capability defaults to absent; it takes
        cardinality constraints when its ``variants`` name that kind of encoding."""
        self.name, self.backend, self.description, self.marker, self.advice = name, backend, description, marker, advice
        self.capabilities = Capabilities(in_process=True, time_limit=time_limit, incremental=incremental,
                                         proofs=proofs, statistics=statistics, assumptions=assumptions,
                                         cardinality="cardinality" in variants)
        self.verbs, self.features, self.variants = verbs, features, variants

    @property
    def product(self) -> str:  # type: ignore[override]
        return self.description.split(" through")[0]

    def _new(self, clauses: Sequence[Clause]) -> object:
        from pysat.solvers import Solver

        return Solver(name=self.backend, bootstrap_with=clauses)

    def solve(self, clauses: Sequence[Clause], num_vars: int, deadline: float | None = None,
              assumptions: Sequence[int] = ()) -> SatOutcome:
        if assumptions and not self.capabilities.assumptions:  # python-sat would ignore them: units instead
            clauses, assumptions = [*clauses, *([lit] for lit in assumptions)], ()
        start = time.perf_counter()
        solver = self._new(clauses)
        handed = time.perf_counter() - start  # the clauses copied into the solver (no text in between)
        try:
            ok = _solve(solver, list(assumptions), deadline if self.capabilities.time_limit else None)
            stats = self._stats(solver) | {"handover_seconds": round(handed, 6)}
            seconds = time.perf_counter() - start
            if ok is None:
                return SatOutcome(Answer.UNKNOWN, seconds=seconds, stats=stats)
            if ok:
                return SatOutcome(Answer.SAT, solver.get_model(), seconds=seconds, stats=stats)  # type: ignore[attr-defined]
            core = solver.get_core() if assumptions else None  # type: ignore[attr-defined]
            return SatOutcome(Answer.UNSAT, seconds=seconds, stats=stats, core=list(core) if core else None)
        finally:
            solver.delete()  # type: ignore[attr-defined]

    def prove(self, clauses: Sequence[Clause], num_vars: int,
              deadline: float | None = None) -> tuple[SatOutcome, list[str] | None]:
        if not self.capabilities.proofs:
            return super().prove(clauses, num_vars, deadline)
        from pysat.solvers import Solver

        start = time.perf_counter()
        solver = Solver(name=self.backend, bootstrap_with=clauses, with_proof=True)
        try:
            ok = _solve(solver, [], deadline if self.capabilities.time_limit else None)
            seconds = time.perf_counter() - start
            stats = self._stats(solver)
            if ok is None:
                return SatOutcome(Answer.UNKNOWN, seconds=seconds, stats=stats), None
            if ok:
                return SatOutcome(Answer.SAT, solver.get_model(), seconds=seconds, stats=stats), None
            return SatOutcome(Answer.UNSAT, seconds=seconds, stats=stats), [str(line) for line in solver.get_proof()]
        finally:
            solver.delete()

    def _stats(self, solver: object) -> Statistics:
        if not self.capabilities.statistics:
            return {}
        found = solver.accum_stats() or {}  # type: ignore[attr-defined]
        return {str(key): value for key, value in found.items() if isinstance(value, (int, float, str))}

    def models(self, clauses: Sequence[Clause], num_vars: int,
               block: Callable[[list[int]], Clause]) -> Iterator[list[int]]:
        """Every model up to ``block``: one solver taking each blocking clause as it comes, or, for a solver that
        is not incremental (Kissat aborts the process on a clause added after a solve), a fresh solver for each
        model with the clauses so far."""
        if not self.capabilities.incremental:
            yield from super().models(clauses, num_vars, block)
            return
        solver = self._new(clauses)
        try:
            while solver.solve():  # type: ignore[attr-defined]
                model = solver.get_model()  # type: ignore[attr-defined]
                yield model
                solver.add_clause(block(model))  # type: ignore[attr-defined]
        finally:
            solver.delete()  # type: ignore[attr-defined]


def _solve(solver: object, assumptions: list[int], deadline: float | None) -> bool | None:
    """True / False, or None when the deadline interrupted the search."""
    if deadline is None:
        return bool(solver.solve(assumptions=assumptions))  # type: ignore[attr-defined]
    remaining = deadline - time.monotonic()
    if remaining <= 0:
        return None
    import threading

    timer = threading.Timer(remaining, solver.interrupt)  # type: ignore[attr-defined]
    timer.start()
    try:
        result = solver.solve_limited(assumptions=assumptions, expect_interrupt=True)  # type: ignore[attr-defined]
    finally:
        timer.cancel()
    return None if result is None else bool(result)
