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
machine.  :func:`crossing` finds where half have a solution, :func:`hardest` the costliest density, and
:func:`nqueens_kit.viz.charts.plot_phase` draws both.  :data:`STORED_STUDY` is the study notebook 5 stores.

>>> from nqueens_kit.methods import Choice
>>> rows = phase_study([Choice("sat", "pairwise", "pycosat")], [6], [0.0, 0.5], instances=2, timeout=10)
>>> [(s["n"], s["density"], s["instances"]) for s in phase_summary(rows)]
[(6, 0.0, 2), (6, 0.5, 2)]
"""

from __future__ import annotations

import csv
import itertools
import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ..errors import InputError
from ..methods import Choice
from .config import choice_from_row, config_order
from .summary import censored_median, censored_times
from .sweep import run_sweep

#: The study stored with notebook 5 (``benchmarks/bench_phase.py`` runs it): per family, the board sizes and
#: the densities, denser where the family crosses one half; 20 instances per point, 10 s per run, seed 1.
STORED_STUDY: dict[str, tuple[list[int], list[float]]] = {
    "completion": ([20, 30], [i / 10 for i in range(9)]),
    "blocked": ([20, 30], [0.0, 0.2, 0.4, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9]),
    "excluded-diagonals": ([12, 16], [0.0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4]),
}
#: Its configurations: (method, variant, solver).
STORED_CONFIGS = (("sat", "sequential", "pysat-minisat"), ("sat", "pairwise", "pycosat"), ("ilp", "lines", "cbc"))

SUMMARY_COLUMNS = ("config", "method", "variant", "solver", "family", "n", "density", "queens", "instances",
                   "completable", "impossible", "unsolved", "completable_share", "median_seconds", "par2_seconds",
                   "time_limit", "median_conflicts", "median_nodes")


def phase_study(configs: Sequence[Choice], ns: Sequence[int], densities: Sequence[float], instances: int = 10,
                timeout: float = 10.0, seed: int = 0, jobs: int = 1,
                on_point: Callable[[int, float, list[dict[str, Any]]], None] | None = None,
                family: str = "completion") -> list[dict[str, Any]]:
    """Every run of the study, each row with its ``density``.  Density 0 is the plain problem (its
    instances are then the same board, timed ``instances`` times).  ``family`` ``blocked`` or
    ``excluded-diagonals`` blocks a share ``density`` of the cells or of the diagonals instead of placing
    queens."""
    if not densities or any(not 0 <= d < 1 for d in densities):
        raise InputError(f"densities must be shares of n from 0 up to (not including) 1, not {list(densities)}")
    rows: list[dict[str, Any]] = []
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


def phase_summary(rows: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Per (family, configuration, n, density): instances, how many completable / impossible / unsolved
    within the limit, the completable share (of those decided), the median (timeouts counted as longer than
    every finished run) and PAR-2 of the time, and the median search effort the solver reports (conflicts
    for python-sat, branch-and-bound nodes for ILP; counted the same way, None where the solver reports
    none)."""
    groups: dict[tuple[Any, ...], list[Mapping[str, Any]]] = {}
    configs: dict[tuple[Any, ...], Choice] = {}
    for row in rows:
        config = choice_from_row(row)
        key = (row.get("family") or "completion", config.key, int(row["n"]), float(row["density"]))
        groups.setdefault(key, []).append(row)
        configs[key] = config
    out = []
    for key in sorted(groups, key=lambda k: (k[0], config_order(configs[k]), k[2], k[3])):
        group, config = groups[key], configs[key]
        completable = sum(r["status"] == "solved" for r in group)
        impossible = sum(r["status"] == "infeasible" for r in group)
        stats = censored_times(group)
        decided = completable + impossible
        out.append({"config": config.label, "method": config.method, "variant": config.variant,
                    "solver": config.solver, "n": key[2], "density": key[3],
                    "queens": int(group[0].get("place_random") or 0), "instances": len(group),
                    "completable": completable, "impossible": impossible, "unsolved": stats["unsolved"],
                    "completable_share": completable / decided if decided else None,
                    "median_seconds": stats["median"], "par2_seconds": stats["par2"], "time_limit": stats["limit"],
                    "family": group[0].get("family") or "completion",
                    "median_conflicts": _median_effort(group, "conflicts"),
                    "median_nodes": _median_effort(group, "nodes")})
    return out


