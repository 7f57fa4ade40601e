"""What the console script does before anything else is imported: Ctrl-C ends the process with one line; how
the command ends (:func:`end`), whichever path answered it; and its :class:`Watchdog`.

The watchdog is a thread the full command starts first thing.  A stop signal (Ctrl-C, SIGTERM, SIGHUP) raises
in the main thread, whose usual path stops every child, removes the drafts and temporary folders and ends with
one line; should that path not end the process within :data:`STOP_SECONDS` (a Ctrl-C swallowed by a library,
numba's compiler among them, or a thread that does not stop), the watchdog ends it: it kills every child
process, removes the jobs' folders, says the same line and exits with the same status.  With a time limit it
holds the command's deadline, counted from the process's start: a job the command waits for ends by that
deadline itself (:func:`nqueens_kit.runtime.limits.deadline`); work of the command's own that is still under
way then (loading, building) is stopped by a :class:`DeadlinePassed` raised in the main thread, and a command
that has not ended :data:`STOP_SECONDS` later is ended as above, with exit status 3.
"""

from __future__ import annotations

import _thread
import os
import sys
import time
import types

TYPE_CHECKING = False  # typing is not imported at run time (mypy reads this as True)
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import NoReturn

_INTERRUPTED = b"nqueens-kit: interrupted\n"


def startup_interrupt(signum: int, frame: types.FrameType | None) -> None:
    """Ctrl-C before the command runs: nothing is started yet, so end at once, with one line."""
    try:
        os.write(2, _INTERRUPTED)
    finally:
        os._exit(128 + signum)


def end(code: int) -> NoReturn:
    """End the command with exit status ``code`` as :func:`sys.exit` would, less its last step.

    What the interpreter's exit does that matters is done here: a thread of the command's that still runs
    (a thread pool's) is waited for by the ordinary exit instead; else the exit functions run (``atexit``)
    and the output is flushed.  Then the process ends without freeing, module by module, everything it
    loaded, which is a good part of a short command's processor time.  Every child process the kit started
    has been stopped and reaped by then (:mod:`nqueens_kit.runtime.isolate`); a command stopped by a signal
    (Ctrl-C, SIGTERM, SIGHUP: status 128 + its number) kills any other child left (one a library started and
    did not stop) and ends at once, without waiting for threads or running exit functions."""
    if _watchdog:
        _watchdog[0].ending = code
    stopped = code >= 128  # by a signal (the watchdog's own end never comes here)
    if not stopped:
        _keep_the_answer()
    if stopped:  # a child a library started and left running goes too
        import gc

        gc.disable()  # (no finaliser of a library's objects runs under a thread of it still at work)
        leave_nothing()
    threading = sys.modules.get("threading")
    if not stopped and threading is not None and any(
            thread.is_alive() and not thread.daemon and thread is not threading.main_thread()
            for thread in threading.enumerate()):
        sys.exit(code)
    if not stopped:  # (a stopped command skips the libraries' exit functions: a thread of theirs may still be
        import atexit  # at work, numba's compiler in LLVM, and tearing down under it crashes the process)

        atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError, AttributeError):  # closed, or gone: nothing more can be said on it
            pass
    os._exit(code)


def _keep_the_answer() -> None:
    """The command has its answer and is exiting: a stop signal from now on raises nothing in the main thread
    (which would end it with a traceback); it tells the watchdog, which ends the command with its own status
    should the exit hang.  With ``NQUEENS_KIT_READY=1``, the stage line ``answered`` says so."""

    def keep(signum: int, frame: types.FrameType | None) -> None:
        if _watchdog:
            _watchdog[0].signalled(signum)

    handle(STOP_SIGNALS, keep)
    limits = sys.modules.get("nqueens_kit.runtime.limits")
    if limits is not None:
        limits.stage("answered")


#: The signals that stop the command: Ctrl-C, SIGTERM, SIGHUP.
STOP_SIGNALS = ("SIGINT", "SIGTERM", "SIGHUP")


