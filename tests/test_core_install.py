"""``pip install nqueens-kit`` is the core: the library, its compiled kernels and the command line, with no
figure and no widget.  What needs an extra (matplotlib for the figures: ``plots``; ipywidgets for the apps:
``widgets``; ``course`` brings both) says which, in one line, when it is missing.

The cheap tests hide the extras' packages from a fresh interpreter (``sys.modules[name] = None``, which Python's
import refuses as it refuses a package that is not installed); the deep one installs the kit's wheel with its
core dependencies alone into a new venv, from the package index, and runs the command there.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from nqueens_kit.runtime.extras import EXTRA_OF

ROOT = Path(__file__).resolve().parents[1]

#: Run first in every fresh interpreter here: the packages only an extra brings are not there.
HIDE_EXTRAS = f"import sys\nfor name in {sorted(EXTRA_OF)!r}:\n    sys.modules[name] = None\n"

#: The command in a fresh interpreter without the extras (main itself: the quick path is tested on its own).
COMMAND = HIDE_EXTRAS + "from nqueens_kit.cli.main import end, main\nend(main(sys.argv[1:]))\n"


def _without_extras(code: str, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=300,
                          cwd=cwd, check=False)


def _command(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return _without_extras(COMMAND, *args, cwd=cwd)


def test_importing_the_kit_and_the_quick_path_load_no_extra():
    code = ("import sys, nqueens_kit\nfrom nqueens_kit.cli.quick import quick_answer\n"
            "assert quick_answer(['solve', '8']) == 0\nprint(' '.join(sorted(sys.modules)), file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    loaded = {name.partition(".")[0] for name in done.stderr.split()}
    assert "nqueens_kit" in loaded and "pycosat" in loaded
    assert not loaded & set(EXTRA_OF), sorted(loaded & set(EXTRA_OF))


@pytest.mark.parametrize("argv", [["solve", "8"], ["solve", "8", "--method", "ilp"], ["count", "6"], ["cnf", "4"],
                                  ["solve", "12", "--method", "backtrack"], ["count", "8", "--method", "backtrack"],
                                  ["solvers"]], ids=" ".join)
def test_the_core_commands_run_without_the_extras(argv):
    done = _command(*argv)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr


def test_a_sweep_without_a_plot_runs_without_the_extras(tmp_path):
    done = _command("bench", "--n", "4,5", "--methods", "construct", "--repeat", "1", "--quiet", "--out", "r.csv",
                    cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert len((tmp_path / "r.csv").read_text().splitlines()) == 3  # the header and a row per n


@pytest.mark.parametrize("argv", [
    ["plot", "r.csv", "-o", "fig.png"],
    ["report", "r.csv", "-o", "report"],
    ["bench", "--n", "4", "--methods", "construct", "--out", "new.csv", "--plot", "fig.png"],
], ids=lambda argv: argv[0] + (" --plot" if "--plot" in argv else ""))
def test_a_drawing_command_names_the_extra_in_one_line(argv, tmp_path):
    made = _command("bench", "--n", "4", "--methods", "construct", "--repeat", "1", "--quiet", "--out", "r.csv",
                    cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    done = _command(*argv, cwd=tmp_path)
    assert (done.returncode, done.stdout) == (2, ""), done.stderr
    assert done.stderr == f'nqueens-kit: error: {argv[0]} needs matplotlib: pip install "nqueens-kit[plots]"\n'
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.csv", "r.csv.meta.json"]  # nothing run, nothing drawn


@pytest.mark.parametrize(("module", "package", "extra"), [
    ("nqueens_kit.apps", "ipywidgets", "widgets"),
    ("nqueens_kit.viz.charts", "matplotlib", "plots"),
    ("nqueens_kit.viz.boards", "matplotlib", "plots"),
    ("nqueens_kit.inside.figures", "matplotlib", "plots"),
])
def test_importing_what_needs_an_extra_names_it(module, package, extra):
    code = HIDE_EXTRAS + textwrap.dedent(f"""
        import json
        try:
            import {module}
        except ImportError as exc:
            from nqueens_kit.errors import NQueensError
            print(json.dumps([type(exc).__name__, str(exc), exc.name, isinstance(exc, NQueensError)]))
    """)
    done = _without_extras(code)
    assert done.returncode == 0, done.stderr
    name, message, missing, ours = json.loads(done.stdout)
    assert message == f'{module} needs {package}: pip install "nqueens-kit[{extra}]"'
    assert (name, missing, ours) == ("ExtraNeeded", package, True)


def test_a_function_that_draws_names_the_extra_and_the_rest_of_its_module_works():
    code = HIDE_EXTRAS + textwrap.dedent("""
        from nqueens_kit.course import lessons
        from nqueens_kit.viz import style
        print(lessons.small_sizes() in (True, False), style.style_for("sat", "pairwise")["color"].startswith("#"))
        for call in (lessons.projector_style, style.use_presentation):
            try:
                call()
            except ImportError as exc:
                print(exc)
    """)
    done = _without_extras(code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "True True",
        'nqueens_kit.course.lessons.projector_style needs matplotlib: pip install "nqueens-kit[plots]"',
        'nqueens_kit.viz.style.use_presentation needs matplotlib: pip install "nqueens-kit[plots]"']


def test_each_extra_named_is_one_pyproject_declares_with_its_package():
    import re

    if sys.version_info >= (3, 11):
        import tomllib
    else:
        import tomli as tomllib
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras = project["optional-dependencies"]

    def brings(extra: str) -> set[str]:
        found = set()
        for requirement in extras[extra]:
            name = re.split(r"[<>=!~\[ ;]", requirement, maxsplit=1)[0].lower()
            inner = re.fullmatch(r"nqueens-kit\[(.*)\]", requirement)
            found |= set().union(*(brings(e) for e in inner.group(1).split(","))) if inner else {name}
        return found

    core = {re.split(r"[<>=!~\[ ;]", r, maxsplit=1)[0].lower() for r in project["dependencies"]}
    for package, extra in EXTRA_OF.items():
        distribution = {"IPython": "ipywidgets"}.get(package, package)  # IPython comes with ipywidgets
        assert distribution in brings(extra) and distribution in brings("course"), (package, extra)
        assert distribution not in core, f"{distribution} is a core dependency, not only the {extra} extra's"


@pytest.mark.deep
def test_the_wheel_installs_the_core_alone_and_its_command_runs(tmp_path):
    """The kit's wheel, built from a clean copy of the tree, into a new venv with what pip resolves for it from
    the package index: the core dependencies only.  Then the command as a user of ``pip install nqueens-kit``
    runs it (a minute or two: the venv, pycosat compiled, numba and its LLVM downloaded)."""
    import shutil

    source, wheels, venv = tmp_path / "source", tmp_path / "wheels", tmp_path / "venv"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(
        ".git", ".venv*", "build", "dist", "*.egg-info", "__pycache__", ".*_cache", "results", "report", "my-course"))
    python, script = venv / "bin" / "python", venv / "bin" / "nqueens-kit"

    # nothing of this interpreter's: its path (the checkout, were it on PYTHONPATH) would let pip take the kit
    # as installed already
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}

    def run(*argv: str | Path) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(a) for a in argv], capture_output=True, text=True, timeout=900, cwd=tmp_path,
                              env=env, check=False)

    assert run(sys.executable, "-m", "venv", venv).returncode == 0
    built = run(python, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", wheels, source)
    assert built.returncode == 0, built.stderr[-2000:]
    (wheel,) = wheels.glob("nqueens_kit-*.whl")
    installed = run(python, "-m", "pip", "install", "--quiet", wheel)
    assert installed.returncode == 0, installed.stderr[-2000:]
    listed = json.loads(run(python, "-m", "pip", "list", "--format", "json").stdout)
    names = {row["name"].lower() for row in listed}
    assert {"nqueens-kit", "pycosat", "pulp", "numpy", "numba", "psutil", "tqdm"} <= names, names
    assert not {"matplotlib", "ipywidgets", "ipython", "jupyterlab"} & names, names

    solved = run(script, "solve", "8")
    assert solved.returncode == 0 and "8-queens (SAT, pairwise encoding, pycosat): solved, verified" in solved.stdout
    counted = run(script, "count", "6", "--json")
    assert counted.returncode == 0 and json.loads(counted.stdout)["count"] == 4, counted.stderr
    cnf = run(script, "cnf", "4")
    assert cnf.returncode == 0 and "p cnf 16 " in cnf.stdout
    compiled = run(script, "count", "8", "--method", "backtrack", "--json")  # the search method
    assert compiled.returncode == 0 and json.loads(compiled.stdout)["count"] == 92, compiled.stderr
    refused = run(script, "plot", "results.csv", "-o", "fig.png")
    assert (refused.returncode, refused.stdout) == (2, "")
    assert refused.stderr == 'nqueens-kit: error: plot needs matplotlib: pip install "nqueens-kit[plots]"\n'
    apps = run(python, "-c", "import nqueens_kit.apps")
    assert apps.returncode == 1
    assert apps.stderr.splitlines()[-1] == ('nqueens_kit.errors.ExtraNeeded: nqueens_kit.apps needs ipywidgets: '
                                            'pip install "nqueens-kit[widgets]"')
