"""What each chapter holds, read from the chapters themselves (the notebooks this installation keeps): its
title, its exercises and the kit's checkers they call, the apps it shows, the earlier chapters its text
refers back to, and its stored running time.  The book's guide for lecturers (``book/lecturers.md``) is held
to these by ``tests/test_lecturers_guide.py``, and the site fills the guide's table of running times from
:func:`times_table` when it is built.

- :func:`chapters`: every chapter's file name (without ``.ipynb``) and title;
- :func:`exercises`: per chapter, its exercises (:class:`Exercise`): number, title, the checkers its cells
  call and what the student hands them (``"code"``, a function the checker tries on many inputs, or
  ``"answer"``, a result worked out: a proof, a clause, cells, multipliers, a count);
- :func:`apps`: per chapter, the apps it shows (the functions of :mod:`nqueens_kit.apps` whose widget ends a
  cell);
- :func:`refers_back`: per chapter, the earlier chapters its prose names;
- :func:`times_table` and :func:`fill_times`: the stored running times as a Markdown table, and a page with
  its table filled in.

>>> [exercise.checkers for exercise in exercises()["01-rules-to-clauses"] if exercise.number == 4]
[('check_resolution_proof',)]
>>> apps()["01-rules-to-clauses"]
('formula_explorer',)
"""

from __future__ import annotations

import ast
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from ..errors import InputError
from .notebooks import notebooks_folder

#: The lines that enclose the table of running times in a page (``book/lecturers.md``).
TIMES_BEGIN = "<!-- chapter times: begin -->"
TIMES_END = "<!-- chapter times: end -->"

#: An exercise's first line: ``**3.`` or ``**3. A title (self-checking).**``.
_EXERCISE = re.compile(r"^\*\*(\d+)\.(.*?)\*\*", re.M)
#: A worked solution's code, in a chapter's Markdown.
_CODE_BLOCK = re.compile(r"```python\n(.*?)```", re.S)
#: A call of one of the kit's checkers.
_CHECKER_CALL = re.compile(r"\b(check_\w+)\(")
#: A chapter named in the prose: "chapter 3", "chapters 1 to 4", "chapters 2 and 3", "chapters 1–5".
_CHAPTER_REFERENCE = re.compile(r"\b[Cc]hapters? (\d+)((?:(?:, | and | to |–)\d+)*)")


@dataclass(frozen=True)
class Exercise:
    """One exercise of a chapter: its number, its title (empty for an exercise that has none), the checkers
    of :mod:`nqueens_kit.course` its cells and worked solution call, and what the student hands them
    (``None`` for an exercise no checker marks)."""

    chapter: str
    number: int
    title: str
    checkers: tuple[str, ...]
    hands_in: Literal["code", "answer"] | None


def _folder(folder: str | os.PathLike[str] | None) -> Path:
    return Path(folder) if folder is not None else notebooks_folder()


def _cells(folder: str | os.PathLike[str] | None) -> dict[str, list[dict[str, Any]]]:
    """Every chapter's cells, by file name without ``.ipynb``, in order."""
    source = _folder(folder)
    found = {}
    for path in sorted(source.glob("[0-9][0-9]-*.ipynb")):
        try:
            found[path.stem] = json.loads(path.read_text(encoding="utf-8"))["cells"]
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise InputError(f"cannot read the chapter {path}: {exc}") from None
    if not found:
        raise InputError(f"no chapters (NN-*.ipynb) in {source}")
    return found


def _text(cell: dict[str, Any]) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else str(source)


def chapters(folder: str | os.PathLike[str] | None = None) -> dict[str, str]:
    """Every chapter's title (its ``# `` heading), by file name without ``.ipynb``, in order.

    >>> chapters()["03-the-ilp-model"]
    '3. The ILP model'
    """
    titles = {}
    for name, cells in _cells(folder).items():
        heading = next((line[2:].strip() for cell in cells if cell["cell_type"] == "markdown"
                        for line in _text(cell).splitlines() if line.startswith("# ")), None)
        if heading is None:
            raise InputError(f"the chapter {name} has no title (a line starting '# ')")
        titles[name] = heading
    return titles


def _heading_at(text: str, heading: str) -> int:
    """Where the line ``heading`` (any case) starts in ``text``, or -1."""
    found = re.search(rf"^{re.escape(heading)}", text, re.M | re.I)
    return found.start() if found else -1


