"""Misusing the Python API gets the kit's own one-line errors, never a stray exception or a silent guess.

Every public entry point is called with values a user might pass by mistake (wrong types, out of range,
floats for whole numbers, unknown names, bad time limits); each call must raise an
:class:`~nqueens_kit.errors.NQueensError` whose message is one line.
"""

from __future__ import annotations

import copy
import math
import os
import random
import signal
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from itertools import islice
from typing import Any

import pytest

import nqueens_kit as kit
from nqueens_kit.course import exercises
from nqueens_kit.errors import NQueensError
from nqueens_kit.methods import base, verbs
from nqueens_kit.methods.ilp import model as ilp_model
from nqueens_kit.methods.sat import cnf, encodings
from nqueens_kit.problem import board
from nqueens_kit.runtime import isolate
from nqueens_kit.runtime.isolate import Ended
from nqueens_kit.runtime.limits import MEMORY_ENV

BAD_N = [0, -5, 2.5, 8.0, "abc", None, True, [8], "²", "８", math.nan, 10**30, b"8", "1_000"]
BAD_CELLS = [[(1.7, 2.9)], [(9, 9)], [(0, 1)], ["x"], [(1,)], [(1, 2, 3)], "1,1", [None], 5, [(True, 1)], [(1, "²")]]
BAD_NAMES = ["", "nope", 3, ["pairwise"], "PAIRWISE"]
BAD_LIMITS = [0, -1, math.nan, math.inf, "soon", True, [1], "1e999"]

CALLS = []
for n in BAD_N:
    CALLS += [
        (f"Problem({n!r})", lambda n=n: kit.Problem(n)),
        (f"solve({n!r})", lambda n=n: kit.solve(n)),
        (f"count({n!r})", lambda n=n: kit.count(n)),
        (f"solve_ilp({n!r})", lambda n=n: kit.solve_ilp(n)),
        (f"construct({n!r})", lambda n=n: kit.construct(n)),
        (f"count_backtrack({n!r})", lambda n=n: kit.count_backtrack(n)),
        (f"iter_backtrack({n!r})", lambda n=n: list(kit.iter_backtrack(n))),
        (f"solve({n!r}, 'construct')", lambda n=n: kit.solve(n, "construct")),
        (f"build_cnf({n!r})", lambda n=n: kit.build_cnf(n)),
        (f"predicted_size({n!r})", lambda n=n: cnf.predicted_size(n)),
        (f"draw({n!r})", lambda n=n: kit.draw(n, [])),
    ]
for cells in BAD_CELLS:
    CALLS += [
        (f"Problem(8, {cells!r})", lambda c=cells: kit.Problem(8, c)),
        (f"iter_backtrack(4, {cells!r})", lambda c=cells: list(kit.iter_backtrack(4, c))),
        (f"canonical(8, {cells!r})", lambda c=cells: kit.canonical(8, c)),
        (f"transform(8, {cells!r})", lambda c=cells: kit.transform(8, c, 1)),
        (f"orbit(8, {cells!r})", lambda c=cells: kit.orbit(8, c)),
        (f"draw(4, {cells!r})", lambda c=cells: kit.draw(4, c)),
    ]
for name in BAD_NAMES:
    CALLS += [
        (f"solve(encoding={name!r})", lambda v=name: kit.solve(8, "sat", v)),
        (f"solve(solver={name!r})", lambda v=name: kit.solve(8, "sat", None, v)),
        (f"solve(method={name!r})", lambda v=name: kit.solve(8, v)),
        (f"solve_sat(solver={name!r})", lambda v=name: kit.solve_sat(8, solver=v)),
        (f"solve_ilp(formulation={name!r})", lambda v=name: kit.solve_ilp(8, v)),
        (f"solve_ilp(settings={name!r})", lambda v=name: kit.solve_ilp(8, settings=v)),
        (f"build_cnf(encoding={name!r})", lambda v=name: kit.build_cnf(6, v)),
        (f"transform(symmetry={name!r})", lambda v=name: kit.transform(4, [(1, 2)], 8 if v == 3 else v)),
        (f"count(variant={name!r})", lambda v=name: kit.count(6, "sat", v)),
    ]
for limit in BAD_LIMITS:
    CALLS += [
        (f"solve(time_limit={limit!r})", lambda t=limit: kit.solve(8, time_limit=t)),
        (f"solve_sat(time_limit={limit!r})", lambda t=limit: kit.solve_sat(8, time_limit=t)),
        (f"solve_ilp(time_limit={limit!r})", lambda t=limit: kit.solve_ilp(8, time_limit=t)),
        (f"count(time_limit={limit!r})", lambda t=limit: kit.count(6, time_limit=t)),
        (f"count_solutions(time_limit={limit!r})", lambda t=limit: kit.count_solutions(6, time_limit=t)),
    ]
CALLS += [
    ("solve(construct, encoding)", lambda: kit.solve(8, "construct", "binary")),
    ("count(backtrack, solver)", lambda: kit.count(8, "backtrack", solver="pycosat")),
    ("solve(sat, settings)", lambda: kit.solve(8, "sat", settings="tuned")),
    ("count(construct)", lambda: kit.count(8, "construct")),
    ("solve(construct, preplaced)", lambda: kit.solve(kit.Problem(8, [(1, 1)]), "construct")),
    ("solve(ilp, SAT solver)", lambda: kit.solve(8, "ilp", solver="pycosat")),
    ("solve(sat, ILP solver)", lambda: kit.solve(8, "sat", solver="cbc")),
    ("solve(max_memory='lots')", lambda: kit.solve(8, max_memory="lots")),
    ("solve(max_memory=1)", lambda: kit.solve(64, max_memory=1)),
    ("Problem(8, [(1, 1), (2, 2)])", lambda: kit.Problem(8, [(1, 1), (2, 2)])),
]


