"""The stored runs a chapter reads: a study too long for a lecture cell, and the live run a chapter cannot do
on a machine without the program it needs (MiniZinc, an external DIMACS solver), shown in its place.

Each record is a JSON file in the chapters' ``data/`` folder, written by the benchmark that made it (its
``command``), with the machine and the versions that ran (``environment``, from
:func:`nqueens_kit.bench.environment.environment`).  :func:`read_record` finds it where the chapter runs (its
working copy's ``data/``) or in the kit's own copy; :func:`made_by` says in one line where a record comes from,
so a reader never takes a stored figure for one of this machine's; :func:`stand_in` is the one line a chapter
prints when a tool is missing and a stored run takes the live one's place.

>>> record = read_record("ch8-first-fail.json")
>>> made_by(record).startswith("stored: made by python benchmarks/bench_ch8_first_fail.py")
True
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..errors import InputError


def data_path(name: str, folder: str | os.PathLike[str] | None = None) -> Path:
    """The file ``name`` of the chapters' data: in ``folder`` if given, else in the working directory's
    ``data/`` (a chapter runs in its own folder), else in the kit's own copy of the notebooks."""
    from .notebooks import notebooks_folder

    candidates = [Path(folder)] if folder is not None else [Path("data")]
    if folder is None:
        try:
            candidates.append(notebooks_folder() / "data")
        except InputError:  # an installation without its notebooks: only the working directory
            pass
    for base in candidates:
        if (base / name).is_file():
            return base / name
    raise InputError(f"no {name} in {' or '.join(str(c) for c in candidates)}; the chapters' data folder holds it "
                     "(nqueens-kit notebooks DEST copies it with the chapters)")


def read_record(name: str, folder: str | os.PathLike[str] | None = None) -> dict[str, Any]:
    """The stored record ``name`` (a JSON object), found by :func:`data_path`."""
    path = data_path(name, folder)
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise InputError(f"cannot read the stored record {path}: {exc}") from None
    if not isinstance(record, dict):
        raise InputError(f"the stored record {path} is not a JSON object")
    return record


def made_by(record: Mapping[str, Any], *, solvers: bool = True) -> str:
    """One line: the command that made ``record``, the machine (processor, cores), the day, and the versions of
    the solvers it ran (``solvers``) and of Python."""
    environment = record.get("environment") or {}
    machine = environment.get("machine") or {}
    day = str(environment.get("created") or "")[:10] or "an unrecorded day"
    versions = [_named(str(name), str(version)) for name, version in (environment.get("solvers") or {}).items()
                if version] if solvers else []
    python = (environment.get("python") or {}).get("version")
    if python:
        versions.append(f"Python {python}")
    where = f"{machine.get('cpu', 'an unrecorded machine')} ({machine.get('cpu_count', '?')} cores)"
    return (f"stored: made by {record.get('command', 'an unrecorded command')} on {where}, {day}"
            + (f", with {', '.join(versions)}" if versions else ""))


def _named(name: str, version: str) -> str:
    """A solver's version as a reader can place it: its name beside what the solver answered for its version
    (a program without a version option answers with its path: then the name alone)."""
    if version.startswith(("/", "\\")) or version.lower() == name.lower():
        return name
    return version if name.lower().split("-")[0].rstrip("0123456789") in version.lower() else f"{name} {version}"


def stand_in(missing: str, hint: str, record: Mapping[str, Any]) -> str:
    """What a chapter prints when ``missing`` is not installed and the stored run of ``record`` is shown in
    the live run's place: one line saying so (and how to install it), one saying where the stored run comes
    from."""
    return f"{missing} is not installed here, so its stored run is shown instead (to run it live: {hint})\n" \
           f"{made_by(record)}"


__all__ = ["data_path", "made_by", "read_record", "stand_in"]
