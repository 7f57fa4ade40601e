"""The board explorer: n, a method, its variant and solver; step through the solutions.

Every method of the registry that can solve and runs here is offered, with one dropdown for its variants
(named with the method's own word, *encoding* or *formulation*) and one for its installed solvers, each
hidden when the method has none.  Every solve and every search for more boards runs in the background
(:class:`~nqueens_kit.apps.common.Job`) under a time limit, with a Stop button: a slow choice (backtracking
at n = 32, CBC on a large pairwise model) ends with a message, never with a frozen notebook.

>>> app = board_explorer(n=6); app.wait()
>>> app.counter.value
'solution 1 of 4'
"""

from __future__ import annotations

import html
import time
from collections.abc import Sequence

import ipywidgets as widgets

from ..methods import Choice, Method, count_estimate, first_boards, get_method, methods_with, solve
from ..problem.board import Board, Problem, parse_cell
from ..problem.results import SolveResult, Status
from .common import (
    APP_TIME_LIMIT,
    Change,
    Job,
    Messages,
    Stop,
    clamp_size,
    dropdown,
    guarded,
    installed_solvers,
    ms,
    run_text,
)
from .projector import KEYS, LAYOUTS, PROJECTOR_BOARD_PX, PROJECTOR_PANEL_PX, key_listener, keys_hint
from .svg import BOARD_PX, board_svg

#: Board sizes the explorer offers: far beyond what backtracking reaches in the time limit, so the slider shows
#: where each method stops (the construction and SAT go on; every search is in the background with a Stop).
EXPLORER_MAX_N = 100
#: Up to this n every solution is listed at once (with a solver that runs in this process and a method that
#: lists them quickly), so the counter can say "of 352" straight away; above it, boards are found a batch at
#: a time as "Next" needs them.
EAGER_MAX_N = 9
#: Listing every board up front is worth it only when the method's count rate says it takes this long at most.
EAGER_SECONDS = 2.0
#: Boards fetched at a time when stepping lazily.
BATCH = 8


def offered_methods() -> list[Method]:
    """The methods the explorer offers: every one that can solve and is available here, in registry order."""
    return [m for m in methods_with("solve") if m.available()]


