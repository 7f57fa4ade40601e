"""Every app driven at random: no exception ever escapes a callback, and what goes wrong is one line.

Each app is built as the other app tests build it, then a seeded sequence of interactions plays on every
control a user can reach (every widget in the app's tree that is not disabled): slider, dropdown and
toggle values from their ranges, text of every kind, numbers far out of range, values of the wrong type set
directly on the traits (the widget's own validation may refuse them: that is the widget's answer, not an
escape), button clicks, and bursts of changes with no wait in between, as a student dragging a slider does.

Escapes are caught where ipywidgets would catch them: an ``observe`` callback of the kit's that raises
(traitlets lets it propagate to whoever set the value: in a notebook, the kernel's message handler, which
prints a traceback) and a button's ``on_click`` callback that raises (:class:`CallbackDispatcher` logs a
warning or prints a traceback in IPython).  Both are recorded here instead, with the interaction that led to
them, and the test fails listing them.
"""

from __future__ import annotations

import math
import random
import traceback
from collections.abc import Callable, Iterator
from typing import Any

import ipywidgets as widgets
import pytest
import traitlets
from ipywidgets.widgets.widget import CallbackDispatcher

from nqueens_kit import apps
from nqueens_kit.solvers import SAT_SOLVERS

#: Interactions per app (the deep profile plays more).
TRIES = 40
DEEP_TRIES = 250
#: Values of the wrong type or far out of range, set directly on a control's ``value``.
WRONG = [None, "", "abc", "1,1", -1, 0, 10**9, -(10**9), 1.5, math.nan, math.inf, True, False, [], (1, 2), {},
         b"8", "   ", "9" * 40, object()]
TEXTS = ["", " ", "1,1", "1,1 2,3", "8", "-3", "x", "1,1;2,2", "99,99", "0,0", "a,b", "1, 1", "\n", "é", "1" * 300,
         "row_1", "diag_3", "anti_5", "col_2", "{", "1,2,3"]


def _owner(callback: object) -> str:
    """The module a callback was written in (bound methods, partials and wrappers looked through)."""
    seen = callback
    for _ in range(5):
        inner = getattr(seen, "__func__", None) or getattr(seen, "func", None) or getattr(seen, "__wrapped__", None)
        if inner is None:
            break
        seen = inner
    return getattr(seen, "__module__", "") or ""


class Escapes:
    """The exceptions that left a callback of the kit's, with what was being done."""

    def __init__(self) -> None:
        self.found: list[str] = []
        self.doing = ""

    def record(self, callback: object, exc: BaseException) -> None:
        where = "".join(traceback.format_exception_only(type(exc), exc)).strip()
        frames = traceback.extract_tb(exc.__traceback__)
        last = next((f"{f.filename.split('nqueens_kit/')[-1]}:{f.lineno}" for f in reversed(frames)
                     if "nqueens_kit" in f.filename), "?")
        self.found.append(f"{self.doing}: {where} (at {last}, callback {getattr(callback, '__qualname__', callback)})")


@pytest.fixture()
def escapes(monkeypatch: pytest.MonkeyPatch) -> Iterator[Escapes]:
    """Record (and swallow) every exception a kit callback lets out: observers and click handlers."""
    caught = Escapes()
    original_notify = traitlets.HasTraits._notify_observers

    def notify(self: traitlets.HasTraits, event: Any) -> None:
        name, kind = event["name"], event["type"]
        notifiers = self._trait_notifiers
        callables = [*notifiers.get(name, {}).get(kind, []), *notifiers.get(name, {}).get(traitlets.All, []),
                     *notifiers.get(traitlets.All, {}).get(kind, []),
                     *notifiers.get(traitlets.All, {}).get(traitlets.All, [])]
        if not any(_owner(c).startswith("nqueens_kit") for c in callables):
            original_notify(self, event)
            return
        for c in callables:
            if isinstance(c, traitlets.traitlets._CallbackWrapper):
                c = c.__call__
            elif isinstance(c, traitlets.EventHandler) and c.name is not None:
                c = getattr(self, c.name)
            try:
                c(event)
            except Exception as exc:
                if not _owner(c).startswith("nqueens_kit"):
                    raise
                caught.record(c, exc)

    def dispatch(self: CallbackDispatcher, *args: Any, **kwargs: Any) -> Any:
        value = None
        for callback in self.callbacks:
            try:
                local = callback(*args, **kwargs)
            except Exception as exc:
                caught.record(callback, exc)
            else:
                value = local if local is not None else value
        return value

    monkeypatch.setattr(traitlets.HasTraits, "_notify_observers", notify)
    monkeypatch.setattr(CallbackDispatcher, "__call__", dispatch)
    yield caught


