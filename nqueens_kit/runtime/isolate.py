"""The one way the kit runs work in a child process with a wall-clock limit.

pycosat and most in-process solvers cannot be interrupted, and CBC or a DIMACS binary runs as a process of
its own; so whatever must be stoppable (a solve or count with a time limit, every run of a timing sweep,
the apps' Stop button, Ctrl-C on the command line) runs as a *job* in a child process:

- the child leads a new process group and session, so stopping it stops every solver process it started;
  it is a subreaper (Linux), so a solver's orphans come to it and are found, and it dies with the process
  that waits for it, however that one ends (SIGKILL included);
- it gets a private temporary folder (``TMPDIR``), removed by the parent however the child ends;
- it can send progress messages (:func:`report`) and, for timing, say when its clock starts (:func:`ready`);
- its result comes back through a pipe; its error comes back with its type and message (a kit error is
  raised again as itself in the parent), never as a silent exit;
- the parent measures wall time, CPU time of the child and of every process it waited for (``wait4``),
  and the child's own peak memory.

Executables (a DIMACS solver, a ``--version`` probe) run through :func:`run_executable`: in a session of
their own, dying with this process, their output read as it comes until they exit, then stopped with all
they started.

This module is the parent's side; beside it are :mod:`.child` (the child's side: :func:`report`,
:func:`ready`, the pipe), :mod:`.executable` (:func:`run_executable`) and :mod:`.tree` (a job's process tree,
found and stopped).  Their public names are importable from here too.

``fresh=False`` (the default on POSIX) forks: the child starts at once and shares what the parent already
built.  ``fresh=True`` starts a new interpreter (``python -m nqueens_kit.runtime.isolate``), so every run of a sweep
starts from the same state; imports happen before :func:`ready` and are recorded as start-up time.

>>> run_in_child(sum, ([1, 2, 3],)).value
6
>>> run_in_child(_sleep, (5.0,), time_limit=0.2).status
'timeout'
"""

from __future__ import annotations

import os
import signal
import sys
import time
import warnings
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .. import errors
from . import limits
from .child import SINGLE_THREAD_ENV as SINGLE_THREAD_ENV
from .child import Connection as Connection
from .child import _child_main, _die_with_parent, _prctl, _redirect_output
from .child import become_subreaper as become_subreaper
from .child import die_with_parent_hook as die_with_parent_hook
from .child import in_child as in_child
from .child import is_subreaper as is_subreaper
from .child import ready as ready
from .child import report as report
from .executable import Executed as Executed
from .executable import _executables, _send_group
from .executable import run_executable as run_executable
from .limits import over_limit

# ChildRun, Ended and reporting live in .run (the browser's run_here answers with them too); importers
# reach them here as well.
from .run import ChildRun as ChildRun
from .run import Ended as Ended
from .run import reporting as reporting
from .tree import _kill_tree, _send, _tree_rss_mb

try:  # the C pickler itself: what pickle.py would use, without that module's own start-up cost
    from _pickle import dumps as _dumps
except ImportError:  # another Python
    from pickle import dumps as _dumps

if TYPE_CHECKING:
    import subprocess

# subprocess, tempfile, traceback and psutil are imported where they are used: a forked job (what a solve on
# the command line runs) needs none of them, and the command starts quicker without; a browser has no psutil.

#: Extra seconds after the deadline before the child is killed, so a solver that honours the limit itself
#: can still hand back its answer ("stopped on time") instead of being cut off.
GRACE_SECONDS = 0.4
#: The grace a job gets past the command's own deadline (the command line's --time-limit): only for the stop.
COMMAND_GRACE = 0.1
#: The extra grace of a job inside a job that is bound only by its parent's deadline: the code waiting for it
#: stops it at that deadline and keeps what it reported; the kill comes this much later (within the parent's
#: own grace, which ends the whole child anyway).
INHERITED_GRACE = 1.0
#: How long a fresh interpreter may take to start and import its job before the run is an error.
STARTUP_SECONDS = 120.0
#: Lines of the child's own output kept for an error message.
TAIL_LINES = 5


# ----------------------------------------------------------------------------------- the parent's side


def _sleep(seconds: float) -> None:
    time.sleep(seconds)


def can_fork() -> bool:
    return hasattr(os, "fork") and os.name == "posix"


_IN_BROWSER = sys.platform == "emscripten"


