"""One answer, one reading: the table of book/outcomes.md held to the code.

The table is parsed, and every outcome in it is produced by a stand-in DIMACS solver (a script written
into ``tmp_path``: an honest one that solves with pycosat, one that gives up, one that hangs, one that
crashes, ones that lie) and run through ``solve``, ``count`` and ``decode`` on the command line, through
``nqueens_kit.solve`` / ``nqueens_kit.count``, and through a ``bench`` sweep, whose row status, PAR-2 and
exit status are checked against the table.  ``memout`` cannot be produced by a DIMACS solver (one that runs
out of memory crashes, an ``error``): its row is held to the code's mapping only.  A count that is not
certified is an outcome of ``count`` alone (the honest stand-in writes no proofs).

Also: ``decode`` refuses a pipe, a device or a folder in one line, without waiting for a writer.
"""

from __future__ import annotations

import csv
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import nqueens_kit as kit
from nqueens_kit.bench.results import read_results
from nqueens_kit.bench.summary import par2, summarise
from nqueens_kit.cli import main
from nqueens_kit.cli.common import exit_code
from nqueens_kit.cli.solve import EXIT_UNCERTIFIED
from nqueens_kit.errors import SolverError
from nqueens_kit.methods.sat.formula import count_formula
from nqueens_kit.problem.results import Status

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "book" / "outcomes.md"

