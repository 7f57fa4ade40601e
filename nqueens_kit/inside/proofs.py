"""Checked "no": proofs of unsatisfiability, written as text a student can read and checked independently.

When a SAT solver says a board cannot be completed (or that n = 2 and 3 have no solution), it can also
write *why*: a list of clauses (lemmas), each of which follows from the formula and the earlier lemmas by
unit propagation alone (reverse unit propagation, RUP), ending with the empty clause.  Such a proof is a
*DRUP* proof (deletion RUP: ``d ...`` lines delete clauses the solver no longer needs, which only makes
checking cheaper) and is checked by a program much simpler than any solver.  A *DRAT* proof may also hold
lemmas that are not RUP but *resolution asymmetric tautologies* (RAT: clauses that keep satisfiability,
as in extended resolution or blocked-clause addition); deleting clauses never makes a RAT step, so what a
proof is called depends on its lemmas, which only a check can tell (:attr:`ProofCheck.system`).

- :func:`prove`: solve a formula with a solver that writes proofs (a SAT entry that declares the ``proofs``
  capability: :func:`~nqueens_kit.solvers.proving_entries`) and return its :class:`Proof`, or None when
  satisfiable.
- :func:`check`: check a proof against the formula with an independent checker: ``drup`` (extracted from
  code verified in Why3) or ``dratify`` (pure Python); ``auto`` takes the first installed (the checkers
  themselves are reached through :mod:`nqueens_kit.methods.sat.certificate`, which certifies the end of a
  count with them too).  The verdict says which proof system the lemmas needed: DRUP (every lemma RUP) or
  DRAT (some lemma RAT).
- :func:`rup_only`: whether every lemma follows by unit propagation alone (the kit's own replay).
- :func:`replay`: what unit propagation does for each lemma (the cells it sets, the clause that fails),
  for drawing the proof on the board.
- :func:`solve_with_proof`: all of it for one problem, in a child process under a time limit: the result
  of ``nqueens-kit solve N --proof FILE``.

>>> from nqueens_kit import build_cnf
>>> cnf = build_cnf(3)
>>> proof = prove(cnf, "pysat-cadical")
>>> verdict = check(cnf, proof)
>>> proof.lemmas[-1], verdict.checked, verdict.system
((), True, 'DRUP')
"""

from __future__ import annotations

import os
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypedDict

from ..errors import InputError, SolverError, SolverNotAvailable
from ..methods.sat.certificate import CHECKER_HINT as CHECKER_HINT  # the checkers live with the count's certificate
from ..methods.sat.certificate import CHECKERS as CHECKERS
from ..methods.sat.certificate import check_clausal, checker_name
from ..methods.sat.cnf import CNF, build_cnf
from ..methods.sat.encodings import get_encoding
from ..problem.board import Cell, Problem, verify
from ..problem.results import Answer, KnownBy, SolveResult, Status
from ..runtime import isolate
from ..runtime.files import output_path, write_whole
from ..runtime.limits import check_time_limit
from ..solvers import get_solver, proving_entries
from .propagation import propagate

if TYPE_CHECKING:
    from ..solvers.base import SatSolver



def proof_literals(line: str, solver: str) -> tuple[int, ...]:
    """The literals of one proof line (``d`` dropped, the ending ``0`` checked); a line that is not ASCII
    integers ended by 0 is the solver's fault, said in one line."""
    words = line.split()
    if words and words[0] == "d":
        words = words[1:]
    if not words or words[-1] != "0" or not all(w.lstrip("-").isascii() and w.lstrip("-").isdigit() for w in words):
        raise SolverError(f"{solver} wrote a malformed proof line {line[:60]!r}: expected integers ended by 0")
    return tuple(int(w) for w in words[:-1])


#: When the checker does not say (drup accepts both kinds alike), the kit's own RUP replay classifies a
#: proof DRUP or DRAT if lemmas x literals of the formula stay below this (a second or so of Python).
CLASSIFY_WORK = 20_000_000


