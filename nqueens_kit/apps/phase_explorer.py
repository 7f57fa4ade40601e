"""The phase explorer (chapter 5): drag the family, the board size and the density; the stored study's effort
curves show where that density lies, and one random instance of it is drawn and solved live.

The left figure is :func:`~nqueens_kit.viz.charts.plot_phase_effort` of the stored study (``data/phase.csv``)
for the chosen family, with the chosen density marked.  The right side draws instance *k* of that point (the
very instance the study ran: :func:`~nqueens_kit.bench.phase.instance_problem`) and solves it with the
study's configurations, one after another, in the background under the apps' time limit and a Stop button:
the answer, the time on this machine and the solver's own count of its effort.

>>> from nqueens_kit.bench.phase import StudyPart, SAT_CONFIG
>>> summary = [{"config": "SAT sequential/pysat-minisat", "method": "sat", "variant": "sequential",
...             "solver": "pysat-minisat", "family": "blocked", "n": 8, "density": d, "completable_share": s,
...             "median_conflicts": c} for d, s, c in ((0.0, 1.0, 3), (0.5, 0.4, 9))]
>>> app = phase_explorer(summary, live=False); app.density.value = 0.5; app.problem().describe()
'8-queens with 31 blocked cells'
"""

from __future__ import annotations

import html
import textwrap
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import ipywidgets as widgets

from ..bench.phase import STORED_CONFIGS, instance_problem, read_summary
from ..methods import Choice, solve
from ..problem.board import Problem
from ..problem.results import SolveResult, Status
from .common import APP_TIME_LIMIT, Change, Job, Messages, Stop, figure_png, guarded, ms

#: Densities step by this much on the slider (the stored study's fine grid).
DENSITY_STEP = 0.025
#: Instances a point offers (the stored study ran at least this many).
INSTANCES = 16


