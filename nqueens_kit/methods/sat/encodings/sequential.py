"""Sinz's sequential counter as an at-most-one encoding: helper s_i means "a queen among the first i literals".

>>> from .core import VarPool
>>> pool = VarPool(3)
>>> sequential([1, 2, 3], pool), pool.top
([[-1, 4], [-2, 5], [-4, 5], [-2, -4], [-3, -5]], 5)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ....palette import OKABE_ITO
from .core import Clause, Encoding, Pieces, VarPool, checked, sum_range

if TYPE_CHECKING:
    import numpy as np


def sequential(lits: Sequence[int], pool: VarPool, define: bool = False) -> list[Clause]:
    """Sinz's sequential counter: helper s_i means "a queen among the first i literals".

    ``x_1 → s_1``; for 1 < i < k: ``x_i → s_i``, ``s_{i-1} → s_i``, ``¬(x_i ∧ s_{i-1})``;
    ``¬(x_k ∧ s_{k-1})``.  3k - 4 clauses and k - 1 helpers for k >= 2.  With ``define`` also
    ``s_1 → x_1`` and ``s_i → s_{i-1} ∨ x_i``, so s_i is exactly "a queen among the first i".
    """
    lits = checked(lits, pool, define, "sequential")
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


def _sequential_between(low: int, high: int) -> tuple[int, int]:
    low = max(low, 2)
    count, total = max(0, high - low + 1), sum_range(low, high)
    return total - count, 3 * total - 4 * count


def _sequential_twin(lits: np.ndarray, out: Pieces, define: bool) -> None:
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


SEQUENTIAL = Encoding("sequential", sequential, _sequential_counts,
                      "Sinz's sequential counter: k-1 helpers, 3k-4 clauses", "3k-4", OKABE_ITO["orange"],
                      _sequential_between, _sequential_twin)
