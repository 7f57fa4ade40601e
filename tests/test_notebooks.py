"""The teaching notebooks stay clean, diffable and shaped like chapters; nbval runs them (see pyproject).

How outputs are stored (the policy this file enforces):

- Every code cell is stored without outputs and with ``execution_count`` null, *except* cells tagged
  ``nbval-check-output`` (nbval's own cell tag, invisible to a reader).  Those pinned cells print something
  deterministic that is worth guarding (the n = 4 clause list, clause counts, solution counts, the
  checkers' verdicts); they keep their text output, and their execution count is their position among the
  code cells (what a fresh top-to-bottom run gives).  ``pytest --nbval-lax`` reruns every notebook on a
  fresh kernel and compares exactly those cells, so a wrong count fails the test; ``assert`` lines in the
  cells guard the rest, including every number the prose quotes.
- Pinned outputs are plain text (stream or ``text/plain``): no images, HTML or widget state.  So a stored
  notebook opens with its text and its pinned numbers but without figures: run it (Run All, a few seconds
  to a minute) to draw them, or read the published site (``make site``), which is executed when built.
- Notebook metadata is only ``kernelspec`` (``python3``) and ``language_info`` reduced to its name; cell
  metadata is empty except the pin tag and the cell's place in the lecture's slides (``slideshow``'s
  ``slide_type``, as JupyterLab's property inspector writes it: ``slide``, ``subslide``, ``fragment``,
  ``notes`` or ``skip``; a cell without one continues the slide above it).  No author, Colab or JupyterLab
  UI state gets in.
- The first code cell of every chapter installs the kit in Colab or Binder (``install_cell_source``): the
  kit's own version from the repository of ``pyproject.toml``'s ``[project.urls]``, with the ``course`` extra,
  and nothing at all where that version is installed.  It is tagged ``remove-cell`` (the site leaves it
  out) and skipped on the slides.  ``python tests/test_notebooks.py`` writes it for the current version.

After editing a notebook in JupyterLab, run ``python tests/test_notebooks.py`` (all notebooks) or
``python tests/test_notebooks.py notebooks/02-solving-with-sat.ipynb``: it executes the notebook on a
fresh kernel and writes it back in the stored form above.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest

try:
    import tomllib
except ImportError:  # Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
EXPECTED = [
    "01-rules-to-clauses.ipynb",
    "02-solving-with-sat.ipynb",
    "03-the-ilp-model.ipynb",
    "04-encodings-compared.ipynb",
    "05-sat-vs-ilp.ipynb",
    "06-playground.ipynb",
    "07-inside-the-solvers.ipynb",
    "08-formulations-side-by-side.ipynb",
]
PIN = "nbval-check-output"
#: The slide types a cell may have (``slideshow.slide_type``; none is "-", continuing the slide above).
SLIDE_TYPES = ("slide", "subslide", "fragment", "notes", "skip")
#: The install cell's id and tag: MyST-NB leaves a cell tagged so out of the site's page.
INSTALL_ID, INSTALL_TAG = "install-kit", "remove-cell"
KERNELSPEC = {"name": "python3", "display_name": "Python 3", "language": "python"}
LANGUAGE_INFO = {"name": "python"}
MAX_BYTES = 120_000
MAX_CODE_LINES = 25
#: The app notebook is what ``make app`` serves: next to no code.
APP_NOTEBOOK = "06-playground.ipynb"


def _load(name: str) -> dict[str, Any]:
    return json.loads((NOTEBOOKS / name).read_text(encoding="utf-8"))


def _source(cell: dict[str, Any]) -> str:
    source = cell["source"]
    return "".join(source) if isinstance(source, list) else source


def _pinned(cell: dict[str, Any]) -> bool:
    return cell["cell_type"] == "code" and PIN in cell.get("metadata", {}).get("tags", [])


def repository_url() -> str:
    """The kit's repository, as ``pyproject.toml`` names it (``[project.urls]``, ``Source``)."""
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["urls"]["Source"]


def install_cell_source(version: str | None = None, repository: str | None = None) -> str:
    """The first code cell of every chapter: where the kit of this version does not import (Colab, a fresh
    Binder), pip installs it with the ``course`` extra from the repository's tag ``v`` + version; where it
    does (a checkout, ``pip install``, Binder's image, the browser edition), nothing runs and nothing is
    printed."""
    if version is None:
        from nqueens_kit import __version__ as version
    repository = repository or repository_url()
    return ("# In Colab or Binder this installs the kit this chapter comes with; where it is installed, nothing.\n"
            "try:\n"
            "    from nqueens_kit import __version__ as kit_version\n"
            "except ImportError:\n"
            "    kit_version = None\n"
            f'if kit_version != "{version}":\n'
            f'    %pip install --quiet "nqueens-kit[course] @ git+{repository}@v{version}"')


