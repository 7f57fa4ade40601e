"""Counting the boards of any formula (``nqueens-kit count --from-cnf FILE``): a SAT-only verb.

- :func:`iter_projected`: the distinct assignments of the board variables 1..n² over all models of a formula
  (which may hold helper variables above n² and need not be N-queens at all).
- :func:`count_formula`: that count in a child process under a time limit, every model the solver returns
  checked against the formula's own clauses (:class:`ClauseCheck`: a model that breaks one is a solver
  error, so the count is not trusted) and each board checked by :func:`~nqueens_kit.problem.board.verify`
  (invalid ones are counted apart).  That there are no more models than those found is the final UNSAT of
  the formula with a blocking clause for every model found: a solver that writes proofs proves it once more
  and an independent checker checks the proof (:func:`~nqueens_kit.methods.sat.certificate.prove_no_model`),
  so the count is certified; with any other solver it rests on the solver's word.  The result says which
  (``known_by``, ``extra["certified"]``).

>>> count_formula([[1, 2, 3, 4]], 4, 2)[0].count
15
"""

from __future__ import annotations

import itertools
import os
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from ...errors import InputError, SolverError, SolverNotAvailable
from ...formats.dimacs import Dimacs, read_dimacs, read_header
from ...problem.board import Board, canonical, parse_n, violations
from ...problem.results import CountResult
from ...runtime import isolate
from ...runtime.isolate import Ended
from ...runtime.limits import SAT_BYTES_PER_CLAUSE, Size, check_size, check_time_limit
from ...solvers import SAT_SOLVERS, SatSolver, Solver, get_solver
from ...solvers.embedded import Pycosat
from ..base import board_key, board_text, cells_key
from .certificate import CHECKER_HINT, Certificate, checker_name, prove_no_model
from .cnf import decode_model, kit_board_size, lex_leader_clauses
from .encodings import Clause, VarPool
from .solve import _backend

#: How a complete count of a formula is known (``CountResult.known_by``).  Certified: every model checked
#: against the clauses and a checked proof that there are no others (or that there is none at all).
#: ``{what}`` is "the file's" or "the formula's", ``{proof}`` the proof in words (``Certificate.words``).
KNOWN_BY_CERTIFIED = ("certified: every model checked against {what} clauses, and {proof} that there are no others, "
                      "checked by {checker}")
KNOWN_BY_CERTIFIED_NONE = "certified: {proof} that there is no model, checked by {checker}"
#: Not certified (``{why}``: why there is no proof): models checked and then UNSAT, or UNSAT at once.
KNOWN_BY_MODELS = ("every model checked against {what} clauses; that there are no others rests on the solver's "
                   "word, its final UNSAT ({why})")
KNOWN_BY_UNSAT = "the solver alone: it answered UNSAT at once ({why}), so there was no model to check"
#: ... and a count the time limit stopped (a lower bound).
KNOWN_BY_FOUND = "every model found checked against {what} clauses"


