"""What constraint propagation deduces on the integer model: n variables q[r] (the column of row r's queen)
under AllDifferent on q, on q[r] + r and on q[r] - r.

A CP solver keeps a *domain* per variable and lets each constraint remove the values it cannot support.
How much a constraint removes is its *consistency*:

- ``ac`` (arc consistency on the binary decomposition: each AllDifferent written as its pairwise ≠
  constraints, propagated to a fixpoint): a row whose domain is one column rules that column and its two
  diagonals out of every other row, and a row emptied or fixed by that goes on doing the same.  On the board
  this is what unit propagation of the pairwise clauses does for the rows' queens (chapter 7).  This is
  *not* forward checking proper, which prunes once, from the variables the search has assigned: a fixpoint
  over all fixed rows prunes at least as much.  ``forward``, the name this level had before, is kept as an
  alias of ``ac``.
- ``gac`` (generalized arc consistency of each AllDifferent, Régin 1994): a column stays in a row's domain
  only if the constraint can still give every row a different value with that choice, which a bipartite
  matching decides.  It sees Hall sets: two rows left with the same two columns take those columns from
  every other row, a deduction no ≠ between two rows can make.

:func:`domains` propagates the three AllDifferents to a fixpoint at either consistency; :func:`cp_strength`
compares both against unit propagation on the board (:func:`~nqueens_kit.inside.propagation.deduced`) and
against the truth (the cells no completion uses) for random placements, like
:func:`~nqueens_kit.inside.propagation.strength`.

>>> d = domains(Problem(5, [(2, 2)]), "ac")
>>> [sorted(d.domains[r]) for r in (1, 3, 4, 5)]
[[4, 5], [4, 5], [1, 3, 5], [1, 3, 4]]
>>> d = domains(Problem(5, [(2, 2)]), "gac")
>>> [sorted(d.domains[r]) for r in (1, 3, 4, 5)]
[[4, 5], [4, 5], [1, 3], [1, 3]]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TypedDict

from ..errors import InputError
from ..problem.board import Cell, Problem
from ..problem.instances import random_preplacement
from .propagation import deduced, truth

#: The consistencies :func:`domains` can enforce.
CONSISTENCIES = ("ac", "gac")
#: Older names still accepted: ``forward`` is ``ac`` (it was never forward checking proper, see above).
ALIASES = {"forward": "ac"}
#: The three AllDifferents: each maps (row, column) to the value it must keep distinct.
SHIFTS = {"columns": 0, "anti-diagonals": 1, "diagonals": -1}


@dataclass
class Domains:
    """Where propagation ends: the column domain of every row (empty: a conflict), and ``revisions``, the
    values each constraint was asked to support (the work)."""

    domains: dict[int, set[int]]
    conflict: bool = False
    revisions: int = 0
    removed_by: dict[str, int] = field(default_factory=dict)

    def ruled_out(self, n: int) -> set[Cell]:
        """The board cells no longer in their row's domain."""
        return {(r, c) for r in range(1, n + 1) for c in range(1, n + 1) if c not in self.domains.get(r, set())}


def _matching(rows: Sequence[int], options: dict[int, list[int]]) -> dict[int, int] | None:
    """A matching of every row to a distinct value among its options (augmenting paths), or None."""
    owner: dict[int, int] = {}

    def augment(row: int, seen: set[int]) -> bool:
        for value in options[row]:
            if value in seen:
                continue
            seen.add(value)
            if value not in owner or augment(owner[value], seen):
                owner[value] = row
                return True
        return False

    for row in rows:
        if not augment(row, set()):
            return None
    return {row: value for value, row in owner.items()}


def _supported(rows: Sequence[int], options: dict[int, list[int]], row: int, value: int) -> bool:
    """Whether some matching of every row gives ``row`` the value ``value``."""
    fixed = {r: ([value] if r == row else [v for v in options[r] if v != value]) for r in rows}
    return _matching(rows, fixed) is not None


def domains(problem: Problem, consistency: str = "gac") -> Domains:
    """Propagate the three AllDifferents of the integer model of ``problem`` (pre-placed queens and blocked
    cells shrink the starting domains) to a fixpoint, at ``ac`` (arc consistency on the ≠ decomposition;
    ``forward`` is an alias) or ``gac`` consistency."""
    consistency = ALIASES.get(consistency, consistency)
    if consistency not in CONSISTENCIES:
        raise InputError(f"unknown consistency {consistency!r}; valid: {', '.join(CONSISTENCIES)}")
    n = problem.n
    fixed = dict(problem.preplaced)
    closed = set(problem.blocked)
    state = Domains({r: ({fixed[r]} if r in fixed else {c for c in range(1, n + 1) if (r, c) not in closed})
                     for r in range(1, n + 1)}, removed_by=dict.fromkeys(SHIFTS, 0))
    rows = list(range(1, n + 1))
    changed = True
    while changed and not state.conflict:
        changed = False
        for name, shift in SHIFTS.items():
            options = {r: sorted(c + shift * r for c in state.domains[r]) for r in rows}
            if consistency == "ac":
                keep = {r: set(options[r]) for r in rows}
                for r in rows:
                    if len(options[r]) == 1:
                        taken = options[r][0]
                        for other in rows:
                            if other != r and taken in keep[other]:
                                keep[other].discard(taken)
                        state.revisions += n - 1
            else:
                if _matching(rows, options) is None:
                    state.conflict = True
                    break
                keep = {r: set() for r in rows}
                for r in rows:
                    for value in options[r]:
                        state.revisions += 1
                        if _supported(rows, options, r, value):
                            keep[r].add(value)
            for r in rows:
                columns = {v - shift * r for v in keep[r]}
                if columns != state.domains[r]:
                    state.removed_by[name] += len(state.domains[r] - columns)
                    state.domains[r] = columns
                    changed = True
                if not columns:
                    state.conflict = True
            if state.conflict:
                break
    return state


class CpStrengthRow(TypedDict):
    """One (n, propagation) of :func:`cp_strength`."""

    n: int
    propagation: str
    placements: int
    dead: int
    ruled_out: int
    share: float
    impossible: int
    refuted: int


def cp_strength(ns: Sequence[int], queens: int, samples: int, seed: int = 0) -> list[CpStrengthRow]:
    """For ``samples`` random placements of ``queens`` queens per n: the dead cells (no completion uses them)
    that each propagation rules out, and the impossible placements it refutes without search, for unit
    propagation on the board (pairwise clauses), and for arc consistency on the ≠ decomposition (``ac``) and
    GAC on the integer model.  One row per (n, propagation)."""
    rows: list[CpStrengthRow] = []
    for n in ns:
        placements = [Problem(n, random_preplacement(n, queens, seed, i)) for i in range(1, samples + 1)]
        truths = [truth(p) for p in placements]
        for name in ("unit propagation", "ac", "gac"):
            dead = found = impossible = refuted = 0
            for problem, (dead_cells, _forced, feasible) in zip(placements, truths, strict=True):
                if name == "unit propagation":
                    d = deduced(problem, "pairwise")
                    conflict, ruled = d.conflict, d.ruled_out
                else:
                    state = domains(problem, name)
                    conflict, ruled = state.conflict, state.ruled_out(n)
                if not feasible:
                    impossible += 1
                    refuted += conflict
                    continue
                dead += len(dead_cells)
                found += len(ruled & dead_cells)
            rows.append({"n": n, "propagation": name, "placements": samples, "dead": dead, "ruled_out": found,
                         "share": found / dead if dead else 1.0, "impossible": impossible, "refuted": refuted})
    return rows
