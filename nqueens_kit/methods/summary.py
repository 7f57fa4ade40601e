"""Summaries of a sweep's rows, as the field reports them: timeouts are censored data, not missing data.

Pure arithmetic on rows, below the timing harness (:mod:`nqueens_kit.bench.summary` re-exports it) and the
charts (:mod:`nqueens_kit.viz.charts`), which both summarise rows with it.

:func:`summarise` groups rows by (configuration, instance family, n) and gives counts by status, medians,
minimum and maximum of each time, and PAR-2 (the mean time with every unsolved run counted as twice the
time limit, the SAT competition's score).  Unsolved: a run that hit the time or memory limit, or whose
solver said it does not know (``unknown``: it gave up before the limit, and is charged as if it had
reached it).  An ``error`` row (a solver that failed, or a wrong answer caught) is no time at all and
counts in ``errors`` only.  A timed-out run is longer than every finished one, so a median
is None once half or more of the runs timed out.

>>> rows = [{"n": 8, "method": "sat", "encoding": "pairwise", "solver": "pycosat", "repeat": r,
...          "status": "solved", "total_seconds": t, "build_seconds": 0.0, "solve_seconds": t,
...          "time_limit": 10.0} for r, t in ((1, 0.3), (2, 0.1), (3, 0.2))]
>>> s = summarise(rows)[0]
>>> s["config"], s["runs"], s["total_median"], s["total_min"], s["total_max"], round(s["par2"], 2)
('SAT pairwise/pycosat', 3, 0.2, 0.1, 0.3, 0.2)
"""

from __future__ import annotations

import itertools
import math
import statistics
from collections.abc import Iterable, Mapping, Sequence
from typing import TypedDict

from ..problem.results import Status
from .base import Choice
from .rows import CellValue, choice_from_row, config_order, number, row_size, text_cell

#: One summary entry: a configuration at one size, its counts and time statistics (see :func:`summarise`).
SummaryEntry = dict[str, CellValue]


class Censored(TypedDict):
    """The time statistics of a group of runs with timeouts as censored data (see :func:`censored_times`)."""

    times: list[float]
    unsolved: int
    limit: float | None
    median: float | None
    q1: float | None
    q3: float | None
    par2: float | None

FINISHED = (Status.SOLVED, Status.INFEASIBLE)
UNSOLVED = (Status.TIMEOUT, Status.MEMOUT, Status.UNKNOWN)


def par2(times: Iterable[float], unsolved: int, time_limit: float | None) -> float | None:
    """PAR-2: the mean over all runs, an unsolved run counting as twice the time limit (None without a limit)."""
    values = list(times)
    if unsolved and not time_limit:
        return None
    total = sum(values) + unsolved * 2 * (time_limit or 0.0)
    count = len(values) + unsolved
    return total / count if count else None


def censored_median(values: Sequence[float], unfinished: int) -> float | None:
    """The median of finished runs' values when ``unfinished`` runs count as larger than every one of them;
    None when the median falls on an unfinished run (or there are no runs).

    >>> censored_median([3.0, 1.0], 1), censored_median([1.0], 2)
    (3.0, None)
    """
    censored = sorted(values) + [math.inf] * unfinished
    middle = statistics.median(censored) if censored else math.inf
    return middle if math.isfinite(middle) else None


def censored_times(group: Sequence[Mapping[str, object]], metric: str = "total") -> Censored:
    """The statistics of one group of runs with timeouts as censored data: ``times`` (the finished runs'
    ``metric`` seconds, sorted), ``unsolved`` (runs that hit the time or memory limit, or whose solver said
    it does not know), ``limit`` (the time
    limit), ``median``, ``q1`` and ``q3`` (an unsolved run counts as longer than every finished one, so each
    is None once too many runs hit the limit) and ``par2`` (of the total time).  One definition for the
    summary, the report and the phase study."""
    finished = [r for r in group if r["status"] in FINISHED]
    unsolved = sum(r["status"] in UNSOLVED for r in group)
    limit = max((number(r, "time_limit") or 0.0 for r in group), default=0.0) or None
    times = sorted(t for r in finished if (t := number(r, f"{metric}_seconds")) is not None)
    q1, q3 = _quartiles(times + [math.inf] * unsolved)
    return {"times": times, "unsolved": unsolved, "limit": limit,
            "median": censored_median(times, unsolved), "q1": q1, "q3": q3,
            "par2": par2([number(r, "total_seconds") or 0.0 for r in finished], unsolved, limit)}


