"""The command line's ILP paths end to end: solve, count, lp export, solver errors, exit codes."""

from __future__ import annotations

import json
import subprocess
import sys

import pulp
import pytest

import nqueens_kit.solvers.ilp_pulp as ilp_pulp
from nqueens_kit.cli import main
from nqueens_kit.methods.ilp.formulations import FORMULATIONS
from nqueens_kit.problem.board import verify
from nqueens_kit.problem.reference import published_count
from nqueens_kit.solvers import ILP_SOLVERS

from .conftest import need

HAVE_HIGHS = ILP_SOLVERS["highs"].available()


def run(capsys, *args):
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("formulation", list(FORMULATIONS))
def test_solve_json(capsys, formulation):
    code, out, _ = run(capsys, "solve", 10, "--method", "ilp", "--formulation", formulation, "--place", "1,2",
                       "--json")
    data = json.loads(out)
    assert code == 0 and data["status"] == "solved" and data["verified"] is True
    assert data["method"] == "ilp" and data["formulation"] == formulation and data["solver"] == "cbc"
    assert data["constraints"] > 0 and data["clauses"] is None and data["variables"] == 100
    assert [1, 2] in data["queens"] and verify(10, [tuple(q) for q in data["queens"]], [(1, 2)])


def test_json_keys_match_the_sat_side(capsys):
    sat = json.loads(run(capsys, "solve", 8, "--json")[1])
    ilp_data = json.loads(run(capsys, "solve", 8, "--method", "ilp", "--json")[1])
    assert set(sat) == set(ilp_data)
    assert sat["clauses"] and sat["constraints"] is None and ilp_data["constraints"] and ilp_data["clauses"] is None
    assert ilp_data["encoding"] is None and ilp_data["formulation"] == "lines"


def test_solve_text(capsys):
    code, out, _ = run(capsys, "solve", 8, "--method", "ilp")
    assert code == 0 and "(ILP, lines formulation, cbc): solved, verified" in out
    assert "64 variables; 42 constraints; built in" in out
    board = [line for line in out.splitlines() if line and set(line) <= {"Q", ".", " "}]
    assert len(board) == 8 and all(line.count("Q") == 1 for line in board)


@pytest.mark.parametrize(("args", "status", "fragment"), [
    (["solve", 2, "--method", "ilp"], "infeasible", "has no solution"),
    (["solve", 3, "--method", "ilp", "--formulation", "pairwise"], "infeasible", "has no solution"),
    (["solve", 3, "--method", "ilp", "--formulation", "max-queens"], "infeasible", "at most 2 non-attacking"),
    (["solve", 8, "--method", "ilp", "--place", "1,1", "2,3"], "infeasible", "cannot be completed"),
])
def test_infeasible_exit_1(capsys, args, status, fragment):
    code, out, _ = run(capsys, *args)
    assert code == 1 and f": {status}" in out and fragment in out
    code, out, _ = run(capsys, *args, "--json")
    assert code == 1 and json.loads(out)["status"] == status


def test_highs_from_the_command_line(capsys):
    need(HAVE_HIGHS, "highspy (HiGHS)")
    code, out, _ = run(capsys, "solve", 12, "--method", "ilp", "--solver", "highs", "--json")
    data = json.loads(out)
    assert code == 0 and data["solver"] == "highs" and data["verified"] and "nodes" in data["stats"]


def test_timeout_exit_3(capsys, monkeypatch):
    """Simulated: PuLP reports that the solver stopped without an integer solution."""

    def stopped(self, solver=None, **kwargs):
        if hasattr(pulp, "LpSolveStats"):
            return pulp.LpSolveStats(solver="fake", status=pulp.LpSolveStatus.TimeLimit, has_solution=False)
        self.status, self.sol_status = pulp.LpStatusNotSolved, pulp.LpSolutionNoSolutionFound
        return self.status

    monkeypatch.setattr(pulp.LpProblem, "solve", stopped)
    code, out, _ = run(capsys, "solve", 40, "--method", "ilp", "--time-limit", "0.5")
    assert code == 3 and ": timeout" in out and "time limit of 0.5 s" in out
    code, out, _ = run(capsys, "solve", 40, "--method", "ilp", "--time-limit", "0.5", "--json")
    assert code == 3 and json.loads(out)["status"] == "timeout"


def test_count(capsys):
    code, out, _ = run(capsys, "count", 6, "--method", "ilp", "--fundamental", "--json")
    data = json.loads(out)
    assert code == 0 and data["count"] == published_count(6) and data["fundamental"] == 1
    assert data["method"] == "ilp" and data["formulation"] == "lines" and data["encoding"] is None and data["solver"] == "cbc"
    code, out, _ = run(capsys, "count", 5, "--method", "ilp", "--formulation", "pairwise")
    assert code == 0 and "5-queens: 10 solutions [ILP, pairwise formulation, cbc," in out
    assert "11 full re-solves" in out and "--method sat or backtrack" in out
    code, out, _ = run(capsys, "count", 6, "--method", "ilp", "--place", "1,2", "--json")
    assert code == 0 and json.loads(out)["count"] == 1


