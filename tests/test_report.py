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
    from nqueens_kit.bench.tables import _par2_table

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
    from nqueens_kit.bench.tables import _seconds

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


# ------------------------------------------------------------- load, clocks and instances in the report


def _timed_file(tmp_path, name, instances, loads, cpu_share=(0.5, 0.8), cores=2):
    """A hand-made results file of SAT pairwise/pycosat and ILP lines/cbc at n = 8 and 12, ``instances``
    instances per n (3 repeats of one, or 2 of each of several), CPU time ``cpu_share`` of the wall time
    (SAT, ILP), and a sidecar with one session per (start, end) pair of 1-minute load averages in ``loads``
    (None: not recorded) on ``cores`` logical CPUs."""
    sat, ilp = ("sat", "pairwise", "pycosat"), ("ilp", "lines", "cbc")
    repeats = 3 if instances == 1 else 2
    rows = []
    for n in (8, 12):
        for instance in range(1, instances + 1):
            for repeat in range(1, repeats + 1):
                for config, share in ((sat, cpu_share[0]), (ilp, cpu_share[1])):
                    seconds = 0.01 * n * instance * (1 + 0.1 * repeat) * (1 if config is sat else 3)
                    row = _run(config, n, repeat, "solved", seconds, limit=30.0)
                    row.update(instance=instance, verified="true", cpu_seconds=round(share * seconds, 6),
                               settings="tuned" if config is ilp else "",
                               solver_seconds=round(0.8 * seconds, 6) if config is ilp else "")
                    rows.append(row)
    path = tmp_path / f"{name}.csv"
    write_rows(path, rows)
    extra = f" --seed 0 --instances {instances}" if instances > 1 else ""
    command = (f"nqueens-kit bench --n 8,12 --methods sat,ilp --encodings pairwise{extra} --repeat {repeats} "
               f"--timeout 30 --out runs/{name}.csv")
    sessions = []
    for number, (start, end) in enumerate(loads):
        sessions.append({"started": f"2026-03-0{number + 1}T10:00:00+01:00", "command": command,
                         "resumed": number > 0, "kept_rows": 0,
                         "load_average_start": None if start is None else [start, start, start],
                         "finished": f"2026-03-0{number + 1}T10:05:00+01:00", "new_rows": len(rows),
                         "complete": True, "load_average_end": None if end is None else [end, end, end]})
    meta = {"machine": {"cpu": "Test CPU", "cpu_count": cores, "physical_cores": cores, "memory_gb": 8.0,
                        "platform": "Linux"},
            "python": {"version": "3.11.7", "implementation": "CPython"},
            "sweep": {"configs": ["SAT pairwise/pycosat", "ILP lines/cbc"], "ns": [8, 12], "repeat": repeats,
                      "instances": instances, "timeout": 30.0, "place_random": 0, "seed": 0 if extra else None,
                      "jobs": 1, "family": "completion", "density": None},
            "sessions": sessions}
    meta_path(path).write_text(json.dumps(meta))
    return path


def _report_text(path):
    from nqueens_kit.bench import read_meta
    from nqueens_kit.bench.report import report_blocks

    blocks = report_blocks(read_results(path), read_meta(path), path.name)
    return to_markdown(blocks), to_html(blocks)


def test_report_shows_the_load_of_each_session_and_how_busy_the_machine_was(tmp_path):
    quiet, quiet_html = _report_text(_timed_file(tmp_path, "quiet", 1, [(0.3, 0.45)]))
    for text in (quiet, quiet_html):
        assert "load 0.3 at the start and 0.45 at the end, on 2 cores: quiet" in text
    busy, busy_html = _report_text(_timed_file(tmp_path, "busy", 1, [(5.0, 4.2), (None, None)]))
    for text in (busy, busy_html):
        assert "load 5.0 at the start and 4.2 at the end, on 2 cores: busy; wall times are inflated, CPU times " \
               "less so" in text
        assert "Session 2 (resumed 2026-03-02T10:00:00+01:00): the load average was not recorded" in text
    assert "busy;" not in quiet
    section = busy.split("## How busy the machine was")[1].split("\n## ")[0]
    assert "the highest load, 5.0 on 2 cores: busy" in section
    # the environment's account of each session carries its load as well
    assert "Sweep started 2026-03-01T10:00:00+01:00, finished 2026-03-01T10:05:00+01:00; load 5.0 at the start, " \
           "4.2 at the end:" in busy
    # a file without a sidecar has no load to show, and the report says so
    bare = tmp_path / "bare.csv"
    bare.write_text(_timed_file(tmp_path, "copy", 1, [(0.3, 0.3)]).read_text())
    text, _ = _report_text(bare)
    assert "The load average was not recorded" in text


