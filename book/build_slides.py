"""Slides for the lecture hall (``make slides``): each chapter as a reveal.js deck in ``build/slides/``.  Build
tooling of a checkout, not part of the installed kit: ``python book/build_slides.py [DEST] [CHAPTER ...]``.

A deck is what ``jupyter nbconvert --to slides`` makes of a chapter (nbconvert's ``SlidesExporter``), after
the chapter is executed on a fresh kernel as the site executes it (``build_site.execute_chapters``: the
stored notebooks keep no figures, so the decks carry the figures and each app's first view, drawn from the
state saved when the chapter ran).  Each cell's ``slideshow.slide_type`` (set in the notebook; JupyterLab's
property inspector edits it) says where it goes: ``slide`` and ``subslide`` start one (each section heading
starts a slide), a cell without one continues the slide above, ``notes`` is the speaker's view (key ``S``),
``skip`` (the install cell, the exercises' code) is left out.

Nothing is fetched from another host, so a deck runs in a lecture hall with no network: reveal.js, RequireJS,
jQuery, MathJax 2 (the version nbconvert's reveal template drives) and the widgets' HTML manager come from
pinned npm packages, checked against their integrity and cached, into the decks' shared ``_static`` folder.
Serve the folder (``python -m http.server -d build/slides``; a browser refuses fonts to a page opened from
disk) and open a deck.  With a kernel behind it, RISE (``pip install jupyterlab-rise``) presents the same
notebook, slide types and all, live in JupyterLab.
"""

from __future__ import annotations

import importlib.util
import os
import re
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, TextIO

from nqueens_kit.course.notebooks import notebooks_folder
from nqueens_kit.errors import InputError

if TYPE_CHECKING:
    from nbconvert import SlidesExporter


