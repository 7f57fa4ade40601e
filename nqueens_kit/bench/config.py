"""What a sweep times: configurations (a method with its variant, solver and settings) and board sizes.

Parsing never probes the machine: :func:`make_configs` and :meth:`Config.parse` only check names against
the method layer; :func:`check_available` is the one explicit step that asks whether the solvers are
installed (the command line calls it before a sweep starts).

>>> [c.label for c in make_configs("sat,construct", encodings="pairwise,sequential")]
['SAT pairwise/pycosat', 'SAT sequential/pycosat', 'construct']
>>> Config.parse("ilp:lines:cbc").label, parse_ns("4:16:4")
('ILP lines/cbc', [4, 8, 12, 16])
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import InputError
from ..methods import METHODS, Choice, get_method
from ..methods.ilp.formulations import solver_options
from ..problem.board import parse_n, whole_number
from ..solvers import REGISTRIES

#: Methods a sweep can time, in the order tables list them.
METHOD_ORDER = ("sat", "ilp", "construct", "backtrack")
#: The default sweep: n = 4..64 step 4; SAT pairwise and sequential with pycosat; ILP lines with CBC.
DEFAULT_NS = "4:64:4"
DEFAULT_METHODS = ("sat", "ilp")
DEFAULT_VARIANTS = {"sat": ("pairwise", "sequential"), "ilp": ("lines",)}
#: A sweep names at most this many board sizes.
MAX_SIZES = 10_000


@dataclass(frozen=True)
class Config:
    """One way of solving: a method, its variant (SAT encoding or ILP formulation), solver and settings."""

    method: str
    variant: str | None = None
    solver: str | None = None
    settings: str | None = None

    @property
    def label(self) -> str:
        """A short name for legends and table headers, e.g. ``SAT pairwise/pycosat`` (plus ``, default``
        when an ILP solver runs with its own default settings)."""
        if self.variant is None:
            return self.method
        tail = f", {self.settings}" if self.settings not in (None, "tuned") else ""
        return f"{self.method.upper()} {self.variant}/{self.solver}{tail}"

    @property
    def key(self) -> tuple[str, str, str, str]:
        return (self.method, self.variant or "", self.solver or "", self.settings or "")

    @property
    def choice(self) -> Choice:
        return Choice(self.method, self.variant, self.solver, self.settings)

    @property
    def encoding(self) -> str | None:
        return self.variant if self.method == "sat" else None

    @property
    def formulation(self) -> str | None:
        return self.variant if self.method == "ilp" else None

    @classmethod
    def of(cls, choice: Choice) -> Config:
        return cls(choice.method, choice.variant, choice.solver, choice.settings)

    @classmethod
    def parse(cls, text: str) -> Config:
        """``sat:pairwise:pycosat``, ``sat:sequential`` (default solver), ``ilp:lines:cbc[:default]``,
        ``construct``, ``backtrack``: names are checked, installation is not."""
        parts = [p.strip() for p in str(text).split(":")]
        method = parts[0]
        if method in METHODS and not get_method(method).variants() and len(parts) == 1:
            return cls(method)
        if method in ("sat", "ilp") and 1 <= len(parts) <= (4 if method == "ilp" else 3) and all(parts):
            return cls.of(_choose(method, *(parts[1:] + [None] * (4 - len(parts)))))
        raise InputError(f"a configuration is sat:ENCODING[:SOLVER], ilp:FORMULATION[:SOLVER[:SETTINGS]], "
                         f"construct or backtrack, not {str(text)[:40]!r}")

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> Config:
        method = row["method"]
        variant = row.get("encoding") if method == "sat" else row.get("formulation") if method == "ilp" else None
        return cls(method, variant or None, row.get("solver") or None,
                   (row.get("settings") or "tuned") if method == "ilp" else None)


def _choose(method: str, variant: str | None, solver: str | None, settings: str | None = None) -> Choice:
    """The method layer's choice, without asking whether the solver is installed."""
    chosen = get_method(method)
    choice = chosen.choose(variant, None, settings)
    if solver is not None:
        registry = REGISTRIES.get(method, {})
        if solver not in registry:
            from ..solvers import get_solver

            solver = get_solver(method, solver).name  # a DIMACS executable on PATH, or a one-line error
        choice = Choice(choice.method, choice.variant, solver, choice.settings)
    return choice


def _split(values: str | Iterable[str] | None) -> list[str] | None:
    if values is None:
        return None
    items = values.split(",") if isinstance(values, str) else list(values)
    return list(dict.fromkeys(str(v).strip() for v in items if str(v).strip()))


