"""Every declaration of every solver entry, run: one contract test per claim and per entry that makes it, and every
variant of every method with every entry, all built from the registries (:mod:`tests.entry_contract` holds the
checks; ``tests/test_contract_catches.py`` shows each of them catching a wrong entry).

An entry whose solver is missing is skipped with the reason (under ``NQUEENS_KIT_REQUIRE_ALL=1`` it fails, as
everywhere in the suite); one the kit knows no way to install (a bare ``glucose``) is skipped all the same.
``pytest --solver NAME`` runs these cases for one entry.
"""

from __future__ import annotations

import re

import pytest

from nqueens_kit.errors import InputError
from nqueens_kit.methods import METHODS, Method
from nqueens_kit.methods.base import FEATURES, VERBS
from nqueens_kit.solvers import PySat, proving_entries
from nqueens_kit.solvers.base import Capabilities, Solver
from nqueens_kit.solvers.dimacs_binary import Binary

from . import entry_contract as contract
from .conftest import need

ENTRIES = [(m, name) for m in METHODS.values() for name in m.solvers()]


def _cases(claim=lambda method, entry: True):
    chosen = [(m, name) for m, name in ENTRIES if claim(m, m.solver(name))]
    return pytest.mark.parametrize(("method", "solver"), chosen, ids=[f"{m.name}-{name}" for m, name in chosen])


def ready(method: Method, solver: str) -> None:
    """Skip an entry the kit knows no way to install; require the others (CI installs them all)."""
    entry = method.solver(solver)
    if not entry.available() and not entry.installable:
        pytest.skip(f"{solver} has no install route here ({entry.install_hint()})")
    need(entry.available(), f"{solver} ({entry.install_hint()})")


def clean(findings: list[str]) -> None:
    assert findings == [], "\n".join(findings)


# ------------------------------------------------------------------------------ what an entry declares


def test_an_entry_that_says_nothing_claims_nothing() -> None:
    """Every claim defaults to absent: a bare capability set, a python-sat entry or an executable named without
    claims has none, and the method refuses it each verb in one line naming the entries that have it."""
    assert Capabilities().names() == []
    bare = PySat("bare", "glucose4", "a bare entry", marker="1")
    assert bare.capabilities.names() == ["in_process"]  # what python-sat is, not a claim
    for entry in (bare, Binary("bare-binary"), Solver()):
        assert (entry.verbs, entry.features, entry.variants, entry.settings) == (frozenset(),) * 4
        assert not (entry.capabilities.time_limit or entry.capabilities.proofs or entry.capabilities.statistics)
        assert not any(entry.does(v) for v in VERBS) and not any(entry.honours(f) for f in FEATURES)


def test_a_bare_entry_is_refused_in_one_line(monkeypatch) -> None:
    from nqueens_kit.methods import solve
    from nqueens_kit.solvers import SAT_SOLVERS

    monkeypatch.setitem(SAT_SOLVERS, "bare", PySat("bare", "glucose4", "a bare entry", marker="1"))
    with pytest.raises(InputError) as excinfo:
        solve(6, "sat", solver="bare")
    text = str(excinfo.value)
    assert "\n" not in text and "--solver bare" in text and "pycosat" in text, text


@_cases()
def test_every_declaration_names_what_its_method_has(method: Method, solver: str) -> None:
    """An entry declares only verbs, features, variants and settings its method has, and counters by name; a
    variant of the method that no entry takes, or a native encoding without cardinality constraints, is a
    declaration missing."""
    entry = method.solver(solver)
    assert entry.verbs and entry.verbs <= method.verbs, (entry.verbs, method.verbs)
    assert entry.features <= method.features and entry.settings <= set(method.settings())
    kinds = {method.variant_kind(v) for v in method.variants()}
    assert entry.variants and entry.variants <= kinds, (entry.variants, kinds)
    assert all(isinstance(c, str) and re.fullmatch(r"[a-z_]+", c) for c in entry.capabilities.statistics)
    if method.name == "sat":
        assert entry.capabilities.cardinality == ("cardinality" in entry.variants)


