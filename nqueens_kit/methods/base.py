"""The method contract: everything a front end may ask of a way of solving N-queens.

A method (SAT, ILP, CP, backtracking, ...) is one subclass of :class:`Method` in a module of its own and one
line in :mod:`nqueens_kit.methods.registry`.  The command line, the timing harness, the apps, the plots,
the report and the notebooks never compare a method's name: they ask the method.

What a method says about itself (class attributes and cheap methods, no solver is imported):

- who it is: :attr:`~Method.name` (the registry key and the ``--method`` word), :attr:`~Method.title`,
  :attr:`~Method.summary`;
- what can be chosen: :meth:`~Method.variants` (called by :attr:`~Method.variant_word`: ``encoding``,
  ``formulation``), :meth:`~Method.solvers` (registry entries, each with its own capabilities),
  :meth:`~Method.settings` (named solver settings);
- what it can do: :attr:`~Method.verbs` (``solve``, ``count``, ``iterate``), :attr:`~Method.complete`
  (whether its "no" proves that no board exists), :attr:`~Method.features` (which parts of a
  :class:`~nqueens_kit.problem.board.Problem` it honours: ``preplaced``, ``blocked``, ``break_symmetry``,
  and ``reorder`` for benchmark instances that renumber its model);
- how it looks: :meth:`~Method.colour` per variant, :attr:`~Method.linestyle`; each solver has its marker;
- how it runs: :meth:`~Method.preload` (imports done before a benchmark's clock starts),
  :attr:`~Method.interruptible` (pure Python that Ctrl-C stops in place), :meth:`~Method.size` (the size
  guard's prediction), :attr:`~Method.count_rate` (for count estimates).

What it does (in this process; :mod:`nqueens_kit.methods.verbs` adds time limits, child processes, size
guards and the independent verification of every board): :meth:`~Method.solve_here`,
:meth:`~Method.iter_boards`, :meth:`~Method.count_here`.

A verb or feature a method lacks is refused by :meth:`Method.check` with one line that names the methods
that have it, so a front end never needs to know which those are.

>>> from nqueens_kit.methods import get_method
>>> sat = get_method("sat")
>>> sat.variant_word, "count" in sat.verbs, sat.honours("blocked")
('encoding', True, True)
>>> sat.choose("sequential").label
'SAT sequential/pycosat'
"""

from __future__ import annotations

import os
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping, MutableMapping
from dataclasses import dataclass
from importlib import import_module
from typing import ClassVar, NoReturn, Protocol, TypedDict

from ..errors import InputError, SolverError
from ..problem.board import Board, Problem, canonical, shown
from ..problem.results import CountResult, Options, SolveResult, Status
from ..problem.results import infeasible_message as infeasible_message  # where the methods import it
from ..runtime import isolate
from ..runtime.limits import Size, check_room, check_size
from ..solvers.base import Solver, wrong_method
from .boards import board_key as board_key
from .boards import board_text as board_text
from .boards import cells_key as cells_key
from .boards import verified as verified


class Variant(Protocol):
    """What a method's variant (an encoding, a formulation) says of itself."""

    @property
    def name(self) -> str: ...

    @property
    def summary(self) -> str: ...


#: A matplotlib line style: a name such as ``"-"`` or ``"--"``, or ``(offset, (on, off, ...))``.
LineStyle = str | tuple[int, tuple[int, ...]]


class PlotStyle(TypedDict, total=False):
    """Keyword arguments for matplotlib's ``plot`` that draw one configuration."""

    color: str
    marker: str
    linestyle: LineStyle
    markerfacecolor: str

