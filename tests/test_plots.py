"""Figures: boards, galleries, heat maps, sweep plots, and saving them; every method in its own look."""

from __future__ import annotations

import io
import re
import warnings

import pytest
from matplotlib.collections import LineCollection, PathCollection
from matplotlib.colors import to_hex
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from nqueens_kit.errors import InputError
from nqueens_kit.methods import METHODS, Choice, Method
from nqueens_kit.methods.sat.cnf import predicted_size
from nqueens_kit.methods.search.backtrack import iter_backtrack
from nqueens_kit.methods.search.construct import construct
from nqueens_kit.problem.board import Problem, canonical, verify
from nqueens_kit.problem.results import SolveResult, Status
from nqueens_kit.runtime.limits import Size
from nqueens_kit.viz.boards import (
    BLOCKED_COLOUR,
    GLYPH_LIMIT,
    PREPLACED_COLOUR,
    QUEEN_COLOUR,
    QUEEN_GLYPH,
    draw_board,
    draw_gallery,
    heatmap,
)
from nqueens_kit.viz.charts import (
    plot_build_solve,
    plot_cactus,
    plot_ecdf,
    plot_phase,
    plot_size,
    plot_time,
    save_figure,
)
from nqueens_kit.viz.style import plot_styles, style_for

BOARD8 = construct(8)


def render(fig: Figure, fmt: str = "png") -> bytes:
    """Draw the figure for real, turning any warning (a missing glyph, say) into a failure."""
    buffer = io.BytesIO()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        # matplotlib's own calls into its dependencies (pyparsing 3.3 deprecates what matplotlib 3.7 calls)
        warnings.filterwarnings("ignore", category=DeprecationWarning, module="matplotlib")
        # (and into IPython, where a shell was loaded: IPython 8.24 deprecates what matplotlib 3.7 reads)
        warnings.filterwarnings("ignore", category=DeprecationWarning, module="IPython")
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


TIME_LABEL = re.compile(r"\d+(\.\d+)? (µs|ms|s|min)")


def visible_tick_labels(axis):
    """The text of every tick label the axis draws (major and minor, inside its view limits)."""
    axis.axes.figure.canvas.draw()
    low, high = sorted(axis.get_view_interval())
    pairs = [*zip(axis.get_majorticklocs(), axis.get_majorticklabels(), strict=True),
             *zip(axis.get_minorticklocs(), axis.get_minorticklabels(), strict=True)]
    return [label.get_text() for loc, label in pairs if label.get_visible() and label.get_text() and low <= loc <= high]


@pytest.mark.parametrize("times", [(0.45, 0.6), (0.2, 0.5), (0.08, 0.3, 0.9), (0.001, 2.0), (3e-5, 0.004)],
                         ids=["a fraction of a decade", "under a decade", "about a decade", "decades", "µs to ms"])
def test_every_tick_of_a_seconds_axis_reads_as_a_time(times):
    rows = [row(4 * (i + 1), total=t, solve=t) for i, t in enumerate(times)]
    for fig, axis in ((plot_time(rows), "y"), (plot_cactus(rows), "y"), (plot_ecdf(rows), "x")):
        ax = fig.axes[0]
        labels = visible_tick_labels(ax.yaxis if axis == "y" else ax.xaxis)
        assert labels, (times, axis)
        assert all(TIME_LABEL.fullmatch(label) for label in labels), labels


