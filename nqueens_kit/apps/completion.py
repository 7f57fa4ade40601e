"""The completion puzzle: click cells to pre-place queens; SAT and ILP complete the board or say why not.

"Why not" is concrete: two queens that attack each other are named and drawn red at once; a placement with
no completion gets the smallest set of its queens that is already impossible (``SolveResult.core``: remove
any one of them and a completion exists), framed on the board.  Both solvers run in the background with a
time limit and a Stop button; if they disagree, the app says so loudly.

>>> app = completion_puzzle(n=4)
>>> app.toggle((1, 1)); app.toggle((2, 2)); app.message_text.split(";")[0]
'pre-placed queens at 1,1 and 2,2 attack each other (same diagonal)'
"""

from __future__ import annotations

import html
from typing import Any

import ipywidgets as widgets

from ..errors import NQueensError
from ..methods import solve
from ..problem.board import Board, Cell, Problem, conflicts
from ..problem.results import SolveResult, Status
from .common import APP_TIME_LIMIT, Job, Messages, clamp_size, guarded, installed_solvers, ms
from .svg import CONFLICT_COLOR, CORE_COLOR, DARK, LIGHT, PLACED_COLOR, QUEEN, QUEEN_COLOR

#: The completion puzzle draws one button per cell.
PUZZLE_MAX_N = 12
#: An empty square's label: a Button view in the browser keeps its old text when the description
#: becomes "" (it redraws only non-empty descriptions), so empty squares get a no-break space.
EMPTY_SQUARE = "\u00a0"
SQUARE_PX = 36


def agreement(sat: SolveResult, ilp: SolveResult | None) -> str | None:
    """None when SAT and ILP agree (or one of them gave no answer), else a sentence saying how they differ."""
    if ilp is None or not (sat.status.finished and ilp.status.finished):
        return None
    if (sat.status == Status.SOLVED) == (ilp.status == Status.SOLVED):
        return None
    return f"SAT says {sat.status} but ILP says {ilp.status}: one of them is wrong"


