"""Ctrl-C always stops the command, and ``--time-limit`` bounds the whole command.

- A sweep of Ctrl-C at seeded random moments of every method's ``solve`` and ``count`` (the command as a user
  runs it, a subprocess): while it loads, once it has parsed its options, while numba compiles its kernels (a
  fresh ``NUMBA_CACHE_DIR``, so they are compiled), while it solves.  Each moment is taken after a stage line
  the command prints with ``NQUEENS_KIT_READY=1`` (never a bare sleep from the start); each try must end within
  :data:`STOP_WITHIN` seconds of the signal, with exit status 130, one line and no traceback, and leave no
  process and no temporary folder behind.
- Each method's ``solve`` and ``count`` with ``--time-limit 2`` under two busy loops per core: the wall time of
  the whole command, from its start, stays within the limit plus :data:`LIMIT_MARGIN`.
- ``--time-limit 2e6``, the longest accepted, works with every method; a longer one is refused in one line;
  the compiled counter's lower bound at n = 14 in 2 s.
"""

from __future__ import annotations

import _imp
import json
import os
import random
import resource
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from nqueens_kit.runtime.jit import jit_available
from nqueens_kit.solvers.base import importable

from .test_processes import _alive_in, _nothing_left

CLI = [sys.executable, "-m", "nqueens_kit"]
#: Seconds a stopped command may take from the signal to its exit (its watchdog ends it after 0.5 s).
STOP_WITHIN = 1.0
#: Seconds a command with --time-limit may run beyond it: the watchdog's half second, stopping a child, exiting.
LIMIT_MARGIN = 1.5
#: What the command prints before its stage lines are taken out.
INTERRUPTED = "nqueens-kit: interrupted"

#: (method, verb, arguments of a run that lasts far longer than a try, whether numba compiles for it).
RUNS = [
    ("sat", "solve", ["solve", "1000", "--encoding", "sequential"], False),
    ("sat", "count", ["count", "16"], False),
    ("ilp", "solve", ["solve", "150", "--method", "ilp", "--formulation", "pairwise"], False),
    ("ilp", "count", ["count", "10", "--method", "ilp"], False),
    ("cp", "solve", ["solve", "3000", "--method", "cp"], False),
    ("cp", "count", ["count", "13", "--method", "cp"], False),
    ("backtrack", "solve", ["solve", "34", "--method", "backtrack"], True),
    ("backtrack", "count", ["count", "18", "--method", "backtrack"], True),
    ("local-search", "solve", ["solve", "5000000", "--method", "local-search"], True),
    ("construct", "solve", ["solve", "10000000", "--method", "construct"], False),
    ("model-count", "count", ["count", "16", "--method", "model-count"], False),
]


def _usable(method: str) -> bool:
    return {"cp": importable("ortools"), "model-count": importable("pyganak")}.get(method, True)


