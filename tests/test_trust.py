"""No answer is believed that was not checked: a "no" says how it is known, a lying solver is caught, a count
is checked against the published counts or independent backtracking, and what the kit writes is whole.

The liars here live in this process (registered for a test, inherited by the child processes the verbs
fork); tests/test_processes.py has the executable ones.
"""

from __future__ import annotations

import csv
import errno
import itertools
import json
import os
import random

import pytest

from nqueens_kit import Problem, count, solve
from nqueens_kit.bench import read_results, run_sweep
from nqueens_kit.cli import main
from nqueens_kit.errors import InputError, SolverError
from nqueens_kit.methods import Choice
from nqueens_kit.methods.sat.formula import ClauseCheck, count_formula
from nqueens_kit.problem.board import verify
from nqueens_kit.problem.reference import published_count
from nqueens_kit.problem.results import KNOWN_BY, Answer
from nqueens_kit.solvers import SAT_SOLVERS, Capabilities, SatOutcome, SatSolver
from nqueens_kit.solvers.embedded import Pycosat

from .conftest import brute_force, need


class _SaysNo(Pycosat):
    """Always answers "no"."""

    name = "says-no"

    def solve(self, clauses, num_vars, deadline=None, assumptions=()):
        return SatOutcome(Answer.UNSAT)

    def all_models(self, clauses, num_vars):
        return iter(())


class _StopsEarly(Pycosat):
    """Enumerates correctly but, every other time it is asked, stops before the first model, as a solver that
    mistakes a hard sub-problem for an empty one might (each cube of a count holds few boards, often one)."""

    name = "stops-early"

    def __init__(self):
        super().__init__()
        self.calls = itertools.count()

    def all_models(self, clauses, num_vars):
        models = super().all_models(clauses, num_vars)
        return itertools.islice(models, 0 if next(self.calls) % 2 else None)


class _BreaksAClause(SatSolver):
    """A DIMACS-style solver (a fresh solve per call, no incremental state) that leaves out one clause of the
    formula it is handed, the one at ``index`` (a file's clauses come first), and keeps every other clause,
    the kit's blocking clauses and sub-problem units included: its models may break that one clause."""

    kind = "binary"
    capabilities = Capabilities(in_process=True)

    def __init__(self, name, index):
        self.name, self.index = name, index

    def available(self):
        return True

    def install_hint(self):
        return "a test's own solver"

    def solve(self, clauses, num_vars, deadline=None, assumptions=()):
        import pycosat

        kept = [list(c) for i, c in enumerate(clauses) if i != self.index] + [[lit] for lit in assumptions]
        model = pycosat.solve(kept, vars=num_vars)
        return SatOutcome(Answer.UNSAT) if model == "UNSAT" else SatOutcome(Answer.SAT, model)


class _GivesUpLater(_BreaksAClause):
    """Answers honestly twice, then stops without an answer (as a solver at its own limit does)."""

    def __init__(self, name):
        super().__init__(name, -1)
        self.calls = itertools.count()

    def solve(self, clauses, num_vars, deadline=None, assumptions=()):
        if next(self.calls) >= 2:
            return SatOutcome(Answer.UNKNOWN)
        return super().solve(clauses, num_vars, deadline, assumptions)


@pytest.fixture
def liars(monkeypatch):
    for liar in (_SaysNo(), _StopsEarly(), _BreaksAClause("breaks-clause-2", 1), _GivesUpLater("gives-up-later")):
        monkeypatch.setitem(SAT_SOLVERS, liar.name, liar)


# ------------------------------------------------------------------------------------- every "no"


@pytest.mark.parametrize("problem", [Problem(8), Problem(1), Problem(8, break_symmetry=True),
                                     Problem(6, [(1, 2)]), Problem(8, blocked=[(1, 1)])],
                         ids=["plain 8", "plain 1", "broken 8", "completable", "blocked"])
def test_a_no_where_a_board_exists_is_a_solver_error(liars, problem):
    with pytest.raises(SolverError, match="wrong"):
        solve(problem, "sat", solver="says-no")
    with pytest.raises(SolverError, match="wrong"):
        solve(problem, "sat", solver="says-no", time_limit=60)  # in a child process too


