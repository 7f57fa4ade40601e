"""The ILP side: models, statuses, solver lookup, time limits, relaxation, counting, export.

Boards are checked with the module-independent :func:`verify` and, for small n, against brute force.
Solver failures (CBC missing, a time limit reached) are simulated by monkeypatching, never by racing
the clock.
"""

from __future__ import annotations

import errno
import json
import math
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pulp
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import nqueens_kit.methods.ilp.export as ilp_export
import nqueens_kit.solvers.ilp_pulp as ilp_pulp
from nqueens_kit.errors import InputError, NQueensError, SolverNotAvailable
from nqueens_kit.methods import count, iter_boards, solve, solve_ilp
from nqueens_kit.methods.ilp.formulations import DEFAULT_FORMULATION, FORMULATIONS
from nqueens_kit.methods.ilp.model import MPS_MAX_NOTE, build_model, export_model, lp_relaxation
from nqueens_kit.problem.board import Problem, verify
from nqueens_kit.problem.reference import published_count
from nqueens_kit.solvers import ILP_SOLVERS, get_solver
from nqueens_kit.solvers.ilp_pulp import CBC_TUNED_OPTIONS

from .conftest import brute_force, need

HAVE_HIGHS = ILP_SOLVERS["highs"].available()
PULP_4 = hasattr(pulp, "LpSolveStats")


def _cell(name: str) -> tuple[int, int]:
    _, r, c = name.split("_")
    return int(r), int(c)


def _groups(n: int) -> dict[str, list[tuple[int, int]]]:
    """Rows, columns, diagonals and anti-diagonals computed here, not taken from Problem.lines()."""
    groups: dict[str, list[tuple[int, int]]] = {}
    for r in range(1, n + 1):
        for c in range(1, n + 1):
            for key in (f"row_{r}", f"col_{c}", f"diag_{r - c + n}", f"anti_{r + c - 1}"):
                groups.setdefault(key, []).append((r, c))
    return groups


# ------------------------------------------------------------------------------------------- solving


@pytest.mark.parametrize("formulation", list(FORMULATIONS))
def test_every_formulation_solves_1_to_12(formulation):
    for n in range(1, 13):
        result = solve_ilp(n, formulation)
        assert result.method == "ilp" and result.formulation == formulation and result.solver == "cbc"
        assert result.variables == n * n and result.constraints and result.clauses is None
        if n in (2, 3):
            assert result.status == "infeasible" and result.queens == () and result.message, (n, result)
        else:
            assert result.status == "solved" and result.verified is True, (n, result)
            assert verify(n, result.queens) and list(result.queens) == sorted(result.queens)
        if n <= 6 and result.status == "solved":
            assert result.queens in brute_force(n)


def test_default_formulation_and_registry_shape():
    assert DEFAULT_FORMULATION == "lines" == next(iter(FORMULATIONS))
    assert list(ILP_SOLVERS)[:2] == ["cbc", "highs"] and get_solver("ilp", None).name == "cbc"
    for solver in ILP_SOLVERS.values():
        assert solver.description and solver.install_hint() and "\n" not in solver.install_hint()
        assert isinstance(solver.available(), bool)
    assert ILP_SOLVERS["cbc"].require() is ILP_SOLVERS["cbc"]


def test_max_queens_optimum_and_status():
    result = solve_ilp(8, "max-queens")
    assert result.status == "solved" and result.stats["optimum"] == 8
    for n, best in ((1, 1), (2, 1), (3, 2)):
        result = solve_ilp(n, "max-queens")
        assert result.stats["optimum"] == best
        assert result.status == ("solved" if n == 1 else "infeasible")
        if n > 1:
            assert f"at most {best} non-attacking queens" in result.message and result.queens == ()


def test_result_is_json_ready():
    data = solve_ilp(Problem(6, [(1, 2)])).to_dict()
    json.dumps(data)
    assert data["method"] == "ilp" and data["formulation"] == "lines" and data["constraints"] == 6 * 6 - 6 + 1
    assert data["build_seconds"] >= 0 and data["solve_seconds"] > 0 and data["preplaced"] == [[1, 2]]


