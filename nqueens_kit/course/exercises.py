"""Self-checking exercises for the notebooks: a student writes a function, a checker says whether it is right.

Inside:

- :class:`Verdict`: what every checker returns; true when the answer is right, and its text (shown in a
  notebook) is a friendly sentence that names a counterexample when the answer is wrong.
- :func:`check_at_most_one` and :func:`check_exactly_one`: a student's CNF encoding ``f(lits, pool)``
  checked against every assignment of k = 1 .. 6 literals and, for k = 7 .. 24 (the commander encoding
  first recurses twice at k = 13, the product encoding at k = 17), every assignment with at most two true
  literals, with three up to k = 12, all true, and a fixed sample of the rest (helper variables allowed).
  Above k = 6 this is a test, not a proof: an encoding could still be wrong on an assignment not tried.
- :func:`check_at_most_k`: an at-most-k encoding ``f(lits, k, pool)`` against every assignment of n = 1 .. 8
  literals, for every k from 0 to n: exhaustive on that range.
- :func:`check_first_propagation`: which cells one queen rules out by unit propagation on the pairwise
  formula, and which queen the next unit clause forces (a reasoning exercise; any order, any cell format).
- :func:`check_clause_count`: a student's closed-form clause count ``f(n)`` against the generated formula.
- :func:`check_verify`: a student's solution checker ``f(n, queens)`` against boards with every kind of flaw.
- :func:`check_diagonals`: a student's list of the diagonal lines of a board (for the ILP constraints).
- :func:`resolve`: one resolution step, for proving a formula unsatisfiable by hand.
- :func:`check_count`: a student's count of solutions against backtracking.
- :func:`check_dead_end`: two queens that do not attack each other but leave no completion (chapter 6).
- :func:`check_par2`: a student's PAR-2 score (runs that hit the time limit count twice the limit).

The checkers are independent of the encoder under test: an at-most-one formula is judged by solving it
with each assignment of the literals forced, which says directly which assignments it allows.

What the student's function does is the answer (an exception it raises is a "Not yet" verdict); what is
handed to a checker itself (a function that is not a function, a size out of range) is a one-line
:class:`~nqueens_kit.errors.InputError`, as everywhere in the kit.  An answer is read for its value, not its
type: a number may be an int, a float, a ``Fraction`` or a NumPy scalar or 0-d array, a truth value a bool
or a NumPy bool; an answer of another type gets a "Not yet" that names the type it is and the one wanted.

>>> from nqueens_kit.methods.sat.encodings import pairwise
>>> check_at_most_one(pairwise).ok
True
>>> def forgets_the_last_pair(lits, pool):
...     return [[-a, -b] for i, a in enumerate(lits) for b in lits[i + 1:-1]]
>>> verdict = check_at_most_one(forgets_the_last_pair)
>>> bool(verdict), verdict.counterexample
(False, ((1, 2), (True, True)))
"""

from __future__ import annotations

import decimal
import inspect
import math
import numbers
import operator
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations
from itertools import product as assignments
from typing import Protocol, cast

from ..bench.summary import par2
from ..errors import InputError
from ..methods.sat.cnf import build_cnf
from ..methods.sat.encodings import Clause, VarPool, get_encoding
from ..methods.search.backtrack import iter_backtrack
from ..methods.search.construct import construct
from ..problem.board import Cell, Problem, board_lines, canonical, conflicts, parse_cell, parse_n, shown, verify
from ..runtime.limits import check_time_limit

#: The largest number of literals the cardinality checks try: far enough that the commander encoding
#: recurses twice (k >= 13) and the product encoding's recursion is itself a product (k >= 17).
MAX_K = 24
#: Up to this k every assignment is tried (2^6 = 64); above it, those with at most two true literals (three
#: up to THREE_K), all true, and a sample of the others.
EXHAUSTIVE_K = 6
THREE_K = 12
SAMPLE = 40
#: The largest ``max_k`` a cardinality check accepts (above it the checks take minutes, not seconds).
MAX_K_LIMIT = 32
#: :func:`check_at_most_k` tries every assignment of up to this many literals, for every k from 0 to n.
AT_MOST_K_MAX_N = 8
#: :func:`check_count` lists every board by backtracking: up to this n (73,712 boards) it takes a second.
COUNT_MAX_N = 13
#: :func:`check_clause_count` and :func:`check_diagonals` try boards up to this n.
CHECK_MAX_N = 30


def _student_function(value: object, checker: str, shape: str) -> None:
    """Refuse (one line) anything but a function where a checker expects the student's function."""
    if not callable(value):
        raise InputError(f"{checker} takes your function, {shape}, not {shown(value)}")


def _sizes(values: object, what: str, high: int = CHECK_MAX_N) -> list[int]:
    """A non-empty list of board sizes from 1 to ``high``."""
    if isinstance(values, (str, bytes, bytearray)) or not isinstance(values, Iterable):
        raise InputError(f"{what} is a list of board sizes from 1 to {high}, not {shown(values)}")
    sizes = [parse_n(n, maximum=high, what=f"a board size in {what}") for n in values]
    if not sizes:
        raise InputError(f"{what} is a list of board sizes from 1 to {high}, not an empty list")
    return sizes


class _Item(Protocol):
    """A NumPy scalar or 0-d array: ``item()`` is its Python number."""

    def item(self) -> float: ...


