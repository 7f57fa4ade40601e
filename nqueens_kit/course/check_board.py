"""The board checkers of chapters 1, 2, 3 and 6: a student's solution checker, diagonals, count of solutions,
first round of unit propagation, and dead end of two queens, each judged against what is true.

- :func:`check_verify`: a solution checker ``f(n, queens)`` against boards with every kind of flaw
  (:func:`verify_cases`).
- :func:`check_diagonals`: a list of the diagonal lines of a board (for the ILP constraints).
- :func:`check_first_propagation`: which cells one queen rules out by unit propagation on the pairwise
  formula, and which queen the next unit clause forces (any order, any cell format).
- :func:`check_count`: a count of solutions against backtracking.
- :func:`check_dead_end`: two queens that do not attack each other but leave no completion (chapter 6).

Answers are read by the rule of :mod:`nqueens_kit.course.answers`: a count may be ``4``, ``4.0`` or a NumPy
integer, a cell a tuple, a list, a NumPy array or ``"2,3"``.

>>> check_count(4.0, 6)
Correct: 6-queens has 4 solutions.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence

from ..errors import InputError
from ..methods.sat.cnf import build_cnf
from ..methods.search.backtrack import iter_backtrack
from ..methods.search.construct import construct
from ..problem.board import Cell, Problem, board_lines, canonical, conflicts, parse_cell, parse_n, shown, verify
from .answers import AnswerError, Verdict, board_sizes, cells, flag, given, items, student_function, truth, whole

#: :func:`check_count` lists every board by backtracking: up to this n (73,712 boards) it takes a second.
COUNT_MAX_N = 13
#: :func:`check_diagonals` and :func:`check_first_propagation` take boards up to this n.
CHECK_MAX_N = 30


def verify_cases() -> list[tuple[str, int, tuple[Cell, ...]]]:
    """Boards a solution checker must judge: ``(description, n, queens)``, good ones and flawed ones.

    Each flawed board has one kind of flaw.  The attacks come both between neighbouring rows and between rows
    far apart (a checker that compares only consecutive queens passes the first kind), and one good board is
    listed out of row order (a checker that takes a queen's place in the list for its row fails it).  Queens
    off the board come in a row and in a column (a checker that bounds only the rows passes the first), and
    good boards are given for the wrong n (a checker that ignores n, or takes len(queens) for it, passes them).

    >>> [(what, verify(n, q)) for what, n, q in verify_cases()][:2]
    [('a solution of 8-queens', True), ('a solution of 1-queens', True)]
    """
    good8 = construct(8)
    return [
        ("a solution of 8-queens", 8, good8),
        ("a solution of 1-queens", 1, ((1, 1),)),
        ("a solution of 5-queens", 5, construct(5)),
        # each flawed board below has exactly one pair of queens attacking each other, in one way only
        ("two queens on one diagonal", 4, ((1, 1), (2, 3), (3, 4), (4, 2))),
        ("two queens on one anti-diagonal (r + c equal)", 4, ((1, 2), (2, 4), (3, 3), (4, 1))),
        ("two queens in one column", 4, ((1, 1), (2, 1), (3, 4), (4, 2))),
        ("two queens in one row", 4, ((1, 1), (1, 2), (2, 4), (4, 3))),
        ("a queen missing (7 queens on 8 x 8)", 8, good8[:-1]),
        ("one queen twice on the same cell", 4, ((1, 2), (1, 2), (3, 1), (4, 3))),
        ("a solution of 4-queens with one queen listed twice (5 queens)", 4, ((1, 2), (2, 4), (3, 1), (4, 3), (2, 4))),
        ("a queen off the board", 4, ((1, 2), (2, 4), (3, 1), (4, 5))),
        # no two of these attack each other: only a bounds check rejects them
        ("a queen off the board that attacks nobody", 4, ((1, 1), (2, 3), (4, 2), (5, 4))),
        ("a queen on row 0 (off the board) that attacks nobody", 4, ((0, 1), (1, 4), (2, 2), (4, 3))),
        ("an empty board for n = 4", 4, ()),
        ("a solution of 6-queens given as a 6-queens board", 6, ((1, 2), (2, 4), (3, 6), (4, 1), (5, 3), (6, 5))),
        # the same kinds of attack between queens far apart, in rows and in the list
        ("two queens on one diagonal, five rows apart", 6, ((1, 1), (2, 3), (3, 5), (4, 2), (5, 4), (6, 6))),
        ("two queens on one anti-diagonal, five rows apart", 6,
         ((1, 6), (2, 3), (3, 5), (4, 2), (5, 4), (6, 1))),
        ("two queens in one column, five rows apart", 6, ((1, 1), (2, 3), (3, 5), (4, 2), (5, 4), (6, 1))),
        ("two queens in one row, listed apart", 5, ((1, 1), (2, 4), (3, 2), (5, 3), (2, 5))),
        ("two pairs of queens on diagonals, none in neighbouring rows", 5, ((1, 2), (2, 4), (3, 1), (4, 5), (5, 3))),
        ("a solution of 8-queens listed out of row order", 8, tuple(good8[i] for i in (5, 2, 7, 0, 3, 6, 1, 4))),
        # off the board in a column only, every row on the board, attacking nobody
        ("a queen in column 5 (off the board) that attacks nobody", 4, ((1, 1), (2, 3), (3, 5), (4, 2))),
        ("a queen in column 0 (off the board) that attacks nobody", 4, ((1, 3), (2, 0), (3, 4), (4, 1))),
        # a good board, but for another n: only a checker that reads n rejects them
        ("a solution of 4-queens on a 5 x 5 board (a queen short)", 5, ((1, 2), (2, 4), (3, 1), (4, 3))),
        ("a solution of 5-queens on a 4 x 4 board (a queen too many, off the board)", 4, construct(5)),
        ("a solution of 8-queens on a 6 x 6 board", 6, good8),
    ]


def check_verify(student_verify: Callable[[int, Sequence[Cell]], object]) -> Verdict:
    """Check a student's ``verify(n, queens) -> bool`` on good boards and on boards with each kind of flaw.

    >>> from nqueens_kit import verify
    >>> bool(check_verify(verify))
    True
    >>> rows_and_columns_only = lambda n, q: len({r for r, c in q}) == len({c for r, c in q}) == n
    >>> check_verify(rows_and_columns_only).counterexample[0]
    'two queens on one diagonal'
    """
    student_function(student_verify, "check_verify", "verify(n, queens) -> True or False")
    cases = verify_cases()
    for description, n, queens in cases:
        expected = verify(n, queens)
        try:
            answer = student_verify(n, list(queens))
        except Exception as exc:  # a student's code
            return Verdict(False, f"Not yet: your function raised {type(exc).__name__}: {exc} on {description} "
                                  f"(n = {n}, queens {list(queens)}).", (description, n, queens))
        try:
            said = truth(answer, "a checker's answer")
        except AnswerError:
            return Verdict(False, f"Not yet: your function returned {given(answer)} on {description} (n = {n}, "
                                  f"queens {list(queens)}); a checker returns True or False.", (description, n, queens))
        if said != expected:
            verb = "accepts" if said else "rejects"
            return Verdict(False, f"Not yet: your function {verb} {description} (n = {n}, queens {list(queens)}); "
                                  f"the right answer is {expected}.", (description, n, queens))
    return Verdict(True, f"Correct: your checker gets all {len(cases)} test boards right "
                         "(good ones, and ones with each kind of attack or a missing queen).")


def check_diagonals(student_diagonals: Callable[[int], Iterable[Iterable[Cell]]],
                    ns: Iterable[int] = range(1, 9)) -> Verdict:
    """Check ``diagonals(n)``: every diagonal and anti-diagonal of two or more cells, each as a list of cells.

    The order of the lines and of the cells inside a line does not matter.

    >>> def diagonals(n):
    ...     cells = [(r, c) for r in range(1, n + 1) for c in range(1, n + 1)]
    ...     lines = [[q for q in cells if q[0] - q[1] == d] for d in range(1 - n, n)]
    ...     lines += [[q for q in cells if q[0] + q[1] == s] for s in range(2, 2 * n + 1)]
    ...     return [line for line in lines if len(line) >= 2]
    >>> bool(check_diagonals(diagonals))
    True
    >>> check_diagonals(lambda n: []).counterexample[0]
    2
    """
    student_function(student_diagonals, "check_diagonals", "diagonals(n) -> a list of lines of cells")
    for n in board_sizes(ns, "ns", CHECK_MAX_N):
        expected = {frozenset(line.cells) for line in board_lines(n) if line.kind in ("diag", "anti")}
        try:
            lines = student_diagonals(n)
            listed = list(lines) if isinstance(lines, Iterator) else items(lines)  # a generator runs here
        except Exception as exc:  # a student's code
            return Verdict(False, f"Not yet: your function raised {type(exc).__name__}: {exc} at n = {n}.", (n, None))
        try:
            if listed is None:
                raise AnswerError("not a list")
            answer = [frozenset(cells(line, None, "a line", single=False)) for line in listed]
        except AnswerError:
            return Verdict(False, f"Not yet: at n = {n} your function returned {shown(lines)}; each line is a list "
                                  "of cells, each cell a (row, column) pair of whole numbers.", (n, None))
        got = set(answer)
        missing = sorted((sorted(line) for line in expected - got), key=len)
        extra = sorted((sorted(line) for line in got - expected), key=len)
        if missing:
            return Verdict(False, f"Not yet: at n = {n} the line {missing[0]} is missing.", (n, missing[0]))
        if extra:
            return Verdict(False, f"Not yet: at n = {n} the line {extra[0]} is not a diagonal of two or more cells.",
                           (n, extra[0]))
        if len(answer) != len(got):
            return Verdict(False, f"Not yet: at n = {n} some line is listed twice.", (n, None))
    return Verdict(True, "Correct: your function lists every diagonal and anti-diagonal of two or more cells.")


def _shared_line(a: Cell, b: Cell) -> str | None:
    """The line (row, column, diagonal) holding both cells, in words, or None."""
    if a[0] == b[0]:
        return f"row {a[0]}"
    if a[1] == b[1]:
        return f"column {a[1]}"
    if a[0] - a[1] == b[0] - b[1]:
        return f"the diagonal r - c = {a[0] - a[1]}"
    if a[0] + a[1] == b[0] + b[1]:
        return f"the anti-diagonal r + c = {a[0] + a[1]}"
    return None


def check_first_propagation(ruled_out: object, forced: object, n: int = 4, queen: object = (1, 2)) -> Verdict:
    """Check a student's unit propagation by hand on the pairwise formula of n-queens after one queen.

    ``ruled_out``: the cells the first round rules out (each clause ``¬P_q ∨ ¬P_x`` becomes the unit
    ``¬P_x`` once P_q is true).  ``forced``: the cells where the at-least-one clauses that then become unit
    force a queen (a list, possibly empty, or one cell).  Any order and any cell format (``(2, 3)``,
    ``[2, 3]``, a NumPy array, ``"2,3"``) is accepted; a wrong answer gets the first flaw, named.

    >>> out = [(1, 1), (1, 3), (1, 4), (2, 1), (2, 2), (2, 3), (3, 2), (3, 4), (4, 2)]
    >>> check_first_propagation(out, [(2, 4)]).ok, check_first_propagation(out, [2, 4]).ok
    (True, True)
    >>> check_first_propagation(out[1:], [(2, 4)]).counterexample
    (1, 1)
    """
    size = parse_n(n, maximum=CHECK_MAX_N, what="n")
    q = parse_cell(queen, size)
    problem = Problem(size)
    cnf = build_cnf(problem)
    var = problem.var
    board = [(r, c) for r in range(1, size + 1) for c in range(1, size + 1)]
    cell_of = {var(*each): each for each in board}
    # first round: the clauses that hold -P_q become unit (pairwise: two literals each)
    out = {cell_of[-lit] for clause in cnf.clauses if -var(*q) in clause and len(clause) == 2
           for lit in clause if lit != -var(*q)}
    # second round: at-least-one clauses with a single cell not yet ruled out (and no queen yet)
    units = [[cell_of[lit] for lit in clause if cell_of[lit] not in out] for clause in cnf.clauses
             if all(lit > 0 for lit in clause) and len(clause) > 1 and var(*q) not in clause]
    truth_forced = {free[0] for free in units if len(free) == 1}
    try:
        answer = set(cells(ruled_out, size, "ruled_out", single=False))
    except AnswerError as error:
        return Verdict(False, f"Not yet: {error}.", ruled_out)
    try:
        given_forced = set(cells(forced, size, "forced"))  # one cell on its own is a list of one
    except AnswerError as error:
        return Verdict(False, f"Not yet: {error}.", forced)
    if q in answer:
        return Verdict(False, f"Not yet: {q} is the queen's own cell; P[{q[0]},{q[1]}] is set true, not ruled out.", q)
    for each in sorted(out - answer):
        line = _shared_line(q, each)
        return Verdict(False, f"Not yet: {each} is missing: it shares {line} with the queen at {q}, so "
                              f"¬P[{q[0]},{q[1]}] ∨ ¬P[{each[0]},{each[1]}] becomes the unit clause "
                              f"¬P[{each[0]},{each[1]}].", each)
    for each in sorted(answer - out):
        later = " (a queen forced later may rule it out, but not this round)" if each not in truth_forced else \
            " (in fact a queen is forced there next)"
        return Verdict(False, f"Not yet: {each} shares no line with the queen at {q}: no clause "
                              f"¬P[{q[0]},{q[1]}] ∨ ¬P[{each[0]},{each[1]}] exists, so the first round cannot "
                              f"rule it out{later}.", each)
    for each in sorted(given_forced - truth_forced):
        if each == q:
            return Verdict(False, f"Not yet: {q} is the queen's own cell: it was placed, not forced.", each)
        if each in out:
            return Verdict(False, f"Not yet: {each} is ruled out in the first round (it shares "
                                  f"{_shared_line(q, each)} with the queen), so no queen can be forced there.", each)
        left = next(free for free in units if each in free)
        return Verdict(False, f"Not yet: no clause forces {each} yet: no at-least-one clause holding it is unit "
                              f"(one still has {len(left)} free cells: {', '.join(map(str, sorted(left)))}).", each)
    for each in sorted(truth_forced - given_forced):
        unit = next(line for line in problem.lines() if each in line.cells and line.exact
                    and all(c == each or c in out for c in line.cells))
        name = f"{'row' if unit.kind == 'row' else 'column'} {unit.index}"
        return Verdict(False, f"Not yet: {name}'s at-least-one clause has every cell but {each} ruled out, so "
                              f"it becomes the unit clause P[{each[0]},{each[1]}]: a queen is forced there.", each)
    queens = ", ".join(map(str, sorted(truth_forced))) or "none"
    return Verdict(True, f"Correct: P[{q[0]},{q[1]}] makes {len(out)} clauses ¬P[{q[0]},{q[1]}] ∨ ¬P[x] unit, "
                         f"ruling out {len(out)} cells; then {len(truth_forced)} at-least-one clause"
                         f"{'s' if len(truth_forced) != 1 else ''} ha{'ve' if len(truth_forced) != 1 else 's'} "
                         f"a single free cell left and force{'s' if len(truth_forced) == 1 else ''} a queen there: "
                         f"{queens}.")


def check_count(answer: object, problem: Problem | int, fundamental: bool = False) -> Verdict:
    """Check a student's count of the solutions (or fundamental solutions) of ``problem`` against bitmask
    backtracking.  A count is any whole number: ``4``, ``4.0``, ``numpy.int64(4)``, ``Fraction(8, 2)``.

    >>> check_count(4, Problem(8, [(1, 1)]))
    Correct: 8-queens with queens placed at 1,1 has 4 solutions.
    >>> bool(check_count(92, 8)), bool(check_count(5, Problem(8, [(1, 1)])))
    (True, False)
    """
    problem = problem if isinstance(problem, Problem) else Problem(problem)
    flag(fundamental, "fundamental")
    if problem.n > COUNT_MAX_N:
        raise InputError(f"check_count lists every board to check a count, which takes too long above "
                         f"n = {COUNT_MAX_N} ({problem.n}-queens asked); use a smaller board")
    boards = iter_backtrack(problem)
    right = len({canonical(problem.n, b) for b in boards}) if fundamental else sum(1 for _ in boards)
    what = "fundamental solutions" if fundamental else "solutions"
    try:
        count = whole(answer, f"the number of {what}")  # a NumPy count (a sum, a 0-d array) is a count too
    except AnswerError as error:
        return Verdict(False, f"Not yet: {error}.", answer)
    if count != right:
        direction = "too many" if count > right else "too few"
        return Verdict(False, f"Not yet: {count} {what} is {direction} for {problem.describe()}.", count)
    return Verdict(True, f"Correct: {problem.describe()} has {right} {what}.")


def check_dead_end(queens: object, n: object = 8) -> Verdict:
    """Check two queens that do not attack each other, yet leave the n x n board (8 x 8 by default) without a
    completion: exactly two, on the board, not attacking, and no solution through both (listed by
    backtracking, independent of the apps).

    >>> check_dead_end([(1, 1), (2, 3)])
    Correct: 8-queens with queens placed at 1,1 2,3 has no solution, though the two queens do not attack each other.
    >>> check_dead_end([(1, 1), (2, 3), (3, 5)])
    Not yet: the exercise asks for exactly two queens, and you gave 3: [(1, 1), (2, 3), (3, 5)].
    """
    n = parse_n(n, maximum=COUNT_MAX_N)
    listed = items(queens)
    if isinstance(queens, str) or listed is None:
        return Verdict(False, f"Not yet: give the two queens as a list of (row, column) pairs, not {given(queens)}.",
                       queens)
    try:
        placed = cells(listed, n, "the queens", noun="a queen")  # one cell on its own is one queen
    except AnswerError as error:
        return Verdict(False, f"Not yet: {error}.", queens)
    if len(placed) != 2:
        return Verdict(False, f"Not yet: the exercise asks for exactly two queens, and you gave {len(placed)}: "
                              f"{shown(placed)}.", placed)
    if placed[0] == placed[1]:
        return Verdict(False, f"Not yet: both queens are on {placed[0][0]},{placed[0][1]}; give two different "
                              "cells.", placed)
    clash = conflicts(placed)
    if clash:
        return Verdict(False, f"Not yet: these two attack each other ({clash[0][2]}); find two that do not, but "
                              "still leave no completion.", placed)
    problem = Problem(n, tuple(placed))
    found = sum(1 for _ in iter_backtrack(problem))
    if found:
        return Verdict(False, f"Not yet: {problem.describe()} has {found} solution{'s' if found != 1 else ''}: "
                              "these two can be completed.", placed)
    return Verdict(True, f"Correct: {problem.describe()} has no solution, though the two queens do not attack "
                         "each other.")


__all__ = ["COUNT_MAX_N", "check_count", "check_dead_end", "check_diagonals", "check_first_propagation",
           "check_verify", "verify_cases"]