def run_in_child(fn: Callable[..., object], args: tuple[object, ...] = (), *, time_limit: float | None = None,
                 fresh: bool = False, clock_from_ready: bool = False, auto_ready: bool = True,
                 on_message: Callable[[Any], None] | None = None, memory_limit: int | None = None,
                 grace: float = GRACE_SECONDS, stop: Callable[[], bool] | None = None,
                 watch_memory: bool = False) -> ChildRun:
    """Run ``fn(*args)`` in a child process and wait for it at most ``time_limit`` seconds (+ ``grace``).

    ``fresh``: a new interpreter rather than a fork (``fn`` and ``args`` must then be picklable; the job's
    imports are start-up time).  ``clock_from_ready``: the limit and ``wall`` count from the child's
    :func:`ready` rather than from its start.  ``on_message`` receives every :func:`report` message as it
    arrives.  ``memory_limit`` (bytes) caps the child's memory growth.  ``stop`` is polled about ten times a
    second; when it returns True the child is stopped and the run ends as ``timeout`` (a Stop button).
    ``watch_memory`` samples the resident memory of the child and every process below it (solver
    executables included) about twenty times a second into ``tree_peak_rss_mb`` (Linux).
    Ctrl-C (KeyboardInterrupt) in the caller stops the child and its solvers, then propagates.  Where the
    command has a deadline (:func:`~.limits.deadline`: the command line's ``--time-limit``, counted from the
    command's start), the job ends by it too, with a grace of :data:`COMMAND_GRACE` only; the child reads
    the earlier of the two as its own :func:`~.limits.deadline`.
    """
    if _IN_BROWSER:  # Pyodide has no child processes: the job runs here (limits: solvers that stop themselves)
        from .browser import run_here

        return run_here(fn, args, time_limit, on_message)
    fresh = fresh or not can_fork()
    # the job ends by the command's deadline too (limits.deadline: the command line's --time-limit counts from
    # the command's start); with clock_from_ready its own limit counts from a time not known yet
    job_deadline = limits.until_deadline(None if clock_from_ready else time_limit, time.monotonic())
    scratch = _scratch_folder()  # (in _scratch_folders: stop_everything removes it, whenever a stop comes)
    process: _Child | None = None
    try:
        held = None if fresh else _hold_stop_signals()
        try:
            process = _Child.start(fn, args, scratch, fresh, memory_limit, auto_ready, job_deadline)
            _children[process.pid] = process
        finally:  # a stop signal that came meanwhile is raised here, with the child known (and stopped below)
            _release_stop_signals(held)
        limits.stage("job")
        return process.wait(time_limit, clock_from_ready, on_message, grace, stop, watch_memory)
    finally:
        if process is not None:
            process.kill()
            _children.pop(process.pid, None)
        _remove_folder(scratch)
        _scratch_folders.discard(scratch)


#: The children of :func:`run_in_child` now running, by pid, and their folders: what :func:`stop_everything`
#: stops and removes when the command must end at once.
_children: dict[int, _Child] = {}
_scratch_folders: set[str] = set()
#: How many waits for a job began in this process (the command's watchdog leaves a command that waits or
#: waited for a job to end by the deadline itself), and the last progress message of a job (a count's running
#: total).
jobs_waited = [0]
last_progress: list[Any] = [None]


def stop_everything() -> None:
    """Kill every child process this module started and still runs (each with every process below it) and
    remove their folders: what a command that must end at once (its watchdog) does instead of waiting for
    the usual stop.  Safe to call from any thread."""
    for pid in list(_executables):
        _send_group(pid)
        _send(pid, signal.SIGKILL)
    for child in list(_children.values()):
        try:
            _kill_tree(child.pid)  # the child stopped first: its orphans still come to it, and are found
        except Exception:  # noqa: BLE001  (the table unreadable: the group is killed below all the same)
            pass
        _send(child.pid, signal.SIGKILL)
        try:
            os.killpg(child.pid, signal.SIGKILL)
        except OSError:
            pass
    for folder in list(_scratch_folders):
        _remove_folder(folder)


def _remove_folder(folder: str) -> None:
    """Remove a job's folder and what is in it (usually its log alone: files are removed here, anything more
    by :func:`shutil.rmtree`)."""
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                if entry.is_dir(follow_symlinks=False):
                    raise IsADirectoryError(entry.path)
                os.unlink(entry.path)
        os.rmdir(folder)
    except OSError:
        import shutil

        shutil.rmtree(folder, ignore_errors=True)