#: The colour of a method that has no colours of its own (a plot trades it for a spare one).
NO_COLOUR = "#999999"
#: The verbs a method may have: one board, how many boards, the boards one by one.
VERBS = ("solve", "count", "iterate")
#: The parts of a :class:`Problem` a method may honour, and ``reorder`` (benchmark instances that renumber
#: the method's model, ``Choice.order``).
FEATURES = ("preplaced", "blocked", "break_symmetry", "reorder")
#: How each feature is named in a refusal.
FEATURE_TEXT = {"preplaced": "pre-placed queens", "blocked": "blocked cells",
                "break_symmetry": "symmetry breaking", "reorder": "reordered instances (--instances without "
                                                                  "--place-random)"}
VERB_TEXT = {"solve": "solve", "count": "count", "iterate": "list boards one by one"}


def check_flag(value: object, what: str) -> bool:
    """``value`` if it is True or False, else a one-line :class:`InputError` (1, "yes" or None are not)."""
    if not isinstance(value, bool):
        raise InputError(f"{what} is True or False, not {shown(value)}")
    return value


def check_callback(value: object, what: str) -> None:
    """Refuse (one line) a ``value`` that is neither None nor a function the kit can call."""
    if value is not None and not callable(value):
        raise InputError(f"{what} is a function or None, not {shown(value)}")


@dataclass(frozen=True)
class Choice:
    """A method with its variant, solver and settings resolved, by name (so it crosses processes and files).

    This is what a sweep times (a *configuration*), what a result row records and what every verb runs.
    """

    method: str
    variant: str | None = None
    solver: str | None = None
    settings: str | None = None
    #: A seed that renumbers the variables and reorders the clauses or constraints (one *instance* of the
    #: same problem, for benchmarks); None keeps the natural order.
    order: int | None = None

    @property
    def implementation(self) -> Method:
        return get_method(self.method)

    @property
    def label(self) -> str:
        """A short name for legends and table headers: ``SAT pairwise/pycosat``, ``ILP lines/cbc, default``,
        ``backtrack``."""
        return self.implementation.label(self)

    @property
    def key(self) -> tuple[str, str, str, str]:
        """The identity of the configuration (order left out): method, variant, solver, settings."""
        return (self.method, self.variant or "", self.solver or "", self.settings or "")

    @property
    def encoding(self) -> str | None:
        """The variant when the method calls it an encoding (a results column)."""
        return self.variant if self.implementation.variant_word == "encoding" else None

    @property
    def formulation(self) -> str | None:
        """The variant when the method calls it a formulation (a results column)."""
        return self.variant if self.implementation.variant_word == "formulation" else None

    def style(self) -> PlotStyle:
        """Keyword arguments for matplotlib's ``plot``: the method's colour for the variant, the solver's
        marker, the method's line style (hollow markers and a dotted line for non-default settings)."""
        return self.implementation.style(self)


