"""At-most-one and exactly-one constraints in CNF, one plain function per encoding.

Inside:

- :class:`VarPool`: hands out helper variables after the board variables (PySAT's ``top_id`` idea), so
  an encoding never collides with a queen variable.
- ``pairwise``, ``sequential``, ``commander``, ``product``, ``binary``: at-most-one encodings, each
  ``f(lits, pool) -> list of clauses``.  A clause is a plain list of non-zero ints (DIMACS literals).
- :data:`ENCODINGS`: the name -> :class:`Encoding` registry, each with its closed-form counts
  ``counts(k) -> (helper variables, clauses)`` for an at-most-one over ``k`` literals, and
  :func:`counts_between`, their sum over a range of ``k`` in closed form (what the size guard adds up over
  the diagonals of a board without visiting each length).
- :func:`exactly_one`: the at-least-one clause plus the chosen at-most-one.
- :func:`line_template`: the clauses of one line of ``k`` cells once, over local positions, as arrays (what
  the fast builder of :mod:`nqueens_kit.methods.sat.cnf` stamps onto every line of that length).

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

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations
from math import comb, isqrt
from typing import TYPE_CHECKING

from ...errors import InputError
from ...problem.board import shown, whole_number
from ...runtime.limits import SAT_BYTES_PER_CLAUSE, SAT_BYTES_PER_VARIABLE, Size, builder_budget, check_size

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


def _literals(lits: object, pool: object, define: object, name: str) -> list[int]:
    """The literals as a list, checked, for the encoding ``name``; and the formula's size checked too.

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
    helpers, clauses = ENCODINGS[name].counts(len(items))
    if clauses > CHECK_SIZE_ABOVE:
        size = Size(helpers, clauses=clauses,
                    memory=SAT_BYTES_PER_CLAUSE * clauses + SAT_BYTES_PER_VARIABLE * helpers)
        check_size(size, f"the {name} at-most-one over {len(items):,} literals",
                   "use a helper-variable encoding (sequential) or fewer literals", builder_budget())
    return items


def pairwise(lits: Sequence[int], pool: VarPool, define: bool = False) -> list[Clause]:
    """At most one: ``¬a ∨ ¬b`` for every pair; k(k-1)/2 clauses, no helpers (the lectures' encoding)."""
    return _pairwise(_literals(lits, pool, define, "pairwise"))


def _pairwise(lits: Sequence[int]) -> list[Clause]:
    return list(map(list, combinations([-x for x in lits], 2)))


def _pairwise_counts(k: int) -> tuple[int, int]:
    return 0, k * (k - 1) // 2


def sequential(lits: Sequence[int], pool: VarPool, define: bool = False) -> list[Clause]:
    """Sinz's sequential counter: helper s_i means "a queen among the first i literals".

    ``x_1 → s_1``; for 1 < i < k: ``x_i → s_i``, ``s_{i-1} → s_i``, ``¬(x_i ∧ s_{i-1})``;
    ``¬(x_k ∧ s_{k-1})``.  3k - 4 clauses and k - 1 helpers for k >= 2.  With ``define`` also
    ``s_1 → x_1`` and ``s_i → s_{i-1} ∨ x_i``, so s_i is exactly "a queen among the first i".
    """
    lits = _literals(lits, pool, define, "sequential")
    k = len(lits)
    if k <= 1:
        return []
    s = pool.take(k - 1)
    clauses = [[-lits[0], s[0]]]
    for i in range(1, k - 1):
        x = lits[i]
        clauses += ([-x, s[i]], [-s[i - 1], s[i]], [-x, -s[i - 1]])
    clauses.append([-lits[-1], -s[-1]])
    if define:
        clauses.append([-s[0], lits[0]])
        clauses += [[-s[i], s[i - 1], lits[i]] for i in range(1, k - 1)]
    return clauses


def _sequential_counts(k: int) -> tuple[int, int]:
    return (k - 1, 3 * k - 4) if k >= 2 else (0, 0)


#: Commander and product encodings fall back to pairwise at or below this many literals.
SMALL = 4
#: Group size of the commander encoding (Klieber and Kwon use 3).
GROUP = 3


def commander(lits: Sequence[int], pool: VarPool, define: bool = False) -> list[Clause]:
    """Klieber and Kwon's commander encoding, applied recursively.

    Split the literals into groups of 3; each group gets a commander c with pairwise at-most-one inside
    the group and ``x → c`` for its members; then at most one commander, recursively.  A group of one
    literal is its own commander.  At or below 4 literals it is plain pairwise.  With ``define`` also
    ``c → x_1 ∨ x_2 ∨ x_3``, so a commander is exactly "a queen in my group".
    """
    return _commander(_literals(lits, pool, define, "commander"), pool, define)


