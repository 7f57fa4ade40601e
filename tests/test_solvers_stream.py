"""The SAT solver entries: the formula streamed into DIMACS executables through a named pipe, the hand-over
timed, and each entry's capabilities checked against what the solver really does."""

from __future__ import annotations

import os
import stat
import threading
import time
from pathlib import Path

import pytest

from nqueens_kit.errors import SolverError
from nqueens_kit.methods.sat.cnf import build_cnf
from nqueens_kit.methods.sat.solve import solve_here
from nqueens_kit.problem.board import Problem, verify
from nqueens_kit.problem.reference import published_count
from nqueens_kit.runtime.browser import importable
from nqueens_kit.solvers import SAT_SOLVERS, Binary
from tests.conftest import need

STREAMED = [name for name, entry in SAT_SOLVERS.items() if isinstance(entry, Binary) and entry.stream]


def script(folder: Path, name: str, body: str) -> str:
    path = folder / name
    path.write_text("#!/bin/sh\n" + body, encoding="ascii")
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return str(path)


def in_thread(call, seconds: float = 120.0):
    """Run ``call`` in a thread; its result, or a failure if it has not returned after ``seconds`` (a hang)."""
    box: dict[str, object] = {}

    def run() -> None:
        try:
            box["value"] = call()
        except BaseException as exc:  # noqa: BLE001 - handed back to the test
            box["error"] = exc

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), "the solve did not return: the writer or the reader hangs"
    if "error" in box:
        raise box["error"]  # type: ignore[misc]
    return box["value"]


@pytest.mark.parametrize("name", STREAMED)
def test_streamed_solvers_solve_verify_and_time_the_hand_over(name: str) -> None:
    need(SAT_SOLVERS[name].available(), name)
    result = solve_here(Problem(40), "commander", name)
    assert result.status == "solved" and verify(40, result.queens)
    assert 0 < result.stats["handover_seconds"] <= result.solve_seconds
    assert result.stats["decode_seconds"] >= 0 and result.stats["verify_seconds"] >= 0
    assert solve_here(Problem(3), "commander", name).status == "infeasible"


