"""What chapters 1 to 4 measure, kept out of their cells: each function computes one lesson's numbers; and
what every chapter's first cell calls.

- :func:`projector_style`: one call in a chapter's first cell makes every figure readable on a 1024 x 768
  projector: projector-sized fonts (:data:`~nqueens_kit.viz.style.PRESENTATION_RC`) and, for each figure a
  notebook shows, no text smaller than :data:`MIN_TEXT_PX` pixels (:func:`readable`, measured by
  :func:`smallest_text_px`).
- :func:`small_sizes`: whether a chapter takes its small sizes (under test, and in the browser).
- Chapter 3, edges against cliques: :data:`EDGES` (max-queens with one constraint per attacking pair),
  :func:`line_load` (what an LP relaxation lets one line hold), :func:`relaxation_bounds` and
  :func:`tree_sizes` (the LP bounds and the branch-and-bound trees side by side, for CBC and HiGHS) and
  :func:`plot_tree_sizes`; :func:`highs_incumbents` and :func:`found_by` read how a solver found its board.
- Chapter 4: :func:`propagation_work`, the clauses a cell is in against the work unit propagation does when
  a queen is put on it.

>>> [row["edges"] for row in relaxation_bounds([4, 6], solvers=[ilp_solvers_here()[0]])]
[8.0, 18.0]
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import TYPE_CHECKING, Literal, TypedDict

from ..errors import InputError
from ..inside.bnb import branch_and_bound
from ..inside.propagation import propagate
from ..methods.ilp.formulations import Formulation
from ..methods.ilp.model import _run, build_model, lp_relaxation
from ..methods.sat.cnf import build_cnf
from ..methods.sat.encodings import ENCODINGS
from ..problem.board import Cell, Problem
from ..problem.results import SolveResult
from ..runtime import browser
from ..runtime.extras import require
from ..solvers import ILP_SOLVERS, get_solver
from ..solvers.ilp_pulp import state_of
from ..viz.style import use_presentation

if TYPE_CHECKING:
    from matplotlib.figure import Figure
    from matplotlib.text import Text
    from pulp import LpAffineExpression, LpConstraint, LpVariable

    from ..problem.results import JSON

#: A notebook figure is shown at most this wide (pixels) on a 1024 x 768 projector, margins taken off.
SCREEN_PX = 960
#: No text in a figure smaller than this (pixels on that screen): about 12 pt, read from the back of a hall.
MIN_TEXT_PX = 16.0

# ------------------------------------------------------------------------------------- the projector


def _text_scale(fig: Figure, screen_px: float) -> float:
    """Screen pixels per point of text: the figure is drawn at its dpi, then shrunk to fit the screen."""
    width = fig.get_figwidth()
    return min(fig.dpi, screen_px / width) / 72.0


def _texts(fig: Figure) -> Iterator[Text]:
    from matplotlib.text import Text

    if not hasattr(fig.canvas, "get_renderer"):  # a figure closed to pyplot has a bare canvas
        from matplotlib.backends.backend_agg import FigureCanvasAgg

        FigureCanvasAgg(fig)
    fig.canvas.draw()  # tick labels exist only once drawn
    for text in fig.findobj(Text):
        if text.get_visible() and text.get_text().strip():
            yield text


def _points(text: Text) -> float:
    """A text's size in points (a drawn text has a number, never a name such as "medium")."""
    return float(text.get_fontsize())


def smallest_text_px(fig: Figure, screen_px: float = SCREEN_PX) -> float:
    """The height (pixels) of the smallest text of ``fig`` shown on a screen ``screen_px`` wide.

    >>> import matplotlib.pyplot as plt
    >>> fig, ax = plt.subplots(figsize=(4, 3), dpi=100); _ = ax.set_title("t", fontsize=9); plt.close(fig)
    >>> round(smallest_text_px(fig), 1)
    12.5
    """
    scale = _text_scale(fig, screen_px)
    return round(min((_points(text) * scale for text in _texts(fig)), default=math.inf), 3)


