"""The guide for lecturers (``book/lecturers.md``) against the chapters it describes, as
:mod:`nqueens_kit.course.syllabus` reads them from the notebooks: every chapter has its row of prerequisites
and its lecture, every prerequisite chapter is one the chapter's text names and every background claimed is
one the chapter uses, every exercise is listed under its kind with its title and checker (a chapter or an
exercise renamed, added or removed fails here), every app named is one of the kit's and every app a chapter
shows is named, every heading quoted is the chapter's, every stored file named exists; the table of running
times is filled from the stored measurement when the book is built; what the page says of the browser
edition, the projector keys and the 1024 x 768 screen is what the code and the tests do.  And the syllabus
reader itself, on small made-up chapters."""

from __future__ import annotations

import json
import re
import typing
from pathlib import Path

import pytest

from nqueens_kit.course import syllabus
from nqueens_kit.course.lessons import CHAPTER_TIMES
from nqueens_kit.course.notebooks import notebooks_folder
from nqueens_kit.errors import InputError

from .book_scripts import site_script

ROOT = Path(__file__).resolve().parents[1]
GUIDE = ROOT / "book" / "lecturers.md"
TEXT = GUIDE.read_text(encoding="utf-8")

#: Each background a row of the prerequisites may claim, and what in the chapter's prose shows that the
#: chapter uses it (any of the patterns): a claim the chapter does not bear out fails.
EVIDENCE = {
    "propositional logic": [r"\\lor", r"\\neg", r"satisf"],
    "counting": [r"\\binom"],
    "search with backtracking": [r"backtrack"],
    "programs and files": [r"DIMACS file", r"program"],
    "symmetry": [r"symmetr", r"rotat"],
    "linear programming": [r"simplex", r"LP relaxation"],
    "linear algebra": [r"Ax \\le b"],
    "LP duality": [r"Farkas", r"dual"],
    "graphs": [r"clique", r"graph"],
    "asymptotic growth": [r"log-log", r"quadratic", r"cubic"],
    "binary arithmetic": [r"\\log_2", r"half and full adders"],
    "statistics": [r"median", r"percentile"],
    "processes and clocks": [r"CPU", r"fresh process"],
    "phase transitions": [r"phase transition"],
    "proof systems": [r"DRUP", r"RUP"],
    "optimisation": [r"objective", r"MaxSAT"],
    "constraint satisfaction": [r"domain", r"arc consistency"],
    "matching": [r"matching"],
    "local search": [r"local search", r"min-conflicts"],
}
KINDS = {"Checked answers": "answer", "Checked code": "code", "Open": None}
ARROWS = {"→": "ArrowRight", "←": "ArrowLeft", "↑": "ArrowUp", "↓": "ArrowDown"}
#: The tests the projector note cites, and the test functions behind what it says each one checks.
CITED_TESTS = {
    "test_projector.py": ("test_the_projector_layout_puts_the_board_first_and_large_and_follows_the_clicker_keys",
                          "test_the_playground_opens_in_the_projector_layout_with_large_tab_titles",
                          "test_a_large_board_is_drawn_plain_with_each_queen_a_filled_cell",
                          "test_a_stopped_search_says_the_user_stopped_it_not_a_time_limit",
                          "test_the_formula_explorers_summary_is_right_under_its_controls"),
    "test_app_browser.py": ("test_the_projector_layout_fits_1024_by_768_and_follows_a_clickers_keys",
                            "test_the_app_is_the_first_thing_on_a_projector_screen"),
    "test_site.py": ("test_the_apps_fit_the_text_column_of_a_1024_px_window",),
    "test_chapter_apps.py": ("test_projector_style_makes_every_shown_figure_readable",),
}


def _prose(name: str) -> str:
    cells = json.loads((notebooks_folder() / f"{name}.ipynb").read_text(encoding="utf-8"))["cells"]
    return "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")


def _section(title: str, text: str = TEXT) -> str:
    start = text.index(f"\n## {title}")
    end = text.find("\n## ", start + 1)
    return text[start:end if end > 0 else len(text)]


def _rows() -> list[list[str]]:
    table = [line for line in _section("Prerequisites per chapter").splitlines() if line.startswith("| ")]
    return [[cell.strip() for cell in line.strip("|").split(" | ")] for line in table[1:]]