class Method(ABC):
    """One way of solving N-queens (see the module docstring for the contract as a whole)."""

    #: The registry key and the word of ``--method``.
    name: ClassVar[str]
    #: A short title for tables and messages (``SAT``, ``CP``).
    title: ClassVar[str]
    #: One line: what the method is.
    summary: ClassVar[str]
    #: What the method calls its variants (``encoding``, ``formulation``); None when it has none.
    variant_word: ClassVar[str | None] = None
    #: The verbs it has (see :data:`VERBS`).  ``iterate`` implies ``count``.
    verbs: ClassVar[frozenset[str]] = frozenset({"solve"})
    #: True when its "no" is a proof that no board exists; an incomplete method (local search) never says
    #: infeasible: what it cannot find ends as ``timeout``.
    complete: ClassVar[bool] = True
    #: The problem features it honours (see :data:`FEATURES`).
    features: ClassVar[frozenset[str]] = frozenset()
    #: Its line style in plots (a matplotlib style: ``"-"`` or a dash tuple); each variant has a colour
    #: (:meth:`colour`), each solver a marker.
    linestyle: ClassVar[LineStyle] = "-"
    #: Colour per variant (the key None for a method without variants).
    colours: ClassVar[Mapping[str | None, str]] = {}
    #: Pure Python, stopped by Ctrl-C where it runs; False when a solver ignores Ctrl-C (pycosat) or runs as
    #: its own process, so the command line always runs it in a child process it can kill.
    interruptible: ClassVar[bool] = False
    #: Rough boards per second a count enumerates at (2-core machine of 2026), for estimates only.
    count_rate: ClassVar[float] = 10_000.0
    #: The variants a sweep times when none are named (empty: the default variant).
    bench_variants: ClassVar[tuple[str, ...]] = ()
    #: Whether its solvers can write a proof of "no" (``solve --proof``: the solvers with the ``proofs``
    #: capability write it, an independent checker checks it).
    proves: ClassVar[bool] = False
    #: Whether a count stopped by its limit has the boards counted so far (a lower bound); a model counter
    #: has no count until it has all of it.
    partial_counts: ClassVar[bool] = True

    def __repr__(self) -> str:
        return f"<method {self.name}>"

    # ------------------------------------------------------------------------------ what can be chosen

    def variants(self) -> Mapping[str, Variant]:
        """Name -> variant object (an :class:`~nqueens_kit.methods.sat.encodings.Encoding`, a formulation),
        the default first; each has a ``summary``.  Empty for a method without variants."""
        return {}

    def variant_kind(self, variant: str) -> str:
        """What an entry declares to take ``variant``: itself, or its kind (a SAT encoding's: clauses, cardinality)."""
        return variant

    def solvers(self) -> Mapping[str, Solver]:
        """Name -> solver registry entry, the default first; empty for a method that needs no solver."""
        return {}

    def settings(self) -> Mapping[str, str]:
        """Named solver settings -> what each means, the default first; empty when there is nothing to set."""
        return {}

    def available(self) -> bool:
        """Whether the method can run here (its default solver is installed, or it needs none)."""
        solvers = self.solvers()
        return not solvers or any(s.available() for s in solvers.values())

    def install_hint(self) -> str:
        """How to make the method available (the default solver's hint)."""
        solvers = self.solvers()
        return next(iter(solvers.values())).install_hint() if solvers else ""

    def solver(self, name: str | None) -> Solver:
        """The solver entry called ``name`` (None: the default), a solver outside the registry the method
        accepts (:meth:`unregistered_solver`), or a one-line error listing the valid ones."""
        solvers = self.solvers()
        if not solvers:
            raise InputError(f"--solver does not apply to --method {self.name}: it uses no solver")
        if name is None:
            return next(iter(solvers.values()))
        if not isinstance(name, str) or not name.strip():
            raise InputError(f"a solver is named by a word such as {', '.join(list(solvers)[:3])}, not {name!r}")
        if name in solvers:
            return solvers[name]
        anything = f", {self.unregistered_hint}" if self.unregistered_hint else ""
        # Another method's solver is named as such before anything on PATH is looked at, so one mistake gets
        # one message whatever is installed (a `cbc` executable is CBC, not a DIMACS SAT solver).
        owner = None if os.sep in name else next(  # a path is no registry entry's name
            (m for m in METHODS.values() if m is not self and name in m.solvers()), None)
        if owner is not None:
            raise InputError(wrong_method(name, owner.title, owner.name, self.title, list(solvers), anything))
        found = self.unregistered_solver(name)
        if found is not None:
            return found
        raise InputError(f"unknown solver {name[:40]!r} for --method {self.name}; valid: {', '.join(solvers)}"
                         f"{anything}")

    #: What else :meth:`solver` accepts, for its error message ("" if nothing).
    unregistered_hint: ClassVar[str] = ""

    def unregistered_solver(self, name: str) -> Solver | None:
        """A solver that is not a registry entry but that the method accepts by name (a DIMACS executable on
        PATH for SAT); None by default."""
        return None

    # --------------------------------------------------------------------------------- what it can do

    def _entry(self, choice: Choice | None) -> Solver | None:
        """The registry entry ``choice`` runs (None: no choice, or a method without solvers)."""
        if choice is None or choice.solver is None:
            return None
        return self.solvers().get(choice.solver)

    def has(self, verb: str, choice: Choice | None = None) -> bool:
        """Whether the method has ``verb``, and the solver entry of ``choice`` too."""
        entry = self._entry(choice)
        return verb in self.verbs and (entry is None or entry.does(verb))

    def honours(self, feature: str, choice: Choice | None = None) -> bool:
        """Whether the method honours ``feature``, and the solver entry of ``choice`` too."""
        entry = self._entry(choice)
        return feature in self.features and (entry is None or entry.honours(feature))

    def check(self, problem: Problem | None = None, verb: str = "solve", choice: Choice | None = None) -> None:
        """Refuse, with one line naming the methods (or this method's solvers) that can, a verb the method or
        the solver of ``choice`` lacks, or a part of the problem either cannot honour."""
        if not isinstance(verb, str) or verb not in VERBS:
            raise InputError(f"verb is one of {', '.join(VERBS)}, not {shown(verb)}")
        if problem is not None and not isinstance(problem, Problem):
            raise InputError(f"problem is a Problem (e.g. Problem(8)) or None, not {shown(problem)}")
        if verb not in self.verbs:
            able = [m.name for m in METHODS.values() if verb in m.verbs]
            extra = "; it gives one board" if verb != "solve" and "solve" in self.verbs else ""
            raise InputError(f"--method {self.name} cannot {VERB_TEXT.get(verb, verb)}{extra}: "
                             f"use --method {' or '.join(able)}")
        if problem is not None:
            for feature in sorted(problem.features() - self.features):
                able = [m.name for m in METHODS.values() if feature in m.features and verb in m.verbs]
                raise InputError(f"--method {self.name} cannot honour {FEATURE_TEXT[feature]}; methods that can: "
                                 f"{', '.join(able)}")
        self.check_entry(problem, verb, choice)

    def check_entry(self, problem: Problem | None, verb: str, choice: Choice | None) -> None:
        """Refuse, with one line naming the entries that can, a verb or a part of the problem that the solver
        entry of ``choice`` does not honour (the method itself honours them: :meth:`check`)."""
        entry = self._entry(choice)
        if entry is None:
            return
        if not entry.does(verb):
            self._refuse(entry, VERB_TEXT.get(verb, verb), lambda e: e.does(verb))
        variant = choice.variant if choice is not None else None
        kind = self.variant_kind(variant) if variant is not None and variant in self.variants() else None
        if kind is not None and not entry.takes_variant(kind):
            self._refuse(entry, f"take the {self.variant_word} {variant}", lambda e: e.takes_variant(kind))
        missing = [f for f in sorted(problem.features() if problem else ()) if not entry.honours(f)]
        if missing:
            feature = missing[0]
            self._refuse(entry, f"honour {FEATURE_TEXT[feature]}", lambda e: e.honours(feature))

    def _refuse(self, entry: Solver, text: str, can: Callable[[Solver], bool]) -> NoReturn:
        able = [name for name, e in self.solvers().items() if can(e)]
        raise InputError(f"--solver {entry.name} of --method {self.name} cannot {text}; "
                         + (f"{self.title} solvers that can: {', '.join(able)}" if able else
                            "no solver of the method can"))

    # ---------------------------------------------------------------------------------- choosing

    def choose(self, variant: str | None = None, solver: str | None = None, settings: str | None = None,
               *, check_installed: bool = False) -> Choice:
        """Resolve the names to a :class:`Choice`; a variant, solver or settings the method does not have is a
        one-line error.  Whether the solver is installed is asked only with ``check_installed``."""
        if variant is not None and not self.variants():
            raise InputError(f"--{self._word_option()} does not apply to --method {self.name} ({self.summary})")
        if settings is not None and not self.settings():
            raise InputError(f"--settings does not apply to --method {self.name}: it has no solver settings")
        name = self.default_variant() if variant is None else self._variant_name(variant)
        entry = self.solver(solver) if (solver is not None or self.solvers()) else None
        if check_installed and entry is not None:
            entry.require()
        chosen_settings = None
        if self.settings():
            taken = [s for s in self.settings() if entry is None or entry.takes(s)]
            chosen_settings = taken[0] if settings is None else self._settings_name(settings)
            if chosen_settings not in taken:
                raise InputError(f"--solver {entry.name if entry else ''} of --method {self.name} does not honour "
                                 f"the settings {chosen_settings!r}; its settings: {', '.join(taken) or 'none'}")
        return Choice(self.name, name, entry.name if entry else None, chosen_settings)

    def default_variant(self) -> str | None:
        return next(iter(self.variants()), None)

    def _word_option(self) -> str:
        return "encoding / --formulation" if self.variant_word is None else self.variant_word

    def _variant_name(self, variant: str) -> str:
        if not isinstance(variant, str) or variant not in self.variants():
            raise InputError(f"unknown {self.variant_word} {str(variant)[:40]!r} for --method {self.name}; "
                             f"valid: {', '.join(self.variants())}")
        return variant

    def _settings_name(self, settings: str) -> str:
        if not isinstance(settings, str) or settings not in self.settings():
            raise InputError(f"unknown settings {str(settings)[:40]!r} for --method {self.name}; "
                             f"valid: {', '.join(self.settings())}")
        return settings

    # ------------------------------------------------------------------------------- describing

    def default_settings(self, solver: str | None = None) -> str | None:
        """The settings a run of ``solver`` (None: the default solver) takes when none are named: the first of the
        method's settings the entry takes (None for a method without settings)."""
        entry = self.solvers().get(solver) if solver is not None else next(iter(self.solvers().values()), None)
        return next((s for s in self.settings() if entry is None or entry.takes(s)), None)

    def label(self, choice: Choice) -> str:
        """``SAT pairwise/pycosat`` (``, default`` for settings other than the solver's own default); the method's
        name without variants or solvers."""
        if choice.variant is None and choice.solver is None:
            return self.name
        head = f"{self.title} {choice.variant}" if choice.variant else self.title
        text = f"{head}/{choice.solver}" if choice.solver else head
        if choice.settings is not None and choice.settings != self.default_settings(choice.solver):
            text += f", {choice.settings}"
        return text

    def describe(self, choice: Choice) -> str:
        """How a run was made, for the command line's first line: ``SAT, pairwise encoding, pycosat``."""
        parts = [self.title]
        if choice.variant is not None:
            parts.append(f"{choice.variant} {self.variant_word}")
        if choice.solver is not None:
            parts.append(choice.solver)
        return ", ".join(parts)

    def colour(self, variant: str | None = None) -> str:
        """The colour of a variant (None: the default variant; the method's own for one without variants).  A
        method with colours has one for every variant: a variant without one is a one-line error, never a silent
        grey.  A method with no colours at all (one registered by a notebook or a test) is grey, which
        :func:`~nqueens_kit.viz.style.plot_styles` trades for a spare colour."""
        if not self.colours:
            return NO_COLOUR
        key = variant if variant is not None or None in self.colours else self.default_variant()
        try:
            return self.colours[key]
        except KeyError:
            known = ", ".join(str(k) for k in self.colours)
            raise InputError(f"--method {self.name} has no colour for the {self.variant_word or 'variant'} "
                             f"{shown(key)}; its colours are for: {known or 'nothing'}") from None

    def style(self, choice: Choice) -> PlotStyle:
        """Keyword arguments for matplotlib's ``plot`` (see :meth:`Choice.style`)."""
        solvers = self.solvers()
        entry = solvers.get(choice.solver) if choice.solver is not None else None
        marker = entry.marker if entry is not None else self.marker
        look: PlotStyle = {"color": self.colour(choice.variant), "marker": marker, "linestyle": self.linestyle}
        if choice.settings is not None and choice.settings != self.default_settings(choice.solver):
            look["linestyle"], look["markerfacecolor"] = ":", "white"
        return look

    #: Marker of a method without solvers.
    marker: ClassVar[str] = "."

    # ----------------------------------------------------------------------------------- running

    def preload(self, choice: Choice) -> None:
        """Import what a run of ``choice`` needs, so that a benchmark's clock starts after the imports."""
        if choice.solver is not None:
            self.solver(choice.solver).preload()

    @abstractmethod
    def size(self, problem: Problem, choice: Choice) -> Size:
        """The predicted size and memory of what the method builds (its model, its search's stack), for the size
        guard, in closed form and without building anything: every method says it, so no method can build
        something huge before the guard refuses it."""

    def size_advice(self, problem: Problem, choice: Choice) -> str:
        """What to do instead when :meth:`size` is over the budget."""
        return "use a smaller n, or --method construct for one board of any size"

    def check_size(self, problem: Problem, choice: Choice, max_memory: object = None) -> None:
        what = f"the {choice.variant} {self.model_word}" if choice.variant else f"the {self.model_word}"
        size, advice = self.size(problem, choice), self.size_advice(problem, choice)
        check_size(size, f"{what} of {problem.n}-queens", advice, max_memory)
        check_room(size, f"{what} of {problem.n}-queens", advice)  # ulimit -v, a cgroup: no --max-memory raises

    #: What the method builds, for the size guard's messages.
    model_word: ClassVar[str] = "model"

    def options(self, choice: Choice) -> Options:
        """The solver options a run of ``choice`` uses, as recorded in results and sidecars."""
        return {}

    # ------------------------------------------------------------------------------ doing the work

    @abstractmethod
    def solve_here(self, problem: Problem, choice: Choice, deadline: float | None) -> SolveResult:
        """One board of ``problem``, or infeasible, or timeout at ``deadline`` (``time.monotonic()``
        seconds, honoured where the solver can stop itself), in this process.  The result need not be
        verified yet: the verbs verify every board independently."""

    def iter_boards(self, problem: Problem, choice: Choice) -> Iterator[Board]:
        """Every board of ``problem``, each exactly once (for methods with ``iterate``)."""
        raise InputError(f"--method {self.name} cannot list boards one by one")

    def count_here(self, problem: Problem, choice: Choice, fundamental: bool) -> tuple[int, int | None]:
        """``(boards, fundamental boards or None)``, every board verified; about five times a second
        :func:`~nqueens_kit.runtime.isolate.report` sends ``(count, fundamental so far)``."""
        seen: set[bytes] = set()
        classes: set[bytes] = set()
        last = time.monotonic()
        for board in verified(self.iter_boards(problem, choice), problem, choice.solver or self.name):
            key = board_key(board)
            if key in seen:
                raise SolverError(f"{choice.solver or self.name} returned the board {board_text(board)} twice; "
                                  "the count cannot be trusted (is the solver ignoring blocking clauses?)")
            seen.add(key)
            if fundamental:
                classes.add(board_key(canonical(problem.n, board)))
            now = time.monotonic()
            if now - last > 0.2:
                isolate.report((len(seen), len(classes) if fundamental else None))
                last = now
        return len(seen), (len(classes) if fundamental else None)

    def counts_boards(self, choice: Choice) -> bool:
        """Whether :meth:`count_here` counts boards (checked against the published counts and independent
        backtracking); False for a count of something else, such as every model of a formula."""
        return True

    def count_note(self, result: CountResult) -> str:
        """A sentence the command line prints under a finished count (how it was done, what it cost)."""
        return ""


