"""A refutation by resolution, checked step by step: a shortest one of Φ₂ passes (and none is shorter), and
each kind of wrong step is named."""

from __future__ import annotations

import numpy as np
import pytest

from nqueens_kit import build_cnf
from nqueens_kit.course.exercises import check_resolution_proof, resolve
from nqueens_kit.errors import InputError

#: A shortest refutation of Φ₂ (cell (r, c) is variable (r - 1)·2 + c): row 2's queen can only be on (2,1),
#: and row 1's queen, on either cell, attacks (2,1).
SHORTEST = [
    (["P[1,1]", "P[2,1]"], ["¬P[1,1]", "¬P[2,2]"], ["P[2,1]", "¬P[2,2]"]),  # column 1 and the diagonal
    (["P[2,1]", "P[2,2]"], ["P[2,1]", "¬P[2,2]"], ["P[2,1]"]),  # row 2
    (["P[1,1]", "P[1,2]"], ["¬P[1,2]", "¬P[2,1]"], ["P[1,1]", "¬P[2,1]"]),  # row 1 and the anti-diagonal
    (["P[1,1]", "¬P[2,1]"], ["¬P[1,1]", "¬P[2,1]"], ["¬P[2,1]"]),  # column 1
    (["P[2,1]"], ["¬P[2,1]"], []),
]
DIMACS = [([1, 3], [-1, -4], [3, -4]), ([3, 4], [3, -4], [3]), ([1, 2], [-2, -3], [1, -3]),
          ([1, -3], [-1, -3], [-3]), ([3], [-3], [])]


def test_the_shortest_refutation_of_phi2_passes_in_every_notation() -> None:
    for proof in (SHORTEST, DIMACS):
        verdict = check_resolution_proof(proof)
        assert verdict and verdict.message.startswith("Correct") and "5 steps" in verdict.message
    mixed = [({1, 3}, (-1, -4), np.array([3, -4])), (["-P[2,2]", 3], "P[2,1] ∨ P[2,2]", [np.int64(3)]),
             ("P[1,2] or P[1,1]", ["~P[1,2]", "not P[2,1]"], [1, -3]), ([-3, -1], [1, -3], ("-P[2,1]",)),
             ([np.int32(-3)], [3], set())]
    assert check_resolution_proof(mixed)
    assert check_resolution_proof(DIMACS, n=2) and check_resolution_proof(DIMACS, cnf=build_cnf(2))
    assert check_resolution_proof(DIMACS, cnf=build_cnf(2).clauses)  # a plain list of clauses, DIMACS only


def _resolvents(known: set[frozenset[int]]) -> set[frozenset[int]]:
    found = set()
    for a in known:
        for b in known:
            clashes = {abs(lit) for lit in a if -lit in b}
            if len(clashes) == 1:
                pivot = clashes.pop()
                found.add((a | b) - {pivot, -pivot})
    return found - known


def _refutable(known: set[frozenset[int]], steps: int) -> bool:
    if frozenset() in known:
        return True
    if steps == 0:
        return False
    if steps == 1:  # the last step resolves two opposite units
        return any(frozenset({-next(iter(c))}) in known for c in known if len(c) == 1)
    return any(_refutable(known | {r}, steps - 1) for r in _resolvents(known))


def test_no_refutation_of_phi2_is_shorter_than_five_steps() -> None:
    phi2 = {frozenset(c) for c in build_cnf(2).clauses}
    assert not _refutable(phi2, 4)
    assert _refutable(phi2, 5)


