"""The interactive apps, driven from Python as a lecturer would drive them with the mouse.

Each test builds an app, moves sliders (``.value = ...``), picks from dropdowns, clicks buttons
(``.click()``), waits for the background job (``app.wait()``) and checks what the app shows: the drawn
board's size, the counter, the messages.  A bad combination must end in a message, never in an exception
escaping a callback; a long job never blocks the others and Stop ends it.  Expected numbers come from the
published counts or are written out here, never from the code under test.
"""

from __future__ import annotations

import re
import sys

import pytest

from nqueens_kit import apps as w
from nqueens_kit.apps import completion as puzzle_module
from nqueens_kit.apps import svg
from nqueens_kit.bench import make_configs
from nqueens_kit.bench.config import DEFAULT_METHODS
from nqueens_kit.errors import InputError
from nqueens_kit.methods import METHODS, Choice, Method, get_method
from nqueens_kit.problem.board import verify
from nqueens_kit.problem.results import SolveResult, Status
from nqueens_kit.runtime.limits import Size
from nqueens_kit.solvers import SAT_SOLVERS

from .conftest import need


def drawn_size(html: str) -> int:
    """The n of the board an app drew (its SVG's data-n), checked against the number of cells drawn."""
    n = int(re.search(r'data-n="(\d+)"', html).group(1))
    assert html.count('class="nqk-cell') == n * n
    return n


def drawn_queens(html: str) -> set[tuple[int, int]]:
    return {(int(r), int(c)) for r, c in re.findall(r'class="nqk-queen" data-row="(\d+)" data-col="(\d+)"', html)}


def ilp_ready() -> bool:
    return bool(w.installed_solvers("ilp"))


def solving_here() -> list[Method]:
    """What the board explorer must offer, asked of the registry: every method that can solve and runs here."""
    return [m for m in METHODS.values() if "solve" in m.verbs and m.available()]


# ------------------------------------------------------------------------------------- board explorer


def test_board_explorer_starts_on_the_first_of_92() -> None:
    app = w.board_explorer()
    app.wait()
    assert drawn_size(app.board.value) == 8
    assert app.counter.value == "solution 1 of 92"
    assert verify(8, drawn_queens(app.board.value))
    assert "8 × 8" in app.size_label.value
    assert "64 variables" in app.stats.value and "744 clauses" in app.stats.value
    assert "passes verify()" in app.message_text


def test_moving_the_slider_redraws_the_board_at_the_new_size() -> None:
    app = w.board_explorer()
    app.n.value = 9
    app.wait()
    assert drawn_size(app.board.value) == 9
    assert app.counter.value == "solution 1 of 352"
    assert "9 × 9" in app.size_label.value and "81 variables" in app.stats.value
    app.n.value = 5
    app.wait()
    assert drawn_size(app.board.value) == 5 and app.counter.value == "solution 1 of 10"


def test_next_steps_through_every_solution_and_wraps_around() -> None:
    app = w.board_explorer(n=6)
    app.wait()
    seen = [app.board_queens]
    for k in range(2, 5):
        app.next_button.click()
        assert app.counter.value == f"solution {k} of 4"
        seen.append(app.board_queens)
    assert len(set(seen)) == 4 and all(verify(6, b) for b in seen)
    app.next_button.click()
    assert app.counter.value == "solution 1 of 4" and app.board_queens == seen[0]
    app.next_button.click()
    app.first_button.click()
    assert app.counter.value == "solution 1 of 4"


def test_large_boards_are_enumerated_lazily() -> None:
    app = w.board_explorer(n=12)
    app.wait()
    assert app.counter.value == "solution 1"
    app.next_button.click()
    app.wait()
    app.next_button.click()
    app.wait()
    assert app.counter.value == "solution 3"
    assert "found in" in app.message_text
    assert verify(12, app.board_queens)


