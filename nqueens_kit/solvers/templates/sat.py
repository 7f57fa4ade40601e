"""A SAT entry to copy (see :mod:`nqueens_kit.solvers.templates`): a solver in a Python package, run in this process.

What to change: the class's name and ``name``, ``description``, ``marker`` (a matplotlib marker no other SAT entry
uses), ``module`` / ``distribution`` / ``hint`` / ``product`` (how it is found, installed and named), and the three
lines of :meth:`TemplateSat.solve` that call the solver.  Then declare what it does, and nothing more: the contract
runs every claim.  If the solver stops itself at a deadline, pass it the time left, and set ``time_limit=True``;
if it reports counters, put them in ``stats`` and name them in ``statistics``.  Without a time limit of its own,
the method runs every solve with a limit in a child process and stops that.

One line in :mod:`nqueens_kit.solvers` registers it: ``TemplateSat(),`` among the entries of ``SAT_SOLVERS``.

>>> TEMPLATE_SAT.solve([[1, 2], [-1], [-2, 3]], 3).model
[-1, 2, 3]
>>> TEMPLATE_SAT.solve([[1], [-1]], 1).status
'unsat'
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from ...problem.results import Answer
from ..base import CLAUSES, SAT_FEATURES, SAT_VERBS, Capabilities, Clause, Outcome, PackageSolver, SatSolver


class TemplateSat(PackageSolver, SatSolver):
    """pycosat (PicoSAT) as a template entry."""

    name = "template-sat"
    kind = "template"
    description = "PicoSAT through pycosat, as the template of a SAT entry"
    marker = "$S$"
    module, distribution, product = "pycosat", "pycosat", "PicoSAT"
    hint = "pip install pycosat"
    # What it does, stated: it runs in this process, has no time limit of its own and reports no counters.
    capabilities = Capabilities(in_process=True)
    verbs, features, variants = SAT_VERBS, SAT_FEATURES, CLAUSES

    def solve(self, clauses: Sequence[Clause], num_vars: int, deadline: float | None = None,
              assumptions: Sequence[int] = ()) -> Outcome:
        import pycosat  # imported when it runs: listing the solvers imports no solver

        start = time.perf_counter()
        answer = pycosat.solve([list(map(int, clause)) for clause in clauses], vars=num_vars)
        seconds = time.perf_counter() - start
        if answer == "UNSAT":
            return Outcome(Answer.UNSAT, seconds=seconds)
        if answer == "UNKNOWN":  # its own word for stopping without an answer
            return Outcome(Answer.UNKNOWN, seconds=seconds, why="pycosat said UNKNOWN")
        return Outcome(Answer.SAT, model=list(answer), seconds=seconds)


TEMPLATE_SAT = TemplateSat()
