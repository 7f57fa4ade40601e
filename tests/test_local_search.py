"""Min-conflicts local search: boards of every size, the problem's restrictions kept, never a "no", limits held.

Every board goes through :func:`~nqueens_kit.problem.board.verify` here as well as in the verbs.  Restricted
instances have a board the backtracker found (or are built around the construction's board at larger n), so
a failure to solve one is the method's fault.
"""

from __future__ import annotations

import random
import time
from types import SimpleNamespace

import pytest

from nqueens_kit.errors import InputError
from nqueens_kit.methods import count, get_method, iter_boards, solve, verbs
from nqueens_kit.methods.search import local_search
from nqueens_kit.methods.search.backtrack import iter_backtrack
from nqueens_kit.methods.search.construct import construct
from nqueens_kit.palette import TOL_MUTED
from nqueens_kit.problem.board import Problem, canonical, diagonal_cells, verify

METHOD = "local-search"


def solved(problem: Problem | int):
    problem = problem if isinstance(problem, Problem) else Problem(problem)
    result = solve(problem, METHOD)
    assert result.status == "solved" and result.verified, (problem.describe(), result.status, result.message)
    assert verify(problem.n, result.queens, problem.preplaced, problem.blocked)
    return result


def feasible(n: int, seed: int, queens: int, blocked: int) -> Problem:
    """A random completion with blocked cells that the backtracker has completed (so it has a board)."""
    rng = random.Random(seed)
    cells = [(r, c) for r in range(1, n + 1) for c in range(1, n + 1)]
    for _ in range(100):
        closed = rng.sample(cells, blocked)
        board = next(iter_backtrack(Problem(n, blocked=closed)), None)
        if board is not None:
            return Problem(n, rng.sample(board, queens), closed)
    raise AssertionError(f"no feasible instance of {n}-queens with {blocked} blocked cells")


@pytest.mark.parametrize("n", [1, *range(4, 61)])
def test_boards_for_small_n(n):
    result = solved(n)
    assert len(result.queens) == n and result.method == METHOD


@pytest.mark.parametrize("n", [1000, 20_000])
def test_boards_for_larger_n_from_a_greedy_placement(n):
    result = solved(n)
    # a random placement leaves most queens attacked; the greedy one a few in a hundred at most
    assert result.stats["initial_conflicts"] < n // 20, result.stats
    assert result.stats["restarts"] == 0 and 0 < result.stats["steps"] < n


@pytest.mark.parametrize(("n", "seed", "queens", "blocked"),
                         [(6, 1, 1, 0), (8, 2, 3, 0), (10, 3, 4, 0), (8, 4, 0, 12), (12, 5, 2, 30), (16, 6, 5, 60),
                          (24, 7, 6, 150)])
def test_completions_and_blocked_cells(n, seed, queens, blocked):
    problem = feasible(n, seed, queens, blocked)
    result = solved(problem)
    assert set(problem.preplaced) <= set(result.queens)
    assert not set(problem.blocked) & set(result.queens)


def test_excluded_diagonals_and_rows_with_one_open_cell():
    solved(Problem(10, blocked=diagonal_cells(10, differences=[0], sums=[11])))
    n = 200  # row 7 has one open cell, so its queen must stand there
    result = solved(Problem(n, blocked=[(7, c) for c in range(1, n + 1) if c != 50]))
    assert (7, 50) in result.queens


def test_rows_almost_half_blocked():
    n = 400  # every row has 45% of its cells blocked (too few for a step to look at its open cells alone)
    board = set(construct(n))
    rng = random.Random(10)
    closed = [(r, c) for r in range(1, n + 1) for c in rng.sample(range(1, n + 1), 180) if (r, c) not in board]
    result = solved(Problem(n, blocked=closed))
    assert not set(closed) & set(result.queens)


def test_a_large_completion():
    n = 5000  # completable by construction: the queens and the open cells come from the construction's board
    board = construct(n)
    rng = random.Random(8)
    closed = [(r, c) for r in range(1, n + 1, 7) for c in rng.sample(range(1, n + 1), 3) if (r, c) not in board]
    problem = Problem(n, rng.sample(board, 500), closed)
    result = solved(problem)
    assert set(problem.preplaced) <= set(result.queens) and not set(problem.blocked) & set(result.queens)


