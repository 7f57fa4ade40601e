"""The five apps as tabs: what ``notebooks/06-playground.ipynb`` shows (``make app`` serves it with Voilà).

>>> app = playground(); app.wait()
>>> app.titles
('Board explorer', 'Formula explorer', 'Completion puzzle', 'Timing explorer', 'Inside the solver')

``playground(layout="projector")`` opens the board explorer in its projector layout (the board first and large,
big controls, a clicker's PageDown / PageUp step through the solutions: :mod:`.projector`), with large tab
titles; the toggle under the board explorer's controls switches back and forth.
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

    def __init__(self, layout: str = "desk") -> None:
        self.board = board_explorer(layout=layout)
        self.formula = formula_explorer()
        self.completion = completion_puzzle()
        self.timing = timing_explorer()
        self.inside = inside()
        super().__init__(children=[self.board, self.formula, self.completion, self.timing, self.inside],
                         titles=("Board explorer", "Formula explorer", "Completion puzzle", "Timing explorer",
                                 "Inside the solver"))
        self.add_class("nqk-playground")
        self.board.layout_toggle.observe(lambda _: self._follow_layout(), names="value")
        self._follow_layout()

    def _follow_layout(self) -> None:
        """Large tab titles while the board explorer is in its projector layout."""
        if self.board.layout_toggle.value == "projector":
            self.add_class("nqk-projector-tabs")
        else:
            self.remove_class("nqk-projector-tabs")

    def wait(self, timeout: float = 120.0) -> None:
        """Wait for every app's running job (tests and notebooks)."""
        for app in (self.board, self.completion, self.timing, self.inside):
            app.wait(timeout)


def playground(layout: str = "desk") -> Playground:
    """All five apps in tabs; ``layout="projector"`` for a lecture hall (see the module's docstring)."""
    return Playground(layout)