@dataclass
class Proof:
    """A proof as the solver wrote it: text lines, ``d`` lines deleting clauses, the rest lemmas.

    ``system`` is what a check found its lemmas to need: ``DRUP`` (each lemma follows by unit propagation;
    deletions change nothing), ``DRAT`` (some lemma is a RAT step), or None before a check could tell.
    """

    lines: list[str]
    solver: str
    system: str | None = None

    @property
    def format(self) -> str:
        """``DRUP`` or ``DRAT`` once a check has classified the lemmas (:func:`check` records it), else
        ``clausal`` (the text is in the DRAT file format either way)."""
        return self.system or "clausal"

    @property
    def deletions(self) -> int:
        """How many ``d`` lines the proof has (they delete clauses; they are never RAT steps)."""
        return sum(1 for line in self.lines if line.startswith("d "))

    @property
    def lemmas(self) -> list[tuple[int, ...]]:
        """The added clauses, in order (the last is the empty clause)."""
        return [proof_literals(line, self.solver) for line in self.lines
                if line.strip() and not line.startswith(("d ", "c"))]

    @property
    def steps(self) -> int:
        return len(self.lemmas)

    def text(self) -> str:
        return "".join(line + "\n" for line in self.lines)


@dataclass
class ProofCheck:
    """A checker's verdict; ``system`` is DRUP or DRAT for a checked proof whose lemmas could be classified
    (None otherwise)."""

    checked: bool
    checker: str
    detail: str = ""
    system: str | None = None


def _proof_solver(name: str | None) -> SatSolver:
    from ..solvers.base import SatSolver

    if name is None:
        for candidate in proving_entries():  # registry order: the first installed
            solver = get_solver("sat", candidate)
            if solver.available() and isinstance(solver, SatSolver):
                return solver
        raise SolverNotAvailable("no installed solver writes proofs; pip install \"nqueens-kit[pysat]\" (CaDiCaL "
                                 "and Glucose through python-sat) or sudo apt-get install cadical")
    solver = get_solver("sat", name)
    if not solver.capabilities.proofs:
        raise InputError(f"{solver.name} cannot write proofs; use one of: {', '.join(proving_entries())}")
    solver.require()
    if not isinstance(solver, SatSolver):  # the registry's "sat" solvers all are
        raise InputError(f"{solver.name} is not a SAT solver")
    return solver


def prove(cnf: CNF, solver: str | None = None, deadline: float | None = None) -> Proof | None:
    """Solve ``cnf``; its proof of unsatisfiability, or None when it is satisfiable.  A solver stopped by
    ``deadline`` (a ``time.monotonic()`` value) raises :class:`TimeoutError`."""
    chosen = _proof_solver(solver)
    outcome, lines = chosen.prove(cnf.clauses, cnf.num_vars, deadline)
    if outcome.status == Answer.SAT:
        return None
    if outcome.status != Answer.UNSAT:
        raise TimeoutError(f"{chosen.name} stopped before it had an answer")
    if not lines:
        raise SolverError(f"{chosen.name} said unsatisfiable but wrote no proof")
    return Proof(lines, chosen.name)


def check(cnf: CNF, proof: Proof | str, checker: str = "auto") -> ProofCheck:
    """Check ``proof`` (a :class:`Proof` or proof text) against exactly the formula ``cnf``.  A checked
    :class:`Proof` gets its ``system`` (DRUP or DRAT) recorded when the lemmas could be classified: dratify
    counts its RAT steps; after drup (which accepts both kinds alike) the kit's own RUP replay decides, for
    proofs small enough (:data:`CLASSIFY_WORK`)."""
    given = proof if isinstance(proof, Proof) else Proof(proof.splitlines(), "text")
    found = check_clausal(cnf.to_dimacs(comments=False), given.text(), checker)
    verdict = ProofCheck(found.checked, found.checker, found.detail)
    if found.checked and found.rat_steps is not None:
        verdict.system = "DRAT" if found.rat_steps else "DRUP"
    elif found.checked and given.steps * sum(map(len, cnf.clauses)) <= CLASSIFY_WORK:
        verdict.system = "DRUP" if rup_only(cnf, given) else "DRAT"
    if isinstance(proof, Proof) and verdict.system is not None:
        proof.system = verdict.system
    return verdict