def controls(app: widgets.Widget) -> list[widgets.Widget]:
    """Every widget in the app's tree a user could reach: box children and the app's widget attributes."""
    found: dict[int, widgets.Widget] = {}
    todo: list[object] = [app]
    while todo:
        item = todo.pop()
        if not isinstance(item, widgets.Widget) or id(item) in found:
            continue
        found[id(item)] = item
        todo += list(getattr(item, "children", ()) or ())
        todo += [v for v in vars(item).values() if isinstance(v, widgets.Widget)]
        todo += [v for value in vars(item).values() if isinstance(value, (list, tuple, dict))
                 for v in (value.values() if isinstance(value, dict) else value) if isinstance(v, widgets.Widget)]
    return [w for w in found.values() if w is not app and isinstance(w, (widgets.ValueWidget, widgets.Button))]


def _valid_value(control: widgets.Widget, rng: random.Random) -> Any:
    """A value a user could give the control from the page."""
    if isinstance(control, widgets.Button):
        return None
    if isinstance(control, (widgets.IntSlider, widgets.BoundedIntText, widgets.IntRangeSlider)):
        low, high = control.min, control.max
        if isinstance(control, widgets.IntRangeSlider):
            a, b = sorted(rng.randint(low, high) for _ in range(2))
            return (a, b)
        return rng.randint(low, high)
    if isinstance(control, (widgets.FloatSlider, widgets.BoundedFloatText, widgets.FloatLogSlider)):
        return rng.uniform(control.min, control.max) if not isinstance(control, widgets.FloatLogSlider) else \
            control.base ** rng.uniform(control.min, control.max)
    if isinstance(control, widgets.SelectMultiple):
        values = list(control._options_values)
        return tuple(rng.sample(values, rng.randint(0, len(values)))) if values else ()
    if isinstance(control, widgets.widget_selection._Selection):
        values = list(control._options_values)
        return rng.choice(values) if values else None
    if isinstance(control, (widgets.Checkbox, widgets.ToggleButton)):
        return rng.random() < 0.5
    if isinstance(control, (widgets.IntText,)):
        return rng.choice([rng.randint(-5, 40), rng.randint(-(10**6), 10**6)])
    if isinstance(control, (widgets.FloatText,)):
        return rng.uniform(-10, 100)
    if isinstance(control, (widgets.Text, widgets.Textarea)):
        return rng.choice(TEXTS)
    return getattr(control, "value", None)


def _settable(control: widgets.Widget) -> bool:
    """Whether a user changes this control (output-only widgets such as HTML, Label, Image, progress bars are
    the app's to set)."""
    shown_only = (widgets.HTML, widgets.HTMLMath, widgets.Label, widgets.Image, widgets.IntProgress,
                  widgets.FloatProgress, widgets.Valid, widgets.Play)
    return not isinstance(control, shown_only) and not getattr(control, "disabled", False)


def fuzz(app: widgets.Widget, escapes: Escapes, seed: int, tries: int) -> dict[str, int]:
    """Play ``tries`` random interactions on ``app``; return how many of each kind were played."""
    rng = random.Random(seed)
    played = {"values": 0, "wrong types": 0, "refused by the widget": 0, "clicks": 0, "waits": 0}
    for step in range(tries):
        reachable = [c for c in controls(app) if _settable(c)]
        if not reachable:
            break
        kinds = sorted({type(c).__name__ for c in reachable})  # every kind of control as often (a board of
        kind = rng.choice(kinds)                                 # buttons does not crowd out its slider)
        control = rng.choice([c for c in reachable if type(c).__name__ == kind])
        label = getattr(control, "description", "") or type(control).__name__
        if isinstance(control, widgets.Button):
            escapes.doing = f"step {step}: click {label!r}"
            control.click()
            played["clicks"] += 1
        else:
            wrong = rng.random() < 0.25
            value = rng.choice(WRONG) if wrong else _valid_value(control, rng)
            escapes.doing = f"step {step}: {type(control).__name__} {label!r} = {value!r}"[:200]
            try:
                if not wrong and isinstance(control, widgets.widget_selection._Selection) and rng.random() < 0.5:
                    # as the page sends it: a selection's index, through the widget's own state handling
                    index = list(control._options_values).index(value) if value in control._options_values else 0
                    control.set_state({"index": index})
                else:
                    control.value = value
            except (traitlets.TraitError, TypeError, ValueError):
                played["refused by the widget"] += 1
            played["wrong types" if wrong else "values"] += 1
        if rng.random() < 0.03:  # sometimes the user waits for the answer; mostly they do not
            escapes.doing = f"step {step}: wait"
            _wait(app, 60)
            played["waits"] += 1
        message = getattr(app, "message_text", "")
        assert "\n" not in message.strip(), f"step {step}: a message of more than one line: {message!r}"
    _wait(app, 120)
    return played


