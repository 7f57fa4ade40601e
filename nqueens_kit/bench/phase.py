"""A phase-transition study of N-queens instance families: how often a random instance has a solution, and
what it costs to find out, as the density of the family's restriction grows.

Gent, Jefferson and Nightingale ("Complexity of n-Queens Completion", JAIR 59, 2017) show that completion
is NP-complete and introduce generators of random instances for three families: *completion* (random
pre-placed queens), *blocked* (random blocked cells) and *excluded-diagonals* (random excluded diagonals).
For blocked cells and excluded diagonals they find a phase transition with the hard instances near it, as
in random SAT; for completion, a natural generator did not give consistently hard instances.
:func:`phase_study` repeats the measurement on this machine: for each n and each density (for completion
k = round(d · n) random non-attacking queens; otherwise each cell, or each diagonal, blocked with
probability d), ``instances`` random instances per point, every configuration runs through the timing
harness (a fresh process per run, a wall-clock limit, verified boards), and :func:`phase_summary` gives
per (configuration, n, density) the share of instances with a solution, the median and PAR-2 time and the
median search effort the solver reports (conflicts, branch-and-bound nodes), which does not depend on the
machine, with its spread (percentiles 10, 25, 75 and 90 and the largest: the heavy tail of hard instances).
:func:`crossing` finds where half of the decided instances have a solution (:func:`crossing_range` where it
would lie had the unfinished runs been decided), :func:`hardest` the costliest density,
:func:`peaks` both per n (the peak of effort moving with n), and :func:`nqueens_kit.viz.charts.plot_phase`
and :func:`~nqueens_kit.viz.charts.plot_phase_effort` draw them.  :data:`STORED_PARTS` is the study notebook 5
stores (:func:`stored_study` runs it).

>>> from nqueens_kit.methods import Choice
>>> rows = phase_study([Choice("sat", "pairwise", "pycosat")], [6], [0.0, 0.5], instances=2, timeout=10)
>>> [(s["n"], s["density"], s["instances"]) for s in phase_summary(rows)]
[(6, 0.0, 2), (6, 0.5, 2)]
"""

from __future__ import annotations

import csv
import math
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..errors import InputError
from ..methods import Choice
from ..methods.rows import CellValue, number, row_size, text_cell
from ..methods.summary import censored_median, censored_times, crossing
from ..problem.board import Problem
from ..problem.instances import family_cells, random_preplacement
from .config import choice_from_row, config_order
from .results import ResultRow
from .sweep import run_sweep

#: The configurations of the stored study: SAT (sequential encoding on python-sat's MiniSat, which counts its
#: conflicts) at every point, ILP (CBC, which counts branch-and-bound nodes) on the smaller boards.
SAT_CONFIG = ("sat", "sequential", "pysat-minisat")
ILP_CONFIG = ("ilp", "lines", "cbc")
STORED_CONFIGS = (SAT_CONFIG, ILP_CONFIG)
#: Seed, time limit (seconds) and instances per point of the stored study.
STORED_SEED = 1
STORED_TIMEOUT = 10.0
STORED_INSTANCES = {SAT_CONFIG: 24, ILP_CONFIG: 16}


@dataclass(frozen=True)
class StudyPart:
    """One board size of one family: its densities, and the configurations run there."""

    family: str
    n: int
    densities: tuple[float, ...]
    configs: tuple[tuple[str, str, str], ...]


def _window(centre: float, half: float = 0.1, step: float = 0.025) -> list[float]:
    """The densities ``centre - half`` .. ``centre + half`` in ``step`` s (rounded to the step, kept below 1)."""
    k = round(half / step)
    middle = round(centre / step)
    return [round((middle + i) * step, 4) for i in range(-k, k + 1) if 0 < (middle + i) * step < 1]


