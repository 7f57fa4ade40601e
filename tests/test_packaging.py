"""The project's own promises: the same dependencies in pyproject.toml and the two conda environments, the README's
two set-up commands and CI calling the README's test command, the package's metadata for PyPI, the README's
extras and chapter times, and the book's reference pages held to the code they describe."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

if sys.version_info >= (3, 11):
    import tomllib
else:  # Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent


def _name(requirement: str) -> str:
    return re.split(r"[<>=!~\[ ;]", requirement.strip(), maxsplit=1)[0].lower().replace("_", "-")


#: The Python the kit is tested on (make test's venv, the chapters' stored times, the benchmarks).
TESTED_PYTHON = "3.11"


#: The conda environments and what each declares: environment.yml the course as ``make run`` installs it (the
#: runtime and the extras the Makefile's ``EXTRAS_course`` names), with the kit installed from the checkout
#: and not editable; environment-dev.yml every extra, with the kit installed editable.
ENVIRONMENTS = {"environment.yml": ("course",), "environment-dev.yml": None}
#: Conda packages no extra names: the interpreter, the installer, CBC (conda-forge's PuLP calls conda-forge's),
#: MiniZinc with Gecode (no PyPI package: Debian's or conda's).
CONDA_ONLY = {"environment.yml": {"python", "pip", "coin-or-cbc"},
              "environment-dev.yml": {"python", "pip", "coin-or-cbc", "minizinc"}}


def _environment_items(file: str = "environment.yml") -> tuple[list[str], list[str], list[str]]:
    """The conda items, the pip packages and the pip lines that install the kit itself (``-e .``,
    ``.[course]``) of an environment file's dependencies, comments left out."""
    conda, pip = [], []
    section = None
    for line in (ROOT / file).read_text().splitlines():
        stripped = line.split("#", 1)[0].rstrip()
        if re.match(r"^\S", stripped):
            section = stripped.rstrip(":")
            continue
        match = re.match(r"^(\s*)-\s+(.+)$", stripped)
        if section == "dependencies" and match:
            indent, item = match.groups()
            if item.startswith("pip:"):
                continue
            (pip if len(indent) > 2 else conda).append(item.strip())
    kit = [i for i in pip if i.startswith(("-e", "."))]
    return conda, [i for i in pip if i not in kit], kit


def _extras(project: dict, names: tuple[str, ...] | None) -> list[str]:
    """The extras ``names`` and every extra they include through ``nqueens-kit[...]`` (None: every extra)."""
    extras = project["optional-dependencies"]
    todo, seen = list(extras if names is None else names), []
    while todo:
        name = todo.pop(0)
        if name in seen:
            continue
        seen.append(name)
        for req in extras[name]:
            if _name(req) == "nqueens-kit":
                todo += re.fullmatch(r"nqueens-kit\[(.*)\]", req.replace(" ", "")).group(1).split(",")
    return seen


def _requirements(project: dict, extras: tuple[str, ...] | None = None) -> list[str]:
    """The requirements of pyproject.toml: the runtime ones and those of ``extras`` and the extras they include
    (None: every extra); the kit's own extras, ``nqueens-kit[...]``, left out: their packages are listed under
    their own names."""
    found = list(project["dependencies"])
    for name in _extras(project, extras):
        found += [r for r in project["optional-dependencies"][name] if _name(r) != "nqueens-kit"]
    return found


