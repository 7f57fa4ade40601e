"""What a sweep times: configurations (:class:`~nqueens_kit.methods.Choice`: a method with its variant, solver
and settings) and board sizes.

Every name is checked by the method it belongs to; nothing here knows which methods exist.  Parsing never
probes the machine: :func:`make_configs` and :func:`parse_choice` only check names against the method layer;
:func:`check_available` is the one explicit step that asks whether the solvers are installed (the command
line calls it before a sweep starts).

>>> [c.label for c in make_configs("sat,construct", encodings="pairwise,sequential")]
['SAT pairwise/pycosat', 'SAT sequential/pycosat', 'construct']
>>> parse_choice("ilp:lines:cbc").label, parse_ns("4:16:4")
('ILP lines/cbc', [4, 8, 12, 16])
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..errors import InputError
from ..methods import METHODS, Choice, Method, get_method, method_of_solver
from ..methods.rows import choice_from_row, config_order
from ..problem.board import parse_n, whole_number
from ..problem.results import Options

__all__ = [
    "DEFAULT_METHODS", "DEFAULT_NS", "MAX_SIZES", "check_available", "choice_from_row", "config_order",
    "make_configs", "parse_choice", "parse_ns",
]

#: The default sweep: n = 4..64 step 4; the first two methods of the registry (SAT and ILP) with their
#: benchmark variants and default solvers.
DEFAULT_NS = "4:64:4"
DEFAULT_METHODS = tuple(list(METHODS)[:2])
#: A sweep names at most this many board sizes.
MAX_SIZES = 10_000


def parse_choice(text: str) -> Choice:
    """``METHOD[:VARIANT][:SOLVER][:SETTINGS]``, each part where the method has one: ``sat:pairwise:pycosat``,
    ``sat:sequential`` (default solver), ``ilp:lines:cbc:default``, ``cp:boolean``, ``backtrack``.  Names are
    checked, installation is not."""
    parts = [p.strip() for p in str(text).split(":")]
    method = get_method(parts[0]) if parts[0] in METHODS else None
    slots = [] if method is None else [s for s, has in (("variant", bool(method.variants())),
                                                       ("solver", bool(method.solvers())),
                                                       ("settings", bool(method.settings()))) if has]
    if method is None or not all(parts) or len(parts) - 1 > len(slots):
        forms = ", ".join(_form(m) for m in METHODS.values())
        raise InputError(f"a configuration is one of {forms}; not {str(text)[:40]!r}")
    named = dict(zip(slots, parts[1:], strict=False))
    return method.choose(named.get("variant"), named.get("solver"), named.get("settings"))


def _form(method: Method) -> str:
    parts = [method.name]
    if method.variants():
        parts.append(method.variant_word.upper() if method.variant_word else "VARIANT")
    if method.solvers():
        parts.append("[SOLVER]")
    if method.settings():
        parts.append("[SETTINGS]")
    return ":".join(parts)


def _split(values: str | Iterable[str] | None) -> list[str] | None:
    if values is None:
        return None
    items = values.split(",") if isinstance(values, str) else list(values)
    return list(dict.fromkeys(str(v).strip() for v in items if str(v).strip()))


def make_configs(methods: str | Iterable[str] = DEFAULT_METHODS, encodings: str | Iterable[str] | None = None,
                 formulations: str | Iterable[str] | None = None, solvers: str | Iterable[str] | None = None,
                 settings: str | Iterable[str] | None = None) -> list[Choice]:
    """The cross product per method: its variants (those named with the method's own word, ``encodings`` or
    ``formulations``, else its benchmark variants) x its solvers (those named that are its own, else its
    default) x its settings (those named that it has and the solver takes, else its default).  Lists may be
    comma-separated strings.  Nothing here asks whether a solver is installed (:func:`check_available` does)."""
    method_list = [get_method(name) for name in _split(methods) or []]
    if not method_list:
        raise InputError(f"give at least one method; valid: {', '.join(METHODS)}")
    method_list = sorted(set(method_list), key=list(METHODS.values()).index)
    named = {"encoding": _split(encodings), "formulation": _split(formulations)}
    for word, names in named.items():
        if names is None:
            continue
        owners = [m for m in method_list if m.variant_word == word]
        if not owners:
            able = [m.name for m in METHODS.values() if m.variant_word == word]
            raise InputError(f"{word}s belong to the methods {', '.join(able)}; add one to the methods or drop the "
                             f"{word}s")
        for name in names:
            if not any(name in m.variants() for m in owners):
                valid = ", ".join(dict.fromkeys(v for m in owners for v in m.variants()))
                raise InputError(f"unknown {word} {name!r} for {', '.join(m.name for m in owners)}; valid: {valid}")
    settings_list = _split(settings)
    if settings_list is not None:
        if not any(m.settings() for m in method_list):
            able = [m.name for m in METHODS.values() if m.settings()]
            raise InputError(f"solver settings belong to the methods {', '.join(able)}; add one to the methods or "
                             "drop the settings")
        for name in settings_list:
            if not any(name in m.settings() for m in method_list):
                valid = ", ".join(dict.fromkeys(s for m in method_list for s in m.settings()))
                raise InputError(f"unknown settings {name!r}; valid: {valid}")
    routed: dict[str, list[str]] = {m.name: [] for m in method_list}
    for name in _split(solvers) or []:
        owner = next((m for m in method_list if name in m.solvers()), None)
        if owner is None:
            elsewhere = method_of_solver(name)  # a one-line error for a name no method has
            if elsewhere not in method_list:
                raise InputError(f"{name} is a solver of --method {elsewhere.name}, which is not among the methods "
                                 f"({', '.join(m.name for m in method_list)}); add it or drop the solver")
            owner = elsewhere
        routed[owner.name].append(owner.solver(name).name)
    configs: list[Choice] = []
    for method in method_list:
        asked = named.get(method.variant_word or "")
        variants: list[str | None] = (
            [v for v in asked if v in method.variants()] if asked is not None
            else list(method.bench_variants or [method.default_variant()]))
        solver_names: list[str | None] = list(routed[method.name]) or [None]
        settings_options: list[str | None] = (
            [s for s in settings_list if s in method.settings()] or [None] if settings_list else [None])
        for variant in variants:
            for solver in solver_names:
                entry = method.solver(solver) if method.solvers() else None
                # the settings this solver takes (HiGHS runs its defaults under the method's default settings
                # and takes no second name for them); none of those named: its default
                taken = [s for s in settings_options if s is None or entry is None or entry.takes(s)] or [None]
                seen: list[Options] = []
                for setting in taken:
                    choice = method.choose(variant, solver, setting)
                    # settings that change nothing (two names the entry runs alike) are timed once
                    options = {k: v for k, v in method.options(choice).items() if k != "settings"}
                    if setting is not None and options in seen:
                        continue
                    seen.append(options)
                    configs.append(choice)
    return configs


def check_available(configs: Sequence[Choice]) -> None:
    """Raise :class:`~nqueens_kit.errors.SolverNotAvailable` (with the install hint) for the first solver of
    ``configs`` that is not installed here."""
    for config in configs:
        if config.solver is not None:
            get_method(config.method).solver(config.solver).require()


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
