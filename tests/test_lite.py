"""The course in a browser with nothing to install: the JupyterLite site of ``make lite``, built, served on
127.0.0.1 and opened in headless Chromium with every other host refused, so it runs offline.

Every chapter the site ships is run as a reader runs it: Run All (the Run menu's "Run All Cells", the command
``notebook:run-all-cells``) on a fresh Pyodide kernel.  Run All halts at the first cell that ends with an
error, so each chapter must run to its last code cell: every code cell ran, once and in order, and none shows
an error.  What the offline browser lacks (matplotlib or numpy from the Pyodide CDN, an executable solver, a
compiled package, a proof checker) is said by the cell in one line on its standard error, and a figure that
cannot be drawn does not even stop its cell; the cells that read the notebook folder's data files run
through, and the last code cell's output is the one stored with the chapter when it is pinned.
In chapter 2's kernel, 8 queens is also solved by SAT (python-sat) and by ILP (PuLP's model, HiGHS compiled to
WebAssembly), each board checked here with ``verify``, and n = 8 counted against the published count; the
playground's board explorer redraws when its n slider moves.  Every request the page and its kernel made
stayed on the machine.  The site's size, the build time, the time to the first answer and each chapter's
Run All are printed (``-s``; this machine's times).

The kernel's side of this (:func:`nqueens_kit.runtime.browser.handle_refusals`) is also checked here without
a browser, on an IPython shell.

Browser tests are skipped when Playwright, Chromium, npm or JupyterLite are missing, except under
``NQUEENS_KIT_REQUIRE_ALL=1`` (CI).  Downloads are cached in ``build/lite-cache``, so only the first build
fetches anything.
"""

from __future__ import annotations

import json
import re
import shutil
import sys
import time
import warnings
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from nqueens_kit.problem.board import verify
from nqueens_kit.problem.reference import published_count
from nqueens_kit.runtime.browser import importable

from .book_scripts import lite_script
from .browser_tools import CHROMIUM, CHROMIUM_ARGS, OfflineGate, serving
from .conftest import need

in_chromium = pytest.mark.browser
PYODIDE_CDN = lite_script.PYODIDE_CDN
#: What the chapters' figures load from the Pyodide CDN when online.
CDN_PACKAGES = ("matplotlib", "numpy")

ROOT = Path(__file__).resolve().parents[1]
WAIT_MS = 180_000
#: The longest a chapter's Run All may take (a busy machine's WebAssembly can take minutes for chapter 7).
RUN_ALL_MS = 900_000
CHAPTER = "02-solving-with-sat.ipynb"
#: The chapters run with Run All on their own (chapter 2 and the playground are run in the tests above them).
RUN_ALL_CHAPTERS = ("01-rules-to-clauses.ipynb", "03-the-ilp-model.ipynb", "04-encodings-compared.ipynb",
                    "07-inside-the-solvers.ipynb")
#: Of those, the ones whose Run All is in the deep profile (CI runs it): all of them, and the playground's
#: Run All; make test keeps chapter 2's Run All below (a whole chapter, its figures offline, a solve and a
#: count checked) and the kernel's one-line notices, tested here without a browser.
DEEP_CHAPTERS = RUN_ALL_CHAPTERS
#: The one-line notices of the kit in the site's kernel: what the browser lacks and how to get it.
NOTICE_MARKS = ("not in the browser", "cannot run in a browser", "cannot run in the browser",
                "the browser edition does not ship",
                "Pyodide CDN", "which the browser could not make")
#: How a notice ends when its cell stopped there (what the browser lacks was needed by what follows).
STOPPED = "(the rest of this cell did not run)"

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


#: Waits until the open notebook's kernel has started and answered (Pyodide and the kit loaded).
KERNEL_READY = """async () => {
  const panel = window.jupyterapp.shell.currentWidget;
  await panel.context.ready;
  await panel.sessionContext.ready;
  await panel.sessionContext.session.kernel.info;
}"""