@pytest.mark.parametrize("file", sorted(ENVIRONMENTS))
def test_each_environment_declares_its_part_of_pyproject_with_its_versions(file):
    """environment.yml: the runtime and the course extra; environment-dev.yml: the runtime and every extra (the
    browser edition's too).  Each package pip would install on the pinned Python on Linux is in the file with
    the same version specifier, and nothing else is."""
    from packaging.markers import default_environment
    from packaging.requirements import Requirement
    from packaging.specifiers import SpecifierSet

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras = ENVIRONMENTS[file]
    where = {**default_environment(), "python_version": TESTED_PYTHON, "python_full_version": f"{TESTED_PYTHON}.0",
             "sys_platform": "linux", "platform_system": "Linux", "platform_machine": "x86_64"}
    wanted: dict[str, set[str]] = {}
    for text in _requirements(project, extras):
        req = Requirement(text)
        if req.marker is None or req.marker.evaluate(where):
            wanted.setdefault(_name(text), set()).add(str(req.specifier))
    conda, pip, _ = _environment_items(file)
    declared: dict[str, str] = {}
    for item in conda + pip:
        name = _name(item)
        assert name not in declared, f"{file} lists {name} twice"
        declared[name] = item[len(re.split(r"[<>=!~ ]", item, maxsplit=1)[0]):].strip()
    missing = set(wanted) - set(declared)
    assert not missing, f"missing from {file}: {sorted(missing)}"
    its_names = {_name(r) for r in _requirements(project, extras)}
    unknown = set(declared) - its_names - CONDA_ONLY[file]
    assert not unknown, f"{file} lists packages its extras {extras or 'all'} do not declare: {sorted(unknown)}"
    for name, specifiers in sorted(wanted.items()):
        assert len(specifiers) == 1, f"pyproject.toml asks for {name} as {sorted(specifiers)}"
        (specifier,) = specifiers
        assert SpecifierSet(declared[name]) == SpecifierSet(specifier), (
            f"{name}: {file} says {declared[name]!r}, pyproject.toml {specifier!r}")
    assert "nqueens-kit" not in declared


def test_the_light_environment_installs_what_make_run_does_not_editable():
    """environment.yml installs the kit from the checkout as a wheel with the extras make run installs;
    environment-dev.yml installs it editable."""
    makefile = (ROOT / "Makefile").read_text()
    run_extras = re.search(r"^EXTRAS_course := (.*)$", makefile, re.M).group(1).strip()
    assert re.search(r"^run: \$\(COURSE\)", makefile, re.M) and "COURSE := $(VENV)/.installed-course" in makefile
    assert ENVIRONMENTS["environment.yml"] == tuple(run_extras.split(","))
    assert _environment_items("environment.yml")[2] == [f".[{run_extras}]"]
    assert _environment_items("environment-dev.yml")[2] == ["-e ."]


def test_the_environment_pins_the_python_the_kit_is_tested_on():
    for file in ENVIRONMENTS:
        conda, _, _ = _environment_items(file)
        (python,) = [item for item in conda if _name(item) == "python"]
        assert python == f"python={TESTED_PYTHON}", f"{file} should pin python={TESTED_PYTHON}, not {python!r}"
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert f"Programming Language :: Python :: {TESTED_PYTHON}" in project["classifiers"]
    times = json.loads((ROOT / "notebooks" / "data" / "chapter-times.json").read_text())
    assert times["machine"]["python"].startswith(TESTED_PYTHON + "."), "the chapters were timed on another Python"


def test_environment_names():
    """Two names, so that both environments can live side by side."""
    assert re.search(r"^name:\s*nqueens-kit\s*$", (ROOT / "environment.yml").read_text(), re.M)
    assert re.search(r"^name:\s*nqueens-kit-dev\s*$", (ROOT / "environment-dev.yml").read_text(), re.M)


def test_readme_names_two_setup_commands_and_ci_uses_the_test_one():
    readme = (ROOT / "README.md").read_text()
    block = re.search(r"## Two commands.*?```bash\n(.*?)```", readme, re.S)
    assert block, "README has no 'Two commands' code block"
    commands = [l.split("#")[0].strip() for l in block.group(1).splitlines() if l.split("#")[0].strip()]
    assert commands == ["make run", "make test"]
    makefile = (ROOT / "Makefile").read_text()
    assert re.search(r"^run:", makefile, re.M) and re.search(r"^test:", makefile, re.M)
    assert "make test" in (ROOT / ".ci" / "run").read_text()


def test_the_debian_packages_named_are_the_ones_make_test_installs():
    makefile = (ROOT / "Makefile").read_text()
    packages = re.search(r"^SYSTEM_PACKAGES \?= (.*)$", makefile, re.M).group(1).split()
    assert "command -v npm" in makefile
    for page in (ROOT / "README.md", ROOT / "book" / "course.md"):
        text = " ".join(page.read_text().split())
        listed = re.search(r"installs the Debian packages the tests use \((.*?) where none is on PATH\)", text)
        assert listed, f"{page.name} does not list the Debian packages make test installs"
        assert re.findall(r"`([\w-]+)`", listed.group(1)) == packages + ["npm"], page.name


