"""N-queens as CNF: clauses that remember where they came from, closed-form sizes, DIMACS in and out.

Inside:

- :func:`build_cnf`: the formula for a :class:`~nqueens_kit.problem.board.Problem` in a named encoding;
  small ones clause by clause (:func:`build_readable`, the reference), large ones with whole arrays
  (:func:`build_packed`: the same clauses in the same order, held as :class:`PackedClauses`).  Board
  variable ``(r - 1)·n + c`` is the queen at row r, column c (1-based), so the board uses 1 .. n²;
  helper variables come after n².
- :class:`CNF`: the clauses, the variable count, and :class:`ClauseGroup` ranges saying which line
  (``row_3``, ``anti_5``, ...) and which part (at least one / at most one / pre-placed) each clause is from.
- :func:`predicted_size` and :func:`pairwise_clause_formula`: the sizes in closed form, checked against
  what :func:`build_cnf` generates.
- :func:`write_dimacs`, :func:`dimacs_text`, :func:`read_dimacs`, :func:`parse_dimacs`.

:class:`CNF` and its DIMACS text are in :mod:`.clauses`, the array build in :mod:`.packed`; every public name of
theirs is importable from here too.

>>> cnf = build_cnf(7)
>>> cnf.num_vars, cnf.num_clauses
(49, 490)
>>> pairwise_clause_formula(8), build_cnf(8).num_clauses
(744, 744)
>>> cnf.origin(0).label
'row_1: at least one'
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from ...errors import ConflictError, InputError
from ...problem.board import (
    Board,
    Cell,
    Line,
    Problem,
    board_cells,
    first_conflict,
    lex_pairs,
    parse_n,
    shown,
)
from ...runtime.limits import SAT_BYTES_PER_CLAUSE, SAT_BYTES_PER_VARIABLE, Size, builder_budget, check_size
from .clauses import CNF as CNF
from .clauses import FAST_ABOVE as FAST_ABOVE
from .clauses import PART_TEXT as PART_TEXT
from .clauses import ClauseGroup as ClauseGroup
from .clauses import PackedClauses as PackedClauses
from .clauses import _check_flag
from .clauses import decode_model as decode_model
from .clauses import dimacs_text as dimacs_text
from .clauses import kit_board_size as kit_board_size
from .clauses import write_dimacs as write_dimacs
from .clauses import write_dimacs_arrays as write_dimacs_arrays
from .clauses import write_dimacs_clauses as write_dimacs_clauses
from .encodings import DEFAULT_ENCODING, Clause, VarPool, counts_between, get_encoding
from .packed import build_packed as build_packed


def build_cnf(problem: Problem | int, encoding: str = DEFAULT_ENCODING, define: bool = False,
              max_memory: object = None) -> CNF:
    """The CNF of an N-queens problem: for each line, at least one (rows and columns) and at most one in
    the chosen encoding; a unit clause per pre-placed queen (``P[r,c]``) and per blocked cell (``¬P[r,c]``);
    with the problem's symmetry broken, the lex-leader clauses (:func:`lex_leader_clauses`).

    ``define`` adds one clause per helper variable making it a function of the board (see
    :mod:`nqueens_kit.methods.sat.encodings`); the boards are the same, but each board then has exactly one
    model.

    The size guard of the command line runs first: a formula whose predicted memory is above ``max_memory``
    (bytes or a size such as ``"8G"``; default: :func:`~nqueens_kit.runtime.limits.builder_budget`)
    is refused with one line rather than built until the machine runs out of memory.
    """
    if not isinstance(problem, Problem):
        problem = Problem(problem)
    enc = get_encoding(encoding)
    _check_flag(define, "define")
    better = 'a helper-variable encoding (encoding="sequential"), ' if enc.name == "pairwise" else ""
    size = cnf_size(problem, enc.name, define)
    check_size(size, f"the {enc.name} CNF of {problem.n}-queens",
               f"use {better}a smaller n, or construct(n) for one board of any size", builder_budget(max_memory))
    if (size.clauses or 0) >= FAST_ABOVE:
        from ...runtime.browser import packed_builder_here  # (a browser may lack numpy)

        if packed_builder_here():
            return build_packed(problem, enc.name, define)
    return build_readable(problem, enc.name, define)


def build_readable(problem: Problem, encoding: str = DEFAULT_ENCODING, define: bool = False) -> CNF:
    """:func:`build_cnf` clause by clause, line by line, each encoding's own function called on each line:
    the reference the array builder (:func:`build_packed`) is held to.  No size guard runs here."""
    if not isinstance(problem, Problem):
        problem = Problem(problem)
    enc = get_encoding(encoding)
    _check_flag(define, "define")
    n = problem.n
    pool = VarPool(n * n)
    clauses: list[Clause] = []
    groups: list[ClauseGroup] = []
    amo = enc.at_most_one
    for line in problem.lines():
        lits = [(r - 1) * n + c for r, c in line.cells]
        if line.exact:
            groups.append(ClauseGroup(line.name, "alo", len(clauses), len(clauses) + 1))
            clauses.append(lits)
        start = len(clauses)
        clauses.extend(amo(lits, pool, define))
        groups.append(ClauseGroup(line.name, "amo", start, len(clauses)))
    for r, c in problem.preplaced:
        groups.append(ClauseGroup(f"placed_{r}_{c}", "placed", len(clauses), len(clauses) + 1))
        clauses.append([(r - 1) * n + c])
    for r, c in problem.blocked:
        groups.append(ClauseGroup(f"blocked_{r}_{c}", "blocked", len(clauses), len(clauses) + 1))
        clauses.append([-((r - 1) * n + c)])
    if problem.break_symmetry:
        for name, pair_clauses in lex_leader_clauses(n, pool):
            groups.append(ClauseGroup(f"lex_{name.replace(' ', '_')}", "lex", len(clauses),
                                      len(clauses) + len(pair_clauses)))
            clauses.extend(pair_clauses)
    return CNF(problem, encoding, clauses, pool.top, groups, define)


def lex_leader_clauses(n: int, pool: VarPool) -> Iterator[tuple[str, list[Clause]]]:
    """Per symmetry s of the square (the identity left out), the CNF of x >=lex s(x), with helpers from
    ``pool``: read the board as the bit vector x of its cells in row-major order; exactly one board per orbit
    satisfies all seven, the canonical one (Crawford, Ginsberg, Luks and Roy, KR 1996).

    The comparison is a chain of helpers e_i = "x and s(x) agree on the first i compared cells":
    e_{i-1} → (x_i ∨ ¬y_i) (while equal so far, y may not have a queen where x has none), and
    e_i ↔ e_{i-1} ∧ (x_i ↔ y_i), defined exactly so that every board keeps exactly one model.  Cells the
    symmetry fixes are skipped (:func:`~nqueens_kit.problem.board.lex_pairs`).

    >>> [(name, len(c)) for name, c in lex_leader_clauses(2, VarPool(4))][:2]
    [('rotate 90', 23), ('rotate 180', 23)]
    """
    if not isinstance(pool, VarPool):
        raise InputError(f"pool must be a VarPool (helper variables come from it), not {shown(pool)}")
    for name, pairs in lex_pairs(n):
        clauses: list[Clause] = []
        previous: int | None = None  # e_0 is true
        for (xr, xc), (yr, yc) in pairs:
            x, y = (xr - 1) * n + xc, (yr - 1) * n + yc
            guard = [] if previous is None else [-previous]
            clauses.append([*guard, x, -y])
            e = pool.new()
            clauses += [[*guard, x, y, e], [*guard, -x, -y, e], [-e, -x, y], [-e, x, -y]]
            if previous is not None:
                clauses.append([-e, previous])
            previous = e
        yield name, clauses


def lex_moved(n: int) -> list[int]:
    """How many cells each symmetry but the identity moves (the pairs :func:`lex_pairs` lists for it), in
    closed form: the rotations by 90°, 180° and 270° fix only the centre cell of an odd board, the two mirrors
    its middle column or row, the two transposes a diagonal of n cells.

    >>> lex_moved(3) == [len(pairs) for _name, pairs in lex_pairs(3)]
    True
    """
    n = parse_n(n)
    odd = n % 2
    return [n * n - odd] * 3 + [n * n - n * odd] * 2 + [n * n - n] * 2


def lex_leader_size(n: int) -> tuple[int, int]:
    """``(helpers, clauses)`` of :func:`lex_leader_clauses`: per compared pair one helper and five clauses,
    plus one for every pair after the first of its symmetry (from :func:`lex_moved`, without listing a cell)."""
    moved = lex_moved(n)
    return sum(moved), sum(6 * m - 1 for m in moved if m)


@dataclass
class Residual:
    """What is left of a problem once some queens are fixed: the lines restricted to the cells those
    queens leave open, in the same encoding.  The open cells are variables ``1 .. len(cells)`` (variable v
    is ``cells[v - 1]``), helpers come after them; ``queens`` are the fixed queens."""

    queens: tuple[Cell, ...]
    cells: list[Cell]
    clauses: list[Clause]
    num_vars: int

    def board(self, model: Iterable[int]) -> Board:
        """The fixed queens plus the queens of a model's positive cell literals, sorted by row."""
        top = len(self.cells)
        return tuple(sorted([*self.queens, *(self.cells[lit - 1] for lit in model if 0 < lit <= top)]))


