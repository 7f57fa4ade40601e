"""What a traced CDCL search is made of: :class:`Event` (one step: decide, propagate, conflict, learn,
backjump, restart), :class:`Trace` (the events of one search and its outcome) and :func:`event_text` (an
event as one line).  :mod:`.cdcl` makes them and re-exports every public name here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ..methods.sat.cnf import CNF
from ..problem.board import Cell
from ..problem.results import JSON

#: The kinds of events, in the order a reader meets them.
KINDS = ("decide", "propagate", "conflict", "learn", "backjump", "restart")


@dataclass(frozen=True)
class Event:
    """One step of the search.

    ``level`` is the decision level the step happens at.  ``literal`` is the decided or propagated literal;
    ``clause`` the reason of a propagation, the false clause of a conflict, or the learned clause;
    ``to_level`` the level a backjump or restart goes back to.
    """

    kind: str
    level: int
    literal: int | None = None
    clause: tuple[int, ...] = ()
    to_level: int | None = None

    def as_dict(self) -> dict[str, JSON]:
        out: dict[str, JSON] = {"kind": self.kind, "level": self.level}
        if self.literal is not None:
            out["literal"] = self.literal
        if self.clause or self.kind in ("conflict", "learn"):
            out["clause"] = list(self.clause)
        if self.to_level is not None:
            out["to_level"] = self.to_level
        return out


@dataclass
class Trace:
    """The trace of one problem: its events, the answer, the board (verified) and the formula."""

    cnf: CNF
    events: list[Event]
    status: str
    queens: list[Cell] = field(default_factory=list)
    stats: dict[str, int] = field(default_factory=dict)
    learned: list[tuple[int, ...]] = field(default_factory=list)
    engine: str = "kit"
    note: str = ""

    def as_dict(self) -> dict[str, JSON]:
        return {"n": self.cnf.n, "encoding": self.cnf.encoding, "engine": self.engine, "status": self.status,
                "queens": [list(q) for q in self.queens], "stats": self.stats,
                "events": [e.as_dict() for e in self.events], **({"note": self.note} if self.note else {})}

    def lines(self) -> list[str]:
        return [event_text(event, self.cnf) for event in self.events]


def event_text(event: Event, cnf: CNF) -> str:
    """One event in the lectures' notation, e.g. ``propagate  L2  ¬P[3,4]  because ¬P[1,2] ∨ ¬P[3,4]``."""
    name = cnf.literal_name

    def clause(lits: Sequence[int]) -> str:
        return " ∨ ".join(name(lit) for lit in lits) if lits else "⊥ (the empty clause)"

    head = f"{event.kind:<9} L{event.level:<2}"
    if event.kind == "decide":
        return f"{head} {name(event.literal or 0)}"
    if event.kind == "propagate":
        return f"{head} {name(event.literal or 0)}" + (f"  because {clause(event.clause)}" if event.clause else "")
    if event.kind == "conflict":
        return f"{head} every literal false in {clause(event.clause)}"
    if event.kind == "learn":
        return f"{head} {clause(event.clause)}  (asserting; back to level {event.to_level})"
    return f"{head} back to level {event.to_level}"
