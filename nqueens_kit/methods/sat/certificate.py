"""Checked proofs of "no model": the independent proof checkers, and the end of an enumeration certified.

A count by enumeration says "these models, and no others".  Each model is checked against the formula
(:class:`~nqueens_kit.methods.sat.formula.ClauseCheck`); "no others" is the final UNSAT of the formula with a
blocking clause for every model found.  A solver that writes proofs (``capabilities.proofs``) proves that
final formula unsatisfiable in one more call, and an independent checker checks the proof: the count is then
*certified*.  A solver that writes none leaves the end of the list on its word alone.

- :func:`checker_name`: the proof checker to use: ``drup`` (extracted from code verified in Why3) or
  ``dratify`` (pure Python); ``auto`` takes the first installed.
- :func:`check_clausal`: proof text checked against formula text (DIMACS) by that checker.
- :func:`prove_no_model`: one proof-writing solve of a formula that should have no model, the proof checked:
  a :class:`Certificate`, or the model the solver found after all.
- :data:`PROOF_WRITERS`: the installed SAT solvers that write proofs (what a refusal names).

>>> certificate, model = prove_no_model([[1, 2], [-1], [-2]], 2, "pysat-cadical")
>>> certificate.checker in CHECKERS, model
(True, None)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ...errors import InputError, SolverError, SolverGaveUp, SolverNotAvailable
from ...problem.results import Answer
from ...runtime.browser import IN_BROWSER, importable, needs
from ...solvers import SAT_SOLVERS
from .encodings import Clause
from .solve import _backend

#: Independent checkers, in the order ``auto`` tries them.
CHECKERS = ("drup", "dratify")
CHECKER_HINT = "pip install drup (or dratify)"
#: The order ``auto`` tries them in for the end of a count, whose formula holds a blocking clause per model:
#: dratify first, as drup's checking time grows much faster with the formula (measured here on the kit's
#: n-queens files: at n = 8, 92 blocking clauses, drup 1.7 s and dratify 0.04 s; at n = 10 dratify 2.8 s and
#: drup not within ten minutes).
COUNT_CHECKERS = ("dratify", "drup")


def checker_name(name: str = "auto", order: Sequence[str] = CHECKERS) -> str:
    """The checker ``name`` (or, for ``auto``, the first installed of ``order``); a checker that is not installed
    is a :class:`~nqueens_kit.errors.SolverNotAvailable`, an unknown name an
    :class:`~nqueens_kit.errors.InputError`."""
    if name == "auto":
        found = next((c for c in order if importable(c)), None)
        if found is None and IN_BROWSER:  # both checkers are compiled: no WebAssembly build
            raise SolverNotAvailable(needs("a proof checker (drup or dratify)", "checking a proof"))
        if found is None:
            raise SolverNotAvailable(f"no proof checker is installed; {CHECKER_HINT}")
        return found
    if name not in CHECKERS:
        raise InputError(f"unknown proof checker {name!r}; valid: auto, {', '.join(CHECKERS)}")
    if not importable(name):
        raise SolverNotAvailable(f"the {name} proof checker is not installed; pip install {name}")
    return name


@dataclass(frozen=True)
class ClausalCheck:
    """A checker's verdict on a proof; ``rat_steps`` is how many lemmas needed a RAT step when the checker
    tells (dratify does; drup accepts both kinds alike and does not)."""

    checked: bool
    checker: str
    detail: str = ""
    rat_steps: int | None = None


def check_clausal(formula: str, proof: str, checker: str = "auto") -> ClausalCheck:
    """Check ``proof`` (DRAT/DRUP text: lemmas, ``d`` lines deleting clauses, the empty clause last) against
    ``formula`` (DIMACS text) with an independent checker (:func:`checker_name`)."""
    name = checker_name(checker)
    proof = through_empty_clause(proof)
    if name == "drup":
        import drup

        try:
            result = drup.check_proof_from_strings(formula, proof)
        except ValueError as exc:
            return ClausalCheck(False, "drup", f"the proof does not parse: {exc}")
        ok = result.outcome == drup.Outcome.VALID
        return ClausalCheck(ok, "drup", "" if ok else f"drup: {result.outcome.name.lower()}")
    import dratify

    try:
        found = dratify.check_proof(dratify.parse_dimacs(formula), proof)
    except (ValueError, TypeError) as exc:
        return ClausalCheck(False, "dratify", f"the proof does not parse: {exc}")
    return ClausalCheck(bool(found.ok), "dratify", "" if found.ok else str(found.reason),
                        int(found.rat_steps) if found.ok else None)


def through_empty_clause(proof: str) -> str:
    """The proof up to and including its first empty clause: what follows (CaDiCaL deletes a clause or two
    after it) proves nothing more, and drup refuses to parse it.

    >>> through_empty_clause("2 0\\n0\\nd -2 0\\n")
    '2 0\\n0\\n'
    """
    lines = proof.splitlines()
    end = next((i for i, line in enumerate(lines) if line.split() == ["0"]), None)
    return proof if end is None else "".join(line + "\n" for line in lines[:end + 1])


def dimacs_of(clauses: Sequence[Sequence[int]], num_vars: int) -> str:
    """The DIMACS text of a formula, without comments (what a checker reads).

    >>> dimacs_of([[1, -2], [2]], 2)
    'p cnf 2 2\\n1 -2 0\\n2 0\\n'
    """
    body = "".join(" ".join(map(str, clause)) + " 0\n" if clause else "0\n" for clause in clauses)
    return f"p cnf {num_vars} {len(clauses)}\n{body}"


def proof_writers() -> list[str]:
    """The installed SAT solvers that write proofs of unsatisfiability, in registry order."""
    return [name for name, solver in SAT_SOLVERS.items() if solver.capabilities.proofs and solver.available()]


@dataclass(frozen=True)
class Certificate:
    """A checked proof that a formula has no model: the checker, the proof system its lemmas needed
    (``DRUP``, ``DRAT``, or None when the checker does not tell) and the number of lemmas (the empty clause
    that ends the proof included)."""

    checker: str
    system: str | None
    lemmas: int
    #: The formula holds an empty clause, which no model satisfies: no proof is needed.
    empty_clause: bool = False

    @property
    def words(self) -> str:
        """``"a DRUP proof of 120 lemmas"`` (``"a DRAT-format proof ..."`` when the checker does not tell whether
        the lemmas needed RAT steps: DRUP proofs are DRAT proofs too)."""
        if self.empty_clause:
            return "an empty clause of the formula itself"
        kind = f"a {self.system} proof" if self.system else "a DRAT-format proof"
        return f"{kind} of {self.lemmas:,} lemmas"


def prove_no_model(clauses: Sequence[Clause], num_vars: int, solver: str, checker: str = "auto",
                   what: str = "the formula") -> tuple[Certificate | None, list[int] | None]:
    """Solve ``clauses`` once with a solver that writes proofs: ``(certificate, None)`` when it answers UNSAT
    and the checker accepts its proof, ``(None, model)`` when it finds a model (the caller says what that
    model means).  A proof the checker rejects, or an UNSAT without a proof, is a
    :class:`~nqueens_kit.errors.SolverError`; no answer at all a :class:`~nqueens_kit.errors.SolverGaveUp`.
    ``what`` names the formula in those messages."""
    backend = _backend(solver)
    if not backend.capabilities.proofs:
        raise InputError(f"{backend.name} writes no proofs; solvers that do: {', '.join(proof_writers())}")
    name = checker_name(checker, COUNT_CHECKERS)  # before solving: no checker, no certificate
    if any(not clause for clause in clauses):
        return Certificate("the kit", None, 0, empty_clause=True), None  # no model satisfies an empty clause
    outcome, lines = backend.prove(clauses, num_vars)
    if outcome.status == Answer.SAT:
        return None, list(outcome.model or [])
    if outcome.status != Answer.UNSAT:
        raise SolverGaveUp(f"{backend.name} stopped without an answer while proving that {what} has no model")
    if lines is None:
        raise SolverError(f"{backend.name} said {what} has no model but wrote no proof")
    # A formula that unit propagation refutes needs no lemma; solvers then write nothing, and the proof is the
    # empty clause alone (which the checker accepts only if propagation does refute the formula).
    lines = [line for line in lines if line.strip()] or ["0"]
    text = through_empty_clause("".join(line + "\n" for line in lines))
    verdict = check_clausal(dimacs_of(clauses, num_vars), text, name)
    if not verdict.checked:
        raise SolverError(f"{verdict.checker} rejected the proof {backend.name} wrote that {what} has no model "
                          f"({verdict.detail}): the count cannot be trusted")
    lemmas = sum(1 for line in text.splitlines() if not line.startswith(("d ", "c")))
    system = None if verdict.rat_steps is None else ("DRAT" if verdict.rat_steps else "DRUP")
    return Certificate(verdict.checker, system, lemmas), None