@pytest.mark.parametrize("encoding", ["pairwise", "sequential", "commander", "product", "binary"])
def test_every_encoding_gives_the_same_four_solutions_at_n_6(encoding: str) -> None:
    app = w.board_explorer(n=6)
    app.variant.value = encoding
    app.wait()
    assert app.counter.value == "solution 1 of 4"
    assert f"{encoding} encoding" in app.stats.value


def test_boards_without_solutions_say_so() -> None:
    app = w.board_explorer()
    app.n.value = 3
    app.wait()
    assert app.counter.value == "no solution"
    assert drawn_size(app.board.value) == 3 and not drawn_queens(app.board.value)
    assert app.message_text.startswith("infeasible: 3-queens has no solution")
    app.next_button.click()  # disabled in the browser; from Python it must still be harmless
    app.n.value = 1
    app.wait()
    assert app.counter.value == "solution 1 of 1" and drawn_queens(app.board.value) == {(1, 1)}


def test_construction_and_backtracking_methods() -> None:
    app = w.board_explorer(n=10)
    app.method.value = "construct"
    app.wait()
    assert app.counter.value == "solution 1 of 1" and verify(10, app.board_queens)
    assert app.variant.layout.display == app.solver.layout.display == "none"
    app.method.value = "backtrack"
    app.wait()
    assert app.counter.value == "solution 1"  # n = 10 is found lazily
    app.n.value = 6
    app.wait()
    assert app.counter.value == "solution 1 of 4"


def test_the_solver_list_offers_only_installed_solvers(tmp_path, monkeypatch) -> None:
    """PATH is pinned to a folder holding two of the DIMACS solvers (stand-ins), so the list is the same on
    every machine whatever else is installed there."""
    import importlib.util

    for binary in ("minisat", "glucose"):
        (tmp_path / binary).write_text("#!/bin/sh\necho 's UNKNOWN'\n")
        (tmp_path / binary).chmod(0o755)
    monkeypatch.setenv("PATH", str(tmp_path))
    app = w.board_explorer()
    app.wait()
    offered = list(app.solver.options)
    assert offered[0] == app.solver.value == "pycosat"
    for binary in ("minisat", "cadical", "picosat", "kissat", "glucose"):
        expected = binary in ("minisat", "glucose") or (  # Kissat also comes in a wheel
            binary == "kissat" and importlib.util.find_spec("passagemath_kissat") is not None)
        assert (binary in offered) == expected, binary
    assert ("pysat-cadical" in offered) == (importlib.util.find_spec("pysat") is not None)


def test_an_external_solver_steps_through_solutions_too() -> None:
    need(SAT_SOLVERS["minisat"].available(), "minisat")
    app = w.board_explorer(n=6)
    app.solver.value = "minisat"
    app.wait()
    assert app.counter.value == "solution 1"  # one process per solution: not listed up front
    for _ in range(4):
        app.next_button.click()
        app.wait()
    assert app.counter.value == "solution 1 of 4"
    assert "4 solutions in all" in app.message_text


def test_ilp_method_in_the_explorer() -> None:
    need(ilp_ready(), "the ILP side (PuLP with CBC)")
    app = w.board_explorer(n=8)
    app.method.value = "ilp"
    app.wait()
    assert list(app.solver.options) == w.installed_solvers("ilp")
    assert drawn_size(app.board.value) == 8 and verify(8, app.board_queens)
    assert "constraints" in app.stats.value
    app.n.value = 3
    app.wait()
    assert app.counter.value == "no solution" and "infeasible" in app.message_text
    app.n.value = 6  # stepping: one no-good cut per board found
    app.wait()
    for _ in range(4):
        app.next_button.click()
        app.wait()
    assert app.counter.value == "solution 1 of 4" and "4 solutions in all" in app.message_text


