"""The encoding explorer: one "at most one" over k literals, in the encoding you pick.

Drag the line length k and pick an encoding: the clauses it writes are listed (x1 .. xk the literals,
h1, h2, ... its helper variables), with the numbers of clauses and helpers against the encoding's closed
form, and a bar per encoding comparing the sizes at this k.  Building one at-most-one takes microseconds,
so the app works in place (no background job).

>>> app = encoding_explorer(encoding="sequential", k=5)
>>> app.sizes["sequential"], app.clause_lines[0]
((4, 11), '¬x1 ∨ h1')
"""

from __future__ import annotations

import html

import ipywidgets as widgets

from ..methods.sat.encodings import ENCODINGS, VarPool
from .common import Change, Messages, clamp_size, dropdown, guarded

#: Line lengths the explorer offers (a row of a 64 x 64 board).
ENCODING_MAX_K = 64
#: At most this many clauses are listed.
LISTED_CLAUSES = 60


def clause_text(clause: list[int], k: int) -> str:
    """A clause over literals 1..k and helpers above k: ``¬x1 ∨ h2``."""
    return " ∨ ".join(("¬" if lit < 0 else "") + (f"x{abs(lit)}" if abs(lit) <= k else f"h{abs(lit) - k}")
                      for lit in clause)


class EncodingExplorer(Messages, widgets.VBox):
    """The encoding explorer (see :func:`encoding_explorer`); its controls are attributes."""

    def __init__(self, encoding: str = "sequential", k: object = 8) -> None:
        self.message = widgets.HTML("")
        size, problem_text = clamp_size(k, 1, ENCODING_MAX_K, what="k")
        self.k = widgets.IntSlider(value=size, min=1, max=ENCODING_MAX_K, description="line length k",
                                   continuous_update=False, style={"description_width": "100px"},
                                   layout=widgets.Layout(width="460px"))
        self.encoding = dropdown("encoding", list(ENCODINGS), encoding)
        self.summary = widgets.HTML("")
        self.clauses = widgets.HTML("")
        self.bars = widgets.HTML("")
        self.sizes: dict[str, tuple[int, int]] = {}
        self.clause_lines: list[str] = []
        super().__init__([
            widgets.HBox([self.k, self.encoding]), self.summary,
            widgets.HBox([self.clauses, self.bars], layout=widgets.Layout(align_items="flex-start", grid_gap="24px")),
            self.message,
        ])
        self.add_class("nqk-encoding-explorer")
        self.k.observe(self._on_change, names="value")
        self.encoding.observe(self._on_change, names="value")
        self.refresh()
        if problem_text:
            self.say(problem_text + "; showing k = " + str(size), "warn")

    def _on_change(self, change: Change | None = None) -> None:
        self.refresh()

    @guarded
    def refresh(self) -> None:
        """Encode an at-most-one over k literals in every encoding and draw the chosen one."""
        k, chosen = self.k.value, self.encoding.value
        built = {}
        for name, encoding in ENCODINGS.items():
            pool = VarPool(k)
            clauses = encoding.at_most_one(list(range(1, k + 1)), pool)
            built[name] = clauses
            self.sizes[name] = (pool.top - k, len(clauses))
            if self.sizes[name] != encoding.counts(k):
                self.say(f"{name} at k = {k}: {self.sizes[name]} built against the closed form "
                         f"{encoding.counts(k)}", "error")
        helpers, count = self.sizes[chosen]
        self.clause_lines = [clause_text(clause, k) for clause in built[chosen]]
        shown = self.clause_lines[:LISTED_CLAUSES]
        more = (f"\n… and {count - len(shown)} more" if count > len(shown) else "")
        self.clauses.value = ("<pre class='nqk-amo' style='max-height:420px;overflow:auto;font-size:15px;"
                              "line-height:1.25;background:#f6f6f6;padding:6px;margin:0;min-width:260px'>"
                              + html.escape("\n".join(shown) + more if shown else "(no clause is needed)")
                              + "</pre>")
        formula = ENCODINGS[chosen].formula
        agrees = "✓ as its closed form says" if (helpers, count) == ENCODINGS[chosen].counts(k) else "✗"
        self.summary.value = (
            f"<div class='nqk-stats' style='font-size:16px'><b>{html.escape(chosen)}</b>, at most one of "
            f"x1 … x{k}: <b>{count}</b> clause{'s' if count != 1 else ''} and <b>{helpers}</b> helper "
            f"variable{'s' if helpers != 1 else ''} (h1, h2, …), {agrees} ({html.escape(formula)} clauses)</div>")
        self.bars.value = self._bars(chosen)
        if all(self.sizes[name] == ENCODINGS[name].counts(k) for name in ENCODINGS):
            self.say("")

    def _bars(self, chosen: str) -> str:
        """A horizontal bar per encoding: its clauses (and helpers) at this k, the chosen one highlighted."""
        top = max(max(count for _, count in self.sizes.values()), 1)
        rows = []
        for name, (helpers, count) in self.sizes.items():
            width = 260 * count / top
            colour = "#e69f00" if name == chosen else "#0072b2"
            weight = "bold" if name == chosen else "normal"
            rows.append(f"<tr><td style='padding-right:8px;font-weight:{weight}'>{html.escape(name)}</td>"
                        f"<td><div style='background:{colour};width:{width:.0f}px;height:18px'></div></td>"
                        f"<td style='padding-left:8px;text-align:right'>{count}</td>"
                        f"<td style='padding-left:12px;text-align:right'>{helpers}</td></tr>")
        return ("<table class='nqk-bars' style='font-size:15px;border-collapse:collapse'>"
                "<tr><th></th><th style='text-align:left'>clauses</th><th></th><th>helpers</th></tr>"
                + "".join(rows) + "</table>")


def encoding_explorer(encoding: str = "sequential", k: object = 8) -> EncodingExplorer:
    """The encoding explorer: an encoding and a line length k; its clauses, helpers and size against the others.

    >>> app = encoding_explorer(encoding="binary", k=8)
    >>> app.sizes["binary"], app.sizes["pairwise"]
    ((3, 24), (0, 28))
    """
    return EncodingExplorer(encoding, k)
