"""Timing SAT against ILP: sweeps over n, each run in its own process with a wall-clock limit.

Inside:

- :class:`Config`: one way of solving (``sat`` + encoding + SAT solver, ``ilp`` + formulation + ILP solver,
  or ``construct``); :func:`make_configs` builds the cross product, routing solver names to their method
  and refusing solvers that are not installed.
- :func:`parse_ns`: ``"4,8,16"`` and ``"4:64:4"`` (inclusive) board-size lists.
- :func:`random_preplacement`: K non-attacking queens from a seed (N-queens *completion* instances).
- :func:`run_sweep`: every (n, repeat, configuration) run in a fresh worker process
  (``python -m nqueens_kit.timing --worker SPEC``) that is killed, with its solver processes, when the
  time limit passes; one CSV row per run, flushed to disk as soon as it ends; resumable.
- :func:`read_results` and :func:`summarise`: rows back from a CSV, and medians / min / max per
  (configuration, n) for the plots and the report.
- :func:`environment`: the machine, Python, package and solver versions written next to the CSV.

Why a process per run: pycosat (like most in-process solvers) cannot be interrupted, and a fresh process
gives each run the same starting state and its own peak-memory figure.  The clock starts when the worker
says it has imported its solver, so interpreter start-up is not charged to the run.

>>> parse_ns("4:16:4"), parse_ns("5,6,7")
([4, 8, 12, 16], [5, 6, 7])
>>> [c.label for c in make_configs(["sat", "construct"], encodings=["pairwise", "sequential"])]
['SAT pairwise/pycosat', 'SAT sequential/pycosat', 'construct']
>>> rows = run_sweep(make_configs("sat", encodings="pairwise"), [3, 4], repeat=1, progress=False)
>>> [(r["n"], r["status"], r["verified"], r["clauses"]) for r in rows]
[(3, 'infeasible', None, 34), (4, 'solved', True, 84)]
"""

from __future__ import annotations

import csv
import json
import math
import os
import platform
import queue
import random
import shlex
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import IO, Any

from .board import Cell, Problem, attacks, parse_n, verify
from .errors import InputError

METHODS = ("sat", "ilp", "construct")
#: The issue's default sweep: n = 4..64 step 4; SAT pairwise and sequential with pycosat; ILP lines with CBC.
DEFAULT_NS = "4:64:4"
DEFAULT_METHODS = ("sat", "ilp")
DEFAULT_ENCODINGS = ("pairwise", "sequential")
DEFAULT_FORMULATIONS = ("lines",)
DEFAULT_SOLVERS = {"sat": "pycosat", "ilp": "cbc"}
DEFAULT_REPEAT = 3
DEFAULT_TIMEOUT = 30.0
#: How long a worker may take to start Python and import its solver before the run counts as an error.
STARTUP_SECONDS = 120.0

COLUMNS = (
    "n", "method", "encoding", "formulation", "solver", "repeat", "status",
    "variables", "clauses", "constraints", "build_seconds", "solve_seconds", "total_seconds",
    "peak_rss_mb", "verified", "place_random", "preplaced", "seed", "time_limit", "message",
)
STATUSES = ("solved", "infeasible", "timeout", "error", "skipped")
#: Rows a resumed sweep keeps; ``error`` and ``skipped`` rows are dropped and run again.
DONE_STATUSES = ("solved", "infeasible", "timeout")
_INT_COLUMNS = ("n", "repeat", "variables", "clauses", "constraints", "place_random", "seed")
_FLOAT_COLUMNS = ("build_seconds", "solve_seconds", "total_seconds", "peak_rss_mb", "time_limit")
_READY = "nqueens-kit-worker ready"
_RESULT = "nqueens-kit-worker result "


# ------------------------------------------------------------------------------------ configurations


@dataclass(frozen=True)
class Config:
    """One way of solving: ``method`` plus its encoding (SAT) or formulation (ILP) and solver."""

    method: str
    encoding: str | None = None
    formulation: str | None = None
    solver: str | None = None

    @property
    def label(self) -> str:
        """A short name for legends and table headers, e.g. ``SAT pairwise/pycosat``."""
        if self.method == "sat":
            return f"SAT {self.encoding}/{self.solver}"
        if self.method == "ilp":
            return f"ILP {self.formulation}/{self.solver}"
        return self.method

    @property
    def key(self) -> tuple[str, str, str, str]:
        return (self.method, self.encoding or "", self.formulation or "", self.solver or "")

    @classmethod
    def parse(cls, text: str) -> Config:
        """``sat:pairwise:pycosat``, ``sat:sequential`` (default solver), ``ilp:lines:cbc``, ``construct``."""
        parts = [p.strip() for p in str(text).split(":")]
        method = parts[0]
        if method == "construct" and len(parts) == 1:
            return cls("construct")
        if method in ("sat", "ilp") and 1 <= len(parts) <= 3 and all(parts):
            default = DEFAULT_ENCODINGS[0] if method == "sat" else DEFAULT_FORMULATIONS[0]
            what = parts[1] if len(parts) > 1 else default
            solver = parts[2] if len(parts) > 2 else DEFAULT_SOLVERS[method]
            return make_configs([method], **{"encodings" if method == "sat" else "formulations": [what]},
                                solvers=[solver])[0]
        raise InputError(
            f"a configuration is sat:ENCODING[:SOLVER], ilp:FORMULATION[:SOLVER] or construct, not {text!r}"
        )

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> Config:
        return cls(row["method"], row.get("encoding") or None, row.get("formulation") or None,
                   row.get("solver") or None)


