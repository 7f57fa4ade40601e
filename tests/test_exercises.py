"""The exercise checkers accept right answers and catch wrong ones, naming a counterexample."""

from __future__ import annotations

from functools import partial

import pytest

from nqueens_kit import verify
from nqueens_kit.course.exercises import (
    Verdict,
    check_at_most_one,
    check_clause_count,
    check_count,
    check_diagonals,
    check_exactly_one,
    check_par2,
    check_verify,
    resolve,
)
from nqueens_kit.errors import InputError
from nqueens_kit.methods.sat.encodings import ENCODINGS, exactly_one, pairwise, sequential
from nqueens_kit.problem.board import Problem


@pytest.mark.parametrize("name", list(ENCODINGS))
def test_every_kit_encoding_passes(name: str) -> None:
    assert check_at_most_one(ENCODINGS[name].at_most_one)
    assert check_exactly_one(partial(exactly_one, encoding=name))


def test_a_verdict_reads_as_its_message() -> None:
    verdict = check_at_most_one(pairwise)
    assert isinstance(verdict, Verdict) and verdict.ok and verdict.counterexample is None
    assert repr(verdict) == str(verdict) == verdict.message and verdict.message.startswith("Correct")


def test_missing_pair_is_caught_with_the_assignment() -> None:
    def only_neighbours(lits):
        return [[-a, -b] for a, b in zip(lits, lits[1:])]

    verdict = check_at_most_one(only_neighbours)
    assert not verdict
    assert verdict.counterexample == ((1, 2, 3), (True, False, True))
    assert "x1=T, x2=F, x3=T" in verdict.message and "must forbid it" in verdict.message


def test_too_strong_encoding_is_caught() -> None:
    def at_least_one_too(lits, pool):
        return [list(lits)] + pairwise(lits, pool)

    verdict = check_at_most_one(at_least_one_too)
    assert not verdict and verdict.counterexample == ((1,), (False,))
    assert "forbid x1=F" in verdict.message and "should be allowed" in verdict.message


def test_sequential_counter_without_its_last_clause() -> None:
    def broken(lits, pool):
        return sequential(lits, pool)[:-1]

    verdict = check_at_most_one(broken)
    assert not verdict and verdict.counterexample[1].count(True) == 2


def test_helpers_must_come_from_the_pool() -> None:
    def helper_from_nowhere(lits, pool):
        helper = max(lits) + 1  # not taken with pool.new()
        return [[-x, helper] for x in lits] + pairwise(lits, pool)

    verdict = check_at_most_one(helper_from_nowhere)
    assert not verdict and "pool.new()" in verdict.message

    def assumes_one_to_k(lits, pool):
        k = len(lits)
        return [[-i, -j] for i in range(1, k + 1) for j in range(i + 1, k + 1)]

    verdict = check_at_most_one(assumes_one_to_k)
    assert not verdict and verdict.counterexample == ((7, 3, 9, 5), None)


def test_errors_and_bad_literals_in_student_code() -> None:
    def crashes(lits):
        return [[-lits[0], -lits[1]]]

    verdict = check_at_most_one(crashes)
    assert not verdict and "IndexError" in verdict.message
    verdict = check_at_most_one(lambda lits: [[0]])
    assert not verdict and "non-zero int" in verdict.message
    verdict = check_at_most_one(lambda lits: [[True]])
    assert not verdict and "non-zero int" in verdict.message


def test_exactly_one_needs_the_at_least_one_clause() -> None:
    verdict = check_exactly_one(pairwise)
    assert not verdict and verdict.counterexample == ((1,), (False,))


