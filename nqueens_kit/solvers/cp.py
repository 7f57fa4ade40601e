"""The CP solver family: what the CP method hands a solver, and what every CP solver entry does with it.

The method describes the model once, solver-neutral, as a :class:`CpModel`: the
:class:`~nqueens_kit.problem.board.Problem`, the formulation's name and whether it is ``integer`` (one integer
variable per row with three AllDifferent constraints) or the n² booleans of the lines; with it come the
instance's ``order`` seed and the name of the method's settings.  A :class:`CpSolver` entry builds its own native
model from that (a CP-SAT model, a MiniZinc model with its data), solves it and answers one
:class:`~nqueens_kit.solvers.base.Outcome`, enumerates its boards, records the options it ran with and reports
its statistics.  Each entry says which of the method's verbs, problem features and named settings it honours
(:class:`~nqueens_kit.solvers.base.Solver`), so the method never names a solver; the method's vocabulary (the
formulations, what each settings name means to a user) is the method's own (:mod:`nqueens_kit.methods.cp`).

>>> model_counts(CpModel(Problem(8), "alldifferent", integer=True)), model_counts(CpModel(Problem(8), "boolean"))[1]
((8, 3, 24), 42)
"""

from __future__ import annotations

import os
import queue
import threading
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Generic, TypeVar

from ..problem.board import Board, Problem
from ..problem.results import CountResult, Options
from ..runtime.limits import Size
from .base import Outcome, Solver


@dataclass(frozen=True)
class CpModel:
    """The CP model of ``problem`` as the method describes it to every entry: the formulation's ``name`` (recorded
    in results) and whether it is ``integer`` (q[r] in 1..n per row under three AllDifferent constraints) or
    boolean (the n² cells under the lines' exactly-one and at-most-one constraints)."""

    problem: Problem
    name: str
    integer: bool = False


#: What the CP method asks of an entry, stated by each entry (an entry says nothing by default): its verbs and the
#: problem features it honours (reordered instances included), and its formulations.
CP_VERBS = frozenset({"solve", "count", "iterate"})
CP_FEATURES = frozenset({"preplaced", "blocked", "break_symmetry", "reorder"})
FORMULATION_NAMES = frozenset({"alldifferent", "boolean"})
#: The method's settings name under which an entry searches with one worker per core (under any other, one).
ALL_CORES = "all-cores"
#: Boards a solver thread may find ahead of the consumer of an entry's :meth:`CpSolver.boards`.
QUEUE_BOARDS = 256

T = TypeVar("T")


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def workers(settings: str | None, enumerate_all: bool = False) -> int:
    """Search workers under the method's ``settings``: one per core for ``all-cores`` (never to enumerate), else
    one."""
    return cores() if settings == ALL_CORES and not enumerate_all else 1


def lex_size(n: int) -> tuple[int, int, int]:
    """``(helpers, clauses, literals)`` of the lex-leader condition for the 7 symmetries: per symmetry and cell it
    moves one helper and six clauses of 19 literals, less one clause of 5 literals for the first cell (the
    cells each symmetry moves, in closed form: what :func:`~nqueens_kit.problem.board.lex_pairs` lists)."""
    odd = n % 2
    moved = [m for m in [n * n - odd] * 3 + [n * n - n * odd] * 2 + [n * n - n] * 2 if m]
    return sum(moved), sum(6 * m - 1 for m in moved), sum(19 * m - 5 for m in moved)


