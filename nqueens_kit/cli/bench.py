"""The measuring subcommands of ``nqueens-kit``: bench, plot, report (registered by :mod:`nqueens_kit.cli`).

::

    nqueens-kit bench --out results.csv [--n 4:64:4 | --n 4,8,16] [--methods sat,ilp,construct,backtrack]
                      [--encodings pairwise,sequential] [--formulations lines] [--solvers pycosat,cbc,...]
                      [--settings tuned,default] [--place-random K [--instances K] [--seed S]] [--repeat 3]
                      [--timeout 30] [--plot timing.png] [--resume | --force] [--skip-after-timeout]
                      [--max-runs N] [--quiet]
    nqueens-kit plot results.csv -o fig.png|fig.svg [--kind time|size|build-solve] [--metric total|solve|build]
    nqueens-kit report results.csv -o report/

A sweep needs the core alone; what draws (``--plot``, ``plot``, ``report``) needs matplotlib, the ``plots``
extra: without it the command refuses in one line naming the extra (``bench --plot`` before any run).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

from ..errors import InputError
from .common import Later

EXIT_OK, EXIT_NO = 0, 1
PLOT_KINDS = ("time", "size", "build-solve")


def _method_names() -> list[str]:
    from ..methods import METHODS

    return list(METHODS)


def _bench_options(p: argparse.ArgumentParser) -> None:
    from ..bench import DEFAULT_NS, DEFAULT_REPEAT, DEFAULT_TIMEOUT, MAX_RUNS

    p.description = ("Time each configuration (method x encoding/formulation x solver) at each n, every run in its "
                     "own process with a wall-clock limit.  Rows are written to the CSV as runs finish, so an "
                     "interrupted sweep continues with --resume.")
    p.epilog = ("Default sweep: n = 4..64 step 4; SAT pairwise and sequential with pycosat; ILP lines with CBC "
                f"(tuned settings); {DEFAULT_REPEAT} repeats; {DEFAULT_TIMEOUT:g} s limit per run.")
    p.add_argument("--n", dest="ns", default=DEFAULT_NS, metavar="SIZES",
                   help=f"board sizes: a list 4,8,16 or START:STOP[:STEP] with STOP included (default {DEFAULT_NS})")
    p.add_argument("--methods", default="sat,ilp",
                   help=Later(lambda: f"comma-separated: {', '.join(_method_names())} (default sat,ilp)"))
    p.add_argument("--encodings", default=None, help="SAT encodings (default pairwise,sequential)")
    p.add_argument("--formulations", default=None, help="ILP formulations (default lines)")
    p.add_argument("--solvers", default=None,
                   help="SAT and ILP solvers, each used with its own method (default pycosat and cbc); "
                        "see 'nqueens-kit solvers'")
    p.add_argument("--settings", default=None,
                   help="ILP solver settings to compare: tuned (default), default, or tuned,default")
    p.add_argument("--place-random", default="0", metavar="K",
                   help="pre-place K random non-attacking queens (completion instances; needs every n > K)")
    p.add_argument("--family", default="completion", choices=["completion", "blocked", "excluded-diagonals"],
                   help="instance family: completion (with --place-random), blocked (random cells no queen may "
                        "use) or excluded-diagonals (random diagonals no queen may use), with --density")
    p.add_argument("--density", default=None, metavar="D",
                   help="with --family blocked or excluded-diagonals: the share of cells or diagonals blocked")
    p.add_argument("--instances", default="1", metavar="K",
                   help="K different instances per n, each run --repeat times: random completions with "
                        "--place-random, else the plain problem with its variables and clauses (or constraints) "
                        "in K random orders")
    p.add_argument("--seed", default=None, metavar="S", help="seed of --place-random (default 0)")
    p.add_argument("--repeat", default=str(DEFAULT_REPEAT), metavar="R",
                   help=f"runs per configuration and instance (default {DEFAULT_REPEAT})")
    p.add_argument("--timeout", default=str(DEFAULT_TIMEOUT), metavar="S",
                   help=f"wall-clock limit per run in seconds (default {DEFAULT_TIMEOUT:g})")
    p.add_argument("--out", required=True, metavar="FILE.csv", help="results file (one row per run)")
    p.add_argument("--plot", metavar="FILE", help="also draw time against n to FILE.png or FILE.svg")
    again = p.add_mutually_exclusive_group()
    again.add_argument("--resume", action="store_true", help="continue the sweep in an existing --out file")
    again.add_argument("--force", action="store_true", help="overwrite an existing --out file")
    p.add_argument("--skip-after-timeout", action="store_true",
                   help="once a configuration times out, record larger n for it as skipped")
    p.add_argument("--max-runs", default=str(MAX_RUNS), metavar="N",
                   help=f"refuse sweeps of more runs than this (default {MAX_RUNS:,})")
    p.add_argument("--jobs", default="1", metavar="N",
                   help="runs at a time on this machine (default 1; more than the physical cores distorts times)")
    p.add_argument("--dask", default=None, metavar="ADDRESS",
                   help="run the sweep on Dask distributed: 'local' (a local cluster of --jobs workers) or a "
                        "scheduler address such as tcp://host:8786; rows still go to the one --out file")
    p.add_argument("--memory-limit", default=None, metavar="SIZE",
                   help="memory one run may use before it is recorded as memout, e.g. 4G (default: half of "
                        "this machine's memory shared among the --jobs)")
    p.add_argument("--quiet", action="store_true", help="no progress bar or summary")
    p.set_defaults(func=cmd_bench)


def _frontier_options(p: argparse.ArgumentParser) -> None:
    p.description = ("For each configuration, double n while n is solved (a fresh process per run, a verified board, "
                     "no hints) within --limit by a majority of --orderings instances (the model renumbered and "
                     "reordered by a seed), then bisect to within 10%: the largest n it solves on this machine.")
    p.add_argument("--methods", default="sat,ilp", help=Later(lambda: f"comma-separated: {', '.join(_method_names())}"))
    p.add_argument("--encodings", default=None, help="SAT encodings (default pairwise,sequential)")
    p.add_argument("--formulations", default=None, help="ILP formulations (default lines)")
    p.add_argument("--solvers", default=None, help="SAT and ILP solvers (default pycosat and cbc)")
    p.add_argument("--settings", default=None, help="ILP solver settings: tuned (default) and/or default")
    p.add_argument("--limit", default="60", metavar="S", help="seconds one run may take (default 60)")
    p.add_argument("--start", default="8", metavar="N", help="the first n tried (default 8)")
    p.add_argument("--max-n", default="4096", metavar="N", help="the largest n tried (default 4096)")
    p.add_argument("--orderings", default="3", metavar="K",
                   help="instances of each n (orderings of the model; default 3): n is solved when most of them "
                        "are, so one lucky or unlucky order does not move the frontier; 1 runs the plain model once")
    p.add_argument("--seed", default="1", metavar="S", help="the seed of the orderings (default 1)")
    p.add_argument("--count", action="store_true",
                   help="the counting frontier: the largest n whose boards each configuration counts (every board "
                        "verified, the total the published one) within --limit; n goes up by one from --start")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    p.set_defaults(func=cmd_frontier)


def _plot_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("csv", metavar="RESULTS.csv", help="a CSV written by nqueens-kit bench")
    p.add_argument("-o", "--output", required=True, metavar="FILE", help="FILE.png, FILE.svg or FILE.pdf")
    p.add_argument("--kind", choices=PLOT_KINDS, default="time",
                   help="time against n (default), problem size against n, or build vs solve time")
    p.add_argument("--metric", choices=("total", "solve", "build"), default="total",
                   help="which time --kind time shows (default total = build + solve)")
    p.set_defaults(func=cmd_plot)


def _report_options(p: argparse.ArgumentParser) -> None:
    p.description = ("Write README.md and index.html with PNG plots: median times, solved runs and PAR-2, problem "
                     "sizes, notes on timeouts and failures, the machine, versions and solver options.  It shows how "
                     "busy the machine was (the load average at the start and end of each session of the sweep, "
                     "on its cores), says what wall, CPU and the solver's own time measure and which to compare "
                     "(with the median CPU / wall ratio of the runs), and, when each n has a single instance, "
                     "warns that the comparison is an anecdote and gives the 'bench --instances K' command that "
                     "samples several; with several instances per n it shows their spread.")
    p.add_argument("csv", metavar="RESULTS.csv", help="a CSV written by nqueens-kit bench")
    p.add_argument("-o", "--output", required=True, metavar="DIR", help="folder for README.md, index.html and PNGs")
    p.add_argument("--title", default=None, help="the report's heading")
    p.set_defaults(func=cmd_report)


#: The subcommands of this module: name -> (help, the function that adds its options).
COMMANDS = {
    "bench": ("time SAT against ILP over a range of n (a CSV row per run, optional plot)", _bench_options),
    "frontier": ("the largest n each configuration solves within a time limit, here", _frontier_options),
    "plot": ("draw a results CSV from 'bench' (time, size or build/solve)", _plot_options),
    "report": ("write a Markdown (and HTML) report of a results CSV with its plots", _report_options),
}


def register(sub: argparse._SubParsersAction) -> None:
    """Add the bench, frontier, plot and report subcommands, with their options, to the ``nqueens-kit`` parser."""
    for name, (help_text, add_options) in COMMANDS.items():
        add_options(sub.add_parser(name, help=help_text))


def _whole(text: str, what: str, minimum: int) -> int:
    from ..problem.board import whole_number

    value = whole_number(text)
    if value is None or value < minimum:
        raise InputError(f"{what} must be a whole number of at least {minimum}, not {str(text)[:40]!r}")
    return value


def check_figure_path(path: str) -> None:
    """Refuse a figure path before a long sweep rather than after it: a wrong suffix, a missing folder, or
    what the kit never writes over (a folder, a device, a FIFO, a link to nothing: :func:`output_path`)."""
    from ..runtime.files import output_path
    from ..viz.figure import FIGURE_SUFFIXES

    target = Path(path)
    if target.suffix.lower() not in FIGURE_SUFFIXES:
        raise InputError(f"a figure file must end in {', '.join(FIGURE_SUFFIXES)}, not {path!r}")
    output_path(target, "the figure")


def _bench_command(args: argparse.Namespace, resume: bool = False) -> str:
    """The bench command line rebuilt from the parsed options (the same however the CLI was called)."""
    from ..bench import command_line

    words = ["bench", "--n", args.ns, "--methods", args.methods]
    for option in ("encodings", "formulations", "solvers", "settings"):
        if getattr(args, option) is not None:
            words += [f"--{option}", getattr(args, option)]
    if args.place_random:
        words += ["--place-random", str(args.place_random)]
    if args.family != "completion":
        words += ["--family", args.family, "--density", str(args.density)]
    if args.place_random or args.instances > 1 or args.family != "completion":
        words += ["--seed", str(args.seed or 0)]
    if args.instances > 1:
        words += ["--instances", str(args.instances)]
    words += ["--repeat", str(args.repeat), "--timeout", f"{args.timeout:g}", "--out", args.out]
    if args.plot:
        words += ["--plot", args.plot]
    if args.skip_after_timeout:
        words.append("--skip-after-timeout")
    if args.jobs > 1:
        words += ["--jobs", str(args.jobs)]
    if args.dask:
        words += ["--dask", args.dask]
    if args.memory_limit is not None:
        words += ["--memory-limit", str(args.memory_limit)]
    if args.quiet:
        words.append("--quiet")
    if resume or args.resume:
        words.append("--resume")
    elif args.force:
        words.append("--force")
    return command_line(words)


def cmd_bench(args: argparse.Namespace) -> int:
    from ..bench import SweepInterrupted, check_available, check_output, make_configs, parse_ns, run_sweep
    from ..bench.results import meta_path
    from ..bench.sweep import check_run_count
    from ..runtime.limits import check_time_limit, memory_budget, parse_bytes

    ns = parse_ns(args.ns)
    args.place_random = _whole(args.place_random, "--place-random", 0)
    args.instances = _whole(args.instances, "--instances", 1)
    args.repeat = _whole(args.repeat, "--repeat", 1)
    args.max_runs = _whole(args.max_runs, "--max-runs", 1)
    args.jobs = _whole(args.jobs, "--jobs", 1)
    args.timeout = check_time_limit(args.timeout, "--timeout")

    memory_limit = (parse_bytes(args.memory_limit, "--memory-limit") if args.memory_limit is not None
                    else memory_budget() // args.jobs)
    density = None
    if args.density is not None:
        try:
            density = float(args.density)
        except ValueError:
            raise InputError(f"--density must be a number between 0 and 1, not {args.density!r}") from None
    if args.seed is not None:
        if not args.place_random and args.instances == 1 and args.family == "completion":
            raise InputError("--seed chooses the random instances; add --place-random K or --instances K, or drop "
                             "--seed")
        args.seed = _whole(args.seed, "--seed", 0)
    if args.plot:
        check_figure_path(args.plot)
    configs = make_configs(args.methods, args.encodings, args.formulations, args.solvers, args.settings)
    check_available(configs)
    from ..bench.sweep import check_family

    check_family(configs, args.family, density, args.place_random)
    check_output(args.out, args.resume, args.force)
    total = len(configs) * len(ns) * args.repeat * args.instances
    check_run_count(total, args.max_runs)
    from ..bench.environment import physical_cores

    cores = physical_cores()
    if cores and args.jobs > cores:
        print(f"nqueens-kit: warning: --jobs {args.jobs} is more than this machine's {cores} physical cores; "
              "runs sharing a core take longer, so the times are distorted", file=sys.stderr)
    if not args.quiet:
        instances = f" x {args.instances} instances" if args.instances > 1 else ""
        print(f"timing {len(configs)} configurations x {len(ns)} sizes{instances} x {args.repeat} repeats = "
              f"{total} runs (limit {args.timeout:g} s each) -> {args.out}", file=sys.stderr)
    try:
        rows = run_sweep(configs, ns, repeat=args.repeat, timeout=args.timeout, out=args.out,
                         progress=not args.quiet, place_random=args.place_random, seed=args.seed or 0,
                         resume=args.resume, force=args.force, skip_after_timeout=args.skip_after_timeout,
                         command=_bench_command(args), instances=args.instances, max_runs=args.max_runs,
                         jobs=args.jobs, memory_limit=memory_limit, dask=args.dask, family=args.family,
                         density=density)
    except SweepInterrupted as stop:
        print(f"nqueens-kit: interrupted; {len(stop.rows)} finished runs are saved in {args.out}. "
              f"Continue with: {_bench_command(args, resume=True)}", file=sys.stderr)
        return stop.code
    counts = Counter(row["status"] for row in rows)
    if not args.quiet:
        parts = ", ".join(f"{counts[s]} {s}" for s in ("solved", "infeasible", "unknown", "timeout", "memout",
                                                       "skipped", "error") if counts[s])
        print(f"{len(rows)} rows in {args.out} ({parts}); environment in {meta_path(args.out)}", file=sys.stderr)
    errors = counts["error"]  # a solver that failed, or a wrong answer caught (a board that does not verify)
    if errors:
        print(f"nqueens-kit: {errors} of {len(rows)} rows are errors (a solver failed or gave a wrong answer); "
              f"the message column of the error rows in {args.out} says why", file=sys.stderr)
    if args.plot and rows:
        from ..viz.charts import plot_time, save_figure

        path = save_figure(plot_time(rows), args.plot)
        if not args.quiet:
            print(f"plot: {path}", file=sys.stderr)
    return EXIT_NO if errors else EXIT_OK


def cmd_plot(args: argparse.Namespace) -> int:
    from ..bench import read_results
    from ..viz.charts import plot_build_solve, plot_size, plot_time, save_figure

    check_figure_path(args.output)
    rows = read_results(args.csv)
    if not rows:
        raise InputError(f"{args.csv} holds no results yet; run nqueens-kit bench first")
    if args.kind == "time":
        fig = plot_time(rows, metric=args.metric)
    elif args.kind == "size":
        fig = plot_size(rows)
    else:
        fig = plot_build_solve(rows)
    path = save_figure(fig, args.output)
    print(f"wrote {path}", file=sys.stderr)
    return EXIT_OK


def cmd_report(args: argparse.Namespace) -> int:
    from ..bench.report import write_report

    page = write_report(args.csv, args.output, title=args.title)
    print(f"wrote {page} (and index.html, plots)", file=sys.stderr)
    return EXIT_OK


def cmd_frontier(args: argparse.Namespace) -> int:
    import json

    from ..bench import check_available, make_configs
    from ..bench.frontier import COUNT_MAX_N, count_frontier, frontier, ordered
    from ..runtime.limits import check_time_limit

    configs = make_configs(args.methods, args.encodings, args.formulations, args.solvers, args.settings)
    check_available(configs)
    limit = check_time_limit(args.limit, "--limit")
    if limit is None:
        raise InputError("--limit must be a positive number of seconds")
    start, max_n = _whole(args.start, "--start", 4), _whole(args.max_n, "--max-n", 4)
    if start > max_n:
        raise InputError(f"--start {start} is above --max-n {max_n}")
    done = "counted" if args.count else "solved"
    show = None if args.json else (lambda label, n, ok, seconds: print(
        f"  {label}: n = {n} {done if ok else 'not ' + done} ({seconds:.2f} s)", file=sys.stderr))
    if args.count:
        rows = count_frontier(configs, limit, start, max_n, on_attempt=show)
        max_n = min(max_n, COUNT_MAX_N)
    else:
        orderings, seed = _whole(args.orderings, "--orderings", 1), _whole(args.seed, "--seed", 0)
        rows = frontier(configs, limit, start, max_n, on_attempt=show, orderings=orderings, seed=seed)
    if args.json:
        print(json.dumps({"limit": limit, "task": "count" if args.count else "solve", "frontier": rows},
                         separators=(",", ":")))
        return EXIT_OK
    extra = f" {'boards':>12}" if args.count else f" {'orderings solved':>16}"
    print(f"{'configuration':28} {'largest n':>10} {'its time':>9}{extra}   first n not {done} within {limit:g} s")
    for row in rows:
        largest = "-" if row["largest_n"] is None else str(row["largest_n"])
        took = "-" if row["seconds"] is None else f"{row['seconds']:.2f} s"
        beyond = f"n = {row['first_failure']}" if row["first_failure"] else f"none up to {max_n}"
        if row.get("why") and row["why"] != "timeout":
            beyond += f" ({row['why']})"
        boards = ((f" {row['count']:>12,}" if row["count"] is not None else f" {'-':>12}") if args.count
                  else f" {ordered(row):>16}")
        print(f"{row['config']:28} {largest:>10} {took:>9}{boards}   {beyond}")
    return EXIT_OK
