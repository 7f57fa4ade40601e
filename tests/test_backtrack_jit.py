"""The compiled bitmask backtracking against the readable Python: the same counts, the same boards in the same
order, the same stop under a budget; and the choice between them (None, False, True, NQUEENS_KIT_NO_JIT)."""

from __future__ import annotations

import random
from itertools import islice

import pytest

from nqueens_kit.errors import InputError
from nqueens_kit.methods.base import get_method
from nqueens_kit.methods.search import backtrack, backtrack_jit
from nqueens_kit.methods.search.backtrack import count_backtrack, iter_backtrack, search_budgeted
from nqueens_kit.methods.search.construct import construct
from nqueens_kit.problem.board import Problem, canonical, verify
from nqueens_kit.problem.reference import published_count
from nqueens_kit.runtime.jit import NO_JIT, jit_available

needs_numba = pytest.mark.skipif(not jit_available(), reason="numba is not installed (or NQUEENS_KIT_NO_JIT)")


def random_problems(count: int, seed: int) -> list[Problem]:
    """Seeded problems of n <= 9 with some pre-placed queens (each from a board, or anywhere) and blocked cells."""
    rng = random.Random(seed)
    problems = []
    while len(problems) < count:
        n = rng.randint(1, 9)
        rows = rng.sample(range(1, n + 1), rng.randint(0, min(2, n)))
        columns = rng.sample(range(1, n + 1), len(rows))
        preplaced = sorted(zip(rows, columns, strict=True))
        queens = set(preplaced)
        cells = [(r, c) for r in range(1, n + 1) for c in range(1, n + 1) if (r, c) not in queens]
        blocked = rng.sample(cells, rng.randint(0, min(len(cells), n)))
        try:
            problems.append(Problem(n, preplaced, blocked=blocked))
        except InputError:  # two pre-placed queens that attack each other: the problem refuses them
            continue
    return problems


PROBLEMS = random_problems(60, 27)


@needs_numba
@pytest.mark.parametrize("n", range(1, 15))
def test_compiled_counts_are_the_published_ones(n):
    assert count_backtrack(n, compiled=True) == published_count(n)


@pytest.mark.parametrize("n", range(1, 13))
def test_python_counts_are_the_published_ones(n):
    assert count_backtrack(n, compiled=False) == published_count(n)


@needs_numba
@pytest.mark.slow
def test_compiled_count_of_15_and_python_of_13():
    assert count_backtrack(15, compiled=True) == published_count(15)
    assert count_backtrack(13, compiled=False) == published_count(13)


@needs_numba
def test_the_same_boards_in_the_same_order():
    assert any(p.preplaced for p in PROBLEMS) and any(p.blocked for p in PROBLEMS)
    some = 0
    for problem in PROBLEMS:
        python = list(iter_backtrack(problem, compiled=False))
        assert list(iter_backtrack(problem, compiled=True)) == python, problem.describe()
        some += bool(python)
    assert some >= 10  # enough of the problems have boards for the order to be compared
    for n in (10, 11):
        python = list(iter_backtrack(n, compiled=False))
        assert python == sorted(python) and len(python) == published_count(n)
        assert list(iter_backtrack(n, compiled=True)) == python


@needs_numba
def test_a_lazy_iteration_and_a_large_board():
    python, compiled = iter_backtrack(20, compiled=False), iter_backtrack(20, compiled=True)
    assert [next(python) for _ in range(300)] == [next(compiled) for _ in range(300)]
    # 63 rows, the most a kernel takes (masks up to the 63rd bit): the completions of a board's first rows
    board = construct(63)
    for rows in (45, 35):
        problem = Problem(63, board[:rows])
        completions = list(islice(iter_backtrack(problem, compiled=True), 50))
        assert completions == list(islice(iter_backtrack(problem, compiled=False), 50))
        assert board in completions or rows == 35
        assert completions and all(verify(63, b, board[:rows]) for b in completions)


@needs_numba
def test_the_same_fundamental_counts():
    for n in (8, 9, 10):
        assert count_backtrack(n, fundamental=True, compiled=True) == published_count(n, fundamental=True)


@needs_numba
def test_a_budgeted_search_stops_at_the_same_placement():
    problems = [*PROBLEMS[:20], Problem(12), Problem(13, [(1, 7)]), Problem(11, blocked=[(2, 2), (5, 6)]),
                Problem(10, break_symmetry=True)]
    for problem in problems:
        for budget in (0, 1, 4095, 4096, 4097, 10_000, 60_000):
            for count in (False, True):
                python = search_budgeted(problem, budget, count, compiled=False)
                assert search_budgeted(problem, budget, count, compiled=True) == python, (problem, budget, count)
    # the budget is the one that stops both: 13 rows are not counted in 60,000 placements
    assert search_budgeted(Problem(13), 60_000, True, compiled=True)[2] is False


