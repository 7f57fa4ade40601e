"""At most k of n literals in CNF, for k > 1: Sinz's sequential counter and the totalizer.

Both have the signature ``encode(lits, k, pool) -> clauses`` (helpers taken from ``pool``), the one that
:func:`nqueens_kit.course.exercises.check_at_most_k` checks.

- :func:`sequential_counter`: Sinz (2005).  Helper ``s[i][j]`` means "at least j + 1 of the first i + 1
  literals are true" (only the implications towards it are written, which is all at most k needs).
  k(n - 1) helpers and 2nk + n - 3k - 1 clauses for 1 <= k < n; for k = 1 it is the at-most-one sequential
  encoding of chapter 4 (n - 1 helpers, 3n - 4 clauses).
- :func:`totalizer`: Bailleux and Boufkhad (2003).  A binary tree over the literals; each node counts the
  true leaves below it in unary (output j true when at least j are), with at most k + 1 outputs; the root's
  output k + 1 is forbidden.  O(n log n) helpers, O(nk) clauses when k is small.
- :func:`at_most_k_size`: helpers and clauses of either, by building it.

>>> pool = VarPool(4)
>>> sequential_counter([1, 2, 3, 4], 2, pool)[:3]
[[-1, 5], [-6], [-2, 7]]
>>> at_most_k_size("sequential_counter", 8, 2), at_most_k_size("totalizer", 8, 2)
((14, 33), (17, 44))
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ...errors import InputError
from .encodings import Clause, VarPool

#: An at-most-k encoder: ``encode(lits, k, pool) -> clauses``.
AtMostK = Callable[[Sequence[int], int, VarPool], list[Clause]]


def _bound(k: object, n: int) -> int:
    """k as an int from 0 (a one-line error for anything else)."""
    if type(k) is not int or k < 0:
        raise InputError(f"k is a whole number from 0, not {k!r}")
    return min(k, n)


def sequential_counter(lits: Sequence[int], k: int, pool: VarPool) -> list[Clause]:
    """Sinz's sequential counter for "at most k of ``lits``".

    With s(i, j) = "at least j of x_1 .. x_i" (i < n, 1 <= j <= k), the clauses are

    - ``x_1 → s(1,1)`` and ``¬s(1,j)`` for j > 1 (one literal cannot count two);
    - for 1 < i < n: ``x_i → s(i,1)``, ``s(i-1,j) → s(i,j)``, ``x_i ∧ s(i-1,j-1) → s(i,j)`` and
      ``¬(x_i ∧ s(i-1,k))`` (the (k + 1)-th true literal);
    - ``¬(x_n ∧ s(n-1,k))``.

    k = 0 forbids every literal (n unit clauses); k >= n needs no clause at all.
    """
    lits = list(lits)
    n = len(lits)
    k = _bound(k, n)
    if k == 0:
        return [[-x] for x in lits]
    if k >= n:
        return []
    s = [pool.take(k) for _ in range(n - 1)]
    clauses: list[Clause] = [[-lits[0], s[0][0]]]
    clauses += [[-s[0][j]] for j in range(1, k)]
    for i in range(1, n - 1):
        x = lits[i]
        clauses.append([-x, s[i][0]])
        clauses.append([-s[i - 1][0], s[i][0]])
        for j in range(1, k):
            clauses.append([-x, -s[i - 1][j - 1], s[i][j]])
            clauses.append([-s[i - 1][j], s[i][j]])
        clauses.append([-x, -s[i - 1][k - 1]])
    clauses.append([-lits[-1], -s[-1][k - 1]])
    return clauses


def totalizer(lits: Sequence[int], k: int, pool: VarPool) -> list[Clause]:
    """Bailleux and Boufkhad's totalizer for "at most k of ``lits``".

    Split the literals in halves, count each half in unary (recursively; a single literal counts itself),
    and join two counts a (outputs a_1 .. a_p) and b into r: ``a_i ∧ b_j → r_{i+j}`` for all i, j (a_0 and
    b_0 are "true", so ``a_i → r_i`` and ``b_j → r_j`` are among them).  A node keeps at most k + 1 outputs
    (a count above k + 1 sets r_{k+1}); the root's ``¬r_{k+1}`` is the bound.
    """
    lits = list(lits)
    k = _bound(k, len(lits))
    if k == 0:
        return [[-x] for x in lits]
    if k >= len(lits):
        return []
    clauses: list[Clause] = []

    def count(part: list[int]) -> list[int]:
        if len(part) == 1:
            return part
        half = len(part) // 2
        a, b = count(part[:half]), count(part[half:])
        r = pool.take(min(len(part), k + 1))
        for i in range(len(a) + 1):
            for j in range(len(b) + 1):
                if i + j == 0:
                    continue
                premise = ([-a[i - 1]] if i else []) + ([-b[j - 1]] if j else [])
                clauses.append([*premise, r[min(i + j, len(r)) - 1]])
        return r

    root = count(lits)
    clauses.append([-root[k]])
    return clauses


AT_MOST_K: dict[str, AtMostK] = {"sequential_counter": sequential_counter, "totalizer": totalizer}


def at_most_k_size(name: str, n: int, k: int) -> tuple[int, int]:
    """``(helpers, clauses)`` of the encoding ``name`` for at most k of n literals, counted by building it."""
    if name not in AT_MOST_K:
        raise InputError(f"at-most-k encodings are {', '.join(AT_MOST_K)}, not {name!r}")
    if type(n) is not int or n < 0:
        raise InputError(f"n is a whole number from 0, not {n!r}")
    pool = VarPool(n)
    clauses = AT_MOST_K[name](list(range(1, n + 1)), k, pool)
    return pool.top - n, len(clauses)


def sequential_counter_size(n: int, k: int) -> tuple[int, int]:
    """The closed form of :func:`sequential_counter`'s size for 1 <= k < n: k(n - 1) helpers,
    2nk + n - 3k - 1 clauses."""
    return k * (n - 1), 2 * n * k + n - 3 * k - 1