def readable(fig: Figure, min_px: float = MIN_TEXT_PX, screen_px: float = SCREEN_PX) -> Figure:
    """Enlarge every text of ``fig`` smaller than ``min_px`` on a ``screen_px`` screen to that size (tick
    labels through their axis, so new ticks keep it); returns ``fig``.

    >>> import matplotlib.pyplot as plt
    >>> fig, ax = plt.subplots(figsize=(4, 3), dpi=100); _ = ax.set_title("t", fontsize=9); plt.close(fig)
    >>> smallest_text_px(readable(fig)) >= MIN_TEXT_PX
    True
    """
    floor = math.ceil(100 * min_px / _text_scale(fig, screen_px)) / 100  # points, rounded up
    for ax in fig.axes:
        names: tuple[Literal["x", "y"], ...] = ("x", "y")
        for axis, name in zip((ax.xaxis, ax.yaxis), names, strict=True):
            sizes = [_points(label) for label in axis.get_ticklabels(which="both")]
            if sizes and min(sizes) < floor:
                ax.tick_params(axis=name, which="both", labelsize=floor)
    for text in _texts(fig):
        if _points(text) < floor:
            text.set_fontsize(floor)
    return fig


def small_sizes() -> bool:
    """Whether a chapter runs its slow comparisons at their small sizes: under test (a pytest session, whose
    notebook kernels inherit its ``PYTEST_VERSION``, or ``CI`` set: the whole chapter in seconds) and in the
    browser (the JupyterLite edition, whose WebAssembly Python solves several times slower, one cell at a
    time, with no process to hand a long sweep to).  By hand on a desktop: False, the sizes the chapter's
    prose was written for.

    >>> small_sizes()  # under pytest
    True
    """
    return "CI" in os.environ or "PYTEST_VERSION" in os.environ or browser.IN_BROWSER


#: Where the chapters' measured running times are stored (``python benchmarks/time_chapters.py`` writes it).
CHAPTER_TIMES = "chapter-times.json"
#: A chapter's time budget in seconds of processor time (the kernel and every process it starts, on a quiet
#: 2-core machine): the whole chapter at its full sizes, its slowest cell, and the whole chapter at its small
#: sizes (under test and in the browser).  ``tests/test_notebooks.py`` holds the stored measurements to them.
TIME_BUDGET = {"full": 60.0, "cell": 10.0, "small": 30.0}


class ChapterRun(TypedDict, total=False):
    """One way of running a chapter: wall seconds top to bottom and of its slowest cell, and processor seconds
    of the kernel and every process it started (``cpu``), and of the slowest cell by that clock."""

    total: float
    slowest_cell: float
    slowest_cell_index: int
    cpu: float
    slowest_cell_cpu: float
    slowest_cell_cpu_index: int


class ChapterTime(TypedDict):
    """A chapter's measurements: at its full sizes and at the small ones."""

    full: ChapterRun
    small: ChapterRun


class ChapterTimes(TypedDict, total=False):
    """What :data:`CHAPTER_TIMES` holds: per chapter its times, the machine measured on (``cpus``, ``date``,
    loads, versions) and the command that measured."""

    chapters: dict[str, ChapterTime]
    machine: dict[str, JSON]
    command: str


def chapter_times(folder: str | os.PathLike[str] | None = None) -> ChapterTimes:
    """The stored measurement of every chapter's running time (see :data:`CHAPTER_TIMES`), read from the
    notebook folder's ``data/`` (the working directory a chapter runs in, else the kit's own copy)."""
    import json

    from .stored import data_path

    data: ChapterTimes = json.loads(data_path(CHAPTER_TIMES, folder).read_text(encoding="utf-8"))
    return data


def running_time(chapter: str, folder: str | os.PathLike[str] | None = None) -> str:
    """One line for a chapter's first cell: how long the chapter takes to run top to bottom, as processor time
    of the kernel and every solver it starts, measured on a quiet 2-core machine (the stored measurement, with
    its date), at its full sizes and at its small ones; and its wall time there.  A minimum: a busy or slower
    machine takes longer.  A chapter with no stored measurement says it has not been measured yet.

    >>> print(running_time("01-rules-to-clauses"))  # doctest: +ELLIPSIS
    Running time of this chapter: at least ... s of processor time top to bottom (... s wall; slowest cell ...
    """
    try:
        data = chapter_times(folder)
    except InputError:
        data = {"chapters": {}}
    entry = data["chapters"].get(chapter)
    if entry is None or "cpu" not in entry["full"] or "cpu" not in entry["small"]:
        return (f"Running time of chapter {chapter}: not measured yet "
                "(python benchmarks/time_chapters.py measures every chapter).")
    machine, full, small = data["machine"], entry["full"], entry["small"]
    return (f"Running time of this chapter: at least {full['cpu']:.0f} s of processor time top to bottom "
            f"({full['total']:.0f} s wall; slowest cell {full['slowest_cell_cpu']:.1f} s), kernel and solvers "
            f"included, as measured on a quiet {machine['cpus']}-core machine on {machine['date']}; "
            f"{small['cpu']:.0f} s at the small sizes used under test and in the browser.  A busy or slower "
            "machine takes longer.")


def projector_style() -> None:
    """Make this notebook's figures readable on a 1024 x 768 projector (call it once, in the first cell).

    matplotlib takes the projector's font sizes and line widths; and every figure the notebook shows is
    first passed through :func:`readable`, so the fixed small sizes some figures use (a board's row numbers,
    the values in a heat map) are enlarged too.  Outside IPython only the sizes change.
    """
    require(f"{__name__}.projector_style", "matplotlib")
    import matplotlib
    import matplotlib.pyplot  # noqa: F401  (pyplot picks its backend, which sets its defaults: before ours)

    try:
        from IPython import get_ipython
    except ImportError:  # not in IPython: nothing shows figures here
        get_ipython = None
    shell = get_ipython() if get_ipython is not None else None
    try:  # matplotlib >= 3.10 names the backend without resolving it; before, rcParams holds the name
        backend = str(matplotlib.get_backend(auto_select=False))
    except TypeError:
        backend = str(matplotlib.rcParams._get("backend"))
    if shell is not None and "inline" in backend:
        import matplotlib_inline.backend_inline  # noqa: F401  (it sets its defaults and formatters on import)
    use_presentation()
    if shell is None:
        return
    from matplotlib.figure import Figure

    for kind, formatter in shell.display_formatter.formatters.items():
        if not kind.startswith(("image/", "application/pdf")):
            continue
        try:
            shown = formatter.lookup_by_type(Figure)
        except (KeyError, AttributeError):
            continue
        if getattr(shown, "projector", False):
            continue

        def projected(fig: Figure, _shown: Callable[[Figure], object] = shown) -> object:
            return _shown(readable(fig))

        projected.projector = True  # type: ignore[attr-defined]
        formatter.for_type(Figure, projected)


# ------------------------------------------------------------------------- chapter 3: edges and cliques


@dataclass(frozen=True)
class EdgeFormulation(Formulation):
    """Max-queens written with edges: ``x_a + x_b <= 1`` for every two cells that attack each other, in
    rows and columns as well as on diagonals, instead of one constraint per line (a clique)."""

    def constraints(self, problem: Problem, x: dict[Cell, LpVariable],
                    lp_sum: Callable[[list[LpVariable]], LpAffineExpression]) -> Iterator[tuple[LpConstraint, str]]:
        for line in problem.lines():
            for a, b in combinations(line.cells, 2):
                yield x[a] + x[b] <= 1, f"{line.name}_pair_{a[0]}_{a[1]}_{b[0]}_{b[1]}"
        for r, c in problem.preplaced:
            yield x[r, c] + 0 == 1, f"placed_{r}_{c}"
        for r, c in problem.blocked:
            yield x[r, c] + 0 == 0, f"blocked_{r}_{c}"


#: Max-queens with edge constraints only: the weak twin of ``max-queens`` (cliques).
EDGES = EdgeFormulation("max-queens-edges", "maximise the number of queens with x_a + x_b <= 1 for every "
                                            "attacking pair (rows and columns too)", maximise=True,
                        exact_lines=False, pair_diagonals=True)


def ilp_solvers_here() -> list[str]:
    """The ILP solvers installed here, the default first."""
    return [name for name, solver in ILP_SOLVERS.items() if solver.available()]


def line_load(problem: Problem | int, formulation: str | Formulation, line: str | None = None,
              solver: str | None = None) -> float:
    """The most queens the LP relaxation of ``formulation`` lets one line hold: maximise the sum of its cells
    (``line`` names it, e.g. ``"diag_4"``; default the long diagonal).  The integer answer is 1.

    >>> line_load(6, "lines"), line_load(6, "pairwise")
    (1.0, 3.0)
    """
    import pulp

    problem = problem if isinstance(problem, Problem) else Problem(problem)
    name = line or f"diag_{problem.n}"
    cells = next(each.cells for each in problem.lines() if each.name == name)
    model = build_model(problem, formulation, relax=True)
    model.prob.sense = pulp.LpMaximize
    model.prob.setObjective(pulp.lpSum(model.x[cell] for cell in cells))
    run = _run(model, get_solver("ilp", solver).require(), None, None)  # type: ignore[arg-type]
    state = state_of(run)
    if state not in ("optimal", "feasible"):
        raise AssertionError(f"the relaxation of {name} did not solve ({state})")
    return round(sum(float(model.x[cell].varValue or 0.0) for cell in cells), 6)


class RelaxationBound(TypedDict):
    """One n of :func:`relaxation_bounds`."""

    n: int
    cliques: float
    edges: float
    lines: float
    pairwise: float