def _lectures() -> dict[str, str]:
    """Each lecture section, by the chapter file it names."""
    plan = _section("A plan of lectures")
    parts = re.split(r"\n(?=### )", plan)[1:]
    found = {}
    for part in parts:
        files = re.findall(r"`notebooks/(\d\d-[\w-]+)\.ipynb`", part)
        assert len(files) == 1, f"a lecture section names {files}, not one chapter: {part[:80]!r}"
        assert files[0] not in found, f"{files[0]} has two lecture sections"
        found[files[0]] = part
    return found


def _bullets(part: str) -> dict[str, str]:
    """A lecture section's bullets, by their bold label, each joined onto one line."""
    found = {}
    for bullet in re.split(r"\n(?=- \*\*)", part)[1:]:
        label = re.match(r"- \*\*(.+?)\*\*", bullet)
        assert label, bullet[:60]
        found[label.group(1)] = " ".join(line.strip() for line in bullet.split("\n\n")[0].splitlines())
    return found


def _headings(name: str) -> set[str]:
    return {line.lstrip("#").strip() for line in _prose(name).splitlines() if line.startswith("#")}


# ------------------------------------------------------------------------------------------- the toc


def test_the_guide_is_in_the_books_contents_and_the_readme() -> None:
    assert TEXT.startswith("---\norphan: true\n---\n")  # like every page of book/ but the bibliography
    index = (ROOT / "book" / "index.md").read_text(encoding="utf-8")
    also = index[index.index("## Also in this book"):]
    assert re.search(r"^- \{doc\}`lecturers`: ", also, re.M), "not in the landing page's contents"
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    start = readme.index("## The chapters")
    assert "https://nqueens-kit.github.io/nqueens-kit/lecturers.html" in readme[start:readme.index("\n## ", start)]


# ---------------------------------------------------------------------------------- the prerequisites


def test_every_chapter_has_its_row_of_prerequisites_in_order() -> None:
    titles = syllabus.chapters()
    assert [row[0] for row in _rows()] == list(titles.values())


def test_the_chapters_a_row_builds_on_are_named_by_the_chapter() -> None:
    back = syllabus.refers_back()
    for (name, title), row in zip(syllabus.chapters().items(), _rows(), strict=True):
        claimed = [] if row[1] == "none" else [int(n) for n in row[1].split(", ")]
        assert claimed == sorted(set(claimed)), f"{title}: {row[1]}"
        unnamed = set(claimed) - set(back[name])
        assert not unnamed, f"{title}: its text never names chapter(s) {sorted(unnamed)}"
        assert bool(claimed) == bool(back[name]), f"{title}: builds on {claimed}, names {back[name]}"


def test_every_background_claimed_is_used_by_the_chapter() -> None:
    for name, row in zip(syllabus.chapters(), _rows(), strict=True):
        prose = _prose(name)
        for topic in re.findall(r"\*\*(.+?)\*\*", row[2]):
            assert topic in EVIDENCE, f"{name}: no evidence defined for the background {topic!r}"
            assert any(re.search(p, prose) for p in EVIDENCE[topic]), f"{name} does not use {topic!r}"


# ----------------------------------------------------------------------------------------- the plan


def test_every_chapter_has_its_lecture_in_order_under_its_title() -> None:
    lectures = _lectures()
    assert list(lectures) == list(syllabus.chapters())
    numbers: list[int] = []
    for title, part in zip(syllabus.chapters().values(), lectures.values(), strict=True):
        heading = part.splitlines()[0]
        number, _, rest = title.partition(". ")
        assert heading.endswith(f": chapter {number}, {rest}"), f"{heading!r} is not chapter {title!r}"
        said = [int(n) for n in re.findall(r"\d+", heading.split(":")[0])]
        numbers += said
    assert numbers == list(range(1, len(numbers) + 1)), f"the lectures are numbered {numbers}"


