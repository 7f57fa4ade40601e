"""The timing harness: configurations, sweeps in worker processes, CSV rows, resume, timeouts, errors."""

from __future__ import annotations

import csv
import json
import os
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

import pytest

from nqueens_kit import construct
from nqueens_kit.bench import (
    COLUMNS,
    SweepInterrupted,
    check_available,
    make_configs,
    meta_path,
    parse_choice,
    parse_ns,
    random_preplacement,
    read_results,
    row_key,
    run_sweep,
    summarise,
    worker,
)
from nqueens_kit.bench.summary import censored_times
from nqueens_kit.bench.sweep import Run, make_row
from nqueens_kit.cli import main
from nqueens_kit.errors import InputError, SolverNotAvailable
from nqueens_kit.methods import Choice
from nqueens_kit.methods.sat.cnf import predicted_size
from nqueens_kit.problem.board import attacks, verify
from nqueens_kit.problem.reference import published_count
from nqueens_kit.solvers import SAT_SOLVERS

from . import fake_jobs
from .conftest import need

TINY = [Choice("sat", "pairwise", "pycosat"), Choice("construct")]
REQUIRED = ["n", "method", "encoding", "formulation", "solver", "repeat", "status", "variables", "clauses",
            "constraints", "build_seconds", "solve_seconds", "total_seconds", "peak_rss_mb", "verified",
            "preplaced", "seed", "message"]

