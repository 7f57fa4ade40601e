"""Interactive apps for lectures and self-study (ipywidgets 8), thin layers over the rest of the kit.

Inside:

- :func:`board_explorer`: pick n, a method (SAT, ILP, construction, backtracking), an encoding, a
  formulation and a solver; step through the solutions; sizes and times update as you go.
- :func:`formula_explorer`: the clauses one line of the board (a row, a column, a diagonal) contributes,
  highlighted on the board, with their origins, and the clause counts of each constraint family.
- :func:`completion_puzzle`: click cells to pre-place queens; SAT and ILP complete the board or say why
  they cannot (two queens that attack each other, or no completion at all), each with its time.
- :func:`timing_explorer`: choose methods and a range of n, run the timing harness, watch the plot grow.
- :func:`playground`: the four apps as tabs; ``notebooks/06-playground.ipynb`` shows it (``make app``).
- :func:`board_svg`: a board as an SVG string, used by the apps (it carries ``data-n`` and an
  ``aria-label`` so a browser test can read what is drawn).

Every app is a widget (a ``VBox`` or ``Tab`` subclass) whose controls are attributes, so a test or a
notebook can drive it: ``app.n.value = 9``, ``app.next_button.click()``.  A bad combination of
choices never raises out of a callback: the app shows the one-line :class:`~nqueens_kit.errors.NQueensError`
message (and anything unexpected as a short note) in its message area.

>>> svg = board_svg(4, [(1, 2), (2, 4), (3, 1), (4, 3)])
>>> 'data-n="4"' in svg, svg.count('class="nqk-cell')
(True, 16)
>>> app = board_explorer(n=6)
>>> app.counter.value
'solution 1 of 4'
"""

from __future__ import annotations

import functools
import html
import io
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

import ipywidgets as widgets

from .board import Board, Cell, Problem, attacks, board_lines
from .cnf import CNF, PART_TEXT, build_cnf, predicted_size
from .construct import iter_backtrack, solve_construct
from .encodings import DEFAULT_ENCODING, ENCODINGS
from .errors import NQueensError
from .methods import iter_solutions, solve_sat
from .solvers import SAT_SOLVERS, available_solvers

DEFAULT_SAT_SOLVER = "pycosat"

#: Board sizes the board explorer offers (SAT and ILP answer within a second or two up to here).
EXPLORER_MAX_N = 40
#: Up to this n the explorer enumerates every solution at once (with an in-process solver), so the
#: counter can say "of 352" straight away; above it solutions are found one click at a time.
EAGER_MAX_N = 9
#: The formula explorer lists clauses; beyond this size the lists stop being readable.
FORMULA_MAX_N = 10
#: The completion puzzle draws one button per cell.
PUZZLE_MAX_N = 12
#: Time limit (seconds) for a solve started from an app.
APP_TIME_LIMIT = 30.0
#: At most this many clauses are listed for one line.
MAX_LISTED_CLAUSES = 60

BOARD_PX = 360
LIGHT, DARK = "#f0d9b5", "#b58863"
HIGHLIGHT = "#2f7fd8"
PLACED_COLOR = "#c0392b"
CONFLICT_COLOR = "#e63946"
QUEEN_COLOR = "#1b1b1b"
QUEEN = "\u265b"  # ♛
#: An empty square's label: a Button view in the browser keeps its old text when the description
#: becomes "" (it redraws only non-empty descriptions), so empty squares get a no-break space.
EMPTY_SQUARE = "\u00a0"

METHOD_LABELS = {"sat": "SAT", "ilp": "ILP", "construct": "construction", "backtrack": "backtracking"}

# ------------------------------------------------------------------------------------------ helpers


def _ilp_module() -> Any:
    """The ILP verbs, or None when PuLP cannot be imported."""
    from . import formulations, methods
    from .solvers.ilp_pulp import SolverNotAvailable, pulp_module

    try:
        pulp_module()
    except SolverNotAvailable:
        return None

    class _Ilp:
        FORMULATIONS = formulations.FORMULATIONS
        DEFAULT_FORMULATION = formulations.DEFAULT_FORMULATION
        solve_ilp = staticmethod(methods.solve_ilp)

        @staticmethod
        def available_ilp_solvers() -> list[str]:
            return available_solvers("ilp")

        @staticmethod
        def iter_ilp(problem: Any, formulation: str, solver: str) -> Any:
            return methods.iter_boards(problem, "ilp", formulation, solver)

    return _Ilp


def installed_sat_solvers() -> list[str]:
    """Names of the SAT solvers installed here, the default first."""
    return available_solvers("sat")


def installed_ilp_solvers() -> list[str]:
    """Names of the ILP solvers installed here (empty when PuLP cannot be imported)."""
    ilp = _ilp_module()
    return [] if ilp is None else ilp.available_ilp_solvers()


def ilp_formulations() -> list[str]:
    """Names of the ILP formulations (empty when PuLP cannot be imported)."""
    ilp = _ilp_module()
    return [] if ilp is None else list(ilp.FORMULATIONS)


def _ms(seconds: float) -> str:
    """A duration for people: ``0.4 ms``, ``12 ms``, ``1.3 s``."""
    if seconds < 0.01:
        return f"{seconds * 1000:.2g} ms" if seconds < 0.001 else f"{seconds * 1000:.1f} ms"
    if seconds < 1:
        return f"{seconds * 1000:.0f} ms"
    return f"{seconds:.2f} s"


