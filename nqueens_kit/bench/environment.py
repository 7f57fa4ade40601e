"""What the sidecar of a results file records about the machine and the software.

:func:`environment` is an explicit call (it runs ``cbc -quit`` and ``SOLVER --version`` to read versions):
the machine (CPU model, cores, memory, frequency governor and turbo where Linux tells), the load average,
Python and package versions, each solver's version and settings, and the kit's git revision when it runs
from a checkout.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shlex
import subprocess
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime, timezone
from pathlib import Path

from .. import __version__
from ..errors import NQueensError
from ..methods import Choice, get_method
from ..problem.results import Options
from ..runtime.files import write_whole
from ..runtime.limits import physical_memory
from ..solvers.base import package_version
from .results import Meta

PACKAGES = ("pycosat", "pulp", "cbcbox", "highspy", "python-sat", "ortools", "pyganak", "matplotlib", "tqdm", "numpy",
            "numba")


def now() -> str:
    return datetime.now(timezone.utc).astimezone().isoformat(timespec="seconds")


def load_average() -> list[float] | None:
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except (OSError, AttributeError):
        return None


def _read(path: str) -> str | None:
    try:
        return Path(path).read_text(encoding="ascii", errors="replace").strip()
    except OSError:
        return None


def cpu_model() -> str:
    for line in (_read("/proc/cpuinfo") or "").splitlines():
        if line.lower().startswith("model name"):
            return line.split(":", 1)[1].strip()
    return platform.processor() or platform.machine()


def physical_cores() -> int | None:
    """Physical cores (hyper-threads not counted), from /proc/cpuinfo; None where it cannot be told."""
    cores = set()
    physical = core = None
    for line in (_read("/proc/cpuinfo") or "").splitlines():
        key, _, value = line.partition(":")
        key = key.strip()
        if key == "physical id":
            physical = value.strip()
        elif key == "core id":
            core = value.strip()
        elif not line.strip() and core is not None:
            cores.add((physical, core))
            physical = core = None
    if core is not None:
        cores.add((physical, core))
    return len(cores) or None


def git_revision() -> str | None:
    """The kit's git revision (with ``-dirty`` for local changes) when it runs from a checkout."""
    root = Path(__file__).resolve().parents[2]
    if not (root / ".git").exists():
        return None
    try:
        head = subprocess.run(["git", "-C", str(root), "describe", "--always", "--dirty"], capture_output=True,
                              text=True, timeout=5, check=False).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return head or None


def solver_versions(configs: Iterable[Choice]) -> dict[str, str | None]:
    versions: dict[str, str | None] = {}
    for config in configs:
        if config.solver and config.solver not in versions:
            try:
                solver = get_method(config.method).solver(config.solver)
            except NQueensError:  # a solver that vanished since the sweep was planned
                versions[config.solver] = None
                continue
            versions[config.solver] = solver.version() if solver.available() else None
    return versions


def solver_settings(configs: Iterable[Choice]) -> dict[str, Options]:
    """The solver options each configuration runs with (what ``SolveResult.options`` records)."""
    settings: dict[str, Options] = {}
    for config in configs:
        if config.solver:
            settings[config.label] = get_method(config.method).options(config) or {"settings": "default"}
    return settings


def environment(configs: Sequence[Choice] = ()) -> Meta:
    """The machine, the software and the solvers' versions and settings (see the module docstring)."""

    memory = physical_memory()
    return {
        "created": now(),
        "machine": {
            "platform": platform.platform(), "machine": platform.machine(), "cpu": cpu_model(),
            "cpu_count": os.cpu_count(), "physical_cores": physical_cores(),
            "memory_gb": round(memory / 1024**3, 1) if memory else None,
            "governor": _read("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"),
            "turbo": {"intel_no_turbo": _read("/sys/devices/system/cpu/intel_pstate/no_turbo"),
                      "boost": _read("/sys/devices/system/cpu/cpufreq/boost")},
        },
        "python": {"version": platform.python_version(), "implementation": platform.python_implementation(),
                   "executable": sys.executable},
        "packages": {name: package_version(name) for name in PACKAGES} | {"nqueens-kit": __version__},
        "kit_revision": git_revision(),
        "solvers": solver_versions(configs),
        "solver_settings": solver_settings(configs),
    }


def emit_record(record: Mapping[str, object], out: str | os.PathLike[str] | None = None) -> int:
    """What a benchmark script that makes a chapter's stored record ends with: the record as JSON, written whole
    to ``out`` when one is named (the old file stays until the new one is complete) and printed; exit status 0."""
    text = json.dumps(record, indent=1) + "\n"
    if out:
        write_whole(out, text)
    print(text, end="")
    return 0


def record_main(make: Callable[[], Mapping[str, object]], description: str,
                argv: Sequence[str] | None = None) -> int:
    """The whole command line of a benchmark script whose record takes no options: ``-o FILE`` (write the
    record there as well) and ``--help`` with ``description``; then :func:`emit_record` of ``make()``."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("-o", "--out", help="write the record to this JSON file")
    args = parser.parse_args(argv)
    return emit_record(make(), args.out)


def command_line(argv: Sequence[str] | None = None) -> str:
    """The command as typed, for the sidecar and the resume hint."""
    args = list(sys.argv[1:] if argv is None else argv)
    return shlex.join(["nqueens-kit", *args])
