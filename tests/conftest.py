"""Shared test helpers, and ``pytest --solver NAME``: the suite against one solver entry (every test
parametrized by a solver runs for that entry alone; the rest as always).

``need(ok, what)`` skips a test whose optional tool is missing, except under NQUEENS_KIT_REQUIRE_ALL=1
(set by .ci/run), where a missing tool fails the test: a green CI means every backend really ran.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from itertools import permutations

import pytest
from hypothesis import settings
from hypothesis.configuration import set_hypothesis_home_dir

# Tests write nothing into the checkout: no .hypothesis/ folder (example database, Unicode tables).
_HYPOTHESIS_HOME = tempfile.mkdtemp(prefix="nqueens-kit-hypothesis-")
atexit.register(shutil.rmtree, _HYPOTHESIS_HOME, ignore_errors=True)
set_hypothesis_home_dir(_HYPOTHESIS_HOME)
settings.register_profile("nqueens-kit", database=None)
settings.load_profile("nqueens-kit")

#: The files that take longest, started first: under ``-n 2 --dist loadfile`` each file runs whole on one
#: worker, so a long file collected last (the site and the browser edition sort late) leaves the other
#: worker idle while it runs.  The order of everything else is kept.
LONGEST_FIRST = ("tests/test_site.py", "tests/test_lite.py", "tests/test_cp.py", "tests/test_bench.py",
                 "tests/test_contract.py", "tests/test_entry_contract.py", "tests/test_processes.py",
                 "tests/test_notebooks.py", "tests/test_sat.py", "tests/test_dimacs.py", "tests/test_bench_safety.py", "tests/test_app_browser.py",
                 "tests/test_bundle.py")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--solver", default=None, metavar="NAME",
                     help="run the suite against one solver entry: every test parametrized by a solver (the contract "
                          "cases of every method, each solver's own tests) runs for NAME alone")


#: The parameter names that hold a solver entry's name in a parametrized test (None: a method without solvers).
SOLVER_PARAMETERS = ("solver", "entry")


def _entry_names() -> set[str]:
    from nqueens_kit.methods import METHODS

    return {name for method in METHODS.values() for name in method.solvers()}


def _solver_of(item: pytest.Item, names: set[str]) -> tuple[bool, str | None]:
    """``(parametrized by a solver, which)``: a parameter called solver or entry, or any parameter whose value is
    the name of a registered entry."""
    params = getattr(getattr(item, "callspec", None), "params", {})
    for key, value in params.items():
        if key in SOLVER_PARAMETERS and (value is None or isinstance(value, str)):
            return True, value
        if isinstance(value, str) and value in names:
            return True, value
    return False, None


def _keep_one_solver(config: pytest.Config, items: list[pytest.Item]) -> None:
    wanted = config.getoption("--solver")
    if wanted is None:
        return
    names = _entry_names()
    if wanted not in names:
        raise pytest.UsageError(f"--solver {wanted!r} is no registered solver entry; valid: {', '.join(sorted(names))}")
    kept, dropped = [], []
    for item in items:
        parametrized, solver = _solver_of(item, names)
        (dropped if parametrized and solver != wanted else kept).append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    _keep_one_solver(config, items)
    rank = {name: k for k, name in enumerate(LONGEST_FIRST)}
    root = config.rootpath

    def where(item: pytest.Item) -> int:
        try:
            return rank.get(item.path.relative_to(root).as_posix(), len(rank))
        except ValueError:
            return len(rank)
    items.sort(key=where)  # stable: within a file and among the rest, collection order


REQUIRE_ALL = os.environ.get("NQUEENS_KIT_REQUIRE_ALL") == "1"


def need(ok: bool, what: str) -> None:
    if ok:
        return
    if REQUIRE_ALL:
        pytest.fail(f"{what} is required here (NQUEENS_KIT_REQUIRE_ALL=1) but missing")
    pytest.skip(f"{what} is not installed")


def brute_force(n: int, preplaced=()) -> set[tuple[tuple[int, int], ...]]:
    """All solutions by trying every permutation: independent of every method in the package."""
    found = set()
    for perm in permutations(range(1, n + 1)):
        if len({r - c for r, c in enumerate(perm, 1)}) == n and len({r + c for r, c in enumerate(perm, 1)}) == n:
            board = tuple(enumerate(perm, 1))
            if all(q in board for q in preplaced):
                found.add(board)
    return found


def random_formula(rng, max_vars: int, max_clauses: int) -> tuple[int, list[list[int]]]:
    """A small random CNF (clauses of 1 to 3 literals) for differential tests against pycosat."""
    num_vars = rng.randint(1, max_vars)
    clauses = [[rng.choice((1, -1)) * rng.randint(1, num_vars) for _ in range(rng.randint(1, 3))]
               for _ in range(rng.randint(1, max_clauses))]
    return num_vars, clauses


@pytest.fixture()
def child_starts(monkeypatch) -> list[bool]:
    """Each job :mod:`nqueens_kit.runtime.isolate` starts from now on, as whether it was a fresh interpreter
    (True) or a fork (False)."""
    from nqueens_kit.runtime import isolate

    started: list[bool] = []
    real = isolate._Child.start

    def spy(fn, args, scratch, fresh, *rest):
        started.append(fresh)
        return real(fn, args, scratch, fresh, *rest)

    monkeypatch.setattr(isolate._Child, "start", spy)
    return started
