"""Figures: boards, galleries, heat maps, sweep plots, and saving them."""

from __future__ import annotations

import io
import warnings

import pytest
from matplotlib.collections import LineCollection, PathCollection
from matplotlib.colors import to_hex
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from nqueens_kit.errors import InputError
from nqueens_kit.methods.sat.cnf import predicted_size
from nqueens_kit.methods.search.construct import construct, iter_backtrack
from nqueens_kit.problem.board import canonical, verify
from nqueens_kit.viz.plots import (
    GLYPH_LIMIT,
    PREPLACED_COLOUR,
    QUEEN_COLOUR,
    QUEEN_GLYPH,
    draw_board,
    draw_gallery,
    heatmap,
    plot_build_solve,
    plot_size,
    plot_time,
    save_figure,
)

BOARD8 = construct(8)


def render(fig: Figure, fmt: str = "png") -> bytes:
    """Draw the figure for real, turning any warning (a missing glyph, say) into a failure."""
    buffer = io.BytesIO()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fig.savefig(buffer, format=fmt)
    return buffer.getvalue()


def row(n, method="sat", encoding="pairwise", formulation=None, solver="pycosat", repeat=1, status="solved",
        total=0.01, build=0.004, solve=0.006, limit=10.0, **extra):
    data = {"n": n, "method": method, "encoding": encoding if method == "sat" else None,
            "formulation": formulation if method == "ilp" else None,
            "solver": solver if method != "construct" else None, "repeat": repeat, "status": status,
            "total_seconds": total, "build_seconds": build, "solve_seconds": solve, "time_limit": limit,
            "verified": True if status == "solved" else None, "place_random": 0, "preplaced": ""}
    if method == "sat" and status in ("solved", "infeasible"):
        data["variables"], data["clauses"] = predicted_size(n, encoding)
    if method == "ilp" and status in ("solved", "infeasible"):
        data["constraints"] = 6 * n - 6
    data.update(extra)
    return data


def sweep_rows():
    rows = []
    for n in (4, 8, 12, 16):
        for r in (1, 2, 3):
            rows.append(row(n, repeat=r, total=0.001 * n * r, build=0.0004 * n, solve=0.0006 * n * r))
            rows.append(row(n, encoding="sequential", repeat=r, total=0.002 * n * r))
            if n < 16:
                rows.append(row(n, method="ilp", formulation="lines", solver="cbc", repeat=r, total=0.05 * n))
            else:
                rows.append(row(n, method="ilp", formulation="lines", solver="cbc", repeat=r, status="timeout",
                                total=10.0, build=None, solve=None))
    return rows


# ------------------------------------------------------------------------------------------- boards


def test_draw_board_glyphs_colours_and_axes():
    assert verify(8, BOARD8)
    fig = draw_board(8, BOARD8, preplaced=[BOARD8[0]], title="eight")
    assert isinstance(fig, Figure) and len(fig.axes) == 1
    ax = fig.axes[0]
    glyphs = [t for t in ax.texts if t.get_text() == QUEEN_GLYPH]
    assert len(glyphs) == 8
    colours = sorted(to_hex(t.get_color()) for t in glyphs)
    assert colours.count(PREPLACED_COLOUR) == 1 and colours.count(QUEEN_COLOUR) == 7
    assert ax.get_title() == "eight" and ax.yaxis_inverted()
    assert [t.get_text() for t in ax.get_xticklabels()] == [str(c) for c in range(1, 9)]
    assert render(fig)[:8] == b"\x89PNG\r\n\x1a\n"


def test_queen_positions_match_cells():
    fig = draw_board(5, [(1, 1), (2, 3)])
    positions = sorted(t.get_position() for t in fig.axes[0].texts)
    assert positions == [(1, 1), (3, 2)]  # (x = column, y = row)


def test_preplaced_queens_are_drawn_even_if_not_in_queens():
    fig = draw_board(6, [], preplaced=[(2, 2)])
    assert [to_hex(t.get_color()) for t in fig.axes[0].texts] == [PREPLACED_COLOUR]


def test_highlight_set_and_dict():
    fig = draw_board(8, BOARD8, highlight={(3, c) for c in range(1, 9)})
    patches = [p for p in fig.axes[0].patches if isinstance(p, Rectangle)]
    assert len(patches) == 8
    fig = draw_board(4, [], highlight={(1, 1): "red", (2, 2): "#00ff00"})
    faces = sorted(to_hex(p.get_facecolor()) for p in fig.axes[0].patches)
    assert faces == ["#00ff00", "#ff0000"]
    render(fig)