def test_no_formula_file_is_left_and_nothing_is_written_to_disk(tmp_path: Path, monkeypatch) -> None:
    """The solver sees a named pipe, not a file; the folder goes when the solve ends."""
    seen = tmp_path / "seen.txt"
    fake = script(tmp_path, "fake-solver",
                  f'if [ -p "$1" ]; then echo pipe > {seen}; else echo file > {seen}; fi\n'
                  'cat "$1" > /dev/null\necho "s UNSATISFIABLE"\n')
    monkeypatch.setenv("TMPDIR", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", None)
    cnf = build_cnf(30, "sequential")
    outcome = in_thread(lambda: Binary(fake, stream=True).solve(cnf.clauses, cnf.num_vars))
    assert outcome.status == "unsat" and seen.read_text().strip() == "pipe"
    assert list((tmp_path / "tmp").iterdir()) == []
    outcome = in_thread(lambda: Binary(fake).solve(cnf.clauses, cnf.num_vars))
    assert seen.read_text().strip() == "file"


def test_a_solver_that_never_opens_its_input_does_not_hang_the_writer(tmp_path: Path) -> None:
    fake = script(tmp_path, "lazy-solver", 'echo "s UNKNOWN"\n')
    cnf = build_cnf(60, "commander")  # far more than a pipe holds
    outcome = in_thread(lambda: Binary(fake, stream=True).solve(cnf.clauses, cnf.num_vars))
    assert outcome.status == "unknown"
    assert threading.active_count() < 50 and not any(t.name == "dimacs-feeder" for t in threading.enumerate())


def test_a_solver_that_dies_while_reading_is_a_solver_error_not_a_hang(tmp_path: Path) -> None:
    fake = script(tmp_path, "dying-solver", 'head -c 100 "$1" > /dev/null\nexit 3\n')
    cnf = build_cnf(60, "commander")
    with pytest.raises(SolverError, match="exit code 3"):
        in_thread(lambda: Binary(fake, stream=True).solve(cnf.clauses, cnf.num_vars))
    assert not any(t.name == "dimacs-feeder" for t in threading.enumerate())


def test_a_streamed_solver_stopped_at_the_deadline_ends_the_writing(tmp_path: Path) -> None:
    """The solver reads a little and then never answers: the deadline stops it, and the writer with it (a solve
    that waited for it would hang for an hour, far past the thread's guard)."""
    ready = tmp_path / "ready"
    fake = script(tmp_path, "slow-solver", f'head -c 1000 "$1" > /dev/null\ntouch {ready}\nexec sleep 3600\n')
    cnf = build_cnf(60, "commander")
    for seconds in (1.0, 4.0, 16.0):  # a busy machine may not have started the solver by the first deadline
        outcome = in_thread(lambda seconds=seconds: Binary(fake, stream=True).solve(
            cnf.clauses, cnf.num_vars, deadline=time.monotonic() + seconds))
        assert outcome.status == "unknown" and outcome.stats["stopped"] == "deadline"
        if ready.exists():
            break
    assert ready.exists(), "the solver never read its input"
    assert not any(t.name == "dimacs-feeder" for t in threading.enumerate())


@pytest.mark.parametrize("name", ["cryptominisat5", "pysat-kissat"])
def test_large_board_entries_count_exactly(name: str) -> None:
    """The entries advised for large boards also enumerate correctly (each board once)."""
    need(SAT_SOLVERS[name].available(), name)
    from nqueens_kit.methods.sat.solve import iter_boards

    boards = list(iter_boards(Problem(7), "product", name))
    assert len(boards) == len(set(boards)) == published_count(7)
    assert all(verify(7, b) for b in boards)


def test_the_time_limit_capability_of_each_python_sat_entry_is_what_the_solver_does() -> None:
    """An entry that claims a time limit is interrupted; one that does not cannot be (python-sat says so)."""
    need(importable("pysat.solvers"), "python-sat")
    from pysat.solvers import Solver

    for name, entry in SAT_SOLVERS.items():
        if entry.kind != "pysat":
            continue
        backend = entry.backend  # type: ignore[attr-defined]
        solver = Solver(name=backend, bootstrap_with=[[1, 2], [-1, 2]])
        try:
            try:
                solver.interrupt()
                solver.clear_interrupt()
                can = True
            except NotImplementedError:
                can = False
        finally:
            solver.delete()
        assert entry.capabilities.time_limit == can, name


@pytest.mark.parametrize("name", [n for n, e in SAT_SOLVERS.items() if e.kind == "pysat"
                                  and e.capabilities.time_limit])
def test_entries_with_a_time_limit_stop_at_the_deadline(name: str) -> None:
    need(SAT_SOLVERS[name].available(), name)
    # 13 pigeons in 12 holes: no CDCL solver refutes it in reasonable time
    holes, pigeons = 12, 13
    var = lambda p, h: p * holes + h + 1  # noqa: E731
    clauses = [[var(p, h) for h in range(holes)] for p in range(pigeons)]
    clauses += [[-var(p, h), -var(q, h)] for h in range(holes) for p in range(pigeons) for q in range(p)]
    outcome = in_thread(lambda: SAT_SOLVERS[name].solve(clauses, pigeons * holes, deadline=time.monotonic() + 0.5))
    assert outcome.status == "unknown"


def test_the_solvers_listing_advises_for_large_boards(capsys) -> None:
    import json

    from nqueens_kit.cli import main

    advised = {name for name, entry in SAT_SOLVERS.items() if entry.advice}
    assert {"cryptominisat5", "pysat-minicard"} <= advised
    assert main(["solvers", "--json"]) == 0
    listed = json.dumps(json.loads(capsys.readouterr().out))
    for name in advised:
        assert json.dumps(SAT_SOLVERS[name].advice) in listed, name


if os.name != "posix":  # named pipes
    pytestmark = pytest.mark.skip("named pipes need a POSIX system")


def test_arrays_and_lists_reach_a_binary_as_the_same_text(tmp_path: Path) -> None:
    """Clauses built as arrays are handed over as arrays, byte for byte the text of the list of lists."""
    from nqueens_kit.methods.sat.cnf import PackedClauses, build_readable

    copy = tmp_path / "copy.cnf"
    fake = script(tmp_path, "copying-solver", f'cat "$1" > {copy}\necho "s UNSATISFIABLE"\n')
    cnf = build_readable(Problem(9), "product")
    texts = []
    for stream in (True, False):
        for formula in (cnf.clauses, PackedClauses.from_lists(cnf.clauses)):
            in_thread(lambda s=stream, f=formula: Binary(fake, stream=s).solve(f, cnf.num_vars))
            texts.append(copy.read_bytes())
    assert texts[0].startswith(f"p cnf {cnf.num_vars} {cnf.num_clauses}\n".encode())
    assert len(set(texts)) == 1 and texts[0].count(b" 0\n") == cnf.num_clauses


def test_a_formula_built_as_arrays_is_solved_by_a_binary_without_a_list_of_lists() -> None:
    need(SAT_SOLVERS["cryptominisat5"].available(), "cryptominisat5")
    from nqueens_kit.methods.sat.cnf import build_packed

    cnf = build_packed(Problem(60), "commander")
    result = solve_here(Problem(60), "commander", "cryptominisat5", cnf=cnf)
    assert result.status == "solved" and verify(60, result.queens) and not cnf.has_list()
    listed = solve_here(Problem(60), "commander", "pysat-kissat", cnf=build_packed(Problem(60), "commander")) \
        if SAT_SOLVERS["pysat-kissat"].available() else None
    assert listed is None or (listed.status == "solved" and verify(60, listed.queens))


def test_the_fastest_large_board_configuration_is_offered_by_the_timing_explorer_and_bench() -> None:
    need(SAT_SOLVERS["cryptominisat5"].available(), "cryptominisat5")
    from nqueens_kit.apps.timing_explorer import TIMING_MAX_N, timing_choices
    from nqueens_kit.bench import parse_choice
    from nqueens_kit.bench.worker import run_worker

    offered = [choice for _, choice in timing_choices()]
    wanted = parse_choice("sat:product:cryptominisat5")
    assert wanted in offered and TIMING_MAX_N >= 1000
    record = run_worker({"method": "sat", "variant": "product", "solver": "cryptominisat5", "n": 100,
                         "preplaced": []}, 120)
    assert record["status"] == "solved" and record["verified"] and verify(100, [tuple(q) for q in record["queens"]])
    assert record["startup_seconds"] is not None and record["peak_rss_mb"] > 0


@pytest.mark.parametrize("name", ["cryptominisat5", "pysat-kissat", "pycosat"])
def test_what_a_large_board_needs_is_loaded_before_the_clock(name: str) -> None:
    """The worker's preload (before its clock starts) imports numpy, which the array builder and writer use."""
    import subprocess
    import sys

    code = ("import sys\nfrom nqueens_kit.methods import Choice, get_method\n"
            f"get_method('sat').preload(Choice('sat', 'product', {name!r}))\nprint('numpy' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "True"
