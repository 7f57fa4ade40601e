"""What every subcommand of ``nqueens-kit`` shares: exit statuses, one-line errors, JSON, the options that
name a method and its variant, solver and settings (built from the method registry), and reporting a solve.

Exit status (the book's page "Outcomes and exit statuses" has the table, which a test holds to this code):
0 solved (or counted, or written), 1 infeasible, an invalid board or a solver that failed or gave a wrong
answer, 2 bad input (one line on stderr saying what is wrong and what is valid), 3 no answer: the time or
memory limit was reached, or the solver itself stopped without one (``s UNKNOWN``), 4 a count that is not
certified (its end rests on the solver's word), 70 a bug in the kit (the traceback, and a line saying so), 130
interrupted (143 terminated, 129 hung up).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from functools import partial
from typing import TYPE_CHECKING, NoReturn

from ..errors import InputError

if TYPE_CHECKING:
    from typing import IO

    from ..methods import Method
    from ..problem.board import ColumnBoard, Problem
    from ..problem.results import SolveResult, Status

# The kit itself is imported by the functions that use it: ``nqueens-kit --help`` lists the commands without it.

PROG = "nqueens-kit"
EXIT_OK, EXIT_NO, EXIT_INPUT, EXIT_TIMEOUT, EXIT_BUG, EXIT_INTERRUPTED = 0, 1, 2, 3, 70, 130
#: The statuses of a run that ended without an answer: a limit of the kit's, or the solver's own "don't know".
NO_ANSWER = ("timeout", "memout", "unknown")
#: Boards larger than this are not drawn as text (use --json for the queens).
DRAW_LIMIT = 64
#: ``--json`` lists the queens of boards up to this size; a larger board is summarised (its digest and first
#: columns), and ``--board-file`` writes it whole (the value of nqueens_kit.problem.board.LISTED_BOARD_N).
JSON_LISTED_N = 10_000


class Later(str):
    """A help text written when help is shown, not when the parser is built: one that lists every method's
    variants, say, would import every method for a command that uses one."""

    write: Callable[[], str]

    def __new__(cls, write: Callable[[], str]) -> Later:
        text = super().__new__(cls, "...")
        text.write = write
        return text


class Parser(argparse.ArgumentParser):
    """argparse with one-line errors (the usage is one ``--help`` away) and help texts written when shown
    (:class:`Later`)."""

    def error(self, message: str) -> NoReturn:
        raise InputError(f"{message} (see {self.prog} --help)")

    _showing = False

    def format_help(self) -> str:
        for action in self._actions:
            if isinstance(action.help, Later):
                action.help = action.help.write()
        Parser._showing = True
        try:
            return super().format_help()
        finally:
            Parser._showing = False

    def format_usage(self) -> str:
        Parser._showing = True
        try:
            return super().format_usage()
        finally:
            Parser._showing = False

    def _get_formatter(self) -> argparse.HelpFormatter:
        """A formatter for the terminal's width when help is shown; while the parser is built (argparse checks
        each option's metavar with one) any width does, and the terminal is not asked (which imports shutil)."""
        if Parser._showing:
            return super()._get_formatter()
        # argparse's formatters take a width, which typeshed's type of formatter_class leaves out
        make: Callable[..., argparse.HelpFormatter] = self.formatter_class
        formatter: argparse.HelpFormatter = make(prog=self.prog, width=80)
        return formatter


def print_json(data: object) -> None:
    import json

    print(json.dumps(data, indent=None, separators=(",", ":"), default=str))


def whole(text: str, what: str, minimum: int) -> int:
    """A whole-number option of at least ``minimum``, or a one-line error."""
    from ..problem.board import whole_number

    value = whole_number(text)
    if value is None or value < minimum:
        raise InputError(f"{what} must be a whole number of at least {minimum}, not {str(text)[:40]!r}")
    return value


def variant_words() -> list[str]:
    """The words the registered methods call their variants (``encoding``, ``formulation``): one option each
    (from the registry: no method is loaded to tell)."""
    from ..methods import METHODS

    return sorted({word for word in map(METHODS.variant_word, METHODS) if word})


def add_place(p: argparse.ArgumentParser) -> None:
    p.add_argument("--place", metavar="R,C", nargs="+", action="extend", default=[],
                   help="pre-place a queen at row R, column C (1-based); repeatable")


