"""Solver backends, one module per family, and the registries that name them.

- :mod:`.base`: :class:`Solver` (``available()``, ``install_hint()``, ``version()``, ``capabilities``,
  ``require()``), :class:`SatSolver`, :class:`SatOutcome`.
- :mod:`.embedded`: pycosat (the default SAT solver).
- :mod:`.python_sat`: CaDiCaL, Glucose and MiniSat through python-sat.
- :mod:`.dimacs_binary`: any DIMACS executable (``minisat``, ``cadical``, ``kissat``, ...).
- :mod:`.ilp_pulp`: the ILP family (:class:`IlpSolver`: PuLP hands each entry the model): CBC (the default ILP
  solver) and HiGHS; :mod:`.ilp_scip`: SCIP through PySCIPOpt.
- :mod:`.cp`: the CP family (:class:`~.cp.CpSolver`: the method hands each entry a :class:`~.cp.CpModel`);
  :mod:`.cp_sat`: OR-Tools CP-SAT (the default CP solver); :mod:`.minizinc`: MiniZinc's solvers (Gecode).

:data:`SAT_SOLVERS`, :data:`ILP_SOLVERS` and :data:`CP_SOLVERS` are ordered: the first is the default; an ILP or
CP entry is one line of :data:`ENTRIES`.  :func:`get_solver`
looks a name up for a method, with one-line errors that say what the name is if it belongs elsewhere;
any executable on PATH (or a path) is accepted as a SAT solver.

>>> get_solver("sat", "pycosat").name, get_solver("ilp", None).name
('pycosat', 'cbc')
>>> SAT_SOLVERS["pysat-cadical"].capabilities.incremental
True
"""

from __future__ import annotations

import _thread
import os
import sys
from collections.abc import Mapping
from typing import TYPE_CHECKING

from ..errors import InputError, SolverNotAvailable
from . import base
from .base import (
    CARDINALITY,
    CLAUSES,
    PYSAT_COUNTERS,
    SAT_FEATURES,
    SAT_VERBS,
    Capabilities,
    Outcome,
    SatOutcome,
    SatSolver,
    Solver,
    wrong_method,
)
from .dimacs_binary import Binary
from .embedded import Pycosat
from .python_sat import PySat

if TYPE_CHECKING:
    from .cp import CpSolver
    from .ilp_pulp import Cbc, Highs, IlpSolver

#: When to pick the entries for large boards (``nqueens-kit solvers`` prints it), each with what was measured here:
#: ``nqueens-kit solve N --encoding E --solver S`` end to end on 2 cores shared with other work (load average 3 to
#: 4), and the stored frontier (``notebooks/data/frontier.json``, the largest n within 60 s).
CMS_ADVICE = ("the clause encodings' largest boards, product encoding: n = 1000 in 22 s here; n = 1500 not within "
              "120 s under load (pysat-minicard's native encoding: n = 1000 in 3.4 s)")
MINICARD_ADVICE = ("the largest boards by SAT: the native encoding (cardinality constraints), n = 2000 in 15 s "
                   "and 1.6 GB here, n = 2500 in 36 s; the frontier within 60 s is n = 3840 (5.5 GB)")
GLUECARD_ADVICE = ("the native encoding too, a little behind pysat-minicard: n = 2000 in 15 s and 1.9 GB here; the "
                   "frontier within 60 s is n = 2816 (under more load than pysat-minicard's)")

