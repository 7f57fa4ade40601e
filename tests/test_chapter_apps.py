"""The apps of chapters 1 to 4 and the lessons they show, driven as a lecturer drives them.

Each test builds an app, moves its sliders, picks from its menus, clicks its buttons, waits for the
background job and checks what the app shows.  Expected numbers are written out here or come from
brute force and the published counts, never from the code under test.
"""

from __future__ import annotations

import math
import re

import pytest

from nqueens_kit import apps
from nqueens_kit.apps.encoding_explorer import ENCODING_MAX_K
from nqueens_kit.apps.relaxation_explorer import RELAX_MAX_N, model_text, values_svg
from nqueens_kit.apps.solution_stepper import LIST_LIMIT, STEPPER_MAX_N, stepping_methods
from nqueens_kit.course import lessons
from nqueens_kit.methods import METHODS
from nqueens_kit.methods.ilp.model import build_model
from nqueens_kit.methods.sat.encodings import ENCODINGS
from nqueens_kit.problem.board import Problem, verify
from nqueens_kit.solvers import ILP_SOLVERS

from .conftest import brute_force, need


def drawn_queens(html: str) -> set[tuple[int, int]]:
    return {(int(r), int(c)) for r, c in re.findall(r'class="nqk-queen" data-row="(\d+)" data-col="(\d+)"', html)}


def drawn_size(html: str) -> int:
    n = int(re.search(r'data-n="(\d+)"', html).group(1))
    assert html.count('class="nqk-cell') == n * n
    return n


def ilp_here() -> list[str]:
    return [name for name, solver in ILP_SOLVERS.items() if solver.available()]


# ----------------------------------------------------------------------------- chapter 1: the formula


def test_formula_explorer_shows_the_dimacs_file_when_asked() -> None:
    app = apps.formula_explorer(n=7, dimacs=True)
    assert app.dimacs in app.children
    assert "<code>p cnf 49 490</code>" in app.dimacs.value and "p cnf 49 490\n" in app.dimacs.value
    app.n.value = 4
    assert "p cnf 16 84" in app.dimacs.value and "more lines" in app.dimacs.value  # 84 clauses, 80 lines shown
    app.n.value = 1
    assert "p cnf 1 2" in app.dimacs.value and "more lines" not in app.dimacs.value
    plain = apps.formula_explorer(n=7)
    assert plain.dimacs not in plain.children and plain.dimacs.value == ""


# ------------------------------------------------------------------------ chapter 2: the solution stepper


def test_the_stepper_offers_what_the_registry_says_lists_boards_with_a_placed_queen() -> None:
    expected = [m.name for m in METHODS.values() if "iterate" in m.verbs and "preplaced" in m.features
                and m.available()]
    assert [m.name for m in stepping_methods()] == expected
    app = apps.solution_stepper(n=5, queen=None)
    app.wait()
    assert [value for _, value in app.method.options] == expected


def test_the_stepper_steps_through_every_completion_of_a_corner_queen() -> None:
    app = apps.solution_stepper(n=8, queen=(1, 1))
    app.wait()
    truth = brute_force(8, [(1, 1)])
    assert app.counter.value == f"solution 1 of {len(truth)}" == "solution 1 of 4"
    seen = []
    for _ in range(len(truth)):
        board = tuple(sorted(app.board_queens))
        assert board in truth and verify(8, board)
        assert drawn_queens(app.board.value) == set(board) and drawn_size(app.board.value) == 8
        seen.append(board)
        app.next_button.click()
    assert set(seen) == truth and app.counter.value == "solution 1 of 4"  # round again
    app.previous_button.click()
    assert app.counter.value == "solution 4 of 4"
    app.first_button.click()
    assert app.counter.value == "solution 1 of 4"
    assert "nqk-queen" in app.board.value and "#c0392b" in app.board.value  # the placed queen in red


