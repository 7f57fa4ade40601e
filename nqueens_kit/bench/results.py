"""The results file: one CSV row per run, written so that nothing is lost, and read back safely.

- :data:`COLUMNS` and :func:`read_results` (typed rows: numbers as numbers, ``verified`` as bool, empty
  cells as None); :func:`meta_path`, :func:`read_meta`, :func:`write_meta` for the sidecar JSON.
- :class:`ResultsFile`: the CSV being written.  It takes a lock for the whole sweep (a second bench on the
  same file is refused with one line), writes through symbolic links and refuses anything that is not a
  regular file (a device, a FIFO, a folder: the kit's one rule, :mod:`nqueens_kit.runtime.files`), writes
  each row in one piece and syncs it, and on a failed write (a full disk) cuts the file back to the last
  complete row and stops with one line.  The rows are appended through one descriptor, opened without
  following a symbolic link and checked to be the very file whose header was just written: a link or any
  other file put at the name meanwhile is refused with one line and left alone.
- Every name made beside the results (the sidecar, the lock) fits in a file name (:func:`fitted_name`), so
  any legal name of a results file works.

>>> typed({"n": "8", "method": "sat", "repeat": "1", "status": "solved", "total_seconds": "0.5",
...        "verified": "true"})["verified"]
True
"""

from __future__ import annotations

import csv
import errno
import io
import json
import math
import os
import stat
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import IO, TypedDict, cast

from ..errors import InputError
from ..problem.board import MAX_N
from ..problem.results import JSON, Options, Status
from ..runtime.files import file_kind, file_to_read, final_target, output_path, write_whole, written_whole

COLUMNS = (
    "n", "method", "encoding", "formulation", "solver", "repeat", "status",
    "variables", "clauses", "constraints", "build_seconds", "solve_seconds", "total_seconds",
    "peak_rss_mb", "verified", "place_random", "preplaced", "seed", "time_limit", "message",
    "instance", "settings", "solver_seconds", "cpu_seconds", "startup_seconds", "family", "density", "blocked",
    "conflicts", "nodes", "variant", "known_by",
)
#: Columns an older results file may lack (they were added later); read as empty.
LATER_COLUMNS = ("instance", "settings", "solver_seconds", "cpu_seconds", "startup_seconds", "family", "density",
                 "blocked", "conflicts", "nodes", "variant", "known_by")
INT_COLUMNS = ("n", "repeat", "variables", "clauses", "constraints", "place_random", "seed", "instance", "conflicts",
               "nodes")
FLOAT_COLUMNS = ("build_seconds", "solve_seconds", "total_seconds", "peak_rss_mb", "time_limit",
                 "solver_seconds", "cpu_seconds", "startup_seconds", "density")
REQUIRED = ("n", "method", "repeat", "status", "total_seconds")
#: The rows a resumed sweep keeps: an answer, or a run that ended without one (the time or memory limit, or
#: the solver's own "unknown", which it gave before the limit); ``error`` and ``skipped`` rows are run again.
DONE_STATUSES = (Status.SOLVED, Status.INFEASIBLE, Status.TIMEOUT, Status.MEMOUT, Status.UNKNOWN)


class ResultRow(TypedDict, total=False):
    """One run as a results CSV holds it (:data:`COLUMNS`), typed as :func:`typed` reads it back: numbers as
    numbers, ``verified`` as bool, an empty cell as None (``message`` and ``preplaced`` as "").  A row read
    from a file may also carry a user's own columns (:func:`extra_columns`) under their names."""

    n: int
    method: str
    encoding: str | None
    formulation: str | None
    solver: str | None
    repeat: int
    status: str
    variables: int | None
    clauses: int | None
    constraints: int | None
    build_seconds: float | None
    solve_seconds: float | None
    total_seconds: float | None
    peak_rss_mb: float | None
    verified: bool | None
    place_random: int
    preplaced: str
    seed: int | None
    time_limit: float | None
    message: str
    instance: int
    settings: str | None
    solver_seconds: float | None
    cpu_seconds: float | None
    startup_seconds: float | None
    family: str | None
    density: float | None
    blocked: str | None
    conflicts: int | None
    nodes: int | None
    variant: str | None
    known_by: str | None


