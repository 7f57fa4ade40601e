"""A sweep: every (n, instance, repeat, configuration), each run in its own process, each row saved at once.

:func:`plan_runs` lists the runs in order (by n, then instance, then repeat, then configuration, so a slow
drift of the machine touches every configuration alike); :func:`run_sweep` runs them through
:func:`~nqueens_kit.bench.worker.run_worker`, writes each row to the results file as soon as it ends, and
keeps the sidecar up to date.  An existing results file needs ``resume`` (its rows are checked against the
plan: a row the sweep would not make, a duplicate or an impossible value is refused) or ``force``.

>>> from nqueens_kit.bench import make_configs
>>> rows = run_sweep(make_configs("sat", encodings="pairwise"), [3, 4], repeat=1, progress=False)
>>> [(r["n"], r["status"], r["verified"], r["clauses"]) for r in rows]
[(3, 'infeasible', None, 34), (4, 'solved', True, 84)]
"""

from __future__ import annotations

import hashlib
import math
import os
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING

from ..errors import InputError
from ..methods import Choice, get_method
from ..methods.base import FEATURE_TEXT
from ..problem.board import Cell, Problem, verify, violations
from ..problem.instances import FAMILIES, cells_text, family_cells, random_preplacement
from ..problem.results import Status
from ..runtime.limits import check_time_limit, over_limit
from . import worker
from .config import choice_from_row, parse_choice, parse_ns
from .environment import command_line, environment, load_average, now
from .results import (
    DONE_STATUSES,
    Lock,
    Meta,
    ResultRow,
    ResultsFile,
    Session,
    extra_columns,
    read_meta,
    read_results,
    target,
    write_meta,
)
from .worker import RunRecord, RunSpec

if TYPE_CHECKING:
    from distributed import Client, SpecCluster
    from distributed import Future as DaskFuture

#: The identity of a run and of its CSV row: method, variant, solver, settings, n, instance, repeat, pre-placed.
RunKey = tuple[str, str, str, str, int, int, int, str]

DEFAULT_REPEAT = 3
DEFAULT_TIMEOUT = 30.0
#: How long to try reaching a Dask scheduler before saying it cannot be reached.
DASK_CONNECT_SECONDS = 10.0
#: A sweep planning more runs than this is refused unless ``max_runs`` is raised.
MAX_RUNS = 10_000


@dataclass(frozen=True)
class Run:
    """One planned run: a configuration on one instance of size n, one repeat."""

    config: Choice
    n: int
    repeat: int
    instance: int = 1
    preplaced: tuple[Cell, ...] = ()
    order: int | None = None  # plain instances: the seed that renumbers and reorders the formula
    blocked: tuple[Cell, ...] = ()  # blocked or excluded-diagonals instances: cells no queen may use

    @property
    def key(self) -> RunKey:
        return (*self.config.key, self.n, self.instance, self.repeat, cells_text(self.preplaced))

    @property
    def problem(self) -> Problem:
        return Problem(self.n, self.preplaced, self.blocked)

    def spec(self) -> RunSpec:
        return {"method": self.config.method, "variant": self.config.variant, "solver": self.config.solver,
                "settings": self.config.settings, "n": self.n, "preplaced": [list(c) for c in self.preplaced],
                "order": self.order, "blocked": [list(c) for c in self.blocked]}


def plan_runs(configs: Sequence[Choice], ns: Sequence[int], repeat: int, place_random: int = 0, seed: int = 0,
              instances: int = 1, family: str = "completion", density: float | None = None) -> list[Run]:
    """Every run of a sweep in order: by n, then instance, then repeat, then configuration.

    Instances are random completions with ``place_random``; without it, ``instances`` > 1 makes each
    instance the plain problem with its variables renumbered and its clauses or constraints reordered
    (a solver's heuristics depend on the order, so one fixed order measures a single point).  The families
    ``blocked`` and ``excluded-diagonals`` draw each instance's blocked cells with ``density``."""
    runs: list[Run] = []
    for n in ns:
        for instance in range(1, instances + 1):
            placed = random_preplacement(n, place_random, seed, instance) if place_random else ()
            blocked = family_cells(family, n, density or 0.0, seed, instance) if family != "completion" else ()
            order = (order_seed(n, seed, instance) if not place_random and not blocked and family == "completion"
                     and instances > 1 else None)
            for r in range(1, repeat + 1):
                runs.extend(Run(config, n, r, instance, placed, order, blocked) for config in configs)
    return runs


