"""pycosat: PicoSAT embedded in Python, the kit's default SAT solver.

It has no time limit (only a propagation limit) and cannot be interrupted, so a solve that must be
stoppable runs in a child process (:mod:`nqueens_kit.runtime.isolate`).  :meth:`Pycosat.all_models` is pycosat's
own incremental enumeration, which blocks each model over *all* variables: exact only for formulas whose
every variable is a function of the board (no helpers, or defined helpers).
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence

from ..problem.results import Answer
from .base import CLAUSES, SAT_FEATURES, SAT_VERBS, Capabilities, Clause, PackageSolver, SatOutcome, SatSolver


class Pycosat(PackageSolver, SatSolver):
    name = "pycosat"
    kind = "embedded"
    description = "PicoSAT embedded in Python (default)"
    capabilities = Capabilities(in_process=True)  # no time limit, statistics, assumptions or proofs
    marker = "o"
    verbs, features, variants = SAT_VERBS, SAT_FEATURES, CLAUSES
    module = distribution = "pycosat"
    product = "PicoSAT"
    hint = "pip install pycosat (or conda install -c conda-forge pycosat)"

    def solve(self, clauses: Sequence[Clause], num_vars: int, deadline: float | None = None,
              assumptions: Sequence[int] = ()) -> SatOutcome:
        import pycosat

        start = time.perf_counter()
        formula = list(clauses) + [[lit] for lit in assumptions] if assumptions else clauses
        result = pycosat.solve(formula, vars=num_vars)
        seconds = time.perf_counter() - start
        if result == "UNSAT":
            return SatOutcome(Answer.UNSAT, seconds=seconds)
        if result == "UNKNOWN":
            return SatOutcome(Answer.UNKNOWN, seconds=seconds)
        return SatOutcome(Answer.SAT, result, seconds=seconds)

    def all_models(self, clauses: Sequence[Clause], num_vars: int) -> Iterator[list[int]]:
        """pycosat's ``itersolve``: every model, each blocked over all variables."""
        import pycosat

        yield from pycosat.itersolve(clauses, vars=num_vars)
