"""Figures of boards and of timing results; every function returns a :class:`matplotlib.figure.Figure`.

Inside:

- :func:`draw_board`: a chessboard with queens (pre-placed ones in another colour), optional attack lines,
  and highlighted cells (the cells of one line or clause, say).  Glyphs up to n = 64, dots beyond.
- :func:`draw_gallery`: many boards in a grid (e.g. the 12 fundamental solutions of n = 8).
- :func:`heatmap`: a value per cell (an LP relaxation's fractional queens) with a colour bar.
- :func:`plot_time`, :func:`plot_size`, :func:`plot_build_solve`: the results of a timing sweep
  (rows from :func:`nqueens_kit.bench.run_sweep` or :func:`nqueens_kit.bench.read_results`).
- :func:`save_figure`: PNG, SVG or PDF by the file's suffix.

Figures are made with ``plt.subplots`` and closed at once, so nothing pops up and nothing accumulates:
a notebook still shows a returned figure, and a script saves it with :func:`save_figure`.

>>> fig = draw_board(4, [(1, 2), (2, 4), (3, 1), (4, 3)], preplaced=[(1, 2)])
>>> ax = fig.axes[0]
>>> len(ax.texts), [float(x) for x in ax.get_xlim()]
(4, [0.5, 4.5])
>>> rows = [{"n": 8, "method": "sat", "encoding": "pairwise", "solver": "pycosat", "repeat": 1,
...          "status": "solved", "build_seconds": 0.01, "solve_seconds": 0.02, "total_seconds": 0.03}]
>>> plot_time(rows).axes[0].get_yscale()
'log'
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any

from matplotlib import pyplot as plt
from matplotlib.axes import Axes
from matplotlib.collections import LineCollection
from matplotlib.colors import ListedColormap
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Rectangle
from matplotlib.ticker import FuncFormatter, MaxNLocator, NullFormatter

from ..errors import InputError
from ..problem.board import Cell, check_cell
from ..problem.board import attacks as attack_reason
from .style import OKABE_ITO, seconds_text, style_for
from .style import colour as style_colour

#: Board colours (light and dark squares), queen colours and the default highlight.
LIGHT, DARK = "#f0d9b5", "#b58863"
QUEEN_COLOUR = "#1b1b1b"
PREPLACED_COLOUR = "#1552b8"
ATTACK_COLOUR = "#d32f2f"
HIGHLIGHT_COLOUR = "#ffe14d"
#: The queen glyph (BLACK CHESS QUEEN) and the font that has it; DejaVu Sans ships with matplotlib.
QUEEN_GLYPH = "\u265b"
GLYPH_FONT = "DejaVu Sans"
#: Beyond this board size queens are dots: a glyph would be a few pixels wide.
GLYPH_LIMIT = 64
#: Boards up to this size get every row and column number; heat maps print values up to HEATMAP_TEXT_LIMIT.
LABEL_LIMIT = 20
HEATMAP_TEXT_LIMIT = 12
FIGURE_SUFFIXES = (".png", ".svg", ".pdf")

__all__ = [
    "draw_board", "draw_gallery", "heatmap", "plot_time", "plot_size", "plot_build_solve", "save_figure",
    "board_figsize",
]


# ------------------------------------------------------------------------------------------- boards


@cache
def _glyph_available() -> bool:
    """Whether the bundled font has the queen glyph (it does; checked so a stripped install still works)."""
    try:
        from matplotlib.font_manager import FontProperties, findfont
        from matplotlib.ft2font import FT2Font

        path = findfont(FontProperties(family=GLYPH_FONT), fallback_to_default=False)
        return FT2Font(path).get_char_index(ord(QUEEN_GLYPH)) != 0
    except (ValueError, OSError, RuntimeError):
        return False


def board_figsize(n: int) -> tuple[float, float]:
    """A square figure size in inches that keeps small boards small and large boards legible."""
    side = min(8.0, max(2.6, 0.4 * n + 1.0))
    return side, side


def _cells(n: int, cells: Iterable[Any], what: str) -> list[Cell]:
    result: list[Cell] = []
    for cell in cells:
        try:
            r, c = int(cell[0]), int(cell[1])
        except (TypeError, ValueError, IndexError):
            raise InputError(f"{what}: a cell is a (row, col) pair of whole numbers, not {cell!r}") from None
        check_cell((r, c), n)
        result.append((r, c))
    return result


def _ticks(n: int) -> list[int]:
    """Every row number on small boards; 1 and multiples of a round step on large ones."""
    if n <= LABEL_LIMIT:
        return list(range(1, n + 1))
    step = math.ceil(n / 8)
    return [1, *range(step, n + 1, step)]


def _figure(ax: Axes) -> Figure:
    """The figure an axes is drawn on (matplotlib types it as Figure or SubFigure)."""
    fig = ax.figure
    while not isinstance(fig, Figure):
        fig = fig.figure
    return fig


def _axes(ax: Axes | None, figsize: tuple[float, float]) -> tuple[Figure, Axes]:
    """The axes to draw on and their figure: ``ax``, or a new figure's (closed to pyplot, so a notebook shows
    the returned figure once)."""
    if ax is None:
        fig, ax = plt.subplots(figsize=figsize, layout="constrained")
        plt.close(fig)
    return _figure(ax), ax


def _seconds_formatter(zero: str = "") -> FuncFormatter:
    """Tick labels in human time units (``50 µs``, ``2 ms``, ``1.5 s``); ``zero`` for 0 and below."""
    return FuncFormatter(lambda value, _pos: seconds_text(value) if value > 0 else zero)


def _cell_points(ax: Axes, n: int) -> float:
    """The side of one square in points, from the axes' size on its figure."""
    fig = _figure(ax)
    box = ax.get_position()
    side_inches = min(box.width * fig.get_figwidth(), box.height * fig.get_figheight())
    return side_inches * 72.0 / n


