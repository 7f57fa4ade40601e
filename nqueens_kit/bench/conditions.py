"""What the report says about how its numbers were taken: the machine and the sweep's command, how busy the
machine was (the load average at the start and end of each session, on its cores: :func:`busy_reading`),
which clock to compare (wall, CPU, the solver's own) and how the instances were sampled (a single instance
per n is an anecdote; several show their spread).  :mod:`.report` re-exports the public names here.
"""

from __future__ import annotations

import itertools
import math
import shlex
import statistics
from collections.abc import Iterable, Mapping, Sequence
from pathlib import PurePath
from typing import Any

from ..errors import NQueensError
from ..methods import Choice, get_method
from ..methods.rows import number
from .config import choice_from_row, config_order, make_configs
from .results import meta_path
from .tables import Block, _label, _mapping, _n_by_config, _spread_cell

#: How many instances per size the report's advice asks ``bench --instances`` for.
SAMPLE_INSTANCES = 5


def _environment_blocks(meta: Mapping[str, Any] | None, csv_name: str) -> list[Block]:
    if not meta:
        return [("p", f"No sidecar ({meta_path(csv_name).name}) was found, so the machine and versions are unknown.")]
    machine = _mapping(meta.get("machine"))
    python = _mapping(meta.get("python"))
    physical = machine.get("physical_cores")
    items = [
        f"Machine: {machine.get('cpu', '?')}, {machine.get('cpu_count', '?')} logical CPUs"
        + (f" ({physical} physical cores)" if isinstance(physical, int) and physical != machine.get("cpu_count")
           else "")
        + f", {machine.get('memory_gb', '?')} GB memory; {machine.get('platform', '?')}",
        f"Python {python.get('version', '?')} ({python.get('implementation', '?')})",
    ]
    packages = ", ".join(f"{name} {version}" for name, version in _mapping(meta.get("packages")).items() if version)
    if packages:
        items.append(f"Packages: {packages}")
    solvers = ", ".join(f"{name}: {version or 'version unknown'}"
                        for name, version in _mapping(meta.get("solvers")).items())
    if solvers:
        items.append(f"Solvers: {solvers}")
    sweep = _mapping(meta.get("sweep"))
    if sweep:
        timeout = sweep.get("timeout")
        limit = f"limit {timeout:g} s per run" if isinstance(timeout, (int, float)) and timeout else "no time limit"
        ns = sweep.get("ns")
        ns = [n for n in ns if isinstance(n, int)] if isinstance(ns, list) else []
        instances = sweep.get("instances")
        items.append(f"Sweep: n = {_ns_text(ns)}; "
                     + (f"{instances} instances per n, " if isinstance(instances, int) and instances > 1 else "")
                     + f"{sweep.get('repeat')} repeat{'' if sweep.get('repeat') == 1 else 's'}; {limit}"
                     + (f"; {sweep['place_random']} random pre-placed queens, seed {sweep.get('seed')}"
                        if sweep.get("place_random") else ""))
    blocks: list[Block] = [("ul", items)]
    for session in _sessions(meta):
        when = session.get("started", "?")
        how = "resumed" if session.get("resumed") else "started"
        text = f"Sweep {how} {when}" + (f", finished {session['finished']}" if session.get("finished") else "")
        if session.get("finished") and not session.get("complete", True):
            text += " (interrupted)"
        start, end = _one_minute(session.get("load_average_start")), _one_minute(session.get("load_average_end"))
        loads = [f"{_load_text(value)} at the {edge}" for value, edge in ((start, "start"), (end, "end"))
                 if value is not None]
        text += "; load " + ", ".join(loads) if loads else "; load average not recorded"
        blocks.append(("p", text + ":" if session.get("command") else text + "."))
        if session.get("command"):
            blocks.append(("code", session["command"]))
    return blocks


def _ns_text(ns: Sequence[int]) -> str:
    ns = list(ns)
    if len(ns) >= 3:
        steps = {b - a for a, b in zip(ns, ns[1:], strict=False)}
        if len(steps) == 1:
            return f"{ns[0]}, {ns[1]}, ..., {ns[-1]}"
    return ", ".join(map(str, ns))


def _sessions(meta: Mapping[str, Any] | None) -> list[Mapping[str, Any]]:
    """The sessions a sidecar records (each bench invocation on the file: a first one, resumed ones, merged
    ones), skipping any entry that is not a mapping."""
    sessions = meta.get("sessions") if meta else None
    return [s for s in sessions if isinstance(s, Mapping)] if isinstance(sessions, list) else []


