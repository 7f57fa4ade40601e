"""Child processes and external solvers that misbehave, and what the kit leaves behind.

- Lying DIMACS solvers (shell scripts written into ``tmp_path``): every way of lying the kit must catch or
  survive, each checked for the kit's status, exit code, one-line message and that no process is left;
- the ``--version`` probe of a solver script that forks;
- the command killed with SIGKILL: every process below it dies with it;
- Ctrl-C while the command is still loading, and the light ``import nqueens_kit``;
- Dask: malformed scheduler addresses, signals during a local cluster, its scratch space.

Nothing here asserts how long anything took, beyond "far sooner than the misbehaviour would last"
(a process left holding the output sleeps for minutes; the kit answers within seconds).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
import uuid
from pathlib import Path

import pytest

import nqueens_kit as kit
from nqueens_kit.runtime.tree import _descendants
from nqueens_kit.solvers import SAT_SOLVERS
from nqueens_kit.solvers.base import CLAUSES, SAT_FEATURES, SAT_VERBS, first_version_line
from nqueens_kit.solvers.dimacs_binary import Binary

from .conftest import need
from .test_limits import CLI, _descendants_of_me, run

#: A valid 8-queens board and the model that says it (variable (r-1)*8 + c is the queen at row r, column c).
BOARD = {(1, 1), (2, 5), (3, 8), (4, 6), (5, 3), (6, 7), (7, 2), (8, 4)}


def _model(queens, n=8) -> str:
    return " ".join(str((r - 1) * n + c if (r, c) in queens else -((r - 1) * n + c))
                    for r in range(1, n + 1) for c in range(1, n + 1))


GOOD = f'echo "s SATISFIABLE"\necho "v {_model(BOARD)} 0"\n'
#: How long a process left behind would live: the kit must be done far sooner.
LINGER = 600


@pytest.fixture
def marker() -> str:
    """A sleep length no other process on the machine uses: ``sleep MARKER`` is findable in /proc."""
    return f"{LINGER}.{uuid.uuid4().int % 10**9:09d}"


def _alive_with(marker: str) -> list[str]:
    """Live processes (zombies excluded) whose command line holds ``marker``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        if marker in cmdline and stat[stat.rindex(")") + 2:].split()[0] != "Z" and int(entry.name) != os.getpid():
            found.append(cmdline)
    return found