def order_seed(n: int, seed: int, instance: int) -> int:
    """The reordering seed of plain instance ``instance`` of size n (the same on every machine)."""
    digest = hashlib.sha256(f"nqueens-kit-instance:{n}:{seed}:{instance}".encode()).digest()
    return int.from_bytes(digest[:6], "big")


def row_key(row: ResultRow) -> RunKey:
    """The identity of a CSV row: configuration, n, instance, repeat and pre-placed queens."""
    return (*choice_from_row(row).key, int(row["n"]), int(row.get("instance") or 1), int(row["repeat"]),
            row.get("preplaced") or "")


def make_row(run: Run, record: RunRecord, place_random: int, seed: int,
             time_limit: float | None, family: str = "completion", density: float | None = None) -> ResultRow:
    """The CSV row of a run from the worker's record; the board is verified here, independently.

    One reading of every outcome (the book's "Outcomes and exit statuses"): an answer, or a solver's "unknown",
    that came after the limit is a timeout; a board that does not verify is a lie caught, an ``error`` row
    (its message says so), as is every other wrong answer the worker caught."""
    queens = [(int(q[0]), int(q[1])) for q in record.get("queens") or ()]
    status = Status.parse(record.get("status", "error"))
    took = record.get("total_seconds")
    late = ((status.finished or status == Status.UNKNOWN) and isinstance(took, (int, float))
            and over_limit(took, time_limit))
    if late:  # an answer after the limit (in the grace before the kill) is a timeout, as the worker says
        status, queens = Status.TIMEOUT, []
    verified = verify(run.n, queens, run.preplaced, run.blocked) if status == Status.SOLVED else None
    wrong = ""
    if verified is False:
        found = violations(run.n, queens, run.preplaced, run.blocked)
        wrong = "the board does NOT verify" + (f" ({found[0]})" if found else "")
        status, verified = Status.ERROR, None
    config = run.config
    row: ResultRow = {
        "n": run.n, "method": config.method, "variant": config.variant, "encoding": config.encoding,
        "formulation": config.formulation, "solver": config.solver, "settings": config.settings,
        "repeat": run.repeat, "instance": run.instance,
        "status": status.value, "verified": verified, "place_random": place_random,
        "preplaced": cells_text(run.preplaced),
        "seed": seed if place_random or run.order is not None or run.blocked else None, "time_limit": time_limit,
        "family": family, "density": density, "blocked": cells_text(run.blocked),
        "known_by": record.get("known_by") if status == Status.INFEASIBLE else None,
        "message": " ".join(str(record.get("message") or "").split()) if not late else
                   f"no answer within the time limit of {time_limit:g} s (it came after {took:.3g} s)",
    }
    for column in ("variables", "clauses", "constraints", "build_seconds", "solve_seconds", "total_seconds",
                   "peak_rss_mb", "solver_seconds", "cpu_seconds", "startup_seconds", "conflicts", "nodes"):
        value = record.get(column)
        row[column] = value if isinstance(value, (int, float)) and math.isfinite(value) else None
    if wrong:
        row["message"] = wrong + (f"; {row['message']}" if row["message"] else "")
    return row


class SweepInterrupted(KeyboardInterrupt):
    """Ctrl-C (or a signal) during a sweep: every finished run is on disk; ``rows`` holds them."""

    def __init__(self, rows: list[ResultRow], out: Path | None, code: int = 130) -> None:
        super().__init__("sweep interrupted")
        self.rows, self.out, self.code = rows, out, code


def check_output(out: str | os.PathLike[str] | None, resume: bool = False, force: bool = False) -> Path | None:
    """The results path, refused (one line) if it is a folder or a device, or exists without ``resume`` or
    ``force``."""
    if resume and force:
        raise InputError("resume and force contradict each other; choose one")
    if out is None:
        return None
    path = target(out)
    if path.exists() and not (resume or force):
        raise InputError(f"{out} already exists: resume that sweep (--resume) or start over (--force)")
    return path