#: Runs the open notebook as a reader does: once its kernel has started, the command of the Run menu's "Run
#: All Cells"; its promise settles when the run has ended (at the last cell, or at the first that failed).
#: Returns what the command answered (or that it had not finished in ``ms``) and each cell's type, execution
#: count and outputs.
RUN_ALL = """async (ms) => {
  const app = window.jupyterapp, panel = app.shell.currentWidget;
  const late = new Promise(resolve => setTimeout(() => resolve("not finished after " + ms / 1000 + " s"), ms));
  const ok = await Promise.race([app.commands.execute("notebook:run-all-cells"), late]);
  return {ok, cells: panel.content.widgets.map(cell => ({
    type: cell.model.type,
    count: cell.model.type === "code" ? cell.model.executionCount : null,
    outputs: cell.model.type === "code" ? cell.model.outputs.toJSON() : []}))};
}"""


def _text(output: dict[str, object]) -> str:
    """The text an output shows (a stream's, or a result's plain text)."""
    if output.get("output_type") == "stream":
        text = output.get("text", "")
    else:
        text = (output.get("data") or {}).get("text/plain", "")  # type: ignore[union-attr]
    return "".join(text) if isinstance(text, list) else str(text)


def _failure(outputs: list[dict[str, object]]) -> str:
    """What a failed cell printed and where it failed: its text outputs and the last lines of its traceback
    (ANSI colours removed), so that a failure in the browser names the line that failed."""
    printed = "".join(_text(o) for o in outputs if o.get("output_type") != "error")
    trace = [str(line) for o in outputs if o.get("output_type") == "error" for line in o.get("traceback") or []]
    plain = re.sub(r"\x1b\[[0-9;]*m", "", "\n".join(trace)).splitlines()
    return printed[-1500:] + "\n".join(plain[-12:])


def _reason(notice: str) -> str:
    """What a notice says the browser lacks, in a few words (for the summary)."""
    if "not in the browser: " in notice:
        return notice.split("not in the browser: ", 1)[1].split(",")[0].split(";")[0].split(" (")[0]
    if " needs " in notice:
        return notice.split(" needs ", 1)[1].split(",")[0]
    return notice.split(": ")[0]


def run_all(page: object, chapter: str, site: Path) -> tuple[dict[int, list[str]], float, int]:
    """Run ``chapter`` (open in ``page``, from the site built in ``site``) with Run All and check that it ran to the end, as the module
    docstring says, against the chapter as the site ships it; returns the notices by code cell, the seconds Run All took and the number of code
    cells."""
    start = time.perf_counter()
    answer = page.evaluate(RUN_ALL, RUN_ALL_MS)  # type: ignore[attr-defined]
    seconds = time.perf_counter() - start
    shipped = site / "files" / chapter  # the chapter as the site ships it
    stored = [c for c in json.loads(shipped.read_text())["cells"] if c["cell_type"] == "code"]
    cells = [c for c in answer["cells"] if c["type"] == "code"]
    assert len(cells) == len(stored), f"{chapter}: the page shows {len(cells)} code cells, the chapter has {len(stored)}"
    errors = {k: f"{o.get('ename')}: {o.get('evalue')}\n{_failure(c['outputs'])}" for k, c in enumerate(cells)
              for o in c["outputs"] if o["output_type"] == "error"}
    assert not errors, f"{chapter}: code cells that show an error after Run All: {errors}"
    counts = [c["count"] for c in cells]
    not_run = [k for k, n in enumerate(counts) if n is None]
    assert not not_run, f"{chapter}: Run All stopped; code cells {not_run} of {len(cells)} did not run"
    # Each code cell ran once, in order, up to the last one, and the command saw no failure.
    assert counts == list(range(counts[0], counts[0] + len(cells))), f"{chapter}: execution counts {counts}"
    assert answer["ok"] is True, f"{chapter}: Run All answered {answer['ok']!r}"

    notices: dict[int, list[str]] = {}
    for k, cell in enumerate(cells):
        said = "".join(_text(o) for o in cell["outputs"] if o.get("name") == "stderr")
        if not said:
            continue
        lines = said.splitlines()
        strays = [line for line in lines if not any(mark in line for mark in NOTICE_MARKS)]
        assert not strays, f"{chapter}: code cell {k} wrote to standard error: {said!r}"
        assert len(set(lines)) == len(lines), f"{chapter}: code cell {k} repeated a notice: {said!r}"
        # A figure that cannot be drawn does not end its cell: the statements after it run.
        assert not [line for line in lines if "figure" in line and line.endswith(STOPPED)], said
        notices[k] = lines
    # The cells that read the chapter's data files (from the site's drive) run through: no notice stopped them.
    reads_data = [k for k, c in enumerate(stored) if 'Path("data")' in "".join(c["source"])]
    stopped = {k for k, lines in notices.items() if any(line.endswith(STOPPED) for line in lines)}
    assert not set(reads_data) & stopped, f"{chapter}: cells {reads_data} read the chapter's data: {notices}"
    assert len(notices) <= len(cells) // 2, f"{chapter}: {len(notices)} of {len(cells)} code cells said: {notices}"

    # The last code cell did what it does on the desktop: its pinned output, when it has one, is the stored one.
    last, pinned = cells[-1], stored[-1]
    assert len(cells) - 1 not in notices, f"{chapter}: the last code cell said {notices[len(cells) - 1]}"
    if "nbval-check-output" in pinned["metadata"].get("tags", []):
        shown = "".join(_text(o) for o in last["outputs"] if o.get("name") != "stderr")
        expected = "".join(_text(o) for o in pinned["outputs"] if o.get("name") != "stderr")
        assert expected and shown == expected, f"{chapter}: the last code cell showed {shown!r}, not {expected!r}"
    else:
        assert last["outputs"], f"{chapter}: the last code cell showed nothing"
    return notices, seconds, len(cells)


