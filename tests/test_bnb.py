"""The kit's branch and bound: right answers, a consistent tree, and a certificate for every "no"."""

from __future__ import annotations

import json

import numpy as np
import pytest

from nqueens_kit import Problem, verify
from nqueens_kit.bench import random_preplacement
from nqueens_kit.cli import main
from nqueens_kit.errors import InputError
from nqueens_kit.inside.bnb import NODE_STATUSES, branch_and_bound, tree_text
from nqueens_kit.methods.search.backtrack import iter_backtrack
from nqueens_kit.solvers import available_solvers

SOLVERS = [s for s in ("cbc", "highs") if s in available_solvers("ilp")]
MAX_QUEENS = {1: 1, 2: 1, 3: 2, 4: 4, 5: 5, 6: 6}


def _check_tree(tree) -> None:
    by_id = {node.id: node for node in tree.nodes}
    assert tree.nodes[0].parent is None and tree.nodes[0].branch is None
    for node in tree.nodes:
        assert node.status in NODE_STATUSES
        children = [c for c in tree.nodes if c.parent == node.id]
        if node.status == "branched":
            assert len(children) == 2 and node.branched_on in node.fractional
            assert {c.branch for c in children} == {(node.branched_on, 0), (node.branched_on, 1)}
        else:
            assert not children
        if node.parent is not None:
            assert by_id[node.parent].status == "branched" and node.depth == by_id[node.parent].depth + 1


@pytest.mark.parametrize("solver", SOLVERS)
@pytest.mark.parametrize("formulation", ["lines", "pairwise"])
def test_answers_match_backtracking(solver: str, formulation: str) -> None:
    problems = [Problem(n) for n in range(1, 8)]
    problems += [Problem(n, random_preplacement(n, 2, seed=5, instance=i)) for n in (6, 7, 8) for i in (1, 2, 3)]
    for problem in problems:
        tree = branch_and_bound(problem, formulation, solver)
        _check_tree(tree)
        truth = next(iter_backtrack(problem), None)
        if truth is None:
            assert tree.status == "infeasible", problem.describe()
            # the certificate: every leaf is an infeasible LP, nothing left open or pruned
            leaves = [node for node in tree.nodes if node.status != "branched"]
            assert leaves and all(node.status == "infeasible" for node in leaves)
        else:
            assert tree.status == "solved" and verify(problem.n, tree.queens, problem.preplaced)


@pytest.mark.parametrize("solver", SOLVERS)
def test_max_queens_proves_the_optimum(solver: str) -> None:
    for n, best in MAX_QUEENS.items():
        tree = branch_and_bound(n, "max-queens", solver)
        _check_tree(tree)
        assert tree.status == "solved" and tree.objective == best and len(tree.queens) == best
        assert all(node.status != "open" for node in tree.nodes)
        assert all(node.bound is not None for node in tree.nodes if node.status != "infeasible")


def test_limits_text_and_refusals(capsys) -> None:
    stopped = branch_and_bound(8, "pairwise", max_nodes=2)
    assert stopped.status == "timeout" and "stopped" in stopped.note
    assert any(node.status == "open" for node in stopped.nodes)
    lines = tree_text(branch_and_bound(3))
    assert lines[0].startswith("#0   root") and sum("LP infeasible" in line for line in lines) == 3
    with pytest.raises(InputError, match="up to n = 10"):
        branch_and_bound(11)
    with pytest.raises(InputError, match="max_nodes"):
        branch_and_bound(4, max_nodes=0)
    with pytest.raises(InputError, match="formulation"):
        branch_and_bound(4, "nope")
    assert main(["bnb", "3", "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["status"] == "infeasible" and data["queens"] == []
    assert all({"id", "parent", "bound", "branch", "status"} <= set(node) for node in data["nodes"])
    assert main(["bnb", "6"]) == 0 and "lines, LPs by" in capsys.readouterr().out
    assert main(["bnb", "6", "--max-nodes", "x"]) == 2
    assert "--max-nodes" in capsys.readouterr().err


# ---------------------------------------------- chapter 3's checkers: the blocks and the next branching step


def _blocks(n: int) -> list[list[tuple[int, int]]]:
    return [[(r, c), (r + 1, c), (r, c + 1), (r + 1, c + 1)] for r in range(1, n) for c in range(1, n)]


def test_check_blocks_wants_every_2x2_block_of_every_n() -> None:
    from nqueens_kit.course.check_bnb import check_blocks

    assert check_blocks(_blocks)
    assert check_blocks(lambda n: [np.array(group) for group in _blocks(n)])  # cells in NumPy arrays
    diagonals = lambda n: [[(i, i) for i in range(1, n + 1)]]  # noqa: E731  # a clique beyond the blocks is fine
    assert check_blocks(lambda n: _blocks(n) + diagonals(n))
    top_rows = check_blocks(lambda n: [g for g in _blocks(n) if g[0][0] <= 2])  # every block of n = 2 and 3
    assert not top_rows and top_rows.counterexample == (4, [(3, 1), (3, 2), (4, 1), (4, 2)])
    assert "is in no group" in top_rows.message and "(and 2 more)" in top_rows.message
    last = check_blocks(lambda n: _blocks(n)[:-1] if n >= 5 else _blocks(n))
    assert not last and last.counterexample == (5, [(4, 4), (4, 5), (5, 4), (5, 5)])
    assert "clique the lines miss" in last.message
    starter = check_blocks(lambda n: [g for g in _blocks(n) if g[0][0] < n - 1])  # the notebook's first try
    assert not starter and starter.counterexample[0] == 2


def test_check_branching_reads_any_cell_and_refuses_a_string_bound() -> None:
    from fractions import Fraction

    from nqueens_kit.course.check_bnb import check_branching
    from nqueens_kit.methods.ilp.model import lp_relaxation

    root = lp_relaxation(Problem(3), "max-queens")
    fractional = root.fractional_cells()
    closest = min(abs(root.values[c] - 0.5) for c in fractional)
    cell = next(c for c in fractional if abs(root.values[c] - 0.5) <= closest + 1e-6)
    bound = lp_relaxation(Problem(3, [cell]), "max-queens").objective
    assert check_branching(root, cell, bound)
    assert check_branching(root, list(cell), bound) and check_branching(root, np.array(cell), np.float64(bound))
    assert check_branching(root, (float(cell[0]), float(cell[1])), Fraction(round(bound * 3), 3))
    text = check_branching(root, cell, f"{bound:g}")
    assert not text and f"a bound is a number, not the string '{bound:g}'" in text.message
    assert "\n" not in text.message
    assert check_branching(root, cell, None).ok == check_branching(root, cell, "infeasible").ok
    for junk in ((cell[0],), "x", (True, 1), (1.5, 2)):
        verdict = check_branching(root, junk, bound)
        assert not verdict and verdict.message.startswith("Not yet: the cell is a (row, column) pair"), junk
