"""One look for every figure, plot and app, asked of the methods: colours, markers and line styles.

Each method says how it looks (:meth:`nqueens_kit.methods.Method.style`): a colour per variant from the
colour-blind-safe palettes of :mod:`nqueens_kit.palette`, a marker per solver, a line style of its own; so a
reader who learned "orange is the sequential encoding" in chapter 4 finds it orange in chapter 5 and in the
app.  :func:`plot_styles` keeps the configurations of one plot apart when two methods happen to choose the
same colour (or a method none).  :func:`presentation` switches matplotlib to sizes readable from the back of
a hall on a 1024x768 projector, for the figures drawn inside it; :func:`use_presentation` for every figure
from then on (a chapter's first cell).

>>> style_for("sat", "sequential", "pycosat")["color"]
'#E69F00'
>>> style_for("ilp", "lines", "cbc")["linestyle"]
'--'
"""

from __future__ import annotations

import colorsys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from ..methods import METHODS, Choice, get_method
from ..palette import OKABE_ITO, TOL_MUTED
from ..runtime.extras import require

if TYPE_CHECKING:
    from ..methods.base import PlotStyle

#: Font sizes (points) for the projector style: at 100 dpi a figure of at most 10 inches fits a 1024 pixel
#: wide projector unscaled, and 15-point text is about 21 pixels high.
PRESENTATION_RC: dict[str, float] = {
    "font.size": 15, "axes.titlesize": 17, "axes.labelsize": 16, "xtick.labelsize": 14, "ytick.labelsize": 14,
    "legend.fontsize": 13, "figure.titlesize": 18, "lines.linewidth": 2.4, "lines.markersize": 8,
    "figure.dpi": 100,
}

#: Colours a plot gives a (method, variant) whose own colour another one in the same plot already has:
#: Okabe-Ito and Paul Tol's muted scheme, the most distinct first (yellow and the pale ones last, as they are
#: hard to see on white); those no method claims are handed out before those some method does.
SPARE_COLOURS = (
    TOL_MUTED["indigo"], TOL_MUTED["olive"], "#CC6677", "#AA4499", OKABE_ITO["sky blue"], OKABE_ITO["orange"],
    OKABE_ITO["blue"], OKABE_ITO["bluish green"], OKABE_ITO["vermillion"], OKABE_ITO["reddish purple"],
    TOL_MUTED["green"], TOL_MUTED["wine"], TOL_MUTED["teal"], OKABE_ITO["black"], OKABE_ITO["grey"],
    "#DDCC77", "#88CCEE", OKABE_ITO["yellow"],
)
#: Markers a plot gives a solver whose marker another solver of the same method in it already has (``x`` is
#: left out: :func:`~nqueens_kit.viz.charts.plot_time` marks timeouts with it).
SPARE_MARKERS = ("o", "s", "^", "v", "D", "P", "X", "*", "h", "<", ">", "p", "H", "d", "8", "+", "1", "2", "3",
                 "4", "|", "_")


def seconds_text(value: float) -> str:
    """A time for an axis or a table: ``50 µs``, ``2 ms``, ``350 ms``, ``1.5 s``, ``2 min``.

    >>> [seconds_text(v) for v in (5e-5, 0.002, 0.35, 1.5, 120)]
    ['50 µs', '2 ms', '350 ms', '1.5 s', '2 min']
    """
    if value >= 120:
        return f"{value / 60:g} min"
    if value >= 1:
        return f"{value:g} s"
    if value >= 1e-3:
        return f"{value * 1e3:.3g} ms"
    return f"{value * 1e6:.3g} µs"


def style_for(method: str, variant: str | None = None, solver: str | None = None,
              settings: str | None = None) -> PlotStyle:
    """Keyword arguments for matplotlib's ``plot`` (``color``, ``marker``, ``linestyle``), as the method draws
    this configuration (hollow markers and a dotted line for settings other than its default).

    >>> style_for("ilp", "lines", "cbc", "default")["linestyle"], style_for("ilp", "lines", "cbc")["linestyle"]
    (':', '--')
    """
    chosen = get_method(method)
    return chosen.style(Choice(chosen.name, variant, solver, settings)).copy()


def plot_styles(choices: Iterable[Choice]) -> dict[Choice, PlotStyle]:
    """The look of each configuration in one plot: its method's own, except that no two (method, variant)
    pairs share a colour and no two solvers of one method share a marker.  Configurations earlier in
    ``choices`` keep theirs; a later one that would repeat a colour or a marker takes the next spare one.

    >>> looks = plot_styles([Choice("sat", "pairwise", "pycosat"), Choice("sat", "sequential", "pycosat")])
    >>> [(look["color"], look["marker"]) for look in looks.values()]
    [('#0072B2', 'o'), ('#E69F00', 'o')]
    """
    require(f"{__name__}.plot_styles", "matplotlib")
    from matplotlib.colors import to_hex

    claimed = {to_hex(m.colour(v)).upper() for m in METHODS.values() for v in [*m.variants(), None]}
    spares = sorted(dict.fromkeys(c.upper() for c in SPARE_COLOURS), key=lambda c: c in claimed)
    styles: dict[Choice, PlotStyle] = {}
    colours: dict[tuple[str, str | None], str] = {}
    markers: dict[tuple[str, str | None], str] = {}
    for choice in choices:
        if choice in styles:
            continue
        look = get_method(choice.method).style(choice)
        pair = (choice.method, choice.variant)
        if pair not in colours:
            own = to_hex(look["color"]).upper()
            taken = set(colours.values())
            colours[pair] = own if own not in taken else _spare_colour(spares, taken)
        solver = (choice.method, choice.solver)
        if solver not in markers:
            siblings = {marker for (method, _), marker in markers.items() if method == choice.method}
            own_marker = look.get("marker", "o")
            markers[solver] = own_marker if own_marker not in siblings else next(
                (m for m in SPARE_MARKERS if m not in siblings), own_marker)
        styles[choice] = {**look, "color": colours[pair], "marker": markers[solver]}
    return styles


def _spare_colour(spares: Iterable[str], taken: set[str]) -> str:
    """The first spare colour not yet in the plot; beyond the palettes, evenly spread hues."""
    for colour in spares:
        if colour not in taken:
            return colour
    step = 0
    while True:
        hue = (step * 0.618033988749895) % 1.0
        red, green, blue = colorsys.hsv_to_rgb(hue, 0.65, 0.75 if step % 2 else 0.55)
        colour = f"#{round(red * 255):02X}{round(green * 255):02X}{round(blue * 255):02X}"
        if colour not in taken:
            return colour
        step += 1


@contextmanager
def presentation() -> Iterator[None]:
    """Within this block, matplotlib draws with projector-sized fonts and lines."""
    require(f"{__name__}.presentation", "matplotlib")
    import matplotlib

    with matplotlib.rc_context(PRESENTATION_RC):  # type: ignore[arg-type]
        yield


def use_presentation() -> None:
    """From now on, matplotlib draws every figure with projector-sized fonts and lines (as inside
    :func:`presentation`): one call at the top of a chapter makes all its figures readable in a hall."""
    require(f"{__name__}.use_presentation", "matplotlib")
    import matplotlib

    matplotlib.rcParams.update(PRESENTATION_RC)  # type: ignore[arg-type]


__all__ = ["OKABE_ITO", "PRESENTATION_RC", "SPARE_COLOURS", "SPARE_MARKERS", "plot_styles", "presentation",
           "seconds_text", "style_for", "use_presentation"]
