"""The kit's branch and bound: right answers, a consistent tree, and a certificate for every "no"."""

from __future__ import annotations

import json

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
