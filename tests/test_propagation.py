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