def _split(values: str | Iterable[str] | None) -> list[str] | None:
    if values is None:
        return None
    items = values.split(",") if isinstance(values, str) else list(values)
    items = [str(v).strip() for v in items if str(v).strip()]
    return list(dict.fromkeys(items))


def _ilp_module() -> Any:
    from . import formulations, solvers

    class _Ilp:
        get_formulation = staticmethod(formulations.get_formulation)
        ILP_SOLVERS = solvers.ILP_SOLVERS

        @staticmethod
        def get_ilp_solver(name: str) -> Any:
            return solvers.get_solver("ilp", name)

    return _Ilp


def make_configs(
    methods: str | Iterable[str] = DEFAULT_METHODS,
    encodings: str | Iterable[str] | None = None,
    formulations: str | Iterable[str] | None = None,
    solvers: str | Iterable[str] | None = None,
) -> list[Config]:
    """The cross product: sat x encodings x SAT solvers, ilp x formulations x ILP solvers, construct once.

    Solver names are routed by registry (:data:`nqueens_kit.sat.SAT_SOLVERS`, ``ILP_SOLVERS``); a solver that
    is not installed raises :class:`~nqueens_kit.errors.SolverNotAvailable` before anything runs.
    Lists may be given as comma-separated strings.
    """
    from .encodings import get_encoding
    from .solvers import SAT_SOLVERS, get_solver

    def get_sat_solver(name: str) -> Any:
        return get_solver("sat", name)

    method_list = _split(methods) or []
    if not method_list:
        raise InputError(f"give at least one method; valid: {', '.join(METHODS)}")
    for method in method_list:
        if method not in METHODS:
            raise InputError(f"unknown method {method!r}; valid: {', '.join(METHODS)}")
    encoding_list = _split(encodings)
    formulation_list = _split(formulations)
    if encoding_list is not None and "sat" not in method_list:
        raise InputError("encodings belong to the sat method; add sat to the methods or drop the encodings")
    if formulation_list is not None and "ilp" not in method_list:
        raise InputError("formulations belong to the ilp method; add ilp to the methods or drop the formulations")
    encoding_list = encoding_list or list(DEFAULT_ENCODINGS)
    formulation_list = formulation_list or list(DEFAULT_FORMULATIONS)
    for encoding in encoding_list:
        get_encoding(encoding)
    ilp = _ilp_module() if "ilp" in method_list else None
    if ilp is not None:
        for formulation in formulation_list:
            ilp.get_formulation(formulation)

    routed: dict[str, list[str]] = {"sat": [], "ilp": []}
    ilp_names = set(ilp.ILP_SOLVERS) if ilp is not None else {"cbc", "highs"}
    for name in _split(solvers) or []:
        if name in ilp_names:
            method = "ilp"
        elif name in SAT_SOLVERS:
            method = "sat"
        else:
            try:
                name = get_sat_solver(name).name
            except InputError:
                valid = ", ".join([*SAT_SOLVERS, *sorted(ilp_names)])
                raise InputError(f"unknown solver {name!r}; valid: {valid}, or a DIMACS solver on PATH") from None
            method = "sat"
        if method not in method_list:
            raise InputError(f"{name} is a{'n ILP' if method == 'ilp' else ' SAT'} solver but {method} is not "
                             f"among the methods ({', '.join(method_list)}); add it or drop the solver")
        routed[method].append(name)

    configs: list[Config] = []
    if "sat" in method_list:
        names = routed["sat"] or [DEFAULT_SOLVERS["sat"]]
        for name in names:
            get_sat_solver(name).require()
        configs += [Config("sat", encoding=e, solver=s) for e in encoding_list for s in names]
    if ilp is not None:
        names = routed["ilp"] or [DEFAULT_SOLVERS["ilp"]]
        for name in names:
            ilp.get_ilp_solver(name).require()
        configs += [Config("ilp", formulation=f, solver=s) for f in formulation_list for s in names]
    if "construct" in method_list:
        configs.append(Config("construct"))
    return configs


def parse_ns(text: str | int | Iterable[int]) -> list[int]:
    """Board sizes from ``"4,8,16"``, ``"4:64:4"`` (stop included), ``"4:8"`` (step 1) or a mix; sorted, unique.

    >>> parse_ns("4:10:3,16")
    [4, 7, 10, 16]
    """
    if isinstance(text, int) and not isinstance(text, bool):
        return [parse_n(text)]
    if not isinstance(text, str):
        return sorted({parse_n(v) for v in text})
    usage = "board sizes are a list like 4,8,16 or a range START:STOP[:STEP] like 4:64:4 (STOP included)"
    sizes: set[int] = set()
    for item in text.split(","):
        item = item.strip()
        if not item:
            raise InputError(f"{usage}, not {text!r}")
        parts = item.split(":")
        try:
            numbers = [int(p) for p in parts]
        except ValueError:
            raise InputError(f"{usage}, not {text!r}") from None
        if len(numbers) == 1:
            sizes.add(parse_n(numbers[0]))
        elif len(numbers) in (2, 3):
            start, stop = parse_n(numbers[0]), parse_n(numbers[1])
            step = numbers[2] if len(numbers) == 3 else 1
            if step < 1 or stop < start:
                raise InputError(f"{usage}; in {item!r} STOP must be at least START and STEP at least 1")
            sizes.update(range(start, stop + 1, step))
        else:
            raise InputError(f"{usage}, not {text!r}")
    return sorted(sizes)


