"""The report's tables, each a :data:`Block` of rows: medians with their interquartile ranges
(:func:`medians_table`), problem sizes, memory, PAR-2, versions, and the notes on timeouts, failures and
answers that disagree.  :mod:`.report` assembles them and re-exports the public names here.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from ..methods import Choice
from .config import choice_from_row, config_order
from .summary import censored_times, summarise

Block = tuple[Any, ...]


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


def _mapping(value: Any) -> Mapping[str, Any]:
    """A sidecar field as a mapping; a hand-edited or damaged one (a list, a number) reads as empty."""
    return value if isinstance(value, Mapping) else {}


def _spread_cell(entry: Mapping[str, Any]) -> str:
    q1, q3, limit = entry["total_q1"], entry["total_q3"], entry["time_limit"]
    above = f"> {limit:g} s" if limit else "unsolved"
    iqr = (f"{_seconds(q1)} – {_seconds(q3)}" if q1 is not None and q3 is not None else
           f"{_seconds(q1)} – {above}" if q1 is not None else above if entry["runs"] else "")
    ratios = [f"{what} ×{value:.1f}" for what, value in (("instances", entry["between_instances"]),
                                                         ("repeats", entry["between_repeats"])) if value]
    return iqr + (f"; {', '.join(ratios)}" if ratios else "")


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
