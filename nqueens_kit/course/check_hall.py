"""Chapter 8's reasoning check: a Hall set that prunes a domain, named by the student and checked by the kit.

After arc consistency on the ≠ decomposition (:func:`~nqueens_kit.inside.domains.domains` at ``ac``) every row
of the integer model has a domain of columns.  A *Hall set* of an AllDifferent is a set of k rows whose
domains hold, between them, exactly k values: a matching must give those k values to those k rows, so every
other row loses them.  That is the deduction generalized arc consistency makes and no ≠ between two rows can.

:func:`check_hall` takes the rows the student names and the cells (row, column) they say the set removes, and
accepts every correct answer: any Hall set (a fixed row may be in it or not) and any non-empty part of what it
removes.  A wrong one gets one line naming its flaw.

>>> placed = Problem(6, [(1, 3), (5, 1)])
>>> bool(check_hall(placed, [2, 4, 6], [(3, 4)])), bool(check_hall(placed, [2, 4], [(3, 4)]))
(True, False)
"""

from __future__ import annotations

from collections.abc import Iterable

from ..errors import InputError
from ..inside.domains import SHIFTS, Domains, domains
from ..problem.board import Cell, Problem
from .answers import AnswerError, Verdict, cells, given, items, number, whole

#: What the values of each AllDifferent are, in words.
VALUE_NAMES = {"columns": "columns", "anti-diagonals": "anti-diagonals (r + c)", "diagonals": "diagonals (c − r)"}
#: ... and one of them.
SINGULAR = {"columns": "column", "anti-diagonals": "anti-diagonal r + c =", "diagonals": "diagonal c − r ="}


def _value(constraint: str, cell: Cell) -> int:
    """The value a queen on ``cell`` gives the AllDifferent ``constraint``."""
    return cell[1] + SHIFTS[constraint] * cell[0]


def start_domains(problem: Problem) -> Domains:
    """The domains the exercise reasons from: arc consistency on the ≠ decomposition, to its fixpoint."""
    return domains(problem, "ac")


def hall_removals(problem: Problem, rows: Iterable[int], constraint: str = "columns") -> list[Cell]:
    """Every cell the rows ``rows`` remove from the other rows' domains when they are a Hall set of
    ``constraint`` (an empty list when they are not one)."""
    state, n = start_domains(problem), problem.n
    chosen = set(rows)
    values = {_value(constraint, (r, c)) for r in chosen for c in state.domains[r]}
    if len(values) != len(chosen):
        return []
    return sorted((r, c) for r in range(1, n + 1) if r not in chosen for c in state.domains[r]
                  if _value(constraint, (r, c)) in values)


def _rows(answer: object, n: int) -> list[int] | str:
    """The student's rows as a sorted list, or the flaw in one line."""
    if number(answer) is not None:
        return "name a set of rows (a list such as [3, 5]), not a single number: one row alone is not a set to match"
    listed = items(answer)
    if listed is None:
        return f"name the rows as a list of whole numbers 1 to {n}, such as [3, 5], not {given(answer)}"
    if not listed:
        return "the set of rows is empty: an empty set has no values and removes nothing"
    try:
        rows = [whole(r, "a row") for r in listed]
    except AnswerError as error:
        return f"rows are whole numbers 1 to {n}; {error}"
    if any(not 1 <= r <= n for r in rows):
        return f"the board has rows 1 to {n}; got {sorted(rows)}"
    if len(set(rows)) != len(rows):
        return f"a row is named twice in {rows}: count each row once, or the sizes compared are wrong"
    return sorted(rows)


def _cells(answer: object, n: int) -> list[Cell] | str:
    """The student's removed cells (a list of them, or one on its own), or the flaw in one line."""
    try:
        found = cells(answer, n, "the removed cells")
    except AnswerError as error:
        return str(error)
    if not found:
        return "name at least one cell (row, column) the Hall set removes: a set that removes nothing prunes nothing"
    return sorted(set(found))


def check_hall(problem: Problem, rows: object, removed: object, constraint: str = "columns") -> Verdict:
    """Whether ``rows`` form a Hall set of the AllDifferent ``constraint`` (``columns``, ``anti-diagonals`` or
    ``diagonals``) in the domains arc consistency leaves for ``problem``, and whether it removes every cell of
    ``removed`` (one (row, column) or a list of them) from a row's domain.  Rows and cells are read by the rule
    of :mod:`nqueens_kit.course.answers`: a cell may be a tuple, a list or a NumPy array, a row a NumPy
    integer."""
    if not isinstance(problem, Problem):
        raise InputError("check_hall takes the board as a Problem (e.g. Problem(6, [(1, 3)])), "
                         f"not {type(problem).__name__}")
    if constraint not in SHIFTS:
        raise InputError(f"unknown constraint {constraint!r}; valid: {', '.join(SHIFTS)}")
    n, state = problem.n, start_domains(problem)
    if state.conflict:
        raise InputError(f"{problem.describe()}: arc consistency already refutes it; pick a placement it leaves open")
    chosen = _rows(rows, n)
    if isinstance(chosen, str):
        return Verdict(False, f"Not yet: {chosen}.")
    cells = _cells(removed, n)
    if isinstance(cells, str):
        return Verdict(False, f"Not yet: {cells}.")
    what = VALUE_NAMES[constraint]
    values = sorted({_value(constraint, (r, c)) for r in chosen for c in state.domains[r]})
    if len(values) > len(chosen):
        return Verdict(False, f"Not yet: rows {chosen} are not a Hall set: between them they can take {len(values)} "
                              f"{what} {values}, more than their {len(chosen)} rows, so none is forced to them.",
                       (chosen, values))
    if len(values) < len(chosen):  # never at an arc-consistent fixpoint that found no conflict, but said if so
        return Verdict(False, f"Not yet: rows {chosen} have only {len(values)} {what} {values} for {len(chosen)} "
                              "rows: that refutes the placement, it does not prune a domain.", (chosen, values))
    prunes = hall_removals(problem, chosen, constraint)
    for r, c in cells:
        value = _value(constraint, (r, c))
        if r in chosen:
            return Verdict(False, f"Not yet: row {r} is in your Hall set; the set keeps its own {what} and takes "
                                  f"them from the rows outside it.", (r, c))
        if c not in state.domains[r]:
            return Verdict(False, f"Not yet: column {c} is no longer in row {r}'s domain {sorted(state.domains[r])} "
                                  "(arc consistency already removed it), so the Hall set has nothing to remove there.",
                           (r, c))
        if value not in values:
            return Verdict(False, f"Not yet: ({r}, {c}) is on {SINGULAR[constraint]} {value}, not one of the set's "
                                  f"{what} {values}, so the Hall set does not take it from row {r}.", (r, c))
    if not prunes:  # unreachable once a named cell passed the checks above; kept for the reasoning's sake
        return Verdict(False, f"Not yet: rows {chosen} are a Hall set but no other row has any of {values}.")
    return Verdict(True, f"Right: rows {chosen} hold exactly the {len(values)} {what} {values} between them, so a "
                         f"matching gives those to them and every other row loses them: {cells} "
                         f"(all it removes: {prunes}).")
