"""What every solver backend says about itself, and what a SAT solver answers.

A backend is a :class:`Solver`: its ``name``, the ``method`` it serves (``sat`` or ``ilp``), whether it is
installed (:meth:`Solver.available`), how to install it (:meth:`Solver.install_hint`), its
:meth:`Solver.version`, and its :class:`Capabilities`.  :meth:`Solver.require` is the one contract for
"I am about to use this solver": it returns the solver, or raises
:class:`~nqueens_kit.errors.SolverNotAvailable` with the install hint.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from importlib import import_module

from ..errors import InputError, SolverGaveUp, SolverNotAvailable
from ..problem.results import JSON, Answer, Options, Statistics

#: How the install hint of a solver that no browser can run begins (``runtime.browser.REFUSED``).
_NOT_IN_BROWSER = "not in the browser: "

Clause = list[int]

#: What the SAT method asks of an entry, stated by each entry of the registry (an entry says nothing by default):
#: every verb and problem feature of the method (reordered instances included), and the kinds of encoding it reads
#: (each encoding says its kind): ``clauses`` (plain CNF, whatever the encoding), and ``cardinality`` for the entries
#: that take cardinality constraints (the ``native`` encoding).
SAT_VERBS = frozenset({"solve", "count", "iterate"})
SAT_FEATURES = frozenset({"preplaced", "blocked", "break_symmetry", "reorder"})
CLAUSES = frozenset({"clauses"})
CARDINALITY = CLAUSES | {"cardinality"}
#: The search counters python-sat reports for the solvers that have statistics.
PYSAT_COUNTERS = ("conflicts", "decisions", "propagations")


def _nobody() -> list[str]:
    return []


#: The SAT entries that declare proofs, in registry order, for the refusal of :meth:`SatSolver.prove`: the
#: registry sets it to its :func:`~nqueens_kit.solvers.proving_entries` when it is made (the base classes do not
#: import the registry).
list_provers: Callable[[], list[str]] = _nobody


@dataclass(frozen=True)
class Capabilities:
    """What a solver can do beyond answering: nothing unless its entry says so (each claim is a contract case of
    ``tests/test_entry_contract.py``, run on every entry that makes it)."""

    in_process: bool = False   # runs inside Python (else: a separate executable)
    time_limit: bool = False   # stops itself at a time limit (else only stopping its process does)
    incremental: bool = False  # keeps its state when clauses are added between solves
    proofs: bool = False       # can write a proof of unsatisfiability (DRAT/DRUP)
    #: The search counters it reports, by the names its results carry them under (empty: no statistics).
    statistics: tuple[str, ...] = ()
    assumptions: bool = False  # solves under assumptions and reports a core of them
    cardinality: bool = False  # takes at-most-k constraints as they are (the SAT method's native encoding)

    def names(self) -> list[str]:
        """The capabilities that are true, e.g. ``['in_process', 'statistics']``."""
        return [name for name, value in vars(self).items() if value]


class Solver:
    """A solver backend (see the module docstring).

    Each registry entry is an instance that states what it has: its ``capabilities``, the verbs, problem
    features, variants and named settings of its method it takes, and its ``marker`` (the marker every plot draws
    its runs with), so two entries of one family can differ (python-sat's Glucose stops itself at a time limit;
    its CaDiCaL, Kissat and Lingeling cannot, and only stopping their process does).  An entry that says nothing
    claims nothing: the method refuses it every verb, feature, variant and settings it has not declared, in one
    line naming the entries that have it."""

    name = ""
    method = ""
    kind = ""  # the family, for listings: embedded, pysat, binary
    description = ""
    capabilities = Capabilities()
    #: The matplotlib marker of this solver's runs (unique within its method).
    marker = "o"
    #: When to pick this solver, for ``nqueens-kit solvers`` (empty: nothing special).
    advice = ""

    #: Whether the kit knows a way to install it (a pip extra or a Debian package); a bare executable name
    #: such as ``glucose`` has none.
    installable = True
    #: What the entry honours of its method's verbs, problem features (``reorder`` included), variants (the kinds
    #: of encoding a SAT entry takes, formulations) and named settings.  The method refuses the rest for this entry
    #: with one line naming the entries that can.
    verbs: frozenset[str] = frozenset()
    features: frozenset[str] = frozenset()
    variants: frozenset[str] = frozenset()
    settings: frozenset[str] = frozenset()

    def honours(self, feature: str) -> bool:
        """Whether the entry honours ``feature`` (when its method does)."""
        return feature in self.features

    def does(self, verb: str) -> bool:
        """Whether the entry has ``verb`` (when its method does)."""
        return verb in self.verbs

    def takes(self, settings: str) -> bool:
        """Whether the entry honours the method's named ``settings``."""
        return settings in self.settings

    def takes_variant(self, variant: str) -> bool:
        """Whether the entry takes the method's variant ``variant`` (an encoding, a formulation)."""
        return variant in self.variants

    def preload(self) -> None:
        """Import the solver's Python package now (a benchmark does this before its clock starts)."""

    def available(self) -> bool:
        raise NotImplementedError

    def install_hint(self) -> str:
        raise NotImplementedError

    def version(self) -> str | None:
        """The solver's version as its maker writes it, or None when it cannot be told."""
        return None

    def require(self) -> Solver:
        """This solver, ready to use; :class:`SolverNotAvailable` (with the install hint) if it is missing."""
        if not self.available():
            hint = self.install_hint()
            if hint.startswith(_NOT_IN_BROWSER):  # nothing to install: the browser cannot run it
                raise SolverNotAvailable(f"{self.method.upper()} solver {self.name!r} cannot run in the browser: "
                                         f"{hint.removeprefix(_NOT_IN_BROWSER)}")
            raise SolverNotAvailable(f"{self.method.upper()} solver {self.name!r} is not installed: {hint}")
        return self

    def describe(self) -> dict[str, JSON]:
        """A row for ``nqueens-kit solvers``."""
        installed = self.available()
        kind = self.method.upper() + (f" ({self.kind})" if self.kind else "")
        return {"name": self.name, "method": self.method, "kind": kind, "installed": installed,
                "description": self.description, "version": self.version() if installed else None,
                "capabilities": self.capabilities.names(), "install": "" if installed else self.install_hint(),
                "advice": self.advice}


