"""Why encodings differ: what unit propagation alone deduces under each encoding.

A CDCL solver spends most of its time in unit propagation, so how much propagation deduces decides how
much it must search.  Put some queens on the board (as unit clauses) and propagate: every encoding rules
out the cells those queens attack, but does propagation also see the consequences, e.g. that a row has
only one cell left, or that a cell cannot hold a queen because a line would then be empty?  The truth comes
from search: a cell is *dead* when no completion puts a queen on it.

- :func:`propagate` / :func:`unit_propagate`: where unit propagation ends from some literals (with the
  clause behind each literal it sets and the clause of a conflict), or just the assignment.
- :func:`deduced`: for one problem and encoding, the board cells propagation rules out or forces.
- :func:`strength`: that against the truth for many random placements: a table per encoding.
- :func:`load_and_search`: where a real solver's time goes per encoding: loading the clauses against the
  search, with the solver's own counters.

>>> d = deduced(Problem(4, [(1, 2)]), "pairwise")
>>> sorted(d.forced)
[(1, 2), (2, 4), (3, 1), (4, 3)]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TypedDict

from ..errors import InputError
from ..methods.sat.cnf import CNF, build_cnf
from ..methods.sat.encodings import get_encoding
from ..problem.board import Cell, Problem
from ..problem.instances import random_preplacement


@dataclass
class Propagation:
    """Where unit propagation ends: the assignment (None after a conflict), the ``trail`` of literals set
    by a clause, each with that clause (the formula's own unit clauses included), the ``conflict`` clause
    that became false (an empty tuple when the assumed literals contradict each other), and ``visits``, the
    clauses looked at."""

    value: dict[int, bool] | None
    trail: list[tuple[int, tuple[int, ...]]] = field(default_factory=list)
    conflict: tuple[int, ...] | None = None
    visits: int = 0


def propagate(clauses: Sequence[Sequence[int]], assumed: Iterable[int] = ()) -> Propagation:
    """Unit propagation to a fixpoint with two watched literals, from the formula's unit clauses and the
    ``assumed`` literals."""
    value: dict[int, bool] = {}
    queue: list[int] = []
    result = Propagation(value)

    def assign(lit: int, reason: tuple[int, ...] | None) -> bool:
        known = value.get(abs(lit))
        if known is None:
            value[abs(lit)] = lit > 0
            queue.append(lit)
            if reason is not None:
                result.trail.append((lit, reason))
            return True
        return known == (lit > 0)

    def conflict(clause: tuple[int, ...]) -> Propagation:
        result.value, result.conflict = None, clause
        return result

    watches: dict[int, list[list[int]]] = {}
    given: dict[int, tuple[int, ...]] = {}  # id of a watched list -> the clause as written
    for clause in clauses:
        lits = list(clause)
        if not lits:
            return conflict(())
        if len(lits) == 1:
            if not assign(lits[0], tuple(lits)):
                return conflict(tuple(lits))
            continue
        given[id(lits)] = tuple(clause)
        watches.setdefault(lits[0], []).append(lits)
        watches.setdefault(lits[1], []).append(lits)
    for lit in assumed:
        if not assign(lit, None):  # the clause that set the opposite literal, if one did
            return conflict(next((reason for set_lit, reason in result.trail if set_lit == -lit), ()))
    head = 0
    while head < len(queue):
        false_lit = -queue[head]
        head += 1
        kept = []
        watching = watches.get(false_lit, [])
        result.visits += len(watching)
        for i, clause in enumerate(watching):
            if clause[0] == false_lit:
                clause[0], clause[1] = clause[1], clause[0]
            first = value.get(abs(clause[0]))
            if first is not None and first == (clause[0] > 0):
                kept.append(clause)
                continue
            for k in range(2, len(clause)):
                v = value.get(abs(clause[k]))
                if v is None or v == (clause[k] > 0):
                    clause[1], clause[k] = clause[k], clause[1]
                    watches.setdefault(clause[1], []).append(clause)
                    break
            else:
                kept.append(clause)
                if not assign(clause[0], given[id(clause)]):
                    watches[false_lit] = kept + watching[i + 1:]
                    return conflict(given[id(clause)])
        watches[false_lit] = kept
    return result


def unit_propagate(clauses: Sequence[Sequence[int]], assumed: Iterable[int] = (),
                   work: dict[str, int] | None = None) -> dict[int, bool] | None:
    """The assignment unit propagation reaches (:func:`propagate`), or None when some clause becomes false.
    ``work`` (a dict) receives ``visits``, the clauses looked at."""
    done = propagate(clauses, assumed)
    if work is not None:
        work["visits"] = work.get("visits", 0) + done.visits
    return done.value


@dataclass
class Deduction:
    """What propagation deduced on the board: ``ruled_out`` cells (no queen), ``forced`` cells (a queen),
    or ``conflict`` (propagation alone proves the placement cannot be completed)."""

    ruled_out: set[Cell] = field(default_factory=set)
    forced: set[Cell] = field(default_factory=set)
    conflict: bool = False
    assigned: int = 0   # literals set, helpers included
    visits: int = 0     # clauses looked at


def deduced(problem: Problem, encoding: str = "pairwise", base: CNF | None = None) -> Deduction:
    """What unit propagation deduces on the board from the formula of ``problem`` under ``encoding``.
    ``base``, the formula of the bare board (the same n and encoding, no queen placed, no cell blocked),
    saves building the clauses again: the problem's unit clauses are appended to it as
    :func:`~nqueens_kit.methods.sat.cnf.build_cnf` appends them."""
    if base is None or problem.break_symmetry:
        clauses = build_cnf(problem, encoding).clauses
    else:
        if base.problem.n != problem.n or base.encoding != get_encoding(encoding).name or base.problem.preplaced \
                or base.problem.blocked or base.problem.break_symmetry or base.defined:
            raise InputError(f"base must be the bare {problem.n}-queens formula of the {encoding} encoding")
        n = problem.n
        clauses = [*base.clauses, *([(r - 1) * n + c] for r, c in problem.preplaced),
                   *([-((r - 1) * n + c)] for r, c in problem.blocked)]
    work: dict[str, int] = {}
    assignment = unit_propagate(clauses, work=work)
    if assignment is None:
        return Deduction(conflict=True, visits=work.get("visits", 0))
    top = problem.n * problem.n
    return Deduction({problem.cell(v) for v, b in assignment.items() if v <= top and not b},
                     {problem.cell(v) for v, b in assignment.items() if v <= top and b},
                     assigned=len(assignment), visits=work.get("visits", 0))


def truth(problem: Problem) -> tuple[set[Cell], set[Cell], bool]:
    """Cells no completion uses, cells every completion uses, and whether any completion exists: every
    completion found by bitmask backtracking row by row (pre-placed queens and blocked cells honoured; an
    exhaustive search that shares no code with the encodings or with propagation)."""
    n = problem.n
    cells = {(r, c) for r in range(1, n + 1) for c in range(1, n + 1)}
    full = (1 << n) - 1
    allowed = [full] * n  # per row (from 0), the columns a queen may take
    for r, c in problem.blocked:
        allowed[r - 1] &= ~(1 << (c - 1))
    for r, c in problem.preplaced:
        allowed[r - 1] &= 1 << (c - 1)  # two queens on one row leave it no column
    used, always, placed = [0] * n, [full] * n, [0] * n
    found = False

    def place(row: int, columns: int, down: int, up: int) -> None:
        nonlocal found
        if row == n:
            found = True
            for r in range(n):
                used[r] |= placed[r]
                always[r] &= placed[r]
            return
        free = allowed[row] & ~(columns | down | up)
        while free:
            bit = free & -free
            free ^= bit
            placed[row] = bit
            place(row + 1, columns | bit, ((down | bit) << 1) & full, (up | bit) >> 1)

    place(0, 0, 0, 0)
    if not found:
        return cells, set(), False
    dead = {(r, c) for r, c in cells if not used[r - 1] >> (c - 1) & 1}
    return dead, {(r, c) for r, c in cells if always[r - 1] >> (c - 1) & 1}, True


class StrengthRow(TypedDict):
    """One (n, encoding) of :func:`strength`."""

    n: int
    encoding: str
    placements: int
    dead: int
    ruled_out: int
    forced: int
    found_forced: int
    impossible: int
    refuted: int
    assigned: float
    visits: float
    ruled_out_share: float


class LoadSearchRow(TypedDict):
    """One encoding of :func:`load_and_search`."""

    encoding: str
    n: int
    answer: bool
    variables: int
    clauses: int
    literals: int
    load: float
    search: float
    clock: str
    conflicts: int
    decisions: int
    propagations: int
    repeat: int


def strength(ns: Sequence[int], queens: int, samples: int, encodings: Sequence[str],
             seed: int = 0) -> list[StrengthRow]:
    """For ``samples`` random placements of ``queens`` queens per n: per encoding, the share of the dead
    cells (no completion uses them) that propagation rules out, of the forced queens it finds, and of the
    impossible placements it refutes without search.  One row per (n, encoding)."""
    rows: list[StrengthRow] = []
    for n in ns:
        placements = [Problem(n, random_preplacement(n, queens, seed, i)) for i in range(1, samples + 1)]
        truths = [truth(p) for p in placements]
        for encoding in encoding_list(encodings):
            base = build_cnf(Problem(n), encoding)
            dead = found_dead = forced = found_forced = impossible = refuted = assigned = visits = 0
            for problem, (dead_cells, forced_cells, feasible) in zip(placements, truths, strict=True):
                d = deduced(problem, encoding, base)
                assigned += d.assigned
                visits += d.visits
                if not feasible:
                    impossible += 1
                    refuted += d.conflict
                    continue
                free_dead = dead_cells
                dead += len(free_dead)
                found_dead += len(d.ruled_out & free_dead)
                extra_forced = forced_cells - set(problem.preplaced)
                forced += len(extra_forced)
                found_forced += len(d.forced & extra_forced)
            rows.append({"n": n, "encoding": encoding, "placements": samples, "dead": dead,
                         "ruled_out": found_dead, "forced": forced, "found_forced": found_forced,
                         "impossible": impossible, "refuted": refuted, "assigned": assigned / samples,
                         "visits": visits / samples,
                         "ruled_out_share": found_dead / dead if dead else 1.0})
    return rows


def encoding_list(encodings: Sequence[str]) -> list[str]:
    return [get_encoding(name).name for name in encodings]


def load_and_search(problem: Problem | int, encodings: Sequence[str], solver: str = "pysat-minisat",
                    repeat: int = 5) -> list[LoadSearchRow]:
    """Where a SAT solve's time goes, per encoding: handing the clauses to the solver (``load``: it stores
    them and builds its watch lists) against the search itself (``search``), each the best of ``repeat``
    fresh solvers in this process, in processor time (the solver is deterministic, so every run does the same
    work; processor time is what other work on a busy machine disturbs least, and the fastest run is the
    closest to the work itself), beside the size of the formula and the solver's own counters
    (``conflicts``, ``decisions``, ``propagations``: the same on every machine).  ``clock`` says which clock
    timed it: ``"processor"``, or ``"wall"`` in a browser, whose Python has no processor clock.  ``solver`` is
    a python-sat solver of the registry that reports statistics (MiniSat by default)."""
    import time

    from ..solvers import get_solver
    from ..solvers.python_sat import PySat

    backend = get_solver("sat", solver).require()
    if not isinstance(backend, PySat) or not backend.capabilities.statistics:
        raise InputError(f"{solver} is not a python-sat solver that reports statistics; try pysat-minisat")
    if isinstance(repeat, bool) or not isinstance(repeat, int) or repeat < 1:
        raise InputError(f"repeat must be a whole number of at least 1, not {repeat!r}")
    problem = problem if isinstance(problem, Problem) else Problem(problem)
    from pysat.solvers import Solver

    from ..runtime.browser import IN_BROWSER

    clock = "wall" if IN_BROWSER else "processor"
    rows: list[LoadSearchRow] = []
    for encoding in encoding_list(encodings):
        cnf = build_cnf(problem, encoding)
        loads, searches = [], []
        stats: dict[str, int] = {}
        for _ in range(repeat):
            start = time.process_time()
            sat = Solver(name=backend.backend, bootstrap_with=cnf.clauses)
            loaded = time.process_time()
            answer = sat.solve()
            searched = time.process_time()
            stats = {k: int(v) for k, v in sat.accum_stats().items()}
            sat.delete()
            loads.append(loaded - start)
            searches.append(searched - loaded)
        rows.append({"encoding": encoding, "n": problem.n, "answer": bool(answer), "variables": cnf.num_vars,
                     "clauses": cnf.num_clauses, "literals": sum(map(len, cnf.clauses)),
                     "load": min(loads), "search": min(searches), "clock": clock,
                     "conflicts": stats.get("conflicts", 0), "decisions": stats.get("decisions", 0),
                     "propagations": stats.get("propagations", 0), "repeat": repeat})
    return rows
