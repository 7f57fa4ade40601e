"""What chapters 1 and 2 teach about a SAT solver's own deduction, checked against the kit itself."""

from __future__ import annotations

import json
from pathlib import Path

import pycosat
import pytest

from nqueens_kit import Problem, build_cnf, solve_sat, verify
from nqueens_kit.inside.cdcl import trace
from nqueens_kit.inside.propagation import propagate
from nqueens_kit.methods.sat.encodings import VarPool, pairwise

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"


def test_one_queen_on_phi4_rules_out_nine_cells_then_forces_the_board() -> None:
    board = Problem(4)
    run = propagate(build_cnf(board).clauses, [board.var(1, 2)])
    first = [lit for lit, reason in run.trail if len(reason) == 2 and -board.var(1, 2) in reason]
    assert len(first) == 9 and all(lit < 0 for lit in first)
    assert run.trail[len(first)][0] == board.var(2, 4)  # row 2's at-least-one is the next unit clause
    queens = build_cnf(board).decode([v if true else -v for v, true in run.value.items()])
    assert run.conflict is None and verify(4, queens) and (1, 2) in queens


@pytest.mark.parametrize("k", [2, 3, 5, 8])
def test_unit_propagation_on_a_pairwise_line_is_generalized_arc_consistency(k: int) -> None:
    """For every placement of one queen on a line (and for none), propagation rules out exactly the cells
    that no assignment allowed by the line's at-most-one can give a queen."""
    lits = list(range(1, k + 1))
    clauses = pairwise(lits, VarPool(k))
    for queen in [None, *lits]:
        run = propagate(clauses, [queen] if queen else [])
        assert run.value is not None
        ruled_out = {v for v, true in run.value.items() if not true}
        supported = {x for x in lits if pycosat.solve(clauses + [[x]] + ([[queen]] if queen else [])) != "UNSAT"}
        assert ruled_out == set(lits) - supported


def test_every_learned_clause_is_implied_and_there_is_one_per_conflict() -> None:
    run = trace(6)
    assert run.status == "solved" and run.stats["conflicts"] == len(run.learned) > 0
    for learned in run.learned:
        assert pycosat.solve(run.cnf.clauses + [[-lit] for lit in learned]) == "UNSAT"


def test_verified_is_none_only_when_there_is_no_board() -> None:
    for n in range(1, 6):
        result = solve_sat(n)
        assert (result.verified is None) == (n in (2, 3))


@pytest.mark.parametrize("name, words", [
    ("02-solving-with-sat.ipynb", ["unit propagation", "DPLL", "CDCL", "two watched literals", "learned clause",
                                   "generalized arc consistency", "Tseitin", "Plaisted", "projected model counting",
                                   "sequential counter", "totalizer", "check_first_propagation"]),
    ("01-rules-to-clauses.ipynb", ["only a claim", "no board to check"]),
])
def test_the_chapters_define_what_later_chapters_rely_on(name: str, words: list[str]) -> None:
    text = "\n".join("".join(cell["source"]) for cell in json.loads((NOTEBOOKS / name).read_text())["cells"])
    for word in words:
        assert word.lower() in text.lower(), f"{name} does not say {word!r}"
    assert "often helps the solver" not in text
