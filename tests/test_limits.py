"""Limits that hold: whole-job time limits, size guards, signals, full disks, and counts that verify.

Nothing here asserts how long anything took (benchmarks do that); a test only checks what came back
(status, exit code, one line of error) and what was left behind (no solver process, no temporary folder).
"""

from __future__ import annotations

import glob
import json
import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import nqueens_kit as kit
from nqueens_kit.cli import main
from nqueens_kit.errors import InputError, SolverError
from nqueens_kit.problem.board import verify
from nqueens_kit.problem.reference import published_count
from nqueens_kit.runtime import isolate
from nqueens_kit.runtime.limits import MEMORY_ENV, parse_bytes
from nqueens_kit.solvers import SAT_SOLVERS, SatOutcome
from nqueens_kit.solvers.embedded import Pycosat

from .conftest import need

CLI = [sys.executable, "-m", "nqueens_kit"]


def run(capsys, *args):
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def _descendants_of_me() -> list[str]:
    """Command lines of live processes below this test process (zombies excluded)."""
    me, found, parents = os.getpid(), [], {}
    for stat in glob.glob("/proc/[0-9]*/stat"):
        try:
            text = Path(stat).read_text()
        except OSError:
            continue
        fields = text[text.rindex(")") + 2:].split()
        if fields[0] != "Z":
            parents[int(stat.split("/")[2])] = int(fields[1])
    frontier = [me]
    while frontier:
        parent = frontier.pop()
        for pid, ppid in parents.items():
            if ppid == parent:
                frontier.append(pid)
                try:
                    found.append(Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode())
                except OSError:
                    pass
    return found


