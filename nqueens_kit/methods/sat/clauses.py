"""The CNF the SAT side builds, and its DIMACS text: :class:`CNF` (clauses in named groups that remember which
line of the board each came from, held as lists or as :class:`PackedClauses`, arrays for a large board),
:func:`decode_model`, and :func:`dimacs_text` / :func:`write_dimacs` (with the kit's header comments, which
:func:`kit_board_size` reads back).  :mod:`.cnf` builds the formulas and re-exports every public name here.
"""

from __future__ import annotations

import gc
import io
import os
import re
from bisect import bisect_right
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from ...errors import InputError
from ...problem.board import (
    MAX_N,
    Board,
    Problem,
    parse_n,
    shown,
    whole_number,
)
from .encodings import Clause

if TYPE_CHECKING:
    import numpy as np

    from ...formats.dimacs import Dimacs


def write_dimacs_clauses(*args: Any, **kwargs: Any) -> None:
    """:func:`nqueens_kit.formats.dimacs.write_dimacs_clauses`, imported when a formula is first written (a solve
    in this process writes none)."""
    from ...formats.dimacs import write_dimacs_clauses as write

    write(*args, **kwargs)


def write_dimacs_arrays(*args: Any, **kwargs: Any) -> None:
    """:func:`nqueens_kit.formats.dimacs.write_dimacs_arrays`, imported when a formula is first written."""
    from ...formats.dimacs import write_dimacs_arrays as write

    write(*args, **kwargs)


PART_TEXT = {"alo": "at least one", "amo": "at most one", "placed": "pre-placed queen", "blocked": "blocked cell",
             "lex": "lex-leader symmetry breaking"}


@dataclass(frozen=True)
class ClauseGroup:
    """Clauses ``start .. stop - 1`` of a CNF, all made for one line (or one pre-placed queen)."""

    name: str  # line name (row_3, diag_7, ...), placed_R_C, blocked_R_C or lex_SYMMETRY
    part: str  # "alo", "amo", "placed", "blocked" or "lex"
    start: int
    stop: int

    @property
    def label(self) -> str:
        return f"{self.name}: {PART_TEXT[self.part]}"

    def __len__(self) -> int:
        return self.stop - self.start


