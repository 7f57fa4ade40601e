"""The CP method (OR-Tools CP-SAT): both formulations agree with the published counts and with the
backtracker board for board, honour every feature, stop at their time limit, and keep away from highspy."""

from __future__ import annotations

import itertools
import json
import random
import subprocess
import sys
import threading

import pytest

from nqueens_kit.errors import InputError, SolverNotAvailable
from nqueens_kit.methods import METHODS, count, first_boards, get_method, iter_boards, solve
from nqueens_kit.methods.base import infeasible_message
from nqueens_kit.methods.cp import FORMULATIONS, CpMethod, describe
from nqueens_kit.methods.search.backtrack import iter_backtrack
from nqueens_kit.problem.board import Problem, canonical, diagonal_cells, lex_pairs
from nqueens_kit.problem.reference import published_count
from nqueens_kit.runtime import isolate
from nqueens_kit.runtime.browser import importable
from nqueens_kit.solvers.cp import lex_size
from nqueens_kit.solvers.cp_sat import CP_SAT, build_model, model_size

from .conftest import need

VARIANTS = list(FORMULATIONS)


@pytest.fixture
def cp() -> None:
    need(CP_SAT.available(), 'ortools (pip install "nqueens-kit[cp]")')


def _boards(problem: Problem, variant: str) -> list:
    return list(iter_boards(problem, "cp", variant))


@pytest.mark.parametrize("variant", VARIANTS)
def test_counts_are_a000170(cp, variant: str) -> None:
    for n in range(1, 10):
        assert count(n, "cp", variant).count == published_count(n), n


@pytest.mark.parametrize("variant", VARIANTS)
def test_completions_and_blocked_cells_agree_with_backtracking(cp, variant: str) -> None:
    rng = random.Random(7)
    problems = [Problem(8, [(1, 1)]), Problem(8, [(2, 4), (5, 2)]), Problem(9, [(5, 5)]),
                Problem(8, blocked=diagonal_cells(8, differences=[0], sums=[9])),
                Problem(6, [(1, 1)]), Problem(5, blocked=[(3, c) for c in range(1, 6)])]
    for n in (7, 8, 9):
        cells = [(r, c) for r in range(1, n + 1) for c in range(1, n + 1)]
        blocked = rng.sample(cells, n)
        problems.append(Problem(n, blocked=blocked))
        free = [cell for cell in cells if cell not in blocked]
        problems.append(Problem(n, [rng.choice(free)], blocked))
    for problem in problems:
        found = _boards(problem, variant)
        assert len(found) == len(set(found)), problem.describe()
        assert sorted(found) == sorted(iter_backtrack(problem)), problem.describe()


@pytest.mark.parametrize("variant", VARIANTS)
def test_symmetry_breaking_keeps_the_canonical_boards(cp, variant: str) -> None:
    for n in range(1, 10):
        found = _boards(Problem(n, break_symmetry=True), variant)
        assert sorted(found) == sorted({canonical(n, board) for board in iter_backtrack(Problem(n))}), n
        assert len(found) == published_count(n, fundamental=True)
    result = solve(Problem(10, break_symmetry=True), "cp", variant)
    assert result.status == "solved" and result.verified
    assert canonical(10, result.queens) == result.queens


@pytest.mark.parametrize("variant", VARIANTS)
def test_infeasible_boards_and_completions(cp, variant: str) -> None:
    for n in (2, 3):
        result = solve(n, "cp", variant)
        assert result.status == "infeasible" and "no solution" in result.message
    completion = Problem(6, [(1, 1)])
    result = solve(completion, "cp", variant, explain=False)
    assert result.status == "infeasible" and result.message == infeasible_message(completion)
    assert solve(Problem(5, blocked=[(3, c) for c in range(1, 6)]), "cp", variant).status == "infeasible"


@pytest.mark.parametrize("variant", VARIANTS)
def test_stats_and_options(cp, variant: str) -> None:
    result = solve(12, "cp", variant)
    assert result.status == "solved" and result.verified
    assert result.solver == "cp-sat" and result.formulation == variant
    assert isinstance(result.stats["branches"], int) and isinstance(result.stats["conflicts"], int)
    assert result.stats["solver_seconds"] > 0
    assert result.options["num_workers"] == 1 and result.options["settings"] == "one-worker"
    size = model_size(describe(Problem(12), variant))
    assert (result.variables, result.constraints) == (size.variables, size.constraints)


def test_settings_one_worker_first_and_all_cores(cp) -> None:
    method = get_method("cp")
    assert list(method.settings())[0] == "one-worker"
    result = solve(20, "cp", settings="all-cores")
    assert result.status == "solved" and result.verified and result.options["num_workers"] >= 1


def _solve_in_process(n: int, variant: str, limit: float):
    from ortools.sat.python import cp_model  # noqa: F401  (imported before the clock starts)

    return solve(n, "cp", variant, time_limit=limit, isolated=False)


