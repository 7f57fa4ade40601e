"""Chapter 4: what unit propagation deduces from one line, against generalized arc consistency (GAC).

GAC on a constraint rules out every value that has no support: no solution of that constraint alone that uses
only values still open to the other variables.  For *at most
k* of the literals of a line that means: once k are true, every other is false (and k + 1 true is a
conflict); *exactly one* adds: once all but one are false, the last is true.  An encoding "is GAC" when
unit propagation on its clauses makes every such deduction, from every partial assignment of the literals.

- :func:`line_gac`: every partial assignment of m literals (3^m of them), unit propagation on an encoding
  against GAC: the deductions GAC makes and the ones propagation misses, with the first miss as an example.
  A deduction is of one of two kinds, counted apart: a *pruning* (a literal still open that GAC sets,
  because its other value has no support) and a *conflict* (a partial assignment that already violates the
  constraint, which GAC detects and propagation detects by reaching an empty clause).
- :func:`adder_board` / :func:`board_gac`: the whole board with the adder encoding on every line, and what
  one queen lets propagation rule out under each encoding, against the cells the queen attacks.
- :func:`count_work`: counting every board with a CDCL solver, with its own counters, per encoding.

>>> from nqueens_kit.methods.sat.encodings import ENCODINGS
>>> line_gac(ENCODINGS["pairwise"].at_most_one, 4).missed
0
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from itertools import product
from typing import TypedDict

from ..errors import InputError
from ..inside.propagation import propagate
from ..methods.sat.adder import adder_at_most_one
from ..methods.sat.cnf import build_cnf
from ..methods.sat.encodings import ENCODINGS, VarPool
from ..problem.board import Cell, board_lines

Encoder = Callable[[list[int], VarPool], list[list[int]]]

#: The name the adder encoding goes by in these tables (it is not one of ENCODINGS: it lacks GAC).
ADDER = "adder"


@dataclass
class LineGac:
    """Unit propagation on one line's clauses against GAC, over every partial assignment of its literals."""

    literals: int
    partial: int = 0          # partial assignments tried: all 3^m, those that violate the line included
    prunings: int = 0         # literals GAC sets (an open literal whose other value has no support)
    conflicts: int = 0        # partial assignments GAC finds in conflict with the line
    missed_prunings: int = 0  # of the prunings, the ones unit propagation does not make
    missed_conflicts: int = 0  # of the conflicts, the ones unit propagation does not reach
    example: tuple[dict[int, bool], list[int]] | None = None  # (given values, literals GAC sets and UP does not)

    @property
    def deductions(self) -> int:
        """Everything GAC deduces: its prunings and its conflicts."""
        return self.prunings + self.conflicts

    @property
    def missed(self) -> int:
        """The deductions unit propagation does not make: missed prunings and missed conflicts."""
        return self.missed_prunings + self.missed_conflicts


def _gac(values: dict[int, bool], lits: Sequence[int], k: int, exact: bool) -> list[int] | None:
    """What GAC on at-most-k (exactly one when ``exact``) deduces from ``values``: the literals it sets, or
    None for a conflict."""
    true = sum(1 for x in lits if values.get(x) is True)
    free = [x for x in lits if x not in values]
    if true > k or (exact and true == 0 and not free):
        return None
    if true == k:
        return [-x for x in free]
    if exact and true == 0 and len(free) == 1:
        return [free[0]]
    return []


def line_gac(encode: Encoder, m: int, k: int = 1, exact: bool = False) -> LineGac:
    """Every partial assignment of m literals, unit propagation on ``encode``'s clauses (at most ``k``;
    ``exact`` adds the at-least-one clause, k = 1) against what GAC deduces."""
    if type(m) is not int or not 1 <= m <= 9:
        raise InputError(f"m must be a whole number from 1 to 9 (3^m partial assignments), not {m!r}")
    lits = list(range(1, m + 1))
    clauses = encode(lits, VarPool(m)) + ([lits] if exact else [])
    result = LineGac(m)
    for states in product((None, False, True), repeat=m):
        values = {x: s for x, s in zip(lits, states, strict=True) if s is not None}
        wanted = _gac(values, lits, k, exact)
        result.partial += 1
        run = propagate(clauses, [x if v else -x for x, v in values.items()])
        if wanted is None:
            result.conflicts += 1
            if run.value is not None:
                result.missed_conflicts += 1
                result.example = result.example or (values, [])
            continue
        result.prunings += len(wanted)
        if run.value is None:  # cannot happen for a correct encoding: GAC found a support
            raise InputError(f"the clauses refute {values}, which at most {k} allows: the encoding is wrong")
        missing = [lit for lit in wanted if run.value.get(abs(lit)) != (lit > 0)]
        result.missed_prunings += len(missing)
        if missing and result.example is None:
            result.example = (values, missing)
    return result


