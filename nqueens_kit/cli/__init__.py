"""The ``nqueens-kit`` command (:mod:`.main`), behind a light entry point.

:func:`run`, the console script, first makes Ctrl-C end the process with one line and exit status 130, then
imports the command and the kit: a Ctrl-C while Python is still loading them prints no traceback.
``main``, ``build_parser`` and the rest are :mod:`.main`'s, imported on first use.
"""

from __future__ import annotations

import importlib
import signal
import sys
import types

from .startup import startup_interrupt

TYPE_CHECKING = False  # typing is not imported at run time (mypy reads this as True): see .quick
if TYPE_CHECKING:
    from typing import NoReturn

__all__ = ["EXIT_NO", "EXIT_OK", "build_parser", "main", "run"]

#: What ``Ctrl-C`` prints while the command is loading (the same line as later).
def run() -> NoReturn:
    """Console-script entry point."""
    try:
        signal.signal(signal.SIGINT, startup_interrupt)
    except (ValueError, OSError):  # not the main thread
        pass
    from .quick import quick_answer

    code = quick_answer(sys.argv[1:])
    if code is not None:  # answered, with what the full command would print
        from .startup import end

        end(code)
    from .main import run as run_command

    run_command()


#: The package's modules other than :mod:`.main`: ``from nqueens_kit.cli import quick`` imports the module
#: alone, not the whole command first.
_MODULES = frozenset({"bench", "common", "count", "inside", "quick", "solve", "startup"})


def __getattr__(name: str) -> object:
    """The command's names (``main``, ``build_parser``, ...), from :mod:`.main` on first use."""
    if name in _MODULES or name.startswith("__"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")  # the import system goes on
    command = importlib.import_module(f"{__name__}.main")  # the module: the package's `main` is the function
    try:
        return getattr(command, name)
    except AttributeError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None


class _Package(types.ModuleType):
    """``nqueens_kit.cli.main`` is the function :func:`main`, as it always was, even once the module of
    the same name is imported (Python binds a submodule to its package's attribute)."""

    def __setattr__(self, name: str, value: object) -> None:
        if name == "main" and isinstance(value, types.ModuleType):
            value = value.main
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package

if TYPE_CHECKING:
    from .common import EXIT_NO, EXIT_OK
    from .main import build_parser, main