def add_json(p: argparse.ArgumentParser, help_text: str = "print one JSON object instead of text") -> None:
    p.add_argument("--json", action="store_true", help=help_text)


def add_board_file(p: argparse.ArgumentParser) -> None:
    p.add_argument("--board-file", metavar="FILE", default=None,
                   help="write the board found to FILE: its columns row by row, one per line (FILE.json: a JSON "
                        "object with n and the list of columns); written whole or not at all, never to a folder "
                        "or a device")


#: How many columns :func:`write_board_file` turns into text at a time.
BOARD_FILE_SLICE = 100_000


def check_board_file(path: str | None) -> None:
    """Refuse (one line) a --board-file the kit may not write (a folder, a device, a FIFO, a missing
    folder), before the solve starts."""
    if path is not None:
        from ..runtime.files import output_path

        output_path(path, "the board file (--board-file)")


def write_board_file(path: str, result: SolveResult) -> str:
    """Write the board of a solved ``result`` to ``path`` (see :func:`add_board_file`) through a draft that
    replaces the file in one step; returns what to tell the user."""
    from ..problem.board import column_board
    from ..runtime.files import written_whole

    board = column_board(result.queens)
    if board is None:  # every method lists its board row by row; this is a board read from elsewhere
        raise InputError(f"the board has not one queen in each row 1..{result.n:,} in order, so it has no list of "
                         "columns to write to --board-file")
    as_json = path.lower().endswith(".json")
    columns = board.columns
    with written_whole(path, what="the board file (--board-file)") as out:
        if as_json:
            out.write(f'{{"n":{result.n},"columns_sha256":"{board.digest()}","columns":[')
        # written in slices: the text of ten million columns is never all in memory at once
        for start in range(0, len(columns), BOARD_FILE_SLICE):
            chunk = columns[start:start + BOARD_FILE_SLICE].tolist()
            if as_json:
                out.write(("," if start else "") + ",".join(map(str, chunk)))
            else:
                out.write("\n".join(map(str, chunk)) + "\n")
        if as_json:
            out.write("]}\n")
    return f"board written to {path} ({len(columns):,} columns)"


#: Bytes read at a time from a board file whose size is checked against ``--n`` as it is read.
_BOARD_CHUNK = 1 << 20
#: Past this many bytes a board file already too large for ``--n`` is no longer counted to the end.
_BOARD_COUNTED = 256 << 20


def _columns_text(stream: IO[bytes], path: str, most: int | None) -> bytes:
    """The text of a board file, read in chunks; with ``most``, a file of more than ``most`` columns is
    refused as soon as the columns pass it (the rest is only counted, up to :data:`_BOARD_COUNTED` bytes)."""
    chunks: list[bytes] = []
    count, joined = 0, False  # columns seen; whether the last chunk ended inside a column
    size = 0
    while True:
        chunk = stream.read(_BOARD_CHUNK)
        if not chunk:
            break
        if not chunks and chunk.lstrip().startswith(b"{"):  # JSON: read whole, checked once parsed
            return chunk + stream.read()
        size += len(chunk)
        count += len(chunk.split()) - (1 if joined and not chunk[:1].isspace() else 0)
        joined = not chunk[-1:].isspace()
        if most is not None and count > most:
            while size < _BOARD_COUNTED and (chunk := stream.read(_BOARD_CHUNK)):
                size += len(chunk)
                count += len(chunk.split()) - (1 if joined and not chunk[:1].isspace() else 0)
                joined = not chunk[-1:].isspace()
            more = "" if not chunk else "more than "
            raise InputError(f"{path} holds a board of {more}{count:,} rows (one column per line) but --n says "
                             f"{most:,}: give the board's own size, or leave out --n")
        chunks.append(chunk)
    return b"".join(chunks)