def handle(names: tuple[str, ...], handler: Callable[[int, types.FrameType | None], object]) -> None:
    """Install ``handler`` for each signal of ``names`` this platform has (nothing where this is not the main
    thread, which alone may install one)."""
    import signal

    for name in names:
        sig = getattr(signal, name, None)
        if sig is not None:
            try:
                signal.signal(sig, handler)
            except (ValueError, OSError):  # not the main thread
                pass


def leave_nothing() -> None:
    """What a stopped command does as it ends: :func:`_clean_up`, then kill any other child (one a library
    started and did not stop)."""
    _clean_up()
    _kill_children()


def _clean_up() -> None:
    """Stop every job still running and remove the jobs' folders and the drafts: what a stopped command leaves
    nothing of, even where the stop came between a folder's making and the code that removes it."""
    for module, name in (("nqueens_kit.runtime.isolate", "stop_everything"),
                         ("nqueens_kit.runtime.files", "remove_drafts")):
        clean_up = getattr(sys.modules.get(module), name, None)
        try:
            if clean_up is not None:
                clean_up()
        except Exception:  # noqa: BLE001  (ending regardless: what is left is killed after)
            pass


def silence_stdout() -> None:
    """After a failed write, point stdout at /dev/null so Python's exit does not fail writing it again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass


#: How soon a stop that could not be raised (in a finaliser) is raised again.
AGAIN_SECONDS = 0.02
#: How long the watchdog's own clean-up (stopping the jobs, removing their folders and the drafts) may take
#: before the process ends without it.
LAST_RESORT_SECONDS = 0.3

#: How long the command has, after a stop signal or its deadline, to end by itself before its watchdog ends it.
STOP_SECONDS = 0.5
#: A job the command waits for ends by the deadline itself (runtime.isolate.COMMAND_GRACE after it), and the
#: command then reports it: the watchdog gives that path this long past the deadline before it acts.
JOB_SECONDS = 0.4
_finishing = _thread.allocate_lock()
_NAMES = {2: "interrupted", 15: "terminated", 1: "hung up"}
EXIT_TIMEOUT = 3


class DeadlinePassed(KeyboardInterrupt):
    """The command's time limit passed while the command itself (not a job it waits for) was still at work."""


def process_started() -> float:
    """The :func:`time.monotonic` time at which this process started (read from ``/proc`` on Linux; elsewhere,
    and where it cannot be read, now)."""
    now = time.monotonic()
    try:
        with open("/proc/self/stat", "rb") as stat:
            text = stat.read()
        ticks = int(text[text.rindex(b")") + 2:].split()[19])
        alive = time.clock_gettime(time.CLOCK_BOOTTIME) - ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError, AttributeError):
        return now
    return now - min(max(alive, 0.0), 3600.0)