def test_plot_size_curves_follow_the_closed_form():
    fig = plot_size(sweep_rows())
    assert [ax.get_ylabel() for ax in fig.axes] == ["variables", "clauses", "constraints"]
    assert all(ax.get_xscale() == "log" and ax.get_yscale() == "log" for ax in fig.axes)
    clauses = fig.axes[1]
    curve = next(line for line in clauses.lines if line.get_label() == "SAT pairwise")
    xs, ys = list(curve.get_xdata()), list(curve.get_ydata())
    assert xs == list(range(4, 17)) and ys == [predicted_size(n, "pairwise")[1] for n in xs]
    points = [line for line in clauses.lines if line.get_linestyle() == "None"]
    assert len(points) == 2 and list(points[0].get_xdata()) == [4, 8, 12, 16]
    constraints = fig.axes[2]
    ilp_curve = next(line for line in constraints.lines if line.get_label() == "ILP lines")
    assert list(ilp_curve.get_ydata()) == [6 * n - 6 for n in range(4, 17)]  # 2n lines, 4n - 6 diagonals
    (ilp,) = [line for line in constraints.lines if line.get_linestyle() == "None"]
    assert list(ilp.get_xdata()) == [4, 8, 12]  # n = 16 timed out: no size measured
    assert any("closed form" in text.get_text() for text in fig.texts)  # lines and dots, said once for all panels
    assert not [line for line in fig.axes[0].lines if "ILP" in str(line.get_label())]  # no ILP variables measured
    render(fig)


def test_plot_size_draws_any_method_that_records_a_size():
    """A panel per size some row records, a line per (method, variant) where the method predicts the size:
    a method's sizes reach the plot without the plot knowing the method."""
    rows, expected = [], {}
    for method in METHODS.values():
        for variant in list(method.variants()) or [None]:
            choice = method.choose(variant)
            if method.size(Problem(8), choice) is None:
                continue
            for n in (6, 8, 10):
                size = method.size(Problem(n), choice)
                extra = {column: getattr(size, column) for column in ("variables", "clauses", "constraints")}
                rows.append(row(n, method=method.name, solver=choice.solver, variant=variant,
                                settings=choice.settings, **extra))
            expected[method.label(Choice(method.name, variant))] = method
    fig = plot_size(rows)
    drawn = {str(line.get_label()) for ax in fig.axes for line in ax.lines if not str(line.get_label()).startswith("_")}
    assert set(expected) <= drawn
    colours = {}
    for ax in fig.axes:
        for line in ax.lines:
            label = str(line.get_label())
            if label in expected:
                colours.setdefault(label, set()).add(to_hex(line.get_color()))
    assert all(len(c) == 1 for c in colours.values())  # one colour per (method, variant) in every panel
    assert len({next(iter(c)) for c in colours.values()}) == len(colours)  # and no two share one
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


# --------------------------------------------------------------------------- every method in its own look


def every_configuration() -> list[Choice]:
    """Every (method, variant) of the registry with every one of its solvers (installed or not: a plot of
    stored results needs no solver), in registry order."""
    choices = []
    for method in METHODS.values():
        for variant in list(method.variants()) or [None]:
            for solver in list(method.solvers()) or [None]:
                choices.append(method.choose(variant, solver))
    return choices


def time_rows(choices: list[Choice]) -> list[dict]:
    return [row(n, method=c.method, variant=c.variant, solver=c.solver, settings=c.settings,
                total=0.001 * n * (k + 1), variables=None, clauses=None, constraints=None)
            for k, c in enumerate(choices) for n in (4, 8)]


def drawn_looks(fig: Figure) -> dict[str, tuple[str, str]]:
    """Legend label -> (colour, marker) of each configuration's line on the first axes."""
    return {str(line.get_label()): (to_hex(line.get_color()).upper(), str(line.get_marker()))
            for line in fig.axes[0].lines if not str(line.get_label()).startswith("_")}


def assert_apart(choices: list[Choice], looks: dict[str, tuple[str, str]]) -> None:
    """No two (method, variant) pairs share a colour; no two solvers of one method share a marker."""
    assert set(looks) == {c.label for c in choices}
    colour_of: dict[tuple, set] = {}
    marker_of: dict[tuple, set] = {}
    for choice in choices:
        colour, marker = looks[choice.label]
        colour_of.setdefault((choice.method, choice.variant), set()).add(colour)
        marker_of.setdefault((choice.method, choice.solver), set()).add(marker)
    assert all(len(c) == 1 for c in colour_of.values()), "one (method, variant) drawn in two colours"
    pairs = {pair: next(iter(c)) for pair, c in colour_of.items()}
    assert len(set(pairs.values())) == len(pairs), f"two (method, variant) pairs share a colour: {pairs}"
    for method in METHODS:
        markers = [next(iter(m)) for (name, _), m in marker_of.items() if name == method]
        assert len(markers) == len(set(markers)), f"two solvers of {method} share a marker"


