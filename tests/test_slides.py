"""The lecture decks of ``make slides`` (``book/build_slides.py``): each chapter executed and made a reveal.js
deck by nbconvert, shaped by the cells' ``slideshow.slide_type``.

A deck is built with ``CI`` set (the chapters at their small sizes) into a temporary folder: chapter 1 in the
default run, every chapter in the deep profile.  Each deck has exactly the slides its notebook's metadata
calls for (counted here from the stored notebook: every ``slide`` and ``subslide`` cell), a speaker's note
for every ``notes`` cell, no trace of the install cell or of any other ``skip`` cell, every figure the
chapter draws outside them, and the saved state of its apps; every script and style it loads is in its own
``_static`` folder.  In Chromium (deep, browser), with every other host refused, each deck starts, has
that many slides, is walked to its end without a failed request or a script error, and draws its formulas
and its apps.
"""

from __future__ import annotations

import html.parser
import io
import json
import re
import shutil
from pathlib import Path

import nbformat
import pytest

from nqueens_kit.course.notebooks import notebooks_folder
from nqueens_kit.runtime.browser import importable

from .book_scripts import slides_script
from .browser_tools import CHROMIUM, CHROMIUM_ARGS, OfflineGate, serving
from .conftest import need

CHAPTERS = sorted(p.name for p in notebooks_folder().glob("[0-9][0-9]-*.ipynb"))
#: Chapter 1 in the default run, the others in the deep profile.
EACH = [c if c.startswith("01-") else pytest.param(c, marks=pytest.mark.deep) for c in CHAPTERS]
FIGURE = "image/png"


def _slide_type(cell: nbformat.NotebookNode) -> str:
    return cell.metadata.get("slideshow", {}).get("slide_type", "-")


def expected_slides(notebook: nbformat.NotebookNode) -> int:
    """How many slides the metadata calls for: one per ``slide`` or ``subslide`` cell (and one for a deck
    whose first shown cell starts none, which nbconvert starts the deck with)."""
    shown = [cell for cell in notebook.cells if _slide_type(cell) != "skip"]
    starts = sum(_slide_type(cell) in ("slide", "subslide") for cell in shown)
    return starts + (bool(shown) and _slide_type(shown[0]) not in ("slide", "subslide"))


def shown_slides(notebook: nbformat.NotebookNode) -> list[list[nbformat.NotebookNode]]:
    """The cells on each slide, in order (the notes and the skipped cells left out)."""
    slides: list[list[nbformat.NotebookNode]] = []
    for cell in notebook.cells:
        kind = _slide_type(cell)
        if kind in ("notes", "skip"):
            continue
        if kind in ("slide", "subslide") or not slides:
            slides.append([])
        slides[-1].append(cell)
    return slides


#: A caption: a Markdown cell this short on the figure's slide (or a title the figure's cell gives it).
CAPTION = 400


class Slides(html.parser.HTMLParser):
    """The slides of a reveal.js page: a ``<section>`` inside a ``<section>`` (a column of subslides) is one."""

    def __init__(self) -> None:
        super().__init__()
        self.depth, self.count = 0, 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "section":
            self.depth += 1
            self.count += self.depth == 2

    def handle_endtag(self, tag: str) -> None:
        if tag == "section":
            self.depth -= 1


def count_slides(page: str) -> int:
    parser = Slides()
    parser.feed(page)
    return parser.count


