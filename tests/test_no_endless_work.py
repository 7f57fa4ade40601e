"""No work without end: a board file larger than ``verify --n`` is refused before it is read whole,
local search says at once that n = 2 and 3 have no board, and backtracking beyond the sizes it finishes
gets a default time limit and a one-line warning."""

from __future__ import annotations

import json
import time

import pytest

import nqueens_kit.cli.common as cli_common
from nqueens_kit.cli import main
from nqueens_kit.methods.search import backtrack
from nqueens_kit.problem.board import Problem


def run(capsys, *args):
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_board_larger_than_n_is_refused_before_it_is_read(capsys, tmp_path, monkeypatch):
    board = tmp_path / "board.txt"
    board.write_text("".join(f"{c}\n" for c in range(1, 300_001)))
    start = time.perf_counter()
    code, out, err = run(capsys, "verify", board, "--n", 6)
    assert time.perf_counter() - start < 10
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "a board of 300,000 rows" in err and "--n says 6" in err
    # past what is counted, the file is not read to its end: the message says "more than"
    monkeypatch.setattr(cli_common, "_BOARD_CHUNK", 1024)
    monkeypatch.setattr(cli_common, "_BOARD_COUNTED", 8 * 1024)
    code, _, err = run(capsys, "verify", board, "--n", 6)
    assert code == 2 and "a board of more than " in err and "--n says 6" in err and err.count("\n") == 1
    # a column cut by the edge of a chunk is one column
    monkeypatch.setattr(cli_common, "_BOARD_CHUNK", 3)
    (tmp_path / "four.txt").write_text("12\n44\n1\n33\n")
    with pytest.raises(Exception, match="a board of 4 rows"):
        cli_common.read_board_file(str(tmp_path / "four.txt"), 3)
    assert len(cli_common.read_board_file(str(tmp_path / "four.txt"), 4)) == 4


def test_a_json_board_larger_than_n_and_a_smaller_board(capsys, tmp_path):
    record = tmp_path / "board.json"
    record.write_text(json.dumps({"n": 8, "columns": [1, 5, 8, 6, 3, 7, 2, 4]}))
    code, _, err = run(capsys, "verify", record, "--n", 6)
    assert code == 2 and "a board of 8 rows but --n says 6" in err and err.count("\n") == 1
    assert run(capsys, "verify", record, "--n", 8)[0] == 0
    # fewer columns than --n: a board with rows missing, judged NOT VALID as before
    code, out, _ = run(capsys, "verify", record, "--n", 9)
    assert code == 1 and "NOT VALID" in out


@pytest.mark.parametrize("n", [2, 3])
def test_local_search_says_at_once_that_2_and_3_have_no_board(capsys, n):
    start = time.perf_counter()
    code, out, _ = run(capsys, "solve", n, "--method", "local-search", "--time-limit", 60)
    assert time.perf_counter() - start < 10
    assert code == 3 and f"no board: {n}-queens has none by the published counts" in out


def test_backtracking_beyond_what_it_finishes_warns_and_stops(capsys, monkeypatch):
    monkeypatch.setattr(backtrack, "SOLVE_DEFAULT_LIMIT", 1.0)
    start = time.perf_counter()
    code, out, err = run(capsys, "solve", 400, "--method", "backtrack", "--json")
    assert time.perf_counter() - start < 30
    assert code == 3 and json.loads(out)["status"] == "timeout"
    assert err.count("\n") == 1 and "only up to n = 35" in err and "stops after 1 s" in err
    # a limit given, or a size it finishes: no warning
    assert run(capsys, "solve", 400, "--method", "backtrack", "--time-limit", 0.5)[2] == ""
    code, _, err = run(capsys, "solve", backtrack.SOLVE_SURE_UP_TO - 5, "--method", "backtrack")
    assert code == 0 and err == ""


def test_the_backtracking_limit_is_documented_as_it_is(capsys):
    from nqueens_kit.cli.common import Parser
    from nqueens_kit.cli.solve import _solve_options

    parser = Parser(prog="nqueens-kit solve")
    _solve_options(parser)
    assert f"up to n = {backtrack.SOLVE_SURE_UP_TO};" in parser.epilog
    assert f"stops after {backtrack.SOLVE_DEFAULT_LIMIT:g} s" in parser.epilog
    assert backtrack.solve_limit(Problem(backtrack.SOLVE_SURE_UP_TO), None) == (None, None)
    assert backtrack.solve_limit(Problem(backtrack.SOLVE_SURE_UP_TO + 1), 5.0) == (5.0, None)
