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
import re
import shutil
import subprocess
import warnings
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from importlib import import_module
from types import ModuleType
from typing import TYPE_CHECKING

from ..errors import SolverNotAvailable
from ..problem.results import Options, Statistics
from .base import Capabilities, Solver, package_version

if TYPE_CHECKING:  # PuLP has no type information: the name says what the object is
    from pulp import LpSolver

PULP_HINT = "pip install pulp (or conda install -c conda-forge pulp)"

#: The ILP method's named settings, the first the default; each entry says which it takes (``settings``: a name
#: that would run it as another does is not one it takes), and an entry may have settings of its own
#: (:attr:`IlpSolver.own_settings`).
SETTINGS: dict[str, str] = {
    "tuned": "CBC with feasibility pump, preprocessing and cuts off (which of the two CBC settings is faster "
             "depends on n, the instance and the CBC build: chapter 5's sweep measures it); HiGHS and SCIP defaults",
    "default": "every solver with its own default settings",
}
DEFAULT_SETTINGS = "tuned"


def pulp_module() -> ModuleType:
    """PuLP, or :class:`SolverNotAvailable` saying whether it is missing or broken."""
    try:
        import pulp
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.split(".")[0] == "pulp":
            raise SolverNotAvailable(f"PuLP is not installed: {PULP_HINT}") from None
        raise SolverNotAvailable(f"PuLP is installed but cannot be imported: {exc}") from None
    except Exception as exc:  # a broken install raises anything at import time
        raise SolverNotAvailable(f"PuLP is installed but cannot be imported: {type(exc).__name__}: {exc}") from None
    module: ModuleType = pulp  # PuLP has no type information
    return module


@dataclass(frozen=True)
class Candidate:
    """One way of reaching a solver: ``how`` it was found and ``make(**options)`` -> a PuLP solver object.

    A ``{path}`` in ``how`` is filled in with the executable PuLP resolved, once it is found.
    """

    how: str
    make: Callable[..., LpSolver]
    path: str | None = None


class IlpSolver(Solver):
    """An ILP backend reached through PuLP: an ordered list of :class:`Candidate` ways to find it, and what the
    method asks of every entry: the options it runs with under the method's named settings (recorded in results),
    the PuLP keyword options they become, how it keeps a log, the statistics it reports (nodes, LP iterations,
    its own time), the lines of its log worth reading, and whether it may be asked again after a refusal."""

    method = "ilp"
    #: Whether the PuLP class runs an executable (it then takes ``logPath`` and writes temporary files).
    command_line = False
    #: Named settings only this entry has, beside the method's own: name -> what it means.
    own_settings: Mapping[str, str] = {}
    #: The Python module a solve loads besides PuLP (imported by :meth:`preload`), if any.
    module = ""

    def preload(self) -> None:
        pulp_module()
        if self.module:
            try:
                import_module(self.module)
            except ImportError:
                pass  # the solve explains a missing solver itself

    def options(self, settings: str) -> Options:
        """The options a solve runs with under the method's ``settings`` (``tuned``, ``default``, or one of
        :attr:`own_settings`), as recorded in results: ``settings`` first."""
        return {"settings": settings, **self.thread_options()}

    def thread_options(self) -> Options:
        """The thread count the solver is given on every run (an LP relaxation too), as recorded; empty when it
        runs on one thread by itself."""
        return {}

    def engine_options(self, recorded: Options) -> dict[str, object]:
        """PuLP's keyword options for the recorded ``options`` (``threads``, a solver's own option list)."""
        threads = recorded.get("threads")
        return {"threads": threads} if threads else {}

    def log_options(self, path: str) -> dict[str, object]:
        """PuLP's keyword options that send the solver's log to ``path``."""
        return {"logPath": path}

    def read_statistics(self, prob: object, log: str, state: str, stats: Statistics) -> str:
        """Add the solver's own counters to ``stats`` (from the model PuLP solved, or the log); return the state,
        which the solver's own word may correct."""
        return state

    def ask_again(self, prob: object) -> bool:
        """True when the solver refused to run for a reason this call has now removed (solve once more)."""
        return False

    def highlights(self, log: str) -> list[str]:
        """The lines of the solver's log that tell what it did."""
        return [line.rstrip() for line in log.splitlines() if line.strip()]

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

    def engine(self, **options: object) -> LpSolver:
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


def _quiet(factory: Callable[..., LpSolver]) -> Callable[..., LpSolver]:
    """PuLP 3.x warns that PULP_CBC_CMD goes away in 4.0; the lookup already falls back to COIN_CMD."""

    def make(**options: object) -> LpSolver:
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


#: What the ILP method asks of an entry, stated by each entry (an entry says nothing by default): every verb and
#: problem feature of the method (reordered instances included), and its formulations.
ILP_VERBS = frozenset({"solve", "count", "iterate"})
ILP_FEATURES = frozenset({"preplaced", "blocked", "break_symmetry", "reorder"})
FORMULATION_NAMES = frozenset({"lines", "pairwise", "max-queens"})
#: The counters the entries read from their solver: branch-and-bound nodes and LP iterations.
ILP_COUNTERS = ("nodes", "iterations")


