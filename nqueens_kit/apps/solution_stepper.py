"""The solution stepper: n and a pre-placed queen; every board that completes it, one at a time.

Drag n, put a queen somewhere (or none) and step through the solutions with ◀ and ▶: the counter says
"solution 3 of 4".  The boards are listed in the background by a method of the registry that lists boards
and honours pre-placed queens (SAT by default), at most :data:`LIST_LIMIT` of them, under the apps' time
limit and with a Stop button; every board is verified before it is shown.

>>> app = solution_stepper(n=8, queen=(1, 1)); app.wait()
>>> app.counter.value
'solution 1 of 4'
"""

from __future__ import annotations

import html
from collections.abc import Iterable
from typing import cast

import ipywidgets as widgets

from ..errors import InputError
from ..methods import Method, first_boards, get_method, methods_with
from ..problem.board import Board, Cell, Problem, parse_cell, shown, whole_number
from .common import APP_TIME_LIMIT, Change, Job, Messages, Stop, clamp_size, dropdown, guarded, run_text
from .svg import board_svg

#: Board sizes the stepper offers (n = 12 has 14,200 boards: it lists the first LIST_LIMIT).
STEPPER_MAX_N = 12
#: At most this many boards are listed.
LIST_LIMIT = 500


def stepping_methods() -> list[Method]:
    """The methods the stepper offers, asked of the registry: every available one that lists boards and
    honours pre-placed queens."""
    return [m for m in methods_with("iterate") if m.honours("preplaced") and m.available()]


class SolutionStepper(Messages, widgets.VBox):
    """The solution stepper (see :func:`solution_stepper`); its controls are attributes."""

    def __init__(self, n: object = 8, queen: Cell | None = (1, 1), method: str | None = None) -> None:
        self.message = widgets.HTML("")
        size, problem_text = clamp_size(n, 1, STEPPER_MAX_N)
        # a size that was refused (shown with a message) leaves a queen meant for it put onto the board shown
        placed = None if queen is None else stepper_queen(queen, size, onto_board=bool(problem_text))
        wide = {"description_width": "70px"}
        self.n = widgets.IntSlider(value=size, min=1, max=STEPPER_MAX_N, description="n", continuous_update=False,
                                   style=wide, layout=widgets.Layout(width="360px"))
        self.placed = widgets.Checkbox(value=placed is not None, description="pre-place a queen", indent=False,
                                       layout=widgets.Layout(width="180px"))
        row, col = placed if placed is not None else (1, 1)
        self.row = widgets.IntSlider(value=row, min=1, max=size, description="its row",
                                     continuous_update=False, style=wide, layout=widgets.Layout(width="360px"))
        self.col = widgets.IntSlider(value=col, min=1, max=size, description="its column",
                                     continuous_update=False, style=wide, layout=widgets.Layout(width="360px"))
        methods = stepping_methods()
        self.method = dropdown("method", [(m.title, m.name) for m in methods], method, width="300px")
        button = widgets.Layout(width="120px")
        self.previous_button = widgets.Button(description="◀ previous", tooltip="the previous solution",
                                              layout=button)
        self.next_button = widgets.Button(description="next ▶", tooltip="the next solution", layout=button)
        self.first_button = widgets.Button(description="first", tooltip="back to the first solution",
                                           layout=button)
        self.counter = widgets.HTML("")
        self.board = widgets.HTML("")
        self.stats = widgets.HTML("")
        self.job = Job(self, [self.previous_button, self.next_button, self.first_button])
        self.boards: list[Board] = []
        self.complete = False
        self.index = 0
        super().__init__([
            widgets.HBox([self.n, self.method]),
            widgets.HBox([self.placed, self.row, self.col]),
            widgets.HBox([self.first_button, self.previous_button, self.next_button, self.counter]),
            self.job.widget, self.board, self.stats, self.message,
        ])
        self.add_class("nqk-solution-stepper")
        self.row.disabled = self.col.disabled = not self.placed.value
        self.n.observe(self._on_n, names="value")
        for control in (self.placed, self.row, self.col, self.method):
            control.observe(self._on_change, names="value")
        self.previous_button.on_click(lambda _: self.step(-1))
        self.next_button.on_click(lambda _: self.step(1))
        self.first_button.on_click(lambda _: self.first())
        self.restart()
        if problem_text:
            self.job.wait()
            self.say(problem_text + "; showing n = " + str(size), "warn")

    # -------------------------------------------------------------------------------------- state

    @property
    def problem(self) -> Problem:
        """The problem shown: n, and the pre-placed queen when there is one."""
        queens: tuple[Cell, ...] = ((self.row.value, self.col.value),) if self.placed.value else ()
        return Problem(self.n.value, queens)

    @property
    def board_queens(self) -> Board:
        """The board shown now (empty when there is none)."""
        return self.boards[self.index] if self.boards else ()

    def wait(self, timeout: float = 120.0) -> None:
        """Wait for the listing to end and its first board to show (tests and notebooks)."""
        self.job.wait(timeout)

    # ---------------------------------------------------------------------------------- callbacks

    def _on_n(self, change: Change | None = None) -> None:
        n = self.n.value
        for slider in (self.row, self.col):
            slider.unobserve(self._on_change, names="value")
            try:
                slider.value = min(slider.value, n)
                slider.max = n
            finally:
                slider.observe(self._on_change, names="value")
        self.restart()

    def _on_change(self, change: Change | None = None) -> None:
        self.row.disabled = self.col.disabled = not self.placed.value
        self.restart()

    @guarded
    def restart(self) -> None:
        """List the boards of the current choice again (in the background) and show the first."""
        self.job.cancel()
        self.boards, self.complete, self.index = [], False, 0
        problem, method = self.problem, get_method(self.method.value)
        choice = method.choose()
        self._show()
        self.say(f"listing the solutions of {problem.describe()} with {run_text(choice)} …")

        def work(stop: Stop) -> tuple[list[Board], bool, bool]:
            boards, complete = first_boards(problem, method, limit=LIST_LIMIT + 1, time_limit=APP_TIME_LIMIT,
                                            stop=stop)
            return boards[:LIST_LIMIT], complete, len(boards) > LIST_LIMIT  # one more says there are more

        self.job.start(work, self._listed, f"{method.title}, n = {problem.n}")

    def _listed(self, answer: tuple[list[Board], bool, bool]) -> None:
        boards, complete, more = answer
        self.boards, self.complete, self.index = list(boards), complete, 0
        problem = self.problem
        if not boards and complete:
            self.say(f"no solution: {problem.describe()} cannot be completed", "info")
        elif not boards:
            self.say(f"no board found within the time limit of {APP_TIME_LIMIT:g} s", "warn")
        elif complete:
            self.say("every board passes verify(): no two queens attack each other", "ok")
        elif more:
            self.say(f"there are more than {LIST_LIMIT}: the first {LIST_LIMIT} are listed", "info")
        else:
            self.say(f"the time limit of {APP_TIME_LIMIT:g} s stopped the listing after {len(boards)} boards", "warn")
        self._show()

    @guarded
    def step(self, by: int) -> None:
        """Show the solution ``by`` places on (-1: the previous one), going round at either end."""
        if not self.boards:
            self.say("there is no solution to step through", "info")
            return
        self.index = (self.index + by) % len(self.boards)
        self._show()

    @guarded
    def first(self) -> None:
        """Back to the first solution."""
        self.index = 0
        self._show()

    def _show(self) -> None:
        problem = self.problem
        self.board.value = board_svg(problem.n, self.board_queens, preplaced=problem.preplaced, size=400)
        if not self.boards:
            self.counter.value = "no solution" if self.complete else ""
        else:
            total = f"{len(self.boards)}" if self.complete else f"the first {len(self.boards)}"
            self.counter.value = f"solution {self.index + 1} of {total}"
        for button in (self.previous_button, self.next_button):
            button.disabled = len(self.boards) < 2 or self.job.busy
        placed = (f"; the pre-placed queen (red) at row {problem.preplaced[0][0]}, column {problem.preplaced[0][1]}"
                  if problem.preplaced else "")
        self.stats.value = (f"<div class='nqk-stats' style='font-size:15px'>{html.escape(problem.describe())}"
                            f"{html.escape(placed)}</div>")


