"""The ``nqueens-kit`` command: parses, asks the method layer, prints.

::

    nqueens-kit solve N [--method NAME] [--encoding NAME | --formulation NAME] [--solver NAME]
                        [--settings NAME] [--place R,C ...] [--break-symmetry] [--time-limit S]
                        [--max-memory SIZE] [--proof FILE [--checker auto|drup|dratify]] [--json]
                        [--board-file FILE]
    nqueens-kit count N [--method NAME] [...] [--fundamental | --break-symmetry] [--time-limit S] [--json]
    nqueens-kit count --from-cnf FILE [--n N] [--require-certificate] [--json]
    nqueens-kit cnf N [--encoding NAME] [--place R,C ...] [--break-symmetry] [-o FILE]
    nqueens-kit decode SOLVER_OUTPUT --n N [--json]
    nqueens-kit verify BOARD_FILE [--n N] [--place R,C ...] [--json]
    nqueens-kit lp N [--formulation NAME] [--place R,C ...] -o FILE.lp|FILE.mps
    nqueens-kit solvers [--json]
    nqueens-kit notebooks DEST [--force]
    nqueens-kit trace ... | bnb ... | bench ... | frontier ... | plot ... | report ...

This module is the command itself; :mod:`nqueens_kit.cli` is its light entry point (``run``), which
answers Ctrl-C while this module and the kit load.  The console script's command starts a watchdog first
(:mod:`.startup`): a stop signal ends the command within a second however the work under way takes it, and
``--time-limit`` of ``solve`` and ``count`` bounds the whole command, counted from the process's start.
The subcommands live in :mod:`.solve`, :mod:`.inside` and :mod:`.bench`; what they share (exit statuses, the
method options built from the registry, reporting) in :mod:`.common`.

Exit status: 0 solved (or counted, or written), 1 infeasible, an invalid board or a solver that failed or
gave a wrong answer, 2 bad input (one line on stderr saying what is wrong and what is valid; with
``--json`` also an error object on stdout), 3 no answer (the time or memory limit was reached, or the solver
itself stopped without one: ``s UNKNOWN``), 4 a count not certified (its end rests on the solver's word),
70 a bug in nqueens-kit (the traceback and a line saying so), 130 interrupted (143 terminated, 129 hung up).
"""

from __future__ import annotations

import _imp
import argparse
import importlib
import os
import signal
import sys
import time
from collections.abc import Sequence
from types import FrameType
from typing import NoReturn

from .. import __version__
from ..errors import ExtraNeeded, InputError, KitBug, NQueensError, SolverError
from .common import EXIT_BUG, EXIT_INPUT, EXIT_INTERRUPTED, EXIT_NO, EXIT_OK, EXIT_TIMEOUT, PROG, Parser, print_json
from .startup import DeadlinePassed, end, handle, process_started, silence_stdout, startup_interrupt, watch, watchdog

#: The modules of the subcommands (under :mod:`nqueens_kit.cli`) and their commands, in the order ``--help``
#: lists them; each module has ``COMMANDS``, name -> (help, the function that adds its options).  A command
#: imports its own module alone.
COMMAND_MODULES = {
    "solve": ("solve", "count", "cnf", "decode", "verify", "lp", "notebooks", "solvers"),
    "bench": ("bench", "frontier", "plot", "report"),
    "inside": ("trace", "bnb"),
}


#: The commands whose --time-limit bounds the whole command, counted from its start.
TIMED = ("solve", "count")