def _real(value: object) -> float | None:
    """A real number as a float: an int, a float, a ``Fraction``, a ``Decimal``, a NumPy integer or float
    (a scalar or a 0-d array); None for anything else, bools included.

    >>> import numpy as np; from fractions import Fraction
    >>> _real(np.float32(0.5)), _real(np.array(2)), _real(Fraction(1, 4)), _real(True), _real("8")
    (0.5, 2.0, 0.25, None, None)
    """
    if isinstance(value, bool):
        return None
    if isinstance(value, (numbers.Real, decimal.Decimal)):
        return float(value)
    if getattr(value, "shape", None) == () and getattr(getattr(value, "dtype", None), "kind", None) in ("i", "u", "f"):
        return float(cast(_Item, value).item())
    return None


def _tolerance(value: object) -> float:
    """The relative tolerance a number is compared with: 1e-9, or a few units of its own precision when it is
    a NumPy float of fewer bits (a float32 result of the right formula is right)."""
    dtype = getattr(value, "dtype", None)
    if getattr(dtype, "kind", None) != "f":
        return 1e-9
    import numpy as np

    return max(1e-9, 8 * float(np.finfo(dtype).eps))


def _whole(value: object) -> int | None:
    """A whole number as an int: an int or a NumPy integer (a scalar or a 0-d array); None for anything else
    (bools, floats and text too)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, numbers.Integral):
        return operator.index(value)
    if getattr(value, "shape", None) == () and getattr(getattr(value, "dtype", None), "kind", None) in ("i", "u"):
        return int(cast(_Item, value).item())
    return None


def _truth(value: object) -> bool | None:
    """True or False from a bool or a NumPy bool (a scalar or a 0-d array); None for anything else."""
    if isinstance(value, bool):
        return value
    if getattr(value, "shape", None) == () and getattr(getattr(value, "dtype", None), "kind", None) == "b":
        return bool(value)
    return None


def _a(value: object) -> str:
    """A value as an answer of the wrong type is named: ``'8' (type str)``."""
    return f"{shown(value)} (type {type(value).__name__})"


def _flag(value: object, what: str) -> bool:
    if not isinstance(value, bool):
        raise InputError(f"{what} is True or False, not {shown(value)}")
    return value


@dataclass
class Verdict:
    """A checker's answer: ``ok``, a friendly ``message``, and the ``counterexample`` when there is one.

    A verdict is true when the answer is right, so ``assert check_...(f)`` works in a test; in a notebook
    its text is what is shown.
    """

    ok: bool
    message: str
    counterexample: object = None

    def __bool__(self) -> bool:
        return self.ok

    def __repr__(self) -> str:
        return self.message

    __str__ = __repr__


#: A student's cardinality encoder: ``encode(lits)`` or ``encode(lits, pool)``, returning its clauses.
Encoder = Callable[..., Iterable[Iterable[int]] | None]


def _call_encoder(encode: Encoder, lits: list[int], pool: VarPool) -> list[Clause]:
    """Call ``encode(lits, pool)`` or ``encode(lits)`` (a student may not need helper variables)."""
    try:
        takes_pool = len(inspect.signature(encode).parameters) >= 2
    except (TypeError, ValueError):
        takes_pool = True
    result = encode(list(lits), pool) if takes_pool else encode(list(lits))
    if result is None:
        raise TypeError("the function returned None; it should return a list of clauses")
    return [list(clause) for clause in result]


def _describe(lits: Sequence[int], values: Sequence[bool]) -> str:
    return ", ".join(f"x{lit}={'T' if value else 'F'}" for lit, value in zip(lits, values, strict=True))


def _satisfiable(clauses: list[Clause], units: list[int]) -> bool:
    import pycosat

    return pycosat.solve(clauses + [[u] for u in units]) != "UNSAT"


def _check_cardinality(encode: Encoder, exact: bool, max_k: int) -> Verdict:
    what = "exactly-one" if exact else "at-most-one"
    rule = "exactly one true literal" if exact else "at most one true literal"
    # k = 1 .. max_k over 1..k, and once over scattered, unsorted ids to catch code that assumes 1..k.
    cases: list[list[int]] = [list(range(1, k + 1)) for k in range(1, max_k + 1)]
    cases.append([7, 3, 9, 5])
    for lits in cases:
        k = len(lits)
        pool = VarPool(max(lits))
        try:
            clauses = _call_encoder(encode, lits, pool)
        except Exception as exc:  # a student's code: report whatever it raised
            return Verdict(False, f"Not yet: your function raised {type(exc).__name__}: {exc} (for literals {lits}).",
                           (tuple(lits), None))
        read = [[_whole(lit) for lit in clause] for clause in clauses]  # a NumPy integer is a literal too
        for clause, numbers_read in zip(clauses, read, strict=True):
            for lit, number in zip(clause, numbers_read, strict=True):
                if number is None or number == 0:
                    return Verdict(False, f"Not yet: every literal must be a non-zero int, but a clause for "
                                          f"literals {lits} holds {_a(lit)}.", (tuple(lits), None))
        clauses = [[lit for lit in numbers_read if lit is not None] for numbers_read in read]
        for clause in clauses:
            for lit in clause:
                if abs(lit) not in lits and abs(lit) <= max(lits):
                    return Verdict(False, f"Not yet: for literals {lits} a clause uses variable {abs(lit)}, which is "
                                          "neither one of them nor a fresh helper from pool.new().",
                                   (tuple(lits), None))
                if abs(lit) > pool.top:
                    return Verdict(False, f"Not yet: for literals {lits} a clause uses variable {abs(lit)}, which "
                                          "pool did not hand out; take helper variables with pool.new().",
                                   (tuple(lits), None))
        for values in _assignments(k):
            allowed = sum(values) == 1 if exact else sum(values) <= 1
            units = [lit if value else -lit for lit, value in zip(lits, values, strict=True)]
            if _satisfiable(clauses, units) != allowed:
                shown = _describe(lits, values)
                if allowed:
                    message = (f"Not yet: with k = {k} literals your clauses forbid {shown}, "
                               f"which has {sum(values)} true literal(s) and should be allowed ({rule}).")
                else:
                    message = (f"Not yet: with k = {k} literals your clauses allow {shown}, "
                               f"which has {sum(values)} true literals; {what} must forbid it.")
                return Verdict(False, message, (tuple(lits), tuple(values)))
    tried = (f"every assignment of 1 to {max_k} literals" if max_k <= EXHAUSTIVE_K else
             f"every assignment of 1 to {EXHAUSTIVE_K} literals; of {EXHAUSTIVE_K + 1} to {max_k} literals, every "
             "one with at most two true and a sample of the rest")
    return Verdict(True, f"Correct: these clauses allow exactly the assignments with {rule} ({tried}).")


def _assignments(k: int) -> list[tuple[bool, ...]]:
    """The assignments of k literals a cardinality check tries (see :data:`EXHAUSTIVE_K`)."""
    if k <= EXHAUSTIVE_K:
        return list(assignments((False, True), repeat=k))
    sizes = range(4) if k <= THREE_K else range(3)
    chosen = [tuple(i in ones for i in range(k)) for size in sizes for ones in combinations(range(k), size)]
    rng = random.Random(k)  # the same sample every time, so a verdict does not change from run to run
    chosen += [tuple(rng.random() < 0.5 for _ in range(k)) for _ in range(SAMPLE)]
    chosen.append((True,) * k)
    return chosen


def check_at_most_one(encode: Encoder, max_k: int = MAX_K) -> Verdict:
    """Check an at-most-one encoding ``encode(lits, pool) -> clauses`` (or ``encode(lits)``) by brute force.

    For each k = 1 .. ``max_k`` it tries the assignments of the literals (all 2^k up to k = 6; above, every one
    with at most two true literals, three up to k = 12, all true, and a sample of the rest): the clauses (with
    any helper variables taken from ``pool.new()`` left free) must be satisfiable exactly when at most one
    literal is true.  A wrong encoding gets the first assignment it gets wrong as ``counterexample``:
    ``(literals, values)``.

    >>> check_at_most_one(lambda lits: []).counterexample
    ((1, 2), (True, True))
    """
    _student_function(encode, "check_at_most_one", "encode(lits, pool) -> a list of clauses")
    return _check_cardinality(encode, exact=False, max_k=parse_n(max_k, maximum=MAX_K_LIMIT, what="max_k"))


def check_exactly_one(encode: Encoder, max_k: int = MAX_K) -> Verdict:
    """Like :func:`check_at_most_one` for an exactly-one encoding (at least one and at most one).

    >>> from nqueens_kit.methods.sat.encodings import exactly_one
    >>> bool(check_exactly_one(exactly_one))
    True
    >>> check_exactly_one(lambda lits: [list(lits)]).counterexample
    ((1, 2), (True, True))
    """
    _student_function(encode, "check_exactly_one", "encode(lits, pool) -> a list of clauses")
    return _check_cardinality(encode, exact=True, max_k=parse_n(max_k, maximum=MAX_K_LIMIT, what="max_k"))


def _literal_clauses(result: object, where: str) -> list[Clause] | str:
    """A student's clauses as lists of non-zero ints, or the sentence that says what is wrong with them."""
    if result is None:
        return f"your function returned None {where}; it should return a list of clauses"
    if isinstance(result, (str, bytes, bytearray)) or not isinstance(result, Iterable):
        return f"your function returned {_a(result)} {where}; it should return a list of clauses"
    clauses: list[Clause] = []
    for clause in result:
        if isinstance(clause, (str, bytes, bytearray)) or not isinstance(clause, Iterable):
            return f"a clause {where} is {_a(clause)}, not a list of literals"
        lits = [_whole(lit) for lit in clause]
        if any(lit is None or lit == 0 for lit in lits):
            return f"every literal must be a non-zero int, but a clause {where} is {shown(clause)}"
        clauses.append([lit for lit in lits if lit is not None])
    return clauses


