"""Offline in the browser, ``import matplotlib`` (the kit's figure modules, a chapter's first cell) succeeds
with a stand-in (:func:`install_stand_in`) whose every use raises :class:`FigureNeedsPackage`, one line saying
the page is offline and how to get the package, so the rest of a chapter runs; once ``%pip install
matplotlib`` has brought the real one (online), every use goes to it.  :mod:`.browser` re-exports the public
names here and installs the stand-in.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any

from .pyodide import IN_BROWSER, cdn_needs, importable, needs

if TYPE_CHECKING:
    import importlib.abc
    from importlib.machinery import ModuleSpec


# -- matplotlib, offline ------------------------------------------------------------------------------------


class FigureNeedsPackage(ModuleNotFoundError):
    """A figure needs a package of the Pyodide CDN that is not loaded (one line, see :func:`needs`)."""


def _real(module: str) -> ModuleType | None:
    """The real ``module`` if it can be imported now (after ``%pip install``), else None."""
    import importlib

    root = module.split(".")[0]
    finder = _STAND_IN.get("finder")
    if finder in sys.meta_path:
        sys.meta_path.remove(finder)
    stand_ins = {name: mod for name, mod in sys.modules.items()
                 if name.split(".")[0] == root and isinstance(mod, _StandInModule)}
    for name in stand_ins:
        del sys.modules[name]
    try:
        return importlib.import_module(module)
    except ImportError:
        sys.modules.update(stand_ins)
        if finder is not None:
            sys.meta_path.append(finder)
        return None


class _Missing:
    """An attribute of a stand-in module: calling, iterating or reading it uses the real package when it has
    been installed since, else raises :class:`FigureNeedsPackage`."""

    def __init__(self, module: str, path: tuple[str, ...]) -> None:
        self._module, self._path = module, path

    def _resolve(self) -> Any:  # whatever the real package has at that path
        target: object = _real(self._module)
        if target is None:
            raise FigureNeedsPackage(cdn_needs(self._module.split(".")[0], "this figure"))
        for name in self._path:
            target = getattr(target, name)
        return target

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        return _Missing(self._module, (*self._path, name))

    def __call__(self, *args: object, **kwargs: object) -> Any:
        return self._resolve()(*args, **kwargs)

    def __getitem__(self, key: object) -> Any:
        return self._resolve()[key]

    def __setitem__(self, key: object, value: object) -> None:
        self._resolve()[key] = value

    def __iter__(self) -> Iterator[Any]:
        return iter(self._resolve())

    def __instancecheck__(self, instance: object) -> bool:
        target = _real(self._module)
        return target is not None and isinstance(instance, self._resolve())

    def __repr__(self) -> str:
        return f"<{'.'.join((self._module, *self._path))}: {needs(self._module.split('.')[0], 'it')}>"


class _Settings(dict[str, object]):
    """matplotlib's ``rcParams`` while it is not loaded: settings are kept (they draw nothing)."""

    def _get(self, key: str) -> object:
        return self.get(key)


#: What a stand-in module has for real: the settings (a chapter's style call sets them) and no backend.
_SETTINGS = _Settings()


_PRESENT = {"rcParams": _SETTINGS, "get_backend": lambda *args, **kwargs: "none (matplotlib is not loaded)"}


class _StandInModule(type(sys)):  # type: ignore[misc]
    """A stand-in for a module of a package the browser has not loaded (see :func:`install_stand_in`)."""

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        if name in _PRESENT and _real(self.__name__) is None:
            return _PRESENT[name]
        return _Missing(self.__name__, (name,))


_STAND_IN: dict[str, importlib.abc.MetaPathFinder] = {}


def install_stand_in(package: str = "matplotlib") -> bool:
    """In a browser without ``package``: make ``import package[.sub]`` give stand-ins (see the module
    docstring).  Returns whether it did; outside a browser, or with the package present, it does nothing."""
    if not IN_BROWSER or importable(package) or "finder" in _STAND_IN:
        return False
    import importlib.abc
    import importlib.machinery

    class Finder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
        def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                      target: ModuleType | None = None) -> ModuleSpec | None:
            if fullname != package and not fullname.startswith(package + "."):
                return None
            return importlib.machinery.ModuleSpec(fullname, self, is_package=True)

        def create_module(self, spec: ModuleSpec) -> ModuleType:
            module = _StandInModule(spec.name, f"stand-in: {needs(package, 'this figure')}")
            module.__path__ = []
            return module

        def exec_module(self, module: ModuleType) -> None:
            pass

    _STAND_IN["finder"] = Finder()
    sys.meta_path.append(_STAND_IN["finder"])
    return True