def build_residual(problem: Problem, queens: Iterable[Cell], encoding: str = DEFAULT_ENCODING,
                   define: bool = False, lines: Sequence[Line] | None = None) -> Residual | None:
    """The formula of the sub-problem where ``queens`` (non-attacking, with the pre-placed ones) are fixed,
    or None when a row or column has no open cell left (the sub-problem has no solution).

    This is unit propagation of the fixed queens (and of the blocked cells) done on the board before
    encoding: every cell a fixed queen attacks and every blocked cell is dropped, every line a fixed queen
    sits on is satisfied and dropped, and each remaining line gets the encoding over its open cells.  Every
    open cell lies on an open row, so every variable occurs.
    ``lines`` passes ``problem.lines()`` in when many sub-problems of one problem are built.

    >>> r = build_residual(Problem(4), [(1, 2)])
    >>> r.cells
    [(2, 4), (3, 1), (3, 3), (4, 1), (4, 3), (4, 4)]
    >>> r.board([1, 2, -3, -4, 5, -6])
    ((1, 2), (2, 4), (3, 1), (4, 3))
    """
    if not isinstance(problem, Problem):
        problem = Problem(problem)
    queens = board_cells(problem.n, queens)
    get_encoding(encoding)
    _check_flag(define, "define")
    if lines is not None:
        if isinstance(lines, (str, bytes)) or not isinstance(lines, Iterable):
            raise InputError(f"lines are problem.lines() or None, not {str(lines)[:40]!r}")
        lines = list(lines)
        if not all(isinstance(line, Line) for line in lines):
            raise InputError("lines are problem.lines() (a list of Line) or None")
    fixed = tuple(sorted(set(queens) | set(problem.preplaced)))
    clash = first_conflict(fixed)
    if clash:
        (r, c), (r2, c2), why = clash
        raise ConflictError(f"the fixed queens at {r},{c} and {r2},{c2} attack each other ({why}); fix queens that "
                            "no other queen attacks")
    on_blocked = set(fixed) & set(problem.blocked)
    if on_blocked:
        r, c = min(on_blocked)
        raise InputError(f"a queen is fixed on the blocked cell {r},{c}; a cell is one or the other")
    closed = set(problem.blocked)
    rows = {r for r, _ in fixed}
    cols = {c for _, c in fixed}
    diffs = {r - c for r, c in fixed}
    sums = {r + c for r, c in fixed}
    number: dict[Cell, int] = {}
    encoded: list[tuple[bool, list[int]]] = []
    for line in problem.lines() if lines is None else lines:
        if line.exact and (line.index in (rows if line.kind == "row" else cols)):
            continue
        open_cells = [(r, c) for r, c in line.cells if r not in rows and c not in cols and r - c not in diffs
                      and r + c not in sums and (r, c) not in closed]
        if line.exact and not open_cells:
            return None
        if not line.exact and len(open_cells) < 2:
            continue
        encoded.append((line.exact, [number.setdefault(cell, len(number) + 1) for cell in open_cells]))
    amo = get_encoding(encoding).at_most_one
    pool = VarPool(len(number))
    clauses: list[Clause] = []
    for exact, lits in encoded:
        if exact:
            clauses.append(lits)
        clauses.extend(amo(lits, pool, define))
    return Residual(fixed, list(number), clauses, pool.top)