def test_preplaced_honoured_and_impossible_infeasible():
    assert not brute_force(8, [(1, 1), (2, 3)])  # non-attacking, yet no board completes it
    for formulation in FORMULATIONS:
        result = solve_ilp(Problem(8, [(1, 1), (2, 5)]), formulation)
        assert result.status == "solved" and result.verified and {(1, 1), (2, 5)} <= set(result.queens)
        result = solve_ilp(Problem(8, [(1, 1), (2, 3)]), formulation)
        assert result.status == "infeasible" and result.queens == (), formulation
        assert "pre-placed" in result.message


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(4, 7), data=st.data())
def test_preplaced_agrees_with_brute_force(n, data):
    first = data.draw(st.tuples(st.integers(1, n), st.integers(1, n)))
    second = data.draw(st.tuples(st.integers(1, n), st.integers(1, n)))
    cells = [first] + ([second] if second[0] != first[0] and second[1] != first[1]
                       and abs(second[0] - first[0]) != abs(second[1] - first[1]) else [])
    result = solve_ilp(Problem(n, cells))
    completions = brute_force(n, cells)
    assert result.status == ("solved" if completions else "infeasible")
    if completions:
        assert result.verified and tuple(result.queens) in completions


def test_highs_backend():
    need(HAVE_HIGHS, "highspy (HiGHS)")
    for formulation in FORMULATIONS:
        for n in (3, 8, 20):
            result = solve_ilp(n, formulation, "highs")
            assert result.solver == "highs" and result.status == ("infeasible" if n == 3 else "solved")
            assert result.verified is (None if n == 3 else True)
    stats = solve_ilp(20, solver="highs").stats
    assert {"nodes", "iterations", "solver_seconds", "solver_status", "found_as"} <= set(stats)
    assert stats["found_as"].startswith("HiGHS")


#: Run in a fresh interpreter: HiGHS keeps one thread pool a process, so a test run in the worker itself
#: would leave its pool to every later test there.
_FIRST_HIGHS_RUN = """
import sys
import highspy
from nqueens_kit import Problem, solve
from nqueens_kit.methods.ilp.model import lp_relaxation
if sys.argv[1] == "relaxation":
    lp_relaxation(Problem(8), "lines", "highs")
else:  # a notebook cell calling HiGHS with its defaults, which sizes the pool for this machine
    h = highspy.Highs(); h.setOptionValue("output_flag", False); h.addVar(0, 1); h.run()
result = solve(8, "ilp", "lines", "highs", isolated=False)
print(result.status, result.verified, result.options.get("threads"))
"""