class BoardExplorer(Messages, widgets.VBox):
    """The board explorer (see :func:`board_explorer`); its controls are attributes."""

    def __init__(self, n: object = 8, method: str | None = None, layout: str = "desk") -> None:
        self.message = widgets.HTML(value="")
        size, problem_text = clamp_size(n, 1, EXPLORER_MAX_N)
        methods = offered_methods()
        self.n = widgets.IntSlider(value=size, min=1, max=EXPLORER_MAX_N, description="n", continuous_update=False,
                                   style={"description_width": "30px"}, layout=widgets.Layout(width="380px"))
        self.method = dropdown("method", [(m.title, m.name) for m in methods], method, width="300px")
        self.variant = dropdown("variant", [])
        self.solver = dropdown("solver", [])
        self.next_button = widgets.Button(description="Next solution", icon="forward",
                                          tooltip="show the next solution", layout=widgets.Layout(width="150px"))
        self.first_button = widgets.Button(description="First", icon="fast-backward",
                                           tooltip="back to the first solution", layout=widgets.Layout(width="90px"))
        self.previous_button = widgets.Button(description="Previous", icon="backward",
                                              tooltip="show the previous solution",
                                              layout=widgets.Layout(width="120px"))
        self.smaller_button = widgets.Button(description="n − 1", tooltip="a board one smaller",
                                             layout=widgets.Layout(width="90px"))
        self.bigger_button = widgets.Button(description="n + 1", tooltip="a board one larger",
                                            layout=widgets.Layout(width="90px"))
        for button, action in ((self.next_button, "next"), (self.previous_button, "previous"),
                               (self.smaller_button, "smaller"), (self.bigger_button, "bigger")):
            button.add_class(f"nqk-key-{action}")  # what the projector's keys click (see .projector)
        self.layout_toggle = widgets.ToggleButtons(options=[("desk", "desk"), ("projector", "projector")],
                                                   value="desk", tooltips=["controls above the board",
                                                                           "the board first and large, big "
                                                                           "controls, clicker keys"],
                                                   style={"button_width": "90px"})
        self.counter = widgets.Label(value="")
        self.counter.add_class("nqk-counter")
        self.size_label = widgets.HTML(value="")
        self.board = widgets.HTML(value="")
        self.stats = widgets.HTML(value="")
        self.job = Job(self, [self.next_button, self.first_button, self.previous_button])
        self._boards: list[Board] = []
        self._total: int | None = None
        self._index = 0
        self._extra: Board = ()
        self._stats_text = ""
        self._kept: dict[str, tuple[str | None, str | None]] = {}
        self.key_box = key_listener()
        self.keys_hint = widgets.HTML(keys_hint())
        super().__init__([])
        self.add_class("nqk-board-explorer")
        self.layout_toggle.observe(lambda change: self.set_layout(str(change["new"])), names="value")
        if layout not in LAYOUTS:  # said, and kept above the answer; the desk layout is shown
            problem_text = "; ".join(filter(None, [problem_text, f"layout must be one of {', '.join(LAYOUTS)}, "
                                                                 f"not {layout!r}"]))
        self.set_layout(layout if layout in LAYOUTS else "desk")
        for control in (self.n, self.variant, self.solver):
            control.observe(self._on_change, names="value")
        self.method.observe(self._on_method, names="value")
        self.next_button.on_click(lambda _: self.next_solution())
        self.first_button.on_click(lambda _: self.first_solution())
        self.previous_button.on_click(lambda _: self.previous_solution())
        self.smaller_button.on_click(lambda _: self._resize(-1))
        self.bigger_button.on_click(lambda _: self._resize(+1))
        if problem_text:  # said at once and kept beside the answer: the cell never waits for the search
            self.keep_note(problem_text + "; showing n = " + str(size))
        self._on_method()

    # ------------------------------------------------------------------------------------ layouts

    @property
    def board_px(self) -> int:
        """The side of the drawn board: larger in the projector layout."""
        return PROJECTOR_BOARD_PX if self.layout_toggle.value == "projector" else BOARD_PX

    def set_layout(self, name: str) -> None:
        """``desk`` (controls above the board) or ``projector`` (the board first and large, the controls in a
        column beside it with large labels, and the keys of a clicker: see :mod:`.projector`)."""
        if name not in LAYOUTS:
            self.say(f"layout must be one of {', '.join(LAYOUTS)}, not {name!r}", "error")
            return
        if self.layout_toggle.value != name:
            self.layout_toggle.value = name  # observed: comes back here
            return
        projector = name == "projector"
        # wider buttons and labels for the projector's large type; back to the desk's sizes otherwise
        for button, desk, big in ((self.previous_button, "120px", "165px"), (self.next_button, "150px", "215px"),
                                  (self.first_button, "90px", "110px")):
            button.layout.width = big if projector else desk
        for control in (self.method, self.variant, self.solver):
            control.style.description_width = "100px" if projector else "80px"
        self.layout_toggle.style.button_width = "130px" if projector else "90px"
        if projector:
            for control in (self.n, self.method, self.variant, self.solver):
                control.layout.width = f"{PROJECTOR_PANEL_PX - 30}px"
            panel = widgets.VBox([
                self.counter, widgets.HBox([self.previous_button, self.next_button]),
                widgets.HBox([self.smaller_button, self.bigger_button, self.first_button]),
                self.n, self.method, self.variant, self.solver, self.job.widget, self.message, self.stats,
                self.keys_hint, self.layout_toggle,
            ], layout=widgets.Layout(width=f"{PROJECTOR_PANEL_PX}px", padding="0 0 0 12px"))
            self.children = [widgets.HBox([widgets.VBox([self.size_label, self.board]), panel]), self.key_box]
            self.add_class("nqk-projector")
        else:
            self.n.layout.width, self.method.layout.width = "380px", "300px"
            self.variant.layout.width = self.solver.layout.width = "220px"
            controls = widgets.VBox([
                widgets.HBox([self.n, self.method]),
                widgets.HBox([self.variant, self.solver]),
                widgets.HBox([self.first_button, self.previous_button, self.next_button, self.counter]),
            ])
            # the message right under the controls: on a 1024 x 768 screen it stays in view above the board
            self.children = [controls, self.job.widget, self.message, self.size_label, self.board, self.stats,
                             self.layout_toggle, self.key_box]
            self.remove_class("nqk-projector")
        if hasattr(self, "_index"):
            self._show()

    def press(self, key: str) -> bool:
        """Do what ``key`` (a browser key name such as ``"PageDown"``) does in the projector layout, as the page's
        key listener does by clicking that button; returns whether the key means anything."""
        action = KEYS.get(key)
        button = {"next": self.next_button, "previous": self.previous_button, "smaller": self.smaller_button,
                  "bigger": self.bigger_button}.get(action or "")
        if button is None:
            return False
        if not button.disabled:
            button.click()
        return True

    def _resize(self, step: int) -> None:
        self.n.value = min(self.n.max, max(self.n.min, self.n.value + step))

    # ------------------------------------------------------------------------------------ callbacks

    @property
    def chosen(self) -> Method:
        """The method chosen now."""
        return get_method(self.method.value)

    def _on_method(self, change: Change | None = None) -> None:
        if change is not None:
            self.drop_note()
        if change is not None and change["old"] is not None:  # each method comes back to what was chosen for it
            self._kept[str(change["old"])] = (self.variant.value, self.solver.value)
        method = self.chosen
        variants, solvers = list(method.variants()), installed_solvers(method)
        variant, solver = self._kept.get(method.name, (method.default_variant(), solvers[0] if solvers else None))
        self._refill(self.variant, variants, variant if variant in variants else method.default_variant())
        self.variant.description = method.variant_word or "variant"
        self.variant.layout.display = "" if variants else "none"
        self._refill(self.solver, solvers, solver if solver in solvers else (solvers[0] if solvers else None))
        self.solver.layout.display = "" if solvers else "none"
        self.restart()

    def _refill(self, control: widgets.Dropdown, options: list[str], value: str | None) -> None:
        """New options and value for a dropdown without a search for each step of the change."""
        if list(control.options) == options and control.value == value:
            return
        control.unobserve(self._on_change, names="value")
        try:
            control.options = options
            control.value = value
        finally:
            control.observe(self._on_change, names="value")

    def _on_change(self, change: Change | None = None) -> None:
        self.drop_note()
        self.restart()

    def _choice(self) -> Choice:
        method = self.chosen
        variant = self.variant.value if method.variants() else None
        solver = self.solver.value if installed_solvers(method) else None
        return method.choose(variant, solver)

    def _eager(self, n: int, method: Method, choice: Choice) -> bool:
        """Whether to list every board at once: a small n, a method that lists boards, that does so in this
        process (pure Python that Ctrl-C stops, or a solver that runs inside Python) and quickly."""
        if n > EAGER_MAX_N or not method.has("iterate"):
            return False
        in_process = (method.solver(choice.solver).capabilities.in_process if choice.solver is not None
                      else method.interruptible)
        estimate = count_estimate(Problem(n), method)
        return in_process and (estimate is None or estimate[1] <= EAGER_SECONDS)

    # -------------------------------------------------------------------------------------- actions

    @property
    def board_queens(self) -> Board:
        """The board shown now (empty when there is none)."""
        return self._boards[self._index] if self._boards else ()

    def wait(self, timeout: float = 120.0) -> None:
        """Wait for the running search to end and its answer to show (tests and notebooks)."""
        self.job.wait(timeout)

    @guarded
    def restart(self) -> None:
        """Solve the current choice again from the first solution (in the background)."""
        self.job.cancel()  # before the state is reset, so a late answer of the old search cannot land
        n = self.n.value
        method, choice = self.chosen, self._choice()
        self._boards, self._total, self._index, self._extra, self._stats_text = [], None, 0, (), ""
        self._show()
        self.say(f"solving {n}-queens with {run_text(choice)} …")
        problem = Problem(n)
        eager = self._eager(n, method, choice)

        def work(stop: Stop) -> tuple[Method, Choice, SolveResult, list[Board], bool, bool]:
            result = solve(problem, method, choice.variant, choice.solver, settings=choice.settings,
                           time_limit=APP_TIME_LIMIT, stop=stop)
            boards: list[Board] = []
            complete = False
            if result.status == Status.SOLVED and not method.has("iterate"):
                boards, complete = [tuple(result.queens)], True  # the method gives one board and cannot list others
            elif result.status == Status.SOLVED and eager:
                boards, complete = first_boards(problem, method, choice.variant, choice.solver,
                                                settings=choice.settings, time_limit=APP_TIME_LIMIT, stop=stop)
            return method, choice, result, boards, complete, stop()

        self.job.start(work, self._solved, f"{method.title}, n = {n}")

    def _solved(self, answer: tuple[Method, Choice, SolveResult, list[Board], bool, bool]) -> None:
        method, choice, result, boards, complete, stopped = answer
        self._stats_text = self._stats(choice, result, stopped)
        if result.status == Status.SOLVED:
            self._boards = list(boards) or [tuple(result.queens)]
            self._total = len(self._boards) if complete else None
            self._say_verified(method, result.verified)
        elif result.status == Status.INFEASIBLE:
            self._total = 0
            placement = result.extra.get("best_placement", ())
            self._extra = tuple(parse_cell(q) for q in placement) if isinstance(placement, Sequence) else ()
            drawn = f"; the board shows a best placement of {len(self._extra)}" if self._extra else ""
            self.say(f"{result.status}: {result.message}{drawn}", "info")
        elif stopped:  # the user pressed Stop: not a time limit, and not the method's failure
            self.say(f"stopped by you after {ms(result.build_seconds + result.solve_seconds)}: no board yet "
                     "(change n, the method or a setting to search again)", "info")
        elif result.status == Status.TIMEOUT and not method.complete:
            self.say(f"no board found; {method.title} cannot prove there is none", "warn")
        elif result.status == Status.TIMEOUT:
            self.say(f"{method.title} found no board within the time limit of {APP_TIME_LIMIT:g} s and was stopped "
                     f"(at n = {self.n.value} its search takes longer; a smaller n or another method answers)", "warn")
        else:
            self.say(result.message or f"no answer ({result.status})", "warn")
        self._show()

    @staticmethod
    def _stats(choice: Choice, result: SolveResult, stopped: bool = False) -> str:
        """The run in one line: what ran, the size of what it built, and how long building and solving took
        (a run the user stopped says so: it is not a time-out)."""
        sizes = [f"{value} {word}" for word, value in (("variables", result.variables), ("clauses", result.clauses),
                                                       ("constraints", result.constraints)) if value is not None]
        searched = ("solve" if result.status in (Status.SOLVED, Status.INFEASIBLE)
                    else "stopped by you after" if stopped else f"{result.status}, stopped after")
        times = ([f"build {ms(result.build_seconds)}"] if result.build_seconds else []) + [
            f"{searched} {ms(result.solve_seconds)}"]
        return f"{run_text(choice)}: " + " · ".join(sizes + times)

    def _say_verified(self, method: Method, verified: bool | None) -> None:
        if verified:
            extra = "" if method.has("iterate") else f" ({method.title} gives one board and cannot list others)"
            self.say("the board passes verify(): no two queens attack each other" + extra, "ok")
        else:
            self.say("the decoded board does NOT pass verify(); the formula or decoding is wrong", "error")

    @guarded
    def next_solution(self) -> None:
        """Show the next solution, searching for more in the background when they are found lazily."""
        if not self._boards:
            self.say("there is no solution to step through", "info")
            return
        if self._index + 1 < len(self._boards):
            self._index += 1
            self._show()
            return
        if self._total is not None:
            self._index = 0
            self.say(f"that was the last one: {self._total} solutions in all; back to the first")
            self._show()
            return
        n = self.n.value
        choice = self._choice()
        want = len(self._boards) + BATCH

        def work(stop: Stop) -> tuple[list[Board], bool, float]:
            start = time.perf_counter()
            boards, complete = first_boards(Problem(n), choice.method, choice.variant, choice.solver, limit=want,
                                            settings=choice.settings, time_limit=APP_TIME_LIMIT, stop=stop)
            return boards, complete, time.perf_counter() - start

        self.job.start(work, self._more, f"next solutions, n = {n}")

    def _more(self, answer: tuple[list[Board], bool, float]) -> None:
        boards, complete, seconds = answer
        seen = set(self._boards)
        fresh = [b for b in boards if b not in seen]
        self._boards += fresh
        if complete:
            self._total = len(self._boards)
        if fresh:
            self._index += 1
            self.say(f"next solution found in {ms(seconds)} (with {len(fresh) - 1} more after it)")
        elif complete:
            self._index = 0
            self.say(f"that was the last one: {self._total} solutions in all; back to the first")
        else:
            self.say(f"no further solution within the time limit of {APP_TIME_LIMIT:g} s", "warn")
        self._show()

    @guarded
    def previous_solution(self) -> None:
        """Show the previous solution (from the first, the last one found so far)."""
        if not self._boards:
            self.say("there is no solution to step through", "info")
            return
        self._index = (self._index - 1) % len(self._boards)
        self._show()

    @guarded
    def first_solution(self) -> None:
        """Go back to the first solution."""
        self._index = 0
        self._show()

    def _show(self) -> None:
        n = self.n.value
        queens = self.board_queens or self._extra
        self.board.value = board_svg(n, queens, size=self.board_px)
        self.size_label.value = f"<b>{n} × {n}</b>"
        if not self._boards:
            self.counter.value = "no solution" if self._total == 0 else ""
        elif self._total is not None:
            self.counter.value = f"solution {self._index + 1} of {self._total}"
        else:
            self.counter.value = f"solution {self._index + 1}"
        self.next_button.disabled = not self._boards or self._total == 1 or self.job.busy
        self.previous_button.disabled = len(self._boards) < 2 or self.job.busy
        self.stats.value = f'<div class="nqk-stats">{html.escape(self._stats_text)}</div>'


def board_explorer(n: object = 8, method: str | None = None, layout: str = "desk") -> BoardExplorer:
    """The board explorer: n, method (the registry's default if None), its variant and solver; step through the
    solutions.

    The counter reads "solution 3 of 92" when the number of solutions is known (small n: every solution
    is listed at once) and "solution 3" while they are found a batch at a time.  ``layout="projector"`` puts the
    board first and large with big controls beside it, driven by a clicker's keys (:mod:`.projector`); the
    toggle under the controls switches layouts.

    >>> app = board_explorer(n=4); app.wait()
    >>> app.next_button.click(); app.counter.value
    'solution 2 of 2'
    """
    return BoardExplorer(n, method, layout)
