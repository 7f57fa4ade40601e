"""What the prose says about the registries is what the registries say: the number of encodings anywhere in the
README, the book or a chapter's markdown, and the solver entries the methods sentences of the README and the
command-line page name."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from nqueens_kit.methods import METHODS
from nqueens_kit.methods.sat.encodings import ENCODINGS

ROOT = Path(__file__).resolve().parents[1]
WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"]
#: "five encodings", "the other four encodings", "5 clause encodings", "Five CNF encodings".
STATED = re.compile(rf"\b(other\s+)?({'|'.join(WORDS)}|\d+)\s+(?:clause\s+|CNF\s+|at-most-one\s+)?encodings\b",
                    re.IGNORECASE)


def prose() -> list[tuple[str, str]]:
    """``(where, text)`` of every page of prose: the README, the book's pages, each markdown cell of a chapter."""
    pages = [("README.md", (ROOT / "README.md").read_text(encoding="utf-8"))]
    pages += [(f"book/{p.name}", p.read_text(encoding="utf-8")) for p in sorted((ROOT / "book").glob("*.md"))]
    for notebook in sorted((ROOT / "notebooks").glob("*.ipynb")):
        cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
        pages += [(f"notebooks/{notebook.name} cell {k}", "".join(cell["source"]))
                  for k, cell in enumerate(cells) if cell["cell_type"] == "markdown"]
    return pages


def stated_numbers(text: str) -> list[tuple[str, int, bool]]:
    """``(sentence, number, after "other")`` of every number of encodings ``text`` states."""
    found = []
    for match in STATED.finditer(text):
        word = match.group(2).lower()
        number = int(word) if word.isdigit() else WORDS.index(word)
        found.append((" ".join(text[max(0, match.start() - 60):match.end() + 20].split()), number,
                      bool(match.group(1))))
    return found


def test_the_pattern_reads_what_prose_says() -> None:
    text = "Five encodings of at most one; beside it the other four encodings, and 3 clause encodings."
    assert [(n, other) for _, n, other in stated_numbers(text)] == [(5, False), (4, True), (3, False)]
    assert stated_numbers("the encodings of this chapter") == []


def test_every_number_of_encodings_in_the_prose_is_the_registrys() -> None:
    """The clause encodings of :data:`~nqueens_kit.methods.sat.encodings.ENCODINGS` (``native`` is no CNF: the
    prose names it apart); "the other N" is one fewer."""
    wrong = [f"{where}: {sentence!r} says {number}, the registry has {len(ENCODINGS) - other}"
             for where, text in prose() for sentence, number, other in stated_numbers(text)
             if number != len(ENCODINGS) - other]
    assert not wrong, "\n".join(wrong)


#: The sentence of each page that says what every method is and which solvers it has.
METHOD_SENTENCES = {"README.md": r"^Methods: (.*?)\n\n", "book/commands.md": r"^- The methods: (.*?)\n- "}


@pytest.mark.parametrize("page", list(METHOD_SENTENCES))
@pytest.mark.parametrize("method", ["ilp", "cp"])
def test_the_methods_sentence_names_every_solver_entry(page: str, method: str) -> None:
    found = re.search(METHOD_SENTENCES[page], (ROOT / page).read_text(encoding="utf-8"), re.S | re.M)
    assert found, f"{page} has no methods sentence"
    said = re.search(rf"`{method}` \(([^)]*)\)", " ".join(found.group(1).split()))
    assert said, f"{page} says nothing of --method {method}"
    missing = [name for name in METHODS[method].solvers() if name.replace("-", "").lower() not in
               said.group(1).replace("-", "").lower()]
    assert not missing, f"{page} does not name {missing} for --method {method}: {said.group(1)!r}"
    native = [name for name, entry in METHODS["sat"].solvers().items() if entry.capabilities.cardinality]
    if page == "README.md":
        assert all(f"`{name}`" in found.group(1) for name in native), native
