"""A SAT solver's answer, read safely: MiniSat's result file or the SAT-competition format.

Inside:

- :class:`SolverOutputReader`: a solver's answer read as it comes (:meth:`~SolverOutputReader.write` pieces
  of output of any size, or :meth:`~SolverOutputReader.feed` whole lines, then
  :meth:`~SolverOutputReader.finish`) into a :class:`SolverAnswer`, in MiniSat's result-file form (``SAT``
  and the literals) or the SAT-competition form (``s SATISFIABLE``, ``v ... 0``);
  :func:`parse_solver_output` (a whole text) and :func:`read_solver_output` (a file or a pipe) are that
  one reader, so a text gets the same answer or the same error whichever way it is read, and however it
  is cut into pieces.

Strict and lenient, for solver output (the form is told by the first line that is not blank or a
comment):

- MiniSat result file: ``SAT``, ``UNSAT`` or ``INDET`` (also ``SATISFIABLE``, ``UNSATISFIABLE``,
  ``UNKNOWN``), then for SAT the literals over one or more lines.  Lines of literals without any status
  line (a bare model, as some solvers print) are read as SAT;
- competition format (CaDiCaL, Kissat, PicoSAT, CryptoMiniSat, Glucose, Lingeling on standard output):
  ``s SATISFIABLE``, ``s UNSATISFIABLE`` or ``s UNKNOWN``, the model on ``v`` lines (before or after
  the ``s`` line); every other line must be a ``c`` comment or blank;
- in both: comments and blank lines anywhere and of any length, status words in any letter case, the
  same answer given twice, a literal repeated (kept once); the model is ended by its ``0``.  Comments
  are not stored (the reader keeps the last :data:`TAIL_LINES` lines other than model lines for
  messages);
- long lines: blank lines, comments and model lines may be of any length (memory stays bounded: a model
  line is read in windows of :data:`LINE_PIECE` characters cut at blanks); any other line longer than
  :data:`LINE_PIECE` characters (not counting the blanks that begin it) is refused;
- refused as contradictory (a :class:`Contradiction`: the output is an answer, and a wrong one): two different
  status lines, a model with an UNSAT or UNKNOWN answer, a literal and its negation, anything after the
  model's ending ``0`` (a literal ``0`` ends the model, so ``v 1 0 2 0`` is refused);
- refused as malformed (not a solver's answer): a status word other than those above (``s FOO``), a line of the
  other form, non-ASCII or control characters outside comments, a literal beyond the formula's variables
  (when the caller gives them) or beyond :data:`MAX_VARIABLES`, output with no status at all;
- reported as incomplete (``SolverAnswer.complete`` false, ``note`` saying why): a SAT answer whose model
  is not ended by ``0`` (output cut off) or that has no model at all.  ``s UNKNOWN`` and ``INDET`` are
  the solver's own "unknown" (it gave up, usually at its own limit): a complete answer, status
  ``unknown``.

Bytes are decoded as UTF-8 (undecodable bytes replaced); LF, CRLF and CR end lines.

>>> parse_solver_output("s SATISFIABLE\\nv 1 -2\\nv 3 0\\n")
SolverAnswer(status='sat', model=[1, -2, 3], complete=True, note='', status_line='s SATISFIABLE')
"""

from __future__ import annotations

import codecs
import re
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import IO

from ..errors import InputError
from ..problem.results import Answer
from .text import (
    BLANKS,
    LINE_PIECE,
    MAX_VARIABLES,
    MODEL_HINT,
    NOT_TEXT,
    SUSPECT,
    TAIL_LINES,
    decode_text,
    describe_char,
    literals,
    one_line,
    show,
)

_MINISAT_WORDS = {"SAT": Answer.SAT, "SATISFIABLE": Answer.SAT, "UNSAT": Answer.UNSAT,
                  "UNSATISFIABLE": Answer.UNSAT, "INDET": Answer.UNKNOWN, "UNKNOWN": Answer.UNKNOWN}
