"""ILP solvers reached through PuLP: COIN-OR CBC (the default) and HiGHS.

CBC is found in every way PuLP ships it, tried in order: the bundled ``PULP_CBC_CMD`` (PuLP 2.x/3.x),
``COIN_CMD`` with its default path (PuLP 4.x: the ``cbcbox`` wheel that ``pulp[cbc]`` installs, else
``cbc`` on PATH), the ``cbcbox`` binary under an older PuLP, and a ``cbc`` on PATH.  HiGHS comes through
``highspy`` (``pulp.HiGHS``) or a ``highs`` executable.

PuLP missing and PuLP broken are told apart: "not installed" says how to install it, a PuLP that fails to
import says what the import error was.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from ..errors import SolverNotAvailable
from .base import Capabilities, Solver, package_version

PULP_HINT = "pip install pulp (or conda install -c conda-forge pulp)"


def pulp_module() -> Any:
    """PuLP, or :class:`SolverNotAvailable` saying whether it is missing or broken."""
    try:
        import pulp
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.split(".")[0] == "pulp":
            raise SolverNotAvailable(f"PuLP is not installed: {PULP_HINT}") from None
        raise SolverNotAvailable(f"PuLP is installed but cannot be imported: {exc}") from None
    except Exception as exc:  # a broken install raises anything at import time
        raise SolverNotAvailable(f"PuLP is installed but cannot be imported: {type(exc).__name__}: {exc}") from None
    return pulp


@dataclass(frozen=True)
class Candidate:
    """One way of reaching a solver: ``how`` it was found and ``make(**options)`` -> a PuLP solver object.

    A ``{path}`` in ``how`` is filled in with the executable PuLP resolved, once it is found.
    """

    how: str
    make: Callable[..., Any]
    path: str | None = None


class IlpSolver(Solver):
    """An ILP backend reached through PuLP: an ordered list of :class:`Candidate` ways to find it."""

    method = "ilp"
    #: Whether the PuLP class runs an executable (it then takes ``logPath`` and writes temporary files).
    command_line = False
    def candidates(self) -> Iterator[Candidate]:
        """The ways to reach the solver, best first; each is tried only if the ones before failed."""
        raise NotImplementedError

    def find(self) -> Candidate | None:
        """The first candidate whose solver PuLP reports available, or None (a few file checks, no process)."""
        found = None
        try:
            for candidate in self.candidates():
                try:
                    engine = candidate.make(msg=False)
                    if engine.available():
                        path = getattr(engine, "path", None)
                        if path and hasattr(engine, "executable"):  # PuLP keeps "cbc" as given; resolve it
                            path = engine.executable(path) or path
                        found = Candidate(candidate.how.format(path=path or "?"), candidate.make, path)
                        break
                except Exception:  # a broken or half-installed backend is simply not a candidate
                    continue
        except SolverNotAvailable:
            found = None
        return found

    def available(self) -> bool:
        return self.find() is not None

    def found_as(self) -> str | None:
        """How the solver was found, e.g. ``PULP_CBC_CMD (bundled with PuLP)``, or None."""
        found = self.find()
        return found.how if found else None

    def engine(self, **options: Any) -> Any:
        """A PuLP solver object for this backend with PuLP's keyword options (``msg``, ``timeLimit``, ...)."""
        found = self.find()
        if found is None:
            self.require()
        assert found is not None
        return found.make(**options)

    def require(self) -> IlpSolver:
        pulp_module()  # "PuLP is not installed" / "is broken" before "CBC is not installed"
        super().require()
        return self


def _quiet(factory: Callable[..., Any]) -> Callable[..., Any]:
    """PuLP 3.x warns that PULP_CBC_CMD goes away in 4.0; the lookup already falls back to COIN_CMD."""

    def make(**options: Any) -> Any:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            return factory(**options)

    return make


def _cbcbox_binary() -> str | None:
    """The CBC executable of the ``cbcbox`` wheel (what ``pulp[cbc]`` installs), if present."""
    try:
        import cbcbox

        path = cbcbox.cbc_bin_path()
    except Exception:  # not installed, or a wheel without a binary for this platform
        return None
    return path if path and os.path.isfile(path) else None


class Cbc(IlpSolver):
    name = "cbc"
    description = "COIN-OR CBC through PuLP (default)"
    command_line = True
    capabilities = Capabilities(in_process=False, time_limit=True, statistics=True)
    marker = "o"

    def preload(self) -> None:
        pulp_module()

    def candidates(self) -> Iterator[Candidate]:
        pulp = pulp_module()
        if hasattr(pulp, "PULP_CBC_CMD"):
            yield Candidate("PULP_CBC_CMD (bundled with PuLP)", _quiet(pulp.PULP_CBC_CMD))
        # PuLP 4.x: COIN_CMD's default path is the cbcbox binary, else "cbc" on PATH (3.x: PATH only).
        yield Candidate("COIN_CMD ({path})", pulp.COIN_CMD)
        box = _cbcbox_binary()
        if box:
            yield Candidate("COIN_CMD ({path}, from cbcbox)", lambda **kw: pulp.COIN_CMD(path=box, **kw))
        path = shutil.which("cbc")
        if path:
            yield Candidate("COIN_CMD ({path})", lambda **kw: pulp.COIN_CMD(path=path, **kw))

    def install_hint(self) -> str:
        return ('pip install "pulp[cbc]" (PuLP 4 no longer bundles CBC), or conda install -c conda-forge '
                "coin-or-cbc, or apt-get install coinor-cbc")

    def version(self) -> str | None:
        found = self.find()
        if found is None or not found.path:
            return None
        try:
            proc = subprocess.run([found.path, "-quit"], capture_output=True, text=True, timeout=5,
                                  stdin=subprocess.DEVNULL, check=False)
        except (OSError, subprocess.SubprocessError):
            return f"CBC via {found.how}"
        for line in proc.stdout.splitlines():
            if line.strip().lower().startswith("version"):
                return f"CBC {line.split(':', 1)[-1].strip()} via {found.how}"
        return f"CBC via {found.how}"


class Highs(IlpSolver):
    name = "highs"
    description = "HiGHS through PuLP and highspy"
    capabilities = Capabilities(in_process=True, time_limit=True, statistics=True)
    marker = "s"
    advice = "the faster ILP solver here on the lines formulation"

    def preload(self) -> None:
        pulp_module()
        try:
            import highspy  # noqa: F401
        except ImportError:
            pass  # the solve explains a missing HiGHS itself

    def candidates(self) -> Iterator[Candidate]:
        pulp = pulp_module()
        if hasattr(pulp, "HiGHS"):
            yield Candidate("HiGHS (highspy)", pulp.HiGHS)
        path = shutil.which("highs")
        if path and hasattr(pulp, "HiGHS_CMD"):
            yield Candidate("HiGHS_CMD ({path})", lambda **kw: pulp.HiGHS_CMD(path=path, **kw))

    def install_hint(self) -> str:
        hint = 'pip install "nqueens-kit[highs]" (that is, pip install highspy)'
        try:
            pulp = pulp_module()
        except SolverNotAvailable as exc:
            return f"{exc}; then {hint}"
        if not hasattr(pulp, "HiGHS"):
            hint += f", and a PuLP that can call it: pip install -U pulp (this is PuLP {pulp.__version__})"
        return hint

    def version(self) -> str | None:
        found = package_version("highspy")
        return f"HiGHS (highspy {found})" if found else None
