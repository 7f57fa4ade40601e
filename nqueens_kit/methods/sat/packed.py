"""The fast build of a large board's formula (:func:`build_packed`, what :func:`~.cnf.build_cnf` takes above
:data:`~.clauses.FAST_ABOVE` queens): the same clauses in the same order as the readable build, made with
numpy a line template at a time and held as :class:`~.clauses.PackedClauses` (``cnf.clauses`` is made from them
only when asked).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from ...problem.board import (
    Problem,
)
from .clauses import CNF, ClauseGroup, PackedClauses, _check_flag
from .encodings import DEFAULT_ENCODING, get_encoding, line_template

if TYPE_CHECKING:
    import numpy as np



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

    >>> from nqueens_kit.methods.sat.cnf import build_cnf
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