def stepper_queen(queen: object, n: int, onto_board: bool = False) -> Cell:
    """The stepper's pre-placed queen: a (row, column) pair of whole numbers (ints, numpy integers; not text,
    not bools), checked by the kit's cell parser to lie on the n x n board; else a one-line
    :class:`~nqueens_kit.errors.InputError` naming the value and what is valid.  ``onto_board``: a row or
    column beyond the board is moved onto it instead (the board's size was refused, and another is shown).

    >>> stepper_queen((2, 3), 8)
    (2, 3)
    >>> stepper_queen("1,1", 8)
    Traceback (most recent call last):
    ...
    nqueens_kit.errors.InputError: queen is a (row, column) pair of whole numbers from 1 to 8, or None for \
no queen; not '1,1'
    """
    pair: tuple[object, ...] | None = None
    if not isinstance(queen, (str, bytes, bytearray, dict, set, frozenset)):
        try:
            pair = tuple(cast(Iterable[object], queen))  # not iterable: TypeError, caught here
        except TypeError:
            pair = None
    try:
        if pair is None or len(pair) != 2 or any(isinstance(v, str) or whole_number(v) is None for v in pair):
            raise InputError("not a pair of whole numbers")
        if onto_board:
            pair = tuple(min(max(1, whole_number(v) or 1), n) for v in pair)
        return parse_cell(pair, n)
    except InputError:
        raise InputError(f"queen is a (row, column) pair of whole numbers from 1 to {n}, or None for no queen; "
                         f"not {shown(queen)}") from None


def solution_stepper(n: object = 8, queen: Cell | None = (1, 1), method: str | None = None) -> SolutionStepper:
    """The solution stepper: n, a pre-placed queen (``None`` for none) and a method that lists boards (the
    registry's default if None); step through every completion.

    >>> app = solution_stepper(n=4, queen=None); app.wait()
    >>> app.next_button.click(); app.counter.value
    'solution 2 of 2'
    """
    return SolutionStepper(n, queen, method)