def summarise(rows: Iterable[Mapping[str, object]]) -> list[SummaryEntry]:
    """Per (configuration, place_random, n): counts by status and median / min / max of each time.

    Errors and skipped runs count in ``errors`` / ``skipped`` only.  ``between_instances`` (slowest over
    fastest instance) and ``between_repeats`` (the typical slowest over fastest repeat of one instance)
    separate instance variation from run-to-run noise.
    """
    groups: dict[tuple[tuple[str, str, str, str], int, int], list[Mapping[str, object]]] = {}
    configs: dict[tuple[tuple[str, str, str, str], int, int], Choice] = {}
    for row in rows:
        config = choice_from_row(row)
        key = (config.key, int(number(row, "place_random") or 0), row_size(row))
        groups.setdefault(key, []).append(row)
        configs[key] = config
    summary = []
    for key in sorted(groups, key=lambda k: (config_order(configs[k]), k[1], k[2])):
        group = groups[key]
        config = configs[key]
        finished = [r for r in group if r["status"] in FINISHED]
        total = censored_times(group)
        entry: SummaryEntry = {
            "config": config.label, "method": config.method, "encoding": config.encoding,
            "formulation": config.formulation, "variant": config.variant, "solver": config.solver,
            "settings": config.settings, "place_random": key[1], "n": key[2],
            "runs": len(group), "instances": len({r.get("instance") or 1 for r in group}),
            "solved": sum(r["status"] == Status.SOLVED for r in group),
            "infeasible": sum(r["status"] == Status.INFEASIBLE for r in group),
            "timeouts": sum(r["status"] == Status.TIMEOUT for r in group),
            "memouts": sum(r["status"] == Status.MEMOUT for r in group),
            "unknowns": sum(r["status"] == Status.UNKNOWN for r in group),
            "errors": sum(r["status"] == Status.ERROR for r in group),
            "skipped": sum(r["status"] == Status.SKIPPED for r in group),
            "unverified": sum(r["status"] == Status.SOLVED and not r.get("verified") for r in group),
            "time_limit": total["limit"],
        }
        for metric in ("total", "build", "solve", "cpu", "solver"):
            stats = total if metric == "total" else censored_times(group, metric)
            values = stats["times"]
            entry[f"{metric}_median"] = stats["median"]
            entry[f"{metric}_min"] = values[0] if values else None
            entry[f"{metric}_max"] = values[-1] if values else None
        entry["total_q1"], entry["total_q3"] = total["q1"], total["q3"]
        entry["par2"] = total["par2"]
        entry["between_instances"], entry["between_repeats"] = _spreads(finished)
        for column in ("variables", "clauses", "constraints", "peak_rss_mb"):
            sizes = [value for r in group if (value := number(r, column)) is not None]
            middle = statistics.median(sizes) if sizes else None
            entry[column] = int(middle) if middle is not None and column != "peak_rss_mb" else middle
        summary.append(entry)
    return summary


def _spreads(finished: list[Mapping[str, object]]) -> tuple[float | None, float | None]:
    """Instance variation against run-to-run noise: the ratio of the slowest to the fastest instance (by
    the median of its repeats), and the median over instances of the slowest to the fastest repeat.
    None where there is only one instance (or one repeat)."""
    times: dict[int, list[float]] = {}
    for row in finished:
        seconds = number(row, "total_seconds")
        if seconds:
            times.setdefault(int(number(row, "instance") or 1), []).append(seconds)
    medians = [statistics.median(v) for v in times.values()]
    between_instances = max(medians) / min(medians) if len(medians) > 1 and min(medians) > 0 else None
    ratios = [max(v) / min(v) for v in times.values() if len(v) > 1 and min(v) > 0]
    return between_instances, (statistics.median(ratios) if ratios else None)


def _quartiles(values: list[float]) -> tuple[float | None, float | None]:
    """First and third quartiles of (censored, sorted) values; None where they are censored."""
    if not values:
        return None, None
    if len(values) == 1:
        q = values[0]
        return (q, q) if math.isfinite(q) else (None, None)
    q1, _, q3 = statistics.quantiles(values, n=4, method="inclusive") if all(map(math.isfinite, values)) else (
        _censored_quantile(values, 0.25), None, _censored_quantile(values, 0.75))
    return (q1 if q1 is not None and math.isfinite(q1) else None, q3 if q3 is not None and math.isfinite(q3) else None)


def _censored_quantile(values: list[float], q: float) -> float | None:
    position = q * (len(values) - 1)
    low, high = values[math.floor(position)], values[math.ceil(position)]
    if not (math.isfinite(low) and math.isfinite(high)):
        return None
    return low + (high - low) * (position - math.floor(position))


def crossing(summary: Sequence[Mapping[str, object]], n: int, config: str | None = None) -> float | None:
    """The density at which the share of instances with a solution first falls to one half or below, for
    one n (and configuration: the first in the summary if None), interpolated linearly between the two
    densities around it; None if it never falls that far.

    >>> crossing([{"n": 9, "config": "c", "density": 0.4, "completable_share": 0.9},
    ...           {"n": 9, "config": "c", "density": 0.6, "completable_share": 0.1}], 9)
    0.5
    """
    config = config if config is not None else next((text_cell(e, "config") for e in summary), None)
    points = sorted((density, share) for e in summary
                    if e["n"] == n and e["config"] == config and (share := number(e, "completable_share")) is not None
                    and (density := number(e, "density")) is not None)
    for (d0, s0), (d1, s1) in itertools.pairwise(points):
        if s0 > 0.5 >= s1:
            return round(d0 + (s0 - 0.5) / (s0 - s1) * (d1 - d0), 6)
    return None