def _alive_in(folder: Path) -> list[str]:
    """Live processes whose environment names ``folder`` (a TMPDIR they inherited)."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and str(folder).encode() in (entry / "environ").read_bytes():
                stat = (entry / "stat").read_text()
                if stat[stat.rindex(")") + 2:].split()[0] != "Z":
                    found.append((entry / "cmdline").read_bytes().replace(b"\0", b" ").decode())
        except OSError:
            continue
    return found


def _nothing_left(marker: str = "", timeout: float = 5.0, folder: Path | None = None) -> None:
    """No process below this one, none holding ``marker`` and none started with ``folder`` as its TMPDIR
    (polled: the kernel takes a moment to reap)."""
    ends = time.monotonic() + timeout
    while True:
        left = (_descendants_of_me() + (_alive_with(marker) if marker else [])
                + (_alive_in(folder) if folder is not None else []))
        if not left or time.monotonic() > ends:
            break
        time.sleep(0.05)
    assert left == []


def _solver(tmp_path: Path, body: str, marker: str = "", name: str = "liar") -> str:
    script = tmp_path / name
    script.write_text("#!/bin/sh\n" + body.replace("MARKER", marker))
    script.chmod(0o755)
    return str(script)


def _solve(capsys, solver: str, *args: str):
    """``solve 8`` (or the args) with ``solver``: (exit code, JSON answer, stderr)."""
    code, out, err = run(capsys, *(args or ("solve", "8")), "--solver", solver, "--json")
    return code, json.loads(out), err


def _one_line_error(code: int, data: dict, err: str, fragment: str) -> None:
    assert data["status"] == "error" and data["exit"] == code
    assert err.count("\n") == 1 and err.startswith("nqueens-kit: error: ") and "Traceback" not in err
    assert fragment in data["error"], data["error"]


# ------------------------------------------------------------------------------------- lying solvers

# (id, script body, extra arguments, exit code, status, fragment of the message)
LIES = [
    # says UNSAT always
    ("unsat", 'echo "s UNSATISFIABLE"\nexit 20\n', (), 1, "error", "says 8-queens has no board, but it has 92"),
    ("unsat minisat form", "echo UNSAT\n", (), 1, "error", "says 8-queens has no board"),
    ("unsat with a queen", 'echo "s UNSATISFIABLE"\n', ("solve", "8", "--place", "1,1"), 1, "error",
     "the solver's answer is wrong"),
    ("unsat count", 'echo "s UNSATISFIABLE"\n', ("count", "6"), 1, "error", "the count cannot be trusted"),
    # says SAT without a model
    ("sat alone", 'echo "s SATISFIABLE"\nexit 10\n', (), 1, "error",
     "gave no usable answer (exit code 10: the output says 's SATISFIABLE' but gives no model)"),
    ("SAT alone", "echo SAT\n", (), 1, "error", "the output says 'SAT' but gives no model"),
    ("model cut off", 'echo "s SATISFIABLE"\necho "v 1 -2 3"\n', (), 1, "error", "the model is not ended by 0"),
    ("model line before status only", 'echo "v 1 -2 0"\n', (), 1, "error", "a model but no status line"),
    # a model that is not a board
    ("all false", f'echo "s SATISFIABLE"\necho "v {_model(set())} 0"\n', (), 1, "solved", "NOT"),
    ("all true", 'echo "s SATISFIABLE"\necho "v $(seq -s " " 1 64) 0"\n', (), 1, "solved", "NOT"),
    ("queens attack", f'echo "s SATISFIABLE"\necho "v {_model({(r, r) for r in range(1, 9)})} 0"\n', (), 1,
     "solved", "NOT"),
    ("empty model", 'echo "s SATISFIABLE"\necho "v 0"\n', (), 1, "solved", "NOT"),
    # a model in the wrong variables
    ("beyond the formula", 'echo "s SATISFIABLE"\necho "v 1 -65 0"\n', (), 1, "error",
     "line 2: literal -65 is beyond the 64 variables of the formula"),
    ("huge literal", 'echo "s SATISFIABLE"\necho "v 1 123456789012345 0"\n', (), 1, "error", "is beyond the 64"),
    ("shifted model", 'echo "s SATISFIABLE"\necho "v ' + " ".join(str(v + (1 if v > 0 else -1)) for v in map(
        int, _model(BOARD).split())) + ' 0"\n', (), 1, "error", "literal -65 is beyond the 64 variables"),
    ("literal and negation", 'echo "s SATISFIABLE"\necho "v 1 -1 0"\n', (), 1, "error", "literal -1 contradicts 1"),
    # junk
    ("junk", "echo hello\n", (), 1, "error", "line 1 reads 'hello'"),
    ("non-ASCII", 'echo "s SATISFIABLE"\necho "v 1 ² 0"\n', (), 1, "error", "non-ASCII character '²'"),
    ("binary", "printf 's SATISFIABLE\\n\\000\\377\\n'\n", (), 1, "error", "control character"),
    ("two answers", 'echo "s SATISFIABLE"\necho "s UNSATISFIABLE"\n', (), 1, "error", "contradicts"),
    ("unknown status", 'echo "s FOO"\n', (), 1, "error", "unknown status 'FOO'"),
    ("two models", f'echo "s SATISFIABLE"\necho "v {_model(BOARD)} 0"\necho "v 1 0"\n', (), 1, "error",
     "after the model's ending 0"),
    # junk forever, without a limit: stopped at its first bad line
    ("junk forever", "yes 'hello MARKER'\n", (), 1, "error", "line 1 reads 'hello"),
    ("NUL forever", "exec cat /dev/zero\n", (), 1, "error", "a line longer than 1,048,576 characters"),
    ("models forever", "yes 'v 1 0'\n", (), 1, "error", "after the model's ending 0 on line 1"),
    ("answers forever", "while :; do echo 's SATISFIABLE'; echo 's UNSATISFIABLE'; done\n", (), 1, "error",
     "contradicts"),
    ("comments forever", "yes 'c thinking MARKER'\n", ("solve", "8", "--time-limit", "1"), 3, "timeout",
     "time limit"),
    # an answer, then hanging (the solver itself does not exit)
    ("answer then hang", GOOD + "exec sleep MARKER\n", (), 0, "solved", ""),
    ("answer then hang with limit", GOOD + "exec sleep MARKER\n", ("solve", "8", "--time-limit", "60"), 0,
     "solved", ""),
    ("unsat then hang", 'echo "s UNSATISFIABLE"\nexec sleep MARKER\n', ("solve", "3"), 1, "infeasible", ""),
    ("half answer then hang", 'echo "s SATISFIABLE"\nexec sleep MARKER\n', ("solve", "8", "--time-limit", "1"),
     3, "timeout", "time limit"),
    # forked children holding the output, or not
    ("child holds output", "sleep MARKER &\n" + GOOD, (), 0, "solved", ""),
    ("child holds output, limit", "sleep MARKER &\n" + GOOD, ("solve", "8", "--time-limit", "30"), 0, "solved",
     ""),
    ("child lets go of output", "sleep MARKER >/dev/null 2>&1 &\n" + GOOD, (), 0, "solved", ""),
    ("child keeps talking", "(while :; do echo 'c still here MARKER'; sleep 0.01; done) &\n" + GOOD, (), 0,
     "solved", ""),
    ("subshell child", "(sleep MARKER; echo late) &\n" + GOOD, (), 0, "solved", ""),
    # setsid grandchildren: out of the solver's group and session
    ("setsid holds output", "setsid sleep MARKER &\n" + GOOD, (), 0, "solved", ""),
    ("setsid holds output, limit", "setsid sleep MARKER &\n" + GOOD, ("solve", "8", "--time-limit", "30"), 0,
     "solved", ""),
    ("setsid daemon", "setsid sh -c 'sleep MARKER & exit 0' >/dev/null 2>&1 </dev/null &\nsleep 0.2\n" + GOOD, (),
     0, "solved", ""),
    ("setsid then hang", "setsid sleep MARKER &\nexec sleep MARKER\n", ("solve", "8", "--time-limit", "1"), 3,
     "timeout", "time limit"),
    # crash by a signal
    ("segfault", "kill -SEGV $$\n", (), 1, "error", "gave no usable answer (killed by SIGSEGV: "),
    ("killed", "kill -KILL $$\n", (), 1, "error", "killed by SIGKILL"),
    ("crash mid-model", 'echo "s SATISFIABLE"\necho "v 1 -2"\nkill -ABRT $$\n', (), 1, "error",
     "killed by SIGABRT: the model is not ended by 0"),
    ("crash after answering", GOOD + "kill -SEGV $$\n", (), 0, "solved", ""),
    ("crash with a message", "echo 'out of memory: cannot allocate' >&2\nkill -SEGV $$\n", (), 1, "error",
     "it said: out of memory: cannot allocate"),
    # a nonzero exit with a valid answer (solvers exit 10 for SAT and 20 for UNSAT)
    ("exit 1 with answer", GOOD + "exit 1\n", (), 0, "solved", ""),
    ("exit 10 with answer", GOOD + "exit 10\n", (), 0, "solved", ""),
    ("exit 20 unsat", 'echo "s UNSATISFIABLE"\nexit 20\n', ("solve", "3"), 1, "infeasible", ""),
    ("exit 1 without answer", "exit 1\n", (), 1, "error", "(exit code 1: no SAT/UNSAT answer"),
    # huge comments (and blank lines, and error output)
    ("3 MB comment line", "printf 'c '\nhead -c 3000000 /dev/zero | tr '\\000' x\necho\n" + GOOD, (), 0, "solved",
     ""),
    ("300,000 comment lines", "yes 'c a long search goes on' | head -n 300000\n" + GOOD, (), 0, "solved", ""),
    ("2 MB blank line", "head -c 2000000 /dev/zero | tr '\\000' ' '\necho\n" + GOOD, (), 0, "solved", ""),
    ("5 MB of errors", "head -c 5000000 /dev/zero | tr '\\000' e >&2\n" + GOOD, (), 0, "solved", ""),
]


@pytest.mark.parametrize(("body", "args", "code", "status", "fragment"), [case[1:] for case in LIES],
                         ids=[case[0] for case in LIES])
def test_lying_solver(tmp_path, capsys, marker, body, args, code, status, fragment):
    solver = _solver(tmp_path, body, marker)
    start = time.monotonic()
    got, data, err = _solve(capsys, solver, *args)
    assert time.monotonic() - start < LINGER / 10  # far sooner than a process left behind would let go
    assert got == code, (data, err)
    if status == "error":
        _one_line_error(code, data, err, fragment)
    else:
        assert data["status"] == status and err == "", (data, err)
        assert fragment in data["message"] or (fragment == "NOT" and data["verified"] is False)
        if status == "solved" and fragment != "NOT":
            assert data["verified"] is True and {tuple(q) for q in data["queens"]} == BOARD
    _nothing_left(marker)


@pytest.mark.parametrize("without", ["pidfd", "waitid"])
@pytest.mark.parametrize("case", ["answer then hang", "child holds output", "junk forever", "comments forever",
                                  "segfault"])
def test_lying_solver_where_exits_are_polled(tmp_path, capsys, monkeypatch, marker, without, case):
    """Without pidfd (Linux before 5.3) the exit is polled; without waitid (macOS before Python 3.13) the
    poll reaps it: the same outcomes."""
    from nqueens_kit.runtime import executable

    monkeypatch.setattr(executable, "_pidfd", lambda pid: None)
    if without == "waitid":
        monkeypatch.delattr(os, "waitid")
    body, args, code, status, fragment = next(case_[1:] for case_ in LIES if case_[0] == case)
    test_lying_solver(tmp_path, capsys, marker, body, args, code, status, fragment)


def test_wrapper_around_a_real_solver_that_leaves_a_child(tmp_path, capsys, marker):
    """A wrapper script starting the real solver in the background next to a process that keeps the
    output open: the answer counts as soon as the wrapper (the solver the kit started) exits."""
    need(SAT_SOLVERS["picosat"].available(), "picosat")
    picosat = SAT_SOLVERS["picosat"].executable()
    solver = _solver(tmp_path, f'{picosat} "$@" &\nsolver=$!\nsleep MARKER &\nwait $solver\n', marker)
    for args in (("solve", "10"), ("solve", "10", "--time-limit", "30"), ("solve", "3")):
        code, data, err = _solve(capsys, solver, *args)
        assert (code, data["status"]) == ((1, "infeasible") if args[1] == "3" else (0, "solved")), (data, err)
        assert data["status"] == "infeasible" or data["verified"] is True
        _nothing_left(marker)


@pytest.mark.parametrize(("result", "chatter", "code", "fragment"), [
    (None, "echo 'c parsing'", 1, "it wrote no result file"),
    ("SAT", "echo '|  Number of variables: 64'", 1, "the output says 'SAT' but gives no model"),
    ("SAT\n1 -1 0", "", 1, "literal -1 contradicts 1"),
    (f"SAT\n{_model(BOARD)} 0", "echo '|  Number of variables: 64 |'; echo 'junk that is fine here'", 0, ""),
], ids=["no result file", "SAT without model", "contradiction", "chatter and a good result"])
def test_lying_minisat_style_solver(tmp_path, capsys, monkeypatch, marker, result, chatter, code, fragment):
    """MiniSat's form: the answer in a result file named last on the command line, its output chatter."""
    write = f"cat > \"$2\" <<'END'\n{result}\nEND\n" if result is not None else ""
    _solver(tmp_path, f"sleep MARKER &\n{chatter}\n{write}exit 10\n", marker, "liar-minisat")
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setitem(SAT_SOLVERS, "liar-minisat", Binary("liar-minisat", output_file=True, time_limit=True,
                                                             verbs=SAT_VERBS, features=SAT_FEATURES, variants=CLAUSES))
    got, data, err = _solve(capsys, "liar-minisat")
    assert got == code, (data, err)
    if code:
        _one_line_error(code, data, err, fragment)
    else:
        assert data["status"] == "solved" and data["verified"] is True
    _nothing_left(marker)


