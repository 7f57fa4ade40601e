"""The command's quick path (``nqueens-kit solve N`` for a small board) answers exactly as the full command
does, imports next to nothing, and costs about what a plain pycosat script costs."""

from __future__ import annotations

import importlib.util
import os
import re
import statistics
import subprocess
import sys
from pathlib import Path

import pytest

from nqueens_kit import build_cnf
from nqueens_kit.cli.quick import QUICK_MAX_N, pairwise_formula, quick_answer

ROOT = Path(__file__).resolve().parents[1]
TIMES = re.compile(r"built in \d+\.\d{3} s, solved in \d+\.\d{3} s")


def _command(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "nqueens_kit", *args], capture_output=True, text=True,
                          timeout=120, check=False)


def _full(*args: str) -> subprocess.CompletedProcess[str]:
    """The full command, whatever the arguments: main() itself, never the quick path."""
    code = "import sys; from nqueens_kit.cli.main import main, end; end(main(sys.argv[1:]))"
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=120,
                          check=False)


@pytest.mark.parametrize("n", range(1, QUICK_MAX_N + 1))
def test_the_quick_formula_is_the_kits_clause_for_clause(n):
    assert pairwise_formula(n) == build_cnf(n).clauses


@pytest.mark.parametrize("n", [*range(1, QUICK_MAX_N + 1), QUICK_MAX_N + 1])
def test_the_quick_path_prints_what_the_full_command_prints(n):
    quick, full = _command("solve", str(n)), _full("solve", str(n))
    assert (quick.returncode, TIMES.sub("", quick.stdout), quick.stderr) == \
        (full.returncode, TIMES.sub("", full.stdout), full.stderr)
    if n not in (2, 3):
        assert "solved, verified" in quick.stdout and quick.returncode == 0


def test_the_quick_path_answers_only_plain_solve_of_a_small_board(capsys):
    for argv in (["solve", "8", "--json"], ["solve", str(QUICK_MAX_N + 1)], ["solve", "0"], ["solve", "-8"],
                 ["solve", "٨"], ["solve", "8.0"], ["count", "8"], ["solve"], [], ["solve", "8", "8"],
                 ["--help"], ["solve", "999"], ["solve", "2"], ["solve", "3"]):
        assert quick_answer(argv) is None, argv
    assert capsys.readouterr().out == ""  # nothing printed when the full command is to answer
    assert quick_answer(["solve", "8"]) == 0
    assert "8-queens (SAT, pairwise encoding, pycosat): solved, verified" in capsys.readouterr().out


def test_a_board_the_rules_refuse_goes_to_the_full_command(monkeypatch, capsys):
    """Were pycosat to answer a wrong model, the quick path prints nothing and leaves it to the full command,
    which reports it as the bug it is."""
    import pycosat

    monkeypatch.setattr(pycosat, "solve", lambda clauses, vars: list(range(1, vars + 1)))
    assert quick_answer(["solve", "8"]) is None
    assert capsys.readouterr().out == ""


def test_the_quick_path_imports_next_to_nothing():
    """Only pycosat and the kit's rules, the package and the command's entry: none of the modules whose loading
    is the full command's cost."""
    code = ("import sys; from nqueens_kit.cli import quick; quick.quick_answer(['solve', '8']); "
            "print(' '.join(sorted(sys.modules)))")
    loaded = set(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                                timeout=60).stdout.split())
    kit = {name for name in loaded if name.startswith("nqueens_kit")}
    assert kit == {"nqueens_kit", "nqueens_kit.cli", "nqueens_kit.cli.quick", "nqueens_kit.cli.startup",
                   "nqueens_kit.problem", "nqueens_kit.problem.rules"}, kit
    heavy = {"typing", "dataclasses", "argparse", "pathlib", "inspect", "enum", "re", "ctypes", "numpy"}
    # an editable install's finder (a .pth file) loads some of them for every Python of its venv
    editable = any(name.startswith("__editable__") for name in loaded)
    assert not (heavy - ({"typing", "pathlib", "re", "enum", "inspect"} if editable else set())) & loaded, \
        sorted(heavy & loaded)


def _tree_cpu(argv: list[str], env: dict[str, str]) -> float:
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    _, status, usage = os.wait4(proc.pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0, argv
    return usage.ru_utime + usage.ru_stime


@pytest.mark.slow
def test_solve_8_costs_at_most_twice_the_plain_pycosat_script():
    """``benchmarks/bench_cli.py``'s anchor against ``nqueens-kit solve 8``: processor time of the whole process,
    paired and interleaved, the median of the ratios of 9 rounds under 2 (measured 1.3 on an installed wheel;
    an editable install's finder costs the anchor too)."""
    spec = importlib.util.spec_from_file_location("bench_cli", ROOT / "benchmarks" / "bench_cli.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    anchor, kit = [sys.executable, "-c", bench.ANCHOR], [*bench.command(), "solve", "8"]
    for argv in (anchor, kit):
        _tree_cpu(argv, env)  # bytecode written, files in the page cache
    ratios = []
    for round_ in range(9):
        pair = (anchor, kit) if round_ % 2 else (kit, anchor)
        times = {tuple(argv): _tree_cpu(argv, env) for argv in pair}
        ratios.append(times[tuple(kit)] / times[tuple(anchor)])
    assert statistics.median(ratios) < 2.0, sorted(ratios)