def test_the_stepper_follows_its_sliders() -> None:
    app = apps.solution_stepper(n=8, queen=(1, 1))
    app.wait()
    app.placed.value = False
    app.wait()
    assert app.counter.value == "solution 1 of 92" and app.row.disabled and app.col.disabled
    app.n.value = 6
    app.wait()
    assert app.counter.value == "solution 1 of 4" and app.row.max == 6 and app.col.max == 6
    app.placed.value = True
    app.row.value, app.col.value = 1, 2
    app.wait()
    assert app.counter.value == f"solution 1 of {len(brute_force(6, [(1, 2)]))}" == "solution 1 of 1"
    app.col.value = 1
    app.wait()
    assert app.counter.value == "no solution" and "cannot be completed" in app.message_text
    assert drawn_queens(app.board.value) == {(1, 1)}  # only the placed queen
    assert app.next_button.disabled and app.previous_button.disabled
    app.next_button.click()  # harmless
    app.n.value = 3
    app.wait()
    assert app.row.value <= 3 and app.col.value <= 3 and app.counter.value == "no solution"


def test_the_stepper_lists_at_most_its_limit_and_says_so() -> None:
    app = apps.solution_stepper(n=STEPPER_MAX_N, queen=None)
    app.wait()
    assert app.counter.value == f"solution 1 of the first {LIST_LIMIT}"
    assert f"more than {LIST_LIMIT}" in app.message_text
    app.previous_button.click()
    assert app.counter.value == f"solution {LIST_LIMIT} of the first {LIST_LIMIT}"


def test_the_stepper_takes_a_bad_size_with_a_message() -> None:
    app = apps.solution_stepper(n=99, queen=(1, 1))
    assert app.n.value == STEPPER_MAX_N and "from 1 to 12" in app.message_text
    app = apps.solution_stepper(n="eight", queen=(9, 9))
    app.wait()
    assert app.n.value == 8 and app.row.value == 8 and app.col.value == 8


def test_the_stepper_stops() -> None:
    app = apps.solution_stepper(n=8, queen=None)
    app.job.stop_button.click()
    app.wait()
    assert not app.job.busy
    app.restart()
    app.wait()
    assert app.counter.value == "solution 1 of 92"


# --------------------------------------------------------------------- chapter 3: the relaxation explorer


@pytest.mark.parametrize("solver", ["cbc", "highs"])
def test_the_relaxation_explorer_shows_half_queens_on_a_pairwise_diagonal(solver: str) -> None:
    need(solver in ilp_here(), solver)
    app = apps.relaxation_explorer(n=6, formulation="pairwise", objective="diagonal")
    app.solver.value = solver
    app.wait()
    assert app.load == 3.0 and "on the long diagonal: 3.00" in app.summary.value
    assert drawn_size(app.board.value) == 6 and "not a board" in app.message_text
    app.formulation.value = "lines"
    app.wait()
    assert app.load == 1.0
    app.n.value = 8
    app.formulation.value = "pairwise"
    app.wait()
    assert app.load == 4.0 and drawn_size(app.board.value) == 8


def test_the_relaxation_explorer_shows_the_model_and_the_edges() -> None:
    need(bool(ilp_here()), "an ILP solver")
    app = apps.relaxation_explorer(n=4, formulation="max-queens-edges", extra={lessons.EDGES.name: lessons.EDGES})
    app.wait()
    assert math.isclose(sum(app.values.values()), 8.0)  # n²/2: half a queen on every cell
    assert "maximise x[1,1] + x[1,2]" in app.model.value
    assert "x[1,1] + x[1,2] &lt;= 1" in app.model.value
    app.formulation.value = "lines"
    app.objective.value = "own"
    app.wait()
    assert "no objective" in app.model.value and "row_1: x[1,1] + x[1,2] + x[1,3] + x[1,4] = 1" in app.model.value
    app.n.value = 1
    app.wait()
    assert "a board: every cell is 0 or 1" in app.message_text and app.load is None


def test_the_model_text_is_cut_with_a_count() -> None:
    lines = model_text(build_model(Problem(8), "pairwise", relax=True), limit=10)
    assert lines[0].startswith("no objective") and lines[1] == "subject to"
    assert lines[-2] == "  … and 286 more"  # 296 constraints at n = 8
    assert "64 variables" in lines[-1]


