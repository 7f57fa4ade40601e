from __future__ import annotations

import pytest

from nqueens_kit.errors import InputError
from nqueens_kit.methods import solve
from nqueens_kit.methods.search.backtrack import count_backtrack, iter_backtrack
from nqueens_kit.methods.search.construct import construct, construction_columns
from nqueens_kit.problem.board import Problem, verify
from nqueens_kit.problem.reference import published_count

from .conftest import brute_force


def test_construction_valid_for_every_n_up_to_400():
    for n in [1, *range(4, 401)]:
        assert verify(n, construct(n)), n


def test_the_range_up_to_400_covers_every_case_of_the_construction():
    # the construction branches on n mod 6 only; the test above meets every residue dozens of times
    assert {n % 6 for n in range(4, 401)} == set(range(6))


def test_iterative_counter_beyond_the_recursion_limit(monkeypatch):
    import sys

    module = sys.modules["nqueens_kit.methods.search.backtrack"]
    monkeypatch.setattr(module, "RECURSION_SAFE", 4)
    seen = []
    assert module.count_backtrack(8, progress=seen.append) == 92 and seen[-1] == 92


def test_construction_has_none_for_2_and_3():
    assert construction_columns(2) is None and construction_columns(3) is None
    with pytest.raises(InputError, match="no solution"):
        construct(3)
    assert solve(2, "construct").status == "infeasible"
    with pytest.raises(InputError, match="pre-placed"):
        solve(Problem(8, [(1, 1)]), "construct")


@pytest.mark.parametrize("n", range(1, 13))
def test_backtracking_counts_match_published(n):
    assert count_backtrack(n) == published_count(n)
    if n <= 10:
        assert count_backtrack(n, fundamental=True) == published_count(n, fundamental=True)


def test_backtracking_boards_equal_brute_force():
    for n in range(1, 9):
        boards = list(iter_backtrack(n))
        assert set(boards) == brute_force(n) and len(boards) == len(set(boards))
    assert set(iter_backtrack(6, ((1, 2),))) == brute_force(6, [(1, 2)])