@pytest.mark.parametrize("problem", [Problem(2), Problem(3), Problem(2, break_symmetry=True)], ids=str)
def test_n_2_and_3_say_at_once_that_they_have_no_board(problem):
    """No search where the published counts give no board: the outcome of an incomplete method that finds
    none (``timeout``), at once, even with a long time limit, saying why."""
    for limit in (None, 60):
        start = time.perf_counter()
        result = solve(problem, METHOD, time_limit=limit)
        assert time.perf_counter() - start < 5
        assert result.status == "timeout" and result.queens == () and result.stats["steps"] == 0
        assert "\n" not in result.message and f"no board: {problem.n}-queens has none" in result.message
        assert "published counts" in result.message and "--method backtrack or sat" in result.message
    assert not local_search.known_without_board(Problem(4)) and not local_search.known_without_board(Problem(1))


@pytest.mark.parametrize("problem", [Problem(8, [(1, 1), (2, 3)]), Problem(6, [(1, 1)])], ids=str)
def test_no_board_ends_as_timeout_never_infeasible(problem):
    assert next(iter_backtrack(problem), None) is None
    result = solve(problem, METHOD)
    assert result.status == "timeout" and result.queens == ()
    assert "within the budget" in result.message and "cannot prove" in result.message
    steps, runs = local_search.budget(problem.n)
    assert result.stats["restarts"] == runs - 1 and result.stats["steps"] <= steps * runs


def test_a_row_with_every_cell_blocked_ends_as_timeout():
    result = solve(Problem(5, blocked=[(2, c) for c in range(1, 6)]), METHOD)
    assert result.status == "timeout" and "every cell of row 2" in result.message


@pytest.mark.parametrize("verb", [count, lambda *a: list(iter_boards(*a))], ids=["count", "iter_boards"])
def test_counting_and_listing_are_refused_in_one_line(verb):
    with pytest.raises(InputError) as excinfo:
        verb(8, METHOD)
    text = str(excinfo.value)
    assert "\n" not in text and f"--method {METHOD}" in text and "backtrack" in text


class TickingClock:
    """A stand-in for ``time.monotonic`` that moves one second each time it is read: when a deadline passes
    then depends on how often the run looks at the clock, never on how fast (or how busy) the machine is."""

    def __init__(self) -> None:
        self.reads = 0

    def __call__(self) -> float:
        self.reads += 1
        return float(self.reads)


def _tick(monkeypatch, *modules) -> TickingClock:
    """Put a :class:`TickingClock` behind ``time.monotonic`` of each module (the rest of ``time`` stays real)."""
    clock = TickingClock()
    names = {name: getattr(time, name) for name in dir(time) if not name.startswith("_")}
    for module in modules:
        monkeypatch.setattr(module, "time", SimpleNamespace(**{**names, "monotonic": clock}))
    return clock


def test_a_time_limit_stops_a_huge_placement():
    result = solve(3_000_000, METHOD, time_limit=0.5)  # in a child process, stopped by the job's own limit
    assert result.status == "timeout" and "0.5 s" in result.message


def test_each_run_stops_at_its_own_deadline(monkeypatch):
    """In this process nothing else can stop it: the method keeps its own deadline, each run at its own limit
    (a deadline read only at some later point of the run would end both at that point), and it stops at the
    first reading of the clock past it, within the placement of a large board."""
    reads = {}
    for deadline in (5, 15):
        clock = _tick(monkeypatch, local_search)
        with pytest.raises(local_search.Stopped) as stopped:
            local_search.min_conflicts(Problem(200_000), deadline=float(deadline))
        reads[deadline] = clock.reads
        assert stopped.value.args[0]["steps"] == 0  # still placing: every 2,048 rows a look at the clock
    assert reads == {5: 6, 15: 16}


