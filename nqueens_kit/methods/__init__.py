"""The method layer: the ways of solving N-queens, one contract for all of them, and the verbs.

- :mod:`.base`: the contract (:class:`Method`, :class:`Choice`): what a method says about itself (variants,
  solvers, verbs, the problem features it honours, colour, what to load before a clock starts) and the work
  it does in this process.
- :mod:`.registry`: :data:`METHODS`, one line per method: ``sat``, ``ilp``, ``cp``, ``local-search``,
  ``construct``, ``backtrack``, ``model-count``.
- :mod:`.verbs`: :func:`solve`, :func:`count`, :func:`iter_boards`, :func:`first_boards` for every method,
  with the one time-limit check, the size guard, child processes and independent verification.
- one subpackage or module per method: :mod:`.sat` (encodings, CNF, cube-and-conquer counting, foreign
  formulas), :mod:`.ilp` (formulations, PuLP models), :mod:`.cp` (formulations, the CP entries' outcomes),
  :mod:`.search` (local search, the construction, backtracking), :mod:`.modelcount` (Ganak).

>>> solve(8, "sat", "sequential").status, count(8, "backtrack", fundamental=True).fundamental
('solved', 12)
"""

from __future__ import annotations

from .base import METHODS, Choice, Method, get_method, method_of_solver, methods_with
from .registry import DEFAULT_METHOD
from .verbs import (
    count,
    count_estimate,
    count_solutions,
    first_boards,
    iter_boards,
    iter_solutions,
    minimal_core,
    solve,
    solve_ilp,
    solve_sat,
)

__all__ = [
    "DEFAULT_METHOD", "METHODS", "Choice", "Method", "count", "count_estimate", "count_solutions", "first_boards",
    "get_method", "iter_boards", "iter_solutions", "method_of_solver", "methods_with", "minimal_core", "solve",
    "solve_ilp", "solve_sat",
]
