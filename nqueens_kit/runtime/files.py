"""The files the kit writes and reads: one rule for every path.

Writing (``cnf -o``, ``lp -o``, ``solve --proof``, ``bench --out``, ``report -o``):

- :func:`output_path` checks a path before anything is built: a folder, a character or block device, a
  FIFO (named pipe), a socket, a symbolic link that leads nowhere, or a folder that does not exist is
  refused with one line naming it and saying what would do.
- :func:`written_whole` (and :func:`write_whole`) hands out a draft beside the file and moves it into
  place in one step when the writing succeeded; on any failure (a full disk, Ctrl-C) the draft is removed
  and the file is left as it was, so no half-written CNF, LP model or results file is ever left behind.
  A symbolic link is written *through*, as a shell redirect does: the draft is made beside the link's
  final target and replaces that target, so the link stays a link and its target gets the new content.
  Nothing is ever moved over anything but a regular file.

Reading (``--from-cnf``, ``bench --resume``, ``report``, ``plot``): :func:`file_to_read` accepts a regular
file only (a FIFO nobody writes to would keep the command waiting; a device such as /dev/zero never
ends) and :func:`opened_to_read` also opens it without waiting and checks what it opened.

>>> import tempfile, os
>>> folder = tempfile.mkdtemp()
>>> with written_whole(os.path.join(folder, "a.txt")) as out:
...     _ = out.write("whole")
>>> sorted(os.listdir(folder)), open(os.path.join(folder, "a.txt")).read()
(['a.txt'], 'whole')
"""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from ..errors import InputError

__all__ = ["file_kind", "file_to_read", "final_target", "opened_to_read", "output_path", "write_whole",
           "written_whole"]


def file_kind(mode: int) -> str:
    """What a ``stat`` mode names, for messages: ``a regular file``, ``a folder``, ``a FIFO (named pipe)``...

    >>> file_kind(stat.S_IFIFO | 0o644), file_kind(stat.S_IFCHR)
    ('a FIFO (named pipe)', 'a character device')
    """
    for test, name in ((stat.S_ISREG, "a regular file"), (stat.S_ISDIR, "a folder"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISSOCK, "a socket"),
                       (stat.S_ISLNK, "a symbolic link")):
        if test(mode):
            return name
    return "not a regular file"  # pragma: no cover  (a door or a whiteout: no such thing here)


def _shown(text: str) -> str:
    """A path as a message shows it: on one line, at most 200 characters."""
    text = str(text)
    text = text if text.isprintable() else repr(text)
    return text if len(text) <= 200 else text[:197] + "..."


def _path_text(path: Any, what: str) -> str:
    """``path`` as text, or a one-line error: not a path, empty, or holding a NUL character."""
    try:
        text = os.fspath(path)
    except TypeError:
        raise InputError(f"{what} is named by a path such as out.txt, not {_shown(repr(path))[:60]}") from None
    if not isinstance(text, str):
        raise InputError(f"{what} is named by a path given as text, not bytes {_shown(repr(text))[:60]}")
    if not text.strip():
        raise InputError(f"{what} is named by a path, not an empty string")
    if "\0" in text:
        raise InputError(f"a path cannot hold a NUL character: {_shown(repr(text))[:60]}")
    return text


def final_target(path: str | os.PathLike[str]) -> Path:
    """The file a write to ``path`` changes: ``path`` with every symbolic link followed (a shell redirect
    writes there too)."""
    return Path(os.path.realpath(os.fspath(path)))


def output_path(path: str | os.PathLike[str], what: str = "the output") -> Path:
    """``path`` (as given) if the kit may write it, else a one-line :class:`InputError`.

    Valid: a regular file, a new file in an existing folder, or a symbolic link to either (written through).
    Refused: an empty name, a name ending in a separator, a folder, a device, a FIFO, a socket, a symbolic
    link whose target does not exist, a folder that does not exist.  ``what`` names the file in messages
    (``"the proof"``).
    """
    text = _path_text(path, what)
    shown = _shown(text)
    given = Path(text)
    if text.endswith((os.sep, "/")):
        raise InputError(f"cannot write {shown}: a path ending in {text[-1]} is a folder; give a file name for {what}")
    try:
        mode: int | None = os.stat(text).st_mode  # follows symbolic links, as a write would
    except FileNotFoundError:
        mode = None
    except OSError as exc:  # a loop of links, a path through a file, no permission
        raise InputError(f"cannot write {shown}: {exc.strerror or exc}") from None
    if mode is None:
        if os.path.islink(text):
            raise InputError(f"cannot write {shown}: it is a symbolic link to {_shown(os.readlink(text))}, which "
                             f"does not exist; give the path of the file itself for {what}, or remove the link")
        folder = given.parent
        if not folder.is_dir():
            raise InputError(f"cannot write {shown}: the folder {_shown(str(folder))} does not exist")
        return given
    if stat.S_ISDIR(mode):
        raise InputError(f"cannot write {shown}: it is a folder; give a file name for {what}, e.g. "
                         f"{_shown(str(given / 'out'))}")
    if not stat.S_ISREG(mode):
        raise InputError(f"cannot write {shown}: it is {file_kind(mode)}, not a regular file; give the name of a "
                         f"regular file (new or existing) for {what}")
    return given