#: Ordered registry of SAT solvers: the first is the default.  Each entry states its own capabilities (measured
#: with python-sat 1.9: Glucose, MapleSAT, MiniSat, Minicard and Gluecard can be interrupted at a deadline, CaDiCaL,
#: Kissat and Lingeling cannot; Kissat has no statistics, assumptions, proofs or incremental clauses), its
#: variants and marker; ``advice`` says when to pick it (``nqueens-kit solvers`` prints it).
SAT_SOLVERS: dict[str, SatSolver] = {
    s.name: s
    for s in (
        Pycosat(),
        PySat("pysat-cadical", "cadical195", "CaDiCaL 1.9.5 through python-sat", marker="s", proofs=True,
              incremental=True, statistics=PYSAT_COUNTERS, assumptions=True,
              verbs=SAT_VERBS, features=SAT_FEATURES, variants=CLAUSES),
        PySat("pysat-cadical3", "cadical300", "CaDiCaL 3.0 through python-sat", marker="p", proofs=True,
              incremental=True, statistics=PYSAT_COUNTERS, assumptions=True,
              verbs=SAT_VERBS, features=SAT_FEATURES, variants=CLAUSES),
        PySat("pysat-kissat", "kissat404", "Kissat 4.0.4 through python-sat", marker="d",
              verbs=SAT_VERBS, features=SAT_FEATURES, variants=CLAUSES),  # commander, n = 1000: not in 150 s, 2.9 GB
        PySat("pysat-glucose", "glucose4", "Glucose 4 through python-sat", marker="^", proofs=True, time_limit=True,
              incremental=True, statistics=PYSAT_COUNTERS, assumptions=True,
              verbs=SAT_VERBS, features=SAT_FEATURES, variants=CLAUSES),
        PySat("pysat-lingeling", "lingeling", "Lingeling through python-sat", marker=">", proofs=True,
              incremental=True, statistics=PYSAT_COUNTERS, assumptions=True,
              verbs=SAT_VERBS, features=SAT_FEATURES, variants=CLAUSES),
        PySat("pysat-maplesat", "maplechrono", "MapleLCMDistChronoBT through python-sat", marker="H", proofs=True,
              time_limit=True, incremental=True, statistics=PYSAT_COUNTERS, assumptions=True,
              verbs=SAT_VERBS, features=SAT_FEATURES, variants=CLAUSES),
        PySat("pysat-minisat", "minisat22", "MiniSat 2.2 through python-sat", marker="v", time_limit=True,
              incremental=True, statistics=PYSAT_COUNTERS, assumptions=True,
              verbs=SAT_VERBS, features=SAT_FEATURES, variants=CLAUSES),
        PySat("pysat-minicard", "minicard", "Minicard 1.2 through python-sat", marker="x", time_limit=True,
              incremental=True, statistics=PYSAT_COUNTERS, assumptions=True,
              verbs=SAT_VERBS, features=SAT_FEATURES, variants=CARDINALITY, advice=MINICARD_ADVICE),
        PySat("pysat-gluecard4", "gluecard4", "Gluecard 4 through python-sat", marker="+", time_limit=True,
              incremental=True, statistics=PYSAT_COUNTERS, assumptions=True,
              verbs=SAT_VERBS, features=SAT_FEATURES, variants=CARDINALITY, advice=GLUECARD_ADVICE),
        Binary("minisat", ["-verb=0"], output_file=True, package="minisat", marker="D", stream=True,
               time_limit=True, verbs=SAT_VERBS, features=SAT_FEATURES, variants=CLAUSES),
        Binary("cadical", ["-q"], package="cadical", proof_args=["--no-binary"], marker="P", stream=True,
               time_limit=True, verbs=SAT_VERBS, features=SAT_FEATURES, variants=CLAUSES),
        Binary("kissat", ["-q"], proof_args=["--no-binary"], wheel=("nqueens-kit[kissat]", "sage_wheels/bin/kissat"),
               marker="X", stream=True, time_limit=True, verbs=SAT_VERBS, features=SAT_FEATURES, variants=CLAUSES),
        Binary("picosat", [], package="picosat", marker="*", stream=True,
               time_limit=True, verbs=SAT_VERBS, features=SAT_FEATURES, variants=CLAUSES),
        Binary("cryptominisat5", ["--verb", "0"], package="cryptominisat", marker="h", stream=True, advice=CMS_ADVICE,
               time_limit=True, verbs=SAT_VERBS, features=SAT_FEATURES, variants=CLAUSES),
        Binary("glucose", ["-verb=0"], output_file=True, marker="<",
               time_limit=True, verbs=SAT_VERBS, features=SAT_FEATURES, variants=CLAUSES),
    )
}

def proving_entries() -> list[str]:
    """The SAT entries that declare the ``proofs`` capability, in registry order (installed or not)."""
    return [name for name, entry in SAT_SOLVERS.items() if entry.capabilities.proofs]


base.list_provers = proving_entries

#: The ILP and CP solver entries, one line each (``module:Class`` under this package, or ``module:NAME`` of a tuple
#: of entries made from one class, such as the MiniZinc backends), in registry order: the first is the default.  A
#: registry is made, and its modules imported, when it is first asked for (a SAT solve does not pay for PuLP or
#: OR-Tools).
ENTRIES = {
    "ilp": ("ilp_pulp:Cbc", "ilp_pulp:Highs", "ilp_scip:Scip"),
    "cp": ("cp_sat:CpSat", "minizinc:BACKENDS"),
}
#: Ordered registries of ILP and CP solvers (made on first use, as are :data:`REGISTRIES`, ``Cbc``, ``Highs`` and
#: ``IlpSolver``).
ILP_SOLVERS: dict[str, IlpSolver]
CP_SOLVERS: dict[str, CpSolver]
#: Method -> its registry.
REGISTRIES: dict[str, dict[str, Solver]]


