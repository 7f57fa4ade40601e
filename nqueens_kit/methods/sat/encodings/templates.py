"""The clauses of one line of ``k`` cells, once, over local positions, as arrays: what the fast builder of
:mod:`nqueens_kit.methods.sat.cnf` stamps onto every line of that length."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ....errors import InputError
from ....problem.board import shown
from .core import Encoding, Pieces, VarPool, _variable_count, get_encoding

if TYPE_CHECKING:
    import numpy as np


@dataclass(frozen=True)
class Template:
    """The clauses the readable encoding makes for one line of ``k`` cells, over local codes: ``±i`` for
    the line's i-th cell (1 .. k), ``±(k + j)`` for its j-th helper (1 .. ``helpers``), in the encoding's own
    clause order (the at-least-one clause first for an exact line).  ``literals`` is the flat int32 array of
    codes, ``offsets`` (int64, one more than the clauses) where each clause starts in it."""

    k: int
    helpers: int
    literals: np.ndarray
    offsets: np.ndarray

    @property
    def num_clauses(self) -> int:
        return len(self.offsets) - 1


def line_template(name: str, k: int, exact: bool, define: bool = False) -> Template:
    """The :class:`Template` of the encoding ``name`` for a line of ``k`` cells (with the at-least-one clause
    when ``exact``), derived once from the readable encoding itself and cached.

    >>> t = line_template("sequential", 3, exact=True)
    >>> t.helpers, t.literals.tolist(), t.offsets.tolist()
    (2, [1, 2, 3, -1, 4, -2, 5, -4, 5, -2, -4, -3, -5], [0, 3, 5, 7, 9, 11, 13])
    """
    encoding = get_encoding(name)
    k = _variable_count(k, "line_template(k): the cells of a line")
    if not isinstance(exact, bool):
        raise InputError(f"exact is True or False, not {shown(exact)}")
    if not isinstance(define, bool):
        raise InputError(f"define is True or False, not {shown(define)}")
    key = (encoding, k, exact, define)  # the encoding itself: one registered again under its name is made afresh
    global _template_literals
    template = _TEMPLATES.pop(key, None)  # taken out and put back: the most recently used come last
    if template is None:
        template = _line_template(encoding, k, exact, define)
        _template_literals += len(template.literals)
    _TEMPLATES[key] = template
    while _template_literals > TEMPLATE_LITERALS and len(_TEMPLATES) > 1:
        oldest = next(iter(_TEMPLATES))
        _template_literals -= len(_TEMPLATES.pop(oldest).literals)
    return template


#: How many literals the kept templates may hold together (the least recently used go first).
TEMPLATE_LITERALS = 1 << 24
_TEMPLATES: dict[tuple[Encoding, int, bool, bool], Template] = {}
_template_literals = 0


def _line_template(encoding: Encoding, k: int, exact: bool, define: bool) -> Template:
    import numpy as np

    if encoding.twin is None:  # an encoding without an array twin: its readable function, line by line
        pool = VarPool(k)
        lits = list(range(1, k + 1))
        clauses = ([lits] if exact else []) + encoding.at_most_one(lits, pool, define)
        widths = np.fromiter((len(c) for c in clauses), dtype=np.int64, count=len(clauses))
        literals = np.fromiter((lit for c in clauses for lit in c), dtype=np.int32, count=int(widths.sum()))
        helpers = pool.top - k
    else:
        cells = np.arange(1, k + 1, dtype=np.int32)
        out = Pieces(k)
        if exact:
            out.add(cells, [k])
        encoding.twin(cells, out, define)
        literals, widths = out.joined()
        helpers = out.top - k
    offsets = np.zeros(len(widths) + 1, dtype=np.int64)
    np.cumsum(widths, out=offsets[1:])
    literals.flags.writeable = False
    offsets.flags.writeable = False
    return Template(k, helpers, literals, offsets)
