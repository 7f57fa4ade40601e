"""What symmetry breaking does to an exhaustive search, measured like with like.

The lex-leader clauses (:func:`nqueens_kit.methods.sat.cnf.lex_leader_clauses`, Crawford, Ginsberg, Luks and
Roy 1996) keep exactly one board of each orbit of the 8 symmetries of the square.  Whether that pays is a
question about the search, so both sides here search the same way: one formula (the whole board, the same
encoding), one solver, every board found and excluded by a blocking clause until the formula is
unsatisfiable.  Only the lex-leader clauses differ.  (The kit's own count splits the board into cubes and
uses four symmetries of its own: a different method, compared in chapter 5's frontier, not here.)

- :func:`enumeration_effort`: one such enumeration; boards, seconds and the solver's own counters.

>>> plain, broken = enumeration_effort(6), enumeration_effort(6, break_symmetry=True)
>>> plain["boards"], broken["boards"]
(4, 1)
"""

from __future__ import annotations

import time
from typing import TypedDict

from ..errors import InputError
from ..methods.sat.cnf import build_cnf
from ..problem.board import Problem, canonical, verify
from ..solvers import get_solver
from ..solvers.python_sat import PySat


class EnumerationEffort(TypedDict):
    """What :func:`enumeration_effort` measured."""

    n: int
    break_symmetry: bool
    boards: int
    seconds: float
    clauses: int
    variables: int
    conflicts: int
    decisions: int
    propagations: int


def enumeration_effort(n: int, break_symmetry: bool = False, encoding: str = "pairwise",
                       solver: str = "pysat-minisat") -> EnumerationEffort:
    """Every board of ``n``-queens (only the canonical one of each orbit with ``break_symmetry``) by one
    solver over one formula with blocking clauses: ``boards``, ``seconds`` (processor time of this process
    on this machine, which other work on a busy machine disturbs least: the work is all in this thread),
    ``clauses`` and ``variables`` of the formula, and the solver's ``conflicts``, ``decisions`` and
    ``propagations`` summed over all its calls (the same on every machine).  Every board is verified (and
    found canonical)."""
    backend = get_solver("sat", solver).require()
    if not isinstance(backend, PySat) or not backend.capabilities.statistics:
        raise InputError(f"{solver} is not a python-sat solver that reports statistics; try pysat-minisat")
    from pysat.solvers import Solver

    problem = Problem(n, break_symmetry=break_symmetry)
    cnf = build_cnf(problem, encoding, define=True)  # every helper a function of the board
    top = n * n
    start = time.process_time()
    sat = Solver(name=backend.backend, bootstrap_with=cnf.clauses)
    boards = 0
    try:
        while sat.solve():
            model = sat.get_model()
            board = sorted(problem.cell(lit) for lit in model[:top] if lit > 0)
            if not verify(n, board) or (break_symmetry and tuple(canonical(n, board)) != tuple(board)):
                raise AssertionError(f"the enumeration returned a wrong board: {board}")
            boards += 1
            sat.add_clause([-lit for lit in model[:top] if lit > 0])
        stats = {k: int(v) for k, v in sat.accum_stats().items()}
    finally:
        sat.delete()
    return {"n": n, "break_symmetry": break_symmetry, "boards": boards, "seconds": time.process_time() - start,
            "clauses": cnf.num_clauses, "variables": cnf.num_vars, "conflicts": stats.get("conflicts", 0),
            "decisions": stats.get("decisions", 0), "propagations": stats.get("propagations", 0)}
