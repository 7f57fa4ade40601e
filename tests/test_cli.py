from __future__ import annotations

import io
import json
import shutil
import subprocess
import sys
import textwrap

import pytest

from nqueens_kit.cli import main
from nqueens_kit.methods.sat.cnf import build_cnf, write_dimacs
from nqueens_kit.problem.reference import published_count
from nqueens_kit.solvers import SAT_SOLVERS

from .conftest import need

SOLVE_KEYS = {"n", "method", "encoding", "solver", "status", "queens", "variables", "clauses", "build_seconds",
              "solve_seconds", "verified"}


def run(capsys, *args):
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def test_solve_text(capsys):
    code, out, err = run(capsys, "solve", 8)
    assert code == 0 and "solved, verified" in out and "744 clauses" in out
    board = [line for line in out.splitlines() if set(line) <= {"Q", ".", " "} and line]
    assert len(board) == 8 and all(line.count("Q") == 1 for line in board)


def test_solve_json_contract(capsys):
    code, out, _ = run(capsys, "solve", 8, "--encoding", "sequential", "--place", "1,1", "--json")
    data = json.loads(out)
    assert code == 0 and SOLVE_KEYS <= set(data)
    assert data["status"] == "solved" and data["verified"] is True and [1, 1] in data["queens"]
    assert data["queens"] == sorted(data["queens"]) and len(data["queens"]) == 8
    assert data["encoding"] == "sequential" and data["solver"] == "pycosat" and data["method"] == "sat"


def test_place_forms(capsys):
    a = json.loads(run(capsys, "solve", 8, "--place", "1,1", "--place", "2,5", "--json")[1])
    b = json.loads(run(capsys, "solve", 8, "--place", "1,1", "2,5", "--json")[1])
    assert a["preplaced"] == b["preplaced"] == [[1, 1], [2, 5]]


@pytest.mark.parametrize("n", [1, 2, 3])
def test_small_statuses(capsys, n):
    code, out, _ = run(capsys, "solve", n, "--json")
    data = json.loads(out)
    assert data["status"] == ("solved" if n == 1 else "infeasible")
    assert code == (0 if n == 1 else 1)


def test_impossible_preplacement_is_infeasible(capsys):
    code, out, _ = run(capsys, "solve", 8, "--place", "1,1", "2,3")
    assert code == 1 and "infeasible" in out and "cannot be completed" in out


def test_construct(capsys):
    code, out, _ = run(capsys, "solve", 2000, "--method", "construct", "--json")
    data = json.loads(out)
    assert code == 0 and data["verified"] and len(data["queens"]) == 2000


@pytest.mark.parametrize("method", ["sat", "backtrack"])
def test_count(capsys, method):
    code, out, _ = run(capsys, "count", 8, "--method", method, "--fundamental", "--json")
    data = json.loads(out)
    assert code == 0 and {"n", "count", "fundamental", "method", "seconds"} <= set(data)
    assert (data["count"], data["fundamental"]) == (92, 12) and data["method"] == method


def test_count_text_and_preplaced(capsys):
    code, out, _ = run(capsys, "count", 6, "--encoding", "binary")
    assert code == 0 and "4 solutions" in out
    code, out, _ = run(capsys, "count", 8, "--place", "1,1", "--method", "backtrack", "--json")
    assert json.loads(out)["count"] == 4


def test_cnf_stdout_and_file(capsys, tmp_path):
    code, out, _ = run(capsys, "cnf", 7)
    assert code == 0 and "p cnf 49 490" in out and out.startswith("c ")
    target = tmp_path / "q.cnf"
    code, out, err = run(capsys, "cnf", 8, "--encoding", "sequential", "-o", target)
    assert code == 0 and out == "" and "wrote" in err and target.read_text().count(" 0\n") == 604


