"""Counting without enumerating, measured: a model counter (Ganak, through ``pyganak``) against enumeration by
SAT, both on the same formula and in this process.

Projected on the board variables Ganak counts the boards; unprojected it counts every model, helper variables
included, which for the encodings with free helpers dwarfs the number of boards.  Enumeration finds the boards
one by one (the SAT method's count).  Counts are the same on every machine; the times are processor seconds
of this process on this machine.

- :func:`count_effort`: one board size and encoding: ``boards`` (projected count), ``models`` (unprojected
  count), Ganak's processor seconds for each, and the enumeration's, every count checked against the
  published one.
- :func:`count_study` / :func:`write_counts` / :func:`read_counts`: many of them, as the stored study
  chapter 7 reads (``notebooks/data/ch7-model-counts.csv``, written by ``benchmarks/bench_ch7_counts.py``).

>>> row = count_effort(6, "sequential")
>>> row["boards"], row["models"]
(4, 5184)
"""

from __future__ import annotations

import csv
import os
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TypedDict

from ..errors import InputError
from ..methods.base import get_method
from ..problem.board import Problem
from ..problem.reference import published_count

#: The columns of the stored study, in order.
COUNT_COLUMNS = ("n", "encoding", "boards", "models", "count_seconds", "models_seconds", "enumeration_seconds")
_INTS = ("n", "boards", "models")
_FLOATS = ("count_seconds", "models_seconds", "enumeration_seconds")


class CountRow(TypedDict):
    """One (n, encoding) of the study: the counts and their processor seconds (None: not counted or read
    from an empty cell)."""

    n: int
    encoding: str | None
    models: int | None
    models_seconds: float | None
    boards: int | None
    count_seconds: float | None
    enumeration_seconds: float | None


def _timed(job: Callable[[], int]) -> tuple[int, float]:
    start = time.process_time()
    value = job()
    return value, time.process_time() - start


def count_effort(n: int, encoding: str = "pairwise", unprojected: bool = True, repeat: int = 1) -> CountRow:
    """Count the boards of ``n``-queens under ``encoding`` twice, by Ganak (projected on the board variables)
    and by SAT enumeration, and, with ``unprojected``, every model of the formula by Ganak.  Times are the
    best of ``repeat`` runs in processor seconds of this process (both counters are deterministic: every run
    does the same work).  ``models`` and ``models_seconds`` are None without ``unprojected``."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise InputError(f"n must be a whole number of at least 1, not {n!r}")
    if isinstance(repeat, bool) or not isinstance(repeat, int) or repeat < 1:
        raise InputError(f"repeat must be a whole number of at least 1, not {repeat!r}")
    problem = Problem(n)
    counter, enumerator = get_method("model-count"), get_method("sat")
    projected = counter.choose(encoding, check_installed=True)
    everything = counter.choose(encoding, settings="unprojected")
    listing = enumerator.choose(encoding, check_installed=True)
    expected = published_count(n)

    def best(job: Callable[[], int]) -> tuple[int, float]:
        """The count and the fastest of ``repeat`` runs."""
        runs = [_timed(job) for _ in range(repeat)]
        return runs[0][0], min(t for _, t in runs)

    boards, count_seconds = best(lambda: counter.count_here(problem, projected, False)[0])
    enumerated, enumeration_seconds = best(lambda: enumerator.count_here(problem, listing, False)[0])
    models: int | None = None
    models_seconds: float | None = None
    if unprojected:
        models, models_seconds = best(lambda: counter.count_here(problem, everything, False)[0])
    if boards != expected or enumerated != expected:
        raise AssertionError(f"a count of {n}-queens ({encoding}) is not the published {expected:,}")
    if models is not None and models < boards:
        raise AssertionError(f"{models:,} models of {n}-queens ({encoding}) are fewer than its boards")
    return {"n": n, "encoding": projected.variant, "models": models, "models_seconds": models_seconds,
            "boards": boards, "count_seconds": count_seconds, "enumeration_seconds": enumeration_seconds}


def count_study(ns: Iterable[int], encodings: Sequence[str],
                report: Callable[[CountRow], None] | None = None) -> list[CountRow]:
    """:func:`count_effort` for every n and encoding (one row each), ``report`` called after each row."""
    rows = []
    for n in ns:
        for encoding in encodings:
            rows.append(count_effort(n, encoding))
            if report is not None:
                report(rows[-1])
    return rows


def write_counts(rows: Iterable[CountRow], path: str | os.PathLike[str]) -> None:
    """The study as CSV (:data:`COUNT_COLUMNS`); times rounded to the microsecond."""
    from ..runtime.files import written_whole

    with written_whole(path) as out:
        writer = csv.DictWriter(out, fieldnames=COUNT_COLUMNS, lineterminator="\n")
        writer.writeheader()
        for row in rows:
            values = {k: row.get(k) for k in COUNT_COLUMNS}
            writer.writerow({k: round(v, 6) if k in _FLOATS and isinstance(v, float) else v for k, v in values.items()})


def read_counts(path: str | os.PathLike[str]) -> dict[tuple[int, str], CountRow]:
    """The stored study by ``(n, encoding)``; a missing file or column is a one-line error."""
    try:
        with open(path, newline="", encoding="utf-8") as source:
            rows = list(csv.DictReader(source))
    except OSError as exc:
        raise InputError(f"cannot read the stored counts {path}: {exc.strerror or exc}; "
                         "write them with python benchmarks/bench_ch7_counts.py") from None
    missing = [c for c in COUNT_COLUMNS if rows and c not in rows[0]]
    if missing or not rows:
        raise InputError(f"{Path(path).name} is not a stored count study: it needs the columns "
                         f"{', '.join(COUNT_COLUMNS)}")
    table = {}
    for row in rows:
        whole = {k: int(row[k]) if row[k] else None for k in _INTS}
        real = {k: float(row[k]) if row[k] else None for k in _FLOATS}
        n = whole["n"]
        if n is None:
            raise InputError(f"{Path(path).name} has a row without n")
        typed: CountRow = {"encoding": row["encoding"], "n": n, "boards": whole["boards"], "models": whole["models"],
                           "count_seconds": real["count_seconds"], "models_seconds": real["models_seconds"],
                           "enumeration_seconds": real["enumeration_seconds"]}
        table[n, row["encoding"]] = typed
    return table
