"""Resolution by hand: one step (:func:`resolve`) and a whole refutation checked step by step
(:func:`check_resolution_proof`).

Φ₂, the kit's formula for 2-queens (``build_cnf(2).clauses``), has the variables 1 .. 4 = P[1,1], P[1,2],
P[2,1], P[2,2] (cell (r, c) is variable (r - 1)·2 + c) and ten clauses: each row and each column has a queen
(P[1,1] ∨ P[1,2], ...) and no two queens share a row, a column or a diagonal (¬P[1,1] ∨ ¬P[1,2], ...).  A
refutation in five steps:

1. column 1, P[1,1] ∨ P[2,1], and the diagonal, ¬P[1,1] ∨ ¬P[2,2], give P[2,1] ∨ ¬P[2,2];
2. row 2, P[2,1] ∨ P[2,2], and that give P[2,1]: row 2's queen can only be on (2,1);
3. row 1, P[1,1] ∨ P[1,2], and the anti-diagonal, ¬P[1,2] ∨ ¬P[2,1], give P[1,1] ∨ ¬P[2,1];
4. that and column 1's ¬P[1,1] ∨ ¬P[2,1] give ¬P[2,1]: row 1's queen, on either cell, attacks (2,1);
5. P[2,1] and ¬P[2,1] give the empty clause.

None is shorter: the empty clause needs two opposite units, Φ₂ has no unit, and no two of its clauses
resolve to one (each clause is all positive or all negative, so two that clash share no literal to keep);
the tests search every proof of four steps and find none.

>>> proof = [([1, 3], [-1, -4], [3, -4]), ([3, 4], [3, -4], [3]),
...          (["P[1,1]", "P[1,2]"], ["¬P[1,2]", "¬P[2,1]"], ["P[1,1]", "¬P[2,1]"]),
...          (["P[1,1]", "¬P[2,1]"], ["¬P[1,1]", "¬P[2,1]"], ["¬P[2,1]"]), ([3], [-3], [])]
>>> check_resolution_proof(proof)  # doctest: +NORMALIZE_WHITESPACE
Correct: a refutation of Φ₂ in 5 steps: every step resolves two clauses of the formula or earlier resolvents
on one variable, and the last one derives the empty clause, so Φ₂ has no model.
>>> check_resolution_proof(proof[:2] + [([3], [-3], [])])
Not yet: step 3: [-3] (¬P[2,1]) is neither a clause of Φ₂ nor the resolvent of an earlier step.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..errors import InputError
from ..methods.sat.cnf import CNF, build_cnf
from ..problem.board import shown
from .answers import AnswerError, Verdict, clause, given, items

#: The boards whose formula Φ_n has no model, so that a refutation exists.
REFUTABLE_N = (2, 3)
_SUBSCRIPTS = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


def _clashes(a: set[int], b: set[int]) -> list[int]:
    """The variables ``a`` and ``b`` hold with opposite signs, smallest first."""
    return sorted({abs(lit) for lit in a if -lit in b})


def resolve(first: Sequence[int], second: Sequence[int]) -> list[int]:
    """The resolvent of two clauses (lists of DIMACS literals): everything but the one variable they contain
    with opposite signs.  A one-line error says when there is no such variable, or more than one (the
    resolvent would be true in every assignment, so it proves nothing).

    >>> resolve([1, 2], [-1, 3]), resolve([4], [-4])
    ([2, 3], [])
    """
    a, b = set(clause(first)), set(clause(second))
    clashes = _clashes(a, b)
    if not clashes:
        raise InputError(f"{list(a)} and {list(b)} contain no variable with opposite signs: there is nothing to "
                         "resolve on")
    if len(clashes) > 1:
        raise InputError(f"{list(a)} and {list(b)} clash on {len(clashes)} variables ({clashes}); resolving on one "
                         "of them leaves a clause that is always true")
    pivot = clashes[0]
    return sorted((a | b) - {pivot, -pivot}, key=lambda lit: (abs(lit), lit))


def _formula(n: object, cnf: object) -> tuple[list[frozenset[int]], CNF | None, int, str]:
    """The clauses to refute, the formula whose names literals may use, its number of variables, its name."""
    if cnf is not None and n is not None:
        raise InputError("check_resolution_proof takes n (the formula Φ_n of n-queens) or cnf, not both")
    if cnf is None:
        if n is None:
            n = 2
        if type(n) is not int or n not in REFUTABLE_N:
            raise InputError(f"n is 2 or 3, the boards whose formula Φ_n has no model (every other n has a "
                             f"board, so no refutation exists), not {shown(n)}")
        built = build_cnf(n)
        return ([frozenset(c) for c in built.clauses], built, built.num_vars,
                f"Φ{str(n).translate(_SUBSCRIPTS)}")
    if isinstance(cnf, CNF):
        return [frozenset(c) for c in cnf.clauses], cnf, cnf.num_vars, "the formula"
    listed = items(cnf)
    try:
        if listed is None:
            raise AnswerError(f"not {given(cnf)}")
        clauses = [frozenset(clause(c)) for c in listed]
    except AnswerError as error:
        raise InputError(f"cnf is a formula (build_cnf(...)) or a list of clauses of DIMACS literals; {error}") \
            from None
    return clauses, None, max((abs(lit) for c in clauses for lit in c), default=0), "the formula"


def check_resolution_proof(steps: object, *, n: int | None = None, cnf: CNF | Iterable[Iterable[int]] | None = None) \
        -> Verdict:
    """Check a refutation by resolution of Φ₂ (``n=3``: of Φ₃; ``cnf``: of another unsatisfiable formula, a
    :class:`~nqueens_kit.methods.sat.cnf.CNF` or a list of clauses).

    ``steps`` is a list of ``(first, second, resolvent)`` triples, each clause a list, tuple or set of
    literals: non-zero whole numbers (DIMACS; NumPy integers too) or, for a formula of the kit, names such as
    ``"P[1,2]"``, ``"¬P[1,2]"``, ``"-P[1,2]"``, ``"~P[1,2]"``.  Each ``first`` and ``second`` must be a clause of
    the formula or the resolvent of an earlier step (clauses compared as sets); ``resolvent`` must be their
    resolvent on the one variable they hold with opposite signs (two such variables leave only a clause that
    is always true: no step); the last resolvent must be the empty clause.  A wrong proof gets its first wrong
    step, named, as ``counterexample`` (the step's number, from 1).
    """
    formula, names, top, called = _formula(n, cnf)
    known = set(formula)
    later: dict[frozenset[int], int] = {}

    def show(lits: Iterable[int]) -> str:
        listed = sorted(lits, key=lambda lit: (abs(lit), lit))
        if not listed:
            return "the empty clause"
        if names is None:
            return str(listed)
        return f"{listed} ({' ∨ '.join(names.literal_name(lit) for lit in listed)})"

    listed = items(steps)
    if listed is None:
        return Verdict(False, f"Not yet: give the proof as a list of steps (first, second, resolvent), not "
                              f"{given(steps)}.", None)
    if not listed:
        return Verdict(False, "Not yet: the proof has no steps; a refutation ends with a step that derives the "
                              "empty clause.", None)
    read: list[tuple[set[int], set[int], set[int]]] = []
    for k, step in enumerate(listed, 1):
        triple = items(step, sets=False)
        if triple is None or len(triple) != 3:
            return Verdict(False, f"Not yet: step {k} is (first, second, resolvent), three clauses, not "
                                  f"{given(step)}.", k)
        try:
            a, b, r = (set(clause(c, names, top)) for c in triple)
        except AnswerError as error:
            return Verdict(False, f"Not yet: step {k}: {error}.", k)
        read.append((a, b, r))
        later.setdefault(frozenset(r), k)
    for k, (a, b, r) in enumerate(read, 1):
        for parent in (a, b):
            if frozenset(parent) not in known:
                when = later.get(frozenset(parent))
                note = (f" (step {when} derives it, later: a step uses only what the steps before it derive)"
                        if when is not None and when >= k else "")
                return Verdict(False, f"Not yet: step {k}: {show(parent)} is neither a clause of {called} nor the "
                                      f"resolvent of an earlier step{note}.", k)
        clashes = _clashes(a, b)
        if not clashes:
            return Verdict(False, f"Not yet: step {k}: {show(a)} and {show(b)} hold no variable with opposite "
                                  "signs: there is nothing to resolve on.", k)
        if len(clashes) > 1:
            pair = " and ".join(names.literal_name(v) if names is not None else str(v) for v in clashes[:2])
            return Verdict(False, f"Not yet: step {k}: {show(a)} and {show(b)} clash on {len(clashes)} variables "
                                  f"({pair}): resolving on one leaves the other with both signs, a clause that is "
                                  "always true, so there is no useful resolvent.", k)
        pivot = clashes[0]
        right = (a | b) - {pivot, -pivot}
        if r != right:
            on = names.literal_name(pivot) if names is not None else str(pivot)
            if {pivot, -pivot} & r:
                why = "both literals of the variable resolved on go"
            elif right - r:
                why = f"{show(sorted(right - r))} is lost, yet every other literal of both clauses stays"
            else:
                why = f"{show(sorted(r - right))} is in neither clause"
            return Verdict(False, f"Not yet: step {k}: resolving {show(a)} and {show(b)} on {on} gives "
                                  f"{show(right)}, not {show(r)}: {why}.", k)
        known.add(frozenset(r))
    last = read[-1][2]
    if last:
        first_empty = next((k for k, (_, _, r) in enumerate(read, 1) if not r), None)
        end = f" (step {first_empty} already derived it: end the proof there)" if first_empty else ""
        return Verdict(False, f"Not yet: every step is a correct resolution, but the last one derives {show(last)}, "
                              f"not the empty clause{end}: a refutation ends by resolving two opposite units.",
                       len(read))
    return Verdict(True, f"Correct: a refutation of {called} in {len(read)} step{'s' if len(read) != 1 else ''}: "
                         "every step resolves two clauses of the formula or earlier resolvents on one variable, and "
                         f"the last one derives the empty clause, so {called} has no model.")


__all__ = ["check_resolution_proof", "resolve"]
