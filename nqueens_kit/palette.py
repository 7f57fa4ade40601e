"""The kit's colours, defined once: every method takes its variants' colours from here, and
:mod:`nqueens_kit.viz.style` draws with them.

The Okabe-Ito palette (Okabe and Ito 2008, "Color Universal Design") is safe for the common colour-vision
deficiencies; a few colours of Paul Tol's muted scheme extend it for the methods beyond SAT and ILP.
"""

from __future__ import annotations

OKABE_ITO = {
    "black": "#000000", "orange": "#E69F00", "sky blue": "#56B4E9", "bluish green": "#009E73",
    "yellow": "#F0E442", "blue": "#0072B2", "vermillion": "#D55E00", "reddish purple": "#CC79A7",
    "grey": "#999999",
}

#: Paul Tol's muted scheme, the colours that stay apart from Okabe-Ito's.
TOL_MUTED = {"indigo": "#332288", "green": "#117733", "teal": "#44AA99", "wine": "#882255", "olive": "#999933"}
