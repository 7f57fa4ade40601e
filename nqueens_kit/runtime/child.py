"""The child's side of a job (:mod:`.isolate` is the parent's): the pipe back to the parent
(:class:`Connection`), what a job may call inside its child (:func:`report` progress, :func:`ready` when its
clock starts, :func:`in_child`), how the child runs the job and sends back its value or its error, and what
ties it to the parent on Linux (it dies with the parent, it adopts its solvers' orphans: a subreaper).
:mod:`.isolate` re-exports the public names.
"""

from __future__ import annotations

import math
import os
import select
import signal
import sys
from collections.abc import Callable
from typing import Any

from .. import errors
from . import limits
from .limits import processor_seconds
from .run import report_here

try:  # the C pickler itself: what pickle.py would use, without that module's own start-up cost
    from _pickle import dumps as _dumps
    from _pickle import loads as _loads
except ImportError:  # another Python
    from pickle import dumps as _dumps
    from pickle import loads as _loads


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
