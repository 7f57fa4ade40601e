"""``nqueens-kit notebooks DEST``: the chapters and their data, copied out of the installation; ``make site``:
the chapters executed and built into a book, and the bibliography it cites."""

from __future__ import annotations

import importlib.util
import io
import re
import shutil
from pathlib import Path

import nbformat
import pytest

from nqueens_kit.cli import main
from nqueens_kit.course.notebooks import copy_notebooks, notebook_files, notebooks_folder
from nqueens_kit.errors import InputError

from .book_scripts import launch_links, site_script
from .conftest import need

BOOK_FOLDER, build_site, _chapter_title = site_script.BOOK_FOLDER, site_script.build_site, site_script._chapter_title

ROOT = Path(__file__).resolve().parent.parent


def test_copies_every_chapter_and_its_data(tmp_path, capsys):
    chapters = sorted(p.name for p in (ROOT / "notebooks").glob("[0-9][0-9]-*.ipynb"))
    assert len(chapters) >= 6
    assert main(["notebooks", str(tmp_path / "course")]) == 0
    said = capsys.readouterr().err
    assert said.startswith(f"copied {len(chapters)} notebooks") and f"jupyter lab {tmp_path / 'course'}" in said
    copied = sorted(p.name for p in (tmp_path / "course").glob("*.ipynb"))
    assert copied == chapters
    for name in chapters + ["README.md", "data/sweep.csv", "data/sweep.csv.meta.json"]:
        assert (tmp_path / "course" / name).read_bytes() == (notebooks_folder() / name).read_bytes()


def test_a_plain_install_is_told_how_to_get_jupyterlab(tmp_path, capsys, monkeypatch):
    """Without JupyterLab (a plain pip install) the command says which extra brings it and every solver."""
    import importlib.util as util

    real = util.find_spec
    monkeypatch.setattr(util, "find_spec", lambda name, *a: None if name == "jupyterlab" else real(name, *a))
    assert main(["notebooks", str(tmp_path / "course")]) == 0
    said = capsys.readouterr().err
    assert 'pip install "nqueens-kit[course]"' in said and said.count("\n") == 1


