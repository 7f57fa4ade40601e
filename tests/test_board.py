from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from nqueens_kit.errors import ConflictError, InputError
from nqueens_kit.methods.search.construct import construct
from nqueens_kit.problem.board import (
    SYMMETRIES,
    Problem,
    attacks,
    board_lines,
    canonical,
    draw,
    orbit,
    parse_cell,
    parse_n,
    transform,
    verify,
    violations,
)
from nqueens_kit.problem.reference import published_count

from .conftest import brute_force


@pytest.mark.parametrize("bad", [0, -3, "abc", "2.5", "", True, 10**9])
def test_parse_n_rejects_with_one_line(bad):
    with pytest.raises(InputError) as err:
        parse_n(bad)
    assert "\n" not in str(err.value) and "whole number" in str(err.value)


def test_parse_n_accepts():
    assert parse_n("8") == 8 and parse_n(1) == 1 and parse_n(" 12 ") == 12


@pytest.mark.parametrize("text", ["1", "1,2,3", "a,b", "1;2"])
def test_parse_cell_rejects(text):
    with pytest.raises(InputError, match="ROW,COL"):
        parse_cell(text)


def test_cell_off_board():
    with pytest.raises(InputError, match="off the board.*1 to 8"):
        Problem(8, [(9, 1)])


@pytest.mark.parametrize(
    ("a", "b", "why"),
    [((1, 1), (1, 5), "same row"), ((1, 1), (4, 1), "same column"), ((1, 1), (3, 3), "same diagonal"),
     ((1, 3), (3, 1), "same anti-diagonal")],
)
def test_attacking_preplacement_names_pair_and_reason(a, b, why):
    with pytest.raises(ConflictError) as err:
        Problem(8, [a, b])
    msg = str(err.value)
    assert f"{a[0]},{a[1]}" in msg and f"{b[0]},{b[1]}" in msg and why in msg


def test_attacks_none():
    assert attacks((1, 1), (2, 3)) is None and attacks((2, 2), (2, 2)) is None


@pytest.mark.parametrize("n", range(1, 12))
def test_lines_cover_the_rules(n):
    lines = board_lines(n)
    rows = [l for l in lines if l.kind == "row"]
    cols = [l for l in lines if l.kind == "col"]
    diags = [l for l in lines if l.kind == "diag"]
    antis = [l for l in lines if l.kind == "anti"]
    assert len(rows) == len(cols) == n
    assert len(diags) == len(antis) == max(0, 2 * n - 3)
    for line in diags:
        assert len({r - c for r, c in line.cells}) == 1 and len(line) >= 2 and not line.exact
    for line in antis:
        assert len({r + c for r, c in line.cells}) == 1 and len(line) >= 2
    assert all(l.exact for l in rows + cols)
    # every attacking pair of cells shares exactly one line
    cells = [(r, c) for r in range(1, n + 1) for c in range(1, n + 1)]
    for a in cells:
        for b in cells:
            shared = sum(1 for l in lines if a in l.cells and b in l.cells)
            assert shared == (1 if attacks(a, b) else 0) or a == b
    assert len({l.name for l in lines}) == len(lines)


def test_verify_against_brute_force():
    for n in range(1, 8):
        solutions = brute_force(n)
        assert len(solutions) == published_count(n)
        for board in solutions:
            assert verify(n, board) and violations(n, board) == []


@pytest.mark.parametrize(
    ("board", "fragment"),
    [([(1, 2), (2, 4), (3, 1)], "3 queens"), ([(1, 1), (2, 4), (3, 2), (4, 3)], "diagonal"),
     ([(1, 1), (1, 3), (3, 2), (4, 4)], "row"), ([(1, 2), (2, 4), (3, 1), (4, 5)], "off the"),
     ([(1, 2), (2, 4), (3, 1), (4, 2)], "column"), ([(1, 2), (2, 1), (3, 4), (4, 3)], "anti-diagonal")],
)
def test_verify_rejects(board, fragment):
    assert not verify(4, board)
    assert any(fragment in v for v in violations(4, board))


def test_verify_checks_preplaced():
    board = ((1, 2), (2, 4), (3, 1), (4, 3))
    assert verify(4, board, [(1, 2)]) and not verify(4, board, [(1, 3)])


def test_verify_large_construction():
    n = 100_000
    board = construct(n)
    assert verify(n, board)
    broken = list(board)
    broken[5] = (broken[5][0], broken[6][1])
    assert not verify(n, broken)


@given(st.integers(min_value=4, max_value=40), st.integers(min_value=0, max_value=7))
def test_symmetries_preserve_solutions(n, k):
    board = construct(n)
    image = transform(n, board, k)
    assert verify(n, image)
    assert canonical(n, image) == canonical(n, board)


def test_symmetry_group_is_the_dihedral_group():
    n = 5
    cells = [(r, c) for r in range(1, n + 1) for c in range(1, n + 1)]
    maps = {tuple(transform(n, [cell], i)[0] for cell in cells) for i in range(len(SYMMETRIES))}
    assert len(maps) == 8  # eight distinct permutations of the cells


def test_fundamental_counts_match_published():
    for n in range(1, 9):
        classes = {canonical(n, b) for b in brute_force(n)}
        assert len(classes) == published_count(n, fundamental=True)
    assert len(orbit(4, ((1, 2), (2, 4), (3, 1), (4, 3)))) == 2


def test_unknown_symmetry():
    with pytest.raises(InputError, match="valid: identity"):
        transform(4, [(1, 1)], "twist")


def test_draw():
    assert draw(2, [(1, 1)], [(1, 1)]) == "P .\n. ."