def rup_only(cnf: CNF, proof: Proof) -> bool:
    """Whether every lemma of ``proof`` follows from the formula and the lemmas before it by unit
    propagation alone (deletions applied): a DRUP proof.  False means some lemma needs a RAT step (or does
    not follow at all: :func:`check` is the authority on that)."""
    try:
        replay(cnf, proof)
    except SolverError:
        return False
    return True


# ------------------------------------------------------------------------------------------ replay


@dataclass
class LemmaStep:
    """One lemma checked by reverse unit propagation: assume every literal of the lemma false, propagate,
    and reach a clause with every literal false.  ``assumed`` are those literals, ``propagated`` the
    literals unit propagation then sets (in order, each with its reason clause), ``conflict`` the clause
    that fails."""

    lemma: tuple[int, ...]
    assumed: list[int]
    propagated: list[tuple[int, tuple[int, ...]]] = field(default_factory=list)
    conflict: tuple[int, ...] | None = None

    def cells(self, cnf: CNF) -> dict[str, list[Cell]]:
        """The board cells the step sets: ``queen`` (true) and ``empty`` (false), assumed or propagated."""
        top = cnf.board_vars
        lits = self.assumed + [lit for lit, _ in self.propagated]
        return {"queen": [cnf.problem.cell(lit) for lit in lits if 0 < lit <= top],
                "empty": [cnf.problem.cell(-lit) for lit in lits if 0 < -lit <= top]}


def replay(cnf: CNF, proof: Proof) -> list[LemmaStep]:
    """Each lemma of ``proof`` re-derived by unit propagation from the formula and the lemmas before it
    (deletions applied), for reading and drawing.  A lemma that does not follow raises
    :class:`~nqueens_kit.errors.SolverError` (:func:`check` is the authority; this is the illustration)."""
    clauses: list[tuple[int, ...]] = [tuple(c) for c in cnf.clauses]
    steps = []
    for line in proof.lines:
        if not line.strip() or line.startswith("c"):
            continue
        lits = proof_literals(line, proof.solver)
        if line.startswith("d "):
            wanted = Counter(lits)
            for i, clause in enumerate(clauses):
                if Counter(clause) == wanted:
                    del clauses[i]
                    break
            continue
        assumed = [-lit for lit in lits]
        done = propagate(clauses, assumed)
        step = LemmaStep(lits, assumed, done.trail, done.conflict)
        if step.conflict is None:
            raise SolverError(f"lemma {' '.join(map(str, lits))} 0 does not follow by unit propagation")
        steps.append(step)
        clauses.append(lits)
    return steps


# -------------------------------------------------------------------------------- one problem, end to end


class _ProofFields(TypedDict):
    status: Answer | str
    model: list[int] | None
    solver: str
    build: float
    solve: float
    variables: int
    clauses: int


class ProofJob(_ProofFields, total=False):
    """What the child process of :func:`solve_with_proof` hands back; the proof's fields when unsatisfiable."""

    lines: list[str]
    checked: bool
    checker: str
    detail: str
    system: str | None


