"""The completion puzzle: click cells to pre-place queens; every complete method that honours pre-placed queens
completes the board or says why not.

"Why not" is concrete: two queens that attack each other are named and drawn red at once; a placement with
no completion gets the smallest set of its queens that is already impossible (``SolveResult.core``: remove
any one of them and a completion exists), framed in red on the board (a red fill is kept for queens that
attack each other).  The methods run one after another in the
background, each with a time limit, under one Stop button; if they disagree, the app says so loudly.

>>> app = completion_puzzle(n=4)
>>> app.toggle((1, 1)); app.toggle((2, 2)); app.message_text.split(";")[0]
'pre-placed queens at 1,1 and 2,2 attack each other (same diagonal)'
"""

from __future__ import annotations

import html
import time
from collections.abc import Sequence

import ipywidgets as widgets

from ..errors import NQueensError
from ..methods import Choice, Method, methods_with, solve
from ..problem.board import Board, Cell, Problem, conflicts, parse_cell
from ..problem.results import SolveResult, Status
from .common import APP_TIME_LIMIT, Job, Messages, Stop, clamp_size, guarded, installed_solvers, ms, run_text
from .svg import CONFLICT_COLOR, CORE_COLOR, DARK, LIGHT, PLACED_COLOR, QUEEN, QUEEN_COLOR

#: The completion puzzle draws one button per cell.
PUZZLE_MAX_N = 12
#: An empty square's label: a Button view in the browser keeps its old text when the description
#: becomes "" (it redraws only non-empty descriptions), so empty squares get a no-break space.
EMPTY_SQUARE = "\u00a0"
SQUARE_PX = 36
#: The frame of a queen of the impossible core (the queens that already make a completion impossible).
CORE_FRAME = f"3px solid {CORE_COLOR}"

#: One method's answer: the method, what ran, and its result.
Verdict = tuple[Method, Choice, SolveResult]


def deciders() -> list[Method]:
    """The methods whose verdict the puzzle shows: those that solve, honour pre-placed queens and are complete
    (their "no completion" is a proof), in registry order; some may not be installed here."""
    return [m for m in methods_with("solve") if m.honours("preplaced") and m.complete]


def agreement(verdicts: Sequence[Verdict]) -> str | None:
    """None when the methods that answered agree on whether a completion exists, else a sentence saying which
    two differ."""
    answered = [(method, result) for method, _, result in verdicts if result.status.finished]
    for method, result in answered[1:]:
        first, said = answered[0]
        if (result.status == Status.SOLVED) != (said.status == Status.SOLVED):
            return f"{first.title} says {said.status} but {method.title} says {result.status}: one of them is wrong"
    return None


def _titles(methods: Sequence[Method]) -> str:
    """``SAT``, ``SAT and ILP``, ``SAT, ILP and CP``."""
    names = [m.title for m in methods]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


