"""A job's process tree: every process below a child, found through the subreaper or the process table
(psutil, or ``/proc``), its memory added up, and the whole of it stopped (``SIGTERM``, then ``SIGKILL`` after
:data:`KILL_SECONDS`), including what a solver started and left behind.
"""

from __future__ import annotations

import os
import signal
import sys
import time

# psutil is imported where it is used: a forked job needs none of it, and a browser has no psutil.


#: How long :func:`_kill_tree` goes on killing what it finds (a process in uninterruptible sleep dies late).
KILL_SECONDS = 2.0


def _kill_tree(pid: int) -> None:
    """SIGKILL ``pid``, every process below it and every process left in its process group or session
    (found by psutil), however they try to get away.

    ``pid`` is stopped first and killed last: while it lives, a process of its tree whose parent is killed
    is re-parented to it (when it is a subreaper) and still found; the others are killed in rounds until
    none is left, so a process forked while they die goes too."""
    _send(pid, signal.SIGSTOP)
    ends = time.monotonic() + KILL_SECONDS
    while True:
        table = _process_table()
        victims = [p for p in _members(pid, table) if p != pid and not table[p][3]]
        if not victims:
            break
        for victim in victims:
            _send(victim, signal.SIGKILL)
        if time.monotonic() > ends:
            break
        time.sleep(0.001)  # the killed take a moment to become zombies
    _send(pid, signal.SIGKILL)
    try:
        os.killpg(pid, signal.SIGKILL)
    except OSError:
        pass  # the group is already gone


def _send(pid: int, sig: int) -> None:
    try:
        os.kill(pid, sig)
    except OSError:
        pass


def _members(pid: int, table: dict[int, tuple[int, int, int, bool]]) -> list[int]:
    """Processes below ``pid`` or in its process group or session."""
    return list(dict.fromkeys([*_descendants(pid, table),
                               *(p for p, (_, group, session, _) in table.items() if pid in (group, session))]))


def _own_children() -> set[int]:
    """This process's children, zombies included."""
    import psutil

    try:
        return {child.pid for child in psutil.Process().children()}
    except psutil.Error:
        return set()


def _kill_adopted(before: set[int], known: int) -> None:
    """Kill and reap the children this subreaper gained since ``before`` other than ``known``: orphans of
    an executable it ran (a detached grandchild whose parent has exited)."""
    for child in _own_children() - before - {known}:
        _kill_tree(child)
        try:
            os.waitpid(child, 0)
        except ChildProcessError:
            pass


def _tree_rss_mb(pid: int) -> float:
    """Resident memory of ``pid`` and every process below it, in MB (0 for those that cannot be read)."""
    import psutil

    try:
        root = psutil.Process(pid)
        members = [root, *root.children(recursive=True)]
    except psutil.Error:
        return 0.0
    total = 0
    for member in members:
        try:
            total += member.memory_info().rss
        except psutil.Error:  # gone meanwhile, or not ours to read
            continue
    return round(total / 1024 / 1024, 1)


def _process_table() -> dict[int, tuple[int, int, int, bool]]:
    """Every process as ``pid: (parent, process group, session, is a zombie)``; empty where processes have
    no group or session (Windows).  On Linux read from ``/proc`` (quicker than loading psutil, which matters
    to a command stopping its job at a deadline on a busy machine); elsewhere psutil lists the processes and
    their group and session, which psutil does not report, come from the kernel."""
    if not hasattr(os, "getsid"):
        return {}
    if sys.platform.startswith("linux"):
        found = _proc_table()
        if found:
            return found
    import psutil

    gone = (psutil.STATUS_ZOMBIE, psutil.STATUS_DEAD)
    table: dict[int, tuple[int, int, int, bool]] = {}
    for proc in psutil.process_iter(["ppid", "status"]):
        parent, status = proc.info["ppid"], proc.info["status"]
        if parent is None:  # not ours to read
            continue
        try:
            table[proc.pid] = (parent, os.getpgid(proc.pid), os.getsid(proc.pid), status in gone)
        except OSError:  # gone meanwhile
            continue
    return table


def _proc_table() -> dict[int, tuple[int, int, int, bool]]:
    """:func:`_process_table` from ``/proc`` (empty where it cannot be read); dead processes count as zombies."""
    table: dict[int, tuple[int, int, int, bool]] = {}
    try:
        names = os.listdir("/proc")
    except OSError:
        return table
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as stat:
                text = stat.read()
            fields = text[text.rindex(b")") + 2:].split()
            table[int(name)] = (int(fields[1]), int(fields[2]), int(fields[3]), fields[0] in (b"Z", b"X", b"x"))
        except (OSError, ValueError, IndexError):  # gone meanwhile
            continue
    return table


def _descendants(pid: int, table: dict[int, tuple[int, int, int, bool]] | None = None) -> list[int]:
    """Processes below ``pid`` (children of children ...), from ``table`` when given, else as they are now."""
    if table is None:
        import psutil

        try:
            return [child.pid for child in psutil.Process(pid).children(recursive=True)]
        except psutil.Error:
            return []
    children: dict[int, list[int]] = {}
    for child, (parent, _, _, _) in table.items():
        children.setdefault(parent, []).append(child)
    found, frontier = [], [pid]
    while frontier:
        kids = children.get(frontier.pop(), [])
        found += kids
        frontier += kids
    return found