def test_every_exercise_is_listed_under_its_kind_with_its_title_and_checker() -> None:
    registry = syllabus.exercises()
    for name, part in _lectures().items():
        bullets = _bullets(part)
        for label, kind in KINDS.items():
            wanted = [e for e in registry[name] if e.hands_in == kind]
            listed = re.findall(r"ex\. (\d+)(?: \*(.+?)\*)?(?: \(((?:`check_\w+`(?:, )?)+)\))?", bullets.get(label, ""))
            got = [(int(n), title, tuple(re.findall(r"`(check_\w+)`", checkers))) for n, title, checkers in listed]
            expected = [(e.number, e.title if kind else "", e.checkers) for e in wanted]
            assert got == expected, f"{name}, {label}: the guide lists {got}, the chapter has {expected}"
        for n in re.findall(r"ex\. (\d+)", part):  # the assignments too: only exercises that exist
            assert 1 <= int(n) <= len(registry[name]), f"{name} has no exercise {n}"


def test_the_exercises_a_chapter_calls_self_checking_are_the_ones_with_a_checker() -> None:
    """The registry against the chapters' own words: an exercise titled "(self-checking)" calls a checker of
    the kit, and no other does."""
    for name, found in syllabus.exercises().items():
        labelled = [int(n) for n in re.findall(r"^\*\*(\d+)\.[^*\n]*\(self-checking\)", _prose(name), re.M)]
        assert labelled == [e.number for e in found if e.checkers], name
        assert all(e.hands_in in ("code", "answer") for e in found if e.checkers), name


def test_every_app_named_is_the_kits_and_every_app_shown_is_named() -> None:
    import nqueens_kit.apps as kit_apps

    shown = syllabus.apps()
    for name, part in _lectures().items():
        projector = _bullets(part)["On the projector"]
        named = re.findall(r"`([a-z_]+)(?:\([^`]*\))?`", projector)
        assert named, f"{name}: no app named"
        for app in named:
            assert app in kit_apps.__all__ and callable(getattr(kit_apps, app)), f"{name}: no app {app!r}"
        assert set(shown[name]) <= set(named), f"{name} shows {shown[name]}, the guide names {named}"
        assert all(shown.values()), "a chapter that shows no app"


def test_the_playgrounds_tabs_are_named_with_their_apps() -> None:
    import nqueens_kit.apps as kit_apps

    app = kit_apps.playground()
    app.wait()
    projector = _bullets(_lectures()["06-playground"])["On the projector"]
    for title, child in zip(app.titles, app.children, strict=True):
        function = re.sub(r"(?<!^)(?=[A-Z])", "_", type(child).__name__).lower()
        assert typing.get_type_hints(getattr(kit_apps, function))["return"] is type(child)
        assert f"“{title}” (`{function}`)" in projector, title
    assert len(re.findall(r"“[^”]+” \(`", projector)) == len(app.titles)


def test_every_heading_quoted_is_the_chapters() -> None:
    for name, part in _lectures().items():
        bullets = _bullets(part)
        quoted = re.findall(r"“([^”]+)”", bullets["Live"]) + re.findall(r"under “([^”]+)”", part)
        sections = _headings(name) - {"Exercises", "Summary", "References", syllabus.chapters()[name]}
        assert bool(quoted) == bool(sections), f"{name}: its lecture quotes no heading of {sorted(sections)}"
        missing = set(quoted) - _headings(name)
        assert not missing, f"{name} has no heading {sorted(missing)}"


def test_every_stored_file_and_test_named_exists() -> None:
    data = notebooks_folder() / "data"
    for file in set(re.findall(r"`(?:notebooks/)?data/([\w.-]+)`", TEXT)):
        assert (data / file).is_file(), f"no {file} in {data}"
    for test in set(re.findall(r"`(tests/[\w.]+\.py)`", TEXT)):
        assert (ROOT / test).is_file(), f"no {test}"


# --------------------------------------------------------------------------------- the running times