@pytest.mark.parametrize("call", [c for _, c in CALLS], ids=[label for label, _ in CALLS])
def test_misuse_is_a_one_line_kit_error(call):
    with pytest.raises(NQueensError) as error:
        call()
    message = str(error.value)
    assert message and "\n" not in message


def test_there_are_many_misuse_calls():
    assert len(CALLS) > 150


def test_whole_numbers_given_as_text_or_numpy_are_fine():
    np = pytest.importorskip("numpy")
    assert kit.Problem("8", [("1", "2")]).preplaced == ((1, 2),)
    assert kit.Problem(np.int64(6)).n == 6 and kit.solve(np.int32(6)).verified


def test_verify_says_false_for_anything_that_is_not_a_board():
    for junk in (5, None, ["ab", "cd"], [(1.0, 1.0)], [(1, 1, 1)], [(1.5, 1), (2, 2)]):
        assert kit.verify(2 if junk == [(1.5, 1), (2, 2)] else 1, junk) is False


# ---------------------------------------------------------------------------- the systematic misuse generator
#
# Every public function (and class) below is called once with valid arguments and then once per hostile
# value per argument, the other arguments valid.  Each call may return normally (its result is checked where
# that is cheap, and an argument value marked invalid must not be answered at all) or raise an NQueensError
# whose message is one line.  The calls of one function run one after another in a child process under a
# memory limit, each under a wall-clock alarm and a watchdog, so a hang or a memory blow-up fails the call
# instead of the suite.


#: Seconds one call may take before the alarm calls it a hang; the watchdog kills the child a little later.
#: Only a guard: a call answers in milliseconds, a second or two on a busy machine; a hang lasts for ever.
CALL_SECONDS = 30.0
WATCHDOG_SECONDS = CALL_SECONDS + 10.0
#: Memory the child running the calls may grow by before a call counts as a memory blow-up, and the budget
#: of the kit's size guards there.
CHILD_MEMORY = 3 * 1024**3
CHILD_BUDGET = "1G"


class Opaque:
    """An object no function of the kit expects."""

    def __repr__(self) -> str:
        return "object()"


#: (label, value): the hostile values every argument gets in turn.
JUNK: tuple[tuple[str, Any], ...] = (
    ("None", None), ("True", True), ("False", False), ("2.5", 2.5), ("nan", math.nan), ("inf", math.inf),
    ("-inf", -math.inf), ("-5", -5), ("0", 0), ("10**30", 10**30), ("''", ""), ("'abc'", "abc"), ("'²'", "²"),
    ("b'8'", b"8"), ("[None, 'x']", [None, "x"]), ("[(1.5, 2)]", [(1.5, 2)]), ("{'a': 1}", {"a": 1}),
    ("object()", Opaque()),
)


class Nonsense(Exception):
    """A normal return that is wrong for the call that produced it."""


def expect(condition: bool, why: str) -> None:
    if not condition:
        raise Nonsense(why)


# Which hostile values are in fact valid for an argument (a normal return is then fine); for any other the
# call must raise.  An argument without a rule accepts anything the function does not refuse.
def never(_value: Any) -> bool:
    return False


def whole(low: int = 1, high: int = board.MAX_N) -> Callable[[Any], bool]:
    return lambda v: type(v) is int and low <= v <= high


def is_bool(v: Any) -> bool:
    return isinstance(v, bool)


def optional(rule: Callable[[Any], bool] = never) -> Callable[[Any], bool]:
    return lambda v: v is None or rule(v)


def seconds(v: Any) -> bool:
    return not isinstance(v, bool) and isinstance(v, (int, float)) and 0 < v < math.inf


def positive_bytes(v: Any) -> bool:
    return not isinstance(v, bool) and isinstance(v, (int, float)) and 1e12 < v < math.inf


def int_seed(v: Any) -> bool:
    return type(v) is int


def callable_or_none(v: Any) -> bool:
    return v is None or callable(v)


# Checks of a normal return: (result, arguments, the argument that holds the hostile value or None).
def is_cell(cell: Any, n: int | None = None) -> bool:
    return (type(cell) is tuple and len(cell) == 2 and all(type(x) is int for x in cell)
            and (n is None or all(1 <= x <= n for x in cell)))


def is_board(value: Any, n: int) -> bool:
    return isinstance(value, tuple) and all(is_cell(q, n) for q in value)


def is_clauses(value: Any, top: int | None = None) -> bool:
    return isinstance(value, list) and all(
        isinstance(c, list) and all(type(x) is int and x != 0 and (top is None or abs(x) <= top) for x in c)
        for c in value)


def gives(kind: type | tuple[type, ...]) -> Callable[[Any, dict[str, Any], str | None], None]:
    def check(result: Any, _args: dict[str, Any], _hostile: str | None) -> None:
        expect(isinstance(result, kind), f"returned {type(result).__name__}, not {kind}")
    return check


def check_verify(result: Any, args: dict[str, Any], hostile: str | None) -> None:
    expect(type(result) is bool, f"returned {result!r}, not a bool")
    expect(not (hostile == "queens" and result), "called a junk board valid")


def check_violations(result: Any, args: dict[str, Any], hostile: str | None) -> None:
    expect(isinstance(result, list) and all(isinstance(t, str) for t in result), "not a list of sentences")
    expect(hostile != "queens" or bool(result), "found nothing wrong with a junk board")


def check_conflicts(result: Any, args: dict[str, Any], hostile: str | None) -> None:
    expect(isinstance(result, list) and all(
        len(t) == 3 and is_cell(t[0]) and is_cell(t[1]) and isinstance(t[2], str) for t in result),
        "not a list of (cell, cell, reason)")


def board_of(n_arg: str = "n") -> Callable[[Any, dict[str, Any], str | None], None]:
    def check(result: Any, args: dict[str, Any], _hostile: str | None) -> None:
        expect(is_board(result, args[n_arg]), f"{result!r} is not a board of cells on the board")
    return check


def check_draw(result: Any, args: dict[str, Any], _hostile: str | None) -> None:
    expect(isinstance(result, str) and result.count("\n") == args["n"] - 1, "not n lines of text")


