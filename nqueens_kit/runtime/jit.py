"""Compiled kernels when numba is there, the readable Python otherwise.

The search methods (bitmask backtracking, min-conflicts) keep a readable Python version for the course
and the browser (Pyodide has no numba) and run a numba-compiled one of the same algorithm everywhere else.
numba is imported only when a kernel is first needed (the import costs about half a second of processor
time, which ``nqueens-kit --help`` and small boards need not pay), and compiled kernels are cached on disk
(``cache=True``), so only the first run on a machine compiles them.

``NQUEENS_KIT_NO_JIT=1`` runs the Python versions even where numba is installed (the tests compare the
two; a lecturer can show the gap).
"""

from __future__ import annotations

import functools
import importlib.util
import os
from collections.abc import Callable
from typing import Any

#: The environment variable that turns the compiled kernels off.
NO_JIT = "NQUEENS_KIT_NO_JIT"


def jit_available() -> bool:
    """True when compiled kernels will run: numba is installed and not turned off by ``NQUEENS_KIT_NO_JIT``."""
    if os.environ.get(NO_JIT, "").strip() not in ("", "0"):
        return False
    return _numba_installed()


@functools.cache
def _numba_installed() -> bool:
    return importlib.util.find_spec("numba") is not None


def jit_name() -> str:
    """What runs the kernels, for a result's record: ``numba 0.68.1`` or ``Python``."""
    if not jit_available():
        return "Python"
    from importlib.metadata import version

    return f"numba {version('numba')}"


def compile_kernel(function: Callable[..., Any], *, parallel: bool = False) -> Callable[..., Any]:
    """``function`` compiled by numba (cached on disk, no Python objects: ``nopython`` mode), imported here
    and only here; call it only when :func:`jit_available` says so.  (numba's compiler may swallow a Ctrl-C
    that comes while it works, in a finaliser of llvmlite's; the command's watchdog ends the command all the
    same: :mod:`nqueens_kit.cli.startup`.)"""
    from .limits import stage

    stage("compiling")
    import numba

    return numba.njit(cache=True, nogil=True, parallel=parallel)(function)
