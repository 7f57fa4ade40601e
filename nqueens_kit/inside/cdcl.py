"""A small, readable CDCL SAT solver of the kit's own, which tells everything it does.

Real solvers (pycosat, CaDiCaL) are fast and silent.  This one is slow and talks: every decision, every
unit propagation with the clause that forced it, every conflict with the clause that became false, every
learned clause (first unique implication point) and the level it jumps back to, and every restart become an
:class:`Event`.  It is complete and sound, it agrees with pycosat on every instance the tests try, and its
learned clauses are checked as a DRUP proof by an independent checker; it is meant for boards up to about
n = 12, where a trace is still readable.

The parts are the textbook ones (Marques-Silva and Sakallah's GRASP, Chaff's two watched literals and VSIDS,
MiniSat's phase saving, Luby restarts):

- :class:`Solver`: ``solve()`` returns True (a model), False (unsatisfiable) or None (a limit hit);
  ``events`` is the trace, ``learned`` the learned clauses in order (a DRUP proof when the answer is False).
- :func:`trace`: the trace of one N-queens problem, with its board and its status.
- :func:`event_text`: one line of a trace in the lectures' notation (``P[r,c]``, ``¬``, ``∨``).
- :func:`implication_graph`: the implication graph at a conflict of a trace, with its first-UIP cut and the
  clause learned from it (the figure of the CDCL chapter of the Handbook of Satisfiability).
- ``learning="decisions"``: the same solver without clause learning: a conflict only flips the last
  decision (the clause of the current decisions, chronological backtracking, no restarts), which is how
  DPLL and branch and bound backtrack; comparing the two measures what learning buys.

>>> result = trace(4)
>>> result.status, result.queens
('solved', [(1, 2), (2, 4), (3, 1), (4, 3)])
>>> [e.kind for e in result.events][:2]
['decide', 'propagate']
>>> trace(3).status, trace(3).events[-1].kind
('infeasible', 'conflict')

The trace's types are in :mod:`.events`, its reading (the state at a step, the implication graph) in
:mod:`.implication`; their public names are importable from here too.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence

from ..errors import InputError
from ..methods.sat.cnf import build_cnf
from ..problem.board import Problem, verify
from ..problem.results import Status
from ..runtime.limits import check_time_limit
from ..solvers import get_solver
from .events import KINDS as KINDS
from .events import Event as Event
from .events import Trace as Trace
from .events import event_text as event_text
from .implication import ImplicationGraph as ImplicationGraph
from .implication import TraceState as TraceState
from .implication import conflict_steps as conflict_steps
from .implication import implication_graph as implication_graph
from .implication import state_at as state_at
from .implication import trail_at as trail_at

#: Traces are for reading: past this many events the solver stops and says so.
DEFAULT_MAX_EVENTS = 50_000
#: The largest board the kit's own solver takes (a trace of a larger one is unreadable anyway).
MAX_TRACE_N = 30
#: What a conflict teaches the solver: a first-UIP clause (CDCL), or only "not these decisions" (DPLL).
LEARNING = ("first-uip", "decisions")


def _luby(i: int) -> int:
    """The i-th term (1-based) of the Luby sequence 1 1 2 1 1 2 4 1 1 2 1 1 2 4 8 ..."""
    k = 1
    while (1 << k) - 1 < i:
        k += 1
    while (1 << k) - 1 != i:
        i -= (1 << (k - 1)) - 1
        k = 1
        while (1 << k) - 1 < i:
            k += 1
    return 1 << (k - 1)


class Solver:
    """CDCL with two watched literals, first-UIP learning, VSIDS, phase saving and Luby restarts.

    ``prefer_true`` says which variables are first tried true (for N-queens: the board variables, so a
    decision places a queen); all others are first tried false.  ``record`` keeps the events (off for
    speed when only the answer is wanted).  ``learning`` ``first-uip`` (CDCL) or ``decisions`` (no clause
    learning: each conflict adds the clause "not all of the current decisions" and flips the last one,
    chronological backtracking without restarts, as DPLL and branch and bound do).
    """

    def __init__(self, clauses: Iterable[Sequence[int]], num_vars: int, *,
                 prefer_true: Callable[[int], bool] | None = None, record: bool = True,
                 restart_base: int = 50, decay: float = 0.95, learning: str = "first-uip") -> None:
        if learning not in LEARNING:
            raise InputError(f"unknown learning scheme {learning!r}; valid: {', '.join(LEARNING)}")
        self.learning = learning
        if learning == "decisions":
            restart_base = 10**12  # chronological backtracking never restarts
        self.num_vars = num_vars
        self.value = [0] * (num_vars + 1)       # +1 true, -1 false, 0 unassigned (index = variable)
        self.level_of = [0] * (num_vars + 1)
        self.reason: list[int | None] = [None] * (num_vars + 1)  # index of the clause that forced it
        self.activity = [0.0] * (num_vars + 1)
        self.phase = [bool(prefer_true and prefer_true(v)) for v in range(num_vars + 1)]
        self.keep_phase = list(self.phase)       # variables always tried true first (no phase saving)
        self.increment, self.decay = 1.0, decay
        self.trail: list[int] = []
        self.trail_lim: list[int] = []           # where each decision level starts on the trail
        self.head = 0                            # trail[head:] still has to be propagated
        self.clauses: list[list[int]] = []      # reordered by the watches
        self.shown: list[tuple[int, ...]] = []   # as given (or learned), for the trace
        self.watches: dict[int, list[int]] = {}
        self.learned: list[tuple[int, ...]] = []
        self.events: list[Event] = []
        self.record = record
        self.conflicts = self.decisions = self.propagations = self.restarts = 0
        self.restart_base = restart_base
        self.empty = False                       # the formula holds an empty clause
        self.units: list[int] = []
        for clause in clauses:
            lits = list(dict.fromkeys(int(lit) for lit in clause))
            if any(lit == 0 or abs(lit) > num_vars for lit in lits):
                raise InputError(f"clause {lits[:8]} has a literal outside 1..{num_vars}")
            if any(-lit in lits for lit in lits):
                continue                         # always true
            self._add(lits)

    # ------------------------------------------------------------------ clauses and assignments

    def _add(self, lits: list[int]) -> int:
        index = len(self.clauses)
        self.clauses.append(lits)
        self.shown.append(tuple(lits))
        if not lits:
            self.empty = True
        elif len(lits) == 1:
            self.units.append(index)
        else:
            self.watches.setdefault(lits[0], []).append(index)
            self.watches.setdefault(lits[1], []).append(index)
        return index

    def _lit_value(self, lit: int) -> int:
        v = self.value[abs(lit)]
        return v if lit > 0 else -v

    def _level(self) -> int:
        return len(self.trail_lim)

    def _assign(self, lit: int, reason: int | None) -> None:
        var = abs(lit)
        self.value[var] = 1 if lit > 0 else -1
        self.level_of[var] = self._level()
        self.reason[var] = reason
        self.trail.append(lit)
        if reason is not None:
            self.propagations += 1
            if self.record:
                self.events.append(Event("propagate", self._level(), lit, self.shown[reason]))

    def _propagate(self) -> int | None:
        """Unit propagation from the trail's head; the index of a false clause, or None."""
        while self.head < len(self.trail):
            false_lit = -self.trail[self.head]
            self.head += 1
            watching = self.watches.get(false_lit, [])
            kept: list[int] = []
            i = 0
            while i < len(watching):
                index = watching[i]
                i += 1
                clause = self.clauses[index]
                if clause[0] == false_lit:           # keep the false watch in position 1
                    clause[0], clause[1] = clause[1], clause[0]
                if self._lit_value(clause[0]) == 1:   # satisfied by the other watch
                    kept.append(index)
                    continue
                for k in range(2, len(clause)):
                    if self._lit_value(clause[k]) != -1:  # a new watch
                        clause[1], clause[k] = clause[k], clause[1]
                        self.watches.setdefault(clause[1], []).append(index)
                        break
                else:
                    kept.append(index)
                    if self._lit_value(clause[0]) == -1:  # every literal false: a conflict
                        kept.extend(watching[i:])
                        self.watches[false_lit] = kept
                        return index
                    self._assign(clause[0], index)    # unit: the other watch is forced
            self.watches[false_lit] = kept
        return None

    # ------------------------------------------------------------------ learning and backjumping

    def _analyse(self, conflict: int) -> tuple[list[int], int]:
        """First-UIP learning: the learned clause (asserting literal first) and the level to jump back to."""
        level = self._level()
        seen = [False] * (self.num_vars + 1)
        learned: list[int] = []
        pending = 0
        clause = self.clauses[conflict]
        index = len(self.trail) - 1
        uip: int | None = None
        while True:
            for lit in clause:
                var = abs(lit)
                if uip is not None and var == abs(uip):
                    continue
                if not seen[var] and self.level_of[var] > 0:
                    seen[var] = True
                    self._bump(var)
                    if self.level_of[var] == level:
                        pending += 1
                    else:
                        learned.append(lit)
            while not seen[abs(self.trail[index])]:
                index -= 1
            uip = self.trail[index]
            index -= 1
            pending -= 1
            if pending == 0:
                break
            reason = self.reason[abs(uip)]
            assert reason is not None
            clause = self.clauses[reason]
        learned.insert(0, -uip)
        back = max((self.level_of[abs(lit)] for lit in learned[1:]), default=0)
        if len(learned) > 1:  # watch the literal of the backjump level second
            k = max(range(1, len(learned)), key=lambda j: self.level_of[abs(learned[j])])
            learned[1], learned[k] = learned[k], learned[1]
        self.increment /= self.decay
        return learned, back

    def _decision_clause(self, conflict: int) -> tuple[list[int], int]:
        """No learning: "not all of the current decisions", the last one first (it flips at the level
        before), as chronological backtracking does; the conflict's variables are bumped as in CDCL."""
        for lit in self.clauses[conflict]:
            if self.level_of[abs(lit)] > 0:
                self._bump(abs(lit))
        self.increment /= self.decay
        decisions = [self.trail[start] for start in self.trail_lim]
        return [-lit for lit in reversed(decisions)], self._level() - 1

    def _bump(self, var: int) -> None:
        self.activity[var] += self.increment
        if self.activity[var] > 1e100:
            self.activity = [a * 1e-100 for a in self.activity]
            self.increment *= 1e-100

    def _backjump(self, to: int) -> None:
        if self._level() <= to:
            return
        for lit in reversed(self.trail[self.trail_lim[to]:]):
            var = abs(lit)
            if not self.keep_phase[var]:
                self.phase[var] = lit > 0
            self.value[var] = 0
            self.reason[var] = None
        del self.trail[self.trail_lim[to]:]
        del self.trail_lim[to:]
        self.head = len(self.trail)

    def _decide(self) -> int | None:
        best, best_activity = 0, -1.0
        for var in range(1, self.num_vars + 1):
            if self.value[var] == 0 and self.activity[var] > best_activity:
                best, best_activity = var, self.activity[var]
        if not best:
            return None
        return best if self.phase[best] else -best

    # ------------------------------------------------------------------ the search

    def solve(self, max_conflicts: int | None = None, max_events: int | None = None,
              deadline: float | None = None, stop: Callable[[], bool] | None = None) -> bool | None:
        """Search; True (``model()`` holds the assignment), False (unsatisfiable: ``learned`` ends with the
        empty clause) or None when ``max_conflicts``, ``max_events``, ``deadline`` (a ``time.monotonic()``
        value) or ``stop()`` ended it first."""
        if self.empty:
            self.learned.append(())
            return False
        for index in self.units:
            lit = self.clauses[index][0]
            value = self._lit_value(lit)
            if value == -1:
                if self.record:
                    self.events.append(Event("conflict", 0, clause=self.shown[index]))
                self.learned.append(())
                return False
            if value == 0:
                self._assign(lit, index)
        next_restart, restart_count = self.restart_base * _luby(1), 1
        since_restart = 0
        while True:
            conflict = self._propagate()
            if conflict is not None:
                self.conflicts += 1
                since_restart += 1
                if self.record:
                    self.events.append(Event("conflict", self._level(), clause=self.shown[conflict]))
                if self._level() == 0:
                    self.learned.append(())
                    return False
                learned, back = (self._analyse(conflict) if self.learning == "first-uip"
                                 else self._decision_clause(conflict))
                self.learned.append(tuple(learned))
                if self.record:
                    self.events.append(Event("learn", self._level(), clause=tuple(learned), to_level=back))
                    self.events.append(Event("backjump", self._level(), to_level=back))
                self._backjump(back)
                index = self._add(learned) if len(learned) > 1 else self._add_unit(learned)
                self._assign(learned[0], index)
                if max_conflicts is not None and self.conflicts >= max_conflicts:
                    return None
                continue
            if (max_events is not None and len(self.events) >= max_events) or (
                    deadline is not None and time.monotonic() > deadline) or (stop is not None and stop()):
                return None
            if since_restart >= next_restart and self._level() > 0:
                restart_count += 1
                next_restart, since_restart = self.restart_base * _luby(restart_count), 0
                self.restarts += 1
                if self.record:
                    self.events.append(Event("restart", self._level(), to_level=0))
                self._backjump(0)
                continue
            choice = self._decide()
            if choice is None:
                return True
            lit = choice
            self.decisions += 1
            self.trail_lim.append(len(self.trail))
            if self.record:
                self.events.append(Event("decide", self._level(), lit))
            self._assign(lit, None)

    def _add_unit(self, learned: list[int]) -> int:
        index = len(self.clauses)
        self.clauses.append(list(learned))
        self.shown.append(tuple(learned))
        return index

    def model(self) -> list[int]:
        """The assignment found by the last ``solve()`` that returned True."""
        return [v if self.value[v] > 0 else -v for v in range(1, self.num_vars + 1)]

    def stats(self) -> dict[str, int]:
        return {"decisions": self.decisions, "propagations": self.propagations, "conflicts": self.conflicts,
                "restarts": self.restarts, "learned": len(self.learned)}


