"""Figures of boards and of what happens on them; every function returns a :class:`matplotlib.figure.Figure`.

- :func:`draw_board`: a chessboard with queens (pre-placed ones in another colour), blocked cells crossed
  out, optional attack lines, and highlighted cells (the cells of one line or clause, say).  Glyphs up to
  n = 64, dots beyond.
- :func:`draw_gallery`: many boards in a grid (e.g. the 12 fundamental solutions of n = 8).
- :func:`heatmap`: a value per cell (an LP relaxation's fractional queens) with a colour bar.

:func:`nqueens_kit.viz.figure.save_figure` writes any of them as PNG, SVG or PDF.

>>> fig = draw_board(4, [(1, 2), (2, 4), (3, 1), (4, 3)], preplaced=[(1, 2)], blocked=[(1, 1)])
>>> ax = fig.axes[0]
>>> len(ax.texts), [float(x) for x in ax.get_xlim()], len(ax.patches)
(4, [0.5, 4.5], 1)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from functools import cache

from ..runtime.extras import needs_extra

try:
    from matplotlib import pyplot as plt
    from matplotlib.axes import Axes
    from matplotlib.collections import LineCollection
    from matplotlib.colors import ListedColormap
    from matplotlib.figure import Figure
    from matplotlib.patches import Rectangle
except ModuleNotFoundError as missing:  # pip install nqueens-kit leaves matplotlib out: name the extra
    raise needs_extra(missing, __name__) from None

from ..errors import InputError
from ..problem.board import Cell, check_cell
from ..problem.board import attacks as attack_reason
from .figure import figure_of, new_axes

#: Board colours (light and dark squares), queen colours and the default highlight.
LIGHT, DARK = "#f0d9b5", "#b58863"
QUEEN_COLOUR = "#1b1b1b"
PREPLACED_COLOUR = "#1552b8"
ATTACK_COLOUR = "#d32f2f"
HIGHLIGHT_COLOUR = "#ffe14d"
#: The frame of a framed cell (a decision): Okabe-Ito blue, told apart from the red of conflicts.
FRAME_COLOUR = "#0072B2"
#: A blocked cell: a charcoal square crossed out in light grey, told apart by lightness and shape rather than
#: hue, so it reads the same to every eye and in greyscale print.
BLOCKED_COLOUR = "#3d3d3d"
BLOCKED_CROSS = "#d9d9d9"
#: The queen glyph (BLACK CHESS QUEEN) and the font that has it; DejaVu Sans ships with matplotlib.
QUEEN_GLYPH = "\u265b"
GLYPH_FONT = "DejaVu Sans"
#: Beyond this board size queens are dots: a glyph would be a few pixels wide.
GLYPH_LIMIT = 64
#: Boards up to this size get every row and column number; heat maps print values up to HEATMAP_TEXT_LIMIT.
LABEL_LIMIT = 20
HEATMAP_TEXT_LIMIT = 12

__all__ = ["board_figsize", "draw_board", "draw_gallery", "heatmap"]


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


def _cells(n: int, cells: Iterable[Sequence[int]], what: str) -> list[Cell]:
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


def _cell_points(ax: Axes, n: int) -> float:
    """The side of one square in points, from the axes' size on its figure."""
    fig = figure_of(ax)
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
    blocked: Iterable[Cell] = (),
    framed: Iterable[Cell] = (),
) -> Figure:
    """Draw an n x n chessboard with queens; returns the figure (``ax.figure`` when ``ax`` is given).

    Row 1 is at the top and column 1 on the left, as in :func:`nqueens_kit.problem.board.draw`.  Pre-placed queens
    are drawn in :data:`PREPLACED_COLOUR` (whether or not ``queens`` repeats them).  ``attacks`` draws the
    lines along which queens attack: ``True`` for every queen (readable on small boards), or a list of queens
    whose lines to draw boldly (the others' faintly); and a thick red segment between any two queens that
    attack each other.
    ``highlight`` is a set of cells (shaded yellow) or a dict cell -> colour.  ``labels`` numbers rows and
    columns.  ``blocked`` cells (where no queen may stand) are charcoal squares crossed out (:data:`BLOCKED_COLOUR`).
    ``framed`` cells get a thick frame (:data:`FRAME_COLOUR`): the decisions of a solver, say.
    """
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise InputError(f"board size must be a whole number of at least 1, not {n!r}")
    queen_cells = _cells(n, queens, "queens")
    fixed = set(_cells(n, preplaced, "preplaced"))
    everyone = sorted(set(queen_cells) | fixed)
    closed = sorted(set(_cells(n, blocked, "blocked")))
    fig, ax = new_axes(ax, board_figsize(n))

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
    if closed:
        _draw_blocked(ax, n, closed)
    frames = sorted(set(_cells(n, framed, "framed")))
    if frames:
        width = max(1.5, min(4.0, 0.12 * _cell_points(ax, n)))
        for r, c in frames:
            ax.add_patch(Rectangle((c - 0.42, r - 0.42), 0.84, 0.84, facecolor="none", edgecolor=FRAME_COLOUR,
                                   linewidth=width, zorder=3.5, gid="framed"))

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


def _draw_blocked(ax: Axes, n: int, cells: Sequence[Cell]) -> None:
    """Each blocked cell as a charcoal square with a light cross, above the highlights and below the queens."""
    for r, c in cells:
        ax.add_patch(Rectangle((c - 0.5, r - 0.5), 1, 1, facecolor=BLOCKED_COLOUR, edgecolor="none", zorder=1.5,
                               gid="blocked"))
    inset = 0.22
    strokes = [segment for r, c in cells for segment in (
        ((c - 0.5 + inset, r - 0.5 + inset), (c + 0.5 - inset, r + 0.5 - inset)),
        ((c - 0.5 + inset, r + 0.5 - inset), (c + 0.5 - inset, r - 0.5 + inset)))]
    width = max(0.4, min(2.5, 0.09 * _cell_points(ax, n)))
    ax.add_collection(LineCollection(strokes, colors=BLOCKED_CROSS, linewidths=width, zorder=1.6, gid="blocked"))


def draw_gallery(
    n: int,
    boards: Sequence[Iterable[Cell]],
    ncols: int | None = None,
    titles: Sequence[str] | None = None,
    preplaced: Iterable[Cell] = (),
    blocked: Iterable[Cell] = (),
) -> Figure:
    """Many boards of one size in a grid (``ncols`` per row, default about square), optional titles; the
    pre-placed queens and blocked cells are the same on every board.

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
    fixed, closed = list(preplaced), list(blocked)
    flat = [ax for row in axes for ax in row]
    for i, ax in enumerate(flat):
        if i < len(boards):
            draw_board(n, boards[i], fixed, ax=ax, title=titles[i] if titles else None, labels=False,
                       blocked=closed)
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
    fig, ax = new_axes(ax, (side + 1.2, side))
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
