"""Every declaration of a solver entry, run: one check per claim, each returning what it found wrong.

A check takes a method and the name of one of its solver entries and returns a list of findings, each one line
naming the entry and the claim; an empty list means the entry does what it declares.  The checks read nothing
but the registries (what the entry declares) and what the entry does when it runs, so a new entry is checked the
moment it is registered, and a wrong one (``tests/test_contract_catches.py`` registers some) is caught:

- :func:`time_limit`: an entry that says it stops itself at a time limit stops, in this process (no child process
  of the kit's stops it), on an instance far beyond the limit, with its own "timeout", within the limit and
  :data:`MARGIN`;
- :func:`reorder`: an entry that honours reordered instances is handed another model for another order (the CNF
  or the PuLP model it is given; a CP entry builds its own model, so its search must differ);
- :func:`settings`: every named setting an entry takes changes what it records and what it runs with; every
  other one is refused in one line;
- :func:`statistics`: the counters it declares are there, and positive, on an instance that needs a search;
- :func:`proofs`: its proof of "no" is checked by the kit's checker, as ``solve --proof`` checks it;
- :func:`assumptions`: it solves under assumptions and gives a core of them that is one;
- :func:`incremental`: it lists every board with one solver that takes the blocking clauses as they come;
- :func:`variants`: every variant it takes, with every verb it has, gives the published counts of small boards;
  every other variant is refused in one line naming the entry and the variant.
"""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from itertools import combinations
from typing import Any

from nqueens_kit.errors import InputError, NQueensError
from nqueens_kit.methods import Method, count, get_method, solve
from nqueens_kit.methods.base import Choice
from nqueens_kit.problem.board import Problem
from nqueens_kit.problem.instances import random_blocked
from nqueens_kit.problem.reference import published_count
from nqueens_kit.problem.results import Status
from nqueens_kit.runtime import isolate
from nqueens_kit.runtime.isolate import Ended

Findings = list[str]

#: The time limit of :func:`time_limit` (seconds), and what an entry that stops itself may take past it: starting a
#: solver process, writing its input and reading its answer, finishing the search step it was in, and for CP-SAT in
#: a process that has loaded highspy a fresh interpreter's start-up (measured here: CBC 0.4 s past a 1 s limit,
#: the python-sat solvers and the DIMACS executables under 0.1 s).
LIMIT = 1.0
MARGIN = 3.0
#: How long a CP entry searches while the threads it runs are counted: time for CP-SAT in a process that has
#: loaded highspy to start its fresh interpreter (0.6 s here) and then run its workers.
WATCHED = 2.0


