"""The CP family's one shape: every entry answers an Outcome for the method's solver-neutral model, and only the
CP method words the result; MiniZinc entries are one line per backend."""

from __future__ import annotations

import time

import pytest

from nqueens_kit.errors import SolverNotAvailable
from nqueens_kit.methods import count, get_method, solve
from nqueens_kit.methods.base import infeasible_message
from nqueens_kit.methods.cp import FORMULATIONS, describe, result_of
from nqueens_kit.problem.board import Problem
from nqueens_kit.problem.results import Answer
from nqueens_kit.solvers import registry
from nqueens_kit.solvers.base import Outcome
from nqueens_kit.solvers.cp import FORMULATION_NAMES, CpModel
from nqueens_kit.solvers.cp_sat import CP_SAT
from nqueens_kit.solvers.minizinc import MINIZINC, MiniZincEntry

from .conftest import need

EIGHT = describe(Problem(8), "boolean")
BOARD = [(1, 1), (2, 5), (3, 8), (4, 6), (5, 3), (6, 7), (7, 2), (8, 4)]


def test_the_method_describes_every_formulation_the_entries_take() -> None:
    assert set(FORMULATIONS) == FORMULATION_NAMES
    assert describe(Problem(5)) == CpModel(Problem(5), "alldifferent", integer=True)


@pytest.mark.parametrize(("outcome", "status", "message"), [
    (Outcome(Answer.SAT, board=BOARD), "solved", ""),
    (Outcome(Answer.UNSAT), "infeasible", infeasible_message(Problem(8))),
    (Outcome(Answer.UNKNOWN, limit=True), "timeout", "no board within the time limit"),
    (Outcome(Answer.UNKNOWN, limit=True, why="it went on building the model"), "timeout",
     "no board within the time limit (it went on building the model)"),
    (Outcome(Answer.UNKNOWN, why="status MODEL_INVALID: bad domain"), "error",
     "CP-SAT stopped without an answer (status MODEL_INVALID: bad domain)"),
    (Outcome(Answer.UNKNOWN), "error", "CP-SAT stopped without an answer (no reason given)"),
    (Outcome(Answer.UNKNOWN, memory="ran out of memory"), "memout", "ran out of memory"),
])
def test_only_the_method_makes_a_result_of_an_outcome(outcome: Outcome, status: str, message: str) -> None:
    outcome.seconds, outcome.build_seconds, outcome.options = 0.25, 0.5, {"settings": "one-worker"}
    outcome.stats = {"status": "SAID"}
    result = result_of(outcome, EIGHT, CP_SAT)
    assert (result.status, result.message) == (status, message)
    assert (result.solve_seconds, result.build_seconds, result.stats, result.options) == (
        0.25, 0.5, {"status": "SAID"}, {"settings": "one-worker"})
    assert (result.solver, result.formulation, result.variables) == ("cp-sat", "boolean", 64)
    assert (result.check().verified is True) == (status == "solved")


def test_cp_sat_past_its_deadline_while_building_says_so() -> None:
    need(CP_SAT.available(), 'ortools (pip install "nqueens-kit[cp]")')
    from nqueens_kit.runtime import isolate
    from nqueens_kit.solvers import cp_sat

    # the build in this process's CP-SAT: in a fresh interpreter where highspy is loaded here
    run = isolate.run_in_child(cp_sat._solve, (EIGHT, time.monotonic() - 1, "one-worker", None),
                               fresh=cp_sat.must_isolate())
    run.raise_error()
    outcome = run.value
    assert (outcome.status, outcome.limit, outcome.why) == (Answer.UNKNOWN, True, "it went on building the model")
    assert "max_time_in_seconds" not in outcome.options and outcome.build_seconds > 0
    outcome = CP_SAT.solve(EIGHT, time.monotonic() + 60, "one-worker", 3)
    assert outcome.status == Answer.SAT and outcome.stats["status"] in ("OPTIMAL", "FEASIBLE")
    assert outcome.options["random_seed"] == 3 and 0 < outcome.options["max_time_in_seconds"] <= 60


def _register(monkeypatch: pytest.MonkeyPatch, entry: MiniZincEntry) -> str:
    monkeypatch.setitem(registry("cp"), entry.name, entry)
    return entry.name


def test_another_minizinc_backend_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    need(MINIZINC.available(), "MiniZinc with Gecode (apt-get install minizinc)")
    entry = MiniZincEntry("minizinc-by-id", "org.gecode.gecode", marker="X", description="Gecode named by its id")
    name = _register(monkeypatch, entry)
    assert entry.available() and entry.version() == MINIZINC.version()
    result = solve(8, "cp", "alldifferent", name)
    assert result.status == "solved" and result.verified and result.solver == name
    assert result.options == {"settings": "one-worker", "solver": "org.gecode.gecode", "threads": 1}
    assert count(6, "cp", "boolean", name).count == 4
    assert solve(3, "cp", solver=name).status == "infeasible"
    assert get_method("cp").choose(solver=name).settings == "one-worker"  # it claims no all-cores


def test_the_registered_minizinc_entry_runs_gecode() -> None:
    assert registry("cp")["minizinc"] is MINIZINC
    assert (MINIZINC.backend, MINIZINC.product_name, MINIZINC.marker) == ("gecode", "Gecode (MiniZinc)", "P")
    assert MINIZINC.options("all-cores", None)["solver"] == "gecode"
    assert MINIZINC.takes("all-cores") and MINIZINC.capabilities.statistics == ("nodes", "failures", "propagations")
    need(MINIZINC.available(), "MiniZinc with Gecode (apt-get install minizinc)")
    assert (MINIZINC.version() or "").startswith("Gecode 6") and "through MiniZinc" in (MINIZINC.version() or "")


def test_a_backend_minizinc_does_not_know_is_not_available(monkeypatch: pytest.MonkeyPatch) -> None:
    entry = MiniZincEntry("minizinc-nowhere", "org.example.nowhere", marker="X", description="no such solver")
    name = _register(monkeypatch, entry)
    assert not entry.available() and entry.version() is None
    hint = entry.install_hint()
    assert "\n" not in hint and "'org.example.nowhere'" in hint
    if MINIZINC.available():  # MiniZinc is here: the hint names what it does run
        assert "org.gecode.gecode" in hint
    with pytest.raises(SolverNotAvailable) as refused:
        solve(8, "cp", solver=name)
    assert "\n" not in str(refused.value) and name in str(refused.value)
