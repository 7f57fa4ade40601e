"""One look for every figure, plot and app: colours, markers and line styles per method, variant and solver.

Colours are the Okabe-Ito palette (safe for the common colour-vision deficiencies); each SAT encoding and
each ILP formulation keeps its colour everywhere, each solver its marker, each method its line style, so a
reader who learned "orange is the sequential encoding" in chapter 4 finds it orange in chapter 5 and in the
app.  :func:`presentation` switches matplotlib to sizes readable on a 1280x720 projector.

>>> style_for("sat", "sequential", "pycosat")["color"]
'#E69F00'
>>> style_for("ilp", "lines", "cbc")["linestyle"]
'--'
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

#: Okabe & Ito (2008), "Color Universal Design".
OKABE_ITO = {
    "black": "#000000", "orange": "#E69F00", "sky blue": "#56B4E9", "bluish green": "#009E73",
    "yellow": "#F0E442", "blue": "#0072B2", "vermillion": "#D55E00", "reddish purple": "#CC79A7",
    "grey": "#999999",
}

#: Colour per (method, variant); the variant is the SAT encoding or the ILP formulation.
COLOURS: dict[tuple[str, str | None], str] = {
    ("sat", "pairwise"): OKABE_ITO["blue"],
    ("sat", "sequential"): OKABE_ITO["orange"],
    ("sat", "commander"): OKABE_ITO["bluish green"],
    ("sat", "product"): OKABE_ITO["reddish purple"],
    ("sat", "binary"): OKABE_ITO["sky blue"],
    ("ilp", "lines"): OKABE_ITO["vermillion"],
    ("ilp", "pairwise"): "#8C510A",  # brown: the ILP twin of the pairwise clauses
    ("ilp", "max-queens"): OKABE_ITO["black"],
    ("construct", None): OKABE_ITO["grey"],
    ("backtrack", None): "#666666",
}
#: Marker per solver (None: methods without a solver).
MARKERS: dict[str | None, str] = {
    "pycosat": "o", "pysat-cadical": "s", "pysat-glucose": "^", "pysat-minisat": "v", "minisat": "D",
    "cadical": "P", "kissat": "X", "picosat": "*", "cryptominisat5": "h", "glucose": "<",
    "cbc": "o", "highs": "s", None: ".",
}
#: Line style per method.
LINESTYLES = {"sat": "-", "ilp": "--", "construct": ":", "backtrack": "-."}

#: Font sizes (points) for the projector style.
PRESENTATION_RC: dict[str, Any] = {
    "font.size": 15, "axes.titlesize": 17, "axes.labelsize": 16, "xtick.labelsize": 14, "ytick.labelsize": 14,
    "legend.fontsize": 13, "figure.titlesize": 18, "lines.linewidth": 2.4, "lines.markersize": 8,
    "figure.dpi": 100,
}


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


def colour(method: str, variant: str | None = None) -> str:
    """The colour of a method and variant (a neutral grey for anything unlisted)."""
    return COLOURS.get((method, variant), COLOURS.get((method, None), OKABE_ITO["grey"]))


def style_for(method: str, variant: str | None = None, solver: str | None = None,
              settings: str | None = None) -> dict[str, Any]:
    """Keyword arguments for matplotlib's ``plot``: ``color``, ``marker``, ``linestyle`` (and, for a solver
    run with its ``default`` settings rather than the kit's tuned ones, hollow markers and a dotted line).

    >>> style_for("ilp", "lines", "cbc", "default")["linestyle"], style_for("ilp", "lines", "cbc")["linestyle"]
    (':', '--')
    """
    look: dict[str, Any] = {"color": colour(method, variant), "marker": MARKERS.get(solver, "o"),
                            "linestyle": LINESTYLES.get(method, "-")}
    if method == "ilp" and settings == "default":
        look.update(linestyle=":", markerfacecolor="white")
    return look


@contextmanager
def presentation() -> Iterator[None]:
    """Within this block, matplotlib draws with projector-sized fonts and lines."""
    import matplotlib

    with matplotlib.rc_context(PRESENTATION_RC):  # type: ignore[arg-type]
        yield