def test_console_script_declared():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["scripts"]["nqueens-kit"] == "nqueens_kit.cli:run"


def test_one_source_for_the_version(capsys):
    import importlib.metadata

    import nqueens_kit
    from nqueens_kit.cli import main

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "version" not in project["project"] and "version" in project["project"]["dynamic"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "nqueens_kit.__version__"}
    assert importlib.metadata.version("nqueens-kit") == nqueens_kit.__version__
    assert main(["--version"]) == 0 and capsys.readouterr().out.strip() == f"nqueens-kit {nqueens_kit.__version__}"


def test_license_declared_and_shipped():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["license"] == "MIT" and project["license-files"] == ["LICENSE"]
    assert (ROOT / "LICENSE").read_text().startswith("MIT License")


#: Where the project lives; the README links the book's pages under DOCS.
DOCS = "https://nqueens-kit.github.io/nqueens-kit/"
SOURCE = "https://github.com/nqueens-kit/nqueens-kit"


def test_the_metadata_a_stranger_reads_on_pypi():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["urls"] == {"Homepage": DOCS, "Documentation": DOCS, "Source": SOURCE, "Issues": SOURCE + "/issues",
                               "Changelog": SOURCE + "/blob/main/CHANGELOG.md"}
    assert project["authors"] and project["maintainers"]  # their addresses, if any, are CITATION.cff's (test_release)
    classifiers = project["classifiers"]
    assert sum(c.startswith("Development Status :: ") for c in classifiers) == 1
    assert {"Intended Audience :: Education", "Intended Audience :: Science/Research"} <= set(classifiers)
    assert not any(c.startswith("License :: ") for c in classifiers), "the license is the SPDX expression alone"
    least = re.fullmatch(r">=3\.(\d+)", project["requires-python"])
    assert least, project["requires-python"]
    minors = sorted(int(c.rsplit(".", 1)[1]) for c in classifiers if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", c))
    assert minors == list(range(int(least.group(1)), 14)), f"Python classifiers {minors}: 3.{least.group(1)} to 3.13"
    assert project["readme"] == "README.md"
    readme = (ROOT / "README.md").read_text()
    assert not re.search(r"\]\((?!https?://|#)", readme), "a relative link in the README (PyPI shows it broken)"


def _readme_table(heading: str) -> list[list[str]]:
    """The rows of the first table under a ``## heading`` of the README, each a list of its cells."""
    readme = (ROOT / "README.md").read_text()
    section = re.search(rf"^## {re.escape(heading)}\n(.*?)(?=^## |\Z)", readme, re.S | re.M)
    assert section, f"README has no section {heading!r}"
    rows = [line.strip().strip("|").split("|") for line in section.group(1).splitlines() if line.startswith("|")]
    return [[cell.strip() for cell in row] for row in rows[2:]]  # past the header and its rule


def test_the_readmes_extras_are_the_ones_pyproject_declares():
    """Every extra the README names exists; those it puts in ``course`` are there, those it leaves out are
    not; where it says an extra installs only on some Pythons or platforms, a marker says so."""
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    (course,) = extras["course"]
    in_course = set(re.fullmatch(r"nqueens-kit\[(.*)\]", course).group(1).split(","))
    rows = _readme_table("With pip")
    named = {}
    for cell, brings in rows:
        name = re.match(r"`([\w-]+)`", cell).group(1)
        assert name in extras, f"the README names an extra {name!r} that pyproject.toml lacks"
        named[name] = (cell, brings)
    assert in_course == set(named) - {"course"} - {n for n, (cell, _) in named.items() if "not in `course`" in cell}
    said = {"Python 3.11 and later": 'python_version >= "3.11"', "Linux on x86-64": 'platform_machine == "x86_64"',
            "macOS on Apple silicon": 'platform_machine == "arm64"'}  # what the README says: the marker it means
    for name, (_, brings) in named.items():
        for words, marker in said.items():
            if words in brings:
                assert any(marker in r for r in extras[name]), f"{name}: the README says {words!r}, no marker does"


def test_the_readmes_chapter_times_are_the_stored_ones():
    times = json.loads((ROOT / "notebooks" / "data" / "chapter-times.json").read_text())
    chapters = sorted(p.stem for p in (ROOT / "notebooks").glob("[0-9][0-9]-*.ipynb"))
    rows = _readme_table("The chapters")
    assert [row[0].strip("`") for row in rows] == chapters
    for row in rows:
        stored = times["chapters"][row[0].strip("`")]["full"]["cpu"]
        assert row[-1] == f"{stored:.0f} s", f"{row[0]}: the README says {row[-1]}, the stored CPU time is {stored} s"
    readme = " ".join((ROOT / "README.md").read_text().split())
    assert f"quiet {times['machine']['cpus']}-core machine on {times['machine']['date']}" in readme
    assert "a minimum" in readme and "processor time" in readme


def _book_pages() -> set[str]:
    """The book's own pages (the chapters are added when the site is built)."""
    return {p.stem for p in (ROOT / "book").glob("*.md")} - {"index"}


def test_the_reference_pages_are_linked_from_the_book_and_the_readme():
    index = (ROOT / "book" / "index.md").read_text()
    also = index[index.index("## Also in this book"):]
    linked = set(re.findall(r"\{doc\}`([\w-]+)`", also))
    assert linked == _book_pages(), f"not linked under 'Also in this book': {_book_pages() - linked}"
    for page in _book_pages() - {"references"}:  # the bibliography is in the book's toctree; the others not
        text = (ROOT / "book" / f"{page}.md").read_text()
        assert re.match(r"---\norphan: true\n---\n", text), f"book/{page}.md: not in a toctree, so orphan"
    readme = (ROOT / "README.md").read_text()
    pages = set(re.findall(re.escape(DOCS) + r"([\w-]+)\.html", readme))
    assert pages == _book_pages() - {"references"}, pages ^ (_book_pages() - {"references"})
    for page in set(re.findall(r"\{doc\}`(?:[^`<]*<)?([\w-]+)>?`", "".join(
            (ROOT / "book" / f"{p}.md").read_text() for p in _book_pages()))):
        assert page in _book_pages(), f"a page links {{doc}}`{page}`, which the book lacks"


@pytest.mark.parametrize("page", ["README.md", "book/commands.md"])
def test_every_command_and_option_in_a_synopsis_is_the_commands_own(page, capsys):
    """The synopses of the README and the command-line page name only commands and options that exist."""
    from nqueens_kit.cli.main import COMMAND_MODULES, main

    text = (ROOT / page).read_text()
    block = re.search(r"^```\n(nqueens-kit .*?)^```", text, re.S | re.M)
    assert block, f"{page} has no synopsis"
    commands = {c for names in COMMAND_MODULES.values() for c in names}
    seen = set()
    for line in re.sub(r"\n\s+\[", " [", block.group(1)).splitlines():  # continuation lines joined
        line = line.split("  #")[0]
        for part in re.split(r" \| (?=[a-z])", line.removeprefix("nqueens-kit ")):  # "trace ... | bnb ..."
            command = part.split()[0]
            assert command in commands, f"{page}: no command {command!r}"
            seen.add(command)
            options = set(re.findall(r"(?<![\w-])(--?[a-z][\w-]*)", part))
            if not options:
                continue
            try:
                main([command, "--help"])
            except SystemExit:
                pass
            usage = capsys.readouterr().out
            for option in options:
                assert re.search(rf"(?<![\w-]){re.escape(option)}\b", usage), f"{page}: {command} has no {option}"
    assert seen == commands, f"{page}: the synopsis leaves out {sorted(commands - seen)}"


def test_the_clause_counts_in_the_book_are_the_encoders():
    from nqueens_kit import Problem, build_cnf

    text = (ROOT / "book" / "library.md").read_text()
    rows = re.findall(r"^\| (\w+) \| (\d+) \| (\d+) \| .* \|$", text, re.M)
    assert len(rows) == 5
    for encoding, variables, clauses in rows:
        cnf = build_cnf(Problem(8), encoding)
        assert (cnf.num_vars, cnf.num_clauses) == (int(variables), int(clauses)), encoding
    assert build_cnf(Problem(7), "pairwise").num_clauses == 490 and "`p cnf 49 490` at n = 7" in text


def test_the_ilp_constraint_counts_in_the_book_are_the_models():
    from nqueens_kit import Problem
    from nqueens_kit.methods.ilp.model import build_model

    text = (ROOT / "book" / "commands.md").read_text()
    rows = re.findall(r"^\| `([\w-]+)`(?: \(default\))? \| .* \| (\d+) \|$", text, re.M)
    assert [name for name, _ in rows] == ["lines", "pairwise", "max-queens"]
    for name, constraints in rows:
        assert build_model(Problem(8), name).num_constraints == int(constraints), name


def test_every_package_is_listed():
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "nqueens_kit").rglob("__init__.py")}
    assert found <= listed, f"packages missing from pyproject.toml: {found - listed}"
    assert "nqueens_kit._notebooks" in listed