def test_solver_that_cannot_start_is_one_line(tmp_path, capsys):
    script = tmp_path / "not-a-program"
    script.write_text("no shebang here\n")
    script.chmod(0o755)
    code, data, err = _solve(capsys, str(script))
    assert code == 2 and err.count("\n") == 1 and "cannot run" in data["error"]
    _nothing_left()


# ---------------------------------------------------------------------------------- the version probe


def test_version_probe_of_a_forking_script_leaves_nothing(tmp_path, marker):
    forks = _solver(tmp_path, 'sleep MARKER &\necho "liar 1.2.3"\n', marker)
    start = time.monotonic()
    assert first_version_line([forks, "--version"]) == "liar 1.2.3"
    assert Binary(forks).version() == "liar 1.2.3"
    assert time.monotonic() - start < LINGER / 10
    _nothing_left(marker)
    hangs = _solver(tmp_path, 'setsid sleep MARKER &\necho "liar 4.5"\nexec sleep MARKER\n', marker, "hangs")
    assert first_version_line([hangs, "--version"], timeout=1.0) == "liar 4.5"
    _nothing_left(marker)
    assert first_version_line([str(tmp_path / "missing"), "--version"]) is None


# ------------------------------------------------------------------------- the command killed outright


def _start_time(pid: int) -> str | None:
    """The start time of ``pid`` (/proc), None once it is gone or a zombie: (pid, start) names a process."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = stat[stat.rindex(")") + 2:].split()
    return None if fields[0] == "Z" else fields[19]


def _wait_for(proc: subprocess.Popen, program: str, timeout: float = 120.0) -> None:
    """Wait until a process below ``proc`` runs ``program`` (the first word of its command line ends so, or
    it is the module of ``python -m``, or the code of ``python -c`` holds it)."""
    ends = time.monotonic() + timeout
    while True:
        for pid in _descendants(proc.pid):
            try:
                words = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if words[0].endswith(program.encode()) or program.encode() in words[1:4] or (
                    b"-c" in words and program.encode() in b" ".join(words)):
                return
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < ends, f"no {program} started"
        time.sleep(0.02)


@pytest.mark.parametrize(("args", "program"), [
    (["solve", "1000", "--encoding", "sequential"], "python"),
    (["count", "30", "--time-limit", "600"], "python"),
    (["solve", "1000", "--encoding", "sequential", "--solver", "cadical"], "cadical"),
    (["bench", "--n", "1000", "--methods", "sat", "--encodings", "sequential", "--repeat", "1", "--timeout", "600",
      "--quiet", "--out", "{tmp}/r.csv"], "nqueens_kit.runtime.isolate"),
], ids=["forked pycosat", "forked count", "cadical", "fresh bench child"])
def test_sigkill_of_the_command_kills_its_children(tmp_path, args, program):
    """A batch system, the OOM killer or a closed notebook kills the command with SIGKILL: nothing it
    started may run on."""
    if "cadical" in args:
        need(SAT_SOLVERS["cadical"].available(), "cadical")
    proc = subprocess.Popen(CLI + [a.replace("{tmp}", str(tmp_path)) for a in args], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, env=dict(os.environ, TMPDIR=str(tmp_path)))
    try:
        _wait_for(proc, program)
        below = {pid: _start_time(pid) for pid in _descendants(proc.pid)}
    finally:
        proc.kill()
        proc.wait()
    assert below
    _nothing_left(folder=tmp_path, timeout=10)
    ends = time.monotonic() + 10
    while [pid for pid, start in below.items() if start is not None and _start_time(pid) == start]:
        assert time.monotonic() < ends, [Path(f"/proc/{p}/cmdline").read_bytes() for p in below if _start_time(p)]
        time.sleep(0.05)


# --------------------------------------------------------------------------- start-up and the light import


TRIP = textwrap.dedent("""
    import importlib.abc, os, signal, sys

    TRIP_ON = sys.argv[1]

    class Trip(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name == TRIP_ON:
                os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C while Python loads this module
            return None

    sys.meta_path.insert(0, Trip())
    sys.argv = ["nqueens-kit", *sys.argv[2:]]
    from nqueens_kit.cli import run
    run()
""")


@pytest.mark.parametrize(("module", "argv"), [
    *[(module, ["solve", "8", "--json"]) for module in ("nqueens_kit.cli.main", "nqueens_kit.cli.solve",
                                                         "nqueens_kit.methods", "nqueens_kit.methods.sat.cnf",
                                                         "nqueens_kit.runtime.isolate")],
    *[(module, ["solve", "8"]) for module in ("nqueens_kit.cli.quick", "nqueens_kit.problem.rules", "pycosat")]])
def test_ctrl_c_while_loading_is_one_line(module, argv):
    """Ctrl-C while a module of ``solve 8 --json`` loads (the command's, or the kit's on first use), or one of
    the quick path's (``solve 8``): one line, exit status 130."""
    done = subprocess.run([sys.executable, "-c", TRIP, module, *argv], capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stdout, done.stderr) == (130, "", "nqueens-kit: interrupted\n")


def test_import_is_light_and_names_load_on_use():
    code = ("import sys, nqueens_kit, nqueens_kit.cli\n"
            "print(sorted(m for m in sys.modules if m.startswith('nqueens_kit')))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    # the console script's package and its Ctrl-C handler, nothing of the command or the kit
    assert json.loads(loaded.stdout.replace("'", '"')) == ["nqueens_kit", "nqueens_kit.cli", "nqueens_kit.cli.startup"]
    assert set(kit.__all__) <= set(dir(kit))
    for name in kit.__all__:
        assert getattr(kit, name) is not None
    namespace: dict = {}
    exec("from nqueens_kit import *", namespace)
    assert set(kit.__all__) <= set(namespace)
    assert kit.methods.__name__ == "nqueens_kit.methods"
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        kit.nothing  # noqa: B018
    import nqueens_kit.cli
    import nqueens_kit.cli.main as command_module  # noqa: F401  (the module: its package keeps `main` the function)
    from nqueens_kit.cli import EXIT_OK, build_parser, main
    from nqueens_kit.cli import run as entry

    assert callable(main) and main is nqueens_kit.cli.main and nqueens_kit.cli.main.__module__ == "nqueens_kit.cli.main"
    assert EXIT_OK == 0 and build_parser().prog == "nqueens-kit" and callable(entry)
    assert sys.modules["nqueens_kit.cli.main"].main is main


# ------------------------------------------------------------------------------------------------- Dask


@pytest.mark.parametrize("address", ["bogus", "tcp://", "tcp://host:notaport", "::::", "tcp://host:0",
                                     "tcp://host:70000", "udp://host:8786", "tcp://host:8786/path", " tcp://h:1"])
def test_malformed_dask_address_is_one_line(tmp_path, address):
    pytest.importorskip("distributed")
    done = subprocess.run(CLI + ["bench", "--n", "4", "--methods", "construct", "--repeat", "1", "--quiet",
                                 "--out", str(tmp_path / "r.csv"), "--dask", address],
                          capture_output=True, text=True, timeout=120, env=dict(os.environ, TMPDIR=str(tmp_path)))
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert "--dask takes 'local' or a scheduler address" in done.stderr


def _dask_bench(tmp_path: Path, *args: str) -> list[str]:
    return CLI + ["bench", "--quiet", "--out", str(tmp_path / "r.csv"), "--dask", "local", "--jobs", "2", *args]


def test_dask_run_leaves_no_scratch_space(tmp_path):
    pytest.importorskip("distributed")
    done = subprocess.run(_dask_bench(tmp_path, "--n", "4:5", "--methods", "construct", "--repeat", "1"),
                          capture_output=True, text=True, timeout=300, env=dict(os.environ, TMPDIR=str(tmp_path)))
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.csv", "r.csv.meta.json"]
    _nothing_left(folder=tmp_path)


@pytest.mark.parametrize(("sig", "program"), [(signal.SIGTERM, "nqueens_kit.runtime.isolate"),
                                              (signal.SIGINT, "nqueens_kit.runtime.isolate"),
                                              (signal.SIGTERM, "spawn_main")],
                         ids=["SIGTERM during a run", "Ctrl-C during a run", "SIGTERM while the cluster starts"])
def test_signal_during_a_dask_sweep_shuts_down_cleanly(tmp_path, sig, program):
    pytest.importorskip("distributed")
    proc = subprocess.Popen(_dask_bench(tmp_path, "--n", "1000", "--methods", "sat", "--encodings", "sequential",
                                        "--repeat", "2", "--timeout", "600"),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=dict(os.environ, TMPDIR=str(tmp_path)))
    try:
        _wait_for(proc, program)  # a run under way, or the first Dask worker process starting
        proc.send_signal(sig)
        _, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 128 + sig and "Traceback" not in err and "Error" not in err, err
    assert err.strip().splitlines()[-1].startswith("nqueens-kit: ")
    _nothing_left(folder=tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.csv", "r.csv.meta.json"]


@pytest.mark.parametrize("watchdog", [False, True], ids=["alone", "with-watchdog"])
def test_a_stop_signal_during_the_fork_is_not_lost(tmp_path, watchdog):
    """A signal whose handler raises while ``os.fork`` runs the standard library's at-fork callbacks would be
    printed as "ignored" and lost, leaving the command waiting for its child; the kit holds the stop signals
    back while it forks, so the handler raises after the fork, and the child is stopped.  The hold holds with
    the command's watchdog thread running too (a signal the watchdog's thread took would run the handler in
    the main thread at once, hold or not)."""
    script = textwrap.dedent("""
        import os, signal, sys, time
        from nqueens_kit.runtime import isolate
        from nqueens_kit.cli import startup

        if sys.argv[1] == "True":
            startup.watch()

        class Stop(Exception):
            pass

        where = []

        def handler(signum, frame):
            while frame is not None and frame.f_code.co_filename != isolate.__file__:  # (signal.py's wrapper)
                frame = frame.f_back
            where.append(frame.f_code.co_name if frame is not None else "elsewhere")
            raise Stop()

        signal.signal(signal.SIGTERM, handler)
        sent = []

        def during_fork():  # the signal arrives while the fork's callbacks run, as it may under load
            if not sent:
                sent.append(True)
                os.kill(os.getpid(), signal.SIGTERM)
                time.sleep(0.05)  # the callbacks take a while (a thread that took the signal has run its handler)

        os.register_at_fork(after_in_parent=during_fork)
        start = time.monotonic()
        try:
            isolate.run_in_child(time.sleep, (60,))
        except Stop:
            print("stopped", round(time.monotonic() - start), *where)
        else:
            print("not stopped")
    """)
    proc = subprocess.run([sys.executable, "-c", script, str(watchdog)], capture_output=True, text=True,
                          timeout=120, env=dict(os.environ, TMPDIR=str(tmp_path)))
    assert proc.stdout.split()[:1] == ["stopped"], (proc.stdout, proc.stderr)
    assert int(proc.stdout.split()[1]) < 30  # long before the child's 60 s sleep would have ended
    # where the signals are let go, the child known: not in the fork's callbacks, nor before the child is known
    assert proc.stdout.split()[2:] == ["_release_stop_signals"], proc.stdout
    assert "ignored" not in proc.stderr
    assert list(tmp_path.iterdir()) == []  # the child's scratch folder went with it


STOP_AT_EVERY_LINE = textwrap.dedent("""
    import os, signal, sys
    from nqueens_kit.runtime import isolate
    from nqueens_kit.cli import startup

    me, folder = os.getpid(), sys.argv[1]
    ISOLATE = isolate.__file__

    def stop_at(k):
        \"\"\"A trace that raises KeyboardInterrupt at the k-th line this process runs in isolate.py, as Ctrl-C
        would there: not while the stop signals are held back (it is raised where they are let go).\"\"\"
        seen = [0]

        def trace(frame, event, arg):
            if os.getpid() != me:
                return None
            if frame.f_code.co_filename != ISOLATE:
                return trace
            if event == "line":
                seen[0] += 1
                held = signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, [])
                if seen[0] >= k and not held:
                    sys.settrace(None)
                    raise KeyboardInterrupt
            return trace
        return trace

    stopped = 0
    for k in range(1, 2000):
        sys.settrace(stop_at(k))
        try:
            isolate.run_in_child(abs, (-1,), fresh=sys.argv[2] == "fresh")
        except KeyboardInterrupt:
            stopped += 1
            startup.leave_nothing()  # what the command does as it ends stopped
        else:
            break
        finally:
            sys.settrace(None)
        while True:  # the killed children reaped, as the process's end would
            try:
                if os.waitpid(-1, os.WNOHANG)[0] == 0:
                    break
            except ChildProcessError:
                break
        left = os.listdir(folder)
        if left:
            sys.exit(f"stopped at line {k}: left {left}")
    print("stopped", stopped, "then finished", k)
""")


@pytest.mark.parametrize("start", ["fork", "fresh"])
def test_a_stop_at_any_line_of_a_job_leaves_nothing(tmp_path, start):
    """Ctrl-C raises wherever the main thread is: a job (forked, or a fresh interpreter) stopped at each line in
    turn of the code that starts, waits for and ends it (once the command has ended as a stopped command does)
    leaves no folder behind."""
    proc = subprocess.run([sys.executable, "-c", STOP_AT_EVERY_LINE, str(tmp_path), start], capture_output=True,
                          text=True, timeout=600, env=dict(os.environ, TMPDIR=str(tmp_path)))
    words = proc.stdout.split()
    assert words[:1] == ["stopped"] and "finished" in words, (proc.stdout, proc.stderr)
    assert int(words[1]) >= 20, proc.stdout  # the job's code has at least this many lines to stop at
    assert list(tmp_path.iterdir()) == []


def test_a_widget_solve_forks_from_its_thread(child_starts):
    """The widgets solve in a background thread with a Stop button and a time limit: each click's job is a
    fork of the kernel, not a fresh interpreter that imports the kit again."""
    import threading

    from nqueens_kit.methods import solve

    started = child_starts
    results = []
    click = threading.Thread(target=lambda: results.append(solve(8, "sat", time_limit=60, stop=lambda: False)))
    click.start()
    click.join(120)
    assert [(r.status, r.verified) for r in results] == [("solved", True)] and started == [False]


END = textwrap.dedent("""
    import atexit, sys, threading, time
    from nqueens_kit.cli.main import end

    atexit.register(lambda: open(sys.argv[1], "a").write("exit functions ran\\n"))
    if sys.argv[2] == "thread":  # a thread still running: the ordinary exit waits for it
        threading.Thread(target=lambda: (time.sleep(0.3), open(sys.argv[1], "a").write("thread ended\\n"))).start()
    sys.stdout.write("said, not yet flushed")
    end(int(sys.argv[3]))
""")


@pytest.mark.parametrize("thread", ["thread", "none"])
def test_the_command_ends_as_exit_would(tmp_path, thread):
    """The command ends without the interpreter's teardown, but with what its exit does that matters: the
    exit status, the output flushed, the exit functions run, and a thread still running waited for."""
    log = tmp_path / "log.txt"
    done = subprocess.run([sys.executable, "-c", END, str(log), thread, "3"], capture_output=True, text=True,
                          timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (3, "said, not yet flushed", "")
    expected = ["thread ended", "exit functions ran"] if thread == "thread" else ["exit functions ran"]
    assert log.read_text().splitlines() == expected


@pytest.mark.parametrize("thread", ["thread", "none"])
def test_a_stopped_command_ends_at_once(tmp_path, thread):
    """Stopped by a signal (status 130): the output flushed, and nothing of the libraries' run on the way out
    (no exit function, no wait for a thread of theirs that may still be at work)."""
    log = tmp_path / "log.txt"
    done = subprocess.run([sys.executable, "-c", END, str(log), thread, "130"], capture_output=True, text=True,
                          timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (130, "said, not yet flushed", "")
    assert not log.exists()


def _leave_a_sleeper(marker: str, detach: bool) -> int:
    """A job that starts ``sleep MARKER`` (in a session of its own when ``detach``) and answers at once."""
    subprocess.Popen(["sleep", marker], start_new_session=detach, stdin=subprocess.DEVNULL,
                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return 1


def _answer_alone() -> int:
    return 2


def test_a_job_that_answers_and_leaves_a_process_behind_leaves_nothing(marker):
    """The quick stop after an answer (no process table read when the child has nothing below it) never
    skips a process the job left in its session: it is stopped with the child."""
    from nqueens_kit.runtime.isolate import Ended, run_in_child

    run = run_in_child(_leave_a_sleeper, (marker, False), time_limit=30)
    assert run.status == Ended.DONE and run.value == 1
    _nothing_left(marker)


def test_a_job_with_nothing_below_it_is_stopped_without_a_table(monkeypatch):
    """An answer from a child with no process below it is taken without reading the process table."""
    from nqueens_kit.runtime import isolate, tree

    def no_table() -> dict:
        raise AssertionError("the process table was read for a child that had nothing below it")

    if not isolate.become_subreaper():
        pytest.skip("no subreaper here (Linux only): the child cannot vouch for its tree")
    monkeypatch.setattr(tree, "_process_table", no_table)
    run = isolate.run_in_child(_answer_alone, (), time_limit=30)
    assert run.status == isolate.Ended.DONE and run.value == 2
