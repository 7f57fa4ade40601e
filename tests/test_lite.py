"""The course in a browser with nothing to install: the JupyterLite site of ``make lite``, built, served on
127.0.0.1 and opened in headless Chromium with every other host refused, so it runs offline.

In the Pyodide kernel: chapter 2's cells run (a figure that needs matplotlib, which only the Pyodide CDN has,
must say so in one line and nothing else may fail); 8 queens is solved by SAT (python-sat) and by ILP
(PuLP's model, HiGHS compiled to WebAssembly), each board checked here with ``verify``; n = 8 is counted
against the published count; the playground's board explorer redraws when its n slider moves.  Chapters 3,
4 and 7 run to the end, every code cell in order, as under test (``CI`` set): each cell runs, or ends with
the kit's one line saying what it needs that the browser lacks (matplotlib or numpy from the Pyodide CDN, an
executable solver, a compiled package) and never with a traceback, so no later cell fails because an earlier
one could not run; the cells that read the notebook folder's data files run.  Every
request the page and its kernel made stayed on the machine.  The site's size, the build time and the time
to the first answer are printed (``-s``) with their ratios.

Skipped when Playwright, Chromium, npm or JupyterLite are missing, except under ``NQUEENS_KIT_REQUIRE_ALL=1``
(CI).  Downloads are cached in ``build/lite-cache``, so only the first build fetches anything.
"""

from __future__ import annotations

import json
import shutil
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from nqueens_kit.course.lite import PYODIDE_CDN
from nqueens_kit.problem.board import verify
from nqueens_kit.problem.reference import published_count
from nqueens_kit.runtime.browser import importable

from .browser_tools import CHROMIUM, CHROMIUM_ARGS, OfflineGate, serving
from .conftest import need

pytestmark = pytest.mark.browser
#: What the chapters' figures load from the Pyodide CDN when online.
CDN_PACKAGES = ("matplotlib", "numpy")

ROOT = Path(__file__).resolve().parents[1]
WAIT_MS = 180_000
CHAPTER = "02-solving-with-sat.ipynb"
#: The one kind of error a chapter cell may end with in the offline browser: a module of the Pyodide CDN.
CDN_ERRORS = ("ModuleNotFoundError", "FigureNeedsPackage")
CDN_MODULE_ERROR = ("is included in the Pyodide distribution, but it is not installed", "does not ship")

#: The chapters run to the end: every code cell runs or says in one line why not.
TO_THE_END = ("03-the-ilp-model.ipynb", "04-encodings-compared.ipynb", "07-inside-the-solvers.ipynb")
#: What such a cell may end with: the kit's one-line refusals (and Pyodide's own for a CDN module).
REFUSALS = ("FigureNeedsPackage", "ModuleNotFoundError", "SolverNotAvailable", "NotInBrowser")

#: Runs in the kernel: both solvers' boards, a count, and what the registry says, as one JSON line.
CHECK = """
import json, time
from nqueens_kit import count_solutions, solve
from nqueens_kit.solvers import available_solvers, SAT_SOLVERS, ILP_SOLVERS
_t = time.perf_counter(); _sat = solve(8, method="sat"); _sat_s = time.perf_counter() - _t
_t = time.perf_counter(); _ilp = solve(8, method="ilp"); _ilp_s = time.perf_counter() - _t
print(json.dumps({"sat": [list(q) for q in _sat.queens], "sat_solver": _sat.solver, "sat_seconds": _sat_s,
                  "ilp": [list(q) for q in _ilp.queens], "ilp_solver": _ilp.solver, "ilp_seconds": _ilp_s,
                  "count": count_solutions(8).count,
                  "sat_available": available_solvers("sat"), "ilp_available": available_solvers("ilp"),
                  "cbc_says": ILP_SOLVERS["cbc"].install_hint(), "minisat_says": SAT_SOLVERS["minisat"].install_hint()}))
"""