def test_the_time_limit_reaches_the_method(monkeypatch):
    """Through ``solve``: the limit becomes the method's deadline, and the message names it."""
    reads = {}
    for limit in (5, 15):
        clock = _tick(monkeypatch, local_search, verbs)
        here = solve(200_000, METHOD, time_limit=limit, isolated=False)
        assert here.status == "timeout" and f"before the time limit of {limit:g} s" in here.message, here.message
        reads[limit] = clock.reads
    assert reads[15] - reads[5] == 10, reads  # ten more seconds of the clock, ten more looks at it


def test_a_time_limit_stops_the_repair(monkeypatch):
    n = 20_000  # impossible (row 5's one open cell is in the column of row 1's queen): steps until stopped
    problem = Problem(n, [(1, 3)], [(5, c) for c in range(1, n + 1) if c != 3])
    result = solve(problem, METHOD, time_limit=0.3, isolated=False)  # on the real clock: the message
    assert result.status == "timeout" and "before the time limit" in result.message, result.message
    steps = {}
    for deadline in (16, 30):  # the placement looks at the clock 13 times, the repair every 2,048 steps
        clock = _tick(monkeypatch, local_search)
        with pytest.raises(local_search.Stopped) as stopped:
            local_search.min_conflicts(problem, deadline=float(deadline))
        assert clock.reads == deadline + 1
        steps[deadline] = stopped.value.args[0]["steps"]
        if deadline == 16:  # stopped by the repair's own look at the clock, not at the next run's placement
            assert stopped.value.args[0]["restarts"] == 0
    assert 0 < steps[16] < steps[30], steps  # the search made progress, and more of it with more time


@pytest.mark.parametrize("n", [1, 6, 8, 12, 50, 300])
def test_break_symmetry_gives_the_canonical_board(n):
    result = solved(Problem(n, break_symmetry=True))
    assert result.queens == canonical(n, result.queens)


def test_the_same_problem_gives_the_same_board():
    for problem in (Problem(500), Problem(12, [(2, 5)]), feasible(16, 9, 3, 40)):
        first, second = solve(problem, METHOD), solve(problem, METHOD)
        assert first.queens == second.queens and first.stats == second.stats


def test_least_attacked_is_a_least_attacked_open_column():
    n = 9
    rng = random.Random(3)
    columns = [rng.randint(1, n) for _ in range(n)]
    col, diag, anti = [0] * (n + 1), [0] * (2 * n + 1), [0] * (2 * n + 1)
    for r, c in enumerate(columns, 1):
        col[c] += 1
        diag[r - c + n] += 1
        anti[r + c] += 1

    def attacks(r, c):
        return col[c] + diag[r - c + n] + anti[r + c]

    for r in range(1, n + 1):
        cells = {1, 2, r}
        least = min(attacks(r, c) for c in range(1, n + 1) if c not in cells)
        seen = {local_search._least_attacked(r, n, col, diag, anti, cells, None, rng.random) for _ in range(50)}
        assert {attacks(r, c) for c in seen} == {least} and not seen & cells
        ties = {c for c in range(1, n + 1) if c not in cells and attacks(r, c) == least}
        assert seen == ties  # ties broken at random: each one turns up
        open_cells = [c for c in range(1, n + 1) if c not in cells]
        assert local_search._least_attacked(r, n, col, diag, anti, cells, open_cells, rng.random) in ties


def test_what_the_method_says_about_itself():
    method = get_method(METHOD)
    assert method.verbs == {"solve"} and not method.complete and method.interruptible
    assert method.features == {"preplaced", "blocked", "break_symmetry"}
    choice = method.choose()
    assert method.describe(choice) == "min-conflicts local search" and method.colour() == TOL_MUTED["teal"]
    assert method.size(Problem(10**6), choice).variables == 10**6
    assert method.size(Problem(2 * 10**6), choice).memory == 2 * method.size(Problem(10**6), choice).memory


def test_the_size_guard_refuses_what_would_not_fit():
    with pytest.raises(InputError) as excinfo:
        solve(10**6, METHOD, max_memory="100M")
    assert "\n" not in str(excinfo.value) and "1,000,000 variables" in str(excinfo.value)


def test_stats_and_timings_are_in_the_result():
    result = solved(1000)
    assert set(result.stats) == {"steps", "restarts", "initial_conflicts"} and result.solve_seconds > 0