# -------------------------------------------------------------------------------------- the registry

class MethodRegistry(MutableMapping[str, Method]):
    """Name -> method, the default first, each method's module imported when the method is first asked for.

    :mod:`nqueens_kit.methods.registry` enters every method by name with where its class lives and what it
    calls its variants (:meth:`enter`), so listing the names or the variant words imports nothing, and
    ``nqueens-kit solve 8`` loads the SAT method alone.  Iterating :meth:`values` loads each method as it
    comes; a method set as an item (a test's newcomer) is used as it is.
    """

    def __init__(self) -> None:
        self._entries: dict[str, Method | str] = {}
        self._words: dict[str, str | None] = {}

    def enter(self, name: str, target: str, variant_word: str | None) -> None:
        """Enter ``name``, whose class is ``target`` (``module:Class``, imported on first use)."""
        self._entries[name] = target
        self._words[name] = variant_word

    def __getitem__(self, name: str) -> Method:
        entry = self._entries[name]
        if isinstance(entry, str):
            module, _, cls = entry.partition(":")
            method = getattr(import_module(module), cls)()
            if not isinstance(method, Method) or method.name != name or method.variant_word != self._words[name]:
                raise TypeError(f"the registry's entry {name!r} ({entry}, variants called {self._words[name]!r}) "
                                f"does not match its class ({method!r})")
            self._entries[name] = entry = method
        return entry

    def __setitem__(self, name: str, method: Method) -> None:
        self._entries[name] = method
        self._words[name] = method.variant_word

    def __delitem__(self, name: str) -> None:
        del self._entries[name]
        del self._words[name]

    def __contains__(self, name: object) -> bool:
        return name in self._entries

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._entries))

    def __len__(self) -> int:
        return len(self._entries)

    def __repr__(self) -> str:
        return f"<methods {', '.join(self._entries)}>"

    def variant_word(self, name: str) -> str | None:
        """What the method ``name`` calls its variants (``encoding``, ``formulation``), without loading it."""
        return self._words[name]

    def loaded(self) -> list[str]:
        """The names of the methods whose modules are imported so far."""
        return [name for name, entry in self._entries.items() if not isinstance(entry, str)]


