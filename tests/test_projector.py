"""The playground in a lecture hall: the projector layout and its keys, large boards that stay readable, what a
Stop leaves on screen, images before their first picture, where the completion puzzle's time goes, the formula
explorer's summary in view; and the site's pages (their landing cards, download and browser-edition links, the
note that the apps there are pictures)."""

from __future__ import annotations

import html
import re
import time

import matplotlib
import nbformat
import pytest

import nqueens_kit.apps as w
from nqueens_kit.apps import projector
from nqueens_kit.apps.svg import BOARD_PX, FILLED_ABOVE_N, board_svg
from nqueens_kit.methods import solve
from nqueens_kit.viz.charts import plot_time

from .book_scripts import site_script

matplotlib.use("Agg")


def _width(svg: str) -> int:
    return int(re.search(r'width="(\d+)"', svg).group(1))


# ------------------------------------------------------------------------------------ the projector layout


def test_the_projector_layout_puts_the_board_first_and_large_and_follows_the_clicker_keys() -> None:
    app = w.board_explorer(n=6, layout="projector")
    app.wait()
    assert "nqk-projector" in app._dom_classes and app.layout_toggle.value == "projector"
    first = app.children[0].children[0]  # the board's column comes before the controls
    assert app.board in first.children and _width(app.board.value) == projector.PROJECTOR_BOARD_PX > BOARD_PX
    assert app.counter.value == "solution 1 of 4"
    assert app.press("PageDown") and app.counter.value == "solution 2 of 4"
    assert app.press("ArrowRight") and app.counter.value == "solution 3 of 4"
    assert app.press("PageUp") and app.press("ArrowLeft") and app.counter.value == "solution 1 of 4"
    assert app.press("PageUp") and app.counter.value == "solution 4 of 4"  # back from the first: the last
    assert not app.press("b") and app.counter.value == "solution 4 of 4"  # a clicker's "blank" key: nothing
    assert app.press("ArrowUp")
    app.wait()
    assert app.n.value == 7 and app.counter.value == "solution 1 of 40"
    assert app.press("ArrowDown")
    app.wait()
    assert app.n.value == 6
    app.layout_toggle.value = "desk"  # the toggle switches back: controls above a board of the desk's size
    assert "nqk-projector" not in app._dom_classes and _width(app.board.value) == BOARD_PX
    assert app.children[0].children[0].children[0] is app.n


def test_the_page_script_clicks_the_button_each_key_names() -> None:
    script = projector.key_script()
    app = w.board_explorer(n=4, layout="projector")
    app.wait()
    buttons = {cls[len("nqk-key-"):]: b for b in (app.next_button, app.previous_button, app.smaller_button,
                                                  app.bigger_button) for cls in b._dom_classes
               if cls.startswith("nqk-key-")}
    assert set(projector.KEYS.values()) == set(buttons)  # every action has its button
    for key, action in projector.KEYS.items():
        assert f'"{key}": "{action}"' in script
    assert "button.nqk-key-" in script and ".noUi-target" in script  # a focused slider keeps its arrows
    listener = app.key_box.children[1]
    assert listener.outputs[0]["data"]["application/javascript"] == script


def test_the_playground_opens_in_the_projector_layout_with_large_tab_titles() -> None:
    app = w.playground(layout="projector")
    app.wait()
    assert "nqk-projector-tabs" in app._dom_classes and "nqk-projector" in app.board._dom_classes
    app.board.layout_toggle.value = "desk"
    assert "nqk-projector-tabs" not in app._dom_classes
    plain = w.playground()
    assert "nqk-projector" not in plain.board._dom_classes
    bad = w.board_explorer(n=4, layout="wall")
    bad.wait()
    assert "layout must be one of desk, projector, not 'wall'" in bad.message_text


# ------------------------------------------------------------------------------------------ large boards