#: Runs ``code`` in the current notebook's kernel; returns [stdout, error name, error value].
EXECUTE = """async (code) => {
  const kernel = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
  const future = kernel.requestExecute({code, stop_on_error: false});
  let out = "", ename = "", evalue = "";
  future.onIOPub = (msg) => {
    const c = msg.content;
    if (msg.header.msg_type === "stream") out += c.text;
    if (msg.header.msg_type === "error") { ename = c.ename; evalue = c.evalue; }
  };
  await future.done;
  return [out, ename, evalue];
}"""


def _cdn_files(site: Path, packages: tuple[str, ...]) -> set[str]:
    """The files of the Pyodide CDN that ``packages`` and their dependencies load (from the site's lock)."""
    lock = json.loads((site / "static" / "pyodide" / "pyodide-lock.json").read_text())["packages"]
    todo, seen = list(packages), set()
    while todo:
        name = todo.pop()
        if name not in seen and name in lock:
            seen.add(name)
            todo.extend(lock[name]["depends"])
    return {lock[name]["file_name"][len(PYODIDE_CDN):] for name in seen if lock[name]["file_name"].startswith(PYODIDE_CDN)}


#: Selects the notebook's first code cell and runs it in the page (its widgets are drawn there).
RUN_FIRST_CODE_CELL = """async () => {
  const panel = window.jupyterapp.shell.currentWidget;
  await panel.context.ready;
  const notebook = panel.content;
  notebook.activeCellIndex = notebook.widgets.findIndex(cell => cell.model.type === "code");
  await window.jupyterapp.commands.execute("notebook:run-cell");
}"""


def _error_class(ename: str) -> str:
    """``NotInBrowser`` from the kernel's ``<class 'nqueens_kit.runtime.browser.NotInBrowser'>``."""
    return ename.strip("<>'").rsplit("'", 1)[-1].rsplit(".", 1)[-1]


def _reason(evalue: str) -> str:
    """What a refusing cell said it needs, in a few words (for the summary)."""
    if "not in the browser: " in evalue:
        return evalue.split("not in the browser: ", 1)[1].split(",")[0].split(";")[0].split(" (")[0]
    if " needs " in evalue:
        return evalue.split(" needs ", 1)[1].split(",")[0]
    return evalue.split(": ")[0]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    need(importable("playwright"), "playwright (pip install playwright)")
    need(Path(CHROMIUM).exists(), f"chromium at {CHROMIUM} (Debian: apt-get install chromium)")
    need(importable("jupyterlite_core") and importable("jupyterlite_pyodide_kernel"),
         "JupyterLite (pip install 'nqueens-kit[lite]')")
    need(shutil.which("npm") is not None, "npm (Debian: apt-get install npm), for Pyodide and HiGHS")
    from nqueens_kit.course.lite import build_lite

    out = tmp_path_factory.mktemp("lite") / "lite"
    built = build_lite(out, cache=ROOT / "build" / "lite-cache")
    print(f"\nsite: {built['files']} files, {int(built['bytes']) / 1e6:.1f} MB, built in {built['seconds']} s")
    return built


@pytest.fixture(scope="module")
def server(site: dict[str, object]) -> Iterator[str]:
    with serving(str(site["output"])) as address:
        yield address


class Browser:
    """One Chromium context: every request recorded, every host but the local server refused."""

    def __init__(self, chromium: object, base: str) -> None:
        self.base = base
        self.gate = OfflineGate(base)
        self.requests, self.refused = self.gate.requests, self.gate.refused
        self.chromium = chromium
        self.contexts: list[object] = []

    def open(self, notebook: str) -> object:
        """A page with ``notebook`` open and its Pyodide kernel idle (the kit loaded)."""
        # A context of its own for each notebook (a fresh browser profile: its own kernel and storage).  The
        # site's service worker only caches; blocked, every request of the kernel's worker is seen here.
        context = self.chromium.new_context(service_workers="block",  # type: ignore[attr-defined]
                                            viewport={"width": 1280, "height": 1000})
        self.gate.guard(context)
        self.contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(WAIT_MS)
        page.goto(f"{self.base}lab/index.html?path={notebook}")
        page.wait_for_function("() => window.jupyterapp && window.jupyterapp.shell.currentWidget"
                               " && window.jupyterapp.shell.currentWidget.sessionContext"
                               " && window.jupyterapp.shell.currentWidget.sessionContext.session"
                               " && window.jupyterapp.shell.currentWidget.sessionContext.session.kernel")
        return page