def test_count_from_cnf(capsys, tmp_path):
    path = write_dimacs(build_cnf(7), tmp_path / "seven.cnf")
    code, out, _ = run(capsys, "count", "--from-cnf", path, "--json")
    assert code == 0 and json.loads(out)["count"] == published_count(7)
    helpers = write_dimacs(build_cnf(6, "sequential"), tmp_path / "six.cnf")
    code, out, _ = run(capsys, "count", "--from-cnf", helpers, "--json")  # n from the kit's own header
    assert code == 0 and json.loads(out)["count"] == 4 and json.loads(out)["n"] == 6
    commander = write_dimacs(build_cnf(5, "commander"), tmp_path / "five.cnf")  # 49 variables, yet 5-queens
    code, out, _ = run(capsys, "count", "--from-cnf", commander, "--json")
    assert code == 0 and json.loads(out)["n"] == 5 and json.loads(out)["count"] == published_count(5)
    bare = write_dimacs(build_cnf(6, "sequential"), tmp_path / "bare.cnf", comments=False)
    code, _, err = run(capsys, "count", "--from-cnf", bare)
    assert code == 2 and "--n" in err and "does not say its board size" in err
    code, out, _ = run(capsys, "count", "--from-cnf", bare, "--n", 6, "--json")
    assert code == 0 and json.loads(out)["count"] == 4


def test_decode_both_formats(capsys, tmp_path):
    board = {(1, 2), (2, 4), (3, 1), (4, 3)}
    lits = [(r - 1) * 4 + c if (r, c) in board else -((r - 1) * 4 + c) for r in range(1, 5) for c in range(1, 5)]
    minisat = tmp_path / "minisat.out"
    minisat.write_text("SAT\n" + " ".join(map(str, lits)) + " 0\n")
    competition = tmp_path / "comp.out"
    competition.write_text("c x\ns SATISFIABLE\nv " + " ".join(map(str, lits[:8])) + "\nv " + " ".join(map(str, lits[8:])) + " 0\n")
    for path in (minisat, competition):
        code, out, _ = run(capsys, "decode", path, "--n", 4, "--json")
        data = json.loads(out)
        assert code == 0 and data["verified"] and {tuple(q) for q in data["queens"]} == board
    bogus = tmp_path / "bogus.out"
    bogus.write_text("SAT\n" + " ".join(str(-v) for v in range(1, 17)) + " 0\n")
    code, out, _ = run(capsys, "decode", bogus, "--n", 4)
    assert code == 1 and "NOT VALID" in out and "0 queens" in out


FOUR = [2, 8, 9, 15]  # the queens of a 4-queens board as variables (r-1)*4 + c
FOUR_MODEL = " ".join(str(v if v in FOUR else -v) for v in range(1, 17))


def test_decode_incomplete_model_is_not_solved(capsys, tmp_path):
    """The board variables are all there but the terminating 0 is not: never 'solved, verified'."""
    cut = tmp_path / "cut.out"
    cut.write_text(f"s SATISFIABLE\nv {FOUR_MODEL}\n")
    code, out, _ = run(capsys, "decode", cut, "--n", 4)
    assert code == 1 and "verified" not in out and "error" in out and "model is incomplete" in out
    code, out, _ = run(capsys, "decode", cut, "--n", 4, "--json")
    data = json.loads(out)
    assert code == 1 and data["status"] == "error" and data["complete"] is False and data["queens"] == []
    whole = tmp_path / "whole.out"
    whole.write_text(f"s SATISFIABLE\nv {FOUR_MODEL} 0\n")
    code, out, _ = run(capsys, "decode", whole, "--n", 4)
    assert code == 0 and "solved, verified" in out


@pytest.mark.parametrize(("text", "code", "fragment"), [
    ("s SATISFIABLE\ns UNSATISFIABLE\n", 1, ":2: 's UNSATISFIABLE' contradicts"),  # a lie caught, as solve reads it
    (f"s SATISFIABLE\nv {FOUR_MODEL} -2 0\n", 1, ":2: literal -2 contradicts 2"),
    ("s FOO\n", 2, ":1: unknown status 'FOO'"),  # not a solver's answer: bad input
])
def test_decode_contradictory_or_malformed_output(capsys, tmp_path, text, code, fragment):
    path = tmp_path / "bad.out"
    path.write_text(text)
    got, out, err = run(capsys, "decode", path, "--n", 4)
    assert got == code and out == "" and fragment in err and err.count("\n") == 1 and str(path) in err


