"""nqueens-kit: N-queens as SAT and as integer linear programming, for teaching and measuring.

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

Modules, in the order of that picture:

- :mod:`~nqueens_kit.board`: the problem, its lines, :func:`verify`, the 8 symmetries, :class:`SolveResult`
- :mod:`~nqueens_kit.encodings`: at-most-one / exactly-one CNF encodings (a name -> function registry)
- :mod:`~nqueens_kit.cnf`: N-queens -> CNF with each clause's origin, closed-form sizes, DIMACS
- :mod:`~nqueens_kit.sat`: solving (pycosat, PySAT, DIMACS binaries), enumeration and counting
- :mod:`~nqueens_kit.ilp`: N-queens -> PuLP model, CBC / HiGHS, LP relaxation, export
- :mod:`~nqueens_kit.construct`: the explicit construction and the backtracking counter (ground truth)
- :mod:`~nqueens_kit.timing`, :mod:`~nqueens_kit.plots`, :mod:`~nqueens_kit.widgets`: measuring, drawing,
  and the interactive apps; :mod:`~nqueens_kit.cli` is the ``nqueens-kit`` command.

Vocabulary: a *formula* is the CNF an encoder writes; a *model* is a SAT solver's satisfying assignment
(PuLP's ``LpProblem`` is called the *ILP model*); a *board* is the queens a model decodes to.

>>> from nqueens_kit import Problem, solve_sat, verify
>>> result = solve_sat(Problem(8, [(1, 1)]))
>>> result.status, result.verified, verify(8, result.queens)
('solved', True, True)
"""

from __future__ import annotations

from .board import (
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
from .cnf import CNF, build_cnf, predicted_size, write_dimacs
from .construct import construct, count_backtrack, iter_backtrack
from .dimacs import parse_dimacs, read_dimacs
from .encodings import ENCODINGS, VarPool, exactly_one
from .errors import ConflictError, DimacsError, InputError, NQueensError, SolverError, SolverNotAvailable
from .formulations import FORMULATIONS
from .methods import (
    METHODS,
    count,
    count_solutions,
    get_method,
    iter_boards,
    iter_solutions,
    solve,
    solve_ilp,
    solve_sat,
)
from .results import CountResult, SolveResult, Status
from .solvers import ILP_SOLVERS, SAT_SOLVERS

__version__ = "0.1.0"

__all__ = [
    "CNF", "ENCODINGS", "FORMULATIONS", "ILP_SOLVERS", "METHODS", "SAT_SOLVERS", "SYMMETRIES", "ConflictError",
    "CountResult", "DimacsError", "InputError", "Line", "NQueensError", "Problem", "SolveResult", "SolverError",
    "SolverNotAvailable", "Status", "VarPool", "build_cnf", "canonical", "conflicts", "construct", "count",
    "count_backtrack", "count_solutions", "draw", "exactly_one", "get_method", "iter_backtrack", "iter_boards",
    "iter_solutions", "orbit", "parse_dimacs", "predicted_size", "read_dimacs", "solve", "solve_ilp", "solve_sat",
    "transform", "verify", "violations", "write_dimacs",
]
