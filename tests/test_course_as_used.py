"""The pieces that let a chapter run where a tool is missing, and the runner that checks it does
(``benchmarks/time_chapters.py --check --copy --bare-path``, which ``make test-course`` runs at full size)."""

from __future__ import annotations

import importlib.util
import json
import os
from pathlib import Path

import pytest

from nqueens_kit.course.cp_lessons import first_fail_record, first_fail_table
from nqueens_kit.course.external import external_record, external_table, external_times
from nqueens_kit.course.lessons import running_time
from nqueens_kit.course.stored import data_path, made_by, read_record, stand_in
from nqueens_kit.errors import InputError

ROOT = Path(__file__).resolve().parents[1]


def _runner():
    spec = importlib.util.spec_from_file_location("time_chapters", ROOT / "benchmarks" / "time_chapters.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _program(folder: Path, name: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text("#!/bin/sh\nexit 0\n")
    path.chmod(0o755)
    return path


def test_the_bare_path_hides_the_solver_programs_and_keeps_the_rest(tmp_path, monkeypatch):
    runner = _runner()
    first, second = tmp_path / "usr-bin", tmp_path / "usr-local-bin"
    for name in ("minisat", "cadical", "cryptominisat5", "fzn-gecode", "minizinc", "chromium", "cbc", "ls", "git"):
        _program(first, name)
    _program(second, "ls")  # the first on PATH wins, as for the shell
    _program(second, "mytool")
    (first / "notes.txt").write_text("not a program")
    monkeypatch.setenv("PATH", os.pathsep.join([str(first), str(second), str(tmp_path / "missing")]))
    path, hidden = runner.bare_path(tmp_path / "bare")
    entries = path.split(os.pathsep)
    assert entries[0] == str(Path(runner.sys.executable).parent) and entries[1] == str(tmp_path / "bare")
    linked = {p.name: os.readlink(p) for p in (tmp_path / "bare").iterdir()}
    assert set(linked) == {"ls", "git", "mytool"}
    assert linked["ls"] == str(first / "ls")
    assert set(hidden) >= {"minisat", "cadical", "cryptominisat5", "fzn-gecode", "minizinc", "chromium", "cbc"}


def test_the_runner_refuses_an_unknown_chapter(capsys):
    with pytest.raises(SystemExit):
        _runner().main(["99-no-such-chapter", "--check"])
    assert "unknown chapter '99-no-such-chapter'" in capsys.readouterr().err


def test_a_stored_run_says_where_it_was_made():
    record = read_record("ch8-first-fail.json")
    line = made_by(record)
    assert line.startswith("stored: made by python benchmarks/bench_ch8_first_fail.py")
    machine = record["environment"]["machine"]
    assert f"{machine['cpu']} ({machine['cpu_count']} cores)" in line
    assert "Gecode" in line and "MiniZinc" in line and record["environment"]["created"][:10] in line
    shown = stand_in("MiniZinc", "apt-get install minizinc", record).splitlines()
    assert shown[0] == ("MiniZinc is not installed here, so its stored run is shown instead (to run it live: "
                        "apt-get install minizinc)") and shown[1] == line


def test_a_missing_or_broken_record_is_one_line(tmp_path):
    with pytest.raises(InputError, match=r"^no nothing\.json in "):
        read_record("nothing.json", tmp_path)
    (tmp_path / "list.json").write_text("[1, 2]")
    with pytest.raises(InputError, match="is not a JSON object"):
        read_record("list.json", tmp_path)
    (tmp_path / "bad.json").write_text("{")
    with pytest.raises(InputError, match="cannot read the stored record"):
        read_record("bad.json", tmp_path)
    (tmp_path / "ch8-first-fail.json").write_text(json.dumps({"live": [{"n": 1}], "tail": [], "cp_sat": []}))
    with pytest.raises(InputError, match="'live' is not a list of runs; python benchmarks/bench_ch8_first_fail.py"):
        first_fail_record(str(tmp_path))


def test_the_working_copy_is_read_before_the_kits_own(tmp_path, monkeypatch):
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "ch2-external.json").write_text(json.dumps({"mine": True}))
    monkeypatch.chdir(tmp_path)
    assert read_record("ch2-external.json") == {"mine": True}
    assert data_path("ch8-first-fail.json").parent.parent.name in ("notebooks", "_notebooks")


def test_the_stored_stand_ins_hold_what_the_chapters_show():
    """Chapter 8's first-fail sizes and chapter 2's external solvers, as a machine without them shows them."""
    first_fail = first_fail_record()
    assert [row["n"] for row in first_fail["live"]] == [50, 100, 200, 300, 400]
    assert all(row["solver"] == "minizinc" and row["status"] == "solved" for row in first_fail["live"])
    table = first_fail_table(first_fail["tail"]).splitlines()
    assert len(table) == 1 + len(first_fail["tail"]) and table[0].split()[:3] == ["n", "solver", "answer"]
    external = external_record()
    assert external["minisat_answer"].startswith("SAT\n")
    names = [row["solver"] for row in external["times"]]
    assert names[0] == "pycosat" and {"minisat", "cadical", "picosat", "kissat"} <= set(names)
    assert all(all(row["verified"].values()) for row in external["times"])
    assert len(external_table(external["times"]).splitlines()) == 1 + len(names)


def test_pycosat_alone_is_timed_where_no_program_is_installed():
    rows = external_times([], sizes=(1, 8), repeat=1)
    assert [row["solver"] for row in rows] == ["pycosat"] and rows[0]["verified"] == {"1": True, "8": True}


def test_a_chapters_time_is_processor_time_and_a_minimum():
    line = running_time("05-sat-vs-ilp")
    assert line.startswith("Running time of this chapter: at least ") and "s of processor time" in line
    assert "kernel and solvers included" in line and "busy or slower machine takes longer" in line
