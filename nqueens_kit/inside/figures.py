"""Figures of what happens inside the solvers (chapter 7), sized for a lecture hall; each returns a Figure.

- :func:`draw_trace_steps`: a CDCL trace (:mod:`nqueens_kit.inside.cdcl`) at a few steps, one board each:
  queens, the decisions framed, the cells ruled out tinted, the clause that became false in red.
- :func:`draw_implication_graph`: the implication graph of one conflict with its first-UIP cut, the
  conflict side shaded and the learned clause written under it.
- :func:`draw_proof_steps`: each lemma of a proof replayed on the board (:func:`~nqueens_kit.inside.proofs.replay`).
- :func:`plot_load_search`: where a SAT solve's time goes per encoding, and its propagations.
- :func:`plot_bnb_tree`: a branch-and-bound tree (:mod:`nqueens_kit.inside.bnb`), node by node.

Boards and labels are drawn large enough to read from the back of a hall on a 1024 x 768 projector: at most
:data:`PANELS_PER_ROW` boards a row, at most :data:`FIGURE_WIDTH` inches wide.

>>> from nqueens_kit.inside.cdcl import trace
>>> fig = draw_implication_graph(trace(4))
>>> fig.axes[0].get_title().startswith("learned")
True
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Sequence
from typing import TYPE_CHECKING, TypedDict

from ..runtime.extras import needs_extra

try:
    from matplotlib import pyplot as plt
    from matplotlib.figure import Figure
    from matplotlib.patches import FancyArrowPatch, Patch, Rectangle
except ModuleNotFoundError as missing:  # pip install nqueens-kit leaves matplotlib out: name the extra
    raise needs_extra(missing, __name__) from None

from ..errors import InputError
from ..viz.boards import FRAME_COLOUR, draw_board
from ..viz.figure import new_axes
from ..viz.style import OKABE_ITO

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from ..methods.sat.cnf import CNF
    from .bnb import Node, Tree
    from .cdcl import ImplicationGraph, Trace
    from .proofs import LemmaStep
    from .propagation import LoadSearchRow

#: At most this many boards side by side, and figures at most this wide (inches, 100 dpi: 1000 px).
PANELS_PER_ROW = 4
FIGURE_WIDTH = 10.0
#: Cell colours: ruled out (tinted), the false clause, a learned clause.
RULED_OUT = "#cfe3f7"
FALSE_CLAUSE = "#f4a3a3"
CONFLICT_SIDE = "#fde0c5"
#: Titles are wrapped at this many characters (a long learned clause).
TITLE_CHARACTERS = 70

__all__ = ["draw_implication_graph", "draw_proof_steps", "draw_trace_steps", "plot_load_search"]


def _grid(count: int, per_row: int = PANELS_PER_ROW, height: float = 3.2) -> tuple[Figure, list[Axes]]:
    columns = max(1, min(per_row, count))
    rows = math.ceil(count / columns)
    side = FIGURE_WIDTH / columns
    fig, axes = plt.subplots(rows, columns, figsize=(FIGURE_WIDTH, min(height, side + 0.6) * rows),
                             layout="constrained", squeeze=False)
    plt.close(fig)
    flat = [ax for row in axes for ax in row]
    for ax in flat[count:]:
        ax.set_axis_off()
    return fig, flat[:count]


class _PatchStyle(TypedDict, total=False):
    facecolor: str
    edgecolor: str
    linewidth: float


def _legend(fig: Figure, entries: Sequence[tuple[str, _PatchStyle]]) -> None:
    handles = [Patch(label=label, **style) for label, style in entries]
    fig.legend(handles=handles, loc="outside lower center", ncols=len(handles), fontsize="small", frameon=False)


def draw_trace_steps(result: Trace, steps: Sequence[int], per_row: int = 3) -> Figure:
    """The board after each of ``steps`` (indices into ``result.events``) of a CDCL trace: black queens,
    decisions framed in blue, cells ruled out tinted, the cells of a false clause red; the title says the
    step and what happened."""
    from .cdcl import state_at

    if not steps:
        raise InputError("draw_trace_steps needs at least one step")
    cnf = result.cnf
    fig, axes = _grid(len(steps), per_row, height=3.6)
    for ax, k in zip(axes, steps, strict=True):
        if not 0 <= k < len(result.events):
            raise InputError(f"step {k} is not in this trace (0 to {len(result.events) - 1})")
        state = state_at(result, k)
        marks = dict.fromkeys(state.blocked, RULED_OUT)
        marks |= {cnf.problem.cell(abs(lit)): FALSE_CLAUSE for lit in state.conflict if abs(lit) <= cnf.board_vars}
        event = result.events[k]
        if event.kind == "decide" and event.literal is not None:
            what = f"decide {cnf.literal_name(event.literal)}"
        elif event.kind == "backjump":
            what = f"back to level {event.to_level}"
        else:
            what = event.kind
        draw_board(cnf.n, state.queens, highlight=marks, framed=state.decided, ax=ax,
                   title=f"step {k + 1}: {what}")
    _legend(fig, [("decision (framed)", {"facecolor": "none", "edgecolor": FRAME_COLOUR, "linewidth": 2.5}),
                  ("ruled out", {"facecolor": RULED_OUT}), ("clause made false", {"facecolor": FALSE_CLAUSE})])
    return fig


def _layers(graph: ImplicationGraph) -> dict[int, int]:
    """Columns for the nodes: each node one right of its rightmost predecessor; the conflict side (and κ)
    right of every reason-side node, so that the first-UIP cut is a vertical line."""
    order = [lit for lit, _, _ in graph.nodes] + [0]
    before: dict[int, list[int]] = {}
    for a, b in graph.edges:
        before.setdefault(b, []).append(a)
    column: dict[int, int] = {}
    side = graph.conflict_side | {0}
    for lit in order:
        if lit in side:
            continue
        column[lit] = max((column[p] + 1 for p in before.get(lit, []) if p in column), default=0)
    start = max(column.values(), default=-1) + 1
    for lit in order:
        if lit in side:
            column[lit] = max([start] + [column[p] + 1 for p in before.get(lit, []) if p in column])
    return column


def draw_implication_graph(result: Trace, step: int | None = None, ax: Axes | None = None) -> Figure:
    """The implication graph of a conflict of a CDCL trace (:func:`~nqueens_kit.inside.cdcl.implication_graph`):
    one node per literal, written ``P[2,3]@2`` (the literal and its decision level); decisions are boxes,
    the first UIP is ringed in gold, κ is the conflict; the conflict side of the first-UIP cut is shaded
    and the cut drawn as a dashed line; the edges that cross it are red, and the learned clause (the
    negated literals at their tails) is the title."""
    from .cdcl import implication_graph

    graph = implication_graph(result, step)
    cnf = result.cnf
    column = _layers(graph)
    per_column: dict[int, list[int]] = {}
    for lit in [lit for lit, _, _ in graph.nodes] + [0]:
        per_column.setdefault(column[lit], []).append(lit)
    tallest = max(len(v) for v in per_column.values())
    width = min(FIGURE_WIDTH, max(6.0, 1.9 * (max(per_column) + 1) + 1.0))
    fig, ax = new_axes(ax, (width, min(7.5, max(3.2, 0.85 * tallest + 1.6))))
    where: dict[int, tuple[float, float]] = {}
    for col, lits in per_column.items():
        for i, lit in enumerate(lits):
            where[lit] = (float(col), (len(lits) - 1) / 2 - i)
    level = {lit: lvl for lit, lvl, _ in graph.nodes}
    decided = {lit for lit, _, d in graph.nodes if d}
    cut = max(column[lit] for lit in level if lit not in graph.conflict_side) + 0.5
    low, high = -tallest / 2 - 0.3, tallest / 2 + 0.3
    right = max(per_column) + 0.7
    ax.add_patch(Rectangle((cut, low), right - cut, high - low, facecolor=CONFLICT_SIDE, edgecolor="none", zorder=0))
    ax.plot([cut, cut], [low, high], linestyle="--", color="0.25", linewidth=1.8, zorder=1)
    ax.text(cut, high, " first-UIP cut", ha="left", va="bottom", fontsize="small", color="0.25")
    ax.text(cut - 0.1, high, "reason side ", ha="right", va="bottom", fontsize="small", color="0.35")
    crossing = set(graph.cut_edges())
    for a, b in graph.edges:
        across = (a, b) in crossing
        others = [xy for lit, xy in where.items() if lit not in (a, b)]
        ax.add_patch(FancyArrowPatch(where[a], where[b], arrowstyle="-|>", mutation_scale=16, shrinkA=24,
                                     shrinkB=24, color=OKABE_ITO["vermillion"] if across else "0.45",
                                     connectionstyle=f"arc3,rad={_bend(where[a], where[b], others)}",
                                     linewidth=2.0 if across else 1.2, zorder=2))
    for lit, (x, y) in where.items():
        if lit == 0:
            text, face, edge = "κ", FALSE_CLAUSE, OKABE_ITO["vermillion"]
        else:
            text = f"{cnf.literal_name(lit)}@{level[lit]}"
            face = "white" if level[lit] < graph.level else "#eef4fb"
            edge = OKABE_ITO["yellow"] if lit == graph.uip else "0.3"
        style = "square,pad=0.35" if lit in decided else "round,pad=0.35"
        ax.text(x, y, text, ha="center", va="center", fontsize="medium", zorder=3,
                bbox={"boxstyle": style, "facecolor": face, "edgecolor": edge,
                      "linewidth": 3.0 if lit == graph.uip else 1.2})
    ax.set_xlim(-0.8, right)
    ax.set_ylim(low - 0.2, high + 0.5)
    ax.set_axis_off()
    learned = " ∨ ".join(cnf.literal_name(lit) for lit in graph.learned)
    ax.set_title(textwrap.fill(f"learned: {learned}", TITLE_CHARACTERS), fontsize="medium")
    return fig


def _bend(start: tuple[float, float], end: tuple[float, float], nodes: Sequence[tuple[float, float]]) -> float:
    """How much an edge of the implication graph bows (matplotlib's ``arc3`` radius) so that it passes no
    other node's label: straight when it can, else the smallest bend that clears every label."""
    (x0, y0), (x1, y1) = start, end
    for rad in (0.0, 0.3, -0.3, 0.5, -0.5, 0.7, -0.7):
        cx, cy = (x0 + x1) / 2 + rad * (y1 - y0), (y0 + y1) / 2 - rad * (x1 - x0)
        points = [((1 - t) ** 2 * x0 + 2 * t * (1 - t) * cx + t ** 2 * x1,
                   (1 - t) ** 2 * y0 + 2 * t * (1 - t) * cy + t ** 2 * y1) for t in (i / 40 for i in range(1, 40))]
        if not any(abs(px - nx) < 0.45 and abs(py - ny) < 0.3 for px, py in points for nx, ny in nodes):
            return rad
    return 0.0


def draw_proof_steps(cnf: CNF, steps: Sequence[LemmaStep], per_row: int = PANELS_PER_ROW) -> Figure:
    """Each lemma of a proof checked on the board (:class:`~nqueens_kit.inside.proofs.LemmaStep`): the
    queens assumed or forced in black, the cells ruled out tinted, the clause that fails in red; the title
    is the lemma (⊥ for the empty clause), numbered."""
    if not steps:
        raise InputError("draw_proof_steps needs at least one lemma")
    fig, axes = _grid(len(steps), per_row, height=3.3)
    for index, (ax, step) in enumerate(zip(axes, steps, strict=True), start=1):
        cells = step.cells(cnf)
        marks = dict.fromkeys(cells["empty"], RULED_OUT)
        marks |= {cnf.problem.cell(abs(lit)): FALSE_CLAUSE for lit in step.conflict or ()
                  if abs(lit) <= cnf.board_vars}
        lemma = " ∨ ".join(cnf.literal_name(lit) for lit in step.lemma) or "⊥"
        draw_board(cnf.n, cells["queen"], highlight=marks, ax=ax, title=f"{index}. {lemma}")
    _legend(fig, [("ruled out", {"facecolor": RULED_OUT}), ("clause that fails", {"facecolor": FALSE_CLAUSE})])
    return fig


def plot_load_search(rows: Sequence[LoadSearchRow], title: str | None = None) -> Figure:
    """Where a SAT solve's time goes per encoding (rows of
    :func:`~nqueens_kit.inside.propagation.load_and_search`): loading the clauses and searching, as stacked
    bars in milliseconds, and the solver's propagations (its own count) beside them."""
    if not rows:
        raise InputError("plot_load_search needs at least one row")
    fig, (left, right) = plt.subplots(1, 2, figsize=(FIGURE_WIDTH, 4.0), layout="constrained")
    plt.close(fig)
    names = [r["encoding"] for r in rows]
    load = [r["load"] * 1000 for r in rows]
    search = [r["search"] * 1000 for r in rows]
    left.bar(names, load, color=OKABE_ITO["sky blue"], label="loading the clauses")
    left.bar(names, search, bottom=load, color=OKABE_ITO["blue"], label="search")
    left.set_ylabel("ms, this machine")
    left.legend(fontsize="small")
    left.tick_params(axis="x", rotation=30)
    left.set_title("loading and search", fontsize="medium")
    right.bar(names, [r["propagations"] for r in rows], color=OKABE_ITO["orange"])
    right.set_ylabel("propagations")
    right.set_title("the solver's own count", fontsize="medium")
    right.tick_params(axis="x", rotation=30)
    fig.suptitle(title or f"n = {rows[0]['n']}: where a SAT solve's time goes", fontsize="large")
    return fig


def _tree_positions(tree: Tree) -> dict[int, tuple[float, float]]:
    """A tidy layout: leaves evenly spaced left to right in search order (the queen branch left), each parent
    centred over its children, depth downwards."""
    children: dict[int, list[Node]] = {}
    for node in tree.nodes:
        if node.parent is not None:
            children.setdefault(node.parent, []).append(node)
    for kids in children.values():
        kids.sort(key=lambda c: -c.branch[1] if c.branch else 0)
    where: dict[int, tuple[float, float]] = {}
    next_leaf = [0.0]

    def place(node: Node) -> float:
        kids = children.get(node.id, [])
        if not kids:
            x = next_leaf[0]
            next_leaf[0] += 1.0
        else:
            xs = [place(kid) for kid in kids]
            x = (min(xs) + max(xs)) / 2
        where[node.id] = (x, -float(node.depth))
        return x

    for root in (node for node in tree.nodes if node.parent is None):
        place(root)
    return where


#: Node colours of a branch-and-bound tree, by what became of the node.
BNB_COLOURS = {"branched": OKABE_ITO["blue"], "integral": OKABE_ITO["bluish green"],
               "infeasible": OKABE_ITO["vermillion"], "pruned": OKABE_ITO["orange"], "open": OKABE_ITO["grey"]}
#: Trees up to this many nodes get every branch and bound written on them; larger ones only dots.
BNB_LABEL_LIMIT = 40


def plot_bnb_tree(tree: Tree, ax: Axes | None = None, title: str | None = None) -> Figure:
    """A branch-and-bound tree (:class:`nqueens_kit.inside.bnb.Tree`), drawn as a tree: the root on top, each
    node under its parent, the queen branch (x = 1) on the left; every edge labelled with its branching
    decision and every node with its number (the order it was solved in) and, for max-queens, its LP bound;
    nodes coloured by what became of them (branched, integral, infeasible, pruned, open).  Trees of more
    than :data:`BNB_LABEL_LIMIT` nodes are drawn as dots only."""
    where = _tree_positions(tree)
    leaves = max(1, sum(1 for node in tree.nodes if not any(c.parent == node.id for c in tree.nodes)))
    depth = max(node.depth for node in tree.nodes)
    labelled = len(tree.nodes) <= BNB_LABEL_LIMIT
    fig, ax = new_axes(ax, (min(10.0, max(6.0, 1.25 * leaves + 1.5)), min(7.0, 1.25 * depth + 2.2)))
    for node in tree.nodes:
        if node.parent is None:
            continue
        (x0, y0), (x1, y1) = where[node.parent], where[node.id]
        ax.plot([x0, x1], [y0, y1], color="0.55", linewidth=1.2, zorder=1)
        if labelled and node.branch is not None:
            (r, c), value = node.branch
            ax.text((x0 + x1) / 2 + (-0.06 if value else 0.06), (y0 + y1) / 2, f"x[{r},{c}]={value}",
                    ha="right" if value else "left", va="center", fontsize="small", color="0.2", zorder=4,
                    bbox={"boxstyle": "round,pad=0.15", "facecolor": "white", "edgecolor": "none", "alpha": 0.85})
    for status, colour in BNB_COLOURS.items():
        chosen = [node for node in tree.nodes if node.status == status]
        if chosen:
            ax.scatter([where[n.id][0] for n in chosen], [where[n.id][1] for n in chosen], color=colour,
                       s=420 if labelled else 40, label=status, zorder=3, edgecolors="white", linewidths=1.0)
    if labelled:
        for node in tree.nodes:
            x, y = where[node.id]
            ax.text(x, y, str(node.id), ha="center", va="center", color="white", fontsize="small",
                    fontweight="bold", zorder=5)
            if node.bound is not None:
                ax.text(x, y - 0.3, f"{node.bound:.2f}", ha="center", va="top", fontsize="small", color="0.2",
                        zorder=5)
    ax.set_xlim(-0.8, leaves - 0.2)
    ax.set_ylim(-depth - 0.7, 0.6)
    ax.set_yticks([-d for d in range(depth + 1)], [str(d) for d in range(depth + 1)])
    ax.set_ylabel("depth")
    ax.set_xticks([])
    if labelled:
        ax.set_xlabel("in a node: the order it was solved in" + ("; under it: its LP bound" if any(
            node.bound is not None for node in tree.nodes) else ""), fontsize="small")
    for side in ("top", "right", "bottom"):
        ax.spines[side].set_visible(False)
    present = [s for s in BNB_COLOURS if any(node.status == s for node in tree.nodes)]
    ax.legend(fontsize="small", ncols=len(present), loc="lower center", bbox_to_anchor=(0.5, 1.0),
              markerscale=0.5 if labelled else 1.0, frameon=False)
    if title:
        ax.set_title(title, fontsize="medium", pad=30)
    return fig
