"""Run every chapter top to bottom on a fresh kernel, as a reader runs it, and measure it: wall time and the
processor time of the kernel and every process it started, per chapter and per cell, at the full sizes (a
reader's Run All) and at the small ones (``CI`` set, as under test and in the browser).

    python benchmarks/time_chapters.py                 # every chapter, both sizes, then store the figures
    python benchmarks/time_chapters.py 05-sat-vs-ilp   # one chapter, the others' stored figures kept
    python benchmarks/time_chapters.py --check --copy --bare-path   # the course as a newcomer runs it

The stored figures (``notebooks/data/chapter-times.json``) are what each chapter's first cell prints
(:func:`nqueens_kit.course.lessons.running_time`) and what ``tests/test_notebooks.py`` holds to a lecture's
budget (:data:`nqueens_kit.course.lessons.TIME_BUDGET`).  Measure them on a quiet machine: they are that
machine's seconds, stored with its core count, its load before and after, and the versions that ran.

``--check`` is the course as it is used, which CI runs (``make test-course``, and ``make test-lowest`` at the
lowest allowed versions): every chapter at its full sizes in normal mode (no ``CI``, no pytest), nothing
stored; it ends with status 1 naming the chapter, the cell and the error if any cell raises.  ``--copy`` runs
the chapters in a working copy made by ``nqueens-kit notebooks`` (what ``make run`` opens), never the tracked
files; ``--bare-path`` hides the programs of the Debian packages ``make test`` installs (``SOLVER_PACKAGES``),
so the chapters see only what ``make run`` or ``pip install "nqueens-kit[course]"`` installs.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from importlib import metadata
from pathlib import Path

import nbformat
import psutil
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
OUT = NOTEBOOKS / "data" / "chapter-times.json"
VERSIONS = ("nqueens-kit", "pycosat", "pulp", "highspy", "python-sat", "ortools", "pyscipopt", "numpy",
            "numba", "matplotlib")
#: The Debian packages whose programs ``--bare-path`` hides: the solvers and the browser that ``make test``
#: installs (and CBC, which a machine may have from elsewhere).  Neither ``make run`` nor pip installs them.
SOLVER_PACKAGES = ("minisat", "cadical", "picosat", "cryptominisat", "minizinc", "gecode", "flatzinc",
                   "coinor-cbc", "chromium", "kissat")
#: Programs hidden by name as well, for a machine without dpkg or with them installed by other means.
SOLVER_PROGRAMS = ("minisat", "cadical", "mobical", "picosat", "picomus", "cryptominisat5", "cryptominisat",
                   "minizinc", "fzn-gecode", "flatzinc", "mzn2doc", "cbc", "clp", "highs", "kissat", "chromium",
                   "glucose", "lingeling", "ganak", "scip")
#: What the kernel must not inherit: under pytest or with CI set a chapter takes its small sizes.
TEST_MARKERS = ("CI", "PYTEST_VERSION", "PYTEST_CURRENT_TEST", "PYTEST_XDIST_WORKER", "PYTEST_XDIST_WORKER_COUNT")


def _kernel_cpu(pid: int | None) -> float:
    """Processor seconds of the kernel and its finished children so far (0 when it cannot be read)."""
    if pid is None:
        return 0.0
    try:
        times = psutil.Process(pid).cpu_times()
    except psutil.Error:
        return 0.0
    return times.user + times.system + times.children_user + times.children_system


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_chapter(path: Path, small: bool, keep: Path | None = None) -> dict:
    """Run one chapter on a fresh kernel in its own folder.  Its wall time top to bottom, and its processor
    time: the kernel's and that of every process it started and waited for, from the kernel's start to its
    end (its start-up and imports included), and the slowest cell by each clock."""
    saved = {name: os.environ.pop(name) for name in TEST_MARKERS if name in os.environ}
    if small:
        os.environ["CI"] = "true"
    nb = nbformat.read(path, as_version=4)
    try:
        client = NotebookClient(nb, timeout=1800, kernel_name="python3",
                                resources={"metadata": {"path": str(path.parent)}})
        walls, cpus = [], []
        cpu_before = _children_cpu()
        start = time.perf_counter()
        with client.setup_kernel():
            provisioner = getattr(client.km, "provisioner", None)
            pid = getattr(getattr(provisioner, "process", None), "pid", None)
            for index, cell in enumerate(nb.cells):
                if cell.cell_type == "code":
                    began, began_cpu = time.perf_counter(), _kernel_cpu(pid)
                    client.execute_cell(cell, index)
                    walls.append((round(time.perf_counter() - began, 1), index))
                    cpus.append((round(_kernel_cpu(pid) - began_cpu, 1), index))
        total = time.perf_counter() - start
        cpu = _children_cpu() - cpu_before  # the kernel was reaped on leaving the block: its whole tree
    finally:
        if keep is not None:  # what the reader saw, outputs and all (also when a cell failed)
            keep.mkdir(parents=True, exist_ok=True)
            nbformat.write(nb, keep / path.name)
        os.environ.pop("CI", None)
        os.environ.update(saved)
    slowest, at = max(walls, default=(0.0, None))
    slowest_cpu, at_cpu = max(cpus, default=(0.0, None))
    return {"total": round(total, 1), "slowest_cell": slowest, "slowest_cell_index": at,
            "cpu": round(cpu, 1), "slowest_cell_cpu": slowest_cpu, "slowest_cell_cpu_index": at_cpu}


def versions() -> dict[str, str | None]:
    found: dict[str, str | None] = {}
    for name in VERSIONS:
        try:
            found[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            found[name] = None
    return found


def _packaged_programs() -> set[str]:
    """The files the Debian packages of :data:`SOLVER_PACKAGES` installed (none without dpkg)."""
    files: set[str] = set()
    if shutil.which("dpkg-query") is None:
        return files
    for package in SOLVER_PACKAGES:
        listed = subprocess.run(["dpkg-query", "-L", package], capture_output=True, text=True, check=False)
        if listed.returncode == 0:
            files.update(line.strip() for line in listed.stdout.splitlines() if line.strip())
    return files


def bare_path(folder: Path) -> tuple[str, list[str]]:
    """A PATH without the solver programs: this Python's own folder first, then ``folder``, filled with links
    to every other program on today's PATH.  Returns the PATH and the names hidden."""
    packaged = _packaged_programs()
    hidden: set[str] = set()
    folder.mkdir(parents=True, exist_ok=True)
    for entry in os.environ.get("PATH", "").split(os.pathsep):
        if not entry or not os.path.isdir(entry):
            continue
        for name in sorted(os.listdir(entry)):
            program = os.path.join(entry, name)
            if not (os.path.isfile(program) and os.access(program, os.X_OK)) or (folder / name).exists():
                continue
            if (name in SOLVER_PROGRAMS or program in packaged or os.path.realpath(program) in packaged
                    or name.startswith(("cryptominisat", "fzn-", "mzn"))):
                hidden.add(name)
                continue
            (folder / name).symlink_to(program)
    own = str(Path(sys.executable).parent)
    return os.pathsep.join([own, str(folder)]), sorted(hidden)


