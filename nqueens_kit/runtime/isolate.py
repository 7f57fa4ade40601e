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

``fresh=False`` (the default on POSIX) forks: the child starts at once and shares what the parent already
built.  ``fresh=True`` starts a new interpreter (``python -m nqueens_kit.runtime.isolate``), so every run of a sweep
starts from the same state; imports happen before :func:`ready` and are recorded as start-up time.

>>> run_in_child(sum, ([1, 2, 3],)).value
6
>>> run_in_child(_sleep, (5.0,), time_limit=0.2).status
'timeout'
"""

from __future__ import annotations

import math
import os
import select
import signal
import sys
import time
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .. import errors
from . import limits
from .limits import over_limit, processor_seconds

# ChildRun, Ended and reporting live in .run (the browser's run_here answers with them too); importers
# reach them here as well.
from .run import ChildRun as ChildRun
from .run import Ended as Ended
from .run import report_here
from .run import reporting as reporting

try:  # the C pickler itself: what pickle.py would use, without that module's own start-up cost
    from _pickle import dumps as _dumps
    from _pickle import loads as _loads
except ImportError:  # another Python
    from pickle import dumps as _dumps
    from pickle import loads as _loads

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


class Connection:
    """One end of the pipe between a job's child process and its parent: whole pickled messages, each after its
    length (what :mod:`multiprocessing.connection` does, without the start-up cost of importing it)."""

    HEADER = 8

    def __init__(self, fd: int, readable: bool = True, writable: bool = True) -> None:
        self.fd, self.readable, self.writable = fd, readable, writable

    def fileno(self) -> int:
        return self.fd

    def send(self, message: object) -> None:
        """Write ``message`` whole (BrokenPipeError when the other end is gone)."""
        data = _dumps(message, protocol=-1)  # the highest protocol
        view = memoryview(len(data).to_bytes(self.HEADER, "big") + data)
        while view:
            view = view[os.write(self.fd, view):]

    def recv(self) -> Any:
        """The next message; EOFError when the other end closed the pipe before a whole one."""
        size = int.from_bytes(self._read(self.HEADER), "big")
        return _loads(self._read(size))

    def _read(self, size: int) -> bytes:
        chunks, left = [], size
        while left:
            chunk = os.read(self.fd, min(left, 1 << 20))
            if not chunk:
                raise EOFError("the other end of the pipe is closed")
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)

    def poll(self, timeout: float | None = None) -> bool:
        """Whether a message (or the end of the pipe) can be read within ``timeout`` seconds (None: wait; a wait
        longer than :data:`~.limits.LONGEST_WAIT` ends then, with False)."""
        timeout = limits.short_wait(timeout)  # poll takes milliseconds as a C int: a long wait is cut short
        if not hasattr(select, "poll"):
            return bool(select.select([self.fd], [], [], timeout)[0])
        watch = select.poll()
        watch.register(self.fd, select.POLLIN)
        return bool(watch.poll(None if timeout is None else math.ceil(timeout * 1000)))

    def close(self) -> None:
        if self.fd >= 0:
            fd, self.fd = self.fd, -1
            os.close(fd)


_channel: Connection | None = None
_ready_sent = False


# ------------------------------------------------------------------------------------ the child's side


def report(message: object) -> None:
    """Send ``message`` to the parent (a progress count, say); in-process, pass it to :func:`reporting`'s
    callback; otherwise do nothing.  Cheap enough to call every few hundred boards."""
    if _channel is not None:
        _channel.send(("progress", message))
    else:
        report_here(message)


#: A fresh child runs with one thread in the numerical libraries its solvers import (OpenBLAS through
#: numpy through PuLP, OpenMP in HiGHS): otherwise their idle threads spin and a run's CPU time doubles.
SINGLE_THREAD_ENV = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")


def ready() -> None:
    """Say that the job has finished its preparation (imports): the parent's clock for it starts now."""
    global _ready_sent
    if _channel is not None and not _ready_sent:
        _ready_sent = True
        _channel.send(("ready", processor_seconds()))


def in_child() -> bool:
    """True inside a job started by :func:`run_in_child`."""
    return _channel is not None