def check_solved(result: Any, _args: dict[str, Any], _hostile: str | None) -> None:
    expect(isinstance(result, kit.SolveResult), "not a SolveResult")
    expect(result.status != "solved" or bool(result.verified), f"status {result.status} without a verified board")


def check_count_of(truth: int) -> Callable[[Any, dict[str, Any], str | None], None]:
    def check(result: Any, _args: dict[str, Any], _hostile: str | None) -> None:
        expect(isinstance(result, kit.CountResult), "not a CountResult")
        expect(result.status != "solved" or result.count == truth, f"counted {result.count}, not {truth}")
    return check


def check_boards(n: int) -> Callable[[Any, dict[str, Any], str | None], None]:
    def check(result: Any, _args: dict[str, Any], _hostile: str | None) -> None:
        expect(all(kit.verify(n, b) for b in result), "a board that does not verify")
    return check


def check_encoding(result: Any, args: dict[str, Any], _hostile: str | None) -> None:
    pool = args["pool"]
    expect(is_clauses(result, pool.top), f"clauses {str(result)[:60]} hold a literal that is not a variable of the pool")


@dataclass
class Api:
    """One public function: valid arguments by name, what each accepts, and the check of its result."""

    group: str
    name: str
    call: Callable[..., Any]
    valid: dict[str, Any]
    accepts: dict[str, Callable[[Any], bool]] = field(default_factory=dict)
    check: Callable[[Any, dict[str, Any], str | None], None] | None = None
    #: More hostile values for one argument: {argument: [(label, value), ...]}.
    extra: dict[str, list[tuple[str, Any]]] = field(default_factory=dict)
    #: Arguments to leave alone (a callback the function never calls with these arguments, a path).
    fixed: tuple[str, ...] = ()


@dataclass
class Case:
    label: str
    api: Api
    args: dict[str, Any]
    hostile: str | None


B4 = ((1, 2), (2, 4), (3, 1), (4, 3))
N5 = ((1, 1), (2, 3), (3, 5), (4, 2), (5, 4))


def _method_of_problem(method: str) -> Callable[..., Any]:
    return lambda **kw: getattr(board.Problem(4), method)(**kw)


def _pool_take(count: Any) -> list[int]:
    return encodings.VarPool(3).take(count)


def _in_scratch(name: str) -> str:
    """A path in the child's private temporary folder."""
    return os.path.join(tempfile.gettempdir(), name)


def _write_dimacs(cnf: Any, path: Any, comments: Any) -> Any:
    return kit.write_dimacs(cnf, _in_scratch("f.cnf") if path == "<scratch>" else path, comments)


def _read_dimacs(path: Any) -> Any:
    if path == "<scratch>":
        path = _in_scratch("r.cnf")
        with open(path, "w", encoding="ascii") as out:
            out.write("p cnf 2 1\n1 -2 0\n")
    return kit.read_dimacs(path)


def _export_model(problem: Any, formulation: Any, path: Any) -> Any:
    return ilp_model.export_model(problem, formulation, _in_scratch("m.lp") if path == "<scratch>" else path)


def _cnf_method(method: str) -> Callable[..., Any]:
    return lambda **kw: getattr(kit.build_cnf(3), method)(**kw)


def _toggle(cell: Any) -> str:
    """A widget does not raise: a cell it cannot place is a message, and no queen."""
    from nqueens_kit.apps.completion import completion_puzzle

    app = completion_puzzle(n=4)
    app.toggle(cell)
    text = app.message_text
    if "please report" in text or "unexpected" in text:
        raise RuntimeError(f"the puzzle shows a bug note: {text}")
    if not is_cell(cell, 4):
        expect(not app.placed and bool(text), f"placed {app.placed} for {cell!r}, saying {text!r}")
    return text


def _puzzle(n: Any, auto: Any) -> str:
    from nqueens_kit.apps.completion import completion_puzzle

    app = completion_puzzle(n=n, auto=auto)
    text = app.message_text
    if "please report" in text or "unexpected" in text:
        raise RuntimeError(f"the puzzle shows a bug note: {text}")
    return text


def _student_amo(lits: list[int], pool: Any) -> list[list[int]]:
    return encodings.pairwise(lits, pool)


def _student_verify(n: int, queens: Any) -> bool:
    return kit.verify(n, queens)


def _student_diagonals(n: int) -> list[list[tuple[int, int]]]:
    return [list(line.cells) for line in board.board_lines(n) if line.kind in ("diag", "anti")]


def _verdict(result: Any, _args: dict[str, Any], _hostile: str | None) -> None:
    expect(isinstance(result, exercises.Verdict), "not a Verdict")


