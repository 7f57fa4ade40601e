"""The solvers of the browser edition (Pyodide, ``make lite``): python-sat's CaDiCaL with conflict budgets for
time limits, and HiGHS compiled to WebAssembly (the npm package ``highs``) solving PuLP's LP file.

:func:`for_browser` adapts a registry when the kit runs in a browser: these entries come first (so they are
the defaults) and every entry that cannot run there (executables, pycosat, CBC, which PuLP 3 wrongly lists
as available) stays listed but says in one line why not.  Outside a browser it returns the registry as it is
and :func:`sat_entries` and :func:`ilp_entries` are empty, so the desktop kit never sees these entries.

>>> for_browser({"x": 1}, sat_entries)
{'x': 1}
>>> ilp_entries()
[]
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any, TypeVar

from ..errors import SolverError, SolverNotAvailable
from ..problem.results import Answer
from ..runtime.browser import IN_BROWSER, REFUSED, budget_solve, needs
from .base import CLAUSES, PYSAT_COUNTERS, SAT_FEATURES, SAT_VERBS, Capabilities, Clause, SatOutcome, Solver
from .ilp_pulp import FORMULATION_NAMES, ILP_FEATURES, ILP_VERBS, Candidate, IlpSolver, pulp_module
from .python_sat import PySat

#: HiGHS for the browser: the npm package's ES module and its WebAssembly, served beside Pyodide.
HIGHS_MODULE = "highs.mjs"

if TYPE_CHECKING:  # Pyodide's and PuLP's objects (neither has type information outside a browser)
    from pulp import LpProblem, LpSolver
    from pyodide.ffi import JsProxy


class BrowserPySat(PySat):
    """python-sat in the browser: the same solver, but a time limit holds by conflict budgets (no threads)."""

    def solve(self, clauses: Sequence[Clause], num_vars: int, deadline: float | None = None,
              assumptions: Sequence[int] = ()) -> SatOutcome:
        start = time.perf_counter()
        solver: Any = self._new(clauses)
        try:
            ok = budget_solve(solver, assumptions, deadline if self.capabilities.time_limit else None)
            stats = self._stats(solver)
            seconds = time.perf_counter() - start
            if ok is None:
                return SatOutcome(Answer.UNKNOWN, seconds=seconds, stats=stats)
            if ok:
                return SatOutcome(Answer.SAT, solver.get_model(), seconds=seconds, stats=stats)
            core = solver.get_core() if assumptions else None
            return SatOutcome(Answer.UNSAT, seconds=seconds, stats=stats, core=list(core) if core else None)
        finally:
            solver.delete()


# -- HiGHS (WebAssembly) ------------------------------------------------------------------------------------

_highs: dict[str, JsProxy | str] = {}


def _highs_url() -> str:
    """Where the site serves ``highs.mjs``: beside Pyodide (``static/pyodide/``)."""
    from pyodide.code import run_js

    base = str(run_js("globalThis.location ? String(globalThis.location.href) : ''"))
    if "/extensions/" in base:  # the JupyterLite kernel's worker
        return base.split("/extensions/")[0] + "/static/pyodide/" + HIGHS_MODULE
    index = os.environ.get("NQUEENS_KIT_PYODIDE_INDEX", "")  # Pyodide in Node (the kit's own checks)
    return index.rstrip("/") + "/" + HIGHS_MODULE


def start_loading_highs() -> None:
    """Begin loading HiGHS (a promise: it resolves between two cells); :func:`highs_module` picks it up."""
    if not IN_BROWSER or _highs:
        return
    try:
        from pyodide.code import run_js
        from pyodide.ffi import create_once_callable

        url = _highs_url()
        promise = run_js(f"import({url!r}).then(m => m.default({{locateFile: f => {url!r}.replace(/[^/]*$/, f)}}))")
        _highs["promise"] = promise

        def keep(module: JsProxy) -> None:
            _highs["module"] = module

        def fail(error: object) -> None:
            _highs["error"] = str(error)

        promise.then(create_once_callable(keep), create_once_callable(fail))
    except Exception as exc:  # no JavaScript here (not a browser): the solver says it is missing
        _highs["error"] = f"{type(exc).__name__}: {exc}"


def highs_module() -> JsProxy:
    """The loaded HiGHS module, or :class:`SolverNotAvailable` saying why not (still loading, or failed)."""
    start_loading_highs()
    if "module" in _highs:
        return _highs["module"]
    if "error" in _highs:
        raise SolverNotAvailable(f"HiGHS (WebAssembly) could not be loaded: {_highs['error']}")
    try:
        from pyodide.ffi import can_run_sync, run_sync

        if can_run_sync():
            _highs["module"] = run_sync(_highs["promise"])
            return _highs["module"]
    except ImportError:
        pass
    raise SolverNotAvailable("HiGHS (WebAssembly) is still loading; run the cell again in a moment")


def _pulp_status(pulp: ModuleType, status: str, has_values: bool) -> tuple[int, int]:
    """PuLP's (status, solution status) for a HiGHS model status."""
    if status == "Optimal":
        return pulp.LpStatusOptimal, pulp.LpSolutionOptimal
    if status == "Infeasible":
        return pulp.LpStatusInfeasible, pulp.LpSolutionInfeasible
    if status in ("Unbounded", "Primal unbounded"):
        return pulp.LpStatusUnbounded, pulp.LpSolutionUnbounded
    if has_values:  # a time limit with a feasible board
        return pulp.LpStatusOptimal, pulp.LpSolutionIntegerFeasible
    return pulp.LpStatusNotSolved, pulp.LpSolutionNoSolutionFound


