"""The console a library writes to directly: :func:`silenced` keeps what a solver library prints to file
descriptor 1 (HiGHS 1.16 prints its banner whenever a model is made, even when told to be quiet) out of the
user's terminal or notebook cell, while Python's own ``print`` is untouched.

>>> import os
>>> with silenced():
...     _ = os.write(1, b"a banner nobody asked for\\n")
>>> print("still here")
still here
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def silenced() -> Iterator[None]:
    """Send file descriptor 1 to the null device for the duration; restored however the block ends.  Where
    descriptor 1 cannot be duplicated (an embedded interpreter without one), nothing changes."""
    try:
        sys.stdout.flush()
    except (OSError, ValueError, AttributeError):
        pass
    try:
        saved = os.dup(1)
    except OSError:
        yield
        return
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(null, 1)
        finally:
            os.close(null)
        yield
    finally:
        os.dup2(saved, 1)
        os.close(saved)
