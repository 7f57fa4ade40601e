"""The formula explorer: the clauses one line of the board contributes, highlighted on the board, with their
origins in the lectures' notation, and the clause counts of each family of lines against the closed form;
with ``dimacs=True`` also the DIMACS file a solver reads (its first lines, for chapter 1).

Building a CNF of n <= 10 takes milliseconds, so this app works in place (no background job).

>>> app = formula_explorer(n=7)
>>> "p cnf 49 490" in app.families.value
True
"""

from __future__ import annotations

import html

import ipywidgets as widgets

from ..methods.sat.cnf import CNF, PART_TEXT, build_cnf, predicted_size
from ..methods.sat.encodings import DEFAULT_ENCODING, ENCODINGS
from ..problem.board import board_lines
from .common import Change, Messages, clamp_size, dropdown, guarded
from .svg import board_svg

#: The formula explorer lists clauses; beyond this size the lists stop being readable.
FORMULA_MAX_N = 10
#: At most this many clauses are listed for one line.
MAX_LISTED_CLAUSES = 60
#: At most this many lines of the DIMACS file are shown.
DIMACS_LINES = 80


def _line_title(name: str) -> str:
    kind, index = name.split("_")
    return {"row": "row", "col": "column", "diag": "diagonal", "anti": "anti-diagonal"}[kind] + f" {index}"