class Session(TypedDict, total=False):
    """One bench invocation on a results file, as its sidecar records it."""

    started: str
    command: str
    resumed: bool
    kept_rows: int
    load_average_start: list[float] | None
    finished: str
    new_rows: int
    complete: bool
    load_average_end: list[float] | None


class SweepSpec(TypedDict, total=False):
    """What a sweep was asked to run, as its sidecar records it."""

    configs: list[str]
    ns: list[int]
    repeat: int
    instances: int
    timeout: float | None
    place_random: int
    seed: int | None
    skip_after_timeout: bool
    memory_limit: int | None
    jobs: int
    dask: str | None
    family: str
    density: float | None


class Meta(TypedDict, total=False):
    """The sidecar JSON of a results CSV (``FILE.csv.meta.json``): the machine and software a sweep ran on
    (:func:`~nqueens_kit.bench.environment.environment`), what it was asked to run, and every session."""

    created: str
    machine: dict[str, JSON]
    python: dict[str, str]
    packages: dict[str, str | None]
    kit_revision: str | None
    solvers: dict[str, str | None]
    solver_settings: dict[str, Options]
    sweep: SweepSpec
    sessions: list[Session]


#: The longest file name most file systems allow, in bytes.
NAME_MAX = 255


def fitted_name(name: str, prefix: str = "", suffix: str = "") -> str:
    """``prefix + name + suffix``, or, where that would be longer than a file name may be (:data:`NAME_MAX`
    bytes), ``prefix + START-DIGEST + suffix`` cut to fit: the start of ``name`` and a digest of all of it,
    so that the same name always gives the same shorter name and two names almost never give one.

    >>> fitted_name("res.csv", ".", ".lock")
    '.res.csv.lock'
    >>> short = fitted_name("é" * 127 + ".csv", suffix=".meta.json")
    >>> len(short.encode()), short.endswith(".meta.json"), short == fitted_name("é" * 127 + ".csv", suffix=".meta.json")
    (255, True, True)
    >>> short != fitted_name("é" * 127 + ".CSV", suffix=".meta.json")
    True
    """
    whole = f"{prefix}{name}{suffix}"
    if len(os.fsencode(whole)) <= NAME_MAX:
        return whole
    import hashlib

    raw = os.fsencode(name)
    digest = hashlib.sha256(raw).hexdigest()[:16]
    room = NAME_MAX - len(os.fsencode(prefix)) - len(os.fsencode(suffix)) - len(digest) - 1
    start = raw[:room].decode("utf-8", "ignore")  # never half a character
    return f"{prefix}{start}-{digest}{suffix}"


def meta_path(csv_path: str | os.PathLike[str]) -> Path:
    """Where the sidecar JSON of a results CSV lives: ``results.csv.meta.json`` beside it, or, where that
    name would be too long for a file name, a shorter one made by :func:`fitted_name`.  Every writer and
    reader of a sidecar finds it here.

    >>> meta_path("out/results.csv").as_posix()
    'out/results.csv.meta.json'
    >>> len(meta_path("r" * 251 + ".csv").name.encode())
    255
    """
    path = Path(csv_path)
    return path.with_name(fitted_name(path.name, suffix=".meta.json"))


def read_meta(csv_path: str | os.PathLike[str]) -> Meta | None:
    """The sidecar of a results CSV, or None if there is none, it is unreadable, not a regular file (a FIFO
    would keep the reader waiting), or not an object."""
    path = meta_path(csv_path)
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return None
        # a file anyone may have edited: its readers check each part before use
        meta: Meta | list[JSON] | str | float | None = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return meta if isinstance(meta, dict) else None


def write_meta(csv_path: str | os.PathLike[str], data: Meta) -> None:
    """Replace the sidecar in one step (a crash leaves the old one or the new one), by the rule of
    :func:`~nqueens_kit.runtime.files.written_whole`."""
    write_whole(meta_path(csv_path), json.dumps(data, indent=2, default=str) + "\n",
                what="the results' sidecar (FILE.csv.meta.json)")