def _is_install_cell(cell: dict[str, Any]) -> bool:
    return cell["cell_type"] == "code" and cell.get("id") == INSTALL_ID


def _slide_type(cell: dict[str, Any]) -> str:
    return cell.get("metadata", {}).get("slideshow", {}).get("slide_type", "-")


def _cell_metadata(cell: dict[str, Any]) -> dict[str, Any]:
    """What a cell's metadata may hold: the pin or the install cell's tag, and its slide type."""
    kept: dict[str, Any] = {}
    if _pinned(cell):
        kept["tags"] = [PIN]
    elif _is_install_cell(cell):
        kept["tags"] = [INSTALL_TAG]
    if _slide_type(cell) in SLIDE_TYPES:
        kept["slideshow"] = {"slide_type": _slide_type(cell)}
    return kept


def lesson_code(nb: dict[str, Any]) -> list[str]:
    """The sources of a chapter's code cells after its install cell."""
    return [_source(c) for c in nb["cells"] if c["cell_type"] == "code" and not _is_install_cell(c)]


# ------------------------------------------------------------------------------------ the stored form


def clean(nb: dict[str, Any]) -> dict[str, Any]:
    """The stored form of an executed (or edited) notebook: see the module docstring."""
    nb["metadata"] = {"kernelspec": dict(KERNELSPEC), "language_info": dict(LANGUAGE_INFO)}
    nb["nbformat"], nb["nbformat_minor"] = 4, 5
    position = 0
    for index, cell in enumerate(nb["cells"]):
        cell.setdefault("id", f"cell-{index:02d}")
        cell["metadata"] = _cell_metadata(cell)
        if _is_install_cell(cell):
            cell["source"] = install_cell_source().splitlines(keepends=True)
        if cell["cell_type"] != "code":
            cell.pop("outputs", None)
            cell.pop("execution_count", None)
            continue
        position += 1
        if _pinned(cell):
            cell["execution_count"] = position
            outputs = []
            for out in cell.get("outputs", []):
                if out["output_type"] == "stream":
                    text = "".join(out["text"]) if isinstance(out["text"], list) else out["text"]
                    if outputs and outputs[-1]["output_type"] == "stream" and outputs[-1]["name"] == out["name"]:
                        outputs[-1]["text"] += text  # one block per stream, as a reader sees it
                    else:
                        outputs.append({"name": out["name"], "output_type": "stream", "text": text})
                elif out["output_type"] == "execute_result" and "text/plain" in out.get("data", {}):
                    outputs.append({"data": {"text/plain": out["data"]["text/plain"]}, "execution_count": position,
                                    "metadata": {}, "output_type": "execute_result"})
            cell["outputs"] = outputs
        else:
            cell["execution_count"] = None
            cell["outputs"] = []
    return nb


def refresh(path: Path, timeout: int = 900) -> None:
    """Execute a notebook on a fresh kernel (in its own folder) and store it in the clean form.  It runs at its
    small sizes (``CI`` set), as nbval runs it under test: the pinned outputs are the ones the tests compare."""
    import os

    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(nb, timeout=timeout, kernel_name="python3",
                            resources={"metadata": {"path": str(path.parent)}})
    before = os.environ.get("CI")
    os.environ["CI"] = "true"
    try:
        client.execute()
    finally:
        if before is None:
            del os.environ["CI"]
        else:
            os.environ["CI"] = before
    data = clean(json.loads(nbformat.writes(nb)))
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False, sort_keys=True) + "\n", encoding="utf-8")


# ----------------------------------------------------------------------------------------------- tests


def test_the_seven_notebooks_are_there() -> None:
    assert sorted(p.name for p in NOTEBOOKS.glob("*.ipynb")) == EXPECTED


