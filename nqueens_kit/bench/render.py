"""The report's blocks as a page: :func:`to_markdown` (README.md) and :func:`to_html` (index.html), with
:func:`printable` for text a page can hold.  :mod:`.report` re-exports the names here.
"""

from __future__ import annotations

import html
import os
from collections.abc import Sequence
from typing import Any

from .tables import Block


def _md_escape(text: str) -> str:
    return str(text).replace("|", "\\|")


def to_markdown(blocks: Sequence[Block]) -> str:
    """Render blocks as GitHub-flavoured Markdown."""
    out: list[str] = []
    for block in blocks:
        kind = block[0]
        if kind in ("h1", "h2", "h3"):
            out.append("#" * int(kind[1]) + " " + block[1])
        elif kind == "p":
            out.append(block[1])
        elif kind == "code":
            out.append("```\n" + block[1] + "\n```")
        elif kind == "ul":
            out.append("\n".join(f"- {item}" for item in block[1]))
        elif kind == "img":
            out.append(f"![{block[2]}]({block[1]})")
        elif kind == "table":
            header, body = block[1], block[2]
            # Numbers align right; a first column of names (not n) reads better on the left.
            align = [":---" if i == 0 and header[0] != "n" else "---:" for i in range(len(header))]
            lines = ["| " + " | ".join(map(_md_escape, header)) + " |", "|" + "|".join(align) + "|"]
            lines += ["| " + " | ".join(map(_md_escape, line)) + " |" for line in body]
            out.append("\n".join(lines))
        elif kind == "details":
            out.append(f"<details><summary>{block[1]}</summary>\n\n{to_markdown(block[2]).strip()}\n\n</details>")
    return "\n\n".join(out) + "\n"


def _html_body(blocks: Sequence[Block]) -> str:
    esc = html.escape
    body: list[str] = []
    for block in blocks:
        kind = block[0]
        if kind in ("h1", "h2", "h3"):
            body.append(f"<{kind}>{esc(block[1])}</{kind}>")
        elif kind == "p":
            body.append(f"<p>{esc(block[1])}</p>")
        elif kind == "code":
            body.append(f"<pre><code>{esc(block[1])}</code></pre>")
        elif kind == "ul":
            body.append("<ul>" + "".join(f"<li>{esc(item)}</li>" for item in block[1]) + "</ul>")
        elif kind == "img":
            body.append(f'<p><img src="{esc(block[1])}" alt="{esc(block[2])}"></p>')
        elif kind == "table":
            head = "".join(f"<th>{esc(h)}</th>" for h in block[1])
            rows = "".join("<tr>" + "".join(f"<td>{esc(c)}</td>" for c in line) + "</tr>" for line in block[2])
            body.append(f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>")
        elif kind == "details":
            body.append(f"<details><summary>{esc(block[1])}</summary>{_html_body(block[2])}</details>")
    return "\n".join(body)


def to_html(blocks: Sequence[Block], title: str = "Timing report") -> str:
    """Render blocks as one self-contained HTML page (images linked, not embedded)."""
    esc = html.escape
    style = ("body{font-family:system-ui,sans-serif;max-width:60em;margin:2em auto;padding:0 1em;line-height:1.45}"
             "table{border-collapse:collapse;margin:1em 0}th,td{border:1px solid #ccc;padding:.25em .6em;"
             "text-align:right}th{background:#f3f3f3}img{max-width:100%}pre{background:#f6f6f6;padding:.6em;"
             "overflow-x:auto}")
    return (f"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{esc(title)}</title>"
            f"<style>{style}</style></head>\n<body>\n" + _html_body(blocks) + "\n</body></html>\n")


def printable(text: Any) -> str:
    """Text a page can hold: a command line's undecodable bytes (kept by Python as lone surrogates) shown as
    the replacement character instead of failing the write."""
    return os.fsencode(os.fspath(text) if isinstance(text, os.PathLike) else str(text)).decode("utf-8", "replace")