def test_clause_count_checker() -> None:
    assert check_clause_count(lambda n: 2 * n + n * n * (n - 1) + n * (n - 1) * (2 * n - 1) // 3)
    assert check_clause_count(lambda n: 12 * n * n - 22 * n + 12, encoding="sequential")
    twice = check_clause_count(lambda n: 2 * n + n * n * (n - 1) + 2 * n * (n - 1) * (2 * n - 1) // 3)
    assert not twice and twice.counterexample == (4, 112, 84)  # boards from 4 up are checked first
    right = lambda n: 2 * n + n * n * (n - 1) + n * (n - 1) * (2 * n - 1) // 3  # noqa: E731
    off = check_clause_count(lambda n: right(n) if n > 1 else 1 / (n - 1))
    assert not off and "ZeroDivisionError" in off.message and off.counterexample[0] == 1
    small = check_clause_count(lambda n: 12 * n * n - 22 * n + 12 if n > 3 else 0, encoding="sequential")
    assert not small and small.counterexample[0] == 3 and "right for n = 4 and up" in small.message


def test_cardinality_checks_reach_k_12() -> None:
    """A commander encoding that is right up to k = 9 and wrong from k = 10 on is caught."""
    from nqueens_kit.methods.sat.encodings import commander

    def late_bug(lits, pool):
        clauses = commander(lits, pool)
        return clauses[:-1] if len(lits) >= 10 else clauses  # drops the last clause of the top level

    verdict = check_at_most_one(late_bug)
    assert not verdict and len(verdict.counterexample[0]) == 10
    assert check_at_most_one(commander)


def test_a_checker_that_skips_bounds_is_caught() -> None:
    from nqueens_kit.course.exercises import check_verify

    def attacks_only(n, queens):
        queens = list(queens)
        return len(queens) == n and not any(a[0] == b[0] or a[1] == b[1] or abs(a[0] - b[0]) == abs(a[1] - b[1])
                                            for i, a in enumerate(queens) for b in queens[i + 1:])

    verdict = check_verify(attacks_only)
    assert not verdict and verdict.counterexample[0] == "a queen off the board that attacks nobody"


def test_verify_checker() -> None:
    assert check_verify(verify)
    assert check_verify(lambda n, queens: verify(n, queens))

    def forgets_anti_diagonals(n, queens):
        return (len(queens) == n and len({r for r, _ in queens}) == n and len({c for _, c in queens}) == n
                and len({r - c for r, c in queens}) == n)

    verdict = check_verify(forgets_anti_diagonals)
    assert not verdict and verdict.counterexample[0] == "two queens on one anti-diagonal (r + c equal)"
    verdict = check_verify(lambda n, queens: True)
    assert not verdict and "accepts" in verdict.message
    verdict = check_verify(lambda n, queens: queens[n])
    assert not verdict and "IndexError" in verdict.message


def test_diagonals_checker() -> None:
    def diagonals(n):
        cells = [(r, c) for r in range(1, n + 1) for c in range(1, n + 1)]
        lines = [[q for q in cells if q[0] - q[1] == d] for d in range(1 - n, n)]
        lines += [[q for q in cells if q[0] + q[1] == s] for s in range(2, 2 * n + 1)]
        return [line for line in lines if len(line) >= 2]

    assert check_diagonals(diagonals)
    one_direction = check_diagonals(lambda n: [line for line in diagonals(n) if line[0][0] - line[0][1] ==
                                               line[-1][0] - line[-1][1]])
    assert not one_direction and one_direction.counterexample == (2, [(1, 2), (2, 1)])
    with_corners = check_diagonals(lambda n: diagonals(n) + [[(1, n)]])
    assert not with_corners and "not a diagonal" in with_corners.message
    doubled = check_diagonals(lambda n: diagonals(n) * 2)
    assert not doubled and "listed twice" in doubled.message


def test_count_checker_against_published_counts() -> None:
    assert check_count(92, 8) and check_count(12, 8, fundamental=True) and check_count(0, 3)
    assert check_count(4, Problem(8, [(1, 1)]))
    high, low = check_count(93, 8), check_count(11, 8, fundamental=True)
    assert not high and "too many" in high.message
    assert not low and "too few" in low.message
    for wrong in ("92", 92.0, True, None):
        verdict = check_count(wrong, 8)
        assert not verdict and "whole number" in verdict.message


def test_par2_checker_catches_the_usual_mistakes() -> None:
    def right(times, limit):
        return sum(2 * limit if t is None else t for t in times) / len(times)

    assert check_par2(right) and check_par2(right, time_limit=0.5)
    par1 = check_par2(lambda times, limit: sum(limit if t is None else t for t in times) / len(times))
    assert not par1 and "PAR-1" in par1.message and par1.counterexample == [1.0, None, 3.0]
    dropped = check_par2(lambda times, limit: right([t for t in times if t is not None] or [0.0], limit))
    assert not dropped and "must count too" in dropped.message
    solved_only = check_par2(lambda times, limit: sum(2 * limit if t is None else t for t in times)
                             / max(1, sum(t is not None for t in times)))
    assert not solved_only and "over all runs" in solved_only.message
    crash = check_par2(lambda times, limit: sorted([*times, None]))
    assert not crash and "TypeError" in crash.message
    text = check_par2(lambda times, limit: "8")
    assert not text and "'8'" in text.message


def test_resolve_one_step() -> None:
    assert resolve([1, 2], [-1, 3]) == [2, 3]
    assert resolve([-5, 2, 1], [5, 2]) == [1, 2]  # a shared literal appears once
    assert resolve([4], [-4]) == []
    with pytest.raises(InputError, match="nothing to resolve"):
        resolve([1, 2], [2, 3])
    with pytest.raises(InputError, match="clash on 2 variables"):
        resolve([1, 2], [-1, -2])
