"""The ``nqueens-kit`` command: parses, asks the method layer, prints.

::

    nqueens-kit solve N [--method NAME] [--encoding NAME | --formulation NAME] [--solver NAME]
                        [--settings NAME] [--place R,C ...] [--break-symmetry] [--time-limit S]
                        [--max-memory SIZE] [--proof FILE [--checker auto|drup|dratify]] [--json]
                        [--board-file FILE]
    nqueens-kit count N [--method NAME] [...] [--fundamental | --break-symmetry] [--time-limit S] [--json]
    nqueens-kit count --from-cnf FILE [--n N] [--json]
    nqueens-kit cnf N [--encoding NAME] [--place R,C ...] [--break-symmetry] [-o FILE]
    nqueens-kit decode SOLVER_OUTPUT --n N [--json]
    nqueens-kit verify BOARD_FILE [--n N] [--place R,C ...] [--json]
    nqueens-kit lp N [--formulation NAME] [--place R,C ...] -o FILE.lp|FILE.mps
    nqueens-kit solvers [--json]
    nqueens-kit notebooks DEST [--force]
    nqueens-kit trace ... | bnb ... | bench ... | frontier ... | plot ... | report ...

This module is the command itself; :mod:`nqueens_kit.cli` is its light entry point (``run``), which
answers Ctrl-C while this module and the kit load.  The subcommands live in :mod:`.solve`, :mod:`.inside`
and :mod:`.bench`; what they share (exit statuses, the method options built from the registry, reporting)
in :mod:`.common`.

Exit status: 0 solved (or counted, or written), 1 infeasible, an invalid board or a solver that failed or
gave a wrong answer, 2 bad input (one line on stderr saying what is wrong and what is valid; with
``--json`` also an error object on stdout), 3 no answer (the time or memory limit was reached, or the solver
itself stopped without one: ``s UNKNOWN``), 70 a bug in nqueens-kit (the traceback and a line saying so), 130
interrupted (143 terminated, 129 hung up).
"""

from __future__ import annotations

import argparse
import importlib
import signal
import sys
from collections.abc import Sequence
from types import FrameType
from typing import NoReturn

from .. import __version__
from ..errors import InputError, KitBug, NQueensError, SolverError
from .common import EXIT_BUG, EXIT_INPUT, EXIT_INTERRUPTED, EXIT_NO, EXIT_OK, EXIT_TIMEOUT, PROG, Parser, print_json
from .startup import end, silence_stdout, startup_interrupt

#: The modules of the subcommands (under :mod:`nqueens_kit.cli`) and their commands, in the order ``--help``
#: lists them; each module has ``COMMANDS``, name -> (help, the function that adds its options).  A command
#: imports its own module alone.
COMMAND_MODULES = {
    "solve": ("solve", "count", "cnf", "decode", "verify", "lp", "notebooks", "solvers"),
    "bench": ("bench", "frontier", "plot", "report"),
    "inside": ("trace", "bnb"),
}


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
                           "time or memory limit, or the solver's own unknown), 70 a bug in nqueens-kit.")
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


def _raise_interrupted(signum: int, frame: FrameType | None) -> None:
    name = {signal.SIGTERM: "terminated", getattr(signal, "SIGHUP", -1): "hung up"}.get(signum, "interrupted")
    raise Interrupted(128 + signum, name)


def _ctrl_c_raises() -> None:
    """From here on Ctrl-C raises KeyboardInterrupt, which :func:`main` turns into exit status 130 after
    stopping children (during start-up it ended the process at once: :func:`nqueens_kit.cli.run`)."""
    if signal.getsignal(signal.SIGINT) is startup_interrupt:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def _install_signal_handlers() -> None:
    """SIGTERM and SIGHUP stop the command the way Ctrl-C does, so children and temporary files go too."""
    for name in ("SIGTERM", "SIGHUP"):
        sig = getattr(signal, name, None)
        if sig is not None:
            try:
                signal.signal(sig, _raise_interrupted)
            except (ValueError, OSError):  # not the main thread
                pass


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


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        _ctrl_c_raises()
        parser = build_parser(_command_in(argv))
        try:
            args = parser.parse_args(argv)
        except SystemExit as exc:  # --help or --version, already printed
            return int(exc.code or 0)
        if not getattr(args, "func", None):
            commands = ", ".join(sorted(_subcommands(parser)))
            raise InputError(f"give a command: {commands} (see {PROG} --help)")
        _install_signal_handlers()
        code = int(args.func(args))
        sys.stdout.flush()
        return code
    except SolverError as exc:
        return _fail(str(exc), argv, EXIT_NO)
    except NQueensError as exc:
        return _fail(str(exc), argv)
    except Interrupted as stop:
        print(f"{PROG}: {stop.why}", file=sys.stderr)
        return stop.code
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        silence_stdout()
        return EXIT_OK
    except MemoryError:
        return _fail("ran out of memory; give a smaller problem (the kit refuses what it predicts will not fit in "
                     "--max-memory)", argv, EXIT_TIMEOUT)
    except OSError as exc:
        silence_stdout()
        where = f" ({exc.filename})" if exc.filename else " (standard output)"
        print(f"{PROG}: error: cannot write the output{where}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_INPUT
    except Exception as exc:  # noqa: BLE001  (anything else is the kit's fault: say so, with the traceback)
        return _bug(exc, argv)


def _subcommands(parser: argparse.ArgumentParser) -> list[str]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return list(action.choices)
    return []


def run() -> NoReturn:
    """Console-script entry point."""
    end(main())


__all__ = ["EXIT_NO", "EXIT_OK", "build_parser", "main", "run"]

if __name__ == "__main__":
    run()
