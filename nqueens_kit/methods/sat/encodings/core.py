"""What every encoding shares: the helper-variable pool, the checks of what an encoding is given, the
:class:`Encoding` record and the registry it goes into (:func:`register`), and the pieces the array twins write.

The registry is filled by the package's ``__init__``, one line per encoding; everything here reads it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from math import isqrt
from typing import TYPE_CHECKING, Protocol

from ....errors import InputError
from ....problem.board import shown, whole_number
from ....runtime.limits import SAT_BYTES_PER_CLAUSE, SAT_BYTES_PER_VARIABLE, Size, builder_budget, check_size

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

Clause = list[int]

#: The largest variable id: DIMACS solvers (pycosat, PySAT, the binaries) read variables as 32-bit ints.
MAX_VAR = 2**31 - 1
#: Bytes of one id in a Python list (the pointer and the int), for the memory check of :meth:`VarPool.take`.
BYTES_PER_ID = 36
#: Below this many clauses an encoding is built without asking how much memory it needs.
CHECK_SIZE_ABOVE = 1_000_000
#: Commander and product encodings fall back to pairwise at or below this many literals.
SMALL = 4

#: The kinds of formula an encoding makes, which the SAT solver entries declare as the variants they take:
#: plain clauses (any DIMACS solver), or at-most-k constraints as they are (solvers with cardinality constraints).
CLAUSES = "clauses"
CARDINALITY = "cardinality"
KINDS = {CLAUSES: "clauses", CARDINALITY: "cardinality constraints"}


def _variable_count(value: object, what: str) -> int:
    """A whole number of variables from 0 to :data:`MAX_VAR` (not a bool, a float or a string)."""
    number = None if isinstance(value, str) else whole_number(value)
    if number is None or not 0 <= number <= MAX_VAR:
        raise InputError(f"{what} must be a whole number from 0 to {MAX_VAR:,}, not {shown(value)}")
    return number


class VarPool:
    """Fresh variable ids above ``top`` (the highest id in use).

    >>> pool = VarPool(64)
    >>> pool.new(), pool.new(), pool.top
    (65, 66, 66)
    """

    def __init__(self, top: int = 0) -> None:
        self.top = _variable_count(top, "VarPool(top): the highest variable in use")

    def __repr__(self) -> str:
        return f"VarPool({self.top})"

    def new(self) -> int:
        if self.top >= MAX_VAR:
            raise InputError(f"no variable is left above {MAX_VAR:,}: DIMACS solvers read 32-bit variables")
        self.top += 1
        return self.top

    def take(self, count: int) -> list[int]:
        """``count`` fresh ids in increasing order."""
        count = _variable_count(count, "VarPool.take(count)")
        if self.top + count > MAX_VAR:
            raise InputError(f"taking {count:,} variables above {self.top:,} passes {MAX_VAR:,}, the largest "
                             "variable DIMACS solvers read")
        if count > CHECK_SIZE_ABOVE and count * BYTES_PER_ID > builder_budget():
            raise InputError(f"a list of {count:,} variables needs more memory than this machine allows")
        first = self.top + 1
        self.top += count
        return list(range(first, self.top + 1))


def checked(lits: object, pool: object, define: object, name: str) -> list[int]:
    """The literals as a list, checked, for the registered encoding ``name``; and the formula's size checked too:
    what every encoding's public function calls first.

    A literal above ``pool.top`` would be handed out again as a helper, so the formula would say something
    else; the pool must be made above every variable in use (``VarPool(n * n)`` for a board).
    """
    if not isinstance(pool, VarPool):
        raise InputError(f"pool must be a VarPool (helper variables come from it), not {shown(pool)}")
    if not isinstance(define, bool):
        raise InputError(f"define is True or False, not {shown(define)}")
    if isinstance(lits, (str, bytes, bytearray, Mapping)) or not isinstance(lits, Iterable):
        raise InputError(f"literals are a list of non-zero ints (DIMACS literals), not {shown(lits)}")
    items = list(lits)
    if items and set(map(type, items)) != {int}:
        numbers = [None if isinstance(x, (str, bool)) else whole_number(x) for x in items]
        if None in numbers:
            wrong = items[numbers.index(None)]
            raise InputError(f"literals are non-zero ints (DIMACS literals), not {shown(wrong)}")
        items = [x for x in numbers if x is not None]
    if items:
        if 0 in items:
            raise InputError("0 is not a literal: literals are non-zero ints, -v for the negation of variable v")
        highest = max(max(items), -min(items))
        if highest > pool.top:
            raise InputError(f"literal {highest} is not a variable of the pool (its top is {pool.top}); make the "
                             "pool with VarPool(top) at or above every variable in use, so helpers cannot "
                             "collide with the literals")
    helpers, clauses = get_encoding(name).counts(len(items))
    if clauses > CHECK_SIZE_ABOVE:
        size = Size(helpers, clauses=clauses,
                    memory=SAT_BYTES_PER_CLAUSE * clauses + SAT_BYTES_PER_VARIABLE * helpers)
        check_size(size, f"the {name} at-most-one over {len(items):,} literals",
                   "use a helper-variable encoding (sequential) or fewer literals", builder_budget())
    return items


def ceil_sqrt(k: int) -> int:
    """⌈√k⌉ for k >= 0, exactly."""
    if type(k) is not int:
        number = None if isinstance(k, str) else whole_number(k)
        if number is None:
            raise InputError(f"ceil_sqrt takes a whole number from 0, not {shown(k)}")
        k = number
    if k < 0:
        raise InputError(f"ceil_sqrt takes a whole number from 0, not {k}")
    r = isqrt(k)
    return r if r * r == k else r + 1


def sum_range(low: int, high: int) -> int:
    """low + (low + 1) + ... + high (0 for an empty range)."""
    return (low + high) * (high - low + 1) // 2 if high >= low else 0


class Pieces:
    """Clauses gathered as pieces of (flat literals, clause widths), and the highest variable in use: what
    the array twins of the encodings write into, in the readable functions' clause order."""

    def __init__(self, top: int) -> None:
        self.top = top
        self.lits: list[np.ndarray] = []
        self.widths: list[np.ndarray] = []

    def add(self, lits: npt.ArrayLike, widths: npt.ArrayLike) -> None:
        import numpy as np

        self.lits.append(np.asarray(lits, dtype=np.int32).ravel())
        self.widths.append(np.asarray(widths, dtype=np.int64).ravel())

    def take(self, count: int) -> np.ndarray:
        import numpy as np

        first = self.top + 1
        self.top += count
        return np.arange(first, self.top + 1, dtype=np.int32)

    def joined(self) -> tuple[np.ndarray, np.ndarray]:
        import numpy as np

        if not self.lits:
            return np.zeros(0, dtype=np.int32), np.zeros(0, dtype=np.int64)
        return np.concatenate(self.lits), np.concatenate(self.widths)