def test_a_large_board_is_drawn_plain_with_each_queen_a_filled_cell() -> None:
    n = 100
    queens = solve(n, "construct").queens
    svg = board_svg(n, queens, highlight=[(1, 2)])
    assert 'data-style="filled"' in svg and 'data-queens="100"' in svg
    assert svg.count('class="nqk-cell') == 1 and "nqk-highlight" in svg  # only the marked cell is a cell
    squares = re.findall(r'<g class="nqk-queen" data-row="(\d+)" data-col="(\d+)"><rect x="(\d+)" y="(\d+)" '
                         r'width="1" height="1"', svg)
    assert {(int(r), int(c)) for r, c, _, _ in squares} == set(queens)
    assert all(int(x) == int(c) - 1 and int(y) == int(r) - 1 for r, c, x, y in squares)
    assert "<polygon" not in svg and len(svg) < 40 * n * 4  # no crowns, no n² rectangles
    small = board_svg(FILLED_ABOVE_N, solve(FILLED_ABOVE_N, "construct").queens)
    assert 'data-style="checkered"' in small and small.count('class="nqk-cell') == FILLED_ABOVE_N ** 2
    assert small.count("<polygon") == FILLED_ABOVE_N
    tiny = board_svg(32, solve(32, "construct").queens, size=220)  # a cell of under 8 px: filled too
    assert 'data-style="filled"' in tiny and tiny.count('class="nqk-queen"') == 32 and "<polygon" not in tiny


# ------------------------------------------------------------------------------------------ after a Stop


def test_a_stopped_search_says_the_user_stopped_it_not_a_time_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NQUEENS_KIT_NO_JIT", "1")  # backtracking in Python needs far longer than a second here
    app = w.board_explorer(n=31, method="backtrack")
    time.sleep(1.0)
    assert app.job.busy
    app.job.stop_button.click()
    assert "stopping" in app.job.status.value
    app.wait()
    assert app.message_text.startswith("stopped by you after"), app.message_text
    assert "stopped by you after" in app.stats.value and "timeout" not in app.stats.value
    assert "time limit" not in app.message_text and "stopped by you after" in app.job.status.value


def _stopped_sweep() -> w.TimingExplorer:
    app = w.timing_explorer(["sat:pairwise:pycosat"], ns=(4, 60), step=4)
    assert app.plot.format == "svg+xml" and b"press Run" in bytes(app.plot.value)  # a placeholder before a run
    app.repeat.value = 3
    app.run()
    assert app.message_text.startswith("running 45 runs")
    deadline = time.monotonic() + 120
    while len(app.rows) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    app.job.stop_button.click()
    assert app.message_text.startswith("stopping after"), app.message_text  # at once, not when the run ends
    app.wait()
    return app


def test_a_stopped_sweep_leaves_no_running_message_and_a_plot_titled_by_its_runs() -> None:
    app = _stopped_sweep()
    done = len(app.rows)
    assert 2 <= done < 45 and not app.job.busy
    assert app.message_text.startswith(f"stopped by you after {done} of 45 runs"), app.message_text
    assert "running" not in app.message_text and app.progress_label.value.startswith("stopped by you")
    assert app.plot_title() == f"build + solve time: the {done} of 45 runs done before Stop (median of those)"
    assert app.plot.format == "png" and bytes(app.plot.value[:4]) == b"\x89PNG"
    # the partial plot: one n has an axis with that one tick; points with fewer runs say so in the label
    first = app.rows[0]["n"]
    fig = plot_time([r for r in app.rows if r["n"] == first][:2], title=app.plot_title())
    ax = fig.axes[0]
    assert list(ax.get_xticks()) == [first] and ax.get_xlim() == (first - 1, first + 1)
    assert "median of 2;" in ax.get_ylabel()
    extra = dict(app.rows[0], n=first + 4)  # a second n with a single run so far
    fig = plot_time([r for r in app.rows if r["n"] == first][:2] + [extra])
    ax = fig.axes[0]
    assert "median of 1–2;" in ax.get_ylabel() and len(ax.get_xticks()) >= 2


# ------------------------------------------------------------------------ placeholders, timings, summary


def test_images_show_a_placeholder_before_their_first_picture() -> None:
    app = w.inside(n=4)
    app.wait()
    for image in (app.graph, app.tree_image, app.node_view):
        picture = bytes(image.value)
        assert image.format == "svg+xml" and picture.startswith(b"<svg") and b"nqk-placeholder" in picture