_COMPETITION_WORDS = {"SATISFIABLE": Answer.SAT, "UNSATISFIABLE": Answer.UNSAT, "UNKNOWN": Answer.UNKNOWN}
class Contradiction(InputError):
    """Solver output that contradicts itself (two answers, a model with a "no", a literal and its negation,
    a second model): a lie caught, where other refusals say the text is not a solver's answer at all."""


_NO_ANSWER = "no SAT/UNSAT answer found in the solver output (expected 's SATISFIABLE' or 'SAT')"
_FIRST_WORD = re.compile(r"[^ \t\x0b\x0c]*").match
_NOT_BLANK = re.compile(r"[^ \t\x0b\x0c]").search
#: :func:`read_solver_output` reads this many bytes or characters at a time.
CHUNK = 1 << 16


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

    status: Answer
    model: list[int] | None = None
    complete: bool = True
    note: str = ""
    status_line: str = ""

    def __iter__(self) -> Iterator[Answer | list[int] | None]:
        return iter((self.status, self.model))


class SolverOutputReader:
    """A SAT solver's output read as it comes: :meth:`write` pieces of it (or :meth:`feed` whole lines),
    then :meth:`finish`.

    Memory stays bounded by the model: comments are not kept, only the last :data:`TAIL_LINES` lines
    other than model lines (cut to 200 characters) for messages, and a line is held only up to
    :data:`LINE_PIECE` characters.  ``max_var``, when the caller knows the formula's variable count,
    makes a literal beyond it an error (the limit is :data:`MAX_VARIABLES` otherwise).  Errors are raised
    as soon as a line shows them, as one-line :class:`InputError` naming ``source`` and the line, so a
    solver printing junk is stopped at its first bad line.

    >>> reader = SolverOutputReader("cadical", max_var=3)
    >>> for line in ["c hello", "s SATISFIABLE", "v 1 -2", "v 3 0"]:
    ...     reader.feed(line)
    >>> reader.finish().model
    [1, -2, 3]
    >>> reader = SolverOutputReader("pipe")
    >>> reader.write(b"s SATIS"); reader.write(b"FIABLE\\r"); reader.write(b"\\nv 1 -2 0\\n")
    >>> reader.answered, reader.lineno
    (True, 2)
    """

    def __init__(self, source: str = "solver output", max_var: int | None = None) -> None:
        if max_var is not None and (isinstance(max_var, bool) or not isinstance(max_var, int) or max_var < 0):
            raise InputError(f"max_var must be a whole number of variables, not {max_var!r}")
        self.source = one_line(source)
        self.max_var = max_var
        if max_var is not None and max_var <= MAX_VARIABLES:
            self._limit, self._beyond = max_var, f"beyond the {max_var} variables of the formula"
        else:
            self._limit, self._beyond = MAX_VARIABLES, f"beyond the {MAX_VARIABLES:,} variables the kit reads"
        self.lineno = 0  # the line being read (or the last one read)
        self._form: str | None = None  # "competition" or "minisat"
        self._status: Answer | None = None
        self._status_line = ""
        self._status_at = 0
        self._model: list[int] = []
        self._seen: set[int] = set()
        self._model_at = 0  # first model line
        self._model_last = 0  # last model line
        self._ended_at = 0  # the line of the model's ending 0
        self._tail: deque[str] = deque(maxlen=TAIL_LINES)
        # a line that is still coming (write): its text from its first non-blank character, or, once it is
        # longer than LINE_PIECE, what it is ("comment": skipped; "model": read in windows)
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._skip_lf = False  # the last piece ended with CR: a LF starting the next one ends no line
        self._in_line = False
        self._pending: list[str] = []
        self._pending_len = 0
        self._mode = ""
        self._model_parts: list[str] = []
        self._model_len = 0

    # -- input ---------------------------------------------------------------------------------------------

    def write(self, data: str | bytes) -> None:
        """Read a piece of output: any number of lines, the last one possibly unfinished (the next piece
        continues it; :meth:`finish` ends it)."""
        if isinstance(data, str):
            text = data
        elif isinstance(data, (bytes, bytearray, memoryview)):
            text = self._decoder.decode(bytes(data))
        else:
            raise InputError(f"expected text or bytes, got {type(data).__name__}")
        if not text:
            return
        if self._skip_lf:
            self._skip_lf = False
            text = text[1:] if text[0] == "\n" else text
        if "\r" in text:
            self._skip_lf = text[-1] == "\r"
            text = text.replace("\r\n", "\n").replace("\r", "\n")
        start, size = 0, len(text)
        while start < size:
            end = text.find("\n", start)
            if end < 0:
                self._piece(text[start:])
                return
            if not self._in_line and end - start <= LINE_PIECE:
                self.lineno += 1
                self._line(text[start:end])
            else:
                self._piece(text[start:end])
                self._end_line()
            start = end + 1

    def feed(self, line: str | bytes) -> None:
        """Read one line (its line end optional; text holding several lines is read as those lines)."""
        text = line if isinstance(line, str) else decode_text(line)
        self.write(text)
        if not text or text[-1] not in "\r\n":
            self._end_line()

    @property
    def tail(self) -> tuple[str, ...]:
        """The last few lines other than model lines (comments included), each cut to 200 characters."""
        return tuple(self._tail)

    @property
    def answered(self) -> bool:
        """True once a complete answer has been read (a solver that gave one has no reason to go on)."""
        if self._status is None:
            return self._form == "minisat" and bool(self._ended_at)
        return self._status != Answer.SAT or bool(self._ended_at)

    def _where(self, lineno: int | None = None) -> str:
        return f"{self.source}:{self.lineno if lineno is None else lineno}"

    # -- lines that come in pieces ---------------------------------------------------------------------------

    def _piece(self, text: str) -> None:
        """More of the line being read (no line end in ``text``)."""
        if not self._in_line:
            self._in_line = True
            self.lineno += 1
        if self._mode == "comment":
            return
        if self._mode == "model":
            self._model_parts.append(text)
            self._model_len += len(text)
            self._model_windows(final=False)
            return
        if not self._pending_len:
            text = text.lstrip(BLANKS)  # blanks that begin a line cost nothing, however many
            if not text:
                return
        self._pending.append(text)
        self._pending_len += len(text)
        if self._pending_len > LINE_PIECE:
            self._long_line()

    def _end_line(self) -> None:
        if not self._in_line:
            self.lineno += 1  # an empty line
            return
        self._in_line = False
        mode, self._mode = self._mode, ""
        if mode == "model":
            self._model_windows(final=True)
        elif not mode and self._pending:
            text = "".join(self._pending)
            self._pending, self._pending_len = [], 0
            self._line(text)

    def _long_line(self) -> None:
        """The line being read is longer than :data:`LINE_PIECE`: a comment (skipped), a model line (read
        in windows) or an error.  What it is follows from its first word, so however the output is cut
        into pieces the outcome is the same."""
        text = "".join(self._pending)
        self._pending, self._pending_len = [], 0
        known = text[:LINE_PIECE + 1]  # what every way of cutting the output has seen by now
        if text[0] == "c":
            self._tail.append(known[:200])
            self._mode = "comment"
            return
        first = _FIRST_WORD(known)
        head = first.group() if first else ""
        if head == "v":
            self._competition_line("v")
            text = text[2:]
        elif head[:1] in tuple("-0123456789"):
            self._minisat_literals(known)
        else:
            raise InputError(f"{self._where()}: a line longer than {LINE_PIECE:,} characters that is neither a "
                             f"comment nor a model line (it begins {show(known)})")
        self._mode = "model"
        self._model_parts, self._model_len = [text], len(text)
        self._model_windows(final=False)

    def _model_windows(self, final: bool) -> None:
        """Read the literals of a long model line held so far, a window of :data:`LINE_PIECE` characters at
        a time, each cut at its last blank (a window without a blank is one over-long token, an error);
        with ``final``, the rest too."""
        if not final and self._model_len < LINE_PIECE:
            return
        text = "".join(self._model_parts)
        pos = 0
        while True:
            found = _NOT_BLANK(text, pos)
            if found is None:
                pos = len(text)
                break
            pos = found.start()
            if len(text) - pos < LINE_PIECE:
                break
            cut = max(text.rfind(blank, pos, pos + LINE_PIECE) for blank in BLANKS)
            stop = cut if cut > pos else pos + LINE_PIECE
            self._model_text(text[pos:stop])
            pos = stop
        rest = text[pos:]
        if final:
            if rest:
                self._model_text(rest)
            rest = ""
        self._model_parts, self._model_len = ([rest], len(rest)) if rest else ([], 0)

    # -- whole lines -----------------------------------------------------------------------------------------

    def _line(self, raw: str) -> None:
        line = raw.strip(BLANKS)
        if not line:
            return
        if line[0] == "c":
            self._tail.append(line[:200])
            return
        bad = NOT_TEXT(line)
        if bad:
            raise InputError(f"{self._where()}: {describe_char(bad.group())} outside a comment line; "
                             "solver output is ASCII outside 'c' comments")
        head, _, rest = line.partition(" ")
        if "\t" in head or "\x0b" in head or "\x0c" in head:
            head, rest = (line.split(None, 1) + [""])[:2]
        if head in ("s", "v"):
            self._competition_line(head)
            if head == "s":
                self._tail.append(line[:200])
                self._status_word(rest.strip(BLANKS), line)
            else:
                self._model_text(rest)
            return
        if self._form == "competition":
            raise InputError(f"{self._where()}: {show(line)} is not a competition-format line "
                             "(expected 'c ...' comments, one 's ...' status line and 'v ... 0' model lines)")
        word = line.upper()
        if word in _MINISAT_WORDS:
            self._form = "minisat"
            self._tail.append(line[:200])
            self._set_status(_MINISAT_WORDS[word], line)
            return
        if line[0] in "-0123456789":
            self._minisat_literals(line)
            self._model_text(line)
            return
        if self._form is None:
            raise InputError(f"{self._where()}: {_NO_ANSWER}; line {self.lineno} reads {show(line)}")
        raise InputError(f"{self._where()}: {show(line)} is neither literals nor a comment; "
                         "a MiniSat result file is 'SAT', 'UNSAT' or 'INDET' then the literals ending in 0")

    def _competition_line(self, head: str) -> None:
        """An ``s`` or ``v`` line: the output is in the competition form (refused in MiniSat-form output)."""
        if self._form == "minisat":
            began = (f"its status is {self._status_line!r} on line {self._status_at}" if self._status_at
                     else f"it began with literals on line {self._model_at}")
            raise InputError(f"{self._where()}: a competition-format '{head}' line in MiniSat-format output "
                             f"({began})")
        self._form = "competition"

    def _minisat_literals(self, line: str) -> None:
        """A line of bare literals: the output is in MiniSat's form (refused in competition-form output)."""
        if self._form == "competition":
            raise InputError(f"{self._where()}: {show(line)} is not a competition-format line "
                             "(expected 'c ...' comments, one 's ...' status line and 'v ... 0' model lines)")
        self._form = "minisat"

    def _status_word(self, words: str, line: str) -> None:
        status = _COMPETITION_WORDS.get(words.upper())
        if status is None:
            if not words:
                raise InputError(f"{self._where()}: a status line without a status; "
                                 "expected 's SATISFIABLE', 's UNSATISFIABLE' or 's UNKNOWN'")
            raise InputError(f"{self._where()}: unknown status {show(words)}; "
                             "expected 's SATISFIABLE', 's UNSATISFIABLE' or 's UNKNOWN'")
        self._set_status(status, line)

    def _set_status(self, status: Answer, line: str) -> None:
        if self._status is not None:
            if status != self._status:
                raise Contradiction(f"{self._where()}: {show(line)} contradicts {self._status_line!r} on line "
                                 f"{self._status_at}; a solver gives one answer")
            return  # the same answer again
        if status != Answer.SAT and self._model_at:
            raise Contradiction(f"{self._where()}: {show(line)} but line {self._model_at} gives a model; "
                             "only a SAT answer has one")
        self._status, self._status_line, self._status_at = status, line, self.lineno

    def _model_text(self, text: str) -> None:
        """Literals of a model line (without its 'v'), or of a window of a long one."""
        if not self._model_at:
            self._model_at = self.lineno
            if self._status not in (None, Answer.SAT):
                raise Contradiction(f"{self._where()}: a model, but line {self._status_at} says "
                                 f"{self._status_line!r}; only a SAT answer has one")
        self._model_last = self.lineno
        if SUSPECT(text) is None:
            try:
                values = list(map(int, text.split()))
            except ValueError:
                values = literals(text, self._where(), self._limit, self._beyond, MODEL_HINT, InputError)
        else:
            values = literals(text, self._where(), self._limit, self._beyond, MODEL_HINT, InputError)
        if not values:
            return
        if self._ended_at:
            raise Contradiction(f"{self._where()}: literal {values[0]} after the model's ending 0 on line "
                             f"{self._ended_at}; a solver gives one model")
        if 0 in values:
            end = values.index(0)
            if end != len(values) - 1:
                raise Contradiction(f"{self._where()}: literal {values[end + 1]} after the model's ending 0; "
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
                raise Contradiction(f"{self._where()}: literal {value} contradicts {-value} earlier in the model; "
                                 "a model sets each variable once")
            seen.add(value)
            model.append(value)

    # -- result --------------------------------------------------------------------------------------------

    def finish(self) -> SolverAnswer:
        """The answer read so far (an unfinished last line is read as a line); an :class:`InputError` if
        there is none."""
        rest = self._decoder.decode(b"", final=True)
        if rest:
            self.write(rest)
        if self._in_line:
            self._end_line()
        status, status_line = self._status, self._status_line
        if status is None:
            if self._model_at and self._form == "minisat":
                status, status_line = Answer.SAT, ""  # a bare model
            elif self._model_at:
                raise InputError(f"{self._where(self._model_at)}: a model but no status line; "
                                 "expected 's SATISFIABLE' with the 'v' lines")
            else:
                last = f"its last line reads {show(self._tail[-1])}" if self._tail else "the output is empty"
                raise InputError(f"{self.source}: {_NO_ANSWER}; {last}")
        if status != Answer.SAT:
            return SolverAnswer(status, None, True, "", status_line)
        said = status_line or "a model"
        if not self._model_at:
            note = f"the output says {said!r} but gives no model"
        elif not self._ended_at:
            note = (f"the model is not ended by 0 (its last line is line {self._model_last}); "
                    "the output looks cut off")
        else:
            note = ""
        return SolverAnswer(Answer.SAT, list(self._model), not note, note, status_line)


def parse_solver_output(text: str | bytes, source: str = "solver output", max_var: int | None = None) -> SolverAnswer:
    """A solver's whole output as a :class:`SolverAnswer` (a thin wrapper over :class:`SolverOutputReader`).

    >>> parse_solver_output("SAT\\n-1 2 0\\n").model
    [-1, 2]
    >>> parse_solver_output("s SATISFIABLE\\nv 1 -2").note
    'the model is not ended by 0 (its last line is line 2); the output looks cut off'
    """
    reader = SolverOutputReader(source, max_var)
    reader.write(text)
    return reader.finish()


def read_solver_output(stream: IO[str] | IO[bytes], source: str = "solver output",
                       max_var: int | None = None) -> SolverAnswer:
    """A solver's answer read from a text or binary stream (a file, a pipe) in pieces of :data:`CHUNK`.

    The same reader as :func:`parse_solver_output`, with the same answer or error for the same text;
    memory stays bounded by the model even for gigabytes of comments or a gigabyte-long line.  The stream
    is left open.

    >>> import io
    >>> read_solver_output(io.BytesIO(b"c PicoSAT\\ns UNSATISFIABLE\\n")).status
    'unsat'
    """
    reader = SolverOutputReader(source, max_var)
    # one reader for both kinds of stream (a union of two methods is not callable as one for mypy)
    read: Callable[[int], str | bytes] = stream.read
    while True:
        chunk = read(CHUNK)
        if not chunk:
            break
        reader.write(chunk)
    return reader.finish()
