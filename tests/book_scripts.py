"""The build scripts of the site, the browser edition and the slides, ``book/build_site.py``,
``book/build_lite.py`` and ``book/build_slides.py``: tooling of a checkout, not modules of the installed kit,
so the tests load them from their files."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

BOOK = Path(__file__).resolve().parents[1] / "book"


def _load(name: str) -> ModuleType:
    """``book/NAME.py`` as the module ``NAME`` (once; as ``python book/NAME.py`` would import it)."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, BOOK / f"{name}.py")
    assert spec is not None and spec.loader is not None, f"no {name}.py in {BOOK}"
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


site_script = _load("build_site")
lite_script = _load("build_lite")
slides_script = _load("build_slides")


def launch_links(chapter: str) -> dict[str, str]:
    """Where a chapter's page sends a reader (``chapter``: the notebook's file name), worked out from the
    repository ``pyproject.toml`` names and the chapter's place in this checkout: Colab and Binder open the
    notebook on the branch ``main``, the browser edition opens it by name, and the download is the notebook."""
    from urllib.parse import urlsplit

    try:
        import tomllib
    except ImportError:  # Python 3.10
        import tomli as tomllib

    repository = tomllib.loads((BOOK.parent / "pyproject.toml").read_text())["project"]["urls"]["Source"]
    owner_repo = urlsplit(repository).path.strip("/")
    path = f"notebooks/{chapter}"  # the chapters' folder in the repository
    return {"colab": f"https://colab.research.google.com/github/{owner_repo}/blob/main/{path}",
            "binder": f"https://mybinder.org/v2/gh/{owner_repo}/main?urlpath=lab/tree/{path}",
            "lite": f"{site_script.LITE_URL}lab/index.html?path={chapter}",
            "download": f"_sources/{chapter}"}
