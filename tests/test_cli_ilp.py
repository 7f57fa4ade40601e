from __future__ import annotations

import json

import pytest

from nqueens_kit.cli import main


def run(capsys, *args):
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("formulation", ["lines", "pairwise", "max-queens"])
def test_solve_ilp_json(capsys, formulation):
    code, out, _ = run(capsys, "solve", 10, "--method", "ilp", "--formulation", formulation, "--place", "1,2", "--json")
    data = json.loads(out)
    assert code == 0 and data["status"] == "solved" and data["verified"] is True
    assert data["method"] == "ilp" and data["formulation"] == formulation and data["constraints"] > 0
    assert data["clauses"] is None and [1, 2] in data["queens"]


def test_solve_ilp_text_and_statuses(capsys):
    code, out, _ = run(capsys, "solve", 8, "--method", "ilp", "--solver", "highs")
    assert code == 0 and "ILP, lines formulation, highs" in out and "constraints" in out
    code, out, _ = run(capsys, "solve", 3, "--method", "ilp", "--json")
    assert code == 1 and json.loads(out)["status"] == "infeasible"
    code, out, _ = run(capsys, "solve", 8, "--method", "ilp", "--place", "1,1", "2,3", "--json")
    assert code == 1 and json.loads(out)["status"] == "infeasible"


def test_count_ilp(capsys):
    code, out, _ = run(capsys, "count", 6, "--method", "ilp", "--solver", "highs", "--json")
    data = json.loads(out)
    assert code == 0 and data["count"] == 4 and data["method"] == "ilp"
    code, out, _ = run(capsys, "count", 5, "--method", "ilp")
    assert code == 0 and "10 solutions" in out and "re-solve" in out


@pytest.mark.parametrize("suffix", [".lp", ".mps"])
def test_lp_export(capsys, tmp_path, suffix):
    target = tmp_path / f"model{suffix}"
    code, out, err = run(capsys, "lp", 6, "--formulation", "pairwise", "-o", target)
    assert code == 0 and target.stat().st_size > 0 and "wrote" in err
    text = target.read_text()
    assert ("diag_6_pair_1_1_2_2" in text) if suffix == ".lp" else ("ROWS" in text)


BAD = [
    (["solve", "8", "--method", "ilp", "--formulation", "clever"], "valid: lines, pairwise, max-queens"),
    (["solve", "8", "--method", "ilp", "--solver", "pycosat"], "SAT solver"),
    (["solve", "8", "--method", "ilp", "--solver", "gurobi"], "unknown ILP solver"),
    (["lp", "8", "-o", "model.txt"], "FILE.lp or FILE.mps"),
    (["lp", "8", "-o", "/no/such/dir/m.lp"], "does not exist"),
    (["lp", "0", "-o", "m.lp"], "whole number"),
    (["count", "8", "--method", "ilp", "--formulation", "x"], "valid: lines"),
]


@pytest.mark.parametrize(("args", "fragment"), BAD, ids=[" ".join(a) for a, _ in BAD])
def test_bad_input(capsys, tmp_path, monkeypatch, args, fragment):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, *args)
    assert code == 2 and fragment in err and err.count("\n") == 1 and "Traceback" not in out + err
