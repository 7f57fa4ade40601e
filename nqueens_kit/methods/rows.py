"""Results rows read against the method registry: a row's cells (:func:`number`, :func:`text_cell`,
:func:`row_size`), its configuration (:func:`choice_from_row`) and the registry's order of configurations
(:func:`config_order`).

Pure data, below the timing harness (:mod:`nqueens_kit.bench`) and the charts (:mod:`nqueens_kit.viz.charts`),
which both read rows with these.

>>> choice_from_row({"method": "sat", "encoding": "pairwise", "solver": "pycosat"}).label
'SAT pairwise/pycosat'
>>> number({"n": "8"}, "n"), text_cell({"solver": ""}, "solver"), row_size({"n": 8.0})
(8.0, None, 8)
"""

from __future__ import annotations

from collections.abc import Mapping

from .base import METHODS, Choice, Method, get_method

#: What one cell of a results or summary table holds once read: a number, a word, a verdict, or nothing.
CellValue = str | int | float | bool | None


def number(row: Mapping[str, object], column: str) -> float | None:
    """A numeric cell of a row as a float (an int, a float, or a numeric string); None for an empty, missing
    or non-numeric one."""
    value = row.get(column)
    if isinstance(value, str):
        try:
            return float(value)
        except ValueError:
            return None
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def text_cell(row: Mapping[str, object], column: str) -> str | None:
    """A text cell of a row; None for an empty or missing one (or one that is not text)."""
    value = row.get(column)
    return value if isinstance(value, str) and value else None


def row_size(row: Mapping[str, object]) -> int:
    """The board size of a row (a KeyError without one, a ValueError for one that is not a number)."""
    value = row["n"]
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise ValueError(f"n must be a whole number, not {value!r}")
    return int(value)


def choice_from_row(row: Mapping[str, object]) -> Choice:
    """The configuration of a results row (``variant``, or the older ``encoding`` / ``formulation`` columns);
    a row without settings has the method's default settings (what older files ran with)."""
    name = row["method"]  # an empty cell (None) is the default method, as it always was
    method = get_method(name if name is None or isinstance(name, (str, Method)) else str(name))
    variant = text_cell(row, "variant") or text_cell(row, "encoding") or text_cell(row, "formulation")
    settings = text_cell(row, "settings") or (next(iter(method.settings())) if method.settings() else None)
    return Choice(method.name, variant, text_cell(row, "solver"), settings)


def config_order(config: Choice) -> tuple[int, tuple[str, ...]]:
    """Sort key: by method in registry order, then by names, each method's default settings first."""
    method = get_method(config.method)
    order = list(METHODS)
    settings = list(method.settings())
    rank = settings.index(config.settings) if config.settings in settings else -1
    _, variant, solver, named = config.key
    return (order.index(method.name), (variant, solver, f"{rank:03d}", named))