def _eventually(condition, what: str, seconds: float = 60.0) -> None:
    """Wait until ``condition()`` holds: a process that was killed leaves the process table soon after, not at
    once.  ``seconds`` is only a guard against waiting for ever (what it waits for takes milliseconds)."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.02)


# ---------------------------------------------------------------------------------------- time limits


@pytest.mark.parametrize("args", [
    ["solve", "1000", "--encoding", "sequential", "--time-limit", "1"],
    ["solve", "150", "--method", "ilp", "--formulation", "pairwise", "--time-limit", "1"],
    ["solve", "200", "--method", "ilp", "--time-limit", "0.5"],
    ["solve", "400", "--encoding", "sequential", "--solver", "cadical", "--time-limit", "1"],
], ids=["pycosat building", "CBC pairwise", "CBC lines", "cadical binary"])
def test_time_limit_bounds_the_whole_job(capsys, args):
    if "cadical" in args:
        need(SAT_SOLVERS["cadical"].available(), "cadical")
    code, out, err = run(capsys, *args, "--json")
    data = json.loads(out)
    assert code == 3 and data["status"] == "timeout" and "time limit of" in data["message"] and err == ""
    assert data["variables"] and (data["clauses"] or data["constraints"])  # the size is still reported
    assert _descendants_of_me() == []


def test_count_time_limit_reports_a_lower_bound(capsys):
    # 2 s: long enough that a busy machine still finds some of the 14,772,512 boards, far too short for all
    code, out, _ = run(capsys, "count", "16", "--time-limit", "2", "--json")
    data = json.loads(out)
    assert code == 3 and data["status"] == "timeout" and data["complete"] is False
    assert 0 < data["count"] < published_count(16) and "lower bound" in data["note"]
    code, out, _ = run(capsys, "count", "30", "--method", "backtrack", "--time-limit", "0.5")
    assert code == 3 and "at least" in out and _descendants_of_me() == []


def test_an_endless_count_needs_a_time_limit(capsys):
    code, out, err = run(capsys, "count", "100000", "--method", "backtrack")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert "age of the universe" in err and "--time-limit" in err
    with pytest.raises(InputError, match="time limit"):
        kit.count(30, "sat")
    code, out, _ = run(capsys, "count", "100000", "--method", "backtrack", "--time-limit", "0.5")
    assert code == 3 and "at least" in out


def test_a_long_count_says_so_before_it_starts(capsys):
    from nqueens_kit.cli.count import _warn_long_count

    _warn_long_count(kit.Problem(22), kit.get_method("ilp"), None)
    err = capsys.readouterr().err
    assert f"about {published_count(22):.3g} solutions" in err and "years" in err and "Ctrl-C" in err
    _warn_long_count(kit.Problem(30), kit.get_method("backtrack"), 60)
    assert "about 2.74e+20 solutions" in capsys.readouterr().err  # beyond the published table: extrapolated
    _warn_long_count(kit.Problem(8), kit.get_method("sat"), None)
    _warn_long_count(kit.Problem(30, [(1, 1)]), kit.get_method("sat"), None)  # with pre-placed queens nobody knows
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("bad", ["0", "-1", "nan", "inf", "-inf", "soon", "1e999"])
def test_bad_time_limits_get_the_same_line_everywhere(capsys, bad):
    messages = set()
    for args in (["solve", "8"], ["count", "6"], ["solve", "8", "--method", "ilp"]):
        code, _, err = run(capsys, *args, f"--time-limit={bad}")
        assert code == 2 and err.count("\n") == 1
        messages.add(err.split("time limit", 1)[1].strip())
    for call in (lambda: kit.solve_sat(8, time_limit=bad), lambda: kit.solve_ilp(8, time_limit=bad),
                 lambda: kit.count_solutions(6, time_limit=bad), lambda: kit.count(6, "backtrack", time_limit=bad)):
        with pytest.raises(InputError, match="time limit must be a positive number of seconds") as error:
            call()
        messages.add(str(error.value).split("time limit", 1)[1].strip())
    assert len(messages) == 1, messages


# ---------------------------------------------------------------------------------------- size guards


@pytest.mark.parametrize(("args", "fragment"), [
    (["solve", "100000"], "pairwise CNF of 100000-queens"),
    (["cnf", "100000"], "pairwise CNF of 100000-queens"),
    (["cnf", "5000", "-o", "{tmp}/big.cnf"], "pairwise CNF of 5000-queens"),
    (["solve", "500", "--encoding", "pairwise"], "--encoding sequential"),
    (["solve", "100000", "--method", "ilp", "--formulation", "pairwise"], "--formulation lines"),
    (["lp", "5000", "-o", "{tmp}/big.mps"], "lines ILP model of 5000-queens"),  # MPS: built by PuLP
    (["count", "400"], "pairwise CNF of 400-queens"),
], ids=lambda v: " ".join(v) if isinstance(v, list) else None)
def test_size_guard_refuses_at_once(capsys, tmp_path, args, fragment):
    code, out, err = run(capsys, *[a.replace("{tmp}", str(tmp_path)) for a in args])
    assert code == 2 and err.count("\n") == 1 and fragment in err and "of memory" in err and "--max-memory" in err
    assert list(tmp_path.iterdir()) == []


def test_memory_budget_from_option_and_environment(capsys, monkeypatch):
    assert run(capsys, "solve", "64", "--max-memory", "1M")[0] == 2
    monkeypatch.setenv(MEMORY_ENV, "1M")
    code, _, err = run(capsys, "solve", "64")
    assert code == 2 and "1.0 MB allowed" in err
    assert run(capsys, "solve", "64", "--max-memory", "1G")[0] == 0
    monkeypatch.setenv(MEMORY_ENV, "lots")
    code, _, err = run(capsys, "solve", "8")
    assert code == 2 and MEMORY_ENV in err and "8G" in err
    assert parse_bytes("1.5G") == 3 * 2**29 and parse_bytes("512M") == 2**29


def test_backtracking_any_size_without_recursion_errors(capsys):
    code, out, _ = run(capsys, "count", "100000", "--method", "backtrack", "--time-limit", "0.5")
    assert code == 3 and "at least 0 solutions" in out
    assert kit.solve(2000, "backtrack", time_limit=0.5).status == "timeout"


# ------------------------------------------------------------------------------------- wrong solvers


class _Liar(Pycosat):
    """Answers every formula with the same model: an invalid board, or one that ignores blocking clauses."""

    def __init__(self, name: str, model: list[int]) -> None:
        self.name, self.model = name, model

    def solve(self, clauses, num_vars, deadline=None, assumptions=()):
        return SatOutcome("sat", list(self.model) + list(range(len(self.model) + 1, num_vars + 1)))

    def all_models(self, clauses, num_vars):  # pycosat's own enumeration, just as deaf
        while True:
            yield self.solve(clauses, num_vars).model


def _model(n, queens):
    return [(r - 1) * n + c if (r, c) in queens else -((r - 1) * n + c) for r in range(1, n + 1) for c in range(1, n + 1)]


PLACED = ((1, 1), (2, 5), (3, 8))


def test_count_rejects_an_invalid_board(monkeypatch, capsys):
    invalid = set(PLACED) | {(r, 2) for r in range(4, 9)}  # the pre-placed queens, then a column of five
    monkeypatch.setitem(SAT_SOLVERS, "liar", _Liar("liar", _model(8, invalid)))
    with pytest.raises(SolverError, match="not a solution"):
        kit.count(kit.Problem(8, PLACED), "sat", solver="liar")
    code, out, err = run(capsys, "count", "8", "--place", "1,1", "2,5", "3,8", "--solver", "liar", "--json")
    assert code == 1 and "not a solution" in err and json.loads(out)["status"] == "error"


class _Deaf(Pycosat):
    """Finds a true model of each formula, then ignores every blocking clause and gives it again."""

    name = "deaf"

    def all_models(self, clauses, num_vars):
        model = self.solve(clauses, num_vars).model
        while model:
            yield model


def test_count_rejects_a_repeated_board(monkeypatch):
    monkeypatch.setitem(SAT_SOLVERS, "deaf", _Deaf())
    with pytest.raises(SolverError, match="twice"):
        kit.count(kit.Problem(8, PLACED), "sat", solver="deaf", time_limit=30)
    with pytest.raises(SolverError, match="twice"):
        kit.count(8, "sat", "sequential", solver="deaf")


# ----------------------------------------------------------------------------- signals and leftovers


def _start(args, **kwargs):
    return subprocess.Popen(CLI + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kwargs)


def _wait_for_solving_child(proc: subprocess.Popen, timeout: float = 120.0) -> None:
    """Wait until the command has started the child that solves: by then its signal handlers are installed
    (they are installed before any work starts), so a signal meets the command, not Python's start-up."""
    from nqueens_kit.runtime.tree import _descendants

    deadline = time.monotonic() + timeout
    while not _descendants(proc.pid):
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "the command started no child process"
        time.sleep(0.02)