def _one_minute(value: Any) -> float | None:
    """The 1-minute figure of a recorded load average (``[1 min, 5 min, 15 min]``), or None if there is none."""
    first = value[0] if isinstance(value, list) and value else None
    if isinstance(first, bool) or not isinstance(first, (int, float)) or not math.isfinite(first) or first < 0:
        return None
    return float(first)


def _load_text(value: float) -> str:
    """A load average with two decimals, a trailing zero dropped: 0.3, 0.45, 5.0."""
    text = f"{value:.2f}"
    return text[:-1] if text.endswith("0") else text


def _cores(meta: Mapping[str, Any] | None) -> int | None:
    count = _mapping(meta.get("machine") if meta else None).get("cpu_count")
    return count if isinstance(count, int) and not isinstance(count, bool) and count > 0 else None


def _busy(load: float, cores: int) -> str:
    if load <= cores / 2:
        return "quiet"
    if load <= cores:
        return "moderately busy; wall times may be somewhat inflated, CPU times hardly"
    return "busy; wall times are inflated, CPU times less so"


def busy_reading(load: float, cores: int) -> str:
    """How busy a load average says a machine of ``cores`` logical CPUs was: up to half of them quiet, up to
    all of them moderately busy, above them busy (runs waited for a core).

    >>> busy_reading(0.4, 2)
    'load 0.4 on 2 cores: quiet'
    >>> busy_reading(3.1, 2)
    'load 3.1 on 2 cores: busy; wall times are inflated, CPU times less so'
    """
    return f"load {_load_text(load)} on {cores} cores: {_busy(load, cores)}"


def _load_blocks(meta: Mapping[str, Any] | None) -> list[Block]:
    """The load average at the start and end of each session of the sweep, and what it says."""
    unknown = ("so how busy the machine was is unknown: compare CPU times rather than wall times (see the "
               "clocks below).")
    if not meta:
        return [("p", "The load average was not recorded (there is no sidecar), " + unknown)]
    sessions = _sessions(meta)
    if not sessions:
        return [("p", "The load average was not recorded (the sidecar lists no session of the sweep), " + unknown)]
    cores = _cores(meta)
    jobs = _mapping(meta.get("sweep")).get("jobs")
    jobs = jobs if isinstance(jobs, int) and not isinstance(jobs, bool) and jobs > 0 else 1
    on = f"on {cores} cores" if cores else "on a number of cores that was not recorded"
    items, peaks = [], []
    for index, session in enumerate(sessions, start=1):
        how = "resumed" if session.get("resumed") else "started"
        head = f"Session {index} ({how} {session.get('started', '?')})"
        start, end = _one_minute(session.get("load_average_start")), _one_minute(session.get("load_average_end"))
        if start is None and end is None:
            items.append(f"{head}: the load average was not recorded")
            continue
        if start is not None and end is not None:
            loads = f"load {_load_text(start)} at the start and {_load_text(end)} at the end"
        elif start is not None:
            loads = f"load {_load_text(start)} at the start (not recorded at the end" + (
                ": the session was cut off)" if not session.get("finished") else ")")
        else:
            loads = f"load {_load_text(end or 0.0)} at the end (not recorded at the start)"
        peak = max(value for value in (start, end) if value is not None)
        peaks.append(peak)
        items.append(f"{head}: {loads}, {on}" + (f": {_busy(peak, cores)}" if cores else ""))
    own = (f"The sweep's own runs count in the load at the end: it ran {jobs} run{'s' if jobs > 1 else ''} at a "
           f"time, so up to {jobs} of it can be the sweep itself (less when the session lasted under a minute).")
    intro = ("The load average is the number of processes running or waiting for a core, averaged over the last "
             "minute; the sidecar records it when each session of the sweep starts and ends. "
             + (f"On {cores} cores, a load up to {_load_text(cores / 2)} is quiet, up to {_load_text(cores)} "
                f"moderately busy, and above {_load_text(cores)} busy: runs waited for a core. " if cores else "")
             + own)
    blocks: list[Block] = [("p", intro), ("ul", items)]
    if not peaks:
        blocks.append(("p", "The load average was not recorded in any session, " + unknown))
    elif cores and len(sessions) > 1:
        blocks.append(("p", f"Over the {len(sessions)} sessions, the highest load, {_load_text(max(peaks))} on "
                            f"{cores} cores: {_busy(max(peaks), cores)}."))
    elif not cores:
        blocks.append(("p", f"The highest load was {_load_text(max(peaks))}; without the number of cores it "
                            "cannot say how busy the machine was."))
    return blocks


