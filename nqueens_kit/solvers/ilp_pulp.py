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
import tempfile
import time
import warnings
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from importlib import import_module
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, Protocol

from ..errors import InputError, SolverError, SolverNotAvailable
from ..problem.results import Answer, Options, Statistics
from ..runtime.console import silenced
from .base import Capabilities, Outcome, Solver, package_version

if TYPE_CHECKING:  # PuLP has no type information: the names say what the objects are
    from pulp import LpProblem, LpSolver

PULP_HINT = "pip install pulp (or conda install -c conda-forge pulp)"

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


class PulpModel(Protocol):
    """What an ILP entry is handed: a PuLP model (``prob``), whether it is the LP relaxation, whether it maximises
    (its optimum must then be proven), and the name of its formulation (for messages)."""

    @property
    def prob(self) -> LpProblem: ...

    @property
    def relaxed(self) -> bool: ...

    @property
    def maximise(self) -> bool: ...

    @property
    def variant(self) -> str: ...


#: An ILP solve's state in an optimiser's words, from its :class:`~.base.Outcome`.
def state_of(outcome: Outcome) -> str:
    """``optimal`` (a solution, proven best), ``feasible`` (a solution, the search stopped early), ``infeasible``
    or ``none`` (stopped without a solution)."""
    if outcome.status == Answer.SAT:
        return "optimal" if outcome.proven else "feasible"
    return "infeasible" if outcome.status == Answer.UNSAT else "none"


def solved_state(prob: LpProblem, returned: Any) -> tuple[str, Statistics]:  # returned: PuLP 4 LpSolveStats
    """``(state, stats)`` from what ``prob.solve`` returned (PuLP 4) or left on ``prob`` (PuLP 2 / 3): the one
    way to read a solve's outcome on every PuLP version the kit allows (PuLP 4 has no ``LpStatus`` table)."""
    if hasattr(returned, "has_solution"):  # PuLP 4: an LpSolveStats
        status = getattr(returned.status, "name", str(returned.status))
        if returned.has_solution:
            state = "optimal" if status in ("Optimal", "GapLimit") else "feasible"
        else:
            state = "infeasible" if status == "Infeasible" else "none"
        stats: Statistics = {"solver_status": status, "solver_seconds": round(float(returned.time), 6)}
        if getattr(returned, "nodes", None) is not None:
            stats["nodes"] = int(returned.nodes)
        return state, stats
    pulp = pulp_module()
    status, solution = prob.status, prob.sol_status
    if solution == pulp.LpSolutionOptimal:
        state = "optimal"
    elif solution == pulp.LpSolutionIntegerFeasible:  # CBC "Stopped on time" with an incumbent, HiGHS at a limit
        state = "feasible"
    elif status == pulp.LpStatusInfeasible or solution == pulp.LpSolutionInfeasible:
        state = "infeasible"
    else:
        state = "none"
    stats = {"solver_status": pulp.LpStatus.get(status, str(status))}
    if getattr(prob, "solutionTime", None):
        stats["solver_seconds"] = round(float(prob.solutionTime), 6)
    return state, stats


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

    def solve(self, model: PulpModel, deadline: float | None = None, settings: str | None = None,
              order: int | None = None, keep_log: bool = False) -> Outcome:
        """Solve ``model`` once, its variables left holding the solution; PuLP's files and the solver's log live in a
        private temporary folder (``keep_log``: the log comes back in ``stats["solver_log"]``).  ``settings`` is
        one the entry takes (None: a relaxation, or the solver's own defaults); the model is already built in the
        instance ``order``."""
        pulp = pulp_module()
        recorded = self.options(settings) if settings and not model.relaxed else {
            "settings": "relaxation" if model.relaxed else "solver defaults", **self.thread_options()}
        options: dict[str, object] = {"msg": False, **self.engine_options(recorded)}
        if deadline is not None:
            options["timeLimit"] = max(0.05, deadline - time.monotonic())
        if model.maximise and not model.relaxed:
            options["gapRel"] = recorded["gapRel"] = 0  # "optimal" must mean proven: solved needs the optimum n
        with tempfile.TemporaryDirectory(prefix="nqueens-kit-ilp-") as tmp:
            log_path = os.path.join(tmp, "solver.log")
            if self.command_line or keep_log:  # an executable's statistics are in its log
                options.update(self.log_options(log_path))
            engine = self._engine(options, model.variant)
            if hasattr(engine, "tmpDir"):
                # PuLP's default is $TMPDIR, or the working directory when that is unusable: never there.
                engine.tmpDir = tmp
                engine.keepFiles = False
            start = time.perf_counter()
            try:
                if self.command_line:
                    returned = model.prob.solve(engine)
                else:  # in this process: its log goes to a file, and nothing it prints reaches the console
                    with silenced():
                        returned = model.prob.solve(engine)
                        if self.ask_again(model.prob):
                            returned = model.prob.solve(engine)
            except OSError as exc:
                raise InputError(f"{self.name} could not write its files in {tmp}: {exc.strerror or exc}") from None
            except getattr(pulp, "PulpError", pulp.PulpSolverError) as exc:
                detail = (str(exc).strip().splitlines() or [repr(exc)])[0]
                if "os error" in detail.lower():  # PuLP 4 reports a failed file write this way
                    raise InputError(f"{self.name} could not write its files in {tmp}: {detail}") from None
                raise SolverError(f"{self.name} failed: {detail}") from None
            seconds = time.perf_counter() - start
            state, stats = solved_state(model.prob, returned)
            text = Path(log_path).read_text(errors="replace") if os.path.exists(log_path) else ""
            state = self.read_statistics(model.prob, text, state, stats)
        stats["found_as"] = self.found_as()
        if keep_log:
            stats["solver_log"] = text
        status = {"optimal": Answer.SAT, "feasible": Answer.SAT, "infeasible": Answer.UNSAT}.get(state, Answer.UNKNOWN)
        stopped = state in ("feasible", "none") and deadline is not None
        return Outcome(status, seconds=seconds, stats=stats, proven=state == "optimal", options=recorded,
                       limit=stopped, why="" if stopped else str(stats.get("solver_status", "no status")))

    def _engine(self, options: dict[str, object], variant: str) -> LpSolver:
        """The PuLP solver object for ``options``; a PuLP whose solver takes no thread count runs it without one
        (single-threaded anyway); an option the formulation needs that the entry's PuLP class lacks is one line."""
        try:
            return self.engine(**options)
        except TypeError:
            options.pop("threads", None)
            try:
                return self.engine(**options)
            except TypeError as exc:
                detail = " ".join(str(exc).split())[:160]
                raise SolverError(f"--solver {self.name} cannot run the {variant} formulation here: its PuLP solver "
                                  f"refused the options {sorted(options)} ({detail})") from None

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
