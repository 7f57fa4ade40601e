"""Published N-queens solution counts, for checking the kit's own counts.

OEIS A000170 (all solutions) and A002562 (fundamental solutions, up to rotation and reflection), for
n = 1 .. 27, shipped with the package.

>>> published_count(8), published_count(8, fundamental=True)
(92, 12)
"""

from __future__ import annotations

from functools import cache


@cache
def _table() -> dict[str, dict[str, int]]:
    import json  # here, not at the top: a solve that checks no count does not pay for the imports
    from importlib.resources import files

    # the file ships with the package: two tables of counts keyed by n as text
    table: dict[str, dict[str, int]] = json.loads(
        files(__package__).joinpath("data/nqueens_counts.json").read_text(encoding="utf-8"))
    return table


def published_count(n: int, fundamental: bool = False) -> int | None:
    """The published number of solutions of n-queens (None beyond the table)."""
    key = "fundamental_solutions" if fundamental else "all_solutions"
    value = _table()[key].get(str(n))
    return None if value is None else int(value)