def _exercise_cells(name: str, cells: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The cells of the exercises: from the ``## Exercises`` line to the ``## Summary`` line (a cell may
    hold both, or the end of one section and the start of the next), cut at those lines."""
    kept: list[dict[str, Any]] = []
    for cell in cells:
        text = _text(cell) if cell["cell_type"] == "markdown" else ""
        if not kept:
            start = _heading_at(text, "## exercises")
            if start < 0:
                continue
            cell, text = {"cell_type": "markdown", "source": text[start:]}, text[start:]
        end = _heading_at(text, "## summary")
        if end >= 0:
            kept.append({"cell_type": "markdown", "source": text[:end]})
            return kept
        kept.append(cell)
    if not kept:
        raise InputError(f"the chapter {name} has no '## Exercises' section")
    return kept


def _hands_in(code: str) -> Literal["code", "answer"]:
    """``"code"`` when a checker called in ``code`` is handed a function the same code defines."""
    tree = ast.parse(code)
    defined = {node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id.startswith("check_"):
            if any(isinstance(arg, ast.Name) and arg.id in defined for arg in node.args):
                return "code"
    return "answer"


def exercises(folder: str | os.PathLike[str] | None = None) -> dict[str, tuple[Exercise, ...]]:
    """Every chapter's exercises, in order (see :class:`Exercise`).  An exercise runs from its first line
    (``**N.``) to the next one's; the code cells in between are its starter code, and what the student hands
    a checker is read from them, or from the worked solution where there are none (a function that code
    defines: ``"code"``; anything else: ``"answer"``)."""
    found: dict[str, tuple[Exercise, ...]] = {}
    for name, cells in _cells(folder).items():
        parts: list[dict[str, Any]] = []  # per exercise: number, title, text, starter code
        for cell in _exercise_cells(name, cells):
            if cell["cell_type"] == "code":
                if parts:
                    parts[-1]["code"] += _text(cell) + "\n"
                continue
            if cell["cell_type"] != "markdown":
                continue
            text = _text(cell)
            starts = list(_EXERCISE.finditer(text))
            if parts:
                parts[-1]["text"] += text[:starts[0].start()] if starts else text
            for i, start in enumerate(starts):
                end = starts[i + 1].start() if i + 1 < len(starts) else len(text)
                title = re.sub(r"\s*\(self-checking\)", "", start.group(2)).strip().rstrip(".").strip()
                parts.append({"number": int(start.group(1)), "title": title, "text": text[start.start():end],
                              "code": ""})
        listed = []
        for part in parts:
            solutions = "\n".join(_CODE_BLOCK.findall(part["text"]))
            checkers = tuple(dict.fromkeys(_CHECKER_CALL.findall(part["code"] + "\n" + solutions)))
            starter = part["code"] if _CHECKER_CALL.search(part["code"]) else solutions  # else: the solution's
            hands_in = _hands_in(starter) if checkers else None
            listed.append(Exercise(name, part["number"], part["title"], checkers, hands_in))
        numbers = [exercise.number for exercise in listed]
        if numbers != list(range(1, len(numbers) + 1)):
            raise InputError(f"the exercises of {name} are numbered {numbers}, not 1, 2, 3, ...")
        found[name] = tuple(listed)
    return found


def apps(folder: str | os.PathLike[str] | None = None) -> dict[str, tuple[str, ...]]:
    """The apps each chapter shows, in order: the apps of :mod:`nqueens_kit.apps` (its ``__all__``, imported
    from it or from one of its modules) whose widget a cell ends with, as its last expression or through the
    name it was given in that cell."""
    from .. import apps as kit_apps

    offered = set(kit_apps.__all__)
    found = {}
    for name, cells in _cells(folder).items():
        imported: set[str] = set()
        shown: list[str] = []
        for cell in cells:
            if cell["cell_type"] != "code":
                continue
            try:
                tree = ast.parse(_text(cell))
            except SyntaxError:  # IPython's magics: not Python, and never an app
                continue
            for node in ast.walk(tree):
                if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("nqueens_kit.apps"):
                    imported.update(alias.asname or alias.name for alias in node.names if alias.name in offered)
            made = {target.id: statement.value.func.id for statement in tree.body
                    if isinstance(statement, ast.Assign) and isinstance(statement.value, ast.Call)
                    and isinstance(statement.value.func, ast.Name) and statement.value.func.id in imported
                    for target in statement.targets if isinstance(target, ast.Name)}
            last = tree.body[-1] if tree.body else None
            if isinstance(last, ast.Expr):
                value = last.value
                if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in imported:
                    shown.append(value.func.id)
                elif isinstance(value, ast.Name) and value.id in made:
                    shown.append(made[value.id])
        found[name] = tuple(dict.fromkeys(shown))
    return found


def refers_back(folder: str | os.PathLike[str] | None = None) -> dict[str, tuple[int, ...]]:
    """The earlier chapters each chapter's prose names ("chapter 2", "chapters 1 to 4", ...), by number (its
    list of references left out).

    >>> refers_back()["01-rules-to-clauses"]
    ()
    """
    found = {}
    for name, cells in _cells(folder).items():
        own = int(name[:2])
        prose = "\n".join(_text(cell) for cell in cells if cell["cell_type"] == "markdown")
        references = _heading_at(prose, "## references")
        prose = prose[:references] if references >= 0 else prose  # the works cited name their own chapters
        prose = re.sub(r"\s+", " ", prose)  # "chapters 1" at the end of a line, "to 5" on the next
        named: set[int] = set()
        for match in _CHAPTER_REFERENCE.finditer(prose):
            numbers = [int(match.group(1))] + [int(n) for n in re.findall(r"\d+", match.group(2))]
            spans = re.findall(r"(?: to |–)", match.group(2))
            if spans and len(numbers) == 2:
                numbers = list(range(numbers[0], numbers[1] + 1))
            named.update(n for n in numbers if n < own)
        found[name] = tuple(sorted(named))
    return found


def _section(cells: list[dict[str, Any]], index: int) -> str:
    """The heading a cell sits under (the nearest ``#`` line above it), without its hashes."""
    for cell in reversed(cells[:index + 1]):
        if cell["cell_type"] == "markdown":
            headings = [line for line in _text(cell).splitlines() if line.startswith("#")]
            if headings:
                return headings[-1].lstrip("#").strip()
    return ""


def times_table(folder: str | os.PathLike[str] | None = None) -> str:
    """The stored running times of the chapters (``data/chapter-times.json``, written by
    ``benchmarks/time_chapters.py``) as a Markdown table: per chapter the processor time top to bottom at its
    full sizes and its wall time, its slowest cell (which code cell, under which heading) and the processor
    time at the small sizes; and under it the machine they were measured on.  Chapters with no stored
    figure say so."""
    from .lessons import CHAPTER_TIMES

    source = _folder(folder)
    path = source / "data" / CHAPTER_TIMES
    try:
        stored = json.loads(path.read_text(encoding="utf-8"))
        machine, measured = stored["machine"], stored["chapters"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise InputError(f"cannot read the stored running times {path}: {exc}") from None
    titles = chapters(source)
    rows = ["| chapter | processor time, Run All | wall time | slowest cell (processor time) | "
            "processor time, small sizes |", "|---|---|---|---|---|"]
    for name, cells in _cells(source).items():
        entry = measured.get(name)
        if not entry or "cpu" not in entry.get("full", {}) or "cpu" not in entry.get("small", {}):
            rows.append(f"| {titles[name]} | not measured yet | | | |")
            continue
        full, small = entry["full"], entry["small"]
        index = full["slowest_cell_cpu_index"]
        code_cell = sum(1 for cell in cells[:index + 1] if cell["cell_type"] == "code")
        heading = _section(cells, index)
        where = "at the top" if heading == titles[name] else \
            "under the heading “" + heading.replace("|", "\\|").replace("$", "") + "”"
        rows.append(f"| {titles[name]} | {full['cpu']:.0f} s | {full['total']:.0f} s | "
                    f"{full['slowest_cell_cpu']:.1f} s: code cell {code_cell}, {where} | "
                    f"{small['cpu']:.0f} s |")
    versions = machine.get("versions", {})
    said = ", ".join(f"{package} {version}" for package, version in sorted(versions.items()))
    rows.append("")
    rows.append(f"Measured on a quiet {machine['cpus']}-core machine on {machine['date']} "
                f"({machine['platform']}, Python {machine['python']}; {said}), each chapter top to bottom on a "
                f"fresh kernel, as stored in `notebooks/data/{CHAPTER_TIMES}` "
                "(`python benchmarks/time_chapters.py` measures them again).  That machine's seconds: a "
                "minimum for another, not a promise.")
    return "\n".join(rows) + "\n"


def fill_times(page: str, folder: str | os.PathLike[str] | None = None) -> str:
    """``page`` with the lines between :data:`TIMES_BEGIN` and :data:`TIMES_END` replaced by
    :func:`times_table` (a page without them is an error).

    >>> page = f"intro\\n{TIMES_BEGIN}\\nold\\n{TIMES_END}\\nrest\\n"
    >>> filled = fill_times(page)
    >>> filled.startswith(f"intro\\n{TIMES_BEGIN}\\n| chapter |") and filled.endswith(f"{TIMES_END}\\nrest\\n")
    True
    """
    begin, end = page.find(TIMES_BEGIN), page.find(TIMES_END)
    if begin < 0 or end < begin:
        raise InputError(f"no place for the table of running times: the page needs the line {TIMES_BEGIN!r} "
                         f"and, after it, {TIMES_END!r}")
    start = page.index("\n", begin) + 1
    return page[:start] + times_table(folder) + page[end:]