def _script_beside(name: str) -> ModuleType:
    """``book/NAME.py``, the site's build script beside this one, as the module ``NAME`` (loaded once)."""
    module = sys.modules.get(name)
    if module is None:
        spec = importlib.util.spec_from_file_location(name, Path(__file__).resolve().parent / f"{name}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return module


site_script = _script_beside("build_site")

#: The folder beside the decks that their scripts, styles and fonts are served from.
STATIC = "_static"
#: What the decks load, from pinned npm packages (as :data:`build_site.SITE_ASSETS`): reveal.js (the version
#: nbconvert's template is written for) with its ``white`` theme and speaker notes, jQuery, MathJax 2 (its
#: CommonHTML output and TeX fonts), and the site's RequireJS and widget manager.
SLIDE_ASSETS: tuple[tuple[str, str, str, dict[str, str]], ...] = (
    ("reveal.js", "4.0.2",
     "sha512-LWZSUenufF1gpD7npxJ7KfoQQFKgc1D6XrLTFgKlwWNP1BQ74hT48KONFWMAw+8R/QUeaScCLCLrBVHDfFIEiw==",
     {"package/dist/reveal.css": "reveal/dist/reveal.css", "package/dist/reveal.js": "reveal/dist/reveal.js",
      "package/dist/theme/white.css": "reveal/dist/theme/white.css",
      "package/dist/theme/fonts/source-sans-pro/": "reveal/dist/theme/fonts/source-sans-pro/",
      "package/plugin/notes/notes.js": "reveal/plugin/notes/notes.js", "package/LICENSE": "reveal/LICENSE"}),
    ("jquery", "3.7.1",
     "sha512-m4avr8yL8kmFN8psrbFFFmB/If14iN5o9nw/NgnnM+kybDJpRsAynV2BsfpTYrTRysYUdADVD7CkUUizgkpLfg==",
     {"package/dist/jquery.min.js": "jquery/jquery.min.js", "package/LICENSE.txt": "jquery/LICENSE.txt"}),
    ("mathjax", "2.7.9",
     "sha512-NOGEDTIM9+MrsqnjPEjVGNx4q0GQxqm61yQwSK+/5S59i26wId5IC5gNu9/bu8+CCVl5p9G2IHcAl/wJa+5+BQ==",
     {"package/MathJax.js": "mathjax2/MathJax.js", "package/LICENSE": "mathjax2/LICENSE",
      "package/config/TeX-AMS_CHTML-full.js": "mathjax2/config/TeX-AMS_CHTML-full.js",
      "package/config/Safe.js": "mathjax2/config/Safe.js", "package/extensions/": "mathjax2/extensions/",
      "package/jax/input/TeX/": "mathjax2/jax/input/TeX/", "package/jax/element/": "mathjax2/jax/element/",
      "package/jax/output/CommonHTML/": "mathjax2/jax/output/CommonHTML/",
      "package/fonts/HTML-CSS/TeX/woff/": "mathjax2/fonts/HTML-CSS/TeX/woff/"}),
    *(asset for asset in site_script.SITE_ASSETS if asset[0] in ("requirejs", "@jupyter-widgets/html-manager")),
)

#: The decks' template: nbconvert's reveal template, with nothing loaded from another host (Mermaid, which
#: no chapter draws with, left out) and the widgets' HTML manager told where its modules and fonts are.
TEMPLATE = """\
{%- extends 'reveal/index.html.j2' -%}
{%- block html_head_js_mermaidjs -%}{%- endblock html_head_js_mermaidjs -%}
{%- block html_head_js_requirejs -%}
{{ super() }}
<script>
window.__jupyter_widgets_assets_path__ = "STATIC/widgets/";
require.config({paths: {"@jupyter-widgets/html-manager": "STATIC/widgets/embed-amd",
                        "@jupyter-widgets/html-manager/dist/libembed-amd": "STATIC/widgets/libembed-amd"}});
</script>
{%- endblock html_head_js_requirejs -%}
""".replace("STATIC/", STATIC + "/")
TEMPLATE_NAME = "nqueens-kit-slides"


def slides_exporter(template_folder: Path) -> SlidesExporter:
    """nbconvert's ``SlidesExporter`` (``jupyter nbconvert --to slides``) set up for the decks: every script and
    style from :data:`STATIC`, the ``white`` theme, slide numbers, no ``In [n]:`` prompts taking the width of
    the code, a long slide scrolling instead of running off the screen."""
    from nbconvert import SlidesExporter
    from traitlets.config import Config

    (template_folder / TEMPLATE_NAME).mkdir(parents=True, exist_ok=True)
    (template_folder / TEMPLATE_NAME / "conf.json").write_text('{"base_template": "reveal", '
                                                                 '"mimetypes": {"text/html": true}}')
    (template_folder / TEMPLATE_NAME / "index.html.j2").write_text(TEMPLATE)
    config = Config()
    config.SlidesExporter.update({
        "extra_template_basedirs": [str(template_folder)], "template_name": TEMPLATE_NAME,
        "reveal_url_prefix": f"{STATIC}/reveal", "reveal_theme": "white", "reveal_scroll": True,
        "reveal_number": "c/t", "exclude_input_prompt": True, "exclude_output_prompt": True,
        "require_js_url": f"{STATIC}/widgets/require.min.js",
        "jquery_url": f"{STATIC}/jquery/jquery.min.js",
        "mathjax_url": f"{STATIC}/mathjax2/MathJax.js?config=TeX-AMS_CHTML-full,Safe",
        "widget_renderer_url": f"{STATIC}/widgets/embed-amd.js"})
    return SlidesExporter(config=config)


def build_slides(dest: str | os.PathLike[str] = "build/slides", chapters: list[str] | None = None,
                 timeout: int = 900, work: str | os.PathLike[str] | None = None,
                 log: TextIO | None = None) -> list[Path]:
    """Build a reveal.js deck of each chapter into ``dest`` (``make slides``): ``NN-name.slides.html`` beside
    their ``_static`` folder.  ``chapters`` picks notebooks by file name (default: all); ``work`` keeps the
    executed chapters and the npm packages between builds (default: ``dest`` + ``-work`` beside it), so a
    chapter runs again only when it, its data or the kit changed.  ``log`` (default stderr) gets one line per
    step.  Returns the decks' paths."""
    out = log if log is not None else sys.stderr
    source = notebooks_folder()
    available = [p.name for p in sorted(source.glob("[0-9][0-9]-*.ipynb"))]
    names = chapters or available
    unknown = [name for name in names if not (source / name).is_file()]
    if unknown:
        raise InputError(f"no chapter {unknown[0]!r} in {source}; chapters: {', '.join(available)}")
    try:
        import nbconvert  # noqa: F401
    except ImportError:
        raise InputError("the slides need nbconvert: pip install 'nqueens-kit[course]' "
                         "(make slides installs it)") from None
    target = Path(dest).resolve()
    work_folder = Path(work).resolve() if work is not None else target.with_name(target.name + "-work")
    target.mkdir(parents=True, exist_ok=True)

    started = time.monotonic()
    executed = site_script.execute_chapters(names, work_folder / "executed", timeout, out, tool="slides")
    ran = time.monotonic() - started
    site_script.fetch_site_assets(target / STATIC, work_folder / "npm", SLIDE_ASSETS)
    import nbformat

    decks = []
    with tempfile.TemporaryDirectory(prefix="nqueens-kit-slides-") as templates:
        exporter = slides_exporter(Path(templates))
        for path in executed:
            nb = nbformat.read(path, as_version=4)
            title, _ = site_script._chapter_title(nb, path.stem)  # the page's title: the chapter's
            opening = nb.cells[0]  # the title slide: the chapter, without its note on the browser edition
            opening.source = re.sub(r"\n{3,}", "\n\n", site_script._BROWSER_NOTE.sub("", opening.source))
            html, _ = exporter.from_notebook_node(nb, resources={"metadata": {"name": title}})
            deck = target / f"{path.stem}.slides.html"
            deck.write_text(html, encoding="utf-8")
            decks.append(deck)
    print(f"slides: {len(decks)} decks in {target} ({ran:.1f} s running chapters, "
          f"{time.monotonic() - started - ran:.1f} s making decks)", file=out, flush=True)
    return decks


def main() -> int:
    """``python book/build_slides.py [DEST] [CHAPTER ...]`` (what ``make slides`` runs): prints each deck's path."""
    args = sys.argv[1:]
    dest = args.pop(0) if args and not args[0].endswith(".ipynb") else "build/slides"
    try:
        decks = build_slides(dest, args or None)
    except InputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    for deck in decks:
        print(deck)
    print(f"serve them with: python -m http.server -d {dest} 8000 (then open http://127.0.0.1:8000/{decks[0].name};"
          " S opens the speaker notes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
