"""What every app shares: a message line, callbacks that never raise, and the background job runner.

:class:`Job` runs work in a background thread, so the kernel stays free: every other control and every
other tab keeps answering while a solver runs, and the **Stop** button (shown while a job runs) can be
pressed.  Work that calls a solver goes through :func:`nqueens_kit.methods.solve` / ``count`` with the job's
``stop`` callable and a time limit: the solver runs in a child process that Stop (or the limit) kills with
everything it started.  Starting a new job stops the one before (the latest choice wins).
"""

from __future__ import annotations

import functools
import html
import io
import re
import sys
import threading
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Concatenate, ParamSpec, TypedDict, TypeVar

import ipywidgets as widgets

from ..errors import NQueensError
from ..methods import Choice, Method, get_method

if TYPE_CHECKING:
    from matplotlib.figure import Figure

P = ParamSpec("P")
R = TypeVar("R")
T = TypeVar("T")
M = TypeVar("M", bound="Messages")

#: What a job's work calls to learn whether Stop was pressed (True: give up now).
Stop = Callable[[], bool]


class Change(TypedDict):
    """What ipywidgets hands an ``observe`` callback (traitlets' change record)."""

    name: str
    old: object
    new: object
    owner: object
    type: str


#: Time limit (seconds) for one solve or count started from an app.
APP_TIME_LIMIT = 20.0


def ms(seconds: float) -> str:
    """A duration for people: ``0.4 ms``, ``12 ms``, ``1.3 s``."""
    if seconds < 0.01:
        return f"{seconds * 1000:.2g} ms" if seconds < 0.001 else f"{seconds * 1000:.1f} ms"
    if seconds < 1:
        return f"{seconds * 1000:.0f} ms"
    return f"{seconds:.2f} s"


def message_html(text: str, kind: str = "info") -> str:
    """A message line: ``info`` (grey), ``ok`` (green), ``warn`` (amber) or ``error`` (red)."""
    if not text:
        return ""
    color = {"info": "#444", "ok": "#1d7a36", "warn": "#9a6700", "error": "#b42318"}[kind]
    role = ' role="alert"' if kind == "error" else ""
    return (f'<div class="nqk-message nqk-{kind}"{role} style="color:{color};white-space:normal">'
            f"{html.escape(text)}</div>")


def describe_error(exc: BaseException) -> str:
    """A kit error as its one line; anything else (a bug) as a short note."""
    if isinstance(exc, NQueensError):
        return str(exc)
    return f"unexpected error ({type(exc).__name__}: {exc}); please report this"


def guarded(method: Callable[Concatenate[M, P], R]) -> Callable[Concatenate[M, P], R | None]:
    """Run a callback so that nothing escapes: kit errors become the message, anything else a short note."""

    @functools.wraps(method)
    def wrapper(self: M, *args: P.args, **kwargs: P.kwargs) -> R | None:
        try:
            return method(self, *args, **kwargs)
        except Exception as exc:  # a bug too is shown briefly rather than as a traceback in front of a class
            self.say(describe_error(exc), "error")
        return None

    return wrapper


class Messages:
    """Mix-in: an HTML message area and :meth:`say`."""

    message: widgets.HTML
    #: A note that stays above every message until the user changes a control (:meth:`keep_note`).
    _note: str = ""

    def say(self, text: str, kind: str = "info") -> None:
        """Show one message (replacing the last, below the kept note if there is one); an empty text clears
        it."""
        self.message.value = message_html(self._note, "warn") + message_html(text, kind)

    def keep_note(self, text: str) -> None:
        """Keep ``text`` (such as "n must be from 1 to 100 here, not 500") shown above the messages of the
        answer that follows, until :meth:`drop_note`: the note never waits for that answer."""
        self._note = text
        self.say("")

    def drop_note(self) -> None:
        """Forget the kept note (the user changed something); the message shown now stays."""
        if self._note:
            self._note = ""
            self.message.value = re.sub(r'^<div class="nqk-message nqk-warn"[^>]*>.*?</div>', "", self.message.value,
                                        count=1, flags=re.S)

    @property
    def message_text(self) -> str:
        """The message shown now, as plain text (for tests and notebooks)."""
        return html.unescape(re.sub(r"<[^>]+>", "", self.message.value))


