"""A report of a timing sweep, ready to paste into a course report: Markdown and HTML with PNG plots.

Inside:

- :func:`write_report`: a results CSV (and its sidecar) to ``README.md``, ``index.html``, ``time.png``,
  ``size.png`` and ``build-solve.png`` in one folder.
- :func:`report_blocks`: the report as a list of blocks (headings, paragraphs, tables, images, lists);
  :func:`to_markdown` and :func:`to_html` render them, so the two versions cannot drift apart.
- :func:`medians_table`: the n x configuration table of median times.

>>> rows = [{"n": n, "method": "sat", "encoding": "pairwise", "solver": "pycosat", "repeat": 1,
...          "status": "solved", "verified": True, "total_seconds": 0.5 * n} for n in (4, 8)]
>>> header, body = medians_table(rows)
>>> header, body
(['n', 'SAT pairwise/pycosat'], [['4', '2 s'], ['8', '4 s']])
"""

from __future__ import annotations

import html
import os
import statistics
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ..errors import InputError
from ..methods import Choice
from ..runtime.files import file_kind, output_path, write_whole
from .config import choice_from_row, config_order
from .results import read_meta, read_results
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
    labels, ns, cells = _grid(summarise(rows))
    body = [[str(n), *(_cell(cells.get((label, n)), metric) for label in labels)] for n in ns]
    return ["n", *labels], body


def _range_table(summary: Sequence[Mapping[str, Any]]) -> tuple[list[str], list[list[str]]]:
    labels, ns, cells = _grid(summary)
    body = []
    for n in ns:
        line = [str(n)]
        for label in labels:
            entry = cells.get((label, n))
            if entry is None or entry["total_min"] is None:
                line.append("")
            else:
                line.append(f"{_seconds(entry['total_min'])} – {_seconds(entry['total_max'])}")
        body.append(line)
    return ["n", *labels], body


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
    answers: dict[tuple[int, int, str], dict[str, str]] = {}
    for row in rows:
        if row["status"] in ("solved", "infeasible"):
            instance = (int(row["n"]), int(row["repeat"]), row.get("preplaced") or "")
            answers.setdefault(instance, {})[_label(row)] = row["status"]
    notes = []
    infeasible = sorted({(n, placed) for (n, _r, placed), seen in answers.items()
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
    for (n, repeat, placed), seen in sorted(answers.items()):
        if len(set(seen.values())) > 1:
            verdicts = ", ".join(f"{label}: {status}" for label, status in seen.items())
            notes.append(f"DISAGREEMENT at n = {n}, repeat {repeat}"
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
        return [("p", f"No sidecar ({csv_name}.meta.json) was found, so the machine and versions are unknown.")]
    machine = _mapping(meta.get("machine"))
    python = _mapping(meta.get("python"))
    items = [
        f"Machine: {machine.get('cpu', '?')}, {machine.get('cpu_count', '?')} logical CPUs, "
        f"{machine.get('memory_gb', '?')} GB memory; {machine.get('platform', '?')}",
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
        items.append(f"Sweep: n = {_ns_text(ns)}; {sweep.get('repeat')} repeats; {limit}"
                     + (f"; {sweep['place_random']} random pre-placed queens, seed {sweep.get('seed')}"
                        if sweep.get("place_random") else ""))
    blocks: list[Block] = [("ul", items)]
    sessions = meta.get("sessions")
    for session in sessions if isinstance(sessions, list) else []:
        if not isinstance(session, Mapping):
            continue
        when = session.get("started", "?")
        how = "resumed" if session.get("resumed") else "started"
        text = f"Sweep {how} {when}" + (f", finished {session['finished']}" if session.get("finished") else "")
        if session.get("finished") and not session.get("complete", True):
            text += " (interrupted)"
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
                  "configuration at a given n and repeat), so some have no completion.")
    blocks: list[Block] = [("h1", title or "Timing SAT against ILP on N-queens"), ("p", intro)]
    header, body = medians_table(rows)
    blocks += [("h2", "Median time (build + solve)"), ("table", header, body),
               ("p", "A cell reads \"> L s\" when half or more of its runs hit the limit L.")]
    blocks += [("h2", "Solved runs and PAR-2"), ("table", *_par2_table(rows)),
               ("p", "Timeouts are censored data, not missing data: PAR-2 is the mean time with every run that hit "
                     "the limit counted as twice the limit (the SAT competition's score); the median counts them "
                     "as longer than every finished run; IQR is the interquartile range of the total times.")]
    range_header, range_body = _range_table(summary)
    blocks.append(("details", "Fastest and slowest run", [("table", range_header, range_body)]))
    header, body = medians_table(rows, metric="solve")
    blocks.append(("details", "Median solve time only", [("table", header, body)]))
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