def _part(family: str, n: int, coarse: Sequence[float], centre: float, ilp: bool) -> StudyPart:
    """One size of one family: the plain board, the coarse densities and the fine window around ``centre``;
    for completion, whose instances change only with the number of queens k = round(d n), every k from
    n (centre - 0.1) to n (centre + 0.1) (densities k / n)."""
    if family == "completion":
        window = [k / n for k in range(round((centre - 0.1) * n), round((centre + 0.1) * n) + 1)]
        coarse = [round(d * n) / n for d in coarse]
    else:
        window = _window(centre)
    densities = tuple(sorted({0.0, *coarse, *window}))
    return StudyPart(family, n, densities, STORED_CONFIGS if ilp else (SAT_CONFIG,))


#: The study stored with notebook 5 (``benchmarks/bench_phase.py`` runs it, about 20 minutes on two cores):
#: per family several board sizes, each with a few coarse densities and a fine grid (steps of 0.025) of
#: ±0.1 around where a pilot run found that size's crossing, after Gent, Jefferson and Nightingale (2017).
STORED_PARTS: tuple[StudyPart, ...] = (
    *(_part("blocked", n, (0.2, 0.3, 0.4, 0.5), centre, n <= 20)
      for n, centre in ((15, 0.6), (20, 0.675), (25, 0.725), (30, 0.775), (35, 0.8), (40, 0.825))),
    *(_part("excluded-diagonals", n, (0.05, 0.35, 0.4), centre, n <= 12)
      for n, centre in ((10, 0.15), (12, 0.15), (14, 0.2), (16, 0.2), (18, 0.225))),
    *(_part("completion", n, (0.1, 0.2, 0.3), centre, n <= 20)
      for n, centre in ((15, 0.45), (20, 0.525), (25, 0.55), (30, 0.575), (35, 0.6))),
)
#: The stored study per family: board size -> densities.
STORED_STUDY: dict[str, dict[int, tuple[float, ...]]] = {}
for _p in STORED_PARTS:
    STORED_STUDY.setdefault(_p.family, {})[_p.n] = _p.densities

#: The counts a solver reports, and the spread of each the summary keeps: ``median_conflicts``,
#: ``p90_conflicts``, ``max_nodes``, ...
EFFORTS = ("conflicts", "nodes")
SPREAD = ("p10", "p25", "median", "p75", "p90", "max")
SPREAD_COLUMNS = tuple(f"{q}_{e}" for e in EFFORTS for q in SPREAD if q != "median")

SUMMARY_COLUMNS = ("config", "method", "variant", "solver", "family", "n", "density", "queens", "instances",
                   "completable", "impossible", "unsolved", "completable_share", "median_seconds", "par2_seconds",
                   "time_limit", "median_conflicts", "median_nodes", *SPREAD_COLUMNS)


def phase_study(configs: Sequence[Choice], ns: Sequence[int], densities: Sequence[float], instances: int = 10,
                timeout: float = 10.0, seed: int = 0, jobs: int = 1,
                on_point: Callable[[int, float, list[ResultRow]], None] | None = None,
                family: str = "completion") -> list[ResultRow]:
    """Every run of the study, each row with its ``density``.  Density 0 is the plain problem (its
    instances are then the same board, timed ``instances`` times).  ``family`` ``blocked`` or
    ``excluded-diagonals`` blocks a share ``density`` of the cells or of the diagonals instead of placing
    queens."""
    if not densities or any(not 0 <= d < 1 for d in densities):
        raise InputError(f"densities must be shares of n from 0 up to (not including) 1, not {list(densities)}")
    rows: list[ResultRow] = []
    for n in ns:
        for density in densities:
            queens = min(n - 1, round(density * n)) if family == "completion" else 0
            plain = density == 0 or (family == "completion" and not queens)
            # density 0 is the one plain board: timed ``instances`` times rather than drawn that often
            found = run_sweep(configs, [n], repeat=instances if plain else 1, timeout=timeout, progress=False,
                              place_random=queens, seed=seed, instances=1 if plain else instances, jobs=jobs,
                              family="completion" if plain else family, density=None if plain or
                              family == "completion" else density)
            for row in found:  # the plain board is density 0 of every family
                row["density"], row["family"] = density, family
            rows.extend(found)
            if on_point is not None:
                on_point(n, density, found)
    return rows


#: One point of a phase study's summary: a configuration at one (family, n, density) (see :func:`phase_summary`).
PhaseEntry = dict[str, CellValue]


