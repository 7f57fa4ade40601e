from __future__ import annotations

from itertools import product as cartesian

import pycosat
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nqueens_kit.errors import InputError
from nqueens_kit.methods.sat.encodings import ENCODINGS, VarPool, exactly_one, get_encoding


def _satisfiable_with(clauses, num_vars, fixed):
    result = pycosat.solve(clauses + [[lit] for lit in fixed], vars=max(num_vars, 1))
    return result != "UNSAT"


@pytest.mark.parametrize("name", list(ENCODINGS))
@pytest.mark.parametrize("define", [False, True])
@pytest.mark.parametrize("k", range(0, 10))
def test_at_most_one_is_exactly_right(name, define, k):
    """For every assignment of the k literals: extendable to a model iff at most one is true."""
    lits = list(range(1, k + 1))
    pool = VarPool(k)
    clauses = get_encoding(name).at_most_one(lits, pool, define)
    assert all(0 < abs(l) <= pool.top for c in clauses for l in c)
    assert all(len(set(c)) == len(c) and c for c in clauses)
    for bits in cartesian([False, True], repeat=k):
        fixed = [x if b else -x for x, b in zip(lits, bits)]
        assert _satisfiable_with(clauses, pool.top, fixed) == (sum(bits) <= 1), (name, bits)


@pytest.mark.parametrize("name", list(ENCODINGS))
@pytest.mark.parametrize("k", range(0, 9))
def test_defined_helpers_have_one_model_per_assignment(name, k):
    lits = list(range(1, k + 1))
    pool = VarPool(k)
    clauses = get_encoding(name).at_most_one(lits, pool, True)
    if k <= 1:
        assert clauses == []  # nothing to say about one literal
        return
    models = list(pycosat.itersolve(clauses, vars=pool.top))
    # k + 1 assignments of the literals satisfy at most one (all false, or one of k true): one model each
    assert len(models) == k + 1


@pytest.mark.parametrize("name", list(ENCODINGS))
@given(k=st.integers(min_value=0, max_value=300))
@settings(max_examples=60, deadline=None)
def test_closed_form_counts_match_generated(name, k):
    pool = VarPool(1000)
    clauses = get_encoding(name).at_most_one(list(range(1, k + 1)), pool)
    assert ENCODINGS[name].counts(k) == (pool.top - 1000, len(clauses))


def test_known_sizes():
    assert ENCODINGS["pairwise"].counts(8) == (0, 28)
    assert ENCODINGS["sequential"].counts(8) == (7, 20)
    assert ENCODINGS["binary"].counts(8) == (3, 24)
    assert ENCODINGS["binary"].counts(9) == (4, 36)


def test_helpers_come_after_top():
    pool = VarPool(64)
    clauses = ENCODINGS["sequential"].at_most_one([1, 2, 3, 4], pool)
    helpers = {abs(l) for c in clauses for l in c} - {1, 2, 3, 4}
    assert helpers and min(helpers) == 65 and pool.top == 67


def test_exactly_one():
    clauses = exactly_one([1, 2, 3], VarPool(3), "pairwise")
    assert clauses[0] == [1, 2, 3] and len(clauses) == 4
    assert pycosat.solve(clauses + [[-1], [-2], [-3]]) == "UNSAT"


def test_unknown_encoding_lists_valid_names():
    with pytest.raises(InputError, match="valid: pairwise, sequential, commander, product, binary"):
        get_encoding("ladder")