def _summary(chapter: str, notices: dict[int, list[str]], cells: int, seconds: float, opened: float) -> str:
    reasons = Counter(_reason(line) for lines in notices.values() for line in lines)
    said = ", ".join(f"{why}: {count}" for why, count in sorted(reasons.items())) or "nothing"
    lines = sorted({line for lines in notices.values() for line in lines})
    return (f"{chapter}: Run All ran {cells} of {cells} code cells, {len(notices)} said in one line what the "
            f"browser lacks ({said}); Run All {seconds:.1f} s, after {opened:.1f} s to open the page and start its "
            "kernel (this machine)"
            + "".join(f"\n    {line}" for line in lines))


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    need(importable("playwright"), "playwright (pip install playwright)")
    need(Path(CHROMIUM).exists(), f"chromium at {CHROMIUM} (Debian: apt-get install chromium)")
    need(importable("jupyterlite_core") and importable("jupyterlite_pyodide_kernel"),
         "JupyterLite (pip install 'nqueens-kit[lite]')")
    need(shutil.which("npm") is not None, "npm (Debian: apt-get install npm), for Pyodide and HiGHS")
    out = tmp_path_factory.mktemp("lite") / "lite"
    built = lite_script.build_lite(out, cache=ROOT / "build" / "lite-cache")
    print(f"\nsite: {built['files']} files, {int(built['bytes']) / 1e6:.1f} MB, built in {built['seconds']} s")
    return built


@pytest.fixture(scope="module")
def server(site: dict[str, object]) -> Iterator[str]:
    with serving(str(site["output"])) as address:
        yield address


class Browser:
    """One Chromium context: every request recorded, every host but the local server refused."""

    def __init__(self, chromium: object, base: str, folder: Path) -> None:
        self.base, self.folder = base, folder
        self.gate = OfflineGate(base)
        self.requests, self.refused = self.gate.requests, self.gate.refused
        self.chromium = chromium
        self.contexts: list[object] = []

    def open(self, notebook: str) -> object:
        """A page with ``notebook`` open and its Pyodide kernel started (the kit loaded)."""
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
        page.evaluate(KERNEL_READY)
        return page


@pytest.fixture(scope="module")
def browser(site: dict[str, object], server: str) -> Iterator[Browser]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        browser = Browser(chromium, server, Path(str(site["output"])))
        try:
            yield browser
        finally:
            for context in browser.contexts:
                context.close()  # type: ignore[attr-defined]
            chromium.close()


def _run(page: object, code: str) -> tuple[str, str, str]:
    out, ename, evalue = page.evaluate(EXECUTE, code)  # type: ignore[attr-defined]
    return out, ename, evalue


