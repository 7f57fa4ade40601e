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

Its parts: :mod:`.tables` (the tables and notes), :mod:`.conditions` (the machine, its load, the clocks, the
sampling) and :mod:`.render` (Markdown and HTML); their public names are importable from here too.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ..errors import InputError
from ..runtime.files import file_kind, output_path, write_whole
from .conditions import SAMPLE_INSTANCES as SAMPLE_INSTANCES
from .conditions import (
    _clock_blocks,
    _environment_blocks,
    _instance_counts,
    _load_blocks,
    _ns_text,
    _sampling_blocks,
    _spread_blocks,
)
from .conditions import busy_reading as busy_reading
from .render import printable as printable
from .render import to_html as to_html
from .render import to_markdown as to_markdown
from .results import read_meta, read_results
from .summary import summarise
from .tables import Block as Block
from .tables import Grid as Grid
from .tables import _grid, _memory_table, _notes, _par2_table, _range_table, _size_table, _versions_table
from .tables import medians_table as medians_table

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