def _peak_rss_mb() -> float | None:
    """This process's peak resident memory in MB (``VmHWM``: ``ru_maxrss`` would include the parent's)."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return round(int(line.split()[1]) / 1024, 1)
    except (OSError, ValueError, IndexError):
        pass
    try:
        import resource

        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return round(peak / (1024 * 1024 if sys.platform == "darwin" else 1024), 1)
    except (ImportError, OSError):
        return None


def _error_record(exc: BaseException) -> tuple[str | None, ...]:
    kit = type(exc).__name__ if isinstance(exc, errors.NQueensError) else None
    text = " ".join(str(exc).split()) or type(exc).__name__
    if isinstance(exc, OSError) and exc.strerror:
        where = f" ({exc.filename})" if exc.filename else ""
        text = f"{exc.strerror}{where}"
    try:
        import traceback

        trace = traceback.format_exc(limit=20)
    except BaseException:  # no memory left even for that (a MemoryError): the type and message still go back
        trace = ""
    return ("error", type(exc).__name__, text, kit, trace)


def _child_main(conn: Connection, fn: Callable[..., object], args: tuple[object, ...], scratch: str,
                memory_limit: int | None, auto_ready: bool, deadline: float | None = None) -> None:
    """Run the job and send its outcome; the caller exits the process right after.  ``deadline`` (a
    :func:`time.monotonic` time) is when the parent stops the job: :func:`~.limits.deadline` here."""
    global _channel, _ready_sent
    _channel, _ready_sent = conn, False
    limits.set_deadline(deadline)
    limits.stage("running")
    os.environ["TMPDIR"] = os.environ["TEMP"] = os.environ["TMP"] = scratch
    loaded: Any = sys.modules.get("tempfile")  # once imported it keeps its folder: point it here too
    if loaded is not None:
        loaded.tempdir = scratch
    if memory_limit:
        _limit_memory(memory_limit)
    try:
        if auto_ready:
            ready()
        value = fn(*args)
        # CPU at the answer (not the exit after it); and whether nothing of its tree can outlive it
        conn.send(("ok", value, _peak_rss_mb(), processor_seconds(), _alone()))
    except BaseException as exc:  # everything goes back to the parent, which decides
        try:
            conn.send(_error_record(exc) + (_peak_rss_mb(),))
        except BaseException:  # the error itself cannot be pickled or the pipe is gone
            pass


def _alone() -> bool:
    """True when this child has no process below it, living or a zombie, while it is a subreaper leading its own
    session: every process its job started is then below it or re-parented to it until it exits, so after its
    answer it can be stopped without scanning the process table (psutil's import alone costs a short solve
    more than the solve)."""
    if not is_subreaper():
        return False
    try:
        os.waitpid(-1, os.WNOHANG)
    except ChildProcessError:  # no child at all
        return True
    except OSError:
        return False
    return False


def _limit_memory(limit: int) -> None:
    """Cap this process's address space at its current size plus ``limit`` (inherited by solvers it starts)."""
    try:
        import resource

        with open("/proc/self/status", encoding="ascii") as status:
            size = next(int(line.split()[1]) * 1024 for line in status if line.startswith("VmSize:"))
        resource.setrlimit(resource.RLIMIT_AS, (size + limit, size + limit))
    except (ImportError, OSError, ValueError, StopIteration):
        pass  # no limit where it cannot be set