def _queen_shape(row: int, col: int, color: str, outline: str) -> str:
    """A crown-shaped queen filling most of cell (row, col) in board units."""
    x, y = col - 1, row - 1
    points = [(0.18, 0.78), (0.12, 0.32), (0.33, 0.55), (0.5, 0.2), (0.67, 0.55), (0.88, 0.32), (0.82, 0.78)]
    shape = " ".join(f"{x + px:.3f},{y + py:.3f}" for px, py in points)
    return (
        f'<g class="nqk-queen" data-row="{row}" data-col="{col}">'
        f'<polygon points="{shape}" fill="{color}" stroke="{outline}" stroke-width="0.04"/>'
        f'<rect x="{x + 0.18:.3f}" y="{y + 0.76:.3f}" width="0.64" height="0.1" fill="{color}" '
        f'stroke="{outline}" stroke-width="0.04"/></g>'
    )


def board_svg(n: int, queens: Iterable[Cell] = (), preplaced: Iterable[Cell] = (),
              highlight: Iterable[Cell] = (), conflicts: Iterable[Cell] = (), size: int = BOARD_PX,
              caption: str | None = None) -> str:
    """An n x n board as an SVG string: checkered cells, queens as crowns, optional highlighted cells.

    Pre-placed queens are red, other queens black; ``highlight`` cells are tinted blue and ``conflicts``
    red.  Rows and columns are numbered 1 .. n (when n <= 16), as in P_rc.  The ``<svg>`` element carries
    ``data-n``, ``data-queens`` and an ``aria-label`` such as "8 × 8 board with 8 queens".

    >>> svg = board_svg(3, highlight=[(1, 1), (2, 2), (3, 3)])
    >>> svg.count('nqk-cell nqk-highlight'), 'aria-label="3 × 3 board with 0 queens"' in svg
    (3, True)
    """
    queens = sorted({(r, c) for r, c in queens} | {(r, c) for r, c in preplaced})
    fixed = {(r, c) for r, c in preplaced}
    marked = set(map(tuple, highlight))
    bad = set(map(tuple, conflicts))
    margin = 0.7 if n <= 16 else 0.0
    label = caption or f"{n} × {n} board with {len(queens)} queen{'s' if len(queens) != 1 else ''}"
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="nqk-board" role="img" aria-label="{html.escape(label)}" '
        f'data-n="{n}" data-queens="{len(queens)}" width="{size}" height="{size}" '
        f'viewBox="{-margin} {-margin} {n + margin} {n + margin}">'
    ]
    for r in range(1, n + 1):
        for c in range(1, n + 1):
            fill = LIGHT if (r + c) % 2 == 0 else DARK
            classes = "nqk-cell"
            if (r, c) in bad:
                fill, classes = CONFLICT_COLOR, classes + " nqk-conflict"
            elif (r, c) in marked:
                classes += " nqk-highlight"
            parts.append(f'<rect class="{classes}" x="{c - 1}" y="{r - 1}" width="1" height="1" fill="{fill}"/>')
            if (r, c) in marked and (r, c) not in bad:
                parts.append(f'<rect x="{c - 1}" y="{r - 1}" width="1" height="1" fill="{HIGHLIGHT}" '
                             'fill-opacity="0.65" pointer-events="none"/>')
    if margin:
        font = 0.42
        for i in range(1, n + 1):
            parts.append(f'<text x="{i - 0.5}" y="{-0.2}" font-size="{font}" text-anchor="middle" '
                         f'fill="#555">{i}</text>')
            parts.append(f'<text x="{-0.35}" y="{i - 0.35}" font-size="{font}" text-anchor="middle" '
                         f'fill="#555">{i}</text>')
    parts.append(f'<rect x="0" y="0" width="{n}" height="{n}" fill="none" stroke="#333" stroke-width="0.04"/>')
    for r, c in queens:
        if (r, c) in fixed:
            parts.append(_queen_shape(r, c, PLACED_COLOR, "#fff"))
        else:
            parts.append(_queen_shape(r, c, QUEEN_COLOR, "#fff"))
    parts.append("</svg>")
    return "".join(parts)


def _message_html(text: str, kind: str = "info") -> str:
    """A message line: ``info`` (grey), ``ok`` (green), ``warn`` (amber) or ``error`` (red)."""
    if not text:
        return ""
    color = {"info": "#444", "ok": "#1d7a36", "warn": "#9a6700", "error": "#b42318"}[kind]
    role = ' role="alert"' if kind == "error" else ""
    return (f'<div class="nqk-message nqk-{kind}"{role} style="color:{color};white-space:normal">'
            f"{html.escape(text)}</div>")


