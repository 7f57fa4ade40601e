"""The exercise checkers accept right answers and catch wrong ones, naming a counterexample."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from functools import partial

import numpy as np
import pytest

from nqueens_kit import verify
from nqueens_kit.course.exercises import (
    Verdict,
    check_at_most_k,
    check_at_most_one,
    check_clause_count,
    check_count,
    check_dead_end,
    check_diagonals,
    check_exactly_one,
    check_first_propagation,
    check_par2,
    check_verify,
    resolve,
)
from nqueens_kit.errors import InputError
from nqueens_kit.methods.sat.cardinality import sequential_counter, totalizer
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
    assert not verdict and "non-zero whole number" in verdict.message
    verdict = check_at_most_one(lambda lits: [[True]])
    assert not verdict and "non-zero whole number" in verdict.message and "True (type bool)" in verdict.message


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
    for wrong in ("92", 92.5, True, None, float("nan")):
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


# ------------------------------------------------------------------ plausible wrong answers, each caught


def _pairs(queens):
    queens = list(queens)
    return [(a, b) for i, a in enumerate(queens) for b in queens[i + 1:]]


def _attack(a, b) -> bool:
    return a[0] == b[0] or a[1] == b[1] or a[0] - a[1] == b[0] - b[1] or a[0] + a[1] == b[0] + b[1]


def _on_board(n, queens) -> bool:
    return all(1 <= r <= n and 1 <= c <= n for r, c in queens)


WRONG_VERIFIES = {
    # compares each queen with the next one in the list only: misses attacks between queens far apart
    "consecutive queens only": lambda n, q: (len(q) == n and _on_board(n, q)
                                             and not any(_attack(a, b) for a, b in zip(q, q[1:]))),
    # takes a queen's place in the list for its row and checks columns and diagonals of the permutation
    "the list index as the row": lambda n, q: (len(q) == n and _on_board(n, q) and len({c for _, c in q}) == n
                                               and all(abs(i - j) != abs(q[i][1] - q[j][1])
                                                       for i in range(n) for j in range(i + 1, n))),
    # checks the upper bound of a cell but not the lower one
    "no lower bound": lambda n, q: (len(q) == n and all(r <= n and c <= n for r, c in q)
                                    and not any(_attack(a, b) for a, b in _pairs(q))),
    # checks the lower bound of a cell but not the upper one
    "no upper bound": lambda n, q: (len(q) == n and all(r >= 1 and c >= 1 for r, c in q)
                                    and not any(_attack(a, b) for a, b in _pairs(q))),
    # never counts the queens
    "no count": lambda n, q: _on_board(n, q) and not any(_attack(a, b) for a, b in _pairs(q)),
    # rows, columns and one direction of diagonals
    "no anti-diagonals": lambda n, q: (len(q) == n and _on_board(n, q) and len({r for r, _ in q}) == n
                                       and len({c for _, c in q}) == n and len({r - c for r, c in q}) == n),
    # the diagonal test |dr| == |dc| on consecutive queens, rows and columns by sets
    "sets for lines, consecutive diagonals": lambda n, q: (
        len(q) == n and _on_board(n, q) and len({r for r, _ in q}) == n and len({c for _, c in q}) == n
        and all(abs(a[0] - b[0]) != abs(a[1] - b[1]) for a, b in zip(q, q[1:]))),
    # a board as a set of cells: a queen given twice counts once
    "duplicates dropped": lambda n, q: verify(n, sorted(set(map(tuple, q)))),
    # rows never compared: distinct columns and diagonals only
    "no row check": lambda n, q: (len(q) == n and _on_board(n, q) and len({c for _, c in q}) == n
                                  and len({r - c for r, c in q}) == n and len({r + c for r, c in q}) == n),
    # bounds the rows only: a queen in column n + 1 or 0 that attacks nobody passes
    "bounds on rows only": lambda n, q: (len(q) == n and all(1 <= r <= n for r, _ in q)
                                         and not any(_attack(a, b) for a, b in _pairs(q))),
    # ignores n: distinct rows, columns and diagonals, and nothing else
    "distinctness only": lambda n, q: len(q) > 0 and (len({r for r, _ in q}) == len({c for _, c in q})
                                                      == len({r - c for r, c in q}) == len({r + c for r, c in q})
                                                      == len(q)),
    # takes the number of queens for n
    "len(queens) for n": lambda n, q: len(q) > 0 and verify(len(q), q),
    # a fixed 8 x 8 board for the bounds
    "a fixed 8 for the bounds": lambda n, q: (len(q) == n and _on_board(8, q)
                                              and not any(_attack(a, b) for a, b in _pairs(q))),
}


@pytest.mark.parametrize("name", list(WRONG_VERIFIES))
def test_check_verify_catches_each_plausible_wrong_verify(name: str) -> None:
    verdict = check_verify(WRONG_VERIFIES[name])
    assert not verdict, f"check_verify accepted a verify with {name}"
    assert verdict.message.startswith("Not yet")


def test_check_verify_catches_the_consecutive_checker_on_the_reported_board() -> None:
    verdict = check_verify(WRONG_VERIFIES["consecutive queens only"])
    assert verdict.counterexample[0] in ("two queens on one diagonal, five rows apart",
                                         "two pairs of queens on diagonals, none in neighbouring rows")
    board = ((1, 2), (2, 4), (3, 1), (4, 5), (5, 3))
    assert WRONG_VERIFIES["consecutive queens only"](5, board) and not verify(5, board)
    assert any(n == 5 and q == board for _, n, q in __import__(
        "nqueens_kit.course.exercises", fromlist=["verify_cases"]).verify_cases())


def test_every_flawed_verify_case_has_one_kind_of_flaw() -> None:
    from nqueens_kit.course.exercises import verify_cases

    cases = verify_cases()
    assert len({what for what, _, _ in cases}) == len(cases)
    far = [q for what, _, q in cases if "apart" in what or "neighbouring" in what]
    assert far and all(not any(_attack(a, b) for a, b in zip(q, q[1:])) for q in far if len(q) > 4)


def _sequential_without_chain(lits, pool):
    s = [pool.new() for _ in lits]
    clauses = []
    for i, x in enumerate(lits):
        clauses.append([-x, s[i]])
        if i > 0:
            clauses.append([-x, -s[i - 1]])
    return clauses


def _binary_floor_bits(lits, pool):
    import math

    k = len(lits)
    bits = [pool.new() for _ in range(max(1, math.floor(math.log2(k))) if k > 1 else 0)]
    clauses = []
    for i, x in enumerate(lits):
        for b, bit in enumerate(bits):
            clauses.append([-x, bit if (i >> b) & 1 else -bit])
    return clauses


def _product_without_ceil(lits, pool):
    from math import isqrt

    k = len(lits)
    p = max(1, isqrt(k))  # should be the ceiling: the cells past p*p get no helpers
    rows = [pool.new() for _ in range(p)]
    cols = [pool.new() for _ in range(p)]
    clauses = []
    for index, x in enumerate(lits[:p * p]):
        clauses += [[-x, rows[index // p]], [-x, cols[index % p]]]
    clauses += pairwise(rows, pool) + pairwise(cols, pool)
    return clauses


def _commander_without_its_recursion(lits, pool):
    groups = [lits[i:i + 3] for i in range(0, len(lits), 3)]
    commanders = [pool.new() for _ in groups]
    clauses = []
    for group, c in zip(groups, commanders):
        clauses += pairwise(group, pool) + [[-x, c] for x in group]
    return clauses  # the at-most-one over the commanders is forgotten: two groups may each have a queen


def _ladder_without_chain(lits, pool):
    y = [pool.new() for _ in lits[:-1]]
    return [[-x, y[i]] for i, x in enumerate(lits[:-1])] + [[-lits[i + 1], -y[i]] for i in range(len(y))]


WRONG_AT_MOST_ONE = {
    "neighbouring pairs only": lambda lits: [[-a, -b] for a, b in zip(lits, lits[1:])],
    "a pair with itself (i <= j)": lambda lits: [[-lits[i], -lits[j]] for i in range(len(lits))
                                                 for j in range(i, len(lits))],
    "every pair but the last": lambda lits: [[-a, -b] for i, a in enumerate(lits) for b in lits[i + 1:-1]],
    "sequential counter without its chain": _sequential_without_chain,
    "binary with floor(log2 k) bits": _binary_floor_bits,
    "product with a grid too small": _product_without_ceil,
    "commander without at most one commander": _commander_without_its_recursion,
    "ladder without y_i -> y_i+1": _ladder_without_chain,
    "at least one added": lambda lits: [list(lits)] + [[-a, -b] for i, a in enumerate(lits) for b in lits[i + 1:]],
}


@pytest.mark.parametrize("name", list(WRONG_AT_MOST_ONE))
def test_check_at_most_one_catches_each_plausible_wrong_encoding(name: str) -> None:
    verdict = check_at_most_one(WRONG_AT_MOST_ONE[name])
    assert not verdict, f"check_at_most_one accepted {name}"


WRONG_EXACTLY_ONE = {
    "no at-least-one clause": lambda lits, pool: pairwise(lits, pool),
    "at least one of all but the last": lambda lits, pool: [list(lits[:-1])] + pairwise(lits, pool),
    "sequential without 'no true literal after the first'": lambda lits, pool: [list(lits)] + [
        clause for clause in sequential(lits, pool) if not all(lit < 0 for lit in clause)],
    "at least one twice, no at most one": lambda lits, pool: [list(lits), list(lits)],
}


@pytest.mark.parametrize("name", list(WRONG_EXACTLY_ONE))
def test_check_exactly_one_catches_each_plausible_wrong_encoding(name: str) -> None:
    assert not check_exactly_one(WRONG_EXACTLY_ONE[name]), name


def _pairwise_count(n):
    return 2 * n + n * n * (n - 1) + n * (n - 1) * (2 * n - 1) // 3


WRONG_PAIRWISE_COUNTS = {
    "one direction of diagonals": lambda n: 2 * n + n * n * (n - 1) + n * (n - 1) * (2 * n - 1) // 6,
    "ordered pairs (every clause twice)": lambda n: 2 * n + 2 * n * n * (n - 1) + 2 * n * (n - 1) * (2 * n - 1) // 3,
    "no at-least-one clauses": lambda n: _pairwise_count(n) - 2 * n,
    "the long diagonal counted twice": lambda n: _pairwise_count(n) + n * (n - 1),
    "diagonal lengths 1..n-1 only": lambda n: 2 * n + n * n * (n - 1) + 2 * 2 * sum(k * (k - 1) // 2 for k in range(1, n)),
    "the leading term 5n^3/3": lambda n: round(5 * n**3 / 3),
}


@pytest.mark.parametrize("name", list(WRONG_PAIRWISE_COUNTS))
def test_check_clause_count_catches_each_plausible_wrong_formula(name: str) -> None:
    assert check_clause_count(_pairwise_count)
    assert not check_clause_count(WRONG_PAIRWISE_COUNTS[name]), name


def _sequential_count(n):
    lines = 2 * n * (1 + 3 * n - 4)
    diagonals = 2 * (3 * n - 4 + 2 * sum(3 * k - 4 for k in range(2, n)))
    return lines + diagonals if n > 1 else 2


WRONG_SEQUENTIAL_COUNTS = {
    "the diagonals shorter than n forgotten": lambda n: 2 * n * (1 + 3 * n - 4) + 2 * (3 * n - 4),
    "one diagonal of each length": lambda n: 2 * n * (1 + 3 * n - 4) + 2 * sum(3 * k - 4 for k in range(2, n + 1)),
    "the one-cell corners counted (3k - 4 = -1)": lambda n: _sequential_count(n) - 4 if n > 1 else 2,
    "no special case for n = 1": lambda n: 2 * n * (1 + 3 * n - 4) + 2 * (3 * n - 4 + 2 * sum(
        3 * k - 4 for k in range(2, n))),
    "no at-least-one clauses": lambda n: _sequential_count(n) - 2 * n,
}


@pytest.mark.parametrize("name", list(WRONG_SEQUENTIAL_COUNTS))
def test_check_clause_count_catches_each_plausible_wrong_sequential_formula(name: str) -> None:
    assert check_clause_count(_sequential_count, encoding="sequential")
    assert not check_clause_count(WRONG_SEQUENTIAL_COUNTS[name], encoding="sequential"), name


def _right_diagonals(n):
    cells = [(r, c) for r in range(1, n + 1) for c in range(1, n + 1)]
    lines = [[q for q in cells if q[0] - q[1] == d] for d in range(1 - n, n)]
    lines += [[q for q in cells if q[0] + q[1] == s] for s in range(2, 2 * n + 1)]
    return [line for line in lines if len(line) >= 2]


WRONG_DIAGONALS = {
    "one direction only": lambda n: [line for line in _right_diagonals(n)
                                     if len({r - c for r, c in line}) == 1],
    "the one-cell corners kept": lambda n: _right_diagonals(n) + [[(1, n)], [(n, 1)]],
    "0-based cells": lambda n: [[(r - 1, c - 1) for r, c in line] for line in _right_diagonals(n)],
    "the last anti-diagonal of two cells missing": lambda n: [
        line for line in _right_diagonals(n) if not (len({r + c for r, c in line}) == 1 and line[0][0] + line[0][1]
                                                     == 2 * n - 1)],
    "rows and columns included": lambda n: _right_diagonals(n) + [[(r, c) for c in range(1, n + 1)]
                                                                  for r in range(1, n + 1)],
    "every line twice": lambda n: _right_diagonals(n) * 2,
}


@pytest.mark.parametrize("name", list(WRONG_DIAGONALS))
def test_check_diagonals_catches_each_plausible_wrong_answer(name: str) -> None:
    assert check_diagonals(_right_diagonals)
    assert not check_diagonals(WRONG_DIAGONALS[name]), name


def test_check_count_catches_plausible_wrong_counts_and_takes_any_integer() -> None:
    import numpy as np

    assert check_count(np.int64(4), Problem(8, [(1, 1)]))  # a NumPy sum is a count too
    for wrong in (92, 8, 0, 3):  # all boards; the board's size; none; the first row's queen counted as fixed
        assert not check_count(wrong, Problem(8, [(1, 1)]))
    assert not check_count(92, 8, fundamental=True) and not check_count(12, 8)  # the two counts confused
    assert check_count(4.0, Problem(8, [(1, 1)]))  # a whole float is a count too


WRONG_PAR2 = {
    "PAR-1": lambda times, limit: sum(limit if t is None else t for t in times) / len(times),
    "PAR-10": lambda times, limit: sum(10 * limit if t is None else t for t in times) / len(times),
    "timeouts dropped": lambda times, limit: (sum(t for t in times if t is not None)
                                              / max(1, sum(t is not None for t in times))),
    "the sum, not the mean": lambda times, limit: sum(2 * limit if t is None else t for t in times),
    "the median": lambda times, limit: sorted(2 * limit if t is None else t for t in times)[len(times) // 2],
    "a 0 s run counted as a timeout": lambda times, limit: sum(t or 2 * limit for t in times) / len(times),
    "divided by the finished runs": lambda times, limit: (sum(2 * limit if t is None else t for t in times)
                                                          / max(1, sum(t is not None for t in times))),
}


@pytest.mark.parametrize("name", list(WRONG_PAR2))
def test_check_par2_catches_each_plausible_wrong_score(name: str) -> None:
    verdict = check_par2(WRONG_PAR2[name])
    assert not verdict, name
    if name == "a 0 s run counted as a timeout":
        assert "t is None" in verdict.message and verdict.counterexample == [0.0, None, 1.0]


# ------------------------------------------------------------ answers read for their value, not their type


def _right_par2(times, limit):
    return sum(2 * limit if t is None else t for t in times) / len(times)


def test_check_par2_takes_any_real_number() -> None:
    from decimal import Decimal
    from fractions import Fraction

    import numpy as np

    for convert in (np.float32, np.float64, np.float16, np.array, Fraction, lambda x: Decimal(repr(x)),
                    lambda x: np.array(x, dtype=np.float32)):
        verdict = check_par2(lambda times, limit, convert=convert: convert(_right_par2(times, limit)))
        assert verdict, (convert, verdict.message)
    exact = check_par2(lambda times, limit: Fraction(sum(Fraction(2 * limit) if t is None else Fraction(t)
                                                         for t in times), len(times)))
    assert exact
    wrong = check_par2(lambda times, limit: np.float32(sum(limit if t is None else t for t in times) / len(times)))
    assert not wrong and "PAR-1" in wrong.message  # a float32 is judged by its value, hints and all


@pytest.mark.parametrize(("answer", "named"), [
    ("8", "the string '8'"), (None, "None (type NoneType)"), ([8.0], "[8.0] (type list)"),
    (True, "True (type bool)"), (8 + 0j, "(8+0j) (type complex)"),
])
def test_check_par2_names_the_type_it_got_and_the_one_wanted(answer, named) -> None:
    verdict = check_par2(lambda times, limit: answer)
    assert not verdict and named in verdict.message and "return a real number" in verdict.message


def test_the_other_checkers_read_numpy_answers_by_value_and_name_a_wrong_type() -> None:
    import numpy as np

    assert check_count(np.array(92), 8) and check_count(np.int32(4), Problem(8, [(1, 1)]))
    text = check_count("92", 8)
    assert not text and "the string '92'" in text.message
    right = lambda n: 2 * n + n * n * (n - 1) + n * (n - 1) * (2 * n - 1) // 3  # noqa: E731
    assert check_clause_count(lambda n: np.int64(right(n))) and check_clause_count(lambda n: float(right(n)))
    assert check_clause_count(lambda n: np.array(right(n)))
    for answer, named in (("84", "the string '84'"), (None, "None (type NoneType)")):
        verdict = check_clause_count(lambda n, answer=answer: answer)
        assert not verdict and named in verdict.message and "whole number" in verdict.message
    rows = check_clause_count(lambda n: np.array([right(n), 0]))  # an array of values: a verdict, not a crash
    assert not rows and "type ndarray" in rows.message
    assert check_verify(lambda n, queens: np.bool_(verify(n, queens)))
    assert check_verify(lambda n, queens: np.array(verify(n, queens)))
    for answer, named in ((None, "None (type NoneType)"), ("True", "the string 'True'"),
                          (np.array([True, True]), "type ndarray")):
        verdict = check_verify(lambda n, queens, answer=answer: answer)
        assert not verdict and named in verdict.message and "True or False" in verdict.message
    assert check_at_most_one(lambda lits, pool: [[np.int64(lit) for lit in clause] for clause in pairwise(lits, pool)])
    not_cells = check_diagonals(lambda n: [[1, 2, 3]])
    assert not not_cells and "(row, column) pair" in not_cells.message and "raised" not in not_cells.message


# --------------------------------------------------------------------------- chapter 6: a dead end of two


def test_check_dead_end_takes_two_queens_with_no_completion() -> None:
    verdict = check_dead_end([(1, 1), (2, 3)])
    assert verdict and "no solution" in verdict.message
    assert check_dead_end([[1, 1], [2, 3]]) and check_dead_end(((2, 3), (1, 1)))


@pytest.mark.parametrize(("queens", "fragment"), [
    ([(1, 1), (2, 3), (3, 5)], "exactly two queens, and you gave 3"),  # no completion, but three queens
    ([(1, 1)], "exactly two queens, and you gave 1"),
    ([], "exactly two queens, and you gave 0"),
    ([(1, 1), (2, 2)], "attack each other (same diagonal)"),
    ([(1, 1), (1, 5)], "attack each other (same row)"),
    ([(1, 1), (2, 5)], "has 1 solution: these two can be completed"),
    ([(1, 2), (2, 4)], "can be completed"),
    ([(1, 1), (9, 5)], "off the board"),
    ([(1, 1), (1, 1)], "both queens are on 1,1"),
    ("1,1 2,3", "a list of (row, column) pairs, not the string '1,1 2,3'"),
    (None, "not None (type NoneType)"),
])
def test_check_dead_end_says_what_is_wrong(queens, fragment) -> None:
    verdict = check_dead_end(queens)
    assert not verdict and fragment in verdict.message, verdict.message


def test_check_dead_end_agrees_with_backtracking_on_every_pair_of_a_small_board() -> None:
    """Every pair of cells of the 6 x 6 board: the verdict is right exactly for the non-attacking pairs
    without a completion, counted independently by brute force."""
    from itertools import combinations

    from .conftest import brute_force

    cells = [(r, c) for r in range(1, 7) for c in range(1, 7)]
    boards = brute_force(6)
    right = 0
    for a, b in combinations(cells, 2):
        attacking = a[0] == b[0] or a[1] == b[1] or abs(a[0] - b[0]) == abs(a[1] - b[1])
        dead = not attacking and not any(a in board and b in board for board in boards)
        assert bool(check_dead_end([a, b], n=6)) == dead, (a, b)
        right += dead
    assert right > 0
    with pytest.raises(InputError):
        check_dead_end([(1, 1), (2, 3)], n=99)


# ---------------------------------------------- one rule for answers: each defect it closes, caught by a test


def test_check_verify_catches_a_verify_that_bounds_only_rows_or_ignores_n() -> None:
    rows_only = check_verify(WRONG_VERIFIES["bounds on rows only"])
    assert not rows_only and rows_only.counterexample[0] == "a queen in column 5 (off the board) that attacks nobody"
    no_n = check_verify(WRONG_VERIFIES["len(queens) for n"])
    assert not no_n and no_n.counterexample[0] == "a solution of 4-queens on a 5 x 5 board (a queen short)"
    assert not check_verify(lambda n, q: WRONG_VERIFIES["len(queens) for n"](n, q) and len(q) <= n)  # 8 on 6 x 6
    fixed = check_verify(WRONG_VERIFIES["a fixed 8 for the bounds"])
    assert not fixed and "off the board" in fixed.counterexample[0]
    low_columns = check_verify(lambda n, q: len(q) == n and all(1 <= r <= n and c <= n for r, c in q)
                               and not any(_attack(a, b) for a, b in _pairs(q)))
    assert not low_columns and low_columns.counterexample[0] == "a queen in column 0 (off the board) that attacks nobody"


def test_every_case_with_n_other_than_its_queens_is_a_good_board_of_another_size() -> None:
    from nqueens_kit.course.exercises import verify_cases

    for what, n, queens in verify_cases():
        if "board (a queen" in what or "on a 6 x 6" in what:
            assert not verify(n, queens) and verify(len(queens), queens) and len(queens) != n, what


def _first(m: int):
    """An at-most-k encoding that reads only its first m literals."""
    return lambda lits, k, pool: sequential_counter(lits[:m], min(k, m), pool)


def test_check_at_most_k_samples_larger_n_so_that_ignored_literals_are_caught() -> None:
    first_8 = check_at_most_k(_first(8))
    assert not first_8 and len(first_8.counterexample[0]) == 9 and first_8.counterexample[1] == 1
    assert first_8.counterexample[2][-1] and sum(first_8.counterexample[2]) == 2  # k + 1 true, at the end
    assert "all n literals" in first_8.message
    first_20 = check_at_most_k(_first(20))
    assert not first_20 and len(first_20.counterexample[0]) == 25 and "literals 1 to 25" in first_20.message
    but_first = check_at_most_k(lambda lits, k, pool: sequential_counter(lits[1:], min(k, len(lits) - 1), pool)
                                if len(lits) > 8 else sequential_counter(lits, k, pool))
    assert not but_first and len(but_first.counterexample[0]) == 9
    capped = check_at_most_k(lambda lits, k, pool: sequential_counter(lits, min(k, 8), pool))  # wrong for k > 8 only
    assert not capped and capped.counterexample[1] > 8
    ok = check_at_most_k(totalizer)
    assert ok and "for n = 9, 10, 12, 16, 20, 25, 30, a sample" in ok.message
    assert check_at_most_k(sequential_counter, max_n=10) and "n = 12, 16" in check_at_most_k(totalizer, max_n=10).message
    assert check_at_most_k(lambda lits, k, pool: [[np.int64(lit) for lit in clause]
                                                  for clause in sequential_counter(lits, k, pool)])


def test_check_count_takes_every_whole_number_and_names_what_is_not_one() -> None:
    corner = Problem(8, [(1, 1)])
    for count in (4, 4.0, np.int64(4), np.float64(4.0), np.float32(4.0), np.array(4), np.array(4.0),
                  Fraction(8, 2), Decimal("4")):
        assert check_count(count, corner), count
    for wrong, said in ((4.5, "not 4.5"), ("4", "not the string '4'"), (True, "not True (type bool)"),
                        (np.array([4]), "(type ndarray)"), (Fraction(9, 2), "not Fraction(9, 2)")):
        verdict = check_count(wrong, corner)
        assert not verdict and said in verdict.message and "is a whole number" in verdict.message, verdict.message
    assert not check_count(5.0, corner) and "5 solutions is too many" in check_count(5.0, corner).message


def test_check_clause_count_compares_real_values_with_a_tolerance() -> None:
    right = lambda n: 2 * n + n * n * (n - 1) + n * (n - 1) * (2 * n - 1) // 3  # noqa: E731
    expanded = lambda n: 2 * n + 5 / 3 * n**3 - 2 * n * n + n / 3  # the same polynomial, in floating point  # noqa: E731
    assert any(expanded(n) != right(n) for n in range(1, 13))  # really off by a few units of 1e-13
    assert check_clause_count(expanded)
    assert check_clause_count(lambda n: 2 * n + n * (n - 1) * (5 * n - 1) / 3)
    assert check_clause_count(lambda n: Fraction(n * (n - 1) * (5 * n - 1), 3) + 2 * n)
    assert check_clause_count(lambda n: np.float64(expanded(n))) and check_clause_count(lambda n: np.int32(right(n)))
    half = check_clause_count(lambda n: right(n) + 0.5)
    assert not half and "gives 84.5" in half.message
    text = check_clause_count(lambda n: str(right(n)))
    assert not text and "the string '84'" in text.message


RULED = [(1, 1), (1, 3), (1, 4), (2, 1), (2, 2), (2, 3), (3, 2), (3, 4), (4, 2)]


def test_cells_may_be_tuples_lists_or_numpy_arrays_of_whole_numbers() -> None:
    assert check_first_propagation(RULED, [2, 4]) and check_first_propagation(RULED, np.array([2, 4]))
    assert check_first_propagation(np.array(RULED), [np.array([2, 4])])
    assert check_first_propagation([list(c) for c in RULED], (2.0, 4.0))
    assert check_first_propagation([(np.int64(r), c) for r, c in RULED], [(2, 4)])
    assert check_dead_end(np.array([[1, 1], [2, 3]])) and check_dead_end([(1.0, 1.0), [2, np.int64(3)]])
    one = check_dead_end([1, 1])
    assert not one and "you gave 1" in one.message
    text = check_first_propagation(RULED, [("2", "4")])
    assert not text and "not the string '2'" in text.message
    half = check_first_propagation(RULED, [(2.5, 4)])
    assert not half and "not 2.5" in half.message
