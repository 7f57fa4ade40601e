"""The sweep report (Markdown + HTML + plots) and the plot/report subcommands."""

from __future__ import annotations

import csv
import json

import pytest

from nqueens_kit.bench import COLUMNS, meta_path, read_results, run_sweep
from nqueens_kit.bench.report import medians_table, to_html, to_markdown, write_report
from nqueens_kit.cli import main
from nqueens_kit.errors import InputError
from nqueens_kit.methods import Choice

PNG = b"\x89PNG\r\n\x1a\n"


def cli(capsys, *args):
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def sweep(tmp_path_factory):
    """A real tiny sweep on disk, with its sidecar."""
    out = tmp_path_factory.mktemp("sweep") / "results.csv"
    run_sweep([Choice("sat", "pairwise", "pycosat"), Choice("construct")], [4, 5, 6], repeat=2,
              timeout=60, out=out, progress=False, command="nqueens-kit bench --n 4:6 ...")
    return out


def write_rows(path, rows):
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=COLUMNS, lineterminator="\n")
        writer.writeheader()
        for row in rows:
            writer.writerow({k: row.get(k, "") for k in COLUMNS})


def test_report_files_and_medians_table(sweep, tmp_path):
    folder = tmp_path / "report"
    page = write_report(sweep, folder)
    assert page == folder / "README.md"
    for name in ("README.md", "index.html", "time.png", "size.png", "build-solve.png"):
        assert (folder / name).stat().st_size > 0
    for name in ("time.png", "size.png", "build-solve.png"):
        assert (folder / name).read_bytes()[:8] == PNG
    text = page.read_text()
    assert "| n | SAT pairwise/pycosat | construct |" in text
    table = [line for line in text.splitlines() if line.startswith(("| 4 |", "| 5 |", "| 6 |"))]
    assert len(table) >= 3
    medians = [line for line in table if line.count("|") == 4]
    assert [line.split("|")[1].strip() for line in medians[:3]] == ["4", "5", "6"]
    assert "![Time against n](time.png)" in text and "(size.png)" in text and "(build-solve.png)" in text
    meta = json.loads(meta_path(sweep).read_text())
    assert meta["python"]["version"] in text and "nqueens-kit bench --n 4:6" in text
    assert "every solved board was verified" in text
    html = (folder / "index.html").read_text()
    assert html.startswith("<!DOCTYPE html>") and "<table>" in html and 'src="time.png"' in html


def _seconds(cell: str) -> float:
    value, unit = cell.split()[:2]
    return float(value) * {"µs": 1e-6, "ms": 1e-3, "s": 1.0}[unit]


def test_medians_match_the_rows(sweep):
    rows = read_results(sweep)
    header, body = medians_table(rows)
    assert header == ["n", "SAT pairwise/pycosat", "construct"]
    assert [line[0] for line in body] == ["4", "5", "6"]
    for line in body:
        for label, cell in zip(header[1:], line[1:]):
            method = "sat" if label.startswith("SAT") else "construct"
            times = sorted(r["total_seconds"] for r in rows if r["n"] == int(line[0]) and r["method"] == method)
            expected = (times[0] + times[1]) / 2  # two repeats: the median is their mean
            assert _seconds(cell) == pytest.approx(expected, rel=0.06, abs=2e-6), (line[0], label, cell)


def synthetic(tmp_path):
    rows = []
    for n in (8, 12):
        for r in (1, 2, 3):
            rows.append({"n": n, "method": "sat", "encoding": "pairwise", "solver": "pycosat", "repeat": r,
                         "status": "solved", "total_seconds": 0.1 * n, "build_seconds": 0.01, "solve_seconds": 0.09,
                         "verified": "true", "time_limit": 30, "variables": 64, "clauses": 744})
            status = "timeout" if n == 12 and r > 1 else "solved"
            rows.append({"n": n, "method": "ilp", "formulation": "lines", "solver": "cbc", "repeat": r,
                         "status": status, "total_seconds": 30 if status == "timeout" else 2.0,
                         "build_seconds": "" if status == "timeout" else 0.5,
                         "solve_seconds": "" if status == "timeout" else 1.5,
                         "verified": "true" if status == "solved" else "", "time_limit": 30,
                         "message": "no answer within the time limit of 30 s" if status == "timeout" else ""})
    rows.append({"n": 12, "method": "construct", "repeat": 1, "status": "error", "total_seconds": "",
                 "message": "the worker was killed by SIGKILL"})
    path = tmp_path / "synthetic.csv"
    write_rows(path, rows)
    return path


def test_report_notes_timeouts_and_errors(tmp_path):
    page = write_report(synthetic(tmp_path), tmp_path / "out", title="Course report")
    text = page.read_text()
    assert text.startswith("# Course report")
    assert "> 30 s" in text  # 2 of 3 ILP runs at n = 12 hit the limit
    assert "ILP lines/cbc reached the 30 s limit at n = 12 (2 of 3)" in text
    assert "construct failed at n = 12: the worker was killed by SIGKILL" in text
    assert "No sidecar" in text


def test_markdown_and_html_render_the_same_blocks():
    blocks = [("h1", "T"), ("p", "a < b"), ("table", ["n", "x|y"], [["4", "1"]]), ("ul", ["one"]),
              ("img", "time.png", "Time"), ("code", "nqueens-kit bench"), ("details", "more", [("p", "hidden")])]
    md = to_markdown(blocks)
    assert "| n | x\\|y |" in md and "![Time](time.png)" in md and "<details>" in md
    html = to_html(blocks)
    assert "a &lt; b" in html and "<td>1</td>" in html and "<summary>more</summary><p>hidden</p>" in html


