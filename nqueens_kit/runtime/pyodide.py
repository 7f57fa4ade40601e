"""What the browser (Pyodide) has and what it lacks, for the rest of the kit: :data:`IN_BROWSER`,
:func:`can_thread`, :func:`importable`, :func:`needs` and :func:`cdn_needs` (the one line a figure or a method
says when a package is not there), :func:`run_here` and :func:`budget_solve` (a job and a python-sat solve
without a child process or a timer thread), pycosat's API on python-sat (:func:`pycosat_solve`), and the
site's files (:func:`use_site_files`).  :mod:`.browser` re-exports every public name here.

>>> IN_BROWSER
False
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, Protocol

from ..errors import NQueensError, SolverNotAvailable
from .run import ChildRun, Ended, reporting

if TYPE_CHECKING:

    pass


#: True inside Pyodide (a browser, or Node with Pyodide).
IN_BROWSER = sys.platform == "emscripten"


#: The Pyodide CDN's packages the chapters' figures use; online, ``%pip install`` brings them.
CDN_PACKAGES = ("numpy", "matplotlib")


#: Conflicts between two looks at the clock in :func:`budget_solve` (a few milliseconds of search).
BUDGET_CONFLICTS = 2000


def can_thread() -> bool:
    """Whether this Python can start a thread (not in Pyodide)."""
    if not IN_BROWSER:
        return True
    import threading

    try:
        thread = threading.Thread(target=lambda: None)
        thread.start()
        thread.join()
    except RuntimeError:
        return False
    return True


def needs(what: str, why: str) -> str:
    """The one line that says ``what`` is missing in the browser and what to do (for messages and errors).

    >>> needs("matplotlib", "this figure").split(": ")[0]
    'this figure needs matplotlib, which the browser edition does not ship'
    """
    if what in CDN_PACKAGES:
        return _from_cdn(what, why)
    return f"{why} needs {what}, which cannot run in a browser; the desktop kit (pip install nqueens-kit) has it"


def cdn_reachable(package: str) -> bool | None:
    """Whether this page can fetch ``package`` from the Pyodide CDN now: a HEAD request (synchronous, as a
    kernel's worker may make) for the file Pyodide's lock names for it.  None when that cannot be told: not in
    a browser (Pyodide in Node has no ``XMLHttpRequest``), or a package the lock does not place on the CDN.

    >>> cdn_reachable("matplotlib") is None  # not in a browser
    True
    """
    if not IN_BROWSER:
        return None
    try:
        import js
        import pyodide_js

        entry = getattr(pyodide_js.lockfile.packages, package, None)
        url = str(entry.file_name) if entry is not None else ""
        if not url.startswith(("https://", "http://")):
            return None
        if not bool(getattr(js.navigator, "onLine", True)):
            return False
        request = js.XMLHttpRequest.new()
    except Exception:  # no lock, no navigator, no XMLHttpRequest: cannot tell
        return None
    try:
        request.open("HEAD", url, False)
        request.send()
    except Exception:  # a network error: the CDN cannot be reached
        return False
    return 200 <= int(request.status) < 400


def cdn_needs(what: str, why: str) -> str:
    """The one line for a package of the Pyodide CDN that is not loaded: when the page is offline
    (:func:`cdn_reachable`), it says so, and how to get the package once online.

    >>> cdn_needs("matplotlib", "this figure") == needs("matplotlib", "this figure")  # cannot tell here
    True
    """
    if cdn_reachable(what) is False:
        return (f"{why} needs {what}, which comes from the Pyodide CDN, and this page is offline (it cannot "
                f"reach the CDN): once online, run %pip install {what} and run the cell again; the desktop kit "
                "has it")
    return _from_cdn(what, why)


def _from_cdn(what: str, why: str) -> str:
    return (f"{why} needs {what}, which the browser edition does not ship: online, run %pip install {what} "
            "(from the Pyodide CDN); the desktop kit has it")


def importable(name: str) -> bool:
    """Whether ``name`` can be found here (without importing it)."""
    import importlib.util

    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def packed_builder_here() -> bool:
    """Whether large formulas may be built as arrays (numpy): always outside a browser; in one, only once
    numpy has been loaded from the Pyodide CDN, else they are built clause by clause (the same formula)."""
    return not IN_BROWSER or importable("numpy")


class BudgetSolver(Protocol):
    """What :func:`budget_solve` asks of a python-sat solver."""

    def solve(self, assumptions: list[int] = ...) -> bool | None: ...

    def conf_budget(self, budget: int = ...) -> None: ...

    def solve_limited(self, assumptions: list[int] = ..., expect_interrupt: bool = ...) -> bool | None: ...


def budget_solve(solver: BudgetSolver, assumptions: Sequence[int], deadline: float | None) -> bool | None:
    """Solve with python-sat's ``solver`` until ``deadline`` (``time.monotonic()``): True / False, or None when
    the deadline passed.  The search runs in slices of :data:`BUDGET_CONFLICTS` conflicts (python-sat keeps
    the solver's state between them), so no timer thread is needed."""
    if deadline is None:
        return bool(solver.solve(assumptions=list(assumptions)))
    while True:
        if time.monotonic() >= deadline:
            return None
        solver.conf_budget(BUDGET_CONFLICTS)
        result = solver.solve_limited(assumptions=list(assumptions))
        if result is not None:
            return bool(result)


def run_here(fn: Callable[..., object], args: tuple[object, ...], time_limit: float | None,
             on_message: Callable[[Any], None] | None = None) -> ChildRun:
    """Run a job that would run in a child process in this process (there are no others in a browser) and
    return a :class:`~nqueens_kit.runtime.run.ChildRun`.  The time limit binds only through the solvers
    that stop themselves; a run that ends later than the limit is reported as a timeout.  ``on_message``
    receives what the job reports (:func:`~nqueens_kit.runtime.isolate.report`), as from a child."""
    import contextlib


    start = time.monotonic()
    try:
        with reporting(on_message) if on_message is not None else contextlib.nullcontext():
            value = fn(*args)
    except MemoryError:
        return ChildRun(Ended.MEMOUT, wall=time.monotonic() - start)
    except NQueensError:  # the kit's own one-line errors reach the caller as they are
        raise
    except Exception as exc:
        return ChildRun(Ended.FAILED, wall=time.monotonic() - start, error=str(exc) or type(exc).__name__,
                        error_type=type(exc).__name__)
    wall = time.monotonic() - start
    if time_limit is not None and wall > time_limit * 1.5 + 1.0:
        return ChildRun(Ended.TIMEOUT, value=value, wall=wall)
    return ChildRun(Ended.DONE, value=value, wall=wall)


#: The python-sat solver behind :func:`pycosat_solve` (CaDiCaL 1.9.5, as the browser's default SAT solver).
PYCOSAT_BACKEND = "cadical195"


def _num_vars(clauses: Sequence[Sequence[int]], vars: int) -> int:
    return max([vars, *(abs(lit) for clause in clauses for lit in clause)])


def pycosat_solve(clauses: Iterable[Iterable[int]], vars: int = 0, verbose: int = 0,
                  prop_limit: int = 0) -> list[int] | str:
    """``pycosat.solve``: a model as a list of literals 1..vars, ``"UNSAT"``, or ``"UNKNOWN"`` when a
    ``prop_limit`` (here: a budget of that many propagations) ran out."""
    from pysat.solvers import Solver

    formula = [list(clause) for clause in clauses]
    n = _num_vars(formula, vars)
    with Solver(name=PYCOSAT_BACKEND, bootstrap_with=formula) as solver:
        if prop_limit:
            solver.prop_budget(prop_limit)
            result = solver.solve_limited()
            if result is None:
                return "UNKNOWN"
        else:
            result = solver.solve()
        if not result:
            return "UNSAT"
        return _full_model(solver.get_model() or [], n)


def pycosat_itersolve(clauses: Iterable[Iterable[int]], vars: int = 0, verbose: int = 0,
                      prop_limit: int = 0) -> Iterator[list[int]]:
    """``pycosat.itersolve``: every model, each blocked in turn (on all variables, as pycosat does)."""
    from pysat.solvers import Solver

    formula = [list(clause) for clause in clauses]
    n = _num_vars(formula, vars)
    with Solver(name=PYCOSAT_BACKEND, bootstrap_with=formula) as solver:
        while solver.solve():
            model = _full_model(solver.get_model() or [], n)
            yield model
            solver.add_clause([-lit for lit in model])


def _full_model(model: Sequence[int], n: int) -> list[int]:
    """A model over exactly the variables 1..n (python-sat leaves out variables the formula never names)."""
    value = {abs(lit): lit for lit in model}
    return [value.get(v, -v) for v in range(1, n + 1)]


#: The ``pycosat`` module the site ships (``stand_in_wheel`` in book/build_lite.py).
PYCOSAT_MODULE = '''"""pycosat's API for the browser edition of nqueens-kit: the solving is done by python-sat
(CaDiCaL 1.9.5), which has a WebAssembly build; pycosat (PicoSAT) has none.  nqueens_kit.solvers lists it
as such ("pycosat: not in the browser")."""
from nqueens_kit.runtime.browser import pycosat_itersolve as itersolve, pycosat_solve as solve

__version__ = "0+python-sat"
BROWSER_STAND_IN = True
'''


def require_browser_module(name: str, why: str) -> ModuleType:
    """Import ``name``, or :class:`SolverNotAvailable` with :func:`needs`' one line."""
    import importlib

    try:
        return importlib.import_module(name)
    except ImportError:
        raise SolverNotAvailable(needs(name, why)) from None


#: Where the site's own wheel puts a copy of the notebook folder's files (its data), in site-packages.
SITE_FILES = "nqueens_kit_browser/files"


#: JupyterLite's drive: the notebook folder as the kernel sees it (the kernel starts in it).
DRIVE = "/drive"


def _site_files() -> Path | None:
    for entry in sys.path:
        folder = Path(entry or ".") / SITE_FILES
        if folder.is_dir():
            return folder
    return None


def use_site_files(drive: str = DRIVE) -> bool:
    """When the kernel cannot read JupyterLite's drive (its files come through the site's service worker,
    which a browser may block or lack, e.g. in a private window), put an in-memory copy of the notebook
    folder's files there instead (shipped in the site's wheel: :data:`SITE_FILES`), so that a chapter reads
    ``data/sweep.csv`` as on the desktop; what a cell writes there lasts until the kernel restarts.  Returns
    whether it did; with a working drive, or outside a browser, it does nothing."""
    import os
    import shutil

    if not IN_BROWSER:
        return False
    try:
        os.listdir(drive)
        return False
    except FileNotFoundError:  # no drive (Pyodide outside JupyterLite)
        return False
    except OSError:  # the drive is there but cannot be read
        pass
    source = _site_files()
    if source is None:
        return False
    try:
        import pyodide_js
        from pyodide.ffi import to_js

        fs = pyodide_js.FS
        fs.unmount(drive)
        fs.mount(fs.filesystems.MEMFS, to_js({}), drive)
    except Exception:  # not Pyodide's file system: leave it as it is
        return False
    shutil.copytree(source, drive, dirs_exist_ok=True)
    return True


class NotInBrowser(Exception):
    """A chapter cell that cannot run in a browser, said in one line (no traceback)."""

    def _render_traceback_(self) -> list[str]:
        return [f"NotInBrowser: {self}"]
