"""The reasoning checkers: every correct first-UIP clause and RUP lemma passes, each typical mistake is named."""

from __future__ import annotations

import pytest

from nqueens_kit import Problem, build_cnf
from nqueens_kit.course.check_cdcl import check_first_uip, check_rup_lemma, parse_clause
from nqueens_kit.errors import InputError
from nqueens_kit.inside.cdcl import conflict_steps, implication_graph, trace, trail_at
from nqueens_kit.inside.proofs import prove
from nqueens_kit.problem.board import attacks


@pytest.fixture(scope="module")
def eight():
    t = trace(8)
    return t, conflict_steps(t)[22]  # a conflict whose first UIP is not its decision (the chapter's exercise)


def _decision(graph):
    return next(lit for lit, level, decided in graph.nodes if decided and level == graph.level)


def test_the_exercise_conflict_has_a_uip_that_is_not_the_decision(eight) -> None:
    t, step = eight
    graph = implication_graph(t, step)
    assert graph.uip != _decision(graph)


def test_every_way_of_writing_the_learned_clause_is_accepted(eight) -> None:
    t, step = eight
    graph = implication_graph(t, step)
    names = [t.cnf.literal_name(lit) for lit in graph.learned]
    variants = [
        names, list(reversed(names)), list(graph.learned), [str(lit) for lit in graph.learned],
        " ∨ ".join(names), " or ".join(reversed(names)), ", ".join(names),
        [name.replace("¬", "-") for name in names], [name.replace("¬", "not ") for name in names],
        [name.replace("¬", "~").replace("[", "(").replace("]", ")") for name in names],
    ]
    for answer in variants:
        verdict = check_first_uip(t, step, answer)
        assert verdict, (answer, verdict.message)
        assert verdict.message.startswith("Correct")


def test_every_first_uip_clause_of_several_traces_is_accepted() -> None:
    for n in (4, 5, 6):
        t = trace(n)
        for step in conflict_steps(t)[:12]:
            learned = implication_graph(t, step).learned
            assert check_first_uip(t, step, list(reversed(learned))), (n, step)


def test_typical_wrong_clauses_are_named(eight) -> None:
    t, step = eight
    graph = implication_graph(t, step)
    learned = list(graph.learned)
    decision = _decision(graph)
    wrong = {
        "true at the conflict": [-learned[0], *learned[1:]],  # the UIP itself, not its negation
        "not a cut": learned[1:],  # the UIP's literal left out
        "not a node": [*learned, -t.cnf.problem.var(8, 8)] if t.cnf.problem.var(8, 8) not in
        {lit for lit, _, _ in graph.nodes} and -t.cnf.problem.var(8, 8) not in
        {lit for lit, _, _ in graph.nodes} else None,
        "Not asserting": [*learned, -decision],  # the decision added: two literals of the conflict level
        "farther from κ": [-decision, *learned[1:]],  # the decision cut: a UIP, but not the first
        "conflict side": [-lit for lit in graph.conflict_side] + learned,
        "tautology": [*learned, -learned[1]],
        "empty clause": [],
    }
    expected = {"true at the conflict": "is true at the conflict", "not a cut": "not a cut",
                "not a node": "is not a node", "Not asserting": "Not asserting",
                "farther from κ": "farther from κ", "conflict side": "conflict side",
                "tautology": "tautology", "empty clause": "empty clause"}
    for key, answer in wrong.items():
        if answer is None:
            continue
        verdict = check_first_uip(t, step, answer)
        assert not verdict, key
        assert expected[key] in verdict.message, (key, verdict.message)


def test_the_not_a_cut_verdict_shows_a_path_around_the_clause(eight) -> None:
    t, step = eight
    graph = implication_graph(t, step)
    verdict = check_first_uip(t, step, list(graph.learned)[:-1])
    path = verdict.counterexample
    assert not verdict and path[-1] == 0
    assert -graph.learned[-1] in path  # the missing literal's node is on the path that avoids the clause
    assert all(-lit not in path for lit in graph.learned[:-1])


