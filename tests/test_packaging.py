"""The project's own promises: the same dependencies in pyproject.toml and environment.yml, the README's
two set-up commands, and CI calling the README's test command."""

from __future__ import annotations

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


def _environment_names() -> tuple[set[str], set[str]]:
    conda, pip = set(), set()
    section = None
    for line in (ROOT / "environment.yml").read_text().splitlines():
        stripped = line.split("#", 1)[0].rstrip()
        if re.match(r"^\S", stripped):
            section = stripped.rstrip(":")
            continue
        match = re.match(r"^(\s*)-\s+(.+)$", stripped)
        if section == "dependencies" and match:
            indent, item = match.groups()
            if item.startswith("pip:"):
                continue
            (pip if len(indent) > 2 else conda).add(item)
    return {_name(i) for i in conda}, {_name(i) for i in pip if not i.startswith("-e")}


def test_runtime_dependencies_match():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    runtime = {_name(r) for r in project["dependencies"]}
    conda, pip = _environment_names()
    declared = conda | pip
    assert runtime <= declared, f"missing from environment.yml: {runtime - declared}"
    extras = {_name(r) for reqs in project["optional-dependencies"].values() for r in reqs}
    conda_only = {"python", "pip", "coin-or-cbc"}  # the interpreter, the installer, CBC for PuLP 4.x
    unknown = declared - runtime - extras - conda_only
    assert not unknown, f"environment.yml lists packages pyproject.toml does not declare: {unknown}"
    assert "nqueens-kit" not in declared
    assert "-e ." in (ROOT / "environment.yml").read_text()


def test_environment_name():
    assert re.search(r"^name:\s*nqueens-kit\s*$", (ROOT / "environment.yml").read_text(), re.M)


def test_readme_names_two_setup_commands_and_ci_uses_the_test_one():
    readme = (ROOT / "README.md").read_text()
    block = re.search(r"## Two commands.*?```bash\n(.*?)```", readme, re.S)
    assert block, "README has no 'Two commands' code block"
    commands = [l.split("#")[0].strip() for l in block.group(1).splitlines() if l.split("#")[0].strip()]
    assert commands == ["make run", "make test"]
    makefile = (ROOT / "Makefile").read_text()
    assert re.search(r"^run:", makefile, re.M) and re.search(r"^test:", makefile, re.M)
    assert "make test" in (ROOT / ".ci" / "run").read_text()


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


def test_every_package_is_listed():
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "nqueens_kit").rglob("__init__.py")}
    assert found <= listed, f"packages missing from pyproject.toml: {found - listed}"
    assert "nqueens_kit._notebooks" in listed


@pytest.mark.slow
def test_sdist_and_wheel_carry_tests_notebooks_and_types(tmp_path):
    """Build both (the wheel from the sdist, as pip does) and look inside."""
    import subprocess
    import sys
    import tarfile
    import zipfile

    proc = subprocess.run([sys.executable, "-m", "build", "--outdir", str(tmp_path), str(ROOT)],
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
    assert {"Makefile", "environment.yml", "LICENSE", "README.md", "pyproject.toml"} <= members


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
