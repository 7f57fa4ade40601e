"""Unit propagation: sound against the truth from search, the same fixpoint as a naive implementation."""

from __future__ import annotations

import random

from nqueens_kit import ENCODINGS, Problem
from nqueens_kit.bench import random_preplacement
from nqueens_kit.inside.propagation import deduced, strength, truth, unit_propagate
from nqueens_kit.problem.board import attacks

from .conftest import random_formula


def _naive(clauses, assumed):
    value = {}
    for lit in assumed:
        if value.get(abs(lit), lit > 0) != (lit > 0):
            return None
        value[abs(lit)] = lit > 0
    while True:
        changed = False
        for clause in clauses:
            free = [lit for lit in clause if abs(lit) not in value]
            if any(value.get(abs(lit)) == (lit > 0) for lit in clause):
                continue
            if not free:
                return None
            if len(free) == 1:
                value[abs(free[0])] = free[0] > 0
                changed = True
        if not changed:
            return value


def test_two_watched_literals_reach_the_naive_fixpoint() -> None:
    rng = random.Random(11)
    for _ in range(500):
        num_vars, clauses = random_formula(rng, 10, 25)
        clauses = [list(dict.fromkeys(c)) for c in clauses if not any(-lit in c for lit in c)]
        assumed = [rng.choice((1, -1)) * rng.randint(1, num_vars) for _ in range(rng.randint(0, 2))]
        assert unit_propagate([list(c) for c in clauses], assumed) == _naive(clauses, assumed), (clauses, assumed)


def test_deductions_are_sound_and_include_every_attack() -> None:
    for n in (6, 8, 9):
        for instance in range(1, 6):
            problem = Problem(n, random_preplacement(n, 2, seed=3, instance=instance))
            dead, forced, feasible = truth(problem)
            for encoding in ENCODINGS:
                d = deduced(problem, encoding)
                if d.conflict:
                    assert not feasible
                    continue
                attacked = {(r, c) for r in range(1, n + 1) for c in range(1, n + 1)
                            if any(attacks((r, c), q) for q in problem.preplaced)}
                assert attacked <= d.ruled_out
                if feasible:
                    assert d.ruled_out <= dead and d.forced <= forced


def test_strength_table() -> None:
    rows = strength([6, 8], 2, 6, ["pairwise", "binary"], seed=2)
    assert [(r["n"], r["encoding"]) for r in rows] == [(6, "pairwise"), (6, "binary"), (8, "pairwise"), (8, "binary")]
    for row in rows:
        assert 0 <= row["ruled_out"] <= row["dead"] and 0 <= row["refuted"] <= row["impossible"] <= 6
        assert row["visits"] > 0 and row["assigned"] > 0


def test_the_truth_is_what_every_completion_says() -> None:
    """``truth`` (bitmask backtracking) against the boards the kit's row-by-row backtracking lists: the cells
    no completion uses, the cells every completion uses, and whether there is one; pre-placed queens and
    blocked cells."""
    from nqueens_kit.methods.search.backtrack import iter_backtrack
    from nqueens_kit.problem.instances import random_blocked

    problems = [Problem(n) for n in range(1, 9)]
    problems += [Problem(n, random_preplacement(n, k, seed=3, instance=i))
                 for n in (5, 7, 9) for k in (1, 2, 3) for i in range(1, 5)]
    problems += [Problem(n, blocked=random_blocked(n, 0.4, 2, i)) for n in (5, 8) for i in range(1, 4)]
    problems += [Problem(6, [(1, 1), (2, 3)]), Problem(8, [(1, 1), (2, 3)]), Problem(3)]
    for problem in problems:
        boards = [set(board) for board in iter_backtrack(problem)]
        cells = {(r, c) for r in range(1, problem.n + 1) for c in range(1, problem.n + 1)}
        expected = ((cells - set().union(*boards), set.intersection(*boards), True) if boards
                    else (cells, set(), False))
        assert truth(problem) == expected, problem.describe()
    assert truth(Problem(4))[1] == set() and truth(Problem(4, [(1, 2)]))[1] == {(1, 2), (2, 4), (3, 1), (4, 3)}


def test_deductions_from_the_bare_formula_are_the_same() -> None:
    """``strength`` builds each encoding's bare formula once and appends the queens and blocked cells: the same
    clauses, in the same order, as building the problem's own formula, so the same deductions and visits."""
    import pytest

    from nqueens_kit import build_cnf
    from nqueens_kit.errors import InputError

    for n in (6, 9):
        for encoding in ENCODINGS:
            base = build_cnf(Problem(n), encoding)
            for instance in range(1, 6):
                queens = random_preplacement(n, 3, seed=4, instance=instance)
                blocked = tuple(cell for cell in ((1, n), (n, 1)) if cell not in queens)[:instance % 2]
                problem = Problem(n, queens, blocked=blocked)
                own = build_cnf(problem, encoding).clauses
                assert own[:len(base.clauses)] == base.clauses and len(own) == len(base.clauses) + 3 + len(blocked)
                assert deduced(problem, encoding, base) == deduced(problem, encoding)
    with pytest.raises(InputError, match="bare 6-queens formula"):
        deduced(Problem(6, [(1, 2)]), "pairwise", build_cnf(Problem(6, [(3, 3)]), "pairwise"))
