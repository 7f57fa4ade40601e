"""The kit in a browser (Pyodide, the course's JupyterLite edition, ``make lite``): what is there and what is not.

Pyodide runs CPython compiled to WebAssembly inside the page: no child processes, no threads, no
executables, and only the packages the site ships (python-sat, PuLP 3, ipywidgets) plus, online, those of
the Pyodide CDN (numpy, matplotlib).  This module tells the rest of the kit so:

- :data:`IN_BROWSER` (``sys.platform == "emscripten"``) and :func:`can_thread`;
- :func:`run_here`: a job that would run in a child process runs in this one, and its time limit holds only
  through the solvers that stop themselves (python-sat's conflict budgets, HiGHS's time limit);
- :func:`budget_solve`: a python-sat solve that stops at a deadline by conflict budgets instead of a timer
  thread;
- :func:`needs`: the one line a figure or a method says when what it needs is not in the browser;
- :func:`install_stand_in`: offline, ``import matplotlib`` (the kit's figure modules, a chapter's first cell)
  succeeds with a stand-in whose every use raises that one line (:func:`cdn_needs`: the page is offline, and
  how to get the package), so the rest of a chapter runs; once ``%pip install matplotlib`` has brought the
  real one (online), every use goes to it;
- :func:`start_kernel`: in the site's kernel, a cell that meets something the browser lacks prints one line
  and ends without an error, so that Run All goes on to the next cell (:func:`refusal_line`); a figure that
  cannot be drawn does not even end its cell: the statements after it run (:class:`FiguresCarryOn`);
- :func:`pycosat_solve` / :func:`pycosat_itersolve`: pycosat's API on python-sat, for the chapters that call
  pycosat directly (the site ships them as its ``pycosat`` module).

Outside a browser every function here is a no-op or never called.

>>> IN_BROWSER
False
>>> pycosat_solve([[1, 2], [-1], [-2, 3]])
[-1, 2, 3]
>>> pycosat_solve([[1], [-1]])
'UNSAT'
>>> sorted(map(tuple, pycosat_itersolve([[1, 2]])))
[(-1, 2), (1, -2), (1, 2)]
"""

from __future__ import annotations

import ast
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType, TracebackType
from typing import TYPE_CHECKING, Any, Protocol

from ..errors import NQueensError, SolverNotAvailable
from .run import ChildRun, Ended, reporting

if TYPE_CHECKING:
    import importlib.abc
    from importlib.machinery import ModuleSpec

    from IPython.core.interactiveshell import InteractiveShell

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


# -- pycosat's API on python-sat --------------------------------------------------------------------------

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


# -- matplotlib, offline ------------------------------------------------------------------------------------

class FigureNeedsPackage(ModuleNotFoundError):
    """A figure needs a package of the Pyodide CDN that is not loaded (one line, see :func:`needs`)."""


def _real(module: str) -> ModuleType | None:
    """The real ``module`` if it can be imported now (after ``%pip install``), else None."""
    import importlib

    root = module.split(".")[0]
    finder = _STAND_IN.get("finder")
    if finder in sys.meta_path:
        sys.meta_path.remove(finder)
    stand_ins = {name: mod for name, mod in sys.modules.items()
                 if name.split(".")[0] == root and isinstance(mod, _StandInModule)}
    for name in stand_ins:
        del sys.modules[name]
    try:
        return importlib.import_module(module)
    except ImportError:
        sys.modules.update(stand_ins)
        if finder is not None:
            sys.meta_path.append(finder)
        return None


