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

>>> cnf = build_cnf(7)
>>> cnf.num_vars, cnf.num_clauses
(49, 490)
>>> pairwise_clause_formula(8), build_cnf(8).num_clauses
(744, 744)
>>> cnf.origin(0).label
'row_1: at least one'
"""

from __future__ import annotations

import gc
import io
import os
import re
from bisect import bisect_right
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from ...errors import ConflictError, InputError
from ...problem.board import (
    MAX_N,
    Board,
    Cell,
    Line,
    Problem,
    board_cells,
    first_conflict,
    lex_pairs,
    parse_n,
    shown,
    whole_number,
)
from ...runtime.limits import SAT_BYTES_PER_CLAUSE, SAT_BYTES_PER_VARIABLE, Size, builder_budget, check_size
from .encodings import DEFAULT_ENCODING, Clause, VarPool, counts_between, get_encoding, line_template

if TYPE_CHECKING:
    import numpy as np

    from ...formats.dimacs import Dimacs



def write_dimacs_clauses(*args: Any, **kwargs: Any) -> None:
    """:func:`nqueens_kit.formats.dimacs.write_dimacs_clauses`, imported when a formula is first written (a solve
    in this process writes none)."""
    from ...formats.dimacs import write_dimacs_clauses as write

    write(*args, **kwargs)


def write_dimacs_arrays(*args: Any, **kwargs: Any) -> None:
    """:func:`nqueens_kit.formats.dimacs.write_dimacs_arrays`, imported when a formula is first written."""
    from ...formats.dimacs import write_dimacs_arrays as write

    write(*args, **kwargs)


PART_TEXT = {"alo": "at least one", "amo": "at most one", "placed": "pre-placed queen", "blocked": "blocked cell",
             "lex": "lex-leader symmetry breaking"}


@dataclass(frozen=True)
class ClauseGroup:
    """Clauses ``start .. stop - 1`` of a CNF, all made for one line (or one pre-placed queen)."""

    name: str  # line name (row_3, diag_7, ...), placed_R_C, blocked_R_C or lex_SYMMETRY
    part: str  # "alo", "amo", "placed", "blocked" or "lex"
    start: int
    stop: int

    @property
    def label(self) -> str:
        return f"{self.name}: {PART_TEXT[self.part]}"

    def __len__(self) -> int:
        return self.stop - self.start


class CNF:
    """A CNF for one N-queens problem.

    Vocabulary used across the kit: a *formula* (this object) is what the encoder writes; a *model* is a
    SAT solver's satisfying assignment (a list of signed ints); a *board* is the queens a model decodes to.

    The clauses are held as a list of lists (``clauses``), as arrays (``packed``, a :class:`PackedClauses`)
    or both: a formula built as arrays makes its list only when ``clauses`` is first read (what pycosat and
    python-sat take), and a formula built as a list makes its arrays only when ``packed`` is first read.
    ``num_clauses``, :meth:`clause`, :meth:`clause_text`, :meth:`origin` and the DIMACS writers use whichever
    is there.
    """

    def __init__(self, problem: Problem, encoding: str, clauses: list[Clause] | None = None, num_vars: int = 0,
                 groups: list[ClauseGroup] | None = None, defined: bool = False,
                 packed: PackedClauses | None = None) -> None:
        self.problem = problem
        self.encoding = encoding
        self._clauses = [] if clauses is None and packed is None else clauses
        self._packed = packed
        self.num_vars = num_vars
        self.groups: list[ClauseGroup] = [] if groups is None else groups
        self.defined = defined  # helpers made functions of the board (one extra clause per helper)

    def __repr__(self) -> str:
        return (f"CNF({self.problem.describe()}, {self.encoding!r}, {self.num_vars:,} variables, "
                f"{self.num_clauses:,} clauses{', defined' if self.defined else ''})")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, CNF):
            return NotImplemented
        return (self.problem == other.problem and self.encoding == other.encoding
                and self.num_vars == other.num_vars and self.groups == other.groups
                and self.defined == other.defined and self.clauses == other.clauses)

    __hash__ = None  # type: ignore[assignment]  # mutable, like the dataclass it stands in for

    @property
    def clauses(self) -> list[Clause]:
        """Every clause as a list of ints (made from :attr:`packed` on first use)."""
        if self._clauses is None:
            assert self._packed is not None
            self._clauses = self._packed.tolist()
        return self._clauses

    @clauses.setter
    def clauses(self, value: list[Clause]) -> None:
        self._clauses, self._packed = value, None

    @property
    def packed(self) -> PackedClauses:
        """The clauses as arrays (made from :attr:`clauses` on first use)."""
        if self._packed is None:
            self._packed = PackedClauses.from_lists(self.clauses)
        return self._packed

    def has_list(self) -> bool:
        """Whether the list of lists is already made (reading :attr:`clauses` costs nothing more)."""
        return self._clauses is not None

    @property
    def n(self) -> int:
        return self.problem.n

    @property
    def num_clauses(self) -> int:
        return len(self._clauses) if self._clauses is not None else len(self.packed)

    def clause(self, index: int) -> Clause:
        """Clause ``index`` (0-based) as a list of ints, without making the whole list."""
        index = _clause_index(index, self.num_clauses)
        return self._clauses[index] if self._clauses is not None else self.packed.clause(index)

    @property
    def board_vars(self) -> int:
        """Variables 1 .. n² are the board; anything above is a helper."""
        return self.problem.n ** 2

    def origin(self, index: int) -> ClauseGroup:
        """The group of clause ``index`` (0-based)."""
        index = _clause_index(index, self.num_clauses)
        starts = [g.start for g in self.groups]
        return self.groups[bisect_right(starts, index) - 1]

    def groups_of(self, name: str) -> list[ClauseGroup]:
        """The clause groups made for one line, e.g. ``groups_of("row_3")``."""
        return [g for g in self.groups if g.name == name]

    def family_counts(self) -> dict[str, dict[str, int]]:
        """Per kind of line (``row``, ``col``, ``diag``, ``anti``): how many lines, at-least-one clauses,
        at-most-one clauses, and helper variables those clauses use; ``placed``: the pre-placed queens' units.

        >>> build_cnf(4).family_counts()["diag"]
        {'lines': 5, 'alo': 0, 'amo': 14, 'helpers': 0}
        """
        top = self.board_vars
        table: dict[str, dict[str, Any]] = {}
        for group in self.groups:
            kind = "placed" if group.part == "placed" else group.name.split("_")[0]
            row = table.setdefault(kind, {"lines": set(), "alo": 0, "amo": 0, "placed": 0, "blocked": 0, "lex": 0,
                                          "helpers": set()})
            row["lines"].add(group.name)
            row[group.part] += len(group)
            if self._clauses is None:  # arrays: the helpers of the group's literals at once
                packed = self.packed
                lits = packed.literals[int(packed.offsets[group.start]):int(packed.offsets[group.stop])]
                magnitude = abs(lits)
                row["helpers"].update(magnitude[magnitude > top].tolist())
                continue
            for clause in self.clauses[group.start:group.stop]:
                row["helpers"].update(abs(lit) for lit in clause if abs(lit) > top)
        order = ["row", "col", "diag", "anti", "placed"]
        return {kind: {"lines": len(table[kind]["lines"]), "alo": table[kind]["alo"], "amo": table[kind]["amo"],
                       "helpers": len(table[kind]["helpers"])} | ({"units": table[kind]["placed"]}
                                                                 if kind == "placed" else {})
                for kind in order if kind in table}

    def decode(self, model: Iterable[int]) -> Board:
        """The board a model (list of signed literals) stands for."""
        return decode_model(model, self.n)

    def literal_name(self, lit: int) -> str:
        """``P[3,5]`` for a board variable, ``h12`` for a helper; ``¬`` in front for a negative literal."""
        if not (type(lit) is int and 0 < abs(lit) <= self.num_vars):  # the kit's own literals pass at once
            number = None if isinstance(lit, str) else whole_number(lit)
            if number is None or not 0 < abs(number) <= self.num_vars:
                raise InputError(f"a literal of this formula is a non-zero whole number from -{self.num_vars} to "
                                 f"{self.num_vars}, not {shown(lit)}")
            lit = number
        var = abs(lit)
        if var <= self.board_vars:
            r, c = self.problem.cell(var)
            name = f"P[{r},{c}]"
        else:
            name = f"h{var - self.board_vars}"
        return name if lit > 0 else "¬" + name

    def clause_text(self, index: int) -> str:
        """A clause in the lectures' notation, e.g. ``¬P[1,1] ∨ ¬P[1,2]``."""
        return " ∨ ".join(self.literal_name(lit) for lit in self.clause(index))

    def to_dimacs(self, comments: bool = True) -> str:
        return dimacs_text(self, comments=comments)


def decode_model(model: Iterable[int], n: int) -> Board:
    """Queens of the positive board literals (1 .. n²) in a model, sorted by row."""
    if type(n) is not int or not 0 < n <= MAX_N:  # the kit's own sizes pass at once
        n = parse_n(n)
    if type(model) is not list and (isinstance(model, (str, bytes, bytearray, Mapping))
                                    or not isinstance(model, Iterable)):
        raise InputError(f"a model is a list of non-zero ints (a SAT solver's literals), not {shown(model)}")
    top = n * n
    try:
        return tuple(sorted(((lit - 1) // n + 1, (lit - 1) % n + 1) for lit in model if 0 < lit <= top))
    except TypeError:  # checked here, not literal by literal: a model is long and decoded often
        raise InputError(f"a model is a list of non-zero ints (a SAT solver's literals), not {shown(model)}") from None


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


def _clause_index(index: object, count: int) -> int:
    """``index`` as the 0-based number of one of ``count`` clauses, or a one-line error."""
    number = index if type(index) is int else None if isinstance(index, str) else whole_number(index)
    if number is None or not 0 <= number < count:
        raise InputError(f"a clause of this formula is numbered 0 to {count - 1:,}, not {shown(index)}")
    return number


def _check_cnf(cnf: object) -> None:
    if not isinstance(cnf, CNF):
        raise InputError(f"cnf is a formula from build_cnf(...), not {shown(cnf)}")


def _check_flag(value: object, what: str) -> None:
    if not isinstance(value, bool):
        raise InputError(f"{what} is True or False, not {str(value)[:40]!r}")


def pairwise_clause_formula(n: int) -> int:
    """The lectures' count for the pairwise encoding: 2n + n²(n−1) + n(n−1)(2n−1)/3.

    2n at-least-one clauses (rows, columns), n·C(n,2) at-most-one pairs in rows and as many in columns,
    and n(n−1)(2n−1)/3 attacking pairs on the diagonals of both directions.
    """
    n = parse_n(n)
    return 2 * n + n * n * (n - 1) + n * (n - 1) * (2 * n - 1) // 3


# --------------------------------------------------------------------------------------------- DIMACS


#: The header comment that tells the board size of a file the kit wrote (see :func:`kit_board_size`).
_SIZE_COMMENT = re.compile(r"variable \(r-1\)\*([0-9]{1,8}) \+ c is the queen at row r, column c")


def kit_board_size(dimacs: Dimacs) -> int | None:
    """The board size a DIMACS file written by the kit states in its header comments, or None.

    >>> from nqueens_kit.formats.dimacs import parse_dimacs
    >>> kit_board_size(parse_dimacs(dimacs_text(build_cnf(5, "commander"))))
    5
    """
    for comment in dimacs.comments[:8]:
        match = _SIZE_COMMENT.search(comment)
        if match:
            n = int(match.group(1))
            return n if 1 <= n and n * n <= dimacs.num_vars else None
    return None


def _dimacs_header_comments(cnf: CNF) -> list[str]:
    n = cnf.n
    lines = [
        f"{cnf.problem.describe()}, encoding {cnf.encoding}, written by nqueens-kit",
        f"variable (r-1)*{n} + c is the queen at row r, column c (1-based): variables 1..{n * n}",
    ]
    if cnf.num_vars > n * n:
        lines.append(f"variables {n * n + 1}..{cnf.num_vars} are helpers of the {cnf.encoding} encoding")
    lines += [
        "rows and columns: exactly one queen; diagonals (r-c constant) and anti-diagonals (r+c constant)",
        "of two or more cells: at most one queen; each group of clauses is preceded by its line's name",
    ]
    return lines


def dimacs_text(cnf: CNF, comments: bool = True) -> str:
    """The CNF as DIMACS text, with ``c`` lines explaining the numbering and each line's clauses."""
    _check_cnf(cnf)
    _check_flag(comments, "comments")
    if not cnf.has_list():
        binary = io.BytesIO()
        _write_arrays(cnf, binary, comments)
        return binary.getvalue().decode("ascii")
    buffer = io.StringIO()
    write_dimacs_clauses(
        buffer, cnf.num_vars, cnf.clauses,
        _dimacs_header_comments(cnf) if comments else (),
        cnf.groups if comments else (),
    )
    return buffer.getvalue()


def write_dimacs(cnf: CNF, path: str | os.PathLike[str], comments: bool = True) -> Path:
    """Write the CNF to ``path``, whole or not at all (one-line error if the path cannot be written)."""
    from ...runtime.files import written_whole

    _check_cnf(cnf)
    _check_flag(comments, "comments")
    if not isinstance(path, (str, os.PathLike)) or not isinstance(os.fspath(path), str) or "\0" in os.fspath(path):
        raise InputError(f"a DIMACS file is named by a path such as queens.cnf, not {shown(path)}")
    if not cnf.has_list() or cnf.num_clauses >= FAST_ABOVE:
        with written_whole(path, "wb") as binary:
            _write_arrays(cnf, binary, comments)
        return Path(path)
    with written_whole(path, encoding="ascii") as out:
        write_dimacs_clauses(
            out, cnf.num_vars, cnf.clauses,
            _dimacs_header_comments(cnf) if comments else (),
            cnf.groups if comments else (),
        )
    return Path(path)


def _write_arrays(cnf: CNF, out: IO[bytes], comments: bool) -> None:
    packed = cnf.packed
    write_dimacs_arrays(out, cnf.num_vars, packed.literals, packed.offsets,
                        _dimacs_header_comments(cnf) if comments else (), cnf.groups if comments else ())


# ------------------------------------------------------------------------------------ the array builder


#: From this many predicted clauses on, :func:`build_cnf` builds with whole arrays (:func:`build_packed`):
#: the same clauses in the same order, held as :class:`PackedClauses`; below, clause by clause.
FAST_ABOVE = 100_000
#: About how many literals the array builder makes at once (a slice of lines of one length).
_CHUNK_LITERALS = 1 << 22


class PackedClauses:
    """Clauses as two arrays: ``literals`` (int32, every clause's literals one after the other) and
    ``offsets`` (int64, one more than the clauses): clause i is ``literals[offsets[i]:offsets[i + 1]]``.

    >>> packed = PackedClauses.from_lists([[1, -2], [3]])
    >>> len(packed), packed.clause(1), packed.tolist()
    (2, [3], [[1, -2], [3]])
    """

    __slots__ = ("literals", "offsets")

    def __init__(self, literals: np.ndarray, offsets: np.ndarray) -> None:
        self.literals = literals
        self.offsets = offsets

    @classmethod
    def from_lists(cls, clauses: Sequence[Clause]) -> PackedClauses:
        import numpy as np

        widths = np.fromiter(map(len, clauses), dtype=np.int64, count=len(clauses))
        offsets = np.zeros(len(clauses) + 1, dtype=np.int64)
        np.cumsum(widths, out=offsets[1:])
        literals = np.fromiter((lit for clause in clauses for lit in clause), dtype=np.int32,
                               count=int(offsets[-1]))
        return cls(literals, offsets)

    def __len__(self) -> int:
        return len(self.offsets) - 1

    def clause(self, index: int) -> Clause:
        """Clause ``index`` as a list of ints."""
        return [int(lit) for lit in self.literals[int(self.offsets[index]):int(self.offsets[index + 1])]]

    def tolist(self) -> list[Clause]:
        """Every clause as a list of ints (what pycosat and python-sat take).

        Runs of clauses of one width are cut by numpy (``reshape(-1, width).tolist()``); when the widths
        change too often for that to pay, the flat list is cut at the offsets.  The cyclic garbage collector
        is paused meanwhile: it would rescan the growing list again and again (ten times the work)."""
        import numpy as np

        offsets = self.offsets
        widths = np.diff(offsets)
        changes = np.flatnonzero(widths[1:] != widths[:-1]) + 1
        enabled = gc.isenabled()
        gc.disable()
        try:
            if len(changes) * 16 <= len(widths):
                result: list[Clause] = []
                bounds = [0, *changes.tolist(), len(widths)]
                for first, last in zip(bounds[:-1], bounds[1:], strict=True):
                    width = int(widths[first]) if last > first else 0
                    run = self.literals[int(offsets[first]):int(offsets[last])]
                    result += run.reshape(last - first, width).tolist()
                return result
            flat = self.literals.tolist()
            cuts = offsets.tolist()
            return [flat[a:b] for a, b in zip(cuts[:-1], cuts[1:], strict=True)]
        finally:
            if enabled:
                gc.enable()


def _board_line_cells(n: int) -> Iterator[tuple[str, bool, np.ndarray]]:
    """``(name, exact, board variables)`` of every line of :func:`~nqueens_kit.problem.board.board_lines`, in
    its order and with its cells in its order, from arithmetic alone (no cell tuples)."""
    import numpy as np

    grid = np.arange(1, n * n + 1, dtype=np.int32).reshape(n, n)
    for r in range(1, n + 1):
        yield f"row_{r}", True, grid[r - 1]
    for c in range(1, n + 1):
        yield f"col_{c}", True, grid[:, c - 1]
    for d in range(2, 2 * n - 1):  # r - c + n = d: the cell (r, r - d + n) is variable r(n + 1) - d
        rows = np.arange(max(1, d - n + 1), min(n, d) + 1, dtype=np.int32)
        yield f"diag_{d}", False, rows * (n + 1) - d
    for a in range(2, 2 * n - 1):  # r + c - 1 = a: the cell (r, a + 1 - r) is variable r(n - 1) + a + 1 - n
        rows = np.arange(max(1, a + 1 - n), min(n, a) + 1, dtype=np.int32)
        yield f"anti_{a}", False, rows * (n - 1) + (a + 1 - n)


def build_packed(problem: Problem, encoding: str = DEFAULT_ENCODING, define: bool = False) -> CNF:
    """:func:`build_cnf` with whole arrays, for large boards: the same clauses in the same order, the same
    variable numbering and groups, held as :class:`PackedClauses` (``cnf.clauses`` is made from them only
    when asked for).

    Each encoding's clauses for a line of k cells are made once, as a template over the line's positions
    and its own helpers (:func:`~nqueens_kit.methods.sat.encodings.line_template`); every line of that
    length gets the template with its cells put in and its helpers moved past the lines before it.  No size
    guard runs here: :func:`build_cnf` runs it.

    >>> build_packed(Problem(8), "commander").clauses == build_cnf(8, "commander").clauses
    True
    """
    import numpy as np

    if not isinstance(problem, Problem):
        problem = Problem(problem)
    enc = get_encoding(encoding)
    _check_flag(define, "define")
    n = problem.n
    lines = list(_board_line_cells(n))
    made: dict[tuple[int, bool], Any] = {}  # this build's templates, whatever the shared cache lets go
    for _name, exact, cells in lines:
        if (len(cells), exact) not in made:
            made[len(cells), exact] = line_template(enc.name, len(cells), exact, define)
    templates = [made[len(cells), exact] for _name, exact, cells in lines]
    units = [(r - 1) * n + c for r, c in problem.preplaced] + [-((r - 1) * n + c) for r, c in problem.blocked]
    lex = _lex_arrays(n) if problem.break_symmetry else []
    clause_count = sum(t.num_clauses for t in templates) + len(units)
    literal_count = sum(len(t.literals) for t in templates) + len(units)
    for _name, pairs_x, _pairs_y in lex:
        clause_count += 6 * len(pairs_x) - (1 if len(pairs_x) else 0)
        literal_count += 19 * len(pairs_x) - (5 if len(pairs_x) else 0)
    literals = np.empty(literal_count, dtype=np.int32)
    offsets = np.empty(clause_count + 1, dtype=np.int64)
    groups: list[ClauseGroup] = []
    clause = literal = 0
    top = n * n
    for (name, exact, cells), template in zip(lines, templates, strict=True):
        m, t = template.num_clauses, len(template.literals)
        offsets[clause:clause + m] = template.offsets[:-1] + literal
        literals[literal:literal + t] = _stamp(template, cells, top)
        if exact:
            groups.append(ClauseGroup(name, "alo", clause, clause + 1))
            groups.append(ClauseGroup(name, "amo", clause + 1, clause + m))
        else:
            groups.append(ClauseGroup(name, "amo", clause, clause + m))
        clause, literal, top = clause + m, literal + t, top + template.helpers
    for lit in units:
        r, c = divmod(abs(lit) - 1, n)
        name, part = (f"placed_{r + 1}_{c + 1}", "placed") if lit > 0 else (f"blocked_{r + 1}_{c + 1}", "blocked")
        groups.append(ClauseGroup(name, part, clause, clause + 1))
        offsets[clause] = literal
        literals[literal] = lit
        clause, literal = clause + 1, literal + 1
    for name, xs, ys in lex:
        lits, widths, top = _lex_chain(xs, ys, top)
        m = len(widths)
        groups.append(ClauseGroup(f"lex_{name.replace(' ', '_')}", "lex", clause, clause + m))
        offsets[clause:clause + m] = literal + np.cumsum(widths) - widths
        literals[literal:literal + len(lits)] = lits
        clause, literal = clause + m, literal + len(lits)
    offsets[clause] = literal
    return CNF(problem, enc.name, None, top, groups, define, packed=PackedClauses(literals, offsets))


def _stamp(template: Any, cells: np.ndarray, top: int) -> np.ndarray:
    """The template's clauses for one line: code ±i becomes ±(the line's i-th cell), code ±(k + j)
    becomes ±(top + j)."""
    import numpy as np

    codes = template.literals
    k = template.k
    magnitude = np.abs(codes)
    on_cell = magnitude <= k
    values = np.where(on_cell, cells[np.minimum(magnitude, k) - 1] if k else 0, magnitude + (top - k))
    return np.where(codes > 0, values, -values).astype(np.int32, copy=False)


def _lex_arrays(n: int) -> list[tuple[str, np.ndarray, np.ndarray]]:
    """:func:`~nqueens_kit.problem.board.lex_pairs` as arrays: per symmetry (the identity left out), the board
    variables x and y of every compared pair of cells, in row-major order of x."""
    import numpy as np

    from ...problem.board import SYMMETRIES

    rows, cols = np.divmod(np.arange(n * n, dtype=np.int64), n)
    found = []
    for name, f in SYMMETRIES[1:]:
        on_arrays: Any = f  # the symmetries are arithmetic: they map whole arrays of rows and columns too
        image_r, image_c = on_arrays(n, rows + 1, cols + 1)
        inverse = np.empty(n * n, dtype=np.int64)
        inverse[(np.asarray(image_r) - 1) * n + np.asarray(image_c) - 1] = np.arange(n * n)
        moved = np.flatnonzero(inverse != np.arange(n * n))
        found.append((name, (moved + 1).astype(np.int32), (inverse[moved] + 1).astype(np.int32)))
    return found


def _lex_chain(xs: np.ndarray, ys: np.ndarray, top: int) -> tuple[np.ndarray, np.ndarray, int]:
    """The clauses :func:`lex_leader_clauses` makes for one symmetry's pairs, as flat literals and widths,
    with the helpers e_i = top + i; and the new top."""
    import numpy as np

    count = len(xs)
    if not count:
        return np.zeros(0, dtype=np.int32), np.zeros(0, dtype=np.int64), top
    e = np.arange(top + 1, top + count + 1, dtype=np.int32)
    x, y = xs[0], ys[0]
    first = np.array([x, -y, x, y, e[0], -x, -y, e[0], -e[0], -x, y, -e[0], x, -y], dtype=np.int32)
    parts, widths = [first], [np.array([2, 3, 3, 3, 3], dtype=np.int64)]
    if count > 1:
        x, y, now, g = xs[1:], ys[1:], e[1:], -e[:-1]
        block = np.stack([g, x, -y, g, x, y, now, g, -x, -y, now, -now, -x, y, -now, x, -y, -now, -g], axis=1)
        parts.append(block.ravel())
        widths.append(np.tile(np.array([3, 4, 4, 3, 3, 2], dtype=np.int64), count - 1))
    return np.concatenate(parts), np.concatenate(widths), top + count