@pytest.mark.parametrize("method", [m for m in METHODS.values() if m.solvers()],
                         ids=[m.name for m in METHODS.values() if m.solvers()])
def test_every_variant_of_a_method_is_taken_by_its_default_entry(method: Method) -> None:
    """A new formulation is declared by the entries that take it, a new encoding by its kind (clauses, cardinality
    constraints), and so gets its contract cases: the default entry takes every variant but those that need a
    capability it lacks (``native``)."""
    default = next(iter(method.solvers().values()))
    kinds = {v: method.variant_kind(v) for v in method.variants()}
    taken = {v for v, kind in kinds.items() if any(e.takes_variant(kind) for e in method.solvers().values())}
    assert taken == set(method.variants()), set(method.variants()) - taken
    for variant in [v for v, kind in kinds.items() if not default.takes_variant(kind)]:
        takers = [e for e in method.solvers().values() if e.takes_variant(method.variant_kind(variant))]
        beyond = [set(e.capabilities.names()) - set(default.capabilities.names()) for e in takers]
        assert all(beyond), f"{variant}: the default entry {default.name} does not take it, though it lacks nothing"


def test_the_solvers_said_to_write_proofs_are_those_that_declare_it() -> None:
    from nqueens_kit.solvers import SAT_SOLVERS, get_solver

    declared = [name for name, entry in SAT_SOLVERS.items() if entry.capabilities.proofs]
    assert proving_entries() == declared and len(declared) >= 2
    with pytest.raises(InputError) as excinfo:
        get_solver("sat", "pycosat").prove([[1]], 1)  # type: ignore[attr-defined]
    assert str(excinfo.value).endswith(", ".join(declared))


# ------------------------------------------------------------------------------------ one test per claim


@pytest.mark.slow
@_cases(lambda m, e: e.capabilities.time_limit)
def test_a_declared_time_limit_holds_in_process(method: Method, solver: str) -> None:
    ready(method, solver)
    clean(contract.time_limit(method, solver))


@_cases(lambda m, e: m.honours("reorder"))
def test_reordering_reaches_the_entry_or_is_refused(method: Method, solver: str) -> None:
    ready(method, solver)
    clean(contract.reorder(method, solver))


@_cases(lambda m, e: bool(m.settings()))
def test_every_setting_changes_the_run_or_is_refused(method: Method, solver: str) -> None:
    ready(method, solver)
    if method.name == "cp":
        from nqueens_kit.solvers.cp import cores

        if cores() < 2:
            pytest.skip("one core here: all-cores runs as one-worker does")
    clean(contract.settings(method, solver))


@_cases(lambda m, e: bool(e.capabilities.statistics))
def test_declared_counters_are_reported(method: Method, solver: str) -> None:
    ready(method, solver)
    clean(contract.statistics(method, solver))


@_cases(lambda m, e: e.capabilities.proofs)
def test_every_declared_proof_is_checked(method: Method, solver: str, tmp_path) -> None:
    import importlib.util

    from nqueens_kit.inside.proofs import CHECKERS

    ready(method, solver)
    need(any(importlib.util.find_spec(c) for c in CHECKERS), f"a proof checker ({', '.join(CHECKERS)})")
    clean(contract.proofs(method, solver, str(tmp_path)))


@_cases(lambda m, e: e.capabilities.assumptions)
def test_declared_assumptions_give_models_and_cores(method: Method, solver: str) -> None:
    ready(method, solver)
    clean(contract.assumptions(method, solver))


@_cases(lambda m, e: e.capabilities.incremental)
def test_an_incremental_entry_lists_boards_with_one_solver(method: Method, solver: str) -> None:
    ready(method, solver)
    clean(contract.incremental(method, solver))


# ------------------------------------------------------------------------ every variant with every entry

VARIANT_CASES = [(m, name, v) for m, name in ENTRIES for v in m.variants()]