def check_at_most_k(encode: Callable[..., object], max_n: int = AT_MOST_K_MAX_N) -> Verdict:
    """Check an at-most-k encoding ``encode(lits, k, pool) -> clauses`` on every assignment of its inputs.

    For every n = 1 .. ``max_n`` (at most 10) and every k = 0 .. n, and once over scattered, unsorted ids,
    each of the 2^n assignments of the literals is forced and the clauses (helpers from ``pool.new()`` left
    free) must be satisfiable exactly when at most k literals are true: exhaustive on that range, a test
    above it.  The counterexample is ``(literals, k, values)``.

    >>> from nqueens_kit.methods.sat.cardinality import sequential_counter
    >>> check_at_most_k(sequential_counter).ok
    True
    >>> check_at_most_k(lambda lits, k, pool: []).counterexample
    ((1, 2), 1, (True, True))
    """
    _student_function(encode, "check_at_most_k", "encode(lits, k, pool) -> a list of clauses")
    max_n = parse_n(max_n, maximum=10, what="max_n")
    # k = 0 (no literal may be true) comes last, so that the usual off-by-one is named at k >= 1 first
    cases = [(list(range(1, n + 1)), k) for n in range(1, max_n + 1) for k in range(1, n + 1)]
    cases += [([7, 3, 9, 5], k) for k in range(1, 5)]
    cases += [(list(range(1, n + 1)), 0) for n in range(1, max_n + 1)]
    for lits, k in cases:
        pool = VarPool(max(lits))
        where = f"for k = {k} of literals {lits}"
        try:
            result = encode(list(lits), k, pool)
        except Exception as exc:  # a student's code: report whatever it raised
            return Verdict(False, f"Not yet: your function raised {type(exc).__name__}: {exc} ({where}).",
                           (tuple(lits), k, None))
        clauses = _literal_clauses(result, where)
        if isinstance(clauses, str):
            return Verdict(False, f"Not yet: {clauses}.", (tuple(lits), k, None))
        stray = next((abs(lit) for clause in clauses for lit in clause
                      if abs(lit) not in lits and (abs(lit) <= max(lits) or abs(lit) > pool.top)), None)
        if stray is not None:
            return Verdict(False, f"Not yet: {where} a clause uses variable {stray}, which is neither one of them "
                                  "nor a helper handed out by pool.new().", (tuple(lits), k, None))
        for values in assignments((False, True), repeat=len(lits)):
            allowed = sum(values) <= k
            units = [lit if value else -lit for lit, value in zip(lits, values, strict=True)]
            if _satisfiable(clauses, units) != allowed:
                said = _describe(lits, values)
                if allowed:
                    message = (f"Not yet: {where} your clauses forbid {said}, which has {sum(values)} true "
                               f"literal{'s' if sum(values) != 1 else ''}, no more than "
                               f"k = {k}: a counter that counts too high, or a bound one too low?")
                else:
                    message = (f"Not yet: {where} your clauses allow {said}, which has {sum(values)} true "
                               f"literal{'s' if sum(values) != 1 else ''}, more than k = {k}: " + (
                               "with k = 0 every literal must be false." if k == 0 else
                               "some way of counting past k is not forbidden."))
                return Verdict(False, message, (tuple(lits), k, tuple(values)))
    return Verdict(True, f"Correct: for every n from 1 to {max_n} and every k from 0 to n, your clauses allow "
                         "exactly the assignments with at most k true literals (all 2^n of them tried).")


