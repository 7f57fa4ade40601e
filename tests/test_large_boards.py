"""Boards held as arrays of columns (ColumnBoard): the same board as the tuple of its cells, checked with numpy,
built by the construction without Python lists, and summarised or written to a file by the command line."""

from __future__ import annotations

import hashlib
import json
import os
import pickle
import stat
from itertools import permutations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from nqueens_kit.cli import main
from nqueens_kit.errors import InputError
from nqueens_kit.methods import solve
from nqueens_kit.methods.search.backtrack import iter_backtrack
from nqueens_kit.methods.search.construct import construct, construction_array, construction_columns
from nqueens_kit.problem.board import (
    LISTED_BOARD_N,
    SYMMETRIES,
    ColumnBoard,
    Problem,
    canonical,
    column_board,
    from_columns,
    orbit,
    transform,
    verify,
    violations,
)
from nqueens_kit.problem.results import SolveResult


def run(capsys, *args):
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def is_solution(n: int, columns) -> bool:
    """An independent check: one queen per row by construction; columns, r - c and r + c all different."""
    columns = [int(c) for c in columns]
    rows = range(1, n + 1)
    return (len(columns) == n and all(1 <= c <= n for c in columns) and len(set(columns)) == n
            and len({r - c for r, c in zip(rows, columns)}) == n and len({r + c for r, c in zip(rows, columns)}) == n)


# ----------------------------------------------------------------------------------------------- the board


def test_a_column_board_is_the_tuple_of_its_cells():
    cells = ((1, 2), (2, 4), (3, 1), (4, 3))
    board = from_columns(np.array([2, 4, 1, 3], dtype=np.int64))
    assert isinstance(board, ColumnBoard) and board.columns.dtype == np.int32
    assert board == cells and cells == board and not board != cells and hash(board) == hash(cells)
    assert board == from_columns(np.array([2, 4, 1, 3])) and board != from_columns(np.array([3, 1, 4, 2]))
    assert board != cells[:3] and board != ((1, 2), (2, 4), (3, 1), (4, 4)) and board != [2, 4, 1, 3]
    assert len({board, cells}) == 1 and {cells: "x"}[board] == "x"
    assert list(board) == list(cells) and board[0] == (1, 2) and board[-1] == (4, 3) and board[1:3] == cells[1:3]
    assert all(type(r) is int and type(c) is int for r, c in board)
    assert (3, 1) in board and (3, 2) not in board and (9, 1) not in board and "3,1" not in board
    with pytest.raises(IndexError):
        board[4]
    with pytest.raises(ValueError):
        board.columns[0] = 7  # read-only
    assert from_columns([2, 4, 1, 3]) == cells and type(from_columns([2, 4, 1, 3])) is tuple  # lists: tuples


def test_from_columns_copies_and_checks_an_array():
    source = np.array([2, 4, 1, 3])
    board = from_columns(source)
    source[0] = 1  # the caller's array is the caller's: the board does not change with it
    assert board[0] == (1, 2)
    for bad in (np.array([[1, 2]]), np.array([1.0, 2.0]), np.array([0, 1]), np.array([-3]),
                np.array([2**40]), np.array([True, False])):
        with pytest.raises(InputError, match="columns"):
            from_columns(bad)


def test_a_column_board_pickles_small_and_reads_short():
    n = 1_000_000
    board = from_columns(construction_array(n))
    data = pickle.dumps(board)
    assert len(data) < 4 * n + 1000  # the array, not a million tuples
    again = pickle.loads(data)
    assert isinstance(again, ColumnBoard) and np.array_equal(again.columns, board.columns)
    assert not again.columns.flags.writeable
    assert len(repr(board)) < 100 and "1,000,000" in repr(board)
    small = from_columns(np.array([2, 4, 1, 3]))
    assert pickle.loads(pickle.dumps(small)) == small


@pytest.mark.parametrize("n", [1, 4, 5, 6, 8])
def test_symmetries_of_a_column_board_agree_with_the_cells(n):
    for cells in iter_backtrack(n):
        board = from_columns(np.array([c for _, c in cells]))
        # the images computed here from SYMMETRIES' own cell maps, independently of the array formulas
        images = [tuple(sorted(f(n, r, c) for r, c in cells)) for _, f in SYMMETRIES]
        for index, (name, _) in enumerate(SYMMETRIES):
            moved = transform(n, board, name)
            assert isinstance(moved, ColumnBoard) and moved == images[index] == transform(n, board, index)
        assert canonical(n, board) == min(images) and isinstance(canonical(n, board), ColumnBoard)
        assert orbit(n, board) == set(images) and len(orbit(n, board)) == len(set(images))


