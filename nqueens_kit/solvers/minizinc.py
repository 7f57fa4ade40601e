"""MiniZinc with Gecode as a CP solver entry: the kit's own model file, ``nqueens.mzn``, and the problem as data.

The model (read it: it sits beside this module) says both formulations in MiniZinc: one integer per row with
Gecode's AllDifferent propagator at its default (value) consistency, searched first-fail; or the n² booleans with linear
line constraints, searched cell by cell.  Symmetry breaking is the lex-leader condition on the row-major cell
vector, as in the other methods.  The ``minizinc`` executable flattens it and runs Gecode (``fzn-gecode``); the
kit reads its JSON stream: each board, the status, and Gecode's statistics (nodes, failures, propagations).
MiniZinc keeps the model as written, so reordered instances are not honoured; ``all-cores`` runs Gecode's
parallel search with one thread per core.

>>> MINIZINC.name, MINIZINC.honours("reorder"), MINIZINC.honours("blocked")
('minizinc', False, True)
"""

from __future__ import annotations

import json
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path

from ..errors import SolverError
from ..problem.board import Board, Problem
from ..problem.results import JSON, Options, SolveResult, Statistics, Status, infeasible_message
from ..runtime.isolate import run_executable
from ..runtime.limits import Size
from .base import Capabilities
from .cp import CP_FEATURES, CP_VERBS, FORMULATION_NAMES, CpSolver, Feed, Formulation, model_counts, workers

#: The kit's MiniZinc model.
MODEL = Path(__file__).with_name("nqueens.mzn")
#: The MiniZinc solver configuration the entry runs.
GECODE = "gecode"
#: Seconds MiniZinc may take past its own time limit (flattening, writing its last lines) before it is stopped.
GRACE_SECONDS = 2.0

# Peak memory of a solve (MiniZinc 2.6.4, Gecode 6.2, measured: alldifferent 330 MB at n = 1000; boolean
# 180 MB at n = 200, 840 MB at n = 400): the flattener's and Gecode's share per variable and per literal of the
# model, and for alldifferent per cell (the rows' domains, n values each, in both processes), over a base.
MZN_BASE_BYTES = 80 * 1024**2
MZN_BYTES_PER_VARIABLE = 3_000
MZN_BYTES_PER_LITERAL = 600
MZN_BYTES_PER_CELL_INTEGER = 260

INSTALL_HINT = ("apt-get install minizinc (Debian and Ubuntu; it brings Gecode), or the MiniZinc bundle from "
                "minizinc.org, which includes Gecode")


class _Stopped(Exception):
    """The consumer of the boards stopped: the run ends (and its process with it)."""


@cache
def _solver_configs(executable: str) -> tuple[str, ...]:
    """``id@version`` of every solver configuration MiniZinc knows (asked once a process)."""
    import subprocess

    try:
        proc = subprocess.run([executable, "--solvers-json"], capture_output=True, text=True, timeout=20,
                              stdin=subprocess.DEVNULL, check=False)
        found = json.loads(proc.stdout or "[]")
    except (OSError, subprocess.SubprocessError, ValueError):
        return ()
    return tuple(f"{entry.get('id', '')}@{entry.get('version', '')}" for entry in found if isinstance(entry, dict))


def _gecode_version() -> str | None:
    executable = shutil.which("minizinc")
    if executable is None:
        return None
    return next((config.split("@")[1] for config in _solver_configs(executable)
                 if config.startswith("org.gecode.gecode@")), None)


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


