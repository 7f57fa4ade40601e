"""MiniZinc as the CP solver family's entries: the kit's own model file, ``nqueens.mzn``, and the problem as data,
run by one of the solvers MiniZinc knows (Gecode here).

The model (read it: it sits beside this module) says both formulations in MiniZinc: one integer per row with the
solver's AllDifferent propagator (Gecode's at its default, value, consistency), searched first-fail; or the n²
booleans with linear line constraints, searched cell by cell.  Symmetry breaking is the lex-leader condition on the
row-major cell vector, as in the other methods.  The ``minizinc`` executable flattens it and runs the entry's
``backend`` (``--solver``: Gecode's ``fzn-gecode`` for the registered ``minizinc``); the kit reads its JSON stream:
each board, the status, and the solver's statistics (Gecode's nodes, failures, propagations).  MiniZinc keeps the
model as written, so reordered instances are not honoured; ``all-cores`` runs the solver's parallel search with one
thread per core (``-p``), for the entries that say they take it.

:class:`MiniZincEntry` is parametrised by the solver id, so another backend is one line of :data:`BACKENDS`.

>>> MINIZINC.name, MINIZINC.backend, MINIZINC.honours("reorder"), MINIZINC.honours("blocked")
('minizinc', 'gecode', False, True)
"""

from __future__ import annotations

import json
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from ..errors import SolverError
from ..problem.board import Board
from ..problem.results import JSON, Answer, Options, Statistics
from ..runtime.isolate import run_executable
from ..runtime.limits import Size
from .base import Capabilities, Outcome
from .cp import CP_FEATURES, CP_VERBS, FORMULATION_NAMES, CpModel, CpSolver, Feed, model_counts, workers

#: The kit's MiniZinc model.
MODEL = Path(__file__).with_name("nqueens.mzn")
#: The MiniZinc solver the registered ``minizinc`` entry runs (its ``--solver``).
GECODE = "gecode"
#: Seconds MiniZinc may take past its own time limit (flattening, writing its last lines) before it is stopped.
GRACE_SECONDS = 2.0

# Peak memory of a solve (MiniZinc 2.6.4, Gecode 6.2, measured: alldifferent 330 MB at n = 1000; boolean
# 180 MB at n = 200, 840 MB at n = 400): the flattener's and Gecode's share per variable and per literal of the
# model, and for alldifferent per cell (the rows' domains, n values each, in both processes), over a base.  Other
# backends are taken to need as much.
MZN_BASE_BYTES = 80 * 1024**2
MZN_BYTES_PER_VARIABLE = 3_000
MZN_BYTES_PER_LITERAL = 600
MZN_BYTES_PER_CELL_INTEGER = 260

INSTALL_HINT = ("apt-get install minizinc (Debian and Ubuntu; it brings Gecode), or the MiniZinc bundle from "
                "minizinc.org, which includes Gecode")


class _Stopped(Exception):
    """The consumer of the boards stopped: the run ends (and its process with it)."""


@dataclass(frozen=True)
class SolverConfig:
    """A solver MiniZinc knows (``minizinc --solvers-json``): its id, version, name and tags."""

    id: str
    version: str
    name: str
    tags: tuple[str, ...] = ()

    def known_as(self, backend: str) -> bool:
        """Whether ``--solver backend`` names it: its id, the id's last part, or one of its tags."""
        return backend in (self.id, self.id.rpartition(".")[2], *self.tags)

    @property
    def runs(self) -> bool:
        """Whether MiniZinc can run it here (a solver whose library is missing has no version)."""
        return bool(self.version) and "unknown" not in self.version


@cache
def _solver_configs(executable: str) -> tuple[SolverConfig, ...]:
    """Every solver configuration MiniZinc knows (asked once a process)."""
    import subprocess

    try:
        proc = subprocess.run([executable, "--solvers-json"], capture_output=True, text=True, timeout=20,
                              stdin=subprocess.DEVNULL, check=False)
        found = json.loads(proc.stdout or "[]")
    except (OSError, subprocess.SubprocessError, ValueError):
        return ()
    return tuple(SolverConfig(str(entry.get("id", "")), str(entry.get("version", "")), str(entry.get("name", "")),
                              tuple(str(tag) for tag in entry.get("tags", []) or []))
                 for entry in found if isinstance(entry, dict))


def solver_config(backend: str) -> SolverConfig | None:
    """The solver MiniZinc runs for ``--solver backend`` here, when it can run it (None without MiniZinc)."""
    executable = shutil.which("minizinc")
    if executable is None:
        return None
    return next((config for config in _solver_configs(executable) if config.known_as(backend) and config.runs), None)


