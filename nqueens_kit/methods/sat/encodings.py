"""At-most-one and exactly-one constraints in CNF, one plain function per encoding.

Inside:

- :class:`VarPool`: hands out helper variables after the board variables (PySAT's ``top_id`` idea), so
  an encoding never collides with a queen variable.
- ``pairwise``, ``sequential``, ``commander``, ``product``, ``binary``: at-most-one encodings, each
  ``f(lits, pool) -> list of clauses``.  A clause is a plain list of non-zero ints (DIMACS literals).
- :data:`ENCODINGS`: the name -> :class:`Encoding` registry, each with its closed-form counts
  ``counts(k) -> (helper variables, clauses)`` for an at-most-one over ``k`` literals.
- :func:`exactly_one`: the at-least-one clause plus the chosen at-most-one.

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

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations
from math import isqrt

from ...errors import InputError

Clause = list[int]


class VarPool:
    """Fresh variable ids above ``top`` (the highest id in use).

    >>> pool = VarPool(64)
    >>> pool.new(), pool.new(), pool.top
    (65, 66, 66)
    """

    def __init__(self, top: int = 0) -> None:
        self.top = top

    def new(self) -> int:
        self.top += 1
        return self.top

    def take(self, count: int) -> list[int]:
        """``count`` fresh ids in increasing order."""
        first = self.top + 1
        self.top += count
        return list(range(first, self.top + 1))


def pairwise(lits: Sequence[int], pool: VarPool, define: bool = False) -> list[Clause]:
    """At most one: ``¬a ∨ ¬b`` for every pair; k(k-1)/2 clauses, no helpers (the lectures' encoding)."""
    return list(map(list, combinations([-x for x in lits], 2)))


def _pairwise_counts(k: int) -> tuple[int, int]:
    return 0, k * (k - 1) // 2


def sequential(lits: Sequence[int], pool: VarPool, define: bool = False) -> list[Clause]:
    """Sinz's sequential counter: helper s_i means "a queen among the first i literals".

    ``x_1 → s_1``; for 1 < i < k: ``x_i → s_i``, ``s_{i-1} → s_i``, ``¬(x_i ∧ s_{i-1})``;
    ``¬(x_k ∧ s_{k-1})``.  3k - 4 clauses and k - 1 helpers for k >= 2.  With ``define`` also
    ``s_1 → x_1`` and ``s_i → s_{i-1} ∨ x_i``, so s_i is exactly "a queen among the first i".
    """
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
    if len(lits) <= SMALL:
        return pairwise(lits, pool)
    clauses: list[Clause] = []
    commanders: list[int] = []
    for start in range(0, len(lits), GROUP):
        group = lits[start : start + GROUP]
        if len(group) == 1:
            commanders.append(group[0])
            continue
        c = pool.new()
        clauses += pairwise(group, pool)
        clauses += [[-x, c] for x in group]
        if define:
            clauses.append([-c, *group])
        commanders.append(c)
    return clauses + commander(commanders, pool, define)


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
    k = len(lits)
    if k <= SMALL:
        return pairwise(lits, pool)
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
    return clauses + product(u, pool, define) + product(v, pool, define)


def ceil_sqrt(k: int) -> int:
    """⌈√k⌉ for k >= 0, exactly."""
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


@dataclass(frozen=True)
class Encoding:
    """A named at-most-one encoding with its closed-form size."""

    name: str
    at_most_one: Callable[..., list[Clause]]  # f(lits, pool, define=False)
    counts: Callable[[int], tuple[int, int]]
    summary: str
    formula: str  # the clause count of an at-most-one over k literals, for tables


#: Name -> encoding, in teaching order; the first is the default.
ENCODINGS: dict[str, Encoding] = {
    e.name: e
    for e in (
        Encoding("pairwise", pairwise, _pairwise_counts,
                 "one binary clause per pair of cells; no helper variables", "k(k-1)/2"),
        Encoding("sequential", sequential, _sequential_counts,
                 "Sinz's sequential counter: k-1 helpers, 3k-4 clauses", "3k-4"),
        Encoding("commander", commander, _commander_counts,
                 "Klieber-Kwon commanders over groups of 3, recursively", "≈ 3k (recursive)"),
        Encoding("product", product, _product_counts,
                 "Chen's 2-product: a √k x √k grid of row and column helpers, recursively",
                 "2k + 4√k + ... (recursive)"),
        Encoding("binary", binary, _binary_counts,
                 "Frisch's bitwise encoding: ⌈log2 k⌉ helper bits", "k⌈log2 k⌉"),
    )
}
DEFAULT_ENCODING = "pairwise"


def get_encoding(name: str) -> Encoding:
    """Look an encoding up by name, with a one-line error listing the valid names."""
    try:
        return ENCODINGS[name]
    except (KeyError, TypeError):
        raise InputError(f"unknown encoding {str(name)[:40]!r}; valid: {', '.join(ENCODINGS)}") from None


def exactly_one(lits: Sequence[int], pool: VarPool, encoding: str = DEFAULT_ENCODING,
                define: bool = False) -> list[Clause]:
    """At least one (one clause over all the literals) plus at most one in the named encoding."""
    return [list(lits)] + get_encoding(encoding).at_most_one(lits, pool, define)
