"""The playground as a lecturer sees it: served by Voila (``make app``), driven in headless Chromium.

The test starts Voila on 127.0.0.1 on a free port, opens the app, moves the board explorer's n slider with
the keyboard and checks that the drawn board really changed size (the SVG's ``data-n``, its number of
cells and queens, its ``aria-label``, and its pixels), then provokes a message in the completion puzzle.
A screenshot is saved under pytest's ``tmp_path`` and its path printed.

Skipped when Chromium, Playwright or Voila is missing — except under ``NQUEENS_KIT_REQUIRE_ALL=1`` (CI),
where missing tools fail.  Playwright drives the Debian ``chromium`` (``NQUEENS_KIT_CHROMIUM`` overrides
the path); it never downloads a browser.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from nqueens_kit.runtime.browser import importable

from .browser_tools import CHROMIUM, CHROMIUM_ARGS
from .conftest import need

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK = ROOT / "notebooks" / "06-playground.ipynb"
START_SECONDS = 120
WAIT_MS = 120_000
#: On a 1024 x 768 projector the app starts this close to the top of the page (px): the title above it, the
#: prose below it.
APP_TOP_PX = 200


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _listening(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.settimeout(0.5)
        return sock.connect_ex(("127.0.0.1", port)) == 0


def _stop(proc: subprocess.Popen[bytes]) -> None:
    """Stop Voila and everything in its process group (its kernels exit with their parent)."""
    if proc.poll() is not None:
        return
    try:
        os.killpg(proc.pid, signal.SIGTERM)  # Voila shuts its kernels down on SIGTERM
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
    except ProcessLookupError:
        pass


@pytest.fixture(scope="module")
def voila_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    need(importable("voila"), "voila (pip install 'nqueens-kit[app]')")
    need(importable("playwright"), "playwright (pip install playwright)")
    need(Path(CHROMIUM).exists(), f"chromium at {CHROMIUM} (Debian: apt-get install chromium)")
    home = tmp_path_factory.mktemp("voila")
    log_path = home / "voila.log"
    port = _free_port()
    env = dict(os.environ, JUPYTER_RUNTIME_DIR=str(home / "runtime"), JUPYTER_DATA_DIR=str(home / "data"),
               JUPYTER_PLATFORM_DIRS="1", MPLBACKEND="Agg")
    command = [sys.executable, "-m", "voila", str(NOTEBOOK), "--no-browser", f"--port={port}",
               "--Voila.ip=127.0.0.1"]
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(command, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, env=env,
                                start_new_session=True)
    try:
        deadline = time.monotonic() + START_SECONDS
        while not _listening(port):
            if proc.poll() is not None:
                pytest.fail(f"voila exited with {proc.returncode}:\n{log_path.read_text(errors='replace')[-3000:]}")
            if time.monotonic() > deadline:
                pytest.fail(f"voila did not listen on port {port} within {START_SECONDS} s")
            time.sleep(0.2)
        yield f"http://127.0.0.1:{port}/"
    finally:
        _stop(proc)


@pytest.fixture()
def page(voila_url: str) -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 1000})
            page.set_default_timeout(WAIT_MS)
            page.goto(voila_url, wait_until="domcontentloaded")
            yield page
        finally:
            browser.close()


def test_moving_the_n_slider_redraws_the_board(page, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    explorer = page.locator(".nqk-board-explorer")
    board = explorer.locator("svg.nqk-board")
    board.wait_for()
    assert board.get_attribute("data-n") == "8"
    assert board.locator("rect.nqk-cell").count() == 64 and board.locator("g.nqk-queen").count() == 8
    assert explorer.get_by_text("solution 1 of 92").is_visible()
    before = board.screenshot()

    handle = explorer.locator(".noUi-handle").first
    handle.focus()
    page.keyboard.press("ArrowRight")  # n = 9
    explorer.locator('svg.nqk-board[data-n="9"][data-queens="9"]').wait_for()  # drawn empty while solving
    assert board.locator("rect.nqk-cell").count() == 81 and board.locator("g.nqk-queen").count() == 9
    assert board.get_attribute("aria-label") == "9 × 9 board with 9 queens"
    assert explorer.get_by_text("9 × 9", exact=True).is_visible()
    assert explorer.get_by_text("solution 1 of 352").is_visible()
    assert board.screenshot() != before

    explorer.get_by_role("button", name="Next solution").click()
    explorer.get_by_text("solution 2 of 352").wait_for()

    screenshot = tmp_path / "playground-board-explorer.png"
    page.screenshot(path=str(screenshot), full_page=True)
    print(f"screenshot: {screenshot}")
    assert screenshot.stat().st_size > 10_000
    assert page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']").count() == 0


def test_completion_puzzle_names_two_attacking_queens(page, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    page.locator(".nqk-board-explorer svg.nqk-board").wait_for()
    page.get_by_role("tab", name="Completion puzzle").click()
    puzzle = page.locator(".nqk-completion-puzzle")
    squares = puzzle.locator(".nqk-square")
    squares.first.wait_for()
    assert squares.count() == 64
    squares.nth(0).click()   # row 1, column 1
    squares.nth(9).click()   # row 2, column 2: same diagonal
    message = puzzle.locator(".nqk-message.nqk-error")
    message.wait_for()
    assert "1,1 and 2,2 attack each other (same diagonal)" in message.inner_text()
    squares.nth(9).click()   # take it back and complete around the corner queen
    puzzle.get_by_text("1 queen placed").wait_for()
    assert "\u265b" not in squares.nth(9).inner_text()
    puzzle.get_by_role("button", name="Complete the board").click()
    puzzle.locator(".nqk-message.nqk-ok").wait_for()
    assert "completed" in puzzle.locator(".nqk-message").inner_text()
    queens = [i for i in range(64) if "\u265b" in squares.nth(i).inner_text()]
    assert len(queens) == 8 and 0 in queens and len({i // 8 for i in queens}) == len({i % 8 for i in queens}) == 8
    screenshot = tmp_path / "playground-completion.png"
    page.screenshot(path=str(screenshot), full_page=True)
    print(f"screenshot: {screenshot}")


def test_the_method_menu_is_the_registrys(page) -> None:  # type: ignore[no-untyped-def]
    """The board explorer's method menu lists every method that solves here, by title; one without variants
    hides the variant menu and still draws a board."""
    from nqueens_kit.apps.board_explorer import offered_methods

    explorer = page.locator(".nqk-board-explorer")
    explorer.locator('svg.nqk-board[data-queens="8"]').wait_for()
    menus = explorer.locator("select")
    offered = offered_methods()
    titles = [t.replace("\xa0", " ").strip() for t in menus.nth(0).locator("option").all_inner_texts()]
    assert titles == [m.title for m in offered]  # the menu shows spaces as no-break spaces
    assert menus.nth(1).is_visible()  # the default method's variants
    plain = next((m for m in offered if not m.variants() and not m.solvers()), None)
    need(plain is not None, "a method without variants or solvers")
    menus.nth(0).select_option(label=plain.title)
    explorer.get_by_text(plain.describe(plain.choose())).wait_for()
    explorer.locator('svg.nqk-board[data-queens="8"]').wait_for()
    assert not menus.nth(1).is_visible() and not menus.nth(2).is_visible()


def test_the_projector_layout_fits_1024_by_768_and_follows_a_clickers_keys(page, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """The projector toggle puts the board first and large; at 1024 x 768 the board is wholly in view with
    nothing to scroll; PageDown and PageUp (what a presentation clicker sends) step through the solutions."""
    page.set_viewport_size({"width": 1024, "height": 768})
    explorer = page.locator(".nqk-board-explorer")
    explorer.locator('svg.nqk-board[data-queens="8"]').wait_for()
    explorer.get_by_role("button", name="projector").click()
    board = page.locator(".nqk-projector svg.nqk-board")
    board.wait_for()
    page.wait_for_function("() => { const r = document.querySelector('.nqk-projector svg.nqk-board')"
                           ".getBoundingClientRect(); return r.top >= 0 && r.bottom <= window.innerHeight; }")
    box = board.bounding_box()  # in the window, scrolled there by the switch: nothing left to scroll by hand
    assert box["width"] >= 500 and box["x"] >= 0 and box["y"] >= 0
    assert box["x"] + box["width"] <= 1024 and box["y"] + box["height"] <= 768
    panel = page.locator(".nqk-projector .nqk-counter").bounding_box()
    assert panel["y"] >= 0 and panel["x"] + panel["width"] <= 1024  # the counter beside it, in view too
    page.locator("body").click(position={"x": 1000, "y": 740})  # focus on the page, not on a control
    page.keyboard.press("PageDown")
    explorer.get_by_text("solution 2 of 92").wait_for()
    page.keyboard.press("PageUp")
    explorer.get_by_text("solution 1 of 92").wait_for()
    page.keyboard.press("ArrowUp")
    page.locator('.nqk-projector svg.nqk-board[data-n="9"][data-queens="9"]').wait_for()
    screenshot = tmp_path / "playground-projector.png"
    page.screenshot(path=str(screenshot))
    print(f"screenshot: {screenshot}")


def test_the_app_is_the_first_thing_on_a_projector_screen(page, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Served by Voila on a 1024 x 768 projector, the page opens on the app: only the chapter's title and a
    few short lines stand above it (the rest of the prose follows it), and its board is in view."""
    page.set_viewport_size({"width": 1024, "height": 768})
    page.locator('.nqk-playground .nqk-board-explorer svg.nqk-board[data-queens="8"]').wait_for()
    top = page.evaluate("() => document.querySelector('.nqk-playground').getBoundingClientRect().top"
                        " + window.scrollY")
    screenshot = tmp_path / "playground-first-screen.png"
    page.screenshot(path=str(screenshot))
    print(f"screenshot: {screenshot}; the app's top edge at {top:.0f} px")
    assert top < APP_TOP_PX, f"the app starts {top:.0f} px down the page, under the prose above it"
    title = page.locator("h1", has_text="Playground").first.bounding_box()
    assert title is not None and title["y"] + title["height"] <= top  # the chapter's title stays above it
    board = page.locator(".nqk-board-explorer svg.nqk-board").bounding_box()
    assert board["y"] < 768, "the board starts below the first screen"
    assert page.get_by_text("What you will learn", exact=False).count() >= 1  # the prose is still on the page
