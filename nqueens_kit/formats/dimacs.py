"""DIMACS in and out: CNF files and SAT solvers' answers, read safely.

Inside:

- :func:`write_dimacs_clauses`: clauses as DIMACS CNF text, with optional comment lines before groups.
- :func:`parse_dimacs`, :func:`read_dimacs`: a DIMACS CNF file into a :class:`Dimacs` (declared variable
  count, clauses, comments).
- :class:`SolverOutputReader`: a solver's answer read line by line (``feed``, then ``finish``) into a
  :class:`SolverAnswer`, in MiniSat's result-file form (``SAT`` and the literals) or the SAT-competition
  form (``s SATISFIABLE``, ``v ... 0``); :func:`parse_solver_output` (a whole text) and
  :func:`read_solver_output` (a file or a pipe, in bounded memory) are built on it.

Every reader raises only the kit's one-line :class:`~nqueens_kit.errors.InputError` (a
:class:`~nqueens_kit.errors.DimacsError` for CNF files) naming the source, the line and what would be
valid, whatever the input (text, or bytes decoded as UTF-8 with undecodable bytes replaced).  The readers
take time linear in the input: no backtracking pattern, no conversion of an over-long number.

Strict and lenient, for CNF files:

- accepted: ``c`` comment lines anywhere (any characters in them), blank lines, clauses wrapped over
  several lines or several clauses on one line, spaces and tabs (also form feed and vertical tab) between
  numbers, LF, CRLF or CR line ends, a missing final newline, the SATLIB ``%`` end marker (everything
  after it is ignored), ``-0`` read as ``0``, leading zeros;
- refused: anything but comments and blank lines before the ``p cnf VARIABLES CLAUSES`` header, a
  second header, a header with other than two ASCII whole numbers, more than :data:`MAX_VARIABLES`
  variables or :data:`MAX_CLAUSES` clauses, or more clauses than the file is long enough to hold;
  outside comments any character but ASCII digits, ``-`` and blanks (no ``²``, ``１``, ``٣``, ``+5``,
  ``1_0``, NUL, ...); a literal beyond the declared variables; a last clause without its ``0``; a clause
  count other than the declared one.

Strict and lenient, for solver output (the form is told by the first line that is not blank or a
comment):

- MiniSat result file: ``SAT``, ``UNSAT`` or ``INDET`` (also ``SATISFIABLE``, ``UNSATISFIABLE``,
  ``UNKNOWN``), then for SAT the literals over one or more lines.  Lines of literals without any status
  line (a bare model, as some solvers print) are read as SAT;
- competition format (CaDiCaL, Kissat, PicoSAT, CryptoMiniSat, Glucose, Lingeling on standard output):
  ``s SATISFIABLE``, ``s UNSATISFIABLE`` or ``s UNKNOWN``, the model on ``v`` lines (before or after
  the ``s`` line); every other line must be a ``c`` comment or blank;
- in both: comments and blank lines anywhere, status words in any letter case, the same answer given
  twice, a literal repeated (kept once); the model is ended by its ``0``.  Comments are not
  stored (the reader keeps the last :data:`TAIL_LINES` lines other than model lines for messages);
- refused as contradictory or malformed: two different status lines, a model with an UNSAT or UNKNOWN
  answer, a literal and its negation, anything after the model's ending ``0`` (a literal ``0`` ends the
  model, so ``v 1 0 2 0`` is refused), a status word other than those above (``s FOO``), a line of the
  other form, non-ASCII or control characters outside comments, a literal beyond the formula's variables
  (when the caller gives them) or beyond :data:`MAX_VARIABLES`, output with no status at all;
- reported as incomplete (``SolverAnswer.complete`` false, ``note`` saying why): a SAT answer whose model
  is not ended by ``0`` (output cut off) or that has no model at all.  ``s UNKNOWN`` and ``INDET`` are
  the solver's own "unknown" (it gave up, usually at its own limit): a complete answer, status
  ``unknown``.

>>> parse_dimacs("p cnf 2 1\\n1 -2 0\\n").clauses
[[1, -2]]
>>> parse_solver_output("s SATISFIABLE\\nv 1 -2\\nv 3 0\\n")
SolverAnswer(status='sat', model=[1, -2, 3], complete=True, note='', status_line='s SATISFIABLE')
"""

