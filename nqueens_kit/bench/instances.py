"""The instances a sweep runs: plain boards, or N-queens *completion* instances with random pre-placed queens.

An instance is fixed by (n, k, seed, instance number): :func:`random_preplacement` draws the same queens for
the same four numbers on every machine, so every configuration meets the same instances, and repeats of a
run meet the same instance again (they measure run-to-run noise; instances measure instance variation).

>>> random_preplacement(8, 3, seed=1, instance=2) == random_preplacement(8, 3, seed=1, instance=2)
True
>>> len(random_preplacement(8, 3, seed=1)), random_preplacement(8, 3, 1, 1) != random_preplacement(8, 3, 1, 2)
(3, True)
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from ..board import Cell, attacks
from ..errors import InputError


def random_preplacement(n: int, k: int, seed: int, instance: int = 1) -> tuple[Cell, ...]:
    """K non-attacking queens on an n x n board, the same for the same (n, k, seed, instance) everywhere.

    Each placement is drawn uniformly row by row among the cells no earlier queen attacks, restarting on
    a dead end; it may well have no completion (the run then reports ``infeasible``).  Needs 0 <= k < n.
    """
    if not 0 <= k < n:
        raise InputError(f"cannot pre-place {k} queens on a {n}x{n} board for a completion instance: "
                         f"the number must be from 0 to {n - 1}")
    # A string seed is hashed with SHA-512, so the instance does not depend on PYTHONHASHSEED.
    rng = random.Random(f"nqueens-kit:{n}:{k}:{seed}:{instance}")
    for _attempt in range(10_000):
        rows = sorted(rng.sample(range(1, n + 1), k))
        placed: list[Cell] = []
        for r in rows:
            free = [(r, c) for c in range(1, n + 1) if not any(attacks((r, c), q) for q in placed)]
            if not free:
                break
            placed.append(rng.choice(free))
        else:
            return tuple(placed)
    raise InputError(f"found no {k} non-attacking queens on a {n}x{n} board; use fewer")  # pragma: no cover


def cells_text(cells: Iterable[Cell]) -> str:
    """``1,2 3,5``: how the results file writes pre-placed queens."""
    return " ".join(f"{r},{c}" for r, c in cells)


def parse_cells_text(text: str) -> tuple[Cell, ...]:
    """Inverse of :func:`cells_text`."""
    from ..board import parse_cell

    return tuple(parse_cell(item) for item in text.split()) if text else ()
