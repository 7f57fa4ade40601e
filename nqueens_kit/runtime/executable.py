"""Executables (a DIMACS solver, a ``--version`` probe) run by :func:`run_executable`: in a session of their
own, dying with this process, their output read as it comes until they exit (a pidfd where Linux has one,
else polled), then stopped with all they started.  :mod:`.isolate` re-exports the public names.
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from . import limits
from .child import die_with_parent_hook, is_subreaper
from .tree import _kill_adopted, _kill_tree, _own_children

if TYPE_CHECKING:
    import subprocess

# subprocess is imported where it is used: a forked job (what a solve on the command line runs) needs none of it.


#: The executables of :func:`run_executable` now running (their pids: each leads its own process group).
_executables: set[int] = set()


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
