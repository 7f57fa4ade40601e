"""The registry of methods: one line each, in the order tables and menus list them (the first is the default).

Adding a method is a module with a :class:`~nqueens_kit.methods.base.Method` subclass and one line in
:data:`ENTRIES`; loading the registry fills :data:`~nqueens_kit.methods.base.METHODS`, where every front
end finds it.

>>> list(METHODS)[:2], get_method(None).name
(['sat', 'ilp'], 'sat')
>>> method_of_solver("highs").name
'ilp'
"""

from __future__ import annotations

from importlib import import_module

from .base import METHODS, Method, get_method, method_of_solver, methods_with

#: ``module:Class`` under :mod:`nqueens_kit.methods`, one line per method.
ENTRIES = (
    "sat.method:SatMethod",
    "ilp.method:IlpMethod",
    "cp:CpMethod",
    "search.local_search:LocalSearchMethod",
    "search.construct:ConstructMethod",
    "search.backtrack:BacktrackMethod",
    "modelcount:ModelCountMethod",
)


def _load(entry: str) -> Method:
    module, _, cls = entry.partition(":")
    method = getattr(import_module(f"{__package__}.{module}"), cls)()
    assert isinstance(method, Method), entry
    return method


def _register() -> None:
    for entry in ENTRIES:
        method = _load(entry)
        METHODS[method.name] = method


_register()
DEFAULT_METHOD = next(iter(METHODS))

__all__ = ["DEFAULT_METHOD", "ENTRIES", "METHODS", "get_method", "method_of_solver", "methods_with"]