class PackageSolver(Solver):
    """A solver that is a Python package run in this process: whether it is installed, how to install it and
    its version are data (the module it imports, its distribution, the hint, the name its version goes by)."""

    #: The module a solve imports (the solver is installed when it can be found).
    module = ""
    #: The distribution whose version is the solver's (``python-sat``, ``ortools``).
    distribution = ""
    #: How to install it.
    hint = ""
    #: What the version names: ``{product} ({distribution} {version})``.
    product = ""

    def available(self) -> bool:
        return importable(self.module)

    def install_hint(self) -> str:
        return self.hint

    def version(self) -> str | None:
        found = package_version(self.distribution)
        return f"{self.product} ({self.distribution} {found})" if found else None

    def preload(self) -> None:
        super().preload()
        try:
            import_module(self.module)
        except ImportError:
            pass  # the solve explains a missing package itself


@dataclass
class Outcome:
    """What one solve of an entry answered, in every family (the one shape of ``solve``; only the method makes a
    :class:`~nqueens_kit.problem.results.SolveResult` of it, maps its status and words its messages).

    - ``status``: ``sat`` (a solution: a SAT model, an ILP or CP board), ``unsat`` (the solver proved there is
      none), or ``unknown`` (it stopped without an answer: at its limit, or for the reason in ``why``);
    - ``model``: a SAT entry's assignment; ``board``: the board an ILP or CP entry read, ``(row, column)`` pairs;
    - ``proven``: for an optimisation model, whether the solution found is proven optimal;
    - ``seconds``: the solve alone; ``stats``: the solver's own counters and its own word (``solver_said``);
    - ``options``: the options it really ran with, as recorded in results (``settings`` first where it has some);
    - ``core``: assumptions that already make the formula unsatisfiable (SAT, when asked);
    - ``limit``: whether it stopped at the deadline it was given (else ``why`` says why it stopped);
    - ``memory``: set (to what the limit was) when it stopped at a memory limit;
    - ``build_seconds``: the time an entry that builds its own native model (CP) took to build it.
    """

    status: Answer | str
    model: list[int] | None = None
    seconds: float = 0.0
    stats: Statistics = field(default_factory=dict)
    core: list[int] | None = None
    board: list[tuple[int, int]] | None = None
    proven: bool = True
    options: Options = field(default_factory=dict)
    limit: bool = False
    why: str = ""
    build_seconds: float = 0.0
    memory: str = ""  # when it stopped at a memory limit: what the limit was

    def __post_init__(self) -> None:
        self.status: Answer = Answer(self.status)


#: A SAT entry's :class:`Outcome` (its name before every family answered alike).
SatOutcome = Outcome