def _cells(value: object, n: int, what: str) -> set[Cell] | str:
    """A set of cells from any iterable of cells (pairs or "r,c" text), or what is wrong with it."""
    if isinstance(value, (str, bytes, bytearray)) or not isinstance(value, Iterable):
        return f"{what} is a list of cells such as [(1, 1), (2, 3)], not {shown(value)}"
    cells: set[Cell] = set()
    for item in value:
        try:
            cells.add(parse_cell(item, n))
        except (InputError, TypeError):
            return f"{what} holds {shown(item)}, which is not a cell (row, column) of the {n} x {n} board"
    return cells


def _shared_line(a: Cell, b: Cell) -> str | None:
    """The line (row, column, diagonal) holding both cells, in words, or None."""
    if a[0] == b[0]:
        return f"row {a[0]}"
    if a[1] == b[1]:
        return f"column {a[1]}"
    if a[0] - a[1] == b[0] - b[1]:
        return f"the diagonal r - c = {a[0] - a[1]}"
    if a[0] + a[1] == b[0] + b[1]:
        return f"the anti-diagonal r + c = {a[0] + a[1]}"
    return None


def check_first_propagation(ruled_out: object, forced: object, n: int = 4, queen: object = (1, 2)) -> Verdict:
    """Check a student's unit propagation by hand on the pairwise formula of n-queens after one queen.

    ``ruled_out``: the cells the first round rules out (each clause ``¬P_q ∨ ¬P_x`` becomes the unit
    ``¬P_x`` once P_q is true).  ``forced``: the cells where the at-least-one clauses that then become unit
    force a queen (a list, possibly empty, or one cell).  Any order and any cell format (``(2, 3)``,
    ``[2, 3]``, ``"2,3"``) is accepted; a wrong answer gets the first flaw, named.

    >>> out = [(1, 1), (1, 3), (1, 4), (2, 1), (2, 2), (2, 3), (3, 2), (3, 4), (4, 2)]
    >>> check_first_propagation(out, [(2, 4)]).ok, check_first_propagation(out, "2,4").ok
    (True, True)
    >>> check_first_propagation(out[1:], [(2, 4)]).counterexample
    (1, 1)
    """
    size = parse_n(n, maximum=CHECK_MAX_N, what="n")
    q = parse_cell(queen, size)
    problem = Problem(size)
    cnf = build_cnf(problem)
    var = problem.var
    cells = [(r, c) for r in range(1, size + 1) for c in range(1, size + 1)]
    cell_of = {var(*cell): cell for cell in cells}
    # first round: the clauses that hold -P_q become unit (pairwise: two literals each)
    out = {cell_of[-lit] for clause in cnf.clauses if -var(*q) in clause and len(clause) == 2
           for lit in clause if lit != -var(*q)}
    # second round: at-least-one clauses with a single cell not yet ruled out (and no queen yet)
    units = [[cell_of[lit] for lit in clause if cell_of[lit] not in out] for clause in cnf.clauses
             if all(lit > 0 for lit in clause) and len(clause) > 1 and var(*q) not in clause]
    truth_forced = {free[0] for free in units if len(free) == 1}
    answer = _cells(ruled_out, size, "ruled_out")
    if isinstance(answer, str):
        return Verdict(False, f"Not yet: {answer}.", ruled_out)
    if isinstance(forced, tuple) and len(forced) == 2 and all(_whole(x) is not None for x in forced):
        forced = [forced]  # one cell given on its own
    if isinstance(forced, str) and forced.strip():
        forced = [forced]  # one cell as "r,c"
    given_forced = _cells(forced, size, "forced")
    if isinstance(given_forced, str):
        return Verdict(False, f"Not yet: {given_forced}.", forced)
    if q in answer:
        return Verdict(False, f"Not yet: {q} is the queen's own cell; P[{q[0]},{q[1]}] is set true, not ruled out.", q)
    for cell in sorted(out - answer):
        line = _shared_line(q, cell)
        return Verdict(False, f"Not yet: {cell} is missing: it shares {line} with the queen at {q}, so "
                              f"¬P[{q[0]},{q[1]}] ∨ ¬P[{cell[0]},{cell[1]}] becomes the unit clause "
                              f"¬P[{cell[0]},{cell[1]}].", cell)
    for cell in sorted(answer - out):
        later = " (a queen forced later may rule it out, but not this round)" if cell not in truth_forced else \
            " (in fact a queen is forced there next)"
        return Verdict(False, f"Not yet: {cell} shares no line with the queen at {q}: no clause "
                              f"¬P[{q[0]},{q[1]}] ∨ ¬P[{cell[0]},{cell[1]}] exists, so the first round cannot "
                              f"rule it out{later}.", cell)
    for cell in sorted(given_forced - truth_forced):
        if cell == q:
            return Verdict(False, f"Not yet: {q} is the queen's own cell: it was placed, not forced.", cell)
        if cell in out:
            return Verdict(False, f"Not yet: {cell} is ruled out in the first round (it shares "
                                  f"{_shared_line(q, cell)} with the queen), so no queen can be forced there.", cell)
        left = next(free for free in units if cell in free)
        return Verdict(False, f"Not yet: no clause forces {cell} yet: no at-least-one clause holding it is unit "
                              f"(one still has {len(left)} free cells: {', '.join(map(str, sorted(left)))}).", cell)
    for cell in sorted(truth_forced - given_forced):
        unit = next(each for each in problem.lines() if cell in each.cells and each.exact
                    and all(c == cell or c in out for c in each.cells))
        name = f"{'row' if unit.kind == 'row' else 'column'} {unit.index}"
        return Verdict(False, f"Not yet: {name}'s at-least-one clause has every cell but {cell} ruled out, so "
                              f"it becomes the unit clause P[{cell[0]},{cell[1]}]: a queen is forced there.", cell)
    queens = ", ".join(map(str, sorted(truth_forced))) or "none"
    return Verdict(True, f"Correct: P[{q[0]},{q[1]}] makes {len(out)} clauses ¬P[{q[0]},{q[1]}] ∨ ¬P[x] unit, "
                         f"ruling out {len(out)} cells; then {len(truth_forced)} at-least-one clause"
                         f"{'s' if len(truth_forced) != 1 else ''} ha{'ve' if len(truth_forced) != 1 else 's'} "
                         f"a single free cell left and force{'s' if len(truth_forced) == 1 else ''} a queen there: "
                         f"{queens}.")


