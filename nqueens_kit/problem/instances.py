"""Random instances: N-queens *completion* instances with random pre-placed queens, and boards with random
blocked cells (the instances a sweep runs, and that the chapters on propagation and optimisation draw).

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

from ..errors import InputError
from .board import Cell, attacks, parse_cell


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


#: Instance families (Gent, Jefferson and Nightingale, JAIR 2017; CSPLib prob079): completion pre-places
#: queens; *blocked* forbids random cells; *excluded-diagonals* forbids every cell of random diagonals.
FAMILIES = ("completion", "blocked", "excluded-diagonals")


def random_blocked(n: int, density: float, seed: int, instance: int = 1) -> tuple[Cell, ...]:
    """Blocked n-Queens: each cell is blocked (no queen may stand there) with probability ``density``; the
    same cells for the same (n, density, seed, instance) everywhere."""
    rng = random.Random(f"nqueens-kit-blocked:{n}:{density!r}:{seed}:{instance}")
    return tuple((r, c) for r in range(1, n + 1) for c in range(1, n + 1) if rng.random() < density)


def random_excluded_diagonals(n: int, density: float, seed: int, instance: int = 1) -> tuple[Cell, ...]:
    """Excluded diagonals: each of the 4n - 2 diagonals and anti-diagonals is excluded with probability
    ``density``; the blocked cells are the cells of the excluded ones."""
    rng = random.Random(f"nqueens-kit-diagonals:{n}:{density!r}:{seed}:{instance}")
    differences = [d for d in range(1 - n, n) if rng.random() < density]
    sums = [t for t in range(2, 2 * n + 1) if rng.random() < density]
    return tuple((r, c) for r in range(1, n + 1) for c in range(1, n + 1) if r - c in differences or r + c in sums)


def family_cells(family: str, n: int, density: float, seed: int, instance: int) -> tuple[Cell, ...]:
    """The blocked cells of one instance of ``blocked`` or ``excluded-diagonals``."""
    if family == "blocked":
        return random_blocked(n, density, seed, instance)
    if family == "excluded-diagonals":
        return random_excluded_diagonals(n, density, seed, instance)
    raise InputError(f"unknown instance family {family!r}; valid: {', '.join(FAMILIES)}")


def cells_text(cells: Iterable[Cell]) -> str:
    """``1,2 3,5``: how the results file writes pre-placed queens."""
    return " ".join(f"{r},{c}" for r, c in cells)


def parse_cells_text(text: str) -> tuple[Cell, ...]:
    """Inverse of :func:`cells_text`."""
    return tuple(parse_cell(item) for item in text.split()) if text else ()