class Watchdog:
    """The command's watchdog (see the module's text): :meth:`signalled` from a stop signal's handler,
    :meth:`set_deadline` once the time limit is known, :meth:`said` once the last line is printed."""

    def __init__(self, as_json: bool = False, counting: bool = False) -> None:
        self.as_json, self.counting = as_json, counting
        self.main = _thread.get_ident()
        self.deadline: float | None = None
        self.limit = 0.0
        self.stop: tuple[int, float] | None = None  # the first stop signal and when it came
        self.interrupted = False  # DeadlinePassed was raised in the main thread
        self.ending: int | None = None  # the exit status of a command that has its answer and is exiting
        self.printed = False
        self.again = False  # the handler now called raises a stop again (redeliver)
        self.again_at: tuple[int, float] | None = None  # the signal to send the main thread again, and when
        self.read_fd, self.write_fd = os.pipe()
        _start_thread_without_stop_signals(self._watch)

    # ------------------------------------------------------------------------ from the main thread

    def signalled(self, signum: int) -> bool:
        """A stop signal came (called by its handler); False when one came before (it is being handled)."""
        if self.stop is not None:
            return False
        self.stop = (signum, time.monotonic())
        self._wake()
        _quiet_while_stopping()
        return True

    def set_deadline(self, deadline: float | None, limit: float) -> None:
        self.deadline, self.limit = deadline, limit
        self._wake()

    def said(self) -> None:
        """The command has printed its last line (an interrupt's, a timeout's): the watchdog prints none."""
        self.printed = True

    def redeliver(self, signum: int) -> None:
        """Have the main thread's handler of ``signum`` raise again shortly (:data:`AGAIN_SECONDS`): its
        exception was swallowed, or would have been, where Python cannot raise one (a finaliser)."""
        self.again_at = (signum, time.monotonic() + AGAIN_SECONDS)
        self._wake()

    def redelivered(self) -> bool:
        """Whether this call of the stop signal's handler is a :meth:`redeliver` (it raises again)."""
        again, self.again = self.again, False
        return again

    def deadline_passed(self) -> bool:
        """Whether a :class:`DeadlinePassed` may be raised now (once, and not while the command ends)."""
        return self.ending is None and self.stop is None

    def _wake(self) -> None:
        try:
            os.write(self.write_fd, b"!")
        except OSError:
            pass

    # ------------------------------------------------------------------------------ the watchdog's thread

    def _due(self) -> float | None:
        """When the watchdog acts next (a :func:`time.monotonic` time), or None: only when woken."""
        times = []
        if self.again_at is not None:
            times.append(self.again_at[1])
        if self.stop is not None:
            times.append(self.stop[1] + STOP_SECONDS)
        if self.deadline is not None:
            if self._job_seen():
                times.append(self.deadline + JOB_SECONDS + STOP_SECONDS)
            elif not self.interrupted:
                times.append(self.deadline)
            else:
                times.append(self.deadline + STOP_SECONDS)
        return min(times) if times else None

    def _job_seen(self) -> bool:
        """Whether the command waits (or waited) for a job, which ends by the deadline itself."""
        waited = getattr(sys.modules.get("nqueens_kit.runtime.isolate"), "jobs_waited", None)  # (maybe loading)
        return waited is not None and waited[0] > 0

    def _watch(self) -> None:
        import select

        watch = select.poll()
        watch.register(self.read_fd, select.POLLIN)
        while True:
            try:
                due = self._due()
                now = time.monotonic()
                if due is not None and now >= due:
                    self._act(now)
                    continue
                wait = None if due is None else min(due - now, 86_400.0)
                if watch.poll(None if wait is None else max(1, int(wait * 1000) + 1)):
                    os.read(self.read_fd, 512)
            except Exception:  # noqa: BLE001  (the watchdog must outlive any surprise: it tries again shortly)
                time.sleep(0.05)

    def _act(self, now: float) -> None:
        if self.again_at is not None and now >= self.again_at[1]:
            signum, self.again_at, self.again = self.again_at[0], None, True
            try:
                import signal

                signal.pthread_kill(self.main, signum)
            except (AttributeError, OSError, ValueError):
                pass
            return
        if self.stop is not None and now >= self.stop[1] + STOP_SECONDS:
            signum = self.stop[0]
            self._end(128 + signum, _NAMES.get(signum, "interrupted"), None)
        assert self.deadline is not None
        if not self._job_seen() and not self.interrupted:
            self.interrupted = True
            if self.ending is None and self.stop is None:
                try:  # the main thread's handler raises DeadlinePassed, its usual path stops what it started
                    import signal

                    signal.pthread_kill(self.main, signal.SIGALRM)
                except (AttributeError, OSError, ValueError):
                    self._end(EXIT_TIMEOUT, self.timeout_text(), self._timeout_json())
            return
        self._end(EXIT_TIMEOUT, self.timeout_text(), self._timeout_json())

    def _progress(self) -> object:
        """The last progress message of a job (a count's running total), or None."""
        last = getattr(sys.modules.get("nqueens_kit.runtime.isolate"), "last_progress", None)
        return last[0] if last else None

    def timeout_text(self) -> str:
        """What the command says when its deadline passed: no answer, or a count's lower bound where known."""
        progress = self._progress()
        if self.counting and isinstance(progress, tuple) and progress and isinstance(progress[0], int):
            return (f"a lower bound: at least {progress[0]:,} boards were counted before the time limit of "
                    f"{self.limit:g} s")
        if self.counting:
            return f"no count: the time limit of {self.limit:g} s passed before counting began"
        return f"no answer within the time limit of {self.limit:g} s"

    def _timeout_json(self) -> str:
        import json

        progress = self._progress()
        data: dict[str, object] = {"status": "timeout", "message": self.timeout_text(), "exit": EXIT_TIMEOUT}
        if self.counting:
            data.update(count=progress[0] if isinstance(progress, tuple) and progress else 0, complete=False)
        return json.dumps(data, separators=(",", ":"))

    def _end(self, code: int, line: str, json_line: str | None) -> None:
        """End the process now: every child stopped and the jobs' folders removed, the one line said (a command
        that has its answer and is exiting ends with its own status)."""
        if self.ending is not None:
            code, self.printed = self.ending, True
        # The clean-up below must not hold the end up (a lock the stuck main thread holds, a folder on a hung
        # disk): a second thread ends the process LAST_RESORT_SECONDS later whatever it has done by then.
        try:
            _thread.start_new_thread(self._finish, (code, line, json_line, LAST_RESORT_SECONDS))
        except RuntimeError:
            pass
        _clean_up()
        self._finish(code, line, json_line, 0.0)

    def _finish(self, code: int, line: str, json_line: str | None, after: float) -> None:
        if after:
            time.sleep(after)
        if not _finishing.acquire(False):  # the other thread is ending the process: it says the line once
            time.sleep(60)
        _kill_children()
        if not self.printed:
            self.printed = True
            _write(2, f"nqueens-kit: {line}\n")
            if self.as_json and json_line is not None:
                _write(1, json_line + "\n")
        os._exit(code)


