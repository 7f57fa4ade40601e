"""The board explorer: n, a method, its encoding or formulation and solver; step through the solutions.

Every solve and every search for more boards runs in the background (:class:`~nqueens_kit.apps.common.Job`)
under a time limit, with a Stop button: a slow choice (backtracking at n = 32, CBC on a large pairwise
model) ends with a message, never with a frozen notebook.

>>> app = board_explorer(n=6); app.wait()
>>> app.counter.value
'solution 1 of 4'
"""

from __future__ import annotations

import html
import time
from typing import Any

import ipywidgets as widgets

from ..methods import METHODS, first_boards, get_method, solve
from ..problem.board import Board, Problem
from ..problem.results import SolveResult, Status
from ..solvers import SAT_SOLVERS
from .common import APP_TIME_LIMIT, Job, Messages, clamp_size, dropdown, guarded, installed_solvers, ms
from .svg import board_svg

#: Board sizes the explorer offers.
EXPLORER_MAX_N = 40
#: Up to this n every solution is listed at once (with an in-process solver), so the counter can say
#: "of 352" straight away; above it, boards are found a batch at a time as "Next" needs them.
EAGER_MAX_N = 9
#: Boards fetched at a time when stepping lazily.
BATCH = 8
METHOD_LABELS = {"sat": "SAT", "ilp": "ILP", "construct": "construction", "backtrack": "backtracking"}


def _offered_methods() -> list[str]:
    return [m for m in METHODS if m != "ilp" or installed_solvers("ilp")]