def apis() -> list[Api]:
    """The public functions and classes under test, grouped by module."""
    sat = base.get_method("sat")
    n_rule = {"n": whole()}
    cells = {"queens": never, "preplaced": never, "blocked": never}
    return [
        # ---------------------------------------------------------------- nqueens_kit.problem.board
        Api("board", "Problem", kit.Problem, {"n": 6, "preplaced": [(1, 2)], "blocked": [(6, 6)],
                                               "break_symmetry": False},
            {**n_rule, **cells, "break_symmetry": is_bool}, gives(kit.Problem)),
        Api("board", "Problem.verify", _method_of_problem("verify"), {"queens": B4}, {}, check_verify),
        Api("board", "Problem.var", _method_of_problem("var"), {"row": 2, "col": 3},
            {"row": never, "col": never}, gives(int)),
        Api("board", "Problem.cell", _method_of_problem("cell"), {"var": 7}, {"var": never}, board_of_none()),
        Api("board", "verify", kit.verify, {"n": 4, "queens": B4, "preplaced": [(1, 2)], "blocked": [(1, 1)]},
            {**n_rule, "preplaced": never, "blocked": never}, check_verify),
        Api("board", "violations", kit.violations, {"n": 4, "queens": B4, "preplaced": [(1, 2)],
                                                     "blocked": [(1, 1)]},
            {**n_rule, "preplaced": never, "blocked": never}, check_violations),
        Api("board", "conflicts", kit.conflicts, {"queens": [(1, 1), (2, 2), (3, 5)]}, {"queens": never},
            check_conflicts),
        Api("board", "attacks", board.attacks, {"a": (1, 1), "b": (2, 2)}, {"a": never, "b": never},
            gives((str, type(None)))),
        Api("board", "parse_cell", board.parse_cell, {"value": (2, 3), "n": 8},
            {"value": never, "n": optional(whole())}, board_of_none()),
        Api("board", "check_cell", board.check_cell, {"cell": (1, 1), "n": 4}, {"cell": never, "n": whole()}),
        Api("board", "parse_n", board.parse_n, {"value": 8, "minimum": 1, "maximum": 100},
            {"value": whole(1, 100), "minimum": int_seed, "maximum": int_seed}, gives(int)),
        Api("board", "whole_number", board.whole_number, {"value": 8}, {}, gives((int, type(None)))),
        Api("board", "board_cells", board.board_cells, {"n": 4, "queens": [(1, 2), "3,4"]},
            {**n_rule, "queens": never}, gives(list)),
        Api("board", "transform", kit.transform, {"n": 4, "queens": B4, "symmetry": 1},
            {**n_rule, "queens": never, "symmetry": whole(0, 7)}, board_of()),
        Api("board", "orbit", kit.orbit, {"n": 4, "queens": B4}, {**n_rule, "queens": never}, gives(set)),
        Api("board", "canonical", kit.canonical, {"n": 4, "queens": B4}, {**n_rule, "queens": never}, board_of()),
        Api("board", "draw", kit.draw, {"n": 4, "queens": B4, "preplaced": [(1, 2)], "blocked": [(1, 1)]},
            {"n": whole(1, 10_000), **cells}, check_draw, extra={"n": [("10**7", 10**7)]}),
        Api("board", "board_lines", board.board_lines, {"n": 4}, {"n": whole(1, 10_000)}, gives(list),
            extra={"n": [("10**7", 10**7)]}),
        Api("board", "diagonal_cells", board.diagonal_cells, {"n": 4, "differences": [0], "sums": [5]},
            {**n_rule, "differences": never, "sums": never}, board_of()),
        Api("board", "lex_pairs", board.lex_pairs, {"n": 3}, {"n": whole(1, 10_000)}, gives(list),
            extra={"n": [("10**7", 10**7)]}),
        Api("board", "from_columns", board.from_columns, {"columns": [2, 4, 1, 3]}, {"columns": never},
            board_of_none()),
        Api("board", "Line", kit.Line, {"kind": "row", "index": 1, "cells": ((1, 1), (1, 2))},
            {"kind": never, "index": never, "cells": never}, gives(kit.Line)),
        # ---------------------------------------------------------------- nqueens_kit.methods.sat.encodings
        Api("encodings", "VarPool", kit.VarPool, {"top": 3}, {"top": whole(0, 2**31 - 1)}, gives(kit.VarPool)),
        Api("encodings", "VarPool.take", _pool_take, {"count": 2}, {"count": whole(0, 1000)}, gives(list),
            extra={"count": [("10**12", 10**12)]}),
        *[Api("encodings", name, getattr(encodings, name),
              {"lits": [1, 2, 3, 4, 5, 6], "pool": encodings.VarPool(6), "define": False},
              {"lits": never, "pool": never, "define": is_bool}, check_encoding,
              extra={"lits": [("[0, 1]", [0, 1]), ("[1, 9]", [1, 9]), ("[True, 2]", [True, 2])]})
          for name in ("pairwise", "sequential", "commander", "product", "binary")],
        Api("encodings", "exactly_one", kit.exactly_one,
            {"lits": [1, 2, 3], "pool": encodings.VarPool(3), "encoding": "sequential", "define": False},
            {"lits": never, "pool": never, "encoding": never, "define": is_bool}, check_encoding,
            extra={"lits": [("[0, 1]", [0, 1]), ("[1, 9]", [1, 9])]}),
        Api("encodings", "get_encoding", encodings.get_encoding, {"name": "binary"}, {"name": never},
            gives(encodings.Encoding)),
        Api("encodings", "ceil_sqrt", encodings.ceil_sqrt, {"k": 10}, {"k": whole(0, 10**30)}, gives(int)),
        # ---------------------------------------------------------------- nqueens_kit.methods.sat.cnf
        Api("cnf", "build_cnf", kit.build_cnf, {"problem": 5, "encoding": "sequential", "define": False,
                                                 "max_memory": None},
            {"problem": whole(), "encoding": never, "define": is_bool, "max_memory": optional(positive_bytes)},
            gives(kit.CNF), extra={"problem": [("5000 (96 GB)", kit.Problem(5000))]}),
        Api("cnf", "predicted_size", kit.predicted_size,
            {"n": 5, "encoding": "sequential", "preplaced": 1, "define": False, "blocked": 0,
             "break_symmetry": False},
            {**n_rule, "encoding": never, "preplaced": whole(0, 5), "blocked": whole(0, 25), "define": is_bool,
             "break_symmetry": is_bool}, gives(tuple)),
        Api("cnf", "pairwise_clause_formula", cnf.pairwise_clause_formula, {"n": 8}, n_rule, gives(int)),
        Api("cnf", "build_residual", cnf.build_residual,
            {"problem": kit.Problem(5), "queens": [(1, 1)], "encoding": "pairwise", "define": False,
             "lines": None},
            {"problem": whole(), "queens": never, "encoding": never, "define": is_bool, "lines": optional()},
            gives((cnf.Residual, type(None))), extra={"queens": [("[(1, 1), (2, 2)]", [(1, 1), (2, 2)])]}),
        Api("cnf", "decode_model", cnf.decode_model, {"model": [1, -2, 3], "n": 2},
            {"model": never, **n_rule}, board_of()),
        Api("cnf", "lex_leader_clauses", cnf.lex_leader_clauses, {"n": 2, "pool": encodings.VarPool(4)},
            {"n": whole(1, 100), "pool": never}, gives(list)),
        Api("cnf", "lex_leader_size", cnf.lex_leader_size, {"n": 3}, {"n": whole(1, 100)}, gives(tuple)),
        Api("cnf", "line_lengths", cnf.line_lengths, {"n": 4}, {"n": whole(1, 100)}, gives(list)),
        Api("cnf", "cnf_size", cnf.cnf_size, {"problem": kit.Problem(4), "encoding": "pairwise", "define": False},
            {"problem": never, "encoding": never, "define": is_bool}),
        Api("cnf", "dimacs_text", cnf.dimacs_text, {"cnf": kit.build_cnf(3), "comments": True},
            {"cnf": never, "comments": is_bool}, gives(str)),
        Api("cnf", "write_dimacs", _write_dimacs, {"cnf": kit.build_cnf(3), "path": "<scratch>", "comments": True},
            {"cnf": never, "path": lambda v: v in ("abc", "²"), "comments": is_bool}),
        Api("cnf", "CNF.origin", _cnf_method("origin"), {"index": 0}, {"index": whole(0, 10)}),
        Api("cnf", "CNF.literal_name", _cnf_method("literal_name"), {"lit": 1},
            {"lit": lambda v: type(v) is int and 0 < abs(v) <= kit.build_cnf(3).num_vars}, gives(str)),
        Api("cnf", "CNF.clause_text", _cnf_method("clause_text"), {"index": 0}, {"index": whole(0, 10)},
            gives(str)),
        Api("cnf", "CNF.decode", _cnf_method("decode"), {"model": [1, 6, 8]}, {"model": never}, gives(tuple)),
        Api("cnf", "parse_dimacs", kit.parse_dimacs, {"text": "p cnf 2 1\n1 -2 0\n", "source": "<text>"},
            {"text": lambda v: v in ("", b"8")}),
        Api("cnf", "read_dimacs", _read_dimacs, {"path": "<scratch>"}, {"path": never}),
        # ---------------------------------------------------------------- nqueens_kit.methods.verbs
        Api("verbs", "solve", kit.solve,
            {"problem": 5, "method": "sat", "variant": None, "solver": None, "time_limit": None, "settings": None,
             "isolated": None, "max_memory": None, "stop": None, "explain": True, "order": None},
            {"problem": whole(), "method": optional(), "variant": optional(), "solver": optional(),
             "time_limit": optional(seconds), "settings": optional(), "isolated": optional(is_bool),
             "max_memory": optional(positive_bytes), "stop": callable_or_none, "explain": is_bool,
             "order": optional(int_seed)}, check_solved),
        Api("verbs", "count", kit.count,
            {"problem": 5, "method": "sat", "variant": None, "solver": None, "fundamental": False,
             "time_limit": None, "settings": None, "progress": None, "isolated": None, "max_memory": None,
             "stop": None},
            {"problem": whole(), "method": optional(), "variant": optional(), "solver": optional(),
             "fundamental": is_bool, "time_limit": optional(seconds), "settings": optional(),
             "progress": callable_or_none, "isolated": optional(is_bool), "max_memory": optional(positive_bytes),
             "stop": callable_or_none}, check_count_of(10)),
        Api("verbs", "iter_boards", kit.iter_boards,
            {"problem": 5, "method": "backtrack", "variant": None, "solver": None, "settings": None},
            {"problem": whole(), "method": optional(), "variant": optional(), "solver": optional(),
             "settings": optional()}, check_boards(5)),
        Api("verbs", "first_boards", verbs.first_boards,
            {"problem": 5, "method": "backtrack", "variant": None, "solver": None, "limit": 2, "time_limit": 20,
             "settings": None, "stop": None},
            {"problem": whole(), "method": optional(), "variant": optional(), "solver": optional(),
             "limit": optional(whole(1, 10**40)), "time_limit": optional(seconds), "settings": optional(),
             "stop": callable_or_none}, gives(tuple)),
        Api("verbs", "count_estimate", verbs.count_estimate, {"problem": 8, "method": None},
            {"problem": whole(), "method": optional()}, gives((tuple, type(None)))),
        Api("verbs", "minimal_core", verbs.minimal_core,
            {"problem": kit.Problem(5, [(1, 1), (2, 3)]), "choice": sat.choose(), "deadline": None},
            {"problem": never, "choice": never, "deadline": optional(seconds)}, gives((tuple, type(None)))),
        Api("verbs", "solve_sat", kit.solve_sat, {"problem": 5, "encoding": None, "solver": None, "time_limit": None},
            {"problem": whole(), "encoding": optional(), "solver": optional(), "time_limit": optional(seconds)},
            check_solved),
        Api("verbs", "solve_ilp", kit.solve_ilp,
            {"problem": 4, "formulation": None, "solver": None, "time_limit": None, "settings": None},
            {"problem": whole(), "formulation": optional(), "solver": optional(), "time_limit": optional(seconds),
             "settings": optional()}, check_solved),
        Api("verbs", "count_solutions", kit.count_solutions,
            {"problem": 5, "encoding": None, "solver": None, "fundamental": False, "time_limit": None},
            {"problem": whole(), "encoding": optional(), "solver": optional(), "fundamental": is_bool,
             "time_limit": optional(seconds)}, check_count_of(10)),
        Api("verbs", "iter_solutions", kit.iter_solutions, {"problem": 5, "encoding": None, "solver": None},
            {"problem": whole(), "encoding": optional(), "solver": optional()}, check_boards(5)),
        Api("verbs", "as_problem", verbs.as_problem, {"problem": 5, "preplaced": [(1, 1)]},
            {"problem": whole(), "preplaced": never}, gives(kit.Problem)),
        Api("verbs", "duration_text", verbs.duration_text, {"seconds": 100.0},
            {"seconds": lambda v: not isinstance(v, bool) and isinstance(v, (int, float)) and 0 <= v <= 1e300},
            gives(str)),
        Api("verbs", "refuse_endless_count", verbs.refuse_endless_count,
            {"problem": kit.Problem(8), "chosen": base.get_method("backtrack")},
            {"problem": never, "chosen": optional()}),
        # ---------------------------------------------------------------- the rest of nqueens_kit.__all__
        Api("kit", "construct", kit.construct, {"n": 8}, n_rule, board_of()),
        Api("kit", "count_backtrack", kit.count_backtrack, {"n": 6, "fundamental": False, "progress": None},
            {"n": whole(1, 12), "fundamental": is_bool, "progress": callable_or_none}, gives(int)),
        Api("kit", "iter_backtrack", kit.iter_backtrack, {"n": 5, "preplaced": ()},
            {"n": whole(1, 12), "preplaced": never}, check_boards(5)),
        Api("kit", "get_method", kit.get_method, {"name": "sat"}, {"name": optional()}, gives(kit.Method)),
        Api("kit", "Method.choose", sat.choose, {"variant": None, "solver": None, "settings": None},
            {"variant": optional(), "solver": optional(), "settings": optional()}, gives(kit.Choice)),
        Api("kit", "Method.check", sat.check, {"problem": kit.Problem(4), "verb": "solve"},
            {"problem": optional(), "verb": never}),
        Api("kit", "Choice", kit.Choice, {"method": "sat", "variant": None, "solver": None, "settings": None,
                                           "order": None}),
        Api("kit", "Status", kit.Status, {"value": "solved"}, {"value": never}, gives(kit.Status)),
        Api("kit", "SolveResult", kit.SolveResult, {"n": 4, "method": "sat", "status": "solved"},
            {"status": never}),
        Api("kit", "CountResult", kit.CountResult, {"n": 4, "count": 2, "method": "sat"}),
        # ---------------------------------------------------------------- nqueens_kit.methods.ilp.model
        Api("ilp model", "build_model", ilp_model.build_model,
            {"problem": 4, "formulation": "lines", "relax": False, "order": None, "max_memory": None},
            {"problem": whole(), "formulation": optional(), "relax": is_bool, "order": optional(int_seed),
             "max_memory": optional(positive_bytes)}, gives(ilp_model.IlpModel),
            extra={"problem": [("10_000 (466 GB)", 10_000)]}),
        Api("ilp model", "lp_relaxation", ilp_model.lp_relaxation, {"problem": 4, "formulation": "lines",
                                                                     "solver": None},
            {"problem": whole(), "formulation": optional(), "solver": optional()}, gives(ilp_model.Relaxation)),
        Api("ilp model", "export_model", _export_model, {"problem": 4, "formulation": "lines", "path": "<scratch>"},
            {"problem": whole(), "formulation": optional(), "path": never},
            extra={"path": [("'x.lp/'", "x.lp/"), ("'.lp'", ".lp"), ("tmp folder", "/tmp"),
                            ("'a\\0.lp'", "a\0.lp")]}),
        # ---------------------------------------------------------------- nqueens_kit.course.exercises
        Api("exercises", "check_at_most_one", exercises.check_at_most_one, {"encode": _student_amo, "max_k": 4},
            {"encode": never, "max_k": whole(1, 16)}, _verdict, extra={"max_k": [("10**7", 10**7)]}),
        Api("exercises", "check_exactly_one", exercises.check_exactly_one,
            {"encode": kit.exactly_one, "max_k": 4}, {"encode": never, "max_k": whole(1, 16)}, _verdict),
        Api("exercises", "check_count", exercises.check_count, {"answer": 10, "problem": 5, "fundamental": False},
            {"problem": whole(1, 12), "fundamental": is_bool}, _verdict, extra={"problem": [("10**7", 10**7)]}),
        Api("exercises", "check_par2", exercises.check_par2,
            {"score": lambda times, limit: 0.0, "time_limit": 10.0},
            {"score": never, "time_limit": seconds}, _verdict),
        Api("exercises", "resolve", exercises.resolve, {"first": [1, 2], "second": [-1, 3]},
            {"first": never, "second": never}, gives(list)),
        Api("exercises", "check_clause_count", exercises.check_clause_count,
            {"formula": cnf.pairwise_clause_formula, "encoding": "pairwise", "ns": [4, 5]},
            {"formula": never, "encoding": never, "ns": never}, _verdict, extra={"ns": [("[10**7]", [10**7])]}),
        Api("exercises", "check_verify", exercises.check_verify, {"student_verify": _student_verify},
            {"student_verify": never}, _verdict),
        Api("exercises", "check_diagonals", exercises.check_diagonals,
            {"student_diagonals": _student_diagonals, "ns": [3, 4]}, {"student_diagonals": never, "ns": never},
            _verdict),
        # ---------------------------------------------------------------- nqueens_kit.apps.completion
        Api("apps", "completion_puzzle", _puzzle, {"n": 4, "auto": False}),
        Api("apps", "CompletionPuzzle.toggle", _toggle, {"cell": (1, 1)}, {},
            extra={"cell": [("(1.5, 2)", (1.5, 2)), ("(1, 2.0)", (1, 2.0)), ("(9, 9)", (9, 9))]}),
    ]


