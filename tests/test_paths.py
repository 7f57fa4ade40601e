"""Every path the kit writes or reads whole follows one rule (:mod:`nqueens_kit.runtime.files`).

Writing: a folder, a character device, a FIFO or a socket is refused with one line and left as it was; a
symbolic link is written through (it stays a link, its target gets the new content); a link to nothing is
refused.  Reading whole: only a regular file (or a link to one) is read.

No test here opens a FIFO, and a check that could wait on one runs in a child process with a time limit or
under :func:`never_waits`: a kit that waited would fail the test, not hang it.  No test writes to a device
node: the only device is one made inside the test's own folder (as root; otherwise that case is skipped).
The size guard's speed is checked by how far its closed forms agree with adding every line up.
"""

from __future__ import annotations

import json
import os
import socket
import stat
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from math import isqrt
from pathlib import Path

import pytest

from nqueens_kit.bench import read_results, run_sweep
from nqueens_kit.bench.report import write_report
from nqueens_kit.bench.results import meta_path, read_meta, target
from nqueens_kit.errors import InputError
from nqueens_kit.formats.dimacs import read_dimacs, read_header, regular_file
from nqueens_kit.methods import Choice
from nqueens_kit.methods.sat.cnf import build_cnf, lex_leader_size, lex_moved, line_lengths, predicted_size
from nqueens_kit.methods.sat.encodings import ENCODINGS, counts_between
from nqueens_kit.problem.board import lex_pairs
from nqueens_kit.runtime.files import file_to_read, opened_to_read, output_path, write_whole, written_whole

CLI = [sys.executable, "-m", "nqueens_kit"]
#: Seconds a command may take here before the test calls it stuck (a busy machine starts Python slowly).
PATIENCE = 120


def run(*args: object) -> tuple[int, str, str]:
    """The command line in a child process; a child still running after PATIENCE seconds fails the test."""
    proc = subprocess.run(CLI + [str(a) for a in args], capture_output=True, text=True, timeout=PATIENCE,
                          stdin=subprocess.DEVNULL)
    return proc.returncode, proc.stdout, proc.stderr


def refused(args: tuple[object, ...], *fragments: str) -> str:
    """Run the command and check it is refused with one line (exit status 2) holding every fragment."""
    code, out, err = run(*args)
    assert code == 2 and err.count("\n") == 1 and err.startswith("nqueens-kit: error: "), (args, code, err)
    for fragment in fragments:
        assert fragment in err, (args, err)
    return err


@contextmanager
def never_waits(fifo: Path, seconds: float = PATIENCE) -> Iterator[None]:
    """Fail, rather than hang, if the code inside waits on ``fifo``: after ``seconds`` a watchdog opens the
    FIFO for reading and writing (which never waits), and so releases an open or a read stuck on it."""
    fired = threading.Event()

    def release() -> None:
        fired.set()
        os.close(os.open(fifo, os.O_RDWR | os.O_NONBLOCK))

    watchdog = threading.Timer(seconds, release)
    watchdog.daemon = True
    watchdog.start()
    try:
        yield
    finally:
        watchdog.cancel()
    assert not fired.is_set(), f"waited on the FIFO {fifo}"


def is_fifo(path: Path) -> bool:
    return stat.S_ISFIFO(os.lstat(path).st_mode)


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "pipe"
    os.mkfifo(path)
    return path


@pytest.fixture
def device(tmp_path: Path) -> Path:
    """A character device (the null device's numbers) made inside the test's folder: as root only."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        pytest.skip("making a device node needs root; the other kinds of file are checked without one")
    path = tmp_path / "null"
    os.mknod(path, stat.S_IFCHR | 0o600, os.makedev(1, 3))
    return path


@pytest.fixture
def sock(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A listening Unix socket in the test's folder (bound by a short relative name: socket paths are short)."""
    monkeypatch.chdir(tmp_path)
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind("sock")
    try:
        yield tmp_path / "sock"
    finally:
        server.close()


def still_device(path: Path) -> bool:
    info = os.lstat(path)
    return stat.S_ISCHR(info.st_mode) and info.st_rdev == os.makedev(1, 3)