def _percent(value: float) -> str:
    return f"{value:.0%}"


def _peak_share(meta: Mapping[str, Any] | None) -> float | None:
    """The highest recorded load average over the number of cores, or None if either is unknown."""
    cores = _cores(meta)
    loads = [value for session in _sessions(meta) for key in ("load_average_start", "load_average_end")
             if (value := _one_minute(session.get(key))) is not None]
    return max(loads) / cores if cores and loads else None


def _clock_blocks(rows: Sequence[Mapping[str, Any]], meta: Mapping[str, Any] | None) -> list[Block]:
    """What each clock measures, which to compare on a busy machine, and this file's CPU / wall ratio."""
    share = _peak_share(meta)
    finished = [r for r in rows if r["status"] in ("solved", "infeasible")]
    ratios = sorted(cpu / wall for r in finished
                    if (cpu := number(r, "cpu_seconds")) is not None and (wall := number(r, "total_seconds")))
    reporting: dict[str, list[int]] = {}
    for row in finished:
        counts = reporting.setdefault(_label(row), [0, 0])
        counts[0] += number(row, "solver_seconds") is not None
        counts[1] += 1
    own = [f"{label} ({counts[0]} of {len(finished)} finished runs)" for label, counts in reporting.items()
           if counts[0]]
    solver = (f"in this file it is reported by {', '.join(own)}"
              + (", and not by the others" if len(own) < len(reporting) else "")
              if own else "no solver in this file reports one")
    what = ("Three clocks. Wall time (the total, build and solve times of the tables) is elapsed time, from the "
            "moment the run's process is ready to its answer: it includes every wait, for a core, for memory or "
            "the disk, so it grows when other programs use the cores. CPU time is the processor time (user plus "
            "system) of the run's process tree: the measuring process and every solver process it starts (CBC, a "
            "DIMACS binary); waiting does not count, so other programs change it far less (through shared caches "
            "and memory only). The solver's own time is what the solver's authors count, in their own way (CBC "
            "and CP-SAT count elapsed time inside the solver, without building the model in Python): "
            f"{solver}. It compares runs of one solver, not one method with another.")
    which = ("On a quiet machine a run on one core has its CPU time close to its wall time, and the wall time is "
             "what a user waits for. On a busy machine, compare CPU times (and the search effort, conflicts and "
             "nodes, which do not depend on the machine at all): the wall times then hold other programs' work.")
    if not ratios:
        figures = (" This file records no CPU time (it was made before the kit recorded it), so only wall times "
                   "can be compared.")
    else:
        middle = statistics.median(ratios)
        if middle > 1.1:
            reading = ("above 100%: a solver used more than one thread, so its CPU time overstates what a user "
                       "waits for")
        elif middle >= 0.9:
            reading = "close to 100%: the runs had a core to themselves nearly all the time"
            if share is not None and share > 1:
                reading += (", although the load was high; their wall times still hold some waiting, so compare "
                            "CPU times")
        else:
            reading = ("well below 100%: the runs spent part of their wall time waiting, for a core on a busy "
                       "machine or, in runs of milliseconds, for a solver process to start; compare CPU times")
            if share is not None and share <= 0.5:
                reading += " (the load was low, so here it is most likely the start)"
        figures = (f" In this report the CPU time is a median {_percent(middle)} of the wall time over its "
                   f"{len(ratios)} finished runs ({_percent(ratios[0])} to {_percent(ratios[-1])}); the CPU / wall "
                   f"column above gives it per configuration. That is {reading}.")
    return [("p", what), ("p", which + figures)]


def _instance_counts(rows: Sequence[Mapping[str, Any]]) -> dict[int, int]:
    """How many instances each size has in the rows."""
    seen: dict[int, set[int]] = {}
    for row in rows:
        seen.setdefault(int(row["n"]), set()).add(int(row.get("instance") or 1))
    return {n: len(instances) for n, instances in sorted(seen.items())}


def _ns_option(ns: Sequence[int]) -> str:
    """Sizes as ``bench --n`` takes them: ``4:64:4`` when evenly spaced, else ``8,12,20``."""
    steps = {b - a for a, b in itertools.pairwise(ns)}
    if len(ns) >= 3 and len(steps) == 1:
        step = steps.pop()
        return f"{ns[0]}:{ns[-1]}" + (f":{step}" if step != 1 else "")
    return ",".join(map(str, ns))