class FormulaExplorer(Messages, widgets.VBox):
    """The formula explorer (see :func:`formula_explorer`)."""

    def __init__(self, n: object = 4, encoding: str = DEFAULT_ENCODING, line: str = "row_1",
                 dimacs: bool = False) -> None:
        size, problem_text = clamp_size(n, 1, FORMULA_MAX_N)
        self.n = widgets.IntSlider(value=size, min=1, max=FORMULA_MAX_N, description="n", continuous_update=False,
                                   style={"description_width": "30px"}, layout=widgets.Layout(width="300px"))
        self.encoding = dropdown("encoding", list(ENCODINGS), encoding)
        self.line = dropdown("line", [], None, width="260px")
        self.board = widgets.HTML(value="")
        self.clauses = widgets.HTML(value="")
        self.families = widgets.HTML(value="")
        #: The formula's size in one line, right under the controls: in view on a 1024 x 768 screen.
        self.summary = widgets.HTML(value="")
        self.message = widgets.HTML(value="")
        self.dimacs = widgets.HTML(value="")
        self.show_dimacs = bool(dimacs)
        self._cnf: CNF | None = None
        super().__init__([
            widgets.HBox([self.n, self.encoding, self.line]), self.summary,
            widgets.HBox([self.board, self.clauses], layout=widgets.Layout(align_items="flex-start",
                                                                             grid_gap="20px")),
            self.families, *([self.dimacs] if self.show_dimacs else []), self.message,
        ])
        self.add_class("nqk-formula-explorer")
        self._set_lines(line)
        self.n.observe(self._on_n, names="value")
        self.encoding.observe(self._on_change, names="value")
        self.line.observe(self._on_line, names="value")
        self.refresh()
        if problem_text:
            self.say(problem_text + "; showing n = " + str(size), "warn")

    def _set_lines(self, keep: str | None = None) -> None:
        names = [line.name for line in board_lines(self.n.value)]
        options = [(_line_title(name) + f"  ({name})", name) for name in names]
        value = keep if keep in names else (names[0] if names else None)
        self.line.options = options
        self.line.value = value

    def _on_n(self, change: Change | None = None) -> None:
        self.line.unobserve(self._on_line, names="value")
        try:
            self._set_lines(self.line.value)
        finally:
            self.line.observe(self._on_line, names="value")
        self.refresh()

    def _on_change(self, change: Change | None = None) -> None:
        self.refresh()

    def _on_line(self, change: Change | None = None) -> None:
        self._show_line()

    @guarded
    def refresh(self) -> None:
        """Build the formula for the current n and encoding and redraw everything."""
        n, encoding = self.n.value, self.encoding.value
        self._cnf = build_cnf(n, encoding)
        self._show_families()
        self._show_line()
        if self.show_dimacs:
            self._show_dimacs()
        self.say("")

    def _show_line(self) -> None:
        cnf, name = self._cnf, self.line.value
        n = self.n.value
        if cnf is None or name is None:
            self.board.value = board_svg(n)
            self.clauses.value = "<i>a 1 × 1 board has no lines of two or more cells except its row and column</i>"
            return
        line = next(line for line in board_lines(n) if line.name == name)
        self.board.value = board_svg(n, highlight=line.cells, size=300,
                                     caption=f"{n} × {n} board, {_line_title(name)} highlighted")
        rows = []
        groups = cnf.groups_of(name)
        total = sum(len(g) for g in groups)
        shown = 0
        for group in groups:
            for index in range(group.start, group.stop):
                if shown >= MAX_LISTED_CLAUSES:
                    break
                rows.append(f"<tr><td style='text-align:right;padding-right:8px'>{index + 1}</td>"
                            "<td style='font-family:monospace;padding-right:12px'>"
                            f"{html.escape(cnf.clause_text(index))}</td>"
                            f"<td style='color:#555'>{html.escape(group.label)}</td></tr>")
                shown += 1
        more = f"<div>… and {total - shown} more</div>" if total > shown else ""
        cells = ", ".join(f"P[{r},{c}]" for r, c in line.cells)
        rule = "exactly one queen" if line.exact else "at most one queen"
        self.clauses.value = (
            f"<div class='nqk-clauses'><b>{html.escape(_line_title(name))}</b>: {rule} among "
            f"{len(line.cells)} cells ({html.escape(cells)}); {total} clause{'s' if total != 1 else ''} "
            f"in the {html.escape(cnf.encoding)} encoding"
            "<div style='max-height:300px;overflow:auto'><table><tr><th>#</th><th style='text-align:left'>clause</th>"
            "<th style='text-align:left'>origin</th></tr>"
            + "".join(rows) + "</table></div>" + more + "</div>"
        )

    def _show_dimacs(self) -> None:
        cnf = self._cnf
        if cnf is None:
            return
        lines = cnf.to_dimacs().splitlines()
        shown = lines[:DIMACS_LINES]
        more = (f"<div>… and {len(lines) - len(shown)} more lines (the whole file: <code>nqueens-kit cnf "
                f"{cnf.n} --encoding {html.escape(cnf.encoding)}</code>)</div>" if len(lines) > len(shown) else "")
        self.dimacs.value = (
            f"<div class='nqk-dimacs'><b>The DIMACS file</b>: {len(lines)} lines, the header "
            f"<code>p cnf {cnf.num_vars} {cnf.num_clauses}</code>, then one clause a line, ending in 0 (a negative "
            "number is a negated variable; lines starting with c are comments)"
            "<pre style='max-height:360px;overflow:auto;font-size:15px;line-height:1.25;background:#f6f6f6;"
            f"padding:6px'>{html.escape(chr(10).join(shown))}</pre>{more}</div>")

    def _show_families(self) -> None:
        cnf = self._cnf
        if cnf is None:
            return
        counts = cnf.family_counts()
        titles = {"row": "rows", "col": "columns", "diag": "diagonals", "anti": "anti-diagonals"}
        body = []
        cell = "style='text-align:right;padding:1px 12px'"
        for kind, title in titles.items():
            row = counts.get(kind, {"lines": 0, "alo": 0, "amo": 0, "helpers": 0})
            body.append(f"<tr><td style='padding-right:12px'>{title}</td><td {cell}>{row['lines']}</td>"
                        f"<td {cell}>{row['alo']}</td><td {cell}>{row['amo']}</td>"
                        f"<td {cell}>{row['helpers']}</td></tr>")
        variables, clauses = predicted_size(cnf.n, cnf.encoding)
        agrees = (variables, clauses) == (cnf.num_vars, cnf.num_clauses)
        check = "✓ matches the closed form" if agrees else f"✗ the closed form says {variables} / {clauses}"
        self.summary.value = (f"<div class='nqk-summary' style='font-size:15px'>{cnf.n} × {cnf.n} board, "
                              f"{html.escape(cnf.encoding)} encoding: <b>{cnf.num_vars}</b> variables, "
                              f"<b>{cnf.num_clauses}</b> clauses (<code>p cnf {cnf.num_vars} {cnf.num_clauses}"
                              f"</code>) {check}; by family below</div>")
        self.families.value = (
            "<div class='nqk-families'><table style='border-collapse:collapse'><tr>"
            "<th style='text-align:left'>family</th><th style='padding:1px 12px'>lines</th>"
            f"<th style='padding:1px 12px'>clauses: {PART_TEXT['alo']}</th>"
            f"<th style='padding:1px 12px'>clauses: {PART_TEXT['amo']}</th>"
            "<th style='padding:1px 12px'>helper variables</th></tr>"
            + "".join(body) + "</table>"
            f"<div><b>{cnf.num_vars}</b> variables, <b>{cnf.num_clauses}</b> clauses in all "
            f"(<code>p cnf {cnf.num_vars} {cnf.num_clauses}</code>) {check}</div></div>"
        )


def formula_explorer(n: object = 4, encoding: str = DEFAULT_ENCODING, line: str = "row_1",
                     dimacs: bool = False) -> FormulaExplorer:
    """The formula explorer: the clauses of one line, highlighted on the board, and counts per family; with
    ``dimacs`` also the first lines of the DIMACS file.

    >>> app = formula_explorer(n=7)
    >>> "p cnf 49 490" in app.families.value
    True
    """
    return FormulaExplorer(n, encoding, line, dimacs)