def _scratch_folder() -> str:
    """A new private folder (mode 0700) for a job, ``nqueens-kit-XXXXXXXXXXXX``, in the temporary folder
    :func:`tempfile.mkdtemp` would use: the one :mod:`tempfile` already settled on, else the first of
    ``$TMPDIR``, ``$TEMP``, ``$TMP``, ``/tmp``, ``/var/tmp``, ``/usr/tmp`` it can be made in (else
    :func:`tempfile.mkdtemp` itself, which also tries the current folder).  Its name is in
    :data:`_scratch_folders` before the folder is made, so that :func:`stop_everything` (which a stopped
    command runs as it ends) removes it whenever the stop comes."""
    loaded = sys.modules.get("tempfile")
    given = getattr(loaded, "tempdir", None) if loaded is not None else None
    if given:
        bases = [given]
    else:
        bases = [os.environ[name] for name in ("TMPDIR", "TEMP", "TMP") if os.environ.get(name)]
        if os.name == "posix":
            bases += ["/tmp", "/var/tmp", "/usr/tmp"]
    for base in bases:
        for _ in range(100):
            path = os.path.join(os.path.abspath(base), f"nqueens-kit-{os.urandom(6).hex()}")
            _scratch_folders.add(path)  # known before it is made: a stop from here on removes it
            try:
                os.mkdir(path, 0o700)
                return path
            except FileExistsError:
                _scratch_folders.discard(path)
                continue
            except OSError:
                _scratch_folders.discard(path)
                break  # not there, or not writable: the next one
    import tempfile

    path = tempfile.mkdtemp(prefix="nqueens-kit-")
    _scratch_folders.add(path)
    return path


#: The signals that stop the command (cli.main raises on each; SIGINT is Ctrl-C).
_STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))
#: The signal the command's watchdog stops its main thread with when the deadline passes (cli.startup).
_ALARM = getattr(signal, "SIGALRM", signal.SIGINT)


def _hold_stop_signals() -> set[int | signal.Signals] | None:
    """Hold the stop signals back while this thread forks, and return the mask to restore.

    ``os.fork`` runs the at-fork callbacks registered by the standard library (logging's among them), and
    an exception a signal handler raises inside such a callback is printed as "ignored" and lost: a Ctrl-C,
    SIGTERM or SIGHUP arriving then would leave the command waiting for its child.  Held back, the signal
    waits until :func:`_release_stop_signals`, where its handler raises in ordinary code."""
    if not hasattr(signal, "pthread_sigmask"):
        return None
    return signal.pthread_sigmask(signal.SIG_BLOCK, {*_STOP_SIGNALS, _ALARM})


def _release_stop_signals(held: set[int | signal.Signals] | None) -> None:
    if held is not None:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