@in_chromium
def test_a_chapter_runs_all_solves_counts_and_stays_offline(site: dict[str, object], browser: Browser) -> None:
    start = time.perf_counter()
    page = browser.open(CHAPTER)
    opened = time.perf_counter() - start
    out, ename, evalue = _run(page, "from nqueens_kit import solve\nprint(solve(8, method='sat').queens)")
    first_result = time.perf_counter() - start
    assert not ename, f"{ename}: {evalue}"
    assert verify(8, [tuple(q) for q in json.loads(out.replace("(", "[").replace(")", "]"))])

    notices, seconds, cells = run_all(page, CHAPTER, browser.folder)
    figures = [k for k, lines in notices.items() if any("needs matplotlib" in line for line in lines)]
    assert figures, f"no figure of {CHAPTER} said it needs matplotlib: {notices}"
    assert all("this page is offline" in line for k in figures for line in notices[k])

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
    # kernel's attempts to load the figures' packages from the Pyodide CDN (what it does online).
    allowed = _cdn_files(Path(str(site["output"])), CDN_PACKAGES)
    strays = [url for url in browser.refused if not (url.startswith(PYODIDE_CDN) and url[len(PYODIDE_CDN):] in allowed)]
    assert strays == [], f"requests that tried to leave the machine: {strays[:5]}"
    assert all(url.startswith(browser.base) or url.startswith(("data:", "blob:")) or url in browser.refused
               for url in browser.requests)
    print(f"\nrequests: {len(browser.requests)}, refused: {len(browser.refused)} (Pyodide CDN packages for figures)")
    print(_summary(CHAPTER, notices, cells, seconds, opened))
    print(f"time to first result (page open to a verified 8-queens board): {first_result:.1f} s; "
          f"SAT {answer['sat_seconds'] * 1000:.0f} ms, ILP {answer['ilp_seconds']:.2f} s, count 8 -> 92; "
          f"first result / build = {first_result / float(site['seconds']):.2f}; "
          f"ILP / SAT = {answer['ilp_seconds'] / max(answer['sat_seconds'], 1e-6):.0f}x; checks took "
          f"{check_seconds:.1f} s; site {int(site['bytes']) / 1e6:.1f} MB in {site['files']} files")
    page.close()  # type: ignore[attr-defined]


@in_chromium
@pytest.mark.deep  # the playground's apps are tested in a browser by make test too (tests/test_app_browser.py)
def test_the_playground_runs_all_and_its_slider_redraws_the_board_offline(browser: Browser, tmp_path: Path) -> None:
    start = time.perf_counter()
    chapter = "06-playground.ipynb"
    page = browser.open(chapter)
    opened = time.perf_counter() - start
    notices, seconds, cells = run_all(page, chapter, browser.folder)
    print("\n" + _summary(chapter, notices, cells, seconds, opened))
    explorer = page.locator(".nqk-board-explorer")  # type: ignore[attr-defined]
    board = explorer.locator("svg.nqk-board")
    try:
        board.wait_for()
    finally:
        page.screenshot(path=str(tmp_path / "lite-playground.png"))  # type: ignore[attr-defined]
        print(f"screenshot: {tmp_path / 'lite-playground.png'}")
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


@in_chromium
@pytest.mark.parametrize("chapter", [pytest.param(c, marks=pytest.mark.deep) if c in DEEP_CHAPTERS else c
                                     for c in RUN_ALL_CHAPTERS])
def test_run_all_runs_a_chapter_to_the_end(chapter: str, browser: Browser) -> None:
    """Run All reaches the chapter's end.  A chapter that fails is opened again and run once more on a fresh
    kernel: a failure that does not come back is reported as a warning with the cell, its output and its
    traceback (seen once, in a cell whose counts are the same on every run, on a loaded 2-core machine);
    one that comes back fails the test."""
    start = time.perf_counter()
    page = browser.open(chapter)
    opened = time.perf_counter() - start
    try:
        notices, seconds, cells = run_all(page, chapter, browser.folder)
    except AssertionError as first:
        page.close()  # type: ignore[attr-defined]
        page = browser.open(chapter)
        notices, seconds, cells = run_all(page, chapter, browser.folder)
        warnings.warn(f"{chapter} failed once in the browser and ran to the end when run again: {first}",
                      stacklevel=1)
    assert all(url.startswith(PYODIDE_CDN) for url in browser.refused), browser.refused[:5]
    print("\n" + _summary(chapter, notices, cells, seconds, opened))
    page.close()  # type: ignore[attr-defined]