class _Missing:
    """An attribute of a stand-in module: calling, iterating or reading it uses the real package when it has
    been installed since, else raises :class:`FigureNeedsPackage`."""

    def __init__(self, module: str, path: tuple[str, ...]) -> None:
        self._module, self._path = module, path

    def _resolve(self) -> Any:  # whatever the real package has at that path
        target: object = _real(self._module)
        if target is None:
            raise FigureNeedsPackage(cdn_needs(self._module.split(".")[0], "this figure"))
        for name in self._path:
            target = getattr(target, name)
        return target

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        return _Missing(self._module, (*self._path, name))

    def __call__(self, *args: object, **kwargs: object) -> Any:
        return self._resolve()(*args, **kwargs)

    def __getitem__(self, key: object) -> Any:
        return self._resolve()[key]

    def __setitem__(self, key: object, value: object) -> None:
        self._resolve()[key] = value

    def __iter__(self) -> Iterator[Any]:
        return iter(self._resolve())

    def __instancecheck__(self, instance: object) -> bool:
        target = _real(self._module)
        return target is not None and isinstance(instance, self._resolve())

    def __repr__(self) -> str:
        return f"<{'.'.join((self._module, *self._path))}: {needs(self._module.split('.')[0], 'it')}>"


class _Settings(dict[str, object]):
    """matplotlib's ``rcParams`` while it is not loaded: settings are kept (they draw nothing)."""

    def _get(self, key: str) -> object:
        return self.get(key)


#: What a stand-in module has for real: the settings (a chapter's style call sets them) and no backend.
_SETTINGS = _Settings()
_PRESENT = {"rcParams": _SETTINGS, "get_backend": lambda *args, **kwargs: "none (matplotlib is not loaded)"}


class _StandInModule(type(sys)):  # type: ignore[misc]
    """A stand-in for a module of a package the browser has not loaded (see :func:`install_stand_in`)."""

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        if name in _PRESENT and _real(self.__name__) is None:
            return _PRESENT[name]
        return _Missing(self.__name__, (name,))


_STAND_IN: dict[str, importlib.abc.MetaPathFinder] = {}


def install_stand_in(package: str = "matplotlib") -> bool:
    """In a browser without ``package``: make ``import package[.sub]`` give stand-ins (see the module
    docstring).  Returns whether it did; outside a browser, or with the package present, it does nothing."""
    if not IN_BROWSER or importable(package) or "finder" in _STAND_IN:
        return False
    import importlib.abc
    import importlib.machinery

    class Finder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
        def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                      target: ModuleType | None = None) -> ModuleSpec | None:
            if fullname != package and not fullname.startswith(package + "."):
                return None
            return importlib.machinery.ModuleSpec(fullname, self, is_package=True)

        def create_module(self, spec: ModuleSpec) -> ModuleType:
            module = _StandInModule(spec.name, f"stand-in: {needs(package, 'this figure')}")
            module.__path__ = []
            return module

        def exec_module(self, module: ModuleType) -> None:
            pass

    _STAND_IN["finder"] = Finder()
    sys.meta_path.append(_STAND_IN["finder"])
    return True


# -- the kernel: the site's files and the one line a chapter cell ends with ------------------------------

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


#: The solver registry entries listed but refused in this browser, by name: their one line (filled by
#: :func:`nqueens_kit.solvers.browser.not_in_browser`).
REFUSED: dict[str, str] = {}


def _cell_frame(tb: TracebackType | None) -> TracebackType | None:
    """The entry of a traceback for the notebook cell it started in (its outermost ``<module>`` frame)."""
    while tb is not None:
        if tb.tb_frame.f_code.co_name == "<module>":
            return tb
        tb = tb.tb_next
    return None


def _cell_source(tb: TracebackType | None) -> str:
    """The source of the notebook cell a traceback started in."""
    import linecache

    entry = _cell_frame(tb)
    return "".join(linecache.getlines(entry.tb_frame.f_code.co_filename)) if entry is not None else ""


def _statements_after(tb: TracebackType | None) -> bool:
    """Whether the cell a traceback started in has statements after the one that raised (which did not run)."""
    entry = _cell_frame(tb)
    if entry is None:
        return False
    try:
        cell = ast.parse(_cell_source(tb))
    except (SyntaxError, ValueError):
        return False
    return any(statement.lineno > entry.tb_lineno for statement in cell.body)


