"""Exercises that check reasoning: a student's learned clause or proof lemma, judged and explained.

- :func:`check_first_uip`: the clause a CDCL solver learns at one conflict of a trace, read off the drawn
  implication graph.  Any order of the literals is accepted, each written as the kit's name (``¬P[3,5]``,
  ``-P[3,5]``, ``~P[3,5]``, ``not P[3,5]``, ``h4``) or as a DIMACS integer; a wrong clause gets the flaw
  that makes it wrong: a literal not in the graph, a literal of the wrong sign, a set that is not a cut
  (with a path that avoids it), more than one literal of the conflict level (not asserting), a cut at
  another UIP, a reason-side literal with no edge across the cut, or the decision clause (the negation of
  every decision: implied, but cut at the decisions, not at the first UIP).
- :func:`check_rup_lemma`: a lemma of a clausal proof, which must follow from the formula and the earlier
  lemmas by reverse unit propagation (assume every literal false, propagate, reach a false clause).  When
  it does not, the checker says whether the lemma is false (with an assignment of the formula that falsifies
  it) or true but beyond unit propagation alone (and where propagation stops).  A clause the formula already
  holds (or one that contains such a clause) is no lemma: the checker says so.

>>> from nqueens_kit.inside.cdcl import conflict_steps, implication_graph, trace
>>> t = trace(4)
>>> step = conflict_steps(t)[0]
>>> learned = [t.cnf.literal_name(lit) for lit in implication_graph(t, step).learned]
>>> bool(check_first_uip(t, step, reversed(learned)))
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..errors import InputError
from ..inside.cdcl import ImplicationGraph, Trace, conflict_steps, implication_graph, trail_at
from ..inside.propagation import propagate
from ..methods.sat.cnf import CNF
from .answers import Verdict
from .answers import clause as read_clause


def parse_clause(cnf: CNF, answer: object) -> tuple[int, ...]:
    """A student's clause as DIMACS literals: a list of literals (names such as ``¬P[1,2]`` or ``h4``, or
    whole numbers, NumPy integers too), or one string joined by ``∨``, ``or``, ``,`` or ``|``.  Raises
    ``ValueError`` (an :class:`~nqueens_kit.course.answers.AnswerError`) with a reason a student can act on.

    >>> import numpy as np
    >>> from nqueens_kit import build_cnf
    >>> parse_clause(build_cnf(4), ["¬P[1,1]", np.int64(7)])
    (-1, 7)
    """
    return read_clause(answer, cnf)


def _names(cnf: CNF, lits: Iterable[int]) -> str:
    return " ∨ ".join(cnf.literal_name(lit) for lit in lits) or "the empty clause"


def _path_avoiding(graph: ImplicationGraph, blocked: set[int]) -> list[int] | None:
    """A path of the graph from a source (a node nothing points to) to κ (0) that avoids ``blocked``."""
    into: set[int] = {b for _, b in graph.edges}
    sources = [lit for lit, _, _ in graph.nodes if lit not in into and lit not in blocked]
    parent: dict[int, int | None] = {s: None for s in sources}
    todo = list(sources)
    out: dict[int, list[int]] = {}
    for a, b in graph.edges:
        out.setdefault(a, []).append(b)
    while todo:
        node = todo.pop()
        for nxt in out.get(node, []):
            if nxt in parent or nxt in blocked:
                continue
            parent[nxt] = node
            if nxt == 0:
                path: list[int] = []
                at: int | None = 0
                while at is not None:
                    path.append(at)
                    at = parent[at]
                return path[::-1]
            todo.append(nxt)
    return None


def check_first_uip(result: Trace, step: int | None, answer: object) -> Verdict:
    """Whether ``answer`` is the first-UIP clause learned at the conflict ``result.events[step]`` (None:
    the first analysed conflict), read off its implication graph (:func:`~nqueens_kit.inside.cdcl.implication_graph`).
    """
    if not isinstance(result, Trace):
        raise InputError(f"check_first_uip takes a trace (nqueens_kit.inside.cdcl.trace), not {type(result).__name__}")
    if step is not None and step not in conflict_steps(result):
        raise InputError(f"step {step} is not an analysed conflict of this trace; conflicts: "
                         f"{conflict_steps(result)[:10]}")
    cnf = result.cnf
    graph = implication_graph(result, step)
    try:
        clause = parse_clause(cnf, answer)
    except ValueError as exc:
        return Verdict(False, f"Not yet: {exc}.")
    name = cnf.literal_name
    if not clause:
        return Verdict(False, "Not yet: the empty clause would say the formula is unsatisfiable; this conflict "
                              "is at level > 0, so the learned clause has at least one literal.")
    lits = set(clause)
    both = sorted({abs(lit) for lit in lits if -lit in lits})
    if both:
        lit = both[0]
        return Verdict(False, f"Not yet: the clause holds both {name(lit)} and {name(-lit)}: a tautology, "
                              "which a cut never gives (each literal is the negation of one node).")
    at = conflict_steps(result)[0] if step is None else step
    trail = trail_at(result, at - 1)
    decisions = [lit for lit, _, reason in trail if reason is None]
    if lits == {-d for d in decisions} and lits != set(graph.learned):
        same = (", the conflict level's decision itself: at that level the two cuts agree, but the earlier levels "
                "are cut at their decisions, not at the literals with an edge into the conflict side"
                if graph.uip in decisions else "")
        return Verdict(False, f"Not yet: {_names(cnf, clause)} is the decision clause, the negation of every "
                              "decision: it is implied (these decisions lead to the conflict), and it is what a "
                              "solver without learning records, but it cuts the graph at the decisions, not right "
                              f"behind the first UIP.  The first UIP is {name(graph.uip)}{same}; the first-UIP "
                              f"clause negates it and the earlier-level literals with an edge into the conflict "
                              f"side, {_count(len(graph.learned), 'literal')} in all.", counterexample=tuple(clause))
    level = {lit: lev for lit, lev, _ in graph.nodes}
    set_at = {lit: lev for lit, lev, _ in trail}
    for lit in clause:
        if lit in level:  # the node itself, not its negation
            return Verdict(False, f"Not yet: {name(lit)} is true at the conflict (a node of the graph); the "
                                  f"learned clause negates the nodes it is made of: write {name(-lit)}.",
                           counterexample=lit)
        if -lit not in level:
            where = (f"it was set at level {set_at[-lit]}, but the graph holds only the conflict level's literals "
                     "that reach κ and the earlier literals with an edge into them" if -lit in set_at else
                     "it is not even true at the conflict")
            return Verdict(False, f"Not yet: {name(-lit)} is not a node of this conflict's implication graph "
                                  f"({where}), so its negation has no place in the first-UIP clause.",
                           counterexample=lit)
    chosen = {-lit for lit in clause}
    path = _path_avoiding(graph, chosen)
    if path is not None:
        shown = " → ".join("κ" if node == 0 else name(node) for node in path)
        return Verdict(False, f"Not yet: not a cut: the path {shown} reaches the conflict without passing "
                              "through any literal of your clause, so your literals do not imply the conflict.",
                       counterexample=tuple(path))
    wrong_side = sorted(chosen & graph.conflict_side, key=abs)
    top = [node for node in chosen if level[node] == graph.level]
    if len(top) > 1:
        extra = (f"; {name(-wrong_side[0])} negates a node on the conflict side of the first UIP, which the cut "
                 "leaves out" if wrong_side else "")
        return Verdict(False, f"Not asserting: it has {len(top)} literals of the conflict level "
                              f"({', '.join(name(-n) for n in top)}){extra}; the first-UIP clause has exactly one, "
                              "so that after the backjump it becomes unit.")
    if top and top[0] != graph.uip:
        return Verdict(False, f"Not yet: a cut, and asserting, but its conflict-level literal {name(-top[0])} negates "
                              f"{name(top[0])}, which is a UIP farther from κ than the first UIP, {name(graph.uip)}: "
                              "cut right behind the UIP closest to the conflict.")
    expected = set(graph.learned)
    if lits != expected:
        crossing = {a for a, _ in graph.cut_edges()}
        loose = sorted(chosen - crossing, key=abs)
        if loose:
            return Verdict(False, f"Not yet: {name(loose[0])} is on the reason side but has no edge across the "
                                  "first-UIP cut: the learned clause holds only literals whose nodes point into "
                                  "the conflict side or κ.", counterexample=-loose[0])
    return Verdict(True, f"Correct: {_names(cnf, graph.learned)} — the cut behind the first UIP "
                         f"{name(graph.uip)}; after the backjump to level "
                         f"{max((level[-lit] for lit in graph.learned if level[-lit] < graph.level), default=0)} "
                         f"it forces {name(-graph.uip)}.")


def _assignment_text(cnf: CNF, model: Sequence[int]) -> str:
    queens = [cnf.problem.cell(lit) for lit in model if 0 < lit <= cnf.board_vars]
    return "queens on " + (", ".join(f"({r},{c})" for r, c in sorted(queens)) or "no cell")


def check_rup_lemma(cnf: CNF, earlier: Sequence[Sequence[int]], answer: object) -> Verdict:
    """Whether ``answer`` follows by reverse unit propagation from the clauses of ``cnf`` and the ``earlier``
    lemmas: assuming every literal of it false, unit propagation reaches a clause with every literal false."""
    if not isinstance(cnf, CNF):
        raise InputError(f"check_rup_lemma takes the formula (build_cnf(...)), not {type(cnf).__name__}")
    try:
        lemma = parse_clause(cnf, answer)
        before = [parse_clause(cnf, each) for each in earlier]
    except ValueError as exc:
        return Verdict(False, f"Not yet: {exc}.")
    name = cnf.literal_name
    if any(-lit in lemma for lit in lemma):
        return Verdict(True, "Correct, but trivially: the clause holds a literal and its negation, so it is "
                             "always true and RUP for free; it tells the checker nothing.")
    held = set(lemma)
    stated = next((c for c in cnf.clauses if set(c) <= held), None)
    if stated is not None:  # RUP at once, but a lemma must say something the formula does not state
        if set(stated) == held:
            return Verdict(False, f"Not yet: {_names(cnf, lemma)} is already a clause of the formula, not a learned "
                                  "lemma: a lemma states something the formula does not say outright.",
                           counterexample=tuple(stated))
        return Verdict(False, f"Not yet: your clause holds the formula's clause {_names(cnf, stated)} and more: it "
                              "is that clause weakened, already in the formula in effect, not a learned lemma (a "
                              "lemma states something the formula does not say outright).",
                       counterexample=tuple(stated))
    clauses = [tuple(c) for c in cnf.clauses] + before
    done = propagate(clauses, [-lit for lit in lemma])
    if done.conflict is not None:
        failed = _names(cnf, done.conflict) if done.conflict else "one of your literals against a unit fact"
        negated = ", ".join(name(-lit) for lit in lemma) or "nothing assumed"
        return Verdict(True, f"Correct: from {negated} (the lemma false), unit propagation sets "
                             f"{_count(len(done.trail), 'literal')} and makes {failed} false: a RUP lemma.")
    import pycosat  # a dependency of the kit

    model = pycosat.solve([list(c) for c in clauses] + [[-lit] for lit in lemma])
    if model != "UNSAT":
        assert isinstance(model, list)
        return Verdict(False, f"Not yet: not implied at all: {_assignment_text(cnf, model)} satisfies the formula "
                              f"{'and the earlier lemmas ' if before else ''}and makes {_names(cnf, lemma)} false.",
                       counterexample=tuple(model))
    if not lemma:
        return Verdict(False, "Not yet: the empty clause is RUP only once propagation alone refutes the formula"
                              f"{' with the earlier lemmas' if before else ''}; here it stops with no clause false.  "
                              "The empty clause comes last, after the lemmas that make propagation fail.")
    set_cells = [lit for lit, _ in done.trail if abs(lit) <= cnf.board_vars]
    # An unsatisfiable formula implies every clause, so "true" alone would praise any guess there.
    why = ("follows only because the formula has no model at all (every clause follows from an unsatisfiable "
           "formula)" if pycosat.solve([list(c) for c in clauses]) == "UNSAT" else "true (the formula implies it)")
    return Verdict(False, f"Not yet: {why}, but not by unit propagation alone: assuming it false, propagation "
                          f"stops after setting {_count(len(done.trail), 'literal')} "
                          f"({_count(len(set_cells), 'board cell')} among them) with no clause false.  "
                          "Prove another lemma first, which propagation can then use.",
                   counterexample=tuple(lit for lit, _ in done.trail))


def _count(k: int, noun: str) -> str:
    """``k`` and ``noun``, plural unless ``k`` is one."""
    return f"{k} {noun}" if k == 1 else f"{k} {noun}s"


__all__ = ["check_first_uip", "check_rup_lemma", "parse_clause"]
