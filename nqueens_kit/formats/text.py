"""Reading numbers out of untrusted text: the shared rules of the DIMACS reader (:mod:`.dimacs`) and the
solver-output reader (:mod:`.solver_output`), and their one-line messages about bad text.

Every message names the source and the line and shows at most a few dozen characters of what was there,
with invisible or non-ASCII characters spelled out.
"""

from __future__ import annotations

import re

from ..errors import InputError

Clause = list[int]

#: The most variables a CNF header may declare and the largest variable a model may name.  Solvers
#: allocate for every declared variable before reading a clause: for a header of ten million MiniSat,
#: PicoSAT and CaDiCaL took 1.0 to 1.7 GB, for fifty million 5 to 8 GB; two billion aborts them.
MAX_VARIABLES = 10_000_000
#: The most clauses a CNF header may declare.
MAX_CLAUSES = 100_000_000
#: Lines other than model lines the solver-output reader remembers (the last ones) for its messages.
TAIL_LINES = 5
#: The solver-output reader holds at most this many characters of a line: a longer blank line or comment is
#: skipped as it comes, a longer model line is read in windows of this size, any other longer line is refused
#: (the same whether the output is read whole or as a stream).
LINE_PIECE = 1 << 20

BLANKS = " \t\x0b\x0c"
# A hit sends a clause or model line to the careful path: a character that cannot be in a literal, or a
# run of ten digits (a number of that size cannot be a variable, and is never converted).
SUSPECT = re.compile(r"[^0-9 \t\x0b\x0c-]|[0-9]{10}").search
NOT_TEXT = re.compile(r"[^\t\x0b\x0c\x20-\x7e]").search  # non-ASCII or a control character
INTEGER = re.compile(r"-?[0-9]+").fullmatch
CLAUSE_HINT = "clause lines hold ASCII integers separated by spaces, each clause ended by 0"
MODEL_HINT = "model lines hold ASCII integers separated by spaces, the model ended by 0"


def show(text: str, limit: int = 40) -> str:
    """``text`` quoted for a one-line message, cut to ``limit`` characters."""
    return repr(text) if len(text) <= limit else repr(text[:limit]) + "..."


def cut(digits: str, limit: int = 24) -> str:
    """An ASCII number for a message, cut to ``limit`` digits."""
    return digits if len(digits) <= limit else digits[:limit] + "..."


def describe_char(char: str) -> str:
    kind = "non-ASCII character" if ord(char) > 0x7F else "control character"
    return f"{kind} {char!r} (U+{ord(char):04X})"


def one_line(source: str) -> str:
    source = str(source)
    return source if source.isprintable() else repr(source)


def literals(text: str, where: str, limit: int, beyond: str, hint: str, error: type[InputError]) -> list[int]:
    """The integers of one line's tokens, each an ASCII literal from -limit to limit, else a one-line error.

    The careful path: it names the first bad character or token.  ``beyond`` ends the message about a
    literal out of range ("is outside ...").
    """
    bad = NOT_TEXT(text)
    if bad:
        raise error(f"{where}: {describe_char(bad.group())} outside a comment; {hint}")
    values = []
    for token in text.split():
        if not INTEGER(token):
            raise error(f"{where}: {show(token)} is not an integer literal; {hint}")
        digits = token.lstrip("-").lstrip("0")
        if len(digits) > 9:  # never convert an over-long number
            raise error(f"{where}: literal {cut(token)} is {beyond}")
        value = -int(digits or "0") if token[0] == "-" else int(digits or "0")
        if not -limit <= value <= limit:
            raise error(f"{where}: literal {value} is {beyond}")
        values.append(value)
    return values


def decode_text(text: str | bytes | bytearray) -> str:
    if isinstance(text, (bytes, bytearray)):
        return bytes(text).decode("utf-8", errors="replace")
    if not isinstance(text, str):
        raise InputError(f"expected text or bytes, got {type(text).__name__}")
    return text