from __future__ import annotations

import gc
import io
import os
import re
from collections import deque
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from math import isqrt
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from ..errors import DimacsError, InputError

if TYPE_CHECKING:
    from ..methods.sat.cnf import ClauseGroup

Clause = list[int]

#: The most variables a CNF header may declare and the largest variable a model may name.  Solvers
#: allocate for every declared variable before reading a clause: for a header of ten million MiniSat,
#: PicoSAT and CaDiCaL took 1.0 to 1.7 GB, for fifty million 5 to 8 GB; two billion aborts them.
MAX_VARIABLES = 10_000_000
#: The most clauses a CNF header may declare.
MAX_CLAUSES = 100_000_000
#: Lines other than model lines the solver-output reader remembers (the last ones) for its messages.
TAIL_LINES = 5
#: :func:`read_solver_output` reads a line in pieces of this many characters: a longer comment is skipped
#: piece by piece, a longer model line is read literal by literal.
LINE_PIECE = 1 << 20

_BLANKS = " \t\x0b\x0c"
_BLOCK = 1 << 18  # characters of clause text converted at once by the bulk CNF reader
# A hit sends a clause or model line to the careful path: a character that cannot be in a literal, or a
# run of ten digits (a number of that size cannot be a variable, and is never converted).
_SUSPECT = re.compile(r"[^0-9 \t\x0b\x0c-]|[0-9]{10}").search
_NOT_TEXT = re.compile(r"[^\t\x0b\x0c\x20-\x7e]").search  # non-ASCII or a control character
_INTEGER = re.compile(r"-?[0-9]+").fullmatch
_SPECIAL_LINES = re.compile(r"\n[ \t\x0b\x0c]*[cp%][^\n]*").finditer  # comment, header, end-marker lines
_NOT_CLAUSES = re.compile(r"[^0-9 \t\x0b\x0c\n-]").search
_HEADER = re.compile(r"p[ \t\x0b\x0c]+cnf[ \t\x0b\x0c]+([0-9]+)[ \t\x0b\x0c]+([0-9]+)").fullmatch
_CLAUSE_HINT = "clause lines hold ASCII integers separated by spaces, each clause ended by 0"
_MODEL_HINT = "model lines hold ASCII integers separated by spaces, the model ended by 0"


def write_dimacs_clauses(
    out: IO[str], num_vars: int, clauses: Sequence[Clause], comments: Sequence[str] = (),
    group_comments: Sequence[ClauseGroup] = (),
) -> None:
    """Write clauses in DIMACS CNF to a text stream, with optional comments before groups."""
    for text in comments:
        out.write(f"c {text}\n")
    out.write(f"p cnf {num_vars} {len(clauses)}\n")
    marks = {g.start: g for g in group_comments if len(g)}
    chunk: list[str] = []
    for i, clause in enumerate(clauses):
        group = marks.get(i)
        if group is not None:
            chunk.append(f"c {group.label} ({len(group)} clause{'s' if len(group) != 1 else ''})")
        chunk.append(" ".join(map(str, clause)) + " 0")
        if len(chunk) >= 65536:
            out.write("\n".join(chunk) + "\n")
            chunk.clear()
    if chunk:
        out.write("\n".join(chunk) + "\n")


# ---------------------------------------------------------------------------------------------------------
# shared helpers: one-line messages about bad text


def _show(text: str, limit: int = 40) -> str:
    """``text`` quoted for a one-line message, cut to ``limit`` characters."""
    return repr(text) if len(text) <= limit else repr(text[:limit]) + "..."


def _cut(digits: str, limit: int = 24) -> str:
    """An ASCII number for a message, cut to ``limit`` digits."""
    return digits if len(digits) <= limit else digits[:limit] + "..."