def test_phi3_has_a_refutation_the_checker_accepts() -> None:
    """A refutation of Φ₃ (3-queens, cell (r, c) is variable (r - 1)·3 + c) found by saturation, replayed."""
    phi3 = {frozenset(c) for c in build_cnf(3).clauses}
    derived: dict[frozenset[int], tuple[frozenset[int], frozenset[int]]] = {}
    known = set(phi3)
    while frozenset() not in known:
        new = {}
        for a in sorted(known, key=len):
            for b in sorted(known, key=len):
                clashes = {abs(lit) for lit in a if -lit in b}
                if len(clashes) == 1:
                    pivot = clashes.pop()
                    r = (a | b) - {pivot, -pivot}
                    if r not in known and r not in new and len(r) <= 3:
                        new[r] = (a, b)
        assert new
        derived.update(new)
        known |= set(new)
    steps: list[tuple[list[int], list[int], list[int]]] = []
    done: set[frozenset[int]] = set()

    def emit(goal: frozenset[int]) -> None:
        if goal in phi3 or goal in done:
            return
        a, b = derived[goal]
        emit(a)
        emit(b)
        steps.append((sorted(a), sorted(b), sorted(goal)))
        done.add(goal)

    emit(frozenset())
    assert check_resolution_proof(steps, n=3)
    assert not check_resolution_proof(steps)  # a refutation of Φ₃ is no refutation of Φ₂


@pytest.mark.parametrize(("proof", "step", "said"), [
    ([([1, 3], [-1, -4], [3, -4]), ([3, 4], [3, -4], [3]), ([3], [-3], [])], 3,
     "is neither a clause of Φ₂ nor the resolvent of an earlier step"),
    ([([3, 4], [3, -4], [3])] + DIMACS, 1, "step 2 derives it, later"),
    ([([1, 2], [-1, -2], [])], 1, "clash on 2 variables"),
    ([([1, 2], [3, 4], [1, 2, 3, 4])], 1, "nothing to resolve on"),
    ([([1, 3], [-1, -4], [3])] + DIMACS[1:], 1, "is lost, yet every other literal"),
    ([([1, 3], [-1, -4], [3, -4, 2])] + DIMACS[1:], 1, "is in neither clause"),
    ([([1, 3], [-1, -4], [1, 3, -4])] + DIMACS[1:], 1, "both literals of the variable resolved on go"),
    (DIMACS[:4], 4, "not the empty clause"),
    (DIMACS + [([1, 3], [-1, -4], [3, -4])], 6, "step 5 already derived it"),
    ([([1, 3], [-1, -4])], 1, "three clauses"),
    ([([1, 3], [-1, -4], "3 -4")], 1, "'3 -4' is not a literal"),
    ([([1, 3], [-1, -4], 34)], 1, "a clause is a list of literals"),
    ([([1, 3], [-1, -4], [3, 9])], 1, "not a literal of this formula"),
    ([([1, 3], [-1, -4], [3, 2.5])], 1, "non-zero whole number"),
    ([(["P[1,1]", "P[3,1]"], [-1, -4], [3, -4])], 1, "no cell (3,1)"),
])
def test_each_wrong_step_is_named(proof, step: int, said: str) -> None:
    verdict = check_resolution_proof(proof)
    assert not verdict and verdict.message.startswith("Not yet") and said in verdict.message, verdict.message
    assert verdict.counterexample == step and "\n" not in verdict.message
    if verdict.message.startswith("Not yet: step"):
        assert verdict.message.startswith(f"Not yet: step {step}")


def test_a_proof_that_is_not_a_list_of_steps_is_a_verdict() -> None:
    for junk in (None, "1 2 0", 5, []):
        verdict = check_resolution_proof(junk)
        assert not verdict and verdict.message.startswith("Not yet")


def test_misuse_of_the_checker_is_a_one_line_error() -> None:
    for call in (lambda: check_resolution_proof(DIMACS, n=4), lambda: check_resolution_proof(DIMACS, n="2"),
                 lambda: check_resolution_proof(DIMACS, n=2, cnf=build_cnf(2)),
                 lambda: check_resolution_proof(DIMACS, cnf="clauses"),
                 lambda: check_resolution_proof(DIMACS, cnf=[[1, "x"]])):
        with pytest.raises(InputError) as error:
            call()
        assert "\n" not in str(error.value)


def test_resolve_reads_numpy_literals() -> None:
    assert resolve(np.array([1, 2]), [np.int64(-1), 3]) == [2, 3]
    with pytest.raises(InputError, match="clash on 2 variables"):
        resolve([1, 2], [-1, -2])