class Duel(TypedDict):
    """One instance of a head-to-head comparison (:func:`head_to_head`): the best configuration of each side
    on it (by the median of its repeats) and their ratio, second over first (above 1: the first is faster)."""

    n: int
    instance: int
    first: str
    first_seconds: float
    second: str
    second_seconds: float
    ratio: float


class DuelSummary(TypedDict):
    """A head-to-head comparison at one n over its instances: on how many the first side is faster, on how
    many by more than ``margin`` times, and the spread of the ratios (second over first)."""

    n: int
    instances: int
    first_faster: int
    first_by_margin: int
    second_by_margin: int
    ratio_min: float
    ratio_q1: float
    ratio_median: float
    ratio_q3: float
    ratio_max: float


def head_to_head(rows: Iterable[Mapping[str, object]], first: str, second: str,
                 metric: str = "total") -> list[Duel]:
    """Per (n, instance), the best configuration of side ``first`` against the best of side ``second``, each by
    the median of its repeats of ``metric`` seconds on that
    instance (``total``: wall; ``cpu``: processor time of the run's process tree).  A side is a label or the
    start of labels up to a space or a slash: "SAT" (every SAT configuration), "SAT sequential" (on any
    solver), "ILP lines/cbc" (that one, not "ILP lines/cbc, default").  Only instances where both sides have a
    configuration that finished every repeat are compared.

    >>> rows = [{"n": 8, "instance": i, "repeat": 1, "method": m, "encoding": e, "formulation": f, "solver": s,
    ...          "status": "solved", "total_seconds": t} for i, m, e, f, s, t in (
    ...         (1, "sat", "pairwise", None, "pycosat", 0.1), (1, "ilp", None, "lines", "cbc", 0.3),
    ...         (2, "sat", "pairwise", None, "pycosat", 0.2), (2, "ilp", None, "lines", "cbc", 0.1))]
    >>> [(d["instance"], round(d["ratio"], 1)) for d in head_to_head(rows, "SAT", "ILP")]
    [(1, 3.0), (2, 0.5)]
    """
    times: dict[tuple[int, int, str], list[float]] = {}
    unfinished: set[tuple[int, int, str]] = set()
    for row in rows:
        key = (row_size(row), int(number(row, "instance") or 1), choice_from_row(row).label)
        seconds = number(row, f"{metric}_seconds")
        if row["status"] in FINISHED and seconds is not None:
            times.setdefault(key, []).append(seconds)
        else:
            unfinished.add(key)
    best: dict[tuple[int, int, str], tuple[float, str]] = {}
    for (n, instance, label), values in times.items():
        if (n, instance, label) in unfinished:
            continue
        for side in (first, second):
            if label == side or label.startswith((side + " ", side + "/")):
                candidate = (statistics.median(values), label)
                best[n, instance, side] = min(best.get((n, instance, side), candidate), candidate)
    duels: list[Duel] = []
    for n, instance in sorted({(n, i) for n, i, _ in best}):
        if (n, instance, first) in best and (n, instance, second) in best:
            (a, a_label), (b, b_label) = best[n, instance, first], best[n, instance, second]
            duels.append({"n": n, "instance": instance, "first": a_label, "first_seconds": a, "second": b_label,
                          "second_seconds": b, "ratio": b / a if a > 0 else math.inf})
    return duels


def duel_summary(duels: Iterable[Duel], margin: float = 2.0) -> list[DuelSummary]:
    """:func:`head_to_head`'s instances summarised per n: wins, wins by more than ``margin`` times (either
    way), and the ratios' minimum, quartiles, median and maximum."""
    by_n: dict[int, list[float]] = {}
    for duel in duels:
        by_n.setdefault(duel["n"], []).append(duel["ratio"])
    summary: list[DuelSummary] = []
    for n, ratios in sorted(by_n.items()):
        ratios.sort()
        q1, q3 = _quartiles(ratios)
        summary.append({"n": n, "instances": len(ratios), "first_faster": sum(r > 1 for r in ratios),
                        "first_by_margin": sum(r > margin for r in ratios),
                        "second_by_margin": sum(r < 1 / margin for r in ratios), "ratio_min": ratios[0],
                        "ratio_q1": q1 if q1 is not None else ratios[0], "ratio_median": statistics.median(ratios),
                        "ratio_q3": q3 if q3 is not None else ratios[-1], "ratio_max": ratios[-1]})
    return summary
