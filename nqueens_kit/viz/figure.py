"""What board figures and charts share: where to draw, and how to save what was drawn.

Figures are made with ``plt.subplots`` and closed at once, so nothing pops up and nothing accumulates: a
notebook still shows a returned figure, and a script saves it with :func:`save_figure`.

>>> fig, ax = new_axes(None, (2, 2))
>>> figure_of(ax) is fig, FIGURE_SUFFIXES
(True, ('.png', '.svg', '.pdf'))
"""

from __future__ import annotations

import os
from pathlib import Path

from ..runtime.extras import needs_extra

try:
    from matplotlib import pyplot as plt
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure
except ModuleNotFoundError as missing:  # pip install nqueens-kit leaves matplotlib out: name the extra
    raise needs_extra(missing, __name__) from None

from ..errors import InputError

#: The file types :func:`save_figure` writes, chosen by the suffix.
FIGURE_SUFFIXES = (".png", ".svg", ".pdf")

__all__ = ["FIGURE_SUFFIXES", "figure_of", "new_axes", "save_figure"]


def figure_of(ax: Axes) -> Figure:
    """The figure an axes is drawn on (matplotlib types it as Figure or SubFigure)."""
    fig = ax.figure
    while not isinstance(fig, Figure):
        fig = fig.figure
    return fig


def new_axes(ax: Axes | None, figsize: tuple[float, float]) -> tuple[Figure, Axes]:
    """The axes to draw on and their figure: ``ax``, or a new figure's (closed to pyplot, so a notebook shows
    the returned figure once)."""
    if ax is None:
        fig, ax = plt.subplots(figsize=figsize, layout="constrained")
        plt.close(fig)
    return figure_of(ax), ax


def save_figure(fig: Figure, path: str | os.PathLike[str], dpi: int = 150) -> Path:
    """Write ``fig`` as PNG, SVG or PDF, chosen by the suffix; :class:`InputError` if that is impossible."""
    target = Path(path)
    suffix = target.suffix.lower()
    if suffix not in FIGURE_SUFFIXES:
        raise InputError(f"a figure file must end in {', '.join(FIGURE_SUFFIXES)}, not {str(path)!r}")
    from ..runtime.files import written_whole  # the one rule for a path the kit writes: whole, never a device

    with written_whole(target, "wb") as out:
        fig.savefig(out, format=suffix[1:], dpi=dpi, bbox_inches="tight")
    return target
