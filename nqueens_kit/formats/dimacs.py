"""DIMACS CNF files, written and read safely.

Inside:

- :func:`write_dimacs_clauses`: clauses as DIMACS CNF text, with optional comment lines before groups.
- :func:`write_dimacs_arrays`: the same text for clauses held as arrays (a flat literal array and clause
  offsets), made with whole-array operations: what large formulas are written with.
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
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from math import isqrt
from pathlib import Path
from typing import IO, TYPE_CHECKING, Protocol, TypeVar

from ..errors import DimacsError, InputError
from ..runtime.files import file_to_read
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

if TYPE_CHECKING:  # numpy itself is imported by the array writer only
    import numpy as np
    from numpy.typing import ArrayLike, NDArray

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


#: Clauses converted to text at once by :func:`write_dimacs_arrays` (bounds its temporary arrays).
_ARRAY_CHUNK = 1 << 18
#: Chunks converted at the same time (numpy works without the interpreter lock).
_WORKERS = 2
#: Above this many variables the table of literal texts would be too large: clause by clause instead.
_TABLE_VARIABLES = 1 << 25


def write_dimacs_arrays(
    out: IO[bytes], num_vars: int, literals: ArrayLike, offsets: ArrayLike, comments: Sequence[str] = (),
    group_comments: Sequence[Marked] = (),
) -> None:
    """:func:`write_dimacs_clauses` for clauses held as arrays, to a binary stream, byte for byte the same
    text: clause i is ``literals[offsets[i]:offsets[i + 1]]`` (``offsets`` one longer than the clauses).

    The text is made with whole-array operations: a table holds the text of every literal from
    ``-num_vars`` to ``num_vars`` (and ``0`` with its line end) in fixed-width rows padded with NUL bytes;
    a chunk of clauses becomes the rows of its literals, and dropping the padding leaves the text.

    >>> import io, numpy as np
    >>> out = io.BytesIO()
    >>> write_dimacs_arrays(out, 3, np.array([1, -2, 3]), np.array([0, 2, 3]))
    >>> out.getvalue().decode()
    'p cnf 3 2\\n1 -2 0\\n3 0\\n'
    """
    import numpy as np

    if type(num_vars) is not int or not 0 <= num_vars <= MAX_VARIABLES:
        raise InputError(f"num_vars is a whole number from 0 to {MAX_VARIABLES:,}, not {show(str(num_vars))}")
    literals = np.asarray(literals)
    offsets = np.asarray(offsets)
    if literals.ndim != 1 or offsets.ndim != 1 or literals.dtype.kind not in "iu" or offsets.dtype.kind not in "iu":
        raise InputError("literals and offsets are one-dimensional integer arrays")
    if not len(offsets) or offsets[0] != 0 or offsets[-1] != len(literals) or \
            np.any(offsets[1:] < offsets[:-1]):
        raise InputError("offsets start at 0, never decrease and end at the number of literals")
    if len(literals) and (int(literals.max()) > num_vars or int(literals.min()) < -num_vars or not literals.all()):
        raise InputError(f"every literal is a non-zero int from -{num_vars} to {num_vars}")
    count = len(offsets) - 1
    head = "".join(f"c {text}\n" for text in comments) + f"p cnf {num_vars} {count}\n"
    out.write(head.encode("ascii"))
    marks = sorted((g.start, f"c {g.label} ({len(g)} clause{'s' if len(g) != 1 else ''})\n".encode("ascii"))
                   for g in group_comments if len(g))
    chunks = []
    mark = 0
    for first in range(0, count, _ARRAY_CHUNK):
        last = min(count, first + _ARRAY_CHUNK)
        here = []
        while mark < len(marks) and marks[mark][0] < last:
            here.append(marks[mark])
            mark += 1
        chunks.append((first, last, here))
    if num_vars > _TABLE_VARIABLES or np.any(offsets[1:] == offsets[:-1]):
        # the table would not pay (or an empty clause, written " 0" as the clause-by-clause writer does):
        # clause by clause, a chunk at a time
        for first, last, here in chunks:
            cuts = offsets[first:last + 1].tolist()
            flat = literals[cuts[0]:cuts[-1]].tolist()
            base = cuts[0]
            lines = [" ".join(map(str, flat[a - base:b - base])) + " 0\n"
                     for a, b in zip(cuts[:-1], cuts[1:], strict=True)]
            for clause, line in reversed(here):
                lines.insert(clause - first, line.decode("ascii"))
            out.write("".join(lines).encode("ascii"))
        return
    table, sizes = _literal_table(num_vars)

    def convert(chunk: tuple[int, int, list[tuple[int, bytes]]]) -> tuple[NDArray[np.uint8], list[int]]:
        first, last, here = chunk
        return _chunk_text(literals, offsets, first, last, table, sizes, num_vars, [c for c, _line in here])

    # numpy lets go of the interpreter while it converts, so the chunks are converted two at a time
    with ThreadPoolExecutor(max_workers=_WORKERS) as pool:
        for (_first, _last, here), (text, places) in zip(chunks, _ahead(pool, convert, chunks), strict=True):
            view = memoryview(text.data)
            at = 0
            for (_clause, line), place in zip(here, places, strict=True):
                out.write(view[at:place])
                out.write(line)
                at = place
            out.write(view[at:])


def _literal_table(num_vars: int) -> tuple[NDArray[np.void], NDArray[np.uint8]]:
    """Row ``v + num_vars`` holds the text of literal v and a space (``0`` and a line end for v = 0),
    left-aligned and padded with NUL bytes, as one fixed-width void item; and each row's length."""
    import numpy as np

    digits = len(str(num_vars))
    width = digits + 2
    table = np.zeros((2 * num_vars + 1, width), dtype=np.uint8)
    sizes = np.zeros(2 * num_vars + 1, dtype=np.uint8)
    table[num_vars, :2] = (ord("0"), ord("\n"))
    sizes[num_vars] = 2
    for d in range(1, digits + 1):
        low, high = 10 ** (d - 1), min(10 ** d - 1, num_vars)
        if low > high:
            break
        values = np.arange(low, high + 1, dtype=np.int32)
        text = np.empty((len(values), d), dtype=np.uint8)
        for place in range(d):
            np.add((values // 10 ** place) % 10, ord("0"), out=text[:, d - 1 - place], casting="unsafe")
        positive = table[num_vars + low:num_vars + high + 1]
        positive[:, :d] = text
        positive[:, d] = ord(" ")
        negative = table[num_vars - high:num_vars - low + 1][::-1]
        negative[:, 0] = ord("-")
        negative[:, 1:d + 1] = text
        negative[:, d + 1] = ord(" ")
        sizes[num_vars + low:num_vars + high + 1] = d + 1
        sizes[num_vars - high:num_vars - low + 1] = d + 2
    return table.view(np.dtype((np.void, width))).ravel(), sizes


_Item = TypeVar("_Item")
_Done = TypeVar("_Done")


def _ahead(pool: ThreadPoolExecutor, work: Callable[[_Item], _Done], items: list[_Item]) -> Iterator[_Done]:
    """``work(item)`` for each item in order, at most :data:`_WORKERS` of them under way at once."""
    pending: deque[Future[_Done]] = deque()
    for item in items:
        pending.append(pool.submit(work, item))
        if len(pending) >= _WORKERS:
            yield pending.popleft().result()
    while pending:
        yield pending.popleft().result()


def _chunk_text(literals: NDArray[np.integer], offsets: NDArray[np.integer], first: int, last: int,
                table: NDArray[np.void], sizes: NDArray[np.uint8], num_vars: int,
                marked: list[int]) -> tuple[NDArray[np.uint8], list[int]]:
    """Clauses ``first .. last - 1`` as text (a uint8 array), and where in it each clause of ``marked`` starts."""
    import numpy as np

    start, stop = int(offsets[first]), int(offsets[last])
    count = last - first
    ends = offsets[first + 1:last + 1] - start + np.arange(count)  # where each clause's 0 goes among the tokens
    tokens = np.full(stop - start + count, num_vars, dtype=np.int32 if num_vars < 2**30 else np.int64)
    is_literal = np.ones(len(tokens), dtype=bool)
    is_literal[ends] = False
    tokens[is_literal] = literals[start:stop].astype(tokens.dtype, copy=False) + num_vars
    rows = table[tokens].view(np.uint8)
    text = rows[rows != 0]
    if not marked:
        return text, []
    begins = ends - (offsets[first + 1:last + 1] - offsets[first:last])  # each clause's first token
    # the text before each marked clause's first token: the lengths of the tokens between marks, summed
    wanted = begins[[clause - first for clause in marked]]
    lengths = sizes[tokens]
    if wanted[0] == 0:
        places = np.concatenate([[0], np.cumsum(np.add.reduceat(lengths, wanted, dtype=np.int64))[:-1]])
    else:
        places = np.cumsum(np.add.reduceat(lengths, np.concatenate([[0], wanted]), dtype=np.int64))[:-1]
    return text, places.tolist()






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
    /dev/zero, a FIFO, a socket: nothing the kit can size before reading); the kit's one rule for files it
    reads, :func:`~nqueens_kit.runtime.files.file_to_read`."""
    return file_to_read(path, "a DIMACS file")


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
    if not isinstance(path, (str, os.PathLike)) or not isinstance(os.fspath(path), str) or "\0" in os.fspath(path):
        raise InputError(f"a DIMACS file is named by a path such as queens.cnf, not {one_line(repr(path)[:40])}")
    path = regular_file(path)  # a FIFO nobody writes to would keep the reader waiting
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        raise InputError(f"no such file: {one_line(str(path))}") from None
    except IsADirectoryError:
        raise InputError(f"{one_line(str(path))} is a folder, not a DIMACS file") from None
    except OSError as exc:
        raise InputError(f"cannot read {one_line(str(path))}: {exc.strerror or exc}") from None
    return parse_dimacs(text, source=str(path))


