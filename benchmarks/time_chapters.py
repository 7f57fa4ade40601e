"""Measure how long each chapter takes to run top to bottom on a fresh kernel, at its full sizes and at its
small ones (``CI`` set, as under test and in the browser), cell by cell; store the result in
``notebooks/data/chapter-times.json``, which each chapter's first cell reads
(:func:`nqueens_kit.course.lessons.running_time`) and ``tests/test_notebooks.py`` holds to the budget
(:data:`nqueens_kit.course.lessons.TIME_BUDGET`: 60 s a chapter, 10 s a cell, 20 s at the small sizes).

    python benchmarks/time_chapters.py                 # every chapter, then write the file
    python benchmarks/time_chapters.py 05-sat-vs-ilp   # one chapter, the others' stored figures kept

Measure on a quiet machine: the figures are wall-clock seconds of this machine, stored with its core count,
its load before and after, and the versions that ran.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import sys
import time
from importlib import metadata
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
OUT = NOTEBOOKS / "data" / "chapter-times.json"
VERSIONS = ("nqueens-kit", "pycosat", "pulp", "highspy", "python-sat", "ortools", "numpy", "matplotlib")


def run_chapter(path: Path, small: bool) -> dict:
    """Run one chapter on a fresh kernel; its total and slowest cell in seconds (wall clock)."""
    env_before = os.environ.get("CI")
    if small:
        os.environ["CI"] = "true"
    else:
        os.environ.pop("CI", None)
    try:
        nb = nbformat.read(path, as_version=4)
        client = NotebookClient(nb, timeout=1800, kernel_name="python3",
                                resources={"metadata": {"path": str(path.parent)}})
        cells = []
        start = time.perf_counter()
        with client.setup_kernel():
            for index, cell in enumerate(nb.cells):
                if cell.cell_type == "code":
                    began = time.perf_counter()
                    client.execute_cell(cell, index)
                    cells.append((time.perf_counter() - began, index))
        total = time.perf_counter() - start
    finally:
        if env_before is None:
            os.environ.pop("CI", None)
        else:
            os.environ["CI"] = env_before
    slowest, at = max(cells, default=(0.0, None))
    return {"total": round(total, 1), "slowest_cell": round(slowest, 1), "slowest_cell_index": at}


def versions() -> dict[str, str | None]:
    found: dict[str, str | None] = {}
    for name in VERSIONS:
        try:
            found[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            found[name] = None
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("chapters", nargs="*", help="chapter names (e.g. 05-sat-vs-ilp); default: all")
    parser.add_argument("-o", "--out", type=Path, default=OUT, help=f"where to write (default {OUT})")
    args = parser.parse_args(argv)
    paths = sorted(NOTEBOOKS.glob("[0-9][0-9]-*.ipynb"))
    known = {p.stem: p for p in paths}
    unknown = [c for c in args.chapters if c not in known]
    if unknown:
        parser.error(f"unknown chapter {unknown[0]!r}; valid: {', '.join(known)}")
    chosen = [known[c] for c in args.chapters] if args.chapters else paths
    stored = json.loads(args.out.read_text()) if args.out.is_file() and args.chapters else {"chapters": {}}
    load_before = os.getloadavg()[0]
    for path in chosen:
        entry = {"full": run_chapter(path, small=False), "small": run_chapter(path, small=True)}
        stored["chapters"][path.stem] = entry
        print(f"{path.stem}: {entry['full']['total']:.1f} s full (slowest cell {entry['full']['slowest_cell']:.1f} s"
              f" at {entry['full']['slowest_cell_index']}), {entry['small']['total']:.1f} s small", flush=True)
    stored["machine"] = {
        "cpus": os.cpu_count(),
        "date": datetime.date.today().isoformat(),
        "load_before": round(load_before, 2),
        "load_after": round(os.getloadavg()[0], 2),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "versions": versions(),
    }
    stored["command"] = "python benchmarks/time_chapters.py" + "".join(f" {c}" for c in args.chapters)
    args.out.write_text(json.dumps(stored, indent=1, sort_keys=True) + "\n")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
