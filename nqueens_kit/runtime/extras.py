"""What the kit needs beyond ``pip install nqueens-kit``, and the one line that says which extra brings it.

The core (the problem, the formats, the solvers, the methods, the compiled kernels, the timing harness and the
command line) needs only the packages pyproject.toml lists as dependencies.  The figures need matplotlib (the
``plots`` extra), the interactive apps ipywidgets as well (``widgets``); ``course`` brings both.  A module
that needs one of them says so when it is imported without it: an :class:`~nqueens_kit.errors.ExtraNeeded`
(an :class:`ImportError`) naming the extra, which the command line prints as its one line of error.
"""

from __future__ import annotations

from ..errors import ExtraNeeded

#: The packages the kit imports that its core install leaves out: the import name -> the extra that brings it.
EXTRA_OF = {"matplotlib": "plots", "ipywidgets": "widgets", "IPython": "widgets"}


def needs_extra(missing: ModuleNotFoundError, what: str) -> ImportError:
    """What importing ``what`` raises when it failed with ``missing``: an :class:`ExtraNeeded` naming the
    extra when the module missing is one an extra brings (``raise needs_extra(exc, __name__) from None``),
    else ``missing`` itself (a broken install of a package the core has is not a missing extra).

    >>> print(needs_extra(ModuleNotFoundError("no matplotlib", name="matplotlib.pyplot"), "nqueens_kit.viz"))
    nqueens_kit.viz needs matplotlib: pip install "nqueens-kit[plots]"
    >>> needs_extra(ModuleNotFoundError("no numpy", name="numpy"), "nqueens_kit.viz")
    ModuleNotFoundError('no numpy')
    """
    package = (missing.name or "").partition(".")[0]
    extra = EXTRA_OF.get(package)
    return missing if extra is None else ExtraNeeded(what, package, extra)


def require(what: str, *packages: str) -> None:
    """Raise :class:`ExtraNeeded` for ``what`` unless each of ``packages`` (names in :data:`EXTRA_OF`) is
    installed; nothing is imported (for a module that imports them later, inside its functions).  A package
    that ``sys.modules`` maps to None, which Python's import refuses, counts as missing too."""
    import sys
    from importlib.util import find_spec

    for package in packages:
        if (sys.modules[package] is None) if package in sys.modules else (find_spec(package) is None):
            raise ExtraNeeded(what, package, EXTRA_OF[package])