#: An array twin: the clauses of the readable function in the same order, written into :class:`Pieces` with
#: whole-array operations (``tests/test_fast_build.py`` holds each to its readable function).
Twin = Callable[["np.ndarray", Pieces, bool], None]


@dataclass(frozen=True)
class Encoding:
    """A named at-most-one encoding in clauses: its function ``at_most_one(lits, pool, define=False)``, its
    closed-form size ``counts(k) -> (helpers, clauses)``, what listings say of it (``summary``, ``formula``: the
    clause count over k literals), the ``colour`` its plots draw it in, and optionally its size summed over a range
    of lengths (``between(low, high)``; :func:`counts_between` adds ``counts`` up one length at a time without) and
    its array ``twin`` (without one, :func:`~.templates.line_template` runs the readable function)."""

    name: str
    at_most_one: Callable[..., list[Clause]]  # f(lits, pool, define=False)
    counts: Callable[[int], tuple[int, int]]
    summary: str
    formula: str
    colour: str
    between: Callable[[int, int], tuple[int, int]] | None = None
    twin: Twin | None = None
    #: What a solver entry must take to solve it: :data:`CLAUSES` (plain CNF).
    kind: str = CLAUSES


class SatVariant(Protocol):
    """What the SAT method's variants (the clause encodings and ``native``) say of themselves."""

    @property
    def name(self) -> str: ...

    @property
    def summary(self) -> str: ...

    @property
    def formula(self) -> str: ...

    @property
    def colour(self) -> str: ...

    @property
    def kind(self) -> str: ...


#: Name -> every variant of the SAT method, in the order registered (teaching order; the first is the default).
VARIANTS: dict[str, SatVariant] = {}
#: Name -> the clause encodings among them: what a CNF is built in.
ENCODINGS: dict[str, Encoding] = {}
#: The encoding a CNF is built in when none is named (registered first).
DEFAULT_ENCODING = "pairwise"

_NAME = re.compile(r"[a-z][a-z0-9-]{0,39}")
_COLOUR = re.compile(r"#[0-9A-Fa-f]{6}")


