"""``nqueens-kit notebooks DEST``: the chapters and their data, copied out of the installation."""

from __future__ import annotations

from pathlib import Path

import pytest

from nqueens_kit.cli import main
from nqueens_kit.course.bundle import build_site, copy_notebooks, notebook_files, notebooks_folder
from nqueens_kit.errors import InputError

ROOT = Path(__file__).resolve().parent.parent


def test_copies_every_chapter_and_its_data(tmp_path, capsys):
    chapters = sorted(p.name for p in (ROOT / "notebooks").glob("[0-9][0-9]-*.ipynb"))
    assert len(chapters) >= 6
    assert main(["notebooks", str(tmp_path / "course")]) == 0
    assert "copied" in capsys.readouterr().err
    copied = sorted(p.name for p in (tmp_path / "course").glob("*.ipynb"))
    assert copied == chapters
    for name in chapters + ["README.md", "data/sweep.csv", "data/sweep.csv.meta.json"]:
        assert (tmp_path / "course" / name).read_bytes() == (notebooks_folder() / name).read_bytes()


def test_refuses_to_overwrite_without_force(tmp_path, capsys):
    target = tmp_path / "course"
    copy_notebooks(target)
    mine = target / sorted(notebook_files())[0]
    mine.write_text("my own notes")
    assert main(["notebooks", str(target)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "already exists" in err and "--force" in err
    assert mine.read_text() == "my own notes"
    assert main(["notebooks", str(target), "--force"]) == 0 and mine.read_text() != "my own notes"


def test_a_file_is_not_a_folder(tmp_path):
    (tmp_path / "x").write_text("")
    with pytest.raises(InputError, match="is a file"):
        copy_notebooks(tmp_path / "x")


def test_site_pages_carry_their_figures(tmp_path):
    pages = build_site(tmp_path / "site", chapters=["01-rules-to-clauses.ipynb"])
    assert [p.name for p in pages] == ["01-rules-to-clauses.html", "index.html"]
    page = pages[0].read_text(encoding="utf-8")
    assert page.count("data:image/png;base64") >= 2, "the executed chapter's figures are in the page"
    assert ">1. From rules to clauses</a>" in pages[1].read_text(encoding="utf-8")
    with pytest.raises(InputError, match="no chapter 'nine.ipynb'"):
        build_site(tmp_path / "site", chapters=["nine.ipynb"])
