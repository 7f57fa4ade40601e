"""Run a function in a child process with a wall-clock limit.

pycosat (and most in-process solvers) cannot be interrupted, so a solve with a time limit runs in a
forked child that is killed when the limit passes.  Forking shares the already-built clauses with the
child without copying them through a pipe.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import traceback
from collections.abc import Callable
from typing import Any


class TimeLimitReached(Exception):
    """The child ran past its wall-clock limit and was stopped."""


class ChildFailed(Exception):
    """The child died or raised; the message is the child's error."""


def _child(conn: Any, fn: Callable[..., Any], args: tuple[Any, ...]) -> None:
    try:
        conn.send(("ok", fn(*args)))
    except BaseException as exc:  # report everything to the parent, which decides
        conn.send(("error", f"{type(exc).__name__}: {exc}", traceback.format_exc()))
    finally:
        conn.close()


def run_with_time_limit(fn: Callable[..., Any], args: tuple[Any, ...], seconds: float) -> Any:
    """``fn(*args)`` in a child process; :class:`TimeLimitReached` if it takes longer than ``seconds``."""
    method = "fork" if "fork" in mp.get_all_start_methods() and os.name == "posix" else "spawn"
    ctx = mp.get_context(method)
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_child, args=(child, fn, args), daemon=True)
    proc.start()
    child.close()
    try:
        if not parent.poll(seconds):
            raise TimeLimitReached(f"no answer within the time limit of {seconds:g} s")
        try:
            message = parent.recv()
        except EOFError:
            raise ChildFailed(f"the solver process died (exit code {proc.exitcode})") from None
    finally:
        if proc.is_alive():
            proc.kill()
        proc.join(5)
        parent.close()
    if message[0] == "error":
        raise ChildFailed(message[1])
    return message[1]
