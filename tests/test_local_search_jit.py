"""The compiled min-conflicts: boards checked twice (the kit's verify and numpy here), the problem's queens
kept, the same board for the same problem, deadlines held between slices, and the Python version where
numba is off or the problem has blocked cells."""

from __future__ import annotations

import random
import subprocess
import sys
import time
from types import SimpleNamespace

import numpy as np
import pytest

from nqueens_kit.methods import solve
from nqueens_kit.methods.search import local_search, local_search_jit
from nqueens_kit.methods.search.construct import construct
from nqueens_kit.problem.board import Problem, from_columns, verify
from nqueens_kit.runtime.jit import NO_JIT, jit_available

METHOD = "local-search"
compiled = pytest.mark.skipif(not jit_available(), reason="numba is not installed (or turned off)")


def independent_check(n: int, columns: np.ndarray, preplaced=(), blocked=()) -> None:
    """A board without the kit: n queens, one per row, in distinct columns, diagonals and anti-diagonals."""
    assert isinstance(columns, np.ndarray) and columns.dtype == np.int32 and columns.shape == (n,)
    rows = np.arange(1, n + 1)
    assert columns.min() >= 1 and columns.max() <= n
    for line in (columns, rows - columns, rows + columns):
        assert np.unique(line).size == n
    for r, c in preplaced:
        assert columns[r - 1] == c
    for r, c in blocked:
        assert columns[r - 1] != c


def found(problem: Problem) -> np.ndarray:
    columns, stats = local_search_jit.min_conflicts_jit(problem)
    assert columns is not None, (problem.describe(), stats)
    independent_check(problem.n, columns, problem.preplaced)
    assert verify(problem.n, from_columns(columns), problem.preplaced, problem.blocked)
    return columns


@compiled
@pytest.mark.parametrize("n", [*range(4, 61), 1000, 100_000])
def test_compiled_boards_pass_both_checks(n):
    found(Problem(n))


@compiled
@pytest.mark.parametrize("n", [1000, 100_000])
def test_the_greedy_placement_leaves_few_queens_to_repair(n):
    columns, stats = local_search_jit.min_conflicts_jit(Problem(n))
    assert columns is not None and set(stats) == {"steps", "restarts", "initial_conflicts"}
    assert stats["initial_conflicts"] < n // 20 and stats["restarts"] == 0 and 0 < stats["steps"] < n, stats


@compiled
@pytest.mark.parametrize(("n", "queens", "seed"), [(8, 1, 1), (12, 3, 2), (30, 8, 3), (1000, 100, 4),
                                                   (20_000, 2000, 5)])
def test_preplaced_queens_stay(n, queens, seed):
    board = construct(n)  # completable: the queens come from a board
    problem = Problem(n, random.Random(seed).sample(board, queens))
    columns = found(problem)
    result = solve(problem, METHOD, isolated=False)  # through the method as well
    assert result.status == "solved" and set(problem.preplaced) <= set(result.queens)
    if n >= local_search.COMPILED_FROM:  # the method ran the compiled version: the same board
        assert np.array_equal(np.array([c for _, c in result.queens]), columns)


def test_blocked_cells_run_the_python_version(monkeypatch):
    n = 60
    board = set(construct(n))
    rng = random.Random(6)
    closed = [(r, c) for r in range(1, n + 1) for c in rng.sample(range(1, n + 1), 10) if (r, c) not in board]
    problem = Problem(n, rng.sample(sorted(board), 5), closed)
    calls = []
    monkeypatch.setattr(local_search, "min_conflicts_python",
                        lambda *a: calls.append(a) or _python(*a))
    columns, _ = local_search.min_conflicts(problem)
    assert calls and columns is not None
    independent_check(n, columns, problem.preplaced, problem.blocked)
    result = solve(problem, METHOD, isolated=False)
    assert result.status == "solved" and verify(n, result.queens, problem.preplaced, problem.blocked)
    with pytest.raises(ValueError):
        local_search_jit.min_conflicts_jit(problem)


_python = local_search.min_conflicts_python


@compiled
def test_the_same_problem_gives_the_same_board_and_counters():
    for problem in (Problem(500), Problem(6), Problem(30, [(3, 7)]), Problem(50_000)):
        first, second = local_search_jit.min_conflicts_jit(problem), local_search_jit.min_conflicts_jit(problem)
        assert first[0] is not None and np.array_equal(first[0], second[0]) and first[1] == second[1]
    # another problem, another seed: the boards of 500 and 501 queens differ in their first rows
    assert local_search_jit.seed_of(Problem(500)) != local_search_jit.seed_of(Problem(501))