# ---------------------------------------------------------------------------------------- traces


def _problem(problem: Problem | int) -> Problem:
    problem = problem if isinstance(problem, Problem) else Problem(problem)
    if problem.n > MAX_TRACE_N:
        raise InputError(f"a trace is for boards up to n = {MAX_TRACE_N} (it writes every step); "
                         f"n = {problem.n} is too big: use solve for it")
    return problem


def trace(problem: Problem | int, encoding: str = "pairwise", max_events: int = DEFAULT_MAX_EVENTS,
          time_limit: float | None = None, stop: Callable[[], bool] | None = None,
          learning: str = "first-uip") -> Trace:
    """Solve ``problem`` with the kit's own CDCL solver and keep every step (see :class:`Event`).

    Status ``solved`` (``queens`` verified), ``infeasible``, or ``timeout`` when ``max_events`` or
    ``time_limit`` ended the trace first.  ``learning="decisions"`` turns clause learning off
    (:class:`Solver`).
    """
    problem = _problem(problem)
    limit = check_time_limit(time_limit)
    if isinstance(max_events, bool) or not isinstance(max_events, int) or max_events < 1:
        raise InputError(f"max_events must be a whole number of at least 1, not {max_events!r}")
    cnf = build_cnf(problem, encoding)
    top = cnf.board_vars
    solver = Solver(cnf.clauses, cnf.num_vars, prefer_true=lambda v: v <= top, learning=learning)
    deadline = time.monotonic() + limit if limit is not None else None
    answer = solver.solve(max_events=max_events, deadline=deadline, stop=stop)
    result = Trace(cnf, solver.events, Status.TIMEOUT, stats=solver.stats(), learned=solver.learned)
    if answer is True:
        queens = cnf.decode(solver.model())
        if not verify(problem.n, queens) or not set(problem.preplaced) <= set(queens):
            raise AssertionError(f"the kit's CDCL returned a board that does not verify: {queens}")
        result.status, result.queens = Status.SOLVED, sorted(queens)
    elif answer is False:
        result.status = Status.INFEASIBLE
    else:
        del result.events[max_events:]
        result.note = (f"stopped after {max_events:,} events" if deadline is None
                       or time.monotonic() <= deadline else f"stopped at the {limit:g} s limit")
    return result