def test_symmetries_of_a_column_board_need_a_permutation():
    with pytest.raises(InputError, match="permutation"):
        canonical(4, from_columns(np.array([1, 1, 2, 3])))
    with pytest.raises(InputError, match="permutation"):
        transform(5, from_columns(np.array([2, 4, 1, 3])), 1)
    assert canonical(4, [(1, 1), (2, 1)]) == ((1, 1), (1, 2))  # lists of cells: as before, any cells


boards = st.integers(1, 30).flatmap(lambda n: st.tuples(
    st.just(n),
    st.one_of(st.permutations(range(1, n + 1)), st.lists(st.integers(1, n + 2), min_size=max(0, n - 1),
                                                          max_size=n + 1)),
    st.lists(st.tuples(st.integers(1, n), st.integers(1, n)), max_size=3),
    st.lists(st.tuples(st.integers(1, n), st.integers(1, n)), max_size=3)))


@given(boards)
def test_verify_of_an_array_agrees_with_verify_of_the_cells(case):
    n, columns, preplaced, blocked = case
    if not columns:
        return
    cells = tuple(enumerate(columns, start=1))
    board = from_columns(np.array(columns))
    assert verify(n, board, preplaced, blocked) == verify(n, cells, preplaced, blocked)
    assert violations(n, board, preplaced, blocked) == violations(n, cells, preplaced, blocked)
    assert verify(n, board, preplaced, blocked) == (is_solution(n, columns) and all(
        columns[r - 1] == c for r, c in preplaced) and not any(len(columns) >= r and columns[r - 1] == c
                                                              for r, c in blocked))


def test_solutions_with_pre_placed_and_blocked_cells_agree():
    n, seen = 6, 0
    for cells in iter_backtrack(n):
        board = from_columns(np.array([c for _, c in cells]))
        for preplaced, blocked in (([cells[2]], [(1, 1)]), ([], [cells[4]]), ([(3, 3)], []), ([cells[0]], [])):
            assert verify(n, board, preplaced, blocked) == verify(n, cells, preplaced, blocked)
            seen += verify(n, board, preplaced, blocked)
    assert seen >= 4  # some of them hold


def test_verify_keeps_refusing_what_is_not_a_board():
    assert not verify(2, [(1, 2, 3), (2, 1)]) and not verify(1, ["1,1"]) and not verify(1, np.array([[1, 1]]))
    with pytest.raises(InputError):
        verify(4, from_columns(np.array([2, 4, 1, 3])), preplaced=5)


def test_a_large_board_with_one_flaw_is_caught_and_explained():
    n = 100_000
    columns = construction_array(n).copy()
    columns[5], columns[6] = columns[6], columns[6]  # two queens in one column
    board = from_columns(columns)
    assert not verify(n, board) and any("share a column" in text for text in violations(n, board))
    assert not verify(n + 1, from_columns(construction_array(n)))  # a row missing


# ------------------------------------------------------------------------------------------- construction


def test_the_construction_from_4_to_200_is_valid_by_an_independent_check():
    for n in range(4, 201):
        array = construction_array(n)
        assert array.dtype == np.int32 and is_solution(n, array.tolist()), n
        result = solve(n, "construct")  # a small board: the tuple of its cells
        assert result.verified and is_solution(n, [c for _, c in result.queens]), n
        assert result.queens == from_columns(array) == construct(n)


def test_the_array_and_the_list_construction_are_the_same():
    sizes = [1, *range(4, 400), *range(100_000, 100_012)]  # every residue mod 6, small and large
    for n in sizes:
        assert construction_array(n).tolist() == construction_columns(n), n
    assert construction_array(2) is None and construction_array(3) is None
    large = solve(LISTED_BOARD_N + 1, "construct")
    assert isinstance(large.queens, ColumnBoard) and large.verified


def test_a_million_queens_by_construction_pass_an_independent_numpy_check():
    n = 1_000_000
    result = solve(n, "construct")
    assert result.verified and isinstance(result.queens, ColumnBoard)
    columns = result.queens.columns.astype(np.int64)
    rows = np.arange(1, n + 1)
    assert len(columns) == n and columns.min() == 1 and columns.max() == n
    assert all(len(np.unique(values)) == n for values in (columns, rows - columns, rows + columns))