def _kept_rows(path: Path, runs: Sequence[Run], timeout: float | None) -> list[ResultRow]:
    """The rows of a resumed file that still count, after checking every row against the plan."""
    planned = {run.key for run in runs}
    seen: set[RunKey] = set()
    kept = []
    for line, row in enumerate(read_results(path), start=2):
        key = row_key(row)
        if key not in planned:
            raise InputError(f"{path}, line {line}: this sweep would not make that row ({choice_from_row(row).label}, "
                             f"n = {row['n']}, repeat {row['repeat']}); resume with the same options, or --force")
        if key in seen:
            raise InputError(f"{path}, line {line}: a second row for the same run; the file was edited or "
                             "merged: fix it, or start over with --force")
        seen.add(key)
        if _still_done(row, timeout):
            kept.append(row)
    return kept


def _still_done(row: ResultRow, timeout: float | None) -> bool:
    """Whether a resumed sweep keeps a row: completed, and a timeout only if the limit has not grown."""
    if row["status"] not in DONE_STATUSES:
        return False
    if row["status"] in (Status.TIMEOUT, Status.MEMOUT):
        limit = row.get("time_limit")
        return timeout is not None and limit is not None and limit >= timeout
    return True


def _check_plan(config_list: Sequence[Choice], sizes: Sequence[int], repeat: int, instances: int,
                place_random: int, max_runs: int, family: str = "completion", density: float | None = None) -> None:
    for config in config_list:
        get_method(config.method).check(None, "solve", config)  # a sweep times solves
    check_family(config_list, family, density, place_random)
    for what, value in (("repeat", repeat), ("instances", instances)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise InputError(f"{what} must be a whole number of at least 1, not {value!r}")
    if place_random:
        if place_random < 0:
            raise InputError(f"the number of random queens must be 0 or more, not {place_random}")
        if place_random >= sizes[0]:
            raise InputError(f"cannot pre-place {place_random} queens when the smallest n is {sizes[0]}: "
                             f"completion needs n above {place_random}; start the sizes at {place_random + 1}")
        _require(config_list, "preplaced", "drop the random pre-placement")
    elif instances > 1 and family == "completion":  # the other families' methods are checked above
        _require(config_list, "reorder", "or add --place-random K for completion instances (--instances K "
                                          "without it renumbers and reorders each method's model K ways)")
    check_run_count(len(config_list) * len(sizes) * repeat * instances, max_runs)


def _require(config_list: Sequence[Choice], feature: str, otherwise: str) -> None:
    """Refuse (one line) a sweep whose instances ask a feature of a method that does not honour it."""
    for config in config_list:
        method = get_method(config.method)
        if not method.honours(feature, config):
            who = f"--method {method.name}" + (f" with --solver {config.solver}" if method.honours(feature) else "")
            raise InputError(f"{who} cannot honour {FEATURE_TEXT[feature]}: drop it from the methods, {otherwise}")


def check_family(config_list: Sequence[Choice], family: str, density: float | None, place_random: int) -> None:
    if family not in FAMILIES:
        raise InputError(f"unknown instance family {family!r}; valid: {', '.join(FAMILIES)}")
    if family == "completion":
        if density is not None:
            raise InputError("a density goes with --family blocked or excluded-diagonals; completion instances "
                             "take --place-random K")
        return
    if place_random:
        raise InputError(f"--family {family} blocks cells instead of pre-placing queens; drop --place-random")
    if density is None or isinstance(density, bool) or not isinstance(density, (int, float)) or not 0 < density < 1:
        raise InputError(f"--family {family} needs a density between 0 and 1 (e.g. 0.1), not {density!r}")
    _require(config_list, "blocked", "or choose --family completion")


def check_run_count(total: int, max_runs: int = MAX_RUNS) -> None:
    """Refuse (one line) a sweep of more runs than ``max_runs``."""
    if total > max_runs:
        raise InputError(f"this sweep plans {total:,} runs, more than {max_runs:,}; narrow --n, the methods or the "
                         f"repeats, or allow it with --max-runs {total}")


def run_sweep(configs: Sequence[Choice | str], ns: Sequence[int] | str, repeat: int = DEFAULT_REPEAT,
              timeout: float | None = DEFAULT_TIMEOUT, out: str | os.PathLike[str] | None = None,
              progress: bool = True, on_row: Callable[[ResultRow], None] | None = None, place_random: int = 0,
              seed: int = 0, resume: bool = False, force: bool = False, skip_after_timeout: bool = False,
              command: str | None = None, instances: int = 1, max_runs: int = MAX_RUNS,
              stop: Callable[[], bool] | None = None, memory_limit: int | None = None,
              jobs: int = 1, dask: str | None = None, family: str = "completion",
              density: float | None = None) -> list[ResultRow]:
    """Run every (n, instance, repeat, configuration) in its own process; return the rows (kept ones included).

    ``out``: a CSV path written row by row (plus its sidecar), or None to keep rows in memory only.
    ``instances`` K > 1 with ``place_random`` draws K different completion instances per n, each run
    ``repeat`` times.  ``on_row`` is called with each new row as it is written.  ``stop()`` turning True
    ends the sweep at once (the run under way is killed and not recorded).  Ctrl-C raises
    :class:`SweepInterrupted` after stopping the current run.  ``jobs`` > 1 keeps that many runs going at
    once (each still in its own process, its CPU time its own); rows are written as runs finish.
    ``family`` ``blocked`` or ``excluded-diagonals`` (with ``density``) times instances with random blocked
    cells or excluded diagonals instead of pre-placed queens.  ``dask`` runs the sweep on Dask distributed:
    ``"local"`` starts a local cluster of ``jobs`` (at least 2) single-threaded workers, anything else is a
    scheduler address (``tcp://host:8786``).  Each task is one run in its own child process with the
    wall-clock limit, as here; the rows come back to this process, which alone writes the results file, so
    ``resume`` works across workers and machines.
    """
    from tqdm.auto import tqdm

    config_list = [c if isinstance(c, Choice) else parse_choice(c) for c in configs]
    if not config_list:
        raise InputError("give at least one configuration to time")
    sizes = parse_ns(ns) if isinstance(ns, (str, int)) else parse_ns(list(ns))
    if not sizes:
        raise InputError("give at least one board size")
    timeout = check_time_limit(timeout, "timeout")
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise InputError(f"jobs must be a whole number of at least 1, not {jobs!r}")
    _check_plan(config_list, sizes, repeat, instances, place_random, max_runs, family, density)
    runs = plan_runs(config_list, sizes, repeat, place_random, seed, instances, family, density)
    path = check_output(out, resume, force)
    results: ResultsFile | None = None
    kept: list[ResultRow] = []
    if path is not None:
        lock = Lock(path)  # before reading a resumed file, so that two sweeps never interleave
        try:
            if resume and path.exists():
                kept = _kept_rows(path, runs, timeout)
            results = ResultsFile(path, kept, lock, extra_columns(path) if resume else ())
        except BaseException:
            lock.release()
            raise
    done = {row_key(row) for row in kept}
    timed_out: dict[tuple[str, ...], int] = {}
    for row in kept:
        if row["status"] in (Status.TIMEOUT, Status.MEMOUT):
            key = choice_from_row(row).key
            timed_out[key] = min(timed_out.get(key, row["n"]), row["n"])
    meta: Meta = {}
    session: Session = {}
    rows = list(kept)
    todo = [run for run in runs if run.key not in done]
    try:
        if path is not None:
            previous = read_meta(path) if resume else None
            meta = previous if previous and kept else environment(config_list)
            meta["sweep"] = {"configs": [c.label for c in config_list], "ns": sizes, "repeat": repeat,
                             "instances": instances, "timeout": timeout, "place_random": place_random,
                             "seed": seed if place_random or instances > 1 else None,
                             "skip_after_timeout": skip_after_timeout, "memory_limit": memory_limit,
                             "jobs": jobs, "dask": dask, "family": family, "density": density}
            session = {"started": now(), "command": command or command_line(), "resumed": bool(resume and kept),
                       "kept_rows": len(kept), "load_average_start": load_average()}
            meta.setdefault("sessions", []).append(session)
            write_meta(path, meta)
        bar = tqdm(total=len(runs), initial=len(runs) - len(todo), disable=None if progress else True,
                   unit="run", dynamic_ncols=True, leave=True)
    except BaseException:
        if results is not None:
            results.close()  # and its lock: a sweep that never started leaves no lock file behind
        raise
    new = 0
    halt = threading.Event()

    def stopped() -> bool:
        return halt.is_set() or (stop is not None and stop())

    def execute(run: Run) -> RunRecord | None:
        first_timeout = timed_out.get(run.config.key)
        if skip_after_timeout and first_timeout is not None and run.n > first_timeout:
            return {"status": "skipped", "message": f"skipped: this configuration timed out at n = {first_timeout}"}
        record = worker.run_worker(run.spec(), timeout, memory_limit, stopped)
        return None if stopped() else record  # stopped in the middle: no result to record

    def finish(run: Run, record: RunRecord) -> None:
        nonlocal new
        row = make_row(run, record, place_random, seed, timeout, family, density)
        if row["status"] in (Status.TIMEOUT, Status.MEMOUT):
            timed_out[run.config.key] = min(timed_out.get(run.config.key, run.n), run.n)
        if results is not None:
            results.write(row)
        rows.append(row)
        new += 1
        bar.update(1)
        if on_row is not None:
            on_row(row)

    try:
        if dask is not None:
            _run_dask(todo, dask, jobs, timeout, memory_limit, finish, stopped)
        elif jobs == 1:
            for run in todo:
                if stopped():
                    break
                bar.set_description(f"{run.config.label} n={run.n} #{run.repeat}", refresh=False)
                record = execute(run)
                if record is None:
                    break
                finish(run, record)
        else:
            _run_parallel(todo, jobs, execute, finish, stopped, halt)
    except KeyboardInterrupt as stop_signal:
        halt.set()
        raise SweepInterrupted(rows, path, getattr(stop_signal, "code", 130)) from None
    finally:
        bar.close()
        if results is not None:
            results.close()
            session.update({"finished": now(), "new_rows": new, "complete": new == len(todo),
                            "load_average_end": load_average()})
            try:
                write_meta(results.path, meta)  # ``path``, the file the sweep resolved
            except InputError:
                pass  # the rows are safe; a sidecar that cannot be updated must not hide them
    return rows


def _run_parallel(todo: Sequence[Run], jobs: int, execute: Callable[[Run], RunRecord | None],
                  finish: Callable[[Run, RunRecord], None], stopped: Callable[[], bool],
                  halt: threading.Event) -> None:
    """Keep ``jobs`` runs going in threads (each run is a child process); rows are finished in this thread.
    Ctrl-C or ``stop`` sets ``halt``: every running child is killed within a tenth of a second."""
    pending: dict[Future[RunRecord | None], Run] = {}
    queue = iter(todo)
    pool = ThreadPoolExecutor(max_workers=jobs, thread_name_prefix="nqueens-kit-run")
    try:
        while True:
            while len(pending) < jobs and not stopped():
                run = next(queue, None)
                if run is None:
                    break
                pending[pool.submit(execute, run)] = run
            if not pending:
                return
            finished, _ = wait(pending, timeout=0.1, return_when=FIRST_COMPLETED)
            for future in finished:
                run = pending.pop(future)
                record = future.result()
                if record is not None and not stopped():
                    finish(run, record)
            if stopped() and not pending:
                return
    except BaseException:
        halt.set()
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _run_dask(todo: Sequence[Run], address: str, jobs: int, timeout: float | None, memory_limit: int | None,
              finish: Callable[[Run, RunRecord], None], stopped: Callable[[], bool]) -> None:
    """The runs as Dask tasks (each :func:`~nqueens_kit.bench.worker.run_worker`: a child process with its
    limit), the rows finished here as tasks complete.  Ctrl-C, SIGTERM, SIGHUP or ``stop`` cancel the tasks
    (a run under way sees its task cancelled and stops its child process) and close the client and the
    cluster.

    A signal is only noted while Dask code runs (an exception raised inside it can break its shutdown), and
    raised again once everything is closed; a second one of the same kind is raised at once.  A local
    cluster works in a temporary folder of its own (its workers' scratch space and ``TMPDIR``), removed at
    the end however the sweep ends.
    """
    import logging
    import re
    import shutil
    import signal
    import tempfile
    import time

    if address != "local":
        found = re.fullmatch(r"(?:(?:tcp|tls|ws|wss)://)?(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+):([0-9]{1,5})", address)
        if found is None or not 0 < int(found.group(2)) < 65536:
            raise InputError(f"--dask takes 'local' or a scheduler address such as tcp://host:8786 (tcp, tls, ws or "
                             f"wss; a host and a port from 1 to 65535), not {address[:80]!r}")
    try:
        import dask
        from distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise InputError("--dask needs Dask distributed: pip install \"nqueens-kit[cluster]\"") from None

    class DaskStop:
        """``stop`` for a run on a Dask worker: true once the sweep has cancelled the run's task (the worker's
        own record of it: no round trip, no client in the worker)."""

        def __call__(self) -> bool:
            try:
                from distributed import get_worker
                from distributed.worker import thread_state

                task = get_worker().state.tasks.get(thread_state.key)
            except Exception:  # not in a task, or a distributed that keeps its records elsewhere
                return False
            return task is None or task.state in ("cancelled", "released", "forgotten")

    def close_dask(client: Client | None, cluster: SpecCluster | None, futures: list[DaskFuture]) -> None:
        """Cancel the runs (those under way stop their child process) and close the client and the cluster,
        quietly."""
        quiet = logging.getLogger("distributed")
        level = quiet.level
        quiet.setLevel(logging.CRITICAL)  # cancelled tasks and closing workers are expected now
        try:
            if client is not None:
                try:
                    client.cancel(futures)
                except Exception:
                    pass
                client.close(timeout=10)
            if cluster is not None:
                cluster.close(timeout=10)
        finally:
            quiet.setLevel(level)

    caught: list[int] = []
    previous: dict[int, Callable[[int, FrameType | None], object] | int | None] = {}

    def note(signum: int, frame: FrameType | None) -> None:
        if signum in caught:  # asked twice: stop waiting for Dask
            signal.signal(signum, previous[signum] if previous[signum] is not None else signal.SIG_DFL)
            signal.raise_signal(signum)
        caught.append(signum)

    for name in ("SIGINT", "SIGTERM", "SIGHUP"):
        sig = getattr(signal, name, None)
        if sig is None:
            continue
        try:
            previous[sig] = signal.signal(sig, note)
        except (ValueError, OSError):  # not the main thread: signals stay with whoever handles them
            break
    folder = tempfile.mkdtemp(prefix="nqueens-kit-dask-")
    cluster: SpecCluster | None = None
    client: Client | None = None
    futures: dict[DaskFuture, Run] = {}
    try:
        with dask.config.set({"temporary-directory": folder}):
            try:
                if address == "local":
                    cluster = LocalCluster(n_workers=max(2, jobs), threads_per_worker=1, processes=True,
                                           dashboard_address=None, silence_logs=logging.CRITICAL,
                                           local_directory=folder, env=dict.fromkeys(("TMPDIR", "TEMP", "TMP"), folder))
                    client = Client(cluster)
                else:
                    client = Client(address, timeout=DASK_CONNECT_SECONDS)
            except OSError as exc:
                raise InputError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
            halt = DaskStop()
            futures = {client.submit(worker.run_worker, run.spec(), timeout, memory_limit, halt, pure=False,
                                     key=f"nqueens-kit-{index}-{run.config.label}-n{run.n}-{run.instance}-"
                                         f"{run.repeat}"): run for index, run in enumerate(todo)}
            ready = as_completed(futures, with_results=False)
            while not ready.is_empty() and not caught and not stopped():
                batch = ready.next_batch(block=False)
                if not batch:
                    time.sleep(0.05)
                    continue
                for future in batch:
                    if caught or stopped():
                        break
                    finish(futures[future], future.result())
    finally:
        if client is not None or cluster is not None:
            close_dask(client, cluster, list(futures))
        shutil.rmtree(folder, ignore_errors=True)
        for sig, handler in previous.items():
            signal.signal(sig, handler if handler is not None else signal.SIG_DFL)
    if caught:
        signal.raise_signal(caught[0])  # now the command's own handler: it reports and exits
