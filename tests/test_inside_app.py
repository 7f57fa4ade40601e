"""The "Inside the solver" app and the trace replay it draws."""

from __future__ import annotations

from nqueens_kit.apps import inside
from nqueens_kit.inside.cdcl import state_at, trace
from nqueens_kit.problem.board import attacks


def test_replayed_states_follow_the_trace() -> None:
    result = trace(6)
    for k, event in enumerate(result.events):
        state = state_at(result, k)
        assert set(state.decided) <= set(state.queens)
        assert not set(state.queens) & set(state.blocked)
        if event.kind == "decide":  # propagation finished without a conflict: no two queens attack
            assert not any(attacks(a, b) for i, a in enumerate(state.queens) for b in state.queens[i + 1:])
        if event.kind == "conflict":
            assert state.conflict == event.clause
        if event.kind == "learn":
            assert state.learned == event.clause
        if event.kind == "backjump":
            assert state.level == event.to_level
    final = state_at(result, len(result.events) - 1)
    assert sorted(final.queens) == result.queens
    assert state_at(result, -1).queens == []


def test_the_app_steps_and_draws() -> None:
    app = inside(n=6)
    app.wait()
    assert app.trace_result is not None and app.trace_result.status == "solved"
    app.buttons["last"].click()
    assert app.step.value == app.step.max and 'data-queens="6"' in app.board.value
    app.buttons["first"].click()
    assert app.step.value == 0 and app.step_text.startswith("decide") and app.graph.format == "svg+xml"
    assert b"appears here at the first conflict" in bytes(app.graph.value)  # a placeholder, not a broken image
    learn = next(k for k, e in enumerate(app.trace_result.events) if e.kind == "learn")
    app.step.value = learn
    assert "learned:" in app.event_line.value and "P[" in app.event_line.value
    conflict = learn - 1
    app.step.value = conflict
    assert "nqk-conflict" in app.board.value and bytes(app.graph.value[:4]) == b"\x89PNG"  # this conflict's graph
    assert app.graph_step == conflict
    decided = app.board.value.count('class="nqk-decision"')
    assert decided == len(state_at(app.trace_result, conflict).decided) >= 1  # the decisions framed
    assert all(button.icon and not button.description for button in app.buttons.values())
    app.place.value = "1,1 2,3"
    app.n.value = 8
    app.run_button.click()
    app.wait()
    assert app.trace_result.status == "infeasible" and "infeasible" in app.message_text


def test_bad_queens_give_a_message() -> None:
    app = inside(n=4)
    app.wait()
    app.place.value = "9,9"
    app.run_button.click()
    app.wait()
    assert "9" in app.message_text and app.job.busy is False


def test_branch_and_bound_view() -> None:
    app = inside(n=4)
    app.wait()
    for image in (app.tree_image, app.node_view):  # before a run: a placeholder, never a broken-image icon
        picture = bytes(image.value)
        assert image.format == "svg+xml" and picture.startswith(b"<svg") and b" here" in picture
    app.bnb_n.value = 3
    app.bnb_button.click()
    app.wait()
    assert app.tree is not None and app.tree.status == "infeasible"
    assert len(app.node.options) == len(app.tree.nodes) and bytes(app.tree_image.value[:4]) == b"\x89PNG"
    app.node.value = 1
    assert bytes(app.node_view.value[:4]) == b"\x89PNG" and "infeasible" in app.message_text


def test_changing_n_drops_the_old_trace_at_once() -> None:
    """A new n never leaves the last n's trace on screen: the board, the step line, the recent steps and the
    step slider forget it at once, and the trace of the new n follows without pressing Trace."""
    app = inside(n=4)
    app.wait()
    app.buttons["last"].click()
    assert 'data-n="4"' in app.board.value and app.step.value == app.step.max > 0
    app.n.value = 6
    shown = (app.board.value, app.step_text, app.recent.value)
    assert not any("4 × 4" in part or 'data-n="4"' in part for part in shown), shown  # nothing of n = 4 left
    assert app.trace_result is None or app.trace_result.cnf.n == 6
    assert app.step.value == 0 and app.step.max <= (len(app.trace_result.events) - 1 if app.trace_result else 0)
    app.wait()
    assert app.trace_result is not None and app.trace_result.cnf.n == 6 and app.trace_result.status == "solved"
    assert app.step.value == 0 and app.step.max == len(app.trace_result.events) - 1
    assert 'data-n="6"' in app.board.value and app.step_text.startswith("decide")
    app.encoding.value = next(e for e in app.encoding.options if e != app.trace_result.cnf.encoding)
    app.wait()  # another encoding, too, is traced without pressing Trace
    assert app.trace_result.cnf.encoding == app.encoding.value and app.trace_result.cnf.n == 6
