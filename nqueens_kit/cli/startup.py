"""What the console script does before anything else is imported: Ctrl-C ends the process with one line."""

from __future__ import annotations

import os
import types

_INTERRUPTED = b"nqueens-kit: interrupted\n"


def startup_interrupt(signum: int, frame: types.FrameType | None) -> None:
    """Ctrl-C before the command runs: nothing is started yet, so end at once, with one line."""
    try:
        os.write(2, _INTERRUPTED)
    finally:
        os._exit(128 + signum)
