"""N-queens as CNF: clauses that remember where they came from, closed-form sizes, DIMACS in and out.

Inside:

- :func:`build_cnf`: the formula for a :class:`~nqueens_kit.problem.board.Problem` in a named encoding.  Board
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

import io
import os
import re
from bisect import bisect_right
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...errors import ConflictError, InputError
from ...formats.dimacs import Dimacs, write_dimacs_clauses
from ...problem.board import Board, Cell, Line, Problem, board_cells, first_conflict, lex_pairs, parse_n
from ...runtime.files import written_whole
from ...runtime.limits import SAT_BYTES_PER_CLAUSE, SAT_BYTES_PER_VARIABLE, Size, check_size
from .encodings import DEFAULT_ENCODING, Clause, VarPool, builder_budget, get_encoding

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


@dataclass
class CNF:
    """A CNF for one N-queens problem.

    Vocabulary used across the kit: a *formula* (this object) is what the encoder writes; a *model* is a
    SAT solver's satisfying assignment (a list of signed ints); a *board* is the queens a model decodes to.
    """

    problem: Problem
    encoding: str
    clauses: list[Clause]
    num_vars: int
    groups: list[ClauseGroup] = field(default_factory=list)
    defined: bool = False  # helpers made functions of the board (one extra clause per helper)

    @property
    def n(self) -> int:
        return self.problem.n

    @property
    def num_clauses(self) -> int:
        return len(self.clauses)

    @property
    def board_vars(self) -> int:
        """Variables 1 .. n² are the board; anything above is a helper."""
        return self.problem.n ** 2

    def origin(self, index: int) -> ClauseGroup:
        """The group of clause ``index`` (0-based)."""
        if not 0 <= index < len(self.clauses):
            raise IndexError(f"clause {index} out of range 0..{len(self.clauses) - 1}")
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
            row = table.setdefault(kind, {"lines": set(), "alo": 0, "amo": 0, "placed": 0, "helpers": set()})
            row["lines"].add(group.name)
            row[group.part] += len(group)
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
        var = abs(lit)
        if var <= self.board_vars:
            r, c = self.problem.cell(var)
            name = f"P[{r},{c}]"
        else:
            name = f"h{var - self.board_vars}"
        return name if lit > 0 else "¬" + name

    def clause_text(self, index: int) -> str:
        """A clause in the lectures' notation, e.g. ``¬P[1,1] ∨ ¬P[1,2]``."""
        return " ∨ ".join(self.literal_name(lit) for lit in self.clauses[index])

    def to_dimacs(self, comments: bool = True) -> str:
        return dimacs_text(self, comments=comments)


def decode_model(model: Iterable[int], n: int) -> Board:
    """Queens of the positive board literals (1 .. n²) in a model, sorted by row."""
    top = n * n
    return tuple(sorted(((lit - 1) // n + 1, (lit - 1) % n + 1) for lit in model if 0 < lit <= top))


def build_cnf(problem: Problem | int, encoding: str = DEFAULT_ENCODING, define: bool = False,
              max_memory: Any = None) -> CNF:
    """The CNF of an N-queens problem: for each line, at least one (rows and columns) and at most one in
    the chosen encoding; a unit clause per pre-placed queen (``P[r,c]``) and per blocked cell (``¬P[r,c]``);
    with the problem's symmetry broken, the lex-leader clauses (:func:`lex_leader_clauses`).

    ``define`` adds one clause per helper variable making it a function of the board (see
    :mod:`nqueens_kit.methods.sat.encodings`); the boards are the same, but each board then has exactly one
    model.

    The size guard of the command line runs first: a formula whose predicted memory is above ``max_memory``
    (bytes or a size such as ``"8G"``; default: :func:`~nqueens_kit.methods.sat.encodings.builder_budget`)
    is refused with one line rather than built until the machine runs out of memory.
    """
    if not isinstance(problem, Problem):
        problem = Problem(problem)
    enc = get_encoding(encoding)
    _check_flag(define, "define")
    better = 'a helper-variable encoding (encoding="sequential"), ' if enc.name == "pairwise" else ""
    check_size(cnf_size(problem, enc.name, define), f"the {enc.name} CNF of {problem.n}-queens",
               f"use {better}a smaller n, or construct(n) for one board of any size", builder_budget(max_memory))
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


def lex_leader_size(n: int) -> tuple[int, int]:
    """``(helpers, clauses)`` of :func:`lex_leader_clauses`: per compared pair one helper and five clauses,
    plus one for every pair after the first of its symmetry."""
    helpers = clauses = 0
    for _name, pairs in lex_pairs(n):
        helpers += len(pairs)
        clauses += 6 * len(pairs) - (1 if pairs else 0)
    return helpers, clauses


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
    result = [(n, 2 * n, True)]
    if n >= 2:
        result.append((n, 2, False))
        result += [(k, 4, False) for k in range(2, n)]
    return result


def predicted_size(n: int, encoding: str = DEFAULT_ENCODING, preplaced: int = 0,
                   define: bool = False, blocked: int = 0, break_symmetry: bool = False) -> tuple[int, int]:
    """``(variables, clauses)`` of :func:`build_cnf` from the encoding's closed-form counts alone (the
    lex-leader part, with ``break_symmetry``, from :func:`lex_leader_size`)."""
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
    for length, how_many, exact in line_lengths(n):
        aux, cl = counts(length)
        variables += how_many * aux
        clauses += how_many * (cl + (1 if exact else 0) + (aux if define else 0))
    return variables, clauses


def cnf_size(problem: Problem, encoding: str = DEFAULT_ENCODING, define: bool = False) -> Size:
    """The size of :func:`build_cnf` for ``problem`` and the memory building and solving it needs."""
    variables, clauses = predicted_size(problem.n, encoding, len(problem.preplaced), define, len(problem.blocked),
                                        problem.break_symmetry)
    n = problem.n
    literals = 2 * clauses + 2 * n * n  # binary at-most-one clauses plus the row and column clauses
    return Size(variables, clauses=clauses, literals=literals,
                memory=SAT_BYTES_PER_CLAUSE * clauses + SAT_BYTES_PER_VARIABLE * variables)


def _check_flag(value: Any, what: str) -> None:
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
    buffer = io.StringIO()
    write_dimacs_clauses(
        buffer, cnf.num_vars, cnf.clauses,
        _dimacs_header_comments(cnf) if comments else (),
        cnf.groups if comments else (),
    )
    return buffer.getvalue()


def write_dimacs(cnf: CNF, path: str | os.PathLike[str], comments: bool = True) -> Path:
    """Write the CNF to ``path``, whole or not at all (one-line error if the path cannot be written)."""
    with written_whole(path, encoding="ascii") as out:
        write_dimacs_clauses(
            out, cnf.num_vars, cnf.clauses,
            _dimacs_header_comments(cnf) if comments else (),
            cnf.groups if comments else (),
        )
    return Path(path)