def files_in(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


# ------------------------------------------------------------------------------------ writing: the rule


def test_regular_and_new_files_are_written(tmp_path):
    new = tmp_path / "new.txt"
    assert output_path(new) == new
    write_whole(new, "one")
    old = tmp_path / "old.txt"
    old.write_text("before")
    old.chmod(0o640)
    write_whole(old, "after")
    assert new.read_text() == "one" and old.read_text() == "after"
    assert stat.S_IMODE(old.stat().st_mode) == 0o640  # a replaced file keeps its permissions
    assert files_in(tmp_path) == ["new.txt", "old.txt"]  # no draft left beside them


@pytest.mark.parametrize("kind", ["fifo", "sock", "folder"])
def test_what_is_not_a_regular_file_is_refused_and_kept(kind, tmp_path, request):
    path = tmp_path / "folder" if kind == "folder" else request.getfixturevalue(kind)
    if kind == "folder":
        path.mkdir()
    before = os.lstat(path)
    expected = {"fifo": r"a FIFO \(named pipe\), not a regular file", "sock": "a socket, not a regular file",
                "folder": "it is a folder"}[kind]
    for attempt in (lambda: output_path(path, "the CNF"), lambda: write_whole(path, "text"),
                    lambda: written_whole(path).__enter__()):
        with pytest.raises(InputError, match=expected) as err:
            attempt()
        assert "\n" not in str(err.value) and str(path) in str(err.value)
    after = os.lstat(path)
    assert (after.st_mode, after.st_ino) == (before.st_mode, before.st_ino)
    assert [p for p in files_in(tmp_path) if p.startswith(".")] == []


def test_a_device_is_refused_and_stays_a_device(device, tmp_path):
    for attempt in (lambda: output_path(device), lambda: write_whole(device, "text"),
                    lambda: write_whole(device, b"bytes")):
        with pytest.raises(InputError, match="a character device, not a regular file"):
            attempt()
    assert still_device(device) and files_in(tmp_path) == ["null"]


def test_a_symbolic_link_is_written_through(tmp_path):
    real = tmp_path / "data" / "real.txt"
    real.parent.mkdir()
    real.write_text("stale")
    link = tmp_path / "link.txt"
    link.symlink_to(real)
    chain = tmp_path / "chain.txt"
    chain.symlink_to(link)
    assert output_path(chain) == chain  # the path as given, for messages
    write_whole(link, "fresh")
    assert link.is_symlink() and os.readlink(link) == str(real) and real.read_text() == "fresh"
    write_whole(chain, "fresher")
    assert chain.is_symlink() and link.is_symlink() and real.read_text() == "fresher"
    assert files_in(real.parent) == ["real.txt"] and files_in(tmp_path) == ["chain.txt", "data", "link.txt"]


def test_a_link_to_nothing_is_refused(tmp_path):
    link = tmp_path / "link.txt"
    link.symlink_to(tmp_path / "missing" / "real.txt")
    with pytest.raises(InputError, match="symbolic link to .*real.txt, which does not exist") as err:
        write_whole(link, "text")
    assert "\n" not in str(err.value)
    assert link.is_symlink() and not (tmp_path / "missing").exists() and files_in(tmp_path) == ["link.txt"]


def test_links_to_a_fifo_or_a_folder_are_refused(tmp_path, fifo):
    to_fifo, to_folder = tmp_path / "to-fifo", tmp_path / "to-folder"
    to_fifo.symlink_to(fifo)
    to_folder.symlink_to(tmp_path)
    with pytest.raises(InputError, match="FIFO"):
        write_whole(to_fifo, "text")
    with pytest.raises(InputError, match="folder"):
        write_whole(to_folder, "text")
    assert is_fifo(fifo) and to_fifo.is_symlink() and to_folder.is_symlink()


def test_nothing_is_moved_over_what_appeared_while_writing(tmp_path):
    path = tmp_path / "out.txt"
    with pytest.raises(InputError, match="became a FIFO"):
        with written_whole(path) as out:
            out.write("text")
            os.mkfifo(path)  # another program put a FIFO there meanwhile
    assert is_fifo(path) and files_in(tmp_path) == ["out.txt"]


@pytest.mark.parametrize("name, fragment", [("", "not an empty string"), ("nowhere/x.txt", "does not exist"),
                                            ("folder/", "ending in /")])
def test_bad_names_are_one_line(name, fragment, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(InputError, match=fragment) as err:
        output_path(name)
    assert "\n" not in str(err.value)


# ------------------------------------------------------------------------------------ reading: the rule


def test_only_regular_files_are_read(tmp_path, fifo, sock):
    plain = tmp_path / "plain.txt"
    plain.write_text("hello")
    link = tmp_path / "link.txt"
    link.symlink_to(plain)
    assert file_to_read(plain) == plain and file_to_read(link, "a text file") == link
    with opened_to_read(link, "a text file", "r", encoding="utf-8") as stream:
        assert stream.read() == "hello"
    dangling = tmp_path / "dangling"
    dangling.symlink_to(tmp_path / "gone")
    for path, fragment in [(fifo, r"is a FIFO \(named pipe\), not a regular file; give a text file"),
                           (sock, "is a socket, not a regular file"), (tmp_path, "is a folder, not a text file"),
                           (tmp_path / "nope", "no such file"), (dangling, "symbolic link to .*gone, which does")]:
        for attempt in (lambda p=path: file_to_read(p, "a text file"),
                        lambda p=path: opened_to_read(p, "a text file").__enter__()):
            with never_waits(fifo), pytest.raises(InputError, match=fragment) as err:
                attempt()
            assert "\n" not in str(err.value)
    assert is_fifo(fifo)


def test_a_device_is_not_read(device):
    with pytest.raises(InputError, match="a character device, not a regular file; give a DIMACS file"):
        regular_file(device)
    assert still_device(device)


def test_readers_of_the_kit_refuse_a_fifo(tmp_path, fifo):
    for read, fragment in [(regular_file, "not a regular file; give a DIMACS file"),
                           (read_header, "not a regular file; give a DIMACS file"),
                           (read_dimacs, "not a regular file; give a DIMACS file"),
                           (read_results, "not a regular file; give a results CSV"),
                           (lambda p: write_report(p, tmp_path / "report"), "not a regular file")]:
        with never_waits(fifo), pytest.raises(InputError, match=fragment):
            read(fifo)
    with pytest.raises(InputError, match="is a folder, not a DIMACS file"):
        regular_file(tmp_path)
    with pytest.raises(InputError, match="no such file"):
        regular_file(tmp_path / "missing.cnf")
    assert is_fifo(fifo) and not (tmp_path / "report").exists()


# ------------------------------------------------------------------------------------ the results files


@pytest.fixture(scope="module")
def results(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("sweep") / "results.csv"
    run_sweep([Choice("construct")], [4, 5], repeat=1, out=out, progress=False)
    return out


def test_results_and_sidecar_follow_the_rule(tmp_path, fifo, results):
    with pytest.raises(InputError, match="FIFO"):
        target(fifo)
    link = tmp_path / "link.csv"
    link.symlink_to(results)
    assert target(link) == results.resolve()
    side = tmp_path / "r.csv.meta.json"
    os.mkfifo(side)
    with never_waits(side):
        assert read_meta(tmp_path / "r.csv") is None  # a sidecar that is no file is no sidecar
    with pytest.raises(InputError, match="FIFO"):
        run_sweep([Choice("construct")], [4], repeat=1, out=tmp_path / "r.csv", progress=False)
    assert is_fifo(side) and read_meta(results) is not None and meta_path(results).is_file()


def test_report_refuses_a_fifo_inside_its_folder(tmp_path, results):
    folder = tmp_path / "report"
    folder.mkdir()
    os.mkfifo(folder / "README.md")
    with never_waits(folder / "README.md"), pytest.raises(InputError, match="README.md: it is a FIFO"):
        write_report(results, folder)
    assert files_in(folder) == ["README.md"] and is_fifo(folder / "README.md")  # refused before drawing
    link_folder = tmp_path / "linked"
    (tmp_path / "elsewhere").mkdir()
    link_folder.symlink_to(tmp_path / "elsewhere")
    page = write_report(results, link_folder)
    assert page.read_text(encoding="utf-8").startswith("#") and "README.md" in files_in(tmp_path / "elsewhere")


# ------------------------------------------------------------------------------------ the command line


def test_cnf_through_a_link(tmp_path):
    real = tmp_path / "real.cnf"
    real.write_text("stale\n")
    link = tmp_path / "link.cnf"
    link.symlink_to(real)
    code, _, err = run("cnf", "6", "-o", link)
    assert code == 0 and "wrote" in err
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert real.read_text().startswith("c ") and read_dimacs(real).num_vars == build_cnf(6).num_vars
    assert files_in(tmp_path) == ["link.cnf", "real.cnf"]


def test_cnf_to_a_link_to_nothing(tmp_path):
    link = tmp_path / "link.cnf"
    link.symlink_to(tmp_path / "real.cnf")
    refused(("cnf", "6", "-o", link), "which does not exist")
    assert link.is_symlink() and files_in(tmp_path) == ["link.cnf"]


@pytest.mark.parametrize("args", [("cnf", "6", "-o", "{}"), ("lp", "6", "-o", "{}.lp"), ("solve", "6", "--proof", "{}"),
                                  ("solve", "3", "--proof", "{}"), ("plot", "{csv}", "-o", "{}.png"),
                                  ("bench", "--n", "4", "--methods", "construct", "--out", "{}")])
def test_writers_refuse_a_fifo(args, tmp_path, results):
    fifo = tmp_path / "pipe"
    for suffix in ("", ".lp", ".png"):
        os.mkfifo(f"{fifo}{suffix}")
    refused(tuple(a.format(fifo, csv=results) for a in args), "FIFO (named pipe), not a regular file")
    assert all(is_fifo(Path(f"{fifo}{suffix}")) for suffix in ("", ".lp", ".png"))


@pytest.mark.parametrize("args", [("report", "{}", "-o", "{out}"), ("plot", "{}", "-o", "{out}.png"),
                                  ("count", "--from-cnf", "{}", "--n", "4"), ("bench", "--n", "4", "--methods",
                                  "construct", "--out", "{out}.csv", "--resume")])
def test_readers_refuse_a_fifo(args, tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    if args[0] == "bench":  # resuming reads the results file: make that the FIFO
        os.rename(fifo, tmp_path / "out.csv")
        fifo = tmp_path / "out.csv"
    refused(tuple(a.format(fifo, out=tmp_path / "out") for a in args), "FIFO (named pipe), not a regular file")
    assert is_fifo(fifo) and sorted(files_in(tmp_path)) == sorted([fifo.name])


def test_writers_refuse_a_device(device, tmp_path):
    model = tmp_path / "null.lp"  # lp reads the format from the suffix
    os.mknod(model, stat.S_IFCHR | 0o600, os.makedev(1, 3))
    for args in (("cnf", "6", "-o", device), ("lp", "6", "-o", model), ("solve", "3", "--proof", device),
                 ("bench", "--n", "4", "--methods", "construct", "--out", device, "--force")):
        refused(args, "a character device, not a regular file")
        assert still_device(device) and still_device(model)
    assert files_in(tmp_path) == ["null", "null.lp"]


def test_writers_refuse_a_socket(sock, tmp_path):
    for args in (("cnf", "6", "-o", sock), ("solve", "3", "--proof", sock)):
        refused(args, "a socket, not a regular file")
    assert stat.S_ISSOCK(os.lstat(sock).st_mode)


def test_proof_through_a_link(tmp_path):
    real = tmp_path / "real.drup"
    real.write_text("")
    link = tmp_path / "proof.drup"
    link.symlink_to(real)
    code, out, _ = run("solve", "3", "--proof", link, "--json")
    data = json.loads(out)
    assert code == 1 and data["status"] == "infeasible" and data["proof"]["checked"]  # 1: no board exists
    assert link.is_symlink() and real.read_text().rstrip().endswith("0")  # the proof ends with the empty clause
    assert files_in(tmp_path) == ["proof.drup", "real.drup"]


# ------------------------------------------------------------------------------------ the size guard


@pytest.mark.parametrize("name", list(ENCODINGS))
def test_summed_counts_are_the_sum_of_the_counts(name):
    counts = ENCODINGS[name].counts
    for low in range(0, 12):
        for high in [*range(low - 1, 40), 100, 257, 1000, 1025]:
            pairs = [counts(k) for k in range(max(low, 0), high + 1)]
            assert counts_between(name, low, high) == (sum(a for a, _ in pairs), sum(c for _, c in pairs))


@pytest.mark.parametrize("name", list(ENCODINGS))
def test_predicted_size_is_the_lines_added_up(name):
    counts = ENCODINGS[name].counts
    for n in [*range(1, 40), 100, 999]:
        for define in (False, True):
            variables, clauses = n * n, 0
            for length, how_many, exact in line_lengths(n):
                aux, count = counts(length)
                variables += how_many * aux
                clauses += how_many * (count + exact + (aux if define else 0))
            assert predicted_size(n, name, define=define) == (variables, clauses), (n, define)


def test_lex_leader_size_in_closed_form():
    for n in range(1, 14):
        pairs = [len(p) for _name, p in lex_pairs(n)]
        assert lex_moved(n) == pairs
        assert lex_leader_size(n) == (sum(pairs), sum(6 * m - 1 for m in pairs if m))


@pytest.mark.parametrize("name", list(ENCODINGS))
def test_huge_boards_are_sized_in_few_steps(name):
    """The size of the largest board comes from closed forms, not from visiting each of its lines: counted as
    the Python calls it makes (the caches of the recursive encodings emptied first), at most 1,000 for every
    encoding but product, whose sum takes a step per value of ⌈√k⌉; adding up the lines took over n."""
    import nqueens_kit.methods.sat.encodings as encodings
    from nqueens_kit.runtime.limits import processor_seconds

    for n in (10_000, 10_000_000):
        encodings._commander_counts.cache_clear()
        encodings._product_counts.cache_clear()
        calls = 0

        def count(_frame: object, event: str, _arg: object) -> None:
            nonlocal calls
            calls += event == "call"

        start = processor_seconds()
        sys.setprofile(count)
        try:
            predicted_size(n, name, define=True, break_symmetry=True)
        finally:
            sys.setprofile(None)
        print(f"{name}, n = {n:,}: {calls} calls, {processor_seconds() - start:.4f} s of CPU on this machine")
        assert calls <= 1000 + (3 * isqrt(n) if name == "product" else 0), (n, calls)


def test_huge_boards_are_refused_at_once(tmp_path):
    for args in (("solve", "10000000"), ("cnf", "10000000", "-o", tmp_path / "huge.cnf"),
                 ("solve", "10000000", "--encoding", "product"), ("lp", "10000000", "-o", tmp_path / "huge.lp"),
                 ("solve", "10000000", "--method", "cp")):
        refused(args, "would have", "more than the")
    assert files_in(tmp_path) == []


@pytest.mark.parametrize("writer", ["figure", "counts", "phase summary"])
def test_the_kits_other_writers_hold_to_the_same_rule(tmp_path: Path, fifo: Path, writer: str) -> None:
    """A figure, the model-count study and the phase summary: written through a link, a FIFO refused."""
    def write(path: Path) -> None:
        if writer == "figure":
            import matplotlib

            matplotlib.use("Agg")
            import matplotlib.pyplot as plt

            from nqueens_kit.viz.figure import save_figure

            fig, _ = plt.subplots()
            save_figure(fig, path)
            plt.close(fig)
        elif writer == "counts":
            from nqueens_kit.inside.counting import write_counts

            write_counts([], path)
        else:
            from nqueens_kit.bench.phase import write_summary

            write_summary([], path)

    suffix = ".png" if writer == "figure" else ".csv"
    real, link = tmp_path / f"real{suffix}", tmp_path / f"link{suffix}"
    real.write_text("old")
    link.symlink_to(real)
    write(link)
    assert link.is_symlink() and real.read_bytes() != b"old" and real.stat().st_size > 0
    shaped = fifo.with_name(f"pipe{suffix}")
    os.mkfifo(shaped)
    with never_waits(shaped), pytest.raises(InputError, match="FIFO"):
        write(shaped)
    assert is_fifo(shaped)
