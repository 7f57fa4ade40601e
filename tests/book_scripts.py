"""The site's and the browser edition's build scripts, ``book/build_site.py`` and ``book/build_lite.py``: tooling
of a checkout, not modules of the installed kit, so the tests load them from their files."""

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