# ---------------------------------------------------------------------------------- random instances


def random_preplacement(n: int, k: int, seed: int, repeat: int = 1) -> tuple[Cell, ...]:
    """K non-attacking queens on an n x n board, the same for the same (n, k, seed, repeat) everywhere.

    Each placement is drawn uniformly row by row among the cells no earlier queen attacks, restarting on
    a dead end; it may well have no completion (the run then reports ``infeasible``).  Needs 0 <= k < n.

    >>> random_preplacement(8, 3, seed=1) == random_preplacement(8, 3, seed=1)
    True
    >>> len(random_preplacement(8, 3, seed=1))
    3
    """
    if not 0 <= k < n:
        raise InputError(f"cannot pre-place {k} queens on a {n}x{n} board for a completion instance: "
                         f"the number must be from 0 to {n - 1}")
    # A string seed is hashed with SHA-512, so the instance does not depend on PYTHONHASHSEED.
    rng = random.Random(f"nqueens-kit:{n}:{k}:{seed}:{repeat}")
    for _attempt in range(10_000):
        rows = sorted(rng.sample(range(1, n + 1), k))
        placed: list[Cell] = []
        for r in rows:
            free = [(r, c) for c in range(1, n + 1) if not any(attacks((r, c), q) for q in placed)]
            if not free:
                break
            placed.append(rng.choice(free))
        else:
            return tuple(placed)
    raise InputError(f"found no {k} non-attacking queens on a {n}x{n} board; use fewer")  # pragma: no cover


def _cells_text(cells: Iterable[Cell]) -> str:
    return " ".join(f"{r},{c}" for r, c in cells)


# ----------------------------------------------------------------------------------------- the worker


def _peak_rss_mb() -> float | None:
    """Peak resident memory of this process in MB.

    On Linux ``ru_maxrss`` keeps the high-water mark of the process image before ``exec``, that is of the
    parent that started the worker, so the kernel's per-image ``VmHWM`` is read instead.  Elsewhere
    ``ru_maxrss`` (bytes on macOS, KB otherwise); None where neither exists.
    """
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return round(int(line.split()[1]) / 1024, 1)
    except (OSError, ValueError, IndexError):
        pass
    try:
        import resource
    except ImportError:
        return None
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return round(peak / (1024 * 1024 if sys.platform == "darwin" else 1024), 1) if peak else None


def _prepare(spec: Mapping[str, Any]) -> Callable[[], Any]:
    """Import what the run needs (so imports are not timed) and return the function that runs it."""
    method = spec["method"]
    problem = Problem(int(spec["n"]), tuple(tuple(c) for c in spec.get("preplaced", ())))
    if method == "sat":
        from .methods import solve
        from .solvers import get_solver

        backend = get_solver("sat", spec["solver"])
        if backend.name == "pycosat":
            import pycosat  # noqa: F401
        elif getattr(backend, "kind", "") == "pysat":
            import pysat.solvers  # noqa: F401
        return lambda: solve(problem, "sat", spec["encoding"], spec["solver"], isolated=False)
    if method == "ilp":
        import pulp  # noqa: F401  (the ILP module imports PuLP on first use, which must not be timed)

        from .methods import solve

        if spec["solver"] == "highs":
            try:
                import highspy  # noqa: F401
            except ImportError:
                pass  # solve_ilp explains a missing HiGHS itself
        return lambda: solve(problem, "ilp", spec["formulation"], spec["solver"], isolated=False)
    if method == "construct":
        from .construct import solve_construct

        return lambda: solve_construct(problem)
    raise InputError(f"unknown method {method!r}; valid: {', '.join(METHODS)}")


def run_spec(spec: Mapping[str, Any], ready: Callable[[], None] = lambda: None) -> dict[str, Any]:
    """Run one solve in this process and return the worker's record (what the CSV row is made of).

    ``ready`` is called once the imports are done, just before the clock starts.
    """
    try:
        solve = _prepare(spec)
    except Exception as exc:  # a bad spec or a broken install is this run's error, not the sweep's
        return {"status": "error", "message": _one_line(exc)}
    ready()
    start = time.perf_counter()
    try:
        result = solve()
    except Exception as exc:
        return {"status": "error", "message": _one_line(exc), "total_seconds": time.perf_counter() - start,
                "peak_rss_mb": _peak_rss_mb()}
    total = time.perf_counter() - start
    return {
        "status": result.status, "queens": [list(q) for q in result.queens],
        "variables": result.variables, "clauses": result.clauses, "constraints": result.constraints,
        "build_seconds": result.build_seconds, "solve_seconds": result.solve_seconds, "total_seconds": total,
        "peak_rss_mb": _peak_rss_mb(),
        "verified": result.verified, "message": result.message,
    }


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _worker_main(spec_text: str) -> int:
    # Solvers that print to standard output (C libraries write to file descriptor 1 directly) must not
    # mix with the result line, so fd 1 becomes stderr and the result goes to a private copy of stdout.
    out = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    sys.stdout = sys.stderr

    def ready() -> None:
        out.write(_READY + "\n")
        out.flush()

    spec = json.loads(spec_text)
    record = run_spec(spec, ready)
    out.write(_RESULT + json.dumps(record) + "\n")
    out.flush()
    return 0 if record["status"] != "error" else 1


