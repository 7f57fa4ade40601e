"""The files the kit writes and reads: one rule for every path.

Writing (``cnf -o``, ``lp -o``, ``solve --proof``, ``--board-file``, ``bench --out``, figures, ``report -o``):

- :func:`output_path` checks a path before anything is built: a folder, a character or block device, a
  FIFO (named pipe), a socket, a symbolic link that leads nowhere, a folder that does not exist, a file its
  user may not write or a file with other names (hard links) is refused with one line naming it and saying
  what would do.
- :func:`written_whole` (and :func:`write_whole`) decides once, at the start, what the path is: a regular
  file, nothing, or a symbolic link, whose final target is found then, once.  A link is written *through*
  (only if it was a link then), as a shell redirect does: it stays a link and its final target gets the new
  content.  The draft is made in the final folder under a short random name (``.nqk-XXXXXXXX.tmp``, so a
  name of any legal length can be written), created and moved by the folder's descriptor, never through a
  link.  When the writing succeeded it is put in place in one step: it is exchanged with the regular file
  decided at the start (``renameat2`` with ``RENAME_EXCHANGE``) and what came back is checked; if anything
  else had been put there meanwhile (a link, a FIFO, a socket, a folder, another file) it is exchanged back
  where it was and the write is refused with one line.  Where nothing was, the draft is moved in only if
  nothing has appeared meanwhile (``RENAME_NOREPLACE``).  On any failure (a full disk, Ctrl-C) the draft is
  removed and the file is left as it was, so no half-written CNF, LP model or results file is ever left
  behind.  Every error is one :class:`InputError` line naming the path.
- Never replaced: a file its user could not write (``chmod 444``), refused as a shell redirect would be; for
  root, who may write anything, the mode bits decide (no write bit at all: refused).  Nor a file with other
  names (hard links): replacing it would leave the old content under its other names, and writing it in
  place could leave it half-written, so it is refused with one line (remove it first, or write elsewhere).
- Where ``renameat2`` is missing (not Linux, Linux before 3.15, a C library without it) or the file system
  refuses its flags, the draft is put in place by :func:`os.replace` once the file there has been checked
  to be the one decided at the start, and where nothing was, by a hard link (:func:`os.link` replaces
  nothing).  That narrows the time in which something swapped in would be replaced; it does not close it.

Reading (``--from-cnf``, ``bench --resume``, ``report``, ``plot``): :func:`file_to_read` accepts a regular
file only (a FIFO nobody writes to would keep the command waiting; a device such as /dev/zero never
ends) and :func:`opened_to_read` also opens it without waiting and checks what it opened.

>>> import tempfile, os
>>> folder = tempfile.mkdtemp()
>>> with written_whole(os.path.join(folder, "a.txt")) as out:
...     _ = out.write("whole")
>>> sorted(os.listdir(folder)), open(os.path.join(folder, "a.txt")).read()
(['a.txt'], 'whole')
>>> os.chmod(os.path.join(folder, "a.txt"), 0o444)
>>> write_whole(os.path.join(folder, "a.txt"), "again")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
nqueens_kit.errors.InputError: cannot write ...a.txt: it is read-only (mode 444); make it writable (chmod u+w) ...
"""

from __future__ import annotations

import errno
import os
import secrets
import stat
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import IO, Any

from ..errors import InputError

__all__ = ["file_kind", "file_to_read", "final_target", "opened_to_read", "output_path", "write_whole",
           "written_whole"]

#: ``renameat2`` flags (linux/fs.h) and the "current folder" descriptor of the ``*at`` calls.
RENAME_NOREPLACE, RENAME_EXCHANGE, AT_FDCWD = 1, 2, -100
#: How many names a draft tries before giving up (each is random: two clashes in a row are unheard of).
DRAFT_NAMES = 64
#: How many exchanges may be spent putting back what was swapped in while a file was written.
PUT_BACK_TRIES = 10_000


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


def _points_to(link: str) -> str:
    """Where the symbolic link ``link`` points, for messages (``somewhere`` if it is no link by now)."""
    try:
        return _shown(os.readlink(link))
    except OSError:
        return "somewhere"


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


