"""The encoding checkers of chapters 1, 2 and 4: a student's clauses for a cardinality constraint, and a
closed-form clause count, each judged against what is true.

- :func:`check_at_most_one` and :func:`check_exactly_one`: a CNF encoding ``f(lits, pool)`` checked against
  every assignment of k = 1 .. 6 literals and, for k = 7 .. 24 (the commander encoding first recurses twice
  at k = 13, the product encoding at k = 17), every assignment with at most two true literals, with three up
  to k = 12, all true, and a fixed sample of the rest (helper variables allowed).  Above k = 6 this is a
  test, not a proof: an encoding could still be wrong on an assignment not tried.
- :func:`check_at_most_k`: an at-most-k encoding ``f(lits, k, pool)`` against every assignment of n = 1 .. 8
  literals, for every k from 0 to n (exhaustive on that range), then on larger n up to 30 against a fixed
  sample: exactly k and k + 1 true literals at the start, at the end and spread out, and random assignments.
- :func:`check_clause_count`: a closed-form clause count ``f(n)`` against the generated formula.

The checkers are independent of the encoder under test: a formula is judged by solving it with each
assignment of the literals forced, which says directly which assignments it allows.  Literals are read by
the rule of :mod:`nqueens_kit.course.answers` (a NumPy integer is a literal too).

>>> from nqueens_kit.methods.sat.encodings import pairwise
>>> check_at_most_one(pairwise).ok
True
"""

from __future__ import annotations

import inspect
import random
from collections.abc import Callable, Iterable, Sequence
from itertools import combinations
from itertools import product as assignments

from ..methods.sat.cnf import build_cnf
from ..methods.sat.encodings import Clause, VarPool, get_encoding
from ..problem.board import parse_n, shown
from .answers import AnswerError, Verdict, board_sizes, given, items, literal, real, same_real, student_function

#: The largest number of literals the cardinality checks try: far enough that the commander encoding
#: recurses twice (k >= 13) and the product encoding's recursion is itself a product (k >= 17).
MAX_K = 24
#: Up to this k every assignment is tried (2^6 = 64); above it, those with at most two true literals (three
#: up to THREE_K), all true, and a sample of the others.
EXHAUSTIVE_K = 6
THREE_K = 12
SAMPLE = 40
#: The largest ``max_k`` a cardinality check accepts (above it the checks take minutes, not seconds).
MAX_K_LIMIT = 32
#: :func:`check_at_most_k` tries every assignment of up to this many literals, for every k from 0 to n.
AT_MOST_K_MAX_N = 8
#: ... then these larger n (those above its ``max_n``), on a sample of assignments for a few k each.
AT_MOST_K_SAMPLED_N = (9, 10, 12, 16, 20, 25, 30)
#: Random assignments tried per n and k above the exhaustive range (besides the boundary cases).
AT_MOST_K_SAMPLE = 16
#: :func:`check_clause_count` tries boards up to this n.
CHECK_MAX_N = 30

#: A student's cardinality encoder: ``encode(lits)`` or ``encode(lits, pool)``, returning its clauses.
Encoder = Callable[..., Iterable[Iterable[int]] | None]


def _call_encoder(encode: Encoder, lits: list[int], pool: VarPool) -> object:
    """Call ``encode(lits, pool)`` or ``encode(lits)`` (a student may not need helper variables)."""
    try:
        takes_pool = len(inspect.signature(encode).parameters) >= 2
    except (TypeError, ValueError):
        takes_pool = True
    result = encode(list(lits), pool) if takes_pool else encode(list(lits))
    if result is None:
        raise TypeError("the function returned None; it should return a list of clauses")
    return result


def _read_clauses(result: object, where: str) -> list[Clause]:
    """A student's clauses as lists of DIMACS literals, or an :class:`AnswerError` saying what is wrong."""
    if result is None:
        raise AnswerError(f"your function returned None {where}; it should return a list of clauses")
    listed = items(result)
    if listed is None:
        raise AnswerError(f"your function returned {given(result)} {where}; it should return a list of clauses")
    clauses: list[Clause] = []
    for each in listed:
        lits = items(each)
        if lits is None:
            raise AnswerError(f"a clause {where} is {given(each)}, not a list of literals")
        try:
            clauses.append([literal(lit) for lit in lits])
        except AnswerError as error:
            raise AnswerError(f"a clause {where} is {shown(each)}: {error}") from None
    return clauses


def _describe(lits: Sequence[int], values: Sequence[bool]) -> str:
    return ", ".join(f"x{lit}={'T' if value else 'F'}" for lit, value in zip(lits, values, strict=True))


def _satisfiable(clauses: list[Clause], units: list[int]) -> bool:
    import pycosat

    return pycosat.solve(clauses + [[u] for u in units]) != "UNSAT"