def make_configs(methods: str | Iterable[str] = DEFAULT_METHODS, encodings: str | Iterable[str] | None = None,
                 formulations: str | Iterable[str] | None = None, solvers: str | Iterable[str] | None = None,
                 settings: str | Iterable[str] | None = None) -> list[Config]:
    """The cross product: sat x encodings x SAT solvers, ilp x formulations x ILP solvers x settings, and the
    methods without variants once each.  Solver names are routed to their method by the registries.  Lists
    may be comma-separated strings.  Nothing here asks whether a solver is installed
    (:func:`check_available` does)."""
    method_list = _split(methods) or []
    if not method_list:
        raise InputError(f"give at least one method; valid: {', '.join(METHOD_ORDER)}")
    for method in method_list:
        get_method(method)
    encoding_list, formulation_list = _split(encodings), _split(formulations)
    if encoding_list is not None and "sat" not in method_list:
        raise InputError("encodings belong to the sat method; add sat to the methods or drop the encodings")
    if formulation_list is not None and "ilp" not in method_list:
        raise InputError("formulations belong to the ilp method; add ilp to the methods or drop the formulations")
    settings_list = _split(settings)
    if settings_list is not None and "ilp" not in method_list:
        raise InputError("solver settings belong to the ilp method; add ilp to the methods or drop --settings")
    routed: dict[str, list[str]] = {"sat": [], "ilp": []}
    for name in _split(solvers) or []:
        found = next((m for m, table in REGISTRIES.items() if name in table), None)
        if found is None:
            from ..solvers import get_solver

            try:
                name, method = get_solver("sat", name).name, "sat"
            except InputError:
                valid = ", ".join(n for table in REGISTRIES.values() for n in table)
                raise InputError(f"unknown solver {name!r}; valid: {valid}, or a DIMACS solver on PATH") from None
        else:
            method = found
        if method not in method_list:
            raise InputError(f"{name} is {'an ILP' if method == 'ilp' else 'a SAT'} solver but {method} is not "
                             f"among the methods ({', '.join(method_list)}); add it or drop the solver")
        routed[method].append(name)
    variants = {"sat": encoding_list or list(DEFAULT_VARIANTS["sat"]),
                "ilp": formulation_list or list(DEFAULT_VARIANTS["ilp"])}
    configs: list[Config] = []
    for method in sorted(method_list, key=lambda m: METHOD_ORDER.index(m) if m in METHOD_ORDER else 99):
        if method in variants:
            names: list[str | None] = list(routed[method]) or [None]
            settings_options: list[str | None] = [None]
            if method == "ilp" and settings_list:
                settings_options = list(settings_list)
            for variant in variants[method]:
                for solver in names:
                    seen: list[dict[str, Any]] = []
                    for setting in settings_options:
                        choice = _choose(method, variant, solver, setting)
                        # settings that change nothing for this solver (HiGHS runs its defaults under
                        # both) are timed once, under the first name given
                        options = solver_options(choice.solver or "", setting) if setting else None
                        same = options is not None and any({**o, "settings": None} == {**options, "settings": None}
                                                           for o in seen)
                        if options is not None:
                            seen.append(options)
                        if not same:
                            configs.append(Config.of(choice))
        else:
            configs.append(Config.of(get_method(method).choose()))
    return configs


def check_available(configs: Sequence[Config]) -> None:
    """Raise :class:`~nqueens_kit.errors.SolverNotAvailable` (with the install hint) for the first solver of
    ``configs`` that is not installed here."""
    from ..solvers import get_solver

    for config in configs:
        if config.solver is not None:
            get_solver(config.method, config.solver).require()


def parse_ns(text: str | int | Iterable[int]) -> list[int]:
    """Board sizes from ``"4,8,16"``, ``"4:64:4"`` (stop included), ``"4:8"`` (step 1) or a mix; sorted, unique.

    >>> parse_ns("4:10:3,16")
    [4, 7, 10, 16]
    """
    if isinstance(text, bool):
        return [parse_n(text)]  # a one-line error
    if isinstance(text, int):
        return [parse_n(text)]
    if not isinstance(text, str):
        return sorted({parse_n(v) for v in text})
    usage = "board sizes are a list like 4,8,16 or a range START:STOP[:STEP] like 4:64:4 (STOP included)"
    sizes: set[int] = set()
    named = 0
    for item in text.split(","):
        item = item.strip()
        parts = item.split(":")
        numbers = [whole_number(p) for p in parts]
        if any(number is None for number in numbers):
            raise InputError(f"{usage}, not {text[:40]!r}")
        if len(numbers) == 1:
            sizes.add(parse_n(numbers[0]))
        elif len(numbers) in (2, 3):
            start, stop = parse_n(numbers[0]), parse_n(numbers[1])
            step = numbers[2] if len(numbers) == 3 else 1
            assert step is not None
            if step < 1 or stop < start:
                raise InputError(f"{usage}; in {item!r} STOP must be at least START and STEP at least 1")
            named += len(range(start, stop + 1, step))
            if named > MAX_SIZES:
                raise InputError(f"--n names {named:,} board sizes or more; a sweep takes at most {MAX_SIZES:,} "
                                 "(use a STEP, e.g. 4:1000:4)")
            sizes.update(range(start, stop + 1, step))
        else:
            raise InputError(f"{usage}, not {text[:40]!r}")
    return sorted(sizes)


def config_order(config: Config) -> tuple[int, tuple[str, ...]]:
    """Sort key: by method in :data:`METHOD_ORDER`, then by names, the default settings (tuned) first."""
    from ..methods.ilp.formulations import SETTINGS

    method, variant, solver, settings = config.key
    rank = list(SETTINGS).index(settings) if settings in SETTINGS else -1
    return (METHOD_ORDER.index(method) if method in METHOD_ORDER else len(METHOD_ORDER),
            (variant, solver, f"{rank:03d}", settings))