class SatSolver(Solver):
    """A SAT backend: :meth:`solve` one formula; :meth:`models` enumerates with blocking clauses."""

    method = "sat"
    #: Whether :meth:`solve` also takes the clauses as arrays (an object with ``literals`` and ``offsets``,
    #: :class:`~nqueens_kit.methods.sat.cnf.PackedClauses`): what a formula built with whole arrays is handed
    #: over as, never made into a list of lists.
    takes_packed = False

    def preload(self) -> None:
        """Import numpy too: a large formula is built, and written for an executable, as arrays (a benchmark's
        clock starts after this)."""
        try:
            import numpy  # noqa: F401
        except ImportError:
            pass

    def solve(self, clauses: Sequence[Clause], num_vars: int, deadline: float | None = None,
              assumptions: Sequence[int] = ()) -> SatOutcome:
        """Solve in this process.  ``deadline`` (``time.monotonic()`` seconds) is honoured where the solver
        can stop itself or be stopped; callers that need a hard limit run the whole job in
        :func:`nqueens_kit.runtime.isolate.run_in_child`."""
        raise NotImplementedError

    def prove(self, clauses: Sequence[Clause], num_vars: int,
              deadline: float | None = None) -> tuple[SatOutcome, list[str] | None]:
        """Solve and, when the answer is unsatisfiable, return the solver's DRUP/DRAT proof as text lines
        (solvers whose ``capabilities.proofs`` is true)."""
        raise InputError(f"{self.name} cannot write proofs; solvers that can: {', '.join(list_provers())}")

    def models(self, clauses: Sequence[Clause], num_vars: int,
               block: Callable[[list[int]], Clause]) -> Iterator[list[int]]:
        """Every model up to ``block``: after each one, add ``block(model)`` and solve again (afresh here;
        incremental solvers override this).  The list ends at the solver's UNSAT; a solve that ends without an
        answer is a :class:`~nqueens_kit.errors.SolverGaveUp`, never a list cut short."""
        clauses = list(clauses)
        found = 0
        while True:
            outcome = self.solve(clauses, num_vars)
            if outcome.status == Answer.UNSAT:
                return
            if outcome.status != Answer.SAT:
                said = outcome.stats.get("solver_said", "UNKNOWN")
                raise SolverGaveUp(f"{self.name} stopped without an answer (it said {said}) after {found:,} models: "
                                   "the models listed are not all of them")
            found += 1
            model = outcome.model or []
            yield model
            clauses.append(block(model))


def importable(name: str) -> bool:
    """Whether the module ``name`` can be found here, without importing it (whether a solver's package is
    installed)."""
    import importlib.util

    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def package_version(name: str) -> str | None:
    from importlib.metadata import PackageNotFoundError, version  # slow to import: only when a version is asked

    try:
        return version(name)
    except PackageNotFoundError:
        return None


def wrong_method(name: str, owner_title: str, owner: str, title: str, valid: Sequence[str], more: str = "") -> str:
    """The one message for a solver named with the wrong method: ``cbc is an ILP solver, not a SAT solver``,
    the method to use for it and the valid names (``more``: what else the method accepts)."""
    return (f"{name} is {_article(owner_title)} {owner_title} solver, not {_article(title)} {title} solver: use "
            f"--method {owner} for it, or one of the {title} solvers: {', '.join(valid)}{more}")


def _article(word: str) -> str:
    return "an" if word[:1].lower() in "aeiou" else "a"


#: How long a ``--version`` probe may run.
VERSION_SECONDS = 5.0
#: Bytes of a probe's output read for its version (the rest is discarded).
VERSION_BYTES = 1 << 16


def first_version_line(command: Sequence[str], timeout: float = VERSION_SECONDS) -> str | None:
    """The first output line of ``command`` that contains a digit (how executables tell their version).

    The probe runs in a session of its own (:func:`~nqueens_kit.runtime.isolate.run_executable`) and is
    killed with whatever it started once it has exited or at ``timeout``: a solver script that forks leaves
    nothing running."""
    import re
    import subprocess

    from ..runtime.isolate import run_executable

    out, err = bytearray(), bytearray()

    def keep(into: bytearray) -> Callable[[bytes], None]:
        def write(data: bytes) -> None:
            if len(into) < VERSION_BYTES:
                into.extend(data[:VERSION_BYTES - len(into)])
        return write

    try:
        run_executable(list(command), on_output=keep(out), on_error=keep(err),
                       deadline=time.monotonic() + timeout)
    except (OSError, subprocess.SubprocessError, ValueError):
        return None
    text = out.decode("utf-8", "replace") + "\n" + err.decode("utf-8", "replace")
    for line in text.splitlines():
        line = line.strip().removeprefix("c ").strip()
        if line and not line.startswith("-") and "unknown" not in line.lower() and (
                re.search(r"\d+\.\d+|^\d+$|version|sc20\d\d", line, re.IGNORECASE)):
            return line[:120]
    return None
