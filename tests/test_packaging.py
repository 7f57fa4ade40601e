"""The project's own promises: the same dependencies in pyproject.toml and environment.yml, the README's
two set-up commands, and CI calling the README's test command."""

from __future__ import annotations

import re
from pathlib import Path

import tomllib

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
