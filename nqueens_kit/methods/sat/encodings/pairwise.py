"""The pairwise at-most-one encoding: ``¬a ∨ ¬b`` for every pair of literals, no helpers (the lectures' encoding).

>>> from .core import VarPool
>>> pairwise([1, 2, 3], VarPool(3))
[[-1, -2], [-1, -3], [-2, -3]]
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from math import comb
from typing import TYPE_CHECKING

from ....palette import OKABE_ITO
from .core import SMALL, Clause, Encoding, Pieces, VarPool, checked

if TYPE_CHECKING:
    import numpy as np


def pairwise(lits: Sequence[int], pool: VarPool, define: bool = False) -> list[Clause]:
    """At most one: ``¬a ∨ ¬b`` for every pair; k(k-1)/2 clauses, no helpers (the lectures' encoding)."""
    return _pairwise(checked(lits, pool, define, "pairwise"))


def _pairwise(lits: Sequence[int]) -> list[Clause]:
    return list(map(list, combinations([-x for x in lits], 2)))


def _pairwise_counts(k: int) -> tuple[int, int]:
    return 0, k * (k - 1) // 2


def _pairwise_between(low: int, high: int) -> tuple[int, int]:
    """Σ k(k-1)/2 for low <= k <= high: C(high + 1, 3) - C(low, 3) (the hockey-stick identity)."""
    low = max(low, 0)
    return (0, comb(high + 1, 3) - comb(low, 3)) if high >= low else (0, 0)


def _small_between(low: int, high: int) -> tuple[int, int]:
    """The pairwise counts of the lengths from ``low`` to ``high`` that are at most :data:`~.core.SMALL` (where
    the recursive encodings fall back to pairwise)."""
    return _pairwise_between(max(low, 0), min(high, SMALL))


def _pairwise_twin(lits: np.ndarray, out: Pieces, define: bool = False) -> None:
    import numpy as np

    k = len(lits)
    if k < 2:
        return
    i, j = np.triu_indices(k, 1)
    out.add(np.stack([-lits[i], -lits[j]], axis=1), np.full(len(i), 2))


PAIRWISE = Encoding("pairwise", pairwise, _pairwise_counts,
                    "one binary clause per pair of cells; no helper variables", "k(k-1)/2", OKABE_ITO["blue"],
                    _pairwise_between, _pairwise_twin)
