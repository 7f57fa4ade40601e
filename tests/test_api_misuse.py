"""Misusing the Python API gets the kit's own one-line errors, never a stray exception or a silent guess.

Every public entry point is called with values a user might pass by mistake (wrong types, out of range,
floats for whole numbers, unknown names, bad time limits); each call must raise an
:class:`~nqueens_kit.errors.NQueensError` whose message is one line.
"""

from __future__ import annotations

import math

import pytest

import nqueens_kit as kit
from nqueens_kit.errors import NQueensError
from nqueens_kit.methods.sat import cnf

BAD_N = [0, -5, 2.5, 8.0, "abc", None, True, [8], "²", "８", math.nan, 10**30, b"8", "1_000"]
BAD_CELLS = [[(1.7, 2.9)], [(9, 9)], [(0, 1)], ["x"], [(1,)], [(1, 2, 3)], "1,1", [None], 5, [(True, 1)], [(1, "²")]]
BAD_NAMES = ["", "nope", 3, ["pairwise"], "PAIRWISE"]
BAD_LIMITS = [0, -1, math.nan, math.inf, "soon", True, [1], "1e999"]

CALLS = []
for n in BAD_N:
    CALLS += [
        (f"Problem({n!r})", lambda n=n: kit.Problem(n)),
        (f"solve({n!r})", lambda n=n: kit.solve(n)),
        (f"count({n!r})", lambda n=n: kit.count(n)),
        (f"solve_ilp({n!r})", lambda n=n: kit.solve_ilp(n)),
        (f"construct({n!r})", lambda n=n: kit.construct(n)),
        (f"count_backtrack({n!r})", lambda n=n: kit.count_backtrack(n)),
        (f"iter_backtrack({n!r})", lambda n=n: list(kit.iter_backtrack(n))),
        (f"solve({n!r}, 'construct')", lambda n=n: kit.solve(n, "construct")),
        (f"build_cnf({n!r})", lambda n=n: kit.build_cnf(n)),
        (f"predicted_size({n!r})", lambda n=n: cnf.predicted_size(n)),
        (f"draw({n!r})", lambda n=n: kit.draw(n, [])),
    ]
for cells in BAD_CELLS:
    CALLS += [
        (f"Problem(8, {cells!r})", lambda c=cells: kit.Problem(8, c)),
        (f"iter_backtrack(4, {cells!r})", lambda c=cells: list(kit.iter_backtrack(4, c))),
        (f"canonical(8, {cells!r})", lambda c=cells: kit.canonical(8, c)),
        (f"transform(8, {cells!r})", lambda c=cells: kit.transform(8, c, 1)),
        (f"orbit(8, {cells!r})", lambda c=cells: kit.orbit(8, c)),
        (f"draw(4, {cells!r})", lambda c=cells: kit.draw(4, c)),
    ]
for name in BAD_NAMES:
    CALLS += [
        (f"solve(encoding={name!r})", lambda v=name: kit.solve(8, "sat", v)),
        (f"solve(solver={name!r})", lambda v=name: kit.solve(8, "sat", None, v)),
        (f"solve(method={name!r})", lambda v=name: kit.solve(8, v)),
        (f"solve_sat(solver={name!r})", lambda v=name: kit.solve_sat(8, solver=v)),
        (f"solve_ilp(formulation={name!r})", lambda v=name: kit.solve_ilp(8, v)),
        (f"solve_ilp(settings={name!r})", lambda v=name: kit.solve_ilp(8, settings=v)),
        (f"build_cnf(encoding={name!r})", lambda v=name: kit.build_cnf(6, v)),
        (f"transform(symmetry={name!r})", lambda v=name: kit.transform(4, [(1, 2)], 8 if v == 3 else v)),
        (f"count(variant={name!r})", lambda v=name: kit.count(6, "sat", v)),
    ]
for limit in BAD_LIMITS:
    CALLS += [
        (f"solve(time_limit={limit!r})", lambda t=limit: kit.solve(8, time_limit=t)),
        (f"solve_sat(time_limit={limit!r})", lambda t=limit: kit.solve_sat(8, time_limit=t)),
        (f"solve_ilp(time_limit={limit!r})", lambda t=limit: kit.solve_ilp(8, time_limit=t)),
        (f"count(time_limit={limit!r})", lambda t=limit: kit.count(6, time_limit=t)),
        (f"count_solutions(time_limit={limit!r})", lambda t=limit: kit.count_solutions(6, time_limit=t)),
    ]
CALLS += [
    ("solve(construct, encoding)", lambda: kit.solve(8, "construct", "binary")),
    ("count(backtrack, solver)", lambda: kit.count(8, "backtrack", solver="pycosat")),
    ("solve(sat, settings)", lambda: kit.solve(8, "sat", settings="tuned")),
    ("count(construct)", lambda: kit.count(8, "construct")),
    ("solve(construct, preplaced)", lambda: kit.solve(kit.Problem(8, [(1, 1)]), "construct")),
    ("solve(ilp, SAT solver)", lambda: kit.solve(8, "ilp", solver="pycosat")),
    ("solve(sat, ILP solver)", lambda: kit.solve(8, "sat", solver="cbc")),
    ("solve(max_memory='lots')", lambda: kit.solve(8, max_memory="lots")),
    ("solve(max_memory=1)", lambda: kit.solve(64, max_memory=1)),
    ("Problem(8, [(1, 1), (2, 2)])", lambda: kit.Problem(8, [(1, 1), (2, 2)])),
]


@pytest.mark.parametrize("call", [c for _, c in CALLS], ids=[label for label, _ in CALLS])
def test_misuse_is_a_one_line_kit_error(call):
    with pytest.raises(NQueensError) as error:
        call()
    message = str(error.value)
    assert message and "\n" not in message


def test_there_are_many_misuse_calls():
    assert len(CALLS) > 150


def test_whole_numbers_given_as_text_or_numpy_are_fine():
    np = pytest.importorskip("numpy")
    assert kit.Problem("8", [("1", "2")]).preplaced == ((1, 2),)
    assert kit.Problem(np.int64(6)).n == 6 and kit.solve(np.int32(6)).verified


def test_verify_says_false_for_anything_that_is_not_a_board():
    for junk in (5, None, ["ab", "cd"], [(1.0, 1.0)], [(1, 1, 1)], [(1.5, 1), (2, 2)]):
        assert kit.verify(2 if junk == [(1.5, 1), (2, 2)] else 1, junk) is False
