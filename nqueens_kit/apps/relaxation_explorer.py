"""The relaxation explorer: a formulation's LP relaxation on the board, and the model it comes from.

Pick n, a formulation and an ILP solver: the board shows the values the LP relaxation (0 <= x <= 1) gives
each cell, and beside it the model as the solver gets it, one named constraint a line.  The *objective*
menu can swap the model's own objective for "as many queens as possible on the long diagonal": with one
constraint per diagonal the relaxation keeps that diagonal at 1, with a constraint per pair it lets the
diagonal hold n/2.  Each LP is solved in the background with a time limit and a Stop button.

>>> app = relaxation_explorer(n=6, formulation="pairwise", objective="diagonal"); app.wait()
>>> app.load
3.0
"""

from __future__ import annotations

import html
import re
import time
from collections.abc import Iterable, Mapping

import ipywidgets as widgets

from ..methods.ilp.formulations import FORMULATIONS, Formulation
from ..methods.ilp.model import IlpModel, _run, build_model
from ..problem.board import Cell, Problem
from ..solvers import ILP_SOLVERS, get_solver
from ..solvers.ilp_pulp import state_of
from .common import APP_TIME_LIMIT, Change, Job, Messages, Stop, clamp_size, dropdown, guarded, ms

#: Board sizes the explorer offers: every value is printed in its cell.
RELAX_MAX_N = 10
#: At most this many constraints of the model are listed.
MODEL_LINES = 40
#: The objectives offered: the model's own, or the most queens on the long diagonal.
OBJECTIVES = {"own": "the model's own", "diagonal": "most queens on the long diagonal"}


def values_svg(n: int, values: Mapping[Cell, float], size: int = 400, marked: Iterable[Cell] = (),
               caption: str = "") -> str:
    """A board whose cells are shaded by a value from 0 (white) to 1 (dark blue), the value printed in each
    cell that is not 0; ``marked`` cells get a thick frame (the line an objective loads)."""
    margin = 0.7
    label = caption or f"{n} × {n} board of LP values"
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="nqk-values" role="img" aria-label="{html.escape(label)}" '
             f'data-n="{n}" width="{size}" height="{size}" viewBox="{-margin} {-margin} {n + margin} {n + margin}">']
    for r in range(1, n + 1):
        for c in range(1, n + 1):
            value = min(1.0, max(0.0, float(values.get((r, c), 0.0))))
            parts.append(f'<rect class="nqk-cell" x="{c - 1}" y="{r - 1}" width="1" height="1" fill="#08519c" '
                         f'fill-opacity="{value:.3f}" stroke="#9e9e9e" stroke-width="0.02"/>')
            if value > 1e-6:
                text = "1" if value > 1 - 1e-6 else f"{value:.2f}".rstrip("0").lstrip("0")
                colour = "white" if value > 0.55 else "#111"
                parts.append(f'<text x="{c - 0.5}" y="{r - 0.36}" font-size="0.36" text-anchor="middle" '
                             f'fill="{colour}">{text}</text>')
    for i in range(1, n + 1):
        parts.append(f'<text x="{i - 0.5}" y="-0.2" font-size="0.42" text-anchor="middle" fill="#555">{i}</text>')
        parts.append(f'<text x="-0.35" y="{i - 0.35}" font-size="0.42" text-anchor="middle" fill="#555">{i}</text>')
    for r, c in marked:
        parts.append(f'<rect x="{c - 0.95}" y="{r - 0.95}" width="0.9" height="0.9" fill="none" stroke="#e69f00" '
                     'stroke-width="0.08"/>')
    parts.append(f'<rect x="0" y="0" width="{n}" height="{n}" fill="none" stroke="#333" stroke-width="0.04"/></svg>')
    return "".join(parts)


def model_text(model: IlpModel, limit: int = MODEL_LINES) -> list[str]:
    """The model in the lectures' notation, a line each: the objective, then ``name: x[1,1] + ... <= 1``."""
    def lectures(text: str) -> str:
        text = re.sub(r"x_(\d+)_(\d+)", r"x[\1,\2]", text)
        return re.sub(r"(\d)\.0\b", r"\1", text)

    objective = model.prob.objective
    sense = "maximise" if model.prob.sense == -1 else "minimise"
    head = (f"{sense} {lectures(str(objective))}" if objective is not None and len(objective)
            else "no objective: any point that satisfies every constraint will do")
    names = model.constraint_names()
    lines = [head, "subject to"] + [f"  {name}: {lectures(str(model.constraint(name)))}" for name in names[:limit]]
    if len(names) > limit:
        lines.append(f"  … and {len(names) - limit} more")
    lines.append(f"  0 <= x[r,c] <= 1 for every cell ({model.num_variables} variables; the ILP asks for 0 or 1)")
    return lines


