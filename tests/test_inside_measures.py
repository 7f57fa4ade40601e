"""What chapters 7 and 8 measure inside the solvers: the implication graph, learning switched off, CP domains,
max-queens by MaxSAT and ILP, symmetry breaking like with like, and where a solve's time goes."""

from __future__ import annotations

import itertools

import pycosat
import pytest

from nqueens_kit import Problem, build_cnf
from nqueens_kit.bench import random_preplacement
from nqueens_kit.errors import InputError
from nqueens_kit.inside.cdcl import conflict_steps, implication_graph, trace, trail_at
from nqueens_kit.inside.domains import cp_strength, domains
from nqueens_kit.inside.proofs import Proof, check
from nqueens_kit.inside.propagation import deduced, load_and_search, truth
from nqueens_kit.inside.symmetry import enumeration_effort
from nqueens_kit.problem.instances import random_blocked
from nqueens_kit.problem.reference import published_count
from nqueens_kit.solvers import SAT_SOLVERS, available_solvers

from .conftest import need


def _problems():
    for n in (4, 5, 6, 8):
        yield Problem(n)
    for n in (6, 7, 8):
        for instance in (1, 2, 3):
            yield Problem(n, random_preplacement(n, 2, seed=11, instance=instance))


def test_the_implication_graph_cut_gives_the_learned_clause() -> None:
    """At every analysed conflict the first-UIP cut of the graph is exactly the clause the solver learned, the
    UIP is on the conflict's level, the conflict side is after it on the trail, and the cut's edges come
    from the reason side."""
    for problem in _problems():
        result = trace(problem)
        for k in conflict_steps(result):
            graph = implication_graph(result, k)
            learned = result.events[k + 1]
            assert learned.kind == "learn" and set(learned.clause) == set(graph.learned), (problem.describe(), k)
            levels = {lit: level for lit, level, _ in graph.nodes}
            assert levels[graph.uip] == graph.level and -graph.uip in graph.learned
            order = [lit for lit, _, _ in trail_at(result, k - 1)]
            assert all(order.index(lit) > order.index(graph.uip) for lit in graph.conflict_side)
            assert all(levels[lit] == graph.level for lit in graph.conflict_side)
            tails = {a for a, _ in graph.cut_edges()}
            assert {-lit for lit in graph.learned} == tails | {graph.uip}
    with pytest.raises(InputError, match="not an analysed conflict"):
        implication_graph(trace(4), 0)
    with pytest.raises(InputError, match="no conflict"):
        implication_graph(trace(5))  # n = 5: a board without a conflict


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 6, 7, 8])
def test_without_learning_the_solver_still_answers_right_and_its_clauses_are_a_proof(n: int) -> None:
    problems = [Problem(n)] + [Problem(n, random_preplacement(n, k, seed=5, instance=i))
                               for k in (1, 2) if k < n for i in (1, 2)]
    for problem in problems:
        result = trace(problem, learning="decisions")
        cnf = build_cnf(problem)
        expected = pycosat.solve(cnf.clauses, vars=cnf.num_vars) != "UNSAT"
        assert result.status == ("solved" if expected else "infeasible"), problem.describe()
        assert result.stats["restarts"] == 0
        for event in result.events:
            if event.kind == "learn":  # only "not all of the current decisions": one literal per level
                assert len(event.clause) == event.level and event.to_level == event.level - 1
        if not expected:
            lines = [" ".join(map(str, clause)) + " 0" for clause in result.learned]
            assert check(cnf, Proof(lines, "kit")).checked
    with pytest.raises(InputError, match="learning"):
        trace(4, learning="forgetful")


def test_learning_pays_on_larger_boards() -> None:
    learned, backtracked = trace(16).stats["conflicts"], trace(16, learning="decisions").stats["conflicts"]
    assert backtracked > 5 * learned


def test_domains_are_sound_and_gac_is_at_least_forward_checking() -> None:
    """No value a completion uses is ever removed; GAC removes at least what forward checking does, and unit
    propagation on the board at least as much; a placement either refutes has no completion."""
    for n in (4, 5, 6, 7):
        for k in (1, 2):
            for instance in range(1, 6):
                problem = Problem(n, random_preplacement(n, k, seed=3, instance=instance))
                dead, _forced, feasible = truth(problem)
                forward, gac = domains(problem, "forward"), domains(problem, "gac")
                if forward.conflict or gac.conflict:
                    assert not feasible, problem.describe()
                    continue
                assert forward.ruled_out(n) <= gac.ruled_out(n) <= dead, problem.describe()
                board = deduced(problem)
                if not board.conflict:  # unit propagation on the board does all forward checking does
                    assert forward.ruled_out(n) <= board.ruled_out, problem.describe()
    with pytest.raises(InputError, match="consistency"):
        domains(Problem(4), "bounds")


def test_gac_sees_a_hall_set_unit_propagation_does_not() -> None:
    placed = Problem(5, [(2, 2)])
    extra = domains(placed, "gac").ruled_out(5) - deduced(placed, "pairwise").ruled_out
    assert sorted(extra) == [(4, 5), (5, 4)]
    table = {(r["n"], r["propagation"]): r for r in cp_strength([8], queens=3, samples=10, seed=1)}
    assert table[8, "ac"]["ruled_out"] <= table[8, "unit propagation"]["ruled_out"] <= table[8, "gac"]["ruled_out"]


