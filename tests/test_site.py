"""The course's site as a reader sees it: built by ``build_site`` (``make site``), served on 127.0.0.1 and read
in headless Chromium with every other host blocked.

The site is built once for this module into a temporary folder, with ``CI`` set so that the chapters cut
their long work short (a few minutes on two cores).  Every page is opened; the tests assert that

- no request leaves the machine (every request is recorded; any host but the local server is refused and
  named in the failure), and no page raises a script error;
- no raw ``$`` or ``\\(``/``\\[`` is visible in the text (code, printed outputs and rendered math aside;
  widgets included; folded hints and solutions are opened first), the formulas are MathJax's and none is
  an error;
- every figure of every executed chapter is on its page and loaded, every widget view is drawn from its
  saved state and no app was saved while still "solving …";
- the playground shows each app's first view: the board explorer's 8 × 8 board with 8 queens and
  "solution 1 of 92", each other tab's app with its controls, the completion puzzle's 64 squares;
- the search page finds a word of chapter 4 and links the chapter; the table of contents and previous/next
  lead through index, chapters and bibliography in order, and every internal link points at a page;
- the bibliography and each chapter's list of works link DOIs;
- opened from disk (``file://``, no server), a page loads its icon fonts without a failed request;
- in a 1024 px wide window no app's first view, nor a picture or a table in it, is wider than the text
  column, and no page scrolls sideways.

Screenshots of the landing page, a chapter with formulas and the playground are saved under pytest's
temporary folder (or ``NQUEENS_KIT_SITE_SHOTS``) and their paths printed.  ``NQUEENS_KIT_SITE=build/site``
reads a site built by ``make site`` instead of building one.  Skipped when Chromium,
Playwright, npm or the site tools are missing, except under ``NQUEENS_KIT_REQUIRE_ALL=1`` (CI).
"""

from __future__ import annotations

import json
import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from nqueens_kit.runtime.browser import importable

from .book_scripts import launch_links, site_script
from .browser_tools import CHROMIUM, CHROMIUM_ARGS, OfflineGate, serving
from .conftest import need

BOOK_FOLDER, build_site = site_script.BOOK_FOLDER, site_script.build_site

#: The whole site read in a browser is in the deep profile (CI runs it); make test builds one chapter as
#: the site builds them all and checks its page (tests/test_bundle.py).
pytestmark = [pytest.mark.browser, pytest.mark.deep]