def _redirect_output(scratch: str) -> None:
    """The child's stdout and stderr (C libraries write to them directly) go to a log in its folder."""
    log = os.open(os.path.join(scratch, "child.log"), os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    os.dup2(log, 1)
    os.dup2(log, 2)
    os.close(log)


PR_SET_PDEATHSIG, PR_SET_CHILD_SUBREAPER, PR_GET_CHILD_SUBREAPER = 1, 36, 37
_prctl_found: list[Callable[..., int] | None] = []


def _prctl() -> Callable[..., int] | None:
    """libc's ``prctl`` (Linux; None elsewhere), looked up once: a child must not load a library between fork
    and exec."""
    if not _prctl_found:
        found = None
        if sys.platform.startswith("linux"):
            try:
                import ctypes

                found = ctypes.CDLL(None, use_errno=True).prctl
            except (OSError, AttributeError):
                found = None
        _prctl_found.append(found)
    return _prctl_found[0]


def _die_with_parent(parent: int) -> None:
    """Have the kernel SIGKILL this process when ``parent``, the process that waits for it, dies (a Dask
    worker, a kernel or the command killed outright), so no solver runs on with nobody to stop it.  A parent
    that died before the request took effect is seen by the check after it (prctl(2))."""
    prctl = _prctl()
    if prctl is not None:
        prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:
        os.kill(os.getpid(), signal.SIGKILL)


def die_with_parent_hook() -> Callable[[], None] | None:
    """A ``preexec_fn`` for :class:`subprocess.Popen` that makes the executable die with this process
    (Linux; None elsewhere, where nothing can ask it)."""
    prctl = _prctl()
    if prctl is None:
        return None
    parent = os.getpid()

    def hook() -> None:
        prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        if os.getppid() != parent:
            os.kill(os.getpid(), signal.SIGKILL)

    return hook


def become_subreaper() -> bool:
    """Have orphans below this process re-parented to it rather than to init (Linux), so that a process a
    solver detached (``setsid``) is still found and stopped; True if that holds now."""
    prctl = _prctl()
    return prctl is not None and prctl(PR_SET_CHILD_SUBREAPER, 1) == 0


def is_subreaper() -> bool:
    prctl = _prctl()
    if prctl is None:
        return False
    import ctypes

    flag = ctypes.c_int(0)
    return prctl(PR_GET_CHILD_SUBREAPER, ctypes.byref(flag)) == 0 and flag.value != 0


def _fresh_main() -> None:
    """Entry point of a fresh child: ``python -m nqueens_kit.runtime.isolate FD PARENT`` with the pickled job on
    stdin."""
    _die_with_parent(int(sys.argv[2]))
    become_subreaper()
    conn = Connection(int(sys.argv[1]), readable=False)
    try:
        fn, args, scratch, memory_limit, auto_ready, deadline = _loads(sys.stdin.buffer.read())
    except BaseException as exc:  # e.g. a job defined in a script's __main__, which a new interpreter lacks
        conn.send(_error_record(exc) + (None,))
        os._exit(1)
    limits.keep_stage_output()
    _redirect_output(scratch)
    _child_main(conn, fn, args, scratch, memory_limit, auto_ready, deadline)
    conn.close()
    sys.stdout.flush()
    os._exit(0)


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
    scratch = _scratch_folder()
    _scratch_folders.add(scratch)
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
#: The executables of :func:`run_executable` now running (their pids: each leads its own process group).
_executables: set[int] = set()
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
    :func:`tempfile.mkdtemp` itself, which also tries the current folder)."""
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
            try:
                os.mkdir(path, 0o700)
                return path
            except FileExistsError:
                continue
            except OSError:
                break  # not there, or not writable: the next one
    import tempfile

    return tempfile.mkdtemp(prefix="nqueens-kit-")


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


#: How long :func:`_kill_tree` goes on killing what it finds (a process in uninterruptible sleep dies late).
KILL_SECONDS = 2.0


def _kill_tree(pid: int) -> None:
    """SIGKILL ``pid``, every process below it and every process left in its process group or session
    (found by psutil), however they try to get away.

    ``pid`` is stopped first and killed last: while it lives, a process of its tree whose parent is killed
    is re-parented to it (when it is a subreaper) and still found; the others are killed in rounds until
    none is left, so a process forked while they die goes too."""
    _send(pid, signal.SIGSTOP)
    ends = time.monotonic() + KILL_SECONDS
    while True:
        table = _process_table()
        victims = [p for p in _members(pid, table) if p != pid and not table[p][3]]
        if not victims:
            break
        for victim in victims:
            _send(victim, signal.SIGKILL)
        if time.monotonic() > ends:
            break
        time.sleep(0.001)  # the killed take a moment to become zombies
    _send(pid, signal.SIGKILL)
    try:
        os.killpg(pid, signal.SIGKILL)
    except OSError:
        pass  # the group is already gone


def _send(pid: int, sig: int) -> None:
    try:
        os.kill(pid, sig)
    except OSError:
        pass


def _members(pid: int, table: dict[int, tuple[int, int, int, bool]]) -> list[int]:
    """Processes below ``pid`` or in its process group or session."""
    return list(dict.fromkeys([*_descendants(pid, table),
                               *(p for p, (_, group, session, _) in table.items() if pid in (group, session))]))


def _own_children() -> set[int]:
    """This process's children, zombies included."""
    import psutil

    try:
        return {child.pid for child in psutil.Process().children()}
    except psutil.Error:
        return set()


def _kill_adopted(before: set[int], known: int) -> None:
    """Kill and reap the children this subreaper gained since ``before`` other than ``known``: orphans of
    an executable it ran (a detached grandchild whose parent has exited)."""
    for child in _own_children() - before - {known}:
        _kill_tree(child)
        try:
            os.waitpid(child, 0)
        except ChildProcessError:
            pass