def test_errors_become_messages_not_tracebacks(monkeypatch: pytest.MonkeyPatch) -> None:
    module = sys.modules["nqueens_kit.apps.board_explorer"]  # the module, not the function of that name
    app = w.board_explorer(n=6)
    app.wait()

    def refuse(*args: object, **kwargs: object) -> None:
        raise InputError("that combination is not possible")

    monkeypatch.setattr(module, "solve", refuse)
    app.n.value = 7
    app.wait()
    assert app.message_text == "that combination is not possible"
    assert 'role="alert"' in app.message.value

    def crash(*args: object, **kwargs: object) -> None:
        raise ZeroDivisionError("boom")

    monkeypatch.setattr(module, "solve", crash)
    app.n.value = 8
    app.wait()
    assert "unexpected error" in app.message_text and "boom" in app.message_text


# ------------------------------------------------------------------- every method of the registry, asked


class _Newcomer(Method):
    """A method no app has heard of: it solves, needs no solver and has no variants."""

    name = "newcomer-for-tests"
    title = "newcomer"
    summary = "a method registered only by this test"

    def solve_here(self, problem, choice, deadline):
        return SolveResult.of(problem, self.name, Status.TIMEOUT)

    def size(self, problem, choice):
        return Size(problem.n, memory=100 * problem.n)


@pytest.fixture()
def newcomer(monkeypatch: pytest.MonkeyPatch) -> Method:
    monkeypatch.setitem(METHODS, _Newcomer.name, _Newcomer())
    return METHODS[_Newcomer.name]


def test_the_board_explorer_offers_every_method_that_solves_here() -> None:
    app = w.board_explorer(n=6)
    app.wait()
    offered = [value for _, value in app.method.options]
    assert offered == [m.name for m in solving_here()]
    assert not [m for m in METHODS.values() if "solve" not in m.verbs and m.name in offered]
    for method in solving_here():
        app.method.value = method.name
        app.wait()
        variants, solvers = list(method.variants()), w.installed_solvers(method)
        assert (app.variant.layout.display == "none") == (not variants), method.name
        assert (app.solver.layout.display == "none") == (not solvers), method.name
        if variants:
            assert list(app.variant.options) == variants and app.variant.description == method.variant_word
        assert list(app.solver.options) == solvers
        assert all(get_method(method).solver(s).available() for s in solvers)
        assert app.counter.value.startswith("solution 1"), (method.name, app.message_text)
        assert verify(6, app.board_queens) and drawn_queens(app.board.value) == set(app.board_queens)
        chosen = method.choose(variants[0] if variants else None, solvers[0] if solvers else None)
        assert method.describe(chosen) in app.stats.value, method.name


def test_each_method_words_a_board_size_without_solutions_its_own_way() -> None:
    """n = 3: a complete method proves there is no board; an incomplete one only says it found none."""
    app = w.board_explorer(n=3)
    app.wait()
    for method in solving_here():
        app.method.value = method.name
        app.wait()
        assert not app.board_queens, method.name
        if method.complete:
            assert app.counter.value == "no solution" and app.message_text.startswith("infeasible"), method.name
        else:
            assert app.counter.value == "" and "infeasible" not in app.message_text, method.name
            assert app.message_text == f"no board found; {method.title} cannot prove there is none"


def test_a_new_method_appears_in_the_board_and_timing_explorers(newcomer: Method) -> None:
    app = w.board_explorer(n=5)
    app.wait()
    assert (newcomer.title, newcomer.name) in app.method.options
    assert app.method.value == next(iter(METHODS))  # the registry's default is shown first
    assert Choice(newcomer.name) in [c for _, c in w.timing_choices()]
    timing = w.timing_explorer()
    assert Choice(newcomer.name) in [c for _, c in timing.configs.options]


def test_the_timing_explorer_offers_every_method_that_solves_with_its_installed_solvers() -> None:
    offered = [c for _, c in w.timing_choices()]
    assert len(offered) == len(set(offered))
    for method in METHODS.values():
        mine = [c for c in offered if c.method == method.name]
        if "solve" not in method.verbs or not method.available():
            assert not mine, method.name
            continue
        solvers = w.installed_solvers(method)
        assert {c.solver for c in mine} == (set(solvers) or {None}), method.name
        first = solvers[0] if solvers else None
        runs = {v for v in method.variants() if _refusal(method, method.choose(v, first)) is None}
        assert {c.variant for c in mine if c.solver == first} == (runs or {None})
        for solver in solvers:  # the benchmark variants on every installed solver
            assert {method.choose(v, solver) for v in method.bench_variants} <= set(mine)


