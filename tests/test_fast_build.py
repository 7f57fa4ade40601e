"""The array builder and writer against the readable ones: the same clauses, numbering, groups and bytes."""

from __future__ import annotations

import io
from collections import Counter

import numpy as np
import pycosat
import pytest

from nqueens_kit.errors import InputError
from nqueens_kit.formats import dimacs
from nqueens_kit.formats.dimacs import parse_dimacs, read_dimacs, write_dimacs_arrays, write_dimacs_clauses
from nqueens_kit.methods.sat import clauses as clauses_module
from nqueens_kit.methods.sat import cnf as cnf_module
from nqueens_kit.methods.sat.cnf import (
    PackedClauses,
    build_cnf,
    build_packed,
    build_readable,
    dimacs_text,
    predicted_size,
    write_dimacs,
)
from nqueens_kit.methods.sat.encodings import ENCODINGS, VarPool, line_template
from nqueens_kit.methods.sat.solve import solve_here
from nqueens_kit.problem.board import Problem, verify
from nqueens_kit.problem.reference import published_count

ALL = list(ENCODINGS)


@pytest.mark.parametrize("name", ALL)
@pytest.mark.parametrize("define", [False, True])
def test_templates_are_the_readable_encodings(name, define):
    for exact in (False, True):
        for k in range(0, 45):
            pool = VarPool(k)
            cells = list(range(1, k + 1))
            expected = ([cells] if exact else []) + ENCODINGS[name].at_most_one(cells, pool, define)
            template = line_template(name, k, exact, define)
            got = PackedClauses(template.literals, template.offsets).tolist()
            assert got == expected, (name, k, exact, define)
            assert template.helpers == pool.top - k == ENCODINGS[name].counts(k)[0]


def _problems(n):
    yield Problem(n)
    yield Problem(n, break_symmetry=True)
    if n >= 5:
        yield Problem(n, [(1, 2)], [(3, 3), (n, n), (2, 5)])
        yield Problem(n, [(2, 4), (n, 1)] if n >= 6 else [(2, 4)])


@pytest.mark.parametrize("name", ALL)
@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 6, 7, 10, 13])
def test_arrays_build_the_readable_formula(name, n):
    for problem in _problems(n):
        for define in (False, True):
            slow = build_readable(problem, name, define)
            fast = build_packed(problem, name, define)
            assert not fast.has_list()
            assert fast.num_vars == slow.num_vars
            assert fast.num_clauses == slow.num_clauses == predicted_size(
                n, name, len(problem.preplaced), define, len(problem.blocked), problem.break_symmetry)[1]
            assert fast.groups == slow.groups
            assert Counter(map(tuple, fast.clauses)) == Counter(map(tuple, slow.clauses))
            assert fast.clauses == slow.clauses  # and in the same order, so clause i has the same origin
            assert fast == slow


def test_large_formula_is_built_with_arrays_and_agrees_with_the_readable_one():
    for name in ("commander", "sequential", "product"):
        fast = build_cnf(150, name)
        assert not fast.has_list(), "a formula this size is built as arrays"
        slow = build_readable(Problem(150), name)
        assert fast.num_vars == slow.num_vars and fast.groups == slow.groups
        assert fast.packed.tolist() == slow.clauses


def test_small_formulas_are_built_clause_by_clause(monkeypatch):
    assert build_cnf(8, "commander").has_list()
    monkeypatch.setattr(cnf_module, "FAST_ABOVE", 0)
    forced = build_cnf(8, "commander")
    assert not forced.has_list() and forced.clauses == build_readable(Problem(8), "commander").clauses


def test_the_chapters_see_no_difference():
    problem = Problem(8, [(1, 1)], [(4, 5)])
    slow, fast = build_readable(problem, "commander"), build_packed(problem, "commander")
    for index in range(slow.num_clauses):
        assert fast.clause_text(index) == slow.clause_text(index)
        assert fast.origin(index) == slow.origin(index)
        assert fast.clause(index) == slow.clauses[index]
    assert not fast.has_list(), "clause_text, origin and clause read the arrays"
    assert fast.family_counts() == slow.family_counts()
    assert not fast.has_list()
    assert [fast.literal_name(v) for v in (1, -64, 65, -fast.num_vars)] == \
        [slow.literal_name(v) for v in (1, -64, 65, -slow.num_vars)]
    with pytest.raises(InputError):
        fast.clause_text(fast.num_clauses)


@pytest.mark.parametrize("name", ["commander", "sequential", "product", "binary", "pairwise"])
def test_boards_from_the_array_formula_verify(name):
    for problem in (Problem(30), Problem(17, [(3, 5)], [(1, 1), (9, 9)]), Problem(12, break_symmetry=True)):
        cnf = build_packed(problem, name)
        result = solve_here(problem, name, "pycosat", cnf=cnf)
        assert result.status == "solved"
        assert verify(problem.n, result.queens, problem.preplaced, problem.blocked)
        assert problem.verify(cnf.decode(pycosat.solve(cnf.clauses)))


@pytest.mark.parametrize("name", ["commander", "product", "sequential"])
@pytest.mark.parametrize("n", [6, 8])
def test_array_formula_counts_the_published_boards(name, n):
    cnf = build_packed(Problem(n), name, define=True)  # every helper a function of the board: a model per board
    boards = {cnf.decode(model) for model in pycosat.itersolve(cnf.clauses, vars=cnf.num_vars)}
    assert all(verify(n, board) for board in boards)
    assert len(boards) == published_count(n)
    fundamental = build_packed(Problem(n, break_symmetry=True), name, define=True)
    assert sum(1 for _ in pycosat.itersolve(fundamental.clauses)) == published_count(n, fundamental=True)