def _attack_segments(n: int, queen: Cell) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """The row, column and both diagonals through a queen, from board edge to board edge (x = col, y = row)."""
    r, c = queen
    segments = [((0.5, r), (n + 0.5, r)), ((c, 0.5), (c, n + 0.5))]
    for dr, dc in ((1, 1), (1, -1)):
        back = min(r - 1 if dr > 0 else n - r, c - 1 if dc > 0 else n - c)
        fwd = min(n - r if dr > 0 else r - 1, n - c if dc > 0 else c - 1)
        r0, c0 = r - dr * (back + 0.5), c - dc * (back + 0.5)
        r1, c1 = r + dr * (fwd + 0.5), c + dc * (fwd + 0.5)
        segments.append(((c0, r0), (c1, r1)))
    return segments


def draw_board(
    n: int,
    queens: Iterable[Cell] = (),
    preplaced: Iterable[Cell] = (),
    attacks: bool | Iterable[Cell] = False,
    highlight: Iterable[Cell] | Mapping[Cell, str] | None = None,
    ax: Axes | None = None,
    title: str | None = None,
    labels: bool = True,
) -> Figure:
    """Draw an n x n chessboard with queens; returns the figure (``ax.figure`` when ``ax`` is given).

    Row 1 is at the top and column 1 on the left, as in :func:`nqueens_kit.problem.board.draw`.  Pre-placed queens
    are drawn in :data:`PREPLACED_COLOUR` (whether or not ``queens`` repeats them).  ``attacks`` draws the
    lines along which queens attack: ``True`` for every queen (readable on small boards), or a list of queens
    whose lines to draw boldly (the others' faintly); and a thick red segment between any two queens that
    attack each other.
    ``highlight`` is a set of cells (shaded yellow) or a dict cell -> colour.  ``labels`` numbers rows and
    columns.
    """
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise InputError(f"board size must be a whole number of at least 1, not {n!r}")
    queen_cells = _cells(n, queens, "queens")
    fixed = set(_cells(n, preplaced, "preplaced"))
    everyone = sorted(set(queen_cells) | fixed)
    fig, ax = _axes(ax, board_figsize(n))

    checker = [[(r + c) % 2 for c in range(n)] for r in range(n)]
    ax.imshow(checker, cmap=ListedColormap([LIGHT, DARK]), vmin=0, vmax=1,
              extent=(0.5, n + 0.5, n + 0.5, 0.5), interpolation="nearest", zorder=0)
    ax.set_xlim(0.5, n + 0.5)
    ax.set_ylim(n + 0.5, 0.5)
    ax.set_aspect("equal")

    if highlight:
        colours = highlight if isinstance(highlight, Mapping) else dict.fromkeys(highlight, HIGHLIGHT_COLOUR)
        for (r, c), colour in zip(_cells(n, colours.keys(), "highlight"), colours.values(), strict=True):
            ax.add_patch(Rectangle((c - 0.5, r - 0.5), 1, 1, facecolor=colour, edgecolor="none",
                                   alpha=0.65, zorder=1))

    if attacks is not False and everyone:
        chosen = set(everyone) if attacks is True else set(_cells(n, attacks, "attacks"))
        faint = [seg for q in everyone if q not in chosen for seg in _attack_segments(n, q)]
        bold = [seg for q in everyone if q in chosen for seg in _attack_segments(n, q)]
        if faint:
            ax.add_collection(LineCollection(faint, colors=ATTACK_COLOUR, linewidths=0.6, alpha=0.12, zorder=2))
        thick = 2.2 if len(chosen) <= 2 else 0.9
        ax.add_collection(LineCollection(bold, colors=ATTACK_COLOUR, linewidths=thick,
                                         alpha=0.75 if len(chosen) <= 2 else 0.35, zorder=2))
        clashes = [((a[1], a[0]), (b[1], b[0])) for i, a in enumerate(everyone) for b in everyone[i + 1:]
                   if attack_reason(a, b)]
        if clashes:
            ax.add_collection(LineCollection(clashes, colors=ATTACK_COLOUR, linewidths=2.5, zorder=3))

    cell_pt = _cell_points(ax, n)
    queen_colours = [PREPLACED_COLOUR if q in fixed else QUEEN_COLOUR for q in everyone]
    if n <= GLYPH_LIMIT and cell_pt >= 5 and _glyph_available():
        for (r, c), colour in zip(everyone, queen_colours, strict=True):
            ax.text(c, r, QUEEN_GLYPH, ha="center", va="center", color=colour, fontfamily=GLYPH_FONT,
                    fontsize=0.92 * cell_pt, zorder=4)
    elif everyone:
        ax.scatter([c for _, c in everyone], [r for r, _ in everyone], s=max(1.0, (0.6 * cell_pt) ** 2),
                   c=queen_colours, marker="o", linewidths=0, zorder=4)

    if labels:
        ticks = _ticks(n)
        ax.set_xticks(ticks)
        ax.set_yticks(ticks)
        ax.xaxis.tick_top()
        ax.tick_params(length=0, labelsize=max(6.0, min(10.0, 0.5 * cell_pt)))
    else:
        ax.set_xticks([])
        ax.set_yticks([])
    if title:
        ax.set_title(title, fontsize="medium")
    return fig


