"""Chen's 2-product at-most-one encoding: a grid of row and column helpers, applied recursively."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING

from ....palette import OKABE_ITO
from .core import SMALL, Clause, Encoding, Pieces, VarPool, ceil_sqrt, checked, sum_range
from .pairwise import _pairwise, _pairwise_counts, _pairwise_twin, _small_between

if TYPE_CHECKING:
    import numpy as np


def product(lits: Sequence[int], pool: VarPool, define: bool = False) -> list[Clause]:
    """Chen's 2-product encoding, applied recursively.

    Lay the k literals out row by row in a grid of q = ⌈√k⌉ columns and p = ⌈k/q⌉ rows, with helper u_i
    per grid row and v_j per grid column; ``x_ij → u_i`` and ``x_ij → v_j``; then at most one u and at most
    one v, recursively.  Two distinct cells differ in a row or a column, so two queens force two u's or
    two v's.  At or below 4 literals it is plain pairwise.  With ``define`` also ``u_i → ∨ (grid row i)``
    and ``v_j → ∨ (grid column j)``.

    >>> from .core import VarPool
    >>> len(product(range(1, 10), VarPool(9))), _product_counts(9)
    (24, (6, 24))
    """
    return _product(checked(lits, pool, define, "product"), pool, define)


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


@cache
def _product_counts(k: int) -> tuple[int, int]:
    if k <= SMALL:
        return _pairwise_counts(k)
    q = ceil_sqrt(k)
    p = -(-k // q)
    pa, pc = _product_counts(p)
    qa, qc = _product_counts(q)
    return p + q + pa + qa, 2 * k + pc + qc


def _product_between(low: int, high: int) -> tuple[int, int]:
    """Σ of :func:`_product_counts` for low <= k <= high, a step per value of q = ⌈√k⌉ (at most ⌈√high⌉):
    every k in (q-1)² + 1 .. q² has q grid columns and q - 1 or q grid rows."""
    helpers, clauses = _small_between(low, high)
    low = max(low, SMALL + 1)
    if high < low:
        return helpers, clauses
    clauses += 2 * sum_range(low, high)
    for q in range(ceil_sqrt(low), ceil_sqrt(high) + 1):
        start, stop = max(low, (q - 1) ** 2 + 1), min(high, q * q)
        shorter = max(0, min(stop, q * (q - 1)) - start + 1)  # p = q - 1 grid rows
        square = stop - start + 1 - shorter  # p = q
        q_helpers, q_clauses = _product_counts(q)
        p_helpers, p_clauses = _product_counts(q - 1)
        helpers += shorter * (2 * q - 1 + p_helpers + q_helpers) + square * (2 * q + 2 * q_helpers)
        clauses += shorter * (p_clauses + q_clauses) + square * 2 * q_clauses
    return helpers, clauses


def _product_twin(lits: np.ndarray, out: Pieces, define: bool) -> None:
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


PRODUCT = Encoding("product", product, _product_counts,
                   "Chen's 2-product: a √k x √k grid of row and column helpers, recursively",
                   "2k + 4√k + ... (recursive)", OKABE_ITO["reddish purple"], _product_between, _product_twin)
