"""A report of a timing sweep, ready to paste into a course report: Markdown and HTML with PNG plots.

Inside:

- :func:`write_report`: a results CSV (and its sidecar) to ``README.md``, ``index.html``, ``time.png``,
  ``size.png`` and ``build-solve.png`` in one folder.
- :func:`report_blocks`: the report as a list of blocks (headings, paragraphs, tables, images, lists);
  :func:`to_markdown` and :func:`to_html` render them, so the two versions cannot drift apart.
- :func:`medians_table`: the n x configuration table of median times.
- :func:`busy_reading`: what a load average says about how busy the machine was.

Besides the times, a report says how busy the machine was (the load average at the start and end of each
session of the sweep, on its cores), what each clock measures and which to compare (with the median CPU /
wall ratio of its runs), and how many instances each size has: with one per size it says so before the
tables and gives the ``bench`` command that samples several; with several it shows their spread.

>>> rows = [{"n": n, "method": "sat", "encoding": "pairwise", "solver": "pycosat", "repeat": 1,
...          "status": "solved", "verified": True, "total_seconds": 0.5 * n} for n in (4, 8)]
>>> header, body = medians_table(rows)
>>> header, body
(['n', 'SAT pairwise/pycosat'], [['4', '2 s'], ['8', '4 s']])
"""

from __future__ import annotations

import html
import itertools
import math
import os
import shlex
import statistics
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path, PurePath
from typing import Any

from ..errors import InputError, NQueensError
from ..methods import Choice, get_method
from ..methods.rows import number
from ..runtime.files import file_kind, output_path, write_whole
from .config import choice_from_row, config_order, make_configs
from .results import meta_path, read_meta, read_results
from .summary import censored_times, summarise

#: The plots a report holds: file name, alt text, caption.
PLOTS = (
    ("time.png", "Time against n",
     "Median time (build + solve) against n on a log scale; bands span min to max over the repeats, "
     "x marks a run stopped at the time limit."),
    ("size.png", "Problem size against n",
     "SAT variables and clauses per encoding (lines: closed form, dots: measured) and ILP constraints."),
    ("build-solve.png", "Build and solve time",
     "Median time to build the formula or model (in Python) and to solve it, stacked: where the lower bar "
     "is the larger, encoding dominates."),
    ("cactus.png", "Cactus plot",
     "Each configuration's finished runs sorted by time: the curve at x = k is the time within which it "
     "finished k runs (further right and lower is better; a curve that stops early left runs unsolved)."),
    ("ecdf.png", "Distribution of run times",
     "The share of each configuration's runs finished within a time (ECDF); below 1 at the right when runs "
     "hit the limit."),
)

Block = tuple[Any, ...]

#: How many instances per size the report's advice asks ``bench --instances`` for.
SAMPLE_INSTANCES = 5


def _seconds(value: float | None) -> str:
    """A duration with a readable unit and three significant figures: 31 µs, 2.45 ms, 0.288 s, 12.3 s.

    >>> _seconds(3.1e-05), _seconds(0.00245), _seconds(0.2881), _seconds(123.4)
    ('31 µs', '2.45 ms', '0.288 s', '123 s')
    """
    if value is None:
        return ""
    if value <= 0:
        return "0 s"
    if value < 1e-3:
        return f"{value * 1e6:.0f} µs"
    if value < 0.1:
        return f"{value * 1e3:.3g} ms"
    return f"{value:.3g} s"


def _cell(entry: Mapping[str, Any] | None, metric: str = "total") -> str:
    if entry is None:
        return ""
    runs = entry["runs"]
    median = entry[f"{metric}_median"]
    if median is None:
        if entry["timeouts"]:
            text = f"> {entry['time_limit']:g} s" if entry["time_limit"] else "timeout"
        elif entry["skipped"] == runs:
            text = "skipped"
        else:
            text = "error"
    else:
        text = _seconds(median)
    flags = []
    if entry["timeouts"] and median is not None:
        flags.append(f"{entry['timeouts']}/{runs} timed out")
    if entry["errors"] and (median is not None or entry["timeouts"]):
        flags.append(f"{entry['errors']}/{runs} failed")
    if entry["unverified"]:
        flags.append(f"{entry['unverified']} NOT verified")
    return text + (f" ({'; '.join(flags)})" if flags else "")