@pytest.fixture(scope="module")
def decks(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """A folder the decks are built into (one chapter at a time, as the tests ask), and the build's log."""
    need(importable("nbconvert"), "nbconvert (pip install 'nqueens-kit[course]')")
    need(shutil.which("npm") is not None, "npm (Debian: apt-get install npm), for reveal.js and MathJax")
    root = tmp_path_factory.mktemp("slides")
    return {"dest": root / "slides", "work": root / "slides-work", "log": io.StringIO()}


def _deck(decks: dict[str, object], chapter: str, monkeypatch: pytest.MonkeyPatch) -> Path:
    deck = Path(str(decks["dest"])) / chapter.replace(".ipynb", ".slides.html")
    if not deck.is_file():
        monkeypatch.setenv("CI", "1")  # the chapters at their small sizes
        built = slides_script.build_slides(decks["dest"], [chapter], work=decks["work"], log=decks["log"])
        assert built == [deck]
    return deck


@pytest.mark.parametrize("chapter", EACH)
def test_a_deck_has_the_slides_its_notebook_calls_for(decks, chapter: str, monkeypatch: pytest.MonkeyPatch) -> None:
    deck = _deck(decks, chapter, monkeypatch)
    page = deck.read_text(encoding="utf-8")
    stored = nbformat.read(notebooks_folder() / chapter, as_version=4)
    assert count_slides(page) == expected_slides(stored)
    notes = sum(_slide_type(cell) == "notes" for cell in stored.cells)
    assert page.count('<aside class="notes">') == notes
    install = next(cell for cell in stored.cells if cell.cell_type == "code")
    assert _slide_type(install) == "skip" and "%pip" in install.source
    assert "%pip" not in page and "kit_version" not in page, "the install cell is on a slide"
    executed = nbformat.read(Path(str(decks["work"])) / "executed" / chapter, as_version=4)
    figures = sum(FIGURE in out.get("data", {}) for cell in executed.cells if _slide_type(cell) != "skip"
                  for out in cell.get("outputs", []))
    assert page.count(f'src="data:{FIGURE};base64,') == figures
    if chapter.startswith("01-"):
        assert figures >= 1, "chapter 1 draws a board"
    for cells in shown_slides(executed):  # every figure has words on its slide: its title or a caption
        for cell in cells:
            if any(FIGURE in out.get("data", {}) for out in cell.get("outputs", [])):
                said = [c for c in cells if c.cell_type == "markdown" and len(c.source) <= CAPTION]
                assert said or "title" in cell.source, f"{chapter}: a figure with no caption ({cell.source[:80]!r})"
    views = sum("application/vnd.jupyter.widget-view+json" in out.get("data", {}) for cell in executed.cells
                for out in cell.get("outputs", []))
    assert ('<script type="application/vnd.jupyter.widget-state+json">' in page) == (views > 0)
    title = re.search(r"<title>(.*?)</title>", page).group(1)
    assert title == f"{stored.cells[0].source.splitlines()[0][2:]} slides"
    assert "<strong>In the browser</strong>" not in page[:page.find("</section>")], "the title slide: its teaching"
    # Every file the deck loads is in its folder: no other host, nothing missing.
    loaded = re.findall(r'<(?:script|img)[^>]* src="([^"]+)"|<link[^>]* href="([^"]+)"', page)
    loaded = [u for pair in loaded for u in pair if u and not u.startswith("data:")]
    loaded += re.findall(r'["\'](_static/[^"\']+\.js)["\']', page)  # what RequireJS and the widgets' loader fetch
    assert loaded and all(not re.match(r"(https?:)?//", u) for u in loaded), loaded
    missing = [u for u in loaded if not (deck.parent / u.split("?")[0]).is_file()]
    assert not missing, missing


def test_an_unknown_chapter_is_refused_in_one_line(tmp_path: Path) -> None:
    from nqueens_kit.errors import InputError

    with pytest.raises(InputError, match=r"^no chapter 'nine\.ipynb' in .*; chapters: 01-rules-to-clauses\.ipynb, "):
        slides_script.build_slides(tmp_path / "slides", ["nine.ipynb"], work=tmp_path / "work")
    assert not (tmp_path / "work").exists()


@pytest.mark.browser
@pytest.mark.deep
@pytest.mark.parametrize("chapter", CHAPTERS)
def test_a_deck_runs_offline_in_a_browser(decks, chapter: str, monkeypatch: pytest.MonkeyPatch) -> None:
    need(importable("playwright"), "playwright (pip install playwright)")
    need(Path(CHROMIUM).exists(), f"chromium at {CHROMIUM} (Debian: apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    deck = _deck(decks, chapter, monkeypatch)
    expected = expected_slides(nbformat.read(notebooks_folder() / chapter, as_version=4))
    with serving(deck.parent) as base, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1024, "height": 768})
            gate, failed, errors = OfflineGate(base), [], []
            gate.guard(page)
            page.on("response", lambda r: failed.append(f"{r.status} {r.url}") if r.status >= 400 else None)
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.goto(base + deck.name)
            page.wait_for_selector(".reveal.ready", timeout=60_000)
            reveal = f"require({json.dumps(slides_script.STATIC + '/reveal/dist/reveal.js')})"
            assert page.evaluate(f"() => {reveal}.getTotalSlides()") == expected
            for _ in range(expected):  # walked to its end, slide by slide
                page.evaluate(f"() => {reveal}.next()")
            assert page.evaluate(f"() => {reveal}.isLastSlide()")
            page.wait_for_function("() => window.MathJax && MathJax.Hub && MathJax.isReady")
            page.evaluate("() => new Promise(done => MathJax.Hub.Queue(done))")  # every formula typeset
            assert page.locator(".MathJax_CHTML").count() > 0
            assert page.locator(".MathJax_Error, .noError").count() == 0, "a formula MathJax could not read"
            page.wait_for_function(  # every app's first view drawn from its saved state
                "() => [...document.querySelectorAll('script[type=\"application/vnd.jupyter.widget-view+json\"]')]"
                ".every(s => s.parentElement.querySelector('.jupyter-widgets'))", timeout=60_000)
            page.wait_for_load_state("networkidle")
        finally:
            browser.close()
    assert gate.refused == [] and failed == [] and errors == [], (gate.refused[:5], failed[:5], errors[:5])
