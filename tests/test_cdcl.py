"""The kit's own CDCL solver: it agrees with pycosat, its trace replays, its learned clauses are a proof."""

from __future__ import annotations

import random

import pycosat
import pytest

from nqueens_kit import ENCODINGS, Problem, build_cnf, verify
from nqueens_kit.bench import random_preplacement
from nqueens_kit.errors import InputError
from nqueens_kit.inside.cdcl import KINDS, Solver, _luby, event_text, trace, trace_cadical

from .conftest import random_formula


def _pycosat_board(cnf):
    model = pycosat.solve(cnf.clauses, vars=cnf.num_vars)
    return None if model == "UNSAT" else cnf.decode(model)


def _problems():
    for n in range(1, 10):
        yield Problem(n)
    for n in range(4, 10):
        for k in (1, 2, 3):
            if k < n:
                for instance in (1, 2):
                    yield Problem(n, random_preplacement(n, k, seed=7, instance=instance))


@pytest.mark.parametrize("encoding", list(ENCODINGS))
def test_agrees_with_pycosat_on_every_small_problem(encoding: str) -> None:
    for problem in _problems():
        result = trace(problem, encoding)
        expected = _pycosat_board(build_cnf(problem, encoding))
        assert result.status == ("infeasible" if expected is None else "solved"), problem.describe()
        if expected is not None:
            assert verify(problem.n, result.queens) and set(problem.preplaced) <= set(result.queens)


def _replay(cnf, events) -> None:
    """Walk the trace with an assignment of our own: every propagation is forced by its clause, every
    conflict clause is false, every decision is on a free variable, backjumps undo exactly the levels."""
    value: dict[int, tuple[bool, int]] = {}
    level = 0
    for event in events:
        if event.kind == "decide":
            level += 1
            assert event.level == level and abs(event.literal) not in value
            value[abs(event.literal)] = (event.literal > 0, level)
        elif event.kind == "propagate":
            assert event.literal in event.clause and abs(event.literal) not in value
            for lit in event.clause:
                if lit != event.literal:
                    assert abs(lit) in value and value[abs(lit)][0] != (lit > 0), (event, lit)
            value[abs(event.literal)] = (event.literal > 0, level)
        elif event.kind == "conflict":
            assert all(abs(lit) in value and value[abs(lit)][0] != (lit > 0) for lit in event.clause)
        elif event.kind in ("backjump", "restart"):
            assert event.to_level < level or (event.to_level == 0 and level == 0)
            level = event.to_level
            value = {v: (b, lv) for v, (b, lv) in value.items() if lv <= level}


@pytest.mark.parametrize("n", [3, 4, 6, 8])
def test_the_trace_replays(n: int) -> None:
    for encoding in ENCODINGS:
        result = trace(n, encoding)
        assert {e.kind for e in result.events} <= set(KINDS)
        _replay(result.cnf, result.events)


def test_learned_clauses_are_a_checked_drup_proof() -> None:
    dratify = pytest.importorskip("dratify")
    for problem in (Problem(3), Problem(2), Problem(8, [(1, 1), (2, 3)]), Problem(6, [(1, 1)])):
        for encoding in ("pairwise", "sequential", "binary"):
            cnf = build_cnf(problem, encoding)
            solver = Solver(cnf.clauses, cnf.num_vars, record=False)
            assert solver.solve() is False
            proof = "".join(" ".join(map(str, lemma)) + " 0\n" for lemma in solver.learned)
            formula = dratify.parse_dimacs(cnf.to_dimacs(comments=False))
            assert dratify.check_proof(formula, proof).ok, (problem.describe(), encoding)
            if len(solver.learned) > 1:  # without its lemmas the empty clause does not follow by propagation
                assert not dratify.check_proof(formula, "0\n").ok


def test_enumeration_with_blocking_clauses_matches_pycosat() -> None:
    for n in range(1, 8):
        cnf = build_cnf(n)
        mine, clauses = set(), [list(c) for c in cnf.clauses]
        while True:
            solver = Solver(clauses, cnf.num_vars, record=False)
            if not solver.solve():
                break
            board = tuple(sorted(cnf.decode(solver.model())))
            mine.add(board)
            clauses.append([-((r - 1) * n + c) for r, c in board])
        theirs = {tuple(sorted(cnf.decode(m))) for m in pycosat.itersolve(cnf.clauses, vars=cnf.num_vars)}
        assert mine == theirs, n


def test_random_formulas_agree_with_pycosat() -> None:
    rng = random.Random(3)
    for _ in range(300):
        num_vars, clauses = random_formula(rng, 12, 50)
        solver = Solver(clauses, num_vars, record=False, restart_base=2)
        answer = solver.solve()
        expected = pycosat.solve(clauses, vars=num_vars)
        assert answer == (expected != "UNSAT"), clauses
        if answer:
            model = set(solver.model())
            assert all(any(lit in model for lit in clause) for clause in clauses)


def test_limits_and_bad_input() -> None:
    stopped = trace(12, "sequential", max_events=50)
    assert stopped.status == "timeout" and "50 events" in stopped.note and len(stopped.events) <= 60
    with pytest.raises(InputError, match="up to n = 30"):
        trace(31)
    with pytest.raises(InputError, match="max_events"):
        trace(4, max_events=0)
    with pytest.raises(InputError, match="time limit"):
        trace(4, time_limit=-1)
    with pytest.raises(InputError, match="outside 1..2"):
        Solver([[1, 3]], 2)
    assert Solver([[]], 1).solve() is False
    assert [_luby(i) for i in range(1, 16)] == [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]


def test_event_text_uses_the_lecture_notation() -> None:
    result = trace(4)
    lines = [event_text(e, result.cnf) for e in result.events]
    assert lines[0].startswith("decide") and "P[1,1]" in lines[0]
    assert any("because ¬P[1,1] ∨ ¬P[1,2]" in line for line in lines)
    assert any(line.startswith("learn") and "back to level" in line for line in lines)
    data = result.as_dict()
    assert data["status"] == "solved" and data["queens"] == [list(q) for q in result.queens]
    assert all(e["kind"] in KINDS for e in data["events"])


def test_a_real_solver_trail() -> None:
    pytest.importorskip("pysat.engines")
    result = trace_cadical(6)
    assert result.status == "solved" and verify(6, result.queens) and result.engine == "cadical"
    kinds = [e.kind for e in result.events]
    assert kinds[0] == "decide" and "propagate" in kinds
    assert result.stats["decisions"] == kinds.count("decide")
    assert trace_cadical(3).status == "infeasible"
