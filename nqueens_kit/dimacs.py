"""DIMACS in and out: CNF files and SAT solvers' answers, read safely.

Inside:

- :func:`write_dimacs_clauses`: clauses as DIMACS CNF text, with optional comment lines before groups.
- :func:`parse_dimacs`, :func:`read_dimacs`: a DIMACS CNF file into a :class:`Dimacs` (declared variable
  count, clauses, comments).
- :func:`parse_solver_output`: a solver's answer, in MiniSat's result-file form (``SAT`` and the literals)
  or the SAT-competition form (``s SATISFIABLE``, ``v ... 0``).

Every reader raises only the kit's one-line :class:`~nqueens_kit.errors.InputError` (a
:class:`~nqueens_kit.errors.DimacsError` for CNF files) naming the file and line.

>>> parse_dimacs("p cnf 2 1\\n1 -2 0\\n").clauses
[[1, -2]]
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from math import isqrt
from pathlib import Path
from typing import IO, TYPE_CHECKING

from .errors import DimacsError, InputError

if TYPE_CHECKING:
    from .cnf import ClauseGroup

Clause = list[int]


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


def parse_dimacs(text: str, source: str = "<text>") -> Dimacs:
    """Parse DIMACS CNF text.

    Accepts comments anywhere, clauses wrapped over several lines or several on one line, blank lines,
    a missing final newline and the SATLIB ``%`` end marker.  Anything else is a :class:`DimacsError`
    naming the file and line.
    """
    header: tuple[int, int] | None = None
    header_line = 0
    clauses: list[Clause] = []
    comments: list[str] = []
    current: list[int] = []
    lineno = 0
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        first = line[0]
        if first == "c":
            comments.append(line[1:].strip())
            continue
        if first == "%":
            break
        if first == "p":
            parts = line.split()
            if header is not None:
                raise DimacsError(f"{source}:{lineno}: a second 'p' header (the first is on line {header_line})")
            if len(parts) != 4 or parts[1] != "cnf" or not (parts[2].isdigit() and parts[3].isdigit()):
                raise DimacsError(f"{source}:{lineno}: expected 'p cnf VARIABLES CLAUSES', got {line!r}")
            header, header_line = (int(parts[2]), int(parts[3])), lineno
            continue
        if header is None:
            raise DimacsError(f"{source}:{lineno}: clause before the 'p cnf VARIABLES CLAUSES' header")
        num_vars = header[0]
        for token in line.split():
            try:
                lit = int(token)
            except ValueError:
                raise DimacsError(f"{source}:{lineno}: {token!r} is not an integer literal") from None
            if lit == 0:
                clauses.append(current)
                current = []
            elif -num_vars <= lit <= num_vars:
                current.append(lit)
            else:
                raise DimacsError(
                    f"{source}:{lineno}: literal {lit} is outside the {num_vars} variables the header declares"
                )
    if header is None:
        raise DimacsError(f"{source}: no 'p cnf VARIABLES CLAUSES' header; is this a DIMACS CNF file?")
    if current:
        raise DimacsError(f"{source}:{lineno}: the last clause is not ended by 0")
    if len(clauses) != header[1]:
        raise DimacsError(
            f"{source}:{header_line}: the header declares {header[1]} clauses but the file has {len(clauses)}"
        )
    return Dimacs(header[0], clauses, comments, source)


def read_dimacs(path: str | os.PathLike[str]) -> Dimacs:
    """Read a DIMACS CNF file (one-line error if it is missing, unreadable or malformed)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        raise InputError(f"no such file: {path}") from None
    except IsADirectoryError:
        raise InputError(f"{path} is a folder, not a DIMACS file") from None
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror or exc}") from None
    return parse_dimacs(text, source=str(path))


def parse_solver_output(text: str) -> tuple[str, list[int] | None]:
    """``(status, model)`` from a solver's output: status is ``sat``, ``unsat`` or ``unknown``.

    Understands MiniSat's result file (first line ``SAT``, ``UNSAT`` or ``INDET``, then the literals) and
    the SAT-competition format (``s SATISFIABLE``, ``v`` lines ending in 0, comments ``c``).

    >>> parse_solver_output("s SATISFIABLE\\nv 1 -2\\nv 3 0\\n")
    ('sat', [1, -2, 3])
    >>> parse_solver_output("SAT\\n-1 2 0\\n")
    ('sat', [-1, 2])
    """
    status: str | None = None
    model: list[int] = []
    minisat_style = False
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("c"):
            continue
        head, _, rest = line.partition(" ")
        upper = line.upper()
        if head == "s":
            word = rest.strip().upper()
            status = {"SATISFIABLE": "sat", "UNSATISFIABLE": "unsat"}.get(word, "unknown")
        elif head == "v":
            model += _literals(rest, lineno)
        elif status is None and upper in ("SAT", "SATISFIABLE", "UNSAT", "UNSATISFIABLE", "INDET", "UNKNOWN"):
            status = {"SAT": "sat", "SATISFIABLE": "sat", "UNSAT": "unsat", "UNSATISFIABLE": "unsat"}.get(
                upper, "unknown"
            )
            minisat_style = True
        elif minisat_style:
            model += _literals(line, lineno)
        elif status is None:
            try:
                model += _literals(line, lineno)
            except InputError:
                raise InputError(
                    f"no SAT/UNSAT answer found in the solver output (expected 's SATISFIABLE' or 'SAT'), "
                    f"line {lineno} reads {line[:40]!r}"
                ) from None
            status = "sat"  # a bare model line, as some solvers print
        else:
            raise InputError(f"line {lineno}: unexpected solver output {line[:40]!r}")
    if status is None:
        raise InputError("no SAT/UNSAT answer found in the solver output (expected 's SATISFIABLE' or 'SAT')")
    if status == "sat" and not model:
        raise InputError("the solver output says satisfiable but holds no model")
    return status, (model if status == "sat" else None)


def _literals(text: str, lineno: int) -> list[int]:
    try:
        return [lit for lit in map(int, text.split()) if lit != 0]
    except ValueError:
        raise InputError(f"line {lineno}: expected integer literals, got {text.strip()[:40]!r}") from None
