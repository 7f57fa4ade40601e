"""SCIP as an ILP solver entry, in process through PySCIPOpt (whose wheels bundle SCIP) and PuLP's ``SCIP_PY``.

SCIP is a branch-and-cut solver that also does what a SAT solver does: it propagates bounds at every node and,
when a node is infeasible, analyses the conflict and learns a constraint from it.  Its ``no-conflicts`` settings
switch that conflict analysis off, so a course can measure what it buys (nodes and LP iterations, with and
without).  The kit reads SCIP's own counters from the model PuLP solved: nodes, LP iterations, solving time.

>>> SCIP.name, "no-conflicts" in SCIP.own_settings, SCIP.options("no-conflicts")["scip_params"]
('scip', True, {'conflict/enable': False})
"""

from __future__ import annotations

from collections.abc import Iterator

from ..problem.results import JSON, Options, Statistics
from .base import Capabilities, importable, package_version
from .ilp_pulp import FORMULATION_NAMES, ILP_COUNTERS, ILP_FEATURES, ILP_VERBS, Candidate, IlpSolver, pulp_module

#: SCIP's parameters under each named settings it takes (SCIP's defaults otherwise).
PARAMETERS: dict[str, dict[str, JSON]] = {
    "tuned": {},
    "no-conflicts": {"conflict/enable": False},
}


class Scip(IlpSolver):
    """SCIP through PySCIPOpt and PuLP (see the module docstring)."""

    name = "scip"
    kind = "pyscipopt"
    description = "SCIP through PuLP and PySCIPOpt (branch and cut with conflict analysis)"
    capabilities = Capabilities(in_process=True, time_limit=True, statistics=ILP_COUNTERS)
    marker = "^"
    verbs, features, variants = ILP_VERBS, ILP_FEATURES, FORMULATION_NAMES
    # SCIP runs its own defaults under the method's default settings (a second name for that run is not one it
    # takes), and its conflict analysis off under its own
    settings = frozenset({"tuned", "no-conflicts"})
    advice = "branch and cut that learns from conflicts, as a SAT solver does; --settings no-conflicts switches it off"
    own_settings = {"no-conflicts": "SCIP with its conflict analysis off (what learning from conflicts buys)"}
    module = "pyscipopt"

    def available(self) -> bool:
        return importable("pyscipopt") and self.find() is not None

    def install_hint(self) -> str:
        return 'pip install "nqueens-kit[scip]" (that is, pip install pyscipopt, whose wheels bundle SCIP)'

    def version(self) -> str | None:
        found = package_version("pyscipopt")
        return f"SCIP (pyscipopt {found})" if found else None

    def candidates(self) -> Iterator[Candidate]:
        pulp = pulp_module()
        if hasattr(pulp, "SCIP_PY"):
            yield Candidate("SCIP_PY (pyscipopt)", pulp.SCIP_PY)

    def options(self, settings: str) -> Options:
        return {"settings": settings, "scip_params": dict(PARAMETERS.get(settings, {}))}

    def engine_options(self, recorded: Options) -> dict[str, object]:
        params = recorded.get("scip_params")
        listed = [f"{key}={int(value) if isinstance(value, bool) else value}"
                  for key, value in (params.items() if isinstance(params, dict) else ())]
        return {"options": listed} if listed else {}

    def read_statistics(self, prob: object, log: str, state: str, stats: Statistics) -> str:
        scip = getattr(prob, "solverModel", None)
        if scip is None or not hasattr(scip, "getNNodes"):
            return state
        stats["nodes"] = int(scip.getNNodes())
        stats["iterations"] = int(scip.getNLPIterations())
        stats["solver_seconds"] = round(float(scip.getSolvingTime()), 6)
        stats["solver_status"] = str(scip.getStatus())
        if state in ("optimal", "feasible") and hasattr(scip, "getNSols") and scip.getNSols() == 0:
            return "none"  # PuLP 2.8 reads SCIP's time limit as a solution found, though SCIP has none
        return state

    def highlights(self, log: str) -> list[str]:
        """Presolving's result, the node table's last rows and the totals."""
        lines = [line.rstrip() for line in log.splitlines()]
        table = [line for line in lines if "|" in line and line.strip()[:1] in "0123456789 *dhHsrRpPLlFuUoO"]
        return [line for line in lines if line.startswith(("presolving", "SCIP Status", "Solving Time",
                                                           "Solving Nodes", "Primal Bound", "Dual Bound", "Gap"))
                or line in table[-5:]]


SCIP = Scip()