class Run:
    """The command in a subprocess, its stage lines read as they come (each with the time it came)."""

    def __init__(self, args: list[str], tmp: Path, cache: Path | None = None) -> None:
        env = dict(os.environ, NQUEENS_KIT_READY="1", TMPDIR=str(tmp))
        if cache is not None:
            env["NUMBA_CACHE_DIR"] = str(cache)
        self.started = time.monotonic()
        self.proc = subprocess.Popen([*CLI, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                                     text=True)
        self.stages: dict[str, float] = {}
        self.err: list[str] = []
        self.out = ""
        self.got = threading.Condition()
        self.readers = [threading.Thread(target=self._read_err, daemon=True),
                        threading.Thread(target=self._read_out, daemon=True)]
        for reader in self.readers:
            reader.start()

    def _read_err(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            with self.got:
                if line.startswith("nqueens-kit: ready: "):
                    self.stages.setdefault(line.split(": ready: ", 1)[1].strip(), time.monotonic())
                else:
                    self.err.append(line)
                self.got.notify_all()
        with self.got:
            self.got.notify_all()

    def _read_out(self) -> None:
        assert self.proc.stdout is not None
        self.out = self.proc.stdout.read()

    def wait_for(self, stage: str, timeout: float = 120.0) -> bool:
        """Wait for the stage line ``stage``; False if the command ended first."""
        ends = time.monotonic() + timeout
        with self.got:
            while stage not in self.stages:
                if self.proc.poll() is not None and not self.readers[0].is_alive():
                    return False
                assert time.monotonic() < ends, f"no stage {stage!r} within {timeout} s: {self.err}"
                self.got.wait(0.05)
        return True

    def finish(self, timeout: float) -> int | None:
        try:
            code = self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            return None
        for reader in self.readers:
            reader.join(10)
        return code

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def _stop_one(args: list[str], anchor: str, delay: float, tmp: Path, cache: Path | None) -> tuple[str, float | None]:
    """Ctrl-C ``delay`` seconds after the stage line ``anchor``: ("stopped", seconds to the exit), or
    ("finished", None) when the command ended before the signal.  Either way no process and nothing in the
    temporary folder is left."""
    run = Run(args, tmp, cache)
    try:
        outcome = _signal_and_judge(run, args, anchor, delay)
    finally:
        run.kill()
        _nothing_left(folder=tmp, timeout=10)
    left = sorted(str(p.relative_to(tmp)) for p in tmp.rglob("*"))
    assert left == [], (f"{' '.join(args)}: Ctrl-C at {anchor} + {delay:.2f} s ({outcome[0]}, stages "
                        f"{sorted(run.stages, key=run.stages.__getitem__)}): left in the temporary folder: {left}; "
                        f"said {''.join(run.err)!r}")
    return outcome


def _signal_and_judge(run: Run, args: list[str], anchor: str, delay: float) -> tuple[str, float | None]:
    if not run.wait_for(anchor):
        run.finish(30)
        return "finished", None
    time.sleep(delay)
    if run.proc.poll() is not None:
        run.finish(30)
        return "finished", None
    sent = time.monotonic()
    run.proc.send_signal(signal.SIGINT)
    code = run.finish(30)
    took = time.monotonic() - sent
    assert code is not None, f"{args}: still running 30 s after Ctrl-C ({anchor} + {delay:.2f} s)"
    err = "".join(run.err)
    where = f"{' '.join(args)}: Ctrl-C at {anchor} + {delay:.2f} s"
    if code == 0 and "answered" in run.stages:
        # the command had its answer when the signal came (it was ending): it ends with its own status, its
        # answer whole and nothing more said
        assert run.out and not err.strip(), (where, run.out[-200:], err)
        return "finished", None
    # a long count or search says so before it starts, in a line of its own (which Ctrl-C may cut before
    # its newline, since print writes the two apart): the interrupt's line ends what is said
    lines = err.splitlines()
    assert code == 130 and lines and lines[-1].endswith(INTERRUPTED) and err.count(INTERRUPTED) == 1, \
        (where, code, err)
    assert all(line.startswith("nqueens-kit: ") for line in lines) and "Traceback" not in err, (where, err)
    assert took <= STOP_WITHIN, f"{where}: stopped after {took:.2f} s"
    return "stopped", took


def _sweep(tmp_path: Path, tries: int, seed: int) -> None:
    rng = random.Random(seed)
    stops: list[float] = []
    finished = 0
    for number in range(tries):
        method, verb, args, compiles = RUNS[number % len(RUNS)]
        if not _usable(method):
            continue
        anchors = [("started", 0.3), ("parsed", 1.5)]
        if compiles and jit_available():
            anchors.append(("compiling", 1.5))
        anchor, longest = rng.choice(anchors)
        delay = rng.uniform(0.0, longest)
        tmp = tmp_path / f"try-{number}"
        cache = tmp_path / f"numba-{number}"  # a fresh cache: numba compiles the kernels
        tmp.mkdir()
        outcome, took = _stop_one(args, anchor, delay, tmp, cache if compiles else None)
        if took is None:
            finished += 1
        else:
            stops.append(took)
        print(f"{method} {verb}: Ctrl-C at {anchor} + {delay:.2f} s: {outcome}"
              + (f" in {took:.3f} s" if took is not None else ""))
    print(f"{len(stops)} stopped (worst {max(stops, default=0):.3f} s), {finished} finished before the signal")
    assert len(stops) >= tries // 2


def test_ctrl_c_at_random_moments_stops_every_method(tmp_path):
    """One seeded try per method and verb."""
    _sweep(tmp_path, len(RUNS), seed=2026)


@pytest.mark.deep
def test_ctrl_c_sweep(tmp_path):
    """Five seeded tries per method and verb."""
    _sweep(tmp_path, 5 * len(RUNS), seed=11)


@pytest.mark.deep
@pytest.mark.skipif(not jit_available(), reason="numba is not installed (or NQUEENS_KIT_NO_JIT)")
@pytest.mark.parametrize("args", [["solve", "34", "--method", "backtrack"], ["count", "18", "--method", "backtrack"],
                                  ["solve", "5000000", "--method", "local-search"]], ids=["solve", "count", "local"])
def test_ctrl_c_while_numba_compiles(tmp_path, args):
    """Ctrl-C in numba's compilation (a fresh cache every time): at every twentieth of a second of its first
    second and a half."""
    rng = random.Random(3)
    stops = []
    for step in range(0, 30, 3):
        delay = step / 20 + rng.uniform(0.0, 0.05)
        tmp = tmp_path / f"try-{step}"
        tmp.mkdir()
        outcome, took = _stop_one(args, "compiling", delay, tmp, tmp_path / f"numba-{step}")
        if took is not None:
            stops.append(took)
    print(f"{' '.join(args)}: {len(stops)} stopped in numba's compilation, the worst after {max(stops):.3f} s")


# ------------------------------------------------------------------------------------- time limits


@pytest.fixture
def busy_machine():
    """Two busy loops per core for the length of the test."""
    loops = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(2 * (os.cpu_count() or 1))]
    time.sleep(0.5)
    yield
    for loop in loops:
        loop.kill()
        loop.wait()


def _timed(args: list[str], tmp: Path) -> tuple[int, float, str, str]:
    env = dict(os.environ, TMPDIR=str(tmp))
    start = time.monotonic()
    done = subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=120, env=env)
    return done.returncode, time.monotonic() - start, done.stdout, done.stderr