def test_every_method_is_drawn_in_its_own_colour_and_every_solver_in_its_own_marker():
    choices = every_configuration()
    assert {c.method for c in choices} == set(METHODS)
    for plot in (plot_time, plot_cactus):
        fig = plot(time_rows(choices))
        assert_apart(choices, drawn_looks(fig))
    render(plot_time(time_rows(choices)))


def test_a_method_keeps_its_own_colours_when_it_is_alone():
    """The colours a method chose are the ones a plot of it alone draws: no plot recolours without need."""
    for method in METHODS.values():
        choices = [method.choose(v) for v in list(method.variants()) or [None]]
        looks = drawn_looks(plot_time(time_rows(choices)))
        for choice in choices:
            assert looks[choice.label][0] == to_hex(method.colour(choice.variant)).upper()
            assert looks[choice.label][0] == to_hex(style_for(choice.method, choice.variant,
                                                              choice.solver)["color"]).upper()


def test_each_method_gives_its_solvers_distinct_markers():
    for method in METHODS.values():
        markers = [solver.marker for solver in method.solvers().values()]
        assert len(markers) == len(set(markers)), method.name


def test_plot_styles_separates_repeated_colours_and_markers():
    first, second = Choice("sat", "pairwise", "pycosat"), Choice("sat", "sequential", "pycosat")
    twin = Choice("sat", "sequential", "pysat-minisat")
    looks = plot_styles([first, second, twin])
    assert looks[first]["color"] != looks[second]["color"] == looks[twin]["color"]
    assert looks[second]["marker"] != looks[twin]["marker"]


class _Newcomer(Method):
    """A method the plots have never heard of, with no colours of its own."""

    name = "newcomer-for-tests"
    title = "Newcomer"
    summary = "a method registered only by this test"

    def solve_here(self, problem, choice, deadline):
        return SolveResult.of(problem, self.name, Status.TIMEOUT)

    def size(self, problem, choice):
        return Size(problem.n, memory=100 * problem.n)


@pytest.fixture()
def newcomer(monkeypatch):
    monkeypatch.setitem(METHODS, _Newcomer.name, _Newcomer())
    return METHODS[_Newcomer.name]


def test_a_new_method_is_drawn_in_a_colour_of_its_own(newcomer):
    choices = every_configuration()
    assert choices[-1].method == newcomer.name
    for plot in (plot_time, plot_ecdf):
        fig = plot(time_rows(choices))
        looks = drawn_looks(fig)
        assert newcomer.name in looks
        if plot is plot_time:
            assert_apart(choices, looks)
        else:
            others = {colour for label, (colour, _) in looks.items() if label != newcomer.name}
            assert looks[newcomer.name][0] not in others


# ----------------------------------------------------------------------------------------- blocked cells


def test_blocked_cells_are_crossed_out():
    blocked = [(1, 1), (2, 4), (3, 3)]
    fig = draw_board(4, [(1, 2), (2, 4)], blocked=blocked)
    ax = fig.axes[0]
    squares = [p for p in ax.patches if p.get_gid() == "blocked"]
    assert sorted((round(p.get_y() + 0.5), round(p.get_x() + 0.5)) for p in squares) == sorted(blocked)
    assert {to_hex(p.get_facecolor()) for p in squares} == {BLOCKED_COLOUR}
    (cross,) = [c for c in ax.collections if c.get_gid() == "blocked"]
    assert len(cross.get_segments()) == 2 * len(blocked)  # an x on every blocked cell
    assert len([t for t in ax.texts if t.get_text() == QUEEN_GLYPH]) == 2
    assert not [p for p in draw_board(4, [(1, 2)]).axes[0].patches if p.get_gid() == "blocked"]
    gallery = draw_gallery(4, [[], []], blocked=[(2, 2)])
    assert all(len([p for p in a.patches if p.get_gid() == "blocked"]) == 1 for a in gallery.axes)
    with pytest.raises(InputError):
        draw_board(4, [], blocked=[(5, 1)])
    render(fig)