def worker_command(spec: Mapping[str, Any]) -> list[str]:
    """The command line of one worker process."""
    return [sys.executable, "-m", "nqueens_kit.timing", "--worker", json.dumps(spec)]


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    """Stop the worker and any solver process it started (even if the worker itself has already exited).

    The worker leads its own process group, so CBC or a DIMACS binary it started goes with it; the group
    id cannot be taken by another process while any member is alive.
    """
    try:
        if os.name == "posix":
            os.killpg(proc.pid, signal.SIGKILL)
        elif proc.poll() is None:
            subprocess.run(["taskkill", "/F", "/T", "/PID", str(proc.pid)], capture_output=True, check=False)
    except ProcessLookupError:
        pass  # everyone has already gone
    except OSError:
        if proc.poll() is None:
            proc.kill()


def _read_lines(stream: IO[bytes], lines: queue.Queue[bytes | None]) -> None:
    for line in iter(stream.readline, b""):
        lines.put(line)
    lines.put(None)


def run_worker(spec: Mapping[str, Any], timeout: float | None) -> dict[str, Any]:
    """Run one spec in a fresh process; the record gets status ``timeout`` if it passes ``timeout`` seconds.

    The limit counts from the worker's "ready" line (after its imports) and covers build and solve.
    """
    scratch = tempfile.mkdtemp(prefix="nqueens-kit-run-")
    env = dict(os.environ, TMPDIR=scratch, TEMP=scratch, TMP=scratch, PYTHONUNBUFFERED="1")
    stderr_file = tempfile.TemporaryFile(dir=scratch)
    kwargs: dict[str, Any] = {"start_new_session": True} if os.name == "posix" else {
        "creationflags": getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0)}
    try:
        try:
            proc = subprocess.Popen(worker_command(spec), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                    stderr=stderr_file, env=env, **kwargs)
        except OSError as exc:
            return {"status": "error", "message": f"cannot start the worker: {exc.strerror or exc}"}
        lines: queue.Queue[bytes | None] = queue.Queue()
        assert proc.stdout is not None
        reader = threading.Thread(target=_read_lines, args=(proc.stdout, lines), daemon=True)
        reader.start()
        started = time.monotonic()
        ready_at: float | None = None
        record: dict[str, Any] | None = None
        try:
            while True:
                if ready_at is None:
                    remaining = started + STARTUP_SECONDS - time.monotonic()
                else:
                    remaining = math.inf if timeout is None else ready_at + timeout - time.monotonic()
                try:
                    line = lines.get(timeout=None if remaining == math.inf else max(0.0, remaining))
                except queue.Empty:
                    _kill_group(proc)
                    if ready_at is None:
                        return {"status": "error",
                                "message": f"the worker did not start within {STARTUP_SECONDS:g} s"}
                    return {"status": "timeout", "total_seconds": time.monotonic() - ready_at,
                            "message": f"no answer within the time limit of {timeout:g} s"}
                if line is None:
                    break
                text = line.decode("utf-8", "replace").rstrip("\n")
                if text == _READY:
                    ready_at = time.monotonic()
                elif text.startswith(_RESULT):
                    record = json.loads(text[len(_RESULT):])
                    break  # the answer is in; whatever the process does on its way out does not matter
        finally:
            _kill_group(proc)
            proc.wait()
            reader.join(5)
            proc.stdout.close()
        if record is not None:
            return record
        stderr_file.seek(0)
        tail = [ln for ln in stderr_file.read().decode("utf-8", "replace").splitlines() if ln.strip()]
        code = proc.returncode
        if code is not None and code < 0:
            try:
                why = f"the worker was killed by {signal.Signals(-code).name}"
            except ValueError:
                why = f"the worker was killed by signal {-code}"
        else:
            why = f"the worker exited with status {code} without a result"
        return {"status": "error", "message": why + (f": {tail[-1].strip()}" if tail else "")}
    finally:
        stderr_file.close()
        shutil.rmtree(scratch, ignore_errors=True)


# ------------------------------------------------------------------------------------------ the sweep


@dataclass(frozen=True)
class Run:
    """One planned run: a configuration at one n, one repeat, one instance."""

    config: Config
    n: int
    repeat: int
    preplaced: tuple[Cell, ...] = ()

    @property
    def key(self) -> tuple[Any, ...]:
        return (*self.config.key, self.n, self.repeat, _cells_text(self.preplaced))

    def spec(self) -> dict[str, Any]:
        return {**asdict(self.config), "n": self.n, "preplaced": [list(c) for c in self.preplaced]}


