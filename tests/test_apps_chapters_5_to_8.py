"""The apps of chapters 5 to 8: the phase explorer, side by side, the completion puzzle's framed core, the
exercise cells under Voilà, and the figures they draw (readable, warning-free)."""

from __future__ import annotations

import io
import warnings

import pytest
from matplotlib.figure import Figure

from nqueens_kit import Problem
from nqueens_kit.apps.common import VOILA_VARIABLES, in_voila, shown_with_code
from nqueens_kit.apps.completion import CORE_FRAME, completion_puzzle
from nqueens_kit.apps.phase_explorer import phase_explorer
from nqueens_kit.apps.side_by_side import side_by_side
from nqueens_kit.bench.phase import instance_problem, peaks, phase_study, phase_summary
from nqueens_kit.course.exercises import check_count
from nqueens_kit.inside.bnb import branch_and_bound
from nqueens_kit.inside.cdcl import state_at, trace
from nqueens_kit.inside.figures import (
    draw_implication_graph,
    draw_proof_steps,
    draw_trace_steps,
    plot_bnb_tree,
    plot_load_search,
)
from nqueens_kit.inside.proofs import prove, replay
from nqueens_kit.methods import Choice
from nqueens_kit.solvers import SAT_SOLVERS, available_solvers
from nqueens_kit.viz.charts import plot_phase_effort
from nqueens_kit.viz.style import presentation

from .conftest import need


def render(fig: Figure) -> bytes:
    buffer = io.BytesIO()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        # matplotlib's own calls into its dependencies (pyparsing 3.3 deprecates what matplotlib 3.7 calls)
        warnings.filterwarnings("ignore", category=DeprecationWarning, module="matplotlib")
        fig.savefig(buffer, format="png")
    return buffer.getvalue()


def _summary() -> list[dict]:
    rows = []
    for n, shift in ((8, 0.0), (10, 0.1)):
        for d, share, median in ((0.0, 1.0, 10), (0.3, 0.9, 40), (0.5, 0.6, 90), (0.6, 0.3, 60), (0.8, 0.0, 5)):
            rows.append({"config": "SAT sequential/pysat-minisat", "method": "sat", "variant": "sequential",
                         "solver": "pysat-minisat", "family": "blocked", "n": n, "density": d + (shift if d else 0),
                         "completable_share": share, "median_conflicts": median, "p10_conflicts": median / 2,
                         "p25_conflicts": median / 1.5, "p75_conflicts": median * 1.5, "p90_conflicts": median * 3,
                         "max_conflicts": median * 10})
    return rows


def test_peaks_measure_the_distance_in_grid_steps() -> None:
    found = {f["n"]: f for f in peaks(_summary(), "SAT sequential/pysat-minisat")}
    assert found[8]["peak"] == 0.5 and found[8]["crossing"] == pytest.approx(0.5 + 0.1 / 3, abs=1e-5)
    assert found[8]["step"] == pytest.approx(0.1) and found[8]["steps"] == pytest.approx(1 / 3, abs=1e-4)
    assert found[8]["tail"] == pytest.approx(3) and found[8]["at_zero"] == 10
    assert found[10]["peak"] == pytest.approx(0.6)


def test_the_summary_keeps_the_spread_of_the_effort() -> None:
    need(SAT_SOLVERS["pysat-minisat"].available(), "python-sat")
    rows = phase_study([Choice("sat", "sequential", "pysat-minisat")], [8], [0.3], instances=10, timeout=30,
                       family="blocked", seed=2)
    entry, = phase_summary(rows)
    counts = sorted(r["conflicts"] for r in rows)
    assert entry["max_conflicts"] == counts[-1] and entry["p10_conflicts"] == counts[0]
    assert entry["p90_conflicts"] == counts[8] and entry["p25_conflicts"] <= entry["median_conflicts"]
    for row in rows:  # the study's instances are the ones instance_problem draws
        assert len(instance_problem("blocked", 8, 0.3, seed=2, instance=row["instance"]).blocked) == len(
            (row["blocked"] or "").split())


def test_phase_explorer_draws_and_solves_the_instance() -> None:
    need(SAT_SOLVERS["pysat-minisat"].available(), "python-sat")
    app = phase_explorer(_summary(), live=True)
    app.wait()
    assert app.curves.value and app.board.value and "sequential" in app.answers.value
    app.density.value = 0.6
    app.wait()
    assert app.problem().blocked and "board" in app.answers.value
    app.family.value = app.family.options[0]
    app.n.value = 8
    app.wait()
    assert not app.message_text


def test_side_by_side_answers_and_says_what_it_cannot() -> None:
    app = side_by_side(n=8)
    app.wait()
    answers = dict(app.rows())
    assert all(text.startswith("a board") for text in answers.values()), answers
    assert "verified in" in app.table.value and app.boards.value.count("<svg") == len(app.choices)
    app.n.value = 16
    app.wait()
    assert all(text.startswith("a board") for _, text in app.rows())