def working_copy(folder: Path) -> Path:
    """The chapters copied into ``folder`` by the installed kit's own command, as ``make run`` does."""
    command = [sys.executable, "-m", "nqueens_kit", "notebooks", str(folder)]
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    return folder


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("chapters", nargs="*", help="chapter names (e.g. 05-sat-vs-ilp); default: all")
    parser.add_argument("-o", "--out", type=Path, default=OUT, help=f"where to store the figures (default {OUT})")
    parser.add_argument("--check", action="store_true",
                        help="run at the full sizes only, store nothing, fail on the first cell that raises")
    parser.add_argument("--copy", action="store_true", help="run a working copy made by nqueens-kit notebooks")
    parser.add_argument("--keep", type=Path, default=None, metavar="DIR",
                        help="write each executed chapter, outputs and all, into DIR")
    parser.add_argument("--bare-path", action="store_true",
                        help="hide the Debian solver programs, as on a machine where only pip installed")
    args = parser.parse_args(argv)
    paths = sorted(NOTEBOOKS.glob("[0-9][0-9]-*.ipynb"))
    known = {p.stem: p for p in paths}
    unknown = [c for c in args.chapters if c not in known]
    if unknown:
        parser.error(f"unknown chapter {unknown[0]!r}; valid: {', '.join(known)}")
    chosen = [c for c in known if not args.chapters or c in args.chapters]
    scratch = Path(tempfile.mkdtemp(prefix="nqueens-kit-chapters-"))
    try:
        where = working_copy(scratch / "course") if args.copy else NOTEBOOKS
        if args.bare_path:
            os.environ["PATH"], hidden = bare_path(scratch / "bin")
            print(f"hidden from PATH: {', '.join(hidden) or 'nothing (none of them installed)'}", flush=True)
        print(f"running the chapters in {where} with {sys.executable} ({platform.python_version()}); versions: "
              + ", ".join(f"{k} {v}" for k, v in versions().items() if v), flush=True)
        return _run(args, [where / f"{c}.ipynb" for c in chosen])
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _run(args: argparse.Namespace, chosen: list[Path]) -> int:
    stored = json.loads(args.out.read_text()) if args.out.is_file() and args.chapters else {"chapters": {}}
    load_before = os.getloadavg()[0]
    failed = []
    for path in chosen:
        try:
            full = run_chapter(path, small=False, keep=args.keep)
            entry = {"full": full} if args.check else {"full": full, "small": run_chapter(path, small=True)}
        except CellExecutionError as error:
            failed.append(path.stem)
            print(f"{path.stem}: FAILED at its full sizes\n{error}", flush=True)
            continue
        stored["chapters"][path.stem] = entry
        line = (f"{path.stem}: full {full['total']:.1f} s wall, {full['cpu']:.1f} s CPU (slowest cell "
                f"{full['slowest_cell_cpu']:.1f} s CPU at {full['slowest_cell_cpu_index']})")
        if "small" in entry:
            line += f"; small {entry['small']['total']:.1f} s wall, {entry['small']['cpu']:.1f} s CPU"
        print(line, flush=True)
    load_after = os.getloadavg()[0]
    print(f"load average {load_before:.2f} before, {load_after:.2f} after, {os.cpu_count()} cores", flush=True)
    if args.check:
        if failed:
            print(f"{len(failed)} of {len(chosen)} chapters failed: {', '.join(failed)}", flush=True)
            return 1
        print(f"all {len(chosen)} chapters ran to their end at full size", flush=True)
        return 0
    if failed:
        return 1
    stored["machine"] = {
        "cpus": os.cpu_count(),
        "date": datetime.date.today().isoformat(),
        "load_before": round(load_before, 2),
        "load_after": round(load_after, 2),
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
