"""The kit's error types, and whose fault each is.

- An :class:`NQueensError` is the user's or the machine's: its message is one line saying what is wrong and
  what would be valid.  :class:`InputError` (bad input) and :class:`SolverNotAvailable` end the command line
  with status 2; :class:`SolverError` (a solver that failed, crashed or gave a wrong answer) with status 1.
  The widgets show the line as a message.  :class:`ExtraNeeded`, a part of the kit whose package came with
  an extra that is not installed, is an :class:`ImportError` too, and ends the command line with status 2.
- A :class:`KitBug` is a bug in the kit: an exception that is not an :class:`NQueensError`, raised in a
  child process and carried back with its traceback.  Any other exception that escapes is one too.  The
  command line prints the traceback and "this is a bug in nqueens-kit", and exits with status 70.
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


class ExtraNeeded(NQueensError, ImportError):
    """A part of the kit (``what``: a module, a command) needs ``package``, which ``pip install nqueens-kit``
    leaves out and the extra ``extra`` brings; the message says how to install it.

    >>> print(ExtraNeeded("nqueens_kit.viz.charts", "matplotlib", "plots"))
    nqueens_kit.viz.charts needs matplotlib: pip install "nqueens-kit[plots]"
    """

    def __init__(self, what: str, package: str, extra: str) -> None:
        super().__init__(self.said_of(what, package, extra))
        self.what, self.package, self.extra = what, package, extra
        self.name = package  # ImportError's own: the module that could not be imported

    @staticmethod
    def said_of(what: str, package: str, extra: str) -> str:
        return f'{what} needs {package}: pip install "nqueens-kit[{extra}]"'

    def __reduce__(self) -> tuple[type[ExtraNeeded], tuple[str, str, str]]:  # the same error from a child
        return type(self), (self.what, self.package, self.extra)


class SolverError(NQueensError):
    """A solver gave a wrong or unusable answer (an invalid or repeated board, a crash); the message names it."""


class SolverGaveUp(SolverError):
    """A solver said it does not know (``s UNKNOWN``) in a job that needs every answer (a count): the job's
    outcome is ``unknown``, as a solve's is (the count verb keeps the boards found so far)."""


class KitBug(Exception):
    """An unexpected exception inside the kit (in this process or in a child it ran); ``details`` holds the
    child's traceback.  Not an :class:`NQueensError`: nothing the user did explains it."""

    def __init__(self, message: str, details: str = "") -> None:
        super().__init__(message)
        self.details = details
