"""The notebooks, wherever the kit was installed from: a checkout has them in ``notebooks/``, a wheel ships
them inside the package (``nqueens_kit/_notebooks``).  :func:`copy_notebooks` copies the chapters and their
data to a folder of the user's choice (``nqueens-kit notebooks DEST``); the site and the browser edition
(``book/build_site.py``, ``book/build_lite.py``, in a checkout) read the chapters through the same functions.
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