def relaxation_bounds(ns: Iterable[int], solvers: Sequence[str] | None = None) -> list[RelaxationBound]:
    """Per n, what the LP relaxations say, with cliques against edges: the max-queens bound (``cliques``,
    ``edges``) and the queens the long diagonal may hold in the feasibility models (``lines``,
    ``pairwise``).  Every solver in ``solvers`` must find the same numbers (they are optima, not vertices).
    """
    rows = []
    for n in ns:
        seen: list[RelaxationBound] = []
        for solver in solvers or ilp_solvers_here():
            seen.append({"n": n,
                         "cliques": round(lp_relaxation(Problem(n), "max-queens", solver).objective or 0.0, 6),
                         "edges": round(lp_relaxation(Problem(n), EDGES, solver).objective or 0.0, 6),
                         "lines": line_load(n, "lines", solver=solver),
                         "pairwise": line_load(n, "pairwise", solver=solver)})
        if any(row != seen[0] for row in seen):
            raise AssertionError(f"the solvers disagree on an LP optimum at n = {n}: {seen}")
        rows.append(seen[0])
    return rows


#: The formulations a tree is grown for, cliques first: with an objective, then feasibility only.
TREE_FORMULATIONS: tuple[str | Formulation, ...] = ("max-queens", EDGES, "lines", "pairwise")


class TreeSize(TypedDict):
    """One tree of :func:`tree_sizes`."""

    n: int
    solver: str
    formulation: str
    nodes: int
    depth: int
    status: str
    optimum: float | None
    seconds: float


def tree_sizes(ns: Iterable[int], solvers: Sequence[str] | None = None, max_nodes: int = 5_000,
               time_limit: float = 120.0) -> list[TreeSize]:
    """The kit's branch and bound (:func:`~nqueens_kit.inside.bnb.branch_and_bound`) per n, solver and
    formulation of :data:`TREE_FORMULATIONS`: one row each with the nodes (LPs solved), the depth of the
    deepest node, the status, and the optimum for max-queens."""
    rows: list[TreeSize] = []
    for n in ns:
        for solver in solvers or ilp_solvers_here():
            for formulation in TREE_FORMULATIONS:
                # branch_and_bound takes a Formulation as well as a name
                tree = branch_and_bound(Problem(n), formulation, solver,  # type: ignore[arg-type]
                                        max_nodes=max_nodes, time_limit=time_limit)
                name = formulation if isinstance(formulation, str) else formulation.name
                rows.append({"n": n, "solver": solver, "formulation": name, "nodes": len(tree.nodes),
                             "depth": max(node.depth for node in tree.nodes), "status": str(tree.status),
                             "optimum": tree.objective, "seconds": tree.seconds})
    return rows


def plot_tree_sizes(rows: Sequence[TreeSize], title: str | None = None) -> Figure:
    """Nodes against n, one panel with an objective (max-queens with cliques and with edges) and one without
    (lines and pairwise); solid lines for cliques, dashed for edges, a colour and marker per solver, and one
    legend for both panels below them."""
    require(f"{__name__}.plot_tree_sizes", "matplotlib")
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D

    from ..viz.style import OKABE_ITO

    fig, axes = plt.subplots(1, 2, figsize=(9.6, 5.0), layout="constrained", sharey=True)
    plt.close(fig)
    panels = (("max-queens: a bound to prune with", ("max-queens", EDGES.name)),
              ("lines, pairwise: no bound", ("lines", "pairwise")))
    solvers = list(dict.fromkeys(row["solver"] for row in rows))
    palette = [OKABE_ITO["blue"], OKABE_ITO["vermillion"], OKABE_ITO["bluish green"], OKABE_ITO["reddish purple"]]
    looks = {solver: (palette[i % len(palette)], "osD^"[i % 4]) for i, solver in enumerate(solvers)}
    for ax, (panel, names) in zip(axes, panels, strict=True):
        for name, dashes in zip(names, ("-", "--"), strict=True):
            for solver in solvers:
                mine = sorted((row["n"], row["nodes"]) for row in rows
                              if row["formulation"] == name and row["solver"] == solver)
                if mine:
                    colour, marker = looks[solver]
                    ax.plot(*zip(*mine, strict=True), dashes, marker=marker, color=colour)
        ax.set_yscale("log")
        ax.set_xlabel("n")
        ax.set_title(panel)
        ax.xaxis.get_major_locator().set_params(integer=True)
    axes[0].set_ylabel("nodes (LPs solved)")
    handles = [Line2D([], [], color="0.2", linestyle="-", label="cliques: a constraint per line"),
               Line2D([], [], color="0.2", linestyle="--", label="edges: a constraint per pair")]
    handles += [Line2D([], [], color=colour, marker=marker, linestyle="", label=solver)
                for solver, (colour, marker) in looks.items()]
    fig.legend(handles=handles, loc="outside lower center", ncols=2, fontsize="small")
    if title:
        fig.suptitle(title)
    return fig


