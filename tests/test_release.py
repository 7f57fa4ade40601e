"""A release a lecturer can pin and cite: one version everywhere, a valid citation, a wheel that says its licence
and who to ask.

- ``nqueens_kit.__version__`` (the one source: pyproject.toml reads it) is a semantic version, the top release
  of CHANGELOG.md (Keep a Changelog: an ``Unreleased`` section may stand above it, nothing else), and the
  ``version`` of CITATION.cff, whose ``date-released`` is that release's date;
- CITATION.cff is valid Citation File Format 1.2.0, checked against the schema published with the
  specification (``tests/cff-1.2.0.schema.json``: "Citation File Format" 1.2.0 by Stephan Druskat et al.,
  https://github.com/citation-file-format/citation-file-format, CC BY 4.0, copied unchanged), and says what
  pyproject.toml says: the title, the summary, the licence, the authors, the addresses, the keywords;
- the README's and the book's "Cite this" give the same version and year and point to CITATION.cff;
- a wheel built from the tree says its licence (``License-Expression``) and its contact (the authors and
  maintainers, their addresses if any, the issue tracker), and ``pip show`` prints the licence.
"""

from __future__ import annotations

import email.parser
import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

if sys.version_info >= (3, 11):
    import tomllib
else:  # Python 3.10
    import tomli as tomllib

import nqueens_kit

ROOT = Path(__file__).resolve().parent.parent
#: Semantic Versioning 2.0.0's grammar (its regular expression, build metadata left out: a release has none).
SEMVER = re.compile(r"(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)"
                    r"(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?")
#: A release's heading in CHANGELOG.md, ``## [1.0.0] - 2026-11-29``.
RELEASE = re.compile(r"## \[([^\]]+)\] - (\d{4}-\d{2}-\d{2})")