def phase_summary(rows: Sequence[Mapping[str, object]]) -> list[PhaseEntry]:
    """Per (family, configuration, n, density): instances, how many completable / impossible / unsolved
    within the limit, the completable share (of those decided), the median (timeouts counted as longer than
    every finished run) and PAR-2 of the time, and the median search effort the solver reports (conflicts
    for python-sat, branch-and-bound nodes for ILP; counted the same way, None where the solver reports
    none)."""
    groups: dict[tuple[str, tuple[str, str, str, str], int, float], list[Mapping[str, object]]] = {}
    configs: dict[tuple[str, tuple[str, str, str, str], int, float], Choice] = {}
    for row in rows:
        config = choice_from_row(row)
        density = number(row, "density")
        if density is None:
            raise ValueError(f"a phase study's row has a density, not {row.get('density')!r}")
        key = (text_cell(row, "family") or "completion", config.key, row_size(row), density)
        groups.setdefault(key, []).append(row)
        configs[key] = config
    out: list[PhaseEntry] = []
    for key in sorted(groups, key=lambda k: (k[0], config_order(configs[k]), k[2], k[3])):
        group, config = groups[key], configs[key]
        completable = sum(r["status"] == "solved" for r in group)
        impossible = sum(r["status"] == "infeasible" for r in group)
        stats = censored_times(group)
        decided = completable + impossible
        out.append({"config": config.label, "method": config.method, "variant": config.variant,
                    "solver": config.solver, "n": key[2], "density": key[3],
                    "queens": int(number(group[0], "place_random") or 0), "instances": len(group),
                    "completable": completable, "impossible": impossible, "unsolved": stats["unsolved"],
                    "completable_share": completable / decided if decided else None,
                    "median_seconds": stats["median"], "par2_seconds": stats["par2"], "time_limit": stats["limit"],
                    "family": text_cell(group[0], "family") or "completion",
                    **{f"{q}_{effort}": value for effort in EFFORTS
                       for q, value in _effort_spread(group, effort).items()}})
    return out


def hardest(summary: Sequence[Mapping[str, object]], n: int, config: str, cost: str = "par2_seconds"
            ) -> Mapping[str, object] | None:
    """The summary entry of one configuration at one n where ``cost`` (a summary column) is largest."""
    entries = [e for e in summary if e["n"] == n and e["config"] == config and number(e, cost) is not None]
    return max(entries, key=lambda e: number(e, cost) or 0.0) if entries else None


#: The cost a finding is read from: the solver's own effort where it reports one, else PAR-2 time.
EFFORT_COLUMNS = ("median_conflicts", "median_nodes", "par2_seconds")


def findings(summary: Sequence[Mapping[str, object]], near: float = 0.1) -> list[dict[str, CellValue]]:
    """Where the hard instances are, per (family, n, configuration): the ``crossing`` (:func:`crossing`),
    the ``cost`` read (the first of :data:`EFFORT_COLUMNS` the configuration has at every density of that n:
    CBC, for one, counts no nodes when its presolve proves a point infeasible), the ``hardest`` density,
    its cost ``at_hardest`` and ``at_zero`` (density 0, the plain board), and ``near``: whether the costliest
    density lies within ``near`` of the crossing."""
    out: list[dict[str, CellValue]] = []
    families = dict.fromkeys(text_cell(e, "family") or "completion" for e in summary)
    for family in families:
        part = [e for e in summary if (text_cell(e, "family") or "completion") == family]
        for n in sorted({row_size(e) for e in part}):
            where = crossing(part, n)
            for config in dict.fromkeys(text_cell(e, "config") or "" for e in part):
                points = [e for e in part if e["config"] == config and e["n"] == n]
                cost = next((c for c in EFFORT_COLUMNS if points and all(e.get(c) is not None for e in points)),
                            None)
                top = hardest(part, n, config, cost) if cost else None
                if cost is None or top is None:
                    continue
                zero = next((number(e, cost) for e in part if e["config"] == config and e["n"] == n
                             and e["density"] == 0), None)
                top_density = number(top, "density") or 0.0
                out.append({"family": family, "n": n, "config": config, "crossing": where, "cost": cost,
                            "hardest": top_density, "at_hardest": number(top, cost), "at_zero": zero,
                            "near": where is not None and abs(top_density - where) <= near + 1e-9})
    return out


