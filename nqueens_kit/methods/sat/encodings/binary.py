"""Frisch's binary (bitwise) at-most-one encoding: ⌈log2 k⌉ helper bits spell the index of the true literal."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ....palette import OKABE_ITO
from .core import Clause, Encoding, Pieces, VarPool, checked, sum_range

if TYPE_CHECKING:
    import numpy as np


def binary(lits: Sequence[int], pool: VarPool, define: bool = False) -> list[Clause]:
    """Frisch's binary (bitwise) encoding: m = ⌈log2 k⌉ helper bits spell the index of the true literal.

    Literal i forces each bit b_j to bit j of i: ``x_i → b_j`` or ``x_i → ¬b_j``; two true literals would
    force two different codes.  k·m clauses and m helpers.  With ``define`` also ``b_j → ∨ (x_i whose
    index has bit j set)``, so all bits are 0 when no literal is true.

    >>> from .core import VarPool
    >>> binary([1, 2, 3], VarPool(3))
    [[-1, -4], [-1, -5], [-2, 4], [-2, -5], [-3, -4], [-3, 5]]
    """
    lits = checked(lits, pool, define, "binary")
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


def _binary_between(low: int, high: int) -> tuple[int, int]:
    """By bit width m: every k in 2^(m-1) + 1 .. 2^m has m helpers and k·m clauses (a step per bit of high)."""
    helpers = clauses = 0
    m = 1
    while (1 << (m - 1)) + 1 <= high:
        start, stop = max(low, (1 << (m - 1)) + 1), min(high, 1 << m)
        if start <= stop:
            helpers += m * (stop - start + 1)
            clauses += m * sum_range(start, stop)
        m += 1
    return helpers, clauses


def _binary_twin(lits: np.ndarray, out: Pieces, define: bool) -> None:
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


BINARY = Encoding("binary", binary, _binary_counts,
                  "Frisch's bitwise encoding: ⌈log2 k⌉ helper bits", "k⌈log2 k⌉", OKABE_ITO["sky blue"],
                  _binary_between, _binary_twin)