def _describe_char(char: str) -> str:
    kind = "non-ASCII character" if ord(char) > 0x7F else "control character"
    return f"{kind} {char!r} (U+{ord(char):04X})"


def _one_line(source: str) -> str:
    source = str(source)
    return source if source.isprintable() else repr(source)


def _literals(text: str, where: str, limit: int, beyond: str, hint: str, error: type[InputError]) -> list[int]:
    """The integers of one line's tokens, each an ASCII literal from -limit to limit, else a one-line error.

    The careful path: it names the first bad character or token.  ``beyond`` ends the message about a
    literal out of range ("is outside ...").
    """
    bad = _NOT_TEXT(text)
    if bad:
        raise error(f"{where}: {_describe_char(bad.group())} outside a comment; {hint}")
    values = []
    for token in text.split():
        if not _INTEGER(token):
            raise error(f"{where}: {_show(token)} is not an integer literal; {hint}")
        digits = token.lstrip("-").lstrip("0")
        if len(digits) > 9:  # never convert an over-long number
            raise error(f"{where}: literal {_cut(token)} is {beyond}")
        value = -int(digits or "0") if token[0] == "-" else int(digits or "0")
        if not -limit <= value <= limit:
            raise error(f"{where}: literal {value} is {beyond}")
        values.append(value)
    return values


def _decode(text: str | bytes | bytearray) -> str:
    if isinstance(text, (bytes, bytearray)):
        return bytes(text).decode("utf-8", errors="replace")
    if not isinstance(text, str):
        raise InputError(f"expected text or bytes, got {type(text).__name__}")
    return text


# ---------------------------------------------------------------------------------------------------------
# CNF files


@dataclass
class Dimacs:
    """A DIMACS CNF read from a file: the declared variable count, the clauses and the comment lines."""

    num_vars: int
    clauses: list[Clause]
    comments: list[str] = field(default_factory=list)
    source: str = "<text>"

    @property
    def num_clauses(self) -> int:
        return len(self.clauses)

    def board_size(self) -> int | None:
        """n when the variable count is a perfect square n², else None."""
        root = isqrt(self.num_vars)
        return root if root * root == self.num_vars and root > 0 else None


def _header(line: str, where: str, text_length: int) -> tuple[int, int]:
    match = _HEADER(line)
    if not match:
        raise DimacsError(f"{where}: expected 'p cnf VARIABLES CLAUSES' (two ASCII whole numbers), got {_show(line)}")
    counts = []
    for digits, what, cap in ((match.group(1), "variables", MAX_VARIABLES), (match.group(2), "clauses", MAX_CLAUSES)):
        digits = digits.lstrip("0") or "0"
        if len(digits) > 9 or int(digits) > cap:
            raise DimacsError(f"{where}: the header declares {_cut(digits)} {what}; "
                              f"the kit reads at most {cap:,}")
        counts.append(int(digits))
    num_vars, num_clauses = counts
    if num_clauses > (text_length + 1) // 2:  # each clause takes at least "0" and a separator
        raise DimacsError(f"{where}: the header declares {num_clauses:,} clauses but the file, "
                          f"{text_length:,} characters long, cannot hold that many")
    return num_vars, num_clauses


