"""At-most-k encodings (methods/sat/cardinality.py) and the checkers for chapters 1 and 2."""

from __future__ import annotations

import itertools

import pycosat
import pytest

from nqueens_kit.course.exercises import check_at_most_k, check_at_most_one, check_first_propagation
from nqueens_kit.errors import InputError
from nqueens_kit.methods.sat.cardinality import (
    AT_MOST_K,
    at_most_k_size,
    sequential_counter,
    sequential_counter_size,
    totalizer,
)
from nqueens_kit.methods.sat.encodings import VarPool, _pairwise, ceil_sqrt, commander, product

RULED_OUT = [(1, 1), (1, 3), (1, 4), (2, 1), (2, 2), (2, 3), (3, 2), (3, 4), (4, 2)]


@pytest.mark.parametrize("name", sorted(AT_MOST_K))
def test_each_encoding_allows_exactly_the_assignments_with_at_most_k(name: str) -> None:
    """Independent of the checker: every assignment of up to 7 inputs, every k, solved with pycosat."""
    encode = AT_MOST_K[name]
    for n in range(1, 8):
        for k in range(n + 2):
            pool = VarPool(n)
            clauses = encode(list(range(1, n + 1)), k, pool)
            for values in itertools.product((False, True), repeat=n):
                units = [[i + 1 if v else -(i + 1)] for i, v in enumerate(values)]
                assert (pycosat.solve(clauses + units) != "UNSAT") == (sum(values) <= k), (name, n, k, values)


def test_the_checker_accepts_both_and_the_sizes_match_the_closed_form() -> None:
    assert check_at_most_k(sequential_counter) and check_at_most_k(totalizer)
    for n in range(2, 20):
        for k in range(1, n):
            assert at_most_k_size("sequential_counter", n, k) == sequential_counter_size(n, k)
    # k = 1 is chapter 4's at-most-one sequential counter: n - 1 helpers, 3n - 4 clauses
    assert at_most_k_size("sequential_counter", 8, 1) == (7, 20)
    assert at_most_k_size("sequential_counter", 5, 0) == (0, 5) and at_most_k_size("totalizer", 5, 5) == (0, 0)


@pytest.mark.parametrize("wrong, flaw", [
    (lambda lits, k, pool: sequential_counter(lits, k + 1, pool), "more than k = 1"),
    (lambda lits, k, pool: sequential_counter(lits, max(k - 1, 0), pool), "no more than k = 1"),
    (lambda lits, k, pool: totalizer(lits, k, pool)[:-1], "counting past k"),
    (lambda lits, k, pool: sequential_counter(lits, k, pool) if k else [], "every literal must be false"),
    (lambda lits, k, pool: [[-x] for x in lits[k:]], "more than k"),   # "the last n - k are false"
    (lambda lits, k, pool: [[-lits[0], pool.new() + 99]], "pool.new()"),
    (lambda lits, k, pool: None, "None"),
    (lambda lits, k, pool: 1 / 0, "ZeroDivisionError"),
])
def test_check_at_most_k_names_the_flaw(wrong, flaw: str) -> None:
    verdict = check_at_most_k(wrong)
    assert not verdict and flaw in verdict.message, verdict.message


def test_check_at_most_k_refuses_a_non_function_and_a_huge_range() -> None:
    with pytest.raises(InputError):
        check_at_most_k(5)  # type: ignore[arg-type]
    with pytest.raises(InputError):
        check_at_most_k(sequential_counter, max_n=40)


def _product_with_wrong_recursion(lits, pool):
    """Chen's product encoding whose recursion is wrong only where it recurses into itself (k >= 17)."""
    lits = list(lits)
    k = len(lits)
    if k <= 4:
        return _pairwise(lits)
    q = ceil_sqrt(k)
    p = -(-k // q)
    u, v = pool.take(p), pool.take(q)
    clauses = [c for i, x in enumerate(lits) for c in ([-x, u[i // q]], [-x, v[i % q]])]
    below = _pairwise(v) if q <= 4 else _product_with_wrong_recursion(v[:-1], pool)  # drops the last v
    return clauses + _product_with_wrong_recursion(u, pool) + below


def test_check_at_most_one_reaches_the_product_recursion() -> None:
    verdict = check_at_most_one(_product_with_wrong_recursion)
    assert not verdict and len(verdict.counterexample[0]) == 17
    assert check_at_most_one(product) and check_at_most_one(commander)
    # the message says honestly what was tried
    assert "every assignment of 1 to 6 literals" in check_at_most_one(product).message


@pytest.mark.parametrize("ruled_out, forced", [
    (RULED_OUT, [(2, 4)]),
    (list(reversed(RULED_OUT)), (2, 4)),
    ([f"{r},{c}" for r, c in RULED_OUT], ["2,4"]),
    ([[r, c] for r, c in RULED_OUT] + [(1, 1)], {(2, 4)}),
])
def test_check_first_propagation_accepts_every_form_of_the_right_answer(ruled_out, forced) -> None:
    assert check_first_propagation(ruled_out, forced)


@pytest.mark.parametrize("ruled_out, forced, flaw", [
    (RULED_OUT[:-1], [(2, 4)], "(4, 2) is missing: it shares column 2"),
    ([c for c in RULED_OUT if c != (2, 3)], [(2, 4)], "diagonal r - c = -1"),
    (RULED_OUT + [(1, 2)], [(2, 4)], "queen's own cell"),
    (RULED_OUT + [(4, 4)], [(2, 4)], "(4, 4) shares no line"),
    (RULED_OUT + [(2, 4)], [(2, 4)], "a queen is forced there next"),
    (RULED_OUT, [], "row 2's at-least-one clause"),
    (RULED_OUT, [(2, 4), (4, 3)], "no clause forces (4, 3) yet"),
    ("1,1", [], "list of cells"),
    (RULED_OUT, [(2, 4), (1, 1)], "(1, 1) is ruled out in the first round"),
    (RULED_OUT, [(2, 4), (1, 2)], "the queen's own cell: it was placed"),
])
def test_check_first_propagation_names_the_flaw(ruled_out, forced, flaw: str) -> None:
    verdict = check_first_propagation(ruled_out, forced)
    assert not verdict and flaw in verdict.message, verdict.message


def test_check_first_propagation_on_another_board() -> None:
    # a corner queen on 5 x 5: 12 cells ruled out, and no at-least-one clause is unit yet
    out = [(1, c) for c in range(2, 6)] + [(r, 1) for r in range(2, 6)] + [(i, i) for i in range(2, 6)]
    assert check_first_propagation(out, [], n=5, queen=(1, 1))
    assert not check_first_propagation(out, [(2, 3)], n=5, queen=(1, 1))