@pytest.mark.parametrize(("text", "said"), [("s UNKNOWN\n", "'s UNKNOWN'"), ("INDET\n", "'INDET'")])
def test_decode_solver_unknown_is_its_own_word(capsys, tmp_path, text, said):
    path = tmp_path / "unknown.out"
    path.write_text(text)
    code, out, _ = run(capsys, "decode", path, "--n", 4, "--json")
    data = json.loads(out)
    assert code == 3 and data["status"] == "unknown" and said in data["message"]
    assert "stopped without an answer" in data["message"] and "time limit" not in data["message"]


def test_decode_reads_standard_input(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(f"c x\ns SATISFIABLE\nv {FOUR_MODEL} 0\n".encode())))
    code, out, _ = run(capsys, "decode", "-", "--n", 4)
    assert code == 0 and "solved, verified" in out


@pytest.mark.parametrize("solver", ["minisat", "cadical", "picosat", "kissat"])
def test_solve_with_binary(capsys, solver):
    need(SAT_SOLVERS[solver].available(), solver)
    code, out, _ = run(capsys, "solve", 12, "--solver", solver, "--encoding", "product", "--json")
    assert code == 0 and json.loads(out)["verified"] is True


BAD = [
    (["solve", "0"], "whole number from 1"),
    (["solve", "-3"], "whole number from 1"),
    (["solve", "abc"], "not 'abc'"),
    (["solve", "2.5"], "not '2.5'"),
    (["solve", "8", "--encoding", "ladder"], "valid: pairwise"),
    (["solve", "8", "--solver", "zchaff"], "unknown solver"),
    (["solve", "8", "--method", "magic"], "invalid choice"),
    (["solve", "8", "--place", "9,1"], "off the board"),
    (["solve", "8", "--place", "1,1", "3,3"], "attack each other (same diagonal)"),
    (["solve", "8", "--place", "x"], "ROW,COL"),
    (["solve", "8", "--time-limit", "-1"], "positive number of seconds"),
    (["solve", "8", "--time-limit", "soon"], "positive number of seconds"),
    (["solve", "8", "--solver", "no-such-sat-solver"], "unknown solver"),
    (["solve", "8", "--formulation", "lines"], "--method ilp"),
    (["count"], "board size"),
    (["count", "--from-cnf", "/no/such/file.cnf"], "no such file"),
    (["count", "--from-cnf", "{broken}", "--n", "2"], ":2: 'x' is not an integer"),
    (["decode", "/no/such/output", "--n", "4"], "no such file"),
    (["decode", "{garbage}", "--n", "4"], "no SAT/UNSAT answer"),
    (["cnf", "4", "-o", "/no/such/dir/x.cnf"], "cannot write"),
    (["solve"], "required"),
]


@pytest.mark.parametrize(("args", "fragment"), BAD, ids=[" ".join(a) for a, _ in BAD])
def test_bad_input_one_line_exit_2(capsys, tmp_path, args, fragment):
    broken = tmp_path / "broken.cnf"
    broken.write_text("p cnf 4 1\n1 x 0\n")
    garbage = tmp_path / "garbage.txt"
    garbage.write_text("hello\n")
    args = [a.replace("{broken}", str(broken)).replace("{garbage}", str(garbage)) for a in args]
    code = main(args)
    out, err = capsys.readouterr()
    assert code == 2
    assert fragment in err and err.count("\n") == 1 and "Traceback" not in err + out