@compiled
def test_another_process_gives_the_same_board():
    """numba's generator is seeded inside the kernels: nothing of this process's state enters the board."""
    code = ("import sys; from nqueens_kit.methods.search.local_search_jit import min_conflicts_jit; "
            "from nqueens_kit.problem.board import Problem; "
            "c, s = min_conflicts_jit(Problem(30_000, [(7, 11)])); sys.stdout.write(' '.join(map(str, c.tolist())))")
    there = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    here, _ = local_search_jit.min_conflicts_jit(Problem(30_000, [(7, 11)]))
    assert here is not None and list(map(int, there.split())) == here.tolist()


@compiled
def test_the_slices_do_not_change_the_board(monkeypatch):
    """The state between slices is all in the arrays: smaller slices, the same board and the same steps."""
    problem = Problem(20_000)
    whole = local_search_jit.min_conflicts_jit(problem)
    monkeypatch.setattr(local_search_jit, "SLICE_WORK", 64)
    sliced = local_search_jit.min_conflicts_jit(problem)
    assert np.array_equal(whole[0], sliced[0]) and whole[1] == sliced[1]


class TickingClock:
    """``time.monotonic`` moving one second per reading: the deadline counts readings, not seconds."""

    def __init__(self) -> None:
        self.reads = 0

    def __call__(self) -> float:
        self.reads += 1
        return float(self.reads)


def _tick(monkeypatch) -> TickingClock:
    clock = TickingClock()
    names = {name: getattr(time, name) for name in dir(time) if not name.startswith("_")}
    monkeypatch.setattr(local_search_jit, "time", SimpleNamespace(**{**names, "monotonic": clock}))
    return clock


@compiled
def test_the_placement_looks_at_the_clock_every_slice(monkeypatch):
    for deadline in (5, 15):
        clock = _tick(monkeypatch)
        with pytest.raises(local_search.Stopped) as stopped:
            local_search_jit.min_conflicts_jit(Problem(200_000), deadline=float(deadline))
        assert clock.reads == deadline + 1 and stopped.value.args[0]["steps"] == 0


@compiled
def test_the_repair_looks_at_the_clock_every_slice(monkeypatch):
    monkeypatch.setattr(local_search_jit, "SLICE_WORK", 200)
    steps = {}
    for deadline in (10, 40):  # 3 queens: no board, so steps until stopped (one reading per placement)
        clock = _tick(monkeypatch)
        with pytest.raises(local_search.Stopped) as stopped:
            local_search_jit.min_conflicts_jit(Problem(3), deadline=float(deadline))
        assert clock.reads == deadline + 1
        steps[deadline] = stopped.value.args[0]["steps"]
    assert 0 < steps[10] < steps[40], steps


@compiled
def test_a_tiny_time_limit_ends_as_timeout():
    result = solve(10**6, METHOD, time_limit=0.01, isolated=False)
    assert result.status == "timeout" and "before the time limit" in result.message, result.message


@compiled
@pytest.mark.parametrize("problem", [Problem(2), Problem(3), Problem(8, [(1, 1), (2, 3)]), Problem(6, [(1, 1)])],
                         ids=str)
def test_impossible_completions_spend_the_budget_and_end_as_timeout(problem):
    columns, stats = local_search_jit.min_conflicts_jit(problem)
    steps, runs = local_search.budget(problem.n)
    assert columns is None and stats["restarts"] == runs - 1 and 0 < stats["steps"] <= steps * runs
    result = solve(problem, METHOD, isolated=False)
    said = "has none by the published counts" if problem.n < 4 else "within the budget"  # 2, 3: no search at all
    assert result.status == "timeout" and said in result.message


def test_the_python_version_runs_without_numba(monkeypatch):
    monkeypatch.setenv(NO_JIT, "1")
    assert not jit_available()
    monkeypatch.setattr(local_search_jit, "min_conflicts_jit", lambda *a: pytest.fail("compiled without numba"))
    n = local_search.COMPILED_FROM
    for problem in (Problem(n), Problem(n, [(5, 9)])):
        columns, stats = local_search.min_conflicts(problem)
        expected, expected_stats = local_search.min_conflicts_python(problem)
        assert columns is not None and columns.tolist() == expected and stats == expected_stats
        independent_check(problem.n, columns, problem.preplaced)
    assert solve(40, METHOD, isolated=False).verified


@compiled
def test_large_boards_run_compiled_and_small_ones_in_python(monkeypatch):
    calls = []
    monkeypatch.setattr(local_search_jit, "min_conflicts_jit", lambda problem, *_: calls.append(problem.n))
    local_search.min_conflicts(Problem(local_search.COMPILED_FROM))
    local_search.min_conflicts(Problem(local_search.COMPILED_FROM - 1))
    assert calls == [local_search.COMPILED_FROM]