def _recorded_out(meta: Mapping[str, Any] | None) -> str | None:
    """The ``--out`` of the latest bench command the sidecar records, as it was typed."""
    for session in reversed(_sessions(meta)):
        command = session.get("command")
        try:
            words = shlex.split(command) if isinstance(command, str) else []
        except ValueError:
            continue
        if words[:2] != ["nqueens-kit", "bench"]:
            continue
        for index, word in enumerate(words):
            if word == "--out" and index + 1 < len(words):
                return words[index + 1]
            if word.startswith("--out="):
                return word[len("--out="):]
    return None


def _family(rows: Sequence[Mapping[str, Any]]) -> tuple[str, int, float | None, int | None]:
    """The instance family of the rows: family, random pre-placed queens, density, seed."""
    family = next((f for r in rows if isinstance(f := r.get("family"), str) and f), "completion")
    placed = max((int(r.get("place_random") or 0) for r in rows), default=0)
    density = next((d for r in rows if (d := number(r, "density")) is not None), None)
    seed = next((int(s) for r in rows if (s := number(r, "seed")) is not None), None)
    return family, placed, density, seed


def _family_text(family: str) -> str:
    return {"blocked": "blocked cells", "excluded-diagonals": "excluded diagonals"}.get(family, f"{family} cells")


def _sampling_blocks(rows: Sequence[Mapping[str, Any]], meta: Mapping[str, Any] | None,
                     csv_name: str) -> list[Block]:
    """The warning of a file with one instance per size, and the bench command that samples several."""
    k = SAMPLE_INSTANCES
    family, placed, density, seed = _family(rows)
    sweep = _mapping(meta.get("sweep") if meta else None)
    repeat = sweep.get("repeat")
    repeat = repeat if isinstance(repeat, int) and not isinstance(repeat, bool) and repeat > 0 else max(
        int(r["repeat"]) for r in rows)
    if placed:
        what, how = (f"board with the same {placed} pre-placed queens", f"{k} random draws of the {placed} queens")
    elif family != "completion":
        what, how = f"board with the same {_family_text(family)}", f"{k} random draws of the {_family_text(family)}"
    else:
        what = "formula or model, its variables and clauses (or constraints) in one fixed order"
        how = ("the same problem with its variables renumbered and its clauses or constraints reordered, a "
               "different order for each instance")
    why = ("a solver's heuristics follow the order of the variables and clauses, so the same problem in another "
           "order can take several times longer or shorter" if not placed and family == "completion" else
           "another random instance of the same size can be much easier or much harder")
    repeated = (f"and its {repeat} repeats ran that same instance again. Repeats measure the machine's noise, not the "
                "spread over instances" if repeat > 1 else "once. Nothing here measures the spread over instances")
    text = (f"Every size in this file has a single instance: at each n every configuration solved one {what}, "
            f"{repeated}: {why}, and a second instance can flip which method is faster. A comparison over one "
            "instance per size is an anecdote, not a measurement of the methods.")
    configs: list[Choice] = []
    for row in rows:
        config = choice_from_row(row)
        if config not in configs:
            configs.append(config)
    configs.sort(key=config_order)
    reorder = not placed and family == "completion"
    kept = [c for c in configs if not reorder or get_method(c.method).honours("reorder", c)]
    left = [c.label for c in configs if c not in kept]
    them = "it" if len(left) == 1 else "them"
    left_text = (f"{', '.join(left)} cannot take reordered instances (bench refuses --instances for {them} without "
                 f"random pre-placed queens), so the command leaves {them} out." if left else "")
    blocks: list[Block] = [("h2", "One instance per size: an anecdote, not a comparison")]
    if not kept:
        return [*blocks, ("p", text + " " + left_text + " Random completions (nqueens-kit bench --place-random K "
                                "--instances K) give several instances per size to the methods that accept "
                                "pre-placed queens.")]
    ns = sorted({int(r["n"]) for r in rows if choice_from_row(r) in kept})

    def names(values: Iterable[str | None]) -> str:
        return ",".join(dict.fromkeys(v for v in values if v))

    words = ["bench", "--n", _ns_option(ns), "--methods", names(c.method for c in kept)]
    for option, values in (("--encodings", names(c.encoding for c in kept)),
                           ("--formulations", names(c.formulation for c in kept)),
                           ("--solvers", names(c.solver for c in kept))):
        if values:
            words += [option, values]
    if any(c.settings and c.settings != next(iter(get_method(c.method).settings()), None) for c in kept):
        words += ["--settings", names(c.settings for c in kept)]
    if placed:
        words += ["--place-random", str(placed)]
    if family != "completion":
        words += ["--family", family, "--density", f"{density or 0:g}"]
    if not reorder and seed is not None:
        words += ["--seed", str(seed)]
    words += ["--instances", str(k), "--repeat", str(repeat)]
    timeout = sweep.get("timeout")
    limit = timeout if isinstance(timeout, (int, float)) and not isinstance(timeout, bool) and timeout > 0 else max(
        (float(t) for r in rows if (t := number(r, "time_limit"))), default=None)
    if limit:
        words += ["--timeout", f"{limit:g}"]
    out = PurePath(_recorded_out(meta) or csv_name)
    words += ["--out", str(out.with_name(f"{out.stem}-instances{out.suffix or '.csv'}"))]
    if sweep.get("skip_after_timeout") is True:
        words.append("--skip-after-timeout")
    jobs = sweep.get("jobs")
    if isinstance(jobs, int) and not isinstance(jobs, bool) and jobs > 1:
        words += ["--jobs", str(jobs)]
    try:
        planned = make_configs(names(c.method for c in kept), names(c.encoding for c in kept) or None,
                               names(c.formulation for c in kept) or None, names(c.solver for c in kept) or None,
                               words[words.index("--settings") + 1] if "--settings" in words else None)
    except NQueensError:  # a hand-edited file naming what this kit does not know
        planned = kept
    runs = len(planned) * len(ns) * repeat * k
    more = [label for label in (c.label for c in planned) if label not in {c.label for c in kept}]
    after = (f"That is {runs:,} runs, {runs / max(len(rows), 1):.0f} times this file's {len(rows)}"
             + (f"; instances tell more than repeats, so --repeat {'1' if repeat == 2 else '1 or 2'} keeps it "
                "shorter" if repeat > 1 else "")
             + ". A report of the new file shows the spread over the instances of each size.")
    if more:
        after += (f" The bench command times every combination of the methods, encodings, formulations and solvers "
                  f"it is given, so it adds {', '.join(more)}.")
    if left_text:
        after += " " + left_text
    return [*blocks, ("p", text + f" To sample {k} instances per size ({how}), run:"),
            ("code", shlex.join(["nqueens-kit", *words])), ("p", after)]