Grid = tuple[list[str], list[int], dict[tuple[str, int], Mapping[str, Any]]]


def _grid(summary: Sequence[Mapping[str, Any]]) -> Grid:
    """Configuration labels in order, the sizes, and the summary entry of each (label, n)."""
    labels: list[str] = []
    for entry in summary:
        if entry["config"] not in labels:
            labels.append(entry["config"])
    ns = sorted({int(entry["n"]) for entry in summary})
    cells = {(entry["config"], int(entry["n"])): entry for entry in summary}
    return labels, ns, cells


def medians_table(rows: Iterable[Mapping[str, Any]], metric: str = "total") -> tuple[list[str], list[list[str]]]:
    """Header and body of the n x configuration table of median times (each cell with its unit).

    A cell reads ``> 30 s`` when half or more of its runs hit the time limit, and notes any runs that
    timed out, failed or did not verify.
    """
    return _n_by_config(summarise(rows), lambda entry: _cell(entry, metric))


def _n_by_config(summary: Sequence[Mapping[str, Any]],
                 cell: Callable[[Mapping[str, Any] | None], str]) -> tuple[list[str], list[list[str]]]:
    """Header and body of an n x configuration table whose cells ``cell`` writes from each summary entry
    (None where a configuration has no entry at that n)."""
    labels, ns, cells = _grid(summary)
    return ["n", *labels], [[str(n), *(cell(cells.get((label, n))) for label in labels)] for n in ns]


def _range_table(summary: Sequence[Mapping[str, Any]]) -> tuple[list[str], list[list[str]]]:
    return _n_by_config(summary, lambda entry: "" if entry is None or entry["total_min"] is None else
                        f"{_seconds(entry['total_min'])} – {_seconds(entry['total_max'])}")


def _size_table(summary: Sequence[Mapping[str, Any]]) -> tuple[list[str], list[list[str]]] | None:
    columns: list[tuple[str, str, str]] = []  # (heading, what, config label): a column per model of one size
    for entry in summary:
        what = "clauses" if entry.get("clauses") is not None else (
            "constraints" if entry.get("constraints") is not None else None)
        if what is None:
            continue  # the method builds no model
        name = f"{entry['variant'] or entry['method']} " + ("vars / clauses" if what == "clauses" else "constraints")
        if all(c[0] != name for c in columns):
            columns.append((name, what, entry["config"]))
    if not columns:
        return None
    labels, ns, cells = _grid(summary)
    body = []
    for n in ns:
        line = [str(n)]
        for _heading, what, label in columns:
            cell = cells.get((label, n))
            if cell is None:
                line.append("")
            elif what == "clauses":
                line.append(f"{cell['variables']:,} / {cell['clauses']:,}"
                            if cell["clauses"] is not None and cell["variables"] is not None else "")
            else:
                line.append(f"{cell['constraints']:,}" if cell["constraints"] is not None else "")
        body.append(line)
    return ["n", *(c[0] for c in columns)], body


def _notes(rows: Sequence[Mapping[str, Any]], summary: Sequence[Mapping[str, Any]]) -> list[str]:
    notes: list[str] = []
    by_config: dict[str, list[Mapping[str, Any]]] = {}
    for entry in summary:
        by_config.setdefault(entry["config"], []).append(entry)
    for label, entries in by_config.items():
        timed = [f"n = {e['n']} ({e['timeouts']} of {e['runs']})" for e in entries if e["timeouts"]]
        if timed:
            limit = max(e["time_limit"] or 0 for e in entries)
            notes.append(f"{label} reached the {limit:g} s limit at " + ", ".join(timed) + ".")
        skipped = [e["n"] for e in entries if e["skipped"]]
        if skipped:
            notes.append(f"{label} was skipped from n = {min(skipped)} on after timing out at a smaller n.")
        unverified = [e["n"] for e in entries if e["unverified"]]
        if unverified:
            notes.append(f"WARNING: {label} returned boards that do NOT verify at n = "
                         + ", ".join(map(str, unverified)) + ".")
    errors: dict[tuple[str, str], list[int]] = {}
    for row in rows:
        if row["status"] == "error":
            label = _label(row)
            errors.setdefault((label, row.get("message") or "no message"), []).append(int(row["n"]))
    for (label, message), ns in errors.items():
        notes.append(f"{label} failed at n = {', '.join(map(str, sorted(set(ns))))}: {message}")
    notes += _agreement_notes(rows)
    if not notes:
        notes.append("No run timed out, failed or was skipped, and every solved board was verified.")
    return notes