def _tree_rss_mb(pid: int) -> float:
    """Resident memory of ``pid`` and every process below it, in MB (0 for those that cannot be read)."""
    import psutil

    try:
        root = psutil.Process(pid)
        members = [root, *root.children(recursive=True)]
    except psutil.Error:
        return 0.0
    total = 0
    for member in members:
        try:
            total += member.memory_info().rss
        except psutil.Error:  # gone meanwhile, or not ours to read
            continue
    return round(total / 1024 / 1024, 1)


def _process_table() -> dict[int, tuple[int, int, int, bool]]:
    """Every process as ``pid: (parent, process group, session, is a zombie)``; empty where processes have
    no group or session (Windows).  On Linux read from ``/proc`` (quicker than loading psutil, which matters
    to a command stopping its job at a deadline on a busy machine); elsewhere psutil lists the processes and
    their group and session, which psutil does not report, come from the kernel."""
    if not hasattr(os, "getsid"):
        return {}
    if sys.platform.startswith("linux"):
        found = _proc_table()
        if found:
            return found
    import psutil

    gone = (psutil.STATUS_ZOMBIE, psutil.STATUS_DEAD)
    table: dict[int, tuple[int, int, int, bool]] = {}
    for proc in psutil.process_iter(["ppid", "status"]):
        parent, status = proc.info["ppid"], proc.info["status"]
        if parent is None:  # not ours to read
            continue
        try:
            table[proc.pid] = (parent, os.getpgid(proc.pid), os.getsid(proc.pid), status in gone)
        except OSError:  # gone meanwhile
            continue
    return table


def _proc_table() -> dict[int, tuple[int, int, int, bool]]:
    """:func:`_process_table` from ``/proc`` (empty where it cannot be read); dead processes count as zombies."""
    table: dict[int, tuple[int, int, int, bool]] = {}
    try:
        names = os.listdir("/proc")
    except OSError:
        return table
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as stat:
                text = stat.read()
            fields = text[text.rindex(b")") + 2:].split()
            table[int(name)] = (int(fields[1]), int(fields[2]), int(fields[3]), fields[0] in (b"Z", b"X", b"x"))
        except (OSError, ValueError, IndexError):  # gone meanwhile
            continue
    return table


def _descendants(pid: int, table: dict[int, tuple[int, int, int, bool]] | None = None) -> list[int]:
    """Processes below ``pid`` (children of children ...), from ``table`` when given, else as they are now."""
    if table is None:
        import psutil

        try:
            return [child.pid for child in psutil.Process(pid).children(recursive=True)]
        except psutil.Error:
            return []
    children: dict[int, list[int]] = {}
    for child, (parent, _, _, _) in table.items():
        children.setdefault(parent, []).append(child)
    found, frontier = [], [pid]
    while frontier:
        kids = children.get(frontier.pop(), [])
        found += kids
        frontier += kids
    return found


# ----------------------------------------------------------------------------------------- executables

#: After an executable exits, its output is read on while more comes, for at most this long: what it wrote
#: before exiting is in the pipe already, and a process it left behind may hold the pipe open for ever.
DRAIN_SECONDS = 0.5
#: ... and the reading stops once the pipe has stayed empty this long.
DRAIN_IDLE = 0.05
#: Once its output holds a complete answer, an executable has this long to exit before it is stopped.
ANSWER_GRACE = 2.0
#: How often an executable's exit is checked where the kernel cannot signal it (no pidfd).
EXIT_POLL = 0.02
#: Bytes read from an executable's output at a time.
READ_SIZE = 1 << 16


@dataclass
class Executed:
    """How an executable run by :func:`run_executable` ended.

    ``returncode`` is its exit status (negative: the signal that killed it), None when the kit stopped it:
    ``stopped`` then says why (``deadline`` or ``answered``).  ``seconds`` runs from its start to its
    exit (or to when it was stopped).
    """

    returncode: int | None
    seconds: float
    stopped: str = ""