def test_the_completion_puzzle_says_where_the_time_went() -> None:
    app = w.completion_puzzle(n=6)
    app.toggle((1, 1))
    app.complete()
    app.wait()
    text = html.unescape(re.sub(r"<[^>]+>", "\n", app.timings.value))
    split = text.strip().splitlines()[-1]
    found = re.fullmatch(r"(.+) in all: (.+) building and solving, (.+) starting each solver's process and loading "
                         r"it \(and, for a “no”, finding the queens that make it impossible\)", split)
    assert found, split

    def seconds(text: str) -> float:
        value, unit = text.split()
        return float(value) / (1000 if unit == "ms" else 1)

    whole, inner, rest = (seconds(found.group(i)) for i in (1, 2, 3))
    assert whole >= inner > 0 and abs(whole - inner - rest) <= 0.02 * whole + 0.002
    assert all("(build + solve)" in line and "in all)" in line for line in text.strip().splitlines()[:-1]
               if "completed" in line or "no completion" in line)


def test_the_formula_explorers_summary_is_right_under_its_controls() -> None:
    app = w.formula_explorer(n=4, dimacs=True)
    assert app.children[1] is app.summary
    assert "<b>16</b> variables, <b>84</b> clauses" in app.summary.value and "✓" in app.summary.value
    app.n.value = 5
    assert "<b>25</b> variables" in app.summary.value


# ------------------------------------------------------------------------------------------- the site


def _chapter(cells: list[nbformat.NotebookNode]) -> nbformat.NotebookNode:
    return nbformat.v4.new_notebook(cells=cells)


def test_a_site_page_moves_the_browser_note_to_its_end_and_says_its_apps_are_pictures() -> None:
    view = {"application/vnd.jupyter.widget-view+json": {"model_id": "m"}}
    nb = _chapter([
        nbformat.v4.new_markdown_cell("# 3. A chapter\n\n> **In the browser** (the edition): it differs.\n"
                                      "> A second line.\n\nThe teaching starts here.\n\n**What you will learn**"),
        nbformat.v4.new_code_cell("app", outputs=[nbformat.v4.new_output("display_data", data=view)]),
        nbformat.v4.new_code_cell("1 + 1"),
    ])
    title, blurb = site_script._chapter_title(nb, "x")
    assert blurb == "The teaching starts here."
    page = site_script.site_page(nb, True)
    opening = page.cells[0].source
    assert opening.startswith("# 3. A chapter\n\nThe teaching starts here.")
    assert "In the browser" not in opening and "href" not in opening  # launching and downloading: the theme's menus
    assert page.cells[1].source == f'<p class="nqk-static-note">{site_script.STATIC_WIDGETS}</p>'
    assert page.cells[2].source == "app" and page.cells[3].source == "1 + 1" and len(page.cells) == 5
    note = page.cells[-1].source
    assert note.startswith(":::{admonition} In the browser edition\n") and note.endswith(":::\n")
    assert "What differs there (the edition): it differs.\nA second line." in note and ">" not in note
    plain = site_script.site_page(_chapter([nbformat.v4.new_markdown_cell("# 5. Another\n\nTeaching."),
                                            nbformat.v4.new_code_cell("app", outputs=[
                                                nbformat.v4.new_output("display_data", data=view)])]), False)
    assert plain.cells[0].source == "# 5. Another\n\nTeaching."
    said = plain.cells[1].source
    assert len(plain.cells) == 3 and "browser" not in said and "Colab" in said and "download" in said


@pytest.mark.parametrize("name", sorted(site_script.lite_chapters()))
def test_every_chapter_of_the_browser_edition_has_its_note_moved_to_its_end(name: str) -> None:
    from nqueens_kit.course.notebooks import notebooks_folder

    nb = nbformat.read(notebooks_folder() / f"{name}.ipynb", as_version=4)
    page = site_script.site_page(nb, True)
    first = next(c for c in page.cells if c.cell_type == "markdown")
    assert "**In the browser**" not in first.source and "In the browser edition" in page.cells[-1].source