def _check_replaceable(real: Path, shown: str) -> None:
    """Refuse (one line) to move a draft over ``real`` unless it is missing or a regular file; checked again
    just before the move, for what appeared while the file was written."""
    try:
        mode = os.lstat(real).st_mode
    except FileNotFoundError:
        return
    if not stat.S_ISREG(mode):
        raise InputError(f"cannot write {shown}: {_shown(str(real))} became {file_kind(mode)} while it was being "
                         "written; nothing was written")


@contextmanager
def written_whole(path: str | os.PathLike[str], mode: str = "w", encoding: str | None = "utf-8",
                  what: str = "the output") -> Iterator[IO[Any]]:
    """A stream to write ``path`` through (see the module docstring); an OSError becomes one line."""
    given = output_path(path, what)
    shown = _shown(str(given))
    target = final_target(given)
    try:
        existing = os.stat(target)
        file_mode = stat.S_IMODE(existing.st_mode)  # a replaced file keeps its permissions, as with a redirect
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        file_mode = 0o666 & ~umask
    except OSError as exc:
        raise InputError(f"cannot write {shown}: {exc.strerror or exc}") from None
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    except OSError as exc:
        raise InputError(f"cannot write {shown}: {exc.strerror or exc}") from None
    try:
        os.chmod(tmp, file_mode)  # mkstemp makes it private; the file gets the usual (or its own) mode
        with os.fdopen(fd, mode, encoding=encoding) if "b" not in mode else os.fdopen(fd, mode) as out:
            yield out
            out.flush()
            os.fsync(out.fileno())
        _check_replaceable(target, shown)
        os.replace(tmp, target)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise InputError(f"cannot write {shown}: {exc.strerror or exc}; nothing was written") from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_whole(path: str | os.PathLike[str], text: str | bytes, encoding: str = "utf-8",
                what: str = "the output") -> Path:
    """Write ``text`` (or bytes) to ``path`` whole or not at all; returns ``path`` as given."""
    binary = isinstance(text, (bytes, bytearray))
    with written_whole(path, "wb" if binary else "w", None if binary else encoding, what) as out:
        out.write(text)
    return Path(path)


def file_to_read(path: str | os.PathLike[str], what: str = "a file", missing: str = "no such file") -> Path:
    """``path`` if it names a regular file (or a symbolic link to one), else a one-line :class:`InputError`
    naming what is there instead: nothing, a folder, a device, a FIFO, a socket.  ``what`` names the file
    expected (``"a DIMACS file"``, ``"a results CSV from nqueens-kit bench"``), ``missing`` begins the message
    for a path where nothing is.

    >>> file_to_read("/", "a results CSV")
    Traceback (most recent call last):
    ...
    nqueens_kit.errors.InputError: / is a folder, not a results CSV
    """
    text = _path_text(path, what)
    shown = _shown(text)
    try:
        mode = os.stat(text).st_mode
    except FileNotFoundError:
        if os.path.islink(text):
            raise InputError(f"{missing}: {shown} is a symbolic link to {_shown(os.readlink(text))}, which does "
                             "not exist") from None
        raise InputError(f"{missing}: {shown}") from None
    except OSError as exc:
        raise InputError(f"cannot read {shown}: {exc.strerror or exc}") from None
    _refuse_to_read(mode, shown, what)
    return Path(text)


def _refuse_to_read(mode: int, shown: str, what: str) -> None:
    if stat.S_ISDIR(mode):
        raise InputError(f"{shown} is a folder, not {what}")
    if not stat.S_ISREG(mode):
        raise InputError(f"{shown} is {file_kind(mode)}, not a regular file; give {what}")


@contextmanager
def opened_to_read(path: str | os.PathLike[str], what: str = "a file", mode: str = "rb",
                   encoding: str | None = None, errors: str | None = None) -> Iterator[IO[Any]]:
    """``path`` opened for reading if it is a regular file (:func:`file_to_read`), opened without waiting for
    a writer and checked again once open, so that what is read is what was checked."""
    checked = file_to_read(path, what)
    shown = _shown(str(checked))
    try:
        fd = os.open(checked, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except OSError as exc:
        raise InputError(f"cannot read {shown}: {exc.strerror or exc}") from None
    try:
        _refuse_to_read(os.fstat(fd).st_mode, shown, what)
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        stream = os.fdopen(fd, mode, encoding=encoding, errors=errors) if "b" not in mode else os.fdopen(fd, mode)
    except BaseException:
        os.close(fd)
        raise
    with stream:
        yield stream