@pytest.mark.parametrize(("sig", "args", "code"), [
    (signal.SIGINT, ["solve", "1000", "--encoding", "sequential"], 130),
    (signal.SIGTERM, ["solve", "150", "--method", "ilp", "--formulation", "pairwise"], 143),
    (signal.SIGHUP, ["count", "30", "--time-limit", "600"], 129),
    (signal.SIGTERM, ["solve", "500", "--encoding", "sequential", "--solver", "cadical"], 143),
], ids=["Ctrl-C pycosat", "SIGTERM CBC", "SIGHUP count", "SIGTERM cadical"])
def test_signals_stop_everything(tmp_path, sig, args, code):
    if "cadical" in args:
        need(SAT_SOLVERS["cadical"].available(), "cadical")
    env = dict(os.environ, TMPDIR=str(tmp_path))
    proc = _start(args, env=env)
    _wait_for_solving_child(proc)
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == code and "Traceback" not in err
    assert err.strip().splitlines()[-1] == f"nqueens-kit: {({130: 'interrupted', 143: 'terminated', 129: 'hung up'})[code]}"
    _eventually(lambda: _descendants_of_me() == [], "a process of the command outlived it")
    assert list(tmp_path.iterdir()) == []


def test_wrapper_script_solver_children_do_not_survive(tmp_path, capsys):
    # sleeps of a length no other run uses (a second test run on the machine has its own pid)
    first, second = f"sleep 3600.{os.getpid()}1", f"sleep 3600.{os.getpid()}2"
    script = tmp_path / "slow-solver"
    script.write_text(f"#!/bin/sh\n{first} &\n{second}\n")
    script.chmod(0o755)
    code, out, _ = run(capsys, "solve", "8", "--solver", str(script), "--time-limit", "0.5", "--json")
    assert code == 3 and json.loads(out)["status"] == "timeout"

    def gone() -> bool:
        ps = subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True).stdout
        return first not in ps and second not in ps and not [c for c in _descendants_of_me() if "sleep 3600." in c]

    _eventually(gone, "the solver's own children outlived it")


def test_chatty_solver_is_read_as_a_stream(tmp_path, capsys):
    need(SAT_SOLVERS["picosat"].available(), "picosat")
    script = tmp_path / "chatty"
    script.write_text("#!/bin/sh\nyes 'c a very chatty solver says a great deal about its search' | head -n 400000\n"
                      f"exec {SAT_SOLVERS['picosat'].executable()} \"$1\"\n")
    script.chmod(0o755)
    code, out, _ = run(capsys, "solve", "10", "--solver", str(script), "--json")
    assert code == 0 and json.loads(out)["verified"] is True


def test_unknown_answer_without_a_limit_is_reported(tmp_path, capsys):
    script = tmp_path / "gives-up"
    script.write_text("#!/bin/sh\necho 's UNKNOWN'\n")
    script.chmod(0o755)
    code, out, err = run(capsys, "solve", "8", "--solver", str(script), "--json")
    data = json.loads(out)
    assert code == 3 and data["status"] == "unknown" and "s UNKNOWN" in data["message"] and err == ""


# ----------------------------------------------------------------------------------------- full disks


@pytest.mark.parametrize("args", [["solve", "8"], ["solve", "8", "--json"], ["cnf", "8"], ["solvers"],
                                  ["count", "8", "--json"]])