def read_board_file(path: str, most: int | None = None) -> ColumnBoard:
    """The board in a file :func:`write_board_file` wrote (columns one per line, or its JSON object), or a
    one-line :class:`InputError` saying what is wrong with the file; a JSON file's digest is checked.  With
    ``most`` (``verify --n``) a board of more rows is refused as soon as its columns pass it, before the
    rest of the file is read into memory."""
    import numpy as np

    from ..problem.board import from_columns
    from ..runtime.files import opened_to_read

    what = "a board file (columns one per line, or the JSON of --board-file)"
    with opened_to_read(path, what, "rb") as stream:
        data = _columns_text(stream, path, most)
    if data.lstrip().startswith(b"{"):
        import json

        try:
            record = json.loads(data)
            values = record["columns"] if isinstance(record, dict) else None
            if not isinstance(values, list) or not all(type(v) is int for v in values):
                raise ValueError("no list of whole-number columns")
            columns = np.array(values, dtype=np.int64)
        except (ValueError, KeyError) as exc:
            raise InputError(f"{path} is not a board file: {str(exc)[:80]}") from None
        board = from_columns(columns) if len(columns) else None
        if board is not None and record.get("columns_sha256", board.digest()) != board.digest():
            raise InputError(f"{path}: the columns do not match the file's columns_sha256 (the file was changed)")
        if board is not None and record.get("n", len(board)) != len(board):
            raise InputError(f"{path}: the file says n = {record.get('n')!r} but lists {len(board):,} columns")
    else:
        try:
            columns = np.array(data.split(), dtype=np.int64)
        except (ValueError, OverflowError):
            bad = next((t for t in data.split() if not t.isdigit()), b"?")
            raise InputError(f"{path} is not a board file: {bad[:40].decode(errors='replace')!r} is not a "
                             "column (a whole number, one per line)") from None
        board = from_columns(columns) if len(columns) else None
    if board is None:
        raise InputError(f"{path} holds no columns: a board file lists one column per row")
    if most is not None and len(board) > most:
        raise InputError(f"{path} holds a board of {len(board):,} rows but --n says {most:,}: give the board's "
                         "own size, or leave out --n")
    return board


def add_choice(p: argparse.ArgumentParser, verb: str) -> None:
    """``--method`` (the methods that have ``verb``), one option per variant word, ``--solver``,
    ``--settings``, ``--time-limit`` and ``--max-memory``."""
    from ..methods import METHODS

    # The help texts name every method's variants and settings: written only when help is shown (Later), so
    # that parsing loads no method.
    def able() -> list[Method]:
        return [m for m in METHODS.values() if verb in m.verbs]

    def methods_text() -> str:
        return f"how to {verb} (default {able()[0].name}): " + "; ".join(f"{m.name}: {m.summary}" for m in able())

    def variants_text(word: str) -> str:
        listed = "; ".join(f"{m.title}: {', '.join(m.variants())}" for m in able() if m.variant_word == word)
        return f"the {word} of the method ({listed})"

    def settings_text() -> str:
        named = "; ".join(f"{m.name}: {', '.join(m.settings())} (default {next(iter(m.settings()))})"
                          for m in able() if m.settings())
        return f"the method's named solver settings ({named})"

    # every method is a valid word: one that lacks the verb refuses it itself, naming those that have it
    p.add_argument("--method", default=None, choices=list(METHODS), help=Later(methods_text))
    for word in variant_words():
        p.add_argument(f"--{word}", default=None, help=Later(partial(variants_text, word)))
    p.add_argument("--solver", default=None, help="the method's solver (default: its first); see 'nqueens-kit solvers'")
    p.add_argument("--settings", default=None, help=Later(settings_text))
    p.add_argument("--time-limit", default=None, metavar="S",
                   help="wall-clock limit in seconds on the whole command from its start (loading, build, "
                        "solve, decode), at most 2000000 (about 23 days)")
    p.add_argument("--max-memory", default=None, metavar="SIZE",
                   help="refuse models predicted to need more memory (e.g. 8G; default: half of this "
                        "machine's memory, or $NQUEENS_KIT_MAX_MEMORY)")


def chosen_method(args: argparse.Namespace) -> Method:
    from ..methods import get_method

    return get_method(getattr(args, "method", None))


def variant(args: argparse.Namespace, chosen: Method) -> str | None:
    """The one variant the options name, refused where the method calls its variants otherwise (or has none)."""
    from ..methods import METHODS

    given = {word: getattr(args, word) for word in variant_words() if getattr(args, word, None) is not None}
    if len(given) > 1:
        raise InputError(f"give one of {', '.join('--' + w for w in given)}, not several")
    if not given:
        return None
    word, value = next(iter(given.items()))
    owners = " or ".join(f"--method {name}" for name in METHODS if METHODS.variant_word(name) == word)
    if chosen.variant_word is None:
        raise InputError(f"--{word} does not apply to --method {chosen.name} ({chosen.summary}); it goes with {owners}")
    if word != chosen.variant_word:
        raise InputError(f"--{word} belongs to {owners}, not to --method {chosen.name}, whose variants are "
                         f"{chosen.variant_word}s ({', '.join(chosen.variants())}), given with --{chosen.variant_word}")
    return str(value)