def _check_cardinality(encode: Encoder, exact: bool, max_k: int) -> Verdict:
    what = "exactly-one" if exact else "at-most-one"
    rule = "exactly one true literal" if exact else "at most one true literal"
    # k = 1 .. max_k over 1..k, and once over scattered, unsorted ids to catch code that assumes 1..k.
    cases: list[list[int]] = [list(range(1, k + 1)) for k in range(1, max_k + 1)]
    cases.append([7, 3, 9, 5])
    for lits in cases:
        k = len(lits)
        pool = VarPool(max(lits))
        try:
            result = _call_encoder(encode, lits, pool)
        except Exception as exc:  # a student's code: report whatever it raised
            return Verdict(False, f"Not yet: your function raised {type(exc).__name__}: {exc} (for literals {lits}).",
                           (tuple(lits), None))
        try:
            clauses = _read_clauses(result, f"for literals {lits}")
        except AnswerError as error:
            return Verdict(False, f"Not yet: {error}.", (tuple(lits), None))
        for clause in clauses:
            for lit in clause:
                if abs(lit) not in lits and abs(lit) <= max(lits):
                    return Verdict(False, f"Not yet: for literals {lits} a clause uses variable {abs(lit)}, which is "
                                          "neither one of them nor a fresh helper from pool.new().",
                                   (tuple(lits), None))
                if abs(lit) > pool.top:
                    return Verdict(False, f"Not yet: for literals {lits} a clause uses variable {abs(lit)}, which "
                                          "pool did not hand out; take helper variables with pool.new().",
                                   (tuple(lits), None))
        for values in _assignments(k):
            allowed = sum(values) == 1 if exact else sum(values) <= 1
            units = [lit if value else -lit for lit, value in zip(lits, values, strict=True)]
            if _satisfiable(clauses, units) != allowed:
                said = _describe(lits, values)
                if allowed:
                    message = (f"Not yet: with k = {k} literals your clauses forbid {said}, "
                               f"which has {sum(values)} true literal(s) and should be allowed ({rule}).")
                else:
                    message = (f"Not yet: with k = {k} literals your clauses allow {said}, "
                               f"which has {sum(values)} true literals; {what} must forbid it.")
                return Verdict(False, message, (tuple(lits), tuple(values)))
    tried = (f"every assignment of 1 to {max_k} literals" if max_k <= EXHAUSTIVE_K else
             f"every assignment of 1 to {EXHAUSTIVE_K} literals; of {EXHAUSTIVE_K + 1} to {max_k} literals, every "
             "one with at most two true and a sample of the rest")
    return Verdict(True, f"Correct: these clauses allow exactly the assignments with {rule} ({tried}).")


def _assignments(k: int) -> list[tuple[bool, ...]]:
    """The assignments of k literals a cardinality check tries (see :data:`EXHAUSTIVE_K`)."""
    if k <= EXHAUSTIVE_K:
        return list(assignments((False, True), repeat=k))
    sizes = range(4) if k <= THREE_K else range(3)
    chosen = [tuple(i in ones for i in range(k)) for size in sizes for ones in combinations(range(k), size)]
    rng = random.Random(k)  # the same sample every time, so a verdict does not change from run to run
    chosen += [tuple(rng.random() < 0.5 for _ in range(k)) for _ in range(SAMPLE)]
    chosen.append((True,) * k)
    return chosen


def check_at_most_one(encode: Encoder, max_k: int = MAX_K) -> Verdict:
    """Check an at-most-one encoding ``encode(lits, pool) -> clauses`` (or ``encode(lits)``) by brute force.

    For each k = 1 .. ``max_k`` it tries the assignments of the literals (all 2^k up to k = 6; above, every one
    with at most two true literals, three up to k = 12, all true, and a sample of the rest): the clauses (with
    any helper variables taken from ``pool.new()`` left free) must be satisfiable exactly when at most one
    literal is true.  A wrong encoding gets the first assignment it gets wrong as ``counterexample``:
    ``(literals, values)``.

    >>> check_at_most_one(lambda lits: []).counterexample
    ((1, 2), (True, True))
    """
    student_function(encode, "check_at_most_one", "encode(lits, pool) -> a list of clauses")
    return _check_cardinality(encode, exact=False, max_k=parse_n(max_k, maximum=MAX_K_LIMIT, what="max_k"))


def check_exactly_one(encode: Encoder, max_k: int = MAX_K) -> Verdict:
    """Like :func:`check_at_most_one` for an exactly-one encoding (at least one and at most one).

    >>> from nqueens_kit.methods.sat.encodings import exactly_one
    >>> bool(check_exactly_one(exactly_one))
    True
    >>> check_exactly_one(lambda lits: [list(lits)]).counterexample
    ((1, 2), (True, True))
    """
    student_function(encode, "check_exactly_one", "encode(lits, pool) -> a list of clauses")
    return _check_cardinality(encode, exact=True, max_k=parse_n(max_k, maximum=MAX_K_LIMIT, what="max_k"))