def _spread_blocks(rows: Sequence[Mapping[str, Any]], summary: Sequence[Mapping[str, Any]],
                   counts: Mapping[int, int]) -> list[Block]:
    """How many instances each size has, and the spread of the times over them, per size and configuration."""
    repeats = max(int(r["repeat"]) for r in rows)
    family, placed, _density, _seed = _family(rows)
    kind = (f"random draws of {placed} pre-placed queens" if placed else
            f"random draws of the {_family_text(family)}" if family != "completion" else
            "the same problem with its variables and clauses or constraints in different orders")
    several = sorted(set(counts.values()))
    times = "once" if repeats == 1 else f"{repeats} times"
    if len(several) == 1:
        head = f"Each size has {several[0]} instances, each run {times} ({kind})."
    else:
        head = (f"The sizes have from {several[0]} to {several[-1]} instances ("
                + ", ".join(f"{count} at n = {n}" for n, count in counts.items())
                + f"), each run {'' if repeats == 1 else 'up to '}{times} ({kind}).")
    header, body = _n_by_config(summary, lambda entry: _spread_cell(entry) if entry is not None else "")
    explain = ("Each cell: the interquartile range of the total time over all runs of that size (every instance "
               "and repeat: the middle half of them lies within it); then how many times slower the slowest "
               "instance is than the fastest (by the median of its repeats)"
               + (", against how far apart the repeats of one instance typically are (slowest over fastest). Where "
                  "the first is much larger than the second, the instances, not the machine's noise, make the "
                  "spread" if repeats > 1 else
                  ". With one run per instance the noise between repeats is not measured: --repeat 2 would tell it "
                  "apart from the spread over instances")
               + ". A verdict should hold on every instance, not only on the median.")
    return [("h2", "Spread over instances"), ("p", head), ("table", header, body), ("p", explain)]