def test_unreadable_answers_get_a_reason_and_misuse_an_input_error(eight) -> None:
    t, step = eight
    for answer in ("hello", ["P[9,9]"], [0], [True], 3.5, [10 ** 6]):
        verdict = check_first_uip(t, step, answer)
        assert not verdict and verdict.message.startswith("Not yet")
    with pytest.raises(InputError):
        check_first_uip("trace", step, [])
    with pytest.raises(InputError):
        check_first_uip(t, step + 1, [])


def test_parse_clause_reads_names_numbers_and_strings() -> None:
    cnf = build_cnf(4)
    assert parse_clause(cnf, "¬P[1,1] ∨ P[2,3]") == (-1, cnf.problem.var(2, 3))
    assert parse_clause(cnf, ["--P[1,2]", -3, "4"]) == (2, -3, 4)
    assert parse_clause(cnf, "not P[1,1] or P(1,2)") == (-1, 2)


@pytest.fixture(scope="module")
def corner():
    return build_cnf(Problem(6, [(1, 1)]))


def test_every_lemma_of_a_real_proof_is_accepted_in_turn() -> None:
    for problem in (Problem(3), Problem(4, [(1, 1)]), Problem(6, [(1, 1)])):
        cnf = build_cnf(problem)
        proof = prove(cnf)
        earlier: list[tuple[int, ...]] = []
        for line in proof.lines:
            if line.startswith(("d ", "c")) or not line.strip():
                continue  # deletions only make checking cheaper; keeping the clauses keeps every lemma RUP
            lemma = tuple(int(x) for x in line.split()[:-1])
            verdict = check_rup_lemma(cnf, earlier, lemma)
            assert verdict, (problem, lemma, verdict.message)
            earlier.append(lemma)


def test_one_literal_lemmas_of_the_corner_board_match_propagation(corner) -> None:
    from nqueens_kit.inside.propagation import propagate

    for r in range(1, 7):
        for c in range(1, 7):
            if (r, c) == (1, 1):
                continue
            refuted = propagate(corner.clauses, [corner.problem.var(r, c)]).conflict is not None
            verdict = check_rup_lemma(corner, [], [f"¬P[{r},{c}]"])
            assert bool(verdict) == refuted
            if attacks((r, c), (1, 1)):
                assert verdict


def test_wrong_lemmas_are_named(corner) -> None:
    not_rup = check_rup_lemma(corner, [], ["¬P[2,4]"])  # true (no completion) but beyond propagation alone
    assert not not_rup and "not by unit propagation alone" in not_rup.message
    assert not check_rup_lemma(corner, [], [])
    assert "empty clause" in check_rup_lemma(corner, [], []).message
    open_board = build_cnf(8)
    false = check_rup_lemma(open_board, [], ["¬P[1,1]"])  # a board puts a queen on (1,1)
    assert not false and "not implied at all" in false.message
    model = false.counterexample
    assert open_board.problem.var(1, 1) in model
    trivial = check_rup_lemma(corner, [], ["P[2,4]", "¬P[2,4]"])
    assert trivial and "trivially" in trivial.message
    assert not check_rup_lemma(corner, [], ["Q[1,1]"])
    with pytest.raises(InputError):
        check_rup_lemma("formula", [], [])


def test_earlier_lemmas_make_a_later_one_rup(corner) -> None:
    proof = prove(corner)
    lemmas = [lemma for lemma in proof.lemmas if lemma]
    last = proof.lemmas[-1]
    assert last == ()
    assert not check_rup_lemma(corner, [], last)  # the empty clause needs the lemmas before it
    assert check_rup_lemma(corner, lemmas, last)


def test_a_non_rup_lemma_of_an_unsatisfiable_formula_is_not_called_implied(corner) -> None:
    """Every clause follows from the corner formula (it has no model), so the checker must not praise the lemma
    as implied: it says why it follows and that propagation does not show it."""
    for lemma in (["¬P[1,1]"], ["¬P[2,4]"], ["P[3,5]", "P[4,2]"]):
        verdict = check_rup_lemma(corner, [], lemma)
        assert not verdict
        assert "no model at all" in verdict.message and "implies it" not in verdict.message
        assert "Prove another lemma first" in verdict.message and "shorter step" not in verdict.message
    satisfiable = build_cnf(Problem(8, [(1, 1)]))  # has boards; no completion puts a queen on (2,3)
    implied = check_rup_lemma(satisfiable, [], ["¬P[2,3]"])
    assert not implied and implied.counterexample
    assert "true (the formula implies it)" in implied.message and "no model at all" not in implied.message