#: The 4-queens board the stand-in solvers and answer files use, and its model over the 16 board variables.
BOARD = {(1, 2), (2, 4), (3, 1), (4, 3)}
MODEL = " ".join(str(v if ((v - 1) // 4 + 1, (v - 1) % 4 + 1) in BOARD else -v) for v in range(1, 17))


def run(capsys, *args):
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


# ------------------------------------------------------------------------------------------ the table


def table() -> dict[str, dict[str, str]]:
    """The outcomes table: outcome -> its cells, keyed by the header's words."""
    lines = [line.strip() for line in PAGE.read_text(encoding="utf-8").splitlines() if line.startswith("|")]
    assert lines, f"{PAGE} has no table"
    header = [cell.strip() for cell in lines[0].strip("|").split("|")]
    assert re.fullmatch(r"-+", lines[1].strip("|").split("|")[0].strip()), "the second line rules the header off"
    rows = {}
    for line in lines[2:]:
        cells = [cell.strip() for cell in line.strip("|").split(" | ")]
        assert len(cells) == len(header), line
        rows[cells[0].replace("`", "")] = dict(zip(header, cells, strict=True))
    return rows


def verbs_exit(row: dict[str, str]) -> int:
    return int(re.fullmatch(r"(\d+)", row["`solve` / `count` / `decode` exit status"]).group(1))


def bench_exit(row: dict[str, str]) -> int:
    return int(re.fullmatch(r"(\d+)", row["Exit status of a `bench` run with such rows"]).group(1))


def bench_cell(row: dict[str, str]) -> tuple[str | None, str]:
    """(the row status the bench writes, or None for no row; how PAR-2 counts it: own, twice or none)."""
    cell = row["`bench` row `status`; how PAR-2 counts it"]
    if cell.startswith("no row"):
        return None, "none"
    status = re.match(r"`(\w+)`;", cell).group(1)
    kind = ("twice" if "twice the time limit" in cell else "own" if "its own time" in cell
            else "none" if "left out of PAR-2" in cell else "?")
    return status, kind


OUTCOMES = ["solved", "solved, not certified", "infeasible", "unknown", "timeout", "memout",
            "error: the solver failed", "error: a lie caught", "bad input"]
#: Outcomes of a count alone: a sweep times solves, so no bench row has them.
COUNT_ONLY = ("solved, not certified",)


def test_the_table_has_every_outcome_once():
    rows = table()
    assert list(rows) == OUTCOMES
    statuses = {bench_cell(row)[0] for row in rows.values()} - {None}
    assert statuses == {s.value for s in Status} - {"skipped"}  # every status a run can end in, and no other


@pytest.mark.parametrize("outcome", OUTCOMES)
def test_the_exit_status_and_par2_of_each_outcome_are_the_codes(outcome):
    row = table()[outcome]
    status, kind = bench_cell(row)
    if outcome in COUNT_ONLY:
        assert verbs_exit(row) == EXIT_UNCERTIFIED and row["Exit status of a `bench` run with such rows"] == "no row"
    elif status is not None:
        assert exit_code(Status(status), True if status == "solved" else None) == verbs_exit(row)
        group = [{"n": 8, "method": "sat", "encoding": "pairwise", "solver": "pycosat", "repeat": 1,
                  "status": status, "total_seconds": 0.5, "build_seconds": 0.0, "solve_seconds": 0.5,
                  "time_limit": 10.0}]
        summary = summarise(group)[0]
        expected = {"own": 0.5, "twice": 20.0, "none": None}[kind]
        assert summary["par2"] == expected and par2([], 0, 10.0) is None
        assert summary["errors"] == (status == "error")
    else:
        assert verbs_exit(row) == bench_exit(row) == 2


# ------------------------------------------------------------------------------- stand-in solvers

HONEST = f"""#!{sys.executable}
import sys
import pycosat
numbers, nvars = [], 0
for line in open(sys.argv[-1]):
    words = line.split()
    if not words or words[0] == "c":
        continue
    if words[0] == "p":
        nvars = int(words[2])
        continue
    numbers += map(int, words)
clauses, clause = [], []
for lit in numbers:
    if lit:
        clause.append(lit)
    else:
        clauses.append(clause)
        clause = []
model = pycosat.solve(clauses, vars=nvars)
if model == "UNSAT":
    print("s UNSATISFIABLE")
else:
    print("s SATISFIABLE")
    print("v", " ".join(map(str, model)), "0")
"""

SOLVERS = {
    "honest": HONEST,
    "gives up": '#!/bin/sh\necho "c out of ideas"\necho "s UNKNOWN"\n',
    "hangs": "#!/bin/sh\nexec sleep 120\n",
    "crashes": "#!/bin/sh\nkill -SEGV $$\n",
    # every variable false: an empty board (whatever the formula, no literal beyond it)
    "empty board": "#!/bin/sh\nv=$(sed -n 's/^p cnf \\([0-9]*\\).*/\\1/p' \"$1\")\n"
                   "echo 's SATISFIABLE'\necho \"v $(seq -s ' ' -1 -1 -$v) 0\"\n",
    "contradicts": '#!/bin/sh\necho "s SATISFIABLE"\necho "v 1 -1 0"\n',
}


@pytest.fixture
def solvers(tmp_path) -> dict[str, str]:
    paths = {}
    for name, body in SOLVERS.items():
        path = tmp_path / name.replace(" ", "-")
        path.write_text(body)
        path.chmod(0o755)
        paths[name] = str(path)
    return paths


def cli_json(capsys, *args):
    code, out, err = run(capsys, *args, "--json")
    return code, json.loads(out), err


def one_line_error(code: int, data: dict, err: str, expected: int) -> None:
    assert code == expected and data["status"] == "error" and data["exit"] == expected
    assert err.count("\n") == 1 and err.startswith("nqueens-kit: error: ") and "Traceback" not in err


# -------------------------------------------------------------------------------------- the verbs


def test_solved_through_every_verb(capsys, solvers, tmp_path):
    expected = verbs_exit(table()["solved"])
    code, data, _ = cli_json(capsys, "solve", 4, "--solver", solvers["honest"])
    assert (code, data["status"], data["verified"]) == (expected, "solved", True)
    code, data, _ = cli_json(capsys, "count", 5, "--solver", solvers["honest"])
    assert (code, data["status"], data["count"]) == (expected, "solved", 10)  # OEIS A000170
    answer = tmp_path / "answer.out"
    answer.write_text(f"s SATISFIABLE\nv {MODEL} 0\n")
    code, data, _ = cli_json(capsys, "decode", answer, "--n", 4)
    assert (code, data["status"], data["verified"]) == (expected, "solved", True)
    assert {tuple(q) for q in data["queens"]} == BOARD
    assert kit.solve(4, "sat", solver=solvers["honest"]).status == Status.SOLVED
    assert kit.count(4, "sat", solver=solvers["honest"]).status == Status.SOLVED


def test_an_uncertified_count(capsys, solvers, tmp_path):
    """The honest stand-in writes no proofs: its count of a file is right, and rests on its word; its count of
    n-queens is checked against the published count."""
    expected = verbs_exit(table()["solved, not certified"])
    five = tmp_path / "five.cnf"
    assert main(["cnf", "5", "-o", str(five)]) == 0
    capsys.readouterr()
    code, data, err = cli_json(capsys, "count", "--from-cnf", five, "--solver", solvers["honest"])
    assert (code, data["status"], data["count"], data["certified"], err) == (expected, "solved", 10, False, "")
    code, data, _ = cli_json(capsys, "count", 5, "--solver", solvers["honest"])
    assert (code, data["certified"]) == (verbs_exit(table()["solved"]), True)
    result, _invalid = count_formula(five, solver=solvers["honest"])
    assert result.status == Status.SOLVED and result.extra["certified"] is False


def test_infeasible_through_every_verb(capsys, solvers, tmp_path):
    expected = verbs_exit(table()["infeasible"])
    code, data, _ = cli_json(capsys, "solve", 3, "--solver", solvers["honest"])
    assert (code, data["status"], data["known_by"]) == (expected, "infeasible", "backtracking")
    answer = tmp_path / "answer.out"
    answer.write_text("s UNSATISFIABLE\n")
    code, data, _ = cli_json(capsys, "decode", answer, "--n", 3)
    assert (code, data["status"]) == (expected, "infeasible")
    assert kit.solve(3, "sat", solver=solvers["honest"]).status == Status.INFEASIBLE


@pytest.mark.parametrize("limit", [None, "30"], ids=["no limit", "a limit"])
def test_unknown_is_the_solvers_word_not_a_time_limit(capsys, solvers, tmp_path, limit):
    """A solver that says it does not know, at once: ``unknown`` whether or not there is a time limit, and
    never described as one."""
    expected = verbs_exit(table()["unknown"])
    extra = ["--time-limit", limit] if limit else []
    code, data, err = cli_json(capsys, "solve", 8, "--solver", solvers["gives up"], *extra)
    assert (code, data["status"], err) == (expected, "unknown", "")
    assert "s UNKNOWN" in data["message"] and "time limit" not in data["message"]
    code, data, err = cli_json(capsys, "count", 6, "--solver", solvers["gives up"], *extra)
    assert (code, data["status"], data["complete"], err) == (expected, "unknown", False, "")
    assert "lower bound" in data["note"] and "s UNKNOWN" in data["note"] and "time limit" not in data["note"]
    for text, said in (("s UNKNOWN\n", "'s UNKNOWN'"), ("INDET\n", "'INDET'")):
        answer = tmp_path / "answer.out"
        answer.write_text(text)
        code, data, _ = cli_json(capsys, "decode", answer, "--n", 4)
        assert (code, data["status"]) == (expected, "unknown")
        assert said in data["message"] and "time limit" not in data["message"]
    time_limit = float(limit) if limit else None
    result = kit.solve(8, "sat", solver=solvers["gives up"], time_limit=time_limit)
    assert result.status == Status.UNKNOWN and "time limit" not in result.message
    assert kit.count(6, "sat", solver=solvers["gives up"], time_limit=time_limit).status == Status.UNKNOWN


def test_timeout_is_the_kits_limit(capsys, solvers):
    expected = verbs_exit(table()["timeout"])
    code, data, _ = cli_json(capsys, "solve", 8, "--solver", solvers["hangs"], "--time-limit", 1)
    assert (code, data["status"]) == (expected, "timeout") and "time limit of 1 s" in data["message"]
    code, data, _ = cli_json(capsys, "count", 6, "--solver", solvers["hangs"], "--time-limit", 1)
    assert (code, data["status"], data["complete"]) == (expected, "timeout", False)
    assert kit.solve(8, "sat", solver=solvers["hangs"], time_limit=1).status == Status.TIMEOUT


def test_a_failed_solver_is_an_error_through_every_verb(capsys, solvers, tmp_path):
    expected = verbs_exit(table()["error: the solver failed"])
    for args in (("solve", 8), ("count", 6)):
        code, data, err = cli_json(capsys, *args, "--solver", solvers["crashes"])
        one_line_error(code, data, err, expected)
        assert "SIGSEGV" in data["error"]
    answer = tmp_path / "answer.out"
    answer.write_text("s SATISFIABLE\nv 1 -2\n")  # cut off
    code, data, _ = cli_json(capsys, "decode", answer, "--n", 4)
    assert (code, data["status"]) == (expected, "error") and "incomplete" in data["message"]
    with pytest.raises(SolverError, match="SIGSEGV"):
        kit.solve(8, "sat", solver=solvers["crashes"])


def test_a_lie_caught_is_an_error_through_every_verb(capsys, solvers, tmp_path):
    expected = verbs_exit(table()["error: a lie caught"])
    code, data, err = cli_json(capsys, "solve", 4, "--solver", solvers["empty board"])
    assert (code, data["status"], data["verified"], err) == (expected, "solved", False, "")
    code, out, _ = run(capsys, "solve", 4, "--solver", solvers["empty board"])
    assert code == expected and "NOT VALID" in out
    for args in (("count", 5, "--solver", solvers["empty board"]), ("solve", 8, "--solver", solvers["contradicts"]),
                 ("count", 5, "--solver", solvers["contradicts"])):
        code, data, err = cli_json(capsys, *args)
        one_line_error(code, data, err, expected)
    empty = tmp_path / "empty.out"
    empty.write_text(f"s SATISFIABLE\nv {' '.join(str(-v) for v in range(1, 17))} 0\n")
    code, data, _ = cli_json(capsys, "decode", empty, "--n", 4)
    assert (code, data["status"], data["verified"]) == (expected, "solved", False)
    for text, fragment in (("s SATISFIABLE\nv 1 -1 0\n", "literal -1 contradicts 1"),
                           ("s SATISFIABLE\ns UNSATISFIABLE\n", "contradicts"),
                           (f"s UNSATISFIABLE\nv {MODEL} 0\n", "only a SAT answer has one"),
                           (f"s SATISFIABLE\nv {MODEL} 0\nv 1 0\n", "after the model's ending 0")):
        answer = tmp_path / "answer.out"
        answer.write_text(text)
        code, data, err = cli_json(capsys, "decode", answer, "--n", 4)
        one_line_error(code, data, err, expected)
        assert fragment in data["error"] and str(answer) in data["error"]
    assert kit.solve(4, "sat", solver=solvers["empty board"]).verified is False
    with pytest.raises(SolverError, match="contradicts"):
        kit.solve(8, "sat", solver=solvers["contradicts"])
    with pytest.raises(SolverError, match="returned a board"):
        kit.count(5, "sat", solver=solvers["empty board"])


def test_bad_input_is_refused_before_anything_runs(capsys, solvers, tmp_path):
    expected = verbs_exit(table()["bad input"])
    junk = tmp_path / "junk.out"
    junk.write_text("p cnf 4 1\n1 2 0\n")  # a formula, not a solver's answer
    for args in (("solve", "eight"), ("count", 0), ("decode", junk, "--n", 4), ("decode", tmp_path, "--n", 4)):
        code, data, err = cli_json(capsys, *args)
        one_line_error(code, data, err, expected)


# ------------------------------------------------------------------------------------------ bench


def bench(capsys, tmp_path, solver: str, n: int = 6, timeout: float = 20):
    out = tmp_path / f"{Path(solver).name}-{n}.csv"
    code, _, err = run(capsys, "bench", "--methods", "sat", "--encodings", "pairwise", "--solvers", solver, "--n", n,
                       "--repeat", 1, "--timeout", timeout, "--out", out, "--quiet")
    with open(out, newline="") as rows:
        return code, list(csv.DictReader(rows)), err, out


@pytest.mark.parametrize(("outcome", "solver", "n", "timeout"), [
    ("solved", "honest", 6, 20),
    ("infeasible", "honest", 3, 20),
    ("unknown", "gives up", 6, 20),
    pytest.param("timeout", "hangs", 6, 1, marks=pytest.mark.deep),  # waits out the limit and the stop: deep
    ("error: the solver failed", "crashes", 6, 20),
    ("error: a lie caught", "empty board", 6, 20),
    ("error: a lie caught", "contradicts", 6, 20),
])
def test_bench_rows_and_exit_status(capsys, solvers, tmp_path, outcome, solver, n, timeout):
    row_status, kind = bench_cell(table()[outcome])
    code, rows, err, out = bench(capsys, tmp_path, solvers[solver], n, timeout)
    assert code == bench_exit(table()[outcome]), err
    assert [row["status"] for row in rows] == [row_status]
    entry = summarise(read_results(out))[0]
    took = float(rows[0]["total_seconds"]) if rows[0]["total_seconds"] else None
    expected_par2 = {"own": took, "twice": 2 * timeout, "none": None}[kind]
    assert entry["par2"] == pytest.approx(expected_par2) if expected_par2 is not None else entry["par2"] is None
    if outcome == "unknown":
        assert "s UNKNOWN" in rows[0]["message"] and "time limit" not in rows[0]["message"]
        assert float(rows[0]["total_seconds"]) < timeout
    if row_status == "error":  # one line says how many, and where to look
        lines = [line for line in err.splitlines() if "error" in line]
        assert lines == [f"nqueens-kit: 1 of 1 rows are errors (a solver failed or gave a wrong answer); the message "
                         f"column of the error rows in {out} says why"]
        assert rows[0]["verified"] == "" and rows[0]["message"]
    else:
        assert "error" not in err
    if solver == "empty board":
        assert "does NOT verify" in rows[0]["message"]


def test_bench_refuses_bad_input_without_a_row(capsys, solvers, tmp_path):
    expected = bench_exit(table()["bad input"])
    out = tmp_path / "never.csv"
    code, _, err = run(capsys, "bench", "--methods", "sat", "--solvers", solvers["honest"], "--n", "0",
                       "--out", out, "--quiet")
    assert code == expected and err.count("\n") == 1 and not out.exists()


# ------------------------------------------------------------------------ decode reads regular files


def test_decode_refuses_a_pipe_without_waiting_for_a_writer(tmp_path):
    fifo = tmp_path / "answer.fifo"
    os.mkfifo(fifo)
    proc = subprocess.run([sys.executable, "-m", "nqueens_kit", "decode", str(fifo), "--n", "4"],
                          capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert proc.returncode == 2 and proc.stdout == "" and proc.stderr.count("\n") == 1
    assert f"{fifo} is a FIFO (named pipe), not a regular file" in proc.stderr


@pytest.mark.parametrize(("path", "what"), [("/dev/null", "a character device"), ("/dev/zero", "a character device")])
def test_decode_refuses_a_device(capsys, path, what):
    if not os.path.exists(path):
        pytest.skip(f"no {path} here")
    code, out, err = run(capsys, "decode", path, "--n", 4)
    assert code == 2 and out == "" and err.count("\n") == 1 and f"{path} is {what}, not a regular file" in err


def test_decode_refuses_a_folder_and_reads_through_a_symlink(capsys, tmp_path):
    code, out, err = run(capsys, "decode", tmp_path, "--n", 4)
    assert code == 2 and out == "" and err.count("\n") == 1 and "is a folder" in err
    answer = tmp_path / "answer.out"
    answer.write_text(f"s SATISFIABLE\nv {MODEL} 0\n")
    link = tmp_path / "link.out"
    link.symlink_to(answer)
    code, out, _ = run(capsys, "decode", link, "--n", 4)
    assert code == 0 and "solved, verified" in out


def test_a_resumed_sweep_keeps_an_unknown_row(capsys, solvers, tmp_path):
    """The solver's own "unknown" is an outcome, like a timeout: a resumed sweep keeps the row, runs nothing."""
    code, rows, err, out = bench(capsys, tmp_path, solvers["gives up"], 6, 20)
    assert [row["status"] for row in rows] == ["unknown"], err
    before = out.read_bytes()
    code, _, err = run(capsys, "bench", "--methods", "sat", "--encodings", "pairwise", "--solvers",
                       solvers["gives up"], "--n", 6, "--repeat", 1, "--timeout", 20, "--out", out, "--quiet",
                       "--resume")
    assert code == bench_exit(table()["unknown"]), err
    assert out.read_bytes() == before
