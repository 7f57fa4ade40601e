"""No write can be redirected, destroy or overstep (:mod:`nqueens_kit.runtime.files`).

The race: a swapper (a child process) exchanges the output path with another object, ``renameat2`` with
``RENAME_EXCHANGE`` in a tight loop, while the kit's writers write the path: a symbolic link to another
file, a FIFO, a socket, a folder.  After every try (the swapper paused) the other file is unchanged, the
object swapped in is still there with its inode (at the path or at the swapper's name), the regular file
is whole (its old content or the new, exactly), no draft is left anywhere, and every refusal is one line.
A link there at the moment the kit decides is written through by design (a shell redirect does the same),
so the other file is one its user may not write (mode 444): it must never change, whoever runs the test.

Also: a read-only file, a file with hard links, a link planted at the bench's lock path, the longest names,
what appears while a file is written, and the checked fallback where ``renameat2`` is missing.

No test writes to a device node or renames anything outside its own ``tmp_path``; the swapper only
exchanges two names inside it.  No fixed sleeps: the swapper says when it is ready, swapping, and paused.
"""

from __future__ import annotations

import contextlib
import ctypes
import io
import mmap
import os
import stat
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from nqueens_kit.bench import run_sweep
from nqueens_kit.bench.results import Lock, lock_path, meta_path, read_meta, write_meta
from nqueens_kit.cli import main
from nqueens_kit.errors import InputError
from nqueens_kit.methods import Choice
from nqueens_kit.runtime import files
from nqueens_kit.runtime.files import output_path, write_whole, written_whole

RENAME_EXCHANGE = 2
AT_FDCWD = -100


def _renameat2() -> Callable[..., int] | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        call = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError):
        return None
    call.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    call.restype = ctypes.c_int
    return call


RENAMEAT2 = _renameat2()


def exchange(first: Path, second: Path) -> None:
    """Swap two names in one step (what another program could do at any moment)."""
    assert RENAMEAT2 is not None
    if RENAMEAT2(AT_FDCWD, os.fsencode(first), AT_FDCWD, os.fsencode(second), RENAME_EXCHANGE) != 0:
        code = ctypes.get_errno()
        raise OSError(code, os.strerror(code))


def exchange_works(folder: Path) -> bool:
    """Whether this kernel and the file system under ``folder`` exchange two names."""
    if RENAMEAT2 is None:
        return False
    first, second = folder / ".probe-a", folder / ".probe-b"
    first.write_text("a")
    second.write_text("b")
    try:
        exchange(first, second)
        return first.read_text() == "b"
    except OSError:
        return False
    finally:
        first.unlink()
        second.unlink()


needs_exchange = pytest.mark.skipif(RENAMEAT2 is None, reason="renameat2 (Linux 3.15+, glibc 2.28+) is needed")

#: The swapper: exchanges its two names while the shared flag is 1; prints ``ready`` once, then for each line
#: read ``swapping`` when it starts and the number of exchanges when it has stopped.
SWAPPER = r"""
import ctypes, mmap, os, sys
call = ctypes.CDLL(None, use_errno=True).renameat2
call.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
first, second, control = (os.fsencode(a) for a in sys.argv[1:4])
with open(control, "r+b") as handle:
    flag = mmap.mmap(handle.fileno(), 1)
print("ready", flush=True)
for line in sys.stdin:
    swaps = 0
    print("swapping", flush=True)
    while flag[0]:
        if call(-100, first, -100, second, 2) == 0:
            swaps += 1
    print(swaps, flush=True)
"""


class Swapper:
    """The child process that swaps ``first`` and ``second`` while :meth:`swapping` is open."""

    def __init__(self, first: Path, second: Path, control: Path) -> None:
        control.write_bytes(b"\0")
        self._control = open(control, "r+b")  # noqa: SIM115  (closed in close())
        self.flag = mmap.mmap(self._control.fileno(), 1)
        self.proc = subprocess.Popen([sys.executable, "-c", SWAPPER, str(first), str(second), str(control)],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        assert self._line() == "ready"
        self.swaps = 0

    def _line(self) -> str:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        assert line, f"the swapper ended (status {self.proc.poll()})"
        return line.strip()

    @contextlib.contextmanager
    def swapping(self) -> Iterator[None]:
        assert self.proc.stdin is not None
        self.flag[0] = 1
        self.proc.stdin.write("go\n")
        assert self._line() == "swapping"
        try:
            yield
        finally:
            self.flag[0] = 0
            self.swaps += int(self._line())  # printed once the last exchange is over

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=60)
        self.flag.close()
        self._control.close()