def model_counts(model: CpModel) -> tuple[int, int, int]:
    """``(variables, constraints, literals)`` of ``model``, in closed form (symmetry breaking included: the
    lex-leader clauses, and for the integer formulation the cell booleans channelled to the rows' integers): what
    the entries build, and the size guard's prediction."""
    problem = model.problem
    n = problem.n
    helpers, clauses, lex_literals = lex_size(n) if problem.break_symmetry else (0, 0, 0)
    if model.integer:
        placed = {r for r, _ in problem.preplaced}
        blocked = Counter(r for r, _ in problem.blocked)
        empty = sum(1 for r, cells in blocked.items() if cells == n and r not in placed)  # rows with no cell left
        variables, constraints, literals = n, 3 + empty, 3 * n
        if problem.break_symmetry:
            variables += n * n
            constraints += 2 * n * n
            literals += 4 * n * n
    else:
        diagonals = max(0, 2 * n - 3)
        variables = n * n
        constraints = 2 * n + 2 * diagonals + len(problem.preplaced) + len(problem.blocked)
        literals = 2 * n * n + (2 * (n * n - 2) if n > 1 else 0) + len(problem.preplaced) + len(problem.blocked)
    return variables + helpers, constraints + clauses, literals + lex_literals


class Feed(Generic[T]):
    """Items from a producer thread to the generator that hands them on, at most :data:`QUEUE_BOARDS`
    ahead; when the consumer stops, ``stopped`` is set and ``on_stop`` (the solver's stop) is called."""

    _END = object()

    def __init__(self) -> None:
        self.queue: queue.Queue[object] = queue.Queue(maxsize=QUEUE_BOARDS)
        self.stopped = threading.Event()
        self.on_stop: Callable[[], None] | None = None

    def put(self, item: object) -> bool:
        """Queue ``item``; False (and nothing queued) once the consumer has stopped."""
        while not self.stopped.is_set():
            try:
                self.queue.put(item, timeout=0.05)
                return True
            except queue.Full:
                continue
        return False

    def hand_on(self, item: object) -> None:
        self.put(item)

    def _produce(self, produce: Callable[[], None]) -> None:
        try:
            produce()
        except BaseException as exc:  # handed to the consumer, which raises it
            self.put(exc)
        self.put(self._END)

    def items(self, produce: Callable[[], None], name: str) -> Iterator[T]:
        thread = threading.Thread(target=self._produce, args=(produce,), name=name, daemon=True)
        thread.start()
        try:
            while True:
                item = self.queue.get()
                if item is self._END:
                    return
                if isinstance(item, BaseException):
                    raise item
                yield item  # type: ignore[misc]  # only the producer's items of type T reach here
        finally:
            self.stopped.set()
            if self.on_stop is not None:
                self.on_stop()
            thread.join()


class CpSolver(Solver):
    """A CP solver entry (see the module docstring).  :meth:`solve` and :meth:`boards` run in this process; the
    method's verbs add time limits, child processes and the independent verification of every board.
    ``settings`` is always one of the method's settings names that the entry takes."""

    method = "cp"
    #: The solver's name in sentences (``CP-SAT``, ``Gecode (MiniZinc)``).
    product_name = "CP"

    def options(self, settings: str, order: int | None, enumerate_all: bool = False) -> Options:
        """The options a run uses under ``settings`` and the instance ``order``, as recorded in results
        (``settings`` first)."""
        raise NotImplementedError

    def size(self, model: CpModel) -> Size:
        """The model's size and the memory a solve of it takes (the size guard's prediction; the variables and
        constraints results record)."""
        raise NotImplementedError

    def solve(self, model: CpModel, deadline: float | None, settings: str, order: int | None) -> Outcome:
        """One board (``sat``, its ``board``), none (``unsat``), or ``unknown``: with ``limit`` at ``deadline``
        (``time.monotonic()`` seconds), else with the solver's reason in ``why``; its ``options``, ``stats`` (the
        solver's counters and its own ``status`` word) and ``seconds``."""
        raise NotImplementedError

    def boards(self, model: CpModel, settings: str, order: int | None) -> Iterator[Board]:
        """Every board of the model, each once, from one search that enumerates all solutions."""
        raise NotImplementedError

    def count_note(self, result: CountResult) -> str:
        """How a count was made, for the line under it."""
        return f"every board from one {self.product_name} search that enumerates all solutions, each verified"
