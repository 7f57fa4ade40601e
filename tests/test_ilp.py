from __future__ import annotations

import pulp
import pytest

import nqueens_kit.ilp as ilp
from nqueens_kit.board import Problem, verify
from nqueens_kit.errors import InputError, SolverNotAvailable
from nqueens_kit.ilp import (
    FORMULATIONS,
    ILP_SOLVERS,
    build_model,
    count_ilp,
    export_model,
    get_ilp_solver,
    lp_relaxation,
    solve_ilp,
)
from nqueens_kit.reference import published_count

from .conftest import need


@pytest.mark.parametrize("formulation", list(FORMULATIONS))
def test_every_formulation_solves_1_to_12(formulation):
    for n in range(1, 13):
        result = solve_ilp(n, formulation)
        if n in (2, 3):
            assert result.status == "infeasible" and not result.queens
        else:
            assert result.status == "solved" and result.verified and verify(n, result.queens), (n, result)
        assert result.method == "ilp" and result.formulation == formulation and result.variables == n * n


def test_max_queens_reports_optimum():
    assert solve_ilp(8, "max-queens").stats["optimum"] == 8
    for n, best in ((2, 1), (3, 2)):
        result = solve_ilp(n, "max-queens")
        assert result.status == "infeasible" and result.stats["optimum"] == best and f"at most {best}" in result.message


def test_constraint_names_and_sizes():
    model = build_model(Problem(5, [(1, 1)]), "lines")
    names = set(model.constraint_names())
    assert {"row_1", "row_5", "col_3", "diag_2", "diag_8", "anti_2", "anti_8", "placed_1_1"} <= names
    assert model.num_constraints == 2 * 5 + 2 * (2 * 5 - 3) + 1
    assert str(model.constraint("diag_5")).startswith("x_1_1 + x_2_2")
    assert str(model.constraint("row_2")) == "x_2_1 + x_2_2 + x_2_3 + x_2_4 + x_2_5 = 1.0"
    pairs = build_model(5, "pairwise")
    diagonal_pairs = 5 * 4 * 9 // 3
    assert pairs.num_constraints == 10 + diagonal_pairs
    assert "diag_5_pair_1_1_2_2" in pairs.constraint_names()
    queens = build_model(5, "max-queens")
    assert all(queens.constraint(name).sense == pulp.LpConstraintLE for name in queens.constraint_names())
    assert queens.prob.sense == pulp.LpMaximize


def test_preplaced_honoured_and_impossible_infeasible():
    result = solve_ilp(Problem(8, [(1, 1), (2, 5)]))
    assert result.status == "solved" and {(1, 1), (2, 5)} <= set(result.queens) and result.verified
    for formulation in FORMULATIONS:
        result = solve_ilp(Problem(8, [(1, 1), (2, 3)]), formulation)
        assert result.status == "infeasible", formulation


@pytest.mark.parametrize("solver", ["highs", "cbc"])
def test_no_good_counts_match_published(solver):
    need(ILP_SOLVERS[solver].available(), solver)
    top = 8 if solver == "highs" else 6
    for n in range(1, top + 1):
        result = count_ilp(n, solver=solver, fundamental=True)
        assert result.count == published_count(n) and result.fundamental == published_count(n, fundamental=True)
        assert result.method == "ilp" and "re-solve" in result.note


def test_count_max_queens_stops_at_full_boards():
    assert count_ilp(6, "max-queens", "highs").count == 4


def test_highs_backend():
    need(ILP_SOLVERS["highs"].available(), "highspy")
    result = solve_ilp(20, solver="highs")
    assert result.status == "solved" and result.verified and result.solver == "highs"
    assert "nodes" in result.stats


def test_cbc_stats_reported():
    result = solve_ilp(12)
    assert result.stats["found_as"].startswith("PULP_CBC_CMD") or "COIN_CMD" in result.stats["found_as"]
    assert {"nodes", "iterations", "status"} <= set(result.stats)
    assert result.build_seconds >= 0 and result.solve_seconds > 0


def test_lp_relaxation_values():
    for formulation in FORMULATIONS:
        relaxation = lp_relaxation(7, formulation)
        assert relaxation.status == "Optimal" and len(relaxation.values) == 49
        assert all(-1e-9 <= v <= 1 + 1e-9 for v in relaxation.values.values())
        for line in Problem(7).lines():
            total = sum(relaxation.values[c] for c in line.cells)
            if line.exact and formulation != "max-queens":
                assert abs(total - 1) < 1e-6
            elif formulation == "pairwise":  # only pairs are bounded: a diagonal may hold 1.5 queens
                assert all(relaxation.values[a] + relaxation.values[b] <= 1 + 1e-6
                           for i, a in enumerate(line.cells) for b in line.cells[i + 1:])
            else:
                assert total <= 1 + 1e-6
    assert lp_relaxation(3, "max-queens").objective > 2  # the relaxation is weaker than the integer optimum