def _prove_job(problem: Problem, encoding: str, solver: str | None, checker: str,
               time_limit: float | None) -> ProofJob:
    start = time.perf_counter()
    cnf = build_cnf(problem, encoding)
    built = time.perf_counter() - start
    deadline = time.monotonic() + time_limit if time_limit is not None else None
    chosen = _proof_solver(solver)
    checker_name(checker)  # refuse before solving when no checker is installed
    outcome, lines = chosen.prove(cnf.clauses, cnf.num_vars, deadline)
    solved = time.perf_counter() - start - built
    data: ProofJob = {"status": outcome.status, "model": outcome.model, "solver": chosen.name,
                      "build": built, "solve": solved, "variables": cnf.num_vars,
                      "clauses": cnf.num_clauses}
    if outcome.status == Answer.UNSAT:
        if not lines:
            raise SolverError(f"{chosen.name} said unsatisfiable but wrote no proof")
        proof = Proof(lines, chosen.name)
        verdict = check(cnf, proof, checker)
        data.update({"lines": lines, "checked": verdict.checked, "checker": verdict.checker,
                     "detail": verdict.detail, "system": verdict.system})
    return data


class _ResultBase(TypedDict):
    n: int
    method: str
    variant: str
    preplaced: tuple[Cell, ...]


def solve_with_proof(problem: Problem, path: str | os.PathLike[str], encoding: str = "pairwise",
                     solver: str | None = None, checker: str = "auto",
                     time_limit: float | None = None) -> SolveResult:
    """Solve ``problem`` by SAT; when it is infeasible, write the proof to ``path`` and check it.

    The proof is for exactly the formula ``nqueens-kit cnf N --encoding E [--place ...]`` writes.  The
    result's ``extra["proof"]`` holds ``file``, ``format``, ``steps``, ``checked`` and ``checker``; a proof
    the checker rejects is a :class:`~nqueens_kit.errors.SolverError` (the file is kept for inspection).
    """
    limit = check_time_limit(time_limit)
    get_encoding(encoding)
    target = output_path(path, "the proof (e.g. proof.drup)")  # before solving: no folder, device or FIFO
    run = isolate.run_in_child(_prove_job, (problem, encoding, solver, checker, limit), time_limit=limit)
    base: _ResultBase = {"n": problem.n, "method": "sat", "variant": encoding, "preplaced": problem.preplaced}
    if run.status in ("timeout", "memout"):
        return SolveResult(**base, solver=solver or "", status=Status.parse(run.status), solve_seconds=run.wall,
                           message=f"stopped at the {limit:g} s limit before the solver answered; no proof written"
                           if run.status == "timeout" else "stopped: out of memory; no proof written")
    run.raise_error()
    data: ProofJob = run.value
    if data["status"] not in (Answer.SAT, Answer.UNSAT):
        return SolveResult(**base, solver=data["solver"], status=Status.TIMEOUT, solve_seconds=run.wall,
                           message="the solver stopped before it had an answer; no proof written")
    result = SolveResult(**base, solver=data["solver"], status=Status.INFEASIBLE, variables=data["variables"],
                         clauses=data["clauses"], build_seconds=data["build"], solve_seconds=data["solve"])
    if data["status"] == Answer.SAT:
        cnf_n = problem.n
        queens = sorted(CNF(problem, encoding, [], cnf_n * cnf_n).decode(data["model"] or []))
        result.status, result.queens = Status.SOLVED, tuple(queens)
        result.verified = verify(problem.n, queens) and set(problem.preplaced) <= set(queens)
        result.message = "satisfiable: there is no proof of unsatisfiability to write"
        result.extra["proof"] = None
        return result
    proof = Proof(data["lines"], data["solver"], data.get("system"))
    write_whole(target, proof.text(), encoding="ascii", what="the proof")
    result.extra["proof"] = {"file": str(target), "format": proof.format, "steps": proof.steps,
                             "checked": data["checked"], "checker": data["checker"]}
    if not data["checked"]:
        raise SolverError(f"{data['checker']} rejected the proof {data['solver']} wrote ({data['detail']}); "
                          f"kept in {target}")
    result.known_by = KnownBy.CHECKED_PROOF
    result.message = (f"{proof.format} proof of {proof.steps} lemmas written to {target}, "
                      f"checked by {data['checker']}")
    return result
