"""Side by side (chapter 8): drag n, and constraint programming, SAT and local search each look for one board.

Each configuration runs in the background, one after another, in a child process under the chosen time limit,
with one Stop button for all.  The table gives each one's answer, the time its search took (its own clock),
the time the kit's independent check of the board took (:func:`~nqueens_kit.problem.board.verify`, in this
process), the size of what it built and the effort it reports; a method that would build a model too big for
this machine is refused by the size guard before it starts, and says so.  Boards up to
:data:`BOARD_MAX_N` are drawn.

The configurations are given, not looked up by name: :data:`DEFAULT_CHOICES` (CP's AllDifferent model, SAT's
sequential encoding, local search); whatever a method cannot do (local search says "no" only as "none found")
it says itself.

>>> app = side_by_side(n=8, live=False)
>>> [label for label, _ in app.rows()][:1], app.n.value
(['CP alldifferent/cp-sat'], 8)
"""

from __future__ import annotations

import html
import time
from collections.abc import Sequence

import ipywidgets as widgets

from ..errors import NQueensError
from ..methods import Choice, get_method, solve
from ..problem.board import Problem, verify
from ..problem.results import SolveResult, Status
from .common import Job, Messages, Stop, guarded, ms
from .svg import board_svg

#: Board sizes the slider offers, from a lecture's 8 to a million.
SIZES = (8, 16, 32, 64, 128, 256, 512, 1000, 2000, 5000, 10_000, 100_000, 1_000_000)
#: Boards up to this size are drawn.
BOARD_MAX_N = 64
#: What is compared, in this order: (method, variant, solver).
DEFAULT_CHOICES = (("cp", "alldifferent", "cp-sat"), ("sat", "sequential", "pysat-minisat"),
                   ("local-search", None, None))
#: The effort counters shown, when a method reports them.
EFFORTS = ("conflicts", "branches", "nodes", "steps", "restarts")