def test_the_page_holds_the_place_of_the_table_and_the_site_fills_it() -> None:
    inside = TEXT[TEXT.index(syllabus.TIMES_BEGIN) + len(syllabus.TIMES_BEGIN):TEXT.index(syllabus.TIMES_END)]
    assert inside.strip() == "", "the table is made when the book is built, not typed into the page"
    page = site_script.book_source(GUIDE).decode("utf-8")
    stored = json.loads((notebooks_folder() / "data" / CHAPTER_TIMES).read_text(encoding="utf-8"))
    block = page[page.index(syllabus.TIMES_BEGIN):page.index(syllabus.TIMES_END)]
    rows = [line for line in block.splitlines() if line.startswith("| ") and line[2].isdigit()]
    assert [row.split(" | ")[0][2:] for row in rows] == list(syllabus.chapters().values())
    for name, row in zip(syllabus.chapters(), rows, strict=True):
        full, small = stored["chapters"][name]["full"], stored["chapters"][name]["small"]
        cells = row.strip("| ").split(" | ")
        assert cells[1] == f"{full['cpu']:.0f} s" and cells[4] == f"{small['cpu']:.0f} s", row
        assert cells[3].startswith(f"{full['slowest_cell_cpu']:.1f} s: code cell "), row
    machine = stored["machine"]
    assert f"a quiet {machine['cpus']}-core machine on {machine['date']}" in page and "not a promise" in page
    other = ROOT / "book" / "course.md"
    assert site_script.book_source(other) == other.read_bytes()  # other pages go to Sphinx as they are


def test_the_slowest_cell_is_named_by_its_place_in_the_chapter(tmp_path: Path) -> None:
    _chapter(tmp_path, "01-a", [("markdown", "# 1. A\n\nText."), ("code", "x = 1"),
                                ("markdown", "## Slow part"), ("code", "y = 2"), ("code", "z = 3"),
                                ("markdown", "## Exercises\n\n**1.** Think.\n\n## Summary")])
    run = {"total": 2.0, "slowest_cell": 1.0, "slowest_cell_index": 4, "cpu": 2.4, "slowest_cell_cpu": 1.26,
           "slowest_cell_cpu_index": 4}
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / CHAPTER_TIMES).write_text(json.dumps(
        {"chapters": {"01-a": {"full": run, "small": dict(run, cpu=0.4)}},
         "machine": {"cpus": 4, "date": "2030-01-02", "platform": "p", "python": "3.12.1", "versions": {"x": "1"}}}))
    table = syllabus.times_table(tmp_path)
    assert "| 1. A | 2 s | 2 s | 1.3 s: code cell 3, under the heading “Slow part” | 0 s |" in table
    assert "a quiet 4-core machine on 2030-01-02" in table
    _chapter(tmp_path, "02-b", [("markdown", "# 2. B"), ("markdown", "## Exercises\n\n**1.** Think.\n\n## Summary")])
    assert "| 2. B | not measured yet |" in syllabus.times_table(tmp_path)
    with pytest.raises(InputError, match="no place for the table"):
        syllabus.fill_times("a page without its markers", tmp_path)


# ------------------------------------------------------------------------- the browser and the projector


def test_the_browser_editions_chapters_are_the_ones_it_runs() -> None:
    text = " ".join(TEXT.split())
    said = re.search(r"It runs chapters ((?:\d+, )*\d+) and (\d+);", text)
    assert said, "the guide does not say which chapters the browser edition runs"
    numbers = [int(n) for n in said.group(1).split(", ")] + [int(said.group(2))]
    assert numbers == [int(name[:2]) for name in site_script.lite_chapters()]
    left_out = [int(name[:2]) for name in syllabus.chapters() if name not in site_script.lite_chapters()]
    sentence = text[said.end():text.index("their pages say", said.end())]
    assert [int(n) for n in re.findall(r"chapter (\d+)", sentence)] == left_out


def test_the_projector_keys_and_screen_are_the_ones_tested() -> None:
    from nqueens_kit.apps.projector import KEYS

    note = _section("On a 1024 × 768 projector")
    keys = re.search(r"\*PageDown\* or (\S) for the next, \*PageUp\* or (\S) for the previous, (\S) and (\S) for", note)
    assert keys, "the clicker's keys are not stated"
    assert (KEYS["PageDown"], KEYS[ARROWS[keys.group(1)]]) == ("next", "next")
    assert (KEYS["PageUp"], KEYS[ARROWS[keys.group(2)]]) == ("previous", "previous")
    assert (KEYS[ARROWS[keys.group(3)]], KEYS[ARROWS[keys.group(4)]]) == ("bigger", "smaller")
    browser_test = (ROOT / "tests" / "test_app_browser.py").read_text(encoding="utf-8")
    for width, height in re.findall(r"(\d+) × (\d+)", TEXT):
        assert f'{{"width": {width}, "height": {height}}}' in browser_test, f"no test at {width} x {height}"
    for test, names in CITED_TESTS.items():  # the tests the note says check it
        source = (ROOT / "tests" / test).read_text(encoding="utf-8")
        assert f"`tests/{test}`" in note, test
        for name in names:
            assert f"def {name}(" in source, f"{test} has no {name}"