@needs_numba
def test_progress_is_reported_and_ends_at_the_total():
    seen: list[int] = []
    assert count_backtrack(14, progress=seen.append, compiled=True) == published_count(14)
    assert len(seen) > 5 and seen == sorted(seen) and seen[-1] == published_count(14) and seen[0] < seen[-1]


@needs_numba
def test_one_thread_or_three_give_the_same_count():
    prefixes = list(backtrack._prefixes(13, 3))
    counts = {backtrack_jit.count_prefixes(13, prefixes, workers=w) for w in (1, 3)}
    assert counts == {published_count(13)}


def test_the_kernels_as_python_do_what_the_python_search_does():
    """The kernels' code, run by the interpreter (as where numba is missing): the same boards and counts."""
    for problem in PROBLEMS[:15]:
        boards = list(backtrack_jit.compiled_boards(problem, kernel=backtrack_jit._search_kernel))
        assert boards == list(iter_backtrack(problem, compiled=False)), problem.describe()
    import numpy as np

    prefixes = list(backtrack._prefixes(8, 2))
    table = np.array([p[1:] for p in prefixes], dtype=np.int64).T.copy()
    counts = np.zeros(len(prefixes), np.int64)
    stack, state = np.zeros((4, 64), np.int64), np.array([0, -1], np.int64)
    calls = 0
    while not backtrack_jit._count_kernel(np.int64(255), *table, counts, stack, state, 7):
        calls += 1  # a budget of 7 placements a call: the count goes on where it stopped
    assert calls > 10
    assert sum(p[0] * c for p, c in zip(prefixes, counts.tolist(), strict=True)) == 92


def test_compiled_true_without_numba_is_a_one_line_error(monkeypatch):
    monkeypatch.setattr(backtrack_jit, "jit_available", lambda: False)
    for call in (lambda: count_backtrack(14, compiled=True), lambda: list(iter_backtrack(6, compiled=True)),
                 lambda: search_budgeted(Problem(6), 100, compiled=True)):
        with pytest.raises(InputError, match="needs numba") as error:
            call()
        assert "\n" not in str(error.value)
    assert count_backtrack(13) == published_count(13)  # None: the Python counter


def test_what_compiled_takes():
    for wrong in ("yes", 1, 0.0):
        with pytest.raises(InputError, match="compiled is True, False or None"):
            count_backtrack(8, compiled=wrong)  # type: ignore[arg-type]
    if jit_available():
        with pytest.raises(InputError, match="up to 63 rows"):
            next(iter_backtrack(64, compiled=True))
    almost = Problem(64, construct(64)[:60])
    assert next(iter_backtrack(almost)) == next(iter_backtrack(almost, compiled=False))  # None: Python above 63


def test_no_jit_runs_the_python_version(monkeypatch):
    monkeypatch.setenv(NO_JIT, "1")

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the compiled kernel ran")

    monkeypatch.setattr(backtrack_jit, "count_prefixes", refuse)
    monkeypatch.setattr(backtrack_jit, "compiled_boards", refuse)
    assert count_backtrack(13) == published_count(13)
    assert len(list(iter_backtrack(Problem(13, [(1, 1), (2, 3)])))) == len(
        [b for b in iter_backtrack(13, compiled=False) if b[:2] == ((1, 1), (2, 3))])
    method = get_method("backtrack")
    assert method.describe(method.choose()) == "bitmask backtracking, in Python"
    with pytest.raises(InputError, match="NQUEENS_KIT_NO_JIT"):
        count_backtrack(13, compiled=True)


@needs_numba
def test_the_method_names_the_compiled_search_and_uses_it():
    method = get_method("backtrack")
    assert "compiled by numba" in method.describe(method.choose())
    assert method.count_here(Problem(13), method.choose(), False) == (published_count(13), None)
    problem = Problem(21, [(3, 5)], blocked=[(1, 1)])
    board = method.solve_here(problem, method.choose(), None).queens
    assert board == next(iter_backtrack(problem, compiled=False))
    symmetric = list(method.iter_boards(Problem(13, break_symmetry=True), method.choose()))
    assert len(symmetric) == published_count(13, fundamental=True)
    assert all(canonical(13, b) == b for b in symmetric)
