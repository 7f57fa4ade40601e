"""The ``native`` encoding: no at-most-one clauses but one cardinality constraint (at most 1) per line, for the
solvers that take them; what is built and solved of it is :mod:`nqueens_kit.methods.sat.native`."""

from __future__ import annotations

from dataclasses import dataclass

from ....palette import TOL_MUTED
from .core import CARDINALITY

#: The name of the variant.
NATIVE = "native"


@dataclass(frozen=True)
class NativeVariant:
    """The ``native`` entry of the SAT method's variants (beside the clause encodings of
    :data:`~nqueens_kit.methods.sat.encodings.ENCODINGS`): what listings print of it, its colour, and the kind
    of formula it makes (cardinality constraints, which only some solvers take)."""

    name: str
    summary: str
    formula: str
    colour: str
    kind: str = CARDINALITY


NATIVE_VARIANT = NativeVariant(
    NATIVE, "no at-most-one clauses: one cardinality constraint (at most 1) per line, for solvers that take "
    "them (pysat-minicard, pysat-gluecard4)", "1 constraint", TOL_MUTED["indigo"])  # no Okabe-Ito colour is spare
