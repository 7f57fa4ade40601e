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

The layers, from the bottom up:

- the problem: :mod:`~nqueens_kit.problem.board` (the problem, its lines, :func:`verify`, :func:`conflicts`, the 8
  symmetries) and :mod:`~nqueens_kit.problem.results` (:class:`Status`, :class:`SolveResult`, :class:`CountResult`,
  and the vocabulary: method, variant, solver, formula, model, board);
- the models: :mod:`~nqueens_kit.methods.sat.encodings` and :mod:`~nqueens_kit.methods.sat.cnf` (N-queens -> CNF, each clause with its
  line, closed-form sizes), :mod:`~nqueens_kit.formats.dimacs` (DIMACS and solver output, read safely),
  :mod:`~nqueens_kit.methods.ilp.formulations` and :mod:`~nqueens_kit.methods.ilp.model` (N-queens -> PuLP model, LP relaxation,
  export), :mod:`~nqueens_kit.methods.search.construct` (the explicit construction and bitmask backtracking);
- the solvers: :mod:`~nqueens_kit.solvers` (one module per backend family, each saying whether it is
  installed, how to install it, its version and what it can do);
- running: :mod:`~nqueens_kit.runtime.isolate` (the one way to run a job in a child process with a wall-clock limit)
  and :mod:`~nqueens_kit.runtime.limits` (the one time-limit check, the size guard);
- **the method layer**, :mod:`~nqueens_kit.methods`: the registry of methods (``sat``, ``ilp``,
  ``construct``, ``backtrack``) with their variants and solvers, and the verbs :func:`solve`, :func:`count`
  and :func:`iter_boards`; :mod:`~nqueens_kit.methods.sat.solve` is the SAT method's machinery;
- the front ends, which only look things up in the method layer: :mod:`~nqueens_kit.cli` (the
  ``nqueens-kit`` command), the timing harness, :mod:`~nqueens_kit.viz.plots` and :mod:`~nqueens_kit.bench.report`,
  the interactive apps, :mod:`~nqueens_kit.course.exercises`; :mod:`~nqueens_kit.viz.style` gives all of them one
  palette.

>>> from nqueens_kit import Problem, solve_sat, verify
>>> result = solve_sat(Problem(8, [(1, 1)]))
>>> result.status, result.verified, verify(8, result.queens)
('solved', True, True)
"""

from __future__ import annotations

from .errors import ConflictError, DimacsError, InputError, NQueensError, SolverError, SolverNotAvailable
from .formats.dimacs import parse_dimacs, read_dimacs
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
from .methods.ilp.formulations import FORMULATIONS
from .methods.sat.cnf import CNF, build_cnf, predicted_size, write_dimacs
from .methods.sat.encodings import ENCODINGS, VarPool, exactly_one
from .methods.search.construct import construct, count_backtrack, iter_backtrack
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

__version__ = "0.1.0"

__all__ = [
    "CNF", "ENCODINGS", "FORMULATIONS", "ILP_SOLVERS", "METHODS", "SAT_SOLVERS", "SYMMETRIES", "ConflictError",
    "CountResult", "DimacsError", "InputError", "Line", "NQueensError", "Problem", "SolveResult", "SolverError",
    "SolverNotAvailable", "Status", "VarPool", "build_cnf", "canonical", "conflicts", "construct", "count",
    "count_backtrack", "count_solutions", "draw", "exactly_one", "get_method", "iter_backtrack", "iter_boards",
    "iter_solutions", "orbit", "parse_dimacs", "predicted_size", "read_dimacs", "solve", "solve_ilp", "solve_sat",
    "transform", "verify", "violations", "write_dimacs",
]
