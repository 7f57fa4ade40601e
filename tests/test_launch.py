"""A chapter launched from its page, away from a checkout: in Colab (a Python with IPython and no kit) its
first cell installs the kit, and on Binder the repository's ``binder/`` folder builds the course's environment.

- The install cell is run in a fresh venv holding only IPython, as Colab has it, with git told to fetch the
  repository ``pyproject.toml`` names from a copy of this checkout tagged with the kit's version (git's
  ``url.<base>.insteadOf``): pip installs the kit with the course extra from it, ``import nqueens_kit`` then
  gives this version, and the cell run again calls no pip and prints nothing (deep: a few minutes).
- Binder's requirements are resolved by pip (``--dry-run --report``) on the Python ``binder/runtime.txt``
  names: the kit of this checkout with every package the course extra asks for there.

``tests/test_notebooks.py`` checks the install cell itself (it is every chapter's first code cell, and does
nothing where the kit is installed); ``tests/test_bundle.py`` and ``tests/test_site.py`` check the pages'
launch and download menus.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from packaging.markers import default_environment
from packaging.requirements import Requirement

from nqueens_kit import __version__

from .conftest import need
from .test_notebooks import install_cell_source, repository_url

try:
    import tomllib
except ImportError:  # Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[1]
BINDER = ROOT / "binder"

#: Runs a cell in an IPython shell and prints, after its output, the line magics it called (and ran).
RUN_CELL = """\
import json, sys
from IPython.core.interactiveshell import InteractiveShell
shell = InteractiveShell.instance()
calls, run = [], shell.run_line_magic
def recorded(magic, line, *args, **kwargs):
    calls.append([magic, line])
    return run(magic, line, _stack_depth=2)
shell.run_line_magic = recorded
result = shell.run_cell(open(sys.argv[1], encoding="utf-8").read())
print("cell:" + json.dumps({"ok": result.success, "calls": calls}))
"""


def _python_of(runtime: str) -> str | None:
    """An interpreter of the version ``binder/runtime.txt`` names (``python-3.11``), or None."""
    version = runtime.strip().removeprefix("python-")
    if f"{sys.version_info.major}.{sys.version_info.minor}" == version:
        return sys.executable
    return shutil.which(f"python{version}")


def _course_requirements(environment: dict[str, str]) -> set[str]:
    """The distributions the course extra asks for in ``environment`` (its extras followed, markers evaluated)."""
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    wanted, seen, todo = set(), set(), ["course"]
    while todo:
        extra = todo.pop()
        seen.add(extra)
        for line in extras[extra]:
            requirement = Requirement(line)
            if requirement.marker is not None and not requirement.marker.evaluate({**environment, "extra": extra}):
                continue
            if requirement.name == "nqueens-kit":
                todo += [e for e in requirement.extras if e not in seen]
            else:
                wanted.add(requirement.name.lower())
    return wanted


def test_binder_builds_the_course_from_this_checkout_on_its_python(tmp_path: Path) -> None:
    """binder/requirements.txt resolves on the Python binder/runtime.txt names, to the kit of this checkout
    with the course extra and every package that extra asks for there."""
    runtime = (BINDER / "runtime.txt").read_text()
    assert re.fullmatch(r"python-3\.\d+\s*", runtime), runtime
    python = _python_of(runtime)
    need(python is not None, f"{runtime.strip().replace('-', '')} for Binder's environment")
    report = tmp_path / "report.json"
    proc = subprocess.run([python, "-m", "pip", "install", "--dry-run", "--ignore-installed", "--quiet",
                           "--report", str(report), "-r", str(BINDER / "requirements.txt")],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)  # repo2docker's folder
    assert proc.returncode == 0, proc.stderr[-2000:]
    installs = {item["metadata"]["name"].lower(): item for item in json.loads(report.read_text())["install"]}
    kit = installs["nqueens-kit"]
    assert kit["metadata"]["version"] == __version__ and "course" in kit["requested_extras"]
    assert kit["download_info"]["url"] == ROOT.as_uri()
    probe = subprocess.run([python, "-c", "import json; from packaging.markers import default_environment as d; "
                            "print(json.dumps(d()))"], capture_output=True, text=True)
    environment = json.loads(probe.stdout) if probe.returncode == 0 else default_environment()
    missing = {name for name in _course_requirements(environment)
               if name not in installs and name.replace("_", "-") not in installs}
    assert not missing, f"the course extra asks for {sorted(missing)}, which Binder's environment lacks"


def _checkout_copy(folder: Path) -> Path:
    """This checkout's files (tracked or new, not ignored) as a git repository of their own, tagged with the
    kit's version as a release is: what pip fetches from the repository's tag."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                            capture_output=True, text=True, check=True).stdout.split("\0")
    for name in filter(None, listed):
        if (ROOT / name).is_file():
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(ROOT / name, folder / name)
    git = ["git", "-c", "user.name=nqueens-kit", "-c", "user.email=nqueens-kit@localhost", "-c", "init.defaultBranch=main"]
    for command in (["init", "--quiet"], ["add", "--all"], ["commit", "--quiet", "-m", "the checkout"],
                    ["tag", f"v{__version__}"]):
        subprocess.run(git + command, cwd=folder, check=True, capture_output=True)
    return folder


def _run_cell(python: Path, cell: Path, env: dict[str, str]) -> tuple[dict[str, object], str]:
    proc = subprocess.run([str(python), "-c", RUN_CELL, str(cell)], capture_output=True, text=True, env=env,
                          cwd=cell.parent, timeout=1800)
    assert proc.returncode == 0, proc.stderr[-3000:]
    shown, _, answer = proc.stdout.rpartition("cell:")
    return json.loads(answer), shown + proc.stderr


@pytest.mark.deep
def test_the_install_cell_installs_the_kit_in_a_fresh_python_and_then_does_nothing(tmp_path: Path) -> None:
    need(shutil.which("git") is not None, "git, which pip fetches the kit with")
    repository = _checkout_copy(tmp_path / "repository")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = venv / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", "ipython"], check=True, timeout=600)
    # git fetches the repository the cell names from the copy instead (pip runs git, which reads this).
    env = {**os.environ, "GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": f"url.{repository.as_uri()}.insteadOf",
           "GIT_CONFIG_VALUE_0": repository_url(), "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    for name in ("PYTHONPATH", "CI", "PYTEST_VERSION", "PYTEST_CURRENT_TEST"):
        env.pop(name, None)
    cell = tmp_path / "cell.py"
    cell.write_text(install_cell_source())
    found = subprocess.run([str(python), "-c", "import nqueens_kit"], capture_output=True, env=env, cwd=tmp_path)
    assert found.returncode != 0, "the fresh Python already has the kit"

    answer, _ = _run_cell(python, cell, env)
    pinned = f'install --quiet "nqueens-kit[course] @ git+{repository_url()}@v{__version__}"'
    assert answer == {"ok": True, "calls": [["pip", pinned]]}
    check = ("import importlib.metadata as m, nqueens_kit, pysat, jupyterlab; "
             "print(nqueens_kit.__version__, nqueens_kit.__file__, m.version('jupyterlab'))")
    proc = subprocess.run([str(python), "-c", check], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr[-2000:]
    version, where, _ = proc.stdout.split()
    assert version == __version__ and Path(where).is_relative_to(venv), proc.stdout

    again, shown = _run_cell(python, cell, env)
    assert again == {"ok": True, "calls": []} and shown == "", (again, shown)