class PhaseExplorer(Messages, widgets.VBox):
    """The phase explorer (see :func:`phase_explorer`); its controls are attributes."""

    def __init__(self, summary: Sequence[Mapping[str, Any]], live: bool = True,
                 configs: Sequence[tuple[str, str, str]] = STORED_CONFIGS) -> None:
        self.message = widgets.HTML("")
        self.summary = list(summary)
        self.configs = [Choice(*c) for c in configs if Choice(*c).implementation.solver(c[2]).available()]
        families = list(dict.fromkeys(e.get("family") or "completion" for e in self.summary))
        style = {"description_width": "80px"}
        self.family = widgets.Dropdown(options=families, value=families[0], description="family", style=style,
                                       layout=widgets.Layout(width="300px"))
        self.n = widgets.Dropdown(options=[], description="n", style=style, layout=widgets.Layout(width="160px"))
        self.density = widgets.FloatSlider(value=0.0, min=0.0, max=0.95, step=DENSITY_STEP, description="density",
                                           continuous_update=False, readout_format=".3f", style=style,
                                           layout=widgets.Layout(width="420px"))
        self.instance = widgets.IntSlider(value=1, min=1, max=INSTANCES, description="instance",
                                          continuous_update=False, style=style, layout=widgets.Layout(width="300px"))
        # height "auto": a figure scaled down to fit keeps its proportions (text is not squeezed)
        self.curves = widgets.Image(format="png", layout=widgets.Layout(max_width="680px", height="auto"))
        self.board = widgets.Image(format="png", layout=widgets.Layout(max_width="300px", height="auto"))
        self.answers = widgets.HTML("", layout=widgets.Layout(width="300px"))
        self.job = Job(self, [])
        self.live = live
        self.results: list[tuple[Choice, SolveResult]] = []
        super().__init__([
            widgets.HBox([self.family, self.n]), widgets.HBox([self.density, self.instance]),
            # flex-start: a row stretches its children to the tallest, which would squeeze the figure's text
            widgets.HBox([self.curves, widgets.VBox([self.board, self.answers])],
                         layout=widgets.Layout(align_items="flex-start")), self.job.widget, self.message])
        self.add_class("nqk-phase-explorer")
        self.family.observe(lambda _: self._on_family(), names="value")
        self.n.observe(self._on_point, names="value")
        self.density.observe(self._on_point, names="value")
        self.instance.observe(lambda _: self.redraw(curves=False), names="value")
        self._on_family()

    def _on_point(self, change: Change | None = None) -> None:
        self.redraw()

    def wait(self, timeout: float = 120.0) -> None:
        """Wait for the live solves to end and their answers to show (tests and notebooks)."""
        self.job.wait(timeout)

    def _points(self) -> list[Mapping[str, Any]]:
        return [e for e in self.summary if (e.get("family") or "completion") == self.family.value]

    @guarded
    def _on_family(self) -> None:
        points = self._points()
        sizes = sorted({int(e["n"]) for e in points})
        top = max(float(e["density"]) for e in points)
        # only this app's own observers are paused: the widgets' internal ones (a dropdown's value -> index,
        # which the browser shows) must stay, or the n menu is drawn empty
        self.n.unobserve(self._on_point, names="value")
        self.density.unobserve(self._on_point, names="value")
        try:
            self.n.options = sizes
            self.n.value = sizes[-1]
            self.density.max = round(top, 3)
            self.density.value = 0.0
        finally:
            self.n.observe(self._on_point, names="value")
            self.density.observe(self._on_point, names="value")
        self.redraw()

    def problem(self) -> Problem:
        """The instance shown now."""
        return instance_problem(self.family.value, int(self.n.value), round(float(self.density.value), 4),
                                instance=self.instance.value)

    @guarded
    def redraw(self, curves: bool = True) -> None:
        """Draw the stored curves (with the density marked) and the instance; solve it live."""
        from matplotlib.figure import Figure

        from ..viz.boards import draw_board
        from ..viz.charts import plot_phase_effort
        from ..viz.style import presentation

        points = self._points()
        density = float(self.density.value)
        with presentation():
            if curves:
                self.curves.value = figure_png(plot_phase_effort(points, density=density, figsize=(7.5, 5.2)))
            problem = self.problem()
            # drawn at the size it is shown (300 px at figure_png's 90 dpi), so its title stays readable
            ax = Figure(figsize=(3.3, 3.6)).subplots()
            title = f"{problem.n} × {problem.n}" + "".join(
                f", {k} {what}" for k, what in ((len(problem.preplaced), "queens placed"),
                                               (len(problem.blocked), "cells blocked")) if k)
            self.board.value = figure_png(draw_board(problem.n, problem.preplaced, problem.preplaced,
                                                     blocked=problem.blocked, labels=problem.n <= 20, ax=ax,
                                                     title=textwrap.fill(title, 24)))
        self.answers.value = ""
        if self.live:
            self._solve(problem)

    def _solve(self, problem: Problem) -> None:
        runs = list(self.configs)

        def work(stop: Stop) -> list[tuple[Choice, SolveResult]]:
            done = []
            for choice in runs:
                if stop():
                    break
                done.append((choice, solve(problem, choice.method, choice.variant, choice.solver,
                                           time_limit=APP_TIME_LIMIT, stop=stop)))
            return done

        self.job.start(work, self._show, f"solving this instance ({len(runs)} solvers)")

    def _show(self, results: list[tuple[Choice, SolveResult]]) -> None:
        self.results = results
        lines = []
        for choice, result in results:
            effort = ", ".join(f"{result.stats[k]:,} {k}" for k in ("conflicts", "nodes")
                               if isinstance(result.stats.get(k), int))
            took = ms(result.build_seconds + result.solve_seconds)
            verdict = {Status.SOLVED: "a board", Status.INFEASIBLE: "no board"}.get(result.status, str(result.status))
            lines.append(f"<b>{html.escape(choice.label)}</b>: {verdict} in {took}"
                         + (f"; {html.escape(effort)}" if effort else ""))
        self.answers.value = ("<div class='nqk-answers' style='font-size:15px'>" + "<br>".join(lines)
                              + "<br><small>times: this machine, now</small></div>")


def phase_explorer(summary: Sequence[Mapping[str, Any]] | str | Path = "data/phase.csv",
                   live: bool = True) -> PhaseExplorer:
    """The phase explorer over a phase study's summary (rows of :func:`~nqueens_kit.bench.phase.phase_summary`
    or the path of its CSV); ``live=False`` draws without solving."""
    rows = read_summary(summary) if isinstance(summary, (str, Path)) else summary
    return PhaseExplorer(rows, live)