@pytest.mark.parametrize("name", EXPECTED)
def test_notebook_is_stored_clean(name: str) -> None:
    path = NOTEBOOKS / name
    assert path.stat().st_size <= MAX_BYTES, f"{name} is {path.stat().st_size} bytes; strip its outputs"
    nb = _load(name)
    import nbformat

    nbformat.validate(nbformat.reads(path.read_text(encoding="utf-8"), as_version=4))
    assert nb["metadata"] == {"kernelspec": KERNELSPEC, "language_info": LANGUAGE_INFO}, (
        f"{name}: notebook metadata must be exactly kernelspec python3 and language_info name; "
        "run python tests/test_notebooks.py to clean it"
    )
    position = 0
    for cell in nb["cells"]:
        where = f"{name}, cell {cell.get('id')!r}"
        assert cell.get("metadata", {}) == _cell_metadata(cell), (
            f"{where}: cell metadata must be the pin (or the install cell's tag) and a slide type "
            f"({', '.join(SLIDE_TYPES)}), nothing else; run python tests/test_notebooks.py to clean it")
        assert "NBVAL" not in _source(cell), f"{where}: pin a cell with the {PIN} tag, not a comment readers see"
        if cell["cell_type"] != "code":
            assert "outputs" not in cell
            continue
        position += 1
        if _pinned(cell):
            assert cell["execution_count"] == position, f"{where}: a pinned cell's count is its position"
            assert cell["outputs"], f"{where}: a pinned cell needs its stored output to compare against"
            for out in cell["outputs"]:
                assert out["output_type"] in ("stream", "execute_result"), f"{where}: {out['output_type']} output"
                if out["output_type"] == "stream":
                    assert out["name"] == "stdout", f"{where}: pinned output on {out['name']}"
                else:
                    assert set(out["data"]) == {"text/plain"}, f"{where}: pinned output must be plain text"
        else:
            assert cell["execution_count"] is None, f"{where}: stray execution count"
            assert cell["outputs"] == [], f"{where}: outputs are stored only for {PIN} cells"


@pytest.mark.parametrize("name", EXPECTED)
def test_notebook_reads_like_a_chapter(name: str) -> None:
    nb = _load(name)
    cells = nb["cells"]
    first = _source(cells[0])
    assert cells[0]["cell_type"] == "markdown" and first.startswith("# "), f"{name} opens with a title"
    assert "you will learn" in first.lower(), f"{name} opens with what the reader will learn"
    headings = [line.lower() for cell in cells if cell["cell_type"] == "markdown"
                for line in _source(cell).splitlines() if line.startswith("## ")]
    assert headings[-3:] == ["## exercises", "## summary", "## references"], (
        f"{name} ends with its exercises, a summary and references, not {headings[-3:]}")
    exercises = _exercises_text(cells)
    numbered = re.findall(r"^\*\*(\d+)\.", exercises, re.M)
    assert numbered, f"{name}: no numbered exercises"
    for number, text in zip(numbered, re.split(r"^\*\*\d+\.", exercises, flags=re.M)[1:], strict=True):
        assert "<summary>Hint</summary>" in text and "<summary>Worked solution</summary>" in text, (
            f"{name}: exercise {number} needs a hint and a worked solution in <details>")
    assert sum(c["cell_type"] == "markdown" for c in cells) >= sum(c["cell_type"] == "code" for c in cells) / 2, (
        f"{name}: narrative first; there should be text between the code cells"
    )
    for cell in cells:
        if cell["cell_type"] != "code":
            continue
        source = _source(cell)
        assert not re.search(r"^\s*from\s+\S+\s+import\s+\*", source, re.M), f"{name}: star import"
        assert len(source.splitlines()) <= MAX_CODE_LINES, (
            f"{name}: a code cell of {len(source.splitlines())} lines; move code that is not the lesson into "
            f"nqueens_kit:\n{source[:200]}"
        )
        assert "%%time" not in source and "%timeit" not in source, f"{name}: time with the kit's timing harness"


@pytest.mark.parametrize("name", EXPECTED)
def test_the_first_code_cell_installs_this_version_of_the_kit(name: str) -> None:
    """Opened in Colab or Binder, a chapter installs its own version of the kit in its first code cell, which
    the site leaves out and the slides skip (regenerate: python tests/test_notebooks.py)."""
    from nqueens_kit import __version__

    first = next(c for c in _load(name)["cells"] if c["cell_type"] == "code")
    assert _is_install_cell(first), f"{name}: the first code cell is not the install cell ({INSTALL_ID!r})"
    assert _source(first) == install_cell_source(), f"{name}: run python tests/test_notebooks.py to rewrite it"
    assert f'!= "{__version__}"' in _source(first) and f"@v{__version__}" in _source(first)
    assert first["metadata"] == {"tags": [INSTALL_TAG], "slideshow": {"slide_type": "skip"}}