def test_the_relaxation_explorer_takes_a_bad_size_with_a_message() -> None:
    need(bool(ilp_here()), "an ILP solver")
    app = apps.relaxation_explorer(n=30)
    app.wait()
    assert app.n.value == RELAX_MAX_N and "from 1 to 10" in app.message_text


def test_values_svg_shades_and_prints_each_value() -> None:
    svg = values_svg(2, {(1, 1): 0.5, (2, 2): 1.0}, marked=[(1, 1)])
    assert drawn_size(svg) == 2 and ">.5<" in svg and ">1<" in svg and 'stroke="#e69f00"' in svg


# ----------------------------------------------------------------------- chapter 4: the encoding explorer


def test_the_encoding_explorer_agrees_with_the_closed_forms_for_every_k() -> None:
    app = apps.encoding_explorer(encoding="sequential", k=5)
    assert app.clause_lines == ["¬x1 ∨ h1", "¬x2 ∨ h2", "¬h1 ∨ h2", "¬x2 ∨ ¬h1", "¬x3 ∨ h3", "¬h2 ∨ h3",
                                "¬x3 ∨ ¬h2", "¬x4 ∨ h4", "¬h3 ∨ h4", "¬x4 ∨ ¬h3", "¬x5 ∨ ¬h4"]
    for k in range(1, ENCODING_MAX_K + 1):
        app.k.value = k
        assert all(app.sizes[name] == ENCODINGS[name].counts(k) for name in ENCODINGS), k
        assert app.message_text == ""
    assert app.sizes["pairwise"] == (0, 64 * 63 // 2) and app.sizes["sequential"] == (63, 3 * 64 - 4)
    assert "… and" in app.clauses.value  # 188 clauses, 60 listed


def test_the_encoding_explorer_follows_its_menu_and_refuses_bad_lengths() -> None:
    app = apps.encoding_explorer(encoding="binary", k=8)
    assert app.sizes["binary"] == (3, 24) and "<b>binary</b>" in app.summary.value
    app.encoding.value = "pairwise"
    assert len(app.clause_lines) == 28 and app.clause_lines[0] == "¬x1 ∨ ¬x2"
    app.k.value = 1
    assert "no clause is needed" in app.clauses.value
    bad = apps.encoding_explorer(k=1000)
    assert bad.k.value == ENCODING_MAX_K and "k must be from 1 to 64" in bad.message_text


# --------------------------------------------------------------------------------- the lessons behind them


def test_edges_give_the_half_point_and_cliques_cut_it_off() -> None:
    need(bool(ilp_here()), "an ILP solver")
    model = build_model(Problem(5), lessons.EDGES, relax=True)
    attacking = sum(1 for a in range(25) for b in range(a + 1, 25)
                    if (lambda p, q: p[0] == q[0] or p[1] == q[1] or p[0] - p[1] == q[0] - q[1]
                        or p[0] + p[1] == q[0] + q[1])(divmod(a, 5), divmod(b, 5)))
    assert model.num_constraints == attacking
    rows = lessons.relaxation_bounds([3, 4, 5])
    assert [(r["cliques"], r["edges"], r["lines"], r["pairwise"]) for r in rows] == [
        (3, 4.5, 1, 1.5), (4, 8, 1, 2), (5, 12.5, 1, 2.5)]


def test_tree_sizes_with_an_objective_favour_cliques() -> None:
    need("highs" in ilp_here(), "HiGHS")
    rows = lessons.tree_sizes([4, 5], solvers=["highs"])
    nodes = {(r["n"], r["formulation"]): r for r in rows}
    for n in (4, 5):
        assert nodes[n, lessons.EDGES.name]["nodes"] > nodes[n, "max-queens"]["nodes"]
        assert nodes[n, lessons.EDGES.name]["optimum"] == nodes[n, "max-queens"]["optimum"] == n
        assert all(nodes[n, name]["status"] == "solved" for name in ("lines", "pairwise"))
    fig = lessons.plot_tree_sizes(rows)
    assert lessons.smallest_text_px(lessons.readable(fig)) >= lessons.MIN_TEXT_PX
    assert [ax.get_yscale() for ax in fig.axes] == ["log", "log"]


def test_highs_incumbents_read_the_log_and_its_legend() -> None:
    log = ("Src: B => Branching; C => Central rounding;\n     J => Feasibility jump; z => Trivial zero\n\n"
           " z       0       0         0   0.00%   -inf            0                  Large        0\n"
           " J       0       0         0   0.00%   -inf            -8                 Large        0\n"
           "         1       0         1 100.00%   -8              -8                 0.00%        0\n")
    steps = lessons.highs_incumbents(log)
    assert [(s.source, s.name, s.objective, s.bound) for s in steps] == [
        ("z", "Trivial zero", 0.0, -math.inf), ("J", "Feasibility jump", -8.0, -math.inf)]


def test_found_by_names_cbc_heuristics_and_branching() -> None:
    from nqueens_kit.problem.results import SolveResult

    def result(log: str) -> SolveResult:
        return SolveResult(n=8, method="ilp", status="solved", extra={"solver_log": log})

    assert lessons.found_by(result("Cbc0012I Integer solution of 0 found by DiveCoefficient after 0 iterations")) \
        == "DiveCoefficient"
    assert lessons.found_by(result("Cbc0004I Integer solution of 0 found after 260 iterations and 19 nodes")) \
        == "branching"
    assert lessons.found_by(result("")) == "unknown"


def test_propagation_work_pairwise_has_the_most_clauses_and_the_fewest_visits() -> None:
    rows = {row["encoding"]: row for row in lessons.propagation_work(6)}
    assert max(rows, key=lambda e: rows[e]["clauses_per_cell"]) == "pairwise"
    assert min(rows, key=lambda e: rows[e]["visits"]) == "pairwise"
    assert len({row["ruled_out"] for row in rows.values()}) == 1


@pytest.mark.parametrize(("ci", "pytest_session", "browser", "small"),
                         [(False, False, False, False), (True, False, False, True), (False, True, False, True),
                          (False, False, True, True)])
def test_chapters_take_their_small_sizes_under_test_and_in_the_browser(monkeypatch, ci, pytest_session, browser,
                                                                        small) -> None:
    from nqueens_kit.runtime import browser as runtime_browser

    monkeypatch.delenv("CI", raising=False)
    monkeypatch.delenv("PYTEST_VERSION", raising=False)
    if ci:
        monkeypatch.setenv("CI", "1")
    if pytest_session:
        monkeypatch.setenv("PYTEST_VERSION", pytest.__version__)
    monkeypatch.setattr(runtime_browser, "IN_BROWSER", browser)
    assert lessons.small_sizes() is small


def test_readable_enlarges_small_text_and_projector_style_sets_the_sizes() -> None:
    import matplotlib
    import matplotlib.pyplot as plt

    from nqueens_kit.viz.boards import draw_board

    fig = draw_board(8, [(1, 1)])
    assert lessons.smallest_text_px(fig) < lessons.MIN_TEXT_PX  # its row numbers are 10 pt
    assert lessons.smallest_text_px(lessons.readable(fig)) >= lessons.MIN_TEXT_PX
    with matplotlib.rc_context():
        lessons.projector_style()  # outside IPython: the sizes only
        assert plt.rcParams["font.size"] == 15 and plt.rcParams["axes.titlesize"] == 17


def test_projector_style_makes_every_shown_figure_readable() -> None:
    import matplotlib
    from IPython.core.interactiveshell import InteractiveShell
    from matplotlib.figure import Figure

    shell = InteractiveShell.instance()
    png = shell.display_formatter.formatters["image/png"]
    shown = []
    png.for_type(Figure, lambda fig: shown.append(lessons.smallest_text_px(fig)) or b"")
    try:
        with matplotlib.rc_context():
            lessons.projector_style()
            lessons.projector_style()  # twice is harmless: the figure is not wrapped twice
            from nqueens_kit.viz.boards import draw_board

            shell.display_formatter.format(draw_board(8, [(1, 1)]))
    finally:
        png.pop(Figure, None)
        InteractiveShell.clear_instance()
    assert shown and shown[0] >= lessons.MIN_TEXT_PX
