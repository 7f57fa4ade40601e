"""The notebooks, wherever the kit was installed from: a checkout has them in ``notebooks/``, a wheel ships
them inside the package (``nqueens_kit/_notebooks``).  :func:`copy_notebooks` copies the chapters and their
data to a folder of the user's choice (``nqueens-kit notebooks DEST``).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from ..errors import InputError


def notebooks_folder() -> Path:
    """Where this installation keeps its notebooks."""
    package = Path(__file__).resolve().parents[1]  # the nqueens_kit folder
    for candidate in (package / "_notebooks", package.parent / "notebooks"):
        if any(candidate.glob("[0-9][0-9]-*.ipynb")):
            return candidate
    raise InputError("this installation of nqueens-kit has no notebooks (reinstall it from a wheel or a checkout)")


def notebook_files(source: Path | None = None) -> list[Path]:
    """The chapters (``01-...ipynb`` ...), their README and data files, relative to the notebooks folder."""
    source = source or notebooks_folder()
    files = sorted(source.glob("[0-9][0-9]-*.ipynb")) + [p for p in (source / "README.md",) if p.is_file()]
    files += sorted(p for p in (source / "data").glob("*") if p.is_file() and p.suffix in (".csv", ".json"))
    return [p.relative_to(source) for p in files]


def copy_notebooks(dest: str | os.PathLike[str], force: bool = False) -> list[Path]:
    """Copy the notebooks and their data into ``dest`` (made if needed); returns the files written.

    Existing files are not overwritten unless ``force``; then nothing is copied and the error names them.
    """
    source = notebooks_folder()
    target = Path(dest)
    if target.exists() and not target.is_dir():
        raise InputError(f"{target} is a file; give a folder to copy the notebooks into")
    files = notebook_files(source)
    clashes = [f for f in files if (target / f).exists()]
    if clashes and not force:
        raise InputError(f"{target / clashes[0]} already exists ({len(clashes)} of the {len(files)} files do); "
                         "choose an empty folder or overwrite with --force")
    written = []
    try:
        for relative in files:
            (target / relative).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source / relative, target / relative)
            written.append(target / relative)
    except OSError as exc:
        raise InputError(f"cannot copy the notebooks to {target}: {exc.strerror or exc}") from None
    return written


def build_site(dest: str | os.PathLike[str], chapters: list[str] | None = None, timeout: int = 900) -> list[Path]:
    """Execute the chapters on fresh kernels and write them as HTML pages with every figure, plus an
    ``index.html`` linking them, into ``dest`` (``make site``).  The stored notebooks keep no figures; this
    is the version for reading.  ``chapters`` picks notebooks by file name (default: all).  Returns the
    pages written."""
    import html
    import json
    import tempfile

    import nbformat
    from nbconvert import HTMLExporter
    from nbconvert.preprocessors import ExecutePreprocessor

    source = notebooks_folder()
    names = chapters or [p.name for p in sorted(source.glob("[0-9][0-9]-*.ipynb"))]
    unknown = [name for name in names if not (source / name).is_file()]
    if unknown:
        raise InputError(f"no chapter {unknown[0]!r} in {source}; chapters: "
                         f"{', '.join(p.name for p in sorted(source.glob('[0-9][0-9]-*.ipynb')))}")
    target = Path(dest)
    target.mkdir(parents=True, exist_ok=True)
    written, links = [], []
    with tempfile.TemporaryDirectory(prefix="nqueens-kit-site-") as work:
        for relative in notebook_files(source):  # run in a copy, so the data folder is where the chapters look
            (Path(work) / relative).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source / relative, Path(work) / relative)
        for name in names:
            nb = nbformat.read(Path(work) / name, as_version=4)
            ExecutePreprocessor(timeout=timeout, kernel_name="python3").preprocess(nb, {"metadata": {"path": work}})
            body, _ = HTMLExporter(template_name="lab").from_notebook_node(nb)
            page = target / (Path(name).stem + ".html")
            page.write_text(body, encoding="utf-8")
            written.append(page)
            title = next((line[2:] for cell in nb.cells if cell.cell_type == "markdown"
                          for line in cell.source.splitlines() if line.startswith("# ")), name)
            links.append(f'<li><a href="{html.escape(page.name)}">{html.escape(title)}</a></li>')
    index = target / "index.html"
    index.write_text("<!doctype html><meta charset='utf-8'><title>nqueens-kit: the course</title>"
                     "<h1>nqueens-kit: the course</h1><ol style='list-style:none'>" + "".join(links) + "</ol>"
                     f"<p>Executed from the stored notebooks; {json.dumps(len(links))} chapters.</p>\n",
                     encoding="utf-8")
    return [*written, index]