def test_counts_in_verdicts_agree_in_number() -> None:
    """No verdict says "1 literals"; a propagation that sets one literal says "1 literal"."""
    for cnf in (build_cnf(Problem(6, [(1, 1)])), build_cnf(4)):
        n = cnf.problem.n
        for r in range(1, n + 1):
            for c in range(1, n + 1):
                message = check_rup_lemma(cnf, [], [f"¬P[{r},{c}]"]).message
                assert " 1 literals" not in message and " 1 board cells" not in message
    tiny = build_cnf(Problem(2, [(1, 1)]))  # assuming a queen on (1,2) sets one literal, and row 1 breaks
    one = check_rup_lemma(tiny, [], ["¬P[1,2]"])
    assert one and "sets 1 literal and" in one.message


# ---------------------------------------------- one rule for answers: each defect it closes, caught by a test


def test_numpy_integers_are_literals(eight, corner) -> None:
    import numpy as np

    assert parse_clause(build_cnf(4), [np.int64(-1), np.int32(7), np.array(3)]) == (-1, 7, 3)
    t, step = eight
    learned = implication_graph(t, step).learned
    assert check_first_uip(t, step, np.array(learned)) and check_first_uip(t, step, [np.int64(lit) for lit in learned])
    lemma = [-corner.problem.var(2, 5)]  # propagation refutes a queen on (2,5)
    assert check_rup_lemma(corner, [], lemma)
    assert check_rup_lemma(corner, [], [np.int64(lemma[0])]).message == check_rup_lemma(corner, [], lemma).message
    assert check_rup_lemma(corner, [np.array(lemma)], np.array([-corner.problem.var(2, 4), -corner.problem.var(3, 2)]))


def test_a_clause_of_the_formula_is_no_learned_lemma(corner) -> None:
    var = corner.problem.var
    pair = [-var(1, 2), -var(1, 3)]  # row 1's at-most-one: a clause of the formula
    for answer in (pair, list(reversed(pair)), "¬P[1,3] ∨ ¬P[1,2]", ["P[1,1]"]):
        verdict = check_rup_lemma(corner, [], answer)
        assert not verdict and "already a clause of the formula" in verdict.message and "not a learned lemma" in \
            verdict.message, answer
    wider = check_rup_lemma(corner, [], [*pair, var(4, 4)])  # subsumed by that clause
    assert not wider and "holds the formula's clause ¬P[1,2] ∨ ¬P[1,3]" in wider.message
    assert "not a learned lemma" in wider.message and not wider.message.startswith("Correct")
    assert check_rup_lemma(corner, [], [-var(2, 5)])  # a real lemma is still correct


@pytest.mark.parametrize(("n", "index"), [(8, 22), (8, 0), (8, 5), (6, 3), (4, 0)])
def test_the_decision_clause_gets_a_true_reason(n: int, index: int) -> None:
    t = trace(n)
    step = conflict_steps(t)[index]
    graph = implication_graph(t, step)
    decisions = [lit for lit, _, reason in trail_at(t, step - 1) if reason is None]
    verdict = check_first_uip(t, step, [-d for d in reversed(decisions)])
    name = t.cnf.literal_name
    assert not verdict and "is the decision clause" in verdict.message and "implied" in verdict.message
    assert f"The first UIP is {name(graph.uip)}" in verdict.message and "not right behind the first UIP" in \
        verdict.message
    assert "did not lead to the conflict" not in verdict.message and "\n" not in verdict.message
    if graph.uip in decisions:
        assert "the conflict level's decision itself" in verdict.message


def test_a_literal_set_earlier_but_not_drawn_is_not_said_to_have_no_part(eight) -> None:
    t, step = eight
    graph = implication_graph(t, step)
    drawn = {lit for lit, _, _ in graph.nodes}
    first = next(lit for lit, _, reason in trail_at(t, step - 1) if reason is None and lit not in drawn)
    verdict = check_first_uip(t, step, [*graph.learned, -first])
    assert not verdict and "is not a node" in verdict.message and "it was set at level 1" in verdict.message
    assert "did not lead to the conflict" not in verdict.message
