"""One timed run: a configuration on one instance, in a fresh Python process with a wall-clock limit.

:func:`run_worker` (the parent) hands :func:`run_job` to :func:`nqueens_kit.runtime.isolate.run_in_child` with
``fresh=True``: a new interpreter imports the kit and the solver's Python package, says it is ready, and
only then is the run timed, so interpreter start-up and imports are recorded apart (``startup_seconds``).
The child leads its own process group: at the limit it is killed with every solver process it started.

What a run measures (the record that becomes a CSV row):

- ``total_seconds``: wall clock from "ready" to the answer (build + solve + decode + verify);
- ``build_seconds`` / ``solve_seconds``: the kit's own split; ``solver_seconds``: what the solver reports;
- ``cpu_seconds``: user + system time of the child and every process it waited for (CBC, a DIMACS binary),
  after "ready" — on one core ``cpu <= wall``; a multi-threaded solver can exceed it;
- ``peak_rss_mb``: the largest resident memory of the child and its solver processes together;
- ``conflicts`` (SAT solvers that count them: python-sat) and ``nodes`` (ILP branch-and-bound nodes): the
  search effort the solver reports, which does not depend on the machine or its load.

>>> record = run_worker({"method": "sat", "variant": "pairwise", "solver": "pycosat", "n": 8, "preplaced": []}, 30)
>>> record["status"], record["verified"], record["clauses"]
('solved', True, 744)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any

from ..methods import Choice, get_method, solve
from ..problem.board import Problem
from ..runtime import isolate
from ..runtime.isolate import Ended

#: How long a fresh interpreter may take to start and import its solver.
STARTUP_SECONDS = isolate.STARTUP_SECONDS


def run_job(spec: Mapping[str, Any], time_limit: float | None) -> dict[str, Any]:
    """The child's side: load what the method needs (its :meth:`~nqueens_kit.methods.Method.preload`), say
    ready, solve once in this process, return the record."""
    method = get_method(spec["method"])
    choice = Choice(method.name, spec.get("variant"), spec.get("solver"), spec.get("settings"))
    problem = Problem(int(spec["n"]), tuple(tuple(c) for c in spec.get("preplaced", ())),
                      tuple(tuple(c) for c in spec.get("blocked") or ()))
    method.preload(choice)
    isolate.ready()
    start = time.perf_counter()
    result = solve(problem, method, choice.variant, choice.solver, settings=choice.settings, time_limit=time_limit,
                   isolated=False, explain=False, order=spec.get("order"))
    total = time.perf_counter() - start
    return {
        "status": result.status.value, "queens": [list(q) for q in result.queens],
        "variables": result.variables, "clauses": result.clauses, "constraints": result.constraints,
        "build_seconds": result.build_seconds, "solve_seconds": result.solve_seconds, "total_seconds": total,
        "solver_seconds": result.stats.get("solver_seconds"), "verified": result.verified,
        "message": result.message, "options": result.options, "known_by": result.known_by,
        "conflicts": _count(result.stats.get("conflicts")), "nodes": _count(result.stats.get("nodes")),
    }


def _count(value: Any) -> int | None:
    return int(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def run_worker(spec: Mapping[str, Any], timeout: float | None, memory_limit: int | None = None,
               stop: Callable[[], bool] | None = None) -> dict[str, Any]:
    """Run one spec in a fresh process; the record's status is the solve's (``unknown`` when the solver said it
    does not know), ``timeout`` if it passes ``timeout`` seconds (counted from the child's "ready"), ``memout``
    past ``memory_limit`` bytes, ``error`` if it failed or a wrong answer was caught, and ``skipped`` (message
    "stopped") when ``stop()`` turned True while it ran."""
    run = isolate.run_in_child(run_job, (dict(spec), timeout), time_limit=timeout, fresh=True,
                               clock_from_ready=True, auto_ready=False, memory_limit=memory_limit,
                               watch_memory=True, stop=stop)
    common = {"cpu_seconds": run.cpu, "startup_seconds": round(run.startup, 6) if run.startup else None,
              "peak_rss_mb": run.tree_peak_rss_mb}
    if run.status == Ended.DONE:
        record = dict(run.value)
        record.update(common)
        if record["status"] == "timeout":  # the solver stopped itself at the limit
            record["message"] = record.get("message") or "no answer within the time limit"
        return record
    if run.stopped:
        return {"status": "skipped", "message": "stopped", **common}
    if run.status == Ended.TIMEOUT:
        return {"status": "timeout", "total_seconds": run.wall, **common,
                "message": f"no answer within the time limit of {timeout:g} s"}
    if run.status == Ended.MEMOUT:
        limit = f" of {memory_limit / 2**20:,.0f} MB" if memory_limit else ""
        return {"status": "memout", "total_seconds": run.wall, **common,
                "message": f"ran out of memory (memory limit{limit})"}
    why = f"{run.error_type}: {run.error}" if run.error_type else run.error
    if run.log_tail:
        why += f" ({run.log_tail[-1]})"
    return {"status": "error", "message": " ".join(why.split()), **common}
