"""The board as SVG, for the apps: checkered cells, queens as crowns, numbered rows and columns.  Above
:data:`FILLED_ABOVE_N` a cell is a few pixels wide: the board is drawn as one plain square with each queen a
filled cell, which stays visible on a projector where a crown on a checkerboard would be a speck.

>>> svg = board_svg(4, [(1, 2), (2, 4), (3, 1), (4, 3)])
>>> 'data-n="4"' in svg, svg.count('class="nqk-cell')
(True, 16)
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping

from ..errors import InputError
from ..problem.board import Cell, parse_cell, parse_n, shown

BOARD_PX = 360
LIGHT, DARK = "#f0d9b5", "#b58863"
HIGHLIGHT = "#2f7fd8"
PLACED_COLOR = "#c0392b"
CONFLICT_COLOR = "#e63946"
QUEEN_COLOR = "#1b1b1b"
CORE_COLOR = "#d00000"
QUEEN = "\u265b"  # ♛
#: Above this n the board is drawn plain (no checkerboard, no crowns): queens are filled cells.
FILLED_ABOVE_N = 40
#: So is a smaller board drawn so small that a cell would be narrower than this (pixels): a crown would be a speck.
MIN_CELL_PX = 8
FILLED_BACKGROUND = "#f3ead9"


def _queen_shape(row: int, col: int, color: str, outline: str) -> str:
    """A crown-shaped queen filling most of cell (row, col) in board units."""
    x, y = col - 1, row - 1
    points = [(0.18, 0.78), (0.12, 0.32), (0.33, 0.55), (0.5, 0.2), (0.67, 0.55), (0.88, 0.32), (0.82, 0.78)]
    shape = " ".join(f"{x + px:.3f},{y + py:.3f}" for px, py in points)
    return (
        f'<g class="nqk-queen" data-row="{row}" data-col="{col}">'
        f'<polygon points="{shape}" fill="{color}" stroke="{outline}" stroke-width="0.04"/>'
        f'<rect x="{x + 0.18:.3f}" y="{y + 0.76:.3f}" width="0.64" height="0.1" fill="{color}" '
        f'stroke="{outline}" stroke-width="0.04"/></g>'
    )


def _queen_square(row: int, col: int, color: str) -> str:
    """A queen on a large board: the whole cell filled (a crown would be a speck)."""
    return (f'<g class="nqk-queen" data-row="{row}" data-col="{col}"><rect x="{col - 1}" y="{row - 1}" width="1" '
            f'height="1" fill="{color}"/></g>')


def _board_cells(n: int, cells: object, what: str) -> list[Cell]:
    """``cells`` read by the kit's cell parser, each on the n x n board; else one line naming ``what``."""
    if isinstance(cells, (str, bytes, bytearray, Mapping)) or not isinstance(cells, Iterable):
        raise InputError(f"{what} are a list of (row, column) pairs, not {shown(cells)}")
    try:
        return [parse_cell(cell, n) for cell in cells]
    except InputError as exc:
        raise InputError(f"{what}: {exc}") from None