def adder_board(n: int) -> tuple[list[list[int]], int]:
    """The n-queens formula with the adder at-most-one on every line (and at least one queen per row and
    column): its clauses and variable count; cell (r, c) is variable (r - 1) n + c, as in ``build_cnf``."""
    pool = VarPool(n * n)
    clauses: list[list[int]] = []
    for line in board_lines(n):
        lits = [(r - 1) * n + c for r, c in line.cells]
        if line.kind in ("row", "col"):
            clauses.append(lits)
        clauses += adder_at_most_one(lits, pool)
    return clauses, pool.top


@dataclass
class BoardGac:
    """One queen on each cell of the empty board in turn: the cells unit propagation rules out per encoding
    (summed over the cells), against the cells the queen attacks (what GAC on the lines rules out)."""

    n: int
    attacked: int = 0
    ruled_out: dict[str, int] = field(default_factory=dict)
    variables: dict[str, int] = field(default_factory=dict)
    clauses: dict[str, int] = field(default_factory=dict)
    example: tuple[Cell, list[Cell]] | None = None   # a queen and attacked cells the adder leaves open


def _attacked(n: int, r: int, c: int) -> set[Cell]:
    return {(i, j) for i in range(1, n + 1) for j in range(1, n + 1) if (i, j) != (r, c)
            and (i == r or j == c or i - j == r - c or i + j == r + c)}


def board_gac(n: int, encodings: Iterable[str] = ENCODINGS) -> BoardGac:
    """Put a queen on each cell of the empty n x n board and propagate, under each encoding and the adder."""
    formulas: dict[str, tuple[list[list[int]], int]] = {}
    for encoding in encodings:
        cnf = build_cnf(n, encoding)
        formulas[encoding] = ([list(clause) for clause in cnf.clauses], cnf.num_vars)
    formulas[ADDER] = adder_board(n)
    out = BoardGac(n)
    for name, (clauses, top) in formulas.items():
        out.variables[name], out.clauses[name], out.ruled_out[name] = top, len(clauses), 0
    for r in range(1, n + 1):
        for c in range(1, n + 1):
            attacked = _attacked(n, r, c)
            out.attacked += len(attacked)
            for name, (clauses, _) in formulas.items():
                value = propagate(clauses, [(r - 1) * n + c]).value or {}
                open_cells = {cell for cell in attacked if value.get((cell[0] - 1) * n + cell[1]) is not False}
                out.ruled_out[name] += len(attacked) - len(open_cells)
                if name == ADDER and open_cells and out.example is None:
                    out.example = ((r, c), sorted(open_cells))
    return out


class CountWork(TypedDict):
    """Counting every board of one n under one encoding: the boards, the solver's own counters summed over
    the enumeration, and the processor seconds (this machine's)."""

    n: int
    encoding: str
    boards: int
    conflicts: int
    propagations: int
    decisions: int
    seconds: float


def count_work(n: int, encoding: str, solver: str = "minisat22") -> CountWork:
    """Enumerate every n-queens board with a PySAT solver (``encoding`` one of ENCODINGS, or ``"adder"``),
    blocking each board found on the board variables, and report its counters (MiniSat's: every allowed
    python-sat version has them)."""
    from pysat.solvers import Solver  # imported here: a heavy import the rest of the module does not need

    clauses = adder_board(n)[0] if encoding == ADDER else [list(c) for c in build_cnf(n, encoding).clauses]
    board = n * n
    boards = 0
    start = time.process_time()
    with Solver(name=solver, bootstrap_with=clauses) as sat:
        while sat.solve():
            boards += 1
            model = sat.get_model() or []
            sat.add_clause([-lit for lit in model[:board] if lit > 0])  # not this board again
        stats = sat.accum_stats()
    return {"n": n, "encoding": encoding, "boards": boards, "conflicts": int(stats["conflicts"]),
            "propagations": int(stats["propagations"]), "decisions": int(stats["decisions"]),
            "seconds": time.process_time() - start}


__all__ = ["ADDER", "BoardGac", "CountWork", "LineGac", "adder_board", "board_gac", "count_work", "line_gac"]