def test_time_limit_ends_as_timeout(cp) -> None:
    """In process CP-SAT stops itself at what is left of the limit when it starts (a child guards the test
    against a solver that would not: far above the limit, so only a solver that ignores it trips the guard);
    isolated, the job stops in its child.  What is checked is what CP-SAT was told and what it answered, not
    how long a busy machine took."""
    limit = 2.0
    run = isolate.run_in_child(_solve_in_process, (1000, "alldifferent", limit), time_limit=limit + 60)
    assert run.status == "done", "CP-SAT did not stop at its time limit"
    result = run.value
    assert result.status == "timeout" and "time limit of 2 s" in result.message, result.message
    given = result.options.get("max_time_in_seconds")
    assert given is not None and 0 < given <= limit, result.options  # its own limit, less the model's building
    assert result.stats["status"] == "UNKNOWN"  # CP-SAT's own word: stopped with neither a board nor a proof
    result = solve(600, "cp", "boolean", time_limit=1.0)
    assert result.status == "timeout" and "time limit of 1 s" in result.message, result.message


def test_count_stopped_by_its_limit_keeps_a_lower_bound(cp) -> None:
    # the limit covers the whole job (a child's start, the model, the search): generous enough for a busy
    # machine to find some of the 39 billion boards, far too short to find them all
    result = count(20, "cp", time_limit=5.0)
    assert result.status == "timeout" and result.count > 0 and result.note.startswith("a lower bound")


def _first_three() -> tuple[list, int, int]:
    threads = threading.active_count()
    first = []
    for variant in VARIANTS:
        boards = iter_boards(30, "cp", variant)
        first += itertools.islice(boards, 3)
        boards.close()
    return first, threads, threading.active_count()


def test_iter_boards_is_lazy_and_stops_its_solver(cp) -> None:
    """30-queens has too many boards to list first: only a generator hands on the first three (a child
    guards the test against one that would not)."""
    run = isolate.run_in_child(_first_three, time_limit=60)
    assert run.status == "done", "iter_boards did not hand on its first boards"
    first, before, after = run.value
    assert len(set(first)) == 6 and after == before
    found, complete = first_boards(12, "cp", limit=5, time_limit=30)
    assert len(found) == 5 and not complete


@pytest.mark.parametrize("variant", VARIANTS)
def test_reordered_instances_are_deterministic(cp, variant: str) -> None:
    first = solve(24, "cp", variant, order=5)
    assert first.status == "solved" and first.verified and first.options["random_seed"] == 5
    assert solve(24, "cp", variant, order=5).queens == first.queens
    names = [[v.name for v in build_model(describe(Problem(6), variant), order=k).model.proto.variables] for k in (1, 2)]
    assert sorted(names[0]) == sorted(names[1]) and names[0] != names[1]


def test_sizes_are_what_the_builder_makes(cp) -> None:
    for variant in VARIANTS:
        for problem in (Problem(1), Problem(7), Problem(8, break_symmetry=True), Problem(7, [(2, 3)], [(1, 1)]),
                        Problem(5, blocked=[(3, c) for c in range(1, 6)])):
            built, size = build_model(describe(problem, variant)), model_size(describe(problem, variant))
            assert (built.variables, built.constraints) == (size.variables, size.constraints), problem.describe()


def test_lex_size_matches_lex_pairs() -> None:
    for n in range(1, 12):
        moved = [len(pairs) for _, pairs in lex_pairs(n) if pairs]
        assert lex_size(n) == (sum(moved), sum(6 * m - 1 for m in moved), sum(19 * m - 5 for m in moved))


def test_a_process_that_imported_highspy_still_solves_by_cp(cp) -> None:
    need(importable("highspy"), "highspy")
    code = """
import json, sys
import highspy
from nqueens_kit.methods import count, get_method, iter_boards, solve
get_method("cp").preload(get_method("cp").choose())
result = solve(8, "cp")
print(json.dumps({"status": result.status.value, "verified": result.verified, "count": count(6, "cp", "boolean").count,
                  "boards": len(list(iter_boards(6, "cp"))), "timeout": solve(1000, "cp", time_limit=1).status.value,
                  "loaded": "ortools.sat.python.cp_model" in sys.modules}))
"""
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert json.loads(proc.stdout.splitlines()[-1]) == {"status": "solved", "verified": True, "count": 4, "boards": 4,
                                                        "timeout": "timeout", "loaded": False}


def test_without_ortools_the_method_is_listed_and_refuses_in_one_line(monkeypatch) -> None:
    for entry in CpMethod().solvers().values():  # no CP solver at all (MiniZinc missing too)
        monkeypatch.setattr(type(entry), "available", lambda self: False)
    assert "cp" in METHODS and not get_method("cp").available()
    for run in (lambda: solve(8, "cp"), lambda: count(6, "cp"), lambda: iter_boards(6, "cp", "boolean")):
        with pytest.raises(SolverNotAvailable) as refused:
            run()
        message = str(refused.value)
        assert "\n" not in message and 'pip install "nqueens-kit[cp]"' in message
    assert get_method("cp").install_hint().startswith('pip install "nqueens-kit[cp]"')


def test_description_style_and_refusals() -> None:
    method = CpMethod()
    assert method.variant_word == "formulation" and list(method.variants()) == ["alldifferent", "boolean"]
    assert all(variant.summary for variant in method.variants().values())
    assert method.choose("boolean").label == "CP boolean/cp-sat"
    others = [m for m in METHODS.values() if m.name != "cp"]
    assert method.linestyle not in [m.linestyle for m in others]
    colours = {method.colour(v) for v in method.variants()}
    assert len(colours) == 2 and not colours & {m.colour(v) for m in others for v in [None, *m.variants()]}
    assert method.choose().style()["marker"] == CP_SAT.marker
    with pytest.raises(InputError, match="valid: alldifferent, boolean"):
        method.choose("pairwise")
