"""The command's quick path: ``nqueens-kit solve N`` for a small board, answered in about the time Python takes
to start.

The full command loads its parser, the method registry, the problem and result types and the process
runner before it solves anything: tens of milliseconds, far more than a board of up to :data:`QUICK_MAX_N`
queens costs pycosat.  For exactly ``solve N`` (no option) with ``N`` from 1 to :data:`QUICK_MAX_N`, this
module does what the full command does with the same defaults, and nothing more: the pairwise formula of the
kit's SAT method, clause for clause the one :func:`~nqueens_kit.methods.sat.cnf.build_cnf` writes
(``tests/test_cli_quick.py`` holds them equal for every N it takes), pycosat in this process (a solve of a
few milliseconds: Ctrl-C still ends it within them), the board checked by the independent verifier's own
rules (:func:`~nqueens_kit.problem.rules.board_ok`, which :func:`~nqueens_kit.problem.board.verify` runs
too), and the three lines the full command prints.  It imports pycosat and two small modules of the kit.

Anything else goes to the full command: other words or options, a larger N, a formula pycosat finds no
model of (the full command explains an infeasible board), pycosat missing, or a board the rules refuse (the
full command reports that as the bug it would be).  So the quick path only ever prints what the full command
prints, and never decides a case the full command decides otherwise.
"""

from __future__ import annotations

import sys
import time
from itertools import combinations

from ..problem.rules import board_ok, picture
from .startup import silence_stdout

TYPE_CHECKING = False  # typing is not imported at run time (mypy reads this as True)
if TYPE_CHECKING:
    from collections.abc import Sequence

#: The largest board the quick path answers: pycosat solves any of them in a few milliseconds.
QUICK_MAX_N = 16


def _size(word: str) -> int | None:
    """N as the quick path takes it: plain decimal digits, from 1 to :data:`QUICK_MAX_N`."""
    if not (word.isascii() and word.isdigit()) or len(word) > 2:
        return None
    n = int(word)
    return n if 1 <= n <= QUICK_MAX_N else None


def pairwise_formula(n: int) -> list[list[int]]:
    """The kit's default formula of plain n-queens, built as :func:`~nqueens_kit.methods.sat.cnf.build_cnf`
    builds it: the lines in the order of :func:`~nqueens_kit.problem.board.board_lines` (rows, columns,
    diagonals r - c + n = 2 .. 2n - 2, anti-diagonals r + c - 1 = 2 .. 2n - 2), each row and column's
    at-least-one clause before its pairs, every pair ``¬a ∨ ¬b`` in order; cell (r, c) is variable
    (r - 1)n + c."""
    cells = range(1, n + 1)
    lines: list[tuple[bool, list[int]]] = [(True, [(r - 1) * n + c for c in cells]) for r in cells]
    lines += [(True, [(r - 1) * n + c for r in cells]) for c in cells]
    lines += [(False, [(r - 1) * n + r - d + n for r in cells if 1 <= r - d + n <= n]) for d in range(2, 2 * n - 1)]
    lines += [(False, [(r - 1) * n + a + 1 - r for r in cells if 1 <= a + 1 - r <= n]) for a in range(2, 2 * n - 1)]
    clauses: list[list[int]] = []
    for exact, lits in lines:
        if exact:
            clauses.append(lits)
        clauses.extend(map(list, combinations([-x for x in lits], 2)))
    return clauses


def quick_answer(argv: Sequence[str]) -> int | None:
    """Answer ``solve N`` here and return the exit status, or None: the full command answers."""
    if len(argv) != 2 or argv[0] != "solve":
        return None
    n = _size(argv[1])
    if n is None:
        return None
    try:
        import pycosat
    except ImportError:  # the full command says how to install it
        return None
    start = time.perf_counter()
    clauses = pairwise_formula(n)
    built = time.perf_counter()
    model = pycosat.solve(clauses, vars=n * n)
    solved = time.perf_counter()
    if not isinstance(model, list):  # UNSAT (n = 2, 3) or UNKNOWN: the full command explains it
        return None
    queens = [divmod(v - 1, n) for v in model if 0 < v <= n * n]
    rows, cols = [r + 1 for r, _ in queens], [c + 1 for _, c in queens]
    if not board_ok(n, rows, cols):  # never on a correct kit: the full command reports it as a bug
        return None
    text = (f"{n}-queens (SAT, pairwise encoding, pycosat): solved, verified\n"
            f"{n * n:,} variables; {len(clauses):,} clauses; built in {built - start:.3f} s, "
            f"solved in {solved - built:.3f} s\n"
            f"{picture(n, zip(rows, cols, strict=True))}\n")
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:  # the reader has gone (| head): as the full command, quietly
        silence_stdout()
    except OSError:  # nothing was written (a full disk, a closed stdout): the full command says what failed
        return None
    return 0
