"""At-most-one and exactly-one constraints in CNF: one module per encoding, registered here one line each.

Inside:

- :mod:`.core`: :class:`VarPool` hands out helper variables after the board variables (PySAT's ``top_id`` idea),
  so an encoding never collides with a queen variable; :class:`Encoding`, the record of an encoding; the
  registry and :func:`register`; :func:`exactly_one`, the at-least-one clause plus the chosen at-most-one;
  :func:`counts_between`, an encoding's size summed over a range of line lengths in closed form (what the size
  guard adds up over the diagonals of a board without visiting each length).
- ``pairwise``, ``sequential``, ``commander``, ``product``, ``binary``: at-most-one encodings, a module each, each
  ``f(lits, pool) -> list of clauses`` (a clause is a plain list of non-zero ints, DIMACS literals) with its
  closed-form counts ``counts(k) -> (helper variables, clauses)``, its colour and its array twin.
- :mod:`.native`: the ``native`` variant, cardinality constraints rather than clauses, for the solvers that
  take them (built and solved by :mod:`nqueens_kit.methods.sat.native`).
- :mod:`.templates`: :func:`line_template`, the clauses of one line of ``k`` cells once, over local positions,
  as arrays (what the fast builder of :mod:`nqueens_kit.methods.sat.cnf` stamps onto every line of that length).

A new encoding is a module of its own (its function, its counts, an :class:`Encoding` with its colour) and one
line below; every listing of encodings, the ``--encoding`` option and the solver entries that take its kind
(:attr:`Encoding.kind`: plain clauses, or cardinality constraints) then have it.

Every public function checks what it is given (the literals non-zero ints, each already a variable of the
pool, so that helpers cannot collide with them; the pool a :class:`VarPool`; ``define`` True or False;
a formula that fits in memory) and refuses anything else with one :class:`InputError` line.

>>> pool = VarPool(3)
>>> pairwise([1, 2, 3], pool)
[[-1, -2], [-1, -3], [-2, -3]]
>>> sequential([1, 2, 3], pool), pool.top
([[-1, 4], [-2, 5], [-4, 5], [-2, -4], [-3, -5]], 5)
>>> ENCODINGS["sequential"].counts(3)
(2, 5)

Helper variables in ``sequential``, ``commander``, ``product`` and ``binary`` are only *implied* by the
board variables, not defined by them: one board can have several satisfying assignments of the helpers.
Enumerating solutions must therefore block on the board variables only (see :mod:`nqueens_kit.methods.sat.solve`), or
use ``define=True``: every encoding then adds exactly one clause per helper, ``h → (the literals h stands
for)``, which makes each helper the OR of those literals, so every board has exactly one model.
"""

from __future__ import annotations

from .binary import BINARY, binary
from .commander import COMMANDER, GROUP, _commander_counts, commander
from .core import (
    BYTES_PER_ID,
    CARDINALITY,
    CHECK_SIZE_ABOVE,
    CLAUSES,
    DEFAULT_ENCODING,
    ENCODINGS,
    KINDS,
    MAX_VAR,
    SMALL,
    VARIANTS,
    Clause,
    Colours,
    Encoding,
    Pieces,
    SatVariant,
    VarPool,
    ceil_sqrt,
    checked,
    counts_between,
    exactly_one,
    get_encoding,
    register,
    unregister,
)
from .native import NATIVE, NATIVE_VARIANT, NativeVariant
from .pairwise import PAIRWISE, _pairwise, pairwise
from .product import PRODUCT, _product_counts, product
from .sequential import SEQUENTIAL, sequential
from .templates import TEMPLATE_LITERALS, Template, line_template

__all__ = [
    "BYTES_PER_ID", "CARDINALITY", "CHECK_SIZE_ABOVE", "CLAUSES", "DEFAULT_ENCODING", "ENCODINGS", "GROUP", "KINDS",
    "MAX_VAR", "NATIVE", "NATIVE_VARIANT", "SMALL", "TEMPLATE_LITERALS", "VARIANTS", "Clause", "Colours",
    "Encoding", "NativeVariant", "Pieces", "SatVariant", "Template", "VarPool", "_commander_counts", "_pairwise",
    "_product_counts", "binary", "ceil_sqrt", "checked", "commander", "counts_between", "exactly_one",
    "get_encoding", "line_template", "pairwise", "product", "register", "sequential", "unregister",
]

# The registry: one line per encoding, in teaching order (the first is the default).
register(PAIRWISE)
register(SEQUENTIAL)
register(COMMANDER)
register(PRODUCT)
register(BINARY)
register(NATIVE_VARIANT)
