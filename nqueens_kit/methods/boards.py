"""What a method has to check about the boards its solvers hand back: each verified independently, keys to tell
them apart when millions are counted, and the text a message shows of one."""

from __future__ import annotations

from collections.abc import Iterator

from ..errors import SolverError
from ..problem.board import Board, Problem, canonical, violations


def board_key(board: Board) -> bytes:
    """A compact key of a verified board (its columns, one queen per row), to remember millions cheaply."""
    if len(board) < 256:  # every column fits in a byte
        return bytes([c for _, c in board])
    return b"".join(c.to_bytes(4, "little") for _, c in board)


def cells_key(board: Board) -> bytes:
    """A key of any set of cells (an unverified board may hold two queens in a row)."""
    return b"".join(r.to_bytes(4, "little") + c.to_bytes(4, "little") for r, c in board)


def board_text(board: Board) -> str:
    return " ".join(f"{r},{c}" for r, c in board)


def verified(boards: Iterator[Board], problem: Problem, who: str) -> Iterator[Board]:
    """Pass boards on after the independent verifier has accepted each one (and, with symmetry broken,
    found it canonical)."""
    for board in boards:
        if not problem.verify(board):
            wrong = violations(problem.n, board, problem.preplaced, problem.blocked) or ["rejected by verify"]
            raise SolverError(f"{who} returned a board that is not a solution ({wrong[0]}): {board_text(board)[:80]}")
        if problem.break_symmetry and canonical(problem.n, board) != tuple(board):
            raise SolverError(f"{who} let a board through that symmetry breaking excludes (not the canonical one of "
                              f"its orbit): {board_text(board)[:80]}")
        yield board