@contextmanager
def _no_cycle_collection() -> Iterator[None]:
    """Pause the cyclic garbage collector: it would rescan the growing clause lists again and again
    (it costs a third of the reading time); clauses hold no cycles."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def parse_dimacs(text: str | bytes, source: str = "<text>") -> Dimacs:
    """Parse DIMACS CNF text (bytes are decoded as UTF-8, undecodable bytes replaced).

    Accepts comments anywhere, clauses wrapped over several lines or several on one line, blank lines,
    LF, CRLF or CR line ends, a missing final newline and the SATLIB ``%`` end marker.  Anything else is a
    one-line :class:`DimacsError` naming the source and line; the module docstring has the whole policy.
    """
    text = _decode(text)
    source = _one_line(source)
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    with _no_cycle_collection():
        return _parse_in_bulk(text, source) or _parse_by_line(text, source)


def _parse_in_bulk(text: str, source: str) -> Dimacs | None:
    """The usual file, read with whole-text operations; None when any line needs a closer look.

    Comment, header and end-marker lines are found by one scan; the clause text between them is checked,
    split and converted a block at a time and cut at its zeros.  Whatever is unusual (an error, a zero-padded
    number, ...) is left to :func:`_parse_by_line`, which reads the same language line by line and names
    the line of an error.
    """
    scan = "\n" + text
    comments: list[str] = []
    pieces: list[str] = []
    header: tuple[int, int] | None = None
    pos = 0
    for special in _SPECIAL_LINES(scan):
        gap = scan[pos:special.start()]
        if header is not None:
            pieces.append(gap)
        elif gap.strip(" \t\x0b\x0c\n"):
            return None  # something before the header
        pos = special.end()
        line = special.group().strip(_BLANKS + "\n")
        first = line[0]
        if first == "c":
            comments.append(line[1:].strip())
        elif first == "%":
            break
        else:
            match = _HEADER(line)
            if header is not None or not match:
                return None
            counts = [int(d) if len(d) < 10 else MAX_CLAUSES + 1 for d in match.groups()]
            if counts[0] > MAX_VARIABLES or counts[1] > MAX_CLAUSES or counts[1] > (len(text) + 1) // 2:
                return None
            header = (counts[0], counts[1])
    else:
        pieces.append(scan[pos:])
    if header is None:
        return None
    num_vars, num_clauses = header
    clauses: list[Clause] = []
    add = clauses.append
    pending: list[int] = []  # the start of a clause that goes on in the next block
    for block in _blocks(pieces):
        if _NOT_CLAUSES(block):
            return None
        tokens = block.split()
        if not tokens:
            continue
        if max(map(len, tokens)) > 10:
            return None  # a long (perhaps zero-padded) number
        try:
            values = list(map(int, tokens))
        except ValueError:  # a stray '-'
            return None
        del tokens
        if max(values) > num_vars or min(values) < -num_vars:
            return None
        find, start = values.index, 0
        try:
            while True:
                end = find(0, start)
                if pending:
                    add(pending + values[start:end])
                    pending = []
                else:
                    add(values[start:end])
                start = end + 1
        except ValueError:  # no more zeros
            pending += values[start:]
    if pending or len(clauses) != num_clauses:
        return None
    return Dimacs(num_vars, clauses, comments, source)


def _blocks(pieces: list[str]) -> Iterator[str]:
    """The clause text in blocks of about :data:`_BLOCK` characters, cut at line ends (a literal never spans
    one), so that only one block's tokens are held at a time."""
    size = _BLOCK
    for piece in pieces:
        start = 0
        while start < len(piece):
            end = piece.find("\n", start + size)
            end = len(piece) if end < 0 else end
            yield piece[start:end]
            start = end