def board_of_none() -> Callable[[Any, dict[str, Any], str | None], None]:
    def check(result: Any, _args: dict[str, Any], _hostile: str | None) -> None:
        expect(is_cell(result) or is_board(result, 10**9), f"{result!r} is not a cell or a board")
    return check


def cases_of(api: Api) -> list[Case]:
    """The valid call, then every hostile value in every argument (the others valid)."""
    shown = ", ".join(f"{k}={v!r}"[:30] for k, v in api.valid.items())
    cases = [Case(f"{api.name}({shown})", api, dict(api.valid), None)]
    for name in api.valid:
        if name in api.fixed:
            continue
        for label, value in (*JUNK, *api.extra.get(name, ())):
            cases.append(Case(f"{api.name}({name}={label})", api, {**api.valid, name: value}, name))
    return cases


class _Hang(BaseException):
    """Raised by the alarm in a call that takes too long (a BaseException: the kit's handlers let it pass)."""


def _alarm(_signum: int, _frame: Any) -> None:
    raise _Hang()


def _attempt(case: Case) -> tuple[str, str]:
    """``(kind, detail)``: ``ok``, ``kit`` (a one-line kit error), ``escape``, ``nonsense``, ``hang``, ``memory``."""
    args = {k: copy.copy(v) if isinstance(v, encodings.VarPool) else v for k, v in case.args.items()}
    signal.setitimer(signal.ITIMER_REAL, CALL_SECONDS)
    try:
        result = case.api.call(**args)
        if isinstance(result, Iterator):
            result = list(islice(result, 3))
        if case.api.check is not None:
            case.api.check(result, args, case.hostile)
        if case.hostile is not None:
            rule = case.api.accepts.get(case.hostile)
            if rule is not None and not rule(case.args[case.hostile]):
                raise Nonsense(f"answered {str(result)[:60]!r} instead of refusing the value")
    except _Hang:
        return "hang", f"still running after {CALL_SECONDS:g} s"
    except Nonsense as exc:
        return "nonsense", str(exc)
    except MemoryError:
        return "memory", "MemoryError"
    except NQueensError as exc:
        message = str(exc)
        if not message or "\n" in message:
            return "escape", f"{type(exc).__name__} with a message that is not one line: {message[:80]!r}"
        return "kit", message
    except Exception as exc:
        return "escape", f"{type(exc).__name__}: {str(exc)[:120]}"
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    return "ok", repr(result)[:80]


