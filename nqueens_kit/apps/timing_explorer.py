"""The timing explorer: pick configurations and a range of n, press Run, watch the plot grow; Stop at any time.

The configurations come from the registry: every method that can solve, with each of its variants on its
first installed solver and on each installed solver whose registry entry advises it for some use (its
``advice``: CryptoMiniSat and Kissat for the largest boards, so ``SAT product/cryptominisat5`` at n = 1000
is one choice away), and its benchmark variants on each installed solver (a method without solvers as it
is); the sweep's default methods are chosen at the start.  n goes up to :data:`TIMING_MAX_N`.  The sweep runs through
:func:`nqueens_kit.bench.run_sweep` in a background thread (each run a fresh process with its time limit);
Stop kills the run under way and ends the sweep.  Each method is drawn in its own colours, the same in every
chapter (:mod:`nqueens_kit.viz.style`).

>>> app = timing_explorer(["sat:pairwise:pycosat"], ns=(4, 6), step=1)
>>> app.sizes(), app.repeat.value
([4, 5, 6], 3)
"""

from __future__ import annotations

import time
from collections.abc import Sequence

import ipywidgets as widgets

from ..bench import choice_from_row, make_configs, parse_choice, run_sweep
from ..bench.config import DEFAULT_METHODS
from ..bench.results import ResultRow
from ..errors import InputError
from ..methods import Choice, Method, get_method, methods_with
from .common import Job, Messages, Stop, figure_png, guarded, installed_solvers, ms, show_image

#: The timing explorer refuses sweeps of more runs than this (each run is a fresh process).
TIMING_MAX_RUNS = 150
#: The largest n the sliders reach (n = 1000 takes tens of seconds a run: raise the time limit with it).
TIMING_MAX_N = 1024
#: Redraw the growing plot at most this often (seconds); the last row always redraws.
REDRAW_SECONDS = 0.4


def timing_choices() -> list[tuple[str, Choice]]:
    """``(label, Choice)`` for every configuration the explorer offers with the solvers installed here."""
    choices: list[Choice] = []
    for method in methods_with("solve"):
        solvers = installed_solvers(method)
        if not method.solvers():
            choices.append(method.choose())
            continue
        every: list[str | None] = [*method.variants()] or [None]
        bench: list[str | None] = [*method.bench_variants] or [method.default_variant()]
        advised = {name for name, entry in method.solvers().items() if entry.advice}
        for index, solver in enumerate(solvers):
            variants = every if index == 0 or solver in advised else bench
            choices += [c for c in (method.choose(variant, solver) for variant in variants) if _runs(method, c)]
    return [(choice.label, choice) for choice in dict.fromkeys(choices)]


def _runs(method: Method, choice: Choice) -> bool:
    """Whether the method runs this configuration (a variant some solvers refuse, as native cardinality
    constraints on a clause-only solver, is not offered with them)."""
    try:
        method.check(None, "solve", choice)
    except InputError:
        return False
    return True


def default_choices(offered: Sequence[Choice]) -> list[Choice]:
    """The sweep's default configurations (:data:`nqueens_kit.bench.config.DEFAULT_METHODS`) among those
    offered; one whose solver is not installed gives way to the same method and variant on an installed one."""
    chosen: list[Choice] = []
    for wanted in make_configs(DEFAULT_METHODS):
        same = [c for c in offered if (c.method, c.variant) == (wanted.method, wanted.variant)]
        pick = wanted if wanted in offered else (same[0] if same else None)
        if pick is not None and pick not in chosen:
            chosen.append(pick)
    return chosen


def _config(choice: Choice | tuple[str, ...] | str) -> Choice:
    if isinstance(choice, Choice):
        return choice
    if isinstance(choice, str):
        return parse_choice(choice)
    return get_method(choice[0]).choose(*choice[1:])