class _Child:
    """A started child process: its pid (= its process group), the read end of its pipe, its clock."""

    def __init__(self, pid: int, conn: Connection, scratch: str, popen: subprocess.Popen[bytes] | None) -> None:
        self.pid, self.conn, self.scratch, self.popen = pid, conn, scratch, popen
        self.started = time.monotonic()
        self.reaped = False
        #: Whether the child answered with nothing below it (see :func:`_alone`).
        self.alone = False
        self.cpu_total: float | None = None
        self.exit_status: int | None = None

    @classmethod
    def start(cls, fn: Callable[..., object], args: tuple[object, ...], scratch: str, fresh: bool,
              memory_limit: int | None, auto_ready: bool, deadline: float | None = None) -> _Child:
        read_fd, write_fd = os.pipe()
        if fresh:
            import subprocess

            job = _dumps((fn, args, scratch, memory_limit, auto_ready, deadline))
            env = dict(os.environ, TMPDIR=scratch, TEMP=scratch, TMP=scratch, PYTHONUNBUFFERED="1")
            for name in SINGLE_THREAD_ENV:  # numerical libraries' thread pools spin on other cores
                env.setdefault(name, "1")
            try:
                popen = subprocess.Popen(
                    [sys.executable, "-m", "nqueens_kit.runtime.isolate", str(write_fd), str(os.getpid())],
                    stdin=subprocess.PIPE,
                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, pass_fds=(write_fd,), env=env,
                    start_new_session=True, close_fds=True,
                )
            except OSError as exc:
                os.close(read_fd)
                os.close(write_fd)
                raise errors.SolverError(f"cannot start a Python process: {exc.strerror or exc}") from None
            os.close(write_fd)
            assert popen.stdin is not None
            try:
                popen.stdin.write(job)
                popen.stdin.close()
            except BrokenPipeError:
                pass  # the child died at once; wait() reports it
            return cls(popen.pid, Connection(read_fd, writable=False), scratch, popen)
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()  # or the child would print the parent's buffered text a second time
            except (OSError, ValueError):
                pass
        parent = os.getpid()
        _prctl()  # looked up here: the child must not load a library
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)  # "fork() with threads": the child runs no threads
            pid = os.fork()
        if pid == 0:  # the child
            code = 0
            try:
                _die_with_parent(parent)
                os.close(read_fd)
                os.setsid()
                become_subreaper()
                for sig in _STOP_SIGNALS:
                    signal.signal(sig, signal.SIG_DFL)
                if callable(signal.getsignal(_ALARM)):  # the command's deadline handler is the parent's own
                    signal.signal(_ALARM, signal.SIG_DFL)
                if hasattr(signal, "pthread_sigmask"):  # held back by the parent while it forked
                    signal.pthread_sigmask(signal.SIG_UNBLOCK, {*_STOP_SIGNALS, _ALARM})
                limits.keep_stage_output()
                _redirect_output(scratch)
                conn = Connection(write_fd, readable=False)
                _child_main(conn, fn, args, scratch, memory_limit, auto_ready, deadline)
                conn.close()
            except BaseException:
                code = 1
            finally:
                os._exit(code)
        os.close(write_fd)
        return cls(pid, Connection(read_fd, writable=False), scratch, None)

    def wait(self, time_limit: float | None, clock_from_ready: bool, on_message: Callable[[Any], None] | None,
             grace: float, stop: Callable[[], bool] | None, watch_memory: bool = False) -> ChildRun:
        run = ChildRun(Ended.FAILED)
        clock = self.started
        jobs_waited[0] += 1
        last_progress[0] = None
        return self._wait(run, clock, time_limit, clock_from_ready, on_message, grace, stop, watch_memory)

    def _wait(self, run: ChildRun, clock: float, time_limit: float | None, clock_from_ready: bool,
              on_message: Callable[[Any], None] | None, grace: float, stop: Callable[[], bool] | None,
              watch_memory: bool) -> ChildRun:
        tree_peak = 0.0
        ready_at: float | None = None
        cpu_at_ready = 0.0
        cpu_at_answer: float | None = None
        # the command's deadline binds every job it waits for; a job's own child processes (a job inside a job)
        # are stopped with it by the command, which is what ends them at the deadline
        command_ends = None if in_child() else limits.deadline()
        while True:
            deadline: float | None
            if clock_from_ready and ready_at is None:
                deadline = self.started + STARTUP_SECONDS
                if command_ends is not None:
                    deadline = min(deadline, command_ends + grace)
            else:
                ends = limits.until_deadline(time_limit, clock)
                # past the command's deadline an answer is too late whatever it is: no grace to hand one back
                binding = command_ends is not None and ends == command_ends
                # a job inside a job, bound by its parent's deadline only: the code that waits for it in this
                # process stops it first (and keeps what it reported: a count's lower bound); this end is the
                # backstop, late enough not to race that stop
                inherited = command_ends is None and ends is not None and ends == limits.deadline()
                deadline = None if ends is None else ends + (min(grace, COMMAND_GRACE) if binding else
                                                             grace + INHERITED_GRACE if inherited else grace)
            wait = None if deadline is None else max(0.0, deadline - time.monotonic())
            if stop is not None:
                wait = 0.1 if wait is None else min(wait, 0.1)
            if watch_memory:
                tree_peak = max(tree_peak, _tree_rss_mb(self.pid))
                wait = 0.05 if wait is None else min(wait, 0.05)
            try:
                has_message = self.conn.poll(wait)
            except (OSError, EOFError):
                has_message = True
            if not has_message:
                if stop is not None and stop():
                    run.status, run.error = Ended.TIMEOUT, "stopped"
                    break
                if deadline is not None and time.monotonic() >= deadline:
                    if clock_from_ready and ready_at is None and (command_ends is None
                                                                  or time.monotonic() < command_ends + grace):
                        run.error = f"the child process did not start within {STARTUP_SECONDS:g} s"
                    else:
                        run.status = Ended.TIMEOUT
                        run.error = _limit_text(time_limit)
                    break
                continue
            try:
                message = self.conn.recv()
            except (EOFError, OSError):
                run.error = self._death()
                break
            except Exception as exc:  # an answer that cannot be unpickled here
                run.error = f"the child's answer could not be read ({type(exc).__name__}: {exc})"
                break
            kind = message[0]
            if kind == "ready":
                ready_at, cpu_at_ready = time.monotonic(), float(message[1])
                run.startup = ready_at - self.started
                if clock_from_ready:
                    clock = ready_at
            elif kind == "progress":
                run.progress = last_progress[0] = message[1]
                if on_message is not None:
                    on_message(message[1])
            elif kind == "ok":
                run.status, run.value, run.peak_rss_mb = Ended.DONE, message[1], message[2]
                cpu_at_answer = float(message[3]) if len(message) > 3 else None
                self.alone = len(message) > 4 and message[4] is True
                late = command_ends is not None and time.monotonic() > command_ends
                if over_limit(time.monotonic() - clock, time_limit) or late:  # answered in the grace: too late
                    run.status, run.error = Ended.TIMEOUT, _limit_text(time_limit)
                break
            elif kind == "error":
                _, run.error_type, run.error, run.kit_error, run.trace, run.peak_rss_mb = message
                run.status = Ended.MEMOUT if run.error_type == "MemoryError" else Ended.FAILED
                break
        run.wall = time.monotonic() - clock
        self.kill()
        if cpu_at_answer is not None:
            run.cpu = max(0.0, cpu_at_answer - cpu_at_ready)
        elif self.cpu_total is not None:
            run.cpu = max(0.0, self.cpu_total - cpu_at_ready)
        if watch_memory:
            run.tree_peak_rss_mb = round(max(tree_peak, run.peak_rss_mb or 0.0), 1)
        if run.status == Ended.FAILED:
            run.log_tail = self.log_tail()
        return run

    def _death(self) -> str:
        """Why the child ended without an answer (it closed the pipe by exiting)."""
        self.reap(block=True)
        code = self.exit_status
        tail = self.log_tail()
        detail = f": {tail[-1]}" if tail else ""
        if code is not None and os.WIFSIGNALED(code):
            sig = os.WTERMSIG(code)
            try:
                name = signal.Signals(sig).name
            except ValueError:
                name = f"signal {sig}"
            hint = " (out of memory?)" if sig == signal.SIGKILL else ""
            return f"the child process was killed by {name}{hint}{detail}"
        status = os.WEXITSTATUS(code) if code is not None and os.WIFEXITED(code) else code
        return f"the child process exited (status {status}) without an answer{detail}"

    def log_tail(self) -> list[str]:
        try:
            with open(os.path.join(self.scratch, "child.log"), "rb") as log:
                log.seek(0, os.SEEK_END)
                log.seek(max(0, log.tell() - 8192))
                text = log.read().decode("utf-8", "replace")
        except OSError:
            return []
        return [line.strip() for line in text.splitlines() if line.strip()][-TAIL_LINES:]

    def kill(self) -> None:
        """Stop the child's whole process group (solvers included) and reap the child."""
        if not self.reaped:
            if self.alone:  # it said it has nothing below it: no table to scan
                _send(self.pid, signal.SIGKILL)
            else:
                _kill_tree(self.pid)
            self.reap(block=True)
        try:
            self.conn.close()
        except OSError:
            pass

    def reap(self, block: bool) -> None:
        if self.reaped:
            return
        try:
            pid, status, usage = os.wait4(self.pid, 0 if block else os.WNOHANG)
        except ChildProcessError:
            self.reaped = True
            return
        if pid == 0:
            return
        self.reaped = True
        self.exit_status = status
        self.cpu_total = usage.ru_utime + usage.ru_stime
        if self.popen is not None:
            self.popen.returncode = -os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)


def _limit_text(time_limit: float | None) -> str:
    return "no answer within the time limit" + (f" of {time_limit:g} s" if time_limit is not None else "")


if __name__ == "__main__":
    # The child's side runs as the package's module, not as __main__: the job's report() and ready() use its channel.
    from .child import _fresh_main

    _fresh_main()