class CNF:
    """A CNF for one N-queens problem.

    Vocabulary used across the kit: a *formula* (this object) is what the encoder writes; a *model* is a
    SAT solver's satisfying assignment (a list of signed ints); a *board* is the queens a model decodes to.

    The clauses are held as a list of lists (``clauses``), as arrays (``packed``, a :class:`PackedClauses`)
    or both: a formula built as arrays makes its list only when ``clauses`` is first read (what pycosat and
    python-sat take), and a formula built as a list makes its arrays only when ``packed`` is first read.
    ``num_clauses``, :meth:`clause`, :meth:`clause_text`, :meth:`origin` and the DIMACS writers use whichever
    is there.
    """

    def __init__(self, problem: Problem, encoding: str, clauses: list[Clause] | None = None, num_vars: int = 0,
                 groups: list[ClauseGroup] | None = None, defined: bool = False,
                 packed: PackedClauses | None = None) -> None:
        self.problem = problem
        self.encoding = encoding
        self._clauses = [] if clauses is None and packed is None else clauses
        self._packed = packed
        self.num_vars = num_vars
        self.groups: list[ClauseGroup] = [] if groups is None else groups
        self.defined = defined  # helpers made functions of the board (one extra clause per helper)

    def __repr__(self) -> str:
        return (f"CNF({self.problem.describe()}, {self.encoding!r}, {self.num_vars:,} variables, "
                f"{self.num_clauses:,} clauses{', defined' if self.defined else ''})")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, CNF):
            return NotImplemented
        return (self.problem == other.problem and self.encoding == other.encoding
                and self.num_vars == other.num_vars and self.groups == other.groups
                and self.defined == other.defined and self.clauses == other.clauses)

    __hash__ = None  # type: ignore[assignment]  # mutable, like the dataclass it stands in for

    @property
    def clauses(self) -> list[Clause]:
        """Every clause as a list of ints (made from :attr:`packed` on first use)."""
        if self._clauses is None:
            assert self._packed is not None
            self._clauses = self._packed.tolist()
        return self._clauses

    @clauses.setter
    def clauses(self, value: list[Clause]) -> None:
        self._clauses, self._packed = value, None

    @property
    def packed(self) -> PackedClauses:
        """The clauses as arrays (made from :attr:`clauses` on first use)."""
        if self._packed is None:
            self._packed = PackedClauses.from_lists(self.clauses)
        return self._packed

    def has_list(self) -> bool:
        """Whether the list of lists is already made (reading :attr:`clauses` costs nothing more)."""
        return self._clauses is not None

    @property
    def n(self) -> int:
        return self.problem.n

    @property
    def num_clauses(self) -> int:
        return len(self._clauses) if self._clauses is not None else len(self.packed)

    def clause(self, index: int) -> Clause:
        """Clause ``index`` (0-based) as a list of ints, without making the whole list."""
        index = _clause_index(index, self.num_clauses)
        return self._clauses[index] if self._clauses is not None else self.packed.clause(index)

    @property
    def board_vars(self) -> int:
        """Variables 1 .. n² are the board; anything above is a helper."""
        return self.problem.n ** 2

    def origin(self, index: int) -> ClauseGroup:
        """The group of clause ``index`` (0-based)."""
        index = _clause_index(index, self.num_clauses)
        starts = [g.start for g in self.groups]
        return self.groups[bisect_right(starts, index) - 1]

    def groups_of(self, name: str) -> list[ClauseGroup]:
        """The clause groups made for one line, e.g. ``groups_of("row_3")``."""
        return [g for g in self.groups if g.name == name]

    def family_counts(self) -> dict[str, dict[str, int]]:
        """Per kind of line (``row``, ``col``, ``diag``, ``anti``): how many lines, at-least-one clauses,
        at-most-one clauses, and helper variables those clauses use; ``placed``: the pre-placed queens' units.

        >>> from nqueens_kit.methods.sat.cnf import build_cnf
        >>> build_cnf(4).family_counts()["diag"]
        {'lines': 5, 'alo': 0, 'amo': 14, 'helpers': 0}
        """
        top = self.board_vars
        table: dict[str, dict[str, Any]] = {}
        for group in self.groups:
            kind = "placed" if group.part == "placed" else group.name.split("_")[0]
            row = table.setdefault(kind, {"lines": set(), "alo": 0, "amo": 0, "placed": 0, "blocked": 0, "lex": 0,
                                          "helpers": set()})
            row["lines"].add(group.name)
            row[group.part] += len(group)
            if self._clauses is None:  # arrays: the helpers of the group's literals at once
                packed = self.packed
                lits = packed.literals[int(packed.offsets[group.start]):int(packed.offsets[group.stop])]
                magnitude = abs(lits)
                row["helpers"].update(magnitude[magnitude > top].tolist())
                continue
            for clause in self.clauses[group.start:group.stop]:
                row["helpers"].update(abs(lit) for lit in clause if abs(lit) > top)
        order = ["row", "col", "diag", "anti", "placed"]
        return {kind: {"lines": len(table[kind]["lines"]), "alo": table[kind]["alo"], "amo": table[kind]["amo"],
                       "helpers": len(table[kind]["helpers"])} | ({"units": table[kind]["placed"]}
                                                                 if kind == "placed" else {})
                for kind in order if kind in table}

    def decode(self, model: Iterable[int]) -> Board:
        """The board a model (list of signed literals) stands for."""
        return decode_model(model, self.n)

    def literal_name(self, lit: int) -> str:
        """``P[3,5]`` for a board variable, ``h12`` for a helper; ``¬`` in front for a negative literal."""
        if not (type(lit) is int and 0 < abs(lit) <= self.num_vars):  # the kit's own literals pass at once
            number = None if isinstance(lit, str) else whole_number(lit)
            if number is None or not 0 < abs(number) <= self.num_vars:
                raise InputError(f"a literal of this formula is a non-zero whole number from -{self.num_vars} to "
                                 f"{self.num_vars}, not {shown(lit)}")
            lit = number
        var = abs(lit)
        if var <= self.board_vars:
            r, c = self.problem.cell(var)
            name = f"P[{r},{c}]"
        else:
            name = f"h{var - self.board_vars}"
        return name if lit > 0 else "¬" + name

    def clause_text(self, index: int) -> str:
        """A clause in the lectures' notation, e.g. ``¬P[1,1] ∨ ¬P[1,2]``."""
        return " ∨ ".join(self.literal_name(lit) for lit in self.clause(index))

    def to_dimacs(self, comments: bool = True) -> str:
        return dimacs_text(self, comments=comments)