def _effort_spread(group: Sequence[Mapping[str, object]], column: str) -> dict[str, float | None]:
    """The spread of a reported count over the runs of a point (:data:`SPREAD`): percentiles 10, 25, 75 and
    90 (nearest rank), the median and the largest.  A run that did not finish counts as more than every
    finished one (as for the median time), so a statistic is None once it falls on an unfinished run; all
    are None if a finished run reported no count."""
    values: list[float] = []
    for row in group:
        if row["status"] in ("solved", "infeasible"):
            value = row.get(column)
            if not isinstance(value, (int, float)) or isinstance(value, bool):
                return dict.fromkeys(SPREAD)
            values.append(float(value))
    unfinished = len(group) - len(values)
    ranked = sorted(values) + [math.inf] * unfinished
    out: dict[str, float | None] = {}
    for name in SPREAD:
        if name == "median":
            out[name] = censored_median(values, unfinished)
            continue
        share = 1.0 if name == "max" else int(name[1:]) / 100
        value = ranked[max(0, math.ceil(share * len(ranked)) - 1)] if ranked else math.inf
        out[name] = value if math.isfinite(value) else None
    return out


def peaks(summary: Sequence[Mapping[str, object]], config: str, cost: str = "median_conflicts"
          ) -> list[dict[str, CellValue]]:
    """Per family and n, for one configuration: the ``crossing``, the costliest density (``peak``, by
    ``cost``), the grid ``step`` around the crossing (the distance between the two densities that bracket
    it), ``distance`` (|peak - crossing|) and ``steps`` (that in grid steps), ``at_peak`` and ``at_zero``
    (the cost there and on the plain board) and ``tail`` (the 90th percentile over the median at the
    peak, when the summary has them).  This is how the peak of effort moves with n."""
    out: list[dict[str, CellValue]] = []
    for family in dict.fromkeys(text_cell(e, "family") or "completion" for e in summary):
        part = [e for e in summary if (text_cell(e, "family") or "completion") == family and e["config"] == config]
        for n in sorted({row_size(e) for e in part}):
            # (density, cost, p90) of each point with a cost, by density
            tail = cost.replace("median", "p90") if cost.startswith("median") else None
            points = sorted(((number(e, "density") or 0.0, value, number(e, tail) if tail else None)
                             for e in part if e["n"] == n and (value := number(e, cost)) is not None),
                            key=lambda p: p[0])
            where = crossing(part, n, config)
            if not points or where is None:
                continue
            peak, at_peak, p90 = max(points, key=lambda p: p[1])
            grid = [density for density, _, _ in points]
            above = next((d for d in grid if d >= where), grid[-1])
            below = max((d for d in grid if d < above), default=above)
            step = max(above - below, 1e-9)
            zero = next((value for density, value, _ in points if density == 0), None)
            out.append({"family": family, "n": n, "config": config, "cost": cost, "crossing": where,
                        "peak": peak, "at_peak": at_peak, "at_zero": zero, "step": step,
                        "distance": abs(peak - where), "steps": abs(peak - where) / step,
                        "tail": p90 / at_peak if p90 and at_peak else None})
    return out


def crossing_range(summary: Sequence[Mapping[str, object]], n: int, config: str | None = None
                   ) -> tuple[float | None, float | None]:
    """Where the crossing would lie if the runs that did not finish within the limit had been decided: ``(low,
    high)``, the crossing with every unfinished instance counted as having no solution, and with every one
    counted as having one.  :func:`crossing` reads the share of the *decided* instances only, so where many
    runs did not finish it is an estimate, and the true crossing of the instances lies in this range (None
    where the share never falls to one half under that assumption).

    >>> point = {"n": 9, "config": "c", "instances": 4, "completable": 0, "impossible": 2, "unsolved": 2}
    >>> crossing_range([{**point, "density": 0.4, "completable": 4, "impossible": 0, "unsolved": 0},
    ...                 {**point, "density": 0.6}], 9)
    (0.5, 0.6)
    """
    config = config if config is not None else next((text_cell(e, "config") for e in summary), None)
    points = [e for e in summary if e["n"] == n and e["config"] == config]
    out: list[float | None] = []
    for unfinished_solvable in (False, True):
        shares = []
        for e in points:
            total = int(number(e, "instances") or 0)
            solvable = int(number(e, "completable") or 0) + (int(number(e, "unsolved") or 0) if unfinished_solvable
                                                             else 0)
            shares.append({"n": n, "config": config, "density": e["density"],
                           "completable_share": solvable / total if total else None})
        out.append(crossing(shares, n, config))
    return out[0], out[1]