#: Name -> method, the default first: filled by :mod:`nqueens_kit.methods.registry` (one line per method).
METHODS = MethodRegistry()


def get_method(name: str | Method | None) -> Method:
    """A method by name (None: the default), or a one-line :class:`InputError` listing the valid ones."""
    if isinstance(name, Method):
        return name
    if name is None:
        return next(iter(METHODS.values()))
    try:
        return METHODS[name]
    except (KeyError, TypeError):
        raise InputError(f"unknown method {str(name)[:40]!r}; valid: {', '.join(METHODS)}") from None


def method_of_solver(name: str) -> Method:
    """The method whose solvers include ``name`` (the first in registry order; a DIMACS executable on PATH is
    a SAT solver), or a one-line error listing every solver."""
    for method in METHODS.values():
        if name in method.solvers():
            return method
    for method in METHODS.values():
        try:
            method.solver(name)
        except InputError:
            continue
        return method
    valid = ", ".join(dict.fromkeys(s for m in METHODS.values() for s in m.solvers()))
    raise InputError(f"unknown solver {str(name)[:40]!r}; valid: {valid}, or a DIMACS solver on PATH")


def methods_with(verb: str) -> list[Method]:
    """The methods that have ``verb`` (``solve``, ``count``, ``iterate``), in registry order."""
    return [m for m in METHODS.values() if verb in m.verbs]


# --------------------------------------------------------------------------------------- helpers


def stopped_result(problem: Problem, method: Method, choice: Choice, status: Status, message: str,
                   seconds: float = 0.0) -> SolveResult:
    """The result of a run that ended without an answer (a time limit, a memory limit, a Stop button)."""
    size = method.size(problem, choice)
    return SolveResult(n=problem.n, method=method.name, status=status, variant=choice.variant, solver=choice.solver,
                       preplaced=problem.preplaced, blocked=problem.blocked, break_symmetry=problem.break_symmetry,
                       solve_seconds=seconds, variables=size.variables, clauses=size.clauses,
                       constraints=size.constraints,
                       message=message, variant_kind=method.variant_word)