def _guarded(method: Callable[..., Any]) -> Callable[..., Any]:
    """Run a callback so that nothing escapes: kit errors become the message, anything else a short note."""

    @functools.wraps(method)
    def wrapper(self: _Messages, *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        except NQueensError as exc:
            self.say(str(exc), "error")
        except Exception as exc:  # a bug; show it briefly rather than a traceback in front of a class
            self.say(f"unexpected error ({type(exc).__name__}: {exc}); please report this", "error")
        return None

    return wrapper


class _Messages:
    """Mix-in: an HTML message area and :meth:`say`."""

    message: widgets.HTML

    def say(self, text: str, kind: str = "info") -> None:
        """Show one message (replacing the last); an empty text clears it."""
        self.message.value = _message_html(text, kind)

    @property
    def message_text(self) -> str:
        """The message shown now, as plain text (for tests and notebooks)."""
        import re

        return html.unescape(re.sub(r"<[^>]+>", "", self.message.value))


def _dropdown(description: str, options: Sequence[Any], value: Any = None, width: str = "220px") -> widgets.Dropdown:
    options = list(options)
    return widgets.Dropdown(description=description, options=options,
                            value=value if value is not None else (options[0] if options else None),
                            layout=widgets.Layout(width=width), style={"description_width": "80px"})


def _figure_png(fig: Any) -> bytes:
    """A matplotlib figure as PNG bytes; the figure is closed so a notebook does not draw it twice."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=90, bbox_inches="tight")
    try:
        import matplotlib.pyplot as plt

        plt.close(fig)
    except Exception:  # a figure made without pyplot needs no closing
        pass
    return buffer.getvalue()


# ------------------------------------------------------------------------------------ board explorer


class BoardExplorer(_Messages, widgets.VBox):
    """The board explorer (see :func:`board_explorer`); its controls are attributes."""

    def __init__(self, n: int = 8, method: str = "sat") -> None:
        methods = ["sat"] + (["ilp"] if installed_ilp_solvers() and ilp_formulations() else []) + [
            "construct", "backtrack"]
        self.n = widgets.IntSlider(value=n, min=1, max=EXPLORER_MAX_N, description="n",
                                   continuous_update=False, style={"description_width": "30px"},
                                   layout=widgets.Layout(width="380px"))
        self.method = _dropdown("method", [(METHOD_LABELS[m], m) for m in methods],
                                method if method in methods else "sat")
        self.encoding = _dropdown("encoding", list(ENCODINGS), DEFAULT_ENCODING)
        formulations = ilp_formulations()
        self.formulation = _dropdown("formulation", formulations or ["(ILP unavailable)"])
        self.solver = _dropdown("solver", installed_sat_solvers())
        self.next_button = widgets.Button(description="Next solution", icon="forward",
                                          tooltip="show the next solution", layout=widgets.Layout(width="150px"))
        self.first_button = widgets.Button(description="First", icon="fast-backward",
                                           tooltip="back to the first solution", layout=widgets.Layout(width="90px"))
        self.counter = widgets.Label(value="")
        self.size_label = widgets.HTML(value="")
        self.board = widgets.HTML(value="")
        self.stats = widgets.HTML(value="")
        self.message = widgets.HTML(value="")
        self._boards: list[Board] = []
        self._seen: set[Board] = set()
        self._iterator: Iterator[Board] | None = None
        self._total: int | None = None
        self._index = 0
        self._stats_text = ""
        controls = widgets.VBox([
            widgets.HBox([self.n, self.method]),
            widgets.HBox([self.encoding, self.formulation, self.solver]),
            widgets.HBox([self.first_button, self.next_button, self.counter]),
        ])
        super().__init__([controls, self.size_label, self.board, self.stats, self.message])
        self.add_class("nqk-board-explorer")
        for control in (self.n, self.encoding, self.formulation, self.solver):
            control.observe(self._on_change, names="value")
        self.method.observe(self._on_method, names="value")
        self.next_button.on_click(lambda _: self.next_solution())
        self.first_button.on_click(lambda _: self.first_solution())
        self._on_method()

    # ----------------------------------------------------------------------------- callbacks

    def _on_method(self, change: Any = None) -> None:
        method = self.method.value
        self.encoding.layout.display = "" if method == "sat" else "none"
        self.formulation.layout.display = "" if method == "ilp" else "none"
        self.solver.layout.display = "" if method in ("sat", "ilp") else "none"
        options = installed_sat_solvers() if method == "sat" else installed_ilp_solvers() if method == "ilp" else []
        if method in ("sat", "ilp") and list(self.solver.options) != options:
            self.solver.unobserve(self._on_change, names="value")
            try:
                self.solver.options = options
                self.solver.value = options[0] if options else None
            finally:
                self.solver.observe(self._on_change, names="value")
        self.restart()

    def _on_change(self, change: Any = None) -> None:
        self.restart()

    # -------------------------------------------------------------------------------- actions

    @property
    def board_queens(self) -> Board:
        """The board shown now (empty when there is none)."""
        return self._boards[self._index] if self._boards else ()

    @_guarded
    def restart(self) -> None:
        """Solve the current choice again from the first solution."""
        n, method = self.n.value, self.method.value
        self.say(f"solving {n}-queens with {METHOD_LABELS[method]} …")
        self._boards, self._seen, self._iterator, self._total, self._index = [], set(), None, None, 0
        self._stats_text = ""
        self._show()
        problem = Problem(n)
        if method == "sat":
            self._start_sat(problem)
        elif method == "ilp":
            self._start_ilp(problem)
        elif method == "construct":
            self._start_construct(problem)
        else:
            self._start_backtrack(problem)
        self._show()

    def _remember(self, board: Board) -> bool:
        if board in self._seen:
            return False
        self._seen.add(board)
        self._boards.append(board)
        return True

    def _finish_eagerly(self) -> None:
        start = time.perf_counter()
        for board in self._iterator or ():
            self._remember(board)
        self._iterator = None
        self._total = len(self._boards)
        self._stats_text += f" · all {self._total} solutions listed in {_ms(time.perf_counter() - start)}"

    def _start_sat(self, problem: Problem) -> None:
        encoding, solver = self.encoding.value, self.solver.value
        backend = SAT_SOLVERS.get(solver)
        in_process = backend is not None and backend.capabilities.in_process
        result = solve_sat(problem, encoding, solver, time_limit=None if in_process else APP_TIME_LIMIT)
        self._stats_text = (f"SAT ({encoding}, {solver}): {result.variables} variables · {result.clauses} clauses"
                            f" · build {_ms(result.build_seconds)} · solve {_ms(result.solve_seconds)}")
        if result.status == "timeout":
            self.say(result.message, "warn")
            return
        if result.status == "infeasible":
            self._total = 0
            self.say(f"unsatisfiable: {result.message}", "info")
            return
        self._remember(result.queens)
        self._iterator = iter_solutions(problem, encoding, solver)
        if problem.n <= EAGER_MAX_N and in_process:
            self._finish_eagerly()
        self._say_verified(result.verified)

    def _start_ilp(self, problem: Problem) -> None:
        ilp = _ilp_module()
        formulation, solver = self.formulation.value, self.solver.value
        result = ilp.solve_ilp(problem, formulation=formulation, solver=solver, time_limit=APP_TIME_LIMIT)
        self._stats_text = (f"ILP ({formulation}, {solver}): {result.variables} variables · "
                            f"{result.constraints} constraints · build {_ms(result.build_seconds)} · "
                            f"solve {_ms(result.solve_seconds)}")
        if result.status == "timeout":
            self.say(result.message or "no answer within the time limit", "warn")
            return
        if result.status == "infeasible":
            self._total = 0
            self.say(f"infeasible: {result.message}", "info")
            return
        if result.status != "solved":
            self.say(result.message or f"the ILP solver says {result.status}", "error")
            return
        self._remember(result.queens)
        # no time limit here: iter_ilp's limit covers the whole enumeration, which lasts as long as the
        # lecturer keeps clicking; each single solve is quick at the sizes the explorer offers
        self._iterator = iter(ilp.iter_ilp(problem, formulation=formulation, solver=solver))
        self._say_verified(result.verified)

    def _start_construct(self, problem: Problem) -> None:
        result = solve_construct(problem)
        self._stats_text = f"construction: no search, {_ms(result.solve_seconds)}"
        if result.status != "solved":
            self._total = 0
            self.say(result.message, "info")
            return
        self._remember(result.queens)
        self._total = 1
        self._say_verified(result.verified, " (the construction gives one board)")

    def _start_backtrack(self, problem: Problem) -> None:
        start = time.perf_counter()
        self._iterator = iter_backtrack(problem.n)
        first = next(self._iterator, None)
        seconds = time.perf_counter() - start
        self._stats_text = f"backtracking: first solution in {_ms(seconds)}"
        if first is None:
            self._total = 0
            self.say(f"backtracking finds no solution of {problem.n}-queens (only n = 2 and 3 have none)")
            return
        self._remember(first)
        if problem.n <= EAGER_MAX_N:
            self._finish_eagerly()
        self.say("")

    def _say_verified(self, verified: bool | None, extra: str = "") -> None:
        if verified:
            self.say("the board passes verify(): no two queens attack each other" + extra, "ok")
        else:
            self.say("the decoded board does NOT pass verify(); the formula or decoding is wrong", "error")

    @_guarded
    def next_solution(self) -> None:
        """Show the next solution, finding it first when the solutions are enumerated lazily."""
        if not self._boards:
            self.say("there is no solution to step through", "info")
            return
        if self._index + 1 < len(self._boards):
            self._index += 1
        elif self._iterator is not None:
            start = time.perf_counter()
            found = False
            for board in self._iterator:
                if self._remember(board):
                    found = True
                    break
            if found:
                self._index += 1
                self.say(f"next solution found in {_ms(time.perf_counter() - start)}")
            else:
                self._iterator = None
                self._total = len(self._boards)
                self._index = 0
                self.say(f"that was the last one: {self._total} solutions in all; back to the first")
        else:
            self._index = 0
            self.say(f"all {len(self._boards)} solutions shown; back to the first")
        self._show()

    @_guarded
    def first_solution(self) -> None:
        """Go back to the first solution."""
        self._index = 0
        self._show()

    def _show(self) -> None:
        n = self.n.value
        queens = self.board_queens
        self.board.value = board_svg(n, queens)
        self.size_label.value = f"<b>{n} × {n}</b>"
        if not self._boards:
            self.counter.value = "no solution" if self._total == 0 else ""
        elif self._total is not None:
            self.counter.value = f"solution {self._index + 1} of {self._total}"
        else:
            self.counter.value = f"solution {self._index + 1}"
        self.next_button.disabled = not self._boards or (self._total == 1)
        self.stats.value = f'<div class="nqk-stats">{html.escape(self._stats_text)}</div>'


def board_explorer(n: int = 8, method: str = "sat") -> BoardExplorer:
    """The board explorer: n, method, encoding / formulation, solver; step through the solutions.

    The counter reads "solution 3 of 92" when the number of solutions is known (small n: every solution
    is listed at once) and "solution 3" while the solutions are found one click at a time.

    >>> app = board_explorer(n=4)
    >>> app.next_button.click(); app.counter.value
    'solution 2 of 2'
    """
    return BoardExplorer(n, method)


# ----------------------------------------------------------------------------------- formula explorer


def _line_title(name: str) -> str:
    kind, index = name.split("_")
    return {"row": "row", "col": "column", "diag": "diagonal", "anti": "anti-diagonal"}[kind] + f" {index}"


class FormulaExplorer(_Messages, widgets.VBox):
    """The formula explorer (see :func:`formula_explorer`)."""

    def __init__(self, n: int = 4, encoding: str = DEFAULT_ENCODING, line: str = "row_1") -> None:
        self.n = widgets.IntSlider(value=n, min=1, max=FORMULA_MAX_N, description="n", continuous_update=False,
                                   style={"description_width": "30px"}, layout=widgets.Layout(width="300px"))
        self.encoding = _dropdown("encoding", list(ENCODINGS), encoding)
        self.line = _dropdown("line", [], None, width="260px")
        self.board = widgets.HTML(value="")
        self.clauses = widgets.HTML(value="")
        self.families = widgets.HTML(value="")
        self.message = widgets.HTML(value="")
        self._cnf: CNF | None = None
        super().__init__([
            widgets.HBox([self.n, self.encoding, self.line]),
            widgets.HBox([self.board, self.clauses], layout=widgets.Layout(align_items="flex-start",
                                                                             grid_gap="20px")),
            self.families, self.message,
        ])
        self.add_class("nqk-formula-explorer")
        self._set_lines(line)
        self.n.observe(self._on_n, names="value")
        self.encoding.observe(self._on_change, names="value")
        self.line.observe(self._on_line, names="value")
        self.refresh()

    def _set_lines(self, keep: str | None = None) -> None:
        names = [line.name for line in board_lines(self.n.value)]
        options = [(_line_title(name) + f"  ({name})", name) for name in names]
        value = keep if keep in names else (names[0] if names else None)
        self.line.options = options
        self.line.value = value

    def _on_n(self, change: Any = None) -> None:
        self.line.unobserve(self._on_line, names="value")
        try:
            self._set_lines(self.line.value)
        finally:
            self.line.observe(self._on_line, names="value")
        self.refresh()

    def _on_change(self, change: Any = None) -> None:
        self.refresh()

    def _on_line(self, change: Any = None) -> None:
        self._show_line()

    @_guarded
    def refresh(self) -> None:
        """Build the formula for the current n and encoding and redraw everything."""
        n, encoding = self.n.value, self.encoding.value
        self._cnf = build_cnf(n, encoding)
        self._show_families()
        self._show_line()
        self.say("")

    def _show_line(self) -> None:
        cnf, name = self._cnf, self.line.value
        n = self.n.value
        if cnf is None or name is None:
            self.board.value = board_svg(n)
            self.clauses.value = "<i>a 1 × 1 board has no lines of two or more cells except its row and column</i>"
            return
        line = next(line for line in board_lines(n) if line.name == name)
        self.board.value = board_svg(n, highlight=line.cells, size=300,
                                     caption=f"{n} × {n} board, {_line_title(name)} highlighted")
        rows = []
        groups = cnf.groups_of(name)
        total = sum(len(g) for g in groups)
        shown = 0
        for group in groups:
            for index in range(group.start, group.stop):
                if shown >= MAX_LISTED_CLAUSES:
                    break
                rows.append(f"<tr><td style='text-align:right;padding-right:8px'>{index + 1}</td>"
                            "<td style='font-family:monospace;padding-right:12px'>"
                            f"{html.escape(cnf.clause_text(index))}</td>"
                            f"<td style='color:#555'>{html.escape(group.label)}</td></tr>")
                shown += 1
        more = f"<div>… and {total - shown} more</div>" if total > shown else ""
        cells = ", ".join(f"P[{r},{c}]" for r, c in line.cells)
        rule = "exactly one queen" if line.exact else "at most one queen"
        self.clauses.value = (
            f"<div class='nqk-clauses'><b>{html.escape(_line_title(name))}</b>: {rule} among "
            f"{len(line.cells)} cells ({html.escape(cells)}); {total} clause{'s' if total != 1 else ''} "
            f"in the {html.escape(cnf.encoding)} encoding"
            "<table><tr><th>#</th><th style='text-align:left'>clause</th><th style='text-align:left'>origin</th></tr>"
            + "".join(rows) + "</table>" + more + "</div>"
        )

    def _show_families(self) -> None:
        cnf = self._cnf
        if cnf is None:
            return
        n = cnf.n
        top = n * n
        table: dict[str, dict[str, Any]] = {
            kind: {"lines": set(), "alo": 0, "amo": 0, "helpers": set()} for kind in ("row", "col", "diag", "anti")
        }
        for group in cnf.groups:
            kind = group.name.split("_")[0]
            if kind not in table:
                continue
            row = table[kind]
            row["lines"].add(group.name)
            row[group.part] += len(group)
            for clause in cnf.clauses[group.start:group.stop]:
                row["helpers"].update(abs(lit) for lit in clause if abs(lit) > top)
        titles = {"row": "rows", "col": "columns", "diag": "diagonals", "anti": "anti-diagonals"}
        body = []
        cell = "style='text-align:right;padding:1px 12px'"
        for kind, row in table.items():
            body.append(f"<tr><td style='padding-right:12px'>{titles[kind]}</td><td {cell}>{len(row['lines'])}</td>"
                        f"<td {cell}>{row['alo']}</td><td {cell}>{row['amo']}</td>"
                        f"<td {cell}>{len(row['helpers'])}</td></tr>")
        variables, clauses = predicted_size(n, cnf.encoding)
        agrees = (variables, clauses) == (cnf.num_vars, cnf.num_clauses)
        check = "✓ matches the closed form" if agrees else f"✗ the closed form says {variables} / {clauses}"
        self.families.value = (
            "<div class='nqk-families'><table style='border-collapse:collapse'><tr>"
            "<th style='text-align:left'>family</th><th style='padding:1px 12px'>lines</th>"
            f"<th style='padding:1px 12px'>clauses: {PART_TEXT['alo']}</th>"
            f"<th style='padding:1px 12px'>clauses: {PART_TEXT['amo']}</th>"
            "<th style='padding:1px 12px'>helper variables</th></tr>"
            + "".join(body) + "</table>"
            f"<div><b>{cnf.num_vars}</b> variables, <b>{cnf.num_clauses}</b> clauses in all "
            f"(<code>p cnf {cnf.num_vars} {cnf.num_clauses}</code>) {check}</div></div>"
        )


def formula_explorer(n: int = 4, encoding: str = DEFAULT_ENCODING, line: str = "row_1") -> FormulaExplorer:
    """The formula explorer: the clauses of one line, highlighted on the board, and counts per family.

    >>> app = formula_explorer(n=7)
    >>> "p cnf 49 490" in app.families.value
    True
    """
    return FormulaExplorer(n, encoding, line)


# ---------------------------------------------------------------------------------- completion puzzle


class CompletionPuzzle(_Messages, widgets.VBox):
    """The completion puzzle (see :func:`completion_puzzle`)."""

    def __init__(self, n: int = 8, auto: bool = False) -> None:
        self.n = widgets.IntSlider(value=n, min=1, max=PUZZLE_MAX_N, description="n", continuous_update=False,
                                   style={"description_width": "30px"}, layout=widgets.Layout(width="300px"))
        self.complete_button = widgets.Button(description="Complete the board", icon="play", button_style="primary",
                                              layout=widgets.Layout(width="180px"))
        self.clear_button = widgets.Button(description="Clear", icon="eraser", layout=widgets.Layout(width="90px"))
        self.auto = widgets.Checkbox(value=auto, description="complete after every click", indent=False)
        self.grid = widgets.GridBox(layout=widgets.Layout(grid_gap="0px"))
        self.timings = widgets.HTML(value="")
        self.message = widgets.HTML(value="")
        self.cells: dict[Cell, widgets.Button] = {}
        self.placed: list[Cell] = []
        self.solution: Board = ()
        legend = widgets.HTML(
            f"<span style='color:{PLACED_COLOR}'>{QUEEN}</span> your queens · "
            f"<span style='color:{QUEEN_COLOR}'>{QUEEN}</span> the completion · "
            f"<span style='color:{CONFLICT_COLOR}'>■</span> queens that attack each other")
        super().__init__([
            widgets.HBox([self.n, self.complete_button, self.clear_button, self.auto]),
            widgets.HTML("Click cells to place queens, then let SAT and ILP complete the board."),
            self.grid, legend, self.message, self.timings,
        ])
        self.add_class("nqk-completion-puzzle")
        self.n.observe(lambda _: self.reset(), names="value")
        self.complete_button.on_click(lambda _: self.complete())
        self.clear_button.on_click(lambda _: self.clear())
        self.reset()

    def _make_cell(self, r: int, c: int) -> widgets.Button:
        button = widgets.Button(description=EMPTY_SQUARE, tooltip=f"row {r}, column {c}",
                                layout=widgets.Layout(width="36px", height="36px", padding="0px", margin="0px"))
        button.style.font_size = "22px"
        button.add_class("nqk-square")
        button.on_click(lambda _, cell=(r, c): self.toggle(cell))
        return button

    @_guarded
    def reset(self) -> None:
        """A fresh empty board of the current size."""
        n = self.n.value
        self.placed, self.solution = [], ()
        self.cells = {(r, c): self._make_cell(r, c) for r in range(1, n + 1) for c in range(1, n + 1)}
        self.grid.layout.grid_template_columns = f"repeat({n}, 36px)"
        self.grid.children = [self.cells[(r, c)] for r in range(1, n + 1) for c in range(1, n + 1)]
        self.timings.value = ""
        self.say("")
        self._paint()

    @_guarded
    def clear(self) -> None:
        """Remove every queen."""
        self.placed, self.solution = [], ()
        self.timings.value = ""
        self.say("")
        self._paint()

    def conflicts(self) -> list[tuple[Cell, Cell, str]]:
        """Pairs of placed queens that attack each other, with the reason."""
        found = []
        for i, a in enumerate(self.placed):
            for b in self.placed[i + 1:]:
                why = attacks(a, b)
                if why:
                    found.append((a, b, why))
        return found

    @_guarded
    def toggle(self, cell: Cell) -> None:
        """Place a queen on ``cell`` or take it away."""
        cell = (int(cell[0]), int(cell[1]))
        if cell not in self.cells:
            self.say(f"there is no cell {cell[0]},{cell[1]} on a {self.n.value} × {self.n.value} board", "error")
            return
        if cell in self.placed:
            self.placed.remove(cell)
        else:
            self.placed.append(cell)
            self.placed.sort()
        self.solution = ()
        self.timings.value = ""
        clashes = self.conflicts()
        if clashes:
            self._paint()
            try:
                Problem(self.n.value, tuple(self.placed))
            except NQueensError as exc:
                self.say(str(exc), "error")
            return
        self._paint()
        if self.auto.value and self.placed:
            self.complete()
        else:
            count = len(self.placed)
            self.say(f"{count} queen{'s' if count != 1 else ''} placed; press “Complete the board”" if count else "")

    @_guarded
    def complete(self) -> None:
        """Ask SAT (and ILP, when installed) for a completion and show it with both times."""
        n = self.n.value
        problem = Problem(n, tuple(self.placed))  # raises ConflictError naming the pair
        self.say("completing …")
        sat = solve_sat(problem)
        lines = [f"SAT ({DEFAULT_ENCODING}, {DEFAULT_SAT_SOLVER}): {self._verdict(sat.status)} in "
                 f"{_ms(sat.build_seconds + sat.solve_seconds)}"]
        ilp = _ilp_module()
        ilp_status = None
        solvers = installed_ilp_solvers()
        if ilp is not None and solvers:
            solver, formulation = solvers[0], ilp.DEFAULT_FORMULATION
            result = ilp.solve_ilp(problem, formulation=formulation, solver=solver, time_limit=APP_TIME_LIMIT)
            ilp_status = result.status
            lines.append(f"ILP ({formulation}, {solver}): {self._verdict(result.status)} in "
                         f"{_ms(result.build_seconds + result.solve_seconds)}")
        else:
            lines.append("ILP: not available here (install PuLP with CBC)")
        self.timings.value = "<div class='nqk-timings'>" + "<br>".join(html.escape(t) for t in lines) + "</div>"
        if sat.status == "solved":
            self.solution = sat.queens
            self._paint()
            placed = len(self.placed)
            self.say(f"completed: {n - placed} queen{'s' if n - placed != 1 else ''} added to your {placed}"
                     + ("" if sat.verified else " (but verify() rejects it!)"), "ok" if sat.verified else "error")
        elif sat.status == "infeasible":
            self.solution = ()
            self._paint()
            self.say(f"no completion: {sat.message} (SAT says unsatisfiable"
                     + (", ILP says infeasible)" if ilp_status == "infeasible" else ")"), "warn")
        else:
            self.say(sat.message or "no answer", "warn")
        if ilp_status in ("solved", "infeasible") and (ilp_status == "solved") != (sat.status == "solved"):
            self.say(f"SAT says {sat.status} but ILP says {ilp_status}: one of them is wrong", "error")

    @staticmethod
    def _verdict(status: str) -> str:
        words = {"solved": "completed", "infeasible": "no completion", "timeout": "time limit reached"}
        return words.get(status, status)

    def _paint(self) -> None:
        clashing = {cell for a, b, _ in self.conflicts() for cell in (a, b)}
        placed = set(self.placed)
        solution = set(self.solution)
        for (r, c), button in self.cells.items():
            base = LIGHT if (r + c) % 2 == 0 else DARK
            if (r, c) in clashing:
                button.style.button_color, button.style.text_color = CONFLICT_COLOR, "#fff"
                button.description = QUEEN
            elif (r, c) in placed:
                button.style.button_color, button.style.text_color = base, PLACED_COLOR
                button.description = QUEEN
            elif (r, c) in solution:
                button.style.button_color, button.style.text_color = base, QUEEN_COLOR
                button.description = QUEEN
            else:
                button.style.button_color, button.style.text_color = base, QUEEN_COLOR
                button.description = EMPTY_SQUARE


def completion_puzzle(n: int = 8, auto: bool = False) -> CompletionPuzzle:
    """The completion puzzle: click cells to pre-place queens; SAT and ILP complete the board or say why not.

    >>> app = completion_puzzle(n=4)
    >>> app.toggle((1, 1)); app.toggle((2, 2)); app.message_text.split(";")[0]
    'pre-placed queens at 1,1 and 2,2 attack each other (same diagonal)'
    """
    return CompletionPuzzle(n, auto)


# ------------------------------------------------------------------------------------- timing explorer


#: The timing explorer refuses sweeps of more runs than this (each run is a fresh process).
TIMING_MAX_RUNS = 150
TIMING_MAX_N = 64
#: Redraw the growing plot at most this often (seconds); the last row always redraws.
REDRAW_SECONDS = 0.4


def timing_choices() -> list[tuple[str, str]]:
    """``(label, spec)`` for every configuration the timing explorer offers with the solvers installed here.

    A spec is what :meth:`nqueens_kit.bench.Config.parse` reads: ``sat:pairwise:pycosat``,
    ``ilp:lines:cbc``, ``construct``.
    """
    choices = [(f"SAT {name} (pycosat)", f"sat:{name}:{DEFAULT_SAT_SOLVER}") for name in ENCODINGS]
    choices += [(f"SAT pairwise ({name})", f"sat:pairwise:{name}") for name in installed_sat_solvers()
                if name != DEFAULT_SAT_SOLVER]
    solvers = installed_ilp_solvers()
    choices += [(f"ILP {formulation} ({solver})", f"ilp:{formulation}:{solver}")
                for formulation in ilp_formulations() for solver in solvers]
    choices.append(("construction (no search)", "construct"))
    return choices


class TimingExplorer(_Messages, widgets.VBox):
    """The timing explorer (see :func:`timing_explorer`)."""

    def __init__(self, specs: Sequence[str] | None = None, ns: tuple[int, int] = (4, 16), step: int = 4) -> None:
        choices = timing_choices()
        offered = [spec for _, spec in choices]
        if specs is None:
            specs = [s for s in ("sat:pairwise:pycosat", "sat:sequential:pycosat") if s in offered]
            specs += [s for s in offered if s.startswith("ilp:lines:")][:1]
        self.configs = widgets.SelectMultiple(options=choices, value=[s for s in specs if s in offered],
                                              rows=min(10, len(choices)), description="methods",
                                              layout=widgets.Layout(width="360px"))
        self.ns = widgets.IntRangeSlider(value=ns, min=1, max=TIMING_MAX_N, description="n from, to",
                                         continuous_update=False, style={"description_width": "90px"},
                                         layout=widgets.Layout(width="420px"))
        self.step = widgets.IntSlider(value=step, min=1, max=16, description="n step",
                                      style={"description_width": "90px"}, layout=widgets.Layout(width="420px"))
        self.repeat = widgets.IntSlider(value=1, min=1, max=5, description="repeats",
                                        style={"description_width": "90px"}, layout=widgets.Layout(width="420px"))
        self.placed = widgets.IntSlider(value=0, min=0, max=3, description="queens placed",
                                        tooltip="pre-place this many random non-attacking queens (completion)",
                                        style={"description_width": "90px"}, layout=widgets.Layout(width="420px"))
        self.timeout = widgets.BoundedFloatText(value=10.0, min=0.5, max=300.0, step=0.5,
                                                description="time limit, s", style={"description_width": "90px"},
                                                layout=widgets.Layout(width="200px"))
        self.run_button = widgets.Button(description="Run", icon="play", button_style="primary")
        self.progress = widgets.IntProgress(value=0, min=0, max=1, layout=widgets.Layout(width="300px"))
        self.progress_label = widgets.Label("")
        self.plot = widgets.Image(format="png", layout=widgets.Layout(max_width="760px"))
        self.message = widgets.HTML("")
        self.rows: list[dict[str, Any]] = []
        settings = widgets.VBox([self.ns, self.step, self.repeat, self.placed, self.timeout])
        hint = widgets.HTML("<small>Ctrl- or Shift-click to choose several methods. “queens placed” puts that "
                            "many random non-attacking queens on each board first (completion instances).</small>")
        super().__init__([
            widgets.HBox([self.configs, settings]), hint,
            widgets.HBox([self.run_button, self.progress, self.progress_label]),
            self.message, self.plot,
        ])
        self.add_class("nqk-timing-explorer")
        self.run_button.on_click(lambda _: self.run())

    def sizes(self) -> list[int]:
        """The board sizes the current settings ask for (both ends included)."""
        low, high = self.ns.value
        sizes = list(range(low, high + 1, self.step.value))
        if sizes and sizes[-1] != high:
            sizes.append(high)
        return sizes

    @_guarded
    def run(self) -> list[dict[str, Any]]:
        """Run the sweep through the timing harness, redrawing the plot as rows arrive; returns the rows."""
        from .bench import Config, run_sweep
        from .plots import plot_time

        specs = list(self.configs.value)
        if not specs:
            self.say("choose at least one method to time", "error")
            return []
        ns = self.sizes()
        total = len(specs) * len(ns) * self.repeat.value
        if total > TIMING_MAX_RUNS:
            self.say(f"that is {total} runs; choose fewer methods, sizes or repeats (at most {TIMING_MAX_RUNS})",
                     "error")
            return []
        configs = [Config.parse(spec) for spec in specs]
        self.rows = []
        self.progress.max, self.progress.value = total, 0
        self.progress.bar_style = ""
        self.progress_label.value = f"0 of {total} runs"
        self.say(f"running {total} runs, each in a fresh process …")
        self.run_button.disabled = True
        start = time.perf_counter()
        last_draw = [0.0]

        def on_row(row: dict[str, Any]) -> None:
            self.rows.append(row)
            self.progress.value = len(self.rows)
            took = row.get("total_seconds")
            timing = f"{_ms(took)}" if isinstance(took, (int, float)) and row["status"] == "solved" else row["status"]
            label = Config.from_row(row).label
            self.progress_label.value = f"{len(self.rows)} of {total} runs · {label}, n = {row['n']}: {timing}"
            now = time.perf_counter()
            if now - last_draw[0] >= REDRAW_SECONDS or len(self.rows) == total:
                self._draw(plot_time)
                last_draw[0] = now

        try:
            run_sweep(configs, ns, repeat=self.repeat.value, timeout=float(self.timeout.value), out=None,
                      progress=False, on_row=on_row, place_random=self.placed.value)
        finally:
            self.run_button.disabled = False
        self._draw(plot_time)
        problems = [r for r in self.rows if r["status"] in ("error", "timeout")]
        self.progress.bar_style = "success" if not problems else "warning"
        summary = f"done: {len(self.rows)} runs in {time.perf_counter() - start:.1f} s"
        if problems:
            first = problems[0]
            summary += (f"; {len(problems)} did not finish (first: {Config.from_row(first).label}, n = {first['n']}: "
                        f"{first['status']}{', ' + first['message'] if first.get('message') else ''})")
        self.say(summary, "ok" if not problems else "warn")
        return self.rows

    def _draw(self, plot_time: Callable[..., Any]) -> None:
        if any(row["status"] in ("solved", "infeasible") for row in self.rows):
            self.plot.value = _figure_png(plot_time(self.rows, title="median build + solve time"))


def timing_explorer(specs: Sequence[str] | None = None, ns: tuple[int, int] = (4, 16), step: int = 4) -> TimingExplorer:
    """The timing explorer: pick methods and a range of n, press Run, watch the plot grow.

    Every run goes through :func:`nqueens_kit.bench.run_sweep` (a fresh process per run, with the time
    limit); the progress bar and the line beside it follow the runs, and the plot is redrawn as rows arrive.

    >>> app = timing_explorer(["sat:pairwise:pycosat"], ns=(4, 6), step=1)
    >>> app.sizes()
    [4, 5, 6]
    """
    return TimingExplorer(specs, ns, step)


# ------------------------------------------------------------------------------------------ playground


class Playground(widgets.Tab):
    """The four apps as tabs (see :func:`playground`); each app is an attribute."""

    def __init__(self) -> None:
        self.board = board_explorer()
        self.formula = formula_explorer()
        self.completion = completion_puzzle()
        self.timing = timing_explorer()
        super().__init__(children=[self.board, self.formula, self.completion, self.timing],
                         titles=("Board explorer", "Formula explorer", "Completion puzzle", "Timing explorer"))
        self.add_class("nqk-playground")


def playground() -> Playground:
    """All four apps in tabs: what ``notebooks/06-playground.ipynb`` (and ``make app``) shows.

    >>> app = playground()
    >>> app.titles
    ('Board explorer', 'Formula explorer', 'Completion puzzle', 'Timing explorer')
    """
    return Playground()