def register(variant: SatVariant) -> SatVariant:
    """Add an encoding (an :class:`Encoding`, or a variant of another kind such as ``native``) to the registry,
    after the ones there; it is then a variant of the SAT method (``--encoding NAME``), listed wherever encodings
    are.  A name taken or not a lower-case word, a colour that is not ``#RRGGBB`` or is another variant's, or a
    kind that is not :data:`KINDS` is a one-line error."""
    name = getattr(variant, "name", None)
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise InputError(f"an encoding's name is a lower-case word (letters, digits, '-'), not {shown(name)}")
    if name in VARIANTS:
        raise InputError(f"the encoding {name!r} is registered already")
    colour = getattr(variant, "colour", None)
    if not isinstance(colour, str) or not _COLOUR.fullmatch(colour):
        raise InputError(f"the encoding {name!r} needs a colour of its own for its plots (#RRGGBB), not "
                         f"{shown(colour)}")
    owner = next((v.name for v in VARIANTS.values() if v.colour.upper() == colour.upper()), None)
    if owner is not None:
        raise InputError(f"the encoding {name!r} needs a colour of its own: {colour} is {owner}'s")
    kind = getattr(variant, "kind", None)
    if kind not in KINDS:
        raise InputError(f"the encoding {name!r} makes {' or '.join(KINDS)}, not {shown(kind)}")
    if kind == CLAUSES and not isinstance(variant, Encoding):
        raise InputError(f"the encoding {name!r} makes clauses, so it is an Encoding, not {shown(variant)}")
    VARIANTS[name] = variant
    if isinstance(variant, Encoding):
        ENCODINGS[name] = variant
    return variant


def unregister(name: str) -> None:
    """Take the encoding ``name`` out of the registry again (one a notebook or a test registered)."""
    if name not in VARIANTS:
        raise InputError(f"no encoding {str(name)[:40]!r} is registered; registered: {', '.join(VARIANTS)}")
    del VARIANTS[name]
    ENCODINGS.pop(name, None)


class Colours(Mapping[str | None, str]):
    """Variant name -> its colour, read from the registry when asked (so an encoding registered later has its
    colour too); a name that is no variant is a KeyError, which :meth:`~nqueens_kit.methods.base.Method.colour`
    turns into a one-line error."""

    def __getitem__(self, name: str | None) -> str:
        if name is None or name not in VARIANTS:
            raise KeyError(name)
        return VARIANTS[name].colour

    def __iter__(self) -> Iterator[str | None]:
        return iter(VARIANTS)

    def __len__(self) -> int:
        return len(VARIANTS)


def get_encoding(name: str) -> Encoding:
    """Look a clause encoding up by name, with a one-line error listing the valid names."""
    try:
        return ENCODINGS[name]
    except (KeyError, TypeError):
        other = VARIANTS.get(name) if isinstance(name, str) else None
        if other is not None:
            from ....solvers import SAT_SOLVERS  # a solver's entry says which kinds it takes

            able = [entry for entry, solver in SAT_SOLVERS.items() if other.kind in solver.variants]
            raise InputError(f"the {name} encoding is {KINDS[other.kind]}, not clauses: no CNF (DIMACS) is made of "
                             f"it; solve it with --solver {' or '.join(able) or 'one that takes them'}") from None
        raise InputError(f"unknown encoding {str(name)[:40]!r}; valid: {', '.join(ENCODINGS)}") from None


def counts_between(name: str, low: int, high: int) -> tuple[int, int]:
    """``(helpers, clauses)`` of the encoding's at-most-one summed over every length from ``low`` to ``high``
    (0 for an empty range), from its closed forms: O(1) for pairwise and sequential, O(log high) for binary
    and commander, O(√high) for product; an encoding without a summed form adds ``counts`` one length at a time.

    >>> counts_between("sequential", 2, 4), [ENCODINGS["sequential"].counts(k) for k in (2, 3, 4)]
    ((6, 15), [(1, 2), (2, 5), (3, 8)])
    """
    encoding = get_encoding(name)
    if encoding.between is not None:
        return encoding.between(low, high)
    helpers = clauses = 0
    for k in range(max(low, 0), high + 1):
        aux, count = encoding.counts(k)
        helpers, clauses = helpers + aux, clauses + count
    return helpers, clauses


def exactly_one(lits: Sequence[int], pool: VarPool, encoding: str = DEFAULT_ENCODING,
                define: bool = False) -> list[Clause]:
    """At least one (one clause over all the literals) plus at most one in the named encoding."""
    chosen = get_encoding(encoding)
    items = checked(lits, pool, define, chosen.name)
    return [list(items)] + chosen.at_most_one(items, pool, define)