def _refusal(method, choice):
    """The one-line refusal of a configuration (a variant its solver cannot take), or None."""
    try:
        method.check(None, "solve", choice)
    except InputError as refused:
        return str(refused)
    return None


def test_the_timing_explorer_starts_with_the_sweeps_default_methods() -> None:
    app = w.timing_explorer()
    chosen = list(app.configs.value)
    assert {c.method for c in chosen} <= set(DEFAULT_METHODS) and chosen
    installed = [c for c in make_configs(DEFAULT_METHODS) if c.solver in w.installed_solvers(c.method) or not c.solver]
    assert installed == [c for c in chosen if c in installed]


def test_the_completion_puzzle_shows_every_complete_method_that_honours_placed_queens() -> None:
    deciders = [m for m in METHODS.values() if "solve" in m.verbs and m.complete and "preplaced" in m.features]
    app = w.completion_puzzle(n=5)
    assert [m.name for m in app.methods] == [m.name for m in deciders if m.available()]
    app.toggle((1, 1))
    app.complete()
    app.wait()
    lines = [line for line in re.sub(r"<[^>]+>", "\n", app.timings.value).split("\n") if line]
    *lines, split = lines  # the last line says where the whole wait went
    assert len(lines) == len(deciders) and " in all: " in split and "building and solving" in split
    for method, line in zip(deciders, lines):
        if method.available():
            solver = (w.installed_solvers(method) or [None])[0]
            said = method.describe(method.choose(solver=solver))
            assert line.startswith(said + (", " if method.settings() else ": ")), line
            assert ": completed in" in line, line
        else:
            assert line.startswith(f"{method.title}: not available here"), line
    assert app.message_text.startswith("completed: 4 queens added to your 1")


# ------------------------------------------------------------------------------------ formula explorer


def test_formula_explorer_counts_and_highlights_a_line() -> None:
    app = w.formula_explorer(n=7)
    assert "p cnf 49 490" in app.families.value and "✓" in app.families.value
    app.line.value = "anti_7"  # the long anti-diagonal: 7 cells, 21 pairwise clauses
    assert drawn_size(app.board.value) == 7
    assert app.board.value.count("nqk-cell nqk-highlight") == 7
    assert "21 clauses" in app.clauses.value and "anti_7: at most one" in app.clauses.value
    assert "¬P[1,7] ∨ ¬P[2,6]" in app.clauses.value
    app.n.value = 8
    assert "p cnf 64 744" in app.families.value
    assert app.line.value == "anti_7" and app.board.value.count("nqk-cell nqk-highlight") == 7


def test_formula_explorer_encodings_and_small_boards() -> None:
    app = w.formula_explorer(n=8, line="row_3")
    app.encoding.value = "sequential"
    assert "row_3: at least one" in app.clauses.value and "h" in app.clauses.value
    assert "✓ matches the closed form" in app.families.value
    app.n.value = 2
    assert app.line.value == "row_1" and drawn_size(app.board.value) == 2
    app.n.value = 1
    assert drawn_size(app.board.value) == 1 and "p cnf 1 2" in app.families.value


# ----------------------------------------------------------------------------------- completion puzzle


def test_clicking_two_attacking_queens_names_the_pair() -> None:
    app = w.completion_puzzle(n=6)
    app.cells[(1, 1)].click()
    app.cells[(3, 3)].click()
    assert "1,1 and 3,3 attack each other (same diagonal)" in app.message_text
    assert app.cells[(3, 3)].style.button_color == svg.CONFLICT_COLOR
    app.complete_button.click()  # still the same message, and no exception
    assert "attack each other" in app.message_text
    app.cells[(3, 3)].click()  # take it back
    assert app.placed == [(1, 1)] and "1 queen placed" in app.message_text


