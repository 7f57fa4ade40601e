"""Any DIMACS SAT solver executable (MiniSat, CaDiCaL, Kissat, PicoSAT, CryptoMiniSat, Glucose, ...).

The solver runs as ``SOLVER [ARGS] FILE.cnf [RESULT]`` through
:func:`~nqueens_kit.runtime.isolate.run_executable`: in a session of its own, dying with the process that
waits for it.  ``FILE.cnf`` is a named pipe in the run's temporary folder for the entries that read their
input once from start to end (``stream=True``: the formula is written once, straight into the solver, which
parses it while the kit still writes; nothing goes to disk), and a regular file for the others (an
executable not in the registry might read its input twice).  Its standard output is read as it comes by the
one solver-output reader, keeping only the answer (``s``/``v`` lines, or MiniSat's result file), so a solver
that prints gigabytes of comments costs no memory and one that prints junk is stopped at its first bad
line.  The answer is read until the solver itself exits (a process it left behind holding its output cannot
keep the kit waiting); a deadline, Ctrl-C or any error stops it and whatever it started.  The solve's
``handover_seconds`` is the time until the whole formula was written.

A solver that fails or lies (no usable answer, SAT without a model, junk, a literal beyond the formula, a
crash without an answer) is a :class:`~nqueens_kit.errors.SolverError`.
"""

from __future__ import annotations

import errno
import io
import os
import signal
import time
from collections import deque
from collections.abc import Sequence
from typing import IO, Any

from ..errors import InputError, SolverError, SolverNotAvailable
from ..problem.results import Answer, Statistics
from ..runtime.isolate import Executed, run_executable
from .base import Capabilities, Clause, SatOutcome, SatSolver, first_version_line

#: Lines of a solver's error output kept for an error message.
TAIL = 5
#: Bytes of a solver's error output kept (the last ones) for an error message.
TAIL_BYTES = 4096
#: The size of the named pipe a streamed formula goes through (Linux' default maximum; 64 KiB otherwise).
PIPE_BYTES = 1 << 20


def bundled_executable(relative: str) -> str | None:
    """An executable that a wheel installed at ``relative`` under this Python's site-packages (never the
    current folder), e.g. ``sage_wheels/bin/kissat`` from passagemath-kissat; None if there is none."""
    import site
    import sysconfig

    paths = sysconfig.get_paths()
    folders = [paths.get("purelib"), paths.get("platlib"), *site.getsitepackages()]
    if site.ENABLE_USER_SITE:
        folders.append(site.getusersitepackages())
    for folder in dict.fromkeys(f for f in folders if f and os.path.isabs(f)):
        candidate = os.path.join(folder, relative)
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    return None


def is_packed(clauses: Any) -> bool:
    """Whether ``clauses`` are held as arrays (``literals`` and ``offsets``) rather than a list of lists."""
    return hasattr(clauses, "literals") and hasattr(clauses, "offsets")


def write_formula(out: IO[bytes], num_vars: int, clauses: Any) -> None:
    """DIMACS text of a list of clauses, or of clauses held as arrays (written with whole-array operations),
    to a binary stream."""
    from ..formats.dimacs import write_dimacs_arrays, write_dimacs_clauses  # imported by the runs that write

    if is_packed(clauses):
        write_dimacs_arrays(out, num_vars, clauses.literals, clauses.offsets)
        return
    text = io.TextIOWrapper(out, encoding="ascii", newline="\n")
    try:
        write_dimacs_clauses(text, num_vars, clauses)
        text.flush()
    finally:
        text.detach()