def test_attack_lines_and_clashes():
    fig = draw_board(6, [(1, 1), (3, 3)], attacks=True)
    collections = [c for c in fig.axes[0].collections if isinstance(c, LineCollection)]
    assert len(collections) == 2  # the rays, and the clash between the two queens on one diagonal
    assert len(collections[0].get_segments()) == 8 and len(collections[1].get_segments()) == 1
    fig = draw_board(8, BOARD8, attacks=True)
    assert len([c for c in fig.axes[0].collections if isinstance(c, LineCollection)]) == 1  # no clash
    render(fig)


def test_large_board_uses_dots():
    n = GLYPH_LIMIT + 36
    fig = draw_board(n, construct(n))
    ax = fig.axes[0]
    assert not ax.texts
    dots = [c for c in ax.collections if isinstance(c, PathCollection)]
    assert len(dots) == 1 and len(dots[0].get_offsets()) == n
    assert len(ax.get_xticks()) <= 10
    render(fig)


def test_glyphs_up_to_64():
    fig = draw_board(64, construct(64))
    assert len(fig.axes[0].texts) == 64
    render(fig)


def test_draw_board_on_given_axes():
    gallery = draw_gallery(4, [[(1, 2), (2, 4), (3, 1), (4, 3)]])
    ax = gallery.axes[0]
    assert draw_board(4, [(1, 3)], ax=ax) is gallery


@pytest.mark.parametrize("queens", [[(0, 1)], [(1, 9)], [("a", 1)], [(1,)]])
def test_bad_cells_are_input_errors(queens):
    with pytest.raises(InputError):
        draw_board(8, queens)


def test_gallery_of_the_twelve_fundamental_solutions():
    boards = sorted({canonical(8, b) for b in iter_backtrack(8)})
    assert len(boards) == 12
    fig = draw_gallery(8, boards, titles=[f"#{i}" for i in range(1, 13)])
    shown = [ax for ax in fig.axes if ax.axison]
    assert len(shown) == 12 and len(fig.axes) == 12
    assert [ax.get_title() for ax in shown] == [f"#{i}" for i in range(1, 13)]
    assert all(len(ax.texts) == 8 for ax in shown)
    render(fig)


def test_gallery_fills_a_grid_and_checks_titles():
    fig = draw_gallery(4, [()] * 5, ncols=3)
    assert len(fig.axes) == 6 and sum(ax.axison for ax in fig.axes) == 5
    with pytest.raises(InputError):
        draw_gallery(4, [[]], titles=["a", "b"])
    with pytest.raises(InputError):
        draw_gallery(4, [])


def test_heatmap_values_and_colour_bar():
    values = {(r, c): 1 / 4 for r in range(1, 5) for c in range(1, 5)}
    fig = heatmap(4, values, title="LP")
    assert len(fig.axes) == 2  # the board and its colour bar
    ax = fig.axes[0]
    assert len(ax.texts) == 16 and {t.get_text() for t in ax.texts} == {".25"}
    assert ax.images[0].get_clim() == (0.0, 1.0)
    render(fig)
    big = heatmap(20, {(1, 1): 1.0})
    assert not big.axes[0].texts


# ------------------------------------------------------------------------------------- sweep plots


def test_plot_time_lines_bands_and_timeouts():
    fig = plot_time(sweep_rows())
    ax = fig.axes[0]
    assert ax.get_yscale() == "log" and ax.get_xlabel().startswith("n")
    labels = [line.get_label() for line in ax.lines if not line.get_label().startswith("_")]
    assert labels == ["SAT pairwise/pycosat", "SAT sequential/pycosat", "ILP lines/cbc"]
    ilp = next(line for line in ax.lines if line.get_label() == "ILP lines/cbc")
    assert list(ilp.get_xdata()) == [4, 8, 12, 16]
    assert str(ilp.get_ydata()[-1]) == "nan"  # 3 of 3 timed out: no median
    crosses = [line for line in ax.lines if line.get_marker() == "x"]
    assert len(crosses) == 1 and list(crosses[0].get_xdata()) == [16] and list(crosses[0].get_ydata()) == [10.0]
    assert len(ax.collections) == 3  # one min-max band per configuration
    assert any("time limit" in t.get_text() for t in ax.get_legend().get_texts())
    render(fig)
    render(fig, "svg")