def explain_failure(error: BaseException, source: str) -> str | None:
    """The one line for a bare assertion that failed in a cell analysing the runs of a solver the browser
    refused (the cell names it, as ``"cbc"``): the check had none of its runs to look at.  None otherwise.

    >>> REFUSED["cbc"] = "not in the browser: CBC is an executable"
    >>> line = explain_failure(AssertionError(), 'cbc = [r for r in runs if r.solver == "cbc"]')
    >>> line.split(" (")[0], line.split("; ")[-1]
    ('this cell checks runs of cbc, which the browser could not make', 'the desktop kit has it')
    >>> explain_failure(AssertionError(), "assert cbc"), explain_failure(AssertionError("why"), '"cbc"')
    (None, None)
    >>> del REFUSED["cbc"]
    """
    import re

    if not isinstance(error, AssertionError) or str(error):
        return None
    named = set(re.findall(r"""["']([\w.-]+)["']""", source))
    for name, hint in REFUSED.items():
        if name in named:
            return (f"this cell checks runs of {name}, which the browser could not make ({hint}); "
                    "the desktop kit has it")
    return None


def _one_line(error: BaseException) -> str:
    return " ".join(str(error).split()) or type(error).__name__


def refusal_line(error: BaseException, source: str = "") -> str | None:
    """The one line a cell of the site's kernel ends with when ``error`` is the browser lacking something: a
    package a figure needs (:class:`FigureNeedsPackage`), a module only the Pyodide CDN has (Pyodide's own
    ``ModuleNotFoundError``), a solver or a proof checker with no WebAssembly build
    (:class:`~nqueens_kit.errors.SolverNotAvailable`), a check of the runs of such a solver
    (:func:`explain_failure`; ``source`` is the cell's).  None for any other error: that one shows its
    traceback and stops a Run All, as ever.

    >>> refusal_line(SolverNotAvailable("not in the browser: CBC is an executable"))
    'not in the browser: CBC is an executable'
    >>> refusal_line(ModuleNotFoundError("The module 'numpy' is included in the Pyodide distribution, but it "
    ...                                  "is not installed.\\nYou can install it ...")).split(",")[0]
    'this cell needs numpy'
    >>> refusal_line(ModuleNotFoundError("No module named 'nump'")), refusal_line(ValueError("n = -1"))
    (None, None)
    """
    import re

    if isinstance(error, FigureNeedsPackage | SolverNotAvailable | NotInBrowser):
        return _one_line(error)
    if isinstance(error, ModuleNotFoundError) and "included in the Pyodide distribution" in str(error):
        found = re.search(r"module '([\w.]+)'", str(error))
        name = (error.name or (found.group(1) if found else "")).split(".")[0]
        return cdn_needs(name, "this cell") if name else _one_line(error)
    return explain_failure(error, source)


#: The exceptions the site's kernel hands to :func:`refusal_line` (the others show their traceback at once).
REFUSAL_TYPES: tuple[type[BaseException], ...] = (AssertionError, ModuleNotFoundError, SolverNotAvailable,
                                                  NotInBrowser)

@dataclass
class _Said:
    """The cell (its execution count) and the lines said in it: each line is said once a cell."""

    cell: int | None = None
    lines: set[str] = field(default_factory=set)


_SAID = _Said()


def say_once(line: str) -> None:
    """Print ``line`` on the cell's standard error, once a cell (a figure whose package is missing is said
    once, however many of its steps meet it)."""
    try:
        from IPython import get_ipython

        shell = get_ipython()
    except ImportError:
        shell = None
    cell = shell.execution_count if shell is not None else None
    if _SAID.cell != cell:
        _SAID.cell, _SAID.lines = cell, set()
    if line not in _SAID.lines:
        _SAID.lines.add(line)
        print(line, file=sys.stderr, flush=True)