def board_svg(n: int, queens: Iterable[Cell] = (), preplaced: Iterable[Cell] = (),
              highlight: Iterable[Cell] = (), conflicts: Iterable[Cell] = (), size: int = BOARD_PX,
              caption: str | None = None, ringed: Iterable[Cell] = ()) -> str:
    """An n x n board as an SVG string: checkered cells, queens as crowns, optional highlighted cells.

    Pre-placed queens are red, other queens black; ``highlight`` cells are tinted blue and ``conflicts``
    red; ``ringed`` cells get a thick red frame (the queens that already make a completion impossible).
    Rows and columns are numbered 1 .. n (when n <= 16), as in P_rc.  Above :data:`FILLED_ABOVE_N`, or when
    a cell would be narrower than :data:`MIN_CELL_PX`, the board is one plain square (``data-style="filled"``;
    only highlighted and conflict cells are drawn as cells) and each queen fills its cell.  The ``<svg>``
    element carries ``data-n``, ``data-queens`` and an ``aria-label`` such as "8 × 8 board with 8 queens".

    >>> svg = board_svg(3, highlight=[(1, 1), (2, 2), (3, 3)])
    >>> svg.count('nqk-cell nqk-highlight'), 'aria-label="3 × 3 board with 0 queens"' in svg
    (3, True)
    """
    n = parse_n(n)
    fixed = set(_board_cells(n, preplaced, "preplaced"))
    queens = sorted(set(_board_cells(n, queens, "queens")) | fixed)
    marked = set(_board_cells(n, highlight, "highlight"))
    bad = set(_board_cells(n, conflicts, "conflicts"))
    ringed = _board_cells(n, ringed, "ringed")
    margin = 0.7 if n <= 16 else 0.0
    filled = n > FILLED_ABOVE_N or size < MIN_CELL_PX * n
    label = caption or f"{n} × {n} board with {len(queens)} queen{'s' if len(queens) != 1 else ''}"
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="nqk-board" role="img" aria-label="{html.escape(label)}" '
        f'data-n="{n}" data-queens="{len(queens)}" data-style="{"filled" if filled else "checkered"}" '
        f'width="{size}" height="{size}" viewBox="{-margin} {-margin} {n + margin} {n + margin}">'
    ]
    if filled:  # one plain square; only the marked cells are drawn one by one
        parts.append(f'<rect class="nqk-background" x="0" y="0" width="{n}" height="{n}" fill="{FILLED_BACKGROUND}"/>')
    for r in range(1, n + 1):
        for c in range(1, n + 1):
            if filled and (r, c) not in bad and (r, c) not in marked:
                continue
            fill = LIGHT if (r + c) % 2 == 0 else DARK
            classes = "nqk-cell"
            if (r, c) in bad:
                fill, classes = CONFLICT_COLOR, classes + " nqk-conflict"
            elif (r, c) in marked:
                classes += " nqk-highlight"
            parts.append(f'<rect class="{classes}" x="{c - 1}" y="{r - 1}" width="1" height="1" fill="{fill}"/>')
            if (r, c) in marked and (r, c) not in bad:
                parts.append(f'<rect x="{c - 1}" y="{r - 1}" width="1" height="1" fill="{HIGHLIGHT}" '
                             'fill-opacity="0.65" pointer-events="none"/>')
    if margin:
        font = 0.42
        for i in range(1, n + 1):
            parts.append(f'<text x="{i - 0.5}" y="{-0.2}" font-size="{font}" text-anchor="middle" '
                         f'fill="#555">{i}</text>')
            parts.append(f'<text x="{-0.35}" y="{i - 0.35}" font-size="{font}" text-anchor="middle" '
                         f'fill="#555">{i}</text>')
    parts.append(f'<rect x="0" y="0" width="{n}" height="{n}" fill="none" stroke="#333" '
                 f'stroke-width="{max(0.04, n / 250):g}"/>')  # a frame of about the same pixels at every n
    for r, c in sorted({(r, c) for r, c in ringed}):
        parts.append(f'<rect class="nqk-core" data-row="{r}" data-col="{c}" x="{c - 0.94}" y="{r - 0.94}" '
                     f'width="0.88" height="0.88" fill="none" stroke="{CORE_COLOR}" stroke-width="0.12"/>')
    for r, c in queens:
        if filled:
            parts.append(_queen_square(r, c, PLACED_COLOR if (r, c) in fixed else QUEEN_COLOR))
        elif (r, c) in fixed:
            parts.append(_queen_shape(r, c, PLACED_COLOR, "#fff"))
        else:
            parts.append(_queen_shape(r, c, QUEEN_COLOR, "#fff"))
    parts.append("</svg>")
    return "".join(parts)