def test_symmetry_broken_at_a_million_stays_an_array():
    n = 1_000_000
    result = solve(Problem(n, break_symmetry=True), "construct")
    assert result.verified and isinstance(result.queens, ColumnBoard)
    plain = solve(n, "construct").queens
    first = plain.columns
    # the canonical board is no larger than the board it came from, in the order of its columns
    differ = np.flatnonzero(result.queens.columns != first)
    assert differ.size == 0 or result.queens.columns[differ[0]] < first[differ[0]]


def test_an_array_board_crosses_into_a_child_process():
    result = solve(50_000, "construct", isolated=True)
    assert result.verified and isinstance(result.queens, ColumnBoard) and is_solution(50_000, result.queens.columns)


def test_to_dict_lists_a_small_array_board_as_the_tuple_one():
    board = from_columns(np.array([2, 4, 1, 3]))
    problem = Problem(4)
    a = SolveResult.of(problem, "construct", "solved", queens=board, verified=True).to_dict()
    b = SolveResult.of(problem, "construct", "solved", queens=tuple(board), verified=True).to_dict()
    assert a == b and a["queens"] == [[1, 2], [2, 4], [3, 1], [4, 3]]
    summary = SolveResult.of(problem, "construct", "solved", queens=board).to_dict(listed=False)
    assert summary["queens"] is None and summary["board"]["first_columns"] == [2, 4, 1, 3]
    assert summary["board"]["columns_sha256"] == hashlib.sha256(np.array([2, 4, 1, 3], "<i4").tobytes()).hexdigest()
    assert column_board(((1, 2), (2, 4), (3, 1), (4, 3))) == board and column_board(((2, 1),)) is None


# ---------------------------------------------------------------------------------------------- the command


def test_json_of_a_large_board_is_a_summary_and_the_file_holds_the_board(capsys, tmp_path):
    n = 20_000
    path = tmp_path / "board.txt"
    code, out, _ = run(capsys, "solve", n, "--method", "construct", "--json", "--board-file", path)
    data = json.loads(out)
    assert code == 0 and len(out) < 2000 and data["queens"] is None and data["verified"] is True
    assert data["board"]["queens"] == n and data["board_file"] == str(path)
    columns = [int(line) for line in path.read_text().splitlines()]
    assert is_solution(n, columns) and data["board"]["first_columns"] == columns[:10]
    assert hashlib.sha256(np.array(columns, "<i4").tobytes()).hexdigest() == data["board"]["columns_sha256"]
    assert os.listdir(tmp_path) == ["board.txt"]  # no draft left beside it
    code, out, _ = run(capsys, "solve", 9_000, "--method", "construct", "--json")  # below the threshold: listed
    assert code == 0 and len(json.loads(out)["queens"]) == 9_000


def test_board_file_as_json(capsys, tmp_path):
    path = tmp_path / "board.json"
    code, out, _ = run(capsys, "solve", 30, "--method", "construct", "--board-file", path)
    data = json.loads(path.read_text())
    assert code == 0 and f"board written to {path}" in out and data["n"] == 30 and is_solution(30, data["columns"])
    code, out, _ = run(capsys, "solve", 8, "--board-file", tmp_path / "sat.json")  # any method's board
    assert code == 0 and is_solution(8, json.loads((tmp_path / "sat.json").read_text())["columns"])


def test_a_million_queens_print_a_bounded_amount(capsys):
    from nqueens_kit.cli.common import JSON_LISTED_N

    assert JSON_LISTED_N == LISTED_BOARD_N  # the command's threshold is the results' own (kept apart for start-up)
    code, out, err = run(capsys, "solve", 1_000_000, "--method", "construct")
    assert code == 0 and "verified" in out and len(out) + len(err) < 1000
    code, out, err = run(capsys, "solve", 1_000_000, "--method", "construct", "--json")
    assert code == 0 and len(out) < 2000 and json.loads(out)["board"]["queens"] == 1_000_000


def test_board_file_refuses_a_folder_and_writes_nothing(capsys, tmp_path):
    folder = tmp_path / "here"
    folder.mkdir()
    code, out, err = run(capsys, "solve", 8, "--method", "construct", "--board-file", folder)
    assert code == 2 and "folder" in err and len(err.strip().splitlines()) == 1 and os.listdir(folder) == []