def test_max_queens_by_maxsat_and_ilp_agree_with_brute_force() -> None:
    need(SAT_SOLVERS["pysat-minisat"].available(), "python-sat")
    need("highs" in available_solvers("ilp"), "HiGHS")
    from nqueens_kit.inside.optimise import max_queens_ilp, max_queens_maxsat, max_queens_race

    for instance in (1, 2, 3):
        problem = Problem(5, blocked=random_blocked(5, 0.5, 2, instance))
        cells = [(r, c) for r in range(1, 6) for c in range(1, 6) if (r, c) not in set(problem.blocked)]
        best = max((k for k in range(0, 6) for queens in itertools.combinations(cells, k)
                    if all(a[0] != b[0] and a[1] != b[1] and abs(a[0] - b[0]) != abs(a[1] - b[1])
                           for a, b in itertools.combinations(queens, 2))), default=0)
        assert max_queens_maxsat(problem)["optimum"] == max_queens_ilp(problem)["optimum"] == best
    rows = max_queens_race([8], density=0.6)
    assert rows[0]["optimum"] <= 8 and rows[0]["maxsat_seconds"] > 0


def test_symmetry_breaking_like_with_like() -> None:
    need(SAT_SOLVERS["pysat-minisat"].available(), "python-sat")
    for n in (5, 6, 8):
        plain, broken = enumeration_effort(n), enumeration_effort(n, break_symmetry=True)
        assert plain["boards"] == published_count(n) and broken["boards"] == published_count(n, fundamental=True)
        assert broken["clauses"] > plain["clauses"]
    with pytest.raises(InputError, match="statistics"):
        enumeration_effort(6, solver="pycosat")


def test_load_and_search_reports_counters() -> None:
    need(SAT_SOLVERS["pysat-minisat"].available(), "python-sat")
    rows = load_and_search(10, ["pairwise", "sequential"], repeat=2)
    assert [r["encoding"] for r in rows] == ["pairwise", "sequential"]
    for row in rows:
        assert row["answer"] and row["load"] > 0 and row["search"] > 0 and row["propagations"] > 0
        assert row["clauses"] == build_cnf(10, row["encoding"]).num_clauses and row["clock"] == "processor"
    with pytest.raises(InputError, match="repeat"):
        load_and_search(8, ["pairwise"], repeat=0)


def test_the_root_lp_is_feasible_where_no_board_exists() -> None:
    need(bool(available_solvers("ilp")), "an ILP solver")
    from nqueens_kit.inside.bnb import root_lp

    for n in (2, 3):
        lp = root_lp(n, "lines", repeat=1)
        assert lp["state"] == "optimal" and lp["variables"] == n * n
        sums = [sum(lp["values"][r, c] for c in range(1, n + 1)) for r in range(1, n + 1)]
        assert all(abs(s - 1) < 1e-6 for s in sums)
    assert root_lp(6, "max-queens", repeat=1)["bound"] == pytest.approx(6)


def test_the_root_lp_is_timed_on_the_processor_clock_for_highs() -> None:
    from nqueens_kit.inside.bnb import root_lp

    for solver in available_solvers("ilp"):
        lp = root_lp(8, "lines", solver, repeat=2)
        assert lp["state"] == "optimal" and lp["seconds"] > 0
        assert lp["clock"] == ("processor" if solver == "highs" else "solver")
    with pytest.raises(InputError, match="repeat"):
        root_lp(8, "lines", repeat=0)


def test_where_it_flips_live_and_stored(tmp_path) -> None:
    """Chapter 7's section 5d: the live run verifies its boards, the stored sweep holds all three
    configurations at every n, and a sweep without one of them is refused in one line."""
    need(SAT_SOLVERS["pysat-minisat"].available(), "python-sat")
    need("highs" in available_solvers("ilp"), "HiGHS")
    from pathlib import Path

    from nqueens_kit.bench import read_results
    from nqueens_kit.inside.scale import flip_run, stored_flip

    row, = flip_run([10])
    assert row["n"] == 10 and min(row["highs"], row["pycosat"], row["minisat"]) > 0
    assert row["highs_nodes"] is not None and row["minisat_conflicts"] > 0
    with pytest.raises(InputError, match="at least 4"):
        flip_run([3])
    stored = Path(__file__).resolve().parents[1] / "notebooks" / "data" / "ch7-flip.csv"
    table = stored_flip(stored)
    assert [r["n"] for r in table] == sorted({r["n"] for r in read_results(stored)}) and len(table) >= 4
    assert all(r[k] > 0 for r in table for k in ("highs", "pycosat", "minisat"))
    assert all(r["highs_nodes"] >= 0 and r["minisat_conflicts"] > 0 for r in table)
    partial = tmp_path / "partial.csv"
    lines = stored.read_text().splitlines()
    partial.write_text("\n".join([lines[0]] + [line for line in lines[1:] if ",highs," not in line]) + "\n")
    with pytest.raises(InputError, match="no runs of ILP lines/highs"):
        stored_flip(partial)