class CompletionPuzzle(Messages, widgets.VBox):
    """The completion puzzle (see :func:`completion_puzzle`)."""

    def __init__(self, n: object = 8, auto: bool = False) -> None:
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
        #: The methods that complete the board here (installed), and those that would if they were.
        self.methods = [m for m in deciders() if m.available()]
        self.missing = [m for m in deciders() if not m.available()]
        legend = widgets.HTML(
            f"<span style='color:{PLACED_COLOR}'>{QUEEN}</span> your queens · "
            f"<span style='color:{QUEEN_COLOR}'>{QUEEN}</span> the completion · "
            f"<span style='color:{CONFLICT_COLOR}'>■</span> queens that attack each other · "
            f"<span style='border:3px solid {CORE_COLOR};padding:0 3px;color:{PLACED_COLOR}'>{QUEEN}</span> framed: "
            "queens that already make a completion impossible")
        super().__init__([
            widgets.HBox([self.n, self.complete_button, self.clear_button, self.auto]),
            widgets.HTML(f"Click cells to place queens, then let {html.escape(_titles(self.methods))} complete "
                         "the board."),
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
        """Place a queen on ``cell`` or take it away; anything that is not a cell of whole numbers is refused
        with its one-line message (a float is not rounded onto the board)."""
        cell = parse_cell(cell)
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
        """Ask each method (:attr:`methods`) in turn for a completion, in the background; show the first board
        found and every method's verdict and time."""
        problem = Problem(self.n.value, tuple(self.placed))  # raises ConflictError naming the pair
        runs = []
        for method in self.methods:
            solvers = installed_solvers(method)
            runs.append((method, method.choose(solver=solvers[0] if solvers else None)))

        def work(stop: Stop) -> tuple[list[Verdict], list[float]]:
            verdicts: list[Verdict] = []
            walls: list[float] = []  # each method's whole call: process start, imports, building, solving
            for method, choice in runs:
                if stop():
                    break
                explained = any(result.status == Status.INFEASIBLE for _, _, result in verdicts)
                started = time.perf_counter()
                result = solve(problem, method, choice.variant, choice.solver, settings=choice.settings,
                               time_limit=APP_TIME_LIMIT, stop=stop, explain=not explained)
                walls.append(time.perf_counter() - started)
                verdicts.append((method, choice, result))
            return verdicts, walls

        self.say("completing …")
        self.job.start(work, self._answer, f"completing {len(self.placed)} queens on {problem.n} × {problem.n}")

    def _answer(self, answer: tuple[list[Verdict], list[float]]) -> None:
        verdicts, walls = answer
        lines = [f"{run_text(choice)}: {self._verdict(result)} ({ms(wall)} in all)"
                 for (_, choice, result), wall in zip(verdicts, walls, strict=True)]
        lines += [f"{method.title}: not available here ({method.install_hint()})" for method in self.missing]
        if verdicts:
            lines.append(self.time_split(verdicts, walls))
        self.timings.value = "<div class='nqk-timings'>" + "<br>".join(html.escape(t) for t in lines) + "</div>"
        n = self.n.value
        solved = [result for _, _, result in verdicts if result.status == Status.SOLVED]
        refused = [(method, result) for method, _, result in verdicts if result.status == Status.INFEASIBLE]
        if solved:
            first = solved[0]
            self.solution = tuple(first.queens)
            placed = len(self.placed)
            self.say(f"completed: {n - placed} queen{'s' if n - placed != 1 else ''} added to your {placed}"
                     + ("" if first.verified else " (but verify() rejects it!)"), "ok" if first.verified else "error")
        elif refused:
            self.solution = ()
            self.core = tuple(next((result.core for _, result in refused if result.core), ()) or ())
            why = ""
            if self.core and len(self.placed) > 1:
                cells = ", ".join(f"{r},{c}" for r, c in self.core)
                why = (f"; the queens at {cells} already make it impossible (framed in red; take any one of them "
                       "away and a completion exists)") if len(self.core) > 1 else (
                    f"; the queen at {cells} alone already makes it impossible (framed in red)")
            elif self.core:
                why = "; no solution of this board has a queen there"
            said = _titles([method for method, _ in refused])
            self.say(f"no completion ({said} say{'s' if len(refused) == 1 else ''} infeasible){why}", "warn")
        else:
            self.say(next((result.message for _, _, result in verdicts if result.message), "no answer"), "warn")
        mismatch = agreement(verdicts)
        if mismatch:
            self.say(mismatch, "error")
        self._paint()

    @staticmethod
    def time_split(verdicts: Sequence[Verdict], walls: Sequence[float]) -> str:
        """Where the time went: what the solvers report for building and solving, against the whole wait,
        whose rest is each run's overhead (a fresh process started, the solver's library imported, and for
        a "no", the search for the smallest set of queens that is already impossible)."""
        inner = sum(result.build_seconds + result.solve_seconds for _, _, result in verdicts)
        whole = sum(walls)
        return (f"{ms(whole)} in all: {ms(inner)} building and solving, {ms(max(0.0, whole - inner))} starting "
                "each solver's process and loading it (and, for a “no”, finding the queens that make it "
                "impossible)")

    @staticmethod
    def _verdict(result: SolveResult) -> str:
        words = {Status.SOLVED: "completed", Status.INFEASIBLE: "no completion", Status.TIMEOUT: "stopped or timed out"}
        took = result.build_seconds + result.solve_seconds
        return f"{words.get(result.status, str(result.status))} in {ms(took)} (build + solve)"

    def _paint(self) -> None:
        clashing = {cell for a, b, _ in self.conflicts() for cell in (a, b)}
        placed, solution, core = set(self.placed), set(self.solution), set(self.core)
        for (r, c), button in self.cells.items():
            base = LIGHT if (r + c) % 2 == 0 else DARK
            button.layout.border = CORE_FRAME if (r, c) in core and (r, c) not in clashing else None
            if button.layout.border:
                button.add_class("nqk-core")
            else:
                button.remove_class("nqk-core")
            if (r, c) in clashing:
                button.style.button_color, button.style.text_color = CONFLICT_COLOR, "#fff"
                button.description = QUEEN
            elif (r, c) in core:  # framed, not filled: red fill means two queens attack each other
                button.style.button_color, button.style.text_color = base, PLACED_COLOR
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


def completion_puzzle(n: object = 8, auto: bool = False) -> CompletionPuzzle:
    """The completion puzzle: click cells to pre-place queens; every complete method that honours them completes
    the board or says why not."""
    return CompletionPuzzle(n, auto)