@dataclass(frozen=True)
class Incumbent:
    """A better solution in HiGHS's log: the source letter, what the legend calls it, the objective, and the
    bound known at that moment (``-inf`` before the first LP of a minimisation is solved)."""

    source: str
    name: str
    objective: float
    bound: float


_HIGHS_TABLE_ROW = re.compile(r"^\s*([A-Za-z])\s+\d+\s+\d+\s+\d+\s+[\d.]+%\s+(\S+)\s+(\S+)")


def highs_incumbents(log: str) -> list[Incumbent]:
    """Every row of HiGHS's branch-and-bound table where the best solution changed, with the source named
    by the log's own legend (``J`` is *Feasibility jump*), in order.

    >>> log = "Src: B => Branching; J => Feasibility jump\\n z  0  0  0  0.00%  -inf  0  Large\\n" \\
    ...       " J  0  0  0  0.00%  -inf  -8  Large\\n"
    >>> [(step.source, step.name, step.objective, step.bound) for step in highs_incumbents(log)]
    [('z', 'z', 0.0, -inf), ('J', 'Feasibility jump', -8.0, -inf)]
    """
    legend = dict(re.findall(r"\b([A-Za-z]) => ([^;\n]+)", log))
    steps: list[Incumbent] = []
    for line in log.splitlines():
        match = _HIGHS_TABLE_ROW.match(line)
        if not match:
            continue
        source, bound, best = match.groups()
        try:
            value, known = float(best), float(bound)
        except ValueError:  # a column HiGHS left empty
            continue
        if not math.isfinite(value) or (steps and steps[-1].objective == value):
            continue
        steps.append(Incumbent(source, str(legend.get(source) or source).strip(), value + 0.0, known))
    return steps


def found_by(result: SolveResult) -> str:
    """How an ILP run (solved with ``keep_log=True``) found its board, in its solver's words: CBC's
    "found by ..." (its search when it names no heuristic), or the source of HiGHS's last incumbent."""
    log = str(result.extra.get("solver_log") or "")
    cbc = re.findall(r"Integer solution of \S+ found (?:by (.+?) )?after", log)
    if cbc:
        return cbc[-1] or "branching"
    steps = highs_incumbents(log)
    return steps[-1].name if steps else "unknown"


# ------------------------------------------------------------------------------ chapter 4: propagation


class PropagationWork(TypedDict):
    """One encoding of :func:`propagation_work`."""

    encoding: str
    clauses_per_cell: float
    visits: float
    set: float
    ruled_out: float
    conflicts: int


def propagation_work(n: int, encodings: Iterable[str] = ENCODINGS) -> list[PropagationWork]:
    """Per encoding: the clauses a board cell is in (mean over the cells) against what unit propagation does
    when a queen is put on a cell of the empty board (means over every cell): the clauses it visits (two
    watched literals, :func:`~nqueens_kit.inside.propagation.propagate`), the literals it sets (helpers
    included) and the board cells it rules out.

    >>> [(row["encoding"], row["visits"]) for row in propagation_work(4, ["pairwise"])]
    [('pairwise', 37.5)]
    """
    rows: list[PropagationWork] = []
    for encoding in encodings:
        cnf = build_cnf(n, encoding)
        board = n * n
        occurrences = sum(1 for clause in cnf.clauses for lit in clause if abs(lit) <= board)
        runs = [propagate(cnf.clauses, [cell]) for cell in range(1, board + 1)]
        rows.append({"encoding": encoding, "clauses_per_cell": occurrences / board,
                     "visits": sum(run.visits for run in runs) / board,
                     "set": sum(len(run.value or {}) for run in runs) / board,
                     "ruled_out": sum(sum(1 for var, value in (run.value or {}).items() if var <= board and not value)
                                      for run in runs) / board,
                     "conflicts": sum(run.value is None for run in runs)})
    return rows


__all__ = ["EDGES", "MIN_TEXT_PX", "SCREEN_PX", "EdgeFormulation", "Incumbent", "TREE_FORMULATIONS",
           "found_by", "highs_incumbents", "ilp_solvers_here", "line_load", "plot_tree_sizes",
           "projector_style", "propagation_work", "readable", "relaxation_bounds", "small_sizes",
           "smallest_text_px", "tree_sizes"]