@pytest.mark.parametrize("first", ["relaxation", "own"])
def test_highs_solves_whatever_started_its_thread_pool(first: str) -> None:
    """HiGHS starts one thread pool a process, sized by the first run; a run asking for another size stopped
    with "Not Set", and every later solve of the kit in that process was an error (an LP relaxation first,
    or a cell of the reader's own with HiGHS's defaults)."""
    need(HAVE_HIGHS, "highspy (HiGHS)")
    out = subprocess.run([sys.executable, "-c", _FIRST_HIGHS_RUN, first], capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split()[-3:] == ["solved", "True", "1"], out.stdout[-500:]


def test_cbc_stats_reported():
    stats = solve_ilp(12).stats
    assert "PULP_CBC_CMD" in stats["found_as"] or "COIN_CMD" in stats["found_as"]
    assert {"solver_status", "solver_seconds"} <= set(stats)
    assert all(isinstance(v, (int, float, str)) for v in stats.values())


def test_unknown_names_are_one_line_input_errors():
    with pytest.raises(InputError, match="valid: lines, pairwise, max-queens"):
        solve_ilp(8, "clever")
    with pytest.raises(InputError, match="pycosat is a SAT solver, not an ILP solver: use --method sat for it, or one of the ILP solvers: "
                       "cbc, highs"):
        solve_ilp(8, solver="pycosat")
    with pytest.raises(InputError, match="unknown ILP solver 'gurobi'; valid: cbc, highs"):
        get_solver("ilp", "gurobi")
    for bad in (0, -1, math.inf, math.nan, True):
        with pytest.raises(InputError, match="positive number of seconds"):
            solve_ilp(8, time_limit=bad)


# --------------------------------------------------------------------------------------------- model


def test_lines_constraints_named_and_exact():
    n = 5
    model = build_model(Problem(n, [(1, 1)]), "lines")
    groups = _groups(n)
    expected = {name for name, cells in groups.items() if len(cells) >= 2} | {"placed_1_1"}
    assert set(model.constraint_names()) == expected and model.num_constraints == len(expected)
    assert model.constraint_names()[:2] == ["row_1", "row_2"]
    for name in expected - {"placed_1_1"}:
        constraint = model.constraint(name)
        assert sorted(_cell(v.name) for v in constraint.keys()) == sorted(groups[name])
        assert {coef for _, coef in constraint.items()} == {1}
        exact = name.startswith(("row", "col"))
        assert constraint.sense == (pulp.LpConstraintEQ if exact else pulp.LpConstraintLE)
        assert constraint.constant == -1
    placed = model.constraint("placed_1_1")
    assert [v.name for v in placed.keys()] == ["x_1_1"] and placed.sense == pulp.LpConstraintEQ
    assert model.prob.objective is None or not list(model.prob.objective.keys())
    with pytest.raises(KeyError):
        model.constraint("diag_1")  # one-cell corners constrain nothing and are left out


@pytest.mark.parametrize("n", [1, 2, 8, 31])
def test_lines_size_is_linear_in_lines(n):
    model = build_model(n, "lines")
    assert model.num_variables == n * n
    assert model.num_constraints == (2 * n if n == 1 else 6 * n - 6)


def test_pairwise_has_diagonal_pairs_only():
    n = 6
    model = build_model(n, "pairwise")
    groups = _groups(n)
    diagonals = {k: v for k, v in groups.items() if k.startswith(("diag", "anti")) and len(v) >= 2}
    pairs = [name for name in model.constraint_names() if "_pair_" in name]
    assert len(pairs) == sum(len(v) * (len(v) - 1) // 2 for v in diagonals.values())
    assert set(model.constraint_names()) - set(pairs) == {f"row_{i}" for i in range(1, n + 1)} | {
        f"col_{i}" for i in range(1, n + 1)}
    assert "diag_6_pair_1_2" in pairs  # diagonal r - c + n = 6: the cells of rows 1 and 2
    for name in pairs:
        line, rows = name.split("_pair_")
        r1, r2 = map(int, rows.split("_"))
        cells = sorted(_cell(v.name) for v in model.constraint(name).keys())
        assert [r for r, _ in cells] == [r1, r2] and set(cells) <= set(diagonals[line])
        assert model.constraint(name).sense == pulp.LpConstraintLE


def test_max_queens_all_lines_at_most_one():
    model = build_model(Problem(5, [(2, 2)]), "max-queens")
    assert model.prob.sense == pulp.LpMaximize
    assert sorted(_cell(v.name) for v in model.prob.objective.keys()) == sorted(model.x)
    for name in model.constraint_names():
        sense = model.constraint(name).sense
        assert sense == (pulp.LpConstraintEQ if name.startswith("placed") else pulp.LpConstraintLE), name


def test_names_are_valid_for_lp_and_mps():
    for formulation in FORMULATIONS:
        model = build_model(Problem(7, [(3, 4)]), formulation)
        names = model.constraint_names() + [v.name for v in model.x.values()]
        assert all(re.fullmatch(r"[A-Za-z][A-Za-z0-9_]{0,30}", name) for name in names)
        assert len(set(model.constraint_names())) == model.num_constraints


def test_relaxed_model_is_continuous():
    relaxed, binary = build_model(4, "lines", relax=True), build_model(4)  # PuLP 4: variables die with the model
    assert relaxed.relaxed and all(v.cat == pulp.LpContinuous for v in relaxed.x.values())
    assert not binary.relaxed and all(v.cat in (pulp.LpBinary, pulp.LpInteger) for v in binary.x.values())


def test_pairwise_relaxation_is_weaker():
    """x = 1/2 on every cell meets every pair but puts 2.5 queens on a long diagonal of the lines model."""
    half = {cell: 0.5 for cell in build_model(5).x}

    def inequalities_hold(model):
        for name in model.constraint_names():
            constraint = model.constraint(name)
            if constraint.sense == pulp.LpConstraintLE:
                value = sum(coef * half[_cell(v.name)] for v, coef in constraint.items()) + constraint.constant
                if value > 1e-9:
                    return False
        return True

    assert inequalities_hold(build_model(5, "pairwise", relax=True))
    assert not inequalities_hold(build_model(5, "lines", relax=True))


# ------------------------------------------------------------------------------------ LP relaxation


@pytest.mark.parametrize("formulation", list(FORMULATIONS))
@pytest.mark.parametrize("n", [2, 3, 7])
def test_lp_relaxation_values_satisfy_every_line(formulation, n):
    relaxation = lp_relaxation(n, formulation)
    assert relaxation.status == "optimal" and len(relaxation.values) == n * n
    values = relaxation.values
    assert all(0.0 <= v <= 1.0 for v in values.values())
    for name, cells in _groups(n).items():
        total = sum(values[c] for c in cells)
        if name.startswith(("row", "col")) and formulation != "max-queens":
            assert total == pytest.approx(1, abs=1e-6), name
        elif formulation == "pairwise":  # only pairs are bounded on a diagonal
            assert all(values[a] + values[b] <= 1 + 1e-6 for i, a in enumerate(cells) for b in cells[i + 1:])
        else:
            assert total <= 1 + 1e-6, name
    if formulation == "max-queens":
        assert relaxation.objective == pytest.approx(n)  # n even where the integer optimum is smaller
    else:
        assert relaxation.objective is None  # no objective, none reported


def test_lp_relaxation_honours_preplaced_and_highs():
    relaxation = lp_relaxation(Problem(6, [(2, 3)]))
    assert relaxation.values[2, 3] == pytest.approx(1)
    assert all(relaxation.values[2, c] == pytest.approx(0, abs=1e-9) for c in (1, 2, 4, 5, 6))
    need(HAVE_HIGHS, "highspy (HiGHS)")
    relaxation = lp_relaxation(8, "max-queens", "highs")
    assert relaxation.status == "optimal" and relaxation.objective == pytest.approx(8)
    assert relaxation.solver == "highs" and all(0 <= v <= 1 for v in relaxation.values.values())


# ---------------------------------------------------------------------------------------- counting


@pytest.mark.parametrize("n", range(1, 8))
def test_no_good_counts_match_published(n):
    result = count(n, "ilp", fundamental=n <= 6)
    assert result.count == published_count(n)
    if n <= 6:
        assert result.fundamental == published_count(n, fundamental=True)
    assert result.method == "ilp" and result.variant == "lines" and result.solver == "cbc"
    assert f"{published_count(n) + 1} full re-solves" in result.note


@pytest.mark.slow
def test_no_good_count_n8():
    solver = "highs" if HAVE_HIGHS else "cbc"  # HiGHS does the 93 solves in about half CBC's time
    result = count(8, "ilp", solver=solver, fundamental=True)
    assert (result.count, result.fundamental) == (published_count(8), published_count(8, fundamental=True))


@pytest.mark.parametrize("formulation", ["pairwise", "max-queens"])
def test_counts_in_other_formulations(formulation):
    assert count(6, "ilp", formulation).count == published_count(6)


def test_enumeration_gives_distinct_valid_boards_with_preplaced():
    boards = list(iter_boards(Problem(6, [(1, 2)]), "ilp"))
    assert set(boards) == brute_force(6, [(1, 2)]) and len(boards) == len(set(boards))
    assert count(Problem(8, [(1, 1), (2, 3)]), "ilp").count == 0


def test_count_time_limit_raises(monkeypatch):
    monkeypatch.setattr(pulp.LpProblem, "solve", _fake_solve(state="none"))
    with pytest.raises(NQueensError, match="stopped without an answer after 0 solutions"):
        count(6, "ilp", time_limit=5)


# -------------------------------------------------------------------------------------------- export


def _cbc_solves_file(path: Path, tmp_path: Path) -> tuple[str, list[tuple[int, int]]]:
    """Run the CBC executable itself on a model file: (its status line, the queens it placed)."""
    solution = tmp_path / "cbc.sol"
    binary = ILP_SOLVERS["cbc"].engine(msg=False).path
    subprocess.run([binary, str(path), "-solve", "-solution", str(solution)], capture_output=True, check=True,
                   timeout=60)
    status, *rows = solution.read_text().splitlines()
    queens = [_cell(parts[1]) for parts in (row.split() for row in rows)
              if len(parts) >= 3 and parts[1].startswith("x_") and float(parts[2]) > 0.5]
    return status, queens


@pytest.mark.parametrize("formulation", list(FORMULATIONS))
def test_export_rereads_to_a_valid_board(tmp_path, formulation):
    problem = Problem(6, [(1, 2)])
    lp = export_model(problem, formulation, tmp_path / "six.lp")
    mps = export_model(problem, formulation, tmp_path / "six.MPS")
    assert lp.read_text().count("placed_1_2") == 1 and "placed_1_2" in mps.read_text()
    maximise = formulation == "max-queens"
    assert ("Maximize" in lp.read_text()) is maximise
    # PuLP reads the file back and CBC solves it
    variables, prob = pulp.LpProblem.fromMPS(str(mps))
    prob.solve(ILP_SOLVERS["cbc"].engine(msg=False))
    board = [_cell(name) for name, v in variables.items() if name.startswith("x_") and (v.varValue or 0) > 0.5]
    assert verify(6, board, problem.preplaced)
    # the CBC executable reads the file itself
    status, board = _cbc_solves_file(mps, tmp_path)
    assert status.startswith("Optimal") and verify(6, board, problem.preplaced), status
    need(HAVE_HIGHS, "highspy (HiGHS)")
    import highspy

    for path, objective in ((lp, 6 if maximise else 0), (mps, -6 if maximise else 0)):
        h = highspy.Highs()
        h.setOptionValue("output_flag", False)
        assert h.readModel(str(path)) == highspy.HighsStatus.kOk
        h.run()
        names = h.getLp().col_names_
        board = [_cell(name) for name, v in zip(names, h.getSolution().col_value) if name.startswith("x_") and v > 0.5]
        assert verify(6, board, problem.preplaced), path.name
        assert h.getInfo().objective_function_value == pytest.approx(objective), path.name


def test_export_errors(tmp_path):
    with pytest.raises(InputError, match=r"FILE\.lp or FILE\.mps"):
        export_model(6, "lines", tmp_path / "six.txt")
    with pytest.raises(InputError, match="does not exist"):
        export_model(6, "lines", tmp_path / "no" / "six.lp")
    (tmp_path / "dir.lp").mkdir()
    with pytest.raises(InputError, match="is a folder"):
        export_model(6, "lines", tmp_path / "dir.lp")
    with pytest.raises(InputError, match="valid: lines"):
        export_model(6, "clever", tmp_path / "six.lp")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dir.lp"]


def test_export_unwritable(monkeypatch, tmp_path):
    def refuse(self, filename, *args, **kwargs):
        raise PermissionError(13, "Permission denied", filename)

    monkeypatch.setattr(ilp_export, "write_lp", refuse)  # the LP file is written as text
    with pytest.raises(InputError, match="cannot write .*six.lp: Permission denied"):
        export_model(6, "lines", tmp_path / "six.lp")
    monkeypatch.setattr(pulp.LpProblem, "writeMPS", refuse)  # the MPS file by PuLP
    with pytest.raises(InputError, match="cannot write .*six.mps: Permission denied"):
        export_model(6, "lines", tmp_path / "six.mps")


@pytest.mark.parametrize("name", ["six.lp", "six.mps"])
def test_export_on_a_full_disk_leaves_no_partial_file(monkeypatch, tmp_path, name):
    target = tmp_path / name
    target.write_text("the model exported before\n")
    real_copy = shutil.copyfileobj

    def fill_the_disk(source, out, *args):  # half the model goes out, then the disk is full
        out.write(source.read(100))
        out.flush()
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(shutil, "copyfileobj", fill_the_disk)
    with pytest.raises(InputError) as error:
        export_model(6, "max-queens", target)
    message = str(error.value)
    assert "\n" not in message and os.strerror(errno.ENOSPC) in message and name in message
    assert [p.name for p in tmp_path.iterdir()] == [name]  # no temporary file left beside it
    assert target.read_text() == "the model exported before\n"  # the older file is untouched
    monkeypatch.setattr(shutil, "copyfileobj", real_copy)
    written = export_model(6, "max-queens", target).read_text()
    assert written.count("x_") > 36 and written != "the model exported before\n"
    assert written.startswith(MPS_MAX_NOTE) is name.endswith(".mps")


# ----------------------------------------------------------------------------------- solver lookup


def _hide_cbc(monkeypatch, path: str) -> None:
    """No bundled CBC, no cbcbox wheel, and PATH = ``path`` only."""
    if hasattr(pulp, "PULP_CBC_CMD"):
        monkeypatch.setattr(pulp.PULP_CBC_CMD, "available", lambda self: False)
    monkeypatch.setattr(pulp.COIN_CMD, "defaultPath", lambda self: "cbc")  # PuLP 4 would look for cbcbox
    monkeypatch.setattr(ilp_pulp, "_cbcbox_binary", lambda: None)
    monkeypatch.setenv("PATH", path)


def test_cbc_found_through_coin_cmd_on_path(monkeypatch, tmp_path):
    real = ILP_SOLVERS["cbc"].engine(msg=False).path
    (tmp_path / "cbc").symlink_to(real)
    _hide_cbc(monkeypatch, str(tmp_path))
    assert ILP_SOLVERS["cbc"].found_as() == f"COIN_CMD ({tmp_path / 'cbc'})"
    result = solve_ilp(8)
    assert result.status == "solved" and result.verified and result.stats["found_as"].startswith("COIN_CMD")


def test_cbc_from_cbcbox_with_older_pulp(monkeypatch, tmp_path):
    real = ILP_SOLVERS["cbc"].engine(msg=False).path
    _hide_cbc(monkeypatch, str(tmp_path))
    monkeypatch.setattr(ilp_pulp, "_cbcbox_binary", lambda: real)
    assert ILP_SOLVERS["cbc"].found_as() == f"COIN_CMD ({real}, from cbcbox)"
    assert solve_ilp(6).verified


def test_cbc_missing_gives_one_clear_line(monkeypatch, tmp_path):
    _hide_cbc(monkeypatch, str(tmp_path))
    assert not ILP_SOLVERS["cbc"].available() and ILP_SOLVERS["cbc"].found_as() is None
    with pytest.raises(SolverNotAvailable) as err:
        solve_ilp(8)
    message = str(err.value)
    assert "\n" not in message and "'cbc' is not installed" in message
    assert 'pip install "pulp[cbc]"' in message and "conda install -c conda-forge coin-or-cbc" in message
    assert "apt-get install coinor-cbc" in message


def test_highs_missing_names_the_extra(monkeypatch):
    if hasattr(pulp, "HiGHS"):  # PuLP < 2.8 has no HiGHS class at all
        monkeypatch.setattr(pulp.HiGHS, "available", lambda self: False)
    monkeypatch.setenv("PATH", "")
    with pytest.raises(SolverNotAvailable, match=r'pip install "nqueens-kit\[highs\]"') as err:
        solve_ilp(8, solver="highs")
    assert "\n" not in str(err.value)


def test_no_files_in_working_directory(monkeypatch, tmp_path):
    seen = []
    real_solve = pulp.LpProblem.solve

    def spy(self, solver=None, **kwargs):
        seen.append((getattr(solver, "keepFiles", False), getattr(solver, "tmpDir", None), solver.msg))
        return real_solve(self, solver, **kwargs)

    monkeypatch.setattr(pulp.LpProblem, "solve", spy)
    monkeypatch.chdir(tmp_path)
    solve_ilp(10)
    solve_ilp(3, "max-queens")
    count(4, "ilp", isolated=False)
    lp_relaxation(5)
    if HAVE_HIGHS:
        solve_ilp(10, solver="highs")
    assert list(tmp_path.iterdir()) == []
    assert seen and all(not keep and not msg for keep, _, msg in seen)
    assert all(tmp is None or Path(tmp) != tmp_path for _, tmp, _ in seen)


# -------------------------------------------------------------------------------------- time limits


def _fake_solve(state: str, queens: tuple[tuple[int, int], ...] = ()):
    """A stand-in for LpProblem.solve that reports what a solver stopped at its limit reports.

    ``state`` is ``none`` (stopped, no integer solution) or ``stopped`` (stopped with ``queens`` as its
    incumbent).  Speaks PuLP 4 (returns an LpSolveStats) or PuLP 2/3 (sets status and sol_status).
    """

    def solve(self, solver=None, **kwargs):
        for var in self.variables():
            var.varValue = 1.0 if _cell(var.name) in queens else 0.0
        has_solution = state == "stopped"
        if PULP_4:
            return pulp.LpSolveStats(solver="fake", status=pulp.LpSolveStatus.TimeLimit, has_solution=has_solution)
        if has_solution:  # what PuLP 3 makes of CBC's "Stopped on time - objective value ..."
            self.status, self.sol_status = pulp.LpStatusOptimal, pulp.LpSolutionIntegerFeasible
        else:
            self.status, self.sol_status = pulp.LpStatusNotSolved, pulp.LpSolutionNoSolutionFound
        return self.status

    return solve


def test_time_limit_without_solution_is_timeout(monkeypatch):
    monkeypatch.setattr(pulp.LpProblem, "solve", _fake_solve("none"))
    result = solve_ilp(30, time_limit=1)
    assert result.status == "timeout" and result.queens == () and "time limit of 1 s" in result.message
    assert result.verified is None
    assert solve_ilp(30).status == "error"  # no limit given: stopping without an answer is an error


def test_time_limit_with_partial_max_queens_is_timeout(monkeypatch):
    partial = ((1, 1), (2, 3), (3, 5))
    monkeypatch.setattr(pulp.LpProblem, "solve", _fake_solve("stopped", partial))
    result = solve_ilp(8, "max-queens", time_limit=2)
    assert result.status == "timeout" and result.stats["best_found"] == 3 and "optimum" not in result.stats
    assert "3 of 8 queens" in result.message


def test_time_limit_with_incumbent_board_is_solved(monkeypatch):
    board = ((1, 2), (2, 4), (3, 1), (4, 3))
    monkeypatch.setattr(pulp.LpProblem, "solve", _fake_solve("stopped", board))
    result = solve_ilp(4, time_limit=2)
    assert result.status == "solved" and result.queens == board and result.verified


@pytest.mark.parametrize("solver", list(ILP_SOLVERS))
def test_time_limit_reaches_the_solver(monkeypatch, solver):
    need(ILP_SOLVERS[solver].available(), solver)
    limits = []
    real_solve = pulp.LpProblem.solve

    def spy(self, engine=None, **kwargs):
        limits.append(engine.timeLimit)
        return real_solve(self, engine, **kwargs)

    monkeypatch.setattr(pulp.LpProblem, "solve", spy)
    result = solve(12, "ilp", solver=solver, time_limit=30, isolated=False)
    assert len(limits) == 1 and 29 < limits[0] <= 30 and result.status == "solved" and result.verified


def test_cbc_settings_are_named_and_recorded(monkeypatch):
    seen = []
    real_solve = pulp.LpProblem.solve

    def spy(self, engine=None, **kwargs):
        seen.append((self.name, list(engine.options or [])))
        return real_solve(self, engine, **kwargs)

    monkeypatch.setattr(pulp.LpProblem, "solve", spy)
    here = {"isolated": False}
    results = [solve(8, "ilp", f, **here) for f in ("lines", "pairwise", "max-queens")]
    assert all(r.verified for r in results)
    lp_relaxation(6)
    tuned = CBC_TUNED_OPTIONS
    assert tuned and seen == [("queens_8_lines", tuned), ("queens_8_pairwise", tuned), ("queens_8_max_queens", tuned),
                              ("queens_6_lines", [])]
    assert [r.options for r in results[:2]] == [{"settings": "tuned", "cbc_options": tuned}] * 2
    assert results[2].options == {"settings": "tuned", "cbc_options": tuned, "gapRel": 0}
    plain = solve(8, "ilp", settings="default", **here)
    assert plain.verified and seen[-1] == ("queens_8_lines", []) and plain.options == {"settings": "default"}


def test_scip_stopped_without_a_solution_is_read_as_none() -> None:
    """PuLP 2.8 reads SCIP's time limit as a solution found; SCIP's own count of solutions corrects it."""
    from types import SimpleNamespace

    from nqueens_kit.solvers.ilp_scip import SCIP

    def scip(solutions: int) -> object:
        return SimpleNamespace(solverModel=SimpleNamespace(
            getNNodes=lambda: 63, getNLPIterations=lambda: 10977, getSolvingTime=lambda: 0.94,
            getStatus=lambda: "timelimit", getNSols=lambda: solutions))

    stats: dict = {}
    assert SCIP.read_statistics(scip(0), "", "feasible", stats) == "none"
    assert stats["solver_status"] == "timelimit" and stats["nodes"] == 63
    assert SCIP.read_statistics(scip(1), "", "feasible", {}) == "feasible"
    assert SCIP.read_statistics(scip(0), "", "infeasible", {}) == "infeasible"