def crossing(summary: Sequence[Mapping[str, Any]], n: int, config: str | None = None) -> float | None:
    """The density at which the share of instances with a solution first falls to one half or below, for
    one n (and configuration: the first in the summary if None), interpolated linearly between the two
    densities around it; None if it never falls that far.

    >>> crossing([{"n": 9, "config": "c", "density": 0.4, "completable_share": 0.9},
    ...           {"n": 9, "config": "c", "density": 0.6, "completable_share": 0.1}], 9)
    0.5
    """
    config = config if config is not None else next((e["config"] for e in summary), None)
    points = sorted((e["density"], e["completable_share"]) for e in summary
                    if e["n"] == n and e["config"] == config and e["completable_share"] is not None)
    for (d0, s0), (d1, s1) in itertools.pairwise(points):
        if s0 > 0.5 >= s1:
            return round(d0 + (s0 - 0.5) / (s0 - s1) * (d1 - d0), 6)
    return None


def hardest(summary: Sequence[Mapping[str, Any]], n: int, config: str, cost: str = "par2_seconds"
            ) -> Mapping[str, Any] | None:
    """The summary entry of one configuration at one n where ``cost`` (a summary column) is largest."""
    entries = [e for e in summary if e["n"] == n and e["config"] == config and e.get(cost) is not None]
    return max(entries, key=lambda e: e[cost]) if entries else None


#: The cost a finding is read from: the solver's own effort where it reports one, else PAR-2 time.
EFFORT_COLUMNS = ("median_conflicts", "median_nodes", "par2_seconds")


def findings(summary: Sequence[Mapping[str, Any]], near: float = 0.1) -> list[dict[str, Any]]:
    """Where the hard instances are, per (family, n, configuration): the ``crossing`` (:func:`crossing`),
    the ``cost`` read (the first of :data:`EFFORT_COLUMNS` the configuration has at every density of that n:
    CBC, for one, counts no nodes when its presolve proves a point infeasible), the ``hardest`` density,
    its cost ``at_hardest`` and ``at_zero`` (density 0, the plain board), and ``near``: whether the costliest
    density lies within ``near`` of the crossing."""
    out = []
    families = dict.fromkeys(e.get("family") or "completion" for e in summary)
    for family in families:
        part = [e for e in summary if (e.get("family") or "completion") == family]
        for n in sorted({e["n"] for e in part}):
            where = crossing(part, n)
            for config in dict.fromkeys(e["config"] for e in part):
                points = [e for e in part if e["config"] == config and e["n"] == n]
                cost = next((c for c in EFFORT_COLUMNS if points and all(e.get(c) is not None for e in points)),
                            None)
                top = hardest(part, n, config, cost) if cost else None
                if cost is None or top is None:
                    continue
                zero = next((e.get(cost) for e in part if e["config"] == config and e["n"] == n
                             and e["density"] == 0), None)
                out.append({"family": family, "n": n, "config": config, "crossing": where, "cost": cost,
                            "hardest": top["density"], "at_hardest": top[cost], "at_zero": zero,
                            "near": where is not None and abs(top["density"] - where) <= near + 1e-9})
    return out


def _median_effort(group: Sequence[Mapping[str, Any]], column: str) -> float | None:
    """The median of a reported count over the runs of a point.  A run that did not finish counts as more
    than every finished one (as for the median time), so the median exists while fewer than half are
    unfinished; None if it does not, or if a finished run reported no count."""
    values: list[float] = []
    for row in group:
        if row["status"] in ("solved", "infeasible"):
            value = row.get(column)
            if not isinstance(value, (int, float)) or isinstance(value, bool):
                return None
            values.append(float(value))
    return censored_median(values, len(group) - len(values))


def write_summary(summary: Sequence[Mapping[str, Any]], path: str | os.PathLike[str]) -> Path:
    """The summary as a CSV (what notebook 5 stores and reads)."""
    target = Path(path)
    try:
        with open(target, "w", newline="", encoding="utf-8") as handle:
            writer = csv.DictWriter(handle, fieldnames=SUMMARY_COLUMNS)
            writer.writeheader()
            for entry in summary:
                writer.writerow({k: entry.get(k) for k in SUMMARY_COLUMNS})
    except OSError as exc:
        raise InputError(f"cannot write {target}: {exc.strerror or exc}") from None
    return target


def read_summary(path: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """A summary CSV written by :func:`write_summary`, numbers as numbers."""
    try:
        with open(path, newline="", encoding="utf-8") as handle:
            raw = list(csv.DictReader(handle))
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror or exc}") from None
    numbers = {"n": int, "queens": int, "instances": int, "completable": int, "impossible": int, "unsolved": int,
               "density": float, "completable_share": float, "median_seconds": float, "par2_seconds": float,
               "time_limit": float, "median_conflicts": float, "median_nodes": float}
    out = []
    for row in raw:
        entry: dict[str, Any] = {}
        for key, value in row.items():
            convert = numbers.get(key)
            entry[key] = (convert(value) if value not in ("", None) else None) if convert else (value or None)
        out.append(entry)
    return out