def test_report_explains_the_clocks_with_this_files_ratio(tmp_path):
    text, html = _report_text(_timed_file(tmp_path, "clocks", 1, [(0.3, 0.3)], cpu_share=(0.5, 0.8)))
    # 6 SAT runs at 50 % and 6 ILP runs at 80 %: the median over the 12 runs is 65 %
    for page in (text, html):
        assert "CPU time is a median 65% of the wall time over its 12 finished runs (50% to 80%)" in page
    section = text.split("## How busy the machine was")[1].split("\n## ")[0]
    for words in ("Wall time", "elapsed", "other programs", "CPU time", "process tree", "solver's own",
                  "On a busy machine, compare CPU times"):
        assert words in section, words
    assert "reported by ILP lines/cbc (6 of 12 finished runs)" in section


ONE_INSTANCE_COMMAND = ("nqueens-kit bench --n 8,12 --methods sat,ilp --encodings pairwise --formulations lines "
                        "--solvers pycosat,cbc --instances 5 --repeat 3 --timeout 30 --out runs/one-instances.csv")


def test_one_instance_per_size_is_flagged_with_the_command_that_samples_more(tmp_path):
    text, html = _report_text(_timed_file(tmp_path, "one", 1, [(0.3, 0.3)]))
    assert "## One instance per size" in text
    assert text.index("## One instance per size") < text.index("## Median time")  # before the tables
    assert f"```\n{ONE_INSTANCE_COMMAND}\n```" in text
    assert "anecdote" in text and "noise" in text and "flip" in text
    assert "<h2>One instance per size" in html and ONE_INSTANCE_COMMAND in html
    # the command is one the bench command accepts, and it times the same configurations
    import shlex

    from nqueens_kit.bench import make_configs, parse_ns
    from nqueens_kit.bench.sweep import MAX_RUNS, _check_plan
    from nqueens_kit.cli import build_parser

    args = build_parser().parse_args(shlex.split(ONE_INSTANCE_COMMAND)[1:])
    configs = make_configs(args.methods, args.encodings, args.formulations, args.solvers, args.settings)
    assert [c.label for c in configs] == ["SAT pairwise/pycosat", "ILP lines/cbc"]
    _check_plan(configs, parse_ns(args.ns), int(args.repeat), int(args.instances), 0, MAX_RUNS)


def test_several_instances_per_size_show_their_spread_and_no_advice(tmp_path):
    text, html = _report_text(_timed_file(tmp_path, "three", 3, [(0.3, 0.3)]))
    assert "One instance per size" not in text and "--instances 5" not in text
    section = text.split("## Spread over instances")[1].split("\n## ")[0]
    assert "Each size has 3 instances, each run 2 times" in section
    assert "| n | SAT pairwise/pycosat | ILP lines/cbc |" in section
    # SAT at n = 8: instance k takes 0.08 k (1.1 or 1.2) s; the quartiles of the six runs, and the slowest
    # instance (by its median) three times the fastest, against 1.09 between repeats
    line = next(line for line in section.splitlines() if line.startswith("| 8 |"))
    assert line.split("|")[2].strip() == "0.116 s – 0.246 s; instances ×3.0, repeats ×1.1"
    assert "<h2>Spread over instances</h2>" in html


def test_one_instance_advice_leaves_out_methods_that_cannot_be_reordered(sweep, tmp_path):
    page = write_report(sweep, tmp_path / "rep").read_text()
    assert "## One instance per size" in page
    command = page.split("## One instance per size")[1].split("```\n")[1].split("\n```")[0]
    assert command.startswith("nqueens-kit bench --n 4:6 --methods sat --encodings pairwise --solvers pycosat "
                              "--instances 5 --repeat 2 --timeout 60 --out ")
    assert "construct cannot take reordered instances" in page