def test_full_standard_output_is_one_line(args):
    with open("/dev/full", "w") as full:
        proc = subprocess.run(CLI + args, stdout=full, stderr=subprocess.PIPE, text=True, timeout=60)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and "No space left on device" in proc.stderr


def _small_files():
    resource.setrlimit(resource.RLIMIT_FSIZE, (20_000, 20_000))  # writes past 20 kB fail like a full disk


@pytest.mark.parametrize("args", [["solve", "30", "--method", "ilp"], ["cnf", "30", "-o", "{tmp}/x.cnf"]])
def test_full_temporary_folder_is_one_line(tmp_path, args):
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    proc = subprocess.run(CLI + args, capture_output=True, text=True, timeout=60, preexec_fn=_small_files,
                          env=dict(os.environ, TMPDIR=str(tmp_path)))
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and "File too large" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert [p.name for p in tmp_path.iterdir()] in ([], ["x.cnf"])


def test_a_dimacs_solver_needs_no_temporary_space(tmp_path):
    """The formula reaches a DIMACS executable through a pipe: with no room for files the solve still answers,
    and nothing is left in the temporary folder."""
    need(SAT_SOLVERS["minisat"].available(), "minisat")
    proc = subprocess.run(CLI + ["solve", "30", "--solver", "minisat", "--json"], capture_output=True, text=True,
                          timeout=60, preexec_fn=_small_files, env=dict(os.environ, TMPDIR=str(tmp_path)))
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["status"] == "solved" and verify(30, [tuple(q) for q in data["queens"]])
    assert list(tmp_path.iterdir()) == []


# -------------------------------------------------------------------------------------- error objects


def test_json_on_bad_input_prints_an_error_object(capsys):
    code, out, err = run(capsys, "solve", "abc", "--json")
    data = json.loads(out)
    assert code == 2 and data == {"status": "error", "error": err.split("error: ", 1)[1].strip(), "exit": 2}


@pytest.mark.parametrize("args", [
    ["solve", "8", "--method", "ilp", "--encoding", "sequential"],
    ["count", "8", "--method", "backtrack", "--encoding", "binary"],
    ["solve", "8", "--method", "construct", "--encoding", "binary"],
    ["count", "--from-cnf", "{cnf}", "--encoding", "binary"],
    ["solve", "8", "--method", "construct", "--solver", "pycosat"],
    ["solve", "8", "--settings", "tuned"],
    ["count", "8", "--method", "construct"],
    [],
])
def test_options_that_do_not_apply_are_refused(capsys, tmp_path, args):
    cnf = kit.write_dimacs(kit.build_cnf(5), tmp_path / "five.cnf")
    code, out, err = run(capsys, *[a.replace("{cnf}", str(cnf)) for a in args])
    assert code == 2 and err.count("\n") == 1 and err.startswith("nqueens-kit: error: ")


# ------------------------------------------------------------------ an answer after the limit is a timeout


def _answer_after(seconds: float) -> str:
    """Answers once its own clock, which starts after the parent's, has passed ``seconds``."""
    start = time.monotonic()
    while time.monotonic() - start <= seconds:
        time.sleep(seconds / 10)
    return "answer"


def test_a_child_that_answers_after_its_limit_is_a_timeout():
    limit = 0.05
    # the parent's clock may start a little after the child's: a margin of 4 limits keeps the answer late by both
    late = isolate.run_in_child(_answer_after, (5 * limit,), time_limit=limit, grace=60)  # long before the kill
    assert late.status == isolate.Ended.TIMEOUT and late.value == "answer" and "time limit" in late.error
    assert late.status.status == "timeout"
    on_time = isolate.run_in_child(_answer_after, (0.0,), time_limit=60)
    assert on_time.status == isolate.Ended.DONE and on_time.value == "answer"


def test_a_solve_or_count_that_answers_after_its_limit_is_a_timeout():
    # in this process pycosat cannot be stopped: it answers, but after a limit this tiny
    late = kit.solve(8, "sat", solver="pycosat", time_limit=1e-9, isolated=False)
    assert late.status == "timeout" and late.queens == () and "time limit" in late.message
    assert kit.solve(8, "sat", solver="pycosat", time_limit=1e-9).status == "timeout"  # in a child: the same
    on_time = kit.solve(8, "sat", solver="pycosat", time_limit=60, isolated=False)
    assert on_time.status == "solved" and kit.verify(8, on_time.queens)
    counted = kit.count(6, "backtrack", time_limit=1e-9, isolated=False)
    assert counted.status == "timeout" and "lower bound" in counted.note
    complete = kit.count(6, "backtrack", time_limit=60, isolated=False)
    assert complete.status == "solved" and complete.count == published_count(6)
