"""The chapters' live speed comparisons (nqueens_kit.course.speed): right counts, what ran, and the skips."""

from __future__ import annotations

import pytest

from nqueens_kit.course import speed
from nqueens_kit.problem.reference import published_count
from nqueens_kit.runtime.jit import NO_JIT


def test_count_speeds_counts_every_way_and_checks_the_counts() -> None:
    result = speed.count_speeds(7, repeat=2)
    assert result.python.count == result.sat.count == published_count(7) == 40
    assert result.python.seconds > 0 and result.sat.seconds > 0
    if result.missing is None:  # numba runs here: the compiled counter is timed too, after a first call
        assert result.compiled is not None and result.compiled.count == 40
        assert result.first_call is not None and result.first_call > 0
        assert "compiled" in result.compiled.label and "Python" in result.python.label
    else:
        assert result.compiled is None and result.first_call is None
    text = "\n".join(result.lines())
    assert "n = 7" in text and "40 boards" in text and result.sat.label in text
    assert result.ratio(result.sat, result.python) == pytest.approx(result.sat.seconds / result.python.seconds)


def test_without_compiled_kernels_only_python_runs_and_the_table_says_why(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(NO_JIT, "1")
    assert speed.compiled_missing() == f"{NO_JIT} is set: only the Python backtracker runs here"
    result = speed.count_speeds(6, repeat=1)
    assert result.compiled is None and result.missing == speed.compiled_missing()
    assert result.python.count == result.sat.count == 4
    lines = result.lines()
    assert lines[-1] == f"  ({result.missing})" and "x the Python backtracker" in lines[1]


def test_a_kit_without_the_compiled_parameter_runs_python(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(speed, "count_backtrack", lambda n: published_count(n))
    assert speed.compiled_missing() == "this version of the kit has no compiled backtracker: only the Python one runs"
    assert speed.count_speeds(5, repeat=1).python.count == 10


def test_a_wrong_count_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(NO_JIT, "1")
    monkeypatch.setattr(speed, "count_backtrack", lambda n, compiled=None: published_count(n) + 1)
    with pytest.raises(RuntimeError, match="counted 11 boards for n = 5, not the published 10"):
        speed.count_speeds(5, repeat=1)


def test_board_speeds_verifies_each_board(monkeypatch: pytest.MonkeyPatch) -> None:
    big = speed.compiled_sizes() or 20_000  # where min-conflicts runs compiled (if numba runs here)
    result = speed.board_speeds(big)
    assert result.construct.found == big and result.python is not None and result.python.found == big
    assert (result.compiled is not None) == speed.jit_available() == speed.local_search_compiled(big)
    assert result.steps["python"] >= 0
    loaded_now = result.first_call is not None and result.first_call >= speed.LOADED
    assert f"n = {big:,}" in result.lines()[0] and len(result.lines()) == 3 + (result.compiled is not None) + loaded_now
    monkeypatch.setenv(NO_JIT, "1")
    slow = speed.board_speeds(big, python=False)  # no compiled kernels: the Python run is the only one
    assert slow.compiled is None and slow.python is not None and slow.python.found == big
    assert not speed.local_search_compiled(big) and speed.compiled_sizes() is None


def test_python_only_restores_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(NO_JIT, raising=False)
    with speed._python_only():
        assert not speed.jit_available()
    assert NO_JIT not in speed.os.environ
    monkeypatch.setenv(NO_JIT, "0")
    with speed._python_only():
        assert speed.os.environ[NO_JIT] == "1"
    assert speed.os.environ[NO_JIT] == "0"


def test_load_compiled_says_what_it_loaded(monkeypatch: pytest.MonkeyPatch) -> None:
    for counting in (False, True):
        seconds = speed.load_compiled(counting)
        assert (seconds is not None) == speed.jit_available() and (seconds is None or seconds > 0)
    monkeypatch.setenv(NO_JIT, "1")
    assert speed.load_compiled(counting=True) is None and speed.load_compiled() is None


def test_in_the_browser_only_python_runs_on_the_wall_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(speed, "IN_BROWSER", True)
    monkeypatch.setattr(speed, "jit_available", lambda: False)  # Pyodide has no numba
    assert speed.compiled_missing() == "no numba in the browser: only the Python backtracker runs here"
    result = speed.count_speeds(6, repeat=1)
    assert result.compiled is None and result.python.count == 4 and "wall time" in result.lines()[0]
    assert speed.load_compiled(counting=True) is None


def test_recorded_runner_reads_the_row_then_the_run_that_made_it() -> None:
    old = {"environment": {"created": "2026-11-27", "packages": {"numpy": "2.4"}}}
    assert speed.recorded_runner(old).startswith("in Python (its record names no numba")
    new = {"environment": {"created": "2026-11-28", "packages": {"numba": "0.68.1"}}}
    assert speed.recorded_runner(new) == "compiled (numba 0.68.1)"
    assert speed.recorded_runner(new, {"created": "2026-11-28"}) == "compiled (numba 0.68.1)"
    assert speed.recorded_runner(new, {"created": "2026-11-24"}).startswith("in Python")  # made in an older run
    assert speed.recorded_runner(new, {"created": "2026-11-24", "runner": "bitmask backtracking, compiled"}) == \
        "bitmask backtracking, compiled"
    assert speed.recorded_runner(new, {"created": "2026-11-24", "runner": "numba 0.61.0"}) == "compiled (numba 0.61.0)"
    assert speed.recorded_runner(new, {"created": "2026-11-28", "runner": "Python"}) == "in Python"
    none = {"environment": {"created": "x", "packages": {"numba": None}}}
    assert speed.recorded_runner(none) == "in Python (numba did not run)"
    assert speed.recorded_runner({**none, "runs": "numba 0.68.1"}) == "compiled (numba 0.68.1)"
    assert speed.recorded_runner({**new, "runs": "Python"}) == "in Python"
