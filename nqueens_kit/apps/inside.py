"""Inside the solver: step through a CDCL search on the board, and walk a branch-and-bound tree.

*CDCL trace*: the kit's own solver (or CaDiCaL's real trail) on one board; the step slider and its buttons
walk through decisions, propagations, conflicts and learned clauses.  The board shows the queens (decisions
framed in blue), the cells ruled out (tinted), the clause that became false (red), and the learned clause in
the lectures' notation; beside it, the implication graph of the conflict at or before the step, cut at the
first unique implication point (:func:`~nqueens_kit.inside.figures.draw_implication_graph`).  A new n,
encoding or engine clears the trace at once and traces again (no board of the last n stays on screen).

*Branch and bound*: the kit's own tree over LP relaxations; pick a node to see its LP values as a heat map.

Both run in the background with a time limit and a Stop button.

>>> app = inside(n=4); app.wait()
>>> app.trace_result.status, app.step.max == len(app.trace_result.events) - 1
('solved', True)
>>> app.step.value = 0; app.step_text.startswith('decide')
True
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, TypeVar

import ipywidgets as widgets

from ..errors import InputError
from ..inside.cdcl import Trace, event_text, state_at, trace, trace_cadical
from ..methods.ilp.formulations import FORMULATIONS
from ..methods.sat.encodings import ENCODINGS
from ..problem.board import Cell, Problem, parse_cell
from ..runtime import isolate
from ..solvers import ILP_SOLVERS, SAT_SOLVERS
from .common import APP_TIME_LIMIT, Job, Messages, Stop, clamp_size, dropdown, figure_png, guarded, show_image
from .svg import board_svg

if TYPE_CHECKING:
    from ..inside.bnb import Tree

T = TypeVar("T")

TRACE_MAX_N = 10
BNB_MAX_N = 8
#: The frame of a decided queen on the board (blue: red means a false clause).
DECISION_FRAME = "#0072B2"
#: Font size (px) of the recent steps listed beside the board: readable on a projector.
TRACE_FONT_PX = 15
#: What the implication graph's place says before the step reaches the first conflict.
GRAPH_WAITING = "the implication graph appears here at the first conflict"


def frame_cells(svg: str, cells: Iterable[Cell], colour: str = DECISION_FRAME) -> str:
    """The board SVG with a thick frame of ``colour`` around each cell (drawn under the queens)."""
    frames = "".join(f'<rect class="nqk-decision" data-row="{r}" data-col="{c}" x="{c - 0.93}" y="{r - 0.93}" '
                     f'width="0.86" height="0.86" fill="none" stroke="{colour}" stroke-width="0.12"/>'
                     for r, c in cells)
    at = svg.find('<g class="nqk-queen"')
    at = at if at >= 0 else svg.rfind("</svg>")
    return svg[:at] + frames + svg[at:]


def _placed(text: str, n: int) -> tuple[Cell, ...]:
    return tuple(parse_cell(item, n) for item in text.replace(";", " ").split())


def _run_child(fn: Callable[..., T], args: tuple[object, ...], stop: Stop) -> T | None:
    run = isolate.run_in_child(fn, args, time_limit=APP_TIME_LIMIT, stop=stop)
    if run.status == "done":
        return run.value
    run.raise_error()
    return None  # stopped or out of time: the job says so


class Inside(Messages, widgets.VBox):
    """The two views (see :func:`inside`)."""

    def __init__(self, n: object = 6) -> None:
        self.message = widgets.HTML("")
        size, problem_text = clamp_size(n, 1, TRACE_MAX_N)
        self.n = widgets.IntSlider(value=size, min=1, max=TRACE_MAX_N, description="n", continuous_update=False,
                                   layout=widgets.Layout(width="260px"), style={"description_width": "30px"})
        self.encoding = dropdown("encoding", list(ENCODINGS), "pairwise")
        engines = [("the kit's CDCL (every clause)", "kit")]
        if SAT_SOLVERS["pysat-cadical"].available():
            engines.append(("CaDiCaL's trail", "cadical"))
        self.engine = dropdown("engine", engines, "kit", width="300px")
        self.place = widgets.Text(value="", placeholder="e.g. 1,1 2,3", description="queens",
                                  layout=widgets.Layout(width="220px"), style={"description_width": "60px"})
        self.run_button = widgets.Button(description="Trace", icon="play", button_style="primary")
        self.step = widgets.IntSlider(value=0, min=0, max=0, description="step", continuous_update=True,
                                      layout=widgets.Layout(width="420px"), style={"description_width": "40px"})
        # icons (Font Awesome, which ipywidgets ships) rather than glyphs a browser's font may lack
        self.buttons = {name: widgets.Button(icon=icon, tooltip=tip, layout=widgets.Layout(width="48px"))
                        for name, icon, tip in (("first", "fast-backward", "the first step"),
                                                ("back", "step-backward", "one step back"),
                                                ("forward", "step-forward", "one step on"),
                                                ("last", "fast-forward", "the last step"))}
        self.board = widgets.HTML("")
        self.event_line = widgets.HTML("")
        self.recent = widgets.HTML("")
        self.graph = widgets.Image(format="png", layout=widgets.Layout(max_width="640px"))
        show_image(self.graph, None, GRAPH_WAITING)
        self.graph_step: int | None = None
        self.job = Job(self, [self.run_button])
        self.trace_result: Trace | None = None
        # branch and bound
        self.bnb_n = widgets.IntSlider(value=min(size, BNB_MAX_N), min=1, max=BNB_MAX_N, description="n",
                                       continuous_update=False, layout=widgets.Layout(width="260px"),
                                       style={"description_width": "30px"})
        self.formulation = dropdown("formulation", list(FORMULATIONS), "lines")
        ilp = [name for name, solver in ILP_SOLVERS.items() if solver.available()]
        self.lp_solver = dropdown("LP solver", ilp or ["(none)"], ilp[0] if ilp else "(none)")
        self.bnb_button = widgets.Button(description="Branch and bound", icon="play", button_style="primary",
                                         layout=widgets.Layout(width="170px"))
        self.node = widgets.Select(options=[], rows=12, layout=widgets.Layout(width="520px"))
        self.tree_image = widgets.Image(format="png")
        self.node_view = widgets.Image(format="png")
        show_image(self.tree_image, None, "press “Branch and bound”: the tree appears here")
        show_image(self.node_view, None, "pick a node: its LP values appear here")
        self.bnb_job = Job(self, [self.bnb_button])
        self.tree: Tree | None = None
        trace_view = widgets.VBox([
            widgets.HBox([self.n, self.encoding, self.engine]),
            widgets.HBox([self.place, self.run_button]),
            widgets.HBox([*self.buttons.values(), self.step]),
            widgets.HBox([self.board, widgets.VBox([self.event_line, self.recent],
                                                   layout=widgets.Layout(width="560px"))]),
            self.graph, self.job.widget,
        ])
        bnb_view = widgets.VBox([
            widgets.HBox([self.bnb_n, self.formulation, self.lp_solver, self.bnb_button]),
            widgets.HBox([self.node, self.node_view]), self.tree_image, self.bnb_job.widget,
        ])
        self.views = widgets.Tab(children=[trace_view, bnb_view], titles=("CDCL trace", "Branch and bound"))
        super().__init__([self.views, self.message])
        self.add_class("nqk-inside")
        self.run_button.on_click(lambda _: self.run())
        for control in (self.n, self.encoding, self.engine):  # a new setting: its own trace, no Trace to press
            control.observe(lambda _: self.run(), names="value")
        self.bnb_button.on_click(lambda _: self.run_bnb())
        self.step.observe(lambda _: self.show(), names="value")
        self.buttons["first"].on_click(lambda _: self._go(0))
        self.buttons["back"].on_click(lambda _: self._go(self.step.value - 1))
        self.buttons["forward"].on_click(lambda _: self._go(self.step.value + 1))
        self.buttons["last"].on_click(lambda _: self._go(self.step.max))
        self.node.observe(lambda _: self.show_node(), names="value")
        if problem_text:
            self.say(problem_text + f"; showing n = {size}", "warn")
        self.run()

    def wait(self, timeout: float = 120.0) -> None:
        self.job.wait(timeout)
        self.bnb_job.wait(timeout)

    # ------------------------------------------------------------------ the CDCL trace

    @guarded
    def run(self) -> None:
        """Trace the problem the controls name (started by Trace and by a new n, encoding or engine); the
        last trace leaves the view at once, so a board of another n is never shown under this one's controls."""
        n = self.n.value
        self._forget_trace(n)
        problem = Problem(n, _placed(self.place.value, n))
        engine, encoding = self.engine.value, self.encoding.value
        fn = trace if engine == "kit" else trace_cadical
        self.say("")
        self.job.start(lambda stop: _run_child(fn, (problem, encoding, 20_000), stop), self._traced,
                       f"tracing {problem.describe()} ({encoding})")

    def _forget_trace(self, n: int) -> None:
        """Clear the trace view: an empty board of ``n``, no step text, the step slider back to its start."""
        self.trace_result = None  # first: show() then draws nothing while the slider moves back
        self.graph_step = None
        self.step.value = 0
        self.step.max = 0
        self.board.value = board_svg(n, size=360, caption=f"{n} × {n} board: its trace appears here")
        self.event_line.value = self.recent.value = ""
        show_image(self.graph, None, GRAPH_WAITING)

    def _traced(self, result: Trace | None) -> None:
        if result is None:
            self.say("stopped: no trace", "warn")
            return
        self.trace_result = result
        self.graph_step = None
        self.step.max = max(0, len(result.events) - 1)
        self.step.value = 0
        self.show()
        stats = ", ".join(f"{v:,} {k}" for k, v in result.stats.items())
        self.say(f"{result.status}: {len(result.events):,} events; {stats}" + (f"; {result.note}" if result.note
                                                                               else ""))

    def _go(self, step: int) -> None:
        self.step.value = min(self.step.max, max(0, step))

    @guarded
    def show(self) -> None:
        result = self.trace_result
        if result is None or not result.events:
            return
        k = self.step.value
        state = state_at(result, k)
        cnf = result.cnf
        conflict_cells = [cnf.problem.cell(abs(lit)) for lit in state.conflict if abs(lit) <= cnf.board_vars]
        self.board.value = frame_cells(board_svg(cnf.n, state.queens, cnf.problem.preplaced, highlight=state.blocked,
                                                 conflicts=conflict_cells, size=360,
                                                 caption=f"step {k + 1}: level {state.level}"), state.decided)
        event = result.events[k]
        text = event_text(event, cnf)
        self.event_line.value = f"<div style='font-size:{TRACE_FONT_PX + 2}px'>{html.escape(text)}"
        if state.learned:
            self.event_line.value += ("<br><b>learned:</b> " + html.escape(" ∨ ".join(
                cnf.literal_name(lit) for lit in state.learned) or "⊥"))
        self.event_line.value += "</div>"
        start = max(0, k - 8)
        self.recent.value = f"<pre style='font-size:{TRACE_FONT_PX}px;line-height:1.3'>" + html.escape("\n".join(
            event_text(e, cnf) for e in result.events[start:k])) + "</pre>"
        self._show_graph(k)

    @property
    def step_text(self) -> str:
        """The step shown now, as plain text (for tests and notebooks)."""
        return html.unescape(re.sub(r"<[^>]+>", " ", self.event_line.value)).strip()

    def _show_graph(self, k: int) -> None:
        """The implication graph of the latest analysed conflict at or before step ``k`` (the kit's own trace
        only: CaDiCaL's trail carries no reasons); nothing before the first conflict."""
        from ..inside.cdcl import conflict_steps
        from ..inside.figures import draw_implication_graph
        from ..viz.style import presentation

        result = self.trace_result
        if result is None or result.engine != "kit":
            show_image(self.graph, None, "CaDiCaL's trail carries no reasons: no implication graph")
            self.graph_step = None
            return
        at = [c for c in conflict_steps(result) if c <= k]
        step = at[-1] if at else None
        if step == self.graph_step:
            return
        self.graph_step = step
        if step is None:
            show_image(self.graph, None, GRAPH_WAITING)
            return
        with presentation():
            show_image(self.graph, figure_png(draw_implication_graph(result, step)), GRAPH_WAITING)

    # ------------------------------------------------------------------ branch and bound

    @guarded
    def run_bnb(self) -> None:
        from ..inside.bnb import branch_and_bound

        if self.lp_solver.value == "(none)":
            raise InputError("no LP solver is installed (pip install pulp highspy)")
        args = (Problem(self.bnb_n.value), self.formulation.value, self.lp_solver.value, 500, APP_TIME_LIMIT)
        self.bnb_job.start(lambda stop: _run_child(branch_and_bound, args, stop), self._bounded,
                           f"branch and bound on {self.bnb_n.value}-queens")

    def _bounded(self, tree: Tree | None) -> None:
        from ..inside.bnb import tree_text
        from ..inside.figures import plot_bnb_tree

        if tree is None:
            self.say("stopped: no tree", "warn")
            return
        self.tree = tree
        labels = tree_text(tree)
        order = [int(line.split("#")[1].split()[0]) for line in labels]
        self.node.options = [(line.replace(" ", "\u00a0"), node_id) for line, node_id in zip(labels, order,
                                                                                                strict=True)]
        self.node.value = 0
        show_image(self.tree_image, figure_png(plot_bnb_tree(tree)), "no tree")
        counts = ", ".join(f"{v} {k}" for k, v in tree.counts().items() if v)
        self.say(f"{tree.status}: {len(tree.nodes)} nodes ({counts})")

    @guarded
    def show_node(self) -> None:
        from ..viz.boards import heatmap

        if self.tree is None or self.node.value is None:
            return
        node = self.tree.nodes[self.node.value]
        title = f"node #{node.id}: {node.status}" + (f", LP {node.bound:.2f}" if node.bound is not None else "")
        show_image(self.node_view, figure_png(heatmap(self.tree.problem.n, node.values, title=title,
                                                      label="LP value of the cell")), "no LP values")


def inside(n: object = 6) -> Inside:
    """The "Inside the solver" app: a CDCL trace to step through, and a branch-and-bound tree."""
    return Inside(n)