@pytest.mark.slow
def test_sdist_and_wheel_carry_tests_notebooks_and_types(tmp_path):
    """Build both (the wheel from the sdist, as pip does) and look inside.  From a clean copy of the tree:
    setuptools adds whatever a stale ``*.egg-info/SOURCES.txt`` lists, which would hide a MANIFEST.in gap."""
    import shutil
    import subprocess
    import sys
    import tarfile
    import zipfile

    source = tmp_path / "source"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(
        ".git", ".venv*", "build", "dist", "*.egg-info", "__pycache__", ".*_cache", "results", "report"))
    proc = subprocess.run([sys.executable, "-m", "build", "--outdir", str(tmp_path), str(source)],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    (wheel,) = tmp_path.glob("*.whl")
    (sdist,) = tmp_path.glob("*.tar.gz")
    names = set(zipfile.ZipFile(wheel).namelist())
    chapters = sorted(p.name for p in (ROOT / "notebooks").glob("[0-9][0-9]-*.ipynb"))
    assert {f"nqueens_kit/_notebooks/{name}" for name in chapters} <= names
    assert {"nqueens_kit/py.typed", "nqueens_kit/problem/data/nqueens_counts.json",
            "nqueens_kit/_notebooks/data/sweep.csv"} <= names
    assert any(name.endswith("licenses/LICENSE") for name in names)
    with tarfile.open(sdist) as archive:
        members = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    tests = {f"tests/{p.name}" for p in (ROOT / "tests").glob("*.py")}
    assert tests <= members and "tests/conftest.py" in members
    assert {f"notebooks/{name}" for name in chapters} <= members and "notebooks/data/sweep.csv" in members
    assert {"Makefile", "environment.yml", "environment-dev.yml", "LICENSE", "README.md", "pyproject.toml",
            "CHANGELOG.md", "CITATION.cff", "CONTRIBUTING.md", "tests/cff-1.2.0.schema.json"} <= members
    book = {p.relative_to(ROOT).as_posix() for p in (ROOT / "book").rglob("*")
            if p.is_file() and "__pycache__" not in p.parts}
    assert {"book/conf.py", "book/index.md", "book/references.bib", "book/build_site.py",
            "book/build_lite.py"} <= book <= members, book - members
    # The site's and the browser edition's build tooling stays in the checkout, out of the installed kit.
    assert not {"nqueens_kit/course/bundle.py", "nqueens_kit/course/lite.py"} & names
    metadata = zipfile.ZipFile(wheel).read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
    for line in (f"Project-URL: Source, {SOURCE}", f"Project-URL: Documentation, {DOCS}",
                 "Author: The nqueens-kit maintainers", "Classifier: Programming Language :: Python :: 3.13",
                 "Description-Content-Type: text/markdown", "License-Expression: MIT"):
        assert line in metadata.splitlines(), line
    assert "## With pip" in metadata


def test_the_installed_console_script_runs():
    """The ``nqueens-kit`` executable pip installed (not ``python -m``): a solve, a bad input, the version."""
    import json
    import shutil
    import subprocess
    import sys

    import nqueens_kit

    script = Path(sys.executable).with_name("nqueens-kit")
    script = script if script.exists() else shutil.which("nqueens-kit")
    assert script, "the nqueens-kit console script is not installed next to this Python"
    proc = subprocess.run([str(script), "solve", "8", "--json"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and json.loads(proc.stdout)["verified"] is True
    proc = subprocess.run([str(script), "solve", "0"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
    proc = subprocess.run([str(script), "--version"], capture_output=True, text=True, timeout=120)
    assert proc.stdout.strip() == f"nqueens-kit {nqueens_kit.__version__}"