def draw_gallery(
    n: int,
    boards: Sequence[Iterable[Cell]],
    ncols: int | None = None,
    titles: Sequence[str] | None = None,
    preplaced: Iterable[Cell] = (),
) -> Figure:
    """Many boards of one size in a grid (``ncols`` per row, default about square), optional titles.

    >>> fig = draw_gallery(4, [[(1, 2), (2, 4), (3, 1), (4, 3)], [(1, 3), (2, 1), (3, 4), (4, 2)]])
    >>> sum(ax.axison for ax in fig.axes)
    2
    """
    boards = list(boards)
    if not boards:
        raise InputError("draw_gallery needs at least one board")
    if titles is not None and len(titles) != len(boards):
        raise InputError(f"draw_gallery got {len(titles)} titles for {len(boards)} boards; give one per board")
    ncols = ncols or math.ceil(math.sqrt(len(boards)))
    if ncols < 1:
        raise InputError(f"ncols must be at least 1, not {ncols}")
    ncols = min(ncols, len(boards))
    nrows = math.ceil(len(boards) / ncols)
    each = max(1.2, min(2.6, 12.0 / ncols))
    fig, axes = plt.subplots(nrows, ncols, figsize=(each * ncols, (each + (0.3 if titles else 0)) * nrows),
                             layout="constrained", squeeze=False)
    plt.close(fig)
    fixed = list(preplaced)
    flat = [ax for row in axes for ax in row]
    for i, ax in enumerate(flat):
        if i < len(boards):
            draw_board(n, boards[i], fixed, ax=ax, title=titles[i] if titles else None, labels=False)
        else:
            ax.set_axis_off()
    return fig


