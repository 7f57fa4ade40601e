"""Files the kit writes appear whole or not at all.

:func:`written_whole` hands out a temporary file beside the target and moves it into place in one step
when the writing succeeded; on any failure (a full disk, Ctrl-C) the temporary file is removed and the
target is left as it was, so no half-written CNF, LP model or results file is ever left behind.

>>> import tempfile, os
>>> folder = tempfile.mkdtemp()
>>> with written_whole(os.path.join(folder, "a.txt")) as out:
...     _ = out.write("whole")
>>> sorted(os.listdir(folder)), open(os.path.join(folder, "a.txt")).read()
(['a.txt'], 'whole')
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

from ..errors import InputError


def output_path(path: str | os.PathLike[str], what: str = "the output") -> Path:
    """``path`` as a file to write, or a one-line error: an empty name, a folder, a name ending in a
    separator, a folder that does not exist."""
    text = os.fspath(path)
    if not str(text).strip():
        raise InputError(f"{what} needs a file name, not an empty string")
    target = Path(text)
    if str(text).endswith((os.sep, "/")) or target.is_dir():
        raise InputError(f"cannot write {text}: it names a folder; give a file name")
    if not target.parent.is_dir():
        raise InputError(f"cannot write {text}: the folder {target.parent} does not exist")
    return target


@contextmanager
def written_whole(path: str | os.PathLike[str], mode: str = "w", encoding: str | None = "utf-8") -> Iterator[IO]:
    """A stream to write ``path`` through (see the module docstring); an OSError becomes one line."""
    target = output_path(path)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    except OSError as exc:
        raise InputError(f"cannot write {target}: {exc.strerror or exc}") from None
    umask = os.umask(0)
    os.umask(umask)
    try:
        os.chmod(tmp, 0o666 & ~umask)  # mkstemp makes it private; the file gets the usual mode
        with os.fdopen(fd, mode, encoding=encoding) if "b" not in mode else os.fdopen(fd, mode) as out:
            yield out
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, target)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise InputError(f"cannot write {target}: {exc.strerror or exc}; nothing was written") from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_whole(path: str | os.PathLike[str], text: str, encoding: str = "utf-8") -> Path:
    """Write ``text`` to ``path`` whole or not at all."""
    with written_whole(path, encoding=encoding) as out:
        out.write(text)
    return Path(path)
