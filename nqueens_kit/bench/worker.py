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
  search effort the solver reports, which does not depend on the machine or its load.  A count a solver gives
  as text (MiniZinc's statistics lines) is read as a number; one that is not a number is named in the row's
  message rather than dropped.

>>> record = run_worker({"method": "sat", "variant": "pairwise", "solver": "pycosat", "n": 8, "preplaced": []}, 30)
>>> record["status"], record["verified"], record["clauses"]
('solved', True, 744)
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import TypedDict

from ..methods import Choice, get_method, solve
from ..problem.board import Cell, Problem, shown, whole_number
from ..problem.results import Options, Statistics
from ..runtime import isolate
from ..runtime.isolate import Ended

#: How long a fresh interpreter may take to start and import its solver.
STARTUP_SECONDS = isolate.STARTUP_SECONDS


class RunSpec(TypedDict, total=False):
    """One run as the worker receives it (:meth:`~nqueens_kit.bench.sweep.Run.spec`): picklable, plain lists."""

    method: str
    variant: str | None
    solver: str | None
    settings: str | None
    n: int
    preplaced: list[list[int]]
    order: int | None
    blocked: list[list[int]]


class RunRecord(TypedDict, total=False):
    """What one run measured (see the module docstring), before :func:`~nqueens_kit.bench.sweep.make_row`
    checks it and makes it a CSV row."""

    status: str
    queens: list[list[int]]
    variables: int | None
    clauses: int | None
    constraints: int | None
    build_seconds: float
    solve_seconds: float
    total_seconds: float
    solver_seconds: float | None
    verified: bool | None
    message: str
    options: Options
    known_by: str | None
    conflicts: int | None
    nodes: int | None
    cpu_seconds: float | None
    startup_seconds: float | None
    peak_rss_mb: float | None


def _cell(pair: list[int]) -> Cell:
    row, col = pair
    return (row, col)


def run_job(spec: RunSpec, time_limit: float | None) -> RunRecord:
    """The child's side: load what the method needs (its :meth:`~nqueens_kit.methods.Method.preload`), say
    ready, solve once in this process, return the record."""
    method = get_method(spec["method"])
    choice = Choice(method.name, spec.get("variant"), spec.get("solver"), spec.get("settings"))
    problem = Problem(int(spec["n"]), tuple(_cell(c) for c in spec.get("preplaced", ())),
                      tuple(_cell(c) for c in spec.get("blocked") or ()))
    method.preload(choice)
    isolate.ready()
    start = time.perf_counter()
    result = solve(problem, method, choice.variant, choice.solver, settings=choice.settings, time_limit=time_limit,
                   isolated=False, explain=False, order=spec.get("order"))
    total = time.perf_counter() - start
    unread: list[str] = []
    record: RunRecord = {
        "status": result.status.value, "queens": [list(q) for q in result.queens],
        "variables": result.variables, "clauses": result.clauses, "constraints": result.constraints,
        "build_seconds": result.build_seconds, "solve_seconds": result.solve_seconds, "total_seconds": total,
        "solver_seconds": _seconds(result.stats.get("solver_seconds")), "verified": result.verified,
        "message": result.message, "options": result.options, "known_by": result.known_by,
        "conflicts": count_of(result.stats, "conflicts", unread), "nodes": count_of(result.stats, "nodes", unread),
    }
    if unread:  # the solver said something the column cannot hold: say it in the row's note, not nowhere
        record["message"] = "; ".join(filter(None, (result.message, *unread)))
    return record


def _seconds(value: object) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def count_of(stats: Statistics, key: str, unread: list[str]) -> int | None:
    """A solver's count (``nodes``, ``conflicts``) as an int: an int, a whole float, or a numeric string such as
    ``"1234"`` or ``"1.2e4"`` (MiniZinc's statistics lines are text).  Anything else is None, and a note on it
    goes to ``unread`` so that the row says what the solver gave.

    >>> unread = []
    >>> count_of({"nodes": "1234"}, "nodes", unread), count_of({"nodes": 7.0}, "nodes", unread), unread
    (1234, 7, [])
    >>> count_of({"nodes": "many"}, "nodes", unread), unread
    (None, ["the solver's nodes 'many' is not a number"])
    """
    value = stats.get(key)
    if value is None:
        return None
    number = value if isinstance(value, (int, float)) and not isinstance(value, bool) else None
    if isinstance(value, str):
        number = whole_number(value)
        if number is None:
            try:
                number = float(value.strip())
            except ValueError:
                pass
    if isinstance(number, float):
        number = int(number) if math.isfinite(number) and number >= 0 and number.is_integer() else None
    if number is None or number < 0:
        unread.append(f"the solver's {key} {shown(value)} is not a number")
        return None
    return number


def run_worker(spec: RunSpec, timeout: float | None, memory_limit: int | None = None,
               stop: Callable[[], bool] | None = None) -> RunRecord:
    """Run one spec in a fresh process; the record's status is the solve's (``unknown`` when the solver said it
    does not know), ``timeout`` if it passes ``timeout`` seconds (counted from the child's "ready"), ``memout``
    past ``memory_limit`` bytes, ``error`` if it failed or a wrong answer was caught, and ``skipped`` (message
    "stopped") when ``stop()`` turned True while it ran."""
    run = isolate.run_in_child(run_job, (dict(spec), timeout), time_limit=timeout, fresh=True,
                               clock_from_ready=True, auto_ready=False, memory_limit=memory_limit,
                               watch_memory=True, stop=stop)
    common: RunRecord = {"cpu_seconds": run.cpu, "startup_seconds": round(run.startup, 6) if run.startup else None,
                         "peak_rss_mb": run.tree_peak_rss_mb}
    if run.status == Ended.DONE:
        done: RunRecord = run.value  # what run_job returned, sent back from the child
        record = done.copy()
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
