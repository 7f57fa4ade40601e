"""DIMACS CNF files, written and read safely.

Inside:

- :func:`write_dimacs_clauses`: clauses as DIMACS CNF text, with optional comment lines before groups.
- :func:`parse_dimacs`, :func:`read_dimacs`: a DIMACS CNF file into a :class:`Dimacs` (declared variable
  count, clauses, comments).

Every reader raises only the kit's one-line :class:`~nqueens_kit.errors.DimacsError` naming the source, the
line and what would be valid, whatever the input (text, or bytes decoded as UTF-8 with undecodable bytes
replaced), in time linear in the input: no backtracking pattern, no conversion of an over-long number.

Strict and lenient:

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

>>> parse_dimacs("p cnf 2 1\\n1 -2 0\\n").clauses
[[1, -2]]
"""

from __future__ import annotations

import gc
import os
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from math import isqrt
from pathlib import Path
from typing import IO, Protocol

from ..errors import DimacsError, InputError
from .text import (
    BLANKS,
    CLAUSE_HINT,
    MAX_CLAUSES,
    MAX_VARIABLES,
    SUSPECT,
    Clause,
    cut,
    decode_text,
    literals,
    one_line,
    show,
)

_BLOCK = 1 << 18  # characters of clause text converted at once by the bulk CNF reader
_SPECIAL_LINES = re.compile(r"\n[ \t\x0b\x0c]*[cp%][^\n]*").finditer  # comment, header, end-marker lines
_NOT_CLAUSES = re.compile(r"[^0-9 \t\x0b\x0c\n-]").search
_HEADER = re.compile(r"p[ \t\x0b\x0c]+cnf[ \t\x0b\x0c]+([0-9]+)[ \t\x0b\x0c]+([0-9]+)").fullmatch


class Marked(Protocol):
    """What :func:`write_dimacs_clauses` needs of a group of clauses to comment it: where it starts, its label
    and its length (a :class:`~nqueens_kit.methods.sat.cnf.ClauseGroup`)."""

    @property
    def start(self) -> int: ...

    @property
    def label(self) -> str: ...

    def __len__(self) -> int: ...


def write_dimacs_clauses(
    out: IO[str], num_vars: int, clauses: Sequence[Clause], comments: Sequence[str] = (),
    group_comments: Sequence[Marked] = (),
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






@dataclass
class Dimacs:
    """A DIMACS CNF read from a file: the declared variable count, the clauses and the comment lines."""

    num_vars: int
    clauses: list[Clause]
    comments: list[str] = field(default_factory=list)
    source: str = "<text>"
    #: The clause count the header declares (what :func:`read_header` knows before reading the clauses).
    declared: int | None = None

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
        raise DimacsError(f"{where}: expected 'p cnf VARIABLES CLAUSES' (two ASCII whole numbers), got {show(line)}")
    counts = []
    for digits, what, cap in ((match.group(1), "variables", MAX_VARIABLES), (match.group(2), "clauses", MAX_CLAUSES)):
        digits = digits.lstrip("0") or "0"
        if len(digits) > 9 or int(digits) > cap:
            raise DimacsError(f"{where}: the header declares {cut(digits)} {what}; "
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
    text = decode_text(text)
    source = one_line(source)
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
        line = special.group().strip(BLANKS + "\n")
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
    suspect = SUSPECT
    for lineno, raw in enumerate(text.split("\n"), start=1):
        line = raw.strip(BLANKS)
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
                              f"header; got {show(line)}")
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
        for value in literals(line, f"{source}:{lineno}", num_vars,
                               f"outside the {num_vars} variables the header declares", CLAUSE_HINT, DimacsError):
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


#: How much of a file :func:`read_header` looks at for the comments and the ``p cnf`` line.
HEADER_BYTES = 1 << 16


def regular_file(path: str | os.PathLike[str]) -> Path:
    """``path`` if it names a regular file, else a one-line error (missing, a folder, a device such as
    /dev/zero, a pipe: nothing the kit can size before reading)."""
    path = Path(path)
    if str(path).strip() == "":
        raise InputError("a DIMACS file is named by a path, not an empty string")
    try:
        if path.is_dir():
            raise InputError(f"{one_line(str(path))} is a folder, not a DIMACS file")
        if not path.exists():
            raise InputError(f"no such file: {one_line(str(path))}")
        if not path.is_file():
            raise InputError(f"{one_line(str(path))} is not a regular file (a device or a pipe?); give a DIMACS file")
    except OSError as exc:
        raise InputError(f"cannot read {one_line(str(path))}: {exc.strerror or exc}") from None
    return path


def read_header(path: str | os.PathLike[str]) -> Dimacs:
    """The comments and the ``p cnf`` counts of a DIMACS file, from its first :data:`HEADER_BYTES` only (no
    clauses): what the kit checks before it reads the whole file.  A one-line error for what is not a
    regular file or has no header there."""
    path = regular_file(path)
    try:
        with open(path, "rb") as handle:
            head = decode_text(handle.read(HEADER_BYTES))
    except OSError as exc:
        raise InputError(f"cannot read {one_line(str(path))}: {exc.strerror or exc}") from None
    comments: list[str] = []
    for number, line in enumerate(head.replace("\r\n", "\n").replace("\r", "\n").split("\n"), start=1):
        line = line.strip(BLANKS)
        if line.startswith("c"):
            comments.append(line[1:].strip())
        elif line.startswith("p"):
            num_vars, num_clauses = _header(line, f"{path}:{number}", os.path.getsize(path))
            return Dimacs(num_vars, [], comments, str(path), declared=num_clauses)
        elif line:
            break
    raise DimacsError(f"{path}: no 'p cnf VARIABLES CLAUSES' header among the comments at its top")


def read_dimacs(path: str | os.PathLike[str]) -> Dimacs:
    """Read a DIMACS CNF file (one-line error if it is missing, unreadable or malformed)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        raise InputError(f"no such file: {one_line(str(path))}") from None
    except IsADirectoryError:
        raise InputError(f"{one_line(str(path))} is a folder, not a DIMACS file") from None
    except OSError as exc:
        raise InputError(f"cannot read {one_line(str(path))}: {exc.strerror or exc}") from None
    return parse_dimacs(text, source=str(path))