def _run_batch(cases: list[Case], start: int) -> None:
    """In the child: every case from ``start`` on, each announced before it runs and reported after."""
    os.chdir(tempfile.gettempdir())  # the child's private folder: a junk path names a file there
    os.environ[MEMORY_ENV] = CHILD_BUDGET  # the size guards refuse the same calls on every machine
    signal.signal(signal.SIGALRM, _alarm)
    for index in range(start, len(cases)):
        isolate.report(("start", index))
        isolate.report(("end", index, _attempt(cases[index])))


def run_cases(cases: list[Case]) -> list[tuple[str, str]]:
    """Run the cases in a child; a case that hangs in C code or kills the child is recorded, the rest go on."""
    outcomes: list[tuple[str, str] | None] = [None] * len(cases)
    start = 0
    while start < len(cases):
        current: list[Any] = [None, time.monotonic()]

        def on_message(message: Any, current: list[Any] = current) -> None:
            if message[0] == "start":
                current[:] = [message[1], time.monotonic()]
            else:
                outcomes[message[1]] = message[2]
                current[0] = None

        def watchdog(current: list[Any] = current) -> bool:
            return current[0] is not None and time.monotonic() - current[1] > WATCHDOG_SECONDS

        run = isolate.run_in_child(_run_batch, (cases, start), memory_limit=CHILD_MEMORY, on_message=on_message,
                                   stop=watchdog)
        if run.status == Ended.DONE:
            break
        index = current[0] if current[0] is not None else next(
            (i for i in range(start, len(cases)) if outcomes[i] is None), len(cases))
        if index < len(cases):
            outcomes[index] = ("hang", "killed by the watchdog") if run.stopped else ("escape", run.error[:120])
        start = index + 1
    return [o if o is not None else ("escape", "no outcome") for o in outcomes]