class SideBySide(Messages, widgets.VBox):
    """The side-by-side app (see :func:`side_by_side`); its controls are attributes."""

    def __init__(self, n: int = 32, choices: Sequence[tuple[str | None, ...]] = DEFAULT_CHOICES,
                 time_limit: float = 10.0, live: bool = True) -> None:
        self.message = widgets.HTML("")
        self.choices: list[Choice] = []
        for spec in choices:
            method = get_method(spec[0])
            solver = spec[2] if len(spec) > 2 else None
            if solver is not None and not method.solver(solver).available():
                continue
            self.choices.append(method.choose(*spec[1:]))
        start = min(SIZES, key=lambda size: abs(size - n))
        self.n = widgets.SelectionSlider(options=list(SIZES), value=start, description="n",
                                         continuous_update=False, style={"description_width": "40px"},
                                         layout=widgets.Layout(width="520px"))
        self.time_limit = widgets.BoundedFloatText(value=time_limit, min=0.5, max=120.0, step=0.5,
                                                   description="time limit, s", style={"description_width": "90px"},
                                                   layout=widgets.Layout(width="200px"))
        self.run_button = widgets.Button(description="Solve", icon="play", button_style="primary")
        self.table = widgets.HTML("")
        self.boards = widgets.HTML("")
        self.job = Job(self, [self.run_button])
        self.results: list[tuple[Choice, SolveResult, float | None]] = []
        super().__init__([widgets.HBox([self.n, self.time_limit, self.run_button]), self.job.widget, self.table,
                          self.boards, self.message])
        self.add_class("nqk-side-by-side")
        self.n.observe(lambda _: self.run(), names="value")
        self.run_button.on_click(lambda _: self.run())
        self._draw()
        if live:
            self.run()

    def wait(self, timeout: float = 300.0) -> None:
        """Wait until every configuration has answered (tests and notebooks)."""
        self.job.wait(timeout)

    def rows(self) -> list[tuple[str, str]]:
        """``(configuration, answer)`` per configuration, as plain text (tests and notebooks)."""
        done = {choice: (result, check) for choice, result, check in self.results}
        out = []
        for choice in self.choices:
            result, check = done.get(choice, (None, None))
            out.append((choice.label, "" if result is None else self._answer(choice, result, check)))
        return out

    @guarded
    def run(self) -> None:
        """Solve the current n with every configuration, one after another, in the background."""
        n, limit = int(self.n.value), float(self.time_limit.value)
        self.results = []
        self._draw()

        def work(stop: Stop) -> list[tuple[Choice, SolveResult, float | None]]:
            found = []
            for choice in self.choices:
                if stop():
                    break
                choice.implementation.preload(choice)  # imports before the clock (the child inherits them)
                try:
                    result = solve(Problem(n), choice.method, choice.variant, choice.solver, time_limit=limit,
                                   stop=stop, settings=choice.settings)
                except NQueensError as exc:  # the size guard refused, say: that is an answer too
                    result = SolveResult(n=n, method=choice.method, status=Status.ERROR, message=str(exc))
                check = None
                if result.status == Status.SOLVED:
                    start = time.perf_counter()
                    ok = verify(n, result.queens)
                    check = time.perf_counter() - start
                    if not ok:
                        result.message = "verify() rejects this board!"
                found.append((choice, result, check))
                self.results = list(found)
            return found

        self.job.start(work, self._done, f"n = {n:,}: {len(self.choices)} methods, {limit:g} s each")

    def _done(self, found: list[tuple[Choice, SolveResult, float | None]]) -> None:
        self.results = found
        self._draw()

    def _answer(self, choice: Choice, result: SolveResult, check: float | None) -> str:
        if result.status == Status.SOLVED:
            text = f"a board; search {ms(result.solve_seconds)}"
            if result.build_seconds:
                text += f" (+ build {ms(result.build_seconds)})"
            return text + (f"; verified in {ms(check)}" if check is not None else "")
        if result.status == Status.ERROR:
            return f"refused: {result.message}"
        if result.status == Status.TIMEOUT and not choice.implementation.complete:
            return f"none found ({choice.implementation.title} cannot say there is none)"
        return result.message or str(result.status)

    def _draw(self) -> None:
        n = int(self.n.value)
        lines = ["<table class='nqk-side-table' style='font-size:15px;border-collapse:collapse'>",
                 "<tr><th style='text-align:left;padding:2px 10px'>method</th>"
                 "<th style='text-align:left;padding:2px 10px'>answer</th>"
                 "<th style='text-align:left;padding:2px 10px'>size</th>"
                 "<th style='text-align:left;padding:2px 10px'>effort</th></tr>"]
        done = {choice: (result, check) for choice, result, check in self.results}
        pictures = []
        for choice in self.choices:
            result, check = done.get(choice, (None, None))
            answer = "…" if result is None else self._answer(choice, result, check)
            size = effort = ""
            if result is not None:
                size = ", ".join(f"{value:,} {word}" for word, value in (
                    ("variables", result.variables), ("clauses", result.clauses),
                    ("constraints", result.constraints)) if value)
                effort = ", ".join(f"{result.stats[k]:,} {k}" for k in EFFORTS if isinstance(result.stats.get(k), int))
                if result.status == Status.SOLVED and n <= BOARD_MAX_N:
                    pictures.append(f"<div style='display:inline-block;margin:4px;text-align:center'>"
                                    f"{board_svg(n, result.queens, size=220)}<br>{html.escape(choice.label)}</div>")
            lines.append("<tr>" + "".join(f"<td style='padding:2px 10px;vertical-align:top'>{html.escape(cell)}</td>"
                                          for cell in (choice.label, answer, size, effort)) + "</tr>")
        lines.append("</table><small>times: this machine, now; verification by the kit's own verify()</small>")
        self.table.value = "".join(lines)
        self.boards.value = "".join(pictures)


def side_by_side(n: int = 32, choices: Sequence[tuple[str | None, ...]] = DEFAULT_CHOICES, time_limit: float = 10.0,
                 live: bool = True) -> SideBySide:
    """Constraint programming, SAT and local search side by side on one n (see the module docstring);
    ``live=False`` shows the app without solving."""
    return SideBySide(n, choices, time_limit, live)