def check_count(answer: object, problem: Problem | int, fundamental: bool = False) -> Verdict:
    """Check a student's count of the solutions (or fundamental solutions) of ``problem`` against bitmask
    backtracking.

    >>> check_count(4, Problem(8, [(1, 1)]))
    Correct: 8-queens with queens placed at 1,1 has 4 solutions.
    >>> bool(check_count(92, 8)), bool(check_count(5, Problem(8, [(1, 1)])))
    (True, False)
    """
    problem = problem if isinstance(problem, Problem) else Problem(problem)
    _flag(fundamental, "fundamental")
    if problem.n > COUNT_MAX_N:
        raise InputError(f"check_count lists every board to check a count, which takes too long above "
                         f"n = {COUNT_MAX_N} ({problem.n}-queens asked); use a smaller board")
    boards = iter_backtrack(problem)
    truth = len({canonical(problem.n, b) for b in boards}) if fundamental else sum(1 for _ in boards)
    what = "fundamental solutions" if fundamental else "solutions"
    whole = _whole(answer)  # a NumPy count (a sum, a 0-d array) is a count too
    if whole is None:
        return Verdict(False, f"Not yet: give the number of {what} as a whole number (an int), not {_a(answer)}.",
                       answer)
    answer = whole
    if answer != truth:
        direction = "too many" if answer > truth else "too few"
        return Verdict(False, f"Not yet: {answer} {what} is {direction} for {problem.describe()}.", answer)
    return Verdict(True, f"Correct: {problem.describe()} has {truth} {what}.")