class RelaxationExplorer(Messages, widgets.VBox):
    """The relaxation explorer (see :func:`relaxation_explorer`); its controls are attributes."""

    def __init__(self, n: object = 8, formulation: str = "lines", objective: str = "own",
                 extra: Mapping[str, Formulation] | None = None) -> None:
        self.message = widgets.HTML("")
        self.formulations: dict[str, Formulation] = {**FORMULATIONS, **(extra or {})}
        size, problem_text = clamp_size(n, 1, RELAX_MAX_N)
        self.n = widgets.IntSlider(value=size, min=1, max=RELAX_MAX_N, description="n", continuous_update=False,
                                   style={"description_width": "30px"}, layout=widgets.Layout(width="320px"))
        self.formulation = dropdown("formulation", list(self.formulations), formulation, width="300px")
        solvers = [name for name, solver in ILP_SOLVERS.items() if solver.available()]
        self.solver = dropdown("solver", solvers, solvers[0] if solvers else None)
        self.objective = dropdown("objective", [(text, key) for key, text in OBJECTIVES.items()], objective,
                                  width="380px")
        self.board = widgets.HTML("")
        self.summary = widgets.HTML("")
        self.model = widgets.HTML("")
        self.job = Job(self, [])
        self.values: dict[Cell, float] = {}
        self.load: float | None = None
        super().__init__([
            widgets.HBox([self.n, self.formulation, self.solver]), self.objective, self.job.widget,
            widgets.HBox([self.board, self.model], layout=widgets.Layout(align_items="flex-start", grid_gap="20px")),
            self.summary, self.message,
        ])
        self.add_class("nqk-relaxation-explorer")
        for control in (self.n, self.formulation, self.solver, self.objective):
            control.observe(self._on_change, names="value")
        if not solvers:
            self.say("no ILP solver is installed here (pip install pulp, or highspy)", "error")
            return
        self.refresh()
        if problem_text:
            self.job.wait()
            self.say(problem_text + "; showing n = " + str(size), "warn")

    def wait(self, timeout: float = 120.0) -> None:
        """Wait for the LP to be solved and drawn (tests and notebooks)."""
        self.job.wait(timeout)

    def _on_change(self, change: Change | None = None) -> None:
        self.refresh()

    @guarded
    def refresh(self) -> None:
        """Build the model for the current choice and solve its LP relaxation (in the background)."""
        import pulp

        self.job.cancel()
        n, form = self.n.value, self.formulations[self.formulation.value]
        problem = Problem(n)
        diagonal = self.objective.value == "diagonal"
        long_line = next(line.cells for line in problem.lines() if line.name == f"diag_{n}") if n > 1 else ()
        model = build_model(problem, form, relax=True)
        if diagonal and long_line:
            model.prob.sense = pulp.LpMaximize
            model.prob.setObjective(pulp.lpSum(model.x[cell] for cell in long_line))
        self.model.value = ("<pre class='nqk-model' style='max-height:400px;overflow:auto;font-size:15px;"
                            "line-height:1.25;background:#f6f6f6;padding:6px;margin:0'>"
                            + html.escape("\n".join(model_text(model))) + "</pre>")
        backend = get_solver("ilp", self.solver.value).require()

        def work(stop: Stop) -> tuple[str, dict[Cell, float], float]:
            start = time.perf_counter()
            run = _run(model, backend, time.monotonic() + APP_TIME_LIMIT, None)  # type: ignore[arg-type]
            state = state_of(run)
            values = ({cell: min(1.0, max(0.0, float(var.varValue or 0.0))) for cell, var in model.x.items()}
                      if state in ("optimal", "feasible") else {})
            return state, values, time.perf_counter() - start

        def done(answer: tuple[str, dict[Cell, float], float]) -> None:
            state, values, seconds = answer
            self.values = values
            self.load = round(sum(values.get(cell, 0.0) for cell in long_line), 6) if values and long_line else None
            self._show(n, form, state, seconds, long_line if diagonal else ())

        self.job.start(work, done, f"LP relaxation, {form.name}, n = {n}")

    def _show(self, n: int, form: Formulation, state: str, seconds: float, marked: Iterable[Cell]) -> None:
        values = self.values
        fractional = sum(1e-6 < v < 1 - 1e-6 for v in values.values())
        self.board.value = values_svg(n, values, marked=marked,
                                      caption=f"LP relaxation of {form.name} at n = {n}: {fractional} fractional cells")
        if not values:
            self.summary.value = ""
            self.say(f"the LP relaxation has no solution ({state})", "info")
            return
        total = sum(values.values())
        parts = [f"{self.solver.value} solved the LP in {ms(seconds)}", f"{fractional} fractional cells",
                 f"queens in all (the sum of x): {total:.2f}"]
        if self.load is not None:
            parts.append(f"on the long diagonal: {self.load:.2f} (a board has at most 1)")
        self.summary.value = f"<div class='nqk-stats' style='font-size:15px'>{html.escape('; '.join(parts))}</div>"
        if fractional:
            self.say("not a board: branch and bound would now split on a fractional cell", "info")
        else:
            self.say("a board: every cell is 0 or 1", "ok")


def relaxation_explorer(n: object = 8, formulation: str = "lines", objective: str = "own",
                        extra: Mapping[str, Formulation] | None = None) -> RelaxationExplorer:
    """The relaxation explorer: n, a formulation (the kit's three and any ``extra`` ones by name), an ILP
    solver and an objective (``own`` or ``diagonal``); the LP relaxation's values on the board and the model.

    >>> app = relaxation_explorer(n=6, formulation="lines", objective="diagonal"); app.wait()
    >>> app.load
    1.0
    """
    return RelaxationExplorer(n, formulation, objective, extra)