@pytest.mark.deep
def test_time_limits_hold_on_a_busy_machine(tmp_path, busy_machine):
    limit = 2.0
    rows = []
    for method, verb, args, _ in RUNS:
        if not _usable(method):
            continue
        code, wall, out, err = _timed([*args, "--time-limit", str(limit)], tmp_path)
        rows.append((method, verb, limit, wall, wall - limit))
        assert code in (0, 3) and "Traceback" not in err, (args, code, out, err)  # (0: done within the limit)
        assert wall <= limit + LIMIT_MARGIN, f"{' '.join(args)}: {wall:.2f} s for a limit of {limit:g} s"
    print("method        verb   limit  wall   overshoot")
    for method, verb, lim, wall, over in rows:
        print(f"{method:13} {verb:6} {lim:5.1f} {wall:6.2f} {over:+6.2f}")
    assert _alive_in(tmp_path) == [] and list(tmp_path.iterdir()) == []  # (the busy loops are this test's)


@pytest.mark.deep
@pytest.mark.skipif(not jit_available(), reason="numba is not installed (or NQUEENS_KIT_NO_JIT)")
def test_a_lower_bound_at_14_in_2_seconds_on_a_busy_machine(tmp_path, busy_machine):
    """The limit holds whatever the load; the lower bound needs the command to have had the processor for a
    while: given a second of it (it starts Python, the kit and a job in less), it has counted boards.  (Under
    CI, another test process shares the two cores with the busy loops: the command may get less.)"""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    code, wall, out, err = _timed(["count", "14", "--method", "backtrack", "--time-limit", "2", "--json"], tmp_path)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    data = json.loads(out)
    print(f"count 14 in 2 s on a busy machine: {data['count']:,} boards ({data['status']}) after {wall:.2f} s, "
          f"{cpu:.2f} s of processor time")
    assert code in (0, 3) and wall <= 2 + LIMIT_MARGIN, (code, wall, err)
    assert data["count"] > 0 or cpu < 1.0, (data, cpu)


@pytest.mark.skipif(not jit_available(), reason="numba is not installed (or NQUEENS_KIT_NO_JIT)")
def test_a_lower_bound_at_14_in_2_seconds(tmp_path):
    code, wall, out, err = _timed(["count", "14", "--method", "backtrack", "--time-limit", "2", "--json"], tmp_path)
    data = json.loads(out)
    assert code in (0, 3) and data["count"] > 0 and wall <= 2 + LIMIT_MARGIN, (data, wall)


def test_the_compiled_count_reports_partial_totals_under_a_deadline():
    """Under a deadline the counter reports what it has counted at once (in Python while numba loads, then
    within prefixes): a count stopped at any moment has a lower bound."""
    from nqueens_kit.methods.search.backtrack import count_backtrack
    from nqueens_kit.problem.reference import published_count
    from nqueens_kit.runtime.limits import set_deadline

    seen: list[int] = []
    before = set_deadline(time.monotonic() + 60)
    try:
        assert count_backtrack(14, progress=seen.append) == published_count(14)
    finally:
        set_deadline(before)
    assert seen == sorted(seen) and seen[-1] == published_count(14) and len(seen) > 5