def test_completion_adds_queens_around_the_placed_ones() -> None:
    app = w.completion_puzzle(n=8)
    app.cells[(1, 1)].click()
    app.cells[(2, 5)].click()
    app.complete_button.click()
    app.wait()
    assert app.message_text.startswith("completed: 6 queens added to your 2")
    assert verify(8, app.solution, preplaced=[(1, 1), (2, 5)])
    assert sum(b.description == svg.QUEEN for b in app.cells.values()) == 8
    assert "SAT, pairwise encoding, pycosat: completed in" in app.timings.value
    if ilp_ready():
        assert "ILP, lines formulation, cbc, tuned settings: completed in" in app.timings.value
    app.clear_button.click()
    assert not app.placed and all(b.description == puzzle_module.EMPTY_SQUARE for b in app.cells.values())


def test_a_placement_that_cannot_be_completed() -> None:
    app = w.completion_puzzle(n=4)
    app.toggle((1, 1))  # no 4-queens solution has a corner queen
    app.complete()
    app.wait()
    assert app.message_text.startswith("no completion")
    assert "no completion" in app.timings.value and not app.solution


def test_resizing_the_puzzle_and_auto_completion() -> None:
    app = w.completion_puzzle(n=8, auto=True)
    app.n.value = 5
    assert len(app.cells) == 25 and len(app.grid.children) == 36  # 25 squares and 11 row / column numbers
    assert "repeat(6" in app.grid.layout.grid_template_columns
    app.cells[(1, 1)].click()
    app.wait()
    assert app.message_text.startswith("completed") and verify(5, app.solution, preplaced=[(1, 1)])
    app.toggle((9, 9))
    assert "no cell 9,9" in app.message_text


def test_ilp_agrees_on_completion() -> None:
    need(ilp_ready(), "the ILP side (PuLP with CBC)")
    app = w.completion_puzzle(n=4)
    app.toggle((1, 1))
    app.complete()
    app.wait()
    assert app.message_text.startswith("no completion (SAT, ILP")
    assert "say infeasible" in app.message_text


# ------------------------------------------------------------------------------------- timing explorer


def test_timing_explorer_runs_a_small_sweep_and_draws_it() -> None:
    app = w.timing_explorer(["sat:pairwise:pycosat", "construct"], ns=(4, 6), step=1)
    app.repeat.value = 1
    app.run_button.click()
    app.wait()
    rows = app.rows
    assert len(rows) == 6 and all(r["status"] == "solved" for r in rows)
    assert app.progress.value == app.progress.max == 6
    assert app.progress_label.value.startswith("6 of 6 runs")
    assert app.plot.value[:8] == b"\x89PNG\r\n\x1a\n"
    assert app.message_text.startswith("done: 6 runs")
    assert not app.run_button.disabled


def test_timing_explorer_refuses_what_it_cannot_do() -> None:
    app = w.timing_explorer(["sat:pairwise:pycosat"], ns=(1, 64), step=1)
    app.repeat.value = 5
    app.run()
    assert "at most" in app.message_text and not app.rows
    app.configs.value = ()
    app.run()
    assert app.message_text == "choose at least one method to time"
    app.configs.value = (Choice("construct"),)
    app.ns.value = (4, 5)
    app.repeat.value = 1
    app.placed.value = 2
    app.run()
    app.wait()
    assert "construct cannot honour pre-placed queens" in app.message_text


def test_timing_choices_include_ilp_when_installed() -> None:
    configs = [config for _, config in w.timing_choices()]
    labels = [config.label for config in configs]
    assert "SAT sequential/pycosat" in labels and "construct" in labels and "backtrack" in labels
    assert any(c.method == "ilp" for c in configs) == ilp_ready()


# ------------------------------------------------------------------------------------------ playground


def test_playground_holds_the_five_apps() -> None:
    app = w.playground()
    assert len(app.children) == 5
    assert isinstance(app.board, w.BoardExplorer) and isinstance(app.timing, w.TimingExplorer)
    assert isinstance(app.inside, w.Inside)
    app.board.n.value = 10
    app.wait()
    assert drawn_size(app.board.board.value) == 10


