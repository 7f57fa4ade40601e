"""Reading a :class:`~.events.Trace` back: the board and the trail at any step (:func:`state_at`,
:func:`trail_at`), the steps that end in a conflict (:func:`conflict_steps`), and the implication graph of a
conflict with its first unique implication point (:func:`implication_graph`).  :mod:`.cdcl` re-exports every
public name here.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import InputError
from ..problem.board import Cell
from .events import Event, Trace


@dataclass
class TraceState:
    """The solver's assignment after some steps of a trace: board cells holding a queen (``queens``, of which
    ``decided`` were decisions), cells ruled out (``blocked``), the false clause if the step is a conflict,
    the learned clause if it is a learn step, and the decision level."""

    queens: list[Cell]
    decided: list[Cell]
    blocked: list[Cell]
    level: int
    conflict: tuple[int, ...] = ()
    learned: tuple[int, ...] = ()


def state_at(result: Trace, step: int) -> TraceState:
    """Replay ``result.events[:step + 1]`` (``step`` -1: before the first event)."""
    value: dict[int, tuple[bool, int, bool]] = {}  # variable -> (value, level, decided)
    level = 0
    event: Event | None = None
    for event in result.events[:max(0, step + 1)]:
        if event.kind in ("decide", "propagate") and event.literal is not None:
            if event.kind == "decide":
                level = event.level
            value[abs(event.literal)] = (event.literal > 0, event.level, event.kind == "decide")
        elif event.kind in ("backjump", "restart") and event.to_level is not None:
            level = event.to_level
            value = {v: s for v, s in value.items() if s[1] <= level}
    cnf = result.cnf
    top = cnf.board_vars
    cell = cnf.problem.cell
    state = TraceState(queens=sorted(cell(v) for v, s in value.items() if v <= top and s[0]),
                       decided=sorted(cell(v) for v, s in value.items() if v <= top and s[0] and s[2]),
                       blocked=sorted(cell(v) for v, s in value.items() if v <= top and not s[0]), level=level)
    if event is not None and step >= 0:
        if event.kind == "conflict":
            state.conflict = event.clause
        elif event.kind == "learn":
            state.learned = event.clause
    return state


@dataclass
class ImplicationGraph:
    """The implication graph of one conflict of a trace (Marques-Silva, Lynce and Malik, *Handbook of
    Satisfiability*, the CDCL chapter), cut at the first unique implication point.

    ``nodes``: the assigned literals the conflict depends on (each with its level and whether it was a
    decision), in trail order: every literal of the conflict's level from which the conflict can be
    reached, and the literals of earlier levels that feed them directly.  ``edges``: (from, to) literal
    pairs, from each false literal of a reason clause to the literal it forced; ``to`` is 0 for the
    conflict node κ.  ``uip``: the first UIP, the literal of the conflict level closest to the conflict
    through which every path from that level's decision to κ passes.  ``conflict_side``: the literals
    after it that the learning resolved away; the cut separates them (and κ) from the rest, the *reason
    side*.  ``learned``: the clause the cut gives: the negation of every reason-side literal with an edge
    across the cut; it is the clause the trace learned at this conflict.
    """

    level: int
    conflict: tuple[int, ...]
    nodes: list[tuple[int, int, bool]]
    edges: list[tuple[int, int]]
    uip: int
    conflict_side: set[int]
    learned: tuple[int, ...]

    def reason_side(self) -> list[int]:
        return [lit for lit, _, _ in self.nodes if lit not in self.conflict_side]

    def cut_edges(self) -> list[tuple[int, int]]:
        """The edges that cross the cut (reason side to conflict side or κ)."""
        inside = self.conflict_side | {0}
        return [(a, b) for a, b in self.edges if a not in inside and b in inside]


def trail_at(result: Trace, step: int) -> list[tuple[int, int, tuple[int, ...] | None]]:
    """The solver's trail after ``result.events[:step + 1]``: ``(literal, level, reason clause or None for a
    decision)`` in the order the literals were set."""
    trail: list[tuple[int, int, tuple[int, ...] | None]] = []
    for event in result.events[:max(0, step + 1)]:
        if event.kind == "decide" and event.literal is not None:
            trail.append((event.literal, event.level, None))
        elif event.kind == "propagate" and event.literal is not None:
            trail.append((event.literal, event.level, event.clause))
        elif event.kind in ("backjump", "restart") and event.to_level is not None:
            trail = [entry for entry in trail if entry[1] <= event.to_level]
    return trail


def conflict_steps(result: Trace) -> list[int]:
    """The indices of the trace's conflict events that were analysed (not the final one at level 0)."""
    return [k for k, e in enumerate(result.events) if e.kind == "conflict" and e.level > 0]


def implication_graph(result: Trace, step: int | None = None) -> ImplicationGraph:
    """The implication graph at the conflict ``result.events[step]`` (None: the first analysed conflict),
    cut at the first UIP exactly as the solver's learning does (see :class:`ImplicationGraph`)."""
    steps = conflict_steps(result)
    if step is None:
        if not steps:
            raise InputError("this trace has no conflict to analyse (it found a board without one)")
        step = steps[0]
    if step not in steps:
        raise InputError(f"step {step} is not an analysed conflict of this trace; conflicts: {steps[:10]}")
    event = result.events[step]
    trail = trail_at(result, step - 1)
    where = {abs(lit): i for i, (lit, _, _) in enumerate(trail)}
    level_of = {abs(lit): level for lit, level, _ in trail}
    reason = {abs(lit): clause for lit, _, clause in trail}
    level = event.level
    # first-UIP learning, as the solver does it: resolve the current level's literals, last set first
    seen: set[int] = set()
    learned: list[int] = []
    side: set[int] = set()
    pending, index, clause, uip = 0, len(trail) - 1, event.clause, 0
    while True:
        for lit in clause:
            var = abs(lit)
            if var == abs(uip) or var in seen or level_of[var] == 0:
                continue
            seen.add(var)
            if level_of[var] == level:
                pending += 1
            else:
                learned.append(lit)
        while abs(trail[index][0]) not in seen:
            index -= 1
        uip = trail[index][0]
        index -= 1
        pending -= 1
        if pending == 0:
            break
        side.add(uip)
        found = reason[abs(uip)]
        assert found is not None, "a decision before the first UIP"
        clause = found
    # the graph: every current-level ancestor of the conflict, and the earlier literals that feed them
    edges: list[tuple[int, int]] = []
    keep: set[int] = set()
    todo = [(0, event.clause)]
    done: set[int] = set()
    while todo:
        target, clause = todo.pop()
        for lit in clause:
            var = abs(lit)
            if var == abs(target) or level_of.get(var, 0) == 0:
                continue
            source = -lit  # the literal on the trail that made ``lit`` false
            edges.append((source, target))
            keep.add(var)
            if level_of[var] == level and var not in done and reason[var] is not None:
                done.add(var)
                todo.append((source, reason[var] or ()))
    nodes = sorted(((trail[where[v]][0], level_of[v], reason[v] is None) for v in keep), key=lambda t: where[abs(t[0])])
    edges = sorted(set(edges), key=lambda e: (where[abs(e[1])] if e[1] else len(trail), where[abs(e[0])]))
    return ImplicationGraph(level, event.clause, nodes, edges, uip, side, (-uip, *learned))
