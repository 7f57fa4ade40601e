"""The entry contract catches entries that claim what they do not do: each test registers a deliberately wrong
entry (for the test alone) and runs the check of :mod:`tests.entry_contract` on it, which must report it.

The wrong entries are the ones a review of the kit found passing the old contract: a python-sat entry left
claiming a time limit its solver cannot keep (CaDiCaL 1.0.3 has no interrupt), a CP entry that records
``all-cores`` and searches on one thread, one that declares reordered instances and ignores the order (and its
deadline), an ILP entry that records ``tuned`` though it runs the same either way, and one whose PuLP class
fails on a formulation other than the default with a raw TypeError.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from nqueens_kit.cli import main
from nqueens_kit.methods import get_method, solve
from nqueens_kit.methods.search.backtrack import _search
from nqueens_kit.problem.board import Board, canonical
from nqueens_kit.problem.results import Answer, CountResult, Options
from nqueens_kit.runtime.limits import Size
from nqueens_kit.solvers import SAT_SOLVERS, PySat, SatSolver, registry
from nqueens_kit.solvers.base import CLAUSES, PYSAT_COUNTERS, SAT_FEATURES, SAT_VERBS, Capabilities, Outcome
from nqueens_kit.solvers.cp import CP_FEATURES, CP_VERBS, FORMULATION_NAMES, CpModel, CpSolver, cores, workers
from nqueens_kit.solvers.ilp_pulp import Candidate, Highs

from . import entry_contract as contract
from .conftest import need


def _pysat_ready() -> None:
    from nqueens_kit.runtime.browser import importable

    need(importable("pysat.solvers"), "python-sat")


# ------------------------------------------------------------------------------------------------ SAT


def test_a_time_limit_the_solver_cannot_keep_is_caught(monkeypatch) -> None:
    """CaDiCaL 1.0.3 through python-sat has no interrupt: an entry left claiming a time limit for it runs on
    past its deadline (the interrupt fails in the timer's thread) until the check's own child is stopped."""
    _pysat_ready()
    from pysat.solvers import SolverNames

    need(hasattr(SolverNames, "cadical103"), "CaDiCaL 1.0.3 in python-sat")
    wrong = PySat("claims-a-limit", "cadical103", "CaDiCaL 1.0.3 left claiming a time limit", marker="1",
                  time_limit=True, verbs=SAT_VERBS, features=SAT_FEATURES, variants=CLAUSES)
    monkeypatch.setitem(SAT_SOLVERS, wrong.name, wrong)
    found = contract.time_limit(get_method("sat"), wrong.name, limit=0.5, margin=1.0)
    assert len(found) == 1 and "ignores its deadline" in found[0] and wrong.name in found[0], found
    honest = PySat("honest", "glucose4", "Glucose 4 claiming its time limit", marker="2", time_limit=True,
                   verbs=SAT_VERBS, features=SAT_FEATURES, variants=CLAUSES)
    monkeypatch.setitem(SAT_SOLVERS, honest.name, honest)
    assert contract.time_limit(get_method("sat"), honest.name) == []


class _SolvesAfresh(PySat):
    """Claims to be incremental but lists its models with a fresh solve each (the base class's way)."""

    def models(self, clauses, num_vars, block):
        return SatSolver.models(self, clauses, num_vars, block)


def test_an_incremental_claim_that_solves_afresh_is_caught(monkeypatch) -> None:
    _pysat_ready()
    wrong = _SolvesAfresh("afresh", "minisat22", "MiniSat claiming incremental solves", marker="1", incremental=True,
                          verbs=SAT_VERBS, features=SAT_FEATURES, variants=CLAUSES)
    monkeypatch.setitem(SAT_SOLVERS, wrong.name, wrong)
    found = contract.incremental(get_method("sat"), wrong.name)
    assert len(found) == 1 and "solved afresh" in found[0], found


def test_counters_it_does_not_report_are_caught(monkeypatch) -> None:
    _pysat_ready()
    wrong = PySat("no-counters", "minisat22", "MiniSat claiming a counter it lacks", marker="1",
                  statistics=(*PYSAT_COUNTERS, "learned_clauses"), verbs=SAT_VERBS, features=SAT_FEATURES,
                  variants=CLAUSES)
    monkeypatch.setitem(SAT_SOLVERS, wrong.name, wrong)
    found = contract.statistics(get_method("sat"), wrong.name)
    assert len(found) == 1 and "'learned_clauses'" in found[0], found


# ------------------------------------------------------------------------------------------------- CP


class _OneThread(CpSolver):
    """A CP entry that searches by plain backtracking in the caller's thread, whatever it records: the settings it
    is given (``threads``: it records the workers they name), the order, and (``keeps_deadline`` False) the
    deadline."""

    method = "cp"
    capabilities = Capabilities(in_process=True, time_limit=True)
    verbs, features, variants = CP_VERBS, CP_FEATURES, FORMULATION_NAMES
    settings = frozenset({"one-worker", "all-cores"})
    marker = "1"

    def __init__(self, name: str, records_threads: bool = True, keeps_deadline: bool = True) -> None:
        self.name, self.records_threads, self.keeps_deadline = name, records_threads, keeps_deadline

    def available(self) -> bool:
        return True

    def install_hint(self) -> str:
        return "a test's own entry"

    def options(self, settings: str, order: int | None, enumerate_all: bool = False) -> Options:
        recorded: Options = {"settings": settings}
        if self.records_threads:
            recorded["threads"] = workers(settings, enumerate_all)
        return recorded

    def size(self, model: CpModel) -> Size:
        return Size(variables=model.problem.n, constraints=3, nonzeros=3 * model.problem.n, memory=1 << 20)

    def solve(self, model: CpModel, deadline: float | None, settings: str, order: int | None) -> Outcome:
        problem = model.problem
        outcome = Outcome(Answer.UNSAT, options=self.options(settings, order))
        for found in _search(problem):  # None now and then: a tick of the search
            if found is None:
                if self.keeps_deadline and deadline is not None and time.monotonic() > deadline:
                    outcome.status, outcome.limit = Answer.UNKNOWN, True
                    break
                continue
            if not problem.break_symmetry or canonical(problem.n, found) == found:
                outcome.status, outcome.board = Answer.SAT, list(found)
                break
        return outcome

    def boards(self, model: CpModel, settings: str, order: int | None) -> Iterator[Board]:
        problem = model.problem
        for board in _search(problem):
            if board is not None and (not problem.break_symmetry or canonical(problem.n, board) == board):
                yield board

    def count_note(self, result: CountResult) -> str:
        return "every board by backtracking"


@pytest.fixture
def cp_entry(monkeypatch):
    def register(entry: CpSolver) -> str:
        monkeypatch.setitem(registry("cp"), entry.name, entry)
        return entry.name
    return register


def test_all_cores_on_one_thread_is_caught(cp_entry) -> None:
    """It records two workers under all-cores (so its options differ), but its search runs no thread more."""
    if cores() < 2:
        pytest.skip("one core here: all-cores names one worker")
    name = cp_entry(_OneThread("one-thread"))
    found = contract.settings(get_method("cp"), name, watched=0.3, margin=0.5)
    assert len(found) == 1 and "records a setting it does not use" in found[0], found


def test_a_setting_recorded_without_a_difference_is_caught(cp_entry) -> None:
    name = cp_entry(_OneThread("same-run", records_threads=False))
    found = contract.settings(get_method("cp"), name, watched=0.3, margin=0.5)
    assert any("records the same options under --settings one-worker and all-cores" in f for f in found), found


def test_reordering_ignored_is_caught(cp_entry) -> None:
    """It declares reordered instances but builds nothing from the order: every order searches alike."""
    name = cp_entry(_OneThread("keeps-its-order"))
    found = contract.reorder(get_method("cp"), name)
    assert found and all("reach it as the same model" in f for f in found), found
    result = solve(6, "cp", solver=name, order=1)  # what a user gets: the run, as if reordered
    assert result.status == "solved"


def test_a_deadline_ignored_in_process_is_caught(cp_entry) -> None:
    """With ``isolated=False`` a time limit binds only an entry that keeps it; this one searches on."""
    name = cp_entry(_OneThread("no-deadline", keeps_deadline=False))
    found = contract.time_limit(get_method("cp"), name, limit=0.5, margin=1.0)
    assert len(found) == 1 and "ignores its deadline" in found[0], found


# ------------------------------------------------------------------------------------------------ ILP


class _MeansNothing(Highs):
    """HiGHS declaring both of the method's settings, which it runs alike (as a GLPK entry recording ``tuned``
    would)."""

    name = "means-nothing"
    marker = "1"
    settings = frozenset({"tuned", "default"})


def _glpk_like(**options: object) -> object:
    """PuLP's GLPK_CMD takes no ``gapRel``: the same TypeError, from a HiGHS underneath."""
    import pulp

    if "gapRel" in options:
        raise TypeError("GLPK_CMD.__init__() got an unexpected keyword argument 'gapRel'")
    return pulp.HiGHS(**options)


class _FailsOnMaxQueens(Highs):
    name = "fails-on-max-queens"
    marker = "2"

    def candidates(self):
        yield Candidate("GLPK-like (a test's own)", _glpk_like)


@pytest.fixture
def ilp_entry(monkeypatch):
    def register(entry: Highs) -> str:
        need(entry.available(), "HiGHS through PuLP")
        monkeypatch.setitem(registry("ilp"), entry.name, entry)
        return entry.name
    return register


def test_a_setting_that_means_nothing_is_caught(ilp_entry) -> None:
    name = ilp_entry(_MeansNothing())
    found = contract.settings(get_method("ilp"), name)
    assert len(found) == 2, found
    assert "records the same options under --settings tuned and default" in found[0]
    assert "runs alike under --settings tuned and default" in found[1]


def test_a_variant_that_fails_is_caught_and_said_in_one_line(ilp_entry, capsys) -> None:
    """Declaring max-queens and failing on it: the contract's case for that variant reports it, and a user sees one
    line naming the entry and the formulation, not a bug in the kit."""
    name = ilp_entry(_FailsOnMaxQueens())
    method = get_method("ilp")
    assert contract.variants(method, name, sizes=(4,), only="lines") == []
    found = contract.variants(method, name, sizes=(4,), only="max-queens")
    assert found and all("max-queens" in f and "gapRel" in f for f in found), found
    assert main(["solve", "6", "--method", "ilp", "--formulation", "max-queens", "--solver", name]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and name in err and "max-queens" in err and "bug" not in err, err


def test_a_variant_not_declared_is_refused_up_front(ilp_entry, capsys) -> None:
    entry = _FailsOnMaxQueens()
    entry.variants = frozenset({"lines", "pairwise"})
    name = ilp_entry(entry)
    assert contract.variants(get_method("ilp"), name, sizes=(4,)) == []
    assert main(["solve", "6", "--method", "ilp", "--formulation", "max-queens", "--solver", name]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"--solver {name}" in err and "max-queens" in err and "cbc" in err, err


# ------------------------------------------------------------------------------------------ the check itself


@pytest.mark.parametrize(("answers", "caught"), [
    (lambda limit: ("solved", 1.06, 0.0, ""), "it did not stop at its deadline"),  # the same answer, any deadline
    (lambda limit: ("solved", 0.1, 0.0, ""), "its time limit went untested"),  # an instance within its reach
    (lambda limit: ("solved", 1.06, 0.0, "") if limit >= 1 else ("timeout", limit + 0.01, 0.0, "stopped"), None),
    (lambda limit: ("wrong board", limit + 0.03, 0.0, ""), "it read its stop as a solution"),  # SCIP under PuLP 2.8
])
def test_an_answer_at_the_deadline_is_asked_again_sooner(monkeypatch, answers, caught) -> None:
    """An entry that answers just after its deadline (SCIP 5.0.1 solved the ILP instance in 1.06 s on a 1 s limit) is
    asked again with a deadline well before that answer: one that keeps it passes; one that answers alike whatever
    its deadline is caught; an answer before the deadline says the instance does not test the entry."""
    monkeypatch.setattr(contract, "_timed_solve", lambda method_name, choice, problem, limit: answers(limit))
    found = contract.time_limit(get_method("sat"), "pysat-glucose")
    assert (found == []) if caught is None else (len(found) == 1 and caught in found[0]), found