@pytest.mark.parametrize("suffix", [".lp", ".mps"])
def test_lp_export(capsys, tmp_path, suffix):
    target = tmp_path / f"model{suffix}"
    code, out, err = run(capsys, "lp", 6, "--formulation", "pairwise", "--place", "2,4", "-o", target)
    assert code == 0 and out == "" and err.startswith(f"wrote {target}") and "pairwise formulation" in err
    text = target.read_text()
    assert "diag_6_pair_1_2" in text and "placed_2_4" in text and "row_6" in text
    if suffix == ".mps":
        variables, prob = pulp.LpProblem.fromMPS(str(target))
        prob.solve(ILP_SOLVERS["cbc"].engine(msg=False))
        board = [tuple(map(int, k.split("_")[1:])) for k, v in variables.items() if (v.varValue or 0) > 0.5]
        assert verify(6, board, [(2, 4)])


def test_lp_default_formulation(capsys, tmp_path):
    code, _, err = run(capsys, "lp", 4, "-o", tmp_path / "four.lp")
    assert code == 0 and "lines formulation" in err and "diag_4:" in (tmp_path / "four.lp").read_text()


BAD = [
    (["solve", "8", "--method", "ilp", "--formulation", "clever"], "valid: lines, pairwise, max-queens"),
    (["solve", "8", "--method", "ilp", "--solver", "pycosat"], "pycosat is a SAT solver, not an ILP solver: use --method sat"),
    (["solve", "8", "--method", "ilp", "--solver", "gurobi"], "unknown solver 'gurobi' for --method ilp; valid: cbc, highs"),
    (["solve", "8", "--method", "ilp", "--time-limit", "0"], "positive number of seconds"),
    (["solve", "8", "--method", "ilp", "--place", "1,1", "2,2"], "attack each other"),
    (["count", "8", "--method", "ilp", "--formulation", "x"], "valid: lines"),
    (["count", "8", "--method", "ilp", "--solver", "minisat"], "minisat is a SAT solver, not an ILP solver: use --method sat"),
    (["lp", "8", "-o", "model.txt"], "FILE.lp or FILE.mps"),
    (["lp", "8", "-o", "/no/such/dir/m.lp"], "does not exist"),
    (["lp", "8", "--formulation", "clever", "-o", "m.lp"], "valid: lines"),
    (["lp", "0", "-o", "m.lp"], "whole number"),
    (["lp", "8", "--place", "9,1", "-o", "m.lp"], "off the board"),
]


@pytest.mark.parametrize(("args", "fragment"), BAD, ids=[" ".join(a) for a, _ in BAD])
def test_bad_input_one_line_exit_2(capsys, tmp_path, monkeypatch, args, fragment):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, *args)
    assert code == 2 and fragment in err and err.count("\n") == 1 and "Traceback" not in out + err
    assert list(tmp_path.iterdir()) == []


def test_missing_solvers_one_line_exit_2(capsys, monkeypatch, tmp_path):
    if hasattr(pulp, "HiGHS"):  # PuLP < 2.8 has no HiGHS class at all
        monkeypatch.setattr(pulp.HiGHS, "available", lambda self: False)
    if hasattr(pulp, "PULP_CBC_CMD"):
        monkeypatch.setattr(pulp.PULP_CBC_CMD, "available", lambda self: False)
    monkeypatch.setattr(pulp.COIN_CMD, "defaultPath", lambda self: "cbc")
    monkeypatch.setattr(ilp_pulp, "_cbcbox_binary", lambda: None)
    monkeypatch.setenv("PATH", str(tmp_path))
    code, _, err = run(capsys, "solve", 8, "--method", "ilp", "--solver", "highs")
    assert code == 2 and 'pip install "nqueens-kit[highs]"' in err and err.count("\n") == 1
    code, _, err = run(capsys, "count", 6, "--method", "ilp")
    assert code == 2 and 'pip install "pulp[cbc]"' in err and err.count("\n") == 1
    code, out, _ = run(capsys, "solvers", "--json")
    rows = {row["name"]: row for row in json.loads(out) if row["kind"] == "ILP"}
    assert rows["cbc"]["installed"] is False and "coinor-cbc" in rows["cbc"]["install"]


def test_solvers_lists_ilp(capsys):
    code, out, _ = run(capsys, "solvers", "--json")
    rows = {row["name"]: row for row in json.loads(out) if row["kind"] == "ILP"}
    assert code == 0 and list(rows) == ["cbc", "highs"] and rows["cbc"]["installed"] is True


def test_real_process_has_no_traceback(tmp_path):
    """The installed entry point, in a fresh interpreter: a bad ILP option is one line and exit 2."""
    proc = subprocess.run([sys.executable, "-m", "nqueens_kit", "solve", "8", "--method", "ilp", "--solver",
                           "pycosat"], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
    assert "not an ILP solver" in proc.stderr and "one of the ILP solvers: cbc, highs" in proc.stderr
    proc = subprocess.run([sys.executable, "-m", "nqueens_kit", "solve", "6", "--method", "ilp", "--json"],
                          capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert proc.returncode == 0 and json.loads(proc.stdout)["verified"] is True
    assert list(tmp_path.iterdir()) == []
