"""The interactive apps, driven from Python as a lecturer would drive them with the mouse.

Each test builds an app, moves sliders (``.value = ...``), picks from dropdowns, clicks buttons
(``.click()``) and checks what the app shows: the drawn board's size, the counter, the messages.  A bad
combination must end in a message, never in an exception escaping a callback.
"""

from __future__ import annotations

import re

import pytest

from nqueens_kit import widgets as w
from nqueens_kit.board import verify
from nqueens_kit.errors import InputError
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
    return bool(w.installed_ilp_solvers() and w.ilp_formulations())


# ------------------------------------------------------------------------------------- board explorer


def test_board_explorer_starts_on_the_first_of_92() -> None:
    app = w.board_explorer()
    assert drawn_size(app.board.value) == 8
    assert app.counter.value == "solution 1 of 92"
    assert verify(8, drawn_queens(app.board.value))
    assert "8 × 8" in app.size_label.value
    assert "64 variables" in app.stats.value and "744 clauses" in app.stats.value
    assert "passes verify()" in app.message_text


def test_moving_the_slider_redraws_the_board_at_the_new_size() -> None:
    app = w.board_explorer()
    app.n.value = 9
    assert drawn_size(app.board.value) == 9
    assert app.counter.value == "solution 1 of 352"
    assert "9 × 9" in app.size_label.value and "81 variables" in app.stats.value
    app.n.value = 5
    assert drawn_size(app.board.value) == 5 and app.counter.value == "solution 1 of 10"


def test_next_steps_through_every_solution_and_wraps_around() -> None:
    app = w.board_explorer(n=6)
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
    assert app.counter.value == "solution 1"
    app.next_button.click()
    app.next_button.click()
    assert app.counter.value == "solution 3"
    assert "found in" in app.message_text
    assert verify(12, app.board_queens)


@pytest.mark.parametrize("encoding", ["pairwise", "sequential", "commander", "product", "binary"])
def test_every_encoding_gives_the_same_four_solutions_at_n_6(encoding: str) -> None:
    app = w.board_explorer(n=6)
    app.encoding.value = encoding
    assert app.counter.value == "solution 1 of 4"
    assert encoding in app.stats.value


def test_boards_without_solutions_say_so() -> None:
    app = w.board_explorer()
    app.n.value = 3
    assert app.counter.value == "no solution"
    assert drawn_size(app.board.value) == 3 and not drawn_queens(app.board.value)
    assert "unsatisfiable" in app.message_text
    app.next_button.click()  # disabled in the browser; from Python it must still be harmless
    app.n.value = 1
    assert app.counter.value == "solution 1 of 1" and drawn_queens(app.board.value) == {(1, 1)}


def test_construction_and_backtracking_methods() -> None:
    app = w.board_explorer(n=10)
    app.method.value = "construct"
    assert app.counter.value == "solution 1 of 1" and verify(10, app.board_queens)
    assert app.encoding.layout.display == app.solver.layout.display == "none"
    app.method.value = "backtrack"
    assert app.counter.value == "solution 1"  # n = 10 is found lazily
    app.n.value = 6
    assert app.counter.value == "solution 1 of 4"


def test_the_solver_list_offers_only_installed_solvers() -> None:
    app = w.board_explorer()
    assert list(app.solver.options) == [n for n, s in SAT_SOLVERS.items() if s.available()]
    assert app.solver.value == "pycosat"


def test_an_external_solver_steps_through_solutions_too() -> None:
    need(SAT_SOLVERS["minisat"].available(), "minisat")
    app = w.board_explorer(n=6)
    app.solver.value = "minisat"
    assert app.counter.value == "solution 1"  # one process per solution: not listed up front
    for _ in range(4):
        app.next_button.click()
    assert app.counter.value == "solution 1 of 4"
    assert "4 solutions in all" in app.message_text


def test_ilp_method_in_the_explorer() -> None:
    need(ilp_ready(), "the ILP side (PuLP with CBC)")
    app = w.board_explorer(n=8)
    app.method.value = "ilp"
    assert list(app.solver.options) == w.installed_ilp_solvers()
    assert drawn_size(app.board.value) == 8 and verify(8, app.board_queens)
    assert "constraints" in app.stats.value
    app.n.value = 3
    assert app.counter.value == "no solution" and "infeasible" in app.message_text
    app.n.value = 6  # stepping: one no-good cut per board found
    for _ in range(4):
        app.next_button.click()
    assert app.counter.value == "solution 1 of 4" and "4 solutions in all" in app.message_text