def heatmap(
    n: int,
    values: Mapping[Cell, float],
    title: str | None = None,
    ax: Axes | None = None,
    cmap: str = "Blues",
    label: str = "value",
    scale: tuple[float, float] | None = None,
    colorbar: bool = True,
) -> Figure:
    """A value per cell (missing cells are 0) with a colour bar; values are printed on boards up to 12 x 12.

    The colour scale covers 0 .. 1 (so LP relaxations of different boards compare at a glance), or
    ``scale = (low, high)``: give panels that are compared side by side the same scale.

    >>> fig = heatmap(2, {(1, 1): 0.5, (2, 2): 0.5})
    >>> [t.get_text() for t in fig.axes[0].texts]
    ['.5', '.5']
    """
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise InputError(f"board size must be a whole number of at least 1, not {n!r}")
    grid = [[0.0] * n for _ in range(n)]
    for (r, c), value in zip(_cells(n, values.keys(), "heatmap"), values.values(), strict=True):
        grid[r - 1][c - 1] = float(value)
    flat = [v for row in grid for v in row]
    vmin, vmax = scale if scale is not None else (min(0.0, *flat), max(1.0, *flat))
    side = board_figsize(n)[0]
    fig, ax = _axes(ax, (side + 1.2, side))
    image = ax.imshow(grid, cmap=cmap, vmin=vmin, vmax=vmax, extent=(0.5, n + 0.5, n + 0.5, 0.5),
                      interpolation="nearest")
    ax.set_aspect("equal")
    if n <= 40:
        edges = [((0.5, k + 0.5), (n + 0.5, k + 0.5)) for k in range(n - 1)]
        edges += [((k + 0.5, 0.5), (k + 0.5, n + 0.5)) for k in range(n - 1)]
        ax.add_collection(LineCollection(edges, colors="#9e9e9e", linewidths=0.5))
    if n <= HEATMAP_TEXT_LIMIT:
        cell_pt = _cell_points(ax, n)
        threshold = vmin + 0.6 * (vmax - vmin)
        for r in range(n):
            for c in range(n):
                value = grid[r][c]
                if abs(value) > 1e-9:
                    ax.text(c + 1, r + 1, _short(value), ha="center", va="center",
                            fontsize=max(8.0, min(13.0, 0.34 * cell_pt)),
                            color="white" if value > threshold else "black")
    ticks = _ticks(n)
    ax.set_xticks(ticks)
    ax.set_yticks(ticks)
    ax.xaxis.tick_top()
    ax.tick_params(length=0)
    if colorbar:
        fig.colorbar(image, ax=ax, label=label, shrink=0.85)
    if title:
        ax.set_title(title, fontsize="medium")
    return fig


def _short(value: float) -> str:
    """A compact number for a cell: 1, .5, .33."""
    if abs(value - round(value)) < 1e-9:
        return str(int(round(value)))
    text = f"{value:.2f}".rstrip("0")
    return text[1:] if text.startswith("0.") else text.replace("-0.", "-.")


# ----------------------------------------------------------------------------------- sweep results


