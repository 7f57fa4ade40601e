"""Checked "no": every proof a solver writes is checked by an independent checker, and tampering is caught."""

from __future__ import annotations

import importlib.util
import json
import shutil

import pytest

from nqueens_kit import Problem, build_cnf
from nqueens_kit.cli import main
from nqueens_kit.errors import InputError
from nqueens_kit.inside.proofs import CHECKERS, Proof, check, prove, replay, solve_with_proof
from nqueens_kit.solvers import get_solver, proving_entries

from .conftest import need

INFEASIBLE = [Problem(2), Problem(3), Problem(8, [(1, 1), (2, 3)]), Problem(6, [(1, 2), (2, 5)])]
#: Every SAT entry that declares proofs (the registry's, not a list kept here); one not installed is skipped with its
#: reason, and fails under NQUEENS_KIT_REQUIRE_ALL=1.
DECLARED = proving_entries()
PROVERS = [name for name in DECLARED if get_solver("sat", name).available()]
INSTALLED_CHECKERS = [name for name in CHECKERS if importlib.util.find_spec(name) is not None]


@pytest.mark.parametrize("solver", DECLARED)
@pytest.mark.parametrize("encoding", ["pairwise", "sequential"])
def test_every_proof_checks_and_tampering_is_caught(solver: str, encoding: str) -> None:
    entry = get_solver("sat", solver)
    if not entry.available() and not entry.installable:
        pytest.skip(f"{solver} has no install route here")
    need(entry.available(), f"{solver} ({entry.install_hint()})")
    assert INSTALLED_CHECKERS, "no proof checker installed"
    for problem in INFEASIBLE:
        cnf = build_cnf(problem, encoding)
        proof = prove(cnf, solver)
        assert proof is not None and proof.lemmas[-1] == ()
        for checker in INSTALLED_CHECKERS:
            assert check(cnf, proof, checker).checked, (problem.describe(), checker)
            if problem.n >= 6:  # not refuted by unit propagation alone, so the lemmas matter
                bare = check(cnf, Proof(["0"], solver), checker)
                assert not bare.checked and bare.detail
            # the same proof for a formula that has a solution can never check
            other = build_cnf(Problem(problem.n + 5), encoding)
            assert not check(other, proof, checker).checked


def test_satisfiable_has_no_proof() -> None:
    assert prove(build_cnf(8), PROVERS[0]) is None


def test_the_proof_is_for_the_formula_the_cnf_command_writes(tmp_path, capsys) -> None:
    dratify = pytest.importorskip("dratify")
    formula, proof_file = tmp_path / "f.cnf", tmp_path / "p.drup"
    assert main(["cnf", "8", "--place", "1,1", "2,3", "-o", str(formula)]) == 0
    assert main(["solve", "8", "--place", "1,1", "2,3", "--proof", str(proof_file), "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["status"] == "infeasible"
    assert set(data["proof"]) == {"file", "format", "steps", "checked", "checker"}
    assert data["proof"]["checked"] is True and data["proof"]["file"] == str(proof_file)
    assert data["proof"]["steps"] == sum(1 for line in proof_file.read_text().splitlines()
                                         if not line.startswith("d "))
    verdict = dratify.check_proof(dratify.parse_dimacs(formula.read_text()), proof_file.read_text())
    assert verdict.ok


def test_cli_answers(tmp_path, capsys) -> None:
    assert main(["solve", "8", "--proof", str(tmp_path / "p"), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["status"] == "solved" and data["verified"] and data["proof"] is None
    assert not (tmp_path / "p").exists()
    assert main(["solve", "3", "--proof", str(tmp_path)]) == 2
    assert "is a folder" in capsys.readouterr().err
    assert main(["solve", "3", "--proof", str(tmp_path / "no" / "p")]) == 2
    assert "does not exist" in capsys.readouterr().err
    assert main(["solve", "3", "--method", "ilp", "--proof", str(tmp_path / "p")]) == 2
    assert "--method sat" in capsys.readouterr().err
    assert main(["solve", "3", "--solver", "pycosat", "--proof", str(tmp_path / "p")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot write proofs" in err
    assert main(["solve", "3", "--proof", str(tmp_path / "p3"), "--checker", "dratify"]) == 1
    out = capsys.readouterr().out
    assert "checked by dratify" in out


def test_replay_draws_each_lemma() -> None:
    cnf = build_cnf(3)
    proof = prove(cnf, PROVERS[0])
    steps = replay(cnf, proof)
    assert len(steps) == proof.steps and steps[-1].lemma == ()
    for step in steps:
        assert step.conflict is not None
        assert sorted(step.assumed) == sorted(-lit for lit in step.lemma)
        cells = step.cells(cnf)
        assert set(cells) == {"queen", "empty"}
    with pytest.raises(Exception, match="does not follow"):
        replay(cnf, Proof(["1 0", "0"], "made up"))


@pytest.mark.skipif(shutil.which("cadical") is None, reason="no cadical executable")
def test_a_binary_writes_text_drat(tmp_path) -> None:
    result = solve_with_proof(Problem(3), tmp_path / "p.drat", solver="cadical")
    assert result.extra["proof"]["checked"] and result.solver == "cadical"
    assert all(line.split()[-1] == "0" for line in (tmp_path / "p.drat").read_text().splitlines())


def test_bad_values() -> None:
    with pytest.raises(InputError, match="unknown proof checker"):
        check(build_cnf(3), "0\n", "nope")
    with pytest.raises(InputError, match="unknown encoding|encoding"):
        solve_with_proof(Problem(3), "/tmp/x", encoding="nope")


@pytest.mark.parametrize("checker", INSTALLED_CHECKERS)
def test_deletions_do_not_make_a_proof_drat_and_a_rat_step_does(checker: str) -> None:
    """A proof is named by what its lemmas need: deletion lines leave it DRUP; one RAT lemma (a clause on a
    fresh variable, which no unit propagation derives) makes it DRAT."""
    cnf = build_cnf(Problem(6, [(1, 2), (2, 5)]))
    proof = prove(cnf, PROVERS[0])
    verdict = check(cnf, proof, checker)
    assert verdict.checked and verdict.system == proof.format == "DRUP"
    with_deletion = Proof([*proof.lines[:-1], "d " + " ".join(map(str, cnf.clauses[0])) + " 0", "0"], "hand")
    assert with_deletion.deletions >= 1
    assert check(cnf, with_deletion, checker).system == with_deletion.format == "DRUP"
    fresh = cnf.num_vars + 1
    rat = Proof([f"{fresh} 0", *proof.lines], "hand")
    assert check(cnf, rat, checker).system == rat.format == "DRAT"
    assert Proof(["0"], "made up").format == "clausal"