def check_dead_end(queens: object, n: object = 8) -> Verdict:
    """Check two queens that do not attack each other, yet leave the n x n board (8 x 8 by default) without a
    completion: exactly two, on the board, not attacking, and no solution through both (listed by
    backtracking, independent of the apps).

    >>> check_dead_end([(1, 1), (2, 3)])
    Correct: 8-queens with queens placed at 1,1 2,3 has no solution, though the two queens do not attack each other.
    >>> check_dead_end([(1, 1), (2, 3), (3, 5)])
    Not yet: the exercise asks for exactly two queens, and you gave 3: [(1, 1), (2, 3), (3, 5)].
    """
    n = parse_n(n, maximum=COUNT_MAX_N)
    if isinstance(queens, (str, bytes, bytearray, dict)) or not isinstance(queens, Iterable):
        return Verdict(False, f"Not yet: give the two queens as a list of (row, column) pairs, not {_a(queens)}.",
                       queens)
    listed = list(queens)
    if len(listed) != 2:
        return Verdict(False, f"Not yet: the exercise asks for exactly two queens, and you gave {len(listed)}: "
                              f"{shown(listed)}.", listed)
    try:
        cells = [parse_cell(q, n) for q in listed]
    except InputError as exc:
        return Verdict(False, f"Not yet: {exc}.", listed)
    if cells[0] == cells[1]:
        return Verdict(False, f"Not yet: both queens are on {cells[0][0]},{cells[0][1]}; give two different cells.",
                       listed)
    clash = conflicts(cells)
    if clash:
        return Verdict(False, f"Not yet: these two attack each other ({clash[0][2]}); find two that do not, but "
                              "still leave no completion.", listed)
    problem = Problem(n, tuple(cells))
    found = sum(1 for _ in iter_backtrack(problem))
    if found:
        return Verdict(False, f"Not yet: {problem.describe()} has {found} solution{'s' if found != 1 else ''}: "
                              "these two can be completed.", listed)
    return Verdict(True, f"Correct: {problem.describe()} has no solution, though the two queens do not attack "
                         "each other.")


def check_par2(score: Callable[[list[float | None], float], object], time_limit: float = 10.0) -> Verdict:
    """Check a student's ``score(times, time_limit)``: the PAR-2 of runs whose ``times`` are seconds, ``None``
    for a run stopped by the limit (it counts as twice the limit; the score is the mean over all runs).

    >>> check_par2(lambda times, limit: sum(t if t is not None else 2 * limit for t in times) / len(times))
    Correct: every run counts, and a run stopped by the limit counts as twice the limit.
    >>> check_par2(lambda times, limit: sum(t for t in times if t is not None) / len(times)).ok
    False
    """
    _student_function(score, "check_par2", "score(times, time_limit) -> the PAR-2 score")
    limit = None if isinstance(time_limit, (bytes, bytearray)) else check_time_limit(time_limit, "time_limit")
    if limit is None:
        raise InputError(f"PAR-2 needs the time limit the runs had, a positive number of seconds, not "
                         f"{shown(time_limit)}")
    time_limit = limit
    cases: list[list[float | None]] = [[1.0, 2.0, 3.0], [0.5], [1.0, None, 3.0], [None], [None, None, 4.0],
                                       [2.0, None, None, 4.0, 0.25], [0.0, None, 1.0]]
    for times in cases:
        finished = [t for t in times if t is not None]
        truth = par2(finished, times.count(None), time_limit)
        assert truth is not None
        try:
            got = score(list(times), time_limit)
        except Exception as exc:  # a student's bug is an answer, not a crash
            return Verdict(False, f"Not yet: score({times}, {time_limit:g}) raised {type(exc).__name__}: {exc}",
                           times)
        value = _real(got)  # np.float32, a 0-d array or a Fraction is a number too
        if value is None:
            return Verdict(False, f"Not yet: score({times}, {time_limit:g}) returned {_a(got)}; PAR-2 is a "
                                  "number of seconds: return a real number (an int or a float).", times)
        tolerance = _tolerance(got)
        if not math.isclose(value, truth, rel_tol=tolerance):
            unsolved = times.count(None)
            guesses = {
                "a run stopped by the limit counts twice the limit, not once (that would be PAR-1)":
                    (sum(finished) + unsolved * time_limit) / len(times),
                "runs stopped by the limit must count too, as twice the limit":
                    sum(finished) / len(finished) if finished else math.nan,
                "the mean is over all runs, not only the finished ones":
                    (sum(finished) + unsolved * 2 * time_limit) / len(finished) if finished else math.nan,
                "a run that took 0 s finished: test for None (t is None), not for a false value (not t)":
                    sum(t or 2 * time_limit for t in times) / len(times),
            }
            hint = next((f" Hint: {why}." for why, guess in guesses.items()
                         if math.isclose(value, guess, rel_tol=tolerance)), "")
            return Verdict(False, f"Not yet: for times {times} and a {time_limit:g} s limit, PAR-2 is {truth:g}; "
                                  f"your function gives {got!r}.{hint}", times)
    return Verdict(True, "Correct: every run counts, and a run stopped by the limit counts as twice the limit.")