def test_refuses_to_overwrite_without_force(tmp_path, capsys):
    target = tmp_path / "course"
    copy_notebooks(target)
    mine = target / sorted(notebook_files())[0]
    mine.write_text("my own notes")
    assert main(["notebooks", str(target)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "already exists" in err and "--force" in err
    assert mine.read_text() == "my own notes"
    assert main(["notebooks", str(target), "--force"]) == 0 and mine.read_text() != "my own notes"


def test_a_file_is_not_a_folder(tmp_path):
    (tmp_path / "x").write_text("")
    with pytest.raises(InputError, match="is a file"):
        copy_notebooks(tmp_path / "x")


def test_site_pages_carry_their_figures(tmp_path, monkeypatch):
    """One chapter built as the site builds them all (tests/test_site.py reads the whole site in a browser)."""
    need(all(importlib.util.find_spec(m) for m in ("sphinx", "myst_nb", "sphinxcontrib.bibtex")),
         "the site tools (pip install 'nqueens-kit[site]')")
    need(shutil.which("npm") is not None, "npm, for the site's MathJax and widget manager")
    monkeypatch.setenv("CI", "1")  # the chapters cut long work short
    log = io.StringIO()
    pages = build_site(tmp_path / "site", chapters=["01-rules-to-clauses.ipynb"], log=log)
    assert [p.name for p in pages] == ["01-rules-to-clauses.html", "index.html"]
    assert "site: ran 01-rules-to-clauses.ipynb" in log.getvalue()
    executed = nbformat.read(tmp_path / "site-work" / "executed" / "01-rules-to-clauses.ipynb", as_version=4)
    figures = sum(1 for cell in executed.cells if cell.cell_type == "code" for output in cell.get("outputs", [])
                  if "image/png" in output.get("data", {}))
    assert figures >= 1 and not any(cell.source.startswith("def _nqk_site_settle") for cell in executed.cells)
    page = pages[0].read_text(encoding="utf-8")
    assert len(re.findall(r'<img [^>]*src="_images/[^"]+\.png"', page)) >= figures, "the figures are in the page"
    assert 'href="https://doi.org/10.1007/11564751_73"' in page, "the chapter's works link their DOIs"
    index = pages[1].read_text(encoding="utf-8")
    assert re.search(r'<span class="nqk-number">1</span><strong><a class="reference internal" '
                     r'href="01-rules-to-clauses.html"><span class="std std-doc">From rules to clauses</span>', index)
    for html in (page, index, (tmp_path / "site" / "references.html").read_text(encoding="utf-8")):
        loaded = re.findall(r'<(?:script|img)[^>]* src="([^"]+)"|<link[^>]* href="([^"]+)"', html)
        assert not [u for pair in loaded for u in pair if u.startswith(("http:", "https:", "//"))], \
            "every script, style sheet and image comes from the site itself"
    assert 'src="_static/mathjax/tex-chtml.js' in page
    # Its launch menu opens the chapter in Colab, on Binder and in the browser edition, its download menu gives
    # the notebook as stored; the install cell (for Colab and Binder) is not on the page.
    hrefs = set(re.findall(r'href="([^"]+)"', page))
    assert set(launch_links("01-rules-to-clauses.ipynb").values()) <= hrefs, sorted(hrefs)
    stored = (tmp_path / "site" / "_sources" / "01-rules-to-clauses.ipynb").read_bytes()
    assert stored == (notebooks_folder() / "01-rules-to-clauses.ipynb").read_bytes()
    assert "%pip install" not in page and "nqueens-kit[course] @ git+" not in page
    for asset in ("mathjax/tex-chtml.js", "mathjax/output/chtml/fonts/woff-v2/MathJax_Main-Regular.woff",
                  "widgets/embed-amd.js", "widgets/require.min.js", "widgets/nqk-widgets.js", "book.css"):
        assert (tmp_path / "site" / "_static" / asset).is_file(), asset

    again = io.StringIO()
    build_site(tmp_path / "site", chapters=["01-rules-to-clauses.ipynb"], log=again)
    assert "01-rules-to-clauses.ipynb unchanged, not run again" in again.getvalue()
    with pytest.raises(InputError, match="no chapter 'nine.ipynb'"):
        build_site(tmp_path / "site", chapters=["nine.ipynb"])


#: Works the bibliography lists without a link: the journal version of Frisch et al. has a DOI that could not
#: be checked when the bibliography was written, and no other stable address.
UNLINKED = {"frisch2005"}


def _references_section(notebook: Path) -> str:
    text = "\n".join(cell.source for cell in nbformat.read(notebook, as_version=4).cells if cell.cell_type == "markdown")
    found = re.search(r"^## References\s*$(.*?)(?=^## |\Z)", text, re.M | re.S)
    return found.group(1) if found else ""


def test_the_bibliography_holds_each_chapters_works():
    """``book/references.bib`` has every work of every chapter's References, each with a DOI (or, for the
    few works without one, a web address or ISBN), filed under the chapters that cite it."""
    need(importlib.util.find_spec("pybtex") is not None, "pybtex (pip install 'nqueens-kit[site]')")
    from pybtex.database import parse_file
    from pybtex.richtext import Text

    bib = parse_file(str(BOOK_FOLDER / "references.bib"))
    chapters = {p.name[:2]: p for p in (ROOT / "notebooks").glob("[0-9][0-9]-*.ipynb")}
    filed: dict[str, list[str]] = {}
    for key, entry in bib.entries.items():
        fields = entry.fields
        assert {"doi", "url", "isbn"} & {f.lower() for f in fields} or key in UNLINKED, f"{key}: no DOI, address or ISBN"
        if "doi" in fields:
            assert re.fullmatch(r"10\.\d{4,9}/\S+", fields["doi"]), f"{key}: {fields['doi']} is not a DOI"
        tags = fields.get("keywords", "").split()
        assert tags and all(re.fullmatch(r"ch\d\d", t) and t[2:] in chapters for t in tags), f"{key}: {tags}"
        people = entry.persons.get("author") or entry.persons.get("editor") or []
        if people and not str(people[0]).startswith("{"):
            name = Text.from_latex(" ".join(people[0].last_names)).render_as("text")
        else:  # an organisation: the work is named by the first word of its title
            name = re.match(r"[\w-]+", Text.from_latex(fields["title"]).render_as("text")).group(0)
        for tag in tags:
            filed.setdefault(tag[2:], []).append(name)
            assert name in _references_section(chapters[tag[2:]]), \
                f"{key} is filed under chapter {tag[2:]}, whose References do not name {name}"
    for number, notebook in sorted(chapters.items()):
        if _references_section(notebook).strip():
            assert filed.get(number), f"{notebook.name} has references and none is in book/references.bib"


def test_the_landing_page_blurb_never_cuts_a_formula():
    cell = nbformat.v4.new_markdown_cell("# 9. A chapter\n\nFirst sentence about $n$ queens on a board.  Second, "
                                         "which is long enough to pass the cut of about two lines of text on the "
                                         "landing page of the site, $x = 1.  y$ here.  Third.\n\nMore.")
    title, blurb = _chapter_title(nbformat.v4.new_notebook(cells=[cell]), "fallback")
    assert title == "9. A chapter"
    assert blurb.count("$") % 2 == 0 and blurb.endswith("here.") and "More" not in blurb


def test_the_landing_page_blurb_is_each_chapters_opening_paragraph_not_its_notes():
    """Every chapter opens with a note set apart as a quote (what differs in the browser): the landing page
    shows the paragraph after it."""
    for path in sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("0*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        opening = next(c.source for c in nb.cells if c.cell_type == "markdown")
        _, blurb = _chapter_title(nb, "fallback")
        assert blurb and "In the browser" not in blurb and blurb.split()[0] in opening, path.name
