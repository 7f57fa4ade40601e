"""A new encoding is a module of its own and one registry line: registered here by the registry's public way (an
encoding defined in this file, pairwise with each pair written the other way round), it is solved and counted by
every solver entry that takes clauses, from the API and the command line; it has its colour; and every listing of
encodings names it.  An encoding without a colour of its own, or of a kind no solver reads, is refused when it is
registered."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator, Sequence
from dataclasses import replace
from itertools import combinations

import pytest

from nqueens_kit.cli.main import main
from nqueens_kit.errors import InputError
from nqueens_kit.methods import count, get_method, solve
from nqueens_kit.methods.sat.encodings import (
    ENCODINGS,
    VARIANTS,
    Clause,
    Encoding,
    VarPool,
    checked,
    get_encoding,
    register,
    unregister,
)
from nqueens_kit.problem.reference import published_count

from . import entry_contract as contract
from .conftest import need

NAME = "flipped"
COLOUR = "#A0522D"  # sienna: no variant of any method has it


def flipped(lits: Sequence[int], pool: VarPool, define: bool = False) -> list[Clause]:
    """At most one: ``¬b ∨ ¬a`` for every pair a before b (pairwise, each clause the other way round)."""
    items = checked(lits, pool, define, NAME)
    return [[-b, -a] for a, b in combinations(items, 2)]


FLIPPED = Encoding(NAME, flipped, lambda k: (0, k * (k - 1) // 2), "pairwise, each pair the other way round",
                   "k(k-1)/2", COLOUR)


@pytest.fixture
def registered() -> Iterator[Encoding]:
    register(FLIPPED)
    try:
        yield FLIPPED
    finally:
        unregister(NAME)


def _clause_takers() -> list[str]:
    """The SAT entries that declare they take clauses (what an encoding in clauses needs)."""
    return [name for name, entry in get_method("sat").solvers().items() if "clauses" in entry.variants]


def test_registering_makes_it_a_variant_and_unregistering_takes_it_out(registered: Encoding) -> None:
    sat = get_method("sat")
    assert ENCODINGS[NAME] is registered and NAME in sat.variants() and NAME in get_method("model-count").variants()
    assert sat.variant_kind(NAME) == "clauses"
    assert sat.colour(NAME) == COLOUR and get_method("model-count").colour(NAME) == COLOUR
    unregister(NAME)
    assert NAME not in ENCODINGS and NAME not in sat.variants()
    with pytest.raises(InputError, match="no colour for the encoding 'flipped'"):
        sat.colour(NAME)
    register(FLIPPED)  # for the fixture to take out


def test_every_entry_that_takes_clauses_takes_it_and_the_others_refuse_it(registered: Encoding) -> None:
    sat = get_method("sat")
    def takers(variant: str) -> set[str]:
        return {n for n, entry in sat.solvers().items() if entry.takes_variant(sat.variant_kind(variant))}

    assert takers(NAME) == set(_clause_takers()) == takers("pairwise")
    assert len(takers(NAME)) > 2 and "pycosat" in takers(NAME) and "pycosat" not in takers("native")


@pytest.mark.parametrize("solver", _clause_takers())
def test_it_solves_and_counts_with_every_entry_that_takes_clauses(registered: Encoding, solver: str) -> None:
    """n = 1 to 6: a verified board exactly when one exists, and the published count."""
    entry = get_method("sat").solver(solver)
    if not entry.available() and not entry.installable:
        pytest.skip(f"{solver} has no install route here")
    need(entry.available(), f"{solver} ({entry.install_hint()})")
    assert contract.variants(get_method("sat"), solver, only=NAME) == []
    result = count(7, "sat", NAME, solver)
    assert result.count == published_count(7) and result.variant == NAME


def test_the_command_line_solves_counts_and_writes_it(registered: Encoding, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "8", "--encoding", NAME]) == 0
    out = capsys.readouterr().out
    assert "solved, verified" in out and NAME in out
    assert main(["count", "6", "--encoding", NAME, "--json"]) == 0
    said = json.loads(capsys.readouterr().out)
    assert (said["count"], said["encoding"]) == (published_count(6), NAME)
    assert main(["cnf", "4", "--encoding", NAME, "--no-comments"]) == 0
    clauses = [line.split()[:-1] for line in capsys.readouterr().out.splitlines()[1:]]
    assert ["-5", "-1"] in clauses and ["-1", "-5"] not in clauses  # its own clauses, not pairwise's


def test_every_listing_of_encodings_names_it(registered: Encoding, capsys: pytest.CaptureFixture[str]) -> None:
    sat = get_method("sat")
    for wrong in (lambda: get_encoding("nope"), lambda: sat.choose("nope"), lambda: solve(4, "sat", "nope")):
        with pytest.raises(InputError) as excinfo:
            wrong()
        assert NAME in str(excinfo.value) and "\n" not in str(excinfo.value)
    for argv in (["solve", "--help"], ["count", "--help"], ["cnf", "--help"]):
        assert main(argv) == 0
        assert NAME in "".join(capsys.readouterr().out.split()), argv


def test_a_solver_that_takes_no_clauses_refuses_it_in_one_line(registered: Encoding,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """An entry declaring only cardinality constraints refuses a clause encoding, naming the entries that take it."""
    from nqueens_kit.solvers import SAT_SOLVERS

    only = copy.copy(SAT_SOLVERS["pysat-minicard"])
    only.variants = frozenset({"cardinality"})
    monkeypatch.setitem(SAT_SOLVERS, "pysat-minicard", only)
    for variant in (NAME, "pairwise"):
        with pytest.raises(InputError) as excinfo:
            solve(6, "sat", variant, "pysat-minicard")
        text = str(excinfo.value)
        assert "\n" not in text and f"cannot take the encoding {variant}" in text and "pycosat" in text, text


@pytest.mark.parametrize(("change", "word"), [
    ({"colour": ""}, "colour of its own"),
    ({"colour": "grey"}, "colour of its own"),
    ({"colour": "#0072b2"}, "pairwise's"),  # taken
    ({"name": "pairwise"}, "registered already"),
    ({"name": "Two words"}, "lower-case word"),
    ({"kind": "pseudo-boolean"}, "clauses or cardinality"),
])
def test_an_encoding_without_a_colour_of_its_own_or_a_known_kind_is_refused(change: dict[str, str],
                                                                             word: str) -> None:
    before = dict(VARIANTS)
    with pytest.raises(InputError) as excinfo:
        register(replace(FLIPPED, **change))
    assert word in str(excinfo.value) and "\n" not in str(excinfo.value)
    assert VARIANTS == before


def test_the_default_encoding_is_the_first_registered() -> None:
    sat = get_method("sat")
    assert sat.default_variant() == next(iter(ENCODINGS)) == "pairwise"
    assert [sat.variant_kind(v) for v in sat.variants()].count("cardinality") == 1
