"""The frontier: the largest n each configuration solves (one verified board) within a time limit, here.

For each configuration: double n from ``start`` while a run finishes within ``limit``, then bisect between
the largest n solved and the smallest n that was not, until the gap is at most ``precision`` of n.  Every
run is a fresh process with the wall-clock limit (:func:`~nqueens_kit.bench.worker.run_worker`), every
board is verified here, and no run gets a hint from a known solution.  Times grow unevenly with n (chapter
5), so the frontier is where a configuration *reliably stops*, give or take the bisection's precision.

:func:`count_frontier` is the same for counting: the largest n whose every board a configuration counts
(each verified, the total equal to the published count) within the limit, trying n = start, start + 1, ...

>>> from nqueens_kit.methods import Choice
>>> row = frontier([Choice("construct")], limit=30, start=8, max_n=64)[0]
>>> row["config"], row["largest_n"], row["first_failure"]
('construct', 64, None)
>>> row = count_frontier([Choice("backtrack")], limit=30, start=6, max_n=8)[0]
>>> row["largest_n"], row["count"]
(8, 92)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..errors import InputError
from ..methods import Choice, count, get_method
from ..problem.board import verify
from ..problem.reference import published_count
from ..problem.results import Status
from ..runtime.limits import check_time_limit
from .sweep import Run
from .worker import run_worker

DEFAULT_LIMIT = 60.0
DEFAULT_MAX_N = 4096


def _attempt(config: Choice, n: int, limit: float) -> tuple[bool, dict[str, Any]]:
    spec = Run(config, n, repeat=1).spec()  # the plain board, as the sweep would run it
    record = run_worker(spec, limit)
    queens = [tuple(q) for q in record.get("queens") or ()]
    seconds = record.get("total_seconds")
    ok = (record.get("status") == "solved" and seconds is not None and seconds <= limit  # the grace does not count
          and verify(n, queens))
    return ok, record


def _check(limit: Any, start: Any, max_n: Any) -> float:
    checked = check_time_limit(limit, "--limit")
    if checked is None:
        raise InputError("the frontier needs a time limit")
    for what, value, low in (("start", start, 4), ("max_n", max_n, 4)):
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            raise InputError(f"{what} must be a whole number of at least {low}, not {value!r}")
    return checked


def frontier(configs: Sequence[Choice], limit: float = DEFAULT_LIMIT, start: int = 8, max_n: int = DEFAULT_MAX_N,
             precision: float = 0.1, on_attempt: Callable[[str, int, bool, float], None] | None = None
             ) -> list[dict[str, Any]]:
    """One row per configuration: ``largest_n`` solved within ``limit`` seconds and its time,
    ``first_failure`` (the smallest n tried that was not solved in time, None if every n up to ``max_n``
    was) and ``attempts``.  ``on_attempt(label, n, solved, seconds)`` reports each run."""
    limit = _check(limit, start, max_n)
    if not 0 < precision < 1:
        raise InputError(f"precision must be between 0 and 1, not {precision!r}")
    rows = []
    for config in configs:
        best: tuple[int, float] | None = None
        failure: int | None = None
        attempts = 0

        def attempt(n: int, config: Choice = config) -> bool:
            nonlocal best, failure, attempts
            attempts += 1
            ok, record = _attempt(config, n, limit)
            seconds = float(record.get("total_seconds") or limit)
            if on_attempt is not None:
                on_attempt(config.label, n, ok, seconds)
            if ok and (best is None or n > best[0]):
                best = (n, seconds)
            if not ok and (failure is None or n < failure):
                failure = n
            return ok

        n = min(start, max_n)
        while attempt(n) and n < max_n:
            n = min(2 * n, max_n)
        while best is not None and failure is not None and failure - best[0] > max(1, int(precision * best[0])):
            attempt((best[0] + failure) // 2)
        rows.append({"config": config.label, "method": config.method, "variant": config.variant,
                     "solver": config.solver, "settings": config.settings, "limit": limit,
                     "largest_n": best[0] if best else None, "seconds": best[1] if best else None,
                     "first_failure": failure, "attempts": attempts})
    return rows


#: The largest n with a published count (OEIS A000170), the end of the counting frontier.
COUNT_MAX_N = 27


def count_frontier(configs: Sequence[Choice], limit: float = DEFAULT_LIMIT, start: int = 8, max_n: int = COUNT_MAX_N,
                   on_attempt: Callable[[str, int, bool, float], None] | None = None) -> list[dict[str, Any]]:
    """One row per configuration: ``largest_n`` whose boards it counts within ``limit`` seconds (every board
    verified, the total equal to the published count), its time and ``count``, and ``first_failure``.
    Each count runs in a child process stopped at the limit; n goes up by one until a count fails."""
    limit = _check(limit, start, max_n)
    if start > COUNT_MAX_N:
        raise InputError(f"the counting frontier starts at n = {COUNT_MAX_N} at most (the largest published "
                         f"count), not {start}")
    for config in configs:
        get_method(config.method).check(None, "count")
    max_n = min(max_n, COUNT_MAX_N)
    rows = []
    for config in configs:
        best: tuple[int, float, int] | None = None
        failure: int | None = None
        reason: str | None = None
        attempts = 0
        for n in range(min(start, max_n), max_n + 1):
            attempts += 1
            result = count(n, config.method, config.variant, config.solver, settings=config.settings,
                           time_limit=limit)
            ok = (result.status == Status.SOLVED and result.seconds <= limit
                  and result.count == published_count(n))
            if on_attempt is not None:
                on_attempt(config.label, n, ok, result.seconds)
            if not ok:
                failure = n
                if result.status != Status.SOLVED:
                    reason = result.status.value
                elif result.seconds > limit:
                    reason = f"took {result.seconds:.2f} s"
                else:
                    reason = f"counted {result.count:,}, not {published_count(n):,}"
                break
            best = (n, result.seconds, result.count)
        rows.append({"config": config.label, "method": config.method, "variant": config.variant,
                     "solver": config.solver, "settings": config.settings, "limit": limit,
                     "largest_n": best[0] if best else None, "seconds": best[1] if best else None,
                     "count": best[2] if best else None, "first_failure": failure, "why": reason,
                     "attempts": attempts})
    return rows