def pigeonhole(n: int) -> Problem:
    """``n`` queens on a board whose open cells lie on ``n - 1`` of its diagonals: every board needs ``n`` distinct
    diagonals, so there is none, and saying so is the pigeonhole principle, which no resolution proof (so no CDCL
    solver) shows in fewer than exponentially many steps (the excluded-diagonals family of
    :mod:`nqueens_kit.problem.instances`, at its hardest)."""
    kept = set(range(-(n // 2) + 1, n - n // 2))
    return Problem(n, blocked=[(r, c) for r in range(1, n + 1) for c in range(1, n + 1) if r - c not in kept])


#: Per method, instances (variant, problem) far beyond :data:`LIMIT` for every entry that runs them (the first
#: the entry takes is used), with a model built well within it.  Measured without a limit: the 30-board pigeonhole
#: is not refuted within minutes by any SAT entry, nor by CP-SAT and Gecode in the boolean formulation; the
#: 40-board with random blocked cells at density 0.8 (seed 1: near the phase transition of Gent, Jefferson and
#: Nightingale, where the hard instances are) is not decided within 20 s by CBC, HiGHS or SCIP in the lines
#: formulation, whose model takes 0.02 s to build.
HARD: dict[str, list[tuple[str, Problem]]] = {
    "sat": [("pairwise", pigeonhole(30)), ("native", pigeonhole(30))],
    "ilp": [("lines", Problem(40, blocked=random_blocked(40, 0.8, 1)))],
    "cp": [("boolean", pigeonhole(30))],
}

#: Per method, an instance (variant, problem) that makes every entry search (conflicts, nodes, LP iterations,
#: failures), small enough to take a fraction of a second: the 10-board pigeonhole for SAT (python-sat's
#: CaDiCaL solves the bare 10-queens without a single conflict), random blocked cells at density 0.7 on 20 rows
#: for ILP (no board; CBC 52 nodes, HiGHS 46, SCIP 1, each hundreds of LP iterations), 16-queens for CP.
SEARCHING: dict[str, list[tuple[str, Problem]]] = {
    "sat": [("pairwise", pigeonhole(10)), ("native", pigeonhole(10))],
    "ilp": [("lines", Problem(20, blocked=random_blocked(20, 0.7, 1)))],
    "cp": [("boolean", Problem(16))],
}


def _first(cases: dict[str, list[tuple[str, Problem]]], method: Method, name: str,
           claim: str) -> tuple[tuple[str, Problem] | None, Findings]:
    entry = method.solver(name)
    for variant, problem in cases.get(method.name, []):
        if entry.takes_variant(method.variant_kind(variant)):
            return (variant, problem), []
    return None, [f"{name}: declares {claim}, but the contract knows no instance of --method {method.name} for it "
                  f"among the variants it takes ({', '.join(sorted(entry.variants)) or 'none'})"]


# ------------------------------------------------------------------------------------------ time limits


def _timed_solve(method_name: str, choice: Choice, problem: Problem, limit: float) -> tuple[str, float, float, str]:
    """A child's job: solve in this process with a deadline ``limit`` seconds away; (status, seconds, seconds spent
    building the model, message).  A board the independent check rejects is the status ``wrong board``."""
    method = get_method(method_name)
    start = time.monotonic()
    result = method.solve_here(problem, choice, start + limit)
    status = "wrong board" if result.status == Status.SOLVED and not result.check().verified else str(result.status)
    return status, time.monotonic() - start, result.build_seconds or 0.0, result.message


#: How many times :func:`time_limit` doubles a limit that building the model took half of (a loaded machine).
RETRIES = 2


def time_limit(method: Method, name: str, limit: float = LIMIT, margin: float = MARGIN) -> Findings:
    """An entry with the ``time_limit`` capability, handed a deadline ``limit`` seconds away on an instance far
    beyond it, stops by itself with the status ``timeout`` within ``limit + margin``.  The solve runs in this
    process's way (the method's ``solve_here``: no child process of the kit stops it); the check runs it in a
    child of its own only to end an entry that ignores its deadline.  A timeout proves something only if the
    solver had the deadline to keep: when building the model took half the limit or more, the limit is doubled
    (at most :data:`RETRIES` times).  An answer that came about when the deadline passed (within the margin) is asked
    again with a deadline a quarter of that answer's time away; an answer before the deadline says the instance
    does not test this entry's limit."""
    entry = method.solver(name)
    if not entry.capabilities.time_limit:
        return []
    case, found = _first(HARD, method, name, "a time limit")
    if case is None:
        return found
    variant, problem = case
    choice = method.choose(variant, name)
    for attempt in range(RETRIES + 1):
        run = isolate.run_in_child(_timed_solve, (method.name, choice, problem, limit), time_limit=limit + margin,
                                   grace=0.5)
        if run.status == Ended.FAILED:
            return [f"{name}: a solve of {problem.describe()} ({variant}) with a deadline failed: {run.error}"]
        if run.status != Ended.DONE:
            return [f"{name}: declares a time limit, but a solve of {problem.describe()} ({variant}) with a deadline "
                    f"{limit:g} s away had not returned after {limit + margin:g} s ({run.status}): it ignores its "
                    "deadline"]
        status, seconds, built, message = run.value
        if status == "wrong board":
            return [f"{name}: with a deadline {limit:g} s away it answered solved after {seconds:.2f} s with a board "
                    f"the independent check rejects ({message or 'no message'}): it read its stop as a solution"]
        if status == Status.TIMEOUT and built >= limit / 2 and attempt < RETRIES:
            limit *= 2  # the solver hardly had the deadline: again, with time to keep it
            continue
        if status != Status.TIMEOUT and limit < seconds <= limit + margin and attempt < RETRIES:
            # its search ended about when its deadline came (SCIP 5.0.1 solves the ILP instance in 1.06 s): again,
            # with a deadline far before that end, which a solver that keeps it cannot reach
            limit = seconds / 4
            continue
        if status != Status.TIMEOUT and seconds <= limit:
            return [f"{name}: answered {status} after {seconds:.2f} s, within its {limit:g} s deadline: "
                    f"{problem.describe()} ({variant}) is not beyond it, so its time limit went untested"]
        if status != Status.TIMEOUT:
            return [f"{name}: declares a time limit, but with a deadline {limit:g} s away it answered {status} after "
                    f"{seconds:.2f} s ({message or 'no message'}): it did not stop at its deadline"]
        if built >= limit / 2:
            return [f"{name}: building the model took {built:.2f} s of a {limit:g} s limit: the solver never had a "
                    "deadline to keep"]
        if seconds > limit + margin:
            return [f"{name}: declares a time limit, and stopped, but {seconds:.2f} s after its start, more than "
                    f"the limit of {limit:g} s and a margin of {margin:g} s"]
        return []
    return []


# --------------------------------------------------------------------------------------------- spying


@contextmanager
def wrapping(target: Any, attribute: str, wrap: Callable[[Callable[..., Any]], Callable[..., Any]]) -> Iterator[None]:
    """``target.attribute`` (a method, of a class or of one object) is ``wrap(original)`` while inside."""
    original = getattr(target, attribute)
    own = attribute in vars(target)
    setattr(target, attribute, wrap(original))
    try:
        yield
    finally:
        if own:
            setattr(target, attribute, original)
        else:
            delattr(target, attribute)


def spying(target: Any, attribute: str, record: Callable[..., None]) -> Any:
    """``target.attribute`` calls ``record`` with its arguments, then itself, while inside."""
    def wrap(original: Callable[..., Any]) -> Callable[..., Any]:
        def spy(*args: Any, **kwargs: Any) -> Any:
            record(*args, **kwargs)
            return original(*args, **kwargs)
        return spy
    return wrapping(target, attribute, wrap)


def _clauses(formula: Any) -> tuple[tuple[int, ...], ...]:
    listed = formula.tolist() if hasattr(formula, "tolist") else formula
    return tuple(tuple(int(lit) for lit in clause) for clause in listed)


# ---------------------------------------------------------------------------------------- reordering


def _received(method: Method, name: str, order: int | None) -> tuple[object, Findings]:
    """What the entry is handed for one solve in the instance ``order``: the CNF of 6-queens (SAT), its PuLP model
    (ILP), or, for an entry that builds its own model from the order (CP), what its search of 10-queens did (the
    board and the counters)."""
    entry = method.solver(name)
    seen: list[object] = []
    choice = dataclasses.replace(method.choose(solver=name), order=order)
    problem = Problem(6) if method.name != "cp" else Problem(10)
    if method.name == "sat":
        with spying(entry, "solve", lambda clauses, *rest, **kw: seen.append(_clauses(clauses))):
            result = method.solve_here(problem, choice, None)
    elif method.name == "ilp":
        from nqueens_kit.methods.ilp.build import _constraints

        def model(handed: Any, *rest: Any, **kw: Any) -> None:
            seen.append((tuple(v.name for v in handed.prob.variables()),
                         tuple((c.name, str(c)) for c in _constraints(handed.prob))))

        with spying(entry, "solve", model):
            result = method.solve_here(problem, choice, None)
    else:
        result = method.solve_here(problem, choice, None)
        counters = {k: v for k, v in result.stats.items() if isinstance(v, int) and not isinstance(v, bool)}
        seen.append((tuple(result.queens), tuple(sorted(counters.items()))))
    findings = [] if result.status == Status.SOLVED and result.check().verified else [
        f"{name}: order={order} did not give a verified board ({result.status}: {result.message})"]
    if not seen:
        findings.append(f"{name}: the solve of order={order} never reached the entry")
    return (seen[0] if seen else None), findings


def reorder(method: Method, name: str) -> Findings:
    """An entry that honours ``reorder`` is handed a different model for each instance order (and without one);
    one that does not is refused an order in one line."""
    entry = method.solver(name)
    if not method.honours("reorder"):
        return []
    if not entry.honours("reorder"):
        try:
            solve(6, method, solver=name, order=1)
        except InputError as exc:
            return [] if "\n" not in str(exc) and f"--solver {name}" in str(exc) else [
                f"{name}: refuses reordered instances, but not in one line naming it: {exc}"]
        return [f"{name}: does not declare reorder, yet solved a reordered instance"]
    found: Findings = []
    received = {}
    for order in (None, 1, 2):
        received[order], wrong = _received(method, name, order)
        found += wrong
    for a, b in combinations(received, 2):
        if received[a] is not None and received[a] == received[b]:
            found.append(f"{name}: declares reorder, but the instances order={a} and order={b} reach it as the same "
                         "model" + (" (the same search)" if method.name == "cp" else ""))
    return found


# ---------------------------------------------------------------------------------------------- settings


def _threads_during(call: Callable[[], Any]) -> tuple[int | None, Any]:
    """``(threads, value)``: the most threads the processes below this one ran at once during ``call()`` (which
    runs its work in a child), and what ``call`` returned (Linux; psutil).  This process's own threads are not
    counted: one of its threads that ends meanwhile (a pool's, a finished sampler's) would hide one of the
    child's.  ``threads`` is None when no sample saw a process below this one (on a loaded machine the
    sampler may not run while the child lives): nothing was measured, which is not zero threads."""
    import psutil

    me = psutil.Process()
    stop = threading.Event()
    peak: list[int | None] = [None]

    def sample() -> None:
        while not stop.is_set():
            try:
                below = me.children(recursive=True)
                total = sum(p.num_threads() for p in below)
            except psutil.Error:
                continue
            if below:
                peak[0] = max(peak[0] or 0, total)
            stop.wait(0.002)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    try:
        value = call()
    finally:
        stop.set()
        sampler.join()
    return peak[0], value


def _engine_options(engine: Any) -> object:
    """What a PuLP solver object was made with, its time limit and log left out."""
    kept = {k: v for k, v in dict(getattr(engine, "optionsDict", {}) or {}).items()
            if k not in ("logPath", "log_file", "output_flag", "log_to_console", "timeLimit")}
    return (tuple(getattr(engine, "options", ()) or ()), tuple(sorted(kept.items(), key=str)),
            getattr(engine, "threads", None))


def _options_of_solve(method_name: str, choice: Choice, problem: Problem, limit: float) -> Any:
    """A child's job: solve with a deadline ``limit`` seconds away; the options the result records."""
    return get_method(method_name).solve_here(problem, choice, time.monotonic() + limit).options


def _settings_run(method: Method, name: str, setting: str, watched: float,
                  margin: float) -> tuple[object, object, Findings]:
    """``(recorded, used, findings)`` of one run of the entry under ``setting``: the options it recorded (the name
    left out) and what it ran with (ILP: the PuLP solver object it made; CP: how many threads its search ran;
    model counting: what it counted)."""
    entry = method.solver(name)
    if method.name == "ilp":
        made: list[object] = []

        def wrap(original: Callable[..., Any]) -> Callable[..., Any]:
            def engine(**options: Any) -> Any:
                solver = original(**options)
                made.append(_engine_options(solver))
                return solver
            return engine

        with wrapping(entry, "engine", wrap):
            result = solve(8, method, solver=name, settings=setting)
        recorded = {k: v for k, v in result.options.items() if k != "settings"}
        wrong = [] if result.status == Status.SOLVED and result.options.get("settings") == setting else [
            f"{name}: --settings {setting} did not give a board recording its settings ({result.options})"]
        return recorded, (made[0] if made else None), wrong
    if method.name == "cp":
        variant, problem = HARD["cp"][0]
        choice = method.choose(variant, name, setting)
        # in a child of the check's own, which an entry that searches past its deadline cannot keep waiting
        threads, run = _threads_during(lambda: isolate.run_in_child(
            _options_of_solve, (method.name, choice, problem, watched), time_limit=watched + margin, grace=0.5))
        if run.status != Ended.DONE:
            return None, threads, [f"{name}: --settings {setting}: a solve with a deadline {watched:g} s away "
                                   f"{'failed: ' + run.error if run.status == Ended.FAILED else 'did not return'}"]
        options = run.value
        recorded = {k: v for k, v in options.items() if k not in ("settings", "max_time_in_seconds")}
        wrong = [] if options.get("settings") == setting else [
            f"{name}: --settings {setting} recorded {options.get('settings')!r}"]
        return recorded, threads, wrong
    if method.name == "model-count":
        result = count(5, method, "sequential", name, settings=setting)
        wrong = [] if result.settings == setting else [f"{name}: --settings {setting} recorded {result.settings!r}"]
        return (result.settings != setting, result.note), result.count, wrong
    return None, None, [f"{name}: the contract has no way to see what --settings change for --method {method.name}"]


def settings(method: Method, name: str, watched: float = WATCHED, margin: float = MARGIN) -> Findings:
    """Each named setting the entry takes changes what it records and what it runs with (no two of its settings
    run it alike); the CP method's settings name how many search workers run, so ``all-cores`` must run more
    threads than ``one-worker`` by the cores beyond one.  Every setting it does not take is refused in one
    line naming it and the setting."""
    entry = method.solver(name)
    found: Findings = []
    verb = solve if method.has("solve") else count
    taken = [s for s in method.settings() if entry.takes(s)]
    for setting in method.settings():
        if setting in taken:
            continue
        try:
            verb(6, method, solver=name, settings=setting)
        except InputError as exc:
            if "\n" in str(exc) or name not in str(exc) or setting not in str(exc):
                found.append(f"{name}: refuses --settings {setting}, but not in one line naming both: {exc}")
            continue
        found.append(f"{name}: does not declare --settings {setting}, yet ran under it")
    if len(taken) < 2:
        return found
    for attempt in range(RETRIES + 1):
        runs, wrong = {}, []
        for setting in taken:
            recorded, used, problems = _settings_run(method, name, setting, watched, margin)
            runs[setting] = (recorded, used)
            wrong += problems
        unmeasured = method.name == "cp" and any(used is None for _, used in runs.values())
        fewer = _fewer_threads(name, taken, runs) if method.name == "cp" else []
        if not (fewer or unmeasured) or attempt == RETRIES:
            break
        watched *= 2  # a loaded machine may start the search late: watch it longer
    found += wrong + fewer
    for a, b in combinations(taken, 2):
        if runs[a][0] == runs[b][0]:
            found.append(f"{name}: records the same options under --settings {a} and {b}: one of them means nothing "
                         "for it (an entry takes only settings that change its run)")
        if method.name != "cp" and runs[a][1] == runs[b][1]:
            found.append(f"{name}: runs alike under --settings {a} and {b} (the same options reach its solver): one of "
                         "them means nothing for it")
    return found


def _fewer_threads(name: str, taken: list[str], runs: dict[str, tuple[object, object]]) -> Findings:
    """The CP settings name how many search workers run: a setting with more must run that many more threads."""
    from nqueens_kit.solvers.cp import workers

    found = []
    for a, b in combinations(taken, 2):
        more = workers(b) - workers(a)
        threads_a, threads_b = runs[a][1], runs[b][1]
        if threads_a is None or threads_b is None:  # not seen in any try (a machine too loaded to watch it)
            found.append(f"{name}: the threads of its search under --settings {a} and {b} could not be watched "
                         f"in {RETRIES + 1} tries")
            continue
        assert isinstance(threads_a, int) and isinstance(threads_b, int)
        if more > 0 and threads_b < threads_a + more:
            found.append(f"{name}: --settings {b} should run {more} more search thread(s) than {a}, but ran "
                         f"{threads_b} beside the caller's against {threads_a}: it records a setting it does not use")
    return found


# ------------------------------------------------------------------------------------------- statistics


def statistics(method: Method, name: str) -> Findings:
    """The counters an entry declares are in its results, as positive numbers, on an instance that needs a
    search."""
    entry = method.solver(name)
    counters = entry.capabilities.statistics
    if not counters:
        return []
    case, found = _first(SEARCHING, method, name, "statistics")
    if case is None:
        return found
    variant, problem = case
    result = method.solve_here(problem, method.choose(variant, name), None)
    if not result.status.finished:
        return [f"{name}: the statistics instance {problem.describe()} ({variant}) ended {result.status}"]
    for counter in counters:
        value = result.stats.get(counter)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
            found.append(f"{name}: declares the counter {counter!r}, but its solve of {problem.describe()} ({variant}) "
                         f"reported {value!r}")
    return found


# ---------------------------------------------------------------------------------------------- proofs


def proofs(method: Method, name: str, folder: str) -> Findings:
    """An entry that declares proofs writes one for a board without a solution, and the kit's checker accepts it,
    as ``nqueens-kit solve --proof`` checks it."""
    from nqueens_kit.inside.proofs import solve_with_proof
    from nqueens_kit.problem.results import KnownBy

    entry = method.solver(name)
    if not entry.capabilities.proofs:
        return []
    if not method.proves:
        return [f"{name}: declares proofs, but --method {method.name} writes none"]
    problem = Problem(6, [(1, 2), (2, 5)])  # no board, and unit propagation alone does not show it
    try:
        result = solve_with_proof(problem, f"{folder}/{name}.drat", solver=name, time_limit=60)
    except NQueensError as exc:
        return [f"{name}: declares proofs, but solve --proof failed: {exc}"]
    proof = result.extra.get("proof")
    if result.status != Status.INFEASIBLE or not isinstance(proof, dict) or not proof.get("checked"):
        return [f"{name}: declares proofs, but its proof of {problem.describe()} was not checked ({result.status}: "
                f"{result.message})"]
    if result.known_by != KnownBy.CHECKED_PROOF or not proof.get("steps"):
        return [f"{name}: its proof was checked, but the result does not say so ({result.known_by}, {proof})"]
    return []


# ------------------------------------------------------------------------------------------ assumptions


def assumptions(method: Method, name: str) -> Findings:
    """An entry that declares assumptions solves the 6-queens formula under them: a queen assumed is in its
    board, and two queens assumed that attack each other give "no" with a core of the assumptions that is one
    (the formula with the core as unit clauses has no model)."""
    from nqueens_kit.methods.sat.cnf import build_cnf
    from nqueens_kit.problem.results import Answer

    entry = method.solver(name)
    if not entry.capabilities.assumptions:
        return []
    solve_with = getattr(entry, "solve", None)
    if method.name != "sat" or solve_with is None:
        return [f"{name}: declares assumptions, but the contract knows them for SAT entries only"]
    cnf = build_cnf(Problem(6))
    var = Problem(6).var
    found: Findings = []
    yes = solve_with(cnf.clauses, cnf.num_vars, None, [var(1, 2)])
    if yes.status != Answer.SAT or var(1, 2) not in (yes.model or []):
        found.append(f"{name}: under the assumption of a queen at 1,2 it answered {yes.status} without that queen")
    assumed = [var(4, 5), var(1, 1), var(2, 2)]  # the last two attack each other
    no = solve_with(cnf.clauses, cnf.num_vars, None, assumed)
    core = no.core or []
    if no.status != Answer.UNSAT:
        found.append(f"{name}: two attacking queens assumed, it answered {no.status}")
    elif not core or not set(core) <= set(assumed):
        found.append(f"{name}: declares assumptions, but gave the core {core} of the assumptions {assumed}")
    else:
        again = solve_with([*cnf.clauses, *([lit] for lit in core)], cnf.num_vars)
        if again.status != Answer.UNSAT:
            found.append(f"{name}: its core {core} is not one: the formula with it has a model")
    return found


# ------------------------------------------------------------------------------------------ incremental


def incremental(method: Method, name: str) -> Findings:
    """An entry that declares itself incremental lists every board of 6-queens with one solver taking each
    blocking clause as it comes: its ``models`` never falls back to a fresh solve per model."""
    from nqueens_kit.methods.sat.cnf import build_cnf

    entry = method.solver(name)
    if not entry.capabilities.incremental:
        return []
    if method.name != "sat" or not hasattr(entry, "models"):
        return [f"{name}: declares itself incremental, but the contract knows that for SAT entries only"]
    cnf = build_cnf(Problem(6))
    top = cnf.board_vars
    fresh: list[int] = []
    with spying(entry, "solve", lambda *args, **kw: fresh.append(1)):
        boards = {cnf.decode(model) for model in entry.models(cnf.clauses, cnf.num_vars,
                                                              lambda m: [-lit for lit in m if 0 < lit <= top])}
    found: Findings = []
    if len(boards) != published_count(6) or not all(Problem(6).verify(b) for b in boards):
        found.append(f"{name}: listed {len(boards)} distinct boards of 6-queens, not {published_count(6)}")
    if fresh:
        found.append(f"{name}: declares itself incremental, but solved afresh {len(fresh)} times to list the boards")
    return found


# -------------------------------------------------------------------------------------------- variants

#: The boards every variant of every entry is run on: n = 1 (one board), 2 and 3 (none), 4 to 6.
SIZES = (1, 2, 3, 4, 5, 6)


def variants(method: Method, name: str, sizes: tuple[int, ...] = SIZES, verbs: tuple[str, ...] = ("solve", "count"),
             only: str | None = None) -> Findings:
    """Every variant the entry takes, with each of ``verbs`` it has: ``solve`` gives a verified board exactly when
    the published count is not 0; ``count`` gives the published count; ``iterate`` lists that many boards, each
    once.  Every variant it does not take is refused in one line naming the entry and the variant (before any
    work).  ``only``: that variant alone."""
    from nqueens_kit.methods import iter_boards

    entry = method.solver(name)
    found: Findings = []
    for variant in method.variants():
        if only is not None and variant != only:
            continue
        if not entry.takes_variant(method.variant_kind(variant)):
            verb = solve if method.has("solve") else count
            try:
                verb(6, method, variant, name)
            except InputError as exc:
                text = str(exc)
                if "\n" in text or name not in text or variant not in text:
                    found.append(f"{name}: refuses the {method.variant_word} {variant}, but not in one line naming "
                                 f"both: {text}")
                continue
            found.append(f"{name}: does not declare the {method.variant_word} {variant}, yet ran it")
            continue
        for n in sizes:
            published = published_count(n)
            try:
                if "solve" in verbs and method.has("solve", method.choose(variant, name)):
                    result = solve(n, method, variant, name)
                    wanted = Status.SOLVED if published else Status.INFEASIBLE
                    if result.status != wanted or (published and not result.verified):
                        found.append(f"{name} {variant}: solve {n} gave {result.status} ({result.message}), "
                                     f"not {wanted}")
                if "count" in verbs and method.has("count", method.choose(variant, name)):
                    counted = count(n, method, variant, name)
                    if counted.count != published:
                        found.append(f"{name} {variant}: count {n} gave {counted.count}, not {published}")
                if "iterate" in verbs and method.has("iterate", method.choose(variant, name)):
                    boards = list(iter_boards(n, method, variant, name))
                    if len(boards) != published or len(set(boards)) != len(boards):
                        found.append(f"{name} {variant}: listed {len(boards)} boards of {n}-queens "
                                     f"({len(set(boards))} distinct), not {published}")
            except NQueensError as exc:
                found.append(f"{name} {variant}: n = {n} failed: {exc}")
    return found


# ---------------------------------------------------------------------------------------------- all of them


def every_claim(method: Method, name: str, folder: str) -> Findings:
    """Every check that applies to the entry ``name``: what it declares (each capability, the settings it takes and
    refuses, reordered instances) and every variant of its method, taken or refused in one line."""
    entry = method.solver(name)
    claims = entry.capabilities
    found: Findings = []
    if claims.time_limit:
        found += time_limit(method, name)
    if method.honours("reorder"):
        found += reorder(method, name)
    if method.settings():
        found += settings(method, name)
    if claims.statistics:
        found += statistics(method, name)
    if claims.proofs:
        found += proofs(method, name, folder)
    if claims.assumptions:
        found += assumptions(method, name)
    if claims.incremental:
        found += incremental(method, name)
    for variant in method.variants():
        found += variants(method, name, only=variant)
    return found
