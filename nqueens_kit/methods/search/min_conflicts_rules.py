"""The parameters min-conflicts runs with, shared by its Python (:mod:`.local_search`) and compiled
(:mod:`.local_search_jit`) versions, so that both are the same algorithm with the same budget."""

from __future__ import annotations

#: Random free columns the initial placement tries for a row before it takes the least attacked of them.
PLACEMENT_CANDIDATES = 32
#: Random columns a step draws in search of one attacked once before it scans the whole row.
STEP_DRAWS = 64
#: Below this n every step scans its row (cheaper than drawing candidates).
SCAN_BELOW = 200
#: The clock is read every this many rows of a placement and steps of a repair (a few milliseconds).
CLOCK_EVERY = 2048

Stats = dict[str, int]


class Stopped(Exception):
    """The deadline passed during a run (the stats so far are its argument)."""


def budget(n: int) -> tuple[int, int]:
    """``(steps per run, runs)``: when local search gives up without a deadline.

    A good placement is repaired in about one step per conflict, so n + 1000 steps is generous at every n; a
    run that fails is mostly stuck on a plateau, which a restart leaves.  Fewer runs at large n keep a
    hopeless search (an impossible completion) to a few minutes even at n = 10⁷.
    """
    return n + 1000, max(3, min(100, 1_000_000 // n))