def _writable(info: os.stat_result, path: str, folder: int | None = None) -> bool:
    """Whether the file ``info`` describes (at ``path``, in the open ``folder`` if given) may be written by
    this user, as a shell redirect would decide; root, whom ``access`` lets write anything, needs a write bit
    in the mode."""
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        return bool(info.st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))
    options: dict[str, Any] = {}
    if os.access in os.supports_effective_ids:
        options["effective_ids"] = True  # a set-user-ID program writes as whom it runs as
    if folder is not None:
        options["dir_fd"] = folder
        if os.access in os.supports_follow_symlinks:
            options["follow_symlinks"] = False
    return os.access(path, os.W_OK, **options)


def _refuse_to_replace(info: os.stat_result, writable: bool, shown: str, what: str) -> None:
    """One line if the file ``info`` describes is no regular file the kit may replace (see the module
    docstring): a folder, a device, a FIFO, a socket, a read-only file, a file with other names."""
    mode = info.st_mode
    if stat.S_ISDIR(mode):
        raise InputError(f"cannot write {shown}: it is a folder; give a file name for {what}, e.g. "
                         f"{_shown(os.path.join(shown, 'out'))}")
    if not stat.S_ISREG(mode):
        raise InputError(f"cannot write {shown}: it is {file_kind(mode)}, not a regular file; give the name of a "
                         f"regular file (new or existing) for {what}")
    if not writable:
        if not mode & stat.S_IWUSR:
            raise InputError(f"cannot write {shown}: it is read-only (mode {stat.S_IMODE(mode):o}); make it "
                             "writable (chmod u+w) or write elsewhere")
        raise InputError(f"cannot write {shown}: it is read-only for this user (mode {stat.S_IMODE(mode):o}); "
                         f"write {what} elsewhere")
    if info.st_nlink > 1:
        others = info.st_nlink - 1
        names = "1 other name (a hard link)" if others == 1 else f"{others} other names (hard links)"
        raise InputError(f"cannot write {shown}: the file has {names}, which would keep the old content; remove "
                         f"it first, or write {what} elsewhere")


def output_path(path: str | os.PathLike[str], what: str = "the output") -> Path:
    """``path`` (as given) if the kit may write it, else a one-line :class:`InputError`.

    Valid: a regular file its user may write and that has no other name, a new file in an existing folder,
    or a symbolic link to either (written through).  Refused: an empty name, a name ending in a separator, a
    folder, a device, a FIFO, a socket, a symbolic link whose target does not exist, a folder that does not
    exist, a read-only file, a file with hard links.  ``what`` names the file in messages (``"the proof"``).
    """
    text = _path_text(path, what)
    shown = _shown(text)
    given = Path(text)
    if text.endswith((os.sep, "/")):
        raise InputError(f"cannot write {shown}: a path ending in {text[-1]} is a folder; give a file name for {what}")
    try:
        info: os.stat_result | None = os.stat(text)  # follows symbolic links, as a write would
    except FileNotFoundError:
        info = None
    except OSError as exc:  # a loop of links, a path through a file, no permission
        raise InputError(f"cannot write {shown}: {exc.strerror or exc}") from None
    if info is None:
        if os.path.islink(text):
            raise InputError(f"cannot write {shown}: it is a symbolic link to {_points_to(text)}, which "
                             f"does not exist; give the path of the file itself for {what}, or remove the link")
        folder = given.parent
        if not folder.is_dir():
            raise InputError(f"cannot write {shown}: the folder {_shown(str(folder))} does not exist")
        return given
    _refuse_to_replace(info, stat.S_ISREG(info.st_mode) and _writable(info, text), shown, what)
    return given


@cache
def _renameat2_call() -> Callable[[int, bytes, int, bytes, int], int] | None:
    """The C library's ``renameat2``, or None where there is none (not Linux, or a C library without it)."""
    if not sys.platform.startswith("linux"):
        return None
    import ctypes

    try:
        call = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError):
        return None
    call.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    call.restype = ctypes.c_int

    def renameat2(old_folder: int, old: bytes, new_folder: int, new: bytes, flags: int) -> int:
        if call(old_folder, old, new_folder, new, flags) == 0:
            return 0
        return ctypes.get_errno() or errno.EIO

    return renameat2