class Cbc(IlpSolver):
    name = "cbc"
    description = "COIN-OR CBC through PuLP (default)"
    command_line = True
    capabilities = Capabilities(in_process=False, time_limit=True, statistics=ILP_COUNTERS)
    marker = "o"
    verbs, features, variants = ILP_VERBS, ILP_FEATURES, FORMULATION_NAMES
    settings = frozenset({"tuned", "default"})  # tuned switches CBC's pump, preprocessing and cuts off

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

    def options(self, settings: str) -> Options:
        options = super().options(settings)
        if settings == "tuned":
            options["cbc_options"] = list(CBC_TUNED_OPTIONS)
        return options

    def engine_options(self, recorded: Options) -> dict[str, object]:
        # CBC runs on one thread unless given ``threads``, and ``threads 1`` switches on its threaded code
        listed = recorded.get("cbc_options")
        return {"options": list(listed)} if isinstance(listed, list) else {}

    def read_statistics(self, prob: object, log: str, state: str, stats: Statistics) -> str:
        for key, pattern in CBC_LOG.items():
            match = re.search(pattern, log)
            if match:
                stats[key] = float(match.group(1)) if "." in match.group(1) else int(match.group(1))
        return state

    def highlights(self, log: str) -> list[str]:
        """The settings changed, how each board was found, nodes, strong branching and times."""
        return [line.rstrip() for line in log.splitlines()
                if line.strip().startswith(CBC_HIGHLIGHTS) or "Integer solution" in line]

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
    capabilities = Capabilities(in_process=True, time_limit=True, statistics=ILP_COUNTERS)
    marker = "s"
    verbs, features, variants = ILP_VERBS, ILP_FEATURES, FORMULATION_NAMES
    # HiGHS runs its own defaults under the method's default settings; a second name for the same run is not
    # one it takes
    settings = frozenset({"tuned"})
    advice = "the faster ILP solver here on the lines formulation"
    module = "highspy"

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

    def thread_options(self) -> Options:
        # one core per run, so timings compare and parallel sweeps are fair; and HiGHS keeps one thread pool a
        # process, which refuses a run asking for another size
        return {"threads": 1}

    def log_options(self, path: str) -> dict[str, object]:
        # HiGHS writes its log to a file when asked (and nothing to the screen); msg stays False, since PuLP 2.8
        # would hook its own log callback into HiGHS, one that highspy 1.7 on lacks
        return {"output_flag": True, "log_to_console": False, "log_file": path}

    def read_statistics(self, prob: object, log: str, state: str, stats: Statistics) -> str:
        """HiGHS's own counters; its primal solution status overrides a hopeful PuLP reading."""
        highs = getattr(prob, "solverModel", None)
        if highs is None or not hasattr(highs, "getInfo"):
            return state
        info = highs.getInfo()
        stats["nodes"] = int(getattr(info, "mip_node_count", 0) or 0)
        stats["iterations"] = int(getattr(info, "simplex_iteration_count", 0) or 0)
        if hasattr(highs, "getRunTime"):
            stats["solver_seconds"] = round(float(highs.getRunTime()), 6)
        stats["solver_status"] = highs.modelStatusToString(highs.getModelStatus())
        feasible = 2  # kSolutionStatusFeasible
        if state in ("optimal", "feasible") and getattr(info, "primal_solution_status", feasible) != feasible:
            return "none"
        return state

    def ask_again(self, prob: object) -> bool:
        """When HiGHS refused to run because this process's thread pool has another size, reset the pool.

        HiGHS starts one thread pool a process, sized by the first run's ``threads`` option, and a later run
        asking for another size stops before solving, with model status "Not Set".  The kit asks for one thread
        every time, but other code in the same process (a notebook cell calling highspy or ``pulp.HiGHS`` with
        its defaults) may have started the pool first.
        """
        highs = getattr(prob, "solverModel", None)
        if highs is None or not hasattr(highs, "getModelStatus") or not hasattr(highs, "resetGlobalScheduler"):
            return False
        if highs.modelStatusToString(highs.getModelStatus()) != "Not Set":
            return False
        highs.resetGlobalScheduler(True)
        return True

    def highlights(self, log: str) -> list[str]:
        """The branch-and-bound table and where the LP iterations went."""
        lines = [line.rstrip() for line in log.splitlines()]
        return [line for line in lines if HIGHS_ROW.match(line) or line.strip().startswith(
            ("Src  Proc.", "Status", "Primal bound", "Dual bound", "Nodes", "LP iterations")) or line.strip().endswith(
            ("(strong br.)", "(separation)", "(heuristics)"))]


#: CBC's options under the ``tuned`` settings: the feasibility pump, preprocessing and cuts off.
CBC_TUNED_OPTIONS = ["feas off", "preprocess off", "cuts off"]
#: What the kit reads from CBC's log; CBC 2.10 writes "Time (Wallclock seconds):", newer builds
#: "Time (B&C, Wallclock seconds):" and "... (CPU seconds):" on the total line.
CBC_LOG = {
    "nodes": r"Enumerated nodes:\s+(\d+)",
    "iterations": r"Total iterations:\s+(\d+)",
    "solver_seconds": r"Time \((?:B&C, )?Wallclock seconds\):\s+([\d.]+)",
    "solver_cpu_seconds": r"\(CPU seconds\):\s+([\d.]+)",
}
#: Lines of a CBC log worth reading aloud: the settings changed, each integer solution found and how,
#: the search summary, strong branching, and the totals.
CBC_HIGHLIGHTS = ("Option for", "Continuous objective", "Cbc0001I", "Cbc0032I", "Cbc0035I", "Cbc0038I",
                  "Result -", "Enumerated nodes", "Total iterations", "Time (", "Total time")
#: A row of HiGHS's branch-and-bound table: source letter, nodes, queue, leaves, explored %, ...
HIGHS_ROW = re.compile(r"^\s*[A-Za-z]?\s+\d+\s+\d+\s+\d+\s+[\d.]+%")
