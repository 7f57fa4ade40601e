"""nqueens-kit: N-queens as SAT, as integer linear programming and beyond, for teaching and measuring.

Both formulations say the same thing: exactly one queen on every row and column, at most one on every
diagonal, plus any queens the user pre-placed.  The problem is described once, as *lines of cells with a
cardinality*, and each formulation translates that description::

    Problem(n, preplaced) ──lines()──► [row_1: exactly one, ..., diag_7: at most one, ...]
          │                                   │                                │
          │                   SAT: each line → clauses in an         ILP: each line → one linear
          │                   encoding (pairwise, sequential, ...)   constraint (or pairwise edges)
          ▼                                   ▼                                ▼
     verify(board)  ◄───────── decode(model) ◄── pycosat / PySAT /    PuLP → CBC / HiGHS
                                                  any DIMACS solver

The package's folders are its layers, from the bottom up (each uses only the ones below it):

- :mod:`~nqueens_kit.problem`: the problem (:class:`Problem`: n, pre-placed queens, blocked cells, symmetry
  broken or not; its lines), the independent :func:`verify`, :func:`conflicts`, the 8 symmetries, the
  published counts, and what every method returns (:class:`Status`, :class:`SolveResult`,
  :class:`CountResult`; the vocabulary: method, variant, solver, formula, model, board);
- :mod:`~nqueens_kit.runtime`: the one way to run a job in a child process with a wall-clock limit, the
  one time-limit check and the size guard;
- :mod:`~nqueens_kit.formats`: DIMACS CNF files and SAT solvers' output, read safely;
- :mod:`~nqueens_kit.solvers`: one interface per solver family (SAT, ILP through PuLP, CP) and one module per
  backend (pycosat, python-sat, DIMACS executables; CBC, HiGHS, SCIP; CP-SAT, Gecode through MiniZinc), each
  registry entry saying whether it is installed, how to install it, its version, what it can do and what it
  honours;
- **the method layer**, :mod:`~nqueens_kit.methods`: the contract every method fulfils
  (:class:`~nqueens_kit.methods.Method`), the registry (SAT, ILP, CP, local search, the construction,
  backtracking, model counting; one module or subpackage each) and the verbs :func:`solve`, :func:`count`
  and :func:`iter_boards`;
- :mod:`~nqueens_kit.inside`: inside the solvers: a traced CDCL solver, propagation per encoding, checked
  proofs of "no", a visible branch and bound;
- the front ends, which ask the method layer and never name a method: :mod:`~nqueens_kit.bench` (timing
  sweeps, the frontier, the phase study, the report), :mod:`~nqueens_kit.viz` (boards and charts in one
  palette), :mod:`~nqueens_kit.apps` (the widgets), :mod:`~nqueens_kit.course` (self-checking exercises,
  the notebooks as files and as a site) and :mod:`~nqueens_kit.cli` (the ``nqueens-kit`` command).

The public names load on first use (``import nqueens_kit`` is quick, so the command starts at once and a
fresh benchmark child spends its start-up on the solver it times, not on the kit).

>>> from nqueens_kit import Problem, solve_sat, verify
>>> result = solve_sat(Problem(8, [(1, 1)]))
>>> result.status, result.verified, verify(8, result.queens)
('solved', True, True)
"""

from __future__ import annotations

import importlib

# typing is not imported at run time: the command's quick path loads this package and little else
# (mypy reads TYPE_CHECKING as True, as it reads typing's own).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__version__ = "1.0.0"

#: Where each public name lives (imported on first use).
_HOMES = {
    "errors": ["ConflictError", "DimacsError", "InputError", "KitBug", "NQueensError", "SolverError",
               "SolverNotAvailable"],
    "formats.dimacs": ["parse_dimacs", "read_dimacs"],
    "methods": ["METHODS", "Choice", "Method", "count", "count_solutions", "get_method", "iter_boards",
                "iter_solutions", "solve", "solve_ilp", "solve_sat"],
    "methods.ilp.formulations": ["FORMULATIONS"],
    "methods.sat.cnf": ["CNF", "build_cnf", "predicted_size", "write_dimacs"],
    "methods.sat.encodings": ["ENCODINGS", "VarPool", "exactly_one"],
    "methods.search.backtrack": ["count_backtrack", "iter_backtrack"],
    "methods.search.construct": ["construct"],
    "problem.board": ["SYMMETRIES", "Line", "Problem", "canonical", "conflicts", "draw", "orbit", "transform",
                      "verify", "violations"],
    "problem.results": ["CountResult", "SolveResult", "Status"],
    "solvers": ["ILP_SOLVERS", "SAT_SOLVERS"],
}
_HOME_OF = {name: module for module, names in _HOMES.items() for name in names}
#: The subpackages, reachable as attributes (``nqueens_kit.methods``) without importing them first.
_SUBPACKAGES = ("apps", "bench", "cli", "course", "errors", "formats", "inside", "methods", "palette", "problem",
                "runtime", "solvers", "viz")

__all__ = [
    "CNF", "Choice", "ConflictError", "CountResult", "DimacsError", "ENCODINGS", "FORMULATIONS", "ILP_SOLVERS",
    "InputError", "KitBug", "Line", "METHODS", "Method", "NQueensError", "Problem", "SAT_SOLVERS", "SYMMETRIES",
    "SolveResult", "SolverError", "SolverNotAvailable", "Status", "VarPool", "build_cnf", "canonical", "conflicts",
    "construct", "count", "count_backtrack", "count_solutions", "draw", "exactly_one", "get_method",
    "iter_backtrack", "iter_boards", "iter_solutions", "orbit", "parse_dimacs", "predicted_size", "read_dimacs",
    "solve", "solve_ilp", "solve_sat", "transform", "verify", "violations", "write_dimacs",
]


def __getattr__(name: str) -> Any:
    """A public name, imported from its module on first use (PEP 562) and kept here after."""
    home = _HOME_OF.get(name)
    if home is not None:
        value = getattr(importlib.import_module(f"{__name__}.{home}"), name)
    elif name in _SUBPACKAGES:
        value = importlib.import_module(f"{__name__}.{name}")
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


if TYPE_CHECKING:
    from .errors import ConflictError, DimacsError, InputError, KitBug, NQueensError, SolverError, SolverNotAvailable
    from .formats.dimacs import parse_dimacs, read_dimacs
    from .methods import (
        METHODS,
        Choice,
        Method,
        count,
        count_solutions,
        get_method,
        iter_boards,
        iter_solutions,
        solve,
        solve_ilp,
        solve_sat,
    )
    from .methods.ilp.formulations import FORMULATIONS
    from .methods.sat.cnf import CNF, build_cnf, predicted_size, write_dimacs
    from .methods.sat.encodings import ENCODINGS, VarPool, exactly_one
    from .methods.search.backtrack import count_backtrack, iter_backtrack
    from .methods.search.construct import construct
    from .problem.board import (
        SYMMETRIES,
        Line,
        Problem,
        canonical,
        conflicts,
        draw,
        orbit,
        transform,
        verify,
        violations,
    )
    from .problem.results import CountResult, SolveResult, Status
    from .solvers import ILP_SOLVERS, SAT_SOLVERS
