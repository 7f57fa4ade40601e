"""The results file and the names beside it (:mod:`nqueens_kit.bench.results`).

- The rows are appended through a descriptor opened without following a link and checked to be the file whose
  header was just written: whatever is put at the name between that write and that open (a symbolic link,
  another file, a FIFO) is refused with one line and left alone.  The hook is :meth:`ResultsFile._start`,
  wrapped so that the swap happens right after it, every time: no timing.
- Every name of a results file that a file system allows (up to 255 bytes) works end to end: ``bench --out``,
  ``--resume`` and ``report``; the sidecar and the lock beside it are shortened to fit, the same way by
  every reader and writer.
- A sweep whose sidecar cannot be written leaves no lock file behind.

Everything happens inside ``tmp_path``; no device node is touched.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import stat
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest

from nqueens_kit.bench import read_results, run_sweep, sweep
from nqueens_kit.bench.results import (
    NAME_MAX,
    ResultRow,
    ResultsFile,
    fitted_name,
    lock_path,
    meta_path,
    read_meta,
    write_meta,
)
from nqueens_kit.cli import main
from nqueens_kit.errors import InputError
from nqueens_kit.methods import Choice

TINY = [Choice("construct")]
ROW: ResultRow = {"n": 4, "method": "construct", "repeat": 1, "status": "solved", "total_seconds": 0.1}


def cli(*args: object) -> tuple[int, str]:
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = main([str(a) for a in args])
    return code, err.getvalue()


def identity(path: Path) -> tuple[int, int, int]:
    info = os.lstat(path)
    return info.st_dev, info.st_ino, stat.S_IFMT(info.st_mode)


def open_fds() -> set[str]:
    return set(os.listdir("/proc/self/fd")) if os.path.isdir("/proc/self/fd") else set()


def swap_after_start(monkeypatch: pytest.MonkeyPatch, swap: Callable[[Path], None]) -> None:
    """Make ``swap(path)`` happen right after the header is written, before the file is opened to append."""
    start = ResultsFile._start

    def started(self: ResultsFile, kept: Iterable[ResultRow]) -> int:
        held = start(self, kept)
        swap(self.path)
        return held

    monkeypatch.setattr(ResultsFile, "_start", started)


# ------------------------------------------------------------------------------------ what is put at the name


def test_a_link_put_at_the_results_path_after_the_header_is_refused(tmp_path, monkeypatch):
    out, victim, moved = tmp_path / "r.csv", tmp_path / "victim.txt", tmp_path / "moved.csv"
    victim.write_text("precious\n")  # writable: following the link would change it
    before = identity(victim)

    def swap(path: Path) -> None:
        path.rename(moved)
        path.symlink_to(victim)

    swap_after_start(monkeypatch, swap)
    fds = open_fds()
    with pytest.raises(InputError) as err:
        run_sweep(TINY, [4], repeat=1, out=out, progress=False)
    text = str(err.value)
    assert "\n" not in text and text.startswith(f"cannot write {out}: it became a symbolic link"), text
    assert "no row was written" in text
    assert victim.read_text() == "precious\n" and identity(victim) == before
    assert out.is_symlink() and os.readlink(out) == str(victim)
    assert moved.read_text().count("\n") == 1  # the header alone: no row went anywhere
    assert not lock_path(out).exists() and open_fds() == fds
    assert sorted(p.name for p in tmp_path.iterdir()) == ["moved.csv", "r.csv", "victim.txt"]


def test_the_cli_refuses_a_link_put_there_in_one_line(tmp_path, monkeypatch):
    out, victim = tmp_path / "r.csv", tmp_path / "victim.txt"
    victim.write_text("precious\n")

    def swap(path: Path) -> None:
        path.unlink()
        path.symlink_to(victim)

    swap_after_start(monkeypatch, swap)
    code, err = cli("bench", "--n", "4", "--methods", "construct", "--repeat", "1", "--out", out, "--quiet")
    assert code == 2 and err.count("\n") == 1 and "it became a symbolic link" in err and str(out) in err
    assert victim.read_text() == "precious\n" and not lock_path(out).exists()


@pytest.mark.parametrize("kind", ["regular file", "fifo"])
def test_anything_else_put_there_is_refused_and_kept(kind, tmp_path, monkeypatch):
    out = tmp_path / "r.csv"

    def swap(path: Path) -> None:
        path.unlink()
        if kind == "fifo":
            os.mkfifo(path)  # looked at, never opened: nothing waits on it
        else:
            path.write_text("another file\n")

    swap_after_start(monkeypatch, swap)
    with pytest.raises(InputError, match="another regular file" if kind == "regular file" else "a FIFO") as err:
        ResultsFile(out)
    assert "\n" not in str(err.value) and str(out) in str(err.value)
    if kind == "fifo":
        assert stat.S_ISFIFO(os.lstat(out).st_mode)
    else:
        assert out.read_text() == "another file\n"
    assert not lock_path(out).exists()


def test_a_link_there_when_the_header_is_written_is_not_written_through(tmp_path, monkeypatch):
    """The results path is resolved first; a link found at the resolved path later was put there since."""
    from nqueens_kit.bench import results

    out, victim = tmp_path / "r.csv", tmp_path / "victim.txt"
    victim.write_text("precious\n")
    out.symlink_to(victim)
    monkeypatch.setattr(results, "target", Path)  # as if the link appeared just after the path was resolved
    with pytest.raises(InputError, match="it became a symbolic link while the sweep was starting") as err:
        ResultsFile(out)
    assert "\n" not in str(err.value)
    assert victim.read_text() == "precious\n" and os.readlink(out) == str(victim)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.csv", "victim.txt"]  # no draft left


def test_rows_go_to_the_file_opened_not_to_what_is_at_its_name_later(tmp_path):
    out, victim, moved = tmp_path / "r.csv", tmp_path / "victim.txt", tmp_path / "moved.csv"
    victim.write_text("precious\n")
    results = ResultsFile(out)
    try:
        out.rename(moved)
        out.symlink_to(victim)
        results.write(ROW)
    finally:
        results.close()
    assert victim.read_text() == "precious\n"
    assert [row["n"] for row in read_results(moved)] == [4]


def test_a_results_file_given_as_a_link_is_still_written_through(tmp_path):
    real, link = tmp_path / "real.csv", tmp_path / "link.csv"
    real.write_text("")
    link.symlink_to(real)
    run_sweep(TINY, [4], repeat=1, out=link, progress=False, force=True)
    assert link.is_symlink() and len(read_results(real)) == 1
    assert meta_path(real).is_file() and not lock_path(real).exists()


# ------------------------------------------------------------------------------------ names of any legal length


@pytest.mark.parametrize("size", [246, 250, 255])
def test_every_legal_name_works_for_bench_resume_and_report(size, tmp_path):
    folder = tmp_path / "sweep"
    folder.mkdir()
    out = folder / ("r" * (size - 4) + ".csv")
    assert len(os.fsencode(out.name)) == size
    bench = ("bench", "--n", "4", "--methods", "sat", "--repeat", "1", "--out", out, "--quiet")
    code, err = cli(*bench)
    assert (code, err) == (0, "")
    side = meta_path(out)
    assert len(os.fsencode(side.name)) <= NAME_MAX and side.parent == folder
    if size + len(".meta.json") <= NAME_MAX:
        assert side.name == out.name + ".meta.json"  # the usual name wherever it fits
    assert sorted(p.name for p in folder.iterdir()) == sorted([out.name, side.name])  # no lock, no draft
    rows = read_results(out)
    assert rows and all(row["status"] == "solved" for row in rows)
    code, err = cli(*bench, "--resume")
    assert (code, err) == (0, "")
    assert read_results(out) == rows  # every run was done: kept, none run again
    meta = read_meta(out)
    assert meta is not None and [s.get("resumed") for s in meta.get("sessions", [])] == [False, True]
    assert sorted(p.name for p in folder.iterdir()) == sorted([out.name, side.name])
    code, err = cli("report", out, "-o", tmp_path / "report")
    assert code == 0 and err.startswith("wrote "), err
    page = (tmp_path / "report" / "README.md").read_text()
    assert "No sidecar" not in page


def test_a_long_sidecar_name_is_the_same_for_writer_and_reader(tmp_path):
    out = tmp_path / ("é" * 125 + ".csv")  # 254 bytes
    write_meta(out, {"created": "now"})
    assert read_meta(out) == {"created": "now"}
    assert meta_path(out) == meta_path(str(out)) and meta_path(out).is_file()
    assert json.loads(meta_path(out).read_text()) == {"created": "now"}
    other = tmp_path / ("é" * 125 + ".CSV")
    assert meta_path(other) != meta_path(out) and read_meta(other) is None


@pytest.mark.parametrize("name", ["a.csv", "x" * 240, "x" * 255, "é" * 127, "日本" * 42])
@pytest.mark.parametrize(("prefix", "suffix"), [("", ".meta.json"), (".", ".lock")])
def test_fitted_names_fit_and_keep_their_ends(name, prefix, suffix):
    fitted = fitted_name(name, prefix, suffix)
    assert len(os.fsencode(fitted)) <= NAME_MAX
    assert fitted.startswith(prefix) and fitted.endswith(suffix)
    assert fitted == fitted_name(name, prefix, suffix)
    if len(os.fsencode(prefix + name + suffix)) <= NAME_MAX:
        assert fitted == prefix + name + suffix


# ------------------------------------------------------------------------------------ no stale lock


@pytest.mark.parametrize("failure", [InputError("cannot write the sidecar: disk full"), KeyboardInterrupt()])
def test_a_failing_sidecar_write_leaves_no_lock(failure, tmp_path, monkeypatch):
    out = tmp_path / "r.csv"
    seen: list[bool] = []

    def write_fails(path: Path, data: object) -> None:
        seen.append(lock_path(out).is_file())  # the sweep holds its lock here
        raise failure

    monkeypatch.setattr(sweep, "write_meta", write_fails)
    fds = open_fds()
    with pytest.raises(type(failure)):
        run_sweep(TINY, [4], repeat=1, out=out, progress=False)
    assert seen == [True]
    assert not lock_path(out).exists() and open_fds() == fds
    monkeypatch.undo()
    run_sweep(TINY, [4], repeat=1, out=out, progress=False, force=True)  # nothing stale in the way
    assert len(read_results(out)) == 1 and not lock_path(out).exists()
