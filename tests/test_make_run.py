"""``make run`` opens a working copy of the chapters, never the tracked ``notebooks/``, and JupyterLab starts
without its news prompt; ``make fresh-course`` keeps the old copy.  JupyterLab itself is replaced here by a
recorder of its arguments (the real one is started once, below, to read what it tells the page)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.conftest import need

ROOT = Path(__file__).resolve().parents[1]
CHAPTERS = sorted(p.name for p in (ROOT / "notebooks").glob("[0-9][0-9]-*.ipynb"))
RECORDER = "import json, sys; open(sys.argv[1], 'a').write(json.dumps(sys.argv[2:]) + '\\n')"


def _make(target: str, course: Path, record: Path) -> subprocess.CompletedProcess[str]:
    need(shutil.which("make") is not None, "make")
    lab = f"{sys.executable} -c \"{RECORDER}\" {record}"
    return subprocess.run(["make", "-s", "--no-print-directory", target, "COURSE=pyproject.toml",
                           f"BIN={Path(sys.executable).parent}", f"LAB={lab}", f"COURSE_DIR={course}",
                           "JUPYTER_ROOT="], cwd=ROOT, capture_output=True, text=True, timeout=300, check=False)


def _tracked_state() -> str:
    return subprocess.run(["git", "status", "--porcelain", "--", "notebooks"], cwd=ROOT, capture_output=True,
                          text=True, check=False).stdout


def test_make_run_opens_a_working_copy_and_keeps_it(tmp_path):
    course, record = tmp_path / "my-course", tmp_path / "lab-args.jsonl"
    before = _tracked_state()
    first = _make("run", course, record)
    assert first.returncode == 0, first.stderr
    assert sorted(p.name for p in course.glob("*.ipynb")) == CHAPTERS
    assert (course / "data" / "chapter-times.json").is_file() and (course / "data" / "ch8-first-fail.json").is_file()
    import json

    args = json.loads(record.read_text().splitlines()[-1])
    assert f"--notebook-dir={course}" in args
    assert "--LabApp.news_url=None" in args
    assert "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate" in args
    # the reader's work stays: a second make run copies nothing over it
    chapter = course / CHAPTERS[0]
    chapter.write_text(chapter.read_text().replace("you will learn", "you will learn (my notes)"))
    second = _make("run", course, record)
    assert second.returncode == 0 and "my notes" in chapter.read_text()
    assert "changed since" not in second.stdout
    # chapters newer than the copy (a git pull): make run says so, and fresh-course keeps the old copy aside
    os.utime(course / ".copied", (time.time() - 86400 * 400,) * 2)
    third = _make("run", course, record)
    assert "changed since" in third.stdout and "make fresh-course" in third.stdout
    fresh = _make("fresh-course", course, record)
    assert fresh.returncode == 0, fresh.stderr
    kept = [p for p in tmp_path.iterdir() if p.name.startswith("my-course.")]
    assert len(kept) == 1 and "my notes" in (kept[0] / CHAPTERS[0]).read_text()
    assert "my notes" not in (course / CHAPTERS[0]).read_text()
    assert _tracked_state() == before  # the tracked chapters were never touched


def _lab_quiet() -> list[str]:
    line = re.search(r"^LAB_QUIET := (.*)$", (ROOT / "Makefile").read_text(), re.M)
    assert line, "the Makefile names JupyterLab's quiet flags in LAB_QUIET"
    return line.group(1).split()


@pytest.mark.slow
def test_jupyterlab_starts_without_its_news_prompt(tmp_path):
    """The flags make run passes reach JupyterLab's page: news off (no prompt over the projected notebook)."""
    lab = Path(sys.executable).parent / "jupyter-lab"
    need(lab.exists(), "JupyterLab")
    token = "nqueens-kit-test"
    proc = subprocess.Popen([str(lab), "--no-browser", "--ServerApp.ip=127.0.0.1", "--ServerApp.port=0", f"--ServerApp.token={token}",
                             f"--notebook-dir={tmp_path}", "--allow-root", *_lab_quiet()],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            env=dict(os.environ, JUPYTER_RUNTIME_DIR=str(tmp_path / "runtime")))
    try:
        url, said = None, []
        assert proc.stderr is not None
        deadline = time.monotonic() + 120
        while url is None and time.monotonic() < deadline:  # the ready line, not a fixed wait
            line = proc.stderr.readline()
            if not line:
                break
            said.append(line)
            found = re.search(r"(http://127\.0\.0\.1:\d+)/lab", line)
            url = found.group(1) if found else None
        assert url, f"JupyterLab did not say where it listens: {''.join(said)[-2000:]}"
        page = None
        while page is None:  # said it listens; the socket may open a moment later: ask until it answers
            try:
                page = urllib.request.urlopen(f"{url}/lab?token={token}", timeout=60).read().decode()
            except OSError as exc:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError(f"{url}: {exc}; JupyterLab said: {''.join(said)[-2000:]}") from exc
                time.sleep(0.1)
        assert re.search(r'"news":\s*\{\s*"disabled":\s*true\s*\}', page), "JupyterLab's news is on"
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