def test_errors_become_messages_not_tracebacks(monkeypatch: pytest.MonkeyPatch) -> None:
    app = w.board_explorer(n=6)

    def refuse(*args: object, **kwargs: object) -> None:
        raise InputError("that combination is not possible")

    monkeypatch.setattr(w, "solve_sat", refuse)
    app.n.value = 7
    assert app.message_text == "that combination is not possible"
    assert 'role="alert"' in app.message.value

    def crash(*args: object, **kwargs: object) -> None:
        raise ZeroDivisionError("boom")

    monkeypatch.setattr(w, "solve_sat", crash)
    app.n.value = 8
    assert "unexpected error" in app.message_text and "boom" in app.message_text


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
    assert app.cells[(3, 3)].style.button_color == w.CONFLICT_COLOR
    app.complete_button.click()  # still the same message, and no exception
    assert "attack each other" in app.message_text
    app.cells[(3, 3)].click()  # take it back
    assert app.placed == [(1, 1)] and "1 queen placed" in app.message_text


def test_completion_adds_queens_around_the_placed_ones() -> None:
    app = w.completion_puzzle(n=8)
    app.cells[(1, 1)].click()
    app.cells[(2, 5)].click()
    app.complete_button.click()
    assert app.message_text.startswith("completed: 6 queens added to your 2")
    assert verify(8, app.solution, preplaced=[(1, 1), (2, 5)])
    assert sum(b.description == w.QUEEN for b in app.cells.values()) == 8
    assert "SAT (pairwise, pycosat): completed" in app.timings.value
    if ilp_ready():
        assert "ILP (" in app.timings.value and "completed in" in app.timings.value.split("ILP")[1]
    app.clear_button.click()
    assert not app.placed and all(b.description == w.EMPTY_SQUARE for b in app.cells.values())


def test_a_placement_that_cannot_be_completed() -> None:
    app = w.completion_puzzle(n=4)
    app.toggle((1, 1))  # no 4-queens solution has a corner queen
    app.complete()
    assert app.message_text.startswith("no completion")
    assert "no completion" in app.timings.value and not app.solution


def test_resizing_the_puzzle_and_auto_completion() -> None:
    app = w.completion_puzzle(n=8, auto=True)
    app.n.value = 5
    assert len(app.grid.children) == 25 and "repeat(5" in app.grid.layout.grid_template_columns
    app.cells[(1, 1)].click()
    assert app.message_text.startswith("completed") and verify(5, app.solution, preplaced=[(1, 1)])
    app.toggle((9, 9))
    assert "no cell 9,9" in app.message_text


def test_ilp_agrees_on_completion() -> None:
    need(ilp_ready(), "the ILP side (PuLP with CBC)")
    app = w.completion_puzzle(n=4)
    app.toggle((1, 1))
    app.complete()
    assert "ILP says infeasible" in app.message_text


# ------------------------------------------------------------------------------------- timing explorer


def test_timing_explorer_runs_a_small_sweep_and_draws_it() -> None:
    app = w.timing_explorer(["sat:pairwise:pycosat", "construct"], ns=(4, 6), step=1)
    rows = app.run_button.click() or app.rows
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
    app.configs.value = ("construct",)
    app.ns.value = (4, 5)
    app.repeat.value = 1
    app.placed.value = 2
    app.run()
    assert "construct method cannot honour pre-placed queens" in app.message_text


def test_timing_choices_include_ilp_when_installed() -> None:
    specs = [spec for _, spec in w.timing_choices()]
    assert "sat:sequential:pycosat" in specs and "construct" in specs
    assert any(s.startswith("ilp:") for s in specs) == ilp_ready()


# ------------------------------------------------------------------------------------------ playground


def test_playground_holds_the_four_apps() -> None:
    app = w.playground()
    assert len(app.children) == 4
    assert isinstance(app.board, w.BoardExplorer) and isinstance(app.timing, w.TimingExplorer)
    app.board.n.value = 10
    assert drawn_size(app.board.board.value) == 10