def decode_model(model: Iterable[int], n: int) -> Board:
    """Queens of the positive board literals (1 .. n²) in a model, sorted by row."""
    if type(n) is not int or not 0 < n <= MAX_N:  # the kit's own sizes pass at once
        n = parse_n(n)
    if type(model) is not list and (isinstance(model, (str, bytes, bytearray, Mapping))
                                    or not isinstance(model, Iterable)):
        raise InputError(f"a model is a list of non-zero ints (a SAT solver's literals), not {shown(model)}")
    top = n * n
    try:
        return tuple(sorted(((lit - 1) // n + 1, (lit - 1) % n + 1) for lit in model if 0 < lit <= top))
    except TypeError:  # checked here, not literal by literal: a model is long and decoded often
        raise InputError(f"a model is a list of non-zero ints (a SAT solver's literals), not {shown(model)}") from None


def _clause_index(index: object, count: int) -> int:
    """``index`` as the 0-based number of one of ``count`` clauses, or a one-line error."""
    number = index if type(index) is int else None if isinstance(index, str) else whole_number(index)
    if number is None or not 0 <= number < count:
        raise InputError(f"a clause of this formula is numbered 0 to {count - 1:,}, not {shown(index)}")
    return number


def _check_cnf(cnf: object) -> None:
    if not isinstance(cnf, CNF):
        raise InputError(f"cnf is a formula from build_cnf(...), not {shown(cnf)}")


def _check_flag(value: object, what: str) -> None:
    if not isinstance(value, bool):
        raise InputError(f"{what} is True or False, not {str(value)[:40]!r}")


#: The header comment that tells the board size of a file the kit wrote (see :func:`kit_board_size`).
_SIZE_COMMENT = re.compile(r"variable \(r-1\)\*([0-9]{1,8}) \+ c is the queen at row r, column c")


def kit_board_size(dimacs: Dimacs) -> int | None:
    """The board size a DIMACS file written by the kit states in its header comments, or None.

    >>> from nqueens_kit.formats.dimacs import parse_dimacs
    >>> from nqueens_kit.methods.sat.cnf import build_cnf
    >>> kit_board_size(parse_dimacs(dimacs_text(build_cnf(5, "commander"))))
    5
    """
    for comment in dimacs.comments[:8]:
        match = _SIZE_COMMENT.search(comment)
        if match:
            n = int(match.group(1))
            return n if 1 <= n and n * n <= dimacs.num_vars else None
    return None


def _dimacs_header_comments(cnf: CNF) -> list[str]:
    n = cnf.n
    lines = [
        f"{cnf.problem.describe()}, encoding {cnf.encoding}, written by nqueens-kit",
        f"variable (r-1)*{n} + c is the queen at row r, column c (1-based): variables 1..{n * n}",
    ]
    if cnf.num_vars > n * n:
        lines.append(f"variables {n * n + 1}..{cnf.num_vars} are helpers of the {cnf.encoding} encoding")
    lines += [
        "rows and columns: exactly one queen; diagonals (r-c constant) and anti-diagonals (r+c constant)",
        "of two or more cells: at most one queen; each group of clauses is preceded by its line's name",
    ]
    return lines


def dimacs_text(cnf: CNF, comments: bool = True) -> str:
    """The CNF as DIMACS text, with ``c`` lines explaining the numbering and each line's clauses."""
    _check_cnf(cnf)
    _check_flag(comments, "comments")
    if not cnf.has_list():
        binary = io.BytesIO()
        _write_arrays(cnf, binary, comments)
        return binary.getvalue().decode("ascii")
    buffer = io.StringIO()
    write_dimacs_clauses(
        buffer, cnf.num_vars, cnf.clauses,
        _dimacs_header_comments(cnf) if comments else (),
        cnf.groups if comments else (),
    )
    return buffer.getvalue()


def write_dimacs(cnf: CNF, path: str | os.PathLike[str], comments: bool = True) -> Path:
    """Write the CNF to ``path``, whole or not at all (one-line error if the path cannot be written)."""
    from ...runtime.files import written_whole

    _check_cnf(cnf)
    _check_flag(comments, "comments")
    if not isinstance(path, (str, os.PathLike)) or not isinstance(os.fspath(path), str) or "\0" in os.fspath(path):
        raise InputError(f"a DIMACS file is named by a path such as queens.cnf, not {shown(path)}")
    if not cnf.has_list() or cnf.num_clauses >= FAST_ABOVE:
        with written_whole(path, "wb") as binary:
            _write_arrays(cnf, binary, comments)
        return Path(path)
    with written_whole(path, encoding="ascii") as out:
        write_dimacs_clauses(
            out, cnf.num_vars, cnf.clauses,
            _dimacs_header_comments(cnf) if comments else (),
            cnf.groups if comments else (),
        )
    return Path(path)


def _write_arrays(cnf: CNF, out: IO[bytes], comments: bool) -> None:
    packed = cnf.packed
    write_dimacs_arrays(out, cnf.num_vars, packed.literals, packed.offsets,
                        _dimacs_header_comments(cnf) if comments else (), cnf.groups if comments else ())


#: From this many predicted clauses on, :func:`build_cnf` builds with whole arrays (:func:`build_packed`):
#: the same clauses in the same order, held as :class:`PackedClauses`; below, clause by clause.
FAST_ABOVE = 100_000


#: About how many literals the array builder makes at once (a slice of lines of one length).
_CHUNK_LITERALS = 1 << 22


class PackedClauses:
    """Clauses as two arrays: ``literals`` (int32, every clause's literals one after the other) and
    ``offsets`` (int64, one more than the clauses): clause i is ``literals[offsets[i]:offsets[i + 1]]``.

    >>> packed = PackedClauses.from_lists([[1, -2], [3]])
    >>> len(packed), packed.clause(1), packed.tolist()
    (2, [3], [[1, -2], [3]])
    """

    __slots__ = ("literals", "offsets")

    def __init__(self, literals: np.ndarray, offsets: np.ndarray) -> None:
        self.literals = literals
        self.offsets = offsets

    @classmethod
    def from_lists(cls, clauses: Sequence[Clause]) -> PackedClauses:
        import numpy as np

        widths = np.fromiter(map(len, clauses), dtype=np.int64, count=len(clauses))
        offsets = np.zeros(len(clauses) + 1, dtype=np.int64)
        np.cumsum(widths, out=offsets[1:])
        literals = np.fromiter((lit for clause in clauses for lit in clause), dtype=np.int32,
                               count=int(offsets[-1]))
        return cls(literals, offsets)

    def __len__(self) -> int:
        return len(self.offsets) - 1

    def clause(self, index: int) -> Clause:
        """Clause ``index`` as a list of ints."""
        return [int(lit) for lit in self.literals[int(self.offsets[index]):int(self.offsets[index + 1])]]

    def tolist(self) -> list[Clause]:
        """Every clause as a list of ints (what pycosat and python-sat take).

        Runs of clauses of one width are cut by numpy (``reshape(-1, width).tolist()``); when the widths
        change too often for that to pay, the flat list is cut at the offsets.  The cyclic garbage collector
        is paused meanwhile: it would rescan the growing list again and again (ten times the work)."""
        import numpy as np

        offsets = self.offsets
        widths = np.diff(offsets)
        changes = np.flatnonzero(widths[1:] != widths[:-1]) + 1
        enabled = gc.isenabled()
        gc.disable()
        try:
            if len(changes) * 16 <= len(widths):
                result: list[Clause] = []
                bounds = [0, *changes.tolist(), len(widths)]
                for first, last in zip(bounds[:-1], bounds[1:], strict=True):
                    width = int(widths[first]) if last > first else 0
                    run = self.literals[int(offsets[first]):int(offsets[last])]
                    result += run.reshape(last - first, width).tolist()
                return result
            flat = self.literals.tolist()
            cuts = offsets.tolist()
            return [flat[a:b] for a, b in zip(cuts[:-1], cuts[1:], strict=True)]
        finally:
            if enabled:
                gc.enable()
