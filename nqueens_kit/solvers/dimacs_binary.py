"""Any DIMACS SAT solver executable (MiniSat, CaDiCaL, Kissat, PicoSAT, CryptoMiniSat, Glucose, ...).

The formula is written to a file in the run's temporary folder and the solver runs as ``SOLVER [ARGS]
FILE.cnf [RESULT]``.  Its standard output is read as it comes, keeping only the answer lines (``s``/``v``,
or MiniSat's result file), so a solver that prints gigabytes of comments costs no memory.  The solver
leads its own process group: a deadline, Ctrl-C or any error stops it and whatever it started.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Sequence
from typing import IO

from ..errors import InputError, NQueensError, SolverNotAvailable
from ..formats.dimacs import write_dimacs_clauses
from ..formats.solver_output import SolverAnswer, read_solver_output
from ..problem.results import Answer
from .base import Capabilities, Clause, SatOutcome, SatSolver, first_version_line

#: Lines of a solver's error output kept for an error message.
TAIL = 5


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


class Binary(SatSolver):
    """A DIMACS solver executable found on PATH (or given as a path)."""

    kind = "binary"

    def __init__(self, name: str, args: Sequence[str] = (), output_file: bool = False,
                 package: str | None = None, description: str = "", proof_args: Sequence[str] = (),
                 wheel: tuple[str, str] | None = None, marker: str = "o", advice: str = "") -> None:
        self.name, self.marker, self.advice = name, marker, advice
        self.installable = package is not None or wheel is not None
        # (pip requirement, path inside site-packages) of a Python wheel that bundles the executable
        self.wheel = wheel
        self.args = list(args)
        self.output_file = output_file  # MiniSat style: the model goes to a second file argument
        self.package = package
        self.proof_args = list(proof_args)
        self.description = description or f"{name} (external DIMACS solver)"
        self.capabilities = Capabilities(in_process=False, time_limit=True, proofs=bool(proof_args))

    def executable(self) -> str | None:
        """The executable on PATH, else the one a Python wheel put in site-packages (``wheel``)."""
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
        start = time.perf_counter()
        try:
            folder = tempfile.mkdtemp(prefix="nqueens-kit-sat-")
        except OSError as exc:
            raise InputError(f"cannot make a temporary folder for {self.name} in {tempfile.gettempdir()}: "
                             f"{exc.strerror or exc}") from None
        try:
            cnf_path = os.path.join(folder, "problem.cnf")
            formula = list(clauses) + [[lit] for lit in assumptions] if assumptions else clauses
            try:
                with open(cnf_path, "w", encoding="ascii") as out:
                    write_dimacs_clauses(out, num_vars, formula)
            except OSError as exc:
                raise InputError(f"cannot write the formula for {self.name} to {folder}: "
                                 f"{exc.strerror or exc}") from None
            result_path = os.path.join(folder, "result.txt")
            command = [self.executable() or self.name, *self.args, *extra_args, cnf_path]
            proof_path = os.path.join(folder, "proof.drat")
            if proof_lines is not None:
                command[1:1] = self.proof_args
                command.append(proof_path)
            elif self.output_file:
                command.append(result_path)
            status, model, detail = self._run(command, folder, deadline, result_path, num_vars)
            if proof_lines is not None and status == Answer.UNSAT and os.path.exists(proof_path):
                with open(proof_path, encoding="ascii", errors="replace") as proof:
                    proof_lines.extend(line.rstrip("\n") for line in proof if line.strip())
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        seconds = time.perf_counter() - start
        if status == "timeout":
            return SatOutcome(Answer.UNKNOWN, seconds=seconds, stats={"stopped": "deadline"})
        if status == Answer.UNKNOWN:
            return SatOutcome(Answer.UNKNOWN, seconds=seconds, stats={"solver_said": detail or "UNKNOWN"})
        return SatOutcome(status, model, seconds=seconds)

    def _run(self, command: list[str], folder: str, deadline: float | None, result_path: str,
             num_vars: int) -> tuple[str, list[int] | None, str]:
        errors_path = os.path.join(folder, "stderr.txt")
        with open(errors_path, "wb") as stderr:
            try:
                proc = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=stderr,
                                        start_new_session=True)
            except OSError as exc:
                raise SolverNotAvailable(f"cannot run {self.name}: {exc.strerror or exc}") from None
        answers: list[SolverAnswer | BaseException] = []
        assert proc.stdout is not None
        reader = threading.Thread(target=_read_answer, args=(proc.stdout, self.name, num_vars, answers), daemon=True)
        reader.start()
        try:
            remaining = None if deadline is None else max(0.0, deadline - time.monotonic())
            try:
                proc.wait(timeout=remaining)
            except subprocess.TimeoutExpired:
                return "timeout", None, ""
            reader.join()
        finally:
            _stop_group(proc)
        outcome = answers[0] if answers else InputError("no output")
        if self.output_file and os.path.exists(result_path):
            try:
                with open(result_path, encoding="ascii", errors="replace") as result:
                    outcome = read_solver_output(result, self.name, max_var=num_vars)
            except InputError as exc:
                outcome = exc
        if isinstance(outcome, BaseException) or not outcome.complete:
            tail = _tail(errors_path)
            why = tail[-1] if tail else (str(outcome) if isinstance(outcome, BaseException) else outcome.note)
            raise NQueensError(f"{self.name} gave no usable answer (exit code {proc.returncode}: {why})")
        said = outcome.status_line if outcome.status == Answer.UNKNOWN else ""
        return outcome.status, outcome.model, said


def _read_answer(stream: IO[bytes], name: str, num_vars: int, answers: list[SolverAnswer | BaseException]) -> None:
    """Read a solver's output to the end as it comes (memory bounded by the model, not by the chatter)."""
    try:
        answers.append(read_solver_output(stream, name, max_var=num_vars))
    except InputError as exc:
        answers.append(exc)
        for _ in iter(stream.readline, b""):  # drain, so the solver is not blocked on a full pipe
            pass
    finally:
        stream.close()


def _stop_group(proc: subprocess.Popen[bytes]) -> None:
    """Kill the solver and whatever it started (it leads its own process group), then reap it."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except OSError:
        pass
    proc.wait()


def _tail(path: str) -> list[str]:
    try:
        with open(path, "rb") as handle:
            handle.seek(0, os.SEEK_END)
            handle.seek(max(0, handle.tell() - 4096))
            text = handle.read().decode("utf-8", "replace")
    except OSError:
        return []
    return [line.strip() for line in text.splitlines() if line.strip()][-TAIL:]
