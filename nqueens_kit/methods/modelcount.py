"""Counting without enumerating: an exact projected model counter (Ganak, through ``pyganak``), as a method
with the ``count`` verb only.

Enumeration finds every board, one solver call (or blocking clause) each.  A model counter counts the
models of a formula without listing them: it splits the formula into independent parts, caches the counts
of parts it has seen, and multiplies.  *Projected* counting counts the distinct assignments of a chosen set
of variables (here the n² board variables) over all models: exactly the number of boards, whatever helper
variables an encoding adds.  The ``unprojected`` settings count every model, helpers included, and for the
encodings whose helpers are free on lines without a queen the count explodes (chapter 7 shows by how much).
It counts the same CNF the SAT method solves, so it honours pre-placed queens, blocked cells and symmetry
breaking; it cannot sort boards it never sees into fundamental ones (break the symmetry instead).

>>> from nqueens_kit.methods import count
>>> count(6, "model-count").count, count(6, "model-count", "sequential").count
(4, 4)
"""

from __future__ import annotations

from collections.abc import Mapping

from ..errors import InputError
from ..problem.board import Problem
from ..problem.results import CountResult, SolveResult
from ..runtime.limits import Size
from ..solvers.base import CLAUSES, Capabilities, PackageSolver, Solver
from ..solvers.browser import for_browser
from .base import Choice, Method
from .sat.cnf import build_cnf, cnf_size
from .sat.encodings import ENCODINGS, Encoding
from .sat.method import SatMethod

INSTALL_HINT = "pip install pyganak (or nqueens-kit[count]); it has wheels for Linux and macOS"

SETTINGS = {"projected": "count the boards: the distinct assignments of the board variables",
            "unprojected": "count every model, helper variables included (not the number of boards)"}


class Ganak(PackageSolver):
    """Ganak, an exact (projected) model counter, in process through ``pyganak``."""

    name = "ganak"
    method = "model-count"
    kind = "pyganak"
    description = "Ganak exact projected model counter (pyganak)"
    capabilities = Capabilities(in_process=True)
    marker = "8"
    verbs = frozenset({"count"})
    features = frozenset({"preplaced", "blocked", "break_symmetry"})
    variants = CLAUSES
    settings = frozenset(SETTINGS)  # projected counts the boards, unprojected every model
    module = distribution = "pyganak"
    product = "Ganak"
    hint = INSTALL_HINT


class ModelCountMethod(Method):
    name = "model-count"
    title = "model counting"
    summary = "Ganak counts the boards of the CNF without listing them"
    variant_word = "encoding"
    model_word = "CNF"
    verbs = frozenset({"count"})
    features = frozenset({"preplaced", "blocked", "break_symmetry"})
    linestyle = (0, (1, 1))  # densely dotted
    colours = SatMethod.colours  # the same encoding keeps its colour; the line style tells the methods apart
    #: A model counter has no count until it has all of it.
    partial_counts = False

    def variants(self) -> Mapping[str, Encoding]:
        return ENCODINGS

    variant_kind = SatMethod.variant_kind  # the kind each encoding says it is

    def solvers(self) -> Mapping[str, Solver]:
        return for_browser({"ganak": GANAK}, list)  # in a browser: listed, saying why it cannot run

    def settings(self) -> Mapping[str, str]:
        return SETTINGS

    def size(self, problem: Problem, choice: Choice) -> Size:
        return cnf_size(problem, choice.variant or "pairwise")

    def solve_here(self, problem: Problem, choice: Choice, deadline: float | None) -> SolveResult:
        raise InputError(f"--method {self.name} counts boards without finding any")

    def count_here(self, problem: Problem, choice: Choice, fundamental: bool) -> tuple[int, int | None]:
        self.solvers()["ganak"].require()
        import pyganak

        cnf = build_cnf(problem, choice.variant or "pairwise")
        counter = pyganak.Counter(verbose=0)
        counter.new_vars(cnf.num_vars)
        counter.add_clauses(cnf.clauses)
        if choice.settings != "unprojected":
            counter.set_sampling_set(range(1, cnf.board_vars + 1))
        return int(counter.count()), None

    def counts_boards(self, choice: Choice) -> bool:
        return choice.settings != "unprojected"

    def count_note(self, result: CountResult) -> str:
        if result.settings == "unprojected":
            result.extra["projected"] = False
            return "every model counted, helper variables included (not the number of boards)"
        return "boards counted by Ganak, projected on the board variables"


GANAK = Ganak()