def test_plot_time_metric_and_errors():
    assert "solve" in plot_time(sweep_rows(), metric="solve").axes[0].get_ylabel()
    with pytest.raises(InputError):
        plot_time(sweep_rows(), metric="wall")
    with pytest.raises(InputError):
        plot_time([])


def test_plot_size_curves_follow_the_closed_form():
    fig = plot_size(sweep_rows())
    assert [ax.get_ylabel() for ax in fig.axes] == ["variables", "clauses", "constraints"]
    assert all(ax.get_xscale() == "log" and ax.get_yscale() == "log" for ax in fig.axes)
    clauses = fig.axes[1]
    curve = next(line for line in clauses.lines if line.get_label() == "pairwise")
    xs, ys = list(curve.get_xdata()), list(curve.get_ydata())
    assert xs == list(range(4, 17)) and ys == [predicted_size(n, "pairwise")[1] for n in xs]
    points = [line for line in clauses.lines if line.get_linestyle() == "None"]
    assert len(points) == 2 and list(points[0].get_xdata()) == [4, 8, 12, 16]
    ilp = fig.axes[2].lines[0]
    assert list(ilp.get_xdata()) == [4, 8, 12]  # n = 16 timed out: no size measured
    render(fig)


def test_plot_size_without_sizes():
    fig = plot_size([row(8, method="construct")])
    assert len(fig.axes) == 1 and fig.axes[0].texts


def test_plot_build_solve_stacks():
    fig = plot_build_solve(sweep_rows())
    shown = [ax for ax in fig.axes if ax.axison]
    assert [ax.get_title() for ax in shown] == ["SAT pairwise/pycosat", "SAT sequential/pycosat", "ILP lines/cbc"]
    bars = [p for p in shown[0].patches if isinstance(p, Rectangle)]
    assert len(bars) == 8  # build and solve at 4 sizes
    build, solve = bars[:4], bars[4:]
    assert all(abs(s.get_y() - b.get_height()) < 1e-12 for b, s in zip(build, solve))  # stacked
    render(fig)


# -------------------------------------------------------------------------------------------- saving


def test_save_png_and_svg(tmp_path):
    fig = draw_board(8, BOARD8)
    png = save_figure(fig, tmp_path / "board.png")
    svg = save_figure(fig, tmp_path / "board.SVG")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert svg.stat().st_size > 0 and b"<svg" in svg.read_bytes()[:500]


@pytest.mark.parametrize("name", ["board.jpg", "board", "missing/board.png", "afile.txt/board.png"])
def test_save_refuses_bad_paths(tmp_path, name):
    (tmp_path / "afile.txt").write_text("x")
    with pytest.raises(InputError) as info:
        save_figure(draw_board(4, []), tmp_path / name)
    assert "\n" not in str(info.value)


def test_plot_phase_draws_each_cost_and_marks_the_crossing():
    from nqueens_kit.viz.plots import plot_phase

    summary = []
    for n in (10, 20):
        for d, share in ((0.0, 1.0), (0.4, 0.8), (0.6, 0.2), (0.8, 0.0)):
            for config, method, solver, conflicts, nodes in (("SAT sequential/pysat-minisat", "sat", "pysat-minisat",
                                                              100 * (1 + d), None),
                                                             ("ILP lines/cbc", "ilp", "cbc", None, 3 + d)):
                summary.append({"config": config, "method": method, "variant": "lines" if method == "ilp" else
                                "sequential", "solver": solver, "family": "blocked", "n": n, "density": d,
                                "completable_share": share, "median_seconds": 0.01 + d, "par2_seconds": 0.02 + d,
                                "median_conflicts": conflicts, "median_nodes": nodes})
    for cost, drawn in (("seconds", 2), ("conflicts", 1), ("nodes", 1)):
        fig = plot_phase(summary, cost=cost)
        left, right = fig.axes
        assert len(left.get_lines()) == 2 + 1  # one line per n, the one-half guide
        labels = [line.get_label() for line in right.get_lines() if not line.get_label().startswith("_")]
        assert len(labels) == drawn
        guides = [line for line in right.get_lines() if list(line.get_xdata()) == [0.5, 0.5]]
        assert guides, "the crossing at n = 20 (0.5, between 0.4 and 0.6) is marked"
        assert "blocked" in right.get_xlabel()
        render(fig)
    with pytest.raises(InputError, match="cost"):
        plot_phase(summary, cost="joules")
