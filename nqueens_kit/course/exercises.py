"""Self-checking exercises for the notebooks: a student writes a function, a checker says whether it is right.

Every checker returns a :class:`Verdict`: true when the answer is right, and its text (shown in a notebook) is
a friendly sentence that names a counterexample when the answer is wrong.  The checkers live in modules of
their own and are all importable from here:

- encodings (:mod:`~nqueens_kit.course.check_encoding`): :func:`check_at_most_one`,
  :func:`check_exactly_one`, :func:`check_at_most_k`, :func:`check_clause_count`;
- boards (:mod:`~nqueens_kit.course.check_board`): :func:`check_verify` (with :func:`verify_cases`),
  :func:`check_diagonals`, :func:`check_first_propagation`, :func:`check_count`, :func:`check_dead_end`;
- resolution (:mod:`~nqueens_kit.course.check_resolution`): :func:`resolve`, one step, and
  :func:`check_resolution_proof`, a whole refutation of Φ₂ (or Φ₃, or another formula);
- Farkas (:mod:`~nqueens_kit.course.check_farkas`): :func:`farkas_constraints` and :func:`check_farkas`, a
  certificate that the lines LP with the 2×2 blocks has no point at n = 3;
- here: :func:`check_par2`, a student's PAR-2 score (runs that hit the time limit count twice the limit).

What the student's function does is the answer (an exception it raises is a "Not yet" verdict); what is
handed to a checker itself (a function that is not a function, a size out of range) is a one-line
:class:`~nqueens_kit.errors.InputError`, as everywhere in the kit.  An answer is read for its value, not its
type, by one rule (:mod:`nqueens_kit.course.answers`): a number may be an int, a float, a ``Fraction`` or a
NumPy scalar or 0-d array, a whole number a whole one of any of these (``4.0`` counts), a truth value a bool
or a NumPy bool, a cell a tuple, a list or a NumPy array of two whole numbers; a string is never a number.
An answer of another form gets a "Not yet" that names what it is and what is wanted.

>>> from nqueens_kit.methods.sat.encodings import pairwise
>>> check_at_most_one(pairwise).ok
True
>>> def forgets_the_last_pair(lits, pool):
...     return [[-a, -b] for i, a in enumerate(lits) for b in lits[i + 1:-1]]
>>> verdict = check_at_most_one(forgets_the_last_pair)
>>> bool(verdict), verdict.counterexample
(False, ((1, 2), (True, True)))
"""

from __future__ import annotations

import math
from collections.abc import Callable

from ..bench.summary import par2
from ..errors import InputError
from ..problem.board import shown
from ..runtime.limits import check_time_limit
from .answers import AnswerError, Verdict, given, number, real, same_real, student_function
from .check_board import (
    COUNT_MAX_N,
    check_count,
    check_dead_end,
    check_diagonals,
    check_first_propagation,
    check_verify,
    verify_cases,
)
from .check_encoding import (
    AT_MOST_K_MAX_N,
    CHECK_MAX_N,
    EXHAUSTIVE_K,
    MAX_K,
    MAX_K_LIMIT,
    Encoder,
    check_at_most_k,
    check_at_most_one,
    check_clause_count,
    check_exactly_one,
)
from .check_farkas import FarkasConstraint, check_farkas, farkas_constraints
from .check_resolution import check_resolution_proof, resolve


def check_par2(score: Callable[[list[float | None], float], object], time_limit: float = 10.0) -> Verdict:
    """Check a student's ``score(times, time_limit)``: the PAR-2 of runs whose ``times`` are seconds, ``None``
    for a run stopped by the limit (it counts as twice the limit; the score is the mean over all runs).

    >>> check_par2(lambda times, limit: sum(t if t is not None else 2 * limit for t in times) / len(times))
    Correct: every run counts, and a run stopped by the limit counts as twice the limit.
    >>> check_par2(lambda times, limit: sum(t for t in times if t is not None) / len(times)).ok
    False
    """
    student_function(score, "check_par2", "score(times, time_limit) -> the PAR-2 score")
    limit = None if isinstance(time_limit, (bytes, bytearray)) else check_time_limit(time_limit, "time_limit")
    if limit is None:
        raise InputError(f"PAR-2 needs the time limit the runs had, a positive number of seconds, not "
                         f"{shown(time_limit)}")
    time_limit = limit
    cases: list[list[float | None]] = [[1.0, 2.0, 3.0], [0.5], [1.0, None, 3.0], [None], [None, None, 4.0],
                                       [2.0, None, None, 4.0, 0.25], [0.0, None, 1.0]]
    for times in cases:
        finished = [t for t in times if t is not None]
        truth = par2(finished, times.count(None), time_limit)
        assert truth is not None
        try:
            got = score(list(times), time_limit)
        except Exception as exc:  # a student's bug is an answer, not a crash
            return Verdict(False, f"Not yet: score({times}, {time_limit:g}) raised {type(exc).__name__}: {exc}",
                           times)
        try:
            real(got, "PAR-2")  # np.float32, a 0-d array or a Fraction is a number too
        except AnswerError as error:
            why = "PAR-2 is a number of seconds: return a real number (an int or a float)" if number(got) is None \
                else str(error)
            return Verdict(False, f"Not yet: score({times}, {time_limit:g}) returned {given(got)}; {why}.", times)
        if not same_real(got, truth):
            unsolved = times.count(None)
            guesses = {
                "a run stopped by the limit counts twice the limit, not once (that would be PAR-1)":
                    (sum(finished) + unsolved * time_limit) / len(times),
                "runs stopped by the limit must count too, as twice the limit":
                    sum(finished) / len(finished) if finished else math.nan,
                "the mean is over all runs, not only the finished ones":
                    (sum(finished) + unsolved * 2 * time_limit) / len(finished) if finished else math.nan,
                "a run that took 0 s finished: test for None (t is None), not for a false value (not t)":
                    sum(t or 2 * time_limit for t in times) / len(times),
            }
            hint = next((f" Hint: {why}." for why, guess in guesses.items() if same_real(got, guess)), "")
            return Verdict(False, f"Not yet: for times {times} and a {time_limit:g} s limit, PAR-2 is {truth:g}; "
                                  f"your function gives {got!r}.{hint}", times)
    return Verdict(True, "Correct: every run counts, and a run stopped by the limit counts as twice the limit.")


__all__ = [
    "AT_MOST_K_MAX_N", "CHECK_MAX_N", "COUNT_MAX_N", "EXHAUSTIVE_K", "MAX_K", "MAX_K_LIMIT", "Encoder",
    "FarkasConstraint", "Verdict", "check_at_most_k", "check_at_most_one", "check_clause_count", "check_count",
    "check_dead_end", "check_diagonals", "check_exactly_one", "check_farkas", "check_first_propagation",
    "check_par2", "check_resolution_proof", "check_verify", "farkas_constraints", "resolve", "verify_cases",
]
