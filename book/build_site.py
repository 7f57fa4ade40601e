"""The course as a book (``make site``): :func:`build_site` executes the chapters and builds the site with
Sphinx, MyST-NB and the Sphinx Book Theme from this folder's configuration.  Build tooling of a checkout, not
part of the installed kit: ``python book/build_site.py [DEST]`` (what ``make site`` runs).
"""

from __future__ import annotations

import os
import re
import shutil
import sys
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from nqueens_kit.course.notebooks import notebook_files, notebooks_folder
from nqueens_kit.errors import InputError

if TYPE_CHECKING:  # nbformat is imported where a chapter is read, so that a missing one is reported as such
    from nbformat import NotebookNode

#: The book's configuration: Sphinx's conf.py, the landing page, the bibliography, the styles.
BOOK_FOLDER = Path(__file__).resolve().parent
#: The build scripts beside it, left out of the Sphinx sources.
BUILD_SCRIPTS = ("build_site.py", "build_lite.py", "build_slides.py")

#: Files the pages load, from pinned npm packages (fetched with ``npm pack``, checked against the registry's
#: integrity hash, unpacked into the site's ``_static``): (package, version, integrity, {member: target}).
#: A member ending in ``/`` copies a folder.  MathJax renders the formulas; RequireJS and the Jupyter
#: widgets' HTML manager draw each widget from the state saved when the chapter ran.
SITE_ASSETS: tuple[tuple[str, str, str, dict[str, str]], ...] = (
    ("mathjax", "3.2.2",
     "sha512-Bt+SSVU8eBG27zChVewOicYs7Xsdt40qm4+UpHyX7k0/O9NliPc+x77k1/FEsPsjKPZGJvtRZM1vO+geW0OhGw==",
     {"package/es5/tex-chtml.js": "mathjax/tex-chtml.js", "package/es5/output/chtml/": "mathjax/output/chtml/",
      "package/es5/input/tex/extensions/": "mathjax/input/tex/extensions/", "package/es5/a11y/": "mathjax/a11y/",
      "package/es5/ui/": "mathjax/ui/", "package/LICENSE": "mathjax/LICENSE"}),
    ("requirejs", "2.3.8",
     "sha512-7/cTSLOdYkNBNJcDMWf+luFvMriVm7eYxp4BcFCsAX0wF421Vyce5SXP17c+Jd5otXKGNehIonFlyQXSowL6Mw==",
     {"package/require.js": "widgets/require.min.js"}),
    ("@jupyter-widgets/html-manager", "1.0.15",
     "sha512-5thBIV6ymNgmPVOHvzx+gGy8ZSKmSazhtGw4/c4xJDVzRhG9PTeQsRjF3FUTopvFi//SABeNz1yp47bCrJ3CQA==",
     {"package/dist/": "widgets/"}),
)
#: Of a folder, only these are served (the HTML manager's dist/ also holds source maps, a non-AMD build and
#: its icon fonts as EOT and SVG, which Chromium, Firefox and Safari never ask for).  Its script names its
#: icon fonts (Font Awesome) by file; :func:`fetch_site_assets` writes each WOFF2 one into it as a data: URL
#: (:func:`inline_script_fonts`), so that the fonts load on a page opened from disk too.
_ASSET_SUFFIXES = (".js", ".woff", ".woff2", ".ttf", ".css", "LICENSE")
_ASSET_SKIP = ("package/dist/embed.js", "package/dist/libembed-amd.js")
#: A font file as a bundled script names it: webpack's public path (the folder the script was loaded from)
#: and the file's hashed name.
_SCRIPT_FONT = re.compile(rb'\b[A-Za-z_$][\w$]*\.p\+"([0-9a-f]{8,}\.woff2)"')
#: A font as a stylesheet names it: the WOFF2 file, then (optionally) its TrueType fallback.
_CSS_FONT = re.compile(r'url\(([^)"\']+\.woff2)\)\s*format\("woff2"\)(?:\s*,\s*url\([^)]+\)\s*format\("truetype"\))?')
#: The theme's preloads of its icon fonts in every page's head.
_FONT_PRELOAD = re.compile(rb'\n?[ \t]*<link rel="preload" as="font"[^>]*>')