def csv_value(value: object) -> object:
    """A value as a CSV cell writes it: None empty, bools as true/false, floats to 6 digits, dicts as JSON."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:.6g}" if abs(value) >= 1e-3 or value == 0 else f"{value:.3e}"
    if isinstance(value, dict):
        return json.dumps(value, sort_keys=True, separators=(",", ":"))
    return value


def row_text(row: Mapping[str, object], columns: tuple[str, ...] = COLUMNS) -> str:
    """One row as CSV text with its line ending."""
    buffer = io.StringIO()
    csv.DictWriter(buffer, fieldnames=columns, lineterminator="\n").writerow(
        {k: csv_value(row.get(k)) for k in columns})
    return buffer.getvalue()


def extra_columns(path: str | os.PathLike[str]) -> tuple[str, ...]:
    """The columns of an existing results file that the kit does not write (a user's notes, say), in order:
    a resumed sweep keeps them and their values."""
    try:
        with open(path, encoding="utf-8", newline="") as handle:
            header = next(csv.reader(handle), [])
    except (OSError, UnicodeDecodeError, csv.Error):
        return ()
    return tuple(dict.fromkeys(c for c in header if c and c not in COLUMNS))


def target(path: str | os.PathLike[str]) -> Path:
    """The file a results path really names: symbolic links followed; a folder, a device, a FIFO, a socket or
    a link to nothing refused (:func:`~nqueens_kit.runtime.files.output_path`)."""
    return final_target(output_path(path, "the results (e.g. results.csv)"))


def _is_link(path: Path) -> bool:
    """Whether a symbolic link is at ``path`` now (nothing there is no link)."""
    try:
        return stat.S_ISLNK(os.lstat(path).st_mode)
    except FileNotFoundError:
        return False


class ResultsFile:
    """The CSV being written, locked for the sweep; see the module docstring."""

    def __init__(self, path: str | os.PathLike[str], kept: Iterable[ResultRow] = (),
                 lock: Lock | None = None, extra: tuple[str, ...] = ()) -> None:
        self.shown = Path(path)
        self.path = target(path)
        self.columns = COLUMNS + tuple(c for c in extra if c not in COLUMNS)
        self.lock = lock or Lock(self.path)
        self.fd: int | None = None
        try:
            written = self._start(kept)
            try:
                self.fd = self._opened(written)
            finally:
                os.close(written)
        except BaseException:
            self.lock.release()
            raise

    def _start(self, kept: Iterable[ResultRow]) -> int:
        """Write the header and the kept rows to a new file that replaces the old one in one step (no stray
        half-written file beside the results on failure); return a descriptor held on the file written, so
        that :meth:`_opened` can tell it from anything put at its name since."""
        columns = self.columns
        text = row_text(dict(zip(columns, columns, strict=True)), columns) + "".join(
            row_text(row, columns) for row in kept)
        held: int | None = None
        try:
            with written_whole(self.path, "wb", None, what="the results") as out:
                out.write(text.encode("utf-8"))
                if _is_link(self.path):  # resolved at the start: a link there now was put there since
                    raise self._moved("a symbolic link")
                held = os.dup(out.fileno())
        except BaseException:
            if held is not None:
                os.close(held)
            raise
        assert held is not None
        return held

    def _opened(self, written: int) -> int:
        """The results file opened to append, without following a symbolic link at its name and checked to
        be the file just written (``written``, a descriptor on it); one line if anything else is there."""
        try:
            there = os.lstat(self.path)
        except OSError as exc:
            raise InputError(f"cannot write {self.shown}: {exc.strerror or exc}") from None
        if not stat.S_ISREG(there.st_mode):  # before opening: a device or a FIFO is never opened
            raise self._moved(file_kind(there.st_mode))
        flags = (os.O_WRONLY | os.O_APPEND | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
                 | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0))
        try:
            fd = os.open(self.path, flags)
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                raise self._moved("a symbolic link") from None
            if exc.errno in (errno.ENXIO, errno.ENOENT):  # a FIFO nobody reads, or nothing at all
                raise self._moved("something else") from None
            raise InputError(f"cannot write {self.shown}: {exc.strerror or exc}") from None
        try:
            info, mine = os.fstat(fd), os.fstat(written)
            if not stat.S_ISREG(info.st_mode):
                raise self._moved(file_kind(info.st_mode))
            if (info.st_dev, info.st_ino) != (mine.st_dev, mine.st_ino):
                raise self._moved("another regular file")
            if hasattr(os, "set_blocking"):
                os.set_blocking(fd, True)
        except BaseException:
            os.close(fd)
            raise
        return fd

    def _moved(self, kind: str) -> InputError:
        return InputError(f"cannot write {self.shown}: it became {kind} while the sweep was starting; that was "
                          "left alone and no row was written")

    def write(self, row: ResultRow) -> None:
        """Append one row in one piece (no buffering: every byte goes straight to the file), synced; on
        failure cut back to the last whole row and raise one line."""
        assert self.fd is not None
        data = row_text(row, self.columns).encode("utf-8")
        good = os.lseek(self.fd, 0, os.SEEK_END)
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(self.fd, view):]
            os.fsync(self.fd)
        except OSError as exc:
            try:
                os.ftruncate(self.fd, good)
            except OSError:
                pass
            self.close()
            raise InputError(f"cannot write to {self.shown}: {exc.strerror or exc}; every row before this one "
                             "is saved (resume with --resume when there is room)") from None

    def close(self) -> None:
        if self.fd is not None:
            try:
                os.close(self.fd)
            except OSError:
                pass
            self.fd = None
        self.lock.release()


#: How many times a bench tries to lock a lock file that the bench holding it removed meanwhile.
LOCK_TRIES = 100


def lock_path(path: Path) -> Path:
    """The lock file of the results file ``path``: ``.NAME.lock`` beside it, or, where that name would be
    longer than a file name may be (255 bytes), ``.START-DIGEST.lock`` (:func:`fitted_name`).

    >>> lock_path(Path("out/res.csv")).name
    '.res.csv.lock'
    >>> len(lock_path(Path("x" * 255)).name.encode())
    255
    """
    return path.with_name(fitted_name(path.name, ".", ".lock"))


class Lock:
    """An exclusive lock on ``.NAME.lock`` beside the results file (:func:`lock_path`), held while a sweep
    writes it.

    The lock file is opened without following a symbolic link and must be a regular file with one name: a
    link, a FIFO, a folder or a hard link planted at its name is refused with one line and left alone (never
    followed, written or removed).  When the sweep ends, the lock file is removed only if it is still the
    file that was locked.
    """

    def __init__(self, path: Path) -> None:
        self.file = lock_path(path)
        self.handle: IO[str] | None = None
        try:
            import fcntl
        except ImportError:  # no advisory locks here (Windows): carry on without
            return
        for _ in range(LOCK_TRIES):
            handle = os.fdopen(self._opened(path), "r+", encoding="utf-8")
            try:
                fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                handle.seek(0)
                holder = handle.read(40).strip()
                handle.close()
                who = f" (process {holder})" if holder.isdigit() else ""
                raise InputError(f"{path} is being written by another nqueens-kit bench{who}; wait for it or "
                                 "choose another --out") from None
            if self._still_here(handle):
                break
            handle.close()  # the bench that held it removed it meanwhile: lock the one there now
        else:  # pragma: no cover  (a lock file replaced a hundred times in a row)
            raise InputError(f"cannot lock {path}: its lock file {self.file} keeps being replaced")
        handle.seek(0)
        handle.truncate()
        handle.write(str(os.getpid()))
        handle.flush()
        self.handle = handle

    def _opened(self, path: Path) -> int:
        """The lock file, opened (made if missing) without following a link at its name; a one-line
        :class:`InputError` if it is anything but a regular file with one name."""
        flags = (os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
                 | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
        try:
            there = os.lstat(self.file)
        except FileNotFoundError:
            pass
        except OSError as exc:
            raise InputError(f"cannot lock {path}: {exc.strerror or exc}") from None
        else:
            self._refuse(there, path)  # before opening: a device or a FIFO is never opened
        try:
            fd = os.open(self.file, flags, 0o644)
        except OSError as exc:
            if exc.errno == errno.ELOOP:  # a link put there since
                raise InputError(f"cannot lock {path}: its lock file {self.file} is a symbolic link; remove the "
                                 "link (it is not followed) and run again") from None
            raise InputError(f"cannot lock {path}: {exc.strerror or exc}") from None
        try:
            self._refuse(os.fstat(fd), path)
        except BaseException:
            os.close(fd)
            raise
        return fd

    def _refuse(self, info: os.stat_result, path: Path) -> None:
        if stat.S_ISLNK(info.st_mode):
            raise InputError(f"cannot lock {path}: its lock file {self.file} is a symbolic link; remove the link "
                             "(it is not followed) and run again")
        if not stat.S_ISREG(info.st_mode):
            raise InputError(f"cannot lock {path}: its lock file {self.file} is {file_kind(info.st_mode)}, not a "
                             "regular file; remove it and run again")
        if info.st_nlink > 1:
            raise InputError(f"cannot lock {path}: its lock file {self.file} has other names (hard links); "
                             "remove it and run again")

    def _still_here(self, handle: IO[str]) -> bool:
        """Whether the lock file's name still names the file ``handle`` has open."""
        mine = os.fstat(handle.fileno())
        try:
            there = os.lstat(self.file)
        except OSError:
            return False
        return (there.st_dev, there.st_ino) == (mine.st_dev, mine.st_ino)

    def release(self) -> None:
        if self.handle is not None:
            try:
                if self._still_here(self.handle):  # removed while still locked: never a link or another file
                    self.file.unlink()
            except OSError:
                pass
            finally:
                try:
                    self.handle.close()
                except OSError:
                    pass
                self.handle = None


# ------------------------------------------------------------------------------------------ reading


def read_results(path: str | os.PathLike[str]) -> list[ResultRow]:
    """The rows of a results CSV, typed (see :func:`typed`).

    A last line cut short (the machine died mid-write) is ignored; any other malformed line is an
    :class:`InputError` naming it.
    """
    source = file_to_read(path, "a results CSV written by nqueens-kit bench", missing="no such results file")
    try:
        text = source.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read {source}: {getattr(exc, 'strerror', None) or exc}") from None
    lines = text.splitlines(keepends=True)
    if not lines:
        raise InputError(f"{source} is empty; expected a CSV written by nqueens-kit bench")
    complete_tail = text.endswith("\n")
    try:
        parsed = list(csv.reader(lines))
    except csv.Error as exc:
        raise InputError(f"{source} is not a readable CSV ({exc})") from None
    header = parsed[0]
    missing = [c for c in REQUIRED if c not in header]
    if missing:
        raise InputError(f"{source} is not a results CSV from nqueens-kit bench (no column {missing[0]!r})")
    rows: list[ResultRow] = []
    for index, fields in enumerate(parsed[1:], start=2):
        last = index == len(parsed)
        if not fields:
            continue
        try:
            if len(fields) != len(header):
                raise ValueError(f"{len(fields)} fields, the header has {len(header)}")
            rows.append(typed(dict(zip(header, fields, strict=True))))
        except ValueError as exc:
            if last and not complete_tail:
                break
            raise InputError(f"{source}, line {index}: {exc}") from None
    return rows


def typed(raw: Mapping[str, str]) -> ResultRow:
    """A CSV row with numbers as numbers, ``verified`` as bool, empty cells as None; ValueError says what is
    impossible (an unknown status, a negative or non-finite time, n out of range, a verdict on an unsolved run)."""
    row: dict[str, str | int | float | bool | None] = {column: None for column in LATER_COLUMNS}
    for key, value in raw.items():
        value = value.strip()
        if value == "":
            row[key] = "" if key in ("message", "preplaced") else None
        elif key in INT_COLUMNS:
            row[key] = int(value)
        elif key in FLOAT_COLUMNS:
            number = float(value)
            if not math.isfinite(number) or number < 0:
                raise ValueError(f"{key} must be a finite number of 0 or more, not {value!r}")
            row[key] = number
        elif key == "verified":
            if value not in ("true", "false"):
                raise ValueError(f"verified must be true or false, not {value!r}")
            row[key] = value == "true"
        else:
            row[key] = value
    status = row.get("status")
    if status not in {s.value for s in Status}:
        raise ValueError(f"unknown status {status!r}; expected one of {', '.join(s.value for s in Status)}")
    n, repeat = row.get("n"), row.get("repeat")
    if not isinstance(n, int) or not isinstance(repeat, int):  # INT_COLUMNS: an int, or None for an empty cell
        raise ValueError("n and repeat must not be empty")
    if not 1 <= n <= MAX_N or repeat < 1:
        raise ValueError(f"n must be from 1 to {MAX_N:,} and repeat at least 1, not {n} and {repeat}")
    if row.get("verified") is not None and status != Status.SOLVED:
        raise ValueError(f"a {status} run cannot have a verdict on its board")
    row["place_random"] = row.get("place_random") or 0
    row["instance"] = row.get("instance") or 1
    # every column was converted above (its int, float, bool or text), status and n and repeat checked
    return cast(ResultRow, row)
