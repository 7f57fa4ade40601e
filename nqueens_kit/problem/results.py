"""What every method returns: a :class:`Status`, a :class:`SolveResult` (one board or none) and a
:class:`CountResult` (how many boards).

Vocabulary, said once for the whole kit:

- a *method* is a way of solving (``sat``, ``ilp``, ``cp``, ``backtrack``, ...; see :mod:`nqueens_kit.methods`);
- a *variant* is what a method lets you choose about the model: the CNF *encoding* of SAT, the ILP or CP
  *formulation*; methods without a model (the construction, backtracking) have none.  Results carry the
  variant under ``variant`` and, for the tables that have always had them, under the method's own word
  (``encoding`` or ``formulation``);
- a *solver* is the program that does the search (pycosat, CaDiCaL, CBC, HiGHS, ...);
- a *formula* is the CNF an encoder writes; a *model* is a SAT solver's satisfying assignment (PuLP's
  ``LpProblem`` is called the *ILP model*); a *board* is the queens a model decodes to.

>>> Status.SOLVED == "solved", str(Status.TIMEOUT), Status.INFEASIBLE.finished
(True, 'timeout', True)
>>> Answer.UNSAT.status
'infeasible'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, TypedDict

from ..errors import InputError
from .board import LISTED_BOARD_N, AnyBoard, Cell, ColumnBoard, Problem, canonical, shown, verify

if TYPE_CHECKING:
    from typing_extensions import Unpack

#: A value as JSON holds it: what results, options and extras carry to files and back.
JSON = str | int | float | bool | None | Sequence["JSON"] | Mapping[str, "JSON"]
#: A solver's statistics: its counters (conflicts, nodes, LP iterations, ...) as integers, its own times in
#: seconds, and words such as the status it gave (each solver fills the keys it has).
Statistics = dict[str, int | float | str | None]
#: The solver options a run used, as recorded in results and sidecars (``settings`` first).
Options = dict[str, JSON]


class Status(str, Enum):
    """How a run ended.  A ``str`` enum: it compares equal to its value and is written as it in JSON/CSV."""

    SOLVED = "solved"          # a board was found (and handed to verify)
    INFEASIBLE = "infeasible"  # proven: no board exists
    TIMEOUT = "timeout"        # the kit's wall-clock limit passed first
    UNKNOWN = "unknown"        # the solver stopped without an answer before the kit's limit (it said so)
    MEMOUT = "memout"          # the memory limit passed first
    ERROR = "error"            # the run failed; the message says why
    SKIPPED = "skipped"        # a sweep chose not to run it

    def __str__(self) -> str:
        return self.value

    def __repr__(self) -> str:  # shown as its value in notebooks and doctests: 'solved'
        return repr(self.value)

    @property
    def finished(self) -> bool:
        """True for an answer (solved or infeasible), False for a run that stopped without one."""
        return self in (Status.SOLVED, Status.INFEASIBLE)

    @classmethod
    def parse(cls, value: object) -> Status:
        """A status from its value, e.g. ``Status.parse("timeout")``; an :class:`InputError` (a ValueError)
        names the valid ones."""
        return cls(value)

    @classmethod
    def _missing_(cls, value: object) -> Status:
        raise InputError(f"unknown status {shown(value)}; valid: {', '.join(s.value for s in cls)}")


class Answer(str, Enum):
    """What a solver said: a model (``sat``), none exists (``unsat``), or it stopped without knowing."""

    SAT = "sat"
    UNSAT = "unsat"
    UNKNOWN = "unknown"

    def __str__(self) -> str:
        return self.value

    def __repr__(self) -> str:  # shown as its value in doctests: 'sat'
        return repr(self.value)

    @property
    def status(self) -> Status:
        """The one mapping from a solver's answer to a run's status.  ``unknown`` is the solver's own word
        (``s UNKNOWN``, MiniSat's ``INDET``): status unknown; a solve that the kit's time limit stopped is a
        timeout, which the solver did not say."""
        return {Answer.SAT: Status.SOLVED, Answer.UNSAT: Status.INFEASIBLE}.get(self, Status.UNKNOWN)


class KnownBy(str, Enum):
    """How a "no" (or a count) is known to be right, strongest first.  A ``str`` enum like :class:`Status`:
    it compares equal to its value and is written as it in JSON/CSV."""

    CHECKED_PROOF = "checked proof"      # a proof checked by an independent checker
    PUBLISHED = "published count"        # the published count (OEIS A000170 / A002562)
    BACKTRACKING = "backtracking"        # an independent exhaustive backtracking search
    SOLVER_ALONE = "solver alone"        # the solver's word: too large to check by backtracking in its budget

    def __str__(self) -> str:
        return self.value

    def __repr__(self) -> str:  # shown as its value in notebooks and doctests: 'backtracking'
        return repr(self.value)


#: The values of :class:`KnownBy`, strongest first (what a count's ``known_by`` is when it was checked).
KNOWN_BY = tuple(known.value for known in KnownBy)

#: The words a method may call its variants; results keep a column for each (old tables read as they were).
VARIANT_WORDS = ("encoding", "formulation")


def _variant_keys(kind: str | None, variant: str | None) -> dict[str, str | None]:
    """``variant`` and the column of the method's own word (``encoding`` or ``formulation``)."""
    return {"variant": variant, **{word: variant if kind == word else None for word in VARIANT_WORDS}}


def _cell_lists(cells: Sequence[Cell]) -> list[list[int]]:
    return [list(q) for q in cells]


def _result_dict(result: SolveResult | CountResult, head: Mapping[str, JSON], body: Mapping[str, JSON]
                 ) -> dict[str, JSON]:
    """The JSON form both result kinds share: ``head``, who answered (method, variant, solver, status),
    ``body``, then the blocked cells and symmetry (only when set) and the extras."""
    data: dict[str, JSON] = {**head, "method": result.method, **_variant_keys(result.variant_kind, result.variant),
                             "solver": result.solver, "status": Status.parse(result.status).value, **body}
    if result.blocked:
        data["blocked"] = _cell_lists(result.blocked)
    if result.break_symmetry:
        data["break_symmetry"] = True
    data.update(result.extra)
    return data


class ResultFields(TypedDict, total=False):
    """The fields of a :class:`SolveResult` a method fills itself (:meth:`SolveResult.of` sets the rest)."""

    queens: AnyBoard
    variant: str | None
    solver: str | None
    variables: int | None
    clauses: int | None
    constraints: int | None
    build_seconds: float
    solve_seconds: float
    verified: bool | None
    message: str
    stats: Statistics
    options: Options
    core: tuple[Cell, ...] | None
    extra: dict[str, JSON]
    variant_kind: str | None
    known_by: str | None


@dataclass
class SolveResult:
    """The outcome of one solve, whichever method produced it.

    ``queens`` is the decoded board (1-based, sorted by row) when ``status`` is solved: a tuple of cells, or a
    :class:`~nqueens_kit.problem.board.ColumnBoard` (an array of columns) from the methods that reach millions
    of queens.  ``verified`` is set by :func:`~nqueens_kit.problem.board.verify`, never by the encoder.
    ``variant`` is the encoding (SAT) or the formulation (ILP).  ``variables`` and ``clauses`` (SAT) or
    ``constraints`` (ILP) give the model size;
    ``stats`` holds what the solver reports (conflicts, nodes, its own time, ...) and ``options`` the solver
    settings the run used.  ``core``: for an infeasible completion, a minimal set of the pre-placed queens
    that already cannot be completed (when it was asked for).
    """

    n: int
    method: str
    status: Status
    queens: AnyBoard = ()
    variant: str | None = None
    solver: str | None = None
    preplaced: tuple[Cell, ...] = ()
    variables: int | None = None
    clauses: int | None = None
    constraints: int | None = None
    build_seconds: float = 0.0
    solve_seconds: float = 0.0
    verified: bool | None = None
    message: str = ""
    stats: Statistics = field(default_factory=dict)
    options: Options = field(default_factory=dict)
    core: tuple[Cell, ...] | None = None
    extra: dict[str, JSON] = field(default_factory=dict)
    blocked: tuple[Cell, ...] = ()
    break_symmetry: bool = False
    #: What the method calls its variants (``encoding``, ``formulation``); set by the method layer.
    variant_kind: str | None = None
    #: How an ``infeasible`` answer is known (:data:`KNOWN_BY`); None for other answers.
    known_by: str | None = None

    def __post_init__(self) -> None:
        self.status = Status.parse(self.status)

    @classmethod
    def of(cls, problem: Problem, method: str, status: Status | str, **fields: Unpack[ResultFields]) -> SolveResult:
        """A result for ``problem`` (its size, queens, blocked cells and symmetry carried over)."""
        return cls(n=problem.n, method=method, status=Status.parse(status), preplaced=problem.preplaced,
                   blocked=problem.blocked, break_symmetry=problem.break_symmetry, **fields)

    @property
    def problem(self) -> Problem:
        return Problem(self.n, self.preplaced, self.blocked, self.break_symmetry)

    @property
    def encoding(self) -> str | None:
        return _variant_keys(self.variant_kind, self.variant)["encoding"]

    @property
    def formulation(self) -> str | None:
        return _variant_keys(self.variant_kind, self.variant)["formulation"]

    def check(self) -> SolveResult:
        """Run the independent verifier on a solved board and record the verdict; returns self."""
        if self.status == Status.SOLVED:
            self.verified = verify(self.n, self.queens, self.preplaced, self.blocked)
            queens = self.queens if isinstance(self.queens, ColumnBoard) else tuple(self.queens)
            if self.verified and self.break_symmetry and canonical(self.n, queens) != queens:
                self.verified = False
                self.message = (self.message + "; " if self.message else "") + (
                    "the board is not the canonical one of its orbit, so symmetry breaking did not hold")
        return self

    def to_dict(self, listed: bool | None = None) -> dict[str, JSON]:
        """The JSON form shared by every method (one table can hold SAT and ILP runs).

        ``queens`` lists the board's cells; a :class:`~nqueens_kit.problem.board.ColumnBoard` of more than
        :data:`~nqueens_kit.problem.board.LISTED_BOARD_N` queens is summarised instead (``queens`` null,
        ``board``: :func:`board_summary`) unless ``listed`` is True; ``listed=False`` summarises any
        ColumnBoard.
        """
        summarised = isinstance(self.queens, ColumnBoard) and (
            listed is False or (listed is None and len(self.queens) > LISTED_BOARD_N))
        queens: JSON = None if summarised else _cell_lists(self.queens)
        body: dict[str, JSON] = {"queens": queens, "preplaced": _cell_lists(self.preplaced),
                                 "variables": self.variables, "clauses": self.clauses, "constraints": self.constraints,
                                 "build_seconds": round(self.build_seconds, 6),
                                 "solve_seconds": round(self.solve_seconds, 6),
                                 "verified": self.verified, "message": self.message, "stats": self.stats,
                                 "options": self.options, "known_by": self.known_by}
        if self.core is not None:
            body["core"] = _cell_lists(self.core)
        if summarised and isinstance(self.queens, ColumnBoard):
            body["board"] = board_summary(self.queens)
        return _result_dict(self, {"n": self.n}, body)


#: How many of a summarised board's columns its summary lists.
SUMMARY_COLUMNS = 10


def board_summary(board: ColumnBoard) -> dict[str, JSON]:
    """What names a board too long to list: its number of queens, the SHA-256 of its columns (as 4-byte
    little-endian integers, row 1 first: :meth:`~nqueens_kit.problem.board.ColumnBoard.digest`) and its first
    columns."""
    return {"queens": len(board), "columns_sha256": board.digest(), "digest_of": "columns as int32 little-endian",
            "first_columns": board.columns[:SUMMARY_COLUMNS].tolist()}


@dataclass
class CountResult:
    """How many boards a method found; ``fundamental`` is the count up to the 8 symmetries.

    ``status`` is solved for a complete count and timeout when the time limit stopped it: ``count`` is
    then a lower bound (the boards found so far, each verified).
    """

    n: int
    count: int
    method: str
    variant: str | None = None
    solver: str | None = None
    fundamental: int | None = None
    seconds: float = 0.0
    preplaced: tuple[Cell, ...] = ()
    note: str = ""
    status: Status = Status.SOLVED
    extra: dict[str, JSON] = field(default_factory=dict)
    blocked: tuple[Cell, ...] = ()
    break_symmetry: bool = False
    #: What the method calls its variants (``encoding``, ``formulation``); set by the method layer.
    variant_kind: str | None = None
    #: The counting method's settings (``unprojected`` model counting counts models, not boards).
    settings: str | None = None
    #: How the total of a complete count is known to be right (:data:`KNOWN_BY`).
    known_by: str | None = None

    def __post_init__(self) -> None:
        self.status = Status.parse(self.status)

    @property
    def complete(self) -> bool:
        return self.status == Status.SOLVED

    def to_dict(self) -> dict[str, JSON]:
        """The JSON form of a count, with the same identity and tail fields as :meth:`SolveResult.to_dict`."""
        body: dict[str, JSON] = {"complete": self.complete, "seconds": round(self.seconds, 6),
                                 "preplaced": _cell_lists(self.preplaced), "note": self.note, "known_by": self.known_by}
        if self.settings is not None:
            body["settings"] = self.settings
        return _result_dict(self, {"n": self.n, "count": self.count, "fundamental": self.fundamental}, body)


def infeasible_message(problem: Problem) -> str:
    """Why there is no board, in the words of the problem's own restrictions."""
    if problem.blocked:
        keep = " and keeps the pre-placed queens" if problem.preplaced else ""
        return f"no board of {problem.n}-queens avoids the {len(problem.blocked)} blocked cells{keep}"
    if problem.preplaced:
        return f"the pre-placed queens cannot be completed to a solution of {problem.n}-queens"
    return f"{problem.n}-queens has no solution (only n = 2 and n = 3 have none)"