#: The writes under way: their drafts are removed by :func:`remove_drafts` when the command must end at once.
_writing: set[_Place] = set()


def remove_drafts() -> None:
    """Remove the draft of every write under way (never anything else at their names): what a command that
    must end at once (its watchdog) does instead of the usual clean-up.  Safe to call from any thread."""
    for place in list(_writing):
        place.remove_draft()


class _Place:
    """Where a write goes, decided once (see the module docstring): the final folder, open; the name in it;
    and the regular file there at the start (None: nothing was)."""

    def __init__(self, folder: Path, name: str, shown: str) -> None:
        if name in ("", ".", ".."):
            raise InputError(f"cannot write {shown}: it names a folder; give a file name")
        self.folder, self.name, self.shown = str(folder), name, shown
        self.found: os.stat_result | None = None
        self.draft: str | None = None
        self.draft_id: tuple[int, int] | None = None
        # Descriptors held open on the file decided at the start and on the draft: while they are open, no
        # other file can be given their inode numbers, so "the same inode" means "the same file".
        self.pins: list[int] = []
        self.fd: int | None = None
        if os.open in os.supports_dir_fd and hasattr(os, "O_DIRECTORY"):
            try:
                self.fd = os.open(self.folder, os.O_RDONLY | os.O_DIRECTORY | getattr(os, "O_CLOEXEC", 0))
            except OSError as exc:
                raise InputError(f"cannot write {shown}: cannot open the folder {_shown(self.folder)} "
                                 f"({exc.strerror or exc})") from None

    def at(self, name: str) -> str:
        """``name`` as the ``*at`` calls take it: relative to the open folder (or joined to it, where the
        platform opens no folders)."""
        return name if self.fd is not None else os.path.join(self.folder, name)

    def lstat(self, name: str) -> os.stat_result | None:
        """What is at ``name`` in the folder, links not followed; None if nothing."""
        try:
            return os.stat(self.at(name), dir_fd=self.fd, follow_symlinks=False)
        except FileNotFoundError:
            return None

    def look(self) -> os.stat_result | None:
        """What is at the name now, links not followed (None: nothing); a regular file is also held open (an
        ``O_PATH`` descriptor, which opens nothing; elsewhere read-only, where that is allowed)."""
        o_path = getattr(os, "O_PATH", 0)
        plain = getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
        if o_path:
            try:
                fd = os.open(self.at(self.name), o_path | plain, dir_fd=self.fd)
            except FileNotFoundError:
                return None
        else:
            there = self.lstat(self.name)
            if there is None or not stat.S_ISREG(there.st_mode):
                return there  # never opened: a device or a FIFO is only looked at
            try:
                fd = os.open(self.at(self.name), os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | plain,
                             dir_fd=self.fd)
            except OSError:
                return there  # not readable: compared by inode number alone
        info = os.fstat(fd)
        if stat.S_ISREG(info.st_mode):
            self.pins.append(fd)
        else:
            os.close(fd)
        return info

    def close(self) -> None:
        _writing.discard(self)
        for fd in [*self.pins, *([] if self.fd is None else [self.fd])]:
            os.close(fd)
        self.pins, self.fd = [], None

    # ------------------------------------------------------------------------------------ the draft

    def open_draft(self) -> int:
        """A new, empty draft beside the target (never through a link), with the target's mode, or the usual
        mode for a new file."""
        flags = (os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
                 | getattr(os, "O_BINARY", 0))
        for _ in range(DRAFT_NAMES):
            name = f".nqk-{secrets.token_hex(4)}.tmp"  # 17 bytes: fits beside a name of any legal length
            try:
                fd = os.open(self.at(name), flags, 0o600 if self.found is not None else 0o666, dir_fd=self.fd)
            except FileExistsError:
                continue
            self.draft = name
            try:
                made = os.fstat(fd)
                self.draft_id = (made.st_dev, made.st_ino)
                _writing.add(self)
                self.pins.append(os.dup(fd))
                if self.found is not None:  # a replaced file keeps its owner (if root) and permissions
                    if hasattr(os, "fchown") and os.geteuid() == 0 and (made.st_uid, made.st_gid) != (
                            self.found.st_uid, self.found.st_gid):
                        os.fchown(fd, self.found.st_uid, self.found.st_gid)
                    if hasattr(os, "fchmod"):
                        os.fchmod(fd, stat.S_IMODE(self.found.st_mode))
            except BaseException:
                os.close(fd)
                raise
            return fd
        raise InputError(f"cannot write {self.shown}: no free name for a draft in {_shown(self.folder)}")

    def remove_draft(self) -> None:
        """Remove the draft, if what is at its name is the draft (never anything else)."""
        _writing.discard(self)
        if self.draft is None:
            return
        try:
            there = self.lstat(self.draft)
            if there is not None and (there.st_dev, there.st_ino) == self.draft_id:
                os.unlink(self.at(self.draft), dir_fd=self.fd)
        except OSError:
            pass

    # ------------------------------------------------------------------------------------ in place

    def _renameat2(self, old: str, new: str, flags: int) -> bool:
        """``renameat2`` of two names in the folder; False where it is missing or the file system refuses the
        flags, an OSError if it failed otherwise."""
        call = _renameat2_call()
        if call is None:
            return False
        folder = AT_FDCWD if self.fd is None else self.fd
        code = call(folder, os.fsencode(self.at(old)), folder, os.fsencode(self.at(new)), flags)
        if code in (errno.ENOSYS, errno.EINVAL):  # an older kernel, or a file system without these flags
            return False
        if code:
            raise OSError(code, os.strerror(code))
        return True

    def _appeared(self) -> InputError:
        there = self.lstat(self.name)
        kind = "something" if there is None else file_kind(there.st_mode)
        return InputError(f"cannot write {self.shown}: it did not exist at the start and became {kind} while it was "
                          "being written; that was kept and nothing was written")

    def _changed(self, kind: str, kept: str = "it was left there") -> InputError:
        return InputError(f"cannot write {self.shown}: it became {kind} while it was being written; {kept} and "
                          "nothing was written")

    def put(self) -> None:
        """Put the finished draft in place (see the module docstring), or raise one line leaving what is
        there as it was."""
        assert self.draft is not None
        if self.found is None:
            self._put_new()
        else:
            self._put_over(self.found)
        self.draft = None
        _writing.discard(self)

    def _put_new(self) -> None:
        assert self.draft is not None
        try:
            if self._renameat2(self.draft, self.name, RENAME_NOREPLACE):
                return
        except FileExistsError:
            raise self._appeared() from None
        try:  # a hard link never replaces anything
            os.link(self.at(self.draft), self.at(self.name), src_dir_fd=self.fd, dst_dir_fd=self.fd)
        except FileExistsError:
            raise self._appeared() from None
        except OSError:  # a file system without hard links: checked, then moved
            if self.lstat(self.name) is not None:
                raise self._appeared() from None
            os.replace(self.at(self.draft), self.at(self.name), src_dir_fd=self.fd, dst_dir_fd=self.fd)
            return
        os.unlink(self.at(self.draft), dir_fd=self.fd)

    def _put_over(self, found: os.stat_result) -> None:
        assert self.draft is not None
        decided = (found.st_dev, found.st_ino)
        try:
            exchanged = self._renameat2(self.draft, self.name, RENAME_EXCHANGE)
        except FileNotFoundError:
            raise InputError(f"cannot write {self.shown}: it was removed while it was being written; nothing was "
                             "written") from None
        if not exchanged:  # checked, then moved: see the module docstring
            there = self.lstat(self.name)
            if there is None or not stat.S_ISREG(there.st_mode) or (there.st_dev, there.st_ino) != decided:
                raise self._changed("something else" if there is None else file_kind(there.st_mode))
            os.replace(self.at(self.draft), self.at(self.name), src_dir_fd=self.fd, dst_dir_fd=self.fd)
            return
        back = self.lstat(self.draft)  # what was at the name at the moment of the exchange
        if back is not None and stat.S_ISREG(back.st_mode) and (back.st_dev, back.st_ino) == decided:
            os.unlink(self.at(self.draft), dir_fd=self.fd)  # the old file
            return
        kind = "something else" if back is None else (
            "another regular file" if stat.S_ISREG(back.st_mode) else file_kind(back.st_mode))
        raise self._changed(kind, "that was put back" if self._put_back() else
                            f"it was moved to {_shown(os.path.join(self.folder, self.draft))}")

    def _put_back(self) -> bool:
        """Exchange again until the draft's name holds the draft: what was swapped in is back at the name
        (another program swapping all along may need a few exchanges).  False if that failed."""
        assert self.draft is not None
        for _ in range(PUT_BACK_TRIES):
            try:
                self._renameat2(self.draft, self.name, RENAME_EXCHANGE)
                there = self.lstat(self.draft)
            except OSError:
                return False
            if there is not None and (there.st_dev, there.st_ino) == self.draft_id:
                return True
        return False  # pragma: no cover  (an exchange that loses ten thousand times in a row)


