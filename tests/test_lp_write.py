"""The LP file written as text (no PuLP model) is PuLP's own file, and the size guard of ``lp`` knows the
process's limits: what would not fit under ``ulimit -v`` is refused in one line before anything is built."""

from __future__ import annotations

import re
import resource
import subprocess
import sys
from pathlib import Path

import pulp
import pytest

import nqueens_kit.runtime.limits as limits
from nqueens_kit.errors import InputError
from nqueens_kit.methods.ilp.formulations import FORMULATIONS
from nqueens_kit.methods.ilp.model import build_model, export_model, export_size, lp_text
from nqueens_kit.problem.board import Problem
from nqueens_kit.runtime.limits import Size, check_room, process_room

CASES = [Problem(n) for n in (1, 2, 3, 4, 9, 10, 11, 12, 23)] + [
    Problem(10, [(1, 2)]), Problem(12, [(10, 1), (1, 3)], [(2, 2), (12, 12)]), Problem(101, [(100, 3)])]


def _meaning(text: str) -> tuple[str, tuple[str, ...], dict[str, tuple[tuple[str, ...], str, str]], list[str], list[str]]:
    """An LP file as what it says: sense, objective terms, constraints by name (terms as a set, sense,
    right-hand side), bounds and binaries as sets, whatever the line wrapping and the order of declaration."""
    sections = re.split(r"^(Minimize|Maximize|Subject To|Bounds|Binaries|End)$", text, flags=re.M)
    parts = dict(zip(sections[1::2], sections[2::2]))
    sense = "max" if "Maximize" in parts else "min"
    # (a feasibility model's empty objective is PuLP's __dummy variable, fixed at 0: the same model without it)
    objective = tuple(sorted(re.findall(r"x_\d+_\d+", (parts.get("Maximize") or parts["Minimize"]))))
    constraints = {}
    for statement in re.split(r"\n(?=[a-z_0-9]+:)", parts["Subject To"].strip()):
        name, body = statement.split(":", 1)
        terms, rel, rhs = re.fullmatch(r"\s*(.*?)\s*(<=|>=|=)\s*(\S+)\s*", body, flags=re.S).groups()
        constraints[name] = (tuple(sorted(re.findall(r"x_\d+_\d+", terms))), rel, rhs)
    bounds = [line.strip() for line in parts.get("Bounds", "").splitlines() if line.strip() and "__dummy" not in line]
    # (the order of the declarations means nothing: PuLP 4 lists the binaries by name, PuLP 3 by column)
    return (sense, objective, constraints, sorted(bounds), sorted(parts["Binaries"].split()))


@pytest.mark.parametrize("formulation", list(FORMULATIONS))
def test_lp_text_says_what_pulp_writes(tmp_path, formulation):
    for problem in CASES:
        if formulation == "pairwise" and problem.n > 30:
            continue
        drafted = tmp_path / "pulp.lp"
        build_model(problem, formulation).prob.writeLP(str(drafted))
        theirs, ours = drafted.read_text(), "".join(lp_text(problem, formulation))
        assert _meaning(ours) == _meaning(theirs), (problem.describe(), formulation)
        if pulp.__version__.startswith("3."):  # the writer of PuLP 3, line for line
            assert ours == theirs, (problem.describe(), formulation)


def test_export_writes_text_and_builds_no_model(monkeypatch, tmp_path):
    def no_model(*args, **kwargs):
        raise AssertionError("an LP file is written without a PuLP model")

    monkeypatch.setattr(pulp.LpProblem, "writeLP", no_model)
    written = export_model(Problem(300), "lines", tmp_path / "big.lp").read_text()
    assert written.startswith("\\* queens_300_lines *\\\nMinimize\nOBJ: __dummy\nSubject To\nanti_10:")
    assert written.endswith("x_9_99\nEnd\n") and written.count(" <= 1\n") == 2 * (2 * 300 - 3)
    # symmetry breaking adds lex-leader constraints: PuLP writes that model
    with pytest.raises(AssertionError, match="without a PuLP model"):
        export_model(Problem(6, break_symmetry=True), "lines", tmp_path / "lex.lp")


