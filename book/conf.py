"""Sphinx configuration of the course's site (``make site``; ``build_site.py`` beside it).

The book is built with the stack Jupyter Book 1 wraps: Sphinx, MyST-NB (notebooks as pages), the Sphinx
Book Theme (table of contents, previous/next, search) and sphinxcontrib-bibtex (``references.bib``).
``build_site`` executes the chapters itself (with every widget's final state) and hands them over
executed, so MyST-NB only renders.  Nothing on a page is fetched from another host: MathJax and the
Jupyter widgets' HTML manager are copied into ``_static`` from pinned npm packages (``build_site.py``).

Each chapter's page opens its notebook elsewhere from the theme's launch menu: in Colab and on Binder
(from the repository ``pyproject.toml`` names) and, for the chapters it runs, in the browser edition
(``build_site`` names those and the edition's address); its download menu gives the notebook as stored.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

try:
    import tomllib
except ImportError:  # Python 3.10
    import tomli as tomllib

#: The checkout the book is built from: ``build_site`` runs Sphinx on a copy of this folder and names the
#: checkout in ``NQUEENS_KIT_CHECKOUT``; run in place, it is this folder's parent.
CHECKOUT = Path(os.environ.get("NQUEENS_KIT_CHECKOUT") or Path(__file__).resolve().parent.parent)
#: Where the chapters are launched from: the repository ``pyproject.toml`` names (``[project.urls]``).
REPOSITORY = tomllib.loads((CHECKOUT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["urls"]["Source"]
#: The branch Colab and Binder open, and the chapters' folder in it (a page's notebook is FOLDER/PAGE.ipynb).
BRANCH, CHAPTER_FOLDER = "main", "notebooks"

project = "nqueens-kit: the course"
author = "the nqueens-kit authors"
copyright = "the nqueens-kit authors, MIT licence"  # noqa: A001 (Sphinx's name)
version = release = os.environ.get("NQUEENS_KIT_VERSION", "")

extensions = ["myst_nb", "sphinx.ext.mathjax", "sphinxcontrib.bibtex"]
root_doc = "index"
exclude_patterns = ["_build", "**.ipynb_checkpoints", "README.md"]
language = "en"
# The course's numbers (1.65 million, ...) stay as written; no smart quotes in code-like text.
smartquotes = False

# -- MyST: $...$ and $$...$$ are math; ::: fences hold directives; notebooks are already executed.
myst_enable_extensions = ["dollarmath", "amsmath", "colon_fence", "deflist"]
myst_heading_anchors = 3
nb_execution_mode = "off"
nb_merge_streams = True
# Widget views are drawn from their saved state by the HTML manager, from this site's own copy;
# nqk-widgets.js (in _static/widgets) points it at its fonts and lets it typeset with MathJax 3.
nb_ipywidgets_js = {"widgets/nqk-widgets.js": {}, "widgets/require.min.js": {}, "widgets/embed-amd.js": {}}

# -- Math: MathJax 3 from this site's own _static folder (build_site.py copies it there).
mathjax_path = "mathjax/tex-chtml.js"

# -- Citations: one bibliography file; each chapter lists its own works at its end (build_site.py).
bibtex_bibfiles = ["references.bib"]
bibtex_default_style = "plain"
bibtex_reference_style = "author_year"

# -- HTML: the Sphinx Book Theme, as Jupyter Book uses it.
html_theme = "sphinx_book_theme"
html_title = "N-queens: SAT, ILP, CP and local search"
html_static_path = ["_static"]
html_css_files = ["book.css"]
html_show_sourcelink = False
# The download menu offers a page's source: for a chapter, the notebook as stored (build_site puts it there).
html_copy_source = True
html_last_updated_fmt = None
html_theme_options = {
    "home_page_in_toc": True,
    "show_navbar_depth": 1,
    "show_toc_level": 2,
    "use_download_button": True,
    "use_fullscreen_button": False,
    "use_repository_button": True,
    "repository_url": REPOSITORY,
    "repository_branch": BRANCH,
    "path_to_docs": CHAPTER_FOLDER,
    "launch_buttons": {"colab_url": "https://colab.research.google.com", "binderhub_url": "https://mybinder.org",
                       "notebook_interface": "jupyterlab"},
    "use_sidenotes": False,
    "navigation_with_keys": True,
    "show_prev_next": True,
    "extra_footer": "Executed from the stored notebooks of nqueens-kit; every figure computed at build time.",
}


def add_browser_edition(app: Any, pagename: str, templatename: str, context: dict[str, Any], doctree: Any) -> None:
    """Put the browser edition in the launch menu of each chapter it runs: ``build_site`` names those chapters
    (``nqk_lite_pages``, separated by spaces) and the edition's address (``nqk_lite_url``) with ``sphinx -A``."""
    if pagename not in context.get("nqk_lite_pages", "").split():
        return
    for group in context.get("header_buttons", []):
        if group.get("label") == "launch-buttons":
            group["buttons"].append({
                "type": "link", "text": "Browser edition", "icon": "fas fa-globe", "label": "launch-lite",
                "tooltip": "Run it in your browser: the browser edition, nothing to install",
                "url": f"{context['nqk_lite_url']}lab/index.html?path={pagename}.ipynb"})


def setup(app: Any) -> None:
    # after the theme's launch menu (priority 501)
    app.connect("html-page-context", add_browser_edition, priority=502)