@pytest.fixture(scope="module")
def browser(server: str) -> Iterator[Browser]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        browser = Browser(chromium, server)
        try:
            yield browser
        finally:
            for context in browser.contexts:
                context.close()  # type: ignore[attr-defined]
            chromium.close()


def _run(page: object, code: str) -> tuple[str, str, str]:
    out, ename, evalue = page.evaluate(EXECUTE, code)  # type: ignore[attr-defined]
    return out, ename, evalue


def test_a_chapter_solves_counts_and_stays_offline(site: dict[str, object], browser: Browser) -> None:
    start = time.perf_counter()
    page = browser.open(CHAPTER)
    out, ename, evalue = _run(page, "from nqueens_kit import solve\nprint(solve(8, method='sat').queens)")
    first_result = time.perf_counter() - start
    assert not ename, f"{ename}: {evalue}"
    assert verify(8, [tuple(q) for q in json.loads(out.replace("(", "[").replace(")", "]"))])

    # The chapter's own cells, in order: each runs, or says in one line that its figure needs the CDN.
    cells = [c for c in json.loads((ROOT / "notebooks" / CHAPTER).read_text())["cells"] if c["cell_type"] == "code"]
    ran, needs_cdn = 0, []
    for cell in cells:
        source = "".join(cell["source"])
        _, ename, evalue = _run(page, source)
        if ename:
            assert ename.strip("<>'").rsplit("'", 1)[-1].rsplit(".", 1)[-1] in CDN_ERRORS and \
                any(s in evalue for s in CDN_MODULE_ERROR), \
                f"a cell of {CHAPTER} failed in the browser: {ename}: {evalue}\n{source}"
            assert "\n" not in evalue.strip()
            needs_cdn.append(evalue.split(" needs ")[-1].split(",")[0])
        else:
            ran += 1
    assert ran >= len(cells) // 2, f"only {ran} of {len(cells)} cells ran"

    t = time.perf_counter()
    out, ename, evalue = _run(page, CHECK)
    check_seconds = time.perf_counter() - t
    assert not ename, f"{ename}: {evalue}"
    answer = json.loads(out.strip().splitlines()[-1])
    for how in ("sat", "ilp"):
        board = [tuple(q) for q in answer[how]]
        assert len(board) == 8 and verify(8, board), f"{how} board {board} is not a solution"
    assert answer["sat_solver"] == "pysat-browser" and answer["ilp_solver"] == "highs-wasm"
    assert answer["count"] == published_count(8) == 92
    assert answer["ilp_available"] == ["highs-wasm"] and "pycosat" not in answer["sat_available"]
    assert answer["cbc_says"].startswith("not in the browser") and answer["minisat_says"].startswith("not in")

    # Nothing left the machine: every request was refused but the site's own.  The only ones refused are the
    # kernel's attempt to load the figures' packages from the Pyodide CDN (what it does online).
    allowed = _cdn_files(Path(str(site["output"])), CDN_PACKAGES)
    strays = [url for url in browser.refused if not (url.startswith(PYODIDE_CDN) and url[len(PYODIDE_CDN):] in allowed)]
    assert strays == [], f"requests that tried to leave the machine: {strays[:5]}"
    assert all(url.startswith(browser.base) or url.startswith(("data:", "blob:")) or url in browser.refused
               for url in browser.requests)
    print(f"\nrequests: {len(browser.requests)}, refused: {len(browser.refused)} (Pyodide CDN packages for figures)")
    print(f"{CHAPTER}: {ran} of {len(cells)} cells ran, {len(needs_cdn)} said they need the Pyodide CDN "
          f"({', '.join(sorted(set(needs_cdn)))})")
    print(f"time to first result (page open to a verified 8-queens board): {first_result:.1f} s; "
          f"SAT {answer['sat_seconds'] * 1000:.0f} ms, ILP {answer['ilp_seconds']:.2f} s, count 8 -> 92; "
          f"first result / build = {first_result / float(site['seconds']):.2f}; "
          f"ILP / SAT = {answer['ilp_seconds'] / max(answer['sat_seconds'], 1e-6):.0f}x; checks took "
          f"{check_seconds:.1f} s; site {int(site['bytes']) / 1e6:.1f} MB in {site['files']} files")
    page.close()  # type: ignore[attr-defined]