def _label(row: Mapping[str, Any]) -> str:
    return choice_from_row(row).label


def _agreement_notes(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    """Infeasible instances, and any instance on which two configurations disagree (a bug somewhere)."""
    answers: dict[tuple[int, int, int, str], dict[str, str]] = {}
    for row in rows:
        if row["status"] in ("solved", "infeasible"):
            key = (int(row["n"]), int(row.get("instance") or 1), int(row["repeat"]), row.get("preplaced") or "")
            answers.setdefault(key, {})[_label(row)] = row["status"]
    notes = []
    infeasible = sorted({(n, placed) for (n, _i, _r, placed), seen in answers.items()
                         if set(seen.values()) == {"infeasible"}})
    if infeasible:
        shown = "; ".join(f"n = {n}" + (f" with queens at {placed}" if placed else "") for n, placed in infeasible[:8])
        more = f" and {len(infeasible) - 8} more" if len(infeasible) > 8 else ""
        notes.append(f"{len(infeasible)} instances have no solution (every method says infeasible): {shown}{more}.")
    known: dict[str, int] = {}
    for row in rows:
        if row["status"] == "infeasible":
            how = row.get("known_by") or "not recorded (a file from before the kit recorded it)"
            known[how] = known.get(how, 0) + 1
    if known:
        notes.append("How each \"no\" is known: " + ", ".join(f"{count} by {how}" for how, count in sorted(
            known.items())) + ".")
    for (n, instance, repeat, placed), seen in sorted(answers.items()):
        if len(set(seen.values())) > 1:
            verdicts = ", ".join(f"{label}: {status}" for label, status in seen.items())
            notes.append(f"DISAGREEMENT at n = {n}, " + (f"instance {instance}, " if instance > 1 else "")
                         + f"repeat {repeat}"
                         + (f" (queens at {placed})" if placed else "") + f": {verdicts}.")
    return notes


def _memory_table(summary: Sequence[Mapping[str, Any]]) -> tuple[list[str], list[list[str]]] | None:
    labels, ns, cells = _grid(summary)
    body = []
    for label in labels:
        measured = [cells[(label, n)] for n in ns if (label, n) in cells and cells[(label, n)]["peak_rss_mb"]]
        if not measured:
            continue
        first, last = measured[0], measured[-1]
        body.append([label, f"{first['peak_rss_mb']:.0f} (n = {first['n']})",
                     f"{last['peak_rss_mb']:.0f} (n = {last['n']})"])
    if not body:
        return None
    return ["configuration", "MB at the smallest n", "MB at the largest n"], body


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


def _mapping(value: Any) -> Mapping[str, Any]:
    """A sidecar field as a mapping; a hand-edited or damaged one (a list, a number) reads as empty."""
    return value if isinstance(value, Mapping) else {}


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


def _spread_cell(entry: Mapping[str, Any]) -> str:
    q1, q3, limit = entry["total_q1"], entry["total_q3"], entry["time_limit"]
    above = f"> {limit:g} s" if limit else "unsolved"
    iqr = (f"{_seconds(q1)} – {_seconds(q3)}" if q1 is not None and q3 is not None else
           f"{_seconds(q1)} – {above}" if q1 is not None else above if entry["runs"] else "")
    ratios = [f"{what} ×{value:.1f}" for what, value in (("instances", entry["between_instances"]),
                                                         ("repeats", entry["between_repeats"])) if value]
    return iqr + (f"; {', '.join(ratios)}" if ratios else "")


def report_blocks(rows: Sequence[Mapping[str, Any]], meta: Mapping[str, Any] | None, csv_name: str,
                  title: str | None = None, images: Sequence[str] = ()) -> list[Block]:
    """The report's content, independent of the output format."""
    summary = summarise(rows)
    labels, ns, _cells = _grid(summary)
    repeats = max((int(entry["runs"] or 0) for entry in summary), default=0)
    limits = sorted({row["time_limit"] for row in rows if row.get("time_limit")})
    placed = max((int(row.get("place_random") or 0) for row in rows), default=0)
    intro = (f"{len(rows)} runs from {csv_name}: {len(labels)} configurations ({', '.join(labels)}) at "
             f"n = {_ns_text(ns)}, up to {repeats} runs each. Every run had its own process"
             + (f" and a wall-clock limit of {limits[-1]:g} s" if limits else "")
             + "; times are measured inside it, after imports: build is making the formula or model, "
               "solve is the solver, total is both plus decoding and checking.")
    if placed:
        intro += (f" Each instance has {placed} randomly pre-placed non-attacking queens (the same for every "
                  "configuration at a given n and instance), so some have no completion.")
    blocks: list[Block] = [("h1", title or "Timing SAT against ILP on N-queens"), ("p", intro)]
    instances = _instance_counts(rows)
    if set(instances.values()) == {1}:
        blocks += _sampling_blocks(rows, meta, csv_name)
    header, body = medians_table(rows)
    blocks += [("h2", "Median time (build + solve)"), ("table", header, body),
               ("p", "A cell reads \"> L s\" when half or more of its runs hit the limit L.")]
    blocks += [("h2", "Solved runs and PAR-2"), ("table", *_par2_table(rows)),
               ("p", "Timeouts are censored data, not missing data: PAR-2 is the mean time with every run that hit "
                     "the limit counted as twice the limit (the SAT competition's score); the median counts them "
                     "as longer than every finished run; IQR is the interquartile range of the total times.")]
    if set(instances.values()) != {1}:
        blocks += _spread_blocks(rows, summary, instances)
    range_header, range_body = _range_table(summary)
    blocks.append(("details", "Fastest and slowest run", [("table", range_header, range_body)]))
    header, body = medians_table(rows, metric="solve")
    blocks.append(("details", "Median solve time only", [("table", header, body)]))
    blocks += [("h2", "How busy the machine was, and which clock to read"), *_load_blocks(meta),
               *_clock_blocks(rows, meta)]
    sizes = _size_table(summary)
    if sizes:
        blocks += [("h2", "Problem size"), ("table", *sizes)]
    if images:
        blocks.append(("h2", "Plots"))
        for name, alt, caption in PLOTS:
            if name in images:
                blocks += [("img", name, alt), ("p", caption)]
    blocks += [("h2", "Notes"), ("ul", _notes(rows, summary))]
    memory = _memory_table(summary)
    if memory:
        blocks += [("h3", "Peak memory"), ("table", *memory),
                   ("p", "Peak resident memory of the measuring process: Python, the imported libraries and the "
                         "formula or model.  An external solver process (CBC, a DIMACS binary) is not included.")]
    blocks += [("h2", "Environment"), *_environment_blocks(meta, csv_name)]
    versions = _versions_table(meta)
    if versions:
        blocks += [("h3", "Solvers, versions and options"), ("table", *versions)]
    return blocks


def _par2_table(rows: Sequence[Mapping[str, Any]]) -> tuple[list[str], list[list[str]]]:
    """Per configuration over all its runs: runs, solved, proved impossible, unsolved (a limit hit or the
    solver's own unknown), PAR-2, median and IQR of the total time, and the median CPU share of the wall
    time."""
    groups: dict[str, tuple[Choice, list[Mapping[str, Any]]]] = {}
    for row in rows:
        config = choice_from_row(row)
        groups.setdefault(config.label, (config, []))[1].append(row)
    body = []
    for label, (_config, group) in sorted(groups.items(), key=lambda item: config_order(item[1][0])):
        stats = censored_times(group)
        limit, median = stats["limit"], stats["median"]
        iqr = f"{_seconds(stats['q1'])} – {_seconds(stats['q3'])}" if stats["q3"] is not None else "—"
        cpu = [float(r["cpu_seconds"]) / float(r["total_seconds"]) for r in group
               if r["status"] in ("solved", "infeasible") and r.get("cpu_seconds") is not None
               and r.get("total_seconds")]
        body.append([label, str(len(group)), str(sum(r["status"] == "solved" for r in group)),
                     str(sum(r["status"] == "infeasible" for r in group)), str(stats["unsolved"]),
                     _seconds(stats["par2"]) if stats["par2"] is not None else "—",
                     _seconds(median) if median is not None else f"> {limit:g} s" if limit else "—", iqr,
                     f"{statistics.median(cpu):.0%}" if cpu else "—"])
    return (["configuration", "runs", "solved", "impossible", "unsolved", "PAR-2", "median", "IQR", "CPU / wall"],
            body)


def _versions_table(meta: Mapping[str, Any] | None) -> tuple[list[str], list[list[str]]] | None:
    if not meta:
        return None
    versions = _mapping(meta.get("solvers"))
    settings = _mapping(meta.get("solver_settings"))
    if not settings:
        return None
    body = []
    for label, options in settings.items():
        solver = label.split("/")[-1].split(",")[0] if "/" in label else label
        shown = ", ".join(f"{k} = {v}" for k, v in _mapping(options).items()) or "defaults"
        body.append([label, str(versions.get(solver) or "—"), shown])
    return ["configuration", "solver version", "options"], body


def _md_escape(text: str) -> str:
    return str(text).replace("|", "\\|")


def to_markdown(blocks: Sequence[Block]) -> str:
    """Render blocks as GitHub-flavoured Markdown."""
    out: list[str] = []
    for block in blocks:
        kind = block[0]
        if kind in ("h1", "h2", "h3"):
            out.append("#" * int(kind[1]) + " " + block[1])
        elif kind == "p":
            out.append(block[1])
        elif kind == "code":
            out.append("```\n" + block[1] + "\n```")
        elif kind == "ul":
            out.append("\n".join(f"- {item}" for item in block[1]))
        elif kind == "img":
            out.append(f"![{block[2]}]({block[1]})")
        elif kind == "table":
            header, body = block[1], block[2]
            # Numbers align right; a first column of names (not n) reads better on the left.
            align = [":---" if i == 0 and header[0] != "n" else "---:" for i in range(len(header))]
            lines = ["| " + " | ".join(map(_md_escape, header)) + " |", "|" + "|".join(align) + "|"]
            lines += ["| " + " | ".join(map(_md_escape, line)) + " |" for line in body]
            out.append("\n".join(lines))
        elif kind == "details":
            out.append(f"<details><summary>{block[1]}</summary>\n\n{to_markdown(block[2]).strip()}\n\n</details>")
    return "\n\n".join(out) + "\n"


def _html_body(blocks: Sequence[Block]) -> str:
    esc = html.escape
    body: list[str] = []
    for block in blocks:
        kind = block[0]
        if kind in ("h1", "h2", "h3"):
            body.append(f"<{kind}>{esc(block[1])}</{kind}>")
        elif kind == "p":
            body.append(f"<p>{esc(block[1])}</p>")
        elif kind == "code":
            body.append(f"<pre><code>{esc(block[1])}</code></pre>")
        elif kind == "ul":
            body.append("<ul>" + "".join(f"<li>{esc(item)}</li>" for item in block[1]) + "</ul>")
        elif kind == "img":
            body.append(f'<p><img src="{esc(block[1])}" alt="{esc(block[2])}"></p>')
        elif kind == "table":
            head = "".join(f"<th>{esc(h)}</th>" for h in block[1])
            rows = "".join("<tr>" + "".join(f"<td>{esc(c)}</td>" for c in line) + "</tr>" for line in block[2])
            body.append(f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>")
        elif kind == "details":
            body.append(f"<details><summary>{esc(block[1])}</summary>{_html_body(block[2])}</details>")
    return "\n".join(body)


def to_html(blocks: Sequence[Block], title: str = "Timing report") -> str:
    """Render blocks as one self-contained HTML page (images linked, not embedded)."""
    esc = html.escape
    style = ("body{font-family:system-ui,sans-serif;max-width:60em;margin:2em auto;padding:0 1em;line-height:1.45}"
             "table{border-collapse:collapse;margin:1em 0}th,td{border:1px solid #ccc;padding:.25em .6em;"
             "text-align:right}th{background:#f3f3f3}img{max-width:100%}pre{background:#f6f6f6;padding:.6em;"
             "overflow-x:auto}")
    return (f"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{esc(title)}</title>"
            f"<style>{style}</style></head>\n<body>\n" + _html_body(blocks) + "\n</body></html>\n")


def printable(text: Any) -> str:
    """Text a page can hold: a command line's undecodable bytes (kept by Python as lone surrogates) shown as
    the replacement character instead of failing the write."""
    return os.fsencode(os.fspath(text) if isinstance(text, os.PathLike) else str(text)).decode("utf-8", "replace")


def write_report(csv_path: str | os.PathLike[str], out_dir: str | os.PathLike[str],
                 title: str | None = None) -> Path:
    """Write ``README.md``, ``index.html`` and the three plots into ``out_dir``; returns the README's path.

    The folder is created if missing (its parent must exist); files of an earlier report there are
    replaced, since they are derived from the CSV, by the kit's rule for files it writes
    (:mod:`nqueens_kit.runtime.files`: through a symbolic link, never over a device, a FIFO or a folder).
    """
    from ..viz.charts import plot_build_solve, plot_cactus, plot_ecdf, plot_size, plot_time, save_figure

    rows = read_results(csv_path)
    if not rows:
        raise InputError(f"{printable(csv_path)} holds no results yet; run nqueens-kit bench first")
    title = None if title is None else printable(title)
    folder = Path(out_dir)
    try:
        kind = file_kind(os.stat(folder).st_mode)
    except FileNotFoundError:
        kind = None
    except OSError as exc:
        raise InputError(f"cannot write the report in {printable(folder)}: {exc.strerror or exc}") from None
    if kind == "a regular file":
        raise InputError(f"{printable(folder)} is a file; give a folder for the report")
    if kind not in (None, "a folder"):
        raise InputError(f"{printable(folder)} is {kind}; give a folder for the report")
    if kind is None and os.path.islink(folder):
        raise InputError(f"{printable(folder)} is a symbolic link to {printable(os.readlink(folder))}, which does "
                         "not exist; give a folder for the report")
    if not folder.parent.is_dir():
        raise InputError(f"cannot create {folder}: the folder {folder.parent} does not exist")
    try:
        folder.mkdir(exist_ok=True)
    except OSError as exc:
        raise InputError(f"cannot create {folder}: {exc.strerror or exc}") from None
    for name in [image for image, _alt, _caption in PLOTS] + ["README.md", "index.html"]:
        output_path(folder / name, "the report")  # before anything is drawn: no device, FIFO or folder there
    images = []
    drawings: tuple[Callable[[Sequence[Mapping[str, Any]]], Any], ...] = (plot_time, plot_size, plot_build_solve,
                                                                          plot_cactus, plot_ecdf)
    for (name, _alt, _caption), draw in zip(PLOTS, drawings, strict=True):
        save_figure(draw(rows), folder / name)
        images.append(name)
    blocks = report_blocks(rows, read_meta(csv_path), printable(Path(csv_path).name), title, images)
    page = folder / "README.md"
    write_whole(page, printable(to_markdown(blocks)), what="the report")
    write_whole(folder / "index.html", printable(to_html(blocks, title or blocks[0][1])), what="the report")
    return page