def cli(capsys, *args):
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def csv_rows(path: Path) -> list[dict[str, str]]:
    with open(path, newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def gone(pid: int) -> bool:
    """True once a process no longer exists or is a zombie waiting for its parent."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as status:
            return any(line.startswith("State:") and "Z" in line.split()[1] for line in status)
    except FileNotFoundError:
        return True


# ------------------------------------------------------------------------------------------ parsing


@pytest.mark.parametrize("text, expected", [
    ("4:64:4", list(range(4, 65, 4))),
    ("4,8,16", [4, 8, 16]),
    ("4:8", [4, 5, 6, 7, 8]),
    ("16, 4,8:8", [4, 8, 16]),
    ("4:10:4", [4, 8]),
])
def test_parse_ns(text, expected):
    assert parse_ns(text) == expected


@pytest.mark.parametrize("text", ["", "a", "8:4", "4:8:0", "4:8:2:1", "0", "4,,8", "4:x", "-4"])
def test_parse_ns_refuses_malformed(text):
    with pytest.raises(InputError) as info:
        parse_ns(text)
    assert "\n" not in str(info.value)


def test_cli_refuses_malformed_sizes(capsys, tmp_path):
    code, _, err = cli(capsys, "bench", "--n", "4:x", "--out", tmp_path / "r.csv")
    assert code == 2 and err.count("\n") == 1 and "START:STOP" in err
    assert not (tmp_path / "r.csv").exists()


# ---------------------------------------------------------------------------------- configurations


def test_cross_product_and_routing():
    need(SAT_SOLVERS["minisat"].available(), "minisat")
    configs = make_configs("sat,construct", encodings="pairwise,sequential", solvers="pycosat,minisat")
    assert [c.label for c in configs] == [
        "SAT pairwise/pycosat", "SAT pairwise/minisat", "SAT sequential/pycosat", "SAT sequential/minisat",
        "construct"]


@pytest.mark.parametrize("kwargs, fragment", [
    ({"methods": "sat,magic"}, "unknown method"),
    ({"methods": "sat", "encodings": "pairwise,nope"}, "unknown encoding"),
    ({"methods": "construct", "encodings": "pairwise"}, "encodings belong to the methods sat"),
    ({"methods": "sat", "solvers": "no-such-solver"}, "unknown solver"),
    ({"methods": "sat", "solvers": "cbc"}, "cbc is a solver of --method ilp"),
    ({"methods": "", "solvers": None}, "at least one method"),
])
def test_config_errors_are_one_line(kwargs, fragment):
    with pytest.raises(InputError) as info:
        make_configs(**kwargs)
    assert fragment in str(info.value) and "\n" not in str(info.value)


def test_missing_solver_refused_before_the_sweep(monkeypatch, capsys, tmp_path):
    monkeypatch.setattr(SAT_SOLVERS["minisat"], "available", lambda: False)
    configs = make_configs("sat", solvers="minisat")  # naming it probes nothing
    with pytest.raises(SolverNotAvailable):
        check_available(configs)
    code, _, err = cli(capsys, "bench", "--n", "4", "--methods", "sat", "--solvers", "minisat",
                       "--out", tmp_path / "r.csv")
    assert code == 2 and err.count("\n") == 1 and "minisat" in err and "apt-get install minisat" in err
    assert not (tmp_path / "r.csv").exists()


def test_ilp_solvers_are_routed_to_ilp(monkeypatch):
    from nqueens_kit.solvers import ILP_SOLVERS

    need(ILP_SOLVERS["cbc"].available(), "CBC")
    monkeypatch.setattr(type(ILP_SOLVERS["highs"]), "find", lambda self: None)  # HiGHS not installed
    configs = make_configs("sat,ilp", encodings="pairwise", formulations="lines,pairwise", solvers="pycosat,cbc")
    assert [c.label for c in configs] == ["SAT pairwise/pycosat", "ILP lines/cbc", "ILP pairwise/cbc"]
    assert [c.label for c in make_configs("ilp")] == ["ILP lines/cbc"]
    with pytest.raises(SolverNotAvailable, match="pip install highspy"):
        check_available(make_configs("ilp", solvers="highs"))
    with pytest.raises(InputError, match="unknown formulation"):
        make_configs("ilp", formulations="rows")
    with pytest.raises(InputError, match="pycosat is a solver of --method sat"):
        make_configs("ilp", solvers="pycosat")


def test_config_parse():
    assert parse_choice("sat:sequential") == Choice("sat", "sequential", "pycosat")
    assert parse_choice("ilp:lines:cbc:default") == Choice("ilp", "lines", "cbc", "default")
    assert parse_choice("ilp:lines").label == "ILP lines/cbc" and parse_choice("backtrack") == Choice("backtrack")
    assert parse_choice("construct") == Choice("construct")
    with pytest.raises(InputError):
        parse_choice("sat::pycosat")


# ------------------------------------------------------------------------------------------ sweeps


def test_tiny_sweep_rows_columns_and_verification(tmp_path):
    out = tmp_path / "results.csv"
    seen = []
    rows = run_sweep(TINY, [4, 5, 6], repeat=1, timeout=60, out=out, progress=False, on_row=seen.append)
    assert seen == rows and len(rows) == 6
    with open(out, newline="", encoding="utf-8") as handle:
        header = next(csv.reader(handle))
    assert header == list(COLUMNS) and set(REQUIRED) <= set(header)
    on_disk = read_results(out)
    assert [row_key(r) for r in on_disk] == [row_key(r) for r in rows]
    for row in on_disk:
        assert row["status"] == "solved" and row["verified"] is True
        assert row["total_seconds"] >= row["solve_seconds"] >= 0 and row["peak_rss_mb"] > 0
        if row["method"] == "sat":
            assert (row["variables"], row["clauses"]) == predicted_size(row["n"], "pairwise")
    assert [(r["n"], r["method"]) for r in on_disk] == [(4, "sat"), (4, "construct"), (5, "sat"),
                                                       (5, "construct"), (6, "sat"), (6, "construct")]
    meta = json.loads(meta_path(out).read_text())
    assert {"machine", "python", "packages", "solvers", "sweep", "sessions"} <= set(meta)
    assert meta["machine"]["cpu_count"] and meta["packages"]["pycosat"] and meta["sessions"][0]["complete"]
    assert meta["sweep"]["ns"] == [4, 5, 6]


def test_infeasible_board_is_a_row_not_an_error():
    rows = run_sweep(TINY, [3], repeat=1, progress=False)
    assert [r["status"] for r in rows] == ["infeasible", "infeasible"]


def test_cli_bench_writes_csv_plot_and_sidecar(capsys, tmp_path):
    out, png = tmp_path / "r.csv", tmp_path / "r.png"
    code, _, err = cli(capsys, "bench", "--n", "4:6", "--methods", "sat,construct", "--encodings", "pairwise",
                       "--repeat", "1", "--out", out, "--plot", png, "--quiet")
    assert code == 0 and err == ""
    assert len(csv_rows(out)) == 6 and png.stat().st_size > 0
    command = json.loads(meta_path(out).read_text())["sessions"][0]["command"]
    assert command.startswith("nqueens-kit bench --n 4:6") and "--out" in command


def test_existing_csv_needs_resume_or_force(capsys, tmp_path):
    out = tmp_path / "r.csv"
    out.write_text("keep me\n")
    code, _, err = cli(capsys, "bench", "--n", "4", "--methods", "construct", "--out", out, "--quiet")
    assert code == 2 and err.count("\n") == 1 and "--resume" in err and "--force" in err
    assert out.read_text() == "keep me\n"
    with pytest.raises(InputError):
        run_sweep(TINY, [4], out=out, progress=False)
    code, _, _ = cli(capsys, "bench", "--n", "4", "--methods", "construct", "--out", out, "--quiet", "--force")
    assert code == 0 and [r["n"] for r in csv_rows(out)] == ["4"] * 3


@pytest.mark.parametrize("where", ["missing/r.csv", "afile/r.csv", "."])
def test_unwritable_output_is_one_line(capsys, tmp_path, where):
    (tmp_path / "afile").write_text("")
    code, _, err = cli(capsys, "bench", "--n", "4", "--methods", "construct", "--out", tmp_path / where)
    assert code == 2 and err.count("\n") == 1


def test_resume_after_truncation_does_not_duplicate(tmp_path):
    out = tmp_path / "r.csv"
    full = run_sweep(TINY, [4, 5], repeat=2, out=out, progress=False)
    lines = out.read_text().splitlines(keepends=True)
    # As if the machine died while writing the fourth row.
    out.write_text("".join(lines[:4]) + lines[4][:9])
    rows = run_sweep(TINY, [4, 5], repeat=2, out=out, progress=False, resume=True)
    keys = [row_key(r) for r in read_results(out)]
    assert len(keys) == len(set(keys)) == len(full) == len(rows) == 8
    assert sorted(keys) == sorted(row_key(r) for r in full)
    sessions = json.loads(meta_path(out).read_text())["sessions"]
    assert [s["resumed"] for s in sessions] == [False, True] and sessions[1]["kept_rows"] == 3


def _interrupt_after(count):
    """An ``on_row`` that presses Ctrl-C once ``count`` rows have been written."""
    seen = []

    def on_row(row):
        seen.append(row)
        if len(seen) == count:
            raise KeyboardInterrupt

    return on_row


def test_interrupt_keeps_rows_and_resume_finishes(tmp_path):
    out = tmp_path / "r.csv"

    with pytest.raises(SweepInterrupted) as info:
        run_sweep(TINY, [4, 5, 6], repeat=1, out=out, progress=False, on_row=_interrupt_after(2))
    assert len(info.value.rows) == 2 and len(read_results(out)) == 2
    run_sweep(TINY, [4, 5, 6], repeat=1, out=out, progress=False, resume=True)
    keys = [row_key(r) for r in read_results(out)]
    assert len(keys) == len(set(keys)) == 6


def test_ctrl_c_on_the_command_line(tmp_path):
    out = tmp_path / "r.csv"
    command = [sys.executable, "-m", "nqueens_kit", "bench", "--n", "4:40", "--methods", "sat",
               "--encodings", "sequential", "--repeat", "50", "--out", str(out)]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and (not out.exists() or len(out.read_text().splitlines()) < 3):
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 130
    assert "interrupted" in err and "--resume" in err and str(out) in err
    kept = read_results(out)
    assert len(kept) >= 2 and all(r["status"] == "solved" for r in kept)


# ------------------------------------------------------------------------------ timeouts and errors


def test_timeout_row_kills_the_worker_and_its_solver(monkeypatch, tmp_path):
    pid_file = tmp_path / "child.pid"
    monkeypatch.setenv(fake_jobs.PID_FILE_ENV, str(pid_file))
    monkeypatch.setattr(worker, "run_job", fake_jobs.sleeper)
    # a limit a real run of n = 4 or 6 stays far below even on a busy machine; n = 5 never answers
    rows = run_sweep([TINY[0]], [4, 5, 6], repeat=1, timeout=2.0, out=tmp_path / "r.csv", progress=False)
    assert [r["status"] for r in rows] == ["solved", "timeout", "solved"]
    timed = rows[1]
    assert timed["total_seconds"] >= 2.0 and timed["time_limit"] == 2.0 and "time limit" in timed["message"]
    child = int(pid_file.read_text())
    deadline = time.monotonic() + 60  # a bound on the wait for the kill to land, not a measurement
    while not gone(child) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert gone(child), "the solver process the worker started outlived the time limit"


def test_skip_after_timeout(monkeypatch):
    monkeypatch.setattr(worker, "run_job", fake_jobs.sleeper_from_5)
    rows = run_sweep(TINY[:1], [4, 5, 6, 7], repeat=1, timeout=2.0, progress=False, skip_after_timeout=True)
    assert [r["status"] for r in rows] == ["solved", "timeout", "skipped", "skipped"]
    assert "timed out at n = 5" in rows[2]["message"]


def test_crashing_worker_is_an_error_row(monkeypatch):
    monkeypatch.setattr(worker, "run_job", fake_jobs.aborter_4_quitter_5)
    rows = run_sweep(TINY[:1], [4, 5, 6], repeat=1, timeout=30, progress=False)
    assert [r["status"] for r in rows] == ["error", "error", "solved"]
    assert "SIGABRT" in rows[0]["message"] and "status 3" in rows[1]["message"]


def test_exception_in_the_solver_is_an_error_row():
    rows = run_sweep([Choice("sat", "no-such-encoding", "pycosat"), Choice("construct")], [4],
                     repeat=1, progress=False)
    assert [r["status"] for r in rows] == ["error", "solved"]
    assert rows[0]["message"].startswith("InputError: unknown encoding")


def test_resume_retries_errors(monkeypatch, tmp_path):
    out = tmp_path / "r.csv"
    real = worker.run_job
    monkeypatch.setattr(worker, "run_job", fake_jobs.quitter_5)
    run_sweep(TINY[:1], [4, 5], repeat=1, out=out, progress=False)
    assert [r["status"] for r in read_results(out)] == ["solved", "error"]
    monkeypatch.setattr(worker, "run_job", real)
    run_sweep(TINY[:1], [4, 5], repeat=1, out=out, progress=False, resume=True)
    assert [r["status"] for r in read_results(out)] == ["solved", "solved"]


# ---------------------------------------------------------------------------------- random instances


def test_random_preplacement_is_reproducible_and_non_attacking():
    for n in range(2, 21):
        for k in range(n):
            placed = random_preplacement(n, k, seed=11, instance=2)
            assert placed == random_preplacement(n, k, seed=11, instance=2) and len(placed) == k
            assert len(set(placed)) == k and all(1 <= r <= n and 1 <= c <= n for r, c in placed)
            assert not any(attacks(a, b) for a in placed for b in placed)
    assert len({random_preplacement(16, 4, seed=s) for s in range(10)}) > 1
    with pytest.raises(InputError):
        random_preplacement(6, 6, seed=0)


def test_place_random_sweep_is_fair_and_reproducible():
    configs = make_configs("sat", encodings="pairwise,sequential")
    rows = run_sweep(configs, [6, 8], repeat=3, place_random=3, seed=7, progress=False)
    again = run_sweep(configs, [6, 8], repeat=3, place_random=3, seed=7, progress=False)
    assert [r["preplaced"] for r in rows] == [r["preplaced"] for r in again]
    by_instance = {}
    for row in rows:
        assert row["seed"] == 7 and row["place_random"] == 3 and len(row["preplaced"].split()) == 3
        assert row["status"] in ("solved", "infeasible")
        by_instance.setdefault((row["n"], row["repeat"]), set()).add((row["preplaced"], row["status"]))
        if row["status"] == "solved":
            assert row["verified"] is True
    assert all(len(answers) == 1 for answers in by_instance.values())  # same instance, same answer


def test_place_random_limits(capsys, tmp_path):
    with pytest.raises(InputError, match="smallest n is 4"):
        run_sweep(TINY[:1], [4, 8], place_random=4, progress=False)
    with pytest.raises(InputError, match="--method construct cannot honour"):
        run_sweep(TINY, [8], place_random=2, progress=False)
    code, _, err = cli(capsys, "bench", "--n", "4", "--methods", "sat", "--seed", "3", "--out", tmp_path / "r.csv")
    assert code == 2 and "--place-random" in err


# ----------------------------------------------------------------------------------- reading, summary


def test_summarise_medians_with_timeouts():
    base = {"method": "ilp", "formulation": "lines", "solver": "cbc", "n": 8, "time_limit": 5.0}
    rows = [dict(base, repeat=1, status="solved", total_seconds=1.0, build_seconds=0.2, solve_seconds=0.8),
            dict(base, repeat=2, status="solved", total_seconds=3.0, build_seconds=0.2, solve_seconds=2.8),
            dict(base, repeat=3, status="timeout", total_seconds=5.0)]
    (entry,) = summarise(rows)
    assert entry["config"] == "ILP lines/cbc" and entry["timeouts"] == 1 and entry["solved"] == 2
    assert (entry["total_median"], entry["total_min"], entry["total_max"]) == (3.0, 1.0, 3.0)
    rows[1] = dict(rows[1], status="timeout")
    (entry,) = summarise(rows)
    assert entry["total_median"] is None and entry["total_min"] == 1.0


def test_read_results_errors(tmp_path):
    with pytest.raises(InputError, match="no such results file"):
        read_results(tmp_path / "nope.csv")
    bad = tmp_path / "bad.csv"
    bad.write_text("a,b\n1,2\n")
    with pytest.raises(InputError, match="not a results CSV"):
        read_results(bad)
    out = tmp_path / "r.csv"
    run_sweep(TINY, [4], repeat=1, out=out, progress=False)
    text = out.read_text()
    out.write_text(text.replace(",solved,", ",solvd,", 1))
    with pytest.raises(InputError, match="line 2"):
        read_results(out)


def test_ilp_rows_when_the_module_exists():
    try:
        import nqueens_kit.methods.ilp.model  # noqa: F401
    except ImportError:
        need(False, "nqueens_kit.methods.ilp.model")
    rows = run_sweep(make_configs("ilp"), [4, 5, 6], repeat=1, timeout=60, progress=False)
    for row in rows:
        assert row["status"] == "solved" and row["verified"] is True and row["constraints"] > 0
        assert (row["method"], row["formulation"], row["solver"]) == ("ilp", "lines", "cbc")


def test_bench_help_shows_no_internals():
    help_text = subprocess.run([sys.executable, "-m", "nqueens_kit", "bench", "--help"], capture_output=True,
                               text=True).stdout
    assert "--worker" not in help_text and "--out" in help_text


def test_no_files_in_the_working_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    run_sweep(TINY, [4], repeat=1, progress=False)
    assert os.listdir(tmp_path) == []


def test_settings_are_timed_where_the_solver_takes_them() -> None:
    """HiGHS runs its own defaults under the method's default settings and takes no second name for them."""
    from nqueens_kit.bench import make_configs, summarise

    configs = make_configs("sat,ilp", encodings="pairwise", formulations="lines", solvers="pycosat,cbc,highs",
                           settings="tuned,default")
    assert [(c.label, c.settings) for c in configs] == [
        ("SAT pairwise/pycosat", None), ("ILP lines/cbc", "tuned"), ("ILP lines/cbc, default", "default"),
        ("ILP lines/highs", "tuned")]
    assert [c.settings for c in make_configs("ilp", solvers="highs", settings="default,tuned")] == ["tuned"]
    assert [c.settings for c in make_configs("ilp", solvers="highs", settings="default")] == ["tuned"]
    rows = [{"n": 8, "method": "ilp", "formulation": "lines", "solver": "cbc", "settings": s, "repeat": 1,
             "status": "solved", "total_seconds": 0.1} for s in ("default", "tuned")]
    assert [e["config"] for e in summarise(rows)] == ["ILP lines/cbc", "ILP lines/cbc, default"]


# -------------------------------------------------------------------------------------- parallel runs


def test_jobs_run_the_same_plan(tmp_path):
    one = run_sweep(TINY, [4, 5, 6], repeat=2, out=tmp_path / "one.csv", progress=False)
    two = run_sweep(TINY, [4, 5, 6], repeat=2, out=tmp_path / "two.csv", progress=False, jobs=2)
    assert sorted(map(row_key, one)) == sorted(map(row_key, two)) == sorted(map(row_key, read_results(
        tmp_path / "two.csv")))
    assert all(r["status"] == "solved" and r["verified"] for r in two)
    assert json.loads(meta_path(tmp_path / "two.csv").read_text())["sweep"]["jobs"] == 2


def test_interrupted_parallel_sweep_resumes(tmp_path):
    out = tmp_path / "r.csv"

    with pytest.raises(SweepInterrupted):
        run_sweep(TINY, [4, 5, 6, 7], repeat=1, out=out, progress=False, on_row=_interrupt_after(3), jobs=2)
    assert len(read_results(out)) == 3
    run_sweep(TINY, [4, 5, 6, 7], repeat=1, out=out, progress=False, resume=True, jobs=2)
    keys = [row_key(r) for r in read_results(out)]
    assert len(keys) == len(set(keys)) == 8


def test_stop_kills_every_parallel_run(monkeypatch, tmp_path):
    pid_file = tmp_path / "child.pid"
    monkeypatch.setenv(fake_jobs.PID_FILE_ENV, str(pid_file))
    monkeypatch.setattr(worker, "run_job", fake_jobs.sleeper)
    answered: list[dict] = []
    # stop once both runs are under way and ready to be judged: n = 6 has answered (its row arrived) and the
    # n = 5 run, which never answers, has started its solver-like child (it wrote the child's pid)
    rows = run_sweep([TINY[0]], [5, 6], repeat=1, timeout=fake_jobs.FOREVER, progress=False, jobs=2,
                     on_row=answered.append, stop=lambda: bool(answered) and pid_file.exists() and bool(pid_file.read_text()))
    # stopped, not waited for: waiting would have given the run that never answers a timeout row at its limit
    assert [(r["n"], r["status"]) for r in rows] == [(6, "solved")]
    child = int(pid_file.read_text())
    end = time.monotonic() + 60  # a bound on the wait for the kill to land, not a measurement
    while not gone(child) and time.monotonic() < end:
        time.sleep(0.05)
    assert gone(child)


def test_jobs_and_memory_limit_options(capsys, tmp_path):
    with pytest.raises(InputError, match="jobs"):
        run_sweep(TINY, [4], jobs=0, progress=False)
    code, _, err = cli(capsys, "bench", "--n", "4", "--methods", "sat", "--out", tmp_path / "a.csv", "--jobs", "x")
    assert code == 2 and "--jobs" in err
    code, _, err = cli(capsys, "bench", "--n", "4", "--methods", "sat", "--out", tmp_path / "b.csv",
                       "--memory-limit", "lots")
    assert code == 2 and "--memory-limit" in err
    code, _, err = cli(capsys, "bench", "--n", "4", "--methods", "sat", "--out", tmp_path / "c.csv", "--jobs", "64",
                       "--memory-limit", "2G", "--quiet")
    assert code == 0 and "physical cores" in err
    meta = json.loads(meta_path(tmp_path / "c.csv").read_text())
    assert meta["sweep"]["memory_limit"] == 2 * 1024**3 and meta["sweep"]["jobs"] == 64


def test_plain_instances_reorder_the_formula(tmp_path):
    from nqueens_kit.bench.sweep import order_seed, plan_runs
    from nqueens_kit.methods.sat.solve import permuted

    runs = plan_runs([Choice("sat", "pairwise", "pycosat")], [8], repeat=2, instances=3, seed=4)
    orders = [run.order for run in runs]
    assert len(set(orders)) == 3 and orders[0] == orders[1] == order_seed(8, 4, 1)  # repeats share an instance
    assert plan_runs([Choice("sat", "pairwise", "pycosat")], [8], repeat=1)[0].order is None
    clauses, renumber = permuted([[1, -2, 3], [2], [-3, -1]], 3, order=7)
    assert sorted(renumber) == [1, 2, 3]
    back = {new: old for old, new in enumerate(renumber, start=1)}
    restored = sorted(sorted(back[abs(l)] * (1 if l > 0 else -1) for l in c) for c in clauses)
    assert restored == sorted(sorted(c) for c in [[1, -2, 3], [2], [-3, -1]])
    rows = run_sweep([Choice("sat", "sequential", "pycosat"), Choice("ilp", "lines", "cbc")], [12], repeat=1,
                     instances=3, seed=2, out=tmp_path / "r.csv", progress=False)
    assert [r["instance"] for r in rows] == [1, 1, 2, 2, 3, 3]
    assert all(r["status"] == "solved" and r["verified"] and r["seed"] == 2 for r in rows)
    with pytest.raises(InputError, match="construct cannot honour reordered"):
        run_sweep([Choice("construct")], [8], instances=2, progress=False)


def test_summary_separates_instances_from_repeats():
    rows = [{"n": 8, "method": "sat", "encoding": "pairwise", "solver": "pycosat", "repeat": r, "instance": i,
             "status": "solved", "total_seconds": base * (1.1 if r == 2 else 1.0), "time_limit": 10.0}
            for i, base in ((1, 0.1), (2, 0.4)) for r in (1, 2)]
    entry = summarise(rows)[0]
    assert entry["instances"] == 2 and entry["runs"] == 4
    assert entry["between_instances"] == pytest.approx(4.0) and entry["between_repeats"] == pytest.approx(1.1)
    single = summarise(rows[:2])[0]
    assert single["between_instances"] is None and single["between_repeats"] == pytest.approx(1.1)


def test_fresh_children_keep_numerical_libraries_on_one_thread(monkeypatch):
    from nqueens_kit.runtime import isolate

    monkeypatch.delenv("OPENBLAS_NUM_THREADS", raising=False)
    monkeypatch.setenv("OMP_NUM_THREADS", "3")  # a user's own choice is kept
    run = isolate.run_in_child(fake_jobs.thread_settings, fresh=True, time_limit=60)
    assert run.status == "done"
    assert run.value["OPENBLAS_NUM_THREADS"] == "1" and run.value["MKL_NUM_THREADS"] == "1"
    assert run.value["OMP_NUM_THREADS"] == "3"


def test_frontier_doubles_then_bisects(monkeypatch, capsys):
    from nqueens_kit.bench import frontier as module

    tried = []

    def fake(config, n, limit, order=None):  # "solves" up to n = 50 within the limit
        tried.append(n)
        ok = n <= 50
        return ok, {"status": "solved" if ok else "timeout", "total_seconds": 0.1 if ok else limit}

    monkeypatch.setattr(module, "_attempt", fake)
    row = module.frontier([Choice("sat", "pairwise", "pycosat")], limit=1.0, start=8, max_n=1000, orderings=1)[0]
    assert row["largest_n"] == 50 or (row["largest_n"] >= 46 and row["first_failure"] - row["largest_n"] <= 5)
    assert tried[:4] == [8, 16, 32, 64] and row["first_failure"] > 50 and row["attempts"] == len(tried)
    monkeypatch.undo()
    with pytest.raises(InputError, match="start"):
        module.frontier([Choice("construct")], start=2)
    real = module.frontier([Choice("construct")], limit=30, start=8, max_n=40)[0]
    assert real["largest_n"] == 40 and real["first_failure"] is None
    code, out, err = cli(capsys, "frontier", "--methods", "construct", "--limit", "30", "--max-n", "64", "--json")
    assert code == 0 and json.loads(out)["frontier"][0]["largest_n"] == 64


def test_the_frontier_over_orderings_takes_the_majority(monkeypatch, capsys):
    """n is solved when most of its orderings are; one lucky ordering (n = 56 here) or one unlucky one
    (n = 48) does not move the frontier, where a single run of the plain model would."""
    from nqueens_kit.bench import frontier as module
    from nqueens_kit.bench.sweep import order_seed

    seeds = {order_seed(n, 1, i): (n, i) for n in range(4, 200) for i in (1, 2, 3)}
    runs = []

    def fake(config, n, limit, order=None):
        instance = seeds[order][1] if order is not None else 3  # the plain model: as unlucky as ordering 3
        assert order is None or seeds[order][0] == n  # each n has its own orderings
        runs.append((n, instance))
        ok = n <= 48 and (n, instance) != (48, 3) or (n, instance) == (56, 1)
        return ok, {"status": "solved" if ok else "timeout", "total_seconds": 0.1 * instance if ok else limit}

    monkeypatch.setattr(module, "_attempt", fake)
    row = module.frontier([Choice("sat", "pairwise", "pycosat")], limit=1.0, start=8, max_n=1000, orderings=3)[0]
    assert (row["largest_n"], row["first_failure"]) == (48, 52)
    assert (row["orderings"], row["run_orderings"], row["solved_orderings"]) == (3, 2, 2)  # the third not needed
    assert (56, 3) in runs  # one lucky ordering of 56 and one unlucky: the third decided it
    assert row["seconds"] == pytest.approx(0.15) and row["times"] == [0.1, 0.2]
    assert (16, 3) not in runs and (64, 3) not in runs  # a decided majority stops the runs of n
    assert row["attempts"] == len(runs)
    single = module.frontier([Choice("sat", "pairwise", "pycosat")], limit=1.0, start=8, max_n=1000, orderings=1)[0]
    assert single["orderings"] == 1 and single["largest_n"] < 48  # one order alone: stopped by its bad n
    assert module.frontier([Choice("construct")], limit=1.0, start=8, max_n=16, orderings=3)[0]["orderings"] == 1
    with pytest.raises(InputError, match="orderings is a whole number"):
        module.frontier([Choice("construct")], orderings=0)
    monkeypatch.undo()
    code, out, err = cli(capsys, "frontier", "--methods", "sat", "--encodings", "sequential", "--limit", "5",
                         "--max-n", "16", "--orderings", "2")
    assert code == 0 and "orderings solved" in out and "2 of 2" in out


def test_count_frontier_goes_up_by_one_and_checks_the_published_count(monkeypatch, capsys):
    from nqueens_kit.bench import frontier as module
    from nqueens_kit.problem.results import CountResult

    real = module.count_frontier([Choice("sat", "sequential", "pycosat"), Choice("backtrack")], limit=60, start=6,
                                 max_n=9)
    assert [(r["largest_n"], r["count"], r["first_failure"], r["attempts"]) for r in real] == [(9, 352, None, 4)] * 2
    calls = []

    def fake_count(n, method, variant, solver, settings=None, time_limit=None):
        calls.append(n)
        if n == 10:  # a wrong total stops the frontier and says why
            return CountResult(n=n, count=723, method=method, seconds=0.1)
        return CountResult(n=n, count=published_count(n), method=method, seconds=0.1)

    monkeypatch.setattr(module, "count", fake_count)
    row = module.count_frontier([Choice("backtrack")], limit=5, start=8, max_n=20)[0]
    assert calls == [8, 9, 10] and row["largest_n"] == 9 and row["first_failure"] == 10
    assert row["why"] == "counted 723, not 724"
    monkeypatch.undo()
    code, out, _ = cli(capsys, "frontier", "--count", "--methods", "backtrack", "--limit", "30", "--start", "5",
                       "--max-n", "7", "--json")
    answer = json.loads(out)
    assert code == 0 and answer["task"] == "count" and answer["frontier"][0]["count"] == 40
    code, out, _ = cli(capsys, "frontier", "--count", "--methods", "backtrack", "--limit", "30", "--start", "5",
                       "--max-n", "6")
    assert code == 0 and "boards" in out and "none up to 6" in out


def test_dask_local_cluster_runs_the_plan_and_resumes(tmp_path):
    """Through the command line in a process of its own: a local cluster leaves multiprocessing's resource
    tracker behind for the life of the process that started it."""
    pytest.importorskip("distributed")
    out = tmp_path / "r.csv"
    command = [sys.executable, "-m", "nqueens_kit", "bench", "--n", "4:6", "--methods", "sat,construct",
               "--encodings", "pairwise", "--repeat", "2", "--out", str(out), "--quiet", "--dask", "local",
               "--jobs", "2"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    plan = sorted(map(row_key, run_sweep(TINY, [4, 5, 6], repeat=2, progress=False)))
    rows = read_results(out)
    assert sorted(map(row_key, rows)) == plan and all(r["status"] == "solved" and r["verified"] for r in rows)
    assert json.loads(meta_path(out).read_text())["sweep"]["dask"] == "local"
    lines = out.read_text().splitlines(keepends=True)
    out.write_text("".join(lines[:-4]))  # as if the sweep had stopped four runs early
    done = subprocess.run([*command[:-2], "--resume"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert sorted(map(row_key, read_results(out))) == plan


def test_dask_bad_address_is_one_line(tmp_path, monkeypatch):
    pytest.importorskip("distributed")
    monkeypatch.setattr("nqueens_kit.bench.sweep.DASK_CONNECT_SECONDS", 1.0)  # nothing listens: no need to wait
    with pytest.raises(InputError, match="cannot reach the Dask scheduler"):
        run_sweep(TINY, [4], repeat=1, progress=False, dask="tcp://127.0.0.1:9")


def test_phase_study_matches_backtracking():
    from nqueens_kit.bench.phase import phase_study, phase_summary
    from nqueens_kit.methods.search.backtrack import iter_backtrack
    from nqueens_kit.problem.board import Problem
    from nqueens_kit.problem.instances import parse_cells_text

    rows = phase_study([Choice("sat", "pairwise", "pycosat")], [8], [0.0, 0.25, 0.5], instances=4, timeout=30, seed=3)
    assert len(rows) == 4 * 3 and {r["density"] for r in rows} == {0.0, 0.25, 0.5}
    for row in rows:
        problem = Problem(8, parse_cells_text(row["preplaced"] or ""))
        completable = next(iter_backtrack(problem), None) is not None
        assert row["status"] == ("solved" if completable else "infeasible"), row["preplaced"]
    summary = phase_summary(rows)
    assert [(s["density"], s["queens"], s["instances"]) for s in summary] == [(0.0, 0, 4), (0.25, 2, 4), (0.5, 4, 4)]
    for entry in summary:
        at = [r for r in rows if r["density"] == entry["density"]]
        assert entry["completable"] == sum(r["status"] == "solved" for r in at)
        assert entry["completable_share"] == entry["completable"] / 4
    assert summary[0]["completable_share"] == 1.0
    with pytest.raises(InputError, match="densities"):
        phase_study([Choice("construct")], [8], [1.0])


def test_phase_summary_counts_timeouts_and_round_trips(tmp_path):
    from nqueens_kit.bench.phase import phase_summary, read_summary, write_summary

    base = {"n": 10, "method": "sat", "encoding": "pairwise", "solver": "pycosat", "density": 0.4,
            "place_random": 4, "time_limit": 5.0}
    rows = [dict(base, repeat=1, instance=i, status=s, total_seconds=t)
            for i, (s, t) in enumerate((("solved", 1.0), ("infeasible", 2.0), ("timeout", 5.0), ("timeout", 5.0)), 1)]
    entry = phase_summary(rows)[0]
    assert (entry["completable"], entry["impossible"], entry["unsolved"]) == (1, 1, 2)
    assert entry["completable_share"] == 0.5 and entry["median_seconds"] is None  # half the runs never finished
    assert entry["par2_seconds"] == pytest.approx((1 + 2 + 10 + 10) / 4)
    path = write_summary([entry], tmp_path / "phase.csv")
    back = read_summary(path)[0]
    assert back["n"] == 10 and back["density"] == 0.4 and back["median_seconds"] is None
    assert back["par2_seconds"] == pytest.approx(entry["par2_seconds"])


def _completable(n, blocked):
    """An independent backtracker: can n queens stand on an n x n board avoiding the blocked cells?"""
    banned = set(blocked)

    def place(row, cols, diagonals, antis):
        if row > n:
            return True
        return any(place(row + 1, cols | {c}, diagonals | {row - c}, antis | {row + c})
                   for c in range(1, n + 1) if (row, c) not in banned and c not in cols
                   and row - c not in diagonals and row + c not in antis)

    return place(1, set(), set(), set())


@pytest.mark.parametrize("family", ["blocked", "excluded-diagonals"])
def test_families_agree_with_an_independent_backtracker(family, tmp_path):
    from nqueens_kit.problem.instances import family_cells, parse_cells_text

    rows = run_sweep([Choice("sat", "sequential", "pycosat"), Choice("ilp", "lines", "cbc")], [6, 8], repeat=1,
                     instances=5, seed=9, family=family, density=0.2, out=tmp_path / "r.csv", progress=False)
    assert len(rows) == 2 * 2 * 5
    for row in rows:
        blocked = parse_cells_text(row["blocked"] or "")
        assert blocked == family_cells(family, row["n"], 0.2, 9, row["instance"])
        truth = _completable(row["n"], blocked)
        assert row["status"] == ("solved" if truth else "infeasible"), (family, row["n"], row["blocked"])
        if truth:
            assert row["verified"]
    kept = read_results(tmp_path / "r.csv")
    assert {r["family"] for r in kept} == {family} and {r["density"] for r in kept} == {0.2}
    assert any(r["status"] == "infeasible" for r in rows) or family == "blocked"


def test_family_refusals(capsys, tmp_path):
    with pytest.raises(InputError, match="needs a density"):
        run_sweep(TINY[:1], [8], family="blocked", progress=False)
    with pytest.raises(InputError, match="cannot honour"):
        run_sweep(TINY, [8], family="blocked", density=0.1, progress=False)
    with pytest.raises(InputError, match="unknown instance family"):
        run_sweep(TINY[:1], [8], family="nope", density=0.1, progress=False)
    code, _, err = cli(capsys, "bench", "--n", "8", "--methods", "sat", "--family", "blocked", "--density", "x",
                       "--out", tmp_path / "r.csv")
    assert code == 2 and "--density" in err and not (tmp_path / "r.csv").exists()


def test_a_blocked_board_that_breaks_every_solution_is_infeasible():
    from nqueens_kit.bench import worker as bench_worker

    spec = {"method": "sat", "variant": "pairwise", "solver": "pycosat", "n": 4, "preplaced": [],
            "blocked": [[1, 2], [1, 3]]}  # both 4-queens solutions use (1,2) or (1,3)
    assert bench_worker.run_worker(spec, 30)["status"] == "infeasible"
    spec["method"], spec["variant"], spec["solver"] = "ilp", "lines", "cbc"
    assert bench_worker.run_worker(spec, 30)["status"] == "infeasible"


def test_phase_study_reports_search_effort():
    """Conflicts (python-sat) and branch-and-bound nodes (ILP) reach the rows and their medians the summary;
    the crossing of one half is interpolated between the densities around it."""
    from nqueens_kit.bench.phase import crossing, hardest, phase_study, phase_summary

    need(SAT_SOLVERS["pysat-minisat"].available(), "python-sat")
    configs = [Choice("sat", "sequential", "pysat-minisat"), Choice("ilp", "lines", "cbc"),
               Choice("sat", "pairwise", "pycosat")]
    rows = phase_study(configs, [8], [0.0, 0.3], instances=3, timeout=30, family="blocked")
    for row in rows:
        assert row["status"] in ("solved", "infeasible")
        if row["solver"] == "pysat-minisat":
            assert isinstance(row["conflicts"], int) and row["nodes"] is None
        elif row["method"] == "ilp":
            assert isinstance(row["nodes"], int) and row["conflicts"] is None
        else:  # pycosat counts nothing it tells
            assert row["conflicts"] is None and row["nodes"] is None
    summary = phase_summary(rows)
    assert {e["family"] for e in summary} == {"blocked"}
    for entry in summary:
        at = [r for r in rows if r["solver"] == entry["solver"] and r["density"] == entry["density"]]
        if entry["solver"] == "pysat-minisat":
            assert entry["median_conflicts"] == statistics.median(r["conflicts"] for r in at)
        if entry["method"] == "ilp":
            assert entry["median_nodes"] == statistics.median(r["nodes"] for r in at)
        if entry["solver"] == "pycosat":
            assert entry["median_conflicts"] is None and entry["median_nodes"] is None
    top = hardest(summary, 8, summary[0]["config"], "median_seconds")
    assert top["median_seconds"] == max(e["median_seconds"] for e in summary if e["config"] == summary[0]["config"])
    shares = [{"n": 8, "config": "c", "density": d, "completable_share": s}
              for d, s in ((0.0, 1.0), (0.2, 0.75), (0.4, 0.25), (0.6, 0.0))]
    assert crossing(shares, 8) == pytest.approx(0.3)
    assert crossing(shares[:2], 8) is None


def test_findings_read_each_configurations_own_effort():
    from nqueens_kit.bench.phase import findings

    summary = []
    for d, share, conflicts, par2 in ((0.0, 1.0, 100, 0.01), (0.5, 0.8, 900, 0.02), (0.7, 0.3, 300, 0.05),
                                      (0.9, 0.0, 5, 0.01)):
        summary.append({"family": "blocked", "n": 20, "config": "SAT sequential/pysat-minisat", "density": d,
                        "completable_share": share, "median_conflicts": conflicts, "median_nodes": None,
                        "par2_seconds": par2})
        summary.append({"family": "blocked", "n": 20, "config": "SAT pairwise/pycosat", "density": d,
                        "completable_share": share, "median_conflicts": None, "median_nodes": None,
                        "par2_seconds": par2})
    found = {f["config"]: f for f in findings(summary)}
    sat = found["SAT sequential/pysat-minisat"]
    assert sat["cost"] == "median_conflicts" and sat["hardest"] == 0.5 and sat["at_zero"] == 100
    assert sat["crossing"] == pytest.approx(0.62) and not sat["near"]  # 0.12 away
    plain = found["SAT pairwise/pycosat"]
    assert plain["cost"] == "par2_seconds" and plain["hardest"] == 0.7 and plain["near"]


def test_phase_summary_keeps_families_apart_and_censors_effort():
    from nqueens_kit.bench.phase import phase_summary

    base = {"n": 10, "method": "sat", "encoding": "sequential", "solver": "pysat-minisat", "density": 0.0,
            "time_limit": 5.0}
    rows = [dict(base, family=family, repeat=1, instance=i, status="solved", total_seconds=0.1, conflicts=c)
            for family in ("blocked", "excluded-diagonals") for i, c in enumerate((10, 20, 30), 1)]
    summary = phase_summary(rows)
    assert sorted(e["family"] for e in summary) == ["blocked", "excluded-diagonals"]
    assert all(e["instances"] == 3 and e["median_conflicts"] == 20 for e in summary)
    one_out = [dict(r, status="timeout", conflicts=None, total_seconds=5.0) if r["instance"] == 1 else r
               for r in rows if r["family"] == "blocked"]
    assert phase_summary(one_out)[0]["median_conflicts"] == 30  # the unfinished run counts as the most
    two_out = [dict(r, status="timeout", conflicts=None, total_seconds=5.0) if r["instance"] < 3 else r
               for r in rows if r["family"] == "blocked"]
    assert phase_summary(two_out)[0]["median_conflicts"] is None


def test_count_frontier_refuses_what_it_cannot_do():
    from nqueens_kit.bench.frontier import count_frontier

    with pytest.raises(InputError, match="starts at n = 27 at most"):
        count_frontier([Choice("backtrack")], limit=5, start=30)
    with pytest.raises(InputError, match="construct cannot count"):
        count_frontier([Choice("backtrack"), Choice("construct")], limit=5, start=8, max_n=8)


# --------------------------------------------------------------------- an answer after the limit is not solved


def test_an_answer_after_the_limit_is_a_timeout_row_and_one_in_time_is_solved(monkeypatch):
    on_time = run_sweep(TINY[:1], [6], repeat=1, timeout=60, progress=False)
    assert [r["status"] for r in on_time] == ["solved"] and on_time[0]["verified"] is True
    monkeypatch.setattr(worker, "run_job", fake_jobs.late_answerer)
    late = run_sweep(TINY[:1], [6], repeat=1, timeout=0.05, progress=False)
    assert [r["status"] for r in late] == ["timeout"] and "time limit" in late[0]["message"]
    assert late[0]["verified"] is None
    summary = censored_times(late)
    assert summary["unsolved"] == 1 and summary["par2"] == pytest.approx(2 * 0.05)  # PAR-2 counts it as a timeout


def test_a_record_that_answered_after_the_limit_makes_a_timeout_row():
    board = construct(8)
    assert verify(8, board)
    run = Run(TINY[0], 8, 1)
    limit = 0.05
    record = {"status": "solved", "queens": [list(q) for q in board], "total_seconds": 4 * limit, "clauses": 744}
    late = make_row(run, record, 0, 0, limit)
    assert late["status"] == "timeout" and late["verified"] is None and "time limit" in late["message"]
    assert late["clauses"] == 744
    in_time = make_row(run, dict(record, total_seconds=limit / 4), 0, 0, limit)
    assert in_time["status"] == "solved" and in_time["verified"] is True
    assert make_row(run, record, 0, 0, None)["status"] == "solved"  # no limit, nothing to pass
    assert make_row(run, dict(record, status="infeasible", queens=[]), 0, 0, limit)["status"] == "timeout"