# ------------------------------------------------------------------------------------ never freezes


def _my_children() -> list[str]:
    import glob
    import os
    from pathlib import Path

    me, kids = os.getpid(), []
    for stat in glob.glob("/proc/[0-9]*/stat"):
        try:
            text = Path(stat).read_text()
        except OSError:
            continue
        fields = text[text.rindex(")") + 2:].split()
        if int(fields[1]) == me and fields[0] != "Z":
            kids.append(stat)
    return kids


def test_a_long_search_runs_in_the_background_and_stops() -> None:
    app = w.board_explorer(n=8, method="backtrack")
    app.wait()
    app.n.value = 32  # backtracking from scratch: minutes; the app must not freeze meanwhile
    assert app.job.busy and app.job.stop_button.layout.display == ""
    other = w.formula_explorer(n=5)  # another app answers at once while the search runs
    other.line.value = "anti_5"
    assert other.board.value.count("nqk-cell nqk-highlight") == 5
    app.job.stop_button.click()
    app.wait(timeout=30)
    assert not app.job.busy and app.job.stop_button.layout.display == "none"
    assert "stopped" in app.message_text and app.counter.value == ""
    assert _my_children() == []  # the solver's process went with it


def test_a_new_choice_replaces_the_running_search() -> None:
    app = w.board_explorer(n=8, method="backtrack")
    app.n.value = 31
    app.n.value = 6  # the lecturer moved on: the slow search is stopped, the new one answers
    app.wait(timeout=30)
    assert app.counter.value == "solution 1 of 4" and _my_children() == []


def test_impossible_completion_frames_the_queens_to_blame() -> None:
    app = w.completion_puzzle(n=8)
    for cell in ((1, 1), (2, 3), (5, 8)):
        app.toggle(cell)
    app.complete()
    app.wait()
    assert app.core == ((1, 1), (2, 3))  # 8-queens has no board with both; (5, 8) is not to blame
    assert "1,1, 2,3 already make it impossible" in app.message_text
    # framed, not filled: the attack red is kept for two queens that attack each other
    assert app.cells[(1, 1)].layout.border == puzzle_module.CORE_FRAME == app.cells[(2, 3)].layout.border
    assert svg.CORE_COLOR in puzzle_module.CORE_FRAME
    assert app.cells[(5, 8)].layout.border != puzzle_module.CORE_FRAME
    assert svg.CONFLICT_COLOR not in {app.cells[c].style.button_color for c in ((1, 1), (2, 3), (5, 8))}
    numbers = [child.value for child in app.grid.children if hasattr(child, "value")][:9]
    assert numbers == ["", "1", "2", "3", "4", "5", "6", "7", "8"]  # columns numbered as in P_rc


def test_max_queens_at_n_3_draws_its_best_placement() -> None:
    need(ilp_ready(), "the ILP side (PuLP with CBC)")
    app = w.board_explorer(n=3)
    app.method.value = "ilp"
    assert app.variant.description == "formulation"
    app.variant.value = "max-queens"
    app.wait()
    assert app.counter.value == "no solution" and "at most 2" in app.message_text
    queens = drawn_queens(app.board.value)
    assert len(queens) == 2 and all(verify(3, [q]) is False for q in queens)  # two queens, not a board
    (a, b) = sorted(queens)
    assert a[0] != b[0] and a[1] != b[1] and abs(a[0] - b[0]) != abs(a[1] - b[1])


@pytest.mark.parametrize("maker", [lambda: w.board_explorer(n=-3), lambda: w.board_explorer(n="x"),
                                   lambda: w.completion_puzzle(n=99), lambda: w.formula_explorer(n=0),
                                   lambda: w.board_explorer(n=8.5)])
def test_bad_values_give_a_message_not_a_trait_error(maker) -> None:
    app = maker()
    app.wait() if hasattr(app, "wait") else None
    assert "must be" in app.message_text