def identity(path: Path) -> tuple[int, int, int]:
    info = os.lstat(path)
    return info.st_dev, info.st_ino, stat.S_IFMT(info.st_mode)


def one_line_error(err: InputError, path: Path) -> str:
    text = str(err)
    assert "\n" not in text and text.startswith("cannot write ") and str(path) in text, text
    return text


def outcome(text: str) -> str:
    """How a refusal came about: decided at the start, or what was swapped in put back at the end."""
    if "while it was being written" in text:
        return "put back"
    assert ("not a regular file" in text or "it is a folder" in text or "read-only" in text
            or "it is a symbolic link to" in text or "while the symbolic link was followed" in text), text
    return "refused at start"


WRITERS = ("write_whole", "written_whole", "cnf -o")
KINDS = ("symlink", "fifo", "socket", "folder")


@pytest.fixture(scope="module")
def cnf_5(tmp_path_factory: pytest.TempPathFactory) -> str:
    """What ``cnf 5 -o FILE`` writes."""
    path = tmp_path_factory.mktemp("cnf") / "5.cnf"
    assert cli("cnf", "5", "-o", path)[0] == 0
    return path.read_text()


def write_with(writer: str, out: Path, text: str) -> str:
    """Write ``out`` with one of the kit's writers (``text``, or for ``cnf -o`` the CNF of 5 queens); returns
    how that went: ``written``, ``refused at start`` or ``put back``."""
    if writer == "cnf -o":
        code, message = cli("cnf", "5", "-o", out)
        assert message.count("\n") == 1, message
        if code == 0:
            assert message.startswith("wrote "), message
            return "written"
        assert code == 2 and message.startswith("nqueens-kit: error: cannot write "), (code, message)
        return outcome(message)
    try:
        if writer == "write_whole":
            write_whole(out, text)
        else:
            with written_whole(out, "wb") as stream:
                data = text.encode()
                for start in range(0, len(data), 1000):  # in pieces: a half-written file would show
                    stream.write(data[start:start + 1000])
    except InputError as err:
        return outcome(one_line_error(err, out))
    return "written"


def make(kind: str, path: Path, other: Path) -> None:
    if kind == "symlink":
        path.symlink_to(other)
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "socket":
        os.mknod(path, stat.S_IFSOCK | 0o600)  # a socket file, made without binding (no length limit)
    else:
        path.mkdir()
        (path / "inside.txt").write_text("kept")


#: Tries per writer and kind in the default run, and in the deep one.
TRIES, DEEP_TRIES = 300, 3000


def race(tmp_path: Path, kind: str, tries: int, cnf_5: str) -> dict[str, Counter[str]]:
    arena, elsewhere = tmp_path / "arena", tmp_path / "elsewhere"
    arena.mkdir()
    elsewhere.mkdir()
    if not exchange_works(arena):
        pytest.skip("this file system does not exchange names (renameat2 RENAME_EXCHANGE)")
    other = elsewhere / "other.txt"
    other.write_text("the other file\n")
    other.chmod(0o444)  # its user may not write it: a write through a link to it must be refused
    other_before = (identity(other), other.read_bytes())
    out, side = arena / "out.txt", arena / "side"
    out.write_text("old\n")
    make(kind, side, other)
    special = identity(side)
    swapper = Swapper(out, side, tmp_path / "control")
    tally: dict[str, Counter[str]] = {writer: Counter() for writer in WRITERS}
    try:
        for writer in WRITERS:
            for k in range(tries):
                content = f"{writer} try {k}\n" * 100
                written = cnf_5 if writer == "cnf -o" else content
                before = next(p for p in (out, side) if identity(p) != special).read_text()
                with swapper.swapping():
                    result = write_with(writer, out, content)
                tally[writer][result] += 1
                assert sorted(os.listdir(arena)) == ["out.txt", "side"], os.listdir(arena)  # no draft left
                assert {identity(out), identity(side)} >= {special}  # swapped in: still there, same inode
                regular = next(p for p in (out, side) if identity(p) != special)
                assert stat.S_ISREG(os.lstat(regular).st_mode)
                now = regular.read_text()
                assert now in (before, written), (writer, k, result, now[:80])  # whole: old or new exactly
                if result != "written":
                    assert now == before, (writer, k, result)  # a refused write changed nothing
                assert (identity(other), other.read_bytes()) == other_before
                assert os.listdir(elsewhere) == ["other.txt"]
        where = next(p for p in (out, side) if identity(p) == special)
        if kind == "symlink":
            assert os.readlink(where) == str(other)
        if kind == "folder":
            assert os.listdir(where) == ["inside.txt"] and (where / "inside.txt").read_text() == "kept"
    finally:
        swapper.close()
    print(f"\n{kind}: {swapper.swaps:,} exchanges; " + "; ".join(
        f"{writer}: " + ", ".join(f"{n} {what}" for what, n in sorted(tally[writer].items())) for writer in WRITERS))
    return tally


