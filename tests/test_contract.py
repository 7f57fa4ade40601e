"""Every registered method, every verb, every problem feature, against the independent truth.

Nothing here names a method: the cases come from the registries (:data:`nqueens_kit.methods.METHODS` and each
method's solvers), so a method or solver is tested the moment it is registered.  The truth is a brute force
over permutations (it shares no code with any method), the published counts (OEIS A000170, A002562) and
:func:`~nqueens_kit.problem.board.verify`.  A method that lacks a verb or a feature must refuse it with one
line naming the methods that can.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from functools import cache
from itertools import permutations
from pathlib import Path

import pytest

from nqueens_kit.cli import main
from nqueens_kit.errors import InputError
from nqueens_kit.methods import METHODS, Choice, Method, count, first_boards, iter_boards, solve
from nqueens_kit.methods.base import FEATURES, VERBS
from nqueens_kit.problem.board import Board, Problem, canonical, verify
from nqueens_kit.problem.reference import published_count
from nqueens_kit.solvers.base import Capabilities

from .conftest import need

ROOT = Path(__file__).resolve().parents[1]
METHOD_LIST = list(METHODS.values())
IDS = [m.name for m in METHOD_LIST]


@cache
def truth(problem: Problem) -> frozenset[Board]:
    """Every board of ``problem`` by trying every permutation (n <= 8), restrictions applied here."""
    n = problem.n
    found = set()
    for perm in permutations(range(1, n + 1)):
        if len({r - c for r, c in enumerate(perm, 1)}) != n or len({r + c for r, c in enumerate(perm, 1)}) != n:
            continue
        board = tuple(enumerate(perm, 1))
        if not set(problem.preplaced) <= set(board) or set(problem.blocked) & set(board):
            continue
        if problem.break_symmetry and canonical(n, board) != board:
            continue
        found.add(board)
    return frozenset(found)


#: One instance per feature (and plain ones), small enough for brute force and for ILP's re-solves.
CASES = {
    "plain 1": Problem(1), "plain 3": Problem(3), "plain 5": Problem(5), "plain 6": Problem(6),
    "preplaced": Problem(6, [(1, 2)]), "preplaced impossible": Problem(6, [(1, 1)]),
    "preplaced two": Problem(7, [(1, 1), (2, 3)]),
    "blocked": Problem(6, blocked=[(1, 2), (2, 4), (3, 3)]), "blocked all": Problem(4, blocked=[(1, 2), (1, 3)]),
    "break_symmetry 6": Problem(6, break_symmetry=True), "break_symmetry 7": Problem(7, break_symmetry=True),
    "break_symmetry 3": Problem(3, break_symmetry=True),
}


def available(method: Method) -> Method:
    need(method.available(), f"--method {method.name} ({method.install_hint()})")
    return method


def honoured(method: Method, problem: Problem) -> bool:
    return problem.features() <= method.features


def one_line_refusal(excinfo: pytest.ExceptionInfo[InputError], *fragments: str) -> None:
    text = str(excinfo.value)
    assert "\n" not in text and text, text
    for fragment in fragments:
        assert fragment in text, (fragment, text)


# ----------------------------------------------------------------------------------- what it says


@pytest.mark.parametrize("method", METHOD_LIST, ids=IDS)
def test_every_method_says_what_a_front_end_needs(method: Method) -> None:
    assert re.fullmatch(r"[a-z][a-z-]*", method.name) and method.title and method.summary
    assert method.verbs and method.verbs <= set(VERBS) and method.features <= set(FEATURES)
    assert "iterate" not in method.verbs or "count" in method.verbs
    assert bool(method.variants()) == (method.variant_word is not None)
    for name, variant in method.variants().items():
        assert isinstance(name, str) and getattr(variant, "summary", ""), (method.name, name)
    markers = [solver.marker for solver in method.solvers().values()]
    assert len(markers) == len(set(markers)), f"two solvers of {method.name} share a marker: {markers}"
    for solver in method.solvers().values():
        assert isinstance(solver.capabilities, Capabilities) and isinstance(solver.available(), bool)
        assert solver.install_hint() or solver.available()
    choice = method.choose()
    assert choice.method == method.name and choice.label and method.describe(choice)
    assert Choice(**{k: getattr(choice, k) for k in ("method", "variant", "solver", "settings")}) == choice
    style = choice.style()
    assert style["color"].startswith("#") and style["marker"] and style["linestyle"] is not None


@pytest.mark.parametrize("method", METHOD_LIST, ids=IDS)
def test_the_registry_says_what_the_method_says(method: Method) -> None:
    """The registry lists a method by name and variant word without importing it (so a command that uses
    one method loads no other); what it says is what the class says."""
    assert METHODS.variant_word(method.name) == method.variant_word
    assert list(METHODS).index(method.name) == METHOD_LIST.index(method)


def test_listing_the_methods_imports_none() -> None:
    code = ("import json, sys\nfrom nqueens_kit.methods import METHODS\n"
            "names = list(METHODS), [METHODS.variant_word(n) for n in METHODS], 'sat' in METHODS\n"
            "print(json.dumps([names, METHODS.loaded(), sorted(m for m in sys.modules if '.methods.' in m)]))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    (names, words, has_sat), loaded, modules = json.loads(done.stdout)
    assert names == IDS and words == [m.variant_word for m in METHOD_LIST] and has_sat
    assert loaded == [] and modules == ["nqueens_kit.methods.base", "nqueens_kit.methods.boards",
                                        "nqueens_kit.methods.registry", "nqueens_kit.methods.verbs"]


@pytest.mark.parametrize("method", [m for m in METHOD_LIST if m.solvers()],
                         ids=[m.name for m in METHOD_LIST if m.solvers()])
def test_another_methods_solver_is_named_as_such(method: Method) -> None:
    """A solver of another method is refused in one line that says whose it is, before anything on PATH is
    looked at."""
    for other in METHOD_LIST:
        for name in other.solvers():
            if other is method or name in method.solvers():
                continue
            with pytest.raises(InputError) as excinfo:
                method.choose(solver=name)
            text = str(excinfo.value)
            assert text.startswith(f"{name} is ") and f" {other.title} solver, not " in text, text
            assert f"use --method {other.name} for it" in text and "\n" not in text


def test_colours_and_line_styles_tell_methods_apart() -> None:
    """A plot tells configurations apart by colour (the variant), line style (the method) and marker (the
    solver): no two methods share a line style, and a method without variants has a colour of its own."""
    styles = [str(m.linestyle) for m in METHOD_LIST]
    assert len(styles) == len(set(styles)), styles
    owners: dict[str, set[str]] = {}
    for method in METHOD_LIST:
        for variant in method.variants() or [None]:
            owners.setdefault(method.colour(variant).upper(), set()).add(method.name)
    for method in METHOD_LIST:
        if not method.variants():
            assert owners[method.colour().upper()] == {method.name}, (method.name, method.colour())


@pytest.mark.parametrize("method", METHOD_LIST, ids=IDS)
def test_names_it_does_not_have_are_one_line_errors(method: Method) -> None:
    with pytest.raises(InputError) as excinfo:
        method.choose("no-such-variant")
    one_line_refusal(excinfo, method.name)
    with pytest.raises(InputError) as excinfo:
        method.choose(solver="no-such-solver")
    one_line_refusal(excinfo, method.name)
    with pytest.raises(InputError) as excinfo:
        method.choose(settings="no-such-settings")
    one_line_refusal(excinfo, method.name)


# ------------------------------------------------------------------------------------ the verbs


@pytest.mark.parametrize("case", list(CASES), ids=list(CASES))
@pytest.mark.parametrize("method", METHOD_LIST, ids=IDS)
def test_solve_every_feature(method: Method, case: str) -> None:
    problem = CASES[case]
    if "solve" not in method.verbs or not honoured(method, problem):
        with pytest.raises(InputError) as excinfo:
            solve(problem, method)
        one_line_refusal(excinfo, f"--method {method.name}")
        return
    available(method)
    result = solve(problem, method)
    boards = truth(problem)
    if boards:
        assert result.status == "solved" and result.verified, (result.status, result.message)
        assert tuple(result.queens) in boards and verify(problem.n, result.queens, problem.preplaced, problem.blocked)
    elif method.complete:
        assert result.status == "infeasible" and result.queens == (), result.status
    else:
        assert result.status == "timeout", "an incomplete method never says there is no board"


@pytest.mark.parametrize("case", list(CASES), ids=list(CASES))
@pytest.mark.parametrize("method", METHOD_LIST, ids=IDS)
def test_count_every_feature(method: Method, case: str) -> None:
    problem = CASES[case]
    if "count" not in method.verbs or not honoured(method, problem):
        with pytest.raises(InputError) as excinfo:
            count(problem, method)
        one_line_refusal(excinfo, f"--method {method.name}")
        return
    available(method)
    result = count(problem, method)
    assert result.status == "solved" and result.count == len(truth(problem)), (result.count, len(truth(problem)))
    if problem.plain:
        assert result.count == published_count(problem.n)
    if problem.break_symmetry:
        assert result.count == result.fundamental == published_count(problem.n, fundamental=True)


@pytest.mark.parametrize("case", ["plain 6", "preplaced", "blocked", "break_symmetry 7"])
@pytest.mark.parametrize("method", METHOD_LIST, ids=IDS)
def test_iterate_every_feature(method: Method, case: str) -> None:
    problem = CASES[case]
    if "iterate" not in method.verbs or not honoured(method, problem):
        with pytest.raises(InputError) as excinfo:
            list(iter_boards(problem, method))
        one_line_refusal(excinfo, f"--method {method.name}")
        return
    available(method)
    boards = list(iter_boards(problem, method))
    assert len(boards) == len(set(boards)) and set(boards) == truth(problem)
    found, complete = first_boards(problem, method, limit=2, time_limit=60)
    assert len(found) == min(2, len(truth(problem))) and set(found) <= truth(problem)


ITERATING = [m for m in METHOD_LIST if "iterate" in m.verbs and "count" in m.verbs]


@pytest.mark.parametrize("method", ITERATING, ids=[m.name for m in ITERATING])
def test_fundamental_counts(method: Method) -> None:
    available(method)
    for n in (5, 6, 7):
        result = count(n, method, fundamental=True)
        assert (result.count, result.fundamental) == (published_count(n), published_count(n, fundamental=True))


def _solvers() -> list[tuple[Method, str]]:
    return [(m, name) for m in METHOD_LIST for name in m.solvers()]


@pytest.mark.parametrize(("method", "solver"), _solvers(), ids=[f"{m.name}-{s}" for m, s in _solvers()])
def test_every_solver_entry(method: Method, solver: str) -> None:
    """Every registered solver answers yes and no correctly, with and without a time limit, and counts."""
    entry = method.solver(solver)
    if not entry.available() and not entry.installable:
        pytest.skip(f"{solver} has no install route here ({entry.install_hint()})")
    need(entry.available(), f"{solver} ({entry.install_hint()})")
    if "solve" in method.verbs:
        for limit in (None, 60):
            result = solve(8, method, solver=solver, time_limit=limit)
            assert result.status == "solved" and result.verified and result.solver == solver, result.message
            no = solve(3, method, solver=solver, time_limit=limit)
            assert no.status == ("infeasible" if method.complete else "timeout"), no.message
    if "count" in method.verbs:
        assert count(6, method, solver=solver).count == published_count(6)


# ------------------------------------------------------------------- every feature on every solver entry

#: One instance per problem feature, and one without a board: small enough for every entry's count.
ENTRY_CASES = {
    "preplaced": Problem(6, [(1, 2)]), "blocked": Problem(6, blocked=[(1, 2), (2, 4), (3, 3)]),
    "break_symmetry": Problem(7, break_symmetry=True), "no board": Problem(6, [(1, 1)]),
}
#: Every (method, solver entry) pair; a method without solvers once, with None.
ENTRY_PAIRS = [(m, name) for m in METHOD_LIST for name in (list(m.solvers()) or [None])]
ENTRY_IDS = [f"{m.name}-{name}" if name else m.name for m, name in ENTRY_PAIRS]


def entry_ready(method: Method, solver: str | None) -> None:
    """Skip an entry the kit knows no way to install; require the others (CI installs them all)."""
    if solver is None:
        available(method)
        return
    entry = method.solver(solver)
    if not entry.available() and not entry.installable:
        pytest.skip(f"{solver} has no install route here ({entry.install_hint()})")
    need(entry.available(), f"{solver} ({entry.install_hint()})")


@pytest.mark.parametrize("verb", ["solve", "count"])
@pytest.mark.parametrize("case", list(ENTRY_CASES))
@pytest.mark.parametrize(("method", "solver"), ENTRY_PAIRS, ids=ENTRY_IDS)
def test_every_entry_honours_or_refuses_every_feature(method: Method, solver: str | None, case: str,
                                                      verb: str) -> None:
    """What a solver entry says it honours, it honours (the truth by brute force); the rest it refuses in one
    line that names it: the method never decides for its entries."""
    problem = ENTRY_CASES[case]
    choice = method.choose(solver=solver)
    run = solve if verb == "solve" else count
    able = method.has(verb, choice) and all(method.honours(f, choice) for f in problem.features())
    if not able:
        with pytest.raises(InputError) as excinfo:
            run(problem, method, solver=solver)
        one_line_refusal(excinfo, f"--method {method.name}")
        if method.has(verb) and problem.features() <= method.features:  # the entry's own refusal names it
            one_line_refusal(excinfo, f"--solver {solver}")
        return
    entry_ready(method, solver)
    boards = truth(problem)
    if verb == "count":
        result = count(problem, method, solver=solver)
        assert result.status == "solved" and result.count == len(boards), (result.count, len(boards))
        return
    result = solve(problem, method, solver=solver)
    assert result.solver == solver
    if boards:
        assert result.status == "solved" and result.verified and tuple(result.queens) in boards, result.message
    else:
        assert result.status == ("infeasible" if method.complete else "timeout"), result.message


@pytest.mark.parametrize(("method", "solver"), ENTRY_PAIRS, ids=ENTRY_IDS)
def test_every_entry_honours_or_refuses_reordering_and_settings(method: Method, solver: str | None) -> None:
    """Reordered instances and each of the method's named settings: run and recorded by the entries that
    honour them, refused in one line naming the entry by the others."""
    if "solve" not in method.verbs:
        return
    choice = method.choose(solver=solver)
    entry_ready(method, solver)
    if method.honours("reorder", choice):
        results = [solve(6, method, solver=solver, order=k) for k in (1, 2)]
        assert all(r.status == "solved" and r.verified for r in results), [r.message for r in results]
    else:
        with pytest.raises(InputError) as excinfo:
            solve(6, method, solver=solver, order=1)
        one_line_refusal(excinfo, f"--method {method.name}", *([f"--solver {solver}"] if solver else []))
    for name in method.settings():
        entry = method.solver(solver) if solver else None
        if entry is None or entry.takes(name):
            result = solve(6, method, solver=solver, settings=name)
            assert result.status == "solved" and result.verified and result.options.get("settings") == name, (
                name, result.options)
        else:
            with pytest.raises(InputError) as excinfo:
                solve(6, method, solver=solver, settings=name)
            one_line_refusal(excinfo, f"--solver {solver}", name)


@pytest.mark.parametrize(("method", "solver"), [(m, s) for m, s in ENTRY_PAIRS if s and m.honours("reorder")
                                                 and not m.solver(s).honours("reorder")])
def test_a_sweep_of_instances_refuses_an_entry_that_keeps_its_model_as_written(method: Method, solver: str) -> None:
    """K reordered instances of one model would be K times the same run for an entry that ignores the order."""
    from nqueens_kit.bench import run_sweep

    with pytest.raises(InputError) as excinfo:
        run_sweep([method.choose(solver=solver)], [6], repeat=1, instances=3, progress=False, timeout=60)
    one_line_refusal(excinfo, f"--solver {solver}", "reordered instances")


def test_no_method_compares_a_solver_name() -> None:
    """The methods ask their solver entries; none compares a solver's name (a new entry needs no edit there)."""
    names = {name for m in METHOD_LIST for name in m.solvers()}
    literal = rf"[\"'](?:{'|'.join(re.escape(name) for name in names)})[\"']"
    found = []
    for path in sorted((ROOT / "nqueens_kit" / "methods").rglob("*.py")):
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if re.search(rf"(?:==|!=)\s*{literal}|{literal}\s*(?:==|!=)|\bin\s*\(\s*{literal}", line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not found, found


def test_every_method_says_its_size() -> None:
    """The size guard is part of the contract: a method that does not say its size cannot be made."""
    assert "size" in Method.__abstractmethods__
    for method in METHOD_LIST:
        size = method.size(Problem(20_000), method.choose())
        assert size.memory > 0 and size.variables > 0, (method.name, size)


#: Board sizes from large to small: a method's time-limit test takes the largest its size guard accepts.
BIG = (3_000_000, 1000, 200, 60)


@pytest.mark.parametrize("method", METHOD_LIST, ids=IDS)
def test_time_limits_hold(method: Method) -> None:
    """A big instance stops at its limit (or is solved within it); a count stopped by its limit is a lower
    bound.  The bound on the wall time is loose on purpose: it catches a limit that does not hold at all."""
    from nqueens_kit.runtime.limits import memory_budget

    if "solve" in method.verbs:
        available(method)
        choice = method.choose()
        sizes = {n: method.size(Problem(n), choice) for n in BIG}
        n = next(n for n in BIG if sizes[n].memory < memory_budget() // 4)
        start = time.monotonic()
        result = solve(n, method, time_limit=0.5)
        took = time.monotonic() - start
        assert result.status in ("timeout", "solved") and took < 30, (n, result.status, took)
        if result.status == "solved":
            assert result.verified
    if "count" in method.verbs:
        available(method)
        result = count(16, method, time_limit=0.5)  # 14,772,512 boards: seconds even for compiled backtracking
        assert result.status == "timeout" and 0 <= result.count < published_count(16)


# ---------------------------------------------------------------------------------- the front ends


@pytest.mark.parametrize("method", METHOD_LIST, ids=IDS)
def test_command_line_for_every_method(method: Method, capsys) -> None:
    for verb in ("solve", "count"):
        code = main([verb, "6", "--method", method.name, "--json"])
        out, err = capsys.readouterr()
        if verb not in method.verbs:
            assert code == 2 and len(err.strip().splitlines()) == 1 and f"--method {method.name} cannot" in err
            continue
        if not method.available():
            assert code == 2 and method.install_hint() in err
            continue
        data = json.loads(out)
        assert code == 0 and data["method"] == method.name, err
        if verb == "count":
            assert data["count"] == published_count(6)
        else:
            assert data["verified"] is True and data["variant"] == method.choose().variant
    code = main(["solvers", "--json"])
    rows = json.loads(capsys.readouterr().out)
    assert code == 0 and {r["method"] for r in rows} == set(METHODS)


@pytest.mark.parametrize("method", METHOD_LIST, ids=IDS)
def test_bench_times_every_method_with_imports_outside_the_clock(method: Method) -> None:
    from nqueens_kit.bench import run_sweep

    if "solve" not in method.verbs:
        with pytest.raises(InputError):
            run_sweep([method.choose()], [6], repeat=1, progress=False, timeout=60)
        return
    available(method)
    rows = run_sweep([method.choose()], [6, 8], repeat=1, progress=False, timeout=60)
    assert [(r["method"], r["status"], r["verified"]) for r in rows] == [(method.name, "solved", True)] * 2
    assert all(r["startup_seconds"] is not None and r["total_seconds"] is not None for r in rows)


def test_no_front_end_compares_a_method_name() -> None:
    """Outside the method layer nothing compares a method's name or keys a table by it: front ends ask."""
    names = "|".join(re.escape(name) for name in METHODS)
    literal = rf"[\"'](?:{names})[\"']"
    patterns = [rf"(?:==|!=)\s*{literal}", rf"{literal}\s*(?:==|!=)", rf"\bin\s*[\(\[\{{][^)\]}}]*{literal}",
                rf"[\{{,]\s*{literal}\s*:", rf"\(\s*{literal}\s*,\s*[\"'][\w-]+[\"']\s*\)\s*:"]
    found = []
    package = ROOT / "nqueens_kit"
    for path in sorted(package.rglob("*.py")):
        relative = path.relative_to(package).as_posix()
        if relative.startswith("methods/") or relative == "solvers/__init__.py":
            continue  # the methods' own modules and the registries (the solver registry names its families)
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            code = line.split("#")[0]
            if code.lstrip().startswith((">>>", "...")):
                continue
            if any(re.search(p, code) for p in patterns):
                found.append(f"{relative}:{number}: {line.strip()}")
    assert not found, "\n".join(found)