def data(problem: Problem, formulation: Formulation) -> dict[str, JSON]:
    """The model's data for ``problem``."""
    return {"n": problem.n, "integer": formulation.integer, "break_symmetry": problem.break_symmetry,
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


class MiniZincGecode(CpSolver):
    """MiniZinc with Gecode (see the module docstring)."""

    name = "minizinc"
    kind = "minizinc"
    description = "MiniZinc with Gecode: the kit's own .mzn model, Gecode's AllDifferent, first-fail search"
    capabilities = Capabilities(in_process=False, time_limit=True, statistics=("nodes", "failures", "propagations"))
    marker = "P"
    product_name = "Gecode (MiniZinc)"
    verbs, variants = CP_VERBS, FORMULATION_NAMES
    features = CP_FEATURES - {"reorder"}  # MiniZinc keeps the model as written
    settings = frozenset({"one-worker", "all-cores"})
    advice = "the textbook CP solver: propagation and first-fail search, no learning"

    def available(self) -> bool:
        return shutil.which("minizinc") is not None and _gecode_version() is not None

    def install_hint(self) -> str:
        return INSTALL_HINT

    def version(self) -> str | None:
        gecode = _gecode_version()
        if not gecode:
            return None
        executable = shutil.which("minizinc")
        own = _minizinc_version(executable) if executable else None
        return f"Gecode {gecode} through MiniZinc" + (f" {own}" if own else "")

    def options(self, settings: str | None, order: int | None, enumerate_all: bool = False) -> Options:
        threads = workers(settings, enumerate_all)
        options: Options = {"settings": settings or "one-worker", "solver": GECODE, "threads": threads,
                            "alldifferent": "value consistency"}
        if enumerate_all:
            options["all_solutions"] = True
        return options

    def size(self, problem: Problem, formulation: Formulation) -> Size:
        variables, constraints, literals = model_counts(problem, formulation)
        memory = MZN_BASE_BYTES + MZN_BYTES_PER_VARIABLE * variables + MZN_BYTES_PER_LITERAL * literals
        if formulation.integer:
            memory += MZN_BYTES_PER_CELL_INTEGER * problem.n ** 2
        return Size(variables=variables, constraints=constraints, nonzeros=literals, memory=memory)

    def _run(self, problem: Problem, formulation: Formulation, settings: str | None, deadline: float | None,
             stream: _Stream, enumerate_all: bool, stopped: Callable[[], bool] | None = None) -> float:
        """Run MiniZinc on the problem, its output to ``stream``, until it ends, ``deadline`` passes or
        ``stopped()`` turns True; returns the seconds it ran."""
        threads = workers(settings, enumerate_all)
        with tempfile.TemporaryDirectory(prefix="nqueens-kit-mzn-") as tmp:
            path = Path(tmp) / "data.json"
            path.write_text(json.dumps(data(problem, formulation)))
            command = ["minizinc", "--solver", GECODE, str(MODEL), str(path), "--json-stream", "--statistics"]
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

    def solve(self, problem: Problem, formulation: Formulation, settings: str | None, order: int | None,
              deadline: float | None) -> SolveResult:
        variables, constraints, _ = model_counts(problem, formulation)
        result = SolveResult.of(problem, "cp", Status.SOLVED, variant=formulation.name, variant_kind="formulation",
                                solver=self.name, variables=variables, constraints=constraints,
                                options=self.options(settings, order))
        stream = _Stream(problem.n)
        result.solve_seconds = self._run(problem, formulation, settings, deadline, stream, enumerate_all=False)
        result.stats = {"status": stream.status or ("SATISFIED" if stream.boards else "NONE"), **stream.stats}
        if stream.boards:
            result.queens = stream.boards[0]
        elif stream.status == "UNSATISFIABLE":
            result.status = Status.INFEASIBLE
            result.message = infeasible_message(problem)
        elif deadline is not None and (stream.status == "UNKNOWN" or time.monotonic() >= deadline):
            result.status = Status.TIMEOUT
            result.message = "no board within the time limit"
        else:
            result.status = Status.ERROR
            why = "; ".join(stream.errors) or f"status {stream.status or 'none'}"
            result.message = f"MiniZinc stopped without an answer ({why})"
        return result

    def boards(self, problem: Problem, formulation: Formulation, settings: str | None,
               order: int | None) -> Iterator[Board]:
        feed: Feed[Board] = Feed()
        stream = _Stream(problem.n, on_board=feed)

        def produce() -> None:
            try:
                self._run(problem, formulation, settings, None, stream, enumerate_all=True, stopped=feed.stopped.is_set)
            except _Stopped:
                return
            if not feed.stopped.is_set() and stream.status not in ("ALL_SOLUTIONS", "UNSATISFIABLE"):
                why = "; ".join(stream.errors) or f"status {stream.status or 'none'}"
                raise SolverError(f"MiniZinc stopped before it had listed every board ({why})")

        return feed.items(produce, "minizinc enumeration")


MINIZINC = MiniZincGecode()