@pytest.mark.parametrize("cbc_on_path", [True, False], ids=["a cbc on PATH", "no cbc on PATH"])
def test_an_ilp_solver_named_for_sat_gets_one_message_whatever_is_on_path(capsys, monkeypatch, tmp_path, cbc_on_path):
    """``--solver cbc`` with SAT is one mistake with one message, decided before PATH is looked at: a ``cbc``
    executable on PATH (here a fake one that would answer UNSAT if the kit ran it) is not taken for a DIMACS
    solver, and the method layer and the solver registry say the same words."""
    from nqueens_kit.errors import InputError
    from nqueens_kit.methods import solve
    from nqueens_kit.solvers import get_solver

    folder = tmp_path / "bin"
    folder.mkdir()
    if cbc_on_path:
        fake = folder / "cbc"
        fake.write_text("#!/bin/sh\necho 's UNSATISFIABLE'\n")
        fake.chmod(0o755)
    monkeypatch.setenv("PATH", str(folder))
    assert (shutil.which("cbc") is not None) is cbc_on_path
    code, out, err = run(capsys, "solve", "8", "--solver", "cbc")
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err + out
    assert err.startswith("nqueens-kit: error: cbc is an ILP solver, not a SAT solver: use --method ilp for it, "
                          "or one of the SAT solvers: pycosat, ")
    for ask in (lambda: get_solver("sat", "cbc"), lambda: solve(8, "sat", solver="cbc")):
        with pytest.raises(InputError) as raised:
            ask()
        assert err == f"nqueens-kit: error: {raised.value}\n"


def test_missing_binary_solver_message(capsys, monkeypatch):
    monkeypatch.setattr("shutil.which", lambda name, *a, **k: None)
    code, _, err = run(capsys, "solve", "8", "--solver", "minisat")
    assert code == 2 and "not installed" in err and "apt-get install minisat" in err


def test_real_process_has_no_traceback(tmp_path):
    for args in (["solve", "abc"], ["solve", "8", "--place", "1,1", "2,2"], ["bogus"]):
        proc = subprocess.run([sys.executable, "-m", "nqueens_kit", *args], capture_output=True, text=True)
        assert proc.returncode == 2 and "Traceback" not in proc.stderr and len(proc.stderr.splitlines()) == 1


def test_solvers_listing(capsys):
    code, out, _ = run(capsys, "solvers", "--json")
    rows = json.loads(out)
    names = {r["name"] for r in rows}
    assert code == 0 and {"pycosat", "minisat", "cbc"} <= names
    assert next(r for r in rows if r["name"] == "pycosat")["installed"] is True


def test_a_bug_in_the_kit_says_so_with_its_traceback(monkeypatch, capsys):
    """Any exception that is not the user's (in this process, or in the child a solve runs in) prints its
    traceback and one line saying it is a bug in the kit, and exits 70: never "bad input" (2)."""
    from nqueens_kit.methods import get_method

    sat = get_method("sat")

    def broken(problem, choice, deadline):
        return 1 / 0

    monkeypatch.setattr(type(sat), "solve_here", lambda self, problem, choice, deadline: broken(problem, choice,
                                                                                               deadline))
    assert main(["solve", "8"]) == 70  # in the child process
    err = capsys.readouterr().err
    assert "ZeroDivisionError" in err and "Traceback" in err and "bug in nqueens-kit" in err.splitlines()[-1]
    monkeypatch.setattr("nqueens_kit.cli.solve.problem_from", lambda *a: {}["missing"])
    assert main(["solve", "8", "--json"]) == 70  # in this process
    out, err = capsys.readouterr()
    assert "KeyError" in err and json.loads(out)["exit"] == 70


# ------------------------------------------------------------------------------- what a command loads

#: Run in a fresh interpreter: the command with the arguments given, then which modules it loaded.
LOADED = textwrap.dedent("""
    import contextlib, io, json, sys
    from nqueens_kit.cli.main import main
    with contextlib.redirect_stdout(io.StringIO()):
        code = main(sys.argv[1:])
    modules = sorted(sys.modules)
    base = sys.modules.get("nqueens_kit.methods.base")
    methods = base.METHODS.loaded() if base is not None else []
    print(json.dumps({"code": code, "methods": methods, "modules": modules}))
""")