@needs_exchange
@pytest.mark.parametrize("kind", KINDS)
def test_what_is_swapped_in_is_never_replaced_or_written(kind, tmp_path, cnf_5):
    start = time.perf_counter()
    tally = race(tmp_path, kind, TRIES, cnf_5)
    assert sum(sum(t.values()) for t in tally.values()) == TRIES * len(WRITERS)
    print(f"{kind}: {time.perf_counter() - start:.1f} s")


@pytest.mark.deep
@needs_exchange
@pytest.mark.parametrize("kind", KINDS)
def test_what_is_swapped_in_is_never_replaced_or_written_deep(kind, tmp_path, cnf_5):
    race(tmp_path, kind, DEEP_TRIES, cnf_5)


# ------------------------------------------------------------------------------------ what appears meanwhile


@needs_exchange
@pytest.mark.parametrize("kind", KINDS + ("regular",))
def test_what_is_swapped_in_while_writing_is_put_back(kind, tmp_path):
    """Deterministic: the exchange happens inside the ``with`` block, so the kit always finds it."""
    if not exchange_works(tmp_path):
        pytest.skip("this file system does not exchange names")
    other = tmp_path / "other.txt"
    other.write_text("other\n")
    out, side = tmp_path / "out.txt", tmp_path / "side"
    out.write_text("old\n")
    if kind == "regular":
        side.write_text("another file\n")
    else:
        make(kind, side, other)
    swapped_in = identity(side)
    with pytest.raises(InputError, match="while it was being written; that was put back") as err:
        with written_whole(out) as stream:
            stream.write("new\n")
            exchange(out, side)
    one_line_error(err.value, out)
    assert identity(out) == swapped_in and side.read_text() == "old\n" and other.read_text() == "other\n"
    assert sorted(os.listdir(tmp_path)) == ["other.txt", "out.txt", "side"]


def test_a_file_that_appears_while_writing_is_kept(tmp_path):
    out = tmp_path / "out.txt"
    with pytest.raises(InputError, match="did not exist at the start and became a regular file") as err:
        with written_whole(out) as stream:
            stream.write("mine\n")
            out.write_text("theirs\n")
    one_line_error(err.value, out)
    assert out.read_text() == "theirs\n" and os.listdir(tmp_path) == ["out.txt"]


def test_without_renameat2_the_checked_fallback_holds(tmp_path, monkeypatch):
    """Where renameat2 is missing: a checked os.replace, and a hard link where nothing was."""
    monkeypatch.setattr(files, "_renameat2_call", lambda: None)
    out = tmp_path / "out.txt"
    write_whole(out, "one")
    write_whole(out, "two")
    assert out.read_text() == "two" and os.listdir(tmp_path) == ["out.txt"]
    fresh = tmp_path / "fresh.txt"
    with pytest.raises(InputError, match="became a regular file"):
        with written_whole(fresh) as stream:
            stream.write("mine")
            fresh.write_text("theirs")
    assert fresh.read_text() == "theirs"
    with pytest.raises(InputError, match="became a FIFO"):
        with written_whole(out) as stream:
            stream.write("three")
            out.unlink()
            os.mkfifo(out)
    assert stat.S_ISFIFO(os.lstat(out).st_mode) and sorted(os.listdir(tmp_path)) == ["fresh.txt", "out.txt"]


# ------------------------------------------------------------------------------------ files never replaced


def cli(*args: object) -> tuple[int, str]:
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = main([str(a) for a in args])
    return code, err.getvalue()


def test_a_read_only_file_is_refused_like_a_redirect(tmp_path):
    out = tmp_path / "locked.cnf"
    out.write_text("keep me\n")
    out.chmod(0o444)
    link = tmp_path / "link.cnf"
    link.symlink_to(out)
    for path in (out, link):
        for attempt in (lambda p=path: output_path(p), lambda p=path: write_whole(p, "text"),
                        lambda p=path: written_whole(p).__enter__()):
            with pytest.raises(InputError, match=r"is read-only \(mode 444\); make it writable") as err:
                attempt()
            one_line_error(err.value, path)
        code, err_text = cli("cnf", "5", "-o", path)
        assert code == 2 and err_text.count("\n") == 1 and "read-only" in err_text
    assert out.read_text() == "keep me\n" and stat.S_IMODE(out.stat().st_mode) == 0o444
    assert sorted(os.listdir(tmp_path)) == ["link.cnf", "locked.cnf"]
    out.chmod(0o644)
    write_whole(link, "now it may")
    assert out.read_text() == "now it may" and link.is_symlink()