def _project() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def _citation() -> dict:
    import yaml

    # YAML reads an unquoted date as a date; the schema (and a JSON copy of the file) has it as text
    return json.loads(json.dumps(yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8")), default=str))


def _changelog_sections() -> list[str]:
    """The headings of CHANGELOG.md's sections (``## ...``), in order."""
    return re.findall(r"^## .*$", (ROOT / "CHANGELOG.md").read_text(encoding="utf-8"), re.M)


def _top_release() -> tuple[str, str]:
    """The version and date of CHANGELOG.md's newest release (an ``Unreleased`` section above it aside)."""
    sections = _changelog_sections()
    assert sections, "CHANGELOG.md has no section"
    if sections[0] == "## [Unreleased]":
        sections = sections[1:]
    assert sections, "CHANGELOG.md has no release, only Unreleased"
    found = RELEASE.fullmatch(sections[0])
    assert found, f"CHANGELOG.md's top section is {sections[0]!r}, not '## [VERSION] - YYYY-MM-DD'"
    return found.group(1), found.group(2)


def _emails(people: list[dict]) -> set[str]:
    return {person["email"] for person in people if "email" in person}


def test_the_version_is_semantic():
    assert SEMVER.fullmatch(nqueens_kit.__version__), f"{nqueens_kit.__version__!r} is not MAJOR.MINOR.PATCH"


def test_the_changelogs_top_release_is_the_packages_version():
    from packaging.version import Version

    version, date = _top_release()
    assert version == nqueens_kit.__version__, (
        f"CHANGELOG.md's top release is {version}, the package is {nqueens_kit.__version__}: a release needs its entry")
    sections = _changelog_sections()
    assert "## [Unreleased]" not in sections[1:], "Unreleased stands on top, once"
    releases = [RELEASE.fullmatch(s) for s in sections if s != "## [Unreleased]"]
    assert all(releases), [s for s, r in zip(sections, releases) if not r]
    versions = [Version(r.group(1)) for r in releases]
    dates = [r.group(2) for r in releases]
    assert versions == sorted(versions, reverse=True) and len(set(versions)) == len(versions), "newest first, once"
    assert dates == sorted(dates, reverse=True), "release dates newest first"
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    entry = text.split(f"## [{version}] - {date}", 1)[1].split("\n## ", 1)[0]
    assert re.search(r"^### (Added|Changed|Deprecated|Removed|Fixed|Security)$", entry, re.M), (
        "the top release says nothing under Keep a Changelog's headings")
    for name in ["Unreleased"] * ("## [Unreleased]" in sections) + [r.group(1) for r in releases]:
        assert re.search(rf"^\[{re.escape(name)}\]: https://", text, re.M), f"CHANGELOG.md has no link for [{name}]"


def test_the_citation_is_valid_cff_1_2_0():
    from jsonschema import Draft7Validator, FormatChecker

    schema = json.loads((ROOT / "tests" / "cff-1.2.0.schema.json").read_text(encoding="utf-8"))
    assert schema["$id"] == "https://citation-file-format.github.io/1.2.0/schema.json"
    validator = Draft7Validator(schema, format_checker=FormatChecker())
    citation = _citation()
    assert citation["cff-version"] == "1.2.0"
    errors = [f"{'/'.join(map(str, e.absolute_path)) or '(top)'}: {e.message}" for e in validator.iter_errors(citation)]
    assert not errors, "CITATION.cff is not valid CFF 1.2.0:\n" + "\n".join(errors)
    # the schema is the one that refuses: a licence that is no SPDX identifier, an impossible date
    wrong = {**citation, "license": "MIT License", "date-released": "2026-02-30"}
    assert len(list(validator.iter_errors(wrong))) >= 2


def test_the_citation_says_what_the_package_says():
    citation, project = _citation(), _project()
    version, date = _top_release()
    assert citation["version"] == nqueens_kit.__version__ == version
    assert citation["date-released"] == date, f"CITATION.cff's date-released, CHANGELOG.md's {version}: {date}"
    assert citation["type"] == "software"
    assert citation["title"] == project["name"]
    assert citation["abstract"] == project["description"]
    assert citation["license"] == project["license"]
    assert citation["keywords"] == project["keywords"]
    assert citation["repository-code"] == project["urls"]["Source"]
    assert citation["url"] == project["urls"]["Homepage"]
    assert [a["name"] for a in citation["authors"]] == [a["name"] for a in project["authors"]]
    # a contact: the maintainers, at their address where pyproject.toml gives one, and the issue tracker
    contacts = citation["contact"]
    assert [c["name"] for c in contacts] == [m["name"] for m in project["maintainers"]]
    assert _emails(citation["authors"] + contacts) == _emails(project["authors"] + project["maintainers"]), (
        "an address in CITATION.cff or pyproject.toml that the other lacks")
    assert all("email" in c or c.get("website") == project["urls"]["Issues"] for c in contacts)


def _cite_section(path: Path, heading: str) -> str:
    text = path.read_text(encoding="utf-8")
    section = re.search(rf"^{re.escape(heading)}\n(.*?)(?=^#{{1,2}} |\Z)", text, re.S | re.M)
    assert section, f"{path.name} has no section {heading!r}"
    return " ".join(section.group(1).split())


@pytest.mark.parametrize("page", ["README.md", "book/index.md"])
def test_the_readme_and_the_book_cite_this_release(page):
    citation = _citation()
    text = _cite_section(ROOT / page, "## Cite this")
    year = citation["date-released"][:4]
    assert f"({year})" in text and f"year = {{{year}}}" in text, f"{page}: the year of the release, {year}"
    assert f"Version {citation['version']}" in text and f"version = {{{citation['version']}}}" in text, (
        f"{page}: the version of the release, {citation['version']}")
    assert citation["repository-code"] in text and f"{citation['repository-code']}/blob/main/CITATION.cff" in text
    pins = re.findall(r"nqueens-kit\[course\]==([\w.+-]+)", text)
    assert pins and set(pins) == {citation["version"]}, f"{page}: pins {pins}, the release is {citation['version']}"
    for author in citation["authors"]:
        assert author["name"] in text


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """A wheel built from a clean copy of the tree (no stale build folder or egg-info is read)."""
    tmp = tmp_path_factory.mktemp("release")
    source = tmp / "source"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(
        ".git", ".venv*", "build", "dist", "*.egg-info", "__pycache__", ".*_cache", "results", "report", "my-course*"))
    proc = subprocess.run([sys.executable, "-m", "build", "--wheel", "--outdir", str(tmp / "dist"), str(source)],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    (built,) = (tmp / "dist").glob("*.whl")
    return built


@pytest.mark.slow
def test_the_wheel_says_its_licence_and_its_contact(wheel):
    with zipfile.ZipFile(wheel) as archive:
        text = archive.read(next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))).decode()
    metadata = email.parser.HeaderParser().parsestr(text)
    project = _project()
    assert metadata["Version"] == nqueens_kit.__version__
    assert tuple(map(int, metadata["Metadata-Version"].split("."))) >= (2, 4), "License-Expression is metadata 2.4"
    assert metadata["License-Expression"] == project["license"] == "MIT"
    # one licence field: core metadata 2.4 makes License and License-Expression exclusive
    assert metadata["License"] is None and not any(c.startswith("License ::") for c in metadata.get_all("Classifier"))
    assert metadata.get_all("License-File") == ["LICENSE"]
    # a person with an address is written "Name <address>" under Author-email (Maintainer-email), else under Author
    people = " ".join(value for field in ("Author", "Maintainer", "Author-email", "Maintainer-email")
                      for value in metadata.get_all(field, []))
    for person in project["authors"] + project["maintainers"]:
        assert person["name"] in people, f"the wheel does not name {person['name']!r}"
    assert set(re.findall(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+", people)) == _emails(
        project["authors"] + project["maintainers"]), "the wheel's addresses are not pyproject.toml's"
    urls = dict(u.split(", ", 1) for u in metadata.get_all("Project-URL"))
    assert urls["Issues"] == project["urls"]["Issues"] and urls["Changelog"].endswith("/CHANGELOG.md")
    assert {c.get("website") for c in _citation()["contact"]} <= {urls["Issues"], None}


@pytest.mark.slow
def test_pip_show_prints_the_licence(wheel, tmp_path):
    """pip shows License-Expression from pip 25.0 on (before it, the License field alone, empty here)."""
    from importlib.metadata import version

    from packaging.version import Version

    if Version(version("pip")) < Version("25.0"):
        pytest.skip(f"pip {version('pip')} prints only the legacy License field (pip 25.0 prints the expression)")
    target = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(target)], check=True, timeout=120)
    python = target / ("Scripts/python.exe" if sys.platform == "win32" else "bin/python")
    pip = [sys.executable, "-m", "pip", "--python", str(python), "--disable-pip-version-check"]
    # the new environment's own path only: a PYTHONPATH (a checkout's folder) would show another kit
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    subprocess.run([*pip, "install", "--quiet", "--no-deps", "--no-index", str(wheel)], check=True, timeout=300,
                   env=env)
    shown = subprocess.run([*pip, "show", "nqueens-kit"], capture_output=True, text=True, timeout=120, env=env).stdout
    lines = shown.splitlines()
    assert f"Version: {nqueens_kit.__version__}" in lines
    assert "License-Expression: MIT" in lines, shown
    assert "Author: The nqueens-kit maintainers" in lines, shown
    assert f"Home-page: {_project()['urls']['Homepage']}" in lines, shown