@pytest.mark.parametrize("chunk", [1, 3, 64, 1 << 20])
@pytest.mark.parametrize("table", [True, False])
def test_array_writer_writes_the_same_bytes(chunk, table, monkeypatch, tmp_path):
    monkeypatch.setattr(dimacs, "_ARRAY_CHUNK", chunk)
    if not table:  # the clause-by-clause text of formulas with very many variables
        monkeypatch.setattr(dimacs, "_TABLE_VARIABLES", 0)
    for problem, name in ((Problem(9, [(1, 3)], [(5, 5)]), "commander"), (Problem(7, break_symmetry=True), "product"),
                          (Problem(11), "pairwise"), (Problem(1), "sequential")):
        slow, fast = build_readable(problem, name), build_packed(problem, name)
        for comments in (True, False):
            assert dimacs_text(fast, comments) == dimacs_text(slow, comments)
        write_dimacs(fast, tmp_path / "fast.cnf")
        text = io.StringIO()
        write_dimacs_clauses(text, slow.num_vars, slow.clauses, clauses_module._dimacs_header_comments(slow), slow.groups)
        assert (tmp_path / "fast.cnf").read_text() == text.getvalue()
        back = read_dimacs(tmp_path / "fast.cnf")
        assert back.clauses == slow.clauses and back.num_vars == slow.num_vars


def test_array_writer_on_random_clauses():
    rng = np.random.default_rng(7)
    for num_vars in (1, 9, 10, 99, 100, 101, 99_999, 100_000, 1_234_567):
        widths = rng.integers(1, 6, size=500)
        literals = rng.integers(1, num_vars + 1, size=int(widths.sum())) * rng.choice([-1, 1], size=int(widths.sum()))
        literals[0], literals[-1] = num_vars, -num_vars
        offsets = np.concatenate([[0], np.cumsum(widths)])
        out = io.BytesIO()
        write_dimacs_arrays(out, num_vars, literals.astype(np.int32), offsets)
        clauses = [literals[a:b].tolist() for a, b in zip(offsets[:-1], offsets[1:], strict=True)]
        assert parse_dimacs(out.getvalue()).clauses == clauses
        text = io.StringIO()
        write_dimacs_clauses(text, num_vars, clauses)
        assert out.getvalue().decode() == text.getvalue()


@pytest.mark.parametrize("literals, offsets, num_vars, word", [
    ([1, 0], [0, 2], 3, "non-zero"),
    ([1, 4], [0, 2], 3, "-3 to 3"),
    ([1, 2], [0, 1], 3, "offsets"),
    ([1, 2], [0, 2, 1], 3, "offsets"),
    ([1.5], [0, 1], 3, "integer"),
    ([1], [0, 1], -1, "num_vars"),
])
def test_array_writer_refuses_bad_input_in_one_line(literals, offsets, num_vars, word):
    with pytest.raises(InputError) as caught:
        write_dimacs_arrays(io.BytesIO(), num_vars, np.array(literals), np.array(offsets))
    assert word in str(caught.value) and "\n" not in str(caught.value)


def test_packed_list_of_lists_both_ways():
    uniform = PackedClauses.from_lists([[1, 2]] * 50 + [[3]] * 20 + [[4, 5, 6]])
    mixed = PackedClauses.from_lists([[1], [2, 3], [4, 5, 6]] * 20)
    for packed in (uniform, mixed):
        assert packed.tolist() == [packed.clause(i) for i in range(len(packed))]
    assert PackedClauses.from_lists([]).tolist() == []


def test_kept_templates_stay_within_their_budget(monkeypatch):
    from nqueens_kit.methods.sat.encodings import templates

    monkeypatch.setattr(templates, "TEMPLATE_LITERALS", 5_000)
    monkeypatch.setattr(templates, "_TEMPLATES", {})
    monkeypatch.setattr(templates, "_template_literals", 0)
    for k in range(2, 120):
        line_template("pairwise", k, exact=False)
    kept = templates._TEMPLATES
    pairwise = ENCODINGS["pairwise"]
    assert sum(len(t.literals) for t in kept.values()) == templates._template_literals <= 5_000 + 2 * 119 * 118
    assert (pairwise, 119, False, False) in kept and (pairwise, 2, False, False) not in kept
    again = line_template("pairwise", 119, exact=False)
    assert again is kept[pairwise, 119, False, False]


@pytest.mark.parametrize("args, word", [
    (("pairwise", -1, False), "whole number"),
    (("pairwise", 3, "yes"), "True or False"),
    (("nope", 3, False), "unknown encoding"),
])
def test_line_template_refuses_bad_input_in_one_line(args, word):
    with pytest.raises(InputError) as caught:
        line_template(*args)
    assert word in str(caught.value) and "\n" not in str(caught.value)


def test_a_large_list_formula_is_written_through_arrays_too(monkeypatch, tmp_path):
    slow = build_readable(Problem(9, [(2, 2)]), "sequential")
    expected = dimacs_text(slow)
    monkeypatch.setattr(clauses_module, "FAST_ABOVE", 0)  # what write_dimacs reads
    write_dimacs(slow, tmp_path / "list.cnf")
    assert slow.has_list() and (tmp_path / "list.cnf").read_text() == expected


def test_array_writer_writes_empty_clauses_as_the_list_writer_does():
    for clauses, num_vars in (([[], [1], [], [-2, 1]], 2), ([[]], 0), ([], 0)):
        packed = PackedClauses.from_lists(clauses)
        out, text = io.BytesIO(), io.StringIO()
        write_dimacs_arrays(out, num_vars, packed.literals, packed.offsets)
        write_dimacs_clauses(text, num_vars, clauses)
        assert out.getvalue().decode() == text.getvalue()
        assert parse_dimacs(out.getvalue()).clauses == clauses