#: Misuse that still escapes: (function, argument) -> the file to fix it in.  Such cases are expected
#: failures (shown as xfail, so they stay visible) until their files are fixed; none is left.
KNOWN_ESCAPES: dict[tuple[str, str], str] = {}

API_LIST = apis()


def escapes(api: Api) -> tuple[list[Case], list[tuple[str, str]]]:
    cases = cases_of(api)
    return cases, run_cases(cases)


@pytest.mark.parametrize("api", API_LIST, ids=[f"{a.group}:{a.name}" for a in API_LIST])
def test_generated_misuse_gets_a_one_line_kit_error_or_a_right_answer(api: Api) -> None:
    cases, outcomes = escapes(api)
    baseline_kind, baseline_detail = outcomes[0]
    assert baseline_kind == "ok", f"the valid call {cases[0].label} failed: {baseline_kind}: {baseline_detail}"
    bad = [(case, kind, detail) for case, (kind, detail) in zip(cases, outcomes, strict=True)
           if kind not in ("ok", "kit")]
    unknown = [b for b in bad if (api.name, b[0].hostile) not in KNOWN_ESCAPES]
    assert not unknown, "\n".join(f"{case.label}: {kind}: {detail}" for case, kind, detail in unknown)
    if bad:
        where = sorted({KNOWN_ESCAPES[api.name, case.hostile] for case, _, _ in bad})
        pytest.xfail(f"{len(bad)} known escapes, to be fixed in {'; '.join(where)}: "
                     + ", ".join(case.label for case, _, _ in bad[:5]))


# ------------------------------------------------------------------------------ the cases that started it


def _one_line_error(call: Callable[[], Any], kind: type[NQueensError] = NQueensError) -> str:
    with pytest.raises(kind) as error:
        call()
    message = str(error.value)
    assert message and "\n" not in message
    return message


def test_the_reported_misuse_gets_one_line_errors():
    board8 = kit.construct(8)
    assert "pre-placed" in _one_line_error(lambda: kit.verify(8, board8, preplaced=5))
    _one_line_error(lambda: kit.conflicts("ab"))
    assert "0 is not a literal" in _one_line_error(lambda: kit.exactly_one([0, 1], kit.VarPool()))
    assert "not a variable of the pool" in _one_line_error(lambda: kit.exactly_one([1, 2], kit.VarPool()))
    assert "preplaced" in _one_line_error(lambda: kit.predicted_size(8, "pairwise", -5))
    assert "define" in _one_line_error(lambda: kit.build_cnf(6, define="yes"))


