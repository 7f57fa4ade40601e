"""What the browser tests share: Debian's Chromium and its offline switches, a quiet local web server for a
built site, and the gate that lets a page reach only that server (every other request refused and kept)."""

from __future__ import annotations

import functools
import http.server
import os
import shutil
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

CHROMIUM = os.environ.get("NQUEENS_KIT_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
#: Without the background-networking switches Chromium tries to reach the internet and stalls offline.
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    """Serves a folder without logging each request; JavaScript modules and WebAssembly get their types."""

    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, ".mjs": "text/javascript",
                      ".wasm": "application/wasm"}

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 (the base class's name)
        pass


@contextmanager
def serving(folder: Path | str) -> Iterator[str]:
    """Serve ``folder`` on 127.0.0.1 (a free port) for the duration; yields its address, ending in ``/``."""
    handler = functools.partial(QuietHandler, directory=str(folder))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    finally:
        httpd.shutdown()
        httpd.server_close()


class OfflineGate:
    """A Playwright route handler: requests to ``base`` (and data:, blob:, about: addresses) go on, every
    other one is refused and kept in :attr:`refused`; :meth:`guard` puts a page or a context behind it and
    records every request it makes in :attr:`requests`."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.refused: list[str] = []
        self.requests: list[str] = []

    def guard(self, target: object) -> None:
        """Route every request of ``target`` (a Playwright page or browser context) through this gate, and
        record each one."""
        target.route("**/*", self)  # type: ignore[attr-defined]
        target.on("request", lambda request: self.requests.append(request.url))  # type: ignore[attr-defined]

    def __call__(self, route: object) -> None:
        url = route.request.url  # type: ignore[attr-defined]
        if url.startswith(self.base) or url.startswith(("data:", "blob:", "about:")):
            route.continue_()  # type: ignore[attr-defined]
        else:
            self.refused.append(url)
            route.abort()  # type: ignore[attr-defined]