class Job:
    """Work in a background thread, with a Stop button and a status line (see the module docstring).

    ``start(work, done, label)``: ``work(stop)`` runs in the thread (``stop()`` turns True when Stop is
    pressed); ``done(value)`` runs when it returns; a kit error becomes the owner's message.
    """

    def __init__(self, owner: Messages, controls: Sequence[widgets.Widget] = ()) -> None:
        self.owner = owner
        self.controls = list(controls)
        self.stop_button = widgets.Button(description="Stop", icon="stop", button_style="danger",
                                          tooltip="stop the running solver", layout=widgets.Layout(width="90px"))
        self.stop_button.layout.display = "none"
        self.stop_button.on_click(lambda _: self.stop())
        self.status = widgets.HTML("")
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._event: threading.Event | None = None
        self.last_error: str | None = None
        self.stopped = False

    @property
    def widget(self) -> widgets.HBox:
        """The Stop button and the status line, to place in an app."""
        return widgets.HBox([self.stop_button, self.status])

    @property
    def busy(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def cancel(self) -> None:
        """Stop the running job and wait (briefly) until it is gone; its answer will not be shown."""
        with self._lock:
            previous, event = self._thread, self._event
            self._thread = self._event = None
        if event is not None:
            event.set()
        if previous is not None:
            previous.join(2.0)  # its solver process is killed within a tenth of a second

    def start(self, work: Callable[[Stop], T], done: Callable[[T], None], label: str) -> None:
        self.cancel()
        event = threading.Event()
        started = time.monotonic()
        thread = threading.Thread(target=self._run, args=(work, done, event, label, started), daemon=True)
        with self._lock:
            self._thread, self._event = thread, event
        self.status.value = f'<span class="nqk-busy">{html.escape(label)} …</span>'
        self.stop_button.layout.display = ""
        for control in self.controls:
            control.disabled = True
        if sys.platform == "emscripten":  # Pyodide starts no threads: the job runs now, in this cell
            self._run(work, done, event, label, started)
            return
        thread.start()

    def _run(self, work: Callable[[Stop], T], done: Callable[[T], None], event: threading.Event,
             label: str, started: float) -> None:
        # The answer in a 1-tuple, so that a work whose answer is None (or an exception) is told from a failure.
        outcome: tuple[T] | BaseException
        try:
            outcome = (work(event.is_set),)
        except BaseException as exc:  # reported below, in the app, never as a traceback
            outcome = exc
        with self._lock:
            if self._event is not event:  # a newer job took over: this answer is stale
                return
            self._thread = self._event = None
        self.stop_button.layout.display = "none"
        for control in self.controls:
            control.disabled = False
        took = ms(time.monotonic() - started)
        if isinstance(outcome, BaseException):
            self.last_error = describe_error(outcome)
            self.status.value = ""
            self.owner.say(self.last_error, "error")
            return
        self.last_error = None
        #: Whether the last job ended because Stop was pressed (its answer is partial, not a time-out).
        self.stopped = event.is_set()
        ended = f"stopped by you after {took}" if self.stopped else took
        self.status.value = f'<span class="nqk-done" style="color:#666">{html.escape(label)}: {ended}</span>'
        try:
            done(outcome[0])
        except Exception as exc:  # a bug in drawing the answer: shown, not raised
            self.owner.say(describe_error(exc), "error")

    def stop(self) -> None:
        """Stop the running job (its solver process too); harmless when nothing runs.  The status line says
        "stopping" at once, so the page never still reads as running once Stop was pressed."""
        with self._lock:
            event = self._event
        if event is not None:
            event.set()
            self.status.value = '<span class="nqk-busy">stopping …</span>'

    def wait(self, timeout: float = 120.0) -> None:
        """Block until the current job has ended and its answer is shown (tests and notebooks)."""
        deadline = time.monotonic() + timeout
        while True:
            with self._lock:
                thread = self._thread
            if thread is None:
                return
            thread.join(max(0.0, deadline - time.monotonic()))
            if time.monotonic() >= deadline:
                return


def dropdown(description: str, options: Sequence[object], value: object = None,
             width: str = "220px") -> widgets.Dropdown:
    options = list(options)
    return widgets.Dropdown(description=description, options=options,
                            value=value if value in [o[1] if isinstance(o, tuple) else o for o in options]
                            else (options[0][1] if options and isinstance(options[0], tuple)
                                  else options[0] if options else None),
                            layout=widgets.Layout(width=width), style={"description_width": "80px"})


def figure_png(fig: Figure) -> bytes:
    """A matplotlib figure as PNG bytes; the figure is closed so a notebook does not draw it twice."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=90, bbox_inches="tight")
    try:
        import matplotlib.pyplot as plt

        plt.close(fig)
    except Exception:  # a figure made without pyplot needs no closing
        pass
    return buffer.getvalue()


def placeholder_svg(text: str, width: int = 420, height: int = 60) -> bytes:
    """A light box with one line of text, as SVG: what an image shows before it has a picture (an empty
    image widget is drawn by browsers as a broken-image icon)."""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="nqk-placeholder" width="{width}" height="{height}">'
            f'<rect x="1" y="1" width="{width - 2}" height="{height - 2}" rx="6" fill="#f6f6f6" stroke="#ccc" '
            f'stroke-dasharray="4 3"/><text x="{width // 2}" y="{height // 2 + 5}" text-anchor="middle" '
            f'font-family="sans-serif" font-size="14" fill="#666">{html.escape(text)}</text></svg>').encode()


def show_image(image: widgets.Image, png: bytes | None, placeholder: str) -> None:
    """Put a PNG into ``image``, or, when there is none, a placeholder saying what will appear there."""
    if png:
        image.format, image.value = "png", png
    else:
        image.format, image.value = "svg+xml", placeholder_svg(placeholder)


def installed_solvers(method: Method | str) -> list[str]:
    """Names of the method's solvers installed here, in its order (the default first); empty for a method that
    needs no solver, or none of whose solvers is installed.

    >>> installed_solvers("backtrack"), installed_solvers("sat")[0]
    ([], 'pycosat')
    """
    return [name for name, entry in get_method(method).solvers().items() if entry.available()]


def run_text(choice: Choice) -> str:
    """How a run is made, for a message or a stats line: the method's own description, and the solver settings
    for a method that has named ones (``ILP, lines formulation, cbc, tuned settings``)."""
    method = get_method(choice.method)
    text = method.describe(choice)
    return f"{text}, {choice.settings} settings" if choice.settings is not None else text


def clamp_size(value: object, low: int, high: int, what: str = "n") -> tuple[int, str]:
    """A size for a slider: the value if it is a whole number within range, else the nearest valid one and a
    message saying what was wrong (widgets show messages, they do not raise)."""
    from ..problem.board import whole_number

    number = whole_number(value)
    if number is None:
        return (8 if low <= 8 <= high else low), f"{what} must be a whole number from {low} to {high}, not {value!r}"
    if not low <= number <= high:
        return min(high, max(low, number)), f"{what} must be from {low} to {high} here, not {number}"
    return number, ""


#: Environment variables Voilà sets in the kernels it starts (any one of them means "served by Voilà").
VOILA_VARIABLES = ("VOILA_KERNEL_ID", "VOILA_REQUEST_URL", "VOILA_SERVER_URL", "VOILA_BASE_URL")


def in_voila() -> bool:
    """Whether this kernel was started by Voilà (``make app``), which shows outputs without their code."""
    import os

    return any(name in os.environ for name in VOILA_VARIABLES)


def shown_with_code(answer: object) -> object:
    """An exercise cell's answer, as it should be seen.  In JupyterLab (and under the tests) the answer
    itself.  Served by Voilà, which hides code and lets nothing be edited, the cell's code above the answer
    and a line saying where the exercise can be done, so "Not yet: ..." never stands alone."""
    if not in_voila():
        return answer
    try:
        from IPython import get_ipython

        shell = get_ipython()
        history = shell.user_ns.get("In", []) if shell is not None else []
        source = history[-1] if history else ""
    except ImportError:  # pragma: no cover - Voilà runs IPython kernels
        source = ""
    return widgets.HTML(
        "<div class='nqk-exercise' style='font-size:15px'>"
        f"<pre style='background:#f5f5f5;padding:6px;font-size:14px;font-family:monospace;line-height:1.35;"
        f"white-space:pre'>{html.escape(source.strip())}</pre>"
        f"<div>{html.escape(str(answer))}</div>"
        "<small>To answer, open this page in JupyterLab (<code>make run</code>, "
        "notebooks/06-playground.ipynb), edit the line above and run the cell.</small></div>")