class Interrupted(KeyboardInterrupt):
    """A signal asked the command to stop; ``code`` is the exit status it ends with."""

    def __init__(self, code: int, why: str) -> None:
        super().__init__(why)
        self.code, self.why = code, why


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The command's parser: every subcommand with its options, or, given the name of one, that subcommand
    alone (what :func:`main` parses with: the other subcommands' parsers, their options and what their help
    texts import cost a command that does not use them; any other ``command`` gets every subcommand listed
    without options, so ``--help`` and the error for a misspelt command name them all)."""
    parser = Parser(prog=PROG, description="N-queens as SAT, ILP, CP and search: solve, count, encode, measure.",
                    epilog="Exit status: 0 solved, 1 infeasible or a solver failed, 2 bad input, 3 no answer (a "
                           "time or memory limit, or the solver's own unknown), 4 a count not certified, 70 a bug in "
                           "nqueens-kit.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    known = any(command in names for names in COMMAND_MODULES.values())
    for module_name, names in COMMAND_MODULES.items():
        if known and command not in names:
            continue  # a command of another module is run: nothing here is parsed
        module = importlib.import_module(f"{__package__}.{module_name}")
        for name, (help_text, add_options) in module.COMMANDS.items():
            if not known or name == command:
                p = sub.add_parser(name, help=help_text)
                if command is None or name == command:  # the listing alone shows no command's options
                    add_options(p)
    return parser


def _command_in(argv: Sequence[str]) -> str:
    """The subcommand ``argv`` names: its first word that is not an option (the command itself has no
    option that takes a value); "" when there is none (``--help``, ``--version``)."""
    return next((word for word in argv if not word.startswith("-")), "")


def _wants_json(argv: Sequence[str]) -> bool:
    return "--json" in argv


def _not_here(frame: FrameType | None) -> bool:
    """Whether a stop must not be raised at ``frame`` now, but a moment later (see :meth:`Watchdog.redeliver`):

    - inside a ``__del__``, where an exception is printed as "ignored" and lost (llvmlite's finalisers);
    - inside a C extension's module code (an import it makes as it loads), which may print the exception and
      go on with a module half made (numba's prints a traceback) or crash;
    - while numba compiles or loads a kernel from its cache (its compiler's lock held by this thread), which an
      exception can leave in a state that crashes the process as it ends.

    Each ends, and the stop is raised then; one that lasts longer than the watchdog's
    :data:`~.startup.STOP_SECONDS` ends the command all the same."""
    while frame is not None:
        code = frame.f_code
        if code.co_name == "__del__" or (code.co_name == "_call_with_frames_removed"
                                         and frame.f_locals.get("f") in _EXTENSION_CODE):
            return True
        frame = frame.f_back
    lock = getattr(sys.modules.get("numba.core.compiler_lock"), "global_compiler_lock", None)
    try:
        return lock is not None and bool(lock.is_locked())
    except Exception:  # noqa: BLE001  (another numba: the other rules still hold)
        return False


#: What runs a C extension's module code as Python loads it (called by importlib's
#: ``_call_with_frames_removed``).
_EXTENSION_CODE = (_imp.create_dynamic, _imp.exec_dynamic)


def _raise_interrupted(signum: int, frame: FrameType | None) -> None:
    guard = watchdog()
    if guard is not None:
        if not guard.signalled(signum) and not guard.redelivered():
            return  # a second stop signal while the first is handled: the watchdog ends the command if need be
        if _not_here(frame):  # raised here it would be lost, or leave a library half made
            guard.redeliver(signum)
            return
    name = {signal.SIGTERM: "terminated", getattr(signal, "SIGHUP", -1): "hung up"}.get(signum, "interrupted")
    raise Interrupted(128 + signum, name)


def _unraisable(hook: sys.UnraisableHookArgs) -> None:
    """A stop raised where Python cannot raise it (a finaliser, such as llvmlite's ``__del__`` while numba
    compiles, ends with it "ignored"): raised again, silently, at the next line the main thread runs."""
    guard = watchdog()
    if guard is not None and isinstance(hook.exc_value, KeyboardInterrupt):
        if isinstance(hook.exc_value, DeadlinePassed):
            guard.redeliver(getattr(signal, "SIGALRM", signal.SIGINT))
            return
        if guard.stop is not None:
            guard.redeliver(guard.stop[0])
            return
    sys.__unraisablehook__(hook)


def _raise_deadline(signum: int, frame: FrameType | None) -> None:
    """The watchdog's signal that the command's deadline passed while the command was still at work itself."""
    guard = watchdog()
    if guard is not None and guard.deadline_passed():
        guard.redelivered()
        if _not_here(frame):
            guard.redeliver(signum)
            return
        raise DeadlinePassed(guard.timeout_text())


def _ctrl_c_raises() -> None:
    """From here on Ctrl-C raises KeyboardInterrupt, which :func:`main` turns into exit status 130 after
    stopping children (during start-up it ended the process at once: :func:`nqueens_kit.cli.run`); with the
    command's watchdog, the handler tells it too."""
    if signal.getsignal(signal.SIGINT) is startup_interrupt:
        signal.signal(signal.SIGINT, _raise_interrupted if watchdog() is not None else signal.default_int_handler)


def _given_limit(argv: Sequence[str]) -> float | None:
    """The ``--time-limit`` in ``argv`` (or an abbreviation argparse takes), read before the parser and the
    kit are loaded; None when there is none or it is not valid (the parser then says so)."""
    for at, word in enumerate(argv):
        if word == "--":
            break
        name, equals, value = word.partition("=")
        if len(name) >= 6 and "--time-limit".startswith(name):
            from ..runtime.limits import check_time_limit

            try:
                return check_time_limit(value if equals else argv[at + 1] if at + 1 < len(argv) else None)
            except InputError:
                return None
    return None


def _stage(name: str) -> None:
    """A stage line (``NQUEENS_KIT_READY=1``: :func:`nqueens_kit.runtime.limits.stage`)."""
    if os.environ.get("NQUEENS_KIT_READY", "") not in ("", "0"):
        from ..runtime.limits import stage

        stage(name)


class _Deadline:
    """The command's deadline (its start plus ``--time-limit``), set for the command's run and restored after."""

    def __init__(self, begun: float) -> None:
        self.begun, self.set = begun, False
        self.before: float | None = None

    def start(self, limit: float | None) -> None:
        if limit is None or self.set:
            return
        from ..runtime.limits import set_deadline

        self.before, self.set = set_deadline(self.begun + limit), True
        guard = watchdog()
        if guard is not None:
            guard.set_deadline(self.begun + limit, limit)

    def restore(self) -> None:
        if self.set:
            from ..runtime.limits import set_deadline

            set_deadline(self.before)
            self.set = False


def _install_signal_handlers() -> None:
    """SIGTERM and SIGHUP stop the command the way Ctrl-C does, so children and temporary files go too."""
    handle(("SIGTERM", "SIGHUP"), _raise_interrupted)


def _fail(message: str, argv: Sequence[str], code: int = EXIT_INPUT) -> int:
    print(f"{PROG}: error: {message}", file=sys.stderr)
    if _wants_json(argv):
        try:
            print_json({"status": "error", "error": message, "exit": code})
        except OSError:
            pass
    return code


def _bug(exc: BaseException, argv: Sequence[str]) -> int:
    """An exception nothing the user did explains: the traceback (the child's, for a bug in a child process),
    and one line saying it is a bug in the kit."""
    import traceback

    details = exc.details if isinstance(exc, KitBug) and exc.details else "".join(
        traceback.format_exception(type(exc), exc, exc.__traceback__))
    print(details.rstrip(), file=sys.stderr)
    return _fail(f"this is a bug in nqueens-kit, not in your input ({type(exc).__name__}: "
                 f"{' '.join(str(exc).split())[:200]}); please report it with the traceback above", argv, EXIT_BUG)


def main(argv: Sequence[str] | None = None, *, started: float | None = None, watched: bool = False) -> int:
    """Run the command ``argv`` (default: this process's arguments) and return its exit status.

    ``started`` (a :func:`time.monotonic` time; default: now) is when the command began: ``--time-limit``
    counts from there.  ``watched`` starts the command's watchdog (:mod:`.startup`), which may end the
    process itself: for the console script only."""
    argv = list(sys.argv[1:] if argv is None else argv)
    command = _command_in(argv)
    deadline = _Deadline(time.monotonic() if started is None else started)
    if watched and command not in COMMAND_MODULES["bench"] and watch(_wants_json(argv), command == "count"):
        try:
            signal.signal(getattr(signal, "SIGALRM", signal.SIGINT), _raise_deadline)
        except (ValueError, OSError):  # not the main thread
            pass
        sys.unraisablehook = _unraisable
    try:
        if command in TIMED:
            deadline.start(_given_limit(argv))
        _ctrl_c_raises()
        _stage("started")
        parser = build_parser(command)
        try:
            args = parser.parse_args(argv)
        except SystemExit as exc:  # --help or --version, already printed
            return int(exc.code or 0)
        if not getattr(args, "func", None):
            commands = ", ".join(sorted(_subcommands(parser)))
            raise InputError(f"give a command: {commands} (see {PROG} --help)")
        if command in TIMED and getattr(args, "time_limit", None) is not None:
            from ..runtime.limits import check_time_limit

            deadline.start(check_time_limit(args.time_limit))
        _install_signal_handlers()
        _stage("parsed")
        code = int(args.func(args))
        sys.stdout.flush()
        return code
    except (Exception, KeyboardInterrupt) as exc:  # noqa: BLE001  (each has its outcome: _outcome)
        return _outcome(exc, argv)
    finally:
        deadline.restore()


def _stop_behind(exc: BaseException) -> KeyboardInterrupt | None:
    """The stop (Ctrl-C, a signal, the deadline) behind ``exc``: itself, or one it was raised while handling (a
    library that met a KeyboardInterrupt in its own clean-up raises another error), or the stop signal the
    watchdog saw; None when nothing stopped the command."""
    seen: set[int] = set()
    cause: BaseException | None = exc
    while cause is not None and id(cause) not in seen:
        if isinstance(cause, KeyboardInterrupt):
            return cause
        seen.add(id(cause))
        cause = cause.__context__ or cause.__cause__
    guard = watchdog()
    if guard is not None and guard.stop is not None:
        signum = guard.stop[0]
        return Interrupted(128 + signum, {15: "terminated", 1: "hung up"}.get(signum, "interrupted"))
    return None


def _outcome(exc: BaseException, argv: Sequence[str]) -> int:
    """What the command says and its exit status when ``exc`` ended it."""
    stop = _stop_behind(exc)
    if isinstance(stop, DeadlinePassed):
        return _late(str(stop), argv)
    if isinstance(stop, Interrupted):
        _said(f"{PROG}: {stop.why}")
        return stop.code
    if stop is not None:
        _said(f"{PROG}: interrupted")
        return EXIT_INTERRUPTED
    if isinstance(exc, SolverError):
        return _fail(str(exc), argv, EXIT_NO)
    if isinstance(exc, ExtraNeeded):  # a command whose figures need matplotlib, in a core install: which extra
        return _fail(ExtraNeeded.said_of(_command_in(argv), exc.package, exc.extra), argv)
    if isinstance(exc, NQueensError):
        return _fail(str(exc), argv)
    if isinstance(exc, BrokenPipeError):
        silence_stdout()
        return EXIT_OK
    if isinstance(exc, MemoryError):
        return _fail("ran out of memory; give a smaller problem (the kit refuses what it predicts will not fit in "
                     "--max-memory)", argv, EXIT_TIMEOUT)
    if isinstance(exc, OSError):
        silence_stdout()
        where = f" ({exc.filename})" if exc.filename else " (standard output)"
        print(f"{PROG}: error: cannot write the output{where}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_INPUT
    return _bug(exc, argv)  # anything else is the kit's fault: say so, with the traceback


def _said(line: str) -> None:
    """Print the command's last line on stderr; its watchdog then prints none of its own."""
    guard = watchdog()
    if guard is not None:
        guard.said()
    print(line, file=sys.stderr)


def _late(text: str, argv: Sequence[str]) -> int:
    """The deadline passed while the command was still at work itself: one line (with ``--json`` an object too),
    exit status 3."""
    _said(f"{PROG}: {text}")
    if _wants_json(argv):
        data: dict[str, object] = {"status": "timeout", "message": text, "exit": EXIT_TIMEOUT}
        if _command_in(argv) == "count":
            data.update(count=0, complete=False)
        try:
            print_json(data)
        except OSError:
            pass
    return EXIT_TIMEOUT


def _subcommands(parser: argparse.ArgumentParser) -> list[str]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return list(action.choices)
    return []


def run() -> NoReturn:
    """Console-script entry point: the command, timed from the process's start, with its watchdog."""
    end(main(started=process_started(), watched=True))


__all__ = ["EXIT_NO", "EXIT_OK", "build_parser", "main", "run"]

if __name__ == "__main__":
    run()