def test_report_errors(tmp_path, sweep):
    with pytest.raises(InputError, match="no such results file"):
        write_report(tmp_path / "nope.csv", tmp_path / "r")
    (tmp_path / "file").write_text("")
    with pytest.raises(InputError, match="is a file"):
        write_report(sweep, tmp_path / "file")
    with pytest.raises(InputError, match="does not exist"):
        write_report(sweep, tmp_path / "a" / "b")
    empty = tmp_path / "empty.csv"
    write_rows(empty, [])
    with pytest.raises(InputError, match="no results"):
        write_report(empty, tmp_path / "r")


# ------------------------------------------------------------------------------------ subcommands


def test_cli_report(capsys, sweep, tmp_path):
    code, _, err = cli(capsys, "report", sweep, "-o", tmp_path / "rep")
    assert code == 0 and (tmp_path / "rep" / "README.md").exists() and "README.md" in err
    code, _, err = cli(capsys, "report", tmp_path / "missing.csv", "-o", tmp_path / "rep")
    assert code == 2 and err.count("\n") == 1 and "no such results file" in err


@pytest.mark.parametrize("kind, suffix", [("time", "png"), ("size", "svg"), ("build-solve", "png")])
def test_cli_plot_kinds(capsys, sweep, tmp_path, kind, suffix):
    target = tmp_path / f"fig.{suffix}"
    code, _, _ = cli(capsys, "plot", sweep, "-o", target, "--kind", kind)
    assert code == 0 and target.stat().st_size > 0


@pytest.mark.parametrize("content", [None, "", "just,a,csv\n1,2,3\n",
                                     "n,method,repeat,status,total_seconds\nx,sat,1,solved,1\n"])
def test_cli_plot_refuses_bad_csv(capsys, tmp_path, content):
    source = tmp_path / "r.csv"
    if content is not None:
        source.write_text(content)
    code, _, err = cli(capsys, "plot", source, "-o", tmp_path / "fig.png")
    assert code == 2 and err.count("\n") == 1 and not (tmp_path / "fig.png").exists()


def test_cli_plot_refuses_bad_figure_name(capsys, sweep, tmp_path):
    code, _, err = cli(capsys, "plot", sweep, "-o", tmp_path / "fig.jpg")
    assert code == 2 and ".png" in err
    code, _, err = cli(capsys, "plot", sweep, "--kind", "pie", "-o", tmp_path / "fig.png")
    assert code == 2 and err.count("\n") == 1


def _run(config, n, repeat, status, seconds, limit=2.0):
    method, variant, solver = config
    return {"n": n, "method": method, "encoding": variant if method == "sat" else None,
            "formulation": variant if method == "ilp" else None, "solver": solver, "repeat": repeat,
            "status": status, "total_seconds": seconds, "time_limit": limit, "cpu_seconds": seconds / 2}


def test_par2_table_counts_timeouts_as_twice_the_limit():
    from nqueens_kit.bench.report import _par2_table

    sat, ilp = ("sat", "pairwise", "pycosat"), ("ilp", "lines", "cbc")
    rows = [_run(sat, 8, 1, "solved", 0.1), _run(sat, 8, 2, "solved", 0.3), _run(sat, 9, 1, "infeasible", 0.2),
            _run(ilp, 8, 1, "solved", 1.0), _run(ilp, 8, 2, "timeout", 2.0), _run(ilp, 9, 1, "timeout", 2.0)]
    header, body = _par2_table(rows)
    assert header[:6] == ["configuration", "runs", "solved", "impossible", "unsolved", "PAR-2"]
    by_label = {line[0]: line for line in body}
    assert by_label["SAT pairwise/pycosat"][1:5] == ["3", "2", "1", "0"]
    assert by_label["SAT pairwise/pycosat"][5] == "0.2 s"             # (0.1 + 0.3 + 0.2) / 3
    assert by_label["ILP lines/cbc"][1:5] == ["3", "1", "0", "2"]
    assert by_label["ILP lines/cbc"][5] == "3 s"                      # (1 + 4 + 4) / 3
    assert by_label["ILP lines/cbc"][6] == "> 2 s"                    # the median run hit the limit
    assert by_label["SAT pairwise/pycosat"][8] == "50%"
    from nqueens_kit.bench.report import _seconds

    # the summary's quartiles (inclusive), so the report and summarise() agree
    assert by_label["SAT pairwise/pycosat"][7] == f"{_seconds(0.15)} – {_seconds(0.25)}"
    assert by_label["ILP lines/cbc"][7] == "—"  # the third quartile is a timeout


def test_cactus_and_ecdf_draw_finished_runs_only():
    from nqueens_kit.viz.charts import plot_cactus, plot_ecdf

    sat = ("sat", "pairwise", "pycosat")
    rows = [_run(sat, n, 1, "solved", t) for n, t in ((8, 0.3), (9, 0.1), (10, 0.2))]
    rows.append(_run(sat, 11, 1, "timeout", 2.0))
    cactus = plot_cactus(rows).axes[0].lines[0]
    assert list(cactus.get_xdata()) == [1, 2, 3] and list(cactus.get_ydata()) == [0.1, 0.2, 0.3]
    ecdf = plot_ecdf(rows).axes[0].lines[0]
    assert list(ecdf.get_ydata()) == [0.25, 0.5, 0.75]  # a quarter of the runs never finished
    assert len(plot_cactus([_run(sat, 8, 1, "timeout", 2.0)]).axes[0].lines) == 0