def test_a_large_n_is_reachable_and_never_blocks_the_cell() -> None:
    """n above 40 is on the slider; a size out of range is said at once, and the cell never waits for the
    search (backtracking at n = 60 runs into the time limit, in the background)."""
    module = sys.modules["nqueens_kit.apps.board_explorer"]
    assert module.EXPLORER_MAX_N >= 64
    app = w.board_explorer(n=60, method="backtrack")
    assert app.n.value == 60 and app.job.busy  # returned while the search runs
    app.job.stop_button.click()
    app.wait(timeout=30)
    too_big = w.board_explorer(n=module.EXPLORER_MAX_N + 400, method="backtrack")
    assert too_big.job.busy and too_big.n.value == module.EXPLORER_MAX_N
    assert f"must be from 1 to {module.EXPLORER_MAX_N} here" in too_big.message_text  # said before any answer
    too_big.method.value = "construct"  # the lecturer moves on: the note goes, the answer stays
    too_big.wait(timeout=60)
    assert "must be" not in too_big.message_text and "passes verify()" in too_big.message_text
    assert verify(module.EXPLORER_MAX_N, too_big.board_queens)


def test_a_search_stopped_by_the_time_limit_is_not_reported_as_solved(monkeypatch) -> None:
    module = sys.modules["nqueens_kit.apps.board_explorer"]
    monkeypatch.setattr(module, "APP_TIME_LIMIT", 0.5)
    app = w.board_explorer(n=32, method="backtrack")  # backtracking needs far longer for its first board
    app.wait(timeout=60)
    assert "found no board within the time limit of 0.5 s" in app.message_text
    assert "timeout, stopped after" in app.stats.value and "solve " not in app.stats.value
    assert app.counter.value == "" and app.board_queens == ()


# ------------------------------------------------------------------------------------ cells handed to an app


@pytest.mark.parametrize("queen", ["1,1", (1, 2, 3), (1,), ("1", "1"), (0, 1), (9, 1), True, (True, 1), 1.5,
                                   ((1, 1),), {1: 1}, (1.0, 2.0)])
def test_the_stepper_refuses_a_malformed_queen_in_one_line(queen) -> None:
    with pytest.raises(InputError) as caught:
        w.solution_stepper(8, queen)
    message = str(caught.value)
    assert "\n" not in message and "(row, column) pair of whole numbers from 1 to 8" in message
    assert repr(queen)[:30] in message  # the value, named


def test_the_stepper_takes_a_queen_of_whole_numbers() -> None:
    import numpy as np

    for queen, cell in (((2, 3), (2, 3)), ([8, 8], (8, 8)), ((np.int64(4), np.int32(5)), (4, 5)),
                        (np.array([6, 7]), (6, 7))):
        app = w.solution_stepper(8, queen)
        assert app.problem.preplaced == (cell,)
        app.job.stop_button.click()
        app.wait()


@pytest.mark.parametrize(("arguments", "fragment"), [
    ({"queens": [(1, 2, 3)]}, "queens: a queen is written ROW,COL"),
    ({"queens": [(5, 1)]}, "queens: queen at 5,1 is off the board"),
    ({"queens": "1,1"}, "queens are a list of (row, column) pairs, not '1,1'"),
    ({"preplaced": [(0, 1)]}, "preplaced: queen at 0,1 is off the board"),
    ({"highlight": [None]}, "highlight: a queen is written ROW,COL"),
    ({"conflicts": 7}, "conflicts are a list of (row, column) pairs, not 7"),
    ({"ringed": [("a", 1)]}, "ringed: a queen is written ROW,COL"),
])
def test_board_svg_refuses_malformed_cells_in_one_line(arguments, fragment) -> None:
    with pytest.raises(InputError) as caught:
        svg.board_svg(4, **arguments)
    assert fragment in str(caught.value) and "\n" not in str(caught.value)
    with pytest.raises(InputError, match="whole number"):
        svg.board_svg("four")