#: What neither ``solve 8`` nor ``--help`` may import: other methods, the front ends, and heavy libraries.
NOT_FOR_SOLVE_8 = ("nqueens_kit.methods.ilp", "nqueens_kit.methods.cp", "nqueens_kit.methods.search.local_search",
                   "nqueens_kit.methods.modelcount", "nqueens_kit.inside", "nqueens_kit.bench", "nqueens_kit.viz",
                   "nqueens_kit.apps", "nqueens_kit.course", "nqueens_kit.solvers.ilp_pulp", "nqueens_kit.formats",
                   "numpy", "matplotlib", "pulp", "tqdm", "ortools", "highspy", "pysat", "multiprocessing",
                   "importlib.metadata")


def loaded_by(*args: str) -> dict:
    done = subprocess.run([sys.executable, "-c", LOADED, *args], capture_output=True, text=True, timeout=120,
                          check=True)
    return json.loads(done.stdout.splitlines()[-1])


def test_solve_loads_its_method_alone():
    """``solve 8`` imports the SAT method and its solvers, not every method, solver and front end."""
    seen = loaded_by("solve", "8")
    assert seen["code"] == 0 and seen["methods"] == ["sat"]
    heavy = [m for m in seen["modules"] if m.startswith(NOT_FOR_SOLVE_8)]
    assert heavy == []


def test_help_loads_no_method():
    seen = loaded_by("--help")
    assert seen["code"] == 0 and seen["methods"] == []
    kit = [m for m in seen["modules"] if m.startswith("nqueens_kit")]
    assert all(m.startswith(("nqueens_kit.cli", "nqueens_kit.errors")) or m == "nqueens_kit" for m in kit), kit
    assert not [m for m in seen["modules"] if m.startswith(NOT_FOR_SOLVE_8)]


def test_a_solve_child_is_forked_not_a_fresh_interpreter(capsys, child_starts):
    """The job a solve runs in is a fork of the command: it does not import the kit a second time."""
    started = child_starts
    code, out, _ = run(capsys, "solve", "8")
    assert code == 0 and "solved, verified" in out and started == [False]


def test_every_command_is_listed_with_its_module():
    """``COMMAND_MODULES`` (what a command imports) names each module's commands, in order."""
    import importlib

    from nqueens_kit.cli.main import COMMAND_MODULES

    for module, names in COMMAND_MODULES.items():
        assert tuple(importlib.import_module(f"nqueens_kit.cli.{module}").COMMANDS) == names


@pytest.mark.parametrize("argv", [["solve", "8", "--encoding", "sequential", "--place", "1,1"],
                                  ["count", "6", "--method", "backtrack", "--fundamental"],
                                  ["cnf", "4", "--encoding", "binary"], ["lp", "4", "-o", "x.lp"],
                                  ["bench", "--out", "r.csv", "--n", "4"], ["trace", "4", "--max-events", "9"],
                                  ["plot", "r.csv", "-o", "f.png"], ["solvers", "--json"]])
def test_the_parser_of_one_command_parses_as_the_whole_one(argv):
    from nqueens_kit.cli.main import build_parser

    assert vars(build_parser(argv[0]).parse_args(argv)) == vars(build_parser().parse_args(argv))


def test_help_written_when_shown_names_every_method(capsys):
    from nqueens_kit.methods import METHODS

    code, out, _ = run(capsys, "solve", "--help")
    compact = "".join(out.split())  # the help is wrapped to the terminal, hyphenated words too
    able = [m for m in METHODS.values() if "solve" in m.verbs]
    assert code == 0 and all(f"{m.name}:{''.join(m.summary.split())}" in compact for m in able)
    assert f"(SAT:{','.join(METHODS['sat'].variants())})" in compact
    code, out, _ = run(capsys, "bench", "--help")
    assert code == 0 and f"comma-separated:{','.join(METHODS)}" in "".join(out.split())
