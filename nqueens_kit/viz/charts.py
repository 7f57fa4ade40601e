"""Charts of timing results; every function returns a :class:`matplotlib.figure.Figure`.

- :func:`plot_time`, :func:`plot_size`, :func:`plot_build_solve`: the results of a timing sweep
  (rows from :func:`nqueens_kit.bench.run_sweep` or :func:`nqueens_kit.bench.read_results`).
- :func:`plot_cactus`, :func:`plot_ecdf`: runs finished against time, as the SAT competition shows them.
- :func:`plot_phase`: a phase-transition study (:mod:`nqueens_kit.bench.phase`);
  :func:`plot_phase_effort`: its effort per n (the peak moving) and spread (the heavy tail).
- :func:`save_figure` (from :mod:`nqueens_kit.viz.figure`): PNG, SVG or PDF by the file's suffix.

Every configuration is drawn as its method says (:func:`nqueens_kit.viz.style.plot_styles`), so a method
added to the registry appears in its own colour without a change here.

>>> rows = [{"n": 8, "method": "sat", "encoding": "pairwise", "solver": "pycosat", "repeat": 1,
...          "status": "solved", "build_seconds": 0.01, "solve_seconds": 0.02, "total_seconds": 0.03}]
>>> plot_time(rows).axes[0].get_yscale()
'log'
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Literal

from ..runtime.extras import needs_extra

try:
    from matplotlib import pyplot as plt
    from matplotlib.axes import Axes
    from matplotlib.axis import Axis
    from matplotlib.figure import Figure
    from matplotlib.lines import Line2D
    from matplotlib.ticker import FuncFormatter, LogFormatter, MaxNLocator, NullFormatter
except ModuleNotFoundError as missing:  # pip install nqueens-kit leaves matplotlib out: name the extra
    raise needs_extra(missing, __name__) from None

from ..errors import InputError, NQueensError
from ..methods import Choice, get_method
from ..methods.rows import choice_from_row, config_order
from ..methods.summary import crossing as half_crossing
from ..methods.summary import summarise
from ..problem.board import Problem
from .figure import FIGURE_SUFFIXES, figure_of, new_axes, save_figure
from .style import OKABE_ITO, plot_styles, seconds_text

OKABE_BLUE, OKABE_VERMILLION = OKABE_ITO["blue"], OKABE_ITO["vermillion"]

__all__ = [
    "FIGURE_SUFFIXES", "plot_build_solve", "plot_cactus", "plot_ecdf", "plot_phase", "plot_phase_effort",
    "plot_size", "plot_time", "save_figure",
]

#: The sizes a results row may record, each a panel of :func:`plot_size` when some row has it.
SIZE_COLUMNS = ("variables", "clauses", "constraints")


def _seconds_formatter(zero: str = "") -> FuncFormatter:
    """Tick labels in human time units (``50 µs``, ``2 ms``, ``1.5 s``); ``zero`` for 0 and below."""
    return FuncFormatter(lambda value, _pos: seconds_text(value) if value > 0 else zero)


def _seconds_log_formatter() -> LogFormatter:
    """Minor ticks of a log axis of seconds: matplotlib's choice of which to label (all of them on an axis
    spanning a fraction of a decade, some on one spanning about a decade, none on a wider one), written as
    times (``600 ms``), not as powers of ten (``6×10⁻¹``) beside the major ticks' ``100 ms``.  The class is
    made when a figure is drawn: in a browser without matplotlib, importing this module must still work."""

    class SecondsLogFormatter(LogFormatter):
        def _num_to_string(self, x: float, vmin: float, vmax: float) -> str:
            return seconds_text(x)

    return SecondsLogFormatter(labelOnlyBase=False)


def _seconds_axis(axis: Axis, zero: str = "") -> None:
    """Label every tick of ``axis`` (seconds, linear or log; its scale set first) as a time."""
    axis.set_major_formatter(_seconds_formatter(zero))
    axis.set_minor_formatter(_seconds_log_formatter() if axis.get_scale() == "log" else NullFormatter())


#: A legend with more entries than this moves beside the axes, in columns of up to LEGEND_COLUMN_ROWS.
LEGEND_INSIDE = 12
LEGEND_COLUMN_ROWS = 20
#: The width (inches) a figure grows by for each legend column beside its axes.
LEGEND_COLUMN_INCHES = 2.4
#: Where a legend goes when it fits inside the axes.
LegendPlace = Literal["best", "upper left", "lower right"]


def _legend(ax: Axes, loc: LegendPlace, own: bool, handles: list[Any] | None = None,
            labels: list[str] | None = None) -> None:
    """A legend inside the axes at ``loc``, or, when it is long, beside them in columns (the figure widened by
    as much when it is ``own``, made here), so that a sweep of many configurations keeps its plot readable."""
    if handles is None or labels is None:
        handles, labels = ax.get_legend_handles_labels()
    if len(labels) <= LEGEND_INSIDE:
        ax.legend(handles, labels, fontsize="small", loc=loc)
        return
    columns = math.ceil(len(labels) / LEGEND_COLUMN_ROWS)
    if own:
        fig = figure_of(ax)
        fig.set_figwidth(fig.get_figwidth() + LEGEND_COLUMN_INCHES * columns)
    ax.legend(handles, labels, fontsize="x-small", loc="upper left", bbox_to_anchor=(1.01, 1.0), ncols=columns)


def _choice_of(entry: Mapping[str, Any]) -> Choice:
    """The configuration of a summary entry."""
    return Choice(entry["method"], entry.get("variant"), entry.get("solver"), entry.get("settings"))


def _summary(rows: Sequence[Mapping[str, object]]) -> list[dict[str, Any]]:
    if not rows:
        raise InputError("no results to plot: the sweep has no rows")
    return summarise(rows)


def _by_config(summary: Sequence[Mapping[str, Any]]) -> dict[str, list[Mapping[str, Any]]]:
    groups: dict[str, list[Mapping[str, Any]]] = {}
    for entry in summary:
        groups.setdefault(entry["config"], []).append(entry)
    for entries in groups.values():
        entries.sort(key=lambda e: e["n"])
    return groups


def _log_scale_if_positive(ax: Axes, axis: str, empty: str) -> None:
    """A log scale on ``axis`` when something positive is drawn on it; otherwise a note says why it is empty."""
    values = []
    for line in ax.get_lines():
        data = line.get_ydata() if axis == "y" else line.get_xdata()
        for value in data:  # type: ignore[union-attr]
            try:
                number = float(value)  # type: ignore[arg-type]
            except (TypeError, ValueError):
                continue
            if math.isfinite(number) and number > 0:
                values.append(number)
    if values:
        (ax.set_yscale if axis == "y" else ax.set_xscale)("log")
    else:
        ax.text(0.5, 0.5, empty, transform=ax.transAxes, ha="center", va="center", color="0.4")


def _positive(values: Iterable[float | None]) -> list[float]:
    """Values for a log axis: missing and non-positive ones become NaN (a gap) rather than warnings."""
    return [v if v is not None and v > 0 else math.nan for v in values]


def plot_time(
    rows: Sequence[Mapping[str, object]],
    metric: str = "total",
    ax: Axes | None = None,
    title: str | None = None,
) -> Figure:
    """Median time against n on a log scale, one line per configuration with a min–max band.

    ``metric`` is ``total`` (build + solve, measured in the worker), ``solve`` or ``build``.  Runs that hit
    the time limit are marked with an x at the limit (a dashed line); a median that is itself a timeout
    (more than half the repeats) leaves a gap in the line.
    """
    if metric not in ("total", "solve", "build"):
        raise InputError(f"metric must be total, solve or build, not {metric!r}")
    summary = _summary(rows)
    own = ax is None
    fig, ax = new_axes(ax, (8, 5))
    limits = [e["time_limit"] for e in summary if e["timeouts"] and e["time_limit"]]
    repeats = max((e["runs"] for e in summary), default=1)
    fewest = min((e["runs"] for e in summary), default=1)  # a partial sweep: some points have fewer runs
    groups = _by_config(summary)
    looks = plot_styles(_choice_of(entries[0]) for entries in groups.values())
    for label, entries in groups.items():
        ns = [e["n"] for e in entries]
        look = looks[_choice_of(entries[0])]
        (line,) = ax.plot(ns, _positive(e[f"{metric}_median"] for e in entries), markersize=5, label=label, **look)
        colour = line.get_color()
        low = _positive(e[f"{metric}_min"] for e in entries)
        high = _positive((e["time_limit"] if e["timeouts"] and metric == "total" else e[f"{metric}_max"])
                         for e in entries)
        if repeats > 1:
            ax.fill_between(ns, low, high, color=colour, alpha=0.18, linewidth=0)
        timed_out = [e for e in entries if e["timeouts"]]
        if timed_out:
            ax.plot([e["n"] for e in timed_out], [e["time_limit"] or math.nan for e in timed_out],
                    linestyle="none", marker="x", markersize=9, markeredgewidth=2, color=colour)
    handles, labels = ax.get_legend_handles_labels()
    if limits:
        limit = max(limits)
        ax.axhline(limit, color="0.4", linestyle="--", linewidth=1)
        handles.append(Line2D([], [], color="0.3", linestyle="--", marker="x", markersize=8, markeredgewidth=2))
        labels.append(f"time limit ({limit:g} s): x = timed out")
    _log_scale_if_positive(ax, "y", "no finished run took a measurable time")
    _seconds_axis(ax.yaxis)
    ax.set_xlabel("n (board size)")
    what = {"total": "build + solve", "solve": "solve", "build": "build"}[metric]
    runs = f"{fewest}–{repeats}" if fewest != repeats else f"{repeats}"
    ax.set_ylabel(f"{what} time" + (f"\n(median of {runs}; band: min–max)" if repeats > 1 else ""))
    ax.grid(True, which="major", alpha=0.4)
    ax.grid(True, which="minor", alpha=0.12)
    _legend(ax, "best", own, handles, labels)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    sizes = {e["n"] for e in summary}
    if len(sizes) == 1:  # one n (a sweep's first rows): its own tick, not a degenerate axis of 3.80 ... 4.20
        (only,) = sizes
        ax.set_xlim(only - 1, only + 1)
        ax.set_xticks([only])
    ax.set_title(title or f"Time against board size ({what})", fontsize="large")
    return fig


#: Closed-form size curves are drawn up to this n (each point costs O(n); larger runs still show as dots).
CURVE_MAX_N = 5000


def _curve_points(low: int, high: int, count: int = 160) -> list[int]:
    """About ``count`` whole numbers from low to high, evenly spread on a log axis (all of them if fewer)."""
    low = max(1, low)
    if high - low <= count:
        return list(range(low, high + 1))
    ratio = (high / low) ** (1 / (count - 1))
    return sorted({min(high, round(low * ratio**i)) for i in range(count)} | {low, high})


def _placed(n: int, k: int) -> tuple[tuple[int, int], ...] | None:
    """``k`` queens that do not attack each other on an n x n board (row i, column 2i - 1), or None where they
    do not fit: a size prediction depends on how many queens are placed, not where."""
    if 2 * k - 1 > n:
        return None
    return tuple((i, 2 * i - 1) for i in range(1, k + 1))


def _predicted(choice: Choice, ns: Sequence[int], placed: int) -> list[object]:
    """The method's closed-form size (:meth:`~nqueens_kit.methods.Method.size`) at each n, with ``placed``
    queens placed; None where it predicts nothing."""
    method = get_method(choice.method)
    sizes: list[object] = []
    for n in ns:
        cells = _placed(n, placed)
        try:
            sizes.append(None if cells is None else method.size(Problem(n, cells), choice))
        except NQueensError:
            sizes.append(None)
    return sizes


def plot_size(rows: Sequence[Mapping[str, object]], title: str | None = None) -> Figure:
    """Problem size against n (log-log): a panel for each size the rows record (:data:`SIZE_COLUMNS`), a
    colour for each (method, variant); dots where runs measured it, and a line where the method predicts it in
    closed form (:meth:`~nqueens_kit.methods.Method.size`, what the size guard checks), so the prediction can
    be seen to pass through the measurements."""
    summary = _summary(rows)
    groups: dict[tuple[str, str | None, int], list[Mapping[str, Any]]] = {}
    for entry in summary:
        if any(entry.get(column) for column in SIZE_COLUMNS):
            groups.setdefault((entry["method"], entry["variant"], int(entry["place_random"] or 0)), []).append(entry)
    panels = [c for c in SIZE_COLUMNS if any(e.get(c) for entries in groups.values() for e in entries)]
    if not panels:
        fig, ax = new_axes(None, (6, 3))
        ax.text(0.5, 0.5, f"no run recorded a size ({', '.join(SIZE_COLUMNS)}): nothing to plot", ha="center",
                va="center")
        ax.set_axis_off()
        return fig
    fig, axes = plt.subplots(1, len(panels), figsize=(4.6 * len(panels), 4.2), layout="constrained",
                             squeeze=False)
    plt.close(fig)
    axes_by = dict(zip(panels, axes[0], strict=True))
    ns_all = sorted({int(e["n"]) for entries in groups.values() for e in entries})
    dense = _curve_points(ns_all[0], min(ns_all[-1], CURVE_MAX_N))
    looks = plot_styles(Choice(method, variant) for method, variant, _ in groups)
    predicted: set[str] = set()
    for (method, variant, placed), entries in groups.items():
        look = looks[Choice(method, variant)]
        name = get_method(method).label(Choice(method, variant)) + (f" ({placed} placed)" if placed else "")
        by_n = {int(e["n"]): e for e in reversed(entries)}  # the first entry of each n
        measured = sorted(by_n.values(), key=lambda e: e["n"])
        curve = _predicted(_choice_of(entries[0]), dense, placed)
        for panel, ax in axes_by.items():
            points = [(e["n"], e[panel]) for e in measured if e.get(panel)]
            if not points:
                continue
            values = [getattr(size, panel, None) if size is not None else None for size in curve]
            if any(values):
                ax.plot(dense, [v if v else math.nan for v in values], color=look["color"],
                        linestyle=look["linestyle"], linewidth=1.2, label=name)
                predicted.add(panel)
                ax.plot(*zip(*points, strict=True), linestyle="none", marker="o", markersize=4, color=look["color"])
            else:
                ax.plot(*zip(*points, strict=True), linestyle=look["linestyle"], linewidth=1, marker="o",
                        markersize=4, color=look["color"], label=name)
    plain = FuncFormatter(lambda value, _pos: f"{value:,.0f}" if value >= 1 else f"{value:g}")
    ticks = [t for t in (1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024) if ns_all[0] <= t <= ns_all[-1]]
    for panel, ax in axes_by.items():
        ax.set_xscale("log")
        _log_scale_if_positive(ax, "y", f"no row has a positive number of {panel}")
        # Plain numbers rather than 4×10⁰: the axes are read by students, not typeset for a paper.
        ax.set_xticks(sorted({ns_all[0], *ticks, ns_all[-1]}))
        ax.xaxis.set_major_formatter(plain)
        ax.xaxis.set_minor_formatter(NullFormatter())
        ax.yaxis.set_major_formatter(plain)
        low, high = ax.get_ylim()
        # Within about one decade there is at most one major tick, so the minor ticks carry the labels.
        ax.yaxis.set_minor_formatter(plain if high < 15 * low else NullFormatter())
        ax.set_xlabel("n (board size)")
        ax.set_ylabel(panel)
        # The panel names what it counts; what lines and dots mean goes once under the title (long panel
        # titles collided with each other and were clipped at the figure's edge).
        ax.set_title(panel, fontsize="medium")
        ax.grid(True, which="both", alpha=0.25)
    pairs = [(label, handle) for ax in axes_by.values()
             for handle, label in zip(*ax.get_legend_handles_labels(), strict=True)]
    first = {label: handle for label, handle in reversed(pairs)}  # the first handle of each label
    legend = {label: first[label] for label, _ in pairs}  # in the order the labels first appear
    if legend:  # one legend for every panel, below them, so it can cover neither a curve nor the title
        fig.legend(list(legend.values()), list(legend), loc="outside lower center", fontsize="small",
                   ncols=min(len(legend), 3))
    unpredicted = [panel for panel in panels if panel not in predicted]
    note = "lines: closed form, dots: measured" if predicted else "dots: measured"
    if predicted and unpredicted:
        note += f"; {', '.join(unpredicted)}: measured only"
    fig.suptitle(f"{title}\n({note})" if title else note, fontsize="medium" if title else "small")
    return fig


def plot_build_solve(rows: Sequence[Mapping[str, object]], title: str | None = None) -> Figure:
    """Median build time and solve time stacked per n, one panel per configuration.

    Where the lower bar (building the formula or model in Python) is the larger, the encoding, not the
    solver, dominates the cost.
    """
    summary = _summary(rows)
    groups = _by_config(summary)
    count = len(groups)
    ncols = min(3, count)
    nrows = math.ceil(count / ncols)
    fig, axes = plt.subplots(nrows, ncols, figsize=(4.4 * ncols, 3.4 * nrows), layout="constrained",
                             squeeze=False)
    plt.close(fig)
    flat = [ax for row in axes for ax in row]
    for ax, (label, everything) in zip(flat, groups.items(), strict=False):
        entries = [e for e in everything if e["build_median"] is not None and e["solve_median"] is not None]
        ns = [e["n"] for e in entries]
        all_ns = [e["n"] for e in everything]
        gaps = [b - a for a, b in zip(all_ns, all_ns[1:], strict=False)]
        width = 0.8 * (min(gaps) if gaps else 1)
        build = [e["build_median"] for e in entries]
        solve = [e["solve_median"] for e in entries]
        ax.bar(ns, build, width=width, color="#8d6e63", label="build (encode in Python)")
        ax.bar(ns, solve, width=width, bottom=build, color="#42a5f5", label="solve")
        for e in everything:
            if e["build_median"] is None and e["timeouts"]:
                ax.text(e["n"], 0, " timeout", rotation=90, ha="center", va="bottom", fontsize="x-small", color="0.3")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_xlim(all_ns[0] - width, all_ns[-1] + width)
        ax.set_title(label, fontsize="medium")
        ax.set_xlabel("n (board size)")
        ax.set_ylabel("time (median)")
        _seconds_axis(ax.yaxis, "0")
        ax.grid(True, axis="y", alpha=0.3)
        if not entries:
            ax.text(0.5, 0.5, "no completed runs", ha="center", va="center", transform=ax.transAxes)
    for ax in flat[count:]:
        ax.set_axis_off()
    # One legend for all panels, in a free panel if there is one, else under them: inside a panel it covered
    # the tallest (largest-n) bar.
    handles, labels = flat[0].get_legend_handles_labels()
    if count < len(flat):
        flat[count].legend(handles, labels, loc="center", fontsize="medium")
    else:
        fig.legend(handles, labels, loc="outside lower center", ncols=2, fontsize="small")
    fig.suptitle(title or "Build time and solve time (stacked)", fontsize="large")
    return fig


def _finished_times(rows: Sequence[Mapping[str, object]]) -> dict[str, tuple[Choice, list[float], int]]:
    """Per configuration label: its configuration, the sorted total times of its finished runs, and its run
    count."""
    groups: dict[str, tuple[Choice, list[float], list[int]]] = {}
    for row in rows:
        config = choice_from_row(row)
        entry = groups.setdefault(config.label, (config, [], [0]))
        entry[2][0] += 1
        seconds = row.get("total_seconds")
        if row.get("status") in ("solved", "infeasible") and isinstance(seconds, (int, float, str)):
            entry[1].append(float(seconds))
    ordered = sorted(groups.values(), key=lambda g: config_order(g[0]))
    return {config.label: (config, sorted(times), count[0]) for config, times, count in ordered}


def plot_cactus(rows: Sequence[Mapping[str, object]], ax: Axes | None = None, title: str | None = None) -> Figure:
    """The SAT competition's cactus plot: for each configuration, its finished runs sorted by time, so the
    curve at x = k is the time within which it finished k runs; further right and lower is better.  Runs
    that hit the limit never appear, so a curve that stops early is a configuration that left runs unsolved.
    """
    groups = _finished_times(rows)
    looks = plot_styles(config for config, _, _ in groups.values())
    own = ax is None
    fig, ax = new_axes(ax, (8, 5))
    for label, (config, times, _count) in groups.items():
        if times:
            ax.plot(range(1, len(times) + 1), times, markersize=4, label=label, **looks[config])
    _log_scale_if_positive(ax, "y", "no finished run took a measurable time")
    _seconds_axis(ax.yaxis)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("runs finished (solved or proved impossible)")
    ax.set_ylabel("time within which they finished")
    ax.grid(True, which="major", alpha=0.4)
    if any(times for _, times, _ in groups.values()):
        _legend(ax, "upper left", own)
    ax.set_title(title or "Cactus plot: runs finished against time", fontsize="large")
    return fig


def plot_ecdf(rows: Sequence[Mapping[str, object]], ax: Axes | None = None, title: str | None = None) -> Figure:
    """Empirical distribution of run times: for each configuration, the share of *all* its runs finished
    within t (a step function).  It stays below 1 when runs hit the limit, which PAR-2 then penalises."""
    groups = _finished_times(rows)
    looks = plot_styles(config for config, _, _ in groups.values())
    own = ax is None
    fig, ax = new_axes(ax, (8, 5))
    for label, (config, times, count) in groups.items():
        look = looks[config]
        if times and count:
            ax.step(times, [k / count for k in range(1, len(times) + 1)], where="post", label=label,
                    color=look["color"], linestyle=look["linestyle"])
    _log_scale_if_positive(ax, "x", "no finished run took a measurable time")
    _seconds_axis(ax.xaxis)
    ax.set_ylim(0, 1.02)
    ax.set_xlabel("time")
    ax.set_ylabel("share of runs finished within it")
    ax.grid(True, which="major", alpha=0.4)
    if any(times for _, times, _ in groups.values()):
        _legend(ax, "lower right", own)
    ax.set_title(title or "Run times: empirical distribution (ECDF)", fontsize="large")
    return fig


#: What the x axis of a phase-transition plot measures, per instance family.
PHASE_AXIS = {"completion": "density of pre-placed queens (k / n)", "blocked": "share of cells blocked",
              "excluded-diagonals": "share of diagonals excluded"}
#: The title of a phase-transition plot, per instance family.
PHASE_TITLES = {"completion": "N-queens completion", "blocked": "Blocked N-queens",
                "excluded-diagonals": "N-queens with excluded diagonals"}
#: The cost a phase-transition plot can draw: summary column and axis label.
PHASE_COSTS = {"seconds": ("median_seconds", "median time"), "conflicts": ("median_conflicts", "median conflicts"),
               "nodes": ("median_nodes", "median branch-and-bound nodes")}


def plot_phase(summary: Sequence[Mapping[str, Any]], title: str | None = None, cost: str = "seconds") -> Figure:
    """A phase-transition study (:func:`nqueens_kit.bench.phase.phase_summary`): left, the share of random
    instances that have a solution against the density, one line per n; right, the median cost per
    configuration against density at the largest n: ``cost`` ``seconds`` (PAR-2 dashed), ``conflicts`` (the
    SAT solvers that count them) or ``nodes`` (ILP).  A dotted line marks where half can be completed.  The
    share is of the instances decided within the limit; where some were not, the share of those unfinished is
    drawn dashed in the colour of its n (the share, and so the crossing, is then an estimate)."""
    if cost not in PHASE_COSTS:
        raise InputError(f"unknown cost {cost!r}; valid: {', '.join(PHASE_COSTS)}")
    column, cost_label = PHASE_COSTS[cost]
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4.2), layout="constrained")
    plt.close(fig)
    ns = sorted({int(e["n"]) for e in summary})
    first = next((e["config"] for e in summary), None)
    family = next((e.get("family") for e in summary if e.get("family")), None) or "completion"
    axis = PHASE_AXIS.get(family, "density")
    greys = plt.get_cmap("viridis")
    for i, n in enumerate(ns):
        points = sorted((e["density"], e["completable_share"]) for e in summary
                        if e["n"] == n and e["config"] == first and e["completable_share"] is not None)
        if points:
            left.plot(*zip(*points, strict=True), marker="o", color=greys(i / max(1, len(ns) - 1) * 0.85),
                      label=f"n = {n}")
        unfinished = sorted((e["density"], (e.get("unsolved") or 0) / e["instances"]) for e in summary
                            if e["n"] == n and e["config"] == first and e.get("instances"))
        if any(share for _, share in unfinished):
            left.plot(*zip(*unfinished, strict=True), linestyle="--", linewidth=1.4, marker="x", markersize=4,
                      color=greys(i / max(1, len(ns) - 1) * 0.85), label=f"n = {n}: share not finished")
    left.axhline(0.5, color="0.6", linestyle=":", linewidth=1)
    left.set_ylim(-0.03, 1.03)
    left.set_xlabel(axis)
    left.set_ylabel("share that has a solution (of those decided)")
    left.grid(True, alpha=0.3)
    if ns:
        left.legend(fontsize="small")
        largest = ns[-1]
        looks = plot_styles(_choice_of(e) for e in summary)
        for label in dict.fromkeys(e["config"] for e in summary):
            entries = sorted((e for e in summary if e["n"] == largest and e["config"] == label),
                             key=lambda e: e["density"])
            if not entries or all(e.get(column) is None for e in entries):
                continue
            look = looks[_choice_of(entries[0])]
            right.plot([e["density"] for e in entries], [math.nan if e.get(column) is None else e[column]
                                                         for e in entries],
                       label=label, **look)
            if cost == "seconds":
                right.plot([e["density"] for e in entries], [e["par2_seconds"] or math.nan for e in entries],
                           color=look["color"], linestyle="--", linewidth=1, alpha=0.6)
        crossing = half_crossing(summary, largest, first)
        if crossing is not None:
            right.axvline(crossing, color="0.5", linestyle=":", linewidth=1)
        _log_scale_if_positive(right, "y", "no finished run took a measurable time" if cost == "seconds"
                               else f"no configuration reports {cost}")
        if cost == "seconds":
            _seconds_axis(right.yaxis)
        right.set_xlabel(axis)
        right.set_ylabel(f"{cost_label} at n = {largest}" + (" (PAR-2 dashed)" if cost == "seconds" else ""))
        right.grid(True, alpha=0.3)
        right.legend(fontsize="small")
    fig.suptitle(title or f"{PHASE_TITLES.get(family, family)}: the phase transition", fontsize="large")
    return fig




def plot_phase_effort(summary: Sequence[Mapping[str, Any]], config: str | None = None, cost: str = "conflicts",
                      title: str | None = None, density: float | None = None,
                      figsize: tuple[float, float] = (10, 4.4)) -> Figure:
    """The effort of one configuration across a phase-transition study of one family, after Gent, Jefferson
    and Nightingale (2017): left, the median ``cost`` (``conflicts`` or ``nodes``, the solver's own count)
    against the density, one line per n, each n's crossing marked by a dotted line in its colour, so the peak
    is seen moving with n; right, at the largest n, the spread of the same count over the instances of each
    density: the middle half (percentiles 25 to 75) and percentiles 10 to 90 as bands, the median, and the
    largest as dots (the heavy tail).  ``density`` draws a marker at that density on both panels; ``figsize``
    in inches (an app draws it at the size it shows it, so the text is not scaled down)."""
    if cost not in ("conflicts", "nodes"):
        raise InputError(f"unknown cost {cost!r}; valid: conflicts, nodes")
    if config is None:  # the first configuration that reports the count
        config = next((e["config"] for e in summary if e.get(f"median_{cost}") is not None),
                      next((e["config"] for e in summary), None))
    points = [e for e in summary if e["config"] == config]
    if not points:
        raise InputError("plot_phase_effort needs a summary with at least one point of the configuration")
    family = next((e.get("family") for e in points if e.get("family")), None) or "completion"
    ns = sorted({int(e["n"]) for e in points})
    colours = plt.get_cmap("viridis")
    fig, (left, right) = plt.subplots(1, 2, figsize=figsize, layout="constrained")
    plt.close(fig)
    for i, n in enumerate(ns):
        colour = colours(i / max(1, len(ns) - 1) * 0.85)
        at = sorted((e for e in points if e["n"] == n), key=lambda e: e["density"])
        left.plot([e["density"] for e in at], _positive(e.get(f"median_{cost}") for e in at), marker="o",
                  markersize=4, color=colour, label=f"n = {n}")
        where = half_crossing(points, n, config)
        if where is not None:
            left.axvline(where, color=colour, linestyle=":", linewidth=1.4)
    _log_scale_if_positive(left, "y", f"no point reports {cost}")
    axis = PHASE_AXIS.get(family, "density")
    left.set_xlabel(axis)
    left.set_ylabel(f"median {cost}")
    left.grid(True, alpha=0.3)
    left.plot([], [], color="0.4", linestyle=":", label="half solvable")
    largest = max((n for n in ns if any(e["n"] == n and e.get(f"median_{cost}") is not None for e in points)),
                  default=ns[-1])
    at = sorted((e for e in points if e["n"] == largest), key=lambda e: e["density"])
    xs = [e["density"] for e in at]

    def column(q: str) -> list[float]:
        return _positive(e.get(f"{q}_{cost}") for e in at)

    for low, high, alpha, label in (("p10", "p90", 0.18, "percentiles 10 to 90"), ("p25", "p75", 0.35, "middle half")):
        bottom, top = column(low), column(high)
        if any(math.isfinite(b) and math.isfinite(t) for b, t in zip(bottom, top, strict=True)):
            right.fill_between(xs, bottom, top, color=OKABE_BLUE, alpha=alpha, linewidth=0, label=label)
    right.plot(xs, column("median"), color=OKABE_BLUE, marker="o", markersize=4, label="median")
    right.plot(xs, column("max"), linestyle="none", marker="v", color=OKABE_VERMILLION, label="largest")
    where = half_crossing(points, largest, config)
    if where is not None:
        right.axvline(where, color="0.4", linestyle=":", linewidth=1.4)
    _log_scale_if_positive(right, "y", f"no point reports {cost}")
    right.set_xlabel(axis)
    right.set_ylabel(f"{cost} (n = {largest})")
    right.grid(True, alpha=0.3)
    # one legend under both panels: inside, a legend would cover the curves near the crossing, where they matter
    handles = [h for ax in (left, right) for h in ax.get_legend_handles_labels()[0]]
    labels = [text for ax in (left, right) for text in ax.get_legend_handles_labels()[1]]
    fig.legend(handles, labels, loc="outside lower center", ncols=min(5 if figsize[0] >= 9 else 3, len(labels)),
               fontsize="small",
               frameon=False, columnspacing=1.0, handlelength=1.6)
    if density is not None:
        for ax in (left, right):
            ax.axvline(density, color="0.1", linewidth=2.0, alpha=0.5)
    fig.suptitle(textwrap.fill(title or f"{PHASE_TITLES.get(family, family)}: {cost} of {config}",
                               round(figsize[0] * 8), break_on_hyphens=False), fontsize="large")
    return fig