def test_pairwise_relaxation_is_weaker():
    """x = 1/2 everywhere satisfies every pair constraint but puts 2.5 queens on a long diagonal."""
    lines = build_model(5, "lines", relax=True)
    pairs = build_model(5, "pairwise", relax=True)
    half = {cell: 0.5 for cell in lines.x}

    def inequalities_hold(model, point):
        for name in model.constraint_names():
            c = model.constraint(name)
            if c.sense != pulp.LpConstraintLE:
                continue
            value = sum(coef * point[tuple(int(p) for p in var.name.split("_")[1:])] for var, coef in c.items())
            if value + c.constant > 1e-9:
                return False
        return True

    assert inequalities_hold(pairs, half) and not inequalities_hold(lines, half)


def test_export_lp_and_mps_resolve(tmp_path):
    for suffix in (".lp", ".mps"):
        path = export_model(Problem(6, [(1, 2)]), "lines", tmp_path / f"six{suffix}")
        assert path.stat().st_size > 0
    need(ILP_SOLVERS["highs"].available(), "highspy")
    import highspy

    for suffix in (".lp", ".mps"):
        h = highspy.Highs()
        h.setOptionValue("output_flag", False)
        assert h.readModel(str(tmp_path / f"six{suffix}")) == highspy.HighsStatus.kOk
        h.run()
        values = h.getSolution().col_value
        names = [h.getLp().col_names_[i] for i in range(h.getNumCol())]
        board = [tuple(int(p) for p in name.split("_")[1:]) for name, v in zip(names, values)
                 if v > 0.5 and name.startswith("x_")]
        assert verify(6, board, [(1, 2)]), suffix


def test_export_errors(tmp_path):
    with pytest.raises(InputError, match="FILE.lp or FILE.mps"):
        export_model(6, "lines", tmp_path / "six.txt")
    with pytest.raises(InputError, match="does not exist"):
        export_model(6, "lines", tmp_path / "no" / "six.lp")


def test_unknown_names():
    with pytest.raises(InputError, match="valid: lines, pairwise, max-queens"):
        solve_ilp(8, "clever")
    with pytest.raises(InputError, match="pycosat is a SAT solver"):
        get_ilp_solver("pycosat")
    with pytest.raises(InputError, match="unknown ILP solver 'gurobi'; valid: cbc, highs"):
        get_ilp_solver("gurobi")


class _Unavailable:
    def __init__(self, **kwargs):
        pass

    def available(self):
        return False


def test_cbc_found_through_coin_cmd_when_not_bundled(monkeypatch):
    calls = {}

    class FakeCoin:
        def __init__(self, path=None, **kwargs):
            calls["path"] = path

        def available(self):
            return calls.get("path") == "/opt/bin/cbc"

    monkeypatch.setattr(pulp, "PULP_CBC_CMD", _Unavailable)
    monkeypatch.setattr(pulp, "COIN_CMD", FakeCoin)
    monkeypatch.setattr(ilp.shutil, "which", lambda name: "/opt/bin/cbc" if name == "cbc" else None)
    assert ILP_SOLVERS["cbc"].found_as() == "COIN_CMD (/opt/bin/cbc)"


def test_cbc_missing_gives_one_clear_line(monkeypatch):
    monkeypatch.setattr(pulp, "PULP_CBC_CMD", _Unavailable)
    monkeypatch.setattr(pulp, "COIN_CMD", _Unavailable)
    monkeypatch.setattr(ilp.shutil, "which", lambda name: None)
    with pytest.raises(SolverNotAvailable) as err:
        solve_ilp(8)
    message = str(err.value)
    assert "\n" not in message and "pulp[cbc]" in message and "coin-or-cbc" in message


def test_highs_missing_names_the_extra(monkeypatch):
    monkeypatch.setattr(pulp, "HiGHS", _Unavailable)
    with pytest.raises(SolverNotAvailable, match=r"nqueens-kit\[highs\]"):
        solve_ilp(8, solver="highs")


def test_time_limit_without_solution_is_timeout(monkeypatch):
    """A solve that stops at the limit with no integer solution is a timeout (simulated: no race)."""

    def stopped(self, solver=None, **kwargs):
        self.status, self.sol_status = pulp.LpStatusNotSolved, pulp.LpSolutionNoSolutionFound
        return self.status

    monkeypatch.setattr(pulp.LpProblem, "solve", stopped)
    result = solve_ilp(30, time_limit=1)
    assert result.status == "timeout" and "time limit of 1 s" in result.message
    assert solve_ilp(30).status == "error"


def test_real_time_limit_is_passed_and_answer_kept():
    result = solve_ilp(30, time_limit=60)
    assert result.status == "solved" and result.verified