def test_the_command_line_and_the_bench_do_not_believe_it(liars, capsys):
    assert main(["solve", "8", "--solver", "says-no", "--json"]) == 1
    out, err = capsys.readouterr()
    assert json.loads(out)["exit"] == 1 and "wrong" in err and len(err.strip().splitlines()) == 1
    assert main(["count", "8", "--solver", "says-no"]) == 1
    assert "published count is 92" in capsys.readouterr().err
    assert main(["count", "8", "--break-symmetry", "--solver", "says-no"]) == 1
    assert "A002562" in capsys.readouterr().err
    # a bench run's child raises it, and a run that raises is an error row (tests/test_bench.py)
    from nqueens_kit.bench import worker

    with pytest.raises(SolverError, match="wrong"):
        worker.run_job({"method": "sat", "variant": "pairwise", "solver": "says-no", "n": 8}, 60)


def test_every_no_says_how_it_is_known():
    small = solve(Problem(8, [(1, 1), (2, 3)]), "sat")
    assert small.status == "infeasible" and small.known_by == "backtracking"
    assert small.to_dict()["known_by"] == "backtracking"
    # the last row blocked entirely: SAT sees it at once, backtracking only after 39 rows, past its budget
    big = Problem(40, blocked=[(40, c) for c in range(1, 41)])
    alone = solve(big, "sat", "sequential")
    assert alone.status == "infeasible" and alone.known_by == "solver alone" and "word alone" in alone.message
    assert solve(3, "ilp").known_by == "backtracking" and solve(Problem(2)).known_by == "backtracking"
    assert set(KNOWN_BY) >= {small.known_by, alone.known_by}