def resolve(first: Sequence[int], second: Sequence[int]) -> list[int]:
    """The resolvent of two clauses (lists of DIMACS literals): everything but the one variable they contain
    with opposite signs.  A one-line error says when there is no such variable, or more than one (the
    resolvent would be true in every assignment, so it proves nothing).

    >>> resolve([1, 2], [-1, 3]), resolve([4], [-4])
    ([2, 3], [])
    """
    a, b = _clause(first), _clause(second)
    clashes = sorted({abs(lit) for lit in a if -lit in b})
    if not clashes:
        raise InputError(f"{list(first)} and {list(second)} contain no variable with opposite signs: "
                         "there is nothing to resolve on")
    if len(clashes) > 1:
        raise InputError(f"{list(first)} and {list(second)} clash on {len(clashes)} variables ({clashes}); "
                         "resolving on one of them leaves a clause that is always true")
    pivot = clashes[0]
    return sorted((a | b) - {pivot, -pivot}, key=lambda lit: (abs(lit), lit))


def _clause(value: object) -> set[int]:
    """A clause as the set of its literals, or a one-line error for anything but a list of non-zero ints."""
    if isinstance(value, (str, bytes, bytearray, dict)) or not isinstance(value, Iterable):
        raise InputError(f"a clause is a list of non-zero ints (DIMACS literals), not {shown(value)}")
    literals = list(value)
    for lit in literals:
        if type(lit) is not int or lit == 0:
            raise InputError(f"a clause holds non-zero ints (DIMACS literals), not {shown(lit)}")
    return set(literals)


def check_clause_count(formula: Callable[[int], int], encoding: str = "pairwise",
                       ns: Iterable[int] = (*range(4, 13), 3, 2, 1)) -> Verdict:
    """Check a closed-form clause count ``formula(n)`` against the formula the kit generates.

    Boards from 4 up come first; the tiny boards 3, 2 and 1 last, with a hint, because their short lines
    (one or two cells) are where closed forms such as 3k - 4 stop applying.

    >>> check_clause_count(lambda n: 2 * n + n * n * (n - 1) + n * (n - 1) * (2 * n - 1) // 3)
    Correct: your formula gives the number of clauses of the pairwise encoding for every n from 1 to 12.
    >>> check_clause_count(lambda n: 2 * n + n * n * (n - 1)).counterexample
    (4, 56, 84)
    """
    _student_function(formula, "check_clause_count", "formula(n) -> the number of clauses")
    get_encoding(encoding)
    ns = _sizes(ns, "ns")
    for n in ns:
        actual = build_cnf(n, encoding).num_clauses
        try:
            claimed = formula(n)
        except Exception as exc:  # a student's code
            return Verdict(False, f"Not yet: your formula raised {type(exc).__name__}: {exc} at n = {n}.",
                           (n, None, actual))
        value = _real(claimed)  # n * (n - 1) / 2 is a float, a NumPy expression a NumPy number: both count
        if value is None:
            return Verdict(False, f"Not yet: at n = {n} your formula returned {_a(claimed)}; a number of clauses "
                                  "is a whole number (an int).", (n, claimed, actual))
        if value != actual:
            hint = ""
            if n <= 3:
                hint = (f" It is right for n = 4 and up: on a {n} x {n} board the lines are 1 to {n} cells long, "
                        "and an at-most-one over a single cell needs no clause at all — does your formula "
                        "count one (for the sequential counter, 3k - 4 is negative at k = 1)?")
            return Verdict(False, f"Not yet: at n = {n} your formula gives {claimed!r}, but the {encoding} "
                                  f"formula has {actual} clauses.{hint}", (n, claimed, actual))
    return Verdict(True, f"Correct: your formula gives the number of clauses of the {encoding} encoding "
                         f"for every n from {min(ns)} to {max(ns)}.")


def verify_cases() -> list[tuple[str, int, tuple[Cell, ...]]]:
    """Boards a solution checker must judge: ``(description, n, queens)``, good ones and flawed ones.

    Each flawed board has one kind of flaw.  The attacks come both between neighbouring rows and between rows
    far apart (a checker that compares only consecutive queens passes the first kind), and one good board is
    listed out of row order (a checker that takes a queen's place in the list for its row fails it).

    >>> [(what, verify(n, q)) for what, n, q in verify_cases()][:2]
    [('a solution of 8-queens', True), ('a solution of 1-queens', True)]
    """
    good8 = construct(8)
    return [
        ("a solution of 8-queens", 8, good8),
        ("a solution of 1-queens", 1, ((1, 1),)),
        ("a solution of 5-queens", 5, construct(5)),
        # each flawed board below has exactly one pair of queens attacking each other, in one way only
        ("two queens on one diagonal", 4, ((1, 1), (2, 3), (3, 4), (4, 2))),
        ("two queens on one anti-diagonal (r + c equal)", 4, ((1, 2), (2, 4), (3, 3), (4, 1))),
        ("two queens in one column", 4, ((1, 1), (2, 1), (3, 4), (4, 2))),
        ("two queens in one row", 4, ((1, 1), (1, 2), (2, 4), (4, 3))),
        ("a queen missing (7 queens on 8 x 8)", 8, good8[:-1]),
        ("one queen twice on the same cell", 4, ((1, 2), (1, 2), (3, 1), (4, 3))),
        ("a solution of 4-queens with one queen listed twice (5 queens)", 4, ((1, 2), (2, 4), (3, 1), (4, 3), (2, 4))),
        ("a queen off the board", 4, ((1, 2), (2, 4), (3, 1), (4, 5))),
        # no two of these attack each other: only a bounds check rejects them
        ("a queen off the board that attacks nobody", 4, ((1, 1), (2, 3), (4, 2), (5, 4))),
        ("a queen on row 0 (off the board) that attacks nobody", 4, ((0, 1), (1, 4), (2, 2), (4, 3))),
        ("an empty board for n = 4", 4, ()),
        ("a solution of 6-queens given as a 6-queens board", 6, ((1, 2), (2, 4), (3, 6), (4, 1), (5, 3), (6, 5))),
        # the same kinds of attack between queens far apart, in rows and in the list
        ("two queens on one diagonal, five rows apart", 6, ((1, 1), (2, 3), (3, 5), (4, 2), (5, 4), (6, 6))),
        ("two queens on one anti-diagonal, five rows apart", 6,
         ((1, 6), (2, 3), (3, 5), (4, 2), (5, 4), (6, 1))),
        ("two queens in one column, five rows apart", 6, ((1, 1), (2, 3), (3, 5), (4, 2), (5, 4), (6, 1))),
        ("two queens in one row, listed apart", 5, ((1, 1), (2, 4), (3, 2), (5, 3), (2, 5))),
        ("two pairs of queens on diagonals, none in neighbouring rows", 5, ((1, 2), (2, 4), (3, 1), (4, 5), (5, 3))),
        ("a solution of 8-queens listed out of row order", 8, tuple(good8[i] for i in (5, 2, 7, 0, 3, 6, 1, 4))),
    ]