def plan_runs(configs: Sequence[Config], ns: Sequence[int], repeat: int, place_random: int = 0,
              seed: int = 0) -> list[Run]:
    """Every run of a sweep in order: by n, then repeat, then configuration.

    Interleaving the configurations means a slow drift of the machine (other jobs, heat) affects every
    configuration alike, and a notebook watching the plot sees all lines grow together.
    """
    runs = []
    for n in ns:
        for r in range(1, repeat + 1):
            placed = random_preplacement(n, place_random, seed, r) if place_random else ()
            runs.extend(Run(config, n, r, placed) for config in configs)
    return runs


def row_key(row: Mapping[str, Any]) -> tuple[Any, ...]:
    """The identity of a CSV row: configuration, n, repeat and instance."""
    return (row["method"], row.get("encoding") or "", row.get("formulation") or "", row.get("solver") or "",
            int(row["n"]), int(row["repeat"]), row.get("preplaced") or "")


def _make_row(run: Run, record: Mapping[str, Any], place_random: int, seed: int,
              time_limit: float | None) -> dict[str, Any]:
    queens = [tuple(q) for q in record.get("queens") or ()]
    status = record.get("status", "error")
    verified = verify(run.n, queens, run.preplaced) if status == "solved" else None
    row = {column: None for column in COLUMNS}
    row.update(
        n=run.n, method=run.config.method, encoding=run.config.encoding, formulation=run.config.formulation,
        solver=run.config.solver, repeat=run.repeat, status=status, verified=verified,
        place_random=place_random, preplaced=_cells_text(run.preplaced), seed=seed if place_random else None,
        time_limit=time_limit, message=" ".join(str(record.get("message") or "").split()),
    )
    for column in ("variables", "clauses", "constraints", "build_seconds", "solve_seconds", "total_seconds",
                   "peak_rss_mb"):
        if record.get(column) is not None:
            row[column] = record[column]
    if status == "solved" and not verified:
        row["message"] = (row["message"] + " " if row["message"] else "") + "the board does NOT verify"
    return row


def _csv_value(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:.6g}" if abs(value) >= 1e-3 or value == 0 else f"{value:.3e}"
    return value


class _ResultsFile:
    """The CSV being written: one row at a time, flushed and synced so an interruption loses nothing."""

    def __init__(self, path: Path, existing: list[dict[str, Any]]) -> None:
        self.path = path
        self.handle: IO[str] | None = None
        self._open(existing)

    def _open(self, existing: list[dict[str, Any]]) -> None:
        folder = self.path.parent
        if not folder.is_dir():
            raise InputError(f"cannot write {self.path}: the folder {folder} does not exist")
        try:
            # Kept rows go to a new file that replaces the old one in one step, so a crash here leaves
            # either the old file or the new one, never half of each.
            fd, tmp = tempfile.mkstemp(prefix=f".{self.path.name}.", dir=folder)
            # mkstemp makes the file private (0600); a results file should get the user's usual mode
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)
            with os.fdopen(fd, "w", newline="", encoding="utf-8") as out:
                writer = csv.DictWriter(out, fieldnames=COLUMNS, lineterminator="\n")
                writer.writeheader()
                for row in existing:
                    writer.writerow({k: _csv_value(row.get(k)) for k in COLUMNS})
                out.flush()
                os.fsync(out.fileno())
            os.replace(tmp, self.path)
            self.handle = open(self.path, "a", newline="", encoding="utf-8")
        except OSError as exc:
            raise InputError(f"cannot write {self.path}: {exc.strerror or exc}; choose another output file") from None
        self.writer = csv.DictWriter(self.handle, fieldnames=COLUMNS, lineterminator="\n")

    def write(self, row: Mapping[str, Any]) -> None:
        assert self.handle is not None
        self.writer.writerow({k: _csv_value(row.get(k)) for k in COLUMNS})
        self.handle.flush()
        os.fsync(self.handle.fileno())

    def close(self) -> None:
        if self.handle is not None:
            self.handle.close()
            self.handle = None


def meta_path(csv_path: str | os.PathLike[str]) -> Path:
    """Where the sidecar JSON of a results CSV lives: ``results.csv.meta.json``."""
    path = Path(csv_path)
    return path.with_name(path.name + ".meta.json")


def _write_json(path: Path, data: Any) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        tmp.write_text(json.dumps(data, indent=2, default=str) + "\n", encoding="utf-8")
        os.replace(tmp, path)
    except OSError as exc:
        raise InputError(f"cannot write {path}: {exc.strerror or exc}") from None


