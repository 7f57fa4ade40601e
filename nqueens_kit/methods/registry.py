"""The registry of methods: one line each, in the order tables and menus list them (the first is the default).

Adding a method is a module with a :class:`~nqueens_kit.methods.base.Method` subclass and one line in
:data:`ENTRIES`: its name, where its class lives and what it calls its variants (checked against the class
when it loads).  Loading the registry enters every line in :data:`~nqueens_kit.methods.base.METHODS`, where
every front end finds it; a method's module is imported when the method is first asked for, so a command
that uses one method does not import the others (nor their solvers).

>>> list(METHODS)[:2], get_method(None).name
(['sat', 'ilp'], 'sat')
>>> method_of_solver("highs").name
'ilp'
"""

from __future__ import annotations

from .base import METHODS, get_method, method_of_solver, methods_with

#: ``(name, module:Class under nqueens_kit.methods, what it calls its variants)``, one line per method.
ENTRIES = (
    ("sat", "sat.method:SatMethod", "encoding"),
    ("ilp", "ilp.method:IlpMethod", "formulation"),
    ("cp", "cp.method:CpMethod", "formulation"),
    ("local-search", "search.local_search:LocalSearchMethod", None),
    ("construct", "search.construct:ConstructMethod", None),
    ("backtrack", "search.backtrack:BacktrackMethod", None),
    ("model-count", "modelcount:ModelCountMethod", "encoding"),
)


def _register() -> None:
    for name, target, variant_word in ENTRIES:
        METHODS.enter(name, f"{__package__}.{target}", variant_word)


_register()
DEFAULT_METHOD = next(iter(METHODS))

__all__ = ["DEFAULT_METHOD", "ENTRIES", "METHODS", "get_method", "method_of_solver", "methods_with"]