@cache
def _minizinc_version(executable: str) -> str | None:
    """MiniZinc's own version (``minizinc --version``: "... version 2.6.4"), asked once a process."""
    import re
    import subprocess

    try:
        proc = subprocess.run([executable, "--version"], capture_output=True, text=True, timeout=20,
                              stdin=subprocess.DEVNULL, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    found = re.search(r"version\s+(\d[\w.]*)", proc.stdout)
    return found.group(1) if found else None


def data(model: CpModel) -> dict[str, JSON]:
    """The data of ``nqueens.mzn`` for the method's ``model``."""
    problem = model.problem
    return {"n": problem.n, "integer": model.integer, "break_symmetry": problem.break_symmetry,
            "placed_rows": [r for r, _ in problem.preplaced], "placed_cols": [c for _, c in problem.preplaced],
            "blocked_rows": [r for r, _ in problem.blocked], "blocked_cols": [c for _, c in problem.blocked]}


def _number(value: JSON) -> int | float | str | None:
    """A statistic as a number where it is one (MiniZinc writes some as text)."""
    if isinstance(value, bool) or value is None:
        return None if value is None else int(value)
    if isinstance(value, (int, float)):
        return value
    text = str(value)
    try:
        return int(text)
    except ValueError:
        try:
            return float(text)
        except ValueError:
            return text


class _Stream:
    """What MiniZinc's JSON stream says, line by line: boards, a status, statistics, errors."""

    def __init__(self, n: int, on_board: Feed[Board] | None = None) -> None:
        self.n = n
        self.on_board = on_board
        self.boards: list[Board] = []
        self.status = ""
        self.stats: Statistics = {}
        self.errors: list[str] = []
        self._pending = b""

    def feed(self, chunk: bytes) -> None:
        self._pending += chunk
        *lines, self._pending = self._pending.split(b"\n")
        for line in lines:
            if line.strip():
                self.line(line.decode("utf-8", "replace"))

    def line(self, text: str) -> None:
        try:
            item = json.loads(text)
        except ValueError:
            self.errors.append(text.strip()[:200])
            return
        kind = item.get("type")
        if kind == "solution":
            columns = json.loads(item["output"]["default"])["q"]
            board = tuple((r, int(c)) for r, c in enumerate(columns, start=1))
            if self.on_board is not None:
                if not self.on_board.put(board):
                    raise _Stopped
            else:
                self.boards.append(board)
        elif kind == "status":
            self.status = str(item.get("status", ""))
        elif kind == "statistics":
            for key, value in dict(item.get("statistics", {})).items():
                self.stats[str(key)] = _number(value)
        elif kind == "error":
            self.errors.append(str(item.get("message", item.get("what", "error")))[:200])


class MiniZincEntry(CpSolver):
    """The kit's model run by MiniZinc with the solver ``backend`` (an id or tag ``--solver`` takes): a CP entry in
    one line.  Every backend takes the model's verbs, features and formulations; an entry claims counters
    (``statistics``), settings (``all-cores`` runs ``-p``) and a recorded AllDifferent consistency only when its
    line states them."""

    kind = "minizinc"
    verbs, variants = CP_VERBS, FORMULATION_NAMES
    features = CP_FEATURES - {"reorder"}  # MiniZinc keeps the model as written

    def __init__(self, name: str, backend: str, *, marker: str, description: str, product_name: str = "",
                 statistics: tuple[str, ...] = (), settings: frozenset[str] = frozenset({"one-worker"}),
                 alldifferent: str = "", hint: str = "", advice: str = "") -> None:
        self.name, self.backend, self.marker, self.description, self.advice = name, backend, marker, description, advice
        self.product_name = product_name or f"{backend} (MiniZinc)"
        self.capabilities = Capabilities(in_process=False, time_limit=True, statistics=statistics)
        self.settings, self.alldifferent = settings, alldifferent
        self.hint = hint or (f"install MiniZinc with a solver it runs as {backend!r} (the bundle from minizinc.org "
                             "includes several)")

    def available(self) -> bool:
        return solver_config(self.backend) is not None

    def install_hint(self) -> str:
        executable = shutil.which("minizinc")
        if executable is None or self.available():
            return self.hint
        known = [config.id for config in _solver_configs(executable) if config.runs]
        return f"{self.hint}; MiniZinc here runs no solver {self.backend!r}, only: {', '.join(known) or 'none'}"

    def version(self) -> str | None:
        config = solver_config(self.backend)
        if config is None:
            return None
        executable = shutil.which("minizinc")
        own = _minizinc_version(executable) if executable else None
        return f"{config.name or config.id} {config.version} through MiniZinc" + (f" {own}" if own else "")

    def options(self, settings: str, order: int | None, enumerate_all: bool = False) -> Options:
        options: Options = {"settings": settings, "solver": self.backend, "threads": workers(settings, enumerate_all)}
        if self.alldifferent:
            options["alldifferent"] = self.alldifferent
        if enumerate_all:
            options["all_solutions"] = True
        return options

    def size(self, model: CpModel) -> Size:
        variables, constraints, literals = model_counts(model)
        memory = MZN_BASE_BYTES + MZN_BYTES_PER_VARIABLE * variables + MZN_BYTES_PER_LITERAL * literals
        if model.integer:
            memory += MZN_BYTES_PER_CELL_INTEGER * model.problem.n ** 2
        return Size(variables=variables, constraints=constraints, nonzeros=literals, memory=memory)

    def _run(self, model: CpModel, settings: str, deadline: float | None, stream: _Stream, enumerate_all: bool,
             stopped: Callable[[], bool] | None = None) -> float:
        """Run MiniZinc on the model, its output to ``stream``, until it ends, ``deadline`` passes or
        ``stopped()`` turns True; returns the seconds it ran."""
        threads = workers(settings, enumerate_all)
        with tempfile.TemporaryDirectory(prefix="nqueens-kit-mzn-") as tmp:
            path = Path(tmp) / "data.json"
            path.write_text(json.dumps(data(model)))
            command = ["minizinc", "--solver", self.backend, str(MODEL), str(path), "--json-stream", "--statistics"]
            if enumerate_all:
                command.append("--all-solutions")
            if threads > 1:
                command += ["-p", str(threads)]
            stop_at = None
            if deadline is not None:
                remaining = max(deadline - time.monotonic(), 0.001)
                command += ["--time-limit", str(max(1, int(remaining * 1000)))]
                stop_at = deadline + GRACE_SECONDS
            start = time.perf_counter()
            errors = bytearray()
            try:
                run_executable(command, on_output=stream.feed, on_error=errors.extend, deadline=stop_at,
                               answered=stopped, grace=0.0)
            except OSError as exc:
                raise SolverError(f"minizinc could not be started: {exc.strerror or exc}") from None
            stream.feed(b"\n")
            if errors.strip() and not stream.status and not stream.boards and not enumerate_all:
                stream.errors.append(errors.decode("utf-8", "replace").strip().splitlines()[-1][:200])
            return time.perf_counter() - start

    def solve(self, model: CpModel, deadline: float | None, settings: str, order: int | None) -> Outcome:
        stream = _Stream(model.problem.n)
        seconds = self._run(model, settings, deadline, stream, enumerate_all=False)
        outcome = Outcome(Answer.UNKNOWN, seconds=seconds, options=self.options(settings, order),
                          stats={"status": stream.status or ("SATISFIED" if stream.boards else "NONE"), **stream.stats})
        if stream.boards:
            outcome.status, outcome.board = Answer.SAT, list(stream.boards[0])
        elif stream.status == "UNSATISFIABLE":
            outcome.status = Answer.UNSAT
        elif deadline is not None and (stream.status == "UNKNOWN" or time.monotonic() >= deadline):
            outcome.limit = True
        else:
            outcome.why = "; ".join(stream.errors) or f"status {stream.status or 'none'}"
        return outcome

    def boards(self, model: CpModel, settings: str, order: int | None) -> Iterator[Board]:
        feed: Feed[Board] = Feed()
        stream = _Stream(model.problem.n, on_board=feed)

        def produce() -> None:
            try:
                self._run(model, settings, None, stream, enumerate_all=True, stopped=feed.stopped.is_set)
            except _Stopped:
                return
            if not feed.stopped.is_set() and stream.status not in ("ALL_SOLUTIONS", "UNSATISFIABLE"):
                why = "; ".join(stream.errors) or f"status {stream.status or 'none'}"
                raise SolverError(f"MiniZinc stopped before it had listed every board ({why})")

        return feed.items(produce, "minizinc enumeration")


#: The MiniZinc entries of the CP registry, one per backend: another backend is one more line, e.g.
#: ``MiniZincEntry("minizinc-chuffed", "chuffed", marker="X", description="MiniZinc with Chuffed")``.
BACKENDS = (
    MiniZincEntry("minizinc", GECODE, marker="P", product_name="Gecode (MiniZinc)",
                  description=("MiniZinc with Gecode: the kit's own .mzn model, Gecode's AllDifferent, "
                               "first-fail search"),
                  statistics=("nodes", "failures", "propagations"), settings=frozenset({"one-worker", "all-cores"}),
                  alldifferent="value consistency", hint=INSTALL_HINT,
                  advice="the textbook CP solver: propagation and first-fail search, no learning"),
)
MINIZINC = BACKENDS[0]