def _decided(given: Path, shown: str, what: str) -> _Place:
    """Where a write to ``given`` goes, decided once: a regular file or nothing at ``given``; or, if ``given``
    is a symbolic link now, its final target, found now (a link is written through only if it was one here).
    Anything else is refused with one line."""
    place = _Place(given.parent, given.name, shown)
    try:
        there = place.look()
        if there is not None and stat.S_ISLNK(there.st_mode):
            try:
                real = final_target(given)
            except OSError:  # it stopped being a link while it was followed
                raise InputError(f"cannot write {shown}: it changed while the symbolic link was followed; nothing "
                                 "was written") from None
            place.close()
            place = _Place(real.parent, real.name, shown)
            there = place.look()
            if there is None:
                raise InputError(f"cannot write {shown}: it is a symbolic link to {_shown(str(real))}, which does "
                                 "not exist; give the path of the file itself, or remove the link")
            if stat.S_ISLNK(there.st_mode):
                raise InputError(f"cannot write {shown}: it changed while the symbolic link was followed; nothing "
                                 "was written")
        if there is not None:
            writable = stat.S_ISREG(there.st_mode) and _writable(there, place.at(place.name), place.fd)
            _refuse_to_replace(there, writable, shown, what)
        place.found = there
    except OSError as exc:
        place.close()
        raise InputError(f"cannot write {shown}: {exc.strerror or exc}") from None
    except BaseException:
        place.close()
        raise
    return place