#: One registry for every thread: two threads asking first at once (two apps' jobs) must not make two.
_LAZY_LOCK = _thread.allocate_lock()


def registry(method: str) -> dict[str, Solver]:
    """The ordered registry of ``method`` (``sat``, ``ilp``, ``cp``), made from its :data:`ENTRIES` lines when it is
    first asked for; only its own modules are imported."""
    if method == "sat":
        return dict(SAT_SOLVERS)
    with _LAZY_LOCK:
        made = _MADE.get(method)
        if made is None:
            from importlib import import_module

            made = {}
            for line in ENTRIES[method]:
                module, _, target = line.partition(":")
                found = getattr(import_module(f"{__name__}.{module}"), target)
                for entry in found if isinstance(found, tuple) else (found(),):
                    if not isinstance(entry, Solver) or entry.method != method:
                        raise TypeError(f"the solver entry {line!r} is not a {method} solver ({entry!r})")
                    made[entry.name] = entry
            if sys.platform == "emscripten" and method == "ilp":
                from .browser import for_browser, ilp_entries

                made = for_browser(made, ilp_entries)
            _MADE[method] = made
    return made


_MADE: dict[str, dict[str, Solver]] = {}


def __getattr__(name: str) -> object:
    """The ILP and CP registries and the ILP classes, made on first use (PEP 562)."""
    if name == "ILP_SOLVERS":
        return registry("ilp")
    if name == "CP_SOLVERS":
        return registry("cp")
    if name == "REGISTRIES":
        return {method: registry(method) for method in ("sat", *ENTRIES)}
    if name in ("Cbc", "Highs", "IlpSolver"):
        from . import ilp_pulp

        return getattr(ilp_pulp, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


if sys.platform == "emscripten":  # the browser edition: its entries first (outside a browser nothing changes)
    from .browser import for_browser, sat_entries

    SAT_SOLVERS = for_browser(SAT_SOLVERS, sat_entries)


def _registry(method: str) -> Mapping[str, Solver]:
    return SAT_SOLVERS if method == "sat" else registry(method)


def default_solver(method: str) -> str:
    return next(iter(_registry(method)))


def get_solver(method: str, name: str | None) -> Solver:
    """The solver called ``name`` for ``method`` (``sat``, ``ilp`` or ``cp``); None means the default.

    A SAT solver may also be any executable on PATH, or a path to one, that prints the competition format.
    """
    registry = _registry(method)
    if name is None:
        return next(iter(registry.values()))
    if not isinstance(name, str) or not name.strip():
        raise InputError(f"a solver is named by a word such as {', '.join(list(registry)[:3])}, not {name!r}")
    if name in registry:
        return registry[name]
    extra = ", or any DIMACS solver on PATH (or a path to one)" if registry is SAT_SOLVERS else ""
    for other in ("sat", *ENTRIES):  # before PATH: a `cbc` executable is CBC, not a DIMACS SAT solver
        if other != method and name in _registry(other):
            raise InputError(wrong_method(name, other.upper(), other, method.upper(), list(registry), extra))
    found = executable_solver(name) if registry is SAT_SOLVERS else None
    if found is not None:
        return found
    raise InputError(f"unknown {method.upper()} solver {name!r}; valid: {', '.join(registry)}{extra}")


def executable_solver(name: str) -> Binary | None:
    """A DIMACS solver executable by path or on PATH that is not a registry entry; None if there is none.

    >>> executable_solver("no-such-solver-here") is None
    True
    """
    import shutil

    if os.sep in name or shutil.which(name):
        if not shutil.which(name):
            raise SolverNotAvailable(f"SAT solver {name!r} is not an executable file")
        # the kit stops any executable at its deadline; it reads any clause encoding, and the model it prints
        return Binary(name, time_limit=True, variants=CLAUSES, verbs=SAT_VERBS, features=SAT_FEATURES)
    return None


def available_solvers(method: str) -> list[str]:
    """Names of the installed solvers of a method, the default first."""
    return [name for name, solver in _registry(method).items() if solver.available()]


__all__ = [
    "CP_SOLVERS", "ENTRIES", "ILP_SOLVERS", "REGISTRIES", "SAT_SOLVERS", "Binary", "Capabilities", "Cbc",
    "Highs", "IlpSolver", "registry",
    "Outcome", "PySat", "Pycosat", "SatOutcome", "SatSolver", "Solver", "available_solvers", "default_solver",
    "executable_solver", "get_solver", "proving_entries",
]
