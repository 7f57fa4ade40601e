"""Sphinx configuration of the course's site (``make site``; ``build_site.py`` beside it).

The book is built with the stack Jupyter Book 1 wraps: Sphinx, MyST-NB (notebooks as pages), the Sphinx
Book Theme (table of contents, previous/next, search) and sphinxcontrib-bibtex (``references.bib``).
``build_site`` executes the chapters itself (with every widget's final state) and hands them over
executed, so MyST-NB only renders.  Nothing on a page is fetched from another host: MathJax and the
Jupyter widgets' HTML manager are copied into ``_static`` from pinned npm packages (``build_site.py``).
"""

from __future__ import annotations

import os

project = "nqueens-kit: the course"
author = "the nqueens-kit authors"
copyright = "the nqueens-kit authors, MIT licence"  # noqa: A001 (Sphinx's name)
version = release = os.environ.get("NQUEENS_KIT_VERSION", "")

extensions = ["myst_nb", "sphinx.ext.mathjax", "sphinxcontrib.bibtex"]
root_doc = "index"
# _extra holds the stored notebooks a page offers to download (copied as they are, never read as pages).
exclude_patterns = ["_build", "**.ipynb_checkpoints", "README.md", "_extra"]
html_extra_path = ["_extra"]
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
html_copy_source = False
html_last_updated_fmt = None
html_theme_options = {
    "home_page_in_toc": True,
    "show_navbar_depth": 1,
    "show_toc_level": 2,
    "use_download_button": False,
    "use_fullscreen_button": False,
    "use_repository_button": False,
    "use_sidenotes": False,
    "navigation_with_keys": True,
    "show_prev_next": True,
    "extra_footer": "Executed from the stored notebooks of nqueens-kit; every figure computed at build time.",
}