def _parse_by_line(text: str, source: str) -> Dimacs:
    """The reference reader, line by line; it raises the error of the first bad line."""
    num_vars = -1
    num_clauses = header_line = last_line = 0
    clauses: list[Clause] = []
    comments: list[str] = []
    current: list[int] = []
    suspect = _SUSPECT
    for lineno, raw in enumerate(text.split("\n"), start=1):
        line = raw.strip(_BLANKS)
        if not line:
            continue
        first = line[0]
        if first == "c":
            comments.append(line[1:].strip())
            continue
        if first == "%":
            break
        if first == "p":
            if header_line:
                raise DimacsError(f"{source}:{lineno}: a second 'p' header (the first is on line {header_line})")
            num_vars, num_clauses = _header(line, f"{source}:{lineno}", len(text))
            header_line = lineno
            continue
        if not header_line:
            if suspect(line) is None:
                raise DimacsError(f"{source}:{lineno}: clause before the 'p cnf VARIABLES CLAUSES' header")
            raise DimacsError(f"{source}:{lineno}: expected 'c' comments, then the 'p cnf VARIABLES CLAUSES' "
                              f"header; got {_show(line)}")
        last_line = lineno
        if suspect(line) is None and not current:
            # The usual line, one whole clause: converted and checked in bulk.
            try:
                values = list(map(int, line.split()))
            except ValueError:  # a stray '-' ("1-2", "--3"): the careful path names it
                values = []
            if values and values[-1] == 0 and values.count(0) == 1:
                values.pop()
                if not values or (max(values) <= num_vars and min(values) >= -num_vars):
                    clauses.append(values)
                    continue
        for value in _literals(line, f"{source}:{lineno}", num_vars,
                               f"outside the {num_vars} variables the header declares", _CLAUSE_HINT, DimacsError):
            if value:
                current.append(value)
            else:
                clauses.append(current)
                current = []
    if not header_line:
        raise DimacsError(f"{source}: no 'p cnf VARIABLES CLAUSES' header; is this a DIMACS CNF file?")
    if current:
        raise DimacsError(f"{source}:{last_line}: the last clause is not ended by 0")
    if len(clauses) != num_clauses:
        raise DimacsError(
            f"{source}:{header_line}: the header declares {num_clauses} clauses but the file has {len(clauses)}"
        )
    return Dimacs(num_vars, clauses, comments, source)