@pytest.mark.parametrize("args", [
    ["solve", "8"], ["count", "8"], ["solve", "8", "--method", "ilp"], ["solve", "20", "--method", "backtrack"],
    ["count", "6", "--method", "cp"], ["solve", "8", "--method", "cp", "--solver", "minizinc"],
    ["solve", "8", "--solver", "kissat"], ["solve", "8", "--method", "local-search"]],
    ids=lambda args: " ".join(args[2:]) or args[0])
def test_the_longest_time_limit_works(tmp_path, args):
    if "cp" in args and not importable("ortools"):
        pytest.skip("no OR-Tools")
    if "minizinc" in args or "kissat" in args:
        from nqueens_kit.solvers import get_solver

        solver = get_solver(args[args.index("--method") + 1] if "--method" in args else "sat",
                            args[args.index("--solver") + 1])
        if not solver.available():
            pytest.skip(f"no {solver.name}")
    code, _, out, err = _timed([*args, "--time-limit", "2e6"], tmp_path)
    assert code == 0 and err == "" and ("solved, verified" in out or "solutions" in out), (code, out, err)


@pytest.mark.parametrize("limit", ["2000001", "2.2e6", "1e9", "999999999"])
def test_a_longer_time_limit_is_refused_in_one_line(tmp_path, limit):
    code, _, out, err = _timed(["solve", "8", "--time-limit", limit], tmp_path)
    assert (code, out) == (2, "") and err.count("\n") == 1 and "at most 2,000,000 seconds" in err, err


def test_a_deadline_before_the_job_ends_the_command_in_one_line(tmp_path):
    """A limit far shorter than the command's start-up: the command stops within the margin, in one line."""
    code, wall, out, err = _timed(["solve", "1000", "--encoding", "sequential", "--time-limit", "0.01"], tmp_path)
    assert code == 3 and wall <= 0.01 + LIMIT_MARGIN and "Traceback" not in err, (code, wall, out, err)
    assert err.count("\n") <= 1 and ("time limit" in out + err)


# ------------------------------------------------------------------------------ the watchdog's own stop

STUBBORN = textwrap.dedent("""
    import contextlib, subprocess, sys, time
    from nqueens_kit.methods import verbs
    from nqueens_kit.runtime.files import written_whole

    MARKER, TARGET = sys.argv[1], sys.argv[2]  # TARGET "-": writing nothing

    def stubborn(*args, **kwargs):  # a library that swallows Ctrl-C, with a process of its own running
        subprocess.Popen(["sleep", MARKER])
        with written_whole(TARGET) if TARGET != "-" else contextlib.nullcontext() as out:
            if out is not None:  # stuck half-way through writing its output
                out.write("half of a new file")
                out.flush()
            ready = False
            while True:
                try:  # (ready said inside: a Ctrl-C that comes at once is swallowed too, not raised before the try)
                    if not ready:
                        ready = True
                        print("nqueens-kit: ready: stubborn", file=sys.stderr, flush=True)
                    time.sleep(60)
                except KeyboardInterrupt:
                    pass

    verbs.prepare = stubborn
    sys.argv = ["nqueens-kit", *sys.argv[3:]]
    from nqueens_kit.cli import run
    run()
""")



def _stubborn(marker: str, args: list[str], tmp: Path, target: str = "-") -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-c", STUBBORN, marker, target, *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=dict(os.environ, TMPDIR=str(tmp)))


def test_a_swallowed_ctrl_c_still_ends_the_command(tmp_path):
    """Ctrl-C that a library swallows (numba's compiler has done so): the watchdog ends the command half a
    second later, its children killed, with the usual line and status."""
    marker = f"600.{os.getpid() % 10**6:06d}1"
    proc = _stubborn(marker, ["solve", "8", "--method", "backtrack"], tmp_path)
    assert proc.stderr is not None
    assert proc.stderr.readline() == "nqueens-kit: ready: stubborn\n"
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    took = time.monotonic() - sent
    assert (proc.returncode, err) == (130, INTERRUPTED + "\n") and 0.4 <= took <= STOP_WITHIN, (took, err)
    _nothing_left(marker, folder=tmp_path)