class Binary(SatSolver):
    """A DIMACS solver executable found on PATH (or given as a path).  :meth:`solve` also takes clauses held
    as arrays (:attr:`~.base.SatSolver.takes_packed`)."""

    kind = "binary"
    takes_packed = True

    def __init__(self, name: str, args: Sequence[str] = (), output_file: bool = False,
                 package: str | None = None, description: str = "", proof_args: Sequence[str] = (),
                 wheel: tuple[str, str] | None = None, marker: str = "o", advice: str = "",
                 stream: bool = False, time_limit: bool = False, verbs: frozenset[str] = frozenset(),
                 features: frozenset[str] = frozenset(), variants: frozenset[str] = frozenset()) -> None:
        """An entry claims what its arguments say and nothing more (``proof_args`` are how it writes a proof;
        ``time_limit``: the kit stops it at its deadline)."""
        self.name, self.marker, self.advice = name, marker, advice
        self.verbs, self.features, self.variants = verbs, features, variants
        self.stream = stream  # the formula goes through a named pipe (the solver reads it once, in order)
        self.installable = package is not None or wheel is not None
        # (pip requirement, path inside site-packages) of a Python wheel that bundles the executable
        self.wheel = wheel
        self.args = list(args)
        self.output_file = output_file  # MiniSat style: the model goes to a second file argument
        self.package = package
        self.proof_args = list(proof_args)
        self.description = description or f"{name} (external DIMACS solver)"
        self.capabilities = Capabilities(in_process=False, time_limit=time_limit, proofs=bool(proof_args))

    def executable(self) -> str | None:
        """The executable on PATH, else the one a Python wheel put in site-packages (``wheel``)."""
        import shutil

        found = shutil.which(self.name)
        if found is None and self.wheel is not None:
            found = bundled_executable(self.wheel[1])
        return found

    def available(self) -> bool:
        return self.executable() is not None

    def install_hint(self) -> str:
        if self.wheel is not None:
            apt = f"; on Debian/Ubuntu also: sudo apt-get install {self.package}" if self.package else ""
            return f"no '{self.name}' on PATH; pip install \"{self.wheel[0]}\" brings one{apt}"
        if self.package:
            return f"no '{self.name}' on PATH; on Debian/Ubuntu: sudo apt-get install {self.package}"
        return f"no '{self.name}' on PATH; install it or give the full path to the executable"

    def version(self) -> str | None:
        exe = self.executable()
        if exe is None:
            return None
        return first_version_line([exe, "--version"]) or first_version_line([exe, "--help"]) or exe

    def prove(self, clauses: Sequence[Clause], num_vars: int,
              deadline: float | None = None) -> tuple[SatOutcome, list[str] | None]:
        if not self.proof_args:
            return super().prove(clauses, num_vars, deadline)
        proof: list[str] = []
        outcome = self.solve(clauses, num_vars, deadline, proof_lines=proof)
        return outcome, (proof if outcome.status == Answer.UNSAT else None)

    def solve(self, clauses: Sequence[Clause], num_vars: int, deadline: float | None = None,
              assumptions: Sequence[int] = (), extra_args: Sequence[str] = (),
              proof_lines: list[str] | None = None) -> SatOutcome:
        """Solve; with ``proof_lines`` (a list) the solver also writes its text DRAT proof, read into it."""
        import tempfile

        start = time.perf_counter()
        try:
            folder = tempfile.mkdtemp(prefix="nqueens-kit-sat-")
        except OSError as exc:
            raise InputError(f"cannot make a temporary folder for {self.name} in {tempfile.gettempdir()}: "
                             f"{exc.strerror or exc}") from None
        feeder: _Feeder | None = None
        try:
            cnf_path = os.path.join(folder, "problem.cnf")
            formula: Any = clauses
            if assumptions:
                listed = clauses.tolist() if is_packed(clauses) else list(clauses)  # type: ignore[attr-defined]
                formula = listed + [[lit] for lit in assumptions]
            try:
                if self.stream:
                    os.mkfifo(cnf_path, 0o600)
                    feeder = _Feeder(cnf_path, num_vars, formula)
                else:
                    with open(cnf_path, "wb") as out:
                        write_formula(out, num_vars, formula)
            except OSError as exc:
                raise InputError(f"cannot write the formula for {self.name} to {folder}: "
                                 f"{exc.strerror or exc}") from None
            handed = time.perf_counter() - start
            result_path = os.path.join(folder, "result.txt")
            command = [self.executable() or self.name, *self.args, *extra_args, cnf_path]
            proof_path = os.path.join(folder, "proof.drat")
            if proof_lines is not None:
                command[1:1] = self.proof_args
                command.append(proof_path)
            elif self.output_file:
                command.append(result_path)
            if feeder is not None:
                feeder.start()
            status, model, detail = self._run(command, deadline, result_path, num_vars, proof=proof_lines is not None)
            if feeder is not None:
                handed = feeder.finish(start)
            if proof_lines is not None and status == Answer.UNSAT and os.path.exists(proof_path):
                with open(proof_path, encoding="ascii", errors="replace") as proof:
                    proof_lines.extend(line.rstrip("\n") for line in proof if line.strip())
        finally:
            if feeder is not None:
                feeder.finish(start)
            import shutil

            shutil.rmtree(folder, ignore_errors=True)
        seconds = time.perf_counter() - start
        # handover_seconds: until the whole formula was written (to the file, or into the solver's pipe)
        handover: Statistics = {"handover_seconds": round(handed, 6)}
        if status == "timeout":
            return SatOutcome(Answer.UNKNOWN, seconds=seconds, stats={"stopped": "deadline", **handover})
        if status == Answer.UNKNOWN:
            return SatOutcome(Answer.UNKNOWN, seconds=seconds, stats={"solver_said": detail or "UNKNOWN", **handover})
        return SatOutcome(status, model, seconds=seconds, stats=handover)

    def _run(self, command: list[str], deadline: float | None, result_path: str, num_vars: int,
             proof: bool = False) -> tuple[str, list[int] | None, str]:
        """Run the solver; its answer as (status, model, what it said when it gave up), or "timeout"."""
        from ..formats.solver_output import SolverOutputReader, read_solver_output

        reader = SolverOutputReader(self.name, max_var=num_vars)
        errors = _Tail()
        chatter = self.output_file and not proof  # MiniSat style: the answer is in the result file
        try:
            ended = run_executable(command, on_output=errors.write if chatter else reader.write,
                                   on_error=errors.write, deadline=deadline,
                                   answered=None if proof or chatter else lambda: reader.answered)
        except OSError as exc:
            raise SolverNotAvailable(f"cannot run {self.name}: {exc.strerror or exc}") from None
        except InputError as exc:  # a line no solver would print: it was stopped there
            raise SolverError(f"{self.name} gave no usable answer (a bad line in its output: "
                              f"{_without_source(str(exc), self.name)})") from None
        if chatter:
            if ended.returncode is None:
                return "timeout", None, ""
            try:
                with open(result_path, "rb") as result:
                    outcome = read_solver_output(result, self.name, max_var=num_vars)
            except FileNotFoundError:
                raise SolverError(f"{self.name} gave no usable answer ({_how(ended)}: it wrote no result file"
                                  f"{errors.last()})") from None
            except InputError as exc:
                raise SolverError(f"{self.name} gave no usable answer ({_how(ended)}: "
                                  f"{_without_source(str(exc), self.name)}{errors.last()})") from None
        else:
            try:
                outcome = reader.finish()
            except InputError as exc:
                if ended.stopped == "deadline":
                    return "timeout", None, ""
                raise SolverError(f"{self.name} gave no usable answer ({_how(ended)}: "
                                  f"{_without_source(str(exc), self.name)}{errors.last()})") from None
        if not outcome.complete:
            if ended.stopped == "deadline":
                return "timeout", None, ""
            raise SolverError(f"{self.name} gave no usable answer ({_how(ended)}: {outcome.note}{errors.last()})")
        said = outcome.status_line if outcome.status == Answer.UNKNOWN else ""
        return outcome.status, outcome.model, said