def _sampled_assignments(n: int, k: int) -> list[tuple[bool, ...]]:
    """The assignments of n literals :func:`check_at_most_k` tries above its exhaustive range, for bound k:
    exactly k and k + 1 true literals at the end, at the start and spread out, none and all true, and random
    ones (a fixed seed, so that a verdict does not change from run to run)."""
    rng = random.Random(1_000 * n + k)

    def true_at(positions: Iterable[int]) -> tuple[bool, ...]:
        chosen = set(positions)
        return tuple(i in chosen for i in range(n))

    tried: list[tuple[bool, ...]] = []
    for size in (k, k + 1):
        if size > n:
            continue
        spread = [round(i * (n - 1) / (size - 1)) for i in range(size)] if size > 1 else [n - 1]
        tried += [true_at(range(n - size, n)), true_at(range(size)), true_at(spread)]
        tried += [true_at(rng.sample(range(n), size)) for _ in range(AT_MOST_K_SAMPLE // 2)]
    tried += [true_at(()), true_at(range(n))]
    tried += [tuple(rng.random() < 0.5 for _ in range(n)) for _ in range(AT_MOST_K_SAMPLE // 2)]
    return list(dict.fromkeys(tried))  # each once, in this order


def check_at_most_k(encode: Callable[..., object], max_n: int = AT_MOST_K_MAX_N) -> Verdict:
    """Check an at-most-k encoding ``encode(lits, k, pool) -> clauses`` on the assignments of its inputs.

    For every n = 1 .. ``max_n`` (at most 10) and every k = 0 .. n, and once over scattered, unsorted ids,
    each of the 2^n assignments of the literals is forced and the clauses (helpers from ``pool.new()`` left
    free) must be satisfiable exactly when at most k literals are true: exhaustive on that range.  Then, for
    the larger n of :data:`AT_MOST_K_SAMPLED_N` (up to 30) and k = 1, 2, 3, n - 1, n and 0, a sample (no k
    near n/2: the direct encoding, one clause per k + 1 literals, would write C(30, 16) clauses there):
    exactly k and k + 1 true literals at the end, at the start and spread out, none and all true, and random
    assignments, so that an encoding that reads only its first few literals is caught.  The counterexample is
    ``(literals, k, values)``.

    >>> from nqueens_kit.methods.sat.cardinality import sequential_counter
    >>> check_at_most_k(sequential_counter).ok
    True
    >>> check_at_most_k(lambda lits, k, pool: []).counterexample
    ((1, 2), 1, (True, True))
    >>> only_the_first_8 = lambda lits, k, pool: sequential_counter(lits[:8], min(k, 8), pool)
    >>> check_at_most_k(only_the_first_8).counterexample[:2]
    ((1, 2, 3, 4, 5, 6, 7, 8, 9), 1)
    """
    student_function(encode, "check_at_most_k", "encode(lits, k, pool) -> a list of clauses")
    max_n = parse_n(max_n, maximum=10, what="max_n")
    # k = 0 (no literal may be true) comes last, so that the usual off-by-one is named at k >= 1 first
    cases = [(list(range(1, n + 1)), k) for n in range(1, max_n + 1) for k in range(1, n + 1)]
    cases += [([7, 3, 9, 5], k) for k in range(1, 5)]
    cases += [(list(range(1, n + 1)), 0) for n in range(1, max_n + 1)]
    sampled = [n for n in AT_MOST_K_SAMPLED_N if n > max_n]
    cases += [(list(range(1, n + 1)), k) for n in sampled for k in sorted({1, 2, 3, n - 1, n})]
    cases += [(list(range(1, n + 1)), 0) for n in sampled]
    for lits, k in cases:
        pool = VarPool(max(lits))
        where = f"for k = {k} of literals {lits}" if len(lits) <= 10 else f"for k = {k} of literals 1 to {len(lits)}"
        try:
            result = encode(list(lits), k, pool)
        except Exception as exc:  # a student's code: report whatever it raised
            return Verdict(False, f"Not yet: your function raised {type(exc).__name__}: {exc} ({where}).",
                           (tuple(lits), k, None))
        try:
            clauses = _read_clauses(result, where)
        except AnswerError as error:
            return Verdict(False, f"Not yet: {error}.", (tuple(lits), k, None))
        stray = next((abs(lit) for clause in clauses for lit in clause
                      if abs(lit) not in lits and (abs(lit) <= max(lits) or abs(lit) > pool.top)), None)
        if stray is not None:
            return Verdict(False, f"Not yet: {where} a clause uses variable {stray}, which is neither one of them "
                                  "nor a helper handed out by pool.new().", (tuple(lits), k, None))
        tried = (assignments((False, True), repeat=len(lits)) if len(lits) <= max_n
                 else _sampled_assignments(len(lits), k))
        for values in tried:
            allowed = sum(values) <= k
            units = [lit if value else -lit for lit, value in zip(lits, values, strict=True)]
            if _satisfiable(clauses, units) != allowed:
                said = (_describe(lits, values) if len(lits) <= 10 else
                        "x" + ", x".join(str(lit) for lit, value in zip(lits, values, strict=True) if value) + " true"
                        if any(values) else "every literal false")
                plural = "s" if sum(values) != 1 else ""
                if allowed:
                    message = (f"Not yet: {where} your clauses forbid {said}, which has {sum(values)} true "
                               f"literal{plural}, no more than k = {k}: a counter that counts too high, or a bound "
                               "one too low?")
                else:
                    message = (f"Not yet: {where} your clauses allow {said}, which has {sum(values)} true "
                               f"literal{plural}, more than k = {k}: " + (
                                   "with k = 0 every literal must be false." if k == 0 else
                                   "some way of counting past k is not forbidden" + (
                                       " (are all n literals counted?)." if len(lits) > max_n else ".")))
                return Verdict(False, message, (tuple(lits), k, tuple(values)))
    above = (f"; for n = {', '.join(map(str, sampled))}, a sample (exactly k and k + 1 true literals at the start, "
             "at the end and spread out, and random assignments) agrees too" if sampled else "")
    return Verdict(True, f"Correct: for every n from 1 to {max_n} and every k from 0 to n, your clauses allow "
                         f"exactly the assignments with at most k true literals (all 2^n of them tried){above}.")


def check_clause_count(formula: Callable[[int], object], encoding: str = "pairwise",
                       ns: Iterable[int] = (*range(4, 13), 3, 2, 1)) -> Verdict:
    """Check a closed-form clause count ``formula(n)`` against the formula the kit generates.

    Boards from 4 up come first; the tiny boards 3, 2 and 1 last, with a hint, because their short lines
    (one or two cells) are where closed forms such as 3k - 4 stop applying.  A count is read by its value: an
    int, a float, a ``Fraction`` or a NumPy number, compared with ``math.isclose`` (relative and absolute
    tolerance 1e-9), so that ``n * (n - 1) * (5 * n - 1) / 3`` computed in floating point counts.

    >>> check_clause_count(lambda n: 2 * n + n * n * (n - 1) + n * (n - 1) * (2 * n - 1) // 3)
    Correct: your formula gives the number of clauses of the pairwise encoding for every n from 1 to 12.
    >>> check_clause_count(lambda n: 2 * n + n * n * (n - 1)).counterexample
    (4, 56, 84)
    """
    student_function(formula, "check_clause_count", "formula(n) -> the number of clauses")
    get_encoding(encoding)
    sizes = board_sizes(ns, "ns", CHECK_MAX_N)
    for n in sizes:
        actual = build_cnf(n, encoding).num_clauses
        try:
            claimed = formula(n)
        except Exception as exc:  # a student's code
            return Verdict(False, f"Not yet: your formula raised {type(exc).__name__}: {exc} at n = {n}.",
                           (n, None, actual))
        try:
            real(claimed, "a number of clauses")  # n * (n - 1) / 2 is a float, a NumPy expression a NumPy number
        except AnswerError:
            return Verdict(False, f"Not yet: at n = {n} your formula returned {given(claimed)}; a number of clauses "
                                  "is a whole number (an int).", (n, claimed, actual))
        if not same_real(claimed, actual):
            hint = ""
            if n <= 3:
                hint = (f" It is right for n = 4 and up: on a {n} x {n} board the lines are 1 to {n} cells long, "
                        "and an at-most-one over a single cell needs no clause at all — does your formula "
                        "count one (for the sequential counter, 3k - 4 is negative at k = 1)?")
            return Verdict(False, f"Not yet: at n = {n} your formula gives {claimed!r}, but the {encoding} "
                                  f"formula has {actual} clauses.{hint}", (n, claimed, actual))
    return Verdict(True, f"Correct: your formula gives the number of clauses of the {encoding} encoding "
                         f"for every n from {min(sizes)} to {max(sizes)}.")


__all__ = ["AT_MOST_K_MAX_N", "CHECK_MAX_N", "EXHAUSTIVE_K", "MAX_K", "MAX_K_LIMIT", "Encoder", "check_at_most_k",
           "check_at_most_one", "check_clause_count", "check_exactly_one"]