def _summary(rows: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    from ..bench.summary import summarise

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
    rows: Sequence[Mapping[str, Any]],
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
    fig, ax = _axes(ax, (8, 5))
    limits = [e["time_limit"] for e in summary if e["timeouts"] and e["time_limit"]]
    repeats = max((e["runs"] for e in summary), default=1)
    for label, entries in _by_config(summary).items():
        ns = [e["n"] for e in entries]
        look = style_for(entries[0]["method"], entries[0]["variant"], entries[0]["solver"], entries[0]["settings"])
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
    ax.yaxis.set_major_formatter(_seconds_formatter())
    ax.set_xlabel("n (board size)")
    what = {"total": "build + solve", "solve": "solve", "build": "build"}[metric]
    ax.set_ylabel(f"{what} time" + (f"\n(median of {repeats}; band: min–max)" if repeats > 1 else ""))
    ax.grid(True, which="major", alpha=0.4)
    ax.grid(True, which="minor", alpha=0.12)
    ax.legend(handles, labels, fontsize="small", loc="best")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
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


def plot_size(rows: Sequence[Mapping[str, Any]], title: str | None = None) -> Figure:
    """Problem size against n (log-log): SAT variables and clauses per encoding, with the closed-form
    curves of :func:`nqueens_kit.methods.sat.cnf.predicted_size` through the measured points, and ILP constraints per
    formulation."""
    from ..methods.sat.cnf import predicted_size

    summary = _summary(rows)
    sat: dict[tuple[str, int], list[Mapping[str, Any]]] = {}
    ilp: dict[str, list[Mapping[str, Any]]] = {}
    for entry in summary:
        if entry["method"] == "sat" and entry["encoding"]:
            sat.setdefault((entry["encoding"], entry["place_random"]), []).append(entry)
        elif entry["method"] == "ilp" and entry["formulation"]:
            ilp.setdefault(entry["formulation"], []).append(entry)
    panels = (["variables", "clauses"] if sat else []) + (["constraints"] if ilp else [])
    if not panels:
        fig, ax = _axes(None, (6, 3))
        ax.text(0.5, 0.5, "no SAT or ILP rows: nothing has a size to plot", ha="center", va="center")
        ax.set_axis_off()
        return fig
    fig, axes = plt.subplots(1, len(panels), figsize=(4.6 * len(panels), 4.2), layout="constrained",
                             squeeze=False)
    plt.close(fig)
    axes_by = dict(zip(panels, axes[0], strict=True))
    ns_all = sorted({e["n"] for e in summary})
    dense = _curve_points(ns_all[0], min(ns_all[-1], CURVE_MAX_N))
    for (encoding, k), entries in sorted(sat.items()):
        colour = style_colour("sat", encoding)
        by_n: dict[int, Mapping[str, Any]] = {}
        for e in entries:
            by_n.setdefault(e["n"], e)
        measured = sorted(by_n.values(), key=lambda e: e["n"])
        curve = [predicted_size(n, encoding, k) for n in dense]
        name = encoding + (f" ({k} placed)" if k else "")
        for index, panel in enumerate(("variables", "clauses")):
            ax = axes_by[panel]
            ax.plot(dense, [size[index] for size in curve], color=colour, linewidth=1.2, label=name)
            points = [(e["n"], e[panel]) for e in measured if e[panel]]
            if points:
                ax.plot(*zip(*points, strict=True), linestyle="none", marker="o", markersize=4, color=colour)
    for formulation, entries in sorted(ilp.items()):
        colour = style_colour("ilp", formulation)
        by_n = {}
        for e in entries:
            by_n.setdefault(e["n"], e)
        points = [(e["n"], e["constraints"]) for e in sorted(by_n.values(), key=lambda e: e["n"])
                  if e["constraints"]]
        if points:
            axes_by["constraints"].plot(*zip(*points, strict=True), marker="o", markersize=4, color=colour,
                                        label=formulation)
    notes = {"variables": "SAT variables (lines: closed form, dots: measured)",
             "clauses": "SAT clauses (lines: closed form, dots: measured)",
             "constraints": "ILP constraints (measured)"}
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
        ax.set_title(notes[panel], fontsize="small")
        ax.grid(True, which="both", alpha=0.25)
        if ax.get_legend_handles_labels()[0]:
            ax.legend(fontsize="small", loc="upper left")
    if title:
        fig.suptitle(title)
    return fig


def plot_build_solve(rows: Sequence[Mapping[str, Any]], title: str | None = None) -> Figure:
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
        ax.yaxis.set_major_formatter(_seconds_formatter("0"))
        ax.grid(True, axis="y", alpha=0.3)
        if not entries:
            ax.text(0.5, 0.5, "no completed runs", ha="center", va="center", transform=ax.transAxes)
    for ax in flat[count:]:
        ax.set_axis_off()
    flat[0].legend(fontsize="small", loc="upper left")
    fig.suptitle(title or "Build time and solve time (stacked)", fontsize="large")
    return fig


def _finished_times(rows: Sequence[Mapping[str, Any]]) -> dict[str, tuple[dict[str, Any], list[float], int]]:
    """Per configuration label: its style keys, the sorted total times of its finished runs, and its run count."""
    from ..bench.config import Config, config_order

    groups: dict[str, tuple[Config, list[float], list[int]]] = {}
    for row in rows:
        config = Config.from_row(row)
        entry = groups.setdefault(config.label, (config, [], [0]))
        entry[2][0] += 1
        if row.get("status") in ("solved", "infeasible") and row.get("total_seconds") is not None:
            entry[1].append(float(row["total_seconds"]))
    ordered = sorted(groups.values(), key=lambda g: config_order(g[0]))
    return {config.label: ({"method": config.method, "variant": config.variant, "solver": config.solver,
                            "settings": config.settings}, sorted(times), count[0])
            for config, times, count in ordered}


def plot_cactus(rows: Sequence[Mapping[str, Any]], ax: Axes | None = None, title: str | None = None) -> Figure:
    """The SAT competition's cactus plot: for each configuration, its finished runs sorted by time, so the
    curve at x = k is the time within which it finished k runs; further right and lower is better.  Runs
    that hit the limit never appear, so a curve that stops early is a configuration that left runs unsolved.
    """
    groups = _finished_times(rows)
    fig, ax = _axes(ax, (8, 5))
    for label, (keys, times, _count) in groups.items():
        if times:
            look = style_for(keys["method"], keys["variant"], keys["solver"], keys["settings"])
            ax.plot(range(1, len(times) + 1), times, markersize=4, label=label, **look)
    _log_scale_if_positive(ax, "y", "no finished run took a measurable time")
    ax.yaxis.set_major_formatter(_seconds_formatter())
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("runs finished (solved or proved impossible)")
    ax.set_ylabel("time within which they finished")
    ax.grid(True, which="major", alpha=0.4)
    if any(times for _, times, _ in groups.values()):
        ax.legend(fontsize="small", loc="upper left")
    ax.set_title(title or "Cactus plot: runs finished against time", fontsize="large")
    return fig


def plot_ecdf(rows: Sequence[Mapping[str, Any]], ax: Axes | None = None, title: str | None = None) -> Figure:
    """Empirical distribution of run times: for each configuration, the share of *all* its runs finished
    within t (a step function).  It stays below 1 when runs hit the limit, which PAR-2 then penalises."""
    groups = _finished_times(rows)
    fig, ax = _axes(ax, (8, 5))
    for label, (keys, times, count) in groups.items():
        if times and count:
            look = style_for(keys["method"], keys["variant"], keys["solver"], keys["settings"])
            ax.step(times, [k / count for k in range(1, len(times) + 1)], where="post", label=label,
                    color=look["color"], linestyle=look["linestyle"])
    _log_scale_if_positive(ax, "x", "no finished run took a measurable time")
    ax.xaxis.set_major_formatter(_seconds_formatter())
    ax.set_ylim(0, 1.02)
    ax.set_xlabel("time")
    ax.set_ylabel("share of runs finished within it")
    ax.grid(True, which="major", alpha=0.4)
    if any(times for _, times, _ in groups.values()):
        ax.legend(fontsize="small", loc="lower right")
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
    SAT solvers that count them) or ``nodes`` (ILP).  A dotted line marks where half can be completed."""
    if cost not in PHASE_COSTS:
        raise InputError(f"unknown cost {cost!r}; valid: {', '.join(PHASE_COSTS)}")
    column, cost_label = PHASE_COSTS[cost]
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2), layout="constrained")
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
    left.axhline(0.5, color="0.6", linestyle=":", linewidth=1)
    left.set_ylim(-0.03, 1.03)
    left.set_xlabel(axis)
    left.set_ylabel("share that has a solution")
    left.grid(True, alpha=0.3)
    if ns:
        left.legend(fontsize="small")
        largest = ns[-1]
        for label in dict.fromkeys(e["config"] for e in summary):
            entries = sorted((e for e in summary if e["n"] == largest and e["config"] == label),
                             key=lambda e: e["density"])
            if not entries or all(e.get(column) is None for e in entries):
                continue
            look = style_for(entries[0]["method"], entries[0]["variant"], entries[0]["solver"])
            right.plot([e["density"] for e in entries], [math.nan if e.get(column) is None else e[column]
                                                         for e in entries],
                       label=label, **look)
            if cost == "seconds":
                right.plot([e["density"] for e in entries], [e["par2_seconds"] or math.nan for e in entries],
                           color=look["color"], linestyle="--", linewidth=1, alpha=0.6)
        from ..bench.phase import crossing as half_crossing

        crossing = half_crossing(summary, largest, first)
        if crossing is not None:
            right.axvline(crossing, color="0.5", linestyle=":", linewidth=1)
        _log_scale_if_positive(right, "y", "no finished run took a measurable time" if cost == "seconds"
                               else f"no configuration reports {cost}")
        if cost == "seconds":
            right.yaxis.set_major_formatter(_seconds_formatter())
        right.set_xlabel(axis)
        right.set_ylabel(f"{cost_label} at n = {largest}" + (" (PAR-2 dashed)" if cost == "seconds" else ""))
        right.grid(True, alpha=0.3)
        right.legend(fontsize="small")
    fig.suptitle(title or f"{PHASE_TITLES.get(family, family)}: the phase transition", fontsize="large")
    return fig


def plot_bnb_tree(tree: Any, ax: Axes | None = None, title: str | None = None) -> Figure:
    """A branch-and-bound tree (:class:`nqueens_kit.inside.bnb.Tree`): one dot per node in search order, depth
    downwards, coloured by what became of it (branched, integral, infeasible, pruned, open)."""
    colours = {"branched": OKABE_ITO["blue"], "integral": OKABE_ITO["bluish green"],
               "infeasible": OKABE_ITO["vermillion"], "pruned": OKABE_ITO["orange"], "open": OKABE_ITO["grey"]}
    fig, ax = _axes(ax, (8, 3))
    x = {node.id: i for i, node in enumerate(tree.nodes)}
    depth = max(node.depth for node in tree.nodes)
    for node in tree.nodes:
        if node.parent is not None:
            ax.plot([x[node.parent], x[node.id]], [-tree.nodes[node.parent].depth, -node.depth], color="0.7",
                    linewidth=0.8, zorder=1)
    for status, colour in colours.items():
        chosen = [node for node in tree.nodes if node.status == status]
        if chosen:
            ax.scatter([x[n.id] for n in chosen], [-n.depth for n in chosen], color=colour, s=36, label=status,
                       zorder=3)
    ax.set_yticks([-d for d in range(depth + 1)], [str(d) for d in range(depth + 1)])
    ax.set_ylabel("depth")
    ax.set_xticks([])
    ax.set_xlabel("nodes in the order they were solved")
    ax.legend(fontsize="small", ncols=5, loc="lower center", bbox_to_anchor=(0.5, 1.0))
    if title:
        ax.set_title(title, fontsize="medium", pad=28)
    return fig


# -------------------------------------------------------------------------------------------- saving


def save_figure(fig: Figure, path: str | os.PathLike[str], dpi: int = 150) -> Path:
    """Write ``fig`` as PNG, SVG or PDF, chosen by the suffix; :class:`InputError` if that is impossible."""
    target = Path(path)
    suffix = target.suffix.lower()
    if suffix not in FIGURE_SUFFIXES:
        raise InputError(f"a figure file must end in {', '.join(FIGURE_SUFFIXES)}, not {str(path)!r}")
    folder = target.parent
    if not folder.is_dir():
        raise InputError(f"cannot write {target}: the folder {folder} does not exist")
    try:
        fig.savefig(target, format=suffix[1:], dpi=dpi, bbox_inches="tight")
    except OSError as exc:
        raise InputError(f"cannot write {target}: {exc.strerror or exc}") from None
    return target