def read_dimacs(path: str | os.PathLike[str]) -> Dimacs:
    """Read a DIMACS CNF file (one-line error if it is missing, unreadable or malformed)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        raise InputError(f"no such file: {_one_line(str(path))}") from None
    except IsADirectoryError:
        raise InputError(f"{_one_line(str(path))} is a folder, not a DIMACS file") from None
    except OSError as exc:
        raise InputError(f"cannot read {_one_line(str(path))}: {exc.strerror or exc}") from None
    return parse_dimacs(text, source=str(path))


# ---------------------------------------------------------------------------------------------------------
# solver output

_MINISAT_WORDS = {"SAT": "sat", "SATISFIABLE": "sat", "UNSAT": "unsat", "UNSATISFIABLE": "unsat",
                  "INDET": "unknown", "UNKNOWN": "unknown"}
_COMPETITION_WORDS = {"SATISFIABLE": "sat", "UNSATISFIABLE": "unsat", "UNKNOWN": "unknown"}
_NO_ANSWER = "no SAT/UNSAT answer found in the solver output (expected 's SATISFIABLE' or 'SAT')"


@dataclass(frozen=True)
class SolverAnswer:
    """What a SAT solver answered.

    ``status`` is ``sat``, ``unsat`` or ``unknown`` (the solver's own ``s UNKNOWN`` / ``INDET``: it gave
    up, usually at its own limit).  ``model`` is the literals of a ``sat`` answer, each variable once, in
    the order printed (``None`` otherwise).  ``complete`` is false when the answer was not read in full:
    a model not ended by its ``0``, or SAT without a model; ``note`` then says what is missing.
    ``status_line`` is the status as the solver printed it (``s SATISFIABLE``, ``INDET``, ...).

    Unpacking as ``status, model = answer`` still works for callers written for the old pair; new code
    reads the fields (and must look at ``complete``).
    """

    status: str
    model: list[int] | None = None
    complete: bool = True
    note: str = ""
    status_line: str = ""

    def __iter__(self) -> Iterator[Any]:
        return iter((self.status, self.model))


class SolverOutputReader:
    """A SAT solver's output read one line at a time: :meth:`feed` each line, then :meth:`finish`.

    Memory stays bounded by the model: comments are not kept, only the last :data:`TAIL_LINES` lines
    other than model lines (cut to 200 characters) for messages.  ``max_var``, when the caller knows the
    formula's variable count, makes a literal beyond it an error (the limit is :data:`MAX_VARIABLES`
    otherwise).  Errors are raised as soon as a line shows them, as one-line :class:`InputError` naming
    ``source`` and the line.

    >>> reader = SolverOutputReader("cadical", max_var=3)
    >>> for line in ["c hello", "s SATISFIABLE", "v 1 -2", "v 3 0"]:
    ...     reader.feed(line)
    >>> reader.finish().model
    [1, -2, 3]
    """

    def __init__(self, source: str = "solver output", max_var: int | None = None) -> None:
        if max_var is not None and (isinstance(max_var, bool) or not isinstance(max_var, int) or max_var < 0):
            raise InputError(f"max_var must be a whole number of variables, not {max_var!r}")
        self.source = _one_line(source)
        self.max_var = max_var
        if max_var is not None and max_var <= MAX_VARIABLES:
            self._limit, self._beyond = max_var, f"beyond the {max_var} variables of the formula"
        else:
            self._limit, self._beyond = MAX_VARIABLES, f"beyond the {MAX_VARIABLES:,} variables the kit reads"
        self.lineno = 0
        self._form: str | None = None  # "competition" or "minisat"
        self._status: str | None = None
        self._status_line = ""
        self._status_at = 0
        self._model: list[int] = []
        self._seen: set[int] = set()
        self._model_at = 0  # first model line
        self._model_last = 0  # last model line
        self._ended_at = 0  # the line of the model's ending 0
        self._tail: deque[str] = deque(maxlen=TAIL_LINES)

    # -- input ---------------------------------------------------------------------------------------------

    def feed(self, line: str | bytes) -> None:
        """Read one line (its line end optional; text holding several lines is read as those lines)."""
        if not isinstance(line, str):
            line = _decode(line)
        if line.endswith("\n"):
            line = line[:-2] if line.endswith("\r\n") else line[:-1]
        if "\n" in line or "\r" in line:
            for part in line.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
                self._line(part)
        else:
            self._line(line)

    @property
    def tail(self) -> tuple[str, ...]:
        """The last few lines other than model lines (comments included), each cut to 200 characters."""
        return tuple(self._tail)

    def _where(self, lineno: int | None = None) -> str:
        return f"{self.source}:{self.lineno if lineno is None else lineno}"

    def _line(self, raw: str) -> None:
        self.lineno += 1
        line = raw.strip(_BLANKS)
        if not line:
            return
        if line[0] == "c":
            self._tail.append(line[:200])
            return
        bad = _NOT_TEXT(line)
        if bad:
            raise InputError(f"{self._where()}: {_describe_char(bad.group())} outside a comment line; "
                             "solver output is ASCII outside 'c' comments")
        head, _, rest = line.partition(" ")
        if "\t" in head or "\x0b" in head or "\x0c" in head:
            head, rest = (line.split(None, 1) + [""])[:2]
        if head in ("s", "v"):
            if self._form == "minisat":
                began = (f"its status is {self._status_line!r} on line {self._status_at}" if self._status_at
                         else f"it began with literals on line {self._model_at}")
                raise InputError(f"{self._where()}: a competition-format '{head}' line in MiniSat-format output "
                                 f"({began})")
            self._form = "competition"
            if head == "s":
                self._tail.append(line[:200])
                self._status_word(rest.strip(_BLANKS), line)
            else:
                self._model_text(rest)
            return
        if self._form == "competition":
            raise InputError(f"{self._where()}: {_show(line)} is not a competition-format line "
                             "(expected 'c ...' comments, one 's ...' status line and 'v ... 0' model lines)")
        word = line.upper()
        if word in _MINISAT_WORDS:
            self._form = "minisat"
            self._tail.append(line[:200])
            self._set_status(_MINISAT_WORDS[word], line)
            return
        if line[0] in "-0123456789":
            self._form = "minisat"
            self._model_text(line)
            return
        if self._form is None:
            raise InputError(f"{self._where()}: {_NO_ANSWER}; line {self.lineno} reads {_show(line)}")
        raise InputError(f"{self._where()}: {_show(line)} is neither literals nor a comment; "
                         "a MiniSat result file is 'SAT', 'UNSAT' or 'INDET' then the literals ending in 0")

    def _status_word(self, words: str, line: str) -> None:
        status = _COMPETITION_WORDS.get(words.upper())
        if status is None:
            if not words:
                raise InputError(f"{self._where()}: a status line without a status; "
                                 "expected 's SATISFIABLE', 's UNSATISFIABLE' or 's UNKNOWN'")
            raise InputError(f"{self._where()}: unknown status {_show(words)}; "
                             "expected 's SATISFIABLE', 's UNSATISFIABLE' or 's UNKNOWN'")
        self._set_status(status, line)

    def _set_status(self, status: str, line: str) -> None:
        if self._status is not None:
            if status != self._status:
                raise InputError(f"{self._where()}: {_show(line)} contradicts {self._status_line!r} on line "
                                 f"{self._status_at}; a solver gives one answer")
            return  # the same answer again
        if status != "sat" and self._model_at:
            raise InputError(f"{self._where()}: {_show(line)} but line {self._model_at} gives a model; "
                             "only a SAT answer has one")
        self._status, self._status_line, self._status_at = status, line, self.lineno

    def _model_text(self, text: str) -> None:
        """Literals of a model line (without its 'v'), or of a further piece of a long one."""
        if not self._model_at:
            self._model_at = self.lineno
            if self._status not in (None, "sat"):
                raise InputError(f"{self._where()}: a model, but line {self._status_at} says "
                                 f"{self._status_line!r}; only a SAT answer has one")
        self._model_last = self.lineno
        if _SUSPECT(text) is None:
            try:
                values = list(map(int, text.split()))
            except ValueError:
                values = _literals(text, self._where(), self._limit, self._beyond, _MODEL_HINT, InputError)
        else:
            values = _literals(text, self._where(), self._limit, self._beyond, _MODEL_HINT, InputError)
        if not values:
            return
        if self._ended_at:
            raise InputError(f"{self._where()}: literal {values[0]} after the model's ending 0 on line "
                             f"{self._ended_at}; a solver gives one model")
        if 0 in values:
            end = values.index(0)
            if end != len(values) - 1:
                raise InputError(f"{self._where()}: literal {values[end + 1]} after the model's ending 0; "
                                 "0 ends the model")
            values.pop()
            self._ended_at = self.lineno
        if values and (max(values) > self._limit or min(values) < -self._limit):
            wrong = next(v for v in values if not -self._limit <= v <= self._limit)
            raise InputError(f"{self._where()}: literal {wrong} is {self._beyond}")
        seen, model = self._seen, self._model
        for value in values:
            if value in seen:
                continue
            if -value in seen:
                raise InputError(f"{self._where()}: literal {value} contradicts {-value} earlier in the model; "
                                 "a model sets each variable once")
            seen.add(value)
            model.append(value)

    # -- result --------------------------------------------------------------------------------------------

    def finish(self) -> SolverAnswer:
        """The answer read so far; an :class:`InputError` if there is none."""
        status, status_line = self._status, self._status_line
        if status is None:
            if self._model_at and self._form == "minisat":
                status, status_line = "sat", ""  # a bare model
            elif self._model_at:
                raise InputError(f"{self._where(self._model_at)}: a model but no status line; "
                                 "expected 's SATISFIABLE' with the 'v' lines")
            else:
                last = f"its last line reads {_show(self._tail[-1])}" if self._tail else "the output is empty"
                raise InputError(f"{self.source}: {_NO_ANSWER}; {last}")
        if status != "sat":
            return SolverAnswer(status, None, True, "", status_line)
        said = status_line or "a model"
        if not self._model_at:
            note = f"the output says {said!r} but gives no model"
        elif not self._ended_at:
            note = (f"the model is not ended by 0 (its last line is line {self._model_last}); "
                    "the output looks cut off")
        else:
            note = ""
        return SolverAnswer("sat", list(self._model), not note, note, status_line)

    # -- long lines (read_solver_output) ------------------------------------------------------------------

    def _long_line(self, pieces: Iterator[str], first: str) -> None:
        """A line longer than :data:`LINE_PIECE`: ``first`` is its start, ``pieces`` the rest.

        A comment's remainder is skipped; a model line is read literal by literal; any other line this long
        is an error.
        """
        line = first.lstrip(_BLANKS)
        words = line.split(None, 1)
        head = words[0] if words else ""
        cut = max(first.rfind(blank) for blank in _BLANKS)
        is_model = head == "v" or (self._form != "competition" and head[:1] in tuple("-0123456789"))
        if line[:1] == "c" or not is_model or cut < 0:
            # a comment (remembered, cut short); otherwise the line's start, read to judge it
            self._line(first)
            if line[:1] != "c":
                raise InputError(f"{self._where()}: a line longer than {LINE_PIECE:,} characters that is neither "
                                 "a comment nor a model line")
            for _ in pieces:
                pass
            return
        # a model line: cut at blanks so that no literal is split, then read each part as more of it
        self._line(first[:cut])
        carry = first[cut + 1:]
        for piece in pieces:
            text = carry + piece
            cut = max(text.rfind(blank) for blank in _BLANKS)
            if cut < 0 and len(text) <= 64:
                carry = text  # a literal split over pieces: wait for its end
                continue
            carry = text[cut + 1:] if cut >= 0 else ""
            self._model_text(text[:cut] if cut >= 0 else text)
        if carry:
            self._model_text(carry)


def parse_solver_output(text: str | bytes, source: str = "solver output", max_var: int | None = None) -> SolverAnswer:
    """A solver's whole output as a :class:`SolverAnswer` (a thin wrapper over :class:`SolverOutputReader`).

    >>> parse_solver_output("SAT\\n-1 2 0\\n").model
    [-1, 2]
    >>> parse_solver_output("s SATISFIABLE\\nv 1 -2").note
    'the model is not ended by 0 (its last line is line 2); the output looks cut off'
    """
    reader = SolverOutputReader(source, max_var)
    reader.feed(_decode(text))
    return reader.finish()


def read_solver_output(stream: IO[str] | IO[bytes], source: str = "solver output",
                       max_var: int | None = None) -> SolverAnswer:
    """A solver's answer read from a text or binary stream (a file, a pipe), line by line.

    Memory stays bounded by the model even for gigabytes of comments or a gigabyte-long line: lines are
    read in pieces of at most :data:`LINE_PIECE` characters.  Bytes are decoded as UTF-8 (undecodable
    bytes replaced) with LF, CRLF and CR line ends; the stream is left open.

    >>> read_solver_output(io.BytesIO(b"c PicoSAT\\ns UNSATISFIABLE\\n")).status
    'unsat'
    """
    reader = SolverOutputReader(source, max_var)
    binary = isinstance(stream, (io.RawIOBase, io.BufferedIOBase))
    text_stream: Any = io.TextIOWrapper(stream, encoding="utf-8", errors="replace") if binary else stream
    readline = text_stream.readline

    def piece() -> tuple[str, bool]:
        """The next piece of a line, and whether it ends the line (a newline, or the end of the stream)."""
        chunk = readline(LINE_PIECE)
        if isinstance(chunk, (bytes, bytearray)):  # a byte stream of another kind
            return chunk.decode("utf-8", errors="replace"), len(chunk) < LINE_PIECE or chunk.endswith(b"\n")
        return chunk, len(chunk) < LINE_PIECE or chunk.endswith("\n")

    def rest_of_line() -> Iterator[str]:
        while True:
            more, ends = piece()
            if more:
                yield more.rstrip("\r\n")
            if ends:
                return

    try:
        while True:
            line, ends = piece()
            if not line:
                break
            if ends:
                reader.feed(line)
            else:
                reader._long_line(rest_of_line(), line)
    finally:
        if binary:
            text_stream.detach()  # leave the caller's stream open
    return reader.finish()