def _start_thread_without_stop_signals(fn: Callable[[], object]) -> None:
    """Start a thread running ``fn`` (the watchdog's) that never takes the stop signals or SIGALRM.

    A process-wide signal goes to a thread that does not block it, and Python then runs its handler in the
    main thread at once, whatever that thread blocks: the main thread's hold on the stop signals while it forks
    (:func:`nqueens_kit.runtime.isolate._hold_stop_signals`) holds only if no thread of the kit's takes them.
    The new thread is born with them blocked (a thread starts with its creator's mask), so there is no moment
    at which it could."""
    import signal

    try:
        held = signal.pthread_sigmask(signal.SIG_BLOCK, {getattr(signal, name) for name in (*STOP_SIGNALS, "SIGALRM")})
    except (AttributeError, OSError, ValueError):  # no per-thread masks here
        held = None
    try:
        _thread.start_new_thread(fn, ())
    finally:  # a stop signal that came meanwhile is raised here
        if held is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)


def _quiet_while_stopping() -> None:
    """A stopped command says one line: what a library's finaliser or thread raises while it is being torn
    down under them (numba's compiler, stopped half-way) is not printed after it."""
    sys.unraisablehook = lambda unraisable: None
    threading = sys.modules.get("threading")
    if threading is not None:
        setattr(threading, "excepthook", lambda args: None)  # noqa: B010  (the module as loaded, if it is)


def _write(fd: int, text: str) -> None:
    try:
        os.write(fd, text.encode())
    except OSError:
        pass


def _kill_children() -> None:
    """SIGKILL every child of this process and its process group (each job and executable leads its own)."""
    me = os.getpid()
    try:
        with open(f"/proc/{me}/task/{me}/children", encoding="ascii") as listed:
            children = [int(pid) for pid in listed.read().split()]
    except (OSError, ValueError):
        children = []
    for pid in children:
        for kill in (os.killpg, os.kill):
            try:
                kill(pid, 9)
            except OSError:
                pass


#: The command's watchdog, once started (:func:`watch`).
_watchdog: list[Watchdog] = []


def watch(as_json: bool = False, counting: bool = False) -> Watchdog | None:
    """Start the command's watchdog (once a process; None where no thread can be started)."""
    if not _watchdog:
        try:
            _watchdog.append(Watchdog(as_json, counting))
        except (OSError, RuntimeError):
            return None
    return _watchdog[0]


def watchdog() -> Watchdog | None:
    """The command's watchdog, if it was started."""
    return _watchdog[0] if _watchdog else None