def read_meta(csv_path: str | os.PathLike[str]) -> dict[str, Any] | None:
    """The sidecar of a results CSV, or None if there is none (or it is unreadable)."""
    try:
        return json.loads(meta_path(csv_path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


class SweepInterrupted(KeyboardInterrupt):
    """Ctrl-C during a sweep: every finished run is on disk; ``rows`` holds them."""

    def __init__(self, rows: list[dict[str, Any]], out: Path | None) -> None:
        super().__init__("sweep interrupted")
        self.rows = rows
        self.out = out


def run_sweep(
    configs: Sequence[Config | str],
    ns: Sequence[int] | str,
    repeat: int = DEFAULT_REPEAT,
    timeout: float | None = DEFAULT_TIMEOUT,
    out: str | os.PathLike[str] | None = None,
    progress: bool = True,
    on_row: Callable[[dict[str, Any]], None] | None = None,
    place_random: int = 0,
    seed: int = 0,
    resume: bool = False,
    force: bool = False,
    skip_after_timeout: bool = False,
    command: str | None = None,
) -> list[dict[str, Any]]:
    """Run every (n, repeat, configuration) in its own process; return the rows (kept ones included).

    ``out``: a CSV path written row by row (plus :func:`meta_path` beside it), or None to keep rows in
    memory only.  An existing ``out`` needs ``resume`` (skip the runs already there; ``error`` and
    ``skipped`` rows are run again) or ``force`` (start over).  ``on_row`` is called with each new row as
    it is written, e.g. to redraw a plot in a notebook.  ``place_random`` K > 0 pre-places K random
    non-attacking queens (from ``seed``; the same instance for every configuration at a given n and repeat).
    ``skip_after_timeout`` records larger n of a configuration that timed out as ``skipped``.
    Ctrl-C raises :class:`SweepInterrupted` after stopping the current worker.
    """
    from tqdm.auto import tqdm

    config_list = [c if isinstance(c, Config) else Config.parse(c) for c in configs]
    if not config_list:
        raise InputError("give at least one configuration to time")
    sizes = parse_ns(ns) if isinstance(ns, str) else sorted({parse_n(n) for n in ns})
    if not sizes:
        raise InputError("give at least one board size")
    if isinstance(repeat, bool) or not isinstance(repeat, int) or repeat < 1:
        raise InputError(f"repeat must be a whole number of at least 1, not {repeat!r}")
    if timeout is not None and not (timeout > 0 and math.isfinite(timeout)):
        raise InputError(f"timeout must be a positive number of seconds, not {timeout!r}")
    if place_random:
        if place_random < 0:
            raise InputError(f"the number of random queens must be 0 or more, not {place_random}")
        if place_random >= sizes[0]:
            raise InputError(f"cannot pre-place {place_random} queens when the smallest n is {sizes[0]}: "
                             f"completion needs n above {place_random}; start the sizes at {place_random + 1}")
        if any(c.method == "construct" for c in config_list):
            raise InputError("the construction cannot honour pre-placed queens; drop construct from the methods "
                             "or drop the random pre-placement")
    path = check_output(out, resume, force)
    kept: list[dict[str, Any]] = []
    if path is not None and resume and path.exists():
        kept = [row for row in read_results(path) if _still_done(row, timeout)]
    runs = plan_runs(config_list, sizes, repeat, place_random, seed)
    done = {row_key(row) for row in kept}
    timed_out: dict[tuple[str, ...], int] = {}
    for row in kept:
        if row["status"] == "timeout":
            key = Config.from_row(row).key
            timed_out[key] = min(timed_out.get(key, row["n"]), row["n"])

    results: _ResultsFile | None = None
    meta: dict[str, Any] = {}
    session: dict[str, Any] = {}
    if path is not None:
        results = _ResultsFile(path, kept)
        previous = read_meta(path) if resume else None
        meta = previous if previous and kept else environment([c.solver for c in config_list if c.solver])
        meta["sweep"] = {
            "configs": [c.label for c in config_list], "ns": sizes, "repeat": repeat, "timeout": timeout,
            "place_random": place_random, "seed": seed if place_random else None,
            "skip_after_timeout": skip_after_timeout,
        }
        session = {"started": _now(), "command": command, "resumed": bool(resume and kept), "kept_rows": len(kept)}
        meta.setdefault("sessions", []).append(session)
        _write_json(meta_path(path), meta)

    rows = list(kept)
    todo = [run for run in runs if run.key not in done]
    bar = tqdm(total=len(runs), initial=len(runs) - len(todo), disable=None if progress else True,
               unit="run", dynamic_ncols=True, leave=True)
    new = 0
    try:
        for run in todo:
            bar.set_description(f"{run.config.label} n={run.n} #{run.repeat}", refresh=False)
            first_timeout = timed_out.get(run.config.key)
            if skip_after_timeout and first_timeout is not None and run.n > first_timeout:
                record = {"status": "skipped",
                          "message": f"skipped: this configuration timed out at n = {first_timeout}"}
            else:
                record = run_worker(run.spec(), timeout)
            row = _make_row(run, record, place_random, seed, timeout)
            if row["status"] == "timeout":
                timed_out[run.config.key] = min(timed_out.get(run.config.key, run.n), run.n)
            if results is not None:
                results.write(row)
            rows.append(row)
            new += 1
            bar.update(1)
            if on_row is not None:
                on_row(row)
    except KeyboardInterrupt:
        raise SweepInterrupted(rows, path) from None
    finally:
        bar.close()
        if results is not None:
            results.close()
            session.update(finished=_now(), new_rows=new, complete=new == len(todo))
            try:
                _write_json(meta_path(path), meta)  # type: ignore[arg-type]
            except InputError:
                pass  # the rows are safe; a sidecar that cannot be updated must not hide them
    return rows


def check_output(out: str | os.PathLike[str] | None, resume: bool = False, force: bool = False) -> Path | None:
    """The results path, refused (one line) if it is a folder, or exists without ``resume`` or ``force``."""
    if resume and force:
        raise InputError("resume and force contradict each other; choose one")
    if out is None:
        return None
    path = Path(out)
    if path.is_dir():
        raise InputError(f"{path} is a folder; give a file name for the results, e.g. {path / 'results.csv'}")
    if not path.parent.is_dir():
        raise InputError(f"cannot write {path}: the folder {path.parent} does not exist")
    if path.exists() and not (resume or force):
        raise InputError(f"{path} already exists: resume that sweep (--resume) or start over (--force)")
    return path


def _still_done(row: Mapping[str, Any], timeout: float | None) -> bool:
    """Whether a resumed sweep keeps a row: completed, and a timeout only if the limit has not grown."""
    if row["status"] not in DONE_STATUSES:
        return False
    if row["status"] == "timeout":
        limit = row.get("time_limit")
        return timeout is not None and limit is not None and limit >= timeout
    return True


def _now() -> str:
    return datetime.now(timezone.utc).astimezone().isoformat(timespec="seconds")


# ------------------------------------------------------------------------------------ reading results


def read_results(path: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """The rows of a results CSV with numbers as numbers, ``verified`` as bool and empty cells as None.

    A last line cut short (the machine died mid-write) is ignored; any other malformed line is an
    :class:`InputError` naming it.
    """
    source = Path(path)
    try:
        text = source.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError(f"no such results file: {source}") from None
    except IsADirectoryError:
        raise InputError(f"{source} is a folder, not a results CSV") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read {source}: {getattr(exc, 'strerror', None) or exc}") from None
    lines = text.splitlines(keepends=True)
    if not lines:
        raise InputError(f"{source} is empty; expected a CSV written by nqueens-kit bench")
    complete_tail = text.endswith("\n")
    reader = csv.reader(lines)
    header = next(reader)
    missing = [c for c in ("n", "method", "repeat", "status", "total_seconds") if c not in header]
    if missing:
        raise InputError(f"{source} is not a results CSV from nqueens-kit bench (no column {missing[0]!r})")
    rows: list[dict[str, Any]] = []
    for index, fields in enumerate(reader, start=2):
        last = index == len(lines)
        if not fields:
            continue
        if len(fields) != len(header):
            if last and not complete_tail:
                break
            raise InputError(f"{source}, line {index}: {len(fields)} fields, the header has {len(header)}")
        try:
            rows.append(_typed(dict(zip(header, fields))))
        except ValueError as exc:
            if last and not complete_tail:
                break
            raise InputError(f"{source}, line {index}: {exc}") from None
    return rows


def _typed(raw: Mapping[str, str]) -> dict[str, Any]:
    row: dict[str, Any] = {}
    for key, value in raw.items():
        value = value.strip()
        if value == "":
            row[key] = None if key not in ("message", "preplaced") else ""
        elif key in _INT_COLUMNS:
            row[key] = int(value)
        elif key in _FLOAT_COLUMNS:
            row[key] = float(value)
        elif key == "verified":
            if value not in ("true", "false"):
                raise ValueError(f"verified must be true or false, not {value!r}")
            row[key] = value == "true"
        else:
            row[key] = value
    if row.get("status") not in STATUSES:
        raise ValueError(f"unknown status {row.get('status')!r}; expected one of {', '.join(STATUSES)}")
    if row.get("n") is None or row.get("repeat") is None:
        raise ValueError("n and repeat must not be empty")
    row.setdefault("place_random", 0)
    row["place_random"] = row.get("place_random") or 0
    return row


def summarise(rows: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Per (configuration, place_random, n): counts by status and median / min / max of each time.

    A timed-out run counts as longer than every finished one, so a median is None when half or more of
    the repeats timed out; min and max are over the finished (solved or infeasible) runs.  Errors and
    skipped runs count in ``errors`` / ``skipped`` only.

    >>> rows = [{"n": 8, "method": "sat", "encoding": "pairwise", "solver": "pycosat", "repeat": r,
    ...          "status": "solved", "total_seconds": t, "build_seconds": 0.0, "solve_seconds": t}
    ...         for r, t in ((1, 0.3), (2, 0.1), (3, 0.2))]
    >>> s = summarise(rows)[0]
    >>> s["config"], s["runs"], s["total_median"], s["total_min"], s["total_max"]
    ('SAT pairwise/pycosat', 3, 0.2, 0.1, 0.3)
    """
    groups: dict[tuple[Any, ...], list[Mapping[str, Any]]] = {}
    configs: dict[tuple[Any, ...], Config] = {}
    for row in rows:
        config = Config.from_row(row)
        key = (config.key, int(row.get("place_random") or 0), int(row["n"]))
        groups.setdefault(key, []).append(row)
        configs[key] = config
    summary = []
    for key in sorted(groups, key=lambda k: (_config_order(k[0]), k[1], k[2])):
        group = groups[key]
        config = configs[key]
        finished = [r for r in group if r["status"] in ("solved", "infeasible")]
        timeouts = sum(r["status"] == "timeout" for r in group)
        entry: dict[str, Any] = {
            "config": config.label, "method": config.method, "encoding": config.encoding,
            "formulation": config.formulation, "solver": config.solver, "place_random": key[1], "n": key[2],
            "runs": len(group), "solved": sum(r["status"] == "solved" for r in group),
            "infeasible": sum(r["status"] == "infeasible" for r in group), "timeouts": timeouts,
            "errors": sum(r["status"] == "error" for r in group),
            "skipped": sum(r["status"] == "skipped" for r in group),
            "unverified": sum(r["status"] == "solved" and not r.get("verified") for r in group),
            "time_limit": max((r.get("time_limit") or 0 for r in group), default=0) or None,
        }
        for metric in ("total", "build", "solve"):
            values = [float(r.get(f"{metric}_seconds") or 0.0) for r in finished]
            censored = sorted(values) + [math.inf] * timeouts
            median = statistics.median(censored) if censored else math.inf
            entry[f"{metric}_median"] = median if math.isfinite(median) else None
            entry[f"{metric}_min"] = min(values) if values else None
            entry[f"{metric}_max"] = max(values) if values else None
        for column in ("variables", "clauses", "constraints", "peak_rss_mb"):
            values = [r[column] for r in group if r.get(column) is not None]
            entry[column] = statistics.median(values) if values else None
            if column in ("variables", "clauses", "constraints") and values:
                entry[column] = int(entry[column])
        summary.append(entry)
    return summary


def _config_order(key: tuple[str, ...]) -> tuple[int, tuple[str, ...]]:
    return (METHODS.index(key[0]) if key[0] in METHODS else len(METHODS), key)


# -------------------------------------------------------------------------------------- environment


def _package_version(name: str) -> str | None:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(name)
    except PackageNotFoundError:
        return None


def _memory_gb() -> float | None:
    try:
        pages, size = os.sysconf("SC_PHYS_PAGES"), os.sysconf("SC_PAGE_SIZE")
        return round(pages * size / 1024**3, 1)
    except (ValueError, OSError, AttributeError):
        return None


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.lower().startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _first_line(command: Sequence[str]) -> str | None:
    try:
        proc = subprocess.run(list(command), capture_output=True, text=True, timeout=5, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.SubprocessError):
        return None
    for line in (proc.stdout + "\n" + proc.stderr).splitlines():
        line = line.strip().lstrip("c ").strip()
        if line and any(ch.isdigit() for ch in line):
            return line[:120]
    return None


def _solver_versions(solvers: Iterable[str]) -> dict[str, str | None]:
    versions: dict[str, str | None] = {}
    for name in dict.fromkeys(solvers):
        if name == "cbc":
            versions[name] = _cbc_version()
        elif name == "pycosat":
            try:
                import pycosat

                versions[name] = f"pycosat {pycosat.__version__}"
            except ImportError:
                versions[name] = None
        elif name == "highs":
            versions[name] = f"highspy {_package_version('highspy')}" if _package_version("highspy") else None
        elif name.startswith("pysat-"):
            versions[name] = f"python-sat {_package_version('python-sat')}"
        else:
            exe = shutil.which(name)
            versions[name] = (_first_line([exe, "--version"]) or exe) if exe else None
    return versions


def _cbc_version() -> str | None:
    """CBC's version line, found the way the ILP module finds CBC (bundled, cbcbox, or on PATH)."""
    try:
        from .solvers import ILP_SOLVERS

        backend = ILP_SOLVERS["cbc"]
        path = backend.engine(msg=False).path
        how = backend.found_as()
    except Exception:  # PuLP or CBC missing: the version is simply unknown
        return None
    try:
        proc = subprocess.run([path, "-quit"], capture_output=True, text=True, timeout=5, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.SubprocessError, TypeError):
        return how
    for line in proc.stdout.splitlines():
        if line.strip().lower().startswith("version"):
            return f"CBC {line.split(':', 1)[-1].strip()} via {how}"
    return how


def environment(solvers: Iterable[str] = ()) -> dict[str, Any]:
    """What the sidecar records about the machine and the software (solver versions where cheap)."""
    from . import __version__

    return {
        "created": _now(),
        "machine": {
            "platform": platform.platform(), "machine": platform.machine(), "cpu": _cpu_model(),
            "cpu_count": os.cpu_count(), "memory_gb": _memory_gb(),
        },
        "python": {"version": platform.python_version(), "implementation": platform.python_implementation(),
                   "executable": sys.executable},
        "packages": {name: _package_version(name) for name in
                     ("pycosat", "pulp", "highspy", "python-sat", "matplotlib", "tqdm")}
                    | {"nqueens-kit": __version__},
        "solvers": _solver_versions(solvers),
    }


def command_line(argv: Sequence[str] | None = None) -> str:
    """The command as typed, for the sidecar and the resume hint."""
    args = list(sys.argv[1:] if argv is None else argv)
    return shlex.join(["nqueens-kit", *args])


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--worker":
        sys.exit(_worker_main(sys.argv[2]))
    print("usage: python -m nqueens_kit.timing --worker SPEC_JSON (used by nqueens-kit bench)", file=sys.stderr)
    sys.exit(2)