def highs_pulp_solver(timeLimit: float | None = None, gapRel: float | None = None, **rest: object) -> LpSolver:
    """A PuLP solver object that writes the model as an LP file and solves it with HiGHS (WebAssembly)."""
    pulp = pulp_module()

    class HiGHS_WASM(pulp.LpSolver):  # type: ignore[name-defined,misc]  # PuLP has no types
        name = "HiGHS_WASM"

        def __init__(self, timeLimit: float | None = None, gapRel: float | None = None, **rest: object) -> None:
            rest.pop("msg", None)
            super().__init__(msg=False, timeLimit=timeLimit, gapRel=gapRel)

        def available(self) -> bool:
            return IN_BROWSER

        def actualSolve(self, lp: LpProblem, **kwargs: object) -> int:
            from pyodide.ffi import to_js

            module = highs_module()
            with tempfile.TemporaryDirectory() as tmp:
                path = os.path.join(tmp, "model.lp")
                lp.writeLP(path)
                with open(path) as handle:
                    text = handle.read()
            settings: dict[str, bool | float] = {"output_flag": False}
            if self.timeLimit is not None:
                settings["time_limit"] = float(self.timeLimit)
            if self.optionsDict.get("gapRel") is not None:
                settings["mip_rel_gap"] = float(self.optionsDict["gapRel"])
            try:
                result = module.solve(text, to_js(settings, dict_converter=_js_object))
            except Exception as exc:
                raise SolverError(f"HiGHS (WebAssembly) failed: {str(exc).splitlines()[0]}") from None
            columns = result.Columns.to_py() if hasattr(result.Columns, "to_py") else dict(result.Columns)
            values = {name: column.get("Primal") for name, column in columns.items()}
            has_values = bool(values) and all(v is not None for v in values.values())
            status, solution = _pulp_status(pulp, str(result.Status), has_values)
            if has_values:
                for variable in lp.variables():
                    if variable.name in values:
                        variable.varValue = values[variable.name]
            lp.assignStatus(status, solution)
            return status

    return HiGHS_WASM(timeLimit=timeLimit, gapRel=gapRel)


def _js_object(entries: JsProxy) -> JsProxy:
    from js import Object

    return Object.fromEntries(entries)