def test_build_cnf_has_the_command_lines_size_guard():
    message = _one_line_error(lambda: kit.build_cnf(500, "pairwise"))
    assert "pairwise CNF of 500-queens" in message and "of memory" in message and "sequential" in message
    assert "1.0 KB allowed" in _one_line_error(lambda: kit.build_cnf(8, max_memory="1K"))
    assert kit.build_cnf(8, max_memory="1G").num_clauses == cnf.pairwise_clause_formula(8)
    _one_line_error(lambda: kit.build_cnf(8, max_memory="lots"))


def test_build_model_has_the_size_guard_and_export_model_names_a_file(tmp_path):
    pytest.importorskip("pulp")
    assert "ILP model of 10000-queens" in _one_line_error(lambda: ilp_model.build_model(10_000))
    _one_line_error(lambda: ilp_model.build_model(4, max_memory="1K"))
    _one_line_error(lambda: ilp_model.build_model(4, relax="yes"))
    for path in ("", "   ", str(tmp_path), f"{tmp_path}/model.lp/", f"{tmp_path}/model.lp\0", 5, None, b"m.lp"):
        _one_line_error(lambda path=path: ilp_model.export_model(4, "lines", path))
    assert list(tmp_path.iterdir()) == []
    assert ilp_model.export_model(4, "lines", tmp_path / "model.lp").stat().st_size > 0


def test_the_puzzle_says_what_is_wrong_with_a_cell_and_places_nothing():
    pytest.importorskip("ipywidgets")
    from nqueens_kit.apps.completion import completion_puzzle

    for cell in (None, (1.5, 2), (1, 2.5), "x", (9, 9), (True, 1)):
        app = completion_puzzle(n=4)
        app.toggle(cell)
        assert app.placed == [] and app.message_text and "please report" not in app.message_text
    app = completion_puzzle(n=4)
    app.toggle("2,3")
    assert app.placed == [(2, 3)]


def test_the_exercise_checkers_refuse_what_is_not_a_students_function():
    for checker in (exercises.check_at_most_one, exercises.check_exactly_one, exercises.check_verify,
                    exercises.check_diagonals, exercises.check_clause_count, exercises.check_par2):
        assert "not 'abc'" in _one_line_error(lambda checker=checker: checker("abc"))
    _one_line_error(lambda: exercises.check_at_most_one(encodings.pairwise, max_k=10**7))
    _one_line_error(lambda: exercises.check_count(92, 10**7))
    _one_line_error(lambda: exercises.check_clause_count(cnf.pairwise_clause_formula, ns=[]))
    _one_line_error(lambda: exercises.resolve([1, 2.5], [-1]))
    assert not exercises.check_at_most_one(lambda lits, pool: 5)  # a wrong answer is a verdict, not an error


def _quadratic_conflicts(cells: list[tuple[int, int]]) -> list[tuple[tuple[int, int], tuple[int, int], str]]:
    """Every pair compared with every other: what conflicts() said before it bucketed the queens."""
    return [(a, b, why) for i, a in enumerate(cells) for b in cells[i + 1:] if (why := board.attacks(a, b))]


def test_conflicts_by_buckets_agree_with_comparing_every_pair():
    rng = random.Random(7)
    for _ in range(500):
        n = rng.randint(1, 8)
        cells = [(rng.randint(1, n), rng.randint(1, n)) for _ in range(rng.randint(0, 10))]
        assert kit.conflicts(cells) == _quadratic_conflicts(cells)
        distinct = sorted(set(cells))
        expected = _quadratic_conflicts(distinct)
        assert board.first_conflict(distinct) == (expected[0] if expected else None)


class _TooManySteps(BaseException):
    """Raised by the step counter past its budget, so that a quadratic regression fails in seconds."""


def _python_steps(call: Callable[[], Any], budget: int = 10**8) -> int:
    """How many Python lines and calls ``call`` runs (a count of work, the same on every machine); past
    ``budget`` the call is stopped and the budget plus one is returned."""
    steps = 0

    def tracer(_frame: Any, _event: str, _arg: Any) -> Any:
        nonlocal steps
        steps += 1
        if steps > budget:
            raise _TooManySteps
        return tracer

    previous = sys.gettrace()
    sys.settrace(tracer)
    try:
        call()
    except _TooManySteps:
        pass
    finally:
        sys.settrace(previous)
    return steps


def test_preplaced_queens_are_checked_in_linear_time():
    """Four times the pre-placed queens cost about four times the steps, with a clash or without; comparing
    every pair (what conflicts() did before it bucketed the queens) would cost sixteen times."""
    n = 20_000
    queens = list(kit.construct(n))

    def placed(m: int) -> None:
        assert len(kit.Problem(n, queens[:m]).preplaced) == m

    def clashing(m: int) -> None:
        clash = (queens[m - 1][0] + 1, queens[m - 1][1] + 1)  # on the diagonal of the last queen
        message = _one_line_error(lambda: kit.Problem(n, [*queens[:m], clash]), kit.ConflictError)
        last = queens[m - 1]
        assert f"{last[0]},{last[1]} and {clash[0]},{clash[1]}" in message and "same diagonal" in message

    for check in (placed, clashing):
        small = _python_steps(lambda check=check: check(2_000), budget=100 * 2_000)  # about 6 a queen
        large = _python_steps(lambda check=check: check(8_000), budget=5 * small)
        assert 3 * small < large < 5 * small, (check.__name__, small, large)


def test_boards_too_large_to_list_or_draw_are_refused_at_once():
    for call in (lambda: kit.draw(10**7, []), lambda: board.board_lines(10**7), lambda: list(board.lex_pairs(10**7)),
                 lambda: kit.Problem(10**7).lines()):
        _one_line_error(call)
    assert board.diagonal_cells(10**7) == ()


def test_there_are_many_generated_misuse_calls():
    assert sum(len(cases_of(api)) for api in API_LIST) > 4000