def test_the_completion_core_is_framed_not_filled() -> None:
    app = completion_puzzle(n=8)
    for cell in ((1, 1), (2, 3)):
        app.toggle(cell)
    app.complete()
    app.wait()
    assert app.core == ((1, 1), (2, 3))
    for cell in app.core:
        button = app.cells[cell]
        assert button.layout.border == CORE_FRAME and button.style.button_color in ("#f0d9b5", "#b58863")
    assert all(not app.cells[c].layout.border for c in app.cells if c not in app.core)


def test_exercise_cells_show_their_code_under_voila(monkeypatch) -> None:
    verdict = check_count(0, 5, fundamental=True)
    for name in VOILA_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    assert not in_voila() and shown_with_code(verdict) is verdict
    monkeypatch.setenv("VOILA_KERNEL_ID", "test")
    shown = shown_with_code(verdict)
    assert "Not yet" in shown.value and "JupyterLab" in shown.value


def test_the_chapter_figures_render_at_projector_size() -> None:
    four = trace(4)
    steps = [k for k, e in enumerate(four.events) if e.kind in ("decide", "conflict")][:6]
    with presentation():
        fig = draw_trace_steps(four, steps)
        frames = [p for ax in fig.axes for p in ax.patches if p.get_gid() == "framed"]
        assert len(frames) == sum(len(state_at(four, k).decided) for k in steps)
        assert fig.get_figwidth() <= 10.24
        figures = [fig, draw_implication_graph(four), plot_phase_effort(_summary(), density=0.5)]
        if SAT_SOLVERS["pysat-cadical"].available():
            from nqueens_kit import build_cnf

            cnf = build_cnf(3)
            figures.append(draw_proof_steps(cnf, replay(cnf, prove(cnf))))
        if available_solvers("ilp"):
            tree = plot_bnb_tree(branch_and_bound(6, "max-queens"))
            labels = [t.get_text() for t in tree.axes[0].texts]
            assert any(text.startswith("x[") for text in labels) and "0" in labels
            figures.append(tree)
        figures.append(plot_load_search([{"encoding": "pairwise", "n": 8, "load": 0.01, "search": 0.002,
                                          "propagations": 100}]))
        for figure in figures:
            assert figure.get_figwidth() <= 10.24
            render(figure)
        title = figures[1].axes[0].get_title()
        assert title.startswith("learned:") and "P[1,4]" in title
    assert Problem(4)  # the figures left the problem alone


def test_the_stored_phase_study_is_the_one_bench_phase_runs() -> None:
    """notebooks/data/phase.csv holds exactly the points of STORED_PARTS (what benchmarks/bench_phase.py
    regenerates), with the instances the chapter states, and a crossing inside each size's fine grid."""
    from pathlib import Path

    from nqueens_kit.bench.phase import STORED_PARTS, read_summary

    stored = read_summary(Path(__file__).resolve().parents[1] / "notebooks" / "data" / "phase.csv")
    have = {(e["family"], e["n"], round(e["density"], 4), e["config"]) for e in stored}
    want = {(p.family, p.n, round(d, 4), Choice(*c).label) for p in STORED_PARTS for d in p.densities
            for c in p.configs}
    assert have == want and len(stored) == len(want)
    assert {e["instances"] for e in stored if e["method"] == "sat"} == {24}
    assert {e["instances"] for e in stored if e["method"] == "ilp"} == {16}
    for found in peaks(stored, "SAT sequential/pysat-minisat"):
        part = next(p for p in STORED_PARTS if (p.family, p.n) == (found["family"], found["n"]))
        fine = [b - a for a, b in zip(part.densities, part.densities[1:], strict=False)]
        assert part.densities[0] < found["crossing"] < part.densities[-1] and min(fine) <= 0.07


def test_implication_graph_edges_pass_no_other_label() -> None:
    """Every edge is straight or bent around the labels between its ends (the n = 4 graph has one that a
    straight line would draw through another node)."""
    from nqueens_kit.inside.figures import _bend

    assert _bend((0.0, 1.0), (2.0, 0.0), [(1.0, 0.5), (1.0, -0.5)]) != 0.0  # through (1, 0.5): bent
    assert _bend((0.0, 0.0), (2.0, 0.0), [(1.0, 0.5), (1.0, -0.5)]) == 0.0  # between them: straight
    fig = draw_implication_graph(trace(4))
    bends = [patch.get_connectionstyle() for patch in fig.axes[0].patches if hasattr(patch, "get_connectionstyle")]
    assert any(getattr(style, "rad", 0.0) != 0.0 for style in bends)


def test_phase_explorer_menus_show_their_value_after_a_family_change() -> None:
    """The n menu is refilled for each family without losing the dropdown's own value -> index link (the
    browser draws the index: without it the menu shows empty)."""
    from pathlib import Path

    app = phase_explorer(Path(__file__).resolve().parents[1] / "notebooks" / "data" / "phase.csv", live=False)
    for family in app.family.options:
        app.family.value = family
        assert app.n.index is not None and app.n.options[app.n.index] == app.n.value == max(app.n.options)
        app.n.value = min(app.n.options)  # the user's choice redraws the instance of that size
        assert app.n.index == 0 and app.problem().n == min(app.n.options)
    assert not app.message_text
