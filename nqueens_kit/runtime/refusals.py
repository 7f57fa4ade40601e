"""In the site's kernel (:func:`start_kernel`), a cell that meets something the browser lacks prints one line
and ends without an error, so that Run All goes on to the next cell (:func:`refusal_line`, said once:
:func:`say_once`); a figure that cannot be drawn does not even end its cell: the statements after it run
(:class:`FiguresCarryOn`, :func:`figure_skipped`).  :mod:`.browser` re-exports every public name here.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from types import TracebackType
from typing import TYPE_CHECKING

from ..errors import SolverNotAvailable
from .pyodide import IN_BROWSER, NotInBrowser, cdn_needs, use_site_files
from .stand_in import FigureNeedsPackage

if TYPE_CHECKING:

    from IPython.core.interactiveshell import InteractiveShell


# -- the kernel: the site's files and the one line a chapter cell ends with ------------------------------


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

    >>> figure_in(ValueError("zip() argument 2 is longer"), ["no_figure_by_this_name"]) is None
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
