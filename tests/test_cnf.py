from __future__ import annotations

import itertools

import pytest

from nqueens_kit.errors import NQueensError
from nqueens_kit.methods.sat.cnf import (
    build_cnf,
    dimacs_text,
    line_lengths,
    pairwise_clause_formula,
    predicted_size,
)
from nqueens_kit.methods.sat.encodings import ENCODINGS
from nqueens_kit.problem.board import Problem


def test_lecture_counts():
    assert (build_cnf(7).num_vars, build_cnf(7).num_clauses) == (49, 490)
    assert build_cnf(8).num_clauses == 744
    assert dimacs_text(build_cnf(7)).count("\np cnf 49 490\n") == 1


@pytest.mark.parametrize("n", range(1, 40))
def test_pairwise_formula(n):
    assert build_cnf(n).num_clauses == pairwise_clause_formula(n)


def test_naive_ordered_pair_loop_double_counts():
    """The all-4-tuples loop writes each diagonal clause twice: 1016 clauses at n = 8, not 744."""
    n = 8
    naive_diag = sum(
        1 for r1, c1, r2, c2 in itertools.product(range(n), repeat=4)
        if (r1, c1) != (r2, c2) and abs(r1 - r2) == abs(c1 - c2)
    )
    rows_cols = n + 2 * n * (n * (n - 1) // 2)  # seed's row ALO + row and column AMO
    assert rows_cols + naive_diag == 1016
    cnf = build_cnf(n)
    distinct_diag = sum(len(g) for g in cnf.groups if g.name.startswith(("diag", "anti")))
    assert naive_diag == 2 * distinct_diag


@pytest.mark.parametrize("encoding", list(ENCODINGS))
@pytest.mark.parametrize("define", [False, True])
def test_predicted_sizes(encoding, define):
    for n in list(range(1, 26)) + [64]:
        cnf = build_cnf(n, encoding, define)
        assert (cnf.num_vars, cnf.num_clauses) == predicted_size(n, encoding, define=define)


def test_line_lengths_sum_to_cells():
    for n in range(1, 30):
        diag_cells = sum(k * m for k, m, exact in line_lengths(n) if not exact)
        assert diag_cells == (2 * (n * n - 2) if n >= 2 else 0)


def test_variable_numbering_and_helpers_after_board():
    cnf = build_cnf(Problem(5, [(2, 3)]), "sequential")
    assert cnf.problem.var(2, 3) == 8 and cnf.problem.cell(8) == (2, 3)
    assert [8] in cnf.clauses
    board_lits = {abs(l) for c in cnf.clauses for l in c if abs(l) <= 25}
    assert board_lits == set(range(1, 26))
    assert cnf.num_vars > 25 and cnf.literal_name(26) == "h1" and cnf.literal_name(-8) == "¬P[2,3]"


def test_groups_cover_every_clause_once():
    for encoding in ENCODINGS:
        cnf = build_cnf(Problem(6, [(1, 2)]), encoding)
        covered = sorted(i for g in cnf.groups for i in range(g.start, g.stop))
        assert covered == list(range(cnf.num_clauses))
        assert cnf.origin(0).label == "row_1: at least one"
        assert cnf.origin(cnf.num_clauses - 1).label == "placed_1_2: pre-placed queen"


def test_clause_origins_match_their_cells():
    cnf = build_cnf(6)
    for g in cnf.groups:
        kind, index = g.name.split("_")
        for i in range(g.start, g.stop):
            cells = [cnf.problem.cell(abs(l)) for l in cnf.clauses[i]]
            key = {"row": lambda c: c[0], "col": lambda c: c[1], "diag": lambda c: c[0] - c[1] + 6,
                   "anti": lambda c: c[0] + c[1] - 1}[kind]
            assert {key(c) for c in cells} == {int(index)}
    assert cnf.clause_text(cnf.groups_of("row_1")[1].start) == "¬P[1,1] ∨ ¬P[1,2]"


@pytest.mark.parametrize("encoding", list(ENCODINGS))
def test_residual_formula_has_exactly_the_completions(encoding):
    """The sub-problem formula of fixed queens has one model per completion (helpers defined), and the
    completions are the independent backtracker's; a row or column left without a cell gives None."""
    import random

    import pycosat

    from nqueens_kit.methods.sat.cnf import build_residual
    from nqueens_kit.methods.search.backtrack import iter_backtrack

    rng = random.Random(7)
    tried = 0
    while tried < 12:
        n = rng.randint(4, 9)
        queens = {(rng.randint(1, n), rng.randint(1, n)) for _ in range(rng.randint(1, 3))}
        try:
            problem = Problem(n, sorted(queens))
        except NQueensError:
            continue  # the queens attack each other
        tried += 1
        truth = sorted(iter_backtrack(problem))
        residual = build_residual(Problem(n), queens, encoding, define=True)
        if residual is None:  # a row or column has no open cell: nothing completes
            assert truth == []
            continue
        assert len(residual.cells) == len(set(residual.cells))
        assert all(abs(lit) <= residual.num_vars for clause in residual.clauses for lit in clause)
        found = sorted(residual.board(model) for model in pycosat.itersolve(residual.clauses, vars=residual.num_vars))
        assert found == truth, (n, queens, encoding)