class NoFigure:
    """What a figure step that could not run leaves in the names it would have bound (``fig, axes =
    plt.subplots(...)``; see :class:`FiguresCarryOn`): drawing on it does nothing.  Every attribute, call and
    item of it is another NoFigure, iterating over it gives nothing (a loop over the axes makes no step), and
    shown as a cell's value it says its one line.

    >>> axes = NoFigure("this figure needs matplotlib")
    >>> list(zip(axes.flat, "abc")), bool(axes), len(axes[0].images), axes.set_title("x")
    ([], False, 0, <no figure: this figure needs matplotlib>)
    """

    def __init__(self, line: str) -> None:
        self._line = line

    def __getattr__(self, name: str) -> NoFigure:
        if name.startswith("_"):  # Python's and IPython's protocols (display, copy) are not drawing
            raise AttributeError(name)
        return NoFigure(self._line)

    def __call__(self, *args: object, **kwargs: object) -> NoFigure:
        return NoFigure(self._line)

    def __getitem__(self, key: object) -> NoFigure:
        return NoFigure(self._line)

    def __setitem__(self, key: object, value: object) -> None:
        pass

    def __iter__(self) -> Iterator[NoFigure]:
        return iter(())

    def __len__(self) -> int:
        return 0

    def __enter__(self) -> NoFigure:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def __repr__(self) -> str:
        return f"<no figure: {self._line}>"

    def _ipython_display_(self) -> None:
        say_once(self._line)


def figure_skipped(error: BaseException) -> NoFigure:
    """A figure step of a cell met a package the page has not loaded (:class:`FiguresCarryOn`'s handler): its
    one line, once a cell, and what the names the step would have bound hold instead."""
    line = _one_line(error)
    say_once(line)
    return NoFigure(line)


def figure_in(error: BaseException, names: Sequence[str]) -> NoFigure | None:
    """The :class:`NoFigure` a failed statement of a cell drew on, among the ``names`` it reads: then it failed
    for want of the figure (``zip(axes, panels, strict=True)`` with no axes) and is skipped with it, its one
    line said already.  None when it read none (its own failure), or when ``error`` is the browser lacking
    something else (that has its own line, :func:`refusal_line`).

    >>> figure_in(ValueError("zip() argument 2 is longer"), ["axes"]) is None  # no shell here: no figure
    True
    """
    if refusal_line(error) is not None:
        return None
    try:
        from IPython import get_ipython

        shell = get_ipython()
    except ImportError:
        return None
    space = shell.user_ns if shell is not None else {}
    return next((space[name] for name in names if isinstance(space.get(name), NoFigure)), None)


#: The name :class:`FiguresCarryOn`'s handler gives the exception (Python deletes it after the handler).
_CAUGHT = "_nqueens_kit_figure_error"
#: Statements that run nothing of a figure, left as they are.
_UNGUARDED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom, ast.Global,
              ast.Nonlocal, ast.Pass)


def _bound_names(statement: ast.stmt) -> list[str]:
    """The plain names an assignment binds (``fig, axes = ...``: fig and axes); none for other statements."""
    if isinstance(statement, ast.Assign):
        targets: list[ast.expr] = statement.targets
    elif isinstance(statement, ast.AnnAssign) and statement.value is not None:
        targets = [statement.target]
    else:
        return []
    names = [node.id for target in targets for node in ast.walk(target)
             if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store)]
    return list(dict.fromkeys(names))