# ------------------------------------------------------------------------- the syllabus reader itself


def _chapter(folder: Path, name: str, cells: list[tuple[str, str]]) -> None:
    nb = {"cells": [{"cell_type": kind, "source": text, "metadata": {}} for kind, text in cells],
          "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    (folder / f"{name}.ipynb").write_text(json.dumps(nb), encoding="utf-8")


def test_exercises_are_split_where_they_start_even_inside_one_cell(tmp_path: Path) -> None:
    _chapter(tmp_path, "03-c", [
        ("markdown", "# 3. C\n\nAs chapters 1 and 2 showed, and chapter 5 will."),
        ("markdown", "Text.\n\n## Exercises\n\n**1. Your function (self-checking).**  Write it."),
        ("code", "from nqueens_kit.course.exercises import check_verify\n\ndef mine(n, q):\n    return True\n\n"
                 "check_verify(mine)"),
        ("markdown", "<details>hint</details>\n\n**2.** Open.\n\n**3. By hand (self-checking).**  Work it out."),
        ("code", "my_count = 0\ncheck_count(my_count, 5)"),
        ("markdown", "<details><summary>Worked solution</summary>\n\n```python\nassert check_count(10, 5)\n```\n"
                     "</details>\n\n**4. Solved only (self-checking).**\n\n```python\ndef f(x):\n    return x\n\n"
                     "assert check_par2(f)\n```\n\n## Summary\n\n**5.** Not an exercise."),
    ])
    found = syllabus.exercises(tmp_path)["03-c"]
    assert [(e.number, e.title, e.checkers, e.hands_in) for e in found] == [
        (1, "Your function", ("check_verify",), "code"), (2, "", (), None),
        (3, "By hand", ("check_count",), "answer"), (4, "Solved only", ("check_par2",), "code")]
    assert syllabus.refers_back(tmp_path)["03-c"] == (1, 2)


def test_chapter_references_read_ranges_across_lines_and_skip_the_works_cited(tmp_path: Path) -> None:
    _chapter(tmp_path, "08-h", [("markdown", "# 8. H\n\nThe apps put chapters 3\n  to 5 under sliders; chapter 7 "
                                             "too.\n\n## Exercises\n\n**1.** X.\n\n## Summary\n\n## References\n\n"
                                             "- A handbook, chapter 2.")])
    assert syllabus.refers_back(tmp_path)["08-h"] == (3, 4, 5, 7)


def test_an_app_is_one_a_cell_ends_with(tmp_path: Path) -> None:
    _chapter(tmp_path, "01-a", [
        ("markdown", "# 1. A"),
        ("code", "from nqueens_kit.apps import formula_explorer, board_explorer\nfrom nqueens_kit.apps.common "
                 "import shown_with_code\n\nx = formula_explorer(n=4)\nx.wait()\nx"),
        ("code", "board_explorer(n=5).wait()\nshown_with_code(1)"),  # built but not shown; a helper shown
        ("code", "%time 1 + 1"),
        ("markdown", "## Exercises\n\n**1.** X.\n\n## Summary")])
    assert syllabus.apps(tmp_path)["01-a"] == ("formula_explorer",)


def test_a_chapter_without_exercises_or_with_gaps_is_refused(tmp_path: Path) -> None:
    _chapter(tmp_path, "01-a", [("markdown", "# 1. A\n\nNo exercises.")])
    with pytest.raises(InputError, match="no '## Exercises' section"):
        syllabus.exercises(tmp_path)
    _chapter(tmp_path, "01-a", [("markdown", "# 1. A\n\n## Exercises\n\n**1.** X.\n\n**3.** Y.\n\n## Summary")])
    with pytest.raises(InputError, match=r"numbered \[1, 3\]"):
        syllabus.exercises(tmp_path)
    with pytest.raises(InputError, match="no chapters"):
        syllabus.chapters(tmp_path / "empty")
