"""The five apps as tabs: what ``notebooks/06-playground.ipynb`` shows (``make app`` serves it with Voilà).

>>> app = playground(); app.wait()
>>> app.titles
('Board explorer', 'Formula explorer', 'Completion puzzle', 'Timing explorer', 'Inside the solver')
"""

from __future__ import annotations

import ipywidgets as widgets

from .board_explorer import board_explorer
from .completion import completion_puzzle
from .formula_explorer import formula_explorer
from .inside import inside
from .timing_explorer import timing_explorer


class Playground(widgets.Tab):
    """The five apps as tabs (see :func:`playground`); each app is an attribute.  Each runs its long work in
    the background with its own Stop button, so one tab's solver never blocks another tab."""

    def __init__(self) -> None:
        self.board = board_explorer()
        self.formula = formula_explorer()
        self.completion = completion_puzzle()
        self.timing = timing_explorer()
        self.inside = inside()
        super().__init__(children=[self.board, self.formula, self.completion, self.timing, self.inside],
                         titles=("Board explorer", "Formula explorer", "Completion puzzle", "Timing explorer",
                                 "Inside the solver"))
        self.add_class("nqk-playground")

    def wait(self, timeout: float = 120.0) -> None:
        """Wait for every app's running job (tests and notebooks)."""
        for app in (self.board, self.completion, self.timing, self.inside):
            app.wait(timeout)


def playground() -> Playground:
    """All five apps in tabs."""
    return Playground()
