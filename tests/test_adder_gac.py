"""The adder at-most-k encoding (correct, not GAC) and the GAC checks of chapter 4."""

from __future__ import annotations

from itertools import product

import pycosat
import pytest

from nqueens_kit.course.exercises import check_at_most_k, check_at_most_one
from nqueens_kit.course.gac import ADDER, adder_board, board_gac, count_work, line_gac
from nqueens_kit.errors import InputError
from nqueens_kit.methods.sat.adder import adder_at_most_k, adder_at_most_one, at_most, binary_sum
from nqueens_kit.methods.sat.encodings import ENCODINGS, VarPool, pairwise


def test_the_adder_is_a_correct_at_most_k():
    assert check_at_most_k(adder_at_most_k)
    assert check_at_most_one(adder_at_most_one)


@pytest.mark.parametrize("m", [1, 2, 3, 5, 8])
def test_the_binary_sum_spells_the_count(m):
    """With every input fixed, the adder bits are forced to the binary count of the true inputs."""
    lits = list(range(1, m + 1))
    bits, clauses = binary_sum(lits, VarPool(m))
    for values in product((False, True), repeat=m):
        units = [[x if v else -x] for x, v in zip(lits, values, strict=True)]
        models = list(pycosat.itersolve(clauses + units))
        assert len(models) == 1  # the helpers are defined both ways: one model per input assignment
        model = set(models[0])
        assert sum(1 << i for i, bit in enumerate(bits) if bit in model) == sum(values)


def test_the_comparator_allows_exactly_the_numbers_up_to_k():
    bits = [1, 2, 3, 4]
    for k in range(0, 17):
        clauses = at_most(bits, k)
        for number in range(16):
            units = [[b if (number >> i) & 1 else -b] for i, b in enumerate(bits)]
            assert (pycosat.solve(clauses + units) != "UNSAT") == (number <= k), (k, number)


def test_the_adder_refuses_a_negative_k_and_needs_nothing_when_k_covers_every_literal():
    with pytest.raises(InputError):
        adder_at_most_k([1, 2], -1, VarPool(2))
    assert adder_at_most_k([1, 2, 3], 3, VarPool(3)) == []


@pytest.mark.parametrize("name", list(ENCODINGS))
def test_every_chapter_encoding_propagates_to_gac(name):
    for m in (2, 5):
        assert line_gac(ENCODINGS[name].at_most_one, m).missed == 0
        assert line_gac(ENCODINGS[name].at_most_one, m, exact=True).missed == 0


def test_the_adder_misses_gac_and_the_example_is_a_real_miss():
    check = line_gac(adder_at_most_one, 4)
    assert check.partial == 3**4 and check.missed > 0
    given, missing = check.example
    assert sum(given.values()) == 1 and missing  # one literal true, others GAC rules out
    assert line_gac(lambda lits, pool: adder_at_most_k(lits, 2, pool), 5, k=2).missed > 0


def test_line_gac_catches_a_broken_encoding_and_a_weak_one():
    with pytest.raises(InputError, match="wrong"):
        line_gac(lambda lits, pool: [[-lits[0]]], 3)  # refutes x1 = 1, which at most one allows
    # too weak (allows two true): GAC would rule out, propagation cannot
    assert line_gac(lambda lits, pool: pairwise(lits[1:], pool), 3).missed > 0
    with pytest.raises(InputError):
        line_gac(adder_at_most_one, 10)


def test_on_the_board_only_the_adder_leaves_attacked_cells_open():
    board = board_gac(6, ["pairwise", "sequential"])
    assert board.ruled_out["pairwise"] == board.ruled_out["sequential"] == board.attacked
    assert board.ruled_out[ADDER] == 8  # the four 2-cell diagonals, both cells of each
    queen, still_open = board.example
    assert queen == (1, 1) and (1, 2) in still_open
    clauses, top = adder_board(6)
    assert top > 36 and len(clauses) == board.clauses[ADDER]


def test_counting_with_the_adder_finds_the_same_boards():
    pair, adder = count_work(6, "pairwise"), count_work(6, ADDER)
    assert pair["boards"] == adder["boards"] == 4
    assert adder["propagations"] > pair["propagations"] > 0