def trace_cadical(problem: Problem | int, encoding: str = "pairwise", max_events: int = DEFAULT_MAX_EVENTS) -> Trace:
    """The trail of a real solver: CaDiCaL 1.9.5 (through python-sat's IPASIR-UP interface) reports every
    assignment, new decision level and backtrack.  Decisions and propagations are told apart by the new
    level before them; the clauses behind them stay inside CaDiCaL, so these events carry no clause, and a
    conflict shows only as the backjump it causes."""
    problem = _problem(problem)
    get_solver("sat", "pysat-cadical").require()
    try:
        from pysat.engines import Propagator
    except ImportError:
        raise InputError("this python-sat has no pysat.engines (CaDiCaL 1.9.5's IPASIR-UP); install "
                         "python-sat 1.9 or newer, or trace with the kit's own solver") from None
    from pysat.solvers import Solver as PysatSolver

    cnf = build_cnf(problem, encoding)
    events: list[Event] = []

    class Watch(Propagator):
        def __init__(self) -> None:
            self.level = 0
            self.fresh = False

        def on_assignment(self, lit: int, fixed: bool = False) -> None:
            if len(events) < max_events:
                kind = "decide" if self.fresh else "propagate"
                events.append(Event(kind, 0 if fixed else self.level, lit))
            self.fresh = False

        def on_new_level(self) -> None:
            self.level += 1
            self.fresh = True

        def on_backtrack(self, to: int) -> None:
            if len(events) < max_events:
                events.append(Event("backjump", self.level, to_level=to))
            self.level = to

        def check_model(self, model: list[int]) -> bool:
            return True

        def decide(self) -> int:
            return 0

        def propagate(self) -> list[int]:
            return []

        def provide_reason(self, lit: int) -> list[int]:
            return []

        def add_clause(self) -> list[int]:
            return []

        def has_clause(self) -> bool:
            return False

    with PysatSolver(name="cadical195", bootstrap_with=cnf.clauses) as sat:
        watch = Watch()
        sat.connect_propagator(watch)
        for var in range(1, cnf.num_vars + 1):
            sat.observe(var)
        answer = sat.solve()
        stats = {k: int(v) for k, v in sat.accum_stats().items()}
        model = sat.get_model() if answer else None
        sat.disconnect_propagator()
    result = Trace(cnf, events, Status.SOLVED if answer else Status.INFEASIBLE, stats=stats, engine="cadical")
    if model is not None:
        queens = cnf.decode(model)
        if not verify(problem.n, queens):
            raise AssertionError(f"CaDiCaL returned a board that does not verify: {queens}")
        result.queens = sorted(queens)
    if len(events) >= max_events:
        result.note = f"the first {max_events:,} events are kept"
    return result
