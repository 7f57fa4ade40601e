"""An adder-based at-most-k encoding: sum the literals in binary, then compare the sum with k.

Warners' linear-time transformation (and the adder networks of Eén and Sörensson) write a cardinality
constraint as a circuit: half and full adders add the literals into a binary number, and a comparator says
the number is at most k.  Every adder output is *defined* both ways (Tseitin), so the encoding has the same
models projected on the literals as the sum constraint, with a number of clauses linear in the number of
literals.  What it gives up is strength: unit propagation on adder clauses does not see that a line that already holds
k queens can take no more, because the sum's bits are only related to each other by XOR clauses, and unit
propagation cannot reason about a parity until all but one of its variables are set.

>>> from nqueens_kit.methods.sat.encodings import VarPool
>>> clauses = adder_at_most_k([1, 2, 3], 1, VarPool(3))
>>> len(clauses), max(abs(lit) for clause in clauses for lit in clause)
(23, 9)
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import product

from ...errors import InputError
from .encodings import VarPool

Clause = list[int]


def _xor_clauses(inputs: Sequence[int], out: int) -> list[Clause]:
    """``out ↔ (inputs[0] ⊕ inputs[1] ⊕ ...)``: one clause per assignment of the inputs (2^len of them)."""
    clauses = []
    for values in product((False, True), repeat=len(inputs)):
        parity = sum(values) % 2 == 1
        clauses.append([-x if v else x for x, v in zip(inputs, values, strict=True)] + [out if parity else -out])
    return clauses


def _half_adder(a: int, b: int, pool: VarPool) -> tuple[int, int, list[Clause]]:
    """Sum bit ``a ⊕ b`` and carry ``a ∧ b``, each defined both ways: 7 clauses."""
    s, c = pool.new(), pool.new()
    clauses = _xor_clauses([a, b], s) + [[-a, -b, c], [-c, a], [-c, b]]
    return s, c, clauses


def _full_adder(a: int, b: int, d: int, pool: VarPool) -> tuple[int, int, list[Clause]]:
    """Sum bit ``a ⊕ b ⊕ d`` and carry (the majority of the three), each defined both ways: 14 clauses."""
    s, c = pool.new(), pool.new()
    majority = [[-a, -b, c], [-a, -d, c], [-b, -d, c], [a, b, -c], [a, d, -c], [b, d, -c]]
    return s, c, _xor_clauses([a, b, d], s) + majority


def _add(x: Sequence[int], y: Sequence[int], pool: VarPool, clauses: list[Clause]) -> list[int]:
    """Ripple-carry addition of two binary numbers (literals, least significant bit first)."""
    out: list[int] = []
    carry: int | None = None
    for i in range(max(len(x), len(y))):
        bits = [bit for bit in (x[i] if i < len(x) else None, y[i] if i < len(y) else None, carry) if bit is not None]
        if len(bits) == 1:
            out.append(bits[0])
            carry = None
            continue
        if len(bits) == 2:
            s, carry, more = _half_adder(bits[0], bits[1], pool)
        else:
            s, carry, more = _full_adder(bits[0], bits[1], bits[2], pool)
        clauses += more
        out.append(s)
    if carry is not None:
        out.append(carry)
    return out


def binary_sum(lits: Sequence[int], pool: VarPool) -> tuple[list[int], list[Clause]]:
    """The bits (least significant first) of the number of true ``lits``, and the adder clauses defining them:
    a balanced tree of ripple-carry additions."""
    numbers = [[lit] for lit in lits]
    clauses: list[Clause] = []
    while len(numbers) > 1:
        paired = [_add(numbers[i], numbers[i + 1], pool, clauses) for i in range(0, len(numbers) - 1, 2)]
        numbers = paired + ([numbers[-1]] if len(numbers) % 2 else [])
    return (numbers[0] if numbers else []), clauses


def at_most(bits: Sequence[int], k: int) -> list[Clause]:
    """Clauses saying the binary number ``bits`` (least significant first) is at most ``k``: a bit set where k
    has a 0 is allowed only if some higher bit where k has a 1 is clear."""
    clauses: list[Clause] = []
    if k >= (1 << len(bits)) - 1:  # every number the bits can spell is allowed
        return clauses
    for i, bit in enumerate(bits):
        if (k >> i) & 1:
            continue
        higher = [-bits[j] for j in range(i + 1, len(bits)) if (k >> j) & 1]
        clauses.append([-bit, *higher])
    return clauses


def adder_at_most_k(lits: Sequence[int], k: int, pool: VarPool) -> list[Clause]:
    """At most ``k`` of ``lits`` true, as an adder network and a comparator (helpers from ``pool``).  Correct
    (the same models on ``lits`` as the sum constraint) but not propagation-complete: see the module text."""
    if type(k) is not int or k < 0:
        raise InputError(f"k must be a whole number from 0, not {k!r}")
    lits = list(lits)
    if k >= len(lits):
        return []
    bits, clauses = binary_sum(lits, pool)
    return clauses + at_most(bits, k)


def adder_at_most_one(lits: Sequence[int], pool: VarPool) -> list[Clause]:
    """:func:`adder_at_most_k` with k = 1, in the ``encode(lits, pool)`` form the at-most-one encodings have."""
    return adder_at_most_k(lits, 1, pool)


__all__ = ["adder_at_most_k", "adder_at_most_one", "at_most", "binary_sum"]