class TimingExplorer(Messages, widgets.VBox):
    """The timing explorer (see :func:`timing_explorer`)."""

    def __init__(self, choices: Sequence[Choice | tuple[str, ...] | str] | None = None,
                 ns: tuple[int, int] = (4, 16), step: int = 4) -> None:
        self.message = widgets.HTML("")
        offered = timing_choices()
        configs = [c for _, c in offered]
        wanted = default_choices(configs) if choices is None else [_config(c) for c in choices]
        self.configs = widgets.SelectMultiple(options=offered, value=[c for c in wanted if c in configs],
                                              rows=min(10, len(offered)), description="methods",
                                              layout=widgets.Layout(width="360px"))
        self.ns = widgets.IntRangeSlider(value=ns, min=1, max=TIMING_MAX_N, description="n from, to",
                                         continuous_update=False, style={"description_width": "90px"},
                                         layout=widgets.Layout(width="420px"))
        self.step = widgets.IntSlider(value=step, min=1, max=256, description="n step",
                                      style={"description_width": "90px"}, layout=widgets.Layout(width="420px"))
        self.repeat = widgets.IntSlider(value=3, min=1, max=5, description="repeats",
                                        tooltip="runs per configuration and n; the plot shows their median",
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
        show_image(self.plot, None, "press Run: the plot grows here as the runs come in")
        self.job = Job(self, [self.run_button])
        self.rows: list[ResultRow] = []
        #: Runs the sweep under way (or the last one) asked for; the plot's title says how many are in.
        self.total = 0
        settings = widgets.VBox([self.ns, self.step, self.repeat, self.placed, self.timeout])
        hint = widgets.HTML("<small>Ctrl- or Shift-click to choose several methods. “queens placed” puts that "
                            "many random non-attacking queens on each board first (completion instances). Each "
                            "solver runs with its method's default settings. For the largest boards pick a "
                            "solver that <code>nqueens-kit solvers</code> advises for them (such as SAT "
                            "product/cryptominisat5), n from 1000 to 1000 and a time limit to match."
                            "</small>")
        super().__init__([
            widgets.HBox([self.configs, settings]), hint,
            widgets.HBox([self.run_button, self.job.stop_button, self.progress, self.progress_label]),
            self.job.status, self.message, self.plot,
        ])
        self.add_class("nqk-timing-explorer")
        self.run_button.on_click(lambda _: self.run())
        self.job.stop_button.on_click(lambda _: self._stopping())

    def sizes(self) -> list[int]:
        """The board sizes the current settings ask for (both ends included)."""
        low, high = self.ns.value
        sizes = list(range(low, high + 1, self.step.value))
        if sizes and sizes[-1] != high:
            sizes.append(high)
        return sizes

    def wait(self, timeout: float = 300.0) -> None:
        """Wait for a running sweep to end (tests and notebooks)."""
        self.job.wait(timeout)

    @guarded
    def run(self) -> None:
        """Start the sweep in the background, redrawing the plot as rows arrive (see :attr:`rows`)."""
        configs = list(self.configs.value)
        if not configs:
            self.say("choose at least one method to time", "error")
            return
        ns = self.sizes()
        total = len(configs) * len(ns) * self.repeat.value
        if total > TIMING_MAX_RUNS:
            self.say(f"that is {total} runs; choose fewer methods, sizes or repeats (at most {TIMING_MAX_RUNS})",
                     "error")
            return
        self.rows, self.total = [], total
        self.progress.max, self.progress.value = total, 0
        self.progress.bar_style = ""
        self.progress_label.value = f"0 of {total} runs"
        self.say(f"running {total} runs, each in a fresh process …")
        repeat, timeout, placed = self.repeat.value, float(self.timeout.value), self.placed.value
        last_draw = [0.0]

        def on_row(row: ResultRow) -> None:
            self.rows.append(row)
            self.progress.value = len(self.rows)
            took = row.get("total_seconds")
            timing = ms(took) if isinstance(took, (int, float)) and row["status"] == "solved" else row["status"]
            label = choice_from_row(row).label
            self.progress_label.value = f"{len(self.rows)} of {total} runs · {label}, n = {row['n']}: {timing}"
            now = time.perf_counter()
            if now - last_draw[0] >= REDRAW_SECONDS or len(self.rows) == total:
                self._draw()
                last_draw[0] = now

        def work(stop: Stop) -> tuple[float, bool]:
            start = time.perf_counter()
            run_sweep(configs, ns, repeat=repeat, timeout=timeout, out=None, progress=False, on_row=on_row,
                      place_random=placed, stop=stop)
            return time.perf_counter() - start, bool(stop())

        self.job.start(work, self._finish, f"timing {total} runs")

    def _stopping(self) -> None:
        """Stop pressed: say so at once (the run under way is being killed; the sweep ends after it)."""
        if self.job.busy:
            self.say(f"stopping after {len(self.rows)} of {self.total} runs …", "warn")

    def _finish(self, answer: tuple[float, bool]) -> None:
        seconds, stopped = answer
        self._draw()
        if stopped:
            self.progress_label.value = f"stopped by you: {len(self.rows)} of {self.total} runs done"
        problems = [r for r in self.rows if r["status"] in ("error", "unknown", "timeout", "memout")]
        self.progress.bar_style = "success" if not problems and not stopped else "warning"
        summary = (f"stopped by you after {len(self.rows)} of {self.total} runs ({seconds:.1f} s)" if stopped
                   else f"done: {len(self.rows)} runs in {seconds:.1f} s")
        if problems:
            first = problems[0]
            summary += (f"; {len(problems)} did not finish (first: {choice_from_row(first).label}, n = {first['n']}: "
                        f"{first['status']}{', ' + first['message'] if first.get('message') else ''})")
        self.say(summary, "ok" if not problems and not stopped else "warn")

    def _draw(self) -> None:
        from ..viz.charts import plot_time

        if any(row["status"] in ("solved", "infeasible") for row in self.rows):
            show_image(self.plot, figure_png(plot_time(self.rows, title=self.plot_title())), "")

    def plot_title(self) -> str:
        """The plot's title: how many runs it shows, of how many asked for (a partial sweep says so, and
        names no number of repeats its points may not have yet)."""
        done = len(self.rows)
        if done < self.total and self.job.busy:
            return f"build + solve time: {done} of {self.total} runs so far (median of the runs in)"
        if done < self.total:
            return f"build + solve time: the {done} of {self.total} runs done before Stop (median of those)"
        return f"median build + solve time of {self.repeat.value} run{'s' if self.repeat.value != 1 else ''}"


def timing_explorer(choices: Sequence[Choice | tuple[str, ...] | str] | None = None, ns: tuple[int, int] = (4, 16),
                    step: int = 4) -> TimingExplorer:
    """The timing explorer: pick methods and a range of n, press Run, watch the plot grow; Stop ends it."""
    return TimingExplorer(choices, ns, step)