class FiguresCarryOn(ast.NodeTransformer):
    """An IPython AST transformer of the site's kernel: each statement of a cell, but its last expression (the
    cell's value: after it the cell is done anyway) and definitions, runs as ::

        try:
            fig, axes = plt.subplots(1, 3)
        except FigureNeedsPackage as error:
            fig = axes = figure_skipped(error)
        except Exception as error:
            if figure_in(error, ("plt",)) is None:
                raise
            fig = axes = figure_in(error, ("plt",))

    so that a figure needing a package the page has not loaded says so in one line, its names hold a
    :class:`NoFigure`, and the cell carries on with its next statement (a check, a table).  A later statement
    that fails while it reads such a name (``zip(axes, panels, strict=True)``) is skipped with the figure
    (:func:`figure_in`).  Every other exception goes through as it is, with its own traceback and line
    numbers.

    >>> import ast
    >>> cell = FiguresCarryOn().visit(ast.parse("fig, ax = plt.subplots()\\nax.plot([1])\\nfig"))
    >>> [type(statement).__name__ for statement in cell.body]
    ['Try', 'Try', 'Expr']
    >>> print(ast.unparse(cell.body[0].handlers[0].body[0]).split(" = __import__")[0])
    fig = ax
    """

    def visit_Module(self, node: ast.Module) -> ast.Module:
        last = len(node.body) - 1
        node.body = [statement if isinstance(statement, _UNGUARDED) or (k == last and isinstance(statement, ast.Expr))
                     else self._guarded(statement) for k, statement in enumerate(node.body)]
        return node

    @staticmethod
    def _guarded(statement: ast.stmt) -> ast.stmt:
        here = f"__import__({__name__!r}, fromlist=['figure_skipped'])"
        skipped = f"{here}.figure_skipped({_CAUGHT})"
        names = _bound_names(statement)
        handler = f"{' = '.join(names)} = {skipped}" if names else skipped
        reads = tuple(dict.fromkeys(node.id for node in ast.walk(statement)
                                    if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)))
        drew = f"{here}.figure_in({_CAUGHT}, {reads!r})"
        keep = f"{' = '.join(names)} = {drew}" if names else "pass"
        guard = ast.parse(f"try:\n    pass\nexcept {here}.FigureNeedsPackage as {_CAUGHT}:\n    {handler}\n"
                          f"except Exception as {_CAUGHT}:\n    if {drew} is None:\n        raise\n    {keep}\n"
                          ).body[0]
        for part in ast.walk(guard):
            if isinstance(part, ast.stmt | ast.expr | ast.excepthandler):
                ast.copy_location(part, statement)
        assert isinstance(guard, ast.Try)
        guard.body = [statement]
        return guard


def _on_refusal(shell: InteractiveShell, etype: type[BaseException], value: BaseException, tb: TracebackType | None,
                tb_offset: int | None = None) -> None:
    """The site's kernel's handler of :data:`REFUSAL_TYPES`: the browser lacking something ends the cell with
    its one line on standard error and no error (so Run All goes on); any other such exception shows its
    traceback as ever."""
    line = refusal_line(value, _cell_source(tb))
    if line is None:
        shell.showtraceback((etype, value, tb), tb_offset=tb_offset)
        return None
    if _statements_after(tb):
        line += " (the rest of this cell did not run)"
    say_once(line)
    result = getattr(shell.displayhook, "exec_result", None)  # the cell's result: it ended without an error
    if result is not None and result.error_in_exec is value:
        result.error_in_exec = None
    return None


def handle_refusals(shell: InteractiveShell) -> None:
    """Make an IPython ``shell`` end a cell that meets what the browser lacks with one line and no error, and
    carry on past a figure that cannot be drawn (:func:`_on_refusal`, :class:`FiguresCarryOn`)."""
    shell.set_custom_exc(REFUSAL_TYPES, _on_refusal)
    if not any(isinstance(t, FiguresCarryOn) for t in shell.ast_transformers):
        shell.ast_transformers.append(FiguresCarryOn())


def start_kernel(shell: InteractiveShell | None) -> None:
    """What the site's kernel runs as it starts (its IPython start-up file): the site's files when the
    drive cannot be read (:func:`use_site_files`), progress bars without tqdm's monitor thread, and a cell
    that meets what the browser lacks says so in one line and lets Run All go on (:func:`handle_refusals`)."""
    if not IN_BROWSER:
        return
    use_site_files()
    try:  # tqdm's progress bars: no monitor thread (Pyodide starts none; tqdm would warn on every bar)
        from tqdm.std import tqdm

        tqdm.monitor_interval = 0
    except ImportError:
        pass
    if shell is not None:
        handle_refusals(shell)


install_stand_in()