def run_executable(command: Sequence[str], *, on_output: Callable[[bytes], None] | None = None,
                   on_error: Callable[[bytes], None] | None = None, deadline: float | None = None,
                   answered: Callable[[], bool] | None = None, grace: float = ANSWER_GRACE) -> Executed:
    """Run an executable with nothing on its input; hand its output to ``on_output`` and its error output
    to ``on_error`` as they come (each is discarded when None); stop it, and all it started, at the end.

    The executable leads a session of its own and dies with this process (Linux).  The run ends when the
    executable itself exits: its output is drained briefly (:data:`DRAIN_SECONDS`), so a process it left
    behind holding the pipe cannot keep the run waiting; or at ``deadline`` (``time.monotonic()``
    seconds); or ``grace`` seconds after ``answered()`` turns True (a solver that answered and hangs).
    Then its process group, its session, every process below it and, in a subreaper, every orphan of it
    that came to this process are killed and reaped.  An exception raised by ``on_output`` or
    ``on_error`` (a line of junk) stops it at once and propagates.  OSError if it cannot be started.
    """
    import selectors
    import subprocess

    before = _own_children() if is_subreaper() else None
    proc = subprocess.Popen(list(command), stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE if on_output is not None else subprocess.DEVNULL,
                            stderr=subprocess.PIPE if on_error is not None else subprocess.DEVNULL,
                            start_new_session=True, close_fds=True, preexec_fn=die_with_parent_hook())
    _executables.add(proc.pid)
    start = time.monotonic()
    streams: dict[int, Callable[[bytes], None]] = {}
    for pipe, sink in ((proc.stdout, on_output), (proc.stderr, on_error)):
        if pipe is not None and sink is not None:
            streams[pipe.fileno()] = sink
    pidfd = _pidfd(proc.pid)
    watch = selectors.DefaultSelector()  # not select(): a process may hold more than 1024 files
    for fd in [*streams, *([pidfd] if pidfd is not None else [])]:
        watch.register(fd, selectors.EVENT_READ)
    exited_at: float | None = None
    answered_at: float | None = None
    stopped = ""
    try:
        while streams or exited_at is None:
            now = time.monotonic()
            wait: float | None
            if exited_at is not None:
                wait = min(DRAIN_IDLE, exited_at + DRAIN_SECONDS - now)
                if wait <= 0:
                    break
            else:
                ends = [t for t in (deadline, None if answered_at is None else answered_at + grace) if t is not None]
                if ends and now >= min(ends):
                    stopped = "deadline" if deadline is not None and now >= deadline else "answered"
                    break
                wait = min(ends) - now if ends else None
                if pidfd is None:
                    wait = EXIT_POLL if wait is None else min(wait, EXIT_POLL)
            wait = limits.short_wait(wait)  # epoll takes milliseconds as a C int: a long wait is cut short
            if watch.get_map():
                ready = [key.fd for key, _ in watch.select(wait)]
            else:
                time.sleep(wait or 0.0)
                ready = []
            if not ready and exited_at is not None:
                break  # drained: nothing more came
            for fd in ready:
                if fd in streams:
                    data = os.read(fd, READ_SIZE)
                    if data:
                        streams[fd](data)
                    else:
                        del streams[fd]
                        watch.unregister(fd)
            if answered is not None and answered_at is None and answered():
                answered_at = time.monotonic()
            if exited_at is None and (pidfd in ready if pidfd is not None else _has_exited(proc)):
                exited_at = time.monotonic()
                if pidfd is not None:
                    watch.unregister(pidfd)
    finally:
        watch.close()
        if proc.returncode is not None or (before is not None and exited_at is not None and not streams):
            _send_group(proc.pid)  # reaped already (no waitid), or exited with nothing holding its output
        else:
            _kill_tree(proc.pid)
        proc.wait()
        for pipe in (proc.stdout, proc.stderr):
            if pipe is not None:
                pipe.close()
        if pidfd is not None:
            os.close(pidfd)
        if before is not None:
            _kill_adopted(before, proc.pid)
        _executables.discard(proc.pid)
    seconds = (exited_at if exited_at is not None else time.monotonic()) - start
    return Executed(None if stopped else proc.returncode, seconds, stopped)


def _send_group(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except OSError:
        pass


def _pidfd(pid: int) -> int | None:
    """A file descriptor that becomes readable when ``pid`` exits (Linux 5.3+), so the exit wakes the wait."""
    try:
        return os.pidfd_open(pid)
    except (AttributeError, OSError):
        return None


def _has_exited(proc: subprocess.Popen[bytes]) -> bool:
    """Whether ``proc`` has exited, without reaping it where the system can tell (its pid then stays
    reserved for the kill that follows)."""
    waitid = getattr(os, "waitid", None)
    if waitid is None or not hasattr(os, "WNOWAIT"):  # macOS before Python 3.13
        return proc.poll() is not None
    try:
        return waitid(os.P_PID, proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
    except ChildProcessError:
        return True


if __name__ == "__main__":
    # Run as the package's module, not as __main__: the job's report() and ready() use that module's channel.
    from . import isolate as _module

    _module._fresh_main()