class ClauseCheck:
    """A formula's clauses packed to check a model against them: every literal in one array and where each
    clause ends in another (numpy arrays where numpy is installed, else the standard library's ``array``), so
    that each check is linear in the formula's size and no Python list is kept per clause.

    :meth:`broken` is the number (from 1, in the formula's order) of the first clause a model leaves without a
    true literal, or None.  A variable the model does not assign makes none of its literals true.

    >>> check = ClauseCheck([[1, 2], [-3, 4]], 4)
    >>> check.broken([1, -2, 3, -4]), check.broken([-1, 2, -3, 4]), check.broken([1, 2])
    (2, None, 2)
    """

    def __init__(self, clauses: Sequence[Sequence[int]], num_vars: int, *, use_numpy: bool | None = None) -> None:
        from array import array

        self.num_vars = num_vars
        if use_numpy is None:
            try:
                import numpy  # noqa: F401
            except ImportError:
                use_numpy = False
            else:
                use_numpy = True
        self._numpy = use_numpy
        empty = [i for i, clause in enumerate(clauses) if not clause]
        self._first_empty = empty[0] + 1 if empty else None  # no model satisfies an empty clause
        if use_numpy:
            import numpy as np

            kind: type[np.signedinteger[Any]] = np.int32 if num_vars < 2**30 else np.int64
            total = sum(map(len, clauses))
            flat: Any = np.fromiter(itertools.chain.from_iterable(clauses), dtype=kind, count=total)
            lengths = np.fromiter(map(len, clauses), dtype=np.int64, count=len(clauses))
            # literal v as 2v, -v as 2v + 1: where its truth is in a model's table of true literals
            self._code = 2 * np.abs(flat) + (flat < 0)
            del flat
            nonempty = np.flatnonzero(lengths > 0)
            self._starts = (np.cumsum(lengths) - lengths)[nonempty]
            self._numbers = nonempty + 1  # the clause number of each non-empty clause
        else:
            self._literals = array("q", itertools.chain.from_iterable(clauses))
            self._ends = array("q", itertools.accumulate(map(len, clauses)))

    def broken(self, model: Iterable[int]) -> int | None:
        """The number of the first clause ``model`` (true literals, DIMACS style) does not satisfy, or None."""
        found = self._numpy_broken(model) if self._numpy else self._python_broken(model)
        if self._first_empty is not None:
            return self._first_empty if found is None else min(found, self._first_empty)
        return found

    def _numpy_broken(self, model: Iterable[int]) -> int | None:
        import numpy as np

        if not len(self._starts):
            return None
        literals = np.asarray(model, dtype=np.int64).ravel()
        literals = literals[(literals != 0) & (np.abs(literals) <= self.num_vars)]
        true = np.zeros(2 * self.num_vars + 2, dtype=bool)  # by literal code; unassigned: neither is true
        true[2 * np.abs(literals) + (literals < 0)] = True
        satisfied = np.logical_or.reduceat(true[self._code], self._starts)
        bad = np.flatnonzero(~satisfied)
        return int(self._numbers[bad[0]]) if len(bad) else None

    def _python_broken(self, model: Iterable[int]) -> int | None:
        true = set(model)
        literals, start = self._literals, 0
        for number, end in enumerate(self._ends, start=1):
            if end > start and true.isdisjoint(literals[start:end]):
                return number
            start = end
        return None

    def clause(self, number: int) -> list[int]:
        """The literals of clause ``number`` (from 1)."""
        if self._numpy:
            import numpy as np

            index = int(np.searchsorted(self._numbers, number))
            if index >= len(self._numbers) or self._numbers[index] != number:
                return []
            start = int(self._starts[index])
            end = int(self._starts[index + 1]) if index + 1 < len(self._starts) else len(self._code)
            return [-(code // 2) if code % 2 else code // 2 for code in map(int, self._code[start:end])]
        start = self._ends[number - 2] if number > 1 else 0
        return list(self._literals[start:self._ends[number - 1]])


def broken_clause_error(who: str, check: ClauseCheck, number: int, source: str, file_clauses: int) -> SolverError:
    """The one error for a model that breaks a clause: the solver, the clause (its number in the file, or the
    symmetry-breaking clause the kit added) and that the count is not trusted."""
    literals = check.clause(number)
    text = " ".join(map(str, literals)) + " 0"
    text = text if len(text) <= 60 else text[:57] + "..."
    where = (f"clause {number:,} of {source} ({text})" if number <= file_clauses
             else f"symmetry-breaking clause {number - file_clauses:,} that --break-symmetry added ({text})")
    return SolverError(f"{who} returned a model that breaks {where}: the count cannot be trusted")


def iter_projected(clauses: Sequence[Clause], num_vars: int, n: int, solver: str | None = None,
                   check: Callable[[list[int]], None] | None = None) -> Iterator[Board]:
    """The distinct assignments of variables 1..n² over all models of a formula, as boards (the true board
    variables of each); the formula may hold helper variables above n² and need not be N-queens at all.
    ``check(model)`` is called on every model the solver returns before its boards are yielded (it raises
    to stop).

    Linear in the number of assignments: with no helpers, pycosat's incremental ``itersolve`` is exact;
    incremental solvers (PySAT) take each blocking clause as it comes; otherwise the search is split on the
    cells of the first two rows (per row a decision list: cell 1 true; cell 1 false and cell 2 true; ...;
    all false), a disjoint cover of every assignment, so each solver call holds few blocking clauses.
    """
    top = n * n
    if num_vars < top:
        raise InputError(f"the formula has {num_vars} variables, fewer than the {top} board variables of n = {n}")
    backend = _backend(solver)
    if isinstance(backend, Pycosat) and num_vars == top:
        models = backend.all_models(clauses, num_vars)
    elif backend.capabilities.incremental:
        models = backend.models(clauses, num_vars, lambda m: _projected_block(m, top))
    else:
        models = (model for cube in _partition(n, rows=min(2, n))
                  for model in backend.models(list(clauses) + [[lit] for lit in cube], num_vars,
                                              lambda m: _projected_block(m, top)))
    for model in models:
        if check is not None:
            check(model)
        yield from _expanded(model, n)


def free_board_variables(clauses: Sequence[Clause], n: int) -> list[int]:
    """The board variables 1..n² that occur in no clause: every value of each is a model of its own."""
    used = {abs(lit) for clause in clauses for lit in clause}
    return [v for v in range(1, n * n + 1) if v not in used]


def _expanded(model: Sequence[int], n: int) -> Iterator[Board]:
    """The boards one model stands for: its board literals, and every value of the board variables it does
    not assign at all (a solver leaves out variables that occur in no clause; each is free, so the model
    stands for both of its values, and the blocking clause, over the assigned ones only, excludes them all)."""
    top = n * n
    assigned = {abs(lit) for lit in model if 0 < abs(lit) <= top}
    board = decode_model(model, n)
    if len(assigned) == top:
        yield board
        return
    missing = [v for v in range(1, top + 1) if v not in assigned]
    for values in itertools.product((False, True), repeat=len(missing)):
        extra = [((v - 1) // n + 1, (v - 1) % n + 1) for v, on in zip(missing, values, strict=True) if on]
        yield tuple(sorted([*board, *extra]))


def _partition(n: int, rows: int) -> Iterator[list[int]]:
    """Disjoint cubes covering every assignment of the first ``rows`` rows' variables: per row, the decision
    list x1; ¬x1 x2; ...; ¬x1 ... ¬xn (n + 1 cubes), and every combination of those across the rows."""
    if rows == 0:
        yield []
        return
    row = rows
    first = (row - 1) * n + 1
    choices = [[-v for v in range(first, var)] + [var] for var in range(first, first + n)]
    choices.append([-v for v in range(first, first + n)])
    for head in _partition(n, rows - 1):
        for choice in choices:
            yield head + choice


def _projected_block(model: Iterable[int], top: int) -> Clause:
    return [-lit for lit in model if 0 < abs(lit) <= top]


def _count_formula_job(clauses: list[list[int]], num_vars: int, n: int, solver: str | None,
                       fundamental: bool, source: str = "the formula",
                       file_clauses: int | None = None) -> tuple[int, int | None, int, Certificate | str, int]:
    """Count, every model checked against ``clauses`` (the first ``file_clauses`` of them the formula's own,
    numbered as in ``source``; the rest the symmetry-breaking clauses the kit added), and certify the end of
    the list where the solver writes proofs (:func:`_certify_end`).  Returns the count, the fundamental
    count, the invalid boards, the :class:`~nqueens_kit.methods.sat.certificate.Certificate` or why there is
    none, and the number of models the solver returned."""
    seen = classes = invalid = 0
    keys: set[bytes] = set()
    fundamentals: set[bytes] = set()
    last = time.monotonic()
    clause_check = ClauseCheck(clauses, num_vars)
    who = solver or "the solver"
    own = len(clauses) if file_clauses is None else file_clauses
    backend = _backend(solver)
    why = _why_uncertified(backend)
    blocks: list[Clause] = []  # the blocking clause of every model, for the proof of the end
    models = 0

    def check(model: list[int]) -> None:
        nonlocal models
        number = clause_check.broken(model)
        if number is not None:
            raise broken_clause_error(who, clause_check, number, source, own)
        models += 1
        if not why:
            blocks.append(_projected_block(model, n * n))

    for board in iter_projected(clauses, num_vars, n, solver, check):
        key = cells_key(board)
        if key in keys:
            raise SolverError(f"{solver or 'the solver'} returned the board assignment {board_text(board)} twice")
        keys.add(key)
        seen += 1
        if violations(n, board):
            invalid += 1
        elif fundamental:
            fundamentals.add(board_key(canonical(n, board)))
        now = time.monotonic()
        if now - last > 0.2:
            isolate.report((seen, len(fundamentals) if fundamental else None))
            last = now
    classes = len(fundamentals)
    end: Certificate | str = why or ""
    if not why:
        isolate.report((seen, classes if fundamental else None))  # a limit during the proof keeps the count
        end = _certify_end(clauses, blocks, num_vars, n, backend, clause_check, source, own, seen)
    return seen, (classes if fundamental else None), invalid, end, models


def _why_uncertified(backend: SatSolver) -> str:
    """Why a count by ``backend`` cannot be certified ("" when it can: it writes proofs, a checker is here)."""
    if not backend.capabilities.proofs:
        return f"{backend.name} writes no proofs"
    try:
        checker_name()
    except SolverNotAvailable:
        return f"no proof checker is installed: {CHECKER_HINT}"
    return ""


def _certify_end(clauses: list[list[int]], blocks: list[Clause], num_vars: int, n: int, backend: SatSolver,
                 clause_check: ClauseCheck, source: str, own: int, seen: int) -> Certificate:
    """The formula with a blocking clause for every model found, proved to have no model and the proof
    checked; a model found instead is a lie caught (the enumeration ended before its last model)."""
    who = backend.name
    found = f"{len(blocks):,} models found" if len(blocks) != 1 else "1 model found"
    what = f"{source} with the {found} blocked" if blocks else source
    certificate, model = prove_no_model(clauses + blocks, num_vars, who, what=what)
    if certificate is not None:
        return certificate
    model = model or []
    number = clause_check.broken(model)
    if number is not None:
        raise broken_clause_error(who, clause_check, number, source, own)
    if ClauseCheck(blocks, num_vars).broken(model) is not None:
        raise SolverError(f"{who} returned a model it had returned already while proving that {what} has no model: "
                          "the count cannot be trusted")
    board = board_text(decode_model(model, n))[:80]
    raise SolverError(f"{who} answered UNSAT before the last model: with the {found} blocked it finds another "
                      f"({board}), so the {seen:,} counted are not all: the count cannot be trusted")


#: A formula whose board variables leave more than this many free (in no clause) has too many boards to
#: list and check one by one: 2 to this power for every assignment of the rest.
MAX_FREE_BOARD_VARIABLES = 24


def _formula_job(source: Dimacs | str, n: int | None, solver: str, fundamental: bool,
                 break_symmetry: bool) -> tuple[int, int | None, int, int, int, int, Certificate | str, int]:
    """Parse (a path: in the child, under the time limit), check and count; returns the count, fundamental
    count, invalid boards, n, the formula's variables and clauses, and the certificate of the count (or why
    there is none) and how many models the solver returned."""
    dimacs = read_dimacs(source) if isinstance(source, str) else source
    if n is None:
        n = kit_board_size(dimacs)
        if n is None:
            raise InputError(f"{dimacs.source} does not say its board size (it was not written by nqueens-kit): "
                             "pass --n N to say that variables 1..N² are the board")
    clauses, num_vars = dimacs.clauses, dimacs.num_vars
    if num_vars < n * n:
        raise InputError(f"the formula has {num_vars} variables, fewer than the {n * n} board variables of n = {n}")
    if break_symmetry:
        pool = VarPool(num_vars)
        clauses = clauses + [c for _name, part in lex_leader_clauses(n, pool) for c in part]
        num_vars = pool.top
    free = free_board_variables(clauses, n)
    if len(free) > MAX_FREE_BOARD_VARIABLES:
        raise InputError(f"{len(free)} of the {n * n} board variables occur in no clause, so every assignment of "
                         f"the rest stands for 2^{len(free)} boards: too many to list and check; is the board size "
                         f"{n} right (--n)?")
    shown = dimacs.source if isinstance(source, str) else "the formula"
    count, fundamentals, invalid, end, models = _count_formula_job(clauses, num_vars, n, solver, fundamental, shown,
                                                                   len(dimacs.clauses))
    return count, fundamentals, invalid, n, dimacs.num_vars, len(dimacs.clauses), end, models


def counting_solver(solver: str | None) -> Solver:
    """The solver :func:`count_formula` counts with: ``solver``, or by default the first installed incremental
    one (blocking clauses go best into a solver that keeps its state: python-sat's CaDiCaL, which writes
    proofs), else the default SAT solver."""
    if solver is None:
        solver = next((name for name, s in SAT_SOLVERS.items() if s.capabilities.incremental and s.available()),
                      None)
    return get_solver("sat", solver)


def count_formula(clauses: list[list[int]] | str | os.PathLike[str], num_vars: int | None = None,
                  n: int | None = None, solver: str | None = None, *, fundamental: bool = False,
                  break_symmetry: bool = False, time_limit: object = None, max_memory: object = None,
                  progress: Callable[[int, int | None], None] | None = None) -> tuple[CountResult, int]:
    """Count the distinct assignments of the board variables 1..n² over the models of any formula (clauses
    and their variable count, or the path of a DIMACS file); returns the count and how many of those boards
    are not valid n-queens solutions.  ``break_symmetry`` adds the lex-leader clauses over the board
    variables, so one assignment of every orbit of the 8 symmetries is counted.

    A file is sized from its header before it is read (a device, or a file whose clauses would not fit in
    ``max_memory``, is refused) and then read and counted in a child process, so the time limit (a lower bound
    on timeout) and Ctrl-C hold for both.  ``n`` of a file the kit wrote is read from its header comments.
    Without a named solver, an incremental one (python-sat's CaDiCaL) is used where installed, else pycosat;
    a solver that is not incremental gets a fresh start for each model.

    Every model the solver returns is checked against the formula's clauses (a model that breaks one is a
    :class:`~nqueens_kit.errors.SolverError` naming the clause).  A solver that writes proofs then proves the
    formula with every model found blocked unsatisfiable, and the proof is checked (a proof the checker
    rejects, or a model found after all, is a :class:`~nqueens_kit.errors.SolverError`): the count is
    certified.  ``known_by`` says how the count is known, ``extra["certified"]`` whether it is certified and
    ``extra["certificate"]`` the checked proof (its ``checker``, ``system``, ``lemmas`` and the
    ``blocking_clauses`` it was proved with), or None.
    """
    limit = check_time_limit(time_limit)
    backend = counting_solver(solver).require()
    if isinstance(clauses, (str, os.PathLike)):
        header = read_header(clauses)
        source: Dimacs | str = os.fspath(clauses)
        num_vars, declared = header.num_vars, header.declared or 0
        if n is None:
            n = kit_board_size(header)
            if n is None:
                raise InputError(f"{clauses} does not say its board size (it was not written by nqueens-kit): "
                                 "pass --n N to say that variables 1..N² are the board")
    else:
        if num_vars is None or n is None:
            raise InputError("count_formula(clauses, num_vars, n): give the formula's variable count and the "
                             "board size")
        source, declared = Dimacs(num_vars, clauses), len(clauses)
    n = parse_n(n, what="--n")
    check_size(Size(num_vars, clauses=declared, memory=SAT_BYTES_PER_CLAUSE * declared + 64 * num_vars),
               "the formula", "count a smaller formula", max_memory)
    start = time.monotonic()
    result = CountResult(n=n, count=0, method="sat", solver=backend.name, break_symmetry=break_symmetry)
    run = isolate.run_in_child(_formula_job, (source, n, backend.name, fundamental, break_symmetry),
                               time_limit=limit, on_message=(lambda m: progress(*m)) if progress else None)
    invalid = 0
    what = "the file's" if isinstance(source, str) else "the formula's"
    result.extra["certified"], result.extra["certificate"] = False, None
    if run.status == Ended.DONE:
        (result.count, result.fundamental, invalid, _n, result.extra["variables"], result.extra["clauses"], end,
         models) = run.value
        if isinstance(end, Certificate):
            known = KNOWN_BY_CERTIFIED if result.count else KNOWN_BY_CERTIFIED_NONE
            result.known_by = known.format(what=what, proof=end.words, checker=end.checker)
            result.extra["certified"] = True
            result.extra["certificate"] = {"checker": end.checker, "system": end.system, "lemmas": end.lemmas,
                                           "blocking_clauses": models}
        else:
            result.known_by = (KNOWN_BY_MODELS if result.count else KNOWN_BY_UNSAT).format(what=what, why=end)
    else:
        run.raise_error()
        result.status = run.status.status
        result.count, result.fundamental = run.progress or (0, 0 if fundamental else None)
        result.note = f"a lower bound: {result.count:,} board assignments were found before the limit"
        result.known_by = KNOWN_BY_FOUND.format(what=what) if result.count else None
    if break_symmetry:
        result.fundamental = result.count
    result.seconds = time.monotonic() - start
    return result, invalid