def line_lengths(n: int) -> list[tuple[int, int, bool]]:
    """``(length, how many lines, exact)``: 2n exact lines of length n; per diagonal direction, lines of
    length 2 .. n-1 twice each and one of length n."""
    n = parse_n(n)
    result = [(n, 2 * n, True)]
    if n >= 2:
        result.append((n, 2, False))
        result += [(k, 4, False) for k in range(2, n)]
    return result


def predicted_size(n: int, encoding: str = DEFAULT_ENCODING, preplaced: int = 0,
                   define: bool = False, blocked: int = 0, break_symmetry: bool = False) -> tuple[int, int]:
    """``(variables, clauses)`` of :func:`build_cnf` from the encoding's closed-form counts alone (the
    lex-leader part, with ``break_symmetry``, from :func:`lex_leader_size`), without visiting each line: the
    2n rows and columns and the two long diagonals have length n, and each length from 2 to n - 1 is four
    diagonals (:func:`line_lengths`), summed by :func:`~nqueens_kit.methods.sat.encodings.counts_between`."""
    n = parse_n(n)
    counts = get_encoding(encoding).counts
    preplaced = parse_n(preplaced, minimum=0, maximum=n, what="preplaced (how many queens are pre-placed)")
    blocked = parse_n(blocked, minimum=0, maximum=n * n - preplaced, what="blocked (how many cells are blocked)")
    _check_flag(define, "define")
    _check_flag(break_symmetry, "break_symmetry")
    variables, clauses = n * n, preplaced + blocked
    if break_symmetry:
        helpers, lex = lex_leader_size(n)
        variables, clauses = variables + helpers, clauses + lex
    aux, cl = counts(n)
    extra = aux if define else 0
    variables += 2 * n * aux
    clauses += 2 * n * (cl + 1 + extra)  # the rows and columns, each with its at-least-one clause
    if n >= 2:
        short_aux, short_cl = counts_between(encoding, 2, n - 1)
        variables += 2 * aux + 4 * short_aux
        clauses += 2 * (cl + extra) + 4 * (short_cl + (short_aux if define else 0))
    return variables, clauses