def test_export_size_is_the_path_taken():
    text, model = export_size(Problem(1000), "lines", "m.lp"), export_size(Problem(1000), "lines", "m.mps")
    assert text.memory < 64 * 2**20 < 4 * 2**30 < model.memory
    assert text.variables == model.variables == 10**6
    assert export_size(Problem(8, break_symmetry=True), "lines", "m.lp") == FORMULATIONS["lines"].size(
        Problem(8, break_symmetry=True))


def test_lp_text_refuses_what_cannot_be_listed():
    with pytest.raises(InputError, match="lines ILP model of 5000-queens would have 100,000,000 terms in its LP file.*n = 4,000, the largest"):
        next(lp_text(Problem(5000)))


def test_process_room_reads_the_limits(monkeypatch):
    room = process_room()
    assert room is not None and room[0] > 0 and isinstance(room[1], str)
    monkeypatch.setattr(limits, "process_room", lambda: (100 * 2**20, "its address-space limit (ulimit -v)"))
    with pytest.raises(InputError) as error:
        check_room(Size(10, memory=2**30), "the model", "use a smaller n")
    message = str(error.value)
    assert "\n" not in message and "1.0 GB" in message and "100.0 MB" in message and "ulimit -v" in message
    check_room(Size(10, memory=2**20), "the model", "use a smaller n")


def _limited(megabytes: int):
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (megabytes * 2**20, megabytes * 2**20))

    return limit


@pytest.mark.slow
def test_lp_under_an_address_space_limit(tmp_path):
    """``ulimit -v 1000000``: the MPS file of 1000-queens (a PuLP model of ~5 GB) is refused at once in one
    line; its LP file, written as text, fits and is written."""
    kit = [sys.executable, "-m", "nqueens_kit", "lp", "1000", "-o"]
    refused = subprocess.run([*kit, str(tmp_path / "m.mps")], capture_output=True, text=True, timeout=120,
                             preexec_fn=_limited(976))
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1, refused.stderr
    assert "ulimit -v" in refused.stderr and "1,000,000 variables" in refused.stderr
    assert not (tmp_path / "m.mps").exists()
    written = subprocess.run([*kit, str(tmp_path / "m.lp")], capture_output=True, text=True, timeout=300,
                             preexec_fn=_limited(976))
    assert written.returncode == 0, written.stderr
    assert Path(tmp_path / "m.lp").stat().st_size > 50 * 2**20


def test_an_lp_file_too_large_to_write_or_to_hold_is_refused(monkeypatch, tmp_path):
    import shutil
    from collections import namedtuple

    with pytest.raises(InputError) as error:  # 33 GB of pair constraints: refused at once, nothing written
        export_model(1000, "pairwise", tmp_path / "pairs.lp")
    assert "\n" not in str(error.value) and "--formulation lines" in str(error.value) and "GB" in str(error.value)
    usage = namedtuple("usage", "total used free")
    monkeypatch.setattr(shutil, "disk_usage", lambda folder: usage(10**6, 10**6 - 1000, 1000))
    with pytest.raises(InputError, match="free in"):
        export_model(40, "lines", tmp_path / "forty.lp")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.slow
@pytest.mark.parametrize("verb", [
    ["cnf", "150", "--encoding", "pairwise", "-o", "{out}"],
    ["solve", "150", "--method", "sat", "--encoding", "pairwise"],
    ["count", "150", "--method", "sat", "--encoding", "pairwise"],
    ["solve", "150", "--method", "ilp", "--formulation", "pairwise"],
], ids=["cnf", "solve-sat", "count-sat", "solve-ilp"])
def test_every_verb_that_builds_a_model_sees_the_process_limits(tmp_path, verb):
    """``ulimit -v 1000000``: a model predicted at 1.7 GB, inside the default budget, is refused at once in
    one line naming the limit, as ``lp`` refuses one (nothing built, nothing written)."""
    out = tmp_path / "q.cnf"
    args = [part.replace("{out}", str(out)) for part in verb]
    refused = subprocess.run([sys.executable, "-m", "nqueens_kit", *args], capture_output=True, text=True,
                             timeout=60, preexec_fn=_limited(976))
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1, refused.stderr
    assert "ulimit -v" in refused.stderr and "150-queens" in refused.stderr, refused.stderr
    assert not out.exists()