def _run_install_cell(monkeypatch: pytest.MonkeyPatch, source: str) -> list[tuple[str, str]]:
    """The install cell ``source`` run in an IPython shell whose line magics are recorded instead of run."""
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    calls: list[tuple[str, str]] = []
    monkeypatch.setattr(shell, "run_line_magic", lambda magic, line, *args, **kwargs: calls.append((magic, line)))
    result = shell.run_cell(source)
    assert result.success, result.error_in_exec
    return calls


def test_the_install_cell_does_nothing_where_the_kit_is_installed(monkeypatch, capsys) -> None:
    """Where this version of the kit imports, the cell calls no pip and prints nothing; where another version
    or none imports, it asks pip for this version, from the repository's tag, with the course extra.
    (tests/test_launch.py runs it in a fresh Python with nothing installed.)"""
    import nqueens_kit

    cell = install_cell_source()  # the cell of this version of the kit
    assert _run_install_cell(monkeypatch, cell) == []
    assert capsys.readouterr() == ("", "")
    wanted = [("pip", f'install --quiet "nqueens-kit[course] @ git+{repository_url()}@v{nqueens_kit.__version__}"')]
    monkeypatch.setattr(nqueens_kit, "__version__", "0.0.1")  # another version imports
    assert _run_install_cell(monkeypatch, cell) == wanted
    monkeypatch.setitem(sys.modules, "nqueens_kit", None)  # no kit at all: the import fails
    assert _run_install_cell(monkeypatch, cell) == wanted


@pytest.mark.parametrize("name", [name for name in EXPECTED if name != APP_NOTEBOOK])
def test_every_chapter_draws_for_the_projector(name: str) -> None:
    """The first code cell of each chapter's lesson (after the install cell) calls ``projector_style()``:
    projector-sized fonts and lines, and the fixed small labels of every figure shown enlarged; one call, the
    same for every chapter."""
    first_code = lesson_code(_load(name))[0]
    assert re.search(r"^projector_style\(\)", first_code, re.M), f"{name}: call projector_style() in the first cell"


@pytest.mark.parametrize("name", [name for name in EXPECTED if name != APP_NOTEBOOK])
def test_every_chapter_says_how_long_it_takes(name: str) -> None:
    """The first code cell of the lesson prints the chapter's measured running time (``running_time``, from
    the stored measurement that ``benchmarks/time_chapters.py`` writes), under its own name."""
    first_code = lesson_code(_load(name))[0]
    stem = name.removesuffix(".ipynb")
    assert re.search(rf"^print\(running_time\({stem!r}\)\)", first_code.replace('"', "'"), re.M), (
        f"{name}: print(running_time({stem!r})) in the first cell")


def test_stored_chapter_times_keep_to_a_lecture() -> None:
    """Every chapter has a stored running time (regenerate: python benchmarks/time_chapters.py), and each
    keeps to the budget, in processor time of the kernel and its solvers: the whole chapter, its slowest
    cell, and the whole chapter at its small sizes."""
    from nqueens_kit.course.lessons import TIME_BUDGET, chapter_times, running_time

    data = chapter_times(NOTEBOOKS / "data")
    assert sorted(data["chapters"]) == sorted(name.removesuffix(".ipynb") for name in EXPECTED)
    assert data["machine"]["cpus"] >= 1 and data["machine"]["date"] and data["command"]
    over = [(chapter, kind, figure, limit) for chapter, entry in data["chapters"].items()
            for kind, figure, limit in (("full", entry["full"]["cpu"], TIME_BUDGET["full"]),
                                        ("cell", entry["full"]["slowest_cell_cpu"], TIME_BUDGET["cell"]),
                                        ("small", entry["small"]["cpu"], TIME_BUDGET["small"]))
            if figure > limit]
    assert not over, f"over the budget (chapter, what, CPU seconds, limit): {over}"
    assert all(entry[size]["cpu"] > 0 and entry[size]["total"] > 0 for entry in data["chapters"].values()
               for size in ("full", "small")), "every chapter measured by both clocks, at both sizes"
    line = running_time("02-solving-with-sat", NOTEBOOKS / "data")
    assert f"at least {data['chapters']['02-solving-with-sat']['full']['cpu']:.0f} s of processor time" in line
    assert "quiet" in line and "busy or slower machine takes longer" in line
    assert "not measured yet" in running_time("99-nothing", NOTEBOOKS / "data")