@pytest.mark.parametrize(("method", "solver", "variant"), VARIANT_CASES,
                         ids=[f"{m.name}-{name}-{v}" for m, name, v in VARIANT_CASES])
def test_every_variant_with_every_entry(method: Method, solver: str, variant: str) -> None:
    """Solve and count n = 1 to 6 against the published counts, or refuse the variant in one line naming the entry
    and the variant."""
    if method.solver(solver).takes_variant(method.variant_kind(variant)):
        ready(method, solver)
    clean(contract.variants(method, solver, only=variant))


@pytest.mark.deep
@pytest.mark.parametrize(("method", "solver", "variant"), VARIANT_CASES,
                         ids=[f"{m.name}-{name}-{v}" for m, name, v in VARIANT_CASES])
def test_every_variant_with_every_entry_lists_its_boards(method: Method, solver: str, variant: str) -> None:
    """The deep profile: n = 1 to 8, every verb the entry has (boards listed one by one too)."""
    if not method.solver(solver).takes_variant(method.variant_kind(variant)):
        pytest.skip("refused: the default run checks the refusal")
    ready(method, solver)
    clean(contract.variants(method, solver, sizes=tuple(range(1, 9)), verbs=("solve", "count", "iterate"),
                            only=variant))


# ------------------------------------------------------------------------------------------ the colours


@pytest.mark.parametrize("method", list(METHODS.values()), ids=list(METHODS))
def test_every_variant_has_a_colour_of_its_own(method: Method) -> None:
    """A variant without a colour is an error, never a silent grey; no two variants of a method share one."""
    colours = [method.colour(v) for v in method.variants()] or [method.colour()]
    assert all(re.fullmatch(r"#[0-9A-Fa-f]{6}", c) for c in colours), colours
    assert len({c.upper() for c in colours}) == len(colours), colours
    if method.variants():
        assert method.colour(None) == method.colour(method.default_variant())
        with pytest.raises(InputError) as excinfo:
            method.colour("no-such-variant")
        assert "\n" not in str(excinfo.value) and method.name in str(excinfo.value)


# ------------------------------------------------------------------------------ pytest --solver NAME


def _collected(*args: str) -> tuple[int, list[str], str]:
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", *args],
                          capture_output=True, text=True, cwd=contract.__file__.rsplit("/tests/", 1)[0], timeout=300)
    ids = [line for line in done.stdout.splitlines() if "::" in line]
    return done.returncode, ids, done.stdout + done.stderr


@pytest.mark.slow
def test_the_solver_option_keeps_one_entrys_cases() -> None:
    """``pytest --solver NAME``: every case parametrized by a solver is NAME's; the tests that name no solver
    stay."""
    code, kept, out = _collected("tests/test_entry_contract.py", "tests/test_proofs.py", "--solver", "pysat-glucose")
    assert code == 0, out
    names = {name for m in METHODS.values() for name in m.solvers()} - {"pysat-glucose"}
    others = [i for i in kept if any(re.search(rf"[\[-]{re.escape(n)}[\]-]", i.replace("pysat-glucose", ""))
                                     for n in names)]
    assert kept and not others, others
    for wanted in ("test_entry_contract.py::test_an_entry_that_says_nothing_claims_nothing",
                   "test_entry_contract.py::test_every_variant_of_a_method_is_taken_by_its_default_entry[ilp]",
                   "test_entry_contract.py::test_a_declared_time_limit_holds_in_process[sat-pysat-glucose]",
                   "test_entry_contract.py::test_every_variant_with_every_entry[sat-pysat-glucose-native]",
                   "test_proofs.py::test_every_proof_checks_and_tampering_is_caught[pairwise-pysat-glucose]",
                   "test_proofs.py::test_satisfiable_has_no_proof"):
        assert f"tests/{wanted}" in kept, wanted
    code, _, out = _collected("tests/test_docs_registries.py", "--solver", "no-such-entry")
    assert code != 0 and "no registered solver entry" in out and "pysat-glucose" in out