def test_board_file_refuses_a_character_device_without_writing_to_it(capsys, tmp_path, monkeypatch):
    import nqueens_kit.runtime.files as files

    path = tmp_path / "device"
    path.write_text("kept\n")
    real_stat = os.stat

    def device_stat(target, *args, **kwargs):  # the path looks like a character device to the kit
        found = real_stat(target, *args, **kwargs)
        if os.fspath(target) == str(path):
            return os.stat_result((stat.S_IFCHR | 0o666, *tuple(found)[1:]))
        return found

    monkeypatch.setattr(files.os, "stat", device_stat)
    code, out, err = run(capsys, "solve", 8, "--method", "construct", "--board-file", path)
    assert code == 2 and "character device" in err and out == ""
    monkeypatch.undo()
    assert path.read_text() == "kept\n" and os.listdir(tmp_path) == ["device"]


def test_a_failed_write_leaves_the_old_file_whole(capsys, tmp_path, monkeypatch):
    import nqueens_kit.runtime.files as files

    path = tmp_path / "board.txt"
    path.write_text("old\n")

    def fail(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(files.os, "fsync", fail)
    code, _, err = run(capsys, "solve", 100, "--method", "construct", "--board-file", path)
    assert code == 2 and "nothing was written" in err
    assert path.read_text() == "old\n" and os.listdir(tmp_path) == ["board.txt"]


def test_every_permutation_of_5_is_judged_as_its_cells(tmp_path):
    for columns in permutations(range(1, 6)):
        cells = tuple(enumerate(columns, start=1))
        assert verify(5, from_columns(np.array(columns))) == verify(5, cells) == is_solution(5, columns)


def verify_command(capsys, *args):
    """``nqueens-kit verify`` as its options parse it (the command reads back what --board-file wrote)."""
    from nqueens_kit.cli.common import Parser
    from nqueens_kit.cli.solve import _verify_options

    parser = Parser(prog="nqueens-kit verify")
    _verify_options(parser)
    parsed = parser.parse_args([str(a) for a in args])
    code = parsed.func(parsed)
    out, err = capsys.readouterr()
    return code, out, err


def test_a_board_file_is_read_back_and_verified(capsys, tmp_path):
    n = 50_000
    for name in ("board.txt", "board.json"):
        path = tmp_path / name
        assert run(capsys, "solve", n, "--method", "construct", "--board-file", path)[0] == 0
        code, out, _ = verify_command(capsys, path, "--json")
        data = json.loads(out)
        assert code == 0 and data["valid"] and data["n"] == n and data["problems"] == []
        assert data["columns_sha256"] == from_columns(construction_array(n)).digest()
    lines = (tmp_path / "board.txt").read_text().splitlines()
    lines[4] = lines[2]  # two queens in one column
    (tmp_path / "bad.txt").write_text("\n".join(lines) + "\n")
    code, out, _ = verify_command(capsys, tmp_path / "bad.txt")
    assert code == 1 and "NOT VALID" in out and "share a column" in out
    code, out, _ = verify_command(capsys, tmp_path / "board.txt", "--place", f"1,{lines[0]}")
    assert code == 0 and "valid" in out
    code, out, _ = verify_command(capsys, tmp_path / "board.txt", "--n", n + 1)
    assert code == 1 and "NOT VALID" in out


def test_a_board_file_that_is_not_one_is_refused(tmp_path):
    from nqueens_kit.cli.common import read_board_file

    cases = {"words.txt": "2\nfour\n", "empty.txt": "", "zero.txt": "0\n1\n", "list.json": "[1, 2]",
             "floats.json": '{"n": 2, "columns": [1.5, 2]}'}
    for name, text in cases.items():
        (tmp_path / name).write_text(text)
        with pytest.raises(InputError):
            read_board_file(str(tmp_path / name))
    (tmp_path / "changed.json").write_text('{"n": 4, "columns_sha256": "00", "columns": [2, 4, 1, 3]}')
    with pytest.raises(InputError, match="columns_sha256"):
        read_board_file(str(tmp_path / "changed.json"))
    with pytest.raises(InputError, match="folder"):
        read_board_file(str(tmp_path))


def test_violations_of_a_large_wrong_board_list_a_few_cells_and_count_the_rest() -> None:
    from nqueens_kit.problem.board import LISTED, violations

    n = 5_000
    queens = [(r, 1 + (2 * r) % n) for r in range(1, n + 1)]  # every queen two columns on: diagonals clash
    said = violations(n, queens)
    assert said and len(said) <= LISTED + 1 and said[-1].endswith("more lines shared by queens")
    off = violations(5, queens)[0]
    outside = sum(not (r <= 5 and c <= 5) for r, c in queens)
    assert off.startswith("queens off the 5x5 board:") and off.count("(") == LISTED
    assert off.endswith(f"... and {outside - LISTED:,} more]")