#: Appended to each chapter before it runs (and removed after): wait for every app's background job, then
#: send every widget's state, so that the saved state is the app's first view as a reader sees it once the
#: page has settled, not the "solving ..." of the moment the cell returned.
_SETTLE_CELL = """\
def _nqk_site_settle(timeout):
    import gc
    import threading
    try:
        from nqueens_kit.apps.common import Job
    except ImportError:
        Job = None
    jobs = []
    for obj in gc.get_objects() if Job is not None else ():
        try:
            if isinstance(obj, Job):
                jobs.append(obj)
        except ReferenceError:  # a dead weak proxy
            pass
    for job in jobs:
        job.wait(timeout)
    for thread in threading.enumerate():  # a job's drawing of its answer runs after its wait() returns
        if getattr(getattr(thread, "_target", None), "__qualname__", "") == "Job._run":
            thread.join(timeout)
    try:
        from ipywidgets.widgets.widget import _instances
    except ImportError:
        return
    for widget in list(_instances.values()):  # not an output widget's msg_id: nbclient fails on an empty one
        widget.send_state(key=[key for key in widget.keys if key != "msg_id"])
_nqk_site_settle(%d)
del _nqk_site_settle
"""


def _hash_files(paths: list[Path], extra: str = "") -> str:
    import hashlib

    digest = hashlib.sha256(extra.encode())
    for path in paths:
        digest.update(str(path.name).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def _write_if_changed(path: Path, data: bytes) -> None:
    """Write ``data`` unless the file holds it already (Sphinx rebuilds only the pages whose source changed)."""
    if path.is_file() and path.read_bytes() == data:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


def _data_url(font: bytes) -> str:
    import base64

    return "data:font/woff2;base64," + base64.b64encode(font).decode("ascii")


def inline_script_fonts(script: bytes, fonts: dict[str, bytes]) -> bytes:
    """A bundled script with every WOFF2 font of ``fonts`` (file name: its bytes) that it names by file (as
    webpack's public path + name) given as a data: URL instead.  A page opened from disk (``file://``) is
    refused font files (a browser fetches fonts as cross-origin requests, which ``file://`` has none of);
    a data: URL is no request at all.

    >>> inline_script_fonts(b'e.exports=n.p+"0a1b2c3d4e.woff2"', {"0a1b2c3d4e.woff2": b"wOF2"})
    b'e.exports="data:font/woff2;base64,d09GMg=="'
    """
    def inline(found: re.Match[bytes]) -> bytes:
        name = found.group(1).decode()
        return b'"' + _data_url(fonts[name]).encode() + b'"' if name in fonts else found.group(0)

    return _SCRIPT_FONT.sub(inline, script)


def inline_stylesheet_fonts(css: str, folder: Path, families: tuple[str, ...] = ()) -> str:
    """A stylesheet (whose relative URLs start at ``folder``) with the WOFF2 font of each ``@font-face`` rule
    given as a data: URL and its TrueType fallback dropped (every browser that reads data: URLs in
    ``@font-face`` reads WOFF2): see :func:`inline_script_fonts` for why.  With ``families``, only the rules
    of a family whose name starts with one of them (the rest keep their files).  A font of such a rule named
    otherwise is an error, not a font left to fail.

    >>> css = '@font-face{font-family:A 6;src:url(f.woff2) format("woff2"),url(f.ttf) format("truetype")}'
    >>> inline_stylesheet_fonts(css, Path("."), families=("B",)) == css
    True
    """
    def font_face(rule: re.Match[str]) -> str:
        family = re.search(r"font-family:\s*([^;}]+)", rule.group(0))
        name = family.group(1).replace("\\", "").strip("\"' ") if family else ""
        if families and not name.startswith(families):
            return rule.group(0)
        text = _CSS_FONT.sub(lambda found: f'url({_data_url((folder / found.group(1)).read_bytes())}) format("woff2")',
                             rule.group(0))
        left = re.findall(r"url\((?!data:)[^)]*\)", text)
        if left:
            raise InputError(f"the icon font {name!r} is named in a way that cannot be inlined: {left[:2]}")
        return text

    return re.sub(r"@font-face\s*\{[^}]*\}", font_face, css)


#: The families the theme draws its icons with (its ``--fa-font-solid``, ``-regular`` and ``-brands``); the
#: stylesheet's older names for the same fonts (Font Awesome 5, FontAwesome) keep their files, fetched only
#: by a page that uses them (the widgets bring their own Font Awesome 5, inlined in their script).
THEME_ICON_FAMILIES = ("Font Awesome 6",)


def inline_theme_icon_fonts(static: Path) -> list[Path]:
    """Write into ``static`` (the Sphinx sources' ``_static``, whose files replace the theme's of the same
    name) the theme's Font Awesome stylesheet with the fonts of its icons as data: URLs
    (:func:`inline_stylesheet_fonts`), so that the icons of a page opened from disk draw.  Returns the
    stylesheets written."""
    import pydata_sphinx_theme

    theme_static = Path(pydata_sphinx_theme.__file__).resolve().parent / "theme" / "pydata_sphinx_theme" / "static"
    written = []
    for css in sorted(theme_static.glob("vendor/fontawesome/*/css/*.css")):
        relative = css.relative_to(theme_static)
        text = inline_stylesheet_fonts(css.read_text(encoding="utf-8"), css.parent, THEME_ICON_FAMILIES)
        if "data:font/woff2" not in text:
            raise InputError(f"{relative} names no {THEME_ICON_FAMILIES[0]} font: the pinned theme changed?")
        _write_if_changed(static / relative, text.encode("utf-8"))
        written.append(static / relative)
    if not written:
        raise InputError(f"no Font Awesome stylesheet in the theme's {theme_static}: the pinned theme changed?")
    return written


def without_font_preloads(page: bytes) -> bytes:
    """A page without the theme's ``<link rel="preload" as="font">`` lines: its fonts are in the stylesheet
    (:func:`inline_theme_icon_fonts`), and a preload of a font file fails on a page opened from disk.

    >>> without_font_preloads(b'<head>\\n  <link rel="preload" as="font" crossorigin href="a.woff2" />\\n</head>')
    b'<head>\\n</head>'
    """
    return _FONT_PRELOAD.sub(b"", page)


def fetch_site_assets(target: Path, cache: Path,
                      assets: tuple[tuple[str, str, str, dict[str, str]], ...] = SITE_ASSETS) -> list[str]:
    """Unpack the files of ``assets`` (default :data:`SITE_ASSETS`) into ``target`` (the site's ``_static``),
    fetching each package once into ``cache`` with ``npm pack`` and checking its integrity.  Returns
    ``name@version`` of each."""
    import base64
    import hashlib
    import json
    import subprocess
    import tarfile

    cache.mkdir(parents=True, exist_ok=True)
    done = []
    for name, version, integrity, members in assets:
        spec = f"{name}@{version}"
        tarball = cache / (name.lstrip("@").replace("/", "-") + f"-{version}.tgz")
        if not tarball.is_file():
            npm = shutil.which("npm")
            if npm is None:
                raise InputError(f"the site serves files from the npm package {spec}, and npm is not installed "
                                 "(Debian: apt-get install npm; or nodejs.org)")
            proc = subprocess.run([npm, "pack", spec, "--json", "--prefer-offline", "--pack-destination", str(cache)],
                                  capture_output=True, text=True, timeout=600)
            if proc.returncode != 0:
                raise InputError(f"npm pack {spec} failed: {proc.stderr.strip().splitlines()[-1:] or proc.returncode}")
            tarball = cache / json.loads(proc.stdout)[0]["filename"]
        data = tarball.read_bytes()
        algorithm, expected = integrity.split("-", 1)
        if base64.b64encode(hashlib.new(algorithm, data).digest()).decode() != expected:
            tarball.unlink()
            raise InputError(f"{tarball.name} does not match the integrity pinned for {spec}; removed, try again")
        files: dict[str, bytes] = {}
        with tarfile.open(tarball) as archive:
            for member in archive.getmembers():
                if not member.isfile() or member.name in _ASSET_SKIP:
                    continue
                for source, dest in members.items():
                    if member.name == source:
                        relative = dest
                    elif source.endswith("/") and member.name.startswith(source) and member.name.endswith(
                            _ASSET_SUFFIXES):
                        relative = dest + member.name[len(source):]
                    else:
                        continue
                    extracted = archive.extractfile(member)
                    assert extracted is not None
                    files[relative] = extracted.read()
        for relative, data in files.items():
            if relative.endswith(".js"):  # its fonts, from the folder beside it, as data: URLs
                folder = relative.rpartition("/")[0]
                fonts = {name.rpartition("/")[2]: font for name, font in files.items()
                         if name.endswith(".woff2") and name.rpartition("/")[0] == folder}
                data = inline_script_fonts(data, fonts)
            _write_if_changed(target / relative, data)
        done.append(spec)
    return done


def _chapter_title(nb: NotebookNode, fallback: str) -> tuple[str, str]:
    """The chapter's ``# `` title and the first sentences of its opening paragraph, notes set apart as quotes
    skipped (for the landing page)."""
    for cell in nb.cells:
        if cell.cell_type != "markdown":
            continue
        lines = cell.source.splitlines()
        for i, line in enumerate(lines):
            if line.startswith("# "):
                paragraph: list[str] = []
                for rest in lines[i + 1:]:
                    if not rest.strip():
                        if paragraph:
                            break
                        continue
                    if rest.lstrip().startswith(">") and not paragraph:
                        continue  # a note set apart (the browser edition's): the opening paragraph follows it
                    paragraph.append(rest.strip())
                text = " ".join(paragraph)
                sentences, blurb = re.split(r"(?<=[.!?])\s+", text), ""
                for sentence in sentences:  # whole sentences, about two lines' worth, never inside a formula
                    if blurb and len(blurb) > 160 and blurb.count("$") % 2 == 0:
                        break
                    blurb = f"{blurb} {sentence}".strip()
                return line[2:].strip(), blurb
    return fallback, ""


#: Where the browser edition is, from a page of the site: ``make site`` and ``make lite`` build ``build/site`` and
#: ``build/lite`` side by side, to be published so; ``NQUEENS_KIT_LITE_URL`` names another address.
LITE_URL = "../lite/"
#: A chapter's note on what differs in the browser edition: a quote opening with these words.
_BROWSER_NOTE = re.compile(r"^> \*\*In the browser\*\*[^\n]*(?:\n>[^\n]*)*", re.M)
#: The MIME type of a widget's view in a cell's outputs.
_WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
#: Said beside every app on a page: what the site shows of it.
STATIC_WIDGETS = ("The app below is a picture of its first view, saved when this site was built: its controls do "
                  "not answer here. To use it, run this chapter: the launch menu at the top of the page opens it "
                  "in Colab, on Binder or in the browser edition, and the download menu gives the notebook.")
#: The same, for a chapter the browser edition does not run.
STATIC_WIDGETS_DESKTOP = STATIC_WIDGETS.replace("in Colab, on Binder or in the browser edition",
                                                "in Colab or on Binder")


def lite_chapters() -> tuple[str, ...]:
    """The chapters the browser edition runs (``build_lite.CHAPTERS``, read from the script beside this one)."""
    import importlib.util

    module = sys.modules.get("build_lite")
    if module is None:
        spec = importlib.util.spec_from_file_location("build_lite", BOOK_FOLDER / "build_lite.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules["build_lite"] = module
        spec.loader.exec_module(module)
    return tuple(module.CHAPTERS)


def site_page(nb: NotebookNode, in_lite: bool) -> NotebookNode:
    """A chapter as the site shows it: the chapter's note on the browser edition moved from its opening to
    its end (the opening is teaching, as on the landing page); a line before every app saying that it is a
    picture.  (Opening the chapter elsewhere and downloading it are the theme's menus: ``conf.py``.)"""
    import nbformat

    note = ""
    for cell in nb.cells:
        if cell.cell_type != "markdown" or not cell.source.lstrip().startswith("# "):
            continue
        found = _BROWSER_NOTE.search(cell.source)
        if found:
            note = found.group(0)
            cell.source = re.sub(r"\n{3,}", "\n\n", cell.source[:found.start()] + cell.source[found.end():])
        break
    cells = []
    for cell in nb.cells:
        if cell.cell_type == "code" and any(_WIDGET_VIEW in out.get("data", {}) for out in cell.get("outputs", [])):
            said = STATIC_WIDGETS if in_lite else STATIC_WIDGETS_DESKTOP
            cells.append(nbformat.v4.new_markdown_cell(f'<p class="nqk-static-note">{said}</p>'))
        cells.append(cell)
    nb.cells = cells
    if note:
        text = "\n".join(line[1:].lstrip() if line.startswith(">") else line for line in note.splitlines())
        text = text.replace("**In the browser**", "", 1).strip()
        text = re.sub(r"^\((.*?)\):\s*", r"What differs there (\1): ", text)  # the title says "in the browser"
        nb.cells.append(nbformat.v4.new_markdown_cell(
            f":::{{admonition}} In the browser edition\n:class: note nqk-browser-note\n{text}\n:::\n"))
    return nb


def book_source(path: Path, notebooks: Path | None = None) -> bytes:
    """A file of the book folder as Sphinx gets it: a page that holds the place of the chapters' stored
    running times (the guide for lecturers) with the table filled in from ``notebooks``' ``data/``
    (:func:`nqueens_kit.course.syllabus.fill_times`), so the page shows the figures the build has; any other
    file as it is."""
    from nqueens_kit.course.syllabus import TIMES_BEGIN, fill_times

    data = path.read_bytes()
    if path.suffix == ".md" and TIMES_BEGIN.encode() in data:
        return fill_times(data.decode("utf-8"), notebooks).encode("utf-8")
    return data


def _works_by_chapter(bib: Path) -> dict[str, list[str]]:
    """``{"ch01": [keys], ...}`` from the ``keywords`` of the entries of ``references.bib``."""
    found: dict[str, list[str]] = {}
    for match in re.finditer(r"@\w+\{([^,\s]+),(.*?)\n\}", bib.read_text(encoding="utf-8"), re.S):
        keywords = re.search(r"keywords\s*=\s*\{([^}]*)\}", match.group(2))
        for chapter in (keywords.group(1).split() if keywords else []):
            found.setdefault(chapter, []).append(match.group(1))
    return found


def _works_cell(chapter: str) -> str:
    return (f"### The works above, with links\n\n"
            f"Each work this chapter cites, with its DOI where it has one; the {{doc}}`bibliography <references>` "
            f"lists the works of the whole course.\n\n"
            f"```{{bibliography}}\n:filter: keywords % \"{chapter}\"\n:list: bullet\n:keyprefix: {chapter}-\n```\n")


def execute_chapter(source: Path, run_folder: Path, timeout: int, kernel_log: Path | None = None) -> NotebookNode:
    """Run one chapter on a fresh kernel in ``run_folder`` (a copy of the notebooks folder) and return it
    executed, with the final state of every widget in its metadata.  What the kernel process itself prints
    (not the cells' outputs: a solver's banner, the kernel's warnings) goes to ``kernel_log``."""
    import nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    nb = nbformat.read(source, as_version=4)
    nb.cells.append(nbformat.v4.new_code_cell(_SETTLE_CELL % timeout))
    # The figures are drawn inline even where the caller's environment says MPLBACKEND=Agg.
    env = dict(os.environ, MPLBACKEND="module://matplotlib_inline.backend_inline")
    client = NotebookClient(nb, timeout=timeout, kernel_name="python3", store_widget_state=True,
                            resources={"metadata": {"path": str(run_folder)}})
    try:
        with open(kernel_log or os.devnull, "w", encoding="utf-8") as log:
            client.execute(env=env, stdout=log, stderr=log)
    except CellExecutionError as exc:
        text = re.sub(r"\x1b\[[0-9;]*m", "", str(exc)).strip()
        cell = re.search(r"^-{10,}\n(.*)$", text, re.M)  # the failing cell's source follows a dashed line
        where = f" (in the cell that starts {cell.group(1).strip()!r})" if cell else ""
        raise InputError(f"{source.name} failed while building the site: {text.splitlines()[-1]}{where}") from exc
    nb.cells.pop()
    return nb


def execute_chapters(names: list[str], executed: Path, timeout: int = 900, log: TextIO | None = None,
                     tool: str = "site") -> list[Path]:
    """Execute the chapters ``names`` (file names in the notebooks folder) in order, each on a fresh kernel
    (:func:`execute_chapter`), into the folder ``executed``, where each is kept with a key: a chapter runs again
    only when it, its data, the kit, ``CI`` or the timeout changed.  One line per chapter goes to ``log``
    (default stderr), prefixed with ``tool``.  Returns the executed chapters' paths.

    Not MyST-NB's cache (``nb_execution_mode = "cache"``, jupyter-cache): its key is the notebook's code
    cells alone, so a change to the kit or to a data file would not run a chapter again, and its executor
    neither waits for the apps' jobs nor saves every widget's state (``_SETTLE_CELL``)."""
    import tempfile
    import time

    import nbformat

    import nqueens_kit

    out = log if log is not None else sys.stderr
    source = notebooks_folder()
    executed.mkdir(parents=True, exist_ok=True)
    package = Path(nqueens_kit.__file__).resolve().parent
    kit_files = sorted(p for p in package.rglob("*") if p.is_file() and p.suffix in (".py", ".json"))
    data_files = [source / f for f in notebook_files(source) if f.parts[0] == "data"]
    tooling = [Path(__file__).resolve()]  # this script: how a chapter runs (the settle cell) is part of the key
    settings = f"{nqueens_kit.__version__} CI={bool(os.environ.get('CI'))} {sys.version_info[:2]} {timeout}"
    common = _hash_files(kit_files + data_files + tooling, settings)
    with tempfile.TemporaryDirectory(prefix=f"nqueens-kit-{tool}-") as run:
        for relative in notebook_files(source):  # run in a copy, so the data folder is where the chapters look
            (Path(run) / relative).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source / relative, Path(run) / relative)
        for position, name in enumerate(names, 1):
            key = _hash_files([source / name], common)
            stored, stamp = executed / name, executed / (name + ".key")
            if stored.is_file() and stamp.is_file() and stamp.read_text() == key:
                print(f"{tool}: {name} unchanged, not run again ({position} of {len(names)})", file=out, flush=True)
                continue
            print(f"{tool}: running {name} ({position} of {len(names)}) ...", file=out, flush=True)
            started = time.monotonic()
            nb = execute_chapter(Path(run) / name, Path(run), timeout, kernel_log=executed / (name + ".log"))
            nbformat.write(nb, stored)
            stamp.write_text(key)
            print(f"{tool}: ran {name} in {time.monotonic() - started:.1f} s ({position} of {len(names)})", file=out,
                  flush=True)
    return [executed / name for name in names]


def build_site(dest: str | os.PathLike[str], chapters: list[str] | None = None, timeout: int = 900,
               work: str | os.PathLike[str] | None = None, book: str | os.PathLike[str] | None = None,
               log: TextIO | None = None) -> list[Path]:
    """Build the course as a book into ``dest`` (``make site``): every chapter executed on a fresh kernel and
    rendered by Sphinx with MyST-NB and the Sphinx Book Theme: a styled landing page, a table of contents,
    previous/next links, offline search, formulas by a bundled MathJax, each widget's first view from its
    saved state, the chapters' works with DOIs from ``book/references.bib``, and on each chapter a launch
    menu (Colab, Binder, the browser edition where it runs there) and a download menu (the notebook as
    stored).  Nothing on the pages is fetched from another host.  The stored notebooks keep no figures;
    this is the version for reading.

    ``chapters`` picks notebooks by file name (default: every ``NN-*.ipynb`` in the notebooks folder).
    ``work`` keeps the executed chapters, the Sphinx sources and output and the npm packages between builds
    (default: ``dest`` + ``-work`` beside it): a chapter runs again only when it, its data or the kit changed.
    ``dest`` ends up holding exactly the site (a folder holding anything but a site is refused).
    ``log`` (a file, default stderr) gets one line per step.  Returns the chapters' pages and, last,
    ``index.html``."""
    import subprocess
    import time

    import nbformat

    import nqueens_kit

    out = log if log is not None else sys.stderr
    source = notebooks_folder()
    available = [p.name for p in sorted(source.glob("[0-9][0-9]-*.ipynb"))]
    names = chapters or available
    unknown = [name for name in names if not (source / name).is_file()]
    if unknown:
        raise InputError(f"no chapter {unknown[0]!r} in {source}; chapters: {', '.join(available)}")
    book_folder = Path(book) if book is not None else BOOK_FOLDER
    if not (book_folder / "conf.py").is_file():
        raise InputError(f"no book configuration at {book_folder} (the site is built from a checkout of nqueens-kit)")
    try:
        import myst_nb  # noqa: F401
        import sphinx  # noqa: F401
        import sphinxcontrib.bibtex  # noqa: F401
    except ImportError as exc:
        raise InputError(f"building the site needs {exc.name}: pip install 'nqueens-kit[site]' "
                         "(make site installs it)") from None
    target = Path(dest).resolve()
    if target.is_dir() and any(target.iterdir()) and not (target / "index.html").is_file():
        raise InputError(f"{target} holds files and no site (no index.html); give an empty or new folder")
    work_folder = Path(work).resolve() if work is not None else target.with_name(target.name + "-work")
    src, executed = work_folder / "src", work_folder / "executed"
    for folder in (src, executed, target):
        folder.mkdir(parents=True, exist_ok=True)

    # 1. Execute the chapters that changed (or whose data or kit changed) since the last build, in order.
    execute_chapters(names, executed, timeout, out)

    # 2. The Sphinx sources: the book folder, the executed chapters with their works, the landing page.
    for path in sorted(book_folder.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts and path.name not in ("index.md", *BUILD_SCRIPTS):
            _write_if_changed(src / path.relative_to(book_folder), book_source(path, source))
    works = _works_by_chapter(book_folder / "references.bib")
    cards, toc = [], []
    in_lite, lite_url = lite_chapters(), os.environ.get("NQUEENS_KIT_LITE_URL", LITE_URL)
    for name in names:
        nb = nbformat.read(executed / name, as_version=4)
        chapter = "ch" + name[:2]
        if works.get(chapter):
            nb.cells.append(nbformat.v4.new_markdown_cell(_works_cell(chapter)))
        title, blurb = _chapter_title(nb, Path(name).stem)  # the card: the chapter's first paragraph of teaching
        nb = site_page(nb, Path(name).stem in in_lite)
        _write_if_changed(src / name, nbformat.writes(nb).encode())
        number, _, rest = title.partition(". ")
        label = f'<span class="nqk-number">{number}</span>' if number.isdigit() and rest else ""
        link = f"{label}**[{rest if label else title}]({name})**"
        cards.append(f'<div class="nqk-card">\n\n{link}\n\n{blurb}\n\n</div>\n')
        toc.append(Path(name).stem)
    for stale in set(src.glob("[0-9][0-9]-*.ipynb")) - {src / name for name in names}:
        stale.unlink()
    shutil.rmtree(src / "_extra", ignore_errors=True)  # where earlier builds kept the notebooks to download
    index = (book_folder / "index.md").read_text(encoding="utf-8").replace(
        "<!-- chapters -->", '<div class="nqk-chapters">\n\n' + "\n".join(cards) + "\n</div>\n")
    index += ("\n```{toctree}\n:hidden:\n:caption: Chapters\n\n" + "\n".join(toc) + "\n```\n"
              "\n```{toctree}\n:hidden:\n:caption: Back matter\n\nreferences\n```\n")
    _write_if_changed(src / "index.md", index.encode())
    fetch_site_assets(src / "_static", work_folder / "npm")
    inline_theme_icon_fonts(src / "_static")

    # 3. Sphinx renders into the work folder (it rereads only the sources that changed; MyST-NB keeps its
    #    copies of the figures beside it), and the site is mirrored into dest.
    print(f"site: rendering {len(names)} chapters with Sphinx ...", file=out, flush=True)
    started = time.monotonic()
    env = dict(os.environ, NQUEENS_KIT_VERSION=nqueens_kit.__version__, NQUEENS_KIT_CHECKOUT=str(book_folder.parent))
    html = work_folder / "html"
    lite_pages = " ".join(Path(name).stem for name in names if Path(name).stem in in_lite)
    proc = subprocess.run([sys.executable, "-m", "sphinx", "-b", "html", "-q", "-d", str(work_folder / "doctrees"),
                           "-A", f"nqk_lite_pages={lite_pages}", "-A", f"nqk_lite_url={lite_url}",
                           str(src), str(html)], capture_output=True, text=True, env=env, timeout=1800)
    if proc.stderr.strip():
        print(proc.stderr.strip(), file=out)
    if proc.returncode != 0:
        raise InputError(f"sphinx-build failed ({proc.returncode}): {proc.stderr.strip().splitlines()[-1:]}")
    # The download menu's notebook is the chapter as stored (no outputs), not the executed page's source.
    _mirror(html, target, {Path("_sources", name): (source / name).read_bytes() for name in names})
    print(f"site: rendered by Sphinx in {time.monotonic() - started:.1f} s into {target}", file=out)
    return [target / (Path(name).stem + ".html") for name in names] + [target / "index.html"]


def _mirror(source: Path, target: Path, replaced: dict[Path, bytes] | None = None) -> None:
    """Make ``target`` hold exactly the files of ``source`` (copying only what changed), its pages without the
    theme's font preloads (:func:`without_font_preloads`), and the files of ``replaced`` (relative path: the
    contents that ``target`` gets instead) replaced."""
    wanted = {p.relative_to(source) for p in source.rglob("*") if p.is_file()}
    for relative in sorted(wanted):
        data = (replaced or {}).get(relative) or (source / relative).read_bytes()
        if relative.suffix == ".html":
            data = without_font_preloads(data)
        _write_if_changed(target / relative, data)
    for path in sorted(target.rglob("*"), reverse=True):  # files before the folders that held them
        relative = path.relative_to(target)
        if path.is_file() and relative not in wanted:
            path.unlink()
        elif path.is_dir() and not any(path.iterdir()):
            path.rmdir()


def main() -> int:
    """``python book/build_site.py [DEST]`` (what ``make site`` runs): prints the landing page's path."""
    try:
        pages = build_site(sys.argv[1] if len(sys.argv) > 1 else "build/site")
    except InputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(pages[-1])
    return 0


if __name__ == "__main__":
    sys.exit(main())
