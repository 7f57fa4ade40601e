"""Limits that keep a run safe: the one time-limit check and the one size check.

Inside:

- :func:`check_time_limit`: a time limit from any entry point (CLI, Python, bench, apps) is None or a
  positive, finite number of seconds; anything else gets the same one-line :class:`InputError`.
- :func:`over_limit`: the one rule that a run whose measured time passed its limit is a timeout, even if
  it answered (in the grace before it was killed).
- :class:`Size` and :func:`check_size`: before a formula or ILP model is built, each method predicts its
  size from closed forms (:meth:`nqueens_kit.methods.Method.size`), and so roughly the memory it needs.
  Above :func:`memory_budget` (half of this machine's memory by default; ``--max-memory`` or the
  environment variable ``NQUEENS_KIT_MAX_MEMORY`` change it) the kit refuses at once with one line that
  names the size and what would work instead.  :func:`check_room` refuses a model above what the process's
  own limits leave (:func:`process_room`: ``ulimit -v``, ``ulimit -d``, a control group, the memory available).
- :func:`parse_bytes`: ``"8G"``, ``"512M"``, ``"1.5GB"`` into bytes.
- :func:`processor_seconds`: the processor time this process and the programs it waited for have used, the
  one clock a comparison of methods in one process reads (a busy machine disturbs it least).
- :func:`deadline` and :func:`set_deadline`: the :func:`time.monotonic` time by which the whole command (or the
  job a child process runs) must end, counted from its start: the command line sets it from ``--time-limit``
  before it loads anything, a child process from its job's limit, and every wait for a job ends by it.
- :func:`stage`: with ``NQUEENS_KIT_READY=1``, one line on standard error as the command reaches each stage
  (started, parsed, a job started, compiling, ...), which a test waits for before it sends a signal.

>>> check_time_limit(2), check_time_limit(None)
(2.0, None)
>>> parse_bytes("1.5G")
1610612736
"""

from __future__ import annotations

import math
import os
import re
import time
from dataclasses import dataclass
from typing import Any

from ..errors import InputError

#: Environment variable with the memory budget (e.g. ``8G``); ``--max-memory`` overrides it.
MEMORY_ENV = "NQUEENS_KIT_MAX_MEMORY"
#: Share of the machine's memory a single run may plan to use when nothing else is said.
DEFAULT_MEMORY_SHARE = 0.5

# Bytes per unit, measured with the kit's own builders and solvers (Python 3.11, 64-bit): a CNF held
# as Python lists costs 90-150 B a clause and pycosat's copy as much again (up to 300 B at n = 300);
# a PuLP model costs 200-400 B per non-zero and ~900 B per variable before CBC reads it.
SAT_BYTES_PER_CLAUSE = 320
SAT_BYTES_PER_VARIABLE = 64
ILP_BYTES_PER_NONZERO = 1000
ILP_BYTES_PER_VARIABLE = 1000
#: Average characters per clause line of a DIMACS file (the numbers and " 0\n").
DIMACS_BYTES_PER_LITERAL = 7
#: The longest time limit (seconds): about 23 days, what every solver the kit hands a limit to takes (MiniZinc
#: counts it in milliseconds in a 32-bit integer: 2,147,483 s at most, beyond which it gives up at once).  Every
#: wait the kit makes itself is cut into pieces of at most :data:`LONGEST_WAIT` seconds, so no clock or timer
#: it is handed to overflows.
MAX_TIME_LIMIT = 2e6
#: The longest single wait the kit hands to the system (poll and epoll take milliseconds as a C int: about
#: 24.8 days at most); a longer one is waited for in pieces.
LONGEST_WAIT = 86_400.0
#: The environment variable that turns on the stage lines of :func:`stage`.
READY_ENV = "NQUEENS_KIT_READY"


def check_time_limit(value: Any, what: str = "time limit") -> float | None:
    """``value`` as seconds (a float), or None for no limit; one-line :class:`InputError` otherwise.

    >>> check_time_limit("0.5")
    0.5
    """
    if value is None:
        return None
    if isinstance(value, (bool, bytes, bytearray, memoryview)):  # float(b"8") would read bytes as 8 s
        seconds = math.nan
    elif isinstance(value, str):
        try:
            seconds = float(value.strip()) if re.fullmatch(r"\s*[0-9.eE+-]+\s*", value) else math.nan
        except ValueError:
            seconds = math.nan
    else:
        try:
            seconds = float(value)
        except (TypeError, ValueError, OverflowError):
            seconds = math.nan
    if not (seconds > 0 and math.isfinite(seconds)):
        shown = value.strip()[:40] if isinstance(value, str) else repr(value)[:40]
        raise InputError(f"{what} must be a positive number of seconds (e.g. 10 or 0.5), not {shown}")
    if seconds > MAX_TIME_LIMIT:  # a solver's own timer overflows beyond (MiniZinc's, in milliseconds)
        raise InputError(f"{what} must be at most {MAX_TIME_LIMIT:,.0f} seconds (about 23 days), not {seconds:.3g}; "
                         "give no time limit to run to the end")
    return seconds