def test_a_checked_proof_is_the_strongest_evidence(tmp_path, capsys):
    need(SAT_SOLVERS["pysat-cadical"].available(), "python-sat")
    code = main(["solve", "8", "--place", "1,1", "2,3", "--proof", str(tmp_path / "p.drup"), "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 1 and data["status"] == "infeasible" and data["known_by"] == "checked proof"


def test_every_count_is_checked(liars):
    assert count(10).known_by == "published count" and count(Problem(8, [(1, 1)])).known_by == "backtracking"
    with pytest.raises(SolverError, match="published count is 92"):
        count(8, "sat", solver="stops-early")
    with pytest.raises(SolverError, match="independent backtracking finds"):
        count(Problem(8, [(1, 2)]), "sat", solver="stops-early")


def test_the_bench_records_how_each_no_is_known(tmp_path):
    out = tmp_path / "r.csv"
    run_sweep([Choice("sat", "pairwise", "pycosat")], [3, 4], repeat=1, progress=False, out=out)
    rows = {r["n"]: r for r in read_results(out)}
    assert rows[3]["status"] == "infeasible" and rows[3]["known_by"] == "backtracking"
    assert rows[4]["known_by"] is None


# ------------------------------------------------------------------------------- foreign formulas


def _brute_board_count(clauses, num_vars, n):
    """Distinct assignments of variables 1..n² over every model, by trying every assignment."""
    boards = set()
    for bits in itertools.product((False, True), repeat=num_vars):
        if all(any(bits[abs(lit) - 1] == (lit > 0) for lit in clause) for clause in clauses):
            boards.add(bits[: n * n])
    return len(boards)


SOLVERS = ["pycosat", "pysat-cadical", "pysat-minisat", "pysat-kissat", "minisat"]


#: (solver, formulas): a DIMACS executable starts a process per model, so it gets fewer; the deep profile
#: (pytest -m deep) tries four times as many.
FORMULA_CASES = [(solver, 20 if solver != "minisat" else 5) for solver in SOLVERS]


@pytest.mark.parametrize(("solver", "cases"), [
    *FORMULA_CASES, *(pytest.param(solver, 4 * cases, marks=pytest.mark.deep) for solver, cases in FORMULA_CASES)])
def test_the_formula_counter_agrees_with_brute_force(solver, cases):
    """Random small formulas over 4 to 11 variables, board n = 2 or 3, unused variables included."""
    need(SAT_SOLVERS[solver].available(), solver)
    rng = random.Random(f"formula-counter-{solver}-{cases}")
    for _case in range(cases):
        n = rng.choice((2, 3))
        num_vars = rng.randint(n * n, n * n + 2)
        used = rng.sample(range(1, num_vars + 1), rng.randint(1, num_vars))  # some variables in no clause
        clauses = [[rng.choice((1, -1)) * rng.choice(used) for _ in range(rng.randint(1, 3))]
                   for _ in range(rng.randint(0, 6))]
        result, invalid = count_formula(clauses, num_vars, n, solver)
        assert result.count == _brute_board_count(clauses, num_vars, n), (clauses, num_vars, n)
        assert 0 <= invalid <= result.count


def _file_count(path, n):
    """The board count of a small DIMACS file by trying every assignment (independent of every solver)."""
    lines = [line.split() for line in path.read_text().splitlines() if line and line[0] not in "cp"]
    literals = [int(tok) for line in lines for tok in line]
    clauses, current = [], []
    for lit in literals:
        if lit:
            current.append(lit)
        else:
            clauses.append(current)
            current = []
    header = next(line for line in path.read_text().splitlines() if line.startswith("p cnf"))
    return _brute_board_count(clauses, int(header.split()[2]), n)


def test_a_model_that_breaks_a_clause_of_the_file_stops_the_count(liars, tmp_path, capsys, monkeypatch):
    """A solver that respects the kit's blocking clauses but not one clause of the file would make 9 boards
    more (and 8 boards of 5-queens with a corner closed 10): every model is checked against the file's own
    clauses, and the first that breaks one stops the count (exit 1, one line naming the clause)."""
    path = tmp_path / "two.cnf"
    path.write_text("p cnf 4 2\n1 2 0\n-3 4 0\n")
    assert _file_count(path, 2) == 9
    assert main(["count", "--from-cnf", str(path), "--n", "2", "--solver", "breaks-clause-2", "--json"]) == 1
    out, err = capsys.readouterr()
    assert json.loads(out)["exit"] == 1 and len(err.strip().splitlines()) == 1, err
    assert "breaks-clause-2" in err and "clause 2 of" in err and "(-3 4 0)" in err and "cannot be trusted" in err
    # the 5-queens file with a unit clause -1 added (its last clause): 8 boards, the liar would say 10
    five = tmp_path / "five.cnf"
    assert main(["cnf", "5", "-o", str(five), "--no-comments"]) == 0
    head, *rest = five.read_text().splitlines()
    _p, _cnf, variables, clauses = head.split()
    five.write_text("\n".join([f"p cnf {variables} {int(clauses) + 1}", *rest, "-1 0", ""]))
    liar = _BreaksAClause("breaks-the-unit", int(clauses))
    monkeypatch.setitem(SAT_SOLVERS, liar.name, liar)
    capsys.readouterr()
    assert main(["count", "--from-cnf", str(five), "--n", "5"]) == 0  # the honest count
    assert "5-queens: 8 solutions" in capsys.readouterr().out
    assert main(["count", "--from-cnf", str(five), "--n", "5", "--solver", liar.name]) == 1
    err = capsys.readouterr().err
    assert f"clause {int(clauses) + 1} of" in err and "(-1 0)" in err and "cannot be trusted" in err, err
    # in process and under a time limit (a child process) alike
    for limit in (None, 60):
        with pytest.raises(SolverError, match=r"breaks clause 2 of the formula \(-3 4 0\)"):
            count_formula([[1, 2], [-3, 4]], 4, 2, "breaks-clause-2", time_limit=limit)


def test_a_clause_the_kit_added_is_checked_too(tmp_path, capsys, monkeypatch):
    """With --break-symmetry the lex-leader clauses come after the file's: a model that breaks one is named as
    such."""
    six = tmp_path / "six.cnf"
    assert main(["cnf", "6", "-o", str(six)]) == 0
    clauses = int(next(line for line in six.read_text().splitlines() if line.startswith("p cnf")).split()[3])
    liar = _BreaksAClause("breaks-symmetry", clauses + 1)  # the second clause the kit adds
    monkeypatch.setitem(SAT_SOLVERS, liar.name, liar)
    capsys.readouterr()
    code = main(["count", "--from-cnf", str(six), "--break-symmetry", "--solver", liar.name])
    err = capsys.readouterr().err
    assert code == 1 and "symmetry-breaking clause 2 that --break-symmetry added" in err, err


def test_every_count_of_a_file_says_how_it_is_known(liars, tmp_path, capsys):
    """By default (python-sat's CaDiCaL, which writes proofs) the count is certified; a solver without proofs
    leaves the end of the list on its word: said, and exit status 4 (tests/test_count_certificate.py)."""
    need(SAT_SOLVERS["pysat-cadical"].available(), "python-sat")
    path = tmp_path / "two.cnf"
    path.write_text("p cnf 4 2\n1 2 0\n-3 4 0\n")
    assert main(["count", "--from-cnf", str(path), "--n", "2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["count"] == 9 and "every model checked against the file's clauses" in data["known_by"]
    assert data["known_by"].startswith("certified:") and data["certified"] is True
    assert main(["count", "--from-cnf", str(path), "--n", "2"]) == 0
    assert "certified: every model checked" in capsys.readouterr().out
    assert main(["count", "--from-cnf", str(path), "--n", "2", "--solver", "pycosat", "--json"]) == 4
    data = json.loads(capsys.readouterr().out)
    assert data["count"] == 9 and "rests on the solver's word" in data["known_by"] and data["certified"] is False
    # a solver that always says UNSAT: a count of 0 that rests on its word alone
    assert main(["count", "--from-cnf", str(path), "--n", "2", "--solver", "says-no", "--json"]) == 4
    data = json.loads(capsys.readouterr().out)
    assert data["count"] == 0 and data["known_by"].startswith("the solver alone") and data["certified"] is False
    assert main(["count", "--from-cnf", str(path), "--n", "2", "--solver", "says-no"]) == 4
    out = capsys.readouterr().out
    assert "known by: the solver alone" in out and "NOT CERTIFIED" in out
    result, _invalid = count_formula([[1, 2], [-3, 4]], 4, 2)
    assert result.count == 9 and "the formula's clauses" in result.known_by and result.extra["certified"] is True
    # a solver that stops without an answer after two models: not the end of the models, so no count
    assert main(["count", "--from-cnf", str(path), "--n", "2", "--solver", "gives-up-later"]) == 1
    assert "after 2 models" in capsys.readouterr().err


@pytest.mark.parametrize("use_numpy", [True, False], ids=["numpy", "no numpy"])
def test_the_clause_check_finds_the_first_broken_clause(use_numpy):
    """Against a plain reading of every clause, on random formulas (empty clauses included) and models
    (variables left out included); the check without numpy is what runs where numpy is absent."""
    rng = random.Random("clause-check")
    for _case in range(300):
        num_vars = rng.randint(1, 8)
        clauses = [[rng.choice((1, -1)) * rng.randint(1, num_vars) for _ in range(rng.randint(0, 4))]
                   for _ in range(rng.randint(0, 8))]
        model = [v if rng.random() < 0.5 else -v for v in range(1, num_vars + 1) if rng.random() < 0.9]
        true = set(model)
        expected = next((i for i, clause in enumerate(clauses, 1) if not true.intersection(clause)), None)
        check = ClauseCheck(clauses, num_vars, use_numpy=use_numpy)
        assert check.broken(model) == expected, (clauses, model)
        if expected is not None:
            assert check.clause(expected) == clauses[expected - 1]


def test_each_python_sat_entry_says_whether_it_is_incremental_as_python_sat_does():
    """python-sat documents its Kissat as non-incremental (a clause added after a solve aborts the process);
    every entry that claims to be incremental enumerates the models of a formula in one solver, each blocking
    clause added after a solve, and finds exactly the formula's models."""
    need(SAT_SOLVERS["pysat-cadical"].available(), "python-sat")
    from pysat.solvers import Solver

    clauses = [[1, 2, 3], [-1, -2], [2, -4]]
    truth = sum(all(any(bits[abs(lit) - 1] == (lit > 0) for lit in c) for c in clauses)
                for bits in itertools.product((False, True), repeat=4))
    for name, entry in SAT_SOLVERS.items():
        if entry.kind != "pysat":
            continue
        library = Solver(name=entry.backend)
        try:
            documented = "non-incremental" not in (type(library.solver).__doc__ or "")
        finally:
            library.delete()
        assert entry.capabilities.incremental == documented, name
        models = list(entry.models(clauses, 4, lambda m: [-lit for lit in m]))
        assert len(models) == len({tuple(m) for m in models}) == truth, name


KISSAT_FILES = ["p cnf 4 1\n-2 -4 0\n", "p cnf 4 2\n1 2 0\n-3 4 0\n", "p cnf 6 3\n1 5 0\n-5 6 -2 0\n-6 3 0\n",
                "p cnf 9 2\n1 2 3 0\n-4 -5 0\n", "p cnf 4 2\n1 0\n-1 0\n"]


@pytest.mark.parametrize("text", KISSAT_FILES, ids=range(len(KISSAT_FILES)))
def test_kissat_counts_small_files_without_aborting(tmp_path, capsys, text):
    """python-sat's Kissat takes no clause after a solve (adding one aborts the process): the counter gives it
    a fresh solver per model.  Every count against trying every assignment."""
    need(SAT_SOLVERS["pysat-kissat"].available(), "python-sat")
    assert not SAT_SOLVERS["pysat-kissat"].capabilities.incremental
    path = tmp_path / "f.cnf"
    path.write_text(text)
    n = 3 if text.startswith("p cnf 9") else 2
    # python-sat's Kissat writes no proofs: a count that rests on its final UNSAT (exit status 4)
    assert main(["count", "--from-cnf", str(path), "--n", str(n), "--solver", "pysat-kissat", "--json"]) == 4
    data = json.loads(capsys.readouterr().out)
    assert data["count"] == _file_count(path, n) and data["certified"] is False


@pytest.mark.parametrize("encoding", ["pairwise", "sequential"])
def test_kissat_counts_n_queens_files_as_published(tmp_path, capsys, encoding):
    need(SAT_SOLVERS["pysat-kissat"].available(), "python-sat")
    for n in range(1, 9):
        path = tmp_path / f"{n}.cnf"
        assert main(["cnf", str(n), "--encoding", encoding, "-o", str(path)]) == 0
        capsys.readouterr()
        assert main(["count", "--from-cnf", str(path), "--solver", "pysat-kissat", "--json"]) == 4  # no proofs
        data = json.loads(capsys.readouterr().out)
        assert (data["count"], data["invalid_boards"], data["certified"]) == (published_count(n), 0, False), n


def test_kissat_counts_and_explains_by_solving_afresh():
    """``count N`` (border cubes, row cubes) and the minimal impossible subset, each a fresh Kissat per solve;
    assumptions, which python-sat's Kissat would ignore, are handed to it as unit clauses."""
    need(SAT_SOLVERS["pysat-kissat"].available(), "python-sat")
    kissat = SAT_SOLVERS["pysat-kissat"]
    assert count(6, "sat", solver="pysat-kissat").count == published_count(6)
    assert count(Problem(7, [(1, 1)]), "sat", solver="pysat-kissat").count == len(brute_force(7, [(1, 1)]))
    assert count(Problem(8, break_symmetry=True), "sat", solver="pysat-kissat").count == published_count(8, fundamental=True)
    stuck = solve(Problem(6, [(1, 1), (2, 3), (3, 5)]), "sat", solver="pysat-kissat")
    assert stuck.status == "infeasible" and stuck.core is not None and len(stuck.core) < 3
    assert solve(Problem(6, list(stuck.core)), "sat", solver="pysat-kissat").status == "infeasible"
    assert kissat.solve([[1, 2]], 2, assumptions=[-1, -2]).status == Answer.UNSAT
    assert kissat.solve([[1, 2]], 2, assumptions=[-1]).model[:2] == [-1, 2]


@pytest.mark.parametrize(("text", "n", "truth"), [
    ("p cnf 4 1\n1 0\n", 2, 8), ("p cnf 9 0\n", 3, 512), ("p cnf 5 1\n5 0\n", 2, 16),
    pytest.param("p cnf 16 0\n", 4, 65_536, marks=pytest.mark.deep)])  # a model a board: 65,536 solver calls
def test_declared_variables_in_no_clause_are_counted(tmp_path, capsys, text, n, truth):
    path = tmp_path / "f.cnf"
    path.write_text(text)
    for solver, code in (("pycosat", 4), ("pysat-cadical", 0)):  # certified where the solver writes proofs
        assert main(["count", "--from-cnf", str(path), "--n", str(n), "--solver", solver, "--json"]) == code
        assert json.loads(capsys.readouterr().out)["count"] == truth


def test_from_cnf_honours_break_symmetry_and_refuses_what_it_cannot_size(tmp_path, capsys):
    path = tmp_path / "eight.cnf"
    assert main(["cnf", "8", "-o", str(path)]) == 0
    capsys.readouterr()
    assert main(["count", "--from-cnf", str(path), "--break-symmetry", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["count"] == data["fundamental"] == published_count(8, fundamental=True)
    for device in ("/dev/zero", "/dev/urandom"):
        assert main(["count", "--from-cnf", device, "--n", "4"]) == 2
        assert "not a regular file" in capsys.readouterr().err
    assert main(["count", "--from-cnf", str(path), "--max-memory", "1K"]) == 2
    assert "more than the" in capsys.readouterr().err
    assert main(["count", "--from-cnf", str(path), "--no-projection"]) == 2
    capsys.readouterr()
    many = tmp_path / "free.cnf"
    many.write_text("p cnf 36 0\n")
    assert main(["count", "--from-cnf", str(many), "--n", "6"]) == 2
    assert "occur in no clause" in capsys.readouterr().err


def test_parsing_a_large_file_is_inside_the_time_limit(tmp_path, capsys):
    path = tmp_path / "big.cnf"
    assert main(["cnf", "40", "-o", str(path)]) == 0  # 40 MB of clauses
    capsys.readouterr()
    assert main(["count", "--from-cnf", str(path), "--time-limit", "0.3"]) == 3


# ------------------------------------------------------------------------------ nothing is lost


def test_resume_keeps_a_users_own_columns(tmp_path):
    out = tmp_path / "r.csv"
    run_sweep([Choice("construct")], [4, 5], repeat=1, progress=False, out=out)
    with open(out, newline="", encoding="utf-8") as handle:
        table = list(csv.DictReader(handle))
    header = list(table[0]) + ["my note"]
    for row in table:
        row["my note"] = f"looked at n = {row['n']}"
    with open(out, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=header)
        writer.writeheader()
        writer.writerows(table)
    run_sweep([Choice("construct")], [4, 5, 6], repeat=1, progress=False, out=out, resume=True)
    with open(out, newline="", encoding="utf-8") as handle:
        after = list(csv.DictReader(handle))
    assert [r["my note"] for r in after] == ["looked at n = 4", "looked at n = 5", ""]


def _full_disk(*args, **kwargs):
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def test_a_full_disk_leaves_no_partial_file(tmp_path, monkeypatch, capsys):
    import nqueens_kit.methods.sat.clauses as cnf_module  # where write_dimacs writes its clauses

    def half_then_full(out, *args, **kwargs):
        out.write("p cnf 64 744\n1 2 3")
        _full_disk()

    monkeypatch.setattr(cnf_module, "write_dimacs_clauses", half_then_full)
    assert main(["cnf", "8", "-o", str(tmp_path / "eight.cnf")]) == 2
    assert "No space left" in capsys.readouterr().err and list(tmp_path.iterdir()) == []
    monkeypatch.undo()
    monkeypatch.setattr(os, "fsync", _full_disk)
    with pytest.raises(InputError, match="No space left"):
        run_sweep([Choice("construct")], [4], repeat=1, progress=False, out=tmp_path / "r.csv")
    assert list(tmp_path.iterdir()) == []


def test_empty_and_folder_outputs_are_refused(capsys, tmp_path):
    for args in (["cnf", "4", "-o", ""], ["notebooks", ""], ["cnf", "4", "-o", str(tmp_path) + "/"]):
        assert main(args) == 2, args
        err = capsys.readouterr().err
        assert len(err.strip().splitlines()) == 1, err


@pytest.mark.parametrize("args", [
    ["solve", "8", "--checker", "drup"],
    ["solve", "8", "--proof", "p", "--settings", "tuned"],
    ["count", "8", "--no-projection"],
    ["count", "8", "--break-symmetry", "--fundamental"],
    ["count", "8", "--method", "model-count", "--max-memory", "junk"],
    ["count", "8", "--break-symmetry", "--max-memory", "junk"],
    ["count", "8", "--method", "backtrack", "--solver", "pycosat"],
    ["solve", "8", "--method", "construct", "--encoding", "pairwise"],
    ["solve", "8", "--method", "local-search", "--settings", "tuned"],
    ["count", "8", "--method", "local-search"],
    ["solve", "8", "--method", "construct", "--place", "1,1"],
    ["count", "--from-cnf", "f.cnf", "--method", "ilp"],
    ["count", "8", "--n", "8"],
], ids=lambda a: " ".join(a))
def test_options_that_do_not_apply_are_refused(capsys, args):
    assert main(args) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_verify_checks_blocked_cells():
    board = ((1, 2), (2, 4), (3, 1), (4, 3))
    assert verify(4, board) and not verify(4, board, blocked=[(3, 1)])
    assert {frozenset(b) for b in brute_force(4)} >= {frozenset(board)}