@pytest.mark.parametrize("existed", [True, False], ids=["over-a-file", "new-file"])
def test_a_command_ended_by_its_watchdog_leaves_no_draft(tmp_path, existed):
    """Ended by the watchdog in the middle of a write: the draft is removed, the file there before is whole."""
    target = tmp_path / "out.cnf"
    if existed:
        target.write_text("the old file\n")
    marker = f"600.{os.getpid() % 10**6:06d}3"
    proc = _stubborn(marker, ["solve", "8", "--method", "backtrack"], tmp_path, str(target))
    try:
        assert proc.stderr is not None
        assert proc.stderr.readline() == "nqueens-kit: ready: stubborn\n"
        assert any(path.name.startswith(".nqk-") for path in tmp_path.iterdir())  # the draft is there
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    finally:
        proc.kill()  # (a test that failed above leaves nothing running)
        proc.wait()
    assert (proc.returncode, err) == (130, INTERRUPTED + "\n")
    assert sorted(path.name for path in tmp_path.iterdir()) == (["out.cnf"] if existed else [])
    if existed:
        assert target.read_text() == "the old file\n"


def test_a_deadline_the_command_does_not_heed_still_ends_it(tmp_path):
    """The deadline passes while the command's own work swallows the stop: ended half a second later, exit
    status 3, one line."""
    marker = f"600.{os.getpid() % 10**6:06d}2"
    start = time.monotonic()
    proc = _stubborn(marker, ["solve", "8", "--method", "backtrack", "--time-limit", "1", "--json"], tmp_path)
    out, err = proc.communicate(timeout=30)
    took = time.monotonic() - start
    assert proc.returncode == 3 and took <= 1 + LIMIT_MARGIN, (took, out, err)
    lines = [line for line in err.splitlines() if "ready" not in line]
    assert lines == ["nqueens-kit: no answer within the time limit of 1 s"], err
    assert json.loads(out)["status"] == "timeout"
    _nothing_left(marker, folder=tmp_path)


IN_AN_EXTENSION = textwrap.dedent("""
    import importlib.abc, os, signal, sys

    class Trip(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name == "numba._devicearray":  # imported by numba._dispatcher's C code as it loads
                os.kill(os.getpid(), signal.SIGINT)
            return None

    sys.meta_path.insert(0, Trip())
    sys.argv = ["nqueens-kit", "solve", "34", "--method", "backtrack"]
    from nqueens_kit.cli import run
    run()
""")


@pytest.mark.skipif(not jit_available(), reason="numba is not installed (or NQUEENS_KIT_NO_JIT)")
def test_ctrl_c_while_a_c_extension_loads_is_one_line():
    """Ctrl-C while numba's C extension imports a module of its own as it loads: raised there, numba printed the
    traceback and went on; held until the extension is loaded, it stops the command with one line."""
    done = subprocess.run([sys.executable, "-c", IN_AN_EXTENSION], capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stdout, done.stderr) == (130, "", INTERRUPTED + "\n")


@pytest.mark.skipif(not jit_available(), reason="numba is not installed (or NQUEENS_KIT_NO_JIT)")
def test_no_stop_is_raised_while_numba_compiles():
    """Where a stop is not raised: in numba's compiler (its lock held by this thread), in a finaliser, in a C
    extension's module code; everywhere else it is."""
    from numba.core.compiler_lock import global_compiler_lock

    from nqueens_kit.cli.main import _not_here  # type: ignore[attr-defined]

    here = sys._getframe()
    assert not _not_here(here)
    with global_compiler_lock:
        assert _not_here(here)
    assert not _not_here(here)

    class Finalised:
        def __del__(self):
            seen.append(_not_here(sys._getframe()))

    seen: list[bool] = []
    Finalised()
    assert seen == [True]

    def _call_with_frames_removed(f, *args):  # importlib's, running a C extension's module code (or other code)
        return _not_here(sys._getframe())

    assert _call_with_frames_removed(_imp.create_dynamic) and _call_with_frames_removed(_imp.exec_dynamic)
    assert not _call_with_frames_removed(print)


def test_ctrl_c_after_the_answer_keeps_it(tmp_path):
    """A stop signal that comes once the command has its answer (its ``answered`` stage line) ends it with its own
    status: the answer whole, nothing else said."""
    for number in range(5):
        tmp = tmp_path / f"try-{number}"
        tmp.mkdir()
        run = Run(["solve", "8", "--method", "ilp"], tmp)  # the whole command (solve 8 alone has a quick answer)
        try:
            assert run.wait_for("answered"), run.err
            if run.proc.poll() is None:
                run.proc.send_signal(signal.SIGINT)
            code = run.finish(30)
            assert (code, "".join(run.err)) == (0, "") and "solved, verified" in run.out, (code, run.err, run.out)
        finally:
            run.kill()