def _commander(lits: Sequence[int], pool: VarPool, define: bool) -> list[Clause]:
    if len(lits) <= SMALL:
        return _pairwise(lits)
    clauses: list[Clause] = []
    commanders: list[int] = []
    for start in range(0, len(lits), GROUP):
        group = lits[start : start + GROUP]
        if len(group) == 1:
            commanders.append(group[0])
            continue
        c = pool.new()
        clauses += _pairwise(group)
        clauses += [[-x, c] for x in group]
        if define:
            clauses.append([-c, *group])
        commanders.append(c)
    return clauses + _commander(commanders, pool, define)


@cache
def _commander_counts(k: int) -> tuple[int, int]:
    if k <= SMALL:
        return _pairwise_counts(k)
    full, rest = divmod(k, GROUP)
    aux = full + (1 if rest >= 2 else 0)
    clauses = full * (GROUP * (GROUP - 1) // 2 + GROUP) + (rest * (rest - 1) // 2 + rest if rest >= 2 else 0)
    sub_aux, sub_clauses = _commander_counts(full + (1 if rest else 0))
    return aux + sub_aux, clauses + sub_clauses


def product(lits: Sequence[int], pool: VarPool, define: bool = False) -> list[Clause]:
    """Chen's 2-product encoding, applied recursively.

    Lay the k literals out row by row in a grid of q = ⌈√k⌉ columns and p = ⌈k/q⌉ rows, with helper u_i
    per grid row and v_j per grid column; ``x_ij → u_i`` and ``x_ij → v_j``; then at most one u and at most
    one v, recursively.  Two distinct cells differ in a row or a column, so two queens force two u's or
    two v's.  At or below 4 literals it is plain pairwise.  With ``define`` also ``u_i → ∨ (grid row i)``
    and ``v_j → ∨ (grid column j)``.
    """
    return _product(_literals(lits, pool, define, "product"), pool, define)


def _product(lits: Sequence[int], pool: VarPool, define: bool) -> list[Clause]:
    k = len(lits)
    if k <= SMALL:
        return _pairwise(lits)
    q = ceil_sqrt(k)
    p = -(-k // q)
    u = pool.take(p)
    v = pool.take(q)
    clauses: list[Clause] = []
    for i, x in enumerate(lits):
        clauses += ([-x, u[i // q]], [-x, v[i % q]])
    if define:
        clauses += [[-u[i], *lits[i * q : (i + 1) * q]] for i in range(p)]
        clauses += [[-v[j], *lits[j::q]] for j in range(q)]
    return clauses + _product(u, pool, define) + _product(v, pool, define)


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


@cache
def _product_counts(k: int) -> tuple[int, int]:
    if k <= SMALL:
        return _pairwise_counts(k)
    q = ceil_sqrt(k)
    p = -(-k // q)
    pa, pc = _product_counts(p)
    qa, qc = _product_counts(q)
    return p + q + pa + qa, 2 * k + pc + qc


def binary(lits: Sequence[int], pool: VarPool, define: bool = False) -> list[Clause]:
    """Frisch's binary (bitwise) encoding: m = ⌈log2 k⌉ helper bits spell the index of the true literal.

    Literal i forces each bit b_j to bit j of i: ``x_i → b_j`` or ``x_i → ¬b_j``; two true literals would
    force two different codes.  k·m clauses and m helpers.  With ``define`` also ``b_j → ∨ (x_i whose
    index has bit j set)``, so all bits are 0 when no literal is true.
    """
    lits = _literals(lits, pool, define, "binary")
    k = len(lits)
    if k <= 1:
        return []
    m = (k - 1).bit_length()
    bits = pool.take(m)
    clauses = [[-x, bits[j] if (i >> j) & 1 else -bits[j]] for i, x in enumerate(lits) for j in range(m)]
    if define:
        clauses += [[-bits[j], *(x for i, x in enumerate(lits) if (i >> j) & 1)] for j in range(m)]
    return clauses


def _binary_counts(k: int) -> tuple[int, int]:
    m = (k - 1).bit_length() if k >= 2 else 0
    return m, k * m


def _sum_range(low: int, high: int) -> int:
    """low + (low + 1) + ... + high (0 for an empty range)."""
    return (low + high) * (high - low + 1) // 2 if high >= low else 0


def _pairwise_between(low: int, high: int) -> tuple[int, int]:
    """Σ k(k-1)/2 for low <= k <= high: C(high + 1, 3) - C(low, 3) (the hockey-stick identity)."""
    low = max(low, 0)
    return (0, comb(high + 1, 3) - comb(low, 3)) if high >= low else (0, 0)


def _sequential_between(low: int, high: int) -> tuple[int, int]:
    low = max(low, 2)
    count, total = max(0, high - low + 1), _sum_range(low, high)
    return total - count, 3 * total - 4 * count


def _binary_between(low: int, high: int) -> tuple[int, int]:
    """By bit width m: every k in 2^(m-1) + 1 .. 2^m has m helpers and k·m clauses (a step per bit of high)."""
    helpers = clauses = 0
    m = 1
    while (1 << (m - 1)) + 1 <= high:
        start, stop = max(low, (1 << (m - 1)) + 1), min(high, 1 << m)
        if start <= stop:
            helpers += m * (stop - start + 1)
            clauses += m * _sum_range(start, stop)
        m += 1
    return helpers, clauses


def _small_between(low: int, high: int) -> tuple[int, int]:
    """The pairwise counts of the lengths from ``low`` to ``high`` that are at most :data:`SMALL`."""
    return _pairwise_between(max(low, 0), min(high, SMALL))


def _below(m: int, group: int) -> tuple[int, list[int]]:
    """For 0 <= k <= m: Σ ⌊k / group⌋, and how many k leave each remainder (0 for m < 0)."""
    if m < 0:
        return 0, [0] * group
    q, r = divmod(m, group)
    return group * q * (q - 1) // 2 + q * (r + 1), [q + (1 if rest <= r else 0) for rest in range(group)]


def _commander_between(low: int, high: int) -> tuple[int, int]:
    """Σ of :func:`_commander_counts` for low <= k <= high, in O(log high) steps: a length k above
    :data:`SMALL` adds its own groups (⌊k/3⌋ full ones and maybe a last pair) to the counts of ⌈k/3⌉
    commanders, and ⌈k/3⌉ takes each value three times, so the sum over k is three times a sum over a range
    a third as long, less the ends it overshoots."""
    helpers, clauses = _small_between(low, high)
    low = max(low, SMALL + 1)
    if high < low:
        return helpers, clauses
    floors_high, rests_high = _below(high, GROUP)
    floors_low, rests_low = _below(low - 1, GROUP)
    full = floors_high - floors_low  # Σ ⌊k/3⌋: the full groups
    partial_helpers = partial_clauses = 0
    for rest in range(2, GROUP):  # a last group of two or more literals has a commander and its clauses
        count = rests_high[rest] - rests_low[rest]
        partial_helpers += count
        partial_clauses += count * (rest * (rest - 1) // 2 + rest)
    helpers += full + partial_helpers
    clauses += full * (GROUP * (GROUP - 1) // 2 + GROUP) + partial_clauses
    first, last = -(-low // GROUP), -(-high // GROUP)
    sub_helpers, sub_clauses = _commander_between(first, last)
    before, after = low - (GROUP * first - GROUP + 1), GROUP * last - high  # the k outside low .. high
    first_helpers, first_clauses = _commander_counts(first)
    last_helpers, last_clauses = _commander_counts(last)
    helpers += GROUP * sub_helpers - before * first_helpers - after * last_helpers
    clauses += GROUP * sub_clauses - before * first_clauses - after * last_clauses
    return helpers, clauses


def _product_between(low: int, high: int) -> tuple[int, int]:
    """Σ of :func:`_product_counts` for low <= k <= high, a step per value of q = ⌈√k⌉ (at most ⌈√high⌉):
    every k in (q-1)² + 1 .. q² has q grid columns and q - 1 or q grid rows."""
    helpers, clauses = _small_between(low, high)
    low = max(low, SMALL + 1)
    if high < low:
        return helpers, clauses
    clauses += 2 * _sum_range(low, high)
    for q in range(ceil_sqrt(low), ceil_sqrt(high) + 1):
        start, stop = max(low, (q - 1) ** 2 + 1), min(high, q * q)
        shorter = max(0, min(stop, q * (q - 1)) - start + 1)  # p = q - 1 grid rows
        square = stop - start + 1 - shorter  # p = q
        q_helpers, q_clauses = _product_counts(q)
        p_helpers, p_clauses = _product_counts(q - 1)
        helpers += shorter * (2 * q - 1 + p_helpers + q_helpers) + square * (2 * q + 2 * q_helpers)
        clauses += shorter * (p_clauses + q_clauses) + square * 2 * q_clauses
    return helpers, clauses


@dataclass(frozen=True)
class Encoding:
    """A named at-most-one encoding with its closed-form size, and optionally that size summed over a range of
    lengths (``between(low, high)``; :func:`counts_between` adds ``counts`` up one length at a time without)."""

    name: str
    at_most_one: Callable[..., list[Clause]]  # f(lits, pool, define=False)
    counts: Callable[[int], tuple[int, int]]
    summary: str
    formula: str  # the clause count of an at-most-one over k literals, for tables
    between: Callable[[int, int], tuple[int, int]] | None = None


#: Name -> encoding, in teaching order; the first is the default.
ENCODINGS: dict[str, Encoding] = {
    e.name: e
    for e in (
        Encoding("pairwise", pairwise, _pairwise_counts,
                 "one binary clause per pair of cells; no helper variables", "k(k-1)/2", _pairwise_between),
        Encoding("sequential", sequential, _sequential_counts,
                 "Sinz's sequential counter: k-1 helpers, 3k-4 clauses", "3k-4", _sequential_between),
        Encoding("commander", commander, _commander_counts,
                 "Klieber-Kwon commanders over groups of 3, recursively", "≈ 3k (recursive)", _commander_between),
        Encoding("product", product, _product_counts,
                 "Chen's 2-product: a √k x √k grid of row and column helpers, recursively",
                 "2k + 4√k + ... (recursive)", _product_between),
        Encoding("binary", binary, _binary_counts,
                 "Frisch's bitwise encoding: ⌈log2 k⌉ helper bits", "k⌈log2 k⌉", _binary_between),
    )
}
DEFAULT_ENCODING = "pairwise"


def get_encoding(name: str) -> Encoding:
    """Look an encoding up by name, with a one-line error listing the valid names."""
    try:
        return ENCODINGS[name]
    except (KeyError, TypeError):
        if name == NATIVE:
            raise InputError("the native encoding is cardinality constraints, not clauses: no CNF (DIMACS) is made "
                             "of it; solve it with --solver pysat-minicard or pysat-gluecard4 (its CNF+ text: "
                             "nqueens_kit.methods.sat.native.cnfplus_text)") from None
        raise InputError(f"unknown encoding {str(name)[:40]!r}; valid: {', '.join(ENCODINGS)}") from None


#: The SAT method's variant that is no clause encoding (:mod:`nqueens_kit.methods.sat.native`).
NATIVE = "native"


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
    items = _literals(lits, pool, define, chosen.name)
    return [list(items)] + chosen.at_most_one(items, pool, define)


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
    key = (encoding.name, k, exact, define)
    global _template_literals
    template = _TEMPLATES.pop(key, None)  # taken out and put back: the most recently used come last
    if template is None:
        template = _line_template(*key)
        _template_literals += len(template.literals)
    _TEMPLATES[key] = template
    while _template_literals > TEMPLATE_LITERALS and len(_TEMPLATES) > 1:
        oldest = next(iter(_TEMPLATES))
        _template_literals -= len(_TEMPLATES.pop(oldest).literals)
    return template


#: How many literals the kept templates may hold together (the least recently used go first).
TEMPLATE_LITERALS = 1 << 24
_TEMPLATES: dict[tuple[str, int, bool, bool], Template] = {}
_template_literals = 0


def _line_template(name: str, k: int, exact: bool, define: bool) -> Template:
    import numpy as np

    twin = _ARRAY_TWINS.get(name)
    if twin is None:  # an encoding without an array twin: its readable function, line by line
        pool = VarPool(k)
        lits = list(range(1, k + 1))
        clauses = ([lits] if exact else []) + ENCODINGS[name].at_most_one(lits, pool, define)
        widths = np.fromiter((len(c) for c in clauses), dtype=np.int64, count=len(clauses))
        literals = np.fromiter((lit for c in clauses for lit in c), dtype=np.int32, count=int(widths.sum()))
        helpers = pool.top - k
    else:
        cells = np.arange(1, k + 1, dtype=np.int32)
        out = _Pieces(k)
        if exact:
            out.add(cells, [k])
        twin(cells, out, define)
        literals, widths = out.joined()
        helpers = out.top - k
    offsets = np.zeros(len(widths) + 1, dtype=np.int64)
    np.cumsum(widths, out=offsets[1:])
    literals.flags.writeable = False
    offsets.flags.writeable = False
    return Template(k, helpers, literals, offsets)


class _Pieces:
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


def _pairwise_twin(lits: np.ndarray, out: _Pieces, define: bool = False) -> None:
    import numpy as np

    k = len(lits)
    if k < 2:
        return
    i, j = np.triu_indices(k, 1)
    out.add(np.stack([-lits[i], -lits[j]], axis=1), np.full(len(i), 2))


def _sequential_twin(lits: np.ndarray, out: _Pieces, define: bool) -> None:
    import numpy as np

    k = len(lits)
    if k <= 1:
        return
    s = out.take(k - 1)
    out.add([-lits[0], s[0]], [2])
    if k > 2:
        x, now, before = lits[1:k - 1], s[1:k - 1], s[0:k - 2]
        block = np.stack([-x, now, -before, now, -x, -before], axis=1)
        out.add(block, np.full(3 * (k - 2), 2))
    out.add([-lits[-1], -s[-1]], [2])
    if define:
        out.add([-s[0], lits[0]], [2])
        if k > 2:
            out.add(np.stack([-s[1:k - 1], s[0:k - 2], lits[1:k - 1]], axis=1), np.full(k - 2, 3))


def _commander_twin(lits: np.ndarray, out: _Pieces, define: bool) -> None:
    import numpy as np

    k = len(lits)
    if k <= SMALL:
        _pairwise_twin(lits, out)
        return
    full, rest = divmod(k, GROUP)
    commanders = out.take(full + (1 if rest >= 2 else 0))
    a, b, c = (lits[0:GROUP * full:GROUP], lits[1:GROUP * full:GROUP], lits[2:GROUP * full:GROUP])
    h = commanders[:full]
    columns = [-a, -b, -a, -c, -b, -c, -a, h, -b, h, -c, h]
    widths = [2] * 6
    if define:
        columns += [-h, a, b, c]
        widths.append(4)
    out.add(np.stack(columns, axis=1), np.tile(widths, full))
    if rest == 2:
        x, y, t = lits[-2], lits[-1], commanders[-1]
        out.add([-x, -y, -x, t, -y, t] + ([-t, x, y] if define else []), [2, 2, 2] + ([3] if define else []))
        _commander_twin(commanders, out, define)
    elif rest == 1:
        _commander_twin(np.concatenate([commanders, lits[-1:]]), out, define)
    else:
        _commander_twin(commanders, out, define)


def _product_twin(lits: np.ndarray, out: _Pieces, define: bool) -> None:
    import numpy as np

    k = len(lits)
    if k <= SMALL:
        _pairwise_twin(lits, out)
        return
    q = ceil_sqrt(k)
    p = -(-k // q)
    u = out.take(p)
    v = out.take(q)
    index = np.arange(k)
    out.add(np.stack([-lits, u[index // q], -lits, v[index % q]], axis=1), np.full(2 * k, 2))
    if define:
        rows = [[-int(u[i]), *lits[i * q:(i + 1) * q].tolist()] for i in range(p)]
        cols = [[-int(v[j]), *lits[j::q].tolist()] for j in range(q)]
        out.add([x for c in rows + cols for x in c], [len(c) for c in rows + cols])
    _product_twin(u, out, define)
    _product_twin(v, out, define)


def _binary_twin(lits: np.ndarray, out: _Pieces, define: bool) -> None:
    import numpy as np

    k = len(lits)
    if k <= 1:
        return
    m = (k - 1).bit_length()
    bits = out.take(m)
    index = np.arange(k)[:, None]
    has = ((index >> np.arange(m)[None, :]) & 1).astype(bool)  # (k, m): bit j of i
    second = np.where(has, bits[None, :], -bits[None, :])
    first = np.broadcast_to(-lits[:, None], (k, m))
    out.add(np.stack([first, second], axis=2), np.full(k * m, 2))
    if define:
        clauses = [[-int(bits[j]), *lits[has[:, j]].tolist()] for j in range(m)]
        out.add([x for c in clauses for x in c], [len(c) for c in clauses])


#: Encoding name -> its array twin: the same clauses in the same order as the readable function, made with
#: whole-array operations (``tests/test_fast_build.py`` holds each to its readable function).
_ARRAY_TWINS: dict[str, Callable[[np.ndarray, _Pieces, bool], None]] = {
    "pairwise": _pairwise_twin,
    "sequential": _sequential_twin,
    "commander": _commander_twin,
    "product": _product_twin,
    "binary": _binary_twin,
}
