"""What a job hands back, wherever it ran: :class:`ChildRun` (how it ended, :class:`Ended`, its value and
measurements) and :func:`reporting`, where its progress messages go when it runs in this process.

:mod:`~nqueens_kit.runtime.isolate` runs a job in a child process, :func:`~nqueens_kit.runtime.browser.run_here`
in this one (a browser has no other); both answer with these, and neither needs the other to.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from .. import errors
from ..problem.results import Status

#: The callbacks of the :func:`reporting` blocks now open, innermost last.
_local_reporter: list[Callable[[Any], None]] = []


def report_here(message: object) -> None:
    """Pass ``message`` to the callback of the innermost :func:`reporting` block, if one is open."""
    if _local_reporter:
        _local_reporter[-1](message)


@contextmanager
def reporting(callback: Callable[[Any], None]) -> Iterator[None]:
    """Route :func:`~nqueens_kit.runtime.isolate.report` to ``callback`` while a job runs in this process."""
    _local_reporter.append(callback)
    try:
        yield
    finally:
        _local_reporter.pop()


class Ended(str, Enum):
    """How a job in a child process ended."""

    DONE = "done"          # it returned a value
    TIMEOUT = "timeout"    # its time limit passed (or a Stop button: ChildRun.stopped)
    MEMOUT = "memout"      # a MemoryError under its memory limit
    FAILED = "failed"      # an exception, or the child died

    def __str__(self) -> str:
        return self.value

    def __repr__(self) -> str:  # shown as its value in doctests: 'timeout'
        return repr(self.value)

    @property
    def status(self) -> Status:
        """The one mapping from how a child ended to a run's :class:`~nqueens_kit.problem.results.Status`
        (a finished job's status is the job's own answer: SOLVED stands in)."""
        return {Ended.DONE: Status.SOLVED, Ended.TIMEOUT: Status.TIMEOUT, Ended.MEMOUT: Status.MEMOUT}.get(
            self, Status.ERROR)


@dataclass
class ChildRun:
    """How a job in a child process ended.

    ``status``: an :class:`Ended`: ``done`` (``value`` holds the job's return value), ``timeout`` (also for an
    answer that came after the time limit, in the grace before the kill: ``value`` then holds it),
    ``memout`` (a MemoryError under the memory limit) or ``failed`` (``error`` says why; ``error_type`` is
    the exception's type, ``trace`` the child's traceback).
    ``wall`` counts from the start (or from :func:`~.isolate.ready` when ``clock_from_ready``); ``startup`` is the
    time to :func:`~.isolate.ready`; ``cpu`` is user + system time of the child and everything it waited for, minus
    the child's own CPU before :func:`~.isolate.ready`.  ``progress`` is the last :func:`~.isolate.report` message.
    """

    status: Ended
    value: Any = None
    wall: float = 0.0
    startup: float = 0.0
    cpu: float | None = None
    peak_rss_mb: float | None = None
    tree_peak_rss_mb: float | None = None
    error: str = ""
    error_type: str = ""
    kit_error: str | None = None
    progress: Any = None
    log_tail: list[str] = field(default_factory=list)
    trace: str = ""

    @property
    def stopped(self) -> bool:
        """True when a ``stop`` callback (a Stop button), not the time limit, ended the run."""
        return self.status == Ended.TIMEOUT and self.error == "stopped"

    def limit_message(self, limit: float | None) -> str:
        """Why a run that did not finish ended, in one line."""
        if self.stopped:
            return "stopped"
        if self.status == Ended.TIMEOUT:
            return f"no answer within the time limit of {limit:g} s" if limit is not None else "no answer in time"
        return "ran out of memory"

    def raise_error(self) -> None:
        """Raise the child's error in this process: a kit error as itself; a child that died without an
        answer (killed by a signal, a crash in a solver's C code) as :class:`~nqueens_kit.errors.SolverError`;
        any other exception as :class:`~nqueens_kit.errors.KitBug` with the child's traceback."""
        if self.status != Ended.FAILED:
            return
        kind = getattr(errors, self.kit_error, None) if self.kit_error else None
        if isinstance(kind, type) and issubclass(kind, errors.NQueensError):
            raise kind(self.error)
        if not self.error_type:  # no exception: the child died
            raise errors.SolverError(self.error)
        raise errors.KitBug(f"{self.error_type} in a child process: {self.error}", self.trace)