# -- the kernel's side, on an IPython shell (no browser) ---------------------------------------------------

@pytest.fixture
def shell() -> Iterator[object]:
    """An IPython shell that handles what the browser lacks as the site's kernel does."""
    from IPython.core.interactiveshell import InteractiveShell

    from nqueens_kit.runtime.browser import FiguresCarryOn, handle_refusals

    ip = InteractiveShell.instance()
    handle_refusals(ip)
    ip.run_cell("from nqueens_kit.runtime.browser import FigureNeedsPackage, NoFigure\n"
                "from nqueens_kit.errors import SolverNotAvailable\n"
                "class Plt:  # pyplot as the offline page has it: every use says what it needs\n"
                "    def __getattr__(self, name):\n"
                "        def use(*args, **kwargs):\n"
                "            raise FigureNeedsPackage('this figure needs matplotlib (test)')\n"
                "        return use\n"
                "plt = Plt()\n")
    try:
        yield ip
    finally:
        ip.set_custom_exc((), None)
        ip.ast_transformers[:] = [t for t in ip.ast_transformers if not isinstance(t, FiguresCarryOn)]


def test_a_figure_the_page_cannot_draw_says_so_once_and_its_cell_carries_on(shell, capsys) -> None:
    result = shell.run_cell("fig, axes = plt.subplots(1, 3)\n"  # type: ignore[attr-defined]
                            "for ax in axes:\n"
                            "    ax.set_title('never')\n"
                            "for ax, title in zip(axes, 'abc', strict=True):  # fails for want of the axes\n"
                            "    ax.set_title(title)\n"
                            "fig.colorbar(axes[0].images[0], ax=axes[2])\n"
                            "plt.show()\n"
                            "checked = sum(range(5))\n"
                            "print('after the figure', checked, isinstance(fig, NoFigure))\n"
                            "plt.show()\n")
    said = capsys.readouterr()
    assert result.success, result.error_in_exec
    assert said.out == "after the figure 10 True\n"
    assert said.err.splitlines() == ["this figure needs matplotlib (test)"]


def test_what_the_browser_lacks_ends_a_cell_in_one_line_without_an_error(shell, capsys) -> None:
    result = shell.run_cell("x = 1\n"  # type: ignore[attr-defined]
                            "raise SolverNotAvailable('not in the browser: CBC is an executable')\n"
                            "print('not reached')\n")
    said = capsys.readouterr()
    assert result.success and said.out == ""
    assert said.err == "not in the browser: CBC is an executable (the rest of this cell did not run)\n"
    module = shell.run_cell("raise ModuleNotFoundError(\"The module 'numpy' is included in the Pyodide "  # type: ignore[attr-defined]
                            "distribution, but it is not installed.\\nYou can install it by calling ...\")")
    said = capsys.readouterr()
    assert module.success and len(said.err.splitlines()) == 1 and said.err.startswith("this cell needs numpy")


@pytest.mark.parametrize("cell", ["1 / 0", "import no_such_module_here", "assert 1 == 2", "fig = plt.subplots(\n",
                                  "fig = plt.figure()\nwidth = len([1]) / 0\nprint('not' + ' reached')"])
def test_every_other_error_keeps_its_traceback_and_stops_the_run(shell, capsys, cell: str) -> None:
    result = shell.run_cell(cell)  # type: ignore[attr-defined]
    said = capsys.readouterr()
    assert not result.success and "not reached" not in said.out
    shown = re.sub(r"\x1b\[[0-9;]*m", "", said.out + said.err)  # without IPython's colours
    error = result.error_before_exec or result.error_in_exec
    # a traceback, or for a cell that does not parse the error's own name (3.13: _IncompleteInputError)
    assert "Traceback" in shown or (isinstance(error, SyntaxError) and type(error).__name__ in shown), shown
    if "width" in cell:  # after a figure that was skipped: the failing line of the cell, as it was written
        assert "----> 2" in shown, shown


if __name__ == "__main__":  # pragma: no cover
    sys.exit(pytest.main([__file__, "-s", "-p", "no:cacheprovider"]))