def cnf_size(problem: Problem, encoding: str = DEFAULT_ENCODING, define: bool = False) -> Size:
    """The size of :func:`build_cnf` for ``problem`` and the memory building and solving it needs."""
    if not isinstance(problem, Problem):
        raise InputError(f"problem is a Problem (e.g. Problem(8)), not {shown(problem)}")
    variables, clauses = predicted_size(problem.n, encoding, len(problem.preplaced), define, len(problem.blocked),
                                        problem.break_symmetry)
    n = problem.n
    literals = 2 * clauses + 2 * n * n  # binary at-most-one clauses plus the row and column clauses
    return Size(variables, clauses=clauses, literals=literals,
                memory=SAT_BYTES_PER_CLAUSE * clauses + SAT_BYTES_PER_VARIABLE * variables)


def pairwise_clause_formula(n: int) -> int:
    """The lectures' count for the pairwise encoding: 2n + n²(n−1) + n(n−1)(2n−1)/3.

    2n at-least-one clauses (rows, columns), n·C(n,2) at-most-one pairs in rows and as many in columns,
    and n(n−1)(2n−1)/3 attacking pairs on the diagonals of both directions.
    """
    n = parse_n(n)
    return 2 * n + n * n * (n - 1) + n * (n - 1) * (2 * n - 1) // 3
