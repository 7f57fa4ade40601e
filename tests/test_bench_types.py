"""The typed records of a sweep: a solver's counts given as text, rows read back, results as JSON."""

from __future__ import annotations

import json

from nqueens_kit.bench import worker
from nqueens_kit.bench.results import COLUMNS, read_results, row_text
from nqueens_kit.bench.sweep import Run, make_row
from nqueens_kit.methods import Choice
from nqueens_kit.problem.board import Problem
from nqueens_kit.problem.results import CountResult, SolveResult, Status


def test_counts_given_as_text_are_numbers():
    unread: list[str] = []
    stats = {"nodes": "1234", "conflicts": 56, "a": 7.0, "b": " 89 ", "c": "1.5e3", "d": None}
    assert [worker.count_of(stats, key, unread) for key in ("nodes", "conflicts", "a", "b", "c", "d", "e")] == [
        1234, 56, 7, 89, 1500, None, None]
    assert unread == []


def test_a_count_that_is_no_number_is_said_not_dropped():
    unread: list[str] = []
    stats = {"nodes": "many", "conflicts": 2.5, "x": True, "y": float("inf"), "z": -3}
    assert [worker.count_of(stats, key, unread) for key in stats] == [None] * 5
    assert len(unread) == 5 and "nodes 'many'" in unread[0]


def test_run_job_reads_a_minizinc_style_node_count(monkeypatch):
    """A solver's statistics line gives text: the row's nodes column gets the number, and a count that is
    not one is named in the message."""
    def fake_solve(problem, method, *args, **kwargs):
        return SolveResult.of(problem, "construct", Status.SOLVED, queens=((2, 1), (4, 2), (1, 3), (3, 4)),
                              stats={"nodes": "1234", "conflicts": "n/a"}).check()

    monkeypatch.setattr(worker, "solve", fake_solve)
    monkeypatch.setattr(worker.isolate, "ready", lambda: None)
    run = Run(Choice("construct"), 4, 1)
    record = worker.run_job(run.spec(), None)
    assert record["nodes"] == 1234 and record["conflicts"] is None
    assert "conflicts 'n/a' is not a number" in record["message"]
    row = make_row(run, record, 0, 0, None)
    assert row["nodes"] == 1234 and row["status"] == "solved" and row["verified"] is True
    assert "conflicts 'n/a'" in row["message"]


def test_rows_read_back_typed(tmp_path):
    run = Run(Choice("construct"), 8, 1)
    row = make_row(run, {"status": "solved", "queens": [[1, 1]], "total_seconds": 0.25, "nodes": 12}, 0, 0, 5.0)
    path = tmp_path / "r.csv"
    path.write_text(row_text(dict(zip(COLUMNS, COLUMNS, strict=True))) + row_text(row), encoding="utf-8")
    [back] = read_results(path)
    assert back["status"] == "error"  # one queen on an 8 x 8 board does not verify
    assert back["n"] == 8 and back["nodes"] == 12 and back["total_seconds"] == 0.25 and back["time_limit"] == 5.0


def test_solve_and_count_results_serialise_their_shared_fields_alike():
    problem = Problem(5, ((1, 1),), blocked=((2, 2),))
    solved = SolveResult.of(problem, "sat", Status.SOLVED, variant="pairwise", variant_kind="encoding",
                            solver="pycosat", extra={"mark": "x"})
    counted = CountResult(5, 10, "sat", variant="pairwise", solver="pycosat", preplaced=((1, 1),),
                          blocked=((2, 2),), variant_kind="encoding", extra={"mark": "x"})
    a, b = solved.to_dict(), counted.to_dict()
    for key in ("n", "method", "variant", "encoding", "formulation", "solver", "status", "preplaced", "blocked",
                "mark", "known_by"):
        assert a[key] == b[key], key
    assert list(a)[-2:] == list(b)[-2:] == ["blocked", "mark"]
    symmetric = SolveResult.of(Problem(5, break_symmetry=True), "sat", Status.SOLVED).to_dict()
    assert symmetric["break_symmetry"] is True and "blocked" not in symmetric
    assert list(a)[:7] == ["n", "method", "variant", "encoding", "formulation", "solver", "status"]
    assert list(b)[:9] == ["n", "count", "fundamental", "method", "variant", "encoding", "formulation", "solver",
                           "status"]
    assert json.loads(json.dumps(a)) == a and json.loads(json.dumps(b)) == b
    plain = CountResult(4, 2, "backtrack").to_dict()
    assert "blocked" not in plain and "break_symmetry" not in plain