def unfinished_share(summary: Sequence[Mapping[str, object]], n: int, config: str) -> list[tuple[float, float]]:
    """``(density, share of the instances whose run did not finish within the limit)`` for one n and
    configuration, by density."""
    return sorted((number(e, "density") or 0.0, (number(e, "unsolved") or 0) / (number(e, "instances") or 1))
                  for e in summary if e["n"] == n and e["config"] == config)


def stored_study(jobs: int = 2, timeout: float = STORED_TIMEOUT, parts: Sequence[StudyPart] = STORED_PARTS,
                 on_part: Callable[[StudyPart, list[PhaseEntry], float], None] | None = None
                 ) -> list[PhaseEntry]:
    """Run the stored study (:data:`STORED_PARTS`), every configuration with its number of instances
    (:data:`STORED_INSTANCES`); its summary (:func:`phase_summary`).  ``on_part(part, summary, seconds)``
    after each part."""
    import time

    summary: list[PhaseEntry] = []
    for part in parts:
        start = time.perf_counter()
        found: list[PhaseEntry] = []
        for config in part.configs:
            found += phase_summary(phase_study([Choice(*config)], [part.n], part.densities,
                                               instances=STORED_INSTANCES[config], timeout=timeout,
                                               seed=STORED_SEED, jobs=jobs, family=part.family))
        summary += found
        if on_part is not None:
            on_part(part, found, time.perf_counter() - start)
    return summary


def write_summary(summary: Sequence[Mapping[str, object]], path: str | os.PathLike[str]) -> Path:
    """The summary as a CSV (what notebook 5 stores and reads)."""
    from ..runtime.files import written_whole

    target = Path(path)
    with written_whole(target) as handle:
        writer = csv.DictWriter(handle, fieldnames=SUMMARY_COLUMNS, lineterminator="\r\n")
        writer.writeheader()
        for entry in summary:
            writer.writerow({k: entry.get(k) for k in SUMMARY_COLUMNS})
    return target


def read_summary(path: str | os.PathLike[str]) -> list[PhaseEntry]:
    """A summary CSV written by :func:`write_summary`, numbers as numbers."""
    try:
        with open(path, newline="", encoding="utf-8") as handle:
            raw = list(csv.DictReader(handle))
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror or exc}") from None
    numbers: dict[str, type[int] | type[float]] = {
        "n": int, "queens": int, "instances": int, "completable": int, "impossible": int, "unsolved": int,
        "density": float, "completable_share": float, "median_seconds": float, "par2_seconds": float,
        "time_limit": float, "median_conflicts": float, "median_nodes": float, **dict.fromkeys(SPREAD_COLUMNS, float)}
    out = []
    for row in raw:
        entry: PhaseEntry = {}
        for key, value in row.items():
            convert = numbers.get(key)
            entry[key] = (convert(value) if value not in ("", None) else None) if convert else (value or None)
        out.append(entry)
    return out


def instance_problem(family: str, n: int, density: float, seed: int = STORED_SEED, instance: int = 1) -> Problem:
    """The problem a phase study runs for one instance: the same queens or blocked cells
    :func:`phase_study` (through the sweep) draws for (family, n, density, seed, instance)."""
    if family == "completion":
        queens = min(n - 1, round(density * n))
        return Problem(n, random_preplacement(n, queens, seed, instance)) if density and queens else Problem(n)
    return Problem(n, blocked=family_cells(family, n, density, seed, instance)) if density else Problem(n)