def over_limit(seconds: float | None, limit: float | None) -> bool:
    """Whether a run that took ``seconds`` (measured by whoever classifies it) passed its time ``limit``: it
    is then a timeout, whatever it answered.  The grace a child gets before it is killed is for stopping it,
    not for finishing: an answer in the grace would score below a timeout in PAR-2.

    >>> over_limit(0.19, 0.05), over_limit(0.04, 0.05), over_limit(5.0, None)
    (True, False, False)
    """
    return limit is not None and seconds is not None and seconds > limit


_UNITS = {"": 1, "B": 1, "K": 1024, "KB": 1024, "KIB": 1024, "M": 1024**2, "MB": 1024**2, "MIB": 1024**2,
          "G": 1024**3, "GB": 1024**3, "GIB": 1024**3, "T": 1024**4, "TB": 1024**4, "TIB": 1024**4}


def parse_bytes(value: object, what: str = "memory limit") -> int:
    """A memory size from ``8G``, ``512M``, ``1.5GB`` or a number of bytes; one-line error otherwise."""
    if isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0 and math.isfinite(value):
        return int(value)
    match = re.fullmatch(r"\s*([0-9]+(?:\.[0-9]+)?)\s*([A-Za-z]*)\s*", str(value))
    unit = match.group(2).upper() if match else ""
    if not match or unit not in _UNITS or float(match.group(1)) <= 0:
        raise InputError(f"{what} must be a size such as 8G, 512M or 2000000000 (bytes), not {str(value)[:40]!r}")
    return int(float(match.group(1)) * _UNITS[unit])