def problem_from(n_text: str, places: Sequence[str], break_symmetry: bool = False) -> Problem:
    from ..problem.board import Problem, parse_cell, parse_n

    n = parse_n(n_text)
    return Problem(n, tuple(parse_cell(text, n) for text in places), break_symmetry=break_symmetry)


def time_limit(args: argparse.Namespace) -> float | None:
    from ..runtime.limits import check_time_limit

    return check_time_limit(getattr(args, "time_limit", None))


def report_solve(result: SolveResult, as_json: bool, how: str | None = None, board_file: str | None = None) -> int:
    """Print a solve (text or JSON), after writing its board to ``board_file`` if one is named and there is a
    board; the exit status of its outcome.  JSON lists the queens of a board of up to :data:`JSON_LISTED_N`
    queens and summarises a larger one."""
    from ..problem.board import column_board, draw, violations
    from ..problem.results import Status

    written = None
    if board_file is not None and result.status == Status.SOLVED and result.queens:
        written = write_board_file(board_file, result)
    if as_json:
        board = column_board(result.queens) if len(result.queens) > JSON_LISTED_N else None
        if board is not None:
            result.queens = board  # summarised (the summary names it by its digest)
        data = result.to_dict()
        if written is not None:
            data["board_file"] = board_file
        print_json(data)
    else:
        problem = result.problem
        head = f"{problem.describe()} ({how or result.method}): {result.status}"
        if result.status == Status.SOLVED:
            head += ", verified" if result.verified else ", NOT VALID"
        print(head)
        size = []
        if result.variables is not None:
            size.append(f"{result.variables:,} variables")
        if result.clauses is not None:
            size.append(f"{result.clauses:,} clauses")
        if result.constraints is not None:
            size.append(f"{result.constraints:,} constraints")
        if result.status in (Status.TIMEOUT, Status.MEMOUT):
            size.append(f"stopped after {result.solve_seconds:.3f} s")
        elif result.status == Status.UNKNOWN:
            size.append(f"built in {result.build_seconds:.3f} s, gave up after {result.solve_seconds:.3f} s")
        else:
            size.append(f"built in {result.build_seconds:.3f} s, solved in {result.solve_seconds:.3f} s")
        print("; ".join(size))
        cbc_options = result.options.get("cbc_options")
        if cbc_options and isinstance(cbc_options, (list, tuple)):
            print(f"CBC options ({result.options.get('settings')}): {', '.join(map(str, cbc_options))}")
        if result.message:
            print(result.message)
        if result.status == Status.INFEASIBLE and result.known_by:
            print(f"known by: {result.known_by}")
        if result.status == Status.SOLVED:
            if result.n <= DRAW_LIMIT:
                print(draw(result.n, result.queens, result.preplaced, result.blocked))
            elif written is None:
                listed = "--json lists the queens" if result.n <= JSON_LISTED_N else "--board-file FILE writes them"
                print(f"(a {result.n:,}x{result.n:,} board is too large to draw; {listed})")
            if not result.verified:
                for problem_text in violations(result.n, result.queens, result.preplaced, result.blocked):
                    print(f"  {problem_text}")
        if written is not None:
            print(written)
    return exit_code(result.status, result.verified)


def exit_code(status: Status | str, verified: bool | None = None) -> int:
    """0 solved and verified; 3 no answer (a time or memory limit, or the solver's own "unknown"); 1 anything
    else (infeasible, an invalid board, an error)."""
    from ..problem.results import Status

    if status == Status.SOLVED:
        return EXIT_OK if verified is not False else EXIT_NO
    return EXIT_TIMEOUT if status in NO_ANSWER else EXIT_NO


def _place_and_json(p: argparse.ArgumentParser) -> None:
    """The options ``count`` and ``decode`` end with: --place, then --json."""
    add_place(p)
    add_json(p)


def _isolated(chosen: Method) -> bool | None:
    """A method that Ctrl-C cannot stop in place always runs in a child process; the others only when a
    time limit asks for one."""
    return None if chosen.interruptible else True
