"""The kit's error types.

Every error a user can cause is an :class:`NQueensError` whose message is one line saying what is
wrong and what would be valid.  The command line prints that line and exits with status 2; the
widgets show it as a message.  Anything else escaping the package is a bug.
"""

from __future__ import annotations


class NQueensError(ValueError):
    """A problem with the user's input or environment, explained in one line."""


class InputError(NQueensError):
    """Bad input: a board size, a cell, an option value, a file."""


class ConflictError(InputError):
    """Pre-placed queens that attack each other (the instance is malformed, not merely infeasible)."""


class DimacsError(InputError):
    """A malformed DIMACS file; the message names the line."""


class SolverNotAvailable(NQueensError):
    """A solver that is not installed; the message says how to install it."""


class SolverError(NQueensError):
    """A solver gave a wrong or unusable answer (an invalid or repeated board, a crash); the message names it."""