@contextmanager
def written_whole(path: str | os.PathLike[str], mode: str = "w", encoding: str | None = "utf-8",
                  what: str = "the output") -> Iterator[IO[Any]]:
    """A stream to write ``path`` through (see the module docstring); an OSError becomes one line.

    >>> import tempfile, os
    >>> folder = tempfile.mkdtemp()
    >>> name = os.path.join(folder, "q" * 255)  # the longest name a file may have
    >>> with written_whole(name) as out:
    ...     _ = out.write("fits")
    >>> os.listdir(folder) == ["q" * 255]
    True
    """
    given = output_path(path, what)
    shown = _shown(str(given))
    place = _decided(given, shown, what)
    try:
        try:
            fd = place.open_draft()
            try:
                stream = os.fdopen(fd, mode) if "b" in mode else os.fdopen(fd, mode, encoding=encoding)
            except BaseException:
                os.close(fd)
                raise
            with stream as out:
                yield out
                out.flush()
                os.fsync(out.fileno())
            place.put()
        except OSError as exc:
            place.remove_draft()
            raise InputError(f"cannot write {shown}: {exc.strerror or exc}; nothing was written") from None
        except BaseException:
            place.remove_draft()
            raise
    finally:
        place.close()


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
            raise InputError(f"{missing}: {shown} is a symbolic link to {_points_to(text)}, which does "
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