class BoardExplorer(Messages, widgets.VBox):
    """The board explorer (see :func:`board_explorer`); its controls are attributes."""

    def __init__(self, n: Any = 8, method: str = "sat") -> None:
        self.message = widgets.HTML(value="")
        size, problem_text = clamp_size(n, 1, EXPLORER_MAX_N)
        methods = _offered_methods()
        self.n = widgets.IntSlider(value=size, min=1, max=EXPLORER_MAX_N, description="n", continuous_update=False,
                                   style={"description_width": "30px"}, layout=widgets.Layout(width="380px"))
        self.method = dropdown("method", [(METHOD_LABELS.get(m, m), m) for m in methods],
                               method if method in methods else "sat")
        self.encoding = dropdown("encoding", list(get_method("sat").variants()))
        self.formulation = dropdown("formulation", list(get_method("ilp").variants()))
        self.solver = dropdown("solver", installed_solvers("sat"))
        self.next_button = widgets.Button(description="Next solution", icon="forward",
                                          tooltip="show the next solution", layout=widgets.Layout(width="150px"))
        self.first_button = widgets.Button(description="First", icon="fast-backward",
                                           tooltip="back to the first solution", layout=widgets.Layout(width="90px"))
        self.counter = widgets.Label(value="")
        self.size_label = widgets.HTML(value="")
        self.board = widgets.HTML(value="")
        self.stats = widgets.HTML(value="")
        self.job = Job(self, [self.next_button, self.first_button])
        self._boards: list[Board] = []
        self._total: int | None = None
        self._index = 0
        self._extra: Board = ()
        self._stats_text = ""
        controls = widgets.VBox([
            widgets.HBox([self.n, self.method]),
            widgets.HBox([self.encoding, self.formulation, self.solver]),
            widgets.HBox([self.first_button, self.next_button, self.counter]),
        ])
        super().__init__([controls, self.job.widget, self.size_label, self.board, self.stats, self.message])
        self.add_class("nqk-board-explorer")
        for control in (self.n, self.encoding, self.formulation, self.solver):
            control.observe(self._on_change, names="value")
        self.method.observe(self._on_method, names="value")
        self.next_button.on_click(lambda _: self.next_solution())
        self.first_button.on_click(lambda _: self.first_solution())
        self._on_method()
        if problem_text:
            self.job.wait()
            self.say(problem_text + "; showing n = " + str(size), "warn")

    # ------------------------------------------------------------------------------------ callbacks

    def _on_method(self, change: Any = None) -> None:
        method = self.method.value
        self.encoding.layout.display = "" if method == "sat" else "none"
        self.formulation.layout.display = "" if method == "ilp" else "none"
        self.solver.layout.display = "" if method in ("sat", "ilp") else "none"
        options = installed_solvers(method) if method in ("sat", "ilp") else []
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

    def _choice(self) -> tuple[str, str | None, str | None]:
        method = self.method.value
        variant = self.encoding.value if method == "sat" else self.formulation.value if method == "ilp" else None
        solver = self.solver.value if method in ("sat", "ilp") else None
        return method, variant, solver

    def _eager(self, n: int, method: str, solver: str | None) -> bool:
        backend = SAT_SOLVERS.get(solver or "") if method == "sat" else None
        in_process = method == "backtrack" or (backend is not None and backend.capabilities.in_process)
        return n <= EAGER_MAX_N and in_process

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
        method, variant, solver = self._choice()
        self._boards, self._total, self._index, self._extra, self._stats_text = [], None, 0, (), ""
        self._show()
        self.say(f"solving {n}-queens with {METHOD_LABELS.get(method, method)} …")
        problem = Problem(n)
        eager = self._eager(n, method, solver)

        def work(stop: Any) -> tuple[SolveResult, list[Board], bool]:
            result = solve(problem, method, variant, solver, time_limit=APP_TIME_LIMIT, stop=stop)
            boards: list[Board] = []
            complete = False
            if result.status == Status.SOLVED and (eager or method == "construct"):
                if method == "construct":
                    boards, complete = [result.queens], True
                else:
                    boards, complete = first_boards(problem, method, variant, solver, time_limit=APP_TIME_LIMIT,
                                                    stop=stop)
            return result, boards, complete

        self.job.start(work, self._solved, f"{METHOD_LABELS.get(method, method)}, n = {n}")

    def _solved(self, answer: tuple[SolveResult, list[Board], bool]) -> None:
        result, boards, complete = answer
        self._stats_text = self._stats(result)
        if result.status == Status.SOLVED:
            self._boards = list(boards) or [result.queens]
            self._total = len(self._boards) if complete else None
            self._say_verified(result.verified)
        elif result.status == Status.INFEASIBLE:
            self._total = 0
            self._extra = tuple(tuple(q) for q in result.extra.get("best_placement", ()))
            word = "unsatisfiable" if result.method == "sat" else "infeasible"
            drawn = f"; the board shows a best placement of {len(self._extra)}" if self._extra else ""
            self.say(f"{word}: {result.message}{drawn}", "info")
        else:
            self.say(result.message or f"no answer ({result.status})", "warn")
        self._show()

    @staticmethod
    def _stats(result: SolveResult) -> str:
        method = result.method
        if method == "sat":
            return (f"SAT ({result.variant}, {result.solver}): {result.variables} variables · {result.clauses} "
                    f"clauses · build {ms(result.build_seconds)} · solve {ms(result.solve_seconds)}")
        if method == "ilp":
            settings = result.options.get("settings", "")
            return (f"ILP ({result.variant}, {result.solver}, {settings} settings): {result.variables} variables · "
                    f"{result.constraints} constraints · build {ms(result.build_seconds)} · "
                    f"solve {ms(result.solve_seconds)}")
        if method == "construct":
            return f"construction: no search, {ms(result.solve_seconds)}"
        return f"{METHOD_LABELS.get(method, method)}: first solution in {ms(result.solve_seconds)}"

    def _say_verified(self, verified: bool | None) -> None:
        if verified:
            extra = " (the construction gives one board)" if self.method.value == "construct" else ""
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
        method, variant, solver = self._choice()
        want = len(self._boards) + BATCH

        def work(stop: Any) -> tuple[list[Board], bool, float]:
            start = time.perf_counter()
            boards, complete = first_boards(Problem(n), method, variant, solver, limit=want,
                                            time_limit=APP_TIME_LIMIT, stop=stop)
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
    def first_solution(self) -> None:
        """Go back to the first solution."""
        self._index = 0
        self._show()

    def _show(self) -> None:
        n = self.n.value
        queens = self.board_queens or self._extra
        self.board.value = board_svg(n, queens)
        self.size_label.value = f"<b>{n} × {n}</b>"
        if not self._boards:
            self.counter.value = "no solution" if self._total == 0 else ""
        elif self._total is not None:
            self.counter.value = f"solution {self._index + 1} of {self._total}"
        else:
            self.counter.value = f"solution {self._index + 1}"
        self.next_button.disabled = not self._boards or self._total == 1 or self.job.busy
        self.stats.value = f'<div class="nqk-stats">{html.escape(self._stats_text)}</div>'


def board_explorer(n: Any = 8, method: str = "sat") -> BoardExplorer:
    """The board explorer: n, method, encoding / formulation, solver; step through the solutions.

    The counter reads "solution 3 of 92" when the number of solutions is known (small n: every solution
    is listed at once) and "solution 3" while they are found a batch at a time.

    >>> app = board_explorer(n=4); app.wait()
    >>> app.next_button.click(); app.counter.value
    'solution 2 of 2'
    """
    return BoardExplorer(n, method)