class HighsWasm(IlpSolver):
    """HiGHS compiled to WebAssembly (npm ``highs``), solving the LP file PuLP writes; in process."""

    name = "highs-wasm"
    description = "HiGHS (WebAssembly, npm highs) on PuLP's LP file: the browser's ILP solver"
    capabilities = Capabilities(in_process=True, time_limit=True)
    marker = "P"
    verbs, features, variants, settings = ILP_VERBS, ILP_FEATURES, FORMULATION_NAMES, frozenset({"tuned"})
    advice = "the ILP solver of the browser edition"

    def preload(self) -> None:
        start_loading_highs()

    def candidates(self) -> Iterator[Candidate]:
        pulp_module()
        if IN_BROWSER:
            yield Candidate("HiGHS (WebAssembly)", highs_pulp_solver)

    def available(self) -> bool:
        return IN_BROWSER and "error" not in _highs

    def install_hint(self) -> str:
        return "HiGHS (WebAssembly) runs only in the browser edition (make lite); here use highs or cbc"

    def version(self) -> str | None:
        return "HiGHS (npm highs 1.15.3, WebAssembly)" if IN_BROWSER else None


def sat_entries() -> list[Solver]:
    """The browser's own SAT entries (none outside a browser)."""
    if not IN_BROWSER:
        return []
    return [BrowserPySat("pysat-browser", "cadical195", "CaDiCaL 1.9.5 through python-sat (WebAssembly)",
                         marker="8", proofs=True, time_limit=True, incremental=True, statistics=PYSAT_COUNTERS,
                         assumptions=True, verbs=SAT_VERBS, features=SAT_FEATURES, variants=CLAUSES,
                         advice="the SAT solver of the browser edition")]


def ilp_entries() -> list[Solver]:
    """The browser's own ILP entries (none outside a browser); HiGHS starts loading."""
    if not IN_BROWSER:
        return []
    start_loading_highs()
    return [HighsWasm()]


#: Why an entry cannot run in the browser, by its family (``kind``) or name.
_NOT_HERE = {
    "binary": "a DIMACS executable, and a browser runs no programs",
    "embedded": "pycosat has no WebAssembly build (import pycosat there is python-sat behind pycosat's API)",
    "cbc": "CBC is an executable, and a browser runs no programs (PuLP 3 lists it all the same)",
    "pyganak": "Ganak (pyganak) is compiled for Linux and macOS only, with no WebAssembly build",
    "highs": "highspy comes from the Pyodide CDN only (online: %pip install highspy); the browser's HiGHS "
             "is highs-wasm",
}

S = TypeVar("S", bound=Solver)


def not_in_browser(solver: S, reason: str) -> S:
    """``solver``, listed but unavailable, its install hint the one line ``reason``."""
    kind = type(solver)
    adapted = type(f"{kind.__name__}NotInBrowser", (kind,), {
        "available": lambda self: False,
        "install_hint": lambda self: f"not in the browser: {reason}",
        "preload": lambda self: None,
    })
    copy: S = object.__new__(adapted)
    copy.__dict__.update(solver.__dict__)
    REFUSED[solver.name] = copy.install_hint()
    return copy


def for_browser(registry: dict[str, S], entries: Callable[[], list[S]]) -> dict[str, S]:
    """``registry`` as the browser has it, ``entries()`` first (see the module docstring); itself outside a
    browser."""
    if not IN_BROWSER:
        return registry
    adapted: dict[str, S] = {s.name: s for s in entries()}
    for name, solver in registry.items():
        reason = _NOT_HERE.get(name) or _NOT_HERE.get(solver.kind)
        if reason is None and solver.capabilities.in_process is False:
            reason = needs("a child process", "this solver").split(", ", 1)[0]
        if reason:
            adapted[name] = not_in_browser(solver, reason)
        elif isinstance(solver, PySat) and not isinstance(solver, BrowserPySat):  # budgets, not timer threads
            copy: Any = object.__new__(BrowserPySat)
            copy.__dict__.update(solver.__dict__)
            adapted[name] = copy
        else:
            adapted[name] = solver
    return adapted