WAIT_MS = 60_000
#: Chapter 4's page must be found by searching for this word (it names one of the chapter's encodings).
SEARCH_WORD = "commander"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The whole site, built once for this module (chapters cut short as under CI)."""
    need(importable("playwright"), "playwright (pip install playwright)")
    need(Path(CHROMIUM).exists(), f"chromium at {CHROMIUM} (Debian: apt-get install chromium)")
    need(all(importable(m) for m in ("sphinx", "myst_nb", "sphinx_book_theme", "sphinxcontrib.bibtex")),
         "the site tools (pip install 'nqueens-kit[site]')")
    need(shutil.which("npm") is not None, "npm (Debian: apt-get install npm), for MathJax and the widget manager")
    need((BOOK_FOLDER / "conf.py").is_file(), f"the book's configuration in {BOOK_FOLDER}")
    if os.environ.get("NQUEENS_KIT_SITE"):  # a site built by make site (its work folder beside it), reused
        return Path(os.environ["NQUEENS_KIT_SITE"]).resolve()
    root = tmp_path_factory.mktemp("site")
    with pytest.MonkeyPatch.context() as patch, open(root / "build.log", "w") as log:
        patch.setenv("CI", "1")
        build_site(root / "site", log=log)
    print(f"site built in {root / 'site'} (log: {root / 'build.log'})")
    return root / "site"


@pytest.fixture(scope="module")
def server(site: Path) -> Iterator[str]:
    with serving(site) as address:
        yield address


class Reader:
    """One Chromium page that records every request and refuses every host but the local server."""

    def __init__(self, context: object, base: str) -> None:
        self.base = base
        self.gate = OfflineGate(base)
        self.requests, self.refused = self.gate.requests, self.gate.refused
        self.errors: list[str] = []
        self.page = context.new_page()  # type: ignore[attr-defined]
        self.gate.guard(self.page)
        self.page.set_default_timeout(WAIT_MS)
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))

    def open(self, name: str) -> object:
        """Open a page and wait until MathJax has typeset it and the widgets are drawn."""
        self.page.goto(self.base + name, wait_until="load")
        self.page.wait_for_function("() => !window.MathJax || !MathJax.startup || !MathJax.startup.promise"
                                    " || MathJax.startup.promise.then(() => true)")
        self.page.wait_for_function(
            "() => [...document.querySelectorAll('script[type=\"application/vnd.jupyter.widget-view+json\"]')]"
            ".every(s => s.parentElement.querySelector('.jupyter-widgets'))")
        self.page.wait_for_load_state("networkidle")
        return self.page


@pytest.fixture(scope="module")
def browser_context(server: str) -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser.new_context(viewport={"width": 1280, "height": 900}, service_workers="block")
        finally:
            browser.close()


@pytest.fixture()
def reader(browser_context: object, server: str) -> Iterator[Reader]:
    """A fresh page for each test, with its own record of requests and script errors."""
    reader = Reader(browser_context, server)
    try:
        yield reader
    finally:
        reader.page.close()


def _pages(site: Path) -> list[str]:
    return sorted(p.name for p in site.glob("*.html"))


def _chapters(site: Path) -> list[str]:
    return sorted(p.name for p in site.glob("[0-9][0-9]-*.html"))


def _shot(reader: Reader, name: str, tmp_path: Path) -> Path:
    folder = Path(os.environ.get("NQUEENS_KIT_SITE_SHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    reader.page.screenshot(path=str(path))
    print(f"screenshot: {path}")
    assert path.stat().st_size > 10_000
    return path


#: The text a reader sees, widgets included, without code, printed outputs, scripts and the formulas MathJax
#: drew; folded hints and solutions opened first.
VISIBLE_PROSE = """() => {
  document.querySelectorAll('details').forEach(d => d.open = true);
  const article = document.querySelector('article') || document.body;
  const copy = article.cloneNode(true);
  copy.querySelectorAll('pre, code, script, style, mjx-container, .highlight').forEach(e => e.remove());
  return copy.textContent;
}"""


def test_every_page_stays_on_the_machine_and_shows_its_math_figures_and_widgets(site: Path, reader: Reader,
                                                                                tmp_path: Path) -> None:
    import nbformat

    chapters = _chapters(site)
    assert len(chapters) >= 6, chapters
    for name in _pages(site):
        page = reader.open(name)
        prose = page.evaluate(VISIBLE_PROSE)
        for raw in ("$", "\\(", "\\)", "\\[", "\\]"):
            at = prose.find(raw)
            assert at < 0, f"{name}: raw {raw!r} in the text: …{prose[max(0, at - 80):at + 80]}…"
        assert page.locator("mjx-merror").count() == 0, f"{name}: a formula MathJax could not read"
        views = page.locator('script[type="application/vnd.jupyter.widget-view+json"]')
        for i in range(views.count()):  # every widget drawn from its saved state, none still working
            assert views.nth(i).evaluate("s => s.parentElement.querySelector('.jupyter-widgets') !== null"), name
        assert page.locator(".nqk-busy").count() == 0, f"{name}: an app was saved while still working"
        if name not in chapters:
            continue
        assert page.locator("mjx-container").count() >= 3, f"{name}: its formulas are not rendered"
        assert page.locator("article mjx-container").first.is_visible()
        stored = site.with_name(site.name + "-work") / "executed" / name.replace(".html", ".ipynb")
        executed = nbformat.read(stored, as_version=4)
        figures = sum(1 for cell in executed.cells if cell.cell_type == "code" for output in cell.get("outputs", [])
                      if {"image/png", "image/svg+xml"} & set(output.get("data", {})))
        images = page.locator('.cell_output img[src*="_images/"]')  # not the images inside widgets
        assert images.count() >= figures, f"{name}: {images.count()} of its {figures} figures"
        loaded = images.evaluate_all("images => images.filter(i => i.complete && i.naturalWidth > 0).length")
        assert loaded == images.count(), f"{name}: {images.count() - loaded} figures did not load"
        if name == chapters[0]:
            _shot(reader, "site-chapter-with-formulas.png", tmp_path)
    assert reader.refused == [], f"requests that left the machine: {sorted(set(reader.refused))}"
    assert all(url.startswith((reader.base, "data:", "blob:", "about:")) for url in reader.requests)
    assert reader.errors == [], f"script errors: {reader.errors[:5]}"
    assert any("/_static/mathjax/" in url for url in reader.requests), "MathJax came from this site"
    assert any("/_static/widgets/embed-amd.js" in url for url in reader.requests), "so did the widget manager"


def test_the_playground_shows_each_apps_first_view(site: Path, reader: Reader, tmp_path: Path) -> None:
    (name,) = [n for n in _chapters(site) if "playground" in n]
    page = reader.open(name)
    apps = {"Board explorer": "nqk-board-explorer", "Formula explorer": "nqk-formula-explorer",
            "Completion puzzle": "nqk-completion-puzzle", "Timing explorer": "nqk-timing-explorer",
            "Inside the solver": "nqk-inside"}
    for title in apps:
        assert page.get_by_role("tab", name=title).count() == 1, title
    explorer = page.locator(".nqk-board-explorer")
    board = explorer.locator('svg.nqk-board[data-n="8"][data-queens="8"]')
    board.wait_for()
    assert board.locator("rect.nqk-cell").count() == 64 and board.locator("g.nqk-queen").count() == 8
    assert explorer.get_by_text("solution 1 of 92").is_visible()
    board.scroll_into_view_if_needed()
    _shot(reader, "site-playground.png", tmp_path)
    for title, css in list(apps.items())[1:]:  # each app's first view is there too, drawn from the saved state
        page.get_by_role("tab", name=title).click()
        view = page.locator(f".widget-tab-contents > .{css}")
        view.wait_for()
        assert len(view.inner_text().strip()) > 40, f"{title}: an empty view"
        assert view.locator("input, select, button").count() >= 2, f"{title}: its controls are not drawn"
        _shot(reader, f"site-playground-{css[4:]}.png", tmp_path)
    page.locator(".nqk-completion-puzzle .nqk-square").first.wait_for(state="attached")
    assert page.locator(".nqk-completion-puzzle .nqk-square").count() == 64
    assert reader.refused == [] and reader.errors == []


def test_search_finds_a_word_of_chapter_4(site: Path, reader: Reader) -> None:
    (chapter4,) = [n for n in _chapters(site) if n.startswith("04-")]
    page = reader.open(f"search.html?q={SEARCH_WORD}")
    results = page.locator("#search-results ul.search li a")
    results.first.wait_for()
    hrefs = [results.nth(i).get_attribute("href") or "" for i in range(results.count())]
    assert any(href.split("?")[0].split("#")[0].endswith(chapter4) for href in hrefs), hrefs
    page.locator("#search-results ul.search li a", has_text=re.compile("Encodings", re.I)).first.click()
    page.wait_for_url(re.compile(re.escape(chapter4)))
    assert reader.refused == [] and reader.errors == []


# clicks through every page (the whole module is in the deep profile)
def test_navigation_leads_through_the_book(site: Path, reader: Reader, tmp_path: Path) -> None:
    chapters = _chapters(site)
    page = reader.open("index.html")
    _shot(reader, "site-index.png", tmp_path)
    toc = page.locator("nav.bd-docs-nav a.reference.internal")
    listed = [(toc.nth(i).get_attribute("href") or "").split("#")[0] for i in range(toc.count())]
    assert [h for h in listed if re.match(r"\d\d-", h)] == chapters, listed
    assert "references.html" in listed
    cards = page.locator(".nqk-card p:first-child a")
    assert [cards.nth(i).get_attribute("href") for i in range(cards.count())] == chapters
    order = ["index.html", *chapters, "references.html"]
    page = reader.open(order[0])
    for there in order[1:]:  # "next" leads through the book ...
        page.locator("a.right-next").click()
        page.wait_for_url(re.compile(re.escape(there) + "$"))
    assert page.locator("a.right-next").count() == 0
    for there in reversed(order[:-1]):  # ... and "previous" back
        page.locator("a.left-prev").click()
        page.wait_for_url(re.compile(re.escape(there) + "$"))
    for name in _pages(site):  # every link inside the site points at a file that exists
        html = (site / name).read_text(encoding="utf-8")
        for href in re.findall(r'href="([^"#?]+)', html):
            if href.startswith(site_script.LITE_URL):  # the browser edition, published beside the site
                continue
            if not urlsplit(href).scheme:
                assert (site / unquote(href)).is_file(), f"{name} links {href}, which is not there"
    assert reader.refused == [] and reader.errors == []


def test_the_landing_cards_teach_and_every_chapter_can_be_launched_and_downloaded(site: Path, reader: Reader) -> None:
    """The cards show each chapter's opening paragraph (never the browser-edition note, which each page moves
    to its end); each chapter's launch menu opens its notebook in Colab, on Binder and, where it runs there,
    in the browser edition, and its download menu gives the notebook as stored; the install cell is not on
    the page; every app on a page is said to be a picture."""
    from nqueens_kit.course.notebooks import notebooks_folder

    page = reader.open("index.html")
    cards = page.locator(".nqk-card")
    assert cards.count() == len(_chapters(site))
    for i in range(cards.count()):
        text = cards.nth(i).inner_text()
        assert "browser" not in text.lower() and len(text) > 80, text
    assert "local search" in page.title() and "constraint programming" in page.locator("article h1").first.inner_text()
    lite = set(site_script.lite_chapters())
    for name in _chapters(site):
        html = (site / name).read_text(encoding="utf-8")
        notebook = name.replace(".html", ".ipynb")
        links, hrefs = launch_links(notebook), set(re.findall(r'href="([^"]+)"', html))
        assert {links["colab"], links["binder"], links["download"]} <= hrefs, f"{name}: {sorted(hrefs)}"
        assert (links["lite"] in hrefs) == (name[:-5] in lite), name
        assert (site / links["download"]).read_bytes() == (notebooks_folder() / notebook).read_bytes(), name
        assert "%pip install" not in html, f"{name}: the install cell is on the page"
        opening = html[html.find("<h1"):html.find("<h1") + 3000]
        assert "nqk-browser-note" not in opening and ("nqk-browser-note" in html) == (name[:-5] in lite), name
        views, notes = html.count('type="application/vnd.jupyter.widget-view+json"'), html.count("nqk-static-note")
        assert (views == 0) == (notes == 0) and notes <= views, name
    first = _chapters(site)[0]  # the menus as a reader opens them
    page = reader.open(first)
    page.locator(".dropdown-launch-buttons button.dropdown-toggle").click()
    shown = page.locator(".dropdown-launch-buttons .dropdown-menu a")
    assert [shown.nth(i).inner_text().strip() for i in range(shown.count())] == ["Binder", "Colab", "Browser edition"]
    page.locator(".dropdown-download-buttons button.dropdown-toggle").click()
    assert page.locator(f'.dropdown-download-buttons a[href="{launch_links(first[:-5] + ".ipynb")["download"]}"]').is_visible()
    assert reader.refused == [] and reader.errors == []


# clicks through every page (the whole module is in the deep profile)
def test_citations_link_their_dois(site: Path, reader: Reader) -> None:
    page = reader.open("references.html")
    dois = page.locator('a[href^="https://doi.org/10."]')
    assert dois.count() >= 20
    assert page.get_by_text("10.1613/jair.5512").count() == 1  # Gent, Jefferson and Nightingale (2017)
    for name in _chapters(site):
        page = reader.open(name)
        works = page.locator("section#the-works-above-with-links li")
        assert works.count() >= 2, f"{name}: its works are not listed"
        if "playground" not in name:  # the playground cites only the ipywidgets and Voila documentation
            assert works.locator('a[href^="https://doi.org/10."]').count() >= 1, name
    assert reader.refused == [] and reader.errors == []


def test_the_widget_state_is_saved_with_the_page(site: Path) -> None:
    """The playground page carries the state its views are drawn from (no kernel behind a static page)."""
    (name,) = [n for n in _chapters(site) if "playground" in n]
    html = (site / name).read_text(encoding="utf-8")
    state = re.search(r'<script type="application/vnd.jupyter.widget-state\+json">(.*?)</script>', html, re.S)
    assert state, "no widget state in the page"
    models = json.loads(state.group(1))["state"]
    values = [m["state"].get("value", "") for m in models.values() if m["model_name"] == "HTMLModel"]
    assert any('data-queens="8"' in v for v in values if isinstance(v, str))
    assert not any("nqk-busy" in v for v in values if isinstance(v, str))


#: Where a page's text column is, and what of each app's view reaches past it: the view itself, and every
#: picture, table and text block in it (the icons of its buttons aside).
PAST_THE_COLUMN = """() => {
  const article = document.querySelector('article.bd-article');
  const box = article.getBoundingClientRect(), style = getComputedStyle(article);
  const left = box.left + parseFloat(style.paddingLeft), right = box.right - parseFloat(style.paddingRight);
  const past = [];
  for (const view of document.querySelectorAll('.cell_output > .widget-subarea')) {
    const app = [...(view.querySelector('.jupyter-widgets') || view).classList].find(c => c.startsWith('nqk-'));
    const parts = [view, ...view.querySelectorAll('img, svg, table, pre')].filter(e =>
      !e.matches('svg.svg-inline--fa, svg svg') && e.getBoundingClientRect().width > 0);
    for (const e of parts) {
      const r = e.getBoundingClientRect();
      if (r.left < left - 1 || r.right > right + 1) {
        const name = e.tagName.toLowerCase() + [...e.classList].slice(0, 1).map(c => '.' + c).join('');
        past.push(`${app || 'an app'}: ${name} spans ${Math.round(r.left)}-${Math.round(r.right)} px`);
      }
    }
  }
  return {left: Math.round(left), right: Math.round(right), past,
          sideways: document.documentElement.scrollWidth - document.documentElement.clientWidth};
}"""


def test_the_apps_fit_the_text_column_of_a_1024_px_window(site: Path, reader: Reader, tmp_path: Path) -> None:
    """On a 1024 x 768 screen (a projector) each app's first view keeps to the text column: its pictures
    scale down to it, a long text block scrolls in its own box, and no page scrolls sideways; every tab of
    every app is looked at."""
    reader.page.set_viewport_size({"width": 1024, "height": 768})
    past: list[str] = []
    for name in _chapters(site):
        page = reader.open(name)
        if page.locator(".cell_output > .widget-subarea").count() == 0:
            continue
        found = page.evaluate(PAST_THE_COLUMN)
        column = f"the column is {found['left']}-{found['right']} px"
        past += [f"{name}: {line} ({column})" for line in found["past"]]
        if found["sideways"] > 0:
            past.append(f"{name}: the page scrolls {found['sideways']} px sideways")
        tabs = page.locator(".cell_output .widget-subarea .lm-TabBar-tab")
        for i in range(tabs.count()):  # in document order: an app's inner tabs after the tab that shows them
            if tabs.nth(i).is_visible():
                tabs.nth(i).click()
                past += [f"{name}, tab {tabs.nth(i).inner_text()!r}: {line} ({column})"
                         for line in page.evaluate(PAST_THE_COLUMN)["past"]]
        if "playground" in name:
            page.get_by_role("tab", name="Board explorer").click()
            page.locator(".nqk-board-explorer svg.nqk-board").scroll_into_view_if_needed()
            _shot(reader, "site-playground-1024.png", tmp_path)
    assert past == [], "wider than the text column at 1024 px:\n" + "\n".join(sorted(set(past)))
    assert reader.refused == [] and reader.errors == []


#: Whether the page's icon font (the theme's Font Awesome, solid) is there to draw an icon with.
ICON_FONT_LOADED = """async () => {
  await document.fonts.ready;
  const faces = await document.fonts.load('900 16px "Font Awesome 6 Free"', '\\uf05a');
  return faces.length > 0 && faces.every(f => f.status === 'loaded')
    && document.fonts.check('900 16px "Font Awesome 6 Free"', '\\uf05a');
}"""


def test_the_icon_fonts_load_when_the_site_is_opened_from_disk(site: Path, browser_context: object) -> None:
    """Opened from disk (file:///.../index.html, no server), a page's icons still draw: no request fails (a
    browser refuses a font file to a file:// page that fetches it as a cross-origin font, as a preload does),
    no icon font is fetched from disk at all, and the theme's icon font is loaded."""
    (playground,) = [n for n in _chapters(site) if "playground" in n]
    page = browser_context.new_page()  # type: ignore[attr-defined]
    failed: list[str] = []
    fonts: list[str] = []
    page.on("requestfailed", lambda request: failed.append(f"{request.url} ({request.failure})"))
    page.on("request", lambda request: fonts.append(request.url) if request.resource_type == "font" else None)
    try:
        page.set_default_timeout(WAIT_MS)
        for name in ("index.html", playground):
            page.goto((site / name).as_uri(), wait_until="load")
            page.wait_for_function(
                "() => [...document.querySelectorAll('script[type=\"application/vnd.jupyter.widget-view+json\"]')]"
                ".every(s => s.parentElement.querySelector('.jupyter-widgets'))")
            assert page.evaluate(ICON_FONT_LOADED), f"{name}: the icon font did not load from disk"
            page.wait_for_load_state("networkidle")
    finally:
        page.close()
    assert failed == [], "requests that failed from disk:\n" + "\n".join(failed)
    from_disk = [url for url in fonts if url.startswith("file:") and "/_static/mathjax/" not in url]
    assert from_disk == [], "icon fonts fetched from disk, which a browser may refuse:\n" + "\n".join(from_disk)