def physical_memory() -> int | None:
    """This machine's memory in bytes, or None where it cannot be read."""
    try:
        return int(os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE"))
    except (ValueError, OSError, AttributeError):
        return None


def memory_budget(max_memory: object = None) -> int:
    """The bytes one run may plan to use: ``max_memory`` if given, else ``$NQUEENS_KIT_MAX_MEMORY``, else
    half of the machine's memory (8 GiB where that cannot be read)."""
    if max_memory is not None:
        return parse_bytes(max_memory, "--max-memory")
    env = os.environ.get(MEMORY_ENV)
    if env:
        return parse_bytes(env, MEMORY_ENV)
    return _default_share()


def _default_share() -> int:
    """The machine's default share of memory for one run (8 GiB where the machine's memory cannot be read)."""
    total = physical_memory()
    return int(total * DEFAULT_MEMORY_SHARE) if total else 8 * 1024**3


def builder_budget(max_memory: object = None) -> int:
    """The memory budget of a builder's own size guard (the CNF builder and its encodings, the ILP model
    builder): ``max_memory`` when given; otherwise the larger of the kit's budget (:func:`memory_budget`) and
    the machine's default share.  A verb that calls a builder has already held the request to its own budget,
    which may be an explicit ``--max-memory`` above the environment's; the builder's guard only stops what no
    budget allows by default."""
    if max_memory is not None:
        return memory_budget(max_memory)
    share = _default_share()
    try:
        return max(share, memory_budget())
    except InputError:  # a malformed environment variable: every verb and the command line say so
        return share


def human_bytes(count: float) -> str:
    """``1.2 GB``, ``340 MB``, ``2.4 TB`` (powers of 1024)."""
    for unit in ("B", "KB", "MB", "GB", "TB", "PB"):
        if count < 1024 or unit == "PB":
            return f"{count:.0f} {unit}" if unit == "B" else f"{count:.1f} {unit}"
        count /= 1024
    return f"{count:.1f} PB"  # pragma: no cover


@dataclass(frozen=True)
class Size:
    """The predicted size of one model: variables, clauses (SAT) or constraints and non-zeros (ILP), and
    the memory a run is expected to need."""

    variables: int
    clauses: int | None = None
    constraints: int | None = None
    nonzeros: int | None = None
    literals: int | None = None
    memory: int = 0

    def describe(self) -> str:
        parts = [f"{self.variables:,} variables"]
        if self.clauses is not None:
            parts.append(f"{self.clauses:,} clauses")
        if self.constraints is not None:
            parts.append(f"{self.constraints:,} constraints")
        return ", ".join(parts)


def _cgroup_room() -> int | None:
    """Bytes this process's control group may still use (cgroup v2 ``memory.max``, v1 ``limit_in_bytes``),
    or None without a limit (or off Linux)."""
    for limit_file, usage_file in (("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory.current"),
                                   ("/sys/fs/cgroup/memory/memory.limit_in_bytes",
                                    "/sys/fs/cgroup/memory/memory.usage_in_bytes")):
        try:
            with open(limit_file, encoding="ascii") as limit, open(usage_file, encoding="ascii") as usage:
                text, used = limit.read().strip(), int(usage.read().strip())
        except (OSError, ValueError):
            continue
        if text.isdigit() and int(text) < 2**60:  # v1 says "no limit" with a number near 2**63
            return max(0, int(text) - used)
    return None


def process_room() -> tuple[int, str] | None:
    """``(bytes, why)``: the memory this process can still take, the least of what its limits leave, each
    beside what it holds now (its address-space limit, ``ulimit -v``; its data-segment limit; its control
    group's limit; the memory the machine has available), and which limit that is; None where none can be
    read.  A prediction above it will not fit whatever the budget says."""
    rooms: list[tuple[int, str]] = []
    try:
        import psutil

        process = psutil.Process()
        held = process.memory_info()
        rooms.append((int(psutil.virtual_memory().available), "the memory this machine has available"))
    except (ImportError, OSError, AttributeError):  # no psutil (a browser), or it cannot read the process
        held = None
    try:
        import resource

        for which, name, used in ((resource.RLIMIT_AS, "its address-space limit (ulimit -v)",
                                   getattr(held, "vms", 0)),
                                  (getattr(resource, "RLIMIT_DATA", None), "its data-segment limit (ulimit -d)",
                                   getattr(held, "data", getattr(held, "rss", 0)))):
            if which is None:
                continue
            soft = resource.getrlimit(which)[0]
            if soft != resource.RLIM_INFINITY and soft > 0:
                rooms.append((max(0, soft - int(used)), name))
    except (ImportError, OSError, ValueError, AttributeError):
        pass
    cgroup = _cgroup_room()
    if cgroup is not None:
        rooms.append((cgroup, "its control group's memory limit"))
    return min(rooms) if rooms else None


def check_size(size: Size, what: str, suggestion: str, max_memory: object = None) -> None:
    """Refuse (one line) a model whose predicted memory is above the budget, naming its size.

    ``what`` says what would be built (``"the pairwise CNF of 400-queens"``) and ``suggestion`` what works.
    """
    budget = memory_budget(max_memory)
    if size.memory > budget:
        raise InputError(
            f"{what} would have {size.describe()} and need about {human_bytes(size.memory)} of memory, "
            f"more than the {human_bytes(budget)} allowed; {suggestion} "
            f"(or raise the limit with --max-memory or {MEMORY_ENV})"
        )


def check_room(size: Size, what: str, suggestion: str) -> None:
    """Refuse (one line) a model whose predicted memory is above what this process's own limits leave
    (:func:`process_room`): no budget raises those.  For a builder whose prediction is what it holds (not a
    bound for a later solve), called after :func:`check_size`."""
    room = process_room()
    if room is not None and size.memory > room[0]:
        raise InputError(
            f"{what} would have {size.describe()} and need about {human_bytes(size.memory)} of memory, "
            f"more than the {human_bytes(room[0])} this process can still take under {room[1]}; {suggestion}"
        )


def processor_seconds() -> float:
    """Processor seconds (user and system) of this process, every thread, and of every child it has waited
    for (a solver program); this process's alone where the platform cannot say (Windows, a browser)."""
    try:
        import resource

        own = resource.getrusage(resource.RUSAGE_SELF)
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
    except (ImportError, AttributeError, OSError):  # no resource module, or one without getrusage (Pyodide)
        return time.process_time()
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


# ------------------------------------------------------------------------------- the command's deadline

_deadline: list[float | None] = [None]
#: Where :func:`stage` writes (a child process keeps the console's standard error here: its own goes to a log).
_stage_fd: list[int] = [2]


def deadline() -> float | None:
    """The :func:`time.monotonic` time by which the command (or, in a child process, its job) must end, or None."""
    return _deadline[0]


def set_deadline(when: float | None) -> float | None:
    """Set :func:`deadline` (None: no deadline); returns the one it replaces."""
    before, _deadline[0] = _deadline[0], when
    return before


def until_deadline(seconds: float | None, start: float) -> float | None:
    """The earlier of ``start + seconds`` and :func:`deadline` (None when neither is set)."""
    ends = [t for t in (None if seconds is None else start + seconds, _deadline[0]) if t is not None]
    return min(ends) if ends else None


def short_wait(seconds: float | None) -> float | None:
    """``seconds`` cut to :data:`LONGEST_WAIT` (None, wait without end, stays None): what a wait is handed."""
    return None if seconds is None else min(max(0.0, seconds), LONGEST_WAIT)


def stage(name: str) -> None:
    """With ``NQUEENS_KIT_READY=1`` in the environment, write ``nqueens-kit: ready: NAME`` as one line to
    standard error (the console's, also from a child process); otherwise nothing."""
    if os.environ.get(READY_ENV, "") not in ("", "0"):
        try:
            os.write(_stage_fd[0], f"nqueens-kit: ready: {name}\n".encode())
        except OSError:
            pass


def keep_stage_output() -> None:
    """In a child process about to send its standard error to a log: keep the console's for :func:`stage`."""
    if os.environ.get(READY_ENV, "") not in ("", "0"):
        try:
            _stage_fd[0] = os.dup(2)
        except OSError:
            pass