def _wait(app: widgets.Widget, timeout: float) -> None:
    """Wait for the app's background job, if it has any (some apps answer at once)."""
    wait = getattr(app, "wait", None)
    if wait is not None:
        wait(timeout=timeout)


def _phase_rows() -> list[dict[str, object]]:
    rows: list[dict[str, object]] = []
    for n, shift in ((8, 0.0), (10, 0.1)):
        for d, share, median in ((0.0, 1.0, 10), (0.3, 0.9, 40), (0.5, 0.6, 90), (0.6, 0.3, 60), (0.8, 0.0, 5)):
            rows.append({"config": "SAT sequential/pysat-minisat", "method": "sat", "variant": "sequential",
                         "solver": "pysat-minisat", "family": "blocked", "n": n, "density": d + (shift if d else 0),
                         "completable_share": share, "median_conflicts": median, "p10_conflicts": median / 2,
                         "p25_conflicts": median / 1.5, "p75_conflicts": median * 1.5, "p90_conflicts": median * 3,
                         "max_conflicts": median * 10})
    return rows


#: Every app of :mod:`nqueens_kit.apps`, built small so that its answers come quickly.
APPS: dict[str, Callable[[], widgets.Widget]] = {
    "board_explorer": lambda: apps.board_explorer(n=6),
    "formula_explorer": lambda: apps.formula_explorer(n=5),
    "completion_puzzle": lambda: apps.completion_puzzle(n=6),
    "timing_explorer": lambda: apps.timing_explorer(ns=(4, 7)),
    "inside": lambda: apps.inside(n=4),
    "solution_stepper": lambda: apps.solution_stepper(n=6),
    "relaxation_explorer": lambda: apps.relaxation_explorer(n=5),
    "encoding_explorer": lambda: apps.encoding_explorer(k=6),
    "phase_explorer": lambda: apps.phase_explorer(_phase_rows(), live=SAT_SOLVERS["pysat-minisat"].available()),
    "side_by_side": lambda: apps.side_by_side(n=8, time_limit=5.0),
    "playground": lambda: apps.playground(),
}


def test_every_app_is_listed() -> None:
    made = {name.removesuffix("()") for name in apps.__all__ if name[0].islower()}
    assert made - {"board_svg", "installed_solvers", "timing_choices"} == set(APPS)


def _fuzz_app(name: str, escapes: Escapes, tries: int, tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # whatever an app might write stays in the test's folder
    escapes.doing = "building the app"
    app = APPS[name]()
    _wait(app, 120)
    played = fuzz(app, escapes, seed=sum(map(ord, name)), tries=tries)
    assert played["values"] + played["clicks"] > tries // 3, played
    assert not escapes.found, f"{len(escapes.found)} escapes from {name}'s callbacks:\n" + "\n".join(escapes.found[:20])


@pytest.mark.slow
@pytest.mark.parametrize("name", list(APPS))
def test_no_exception_escapes_a_callback(name: str, escapes: Escapes, tmp_path: Any,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    _fuzz_app(name, escapes, TRIES, tmp_path, monkeypatch)


@pytest.mark.deep
@pytest.mark.parametrize("name", list(APPS))
def test_no_exception_escapes_a_callback_deep(name: str, escapes: Escapes, tmp_path: Any,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    _fuzz_app(name, escapes, DEEP_TRIES, tmp_path, monkeypatch)


def test_the_fuzz_catches_an_escape(escapes: Escapes) -> None:
    """The harness itself: a callback of the kit's that raises is recorded, from an observer and a click."""
    app = apps.solution_stepper(n=4, queen=None)
    app.wait()

    def broken(change: object) -> None:
        raise RuntimeError("a bug")

    broken.__module__ = "nqueens_kit.apps.broken"
    app.n.observe(broken, names="value")
    app.n.value = 5
    app.first_button.on_click(broken)
    app.first_button.click()
    app.wait()
    assert len(escapes.found) == 2 and all("RuntimeError: a bug" in text for text in escapes.found)