@pytest.mark.parametrize("name", EXPECTED)
def test_chapters_ask_the_kit_which_sizes_to_run(name: str) -> None:
    """A chapter with small and real sizes asks ``small_sizes()`` (small under test and in the browser), never
    the environment itself: one rule for every chapter."""
    code = "".join(_source(c) for c in _load(name)["cells"] if c["cell_type"] == "code")
    assert "os.environ" not in code and "smoke_test" not in code, f"{name}: use small = small_sizes()"
    if re.search(r"\bsmall\b", code):
        assert re.search(r"^small = small_sizes\(\)", code, re.M), f"{name}: small = small_sizes() in the first cell"


def _exercises_text(cells: list[dict[str, Any]]) -> str:
    """The markdown of the exercises section (from "## Exercises" to "## Summary")."""
    text = "\n".join(_source(c) for c in cells if c["cell_type"] == "markdown")
    start = text.lower().index("## exercises")
    end = text.lower().index("## summary", start)
    return text[start:end]


def _exercise_code(cells: list[dict[str, Any]]) -> str:
    start = max(i for i, c in enumerate(cells) if c["cell_type"] == "markdown"
                and any(line.lower().startswith("## exercises") for line in _source(c).splitlines()))
    return "".join(_source(c) for c in cells[start:] if c["cell_type"] == "code")


def test_the_app_notebook_has_next_to_no_code() -> None:
    """What make app serves: the playground first; after it only short self-checking exercise cells."""
    code = lesson_code(_load(APP_NOTEBOOK))
    assert len(code[0].strip().splitlines()) <= 2 and "playground()" in code[0], code
    assert all(len(cell.strip().splitlines()) <= 8 and "check_" in cell for cell in code[1:]), code


def test_exercises_include_self_checking_ones() -> None:
    """Every chapter ends with at least one exercise a checker from nqueens_kit.course.exercises marks."""
    for name in EXPECTED:
        section = _exercise_code(_load(name)["cells"])
        assert re.search(r"\bcheck_\w+\(", section), f"{name}: no self-checking exercise"
        assert "from nqueens_kit.course.exercises import" in section


SOLUTION = re.compile(r"<summary>Worked solution</summary>(.*?)</details>", re.S)
CODE_BLOCK = re.compile(r"```python\n(.*?)```", re.S)
NUMBER = re.compile(r"(?<![\w.])\d[\d,]*(?:\.\d+)?(?![\w])")


def worked_solutions(name: str) -> list[tuple[int, str, str]]:
    """``(exercise number, prose, code)`` of every worked solution of a chapter: the prose of its
    <details> block and the python code blocks in it."""
    exercises = _exercises_text(_load(name)["cells"])
    found = []
    for number, text in zip(re.findall(r"^\*\*(\d+)\.", exercises, re.M),
                            re.split(r"^\*\*\d+\.", exercises, flags=re.M)[1:], strict=True):
        for body in SOLUTION.findall(text):
            code = "\n".join(CODE_BLOCK.findall(body))
            found.append((int(number), CODE_BLOCK.sub("", body), code))
    return found


WORKED = [(name, number) for name in EXPECTED for number, _prose, _code in worked_solutions(name)]


@pytest.mark.parametrize(("name", "number"), WORKED, ids=[f"{n[:2]}-ex{k}" for n, k in WORKED])
def test_every_worked_solution_runs_and_computes_its_numbers(name: str, number: int, tmp_path, monkeypatch) -> None:
    """A worked solution is code that runs on its own (imports included) and checks what it states: every
    number in its prose is computed by its code (it appears there, in an assert or a print), so a wrong
    answer cannot ship."""
    (prose, code), = [(p, c) for k, p, c in worked_solutions(name) if k == number]
    assert code.strip(), f"{name}, exercise {number}: the worked solution has no ```python code to run"
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("MPLBACKEND", "Agg")
    exec(compile(code, f"{name} exercise {number}", "exec"), {"__name__": "__worked__"})  # noqa: S102
    stated = {n.replace(",", "") for n in NUMBER.findall(re.sub(r"\$[^$]*\$|`[^`]*`", "", prose))}
    computed = {n.replace(",", "").replace("_", "") for n in NUMBER.findall(code.replace("_", ""))}
    missing = sorted(n for n in stated - computed if float(n) > 9)  # small counts (1, 2, ...) read as words
    assert not missing, f"{name}, exercise {number}: the prose states {missing} but the code does not compute them"


if __name__ == "__main__":  # refresh the stored form: python tests/test_notebooks.py [NOTEBOOK ...]
    targets = [Path(a).resolve() for a in sys.argv[1:]] or [NOTEBOOKS / name for name in EXPECTED]
    for target in targets:
        print(f"executing {target.relative_to(ROOT)} …", flush=True)
        refresh(target)