def test_the_playground_slider_redraws_the_board_offline(browser: Browser, tmp_path: Path) -> None:
    page = browser.open("06-playground.ipynb")
    page.evaluate(RUN_FIRST_CODE_CELL)  # type: ignore[attr-defined]
    explorer = page.locator(".nqk-board-explorer")  # type: ignore[attr-defined]
    board = explorer.locator("svg.nqk-board")
    try:
        board.wait_for()
    finally:
        page.screenshot(path=str(tmp_path / "lite-playground.png"))  # type: ignore[attr-defined]
        print(f"\nscreenshot: {tmp_path / 'lite-playground.png'}")
    assert board.get_attribute("data-n") == "8"
    assert board.locator("rect.nqk-cell").count() == 64 and board.locator("g.nqk-queen").count() == 8
    before = board.screenshot()

    handle = explorer.locator(".noUi-handle").first
    handle.focus()
    page.keyboard.press("ArrowRight")  # type: ignore[attr-defined]  # n = 9
    explorer.locator('svg.nqk-board[data-n="9"][data-queens="9"]').wait_for()
    assert board.locator("rect.nqk-cell").count() == 81 and board.locator("g.nqk-queen").count() == 9
    assert explorer.get_by_text(f"solution 1 of {published_count(9)}").is_visible()
    assert board.screenshot() != before
    assert all(url.startswith(PYODIDE_CDN) for url in browser.refused), browser.refused[:5]
    page.close()  # type: ignore[attr-defined]


@pytest.mark.parametrize("chapter", TO_THE_END)
def test_a_chapter_runs_to_the_end_or_says_why(chapter: str, browser: Browser) -> None:
    start = time.perf_counter()
    page = browser.open(chapter)
    opened = time.perf_counter() - start
    _, ename, evalue = _run(page, "import os\nos.environ['CI'] = '1'  # the sizes of the chapters under test")
    assert not ename, f"{ename}: {evalue}"
    cells = [c for c in json.loads((ROOT / "notebooks" / chapter).read_text())["cells"] if c["cell_type"] == "code"]
    ran, said = [], {}
    for number, cell in enumerate(cells):
        source = "".join(cell["source"])
        _, ename, evalue = _run(page, source)
        if not ename:
            ran.append(number)
            continue
        # A refusal is one line from the kit naming what the browser lacks; anything else is a failure.
        assert _error_class(ename) in REFUSALS and "\n" not in evalue.strip() and \
            ("browser" in evalue or any(s in evalue for s in CDN_MODULE_ERROR)), \
            f"code cell {number} of {chapter} failed in the browser: {ename}: {evalue}\n{source}"
        said[number] = _reason(evalue)
    seconds = time.perf_counter() - start
    reads_data = [n for n, c in enumerate(cells) if 'Path("data")' in "".join(c["source"])]
    assert not set(reads_data) - set(ran), f"cells {reads_data} read the notebook folder's data: {said}"
    assert len(ran) >= len(cells) // 2, f"only {ran} of {len(cells)} cells ran; the others said: {said}"
    assert all(url.startswith(PYODIDE_CDN) for url in browser.refused), browser.refused[:5]
    reasons = ", ".join(f"{why}: {count}" for why, count in sorted(Counter(said.values()).items()))
    print(f"\n{chapter}: {len(ran)} of {len(cells)} code cells ran, {len(said)} said in one line why not "
          f"({reasons}); {seconds:.1f} s, of which opening the page and its kernel {opened:.1f} s "
          f"({opened / seconds:.0%})")
    page.close()  # type: ignore[attr-defined]


if __name__ == "__main__":  # pragma: no cover
    sys.exit(pytest.main([__file__, "-s", "-p", "no:cacheprovider"]))