def check_verify(student_verify: Callable[[int, Sequence[Cell]], object]) -> Verdict:
    """Check a student's ``verify(n, queens) -> bool`` on good boards and on boards with each kind of flaw.

    >>> from nqueens_kit import verify
    >>> bool(check_verify(verify))
    True
    >>> rows_and_columns_only = lambda n, q: len({r for r, c in q}) == len({c for r, c in q}) == n
    >>> check_verify(rows_and_columns_only).counterexample[0]
    'two queens on one diagonal'
    """
    _student_function(student_verify, "check_verify", "verify(n, queens) -> True or False")
    for description, n, queens in verify_cases():
        expected = verify(n, queens)
        try:
            answer = student_verify(n, list(queens))
        except Exception as exc:  # a student's code
            return Verdict(False, f"Not yet: your function raised {type(exc).__name__}: {exc} on {description} "
                                  f"(n = {n}, queens {list(queens)}).", (description, n, queens))
        truth = _truth(answer)
        if truth is None:
            return Verdict(False, f"Not yet: your function returned {_a(answer)} on {description} (n = {n}, queens "
                                  f"{list(queens)}); a checker returns True or False.", (description, n, queens))
        if truth != expected:
            verb = "accepts" if truth else "rejects"
            return Verdict(False, f"Not yet: your function {verb} {description} (n = {n}, queens {list(queens)}); "
                                  f"the right answer is {expected}.", (description, n, queens))
    return Verdict(True, f"Correct: your checker gets all {len(verify_cases())} test boards right "
                         "(good ones, and ones with each kind of attack or a missing queen).")


def check_diagonals(student_diagonals: Callable[[int], Iterable[Iterable[Cell]]],
                    ns: Iterable[int] = range(1, 9)) -> Verdict:
    """Check ``diagonals(n)``: every diagonal and anti-diagonal of two or more cells, each as a list of cells.

    The order of the lines and of the cells inside a line does not matter.

    >>> def diagonals(n):
    ...     cells = [(r, c) for r in range(1, n + 1) for c in range(1, n + 1)]
    ...     lines = [[q for q in cells if q[0] - q[1] == d] for d in range(1 - n, n)]
    ...     lines += [[q for q in cells if q[0] + q[1] == s] for s in range(2, 2 * n + 1)]
    ...     return [line for line in lines if len(line) >= 2]
    >>> bool(check_diagonals(diagonals))
    True
    >>> check_diagonals(lambda n: []).counterexample[0]
    2
    """
    _student_function(student_diagonals, "check_diagonals", "diagonals(n) -> a list of lines of cells")
    for n in _sizes(ns, "ns"):
        expected = {frozenset(line.cells) for line in board_lines(n) if line.kind in ("diag", "anti")}
        try:
            lines = list(student_diagonals(n))
        except Exception as exc:  # a student's code
            return Verdict(False, f"Not yet: your function raised {type(exc).__name__}: {exc} at n = {n}.", (n, None))
        try:
            answer = [frozenset(parse_cell(cell) for cell in line) for line in lines]
        except (InputError, TypeError):
            return Verdict(False, f"Not yet: at n = {n} your function returned {shown(lines)}; each line is a list "
                                  "of cells, each cell a (row, column) pair of whole numbers.", (n, None))
        got = set(answer)
        missing = sorted((sorted(line) for line in expected - got), key=len)
        extra = sorted((sorted(line) for line in got - expected), key=len)
        if missing:
            return Verdict(False, f"Not yet: at n = {n} the line {missing[0]} is missing.", (n, missing[0]))
        if extra:
            return Verdict(False, f"Not yet: at n = {n} the line {extra[0]} is not a diagonal of two or more cells.",
                           (n, extra[0]))
        if len(answer) != len(got):
            return Verdict(False, f"Not yet: at n = {n} some line is listed twice.", (n, None))
    return Verdict(True, "Correct: your function lists every diagonal and anti-diagonal of two or more cells.")
