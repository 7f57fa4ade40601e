"""Interactive apps for lectures and self-study (ipywidgets 8), thin layers over the method layer.

- :mod:`.board_explorer`: n, any method that can solve here, its variant and solver; step through the
  solutions.
- :mod:`.formula_explorer`: the clauses of one line of the board, highlighted, and the counts per family.
- :mod:`.completion`: click queens onto the board; every complete method that honours pre-placed queens
  completes it, or shows why it cannot.
- :mod:`.timing_explorer`: time configurations of any method over a range of n and watch the plot grow.
- :mod:`.inside`: inside the solver: step through a CDCL trace on the board; walk a branch-and-bound tree.
- :mod:`.solution_stepper`: n and a pre-placed queen; step through every completion (chapter 2).
- :mod:`.relaxation_explorer`: a formulation's LP relaxation on the board, beside its model (chapter 3).
- :mod:`.encoding_explorer`: one "at most one" over k literals in each encoding: clauses, helpers, sizes
  (chapter 4).
- :mod:`.phase_explorer`: a family, a size and a density of the stored phase study; one of its instances
  solved live (chapter 5).
- :mod:`.side_by_side`: CP, SAT and local search on one n, with what each cannot do (chapter 8).
- :mod:`.playground`: the five as tabs (``notebooks/06-playground.ipynb``, ``make app``); ``layout="projector"``
  (or its toggle) for a lecture hall: the board first and large, keys of a clicker (:mod:`.projector`).
- :mod:`.common`: the message line, callbacks that never raise, and :class:`~.common.Job`, which runs every
  solve, enumeration and sweep in the background with a time limit and a Stop button, so no app can freeze
  a lecture; :mod:`.svg`: the board as SVG (with ``data-n`` and an ``aria-label`` a browser test can read).

They need ipywidgets and matplotlib, which ``pip install nqueens-kit`` leaves out: ``pip install
"nqueens-kit[widgets]"`` (or ``[course]``) brings them, and importing this package without them says so.

The apps name no method: what they offer, and how they word an answer, they ask of the registry
(:mod:`nqueens_kit.methods`), so a method added there appears in them.  Every app is a widget whose controls
are attributes, so a test or a notebook can drive it (``app.n.value = 9``, ``app.next_button.click()``) and
``app.wait()`` for the answer.  A bad value or a bad
combination never raises out of a callback: the app shows the one-line message.

>>> app = board_explorer(n=6); app.wait()
>>> app.counter.value
'solution 1 of 4'
"""

from __future__ import annotations

from ..runtime.extras import needs_extra

try:  # pip install nqueens-kit leaves the widgets and the figures out: name the extra that brings them
    import ipywidgets  # noqa: F401
    import matplotlib  # noqa: F401
except ModuleNotFoundError as missing:
    raise needs_extra(missing, __name__) from None

from .board_explorer import BoardExplorer, board_explorer
from .common import APP_TIME_LIMIT, Job, installed_solvers
from .completion import CompletionPuzzle, completion_puzzle
from .encoding_explorer import EncodingExplorer, encoding_explorer
from .formula_explorer import FormulaExplorer, formula_explorer
from .inside import Inside, inside
from .phase_explorer import PhaseExplorer, phase_explorer
from .playground import Playground, playground
from .relaxation_explorer import RelaxationExplorer, relaxation_explorer
from .side_by_side import SideBySide, side_by_side
from .solution_stepper import SolutionStepper, solution_stepper
from .svg import board_svg
from .timing_explorer import TimingExplorer, timing_choices, timing_explorer

__all__ = [
    "APP_TIME_LIMIT", "BoardExplorer", "CompletionPuzzle", "FormulaExplorer", "Inside", "Job", "Playground",
    "TimingExplorer", "board_explorer", "board_svg", "completion_puzzle", "formula_explorer", "inside",
    "installed_solvers", "playground",
    "timing_choices", "timing_explorer",
]
__all__ += ["EncodingExplorer", "RelaxationExplorer", "SolutionStepper", "encoding_explorer", "relaxation_explorer",
            "solution_stepper"]
__all__ += ["PhaseExplorer", "SideBySide", "phase_explorer", "side_by_side"]
