"""What the console script does before anything else is imported: Ctrl-C ends the process with one line; and
how the command ends (:func:`end`), whichever path answered it."""

from __future__ import annotations

import os
import sys
import types

TYPE_CHECKING = False  # typing is not imported at run time (mypy reads this as True)
if TYPE_CHECKING:
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
    loaded, which is a good part of a short command's processor time.  Every child process has been stopped
    and reaped by then (:mod:`nqueens_kit.runtime.isolate`)."""
    threading = sys.modules.get("threading")
    if threading is not None and any(thread.is_alive() and not thread.daemon and thread is not threading.main_thread()
                                     for thread in threading.enumerate()):
        sys.exit(code)
    import atexit

    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError, AttributeError):  # closed, or gone: nothing more can be said on it
            pass
    os._exit(code)


def silence_stdout() -> None:
    """After a failed write, point stdout at /dev/null so Python's exit does not fail writing it again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass
