"""A count says how it is certified.

``count --from-cnf FILE`` checks every model against the file's clauses; that there are no others is the
final UNSAT of the file with every model blocked.  A solver that writes proofs proves that once more and the
proof is checked, so the count is certified (exit 0); any other solver leaves it on its word, which the text,
``--json`` and the exit status (4) say, and ``--require-certificate`` turns into a one-line error.  A solver
that answers UNSAT too early is uncertified without proofs, and caught with them.
"""

from __future__ import annotations

import json
import sys

import pytest

from nqueens_kit.cli import main
from nqueens_kit.cli.solve import EXIT_UNCERTIFIED
from nqueens_kit.errors import SolverError
from nqueens_kit.methods.sat.certificate import (
    CHECKERS,
    check_clausal,
    dimacs_of,
    prove_no_model,
    through_empty_clause,
)
from nqueens_kit.methods.sat.formula import count_formula
from nqueens_kit.problem.reference import published_count
from nqueens_kit.problem.results import Answer
from nqueens_kit.runtime.browser import importable
from nqueens_kit.solvers import SAT_SOLVERS, PySat, SatOutcome
from nqueens_kit.solvers.base import CLAUSES, PYSAT_COUNTERS, SAT_FEATURES, SAT_VERBS

from .conftest import need

#: A DIMACS solver that solves honestly (pycosat) for its first ``LIAR_MODELS`` models, counted in the file
#: ``LIAR_STATE``, and answers UNSAT from then on: UNSAT too early.
LIAR = f"""#!{sys.executable}
import os
import sys
import pycosat
numbers, nvars = [], 0
for line in open(sys.argv[-1]):
    words = line.split()
    if not words or words[0] == "c":
        continue
    if words[0] == "p":
        nvars = int(words[2])
        continue
    numbers += map(int, words)
clauses, clause = [], []
for lit in numbers:
    if lit:
        clause.append(lit)
    else:
        clauses.append(clause)
        clause = []
state = os.environ["LIAR_STATE"]
given = int(open(state).read()) if os.path.exists(state) else 0
model = pycosat.solve(clauses, vars=nvars) if given < int(os.environ["LIAR_MODELS"]) else "UNSAT"
if model == "UNSAT":
    print("s UNSATISFIABLE")
else:
    open(state, "w").write(str(given + 1))
    print("s SATISFIABLE")
    print("v", " ".join(map(str, model)), "0")
"""

#: The real solvers that write proofs (each entry's capabilities say so).
PROOF_SOLVERS = [name for name, solver in SAT_SOLVERS.items() if solver.capabilities.proofs]


def run(capsys, *args):
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def files(tmp_path, capsys):
    """The kit's own, unedited 4- and 6-queens files."""
    paths = {}
    for n in (4, 6):
        paths[n] = tmp_path / f"{n}.cnf"
        assert main(["cnf", str(n), "-o", str(paths[n])]) == 0
    capsys.readouterr()
    return paths


@pytest.fixture
def liar(tmp_path, monkeypatch):
    """The path of the lying DIMACS solver; ``liar(k)`` sets how many models it gives before its UNSAT."""
    path = tmp_path / "liar"
    path.write_text(LIAR)
    path.chmod(0o755)
    state = tmp_path / "liar-state"
    monkeypatch.setenv("LIAR_STATE", str(state))

    def models(k: int) -> str:
        state.unlink(missing_ok=True)
        monkeypatch.setenv("LIAR_MODELS", str(k))
        return str(path)

    return models


# ------------------------------------------------------------------------------ a solver without proofs


@pytest.mark.parametrize(("n", "k"), [(4, 0), (4, 1), (6, 0), (6, 3)], ids=["4: none", "4: 1 of 2", "6: none",
                                                                            "6: 3 of 4"])
def test_an_early_unsat_without_a_proof_is_an_uncertified_count(capsys, files, liar, n, k):
    code, out, err = run(capsys, "count", "--from-cnf", files[n], "--solver", liar(k))
    assert code == EXIT_UNCERTIFIED == 4 and err == ""
    assert out.startswith(f"{n}-queens: {k} solutions") and "NOT CERTIFIED" in out and "liar's word" in out
    assert "--solver pysat-cadical" in out or "no installed solver writes proofs" in out
    code, out, err = run(capsys, "count", "--from-cnf", files[n], "--solver", liar(k), "--json")
    data = json.loads(out)
    assert code == 4 and (data["count"], data["status"], data["certified"], data["certificate"]) == (
        k, "solved", False, None)
    assert "writes no proofs" in data["known_by"]
    assert data["known_by"].startswith("the solver alone" if k == 0 else "every model checked")
    if k == 0:  # the board count catches the same liar by the published count
        code, _out, err = run(capsys, "count", n, "--solver", liar(k))
        assert code == 1 and "published count" in err


@pytest.mark.parametrize("as_json", [False, True], ids=["text", "json"])
def test_require_certificate_refuses_a_solver_without_proofs_in_one_line(capsys, files, liar, as_json):
    extra = ["--json"] if as_json else []
    for solver in (liar(0), "pycosat", "pysat-kissat", "minisat"):
        if solver in SAT_SOLVERS and not SAT_SOLVERS[solver].available():
            continue
        code, out, err = run(capsys, "count", "--from-cnf", files[6], "--solver", solver, "--require-certificate",
                             *extra)
        assert code == 2 and err.count("\n") == 1 and err.startswith("nqueens-kit: error: --require-certificate:")
        assert "writes no proofs" in err and "solvers that do: " in err
        assert all(name in err for name in PROOF_SOLVERS if SAT_SOLVERS[name].available())
        assert (json.loads(out)["exit"] == 2) if as_json else out == ""


def test_the_python_api_says_it_too(files, liar):
    result, invalid = count_formula(files[6], solver=liar(3))
    assert (result.count, invalid, result.extra["certified"]) == (3, 0, False)
    assert "rests on the solver's word" in result.known_by


# ------------------------------------------------------------------------------ solvers that write proofs


@pytest.mark.parametrize("solver", PROOF_SOLVERS)
def test_solvers_that_write_proofs_certify_the_published_counts(capsys, tmp_path, solver):
    need(SAT_SOLVERS[solver].available(), solver)
    for n in range(4, 9):
        path = tmp_path / f"{n}.cnf"
        assert main(["cnf", str(n), "-o", str(path)]) == 0
        capsys.readouterr()
        code, out, err = run(capsys, "count", "--from-cnf", path, "--solver", solver, "--json",
                             "--require-certificate")
        data = json.loads(out)
        assert (code, data["count"], data["certified"], err) == (0, published_count(n), True, ""), (n, err)
        assert data["known_by"].startswith("certified: every model checked against the file's clauses")
        certificate = data["certificate"]
        assert certificate["checker"] in CHECKERS and certificate["lemmas"] >= 1
        assert certificate["blocking_clauses"] == published_count(n)  # one model per board: no helpers


def test_certified_text_and_a_file_without_a_model(capsys, tmp_path, files):
    need(SAT_SOLVERS["pysat-cadical"].available(), "python-sat")
    code, out, _ = run(capsys, "count", "--from-cnf", files[6])  # the default solver writes proofs
    assert code == 0 and "6-queens: 4 solutions" in out and "\ncertified: every model checked" in out
    assert "NOT CERTIFIED" not in out
    three = tmp_path / "3.cnf"
    assert main(["cnf", "3", "-o", str(three)]) == 0
    capsys.readouterr()
    code, out, _ = run(capsys, "count", "--from-cnf", three, "--json")
    data = json.loads(out)
    assert (code, data["count"], data["certified"]) == (0, 0, True)
    assert data["known_by"].startswith("certified:") and "that there is no model" in data["known_by"]
    empty = tmp_path / "empty-clause.cnf"
    empty.write_text("p cnf 4 2\n1 2 0\n0\n")
    code, out, _ = run(capsys, "count", "--from-cnf", empty, "--n", 2, "--json")
    data = json.loads(out)
    assert (code, data["count"], data["certified"]) == (0, 0, True) and "empty clause" in data["known_by"]


class _StopsEarlyWithProofs(PySat):
    """python-sat's CaDiCaL that ends its list of models after ``k`` of them (UNSAT too early) and proves the
    end honestly, or, with ``forged``, answers the proof call UNSAT with the empty clause for a proof."""

    def __init__(self, name: str, k: int, forged: bool = False) -> None:
        super().__init__(name, "cadical195", "a test's liar", marker="s", proofs=True, incremental=True,
                         statistics=PYSAT_COUNTERS, assumptions=True, verbs=SAT_VERBS, features=SAT_FEATURES,
                         variants=CLAUSES)
        self.k, self.forged = k, forged

    def models(self, clauses, num_vars, block):
        for i, model in enumerate(super().models(clauses, num_vars, block)):
            if i >= self.k:
                return
            yield model

    def prove(self, clauses, num_vars, deadline=None):
        if self.forged:
            return SatOutcome(Answer.UNSAT), ["0"]
        return super().prove(clauses, num_vars, deadline)


@pytest.mark.parametrize(("forged", "why"), [(False, "answered UNSAT before the last model"),
                                             (True, "rejected the proof")], ids=["honest proof", "forged proof"])
def test_an_early_unsat_with_proofs_is_a_lie_caught(capsys, monkeypatch, files, forged, why):
    need(SAT_SOLVERS["pysat-cadical"].available(), "python-sat")
    for n, k in ((4, 0), (4, 1), (6, 3)):
        liar = _StopsEarlyWithProofs(f"early-{k}", k, forged)
        monkeypatch.setitem(SAT_SOLVERS, liar.name, liar)
        code, out, err = run(capsys, "count", "--from-cnf", files[n], "--solver", liar.name, "--json")
        assert code == 1 and json.loads(out)["exit"] == 1 and err.count("\n") == 1, err
        assert why in err and "cannot be trusted" in err and liar.name in err
        with pytest.raises(SolverError, match=why):
            count_formula(files[n], solver=liar.name)


@pytest.mark.parametrize("checker", CHECKERS)
def test_each_checker_certifies_and_rejects(checker):
    need(importable(checker), checker)
    need(SAT_SOLVERS["pysat-cadical"].available(), "python-sat")
    certificate, model = prove_no_model([[1, 2], [-1, 2], [1, -2], [-1, -2]], 2, "pysat-cadical", checker)
    assert model is None and certificate is not None and certificate.checker == checker
    certificate, model = prove_no_model([[1, 2]], 2, "pysat-cadical", checker)  # a model: no certificate
    assert certificate is None and model is not None and {1, 2} & set(model)
    assert not check_clausal(dimacs_of([[1, 2]], 2), "0\n", checker).checked  # a satisfiable formula
    assert check_clausal(dimacs_of([[1], [-1]], 2), "0\nd -1 0\n", checker).checked  # what CaDiCaL writes
    assert through_empty_clause("1 0\n0\nd 1 0\n") == "1 0\n0\n"


# --------------------------------------------------------------------------------------- count N


def test_a_board_count_says_it_too(capsys, monkeypatch):
    """``count N`` is certified by the published count or independent backtracking; beyond the backtracking's
    budget its total rests on the solver's word: uncertified, exit status 4."""
    code, out, _ = run(capsys, "count", 8, "--json", "--require-certificate")
    data = json.loads(out)
    assert (code, data["count"], data["known_by"], data["certified"]) == (0, 92, "published count", True)
    code, out, _ = run(capsys, "count", 6, "--place", "1,2", "--solver", "pycosat", "--json")
    data = json.loads(out)
    assert (code, data["known_by"], data["certified"]) == (0, "backtracking", True)
    import nqueens_kit.methods.search.backtrack as backtrack

    # backtracking out of its budget before the end: the total rests on the solver's word alone
    monkeypatch.setattr(backtrack, "search_budgeted", lambda problem, steps, count=False: (0, None, False))
    code, out, _ = run(capsys, "count", 6, "--place", "1,2", "--json")
    data = json.loads(out)
    assert (code, data["count"], data["known_by"], data["certified"]) == (4, 1, "solver alone", False)
    code, out, err = run(capsys, "count", 6, "--place", "1,2")
    assert code == 4 and "NOT CERTIFIED" in out and err == ""
    code, out, err = run(capsys, "count", 6, "--place", "1,2", "--require-certificate")
    assert code == 4 and out == "" and err.count("\n") == 1 and "not certified" in err
