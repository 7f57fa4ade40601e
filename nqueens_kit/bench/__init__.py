"""The timing harness: sweeps over n that time SAT against ILP, every run in its own process.

Along its jobs:

- :mod:`.config`: what is timed (a :class:`~nqueens_kit.methods.Choice` each: method, variant, solver,
  settings; :func:`make_configs`, :func:`parse_choice`,
  :func:`parse_ns`, and :func:`check_available`, the one explicit look at what is installed);
- :mod:`nqueens_kit.problem.instances`: which boards (plain, or random completion instances, the same on every
  machine; re-exported here);
- :mod:`.worker`: one run in a fresh interpreter through :mod:`nqueens_kit.runtime.isolate`, with wall, CPU, solver
  and start-up time and the peak memory of the process tree;
- :mod:`.results`: the crash-safe, locked results CSV and its sidecar, read back safely;
- :mod:`.summary`: medians, quartiles and PAR-2 per configuration and n (timeouts are censored data);
- :mod:`.environment`: the machine and the versions, recorded beside the results;
- :mod:`.sweep`: the plan of runs and :func:`run_sweep`, resumable after Ctrl-C or a crash.

Its names load on first use: a timed run's fresh interpreter imports only :mod:`.worker` and what it needs,
not the whole harness.

>>> from nqueens_kit.bench import make_configs, run_sweep
>>> rows = run_sweep(make_configs("sat,construct", encodings="pairwise"), [4, 5], repeat=1, progress=False)
>>> [(row["method"], row["n"], row["status"]) for row in rows]
[('sat', 4, 'solved'), ('construct', 4, 'solved'), ('sat', 5, 'solved'), ('construct', 5, 'solved')]
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..problem.instances import random_preplacement
    from .config import DEFAULT_NS, check_available, choice_from_row, make_configs, parse_choice, parse_ns
    from .environment import command_line, environment
    from .results import COLUMNS, meta_path, read_meta, read_results
    from .summary import duel_summary, head_to_head, par2, summarise
    from .sweep import (
        DEFAULT_REPEAT,
        DEFAULT_TIMEOUT,
        MAX_RUNS,
        SweepInterrupted,
        check_output,
        plan_runs,
        row_key,
        run_sweep,
    )
    from .worker import run_worker

#: Where each public name lives (loaded on first use, see the module docstring).
_HOME = {
    **dict.fromkeys(("DEFAULT_NS", "check_available", "choice_from_row", "make_configs", "parse_choice", "parse_ns"),
                    "config"),
    **dict.fromkeys(("command_line", "environment"), "environment"),
    "random_preplacement": ".problem.instances",  # imported as ..problem.instances: it is problem-level code
    **dict.fromkeys(("COLUMNS", "meta_path", "read_meta", "read_results"), "results"),
    **dict.fromkeys(("duel_summary", "head_to_head", "par2", "summarise"), "summary"),
    **dict.fromkeys(("DEFAULT_REPEAT", "DEFAULT_TIMEOUT", "MAX_RUNS", "SweepInterrupted", "check_output", "plan_runs",
                     "row_key", "run_sweep"), "sweep"),
    "run_worker": "worker",
}

__all__ = [
    "COLUMNS", "DEFAULT_NS", "DEFAULT_REPEAT", "DEFAULT_TIMEOUT", "MAX_RUNS", "SweepInterrupted", "choice_from_row",
    "parse_choice",
    "check_available", "check_output", "command_line", "duel_summary", "environment", "head_to_head", "make_configs",
    "meta_path", "par2",
    "parse_ns", "plan_runs", "random_preplacement", "read_meta", "read_results", "row_key", "run_sweep",
    "run_worker", "summarise",
]


def __getattr__(name: str) -> object:
    home = _HOME.get(name)
    if home is None:  # a submodule not imported yet (``from nqueens_kit.bench import phase``) is found by import
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{home}", __name__), name)
    globals()[name] = value  # once loaded, an ordinary attribute
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