class CompletionPuzzle(Messages, widgets.VBox):
    """The completion puzzle (see :func:`completion_puzzle`)."""

    def __init__(self, n: Any = 8, auto: bool = False) -> None:
        self.message = widgets.HTML(value="")
        size, problem_text = clamp_size(n, 1, PUZZLE_MAX_N)
        self.n = widgets.IntSlider(value=size, min=1, max=PUZZLE_MAX_N, description="n", continuous_update=False,
                                   style={"description_width": "30px"}, layout=widgets.Layout(width="300px"))
        self.complete_button = widgets.Button(description="Complete the board", icon="play", button_style="primary",
                                              layout=widgets.Layout(width="180px"))
        self.clear_button = widgets.Button(description="Clear", icon="eraser", layout=widgets.Layout(width="90px"))
        self.auto = widgets.Checkbox(value=bool(auto), description="complete after every click", indent=False)
        self.grid = widgets.GridBox(layout=widgets.Layout(grid_gap="0px"))
        self.timings = widgets.HTML(value="")
        self.job = Job(self, [self.complete_button])
        self.cells: dict[Cell, widgets.Button] = {}
        self.placed: list[Cell] = []
        self.solution: Board = ()
        self.core: tuple[Cell, ...] = ()
        legend = widgets.HTML(
            f"<span style='color:{PLACED_COLOR}'>{QUEEN}</span> your queens · "
            f"<span style='color:{QUEEN_COLOR}'>{QUEEN}</span> the completion · "
            f"<span style='color:{CONFLICT_COLOR}'>■</span> queens that attack each other · "
            f"<span style='color:{CORE_COLOR}'>▣</span> queens that already make a completion impossible")
        super().__init__([
            widgets.HBox([self.n, self.complete_button, self.clear_button, self.auto]),
            widgets.HTML("Click cells to place queens, then let SAT and ILP complete the board."),
            self.grid, legend, self.job.widget, self.message, self.timings,
        ])
        self.add_class("nqk-completion-puzzle")
        self.n.observe(lambda _: self.reset(), names="value")
        self.complete_button.on_click(lambda _: self.complete())
        self.clear_button.on_click(lambda _: self.clear())
        self.reset()
        if problem_text:
            self.say(problem_text + "; showing n = " + str(size), "warn")

    def _make_cell(self, r: int, c: int) -> widgets.Button:
        button = widgets.Button(description=EMPTY_SQUARE, tooltip=f"row {r}, column {c}",
                                layout=widgets.Layout(width=f"{SQUARE_PX}px", height=f"{SQUARE_PX}px",
                                                      padding="0px", margin="0px"))
        button.style.font_size = "22px"
        button.add_class("nqk-square")
        button.on_click(lambda _, cell=(r, c): self.toggle(cell))
        return button

    @staticmethod
    def _number(text: str) -> widgets.Label:
        return widgets.Label(text, layout=widgets.Layout(width=f"{SQUARE_PX}px", height=f"{SQUARE_PX}px",
                                                         justify_content="center", align_items="center"))

    def wait(self, timeout: float = 120.0) -> None:
        """Wait for a running completion to end and show its answer (tests and notebooks)."""
        self.job.wait(timeout)

    @guarded
    def reset(self) -> None:
        """A fresh empty board of the current size, rows and columns numbered 1 .. n as in P_rc."""
        self.job.stop()
        n = self.n.value
        self.placed, self.solution, self.core = [], (), ()
        self.cells = {(r, c): self._make_cell(r, c) for r in range(1, n + 1) for c in range(1, n + 1)}
        self.grid.layout.grid_template_columns = f"repeat({n + 1}, {SQUARE_PX}px)"
        children: list[widgets.Widget] = [self._number("")] + [self._number(str(c)) for c in range(1, n + 1)]
        for r in range(1, n + 1):
            children += [self._number(str(r))] + [self.cells[(r, c)] for c in range(1, n + 1)]
        self.grid.children = children
        self.timings.value = ""
        self.say("")
        self._paint()

    @guarded
    def clear(self) -> None:
        """Remove every queen."""
        self.job.stop()
        self.placed, self.solution, self.core = [], (), ()
        self.timings.value = ""
        self.say("")
        self._paint()

    def conflicts(self) -> list[tuple[Cell, Cell, str]]:
        """Pairs of placed queens that attack each other, with the reason."""
        return conflicts(self.placed)

    @guarded
    def toggle(self, cell: Cell) -> None:
        """Place a queen on ``cell`` or take it away."""
        cell = (int(cell[0]), int(cell[1]))
        if cell not in self.cells:
            self.say(f"there is no cell {cell[0]},{cell[1]} on a {self.n.value} × {self.n.value} board", "error")
            return
        self.job.stop()
        if cell in self.placed:
            self.placed.remove(cell)
        else:
            self.placed.append(cell)
            self.placed.sort()
        self.solution, self.core = (), ()
        self.timings.value = ""
        self._paint()
        if self.conflicts():
            try:
                Problem(self.n.value, tuple(self.placed))
            except NQueensError as exc:
                self.say(str(exc), "error")
            return
        if self.auto.value and self.placed:
            self.complete()
        else:
            count = len(self.placed)
            self.say(f"{count} queen{'s' if count != 1 else ''} placed; press “Complete the board”" if count else "")

    @guarded
    def complete(self) -> None:
        """Ask SAT (and ILP, when installed) for a completion in the background; show it with both times."""
        problem = Problem(self.n.value, tuple(self.placed))  # raises ConflictError naming the pair
        ilp_solvers = installed_solvers("ilp")

        def work(stop: Any) -> tuple[SolveResult, SolveResult | None]:
            sat = solve(problem, "sat", time_limit=APP_TIME_LIMIT, stop=stop)
            ilp = (solve(problem, "ilp", solver=ilp_solvers[0], time_limit=APP_TIME_LIMIT, stop=stop)
                   if ilp_solvers and not stop() else None)
            return sat, ilp

        self.say("completing …")
        self.job.start(work, self._answer, f"completing {len(self.placed)} queens on {problem.n} × {problem.n}")

    def _answer(self, answer: tuple[SolveResult, SolveResult | None]) -> None:
        sat, ilp = answer
        lines = [f"SAT ({sat.variant}, {sat.solver}): {self._verdict(sat)}"]
        if ilp is not None:
            lines.append(f"ILP ({ilp.variant}, {ilp.solver}, {ilp.options.get('settings', '')} settings): "
                         f"{self._verdict(ilp)}")
        else:
            lines.append("ILP: not available here (install PuLP with CBC)")
        self.timings.value = "<div class='nqk-timings'>" + "<br>".join(html.escape(t) for t in lines) + "</div>"
        n = self.n.value
        if sat.status == Status.SOLVED:
            self.solution = sat.queens
            placed = len(self.placed)
            self.say(f"completed: {n - placed} queen{'s' if n - placed != 1 else ''} added to your {placed}"
                     + ("" if sat.verified else " (but verify() rejects it!)"), "ok" if sat.verified else "error")
        elif sat.status == Status.INFEASIBLE:
            self.solution = ()
            self.core = tuple(sat.core or ())
            why = ""
            if self.core and len(self.placed) > 1:
                cells = ", ".join(f"{r},{c}" for r, c in self.core)
                why = (f"; the queens at {cells} already make it impossible (framed in red; take any one of them "
                       "away and a completion exists)") if len(self.core) > 1 else (
                    f"; the queen at {cells} alone already makes it impossible (framed in red)")
            elif self.core:
                why = "; no solution of this board has a queen there"
            ilp_word = ", ILP says infeasible" if ilp is not None and ilp.status == Status.INFEASIBLE else ""
            self.say(f"no completion (SAT says unsatisfiable{ilp_word}){why}", "warn")
        else:
            self.say(sat.message or "no answer", "warn")
        mismatch = agreement(sat, ilp)
        if mismatch:
            self.say(mismatch, "error")
        self._paint()

    @staticmethod
    def _verdict(result: SolveResult) -> str:
        words = {Status.SOLVED: "completed", Status.INFEASIBLE: "no completion", Status.TIMEOUT: "stopped or timed out"}
        took = result.build_seconds + result.solve_seconds
        return f"{words.get(result.status, str(result.status))} in {ms(took)}"

    def _paint(self) -> None:
        clashing = {cell for a, b, _ in self.conflicts() for cell in (a, b)}
        placed, solution, core = set(self.placed), set(self.solution), set(self.core)
        for (r, c), button in self.cells.items():
            base = LIGHT if (r + c) % 2 == 0 else DARK
            if (r, c) in clashing:
                button.style.button_color, button.style.text_color = CONFLICT_COLOR, "#fff"
                button.description = QUEEN
            elif (r, c) in core:
                button.style.button_color, button.style.text_color = CORE_COLOR, "#fff"
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


def completion_puzzle(n: Any = 8, auto: bool = False) -> CompletionPuzzle:
    """The completion puzzle: click cells to pre-place queens; SAT and ILP complete the board or say why not."""
    return CompletionPuzzle(n, auto)