class _Feeder:
    """Writes a formula into a named pipe from a thread, once the solver has opened it.

    Opening waits (without blocking) for the solver to open its end, so a solver that exits before reading
    leaves no thread behind; a solver that stops reading (it ended, or was stopped at the deadline) ends the
    writing with a broken pipe.  A write error other than that is raised by :meth:`finish`."""

    def __init__(self, path: str, num_vars: int, clauses: Any) -> None:
        import threading

        self.path, self.num_vars, self.clauses = path, num_vars, clauses
        self.stop = threading.Event()
        self.error: OSError | None = None
        self.done_at: float | None = None
        self.thread = threading.Thread(target=self._write, name="dimacs-feeder", daemon=True)

    def start(self) -> None:
        self.thread.start()

    def _write(self) -> None:
        while True:
            try:
                fd = os.open(self.path, os.O_WRONLY | os.O_NONBLOCK)
                break
            except OSError as exc:
                if exc.errno != errno.ENXIO:  # ENXIO: the solver has not opened its end yet
                    self.error = exc
                    return
                if self.stop.wait(0.002):
                    return
        os.set_blocking(fd, True)
        try:
            import fcntl

            fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, PIPE_BYTES)  # fewer switches between writer and solver
        except (OSError, AttributeError, ImportError):
            pass  # the system's pipe size limit (/proc/sys/fs/pipe-max-size) is lower: keep its default
        try:
            with open(fd, "wb", buffering=1 << 20) as out:
                write_formula(out, self.num_vars, self.clauses)
            self.done_at = time.perf_counter()
        except BrokenPipeError:
            pass  # the solver stopped reading: it ended, or was stopped
        except OSError as exc:
            self.error = exc

    def finish(self, start: float) -> float:
        """Wait for the writer (the solver has ended, so it ends too); seconds from ``start`` until the whole
        formula was written (until now if it was not)."""
        self.stop.set()
        if self.thread.is_alive() or self.thread.ident is not None:
            self.thread.join()
        if self.error is not None:
            error, self.error = self.error, None
            raise InputError(f"cannot write the formula into {self.path}: {error.strerror or error}") from None
        return (self.done_at or time.perf_counter()) - start


def _how(ended: Executed) -> str:
    """How a solver run ended, for a message."""
    if ended.stopped == "deadline":
        return "stopped at the time limit"
    if ended.stopped:
        return "stopped: it answered but did not exit"
    code = ended.returncode
    if code is not None and code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit code {code}"


def _without_source(message: str, name: str) -> str:
    """A reader's message without its leading ``NAME:`` (the message it goes into names the solver)."""
    if not message.startswith(f"{name}:"):
        return message
    rest = message[len(name) + 1:]
    return f"line {rest}" if rest[:1].isdigit() else rest.lstrip()


class _Tail:
    """The last :data:`TAIL_BYTES` of a solver's error output (what it says when it fails), in memory."""

    def __init__(self) -> None:
        self.chunks: deque[bytes] = deque()
        self.size = 0

    def write(self, data: bytes) -> None:
        self.chunks.append(data)
        self.size += len(data)
        while self.size - len(self.chunks[0]) >= TAIL_BYTES:
            self.size -= len(self.chunks.popleft())

    def lines(self) -> list[str]:
        text = b"".join(self.chunks)[-TAIL_BYTES:].decode("utf-8", "replace")
        return [" ".join(line.split()) for line in text.splitlines() if line.strip()][-TAIL:]

    def last(self) -> str:
        """``; it said: LINE`` with its last line of error output, or nothing."""
        lines = self.lines()
        return f"; it said: {lines[-1][:200]}" if lines else ""
