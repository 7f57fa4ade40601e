"""Klieber and Kwon's commander at-most-one encoding, applied recursively over groups of :data:`GROUP` literals."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING

from ....palette import OKABE_ITO
from .core import SMALL, Clause, Encoding, Pieces, VarPool, checked
from .pairwise import _pairwise, _pairwise_counts, _pairwise_twin, _small_between

if TYPE_CHECKING:
    import numpy as np

#: Group size of the commander encoding (Klieber and Kwon use 3).
GROUP = 3


def commander(lits: Sequence[int], pool: VarPool, define: bool = False) -> list[Clause]:
    """Klieber and Kwon's commander encoding, applied recursively.

    Split the literals into groups of 3; each group gets a commander c with pairwise at-most-one inside
    the group and ``x → c`` for its members; then at most one commander, recursively.  A group of one
    literal is its own commander.  At or below 4 literals it is plain pairwise.  With ``define`` also
    ``c → x_1 ∨ x_2 ∨ x_3``, so a commander is exactly "a queen in my group".

    >>> from .core import VarPool
    >>> len(commander(range(1, 7), VarPool(6))), _commander_counts(6)
    (13, (2, 13))
    """
    return _commander(checked(lits, pool, define, "commander"), pool, define)


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


def _below(m: int, group: int) -> tuple[int, list[int]]:
    """For 0 <= k <= m: Σ ⌊k / group⌋, and how many k leave each remainder (0 for m < 0)."""
    if m < 0:
        return 0, [0] * group
    q, r = divmod(m, group)
    return group * q * (q - 1) // 2 + q * (r + 1), [q + (1 if rest <= r else 0) for rest in range(group)]


def _commander_between(low: int, high: int) -> tuple[int, int]:
    """Σ of :func:`_commander_counts` for low <= k <= high, in O(log high) steps: a length k above
    :data:`~.core.SMALL` adds its own groups (⌊k/3⌋ full ones and maybe a last pair) to the counts of ⌈k/3⌉
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


def _commander_twin(lits: np.ndarray, out: Pieces, define: bool) -> None:
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


COMMANDER = Encoding("commander", commander, _commander_counts,
                     "Klieber-Kwon commanders over groups of 3, recursively", "≈ 3k (recursive)",
                     OKABE_ITO["bluish green"], _commander_between, _commander_twin)