def test_a_file_with_hard_links_is_refused(tmp_path):
    out, twin = tmp_path / "out.cnf", tmp_path / "twin.cnf"
    out.write_text("old\n")
    os.link(out, twin)
    with pytest.raises(InputError, match=r"has 1 other name \(a hard link\), which would keep the old content; "
                                         "remove it first") as err:
        write_whole(out, "new")
    one_line_error(err.value, out)
    os.link(out, tmp_path / "third.cnf")
    code, err_text = cli("cnf", "5", "-o", out)
    assert code == 2 and err_text.count("\n") == 1 and "2 other names (hard links)" in err_text
    assert out.read_text() == twin.read_text() == "old\n" and os.stat(out).st_nlink == 3
    twin.unlink()
    (tmp_path / "third.cnf").unlink()
    write_whole(out, "new")
    assert out.read_text() == "new" and os.listdir(tmp_path) == ["out.cnf"]


@pytest.mark.parametrize("size", [246, 250, 255])
def test_every_legal_name_can_be_written(size, tmp_path, cnf_5):
    out = tmp_path / ("n" * (size - 4) + ".cnf")
    assert len(os.fsencode(out.name)) == size
    write_whole(out, "one")
    write_whole(out, b"two")
    code, err_text = cli("cnf", "5", "-o", out)
    assert code == 0 and err_text.startswith("wrote ")
    assert out.read_text() == cnf_5 and os.listdir(tmp_path) == [out.name]
    lock = Lock(out)
    try:
        assert len(os.fsencode(lock.file.name)) <= 255 and lock.file.is_file()
    finally:
        lock.release()
    assert os.listdir(tmp_path) == [out.name]
    write_meta(out, {"created": "now"})  # the sidecar's name fits too, and its reader finds it
    assert len(os.fsencode(meta_path(out).name)) <= 255 and read_meta(out) == {"created": "now"}
    assert sorted(os.listdir(tmp_path)) == sorted([out.name, meta_path(out).name])


# ------------------------------------------------------------------------------------ the bench's lock


def test_a_link_at_the_lock_path_is_never_followed_or_removed(tmp_path):
    out = tmp_path / "res.csv"
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    lock = lock_path(out)
    assert lock.name == ".res.csv.lock"
    lock.symlink_to(victim)
    with pytest.raises(InputError, match="lock file .* is a symbolic link; remove the link") as err:
        run_sweep([Choice("construct")], [4], repeat=1, out=out, progress=False)
    assert "\n" not in str(err.value)
    code, err_text = cli("bench", "--n", "4", "--methods", "construct", "--repeat", "1", "--out", out, "--quiet")
    assert code == 2 and err_text.count("\n") == 1 and "symbolic link" in err_text
    assert victim.read_text() == "precious\n" and lock.is_symlink() and os.readlink(lock) == str(victim)
    assert not out.exists()


@pytest.mark.parametrize("kind", ["fifo", "folder", "hard link"])
def test_anything_but_a_lock_file_at_the_lock_path_is_refused(kind, tmp_path):
    out = tmp_path / "res.csv"
    lock = lock_path(out)
    if kind == "fifo":
        os.mkfifo(lock)  # refused before it is opened: nothing waits on it
    elif kind == "folder":
        lock.mkdir()
    else:
        (tmp_path / "mine.txt").write_text("mine\n")
        os.link(tmp_path / "mine.txt", lock)
    before = identity(lock)
    expected = {"fifo": "is a FIFO", "folder": "is a folder", "hard link": "has other names"}[kind]
    with pytest.raises(InputError, match=expected):
        Lock(out)
    assert identity(lock) == before
    if kind == "hard link":
        assert (tmp_path / "mine.txt").read_text() == "mine\n"


def test_a_lock_replaced_while_held_is_not_removed(tmp_path):
    out = tmp_path / "res.csv"
    held = Lock(out)
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    held.file.unlink()
    held.file.symlink_to(victim)  # another program put a link there while the sweep ran
    held.release()
    assert held.file.is_symlink() and victim.read_text() == "precious\n"
    held.file.unlink()
    run_sweep([Choice("construct")], [4], repeat=1, out=out, progress=False)
    assert not lock_path(out).exists() and out.is_file()
