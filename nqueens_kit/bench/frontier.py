"""The frontier: the largest n each configuration solves (one verified board) within a time limit, here.

For each configuration: double n from ``start`` while n is solved within ``limit``, then bisect between
the largest n solved and the smallest n that was not, until the gap is at most ``precision`` of n.  Every
run is a fresh process with the wall-clock limit (:func:`~nqueens_kit.bench.worker.run_worker`), every
board is verified here, and no run gets a hint from a known solution.

One run of one formula is one point: a solver's heuristics depend on the order of the variables and
clauses, so the same n can take twice as long in another order, and a larger n can take less time than a
smaller one.  With ``orderings`` K > 1, n counts as solved when a majority of K instances of it are, each the
plain problem with its model renumbered and reordered by a seed (the sweep's plain instances,
:func:`~nqueens_kit.bench.sweep.order_seed`; a configuration whose method keeps its model as written runs
one); the runs of n stop as soon as the majority is decided.  The frontier is then where a configuration
stops for most orderings, give or take the bisection's precision, and each row keeps how many orderings
solved its largest n and the range of their times.  The bisection assumes that what is solved at n is solved
below it; over a majority of orderings that holds far better than for one run, and the row's
``first_failure`` says where it did not.

:func:`count_frontier` is the same for counting: the largest n whose every board a configuration counts
(each verified, the total equal to the published count) within the limit, trying n = start, start + 1, ...

:func:`frontier_table` prints a stored frontier (``benchmarks/bench_frontier.py -o FILE.json``) as the
Markdown tables of book/timing.md; :func:`merge_frontier` keeps the rows of an earlier run for the
configurations a new run did not try.

>>> from nqueens_kit.methods import Choice
>>> row = frontier([Choice("construct")], limit=30, start=8, max_n=64)[0]
>>> row["config"], row["largest_n"], row["first_failure"]
('construct', 64, None)
>>> row = count_frontier([Choice("backtrack")], limit=30, start=6, max_n=8)[0]
>>> row["largest_n"], row["count"]
(8, 92)
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Sequence
from typing import TypedDict

from ..errors import InputError
from ..methods import Choice, count, get_method
from ..problem.board import verify
from ..problem.reference import published_count
from ..problem.results import Status
from ..runtime.jit import jit_name
from ..runtime.limits import check_time_limit
from .results import Meta
from .sweep import Run, order_seed
from .worker import RunRecord, run_worker

DEFAULT_LIMIT = 60.0
DEFAULT_MAX_N = 4096


class FrontierRow(TypedDict, total=False):
    """One configuration's frontier (:func:`frontier`, :func:`count_frontier`), as the stored record keeps it."""

    config: str
    method: str
    variant: str | None
    solver: str | None
    settings: str | None
    limit: float
    largest_n: int | None
    seconds: float | None
    peak_rss_mb: float | None  # solving only
    count: int | None  # counting only
    why: str | None  # counting only: why the first failure failed
    cpu: str | None  # the processor of the machine the row's run was made on (a merged record can mix machines)
    runner: str  # counting only: what ran the kit's own search kernels (numba x.y or Python; jit_name())
    first_failure: int | None
    attempts: int
    orderings: int  # solving only: the instances (orderings of the model) tried per n, a majority must solve
    solved_orderings: int  # solving only: how many of those run at largest_n solved it in time
    run_orderings: int  # solving only: how many ran at largest_n (the runs stop once the majority is decided)
    times: list[float]  # solving only: the seconds of the orderings that solved largest_n
    created: str | None  # the run a row comes from (:func:`merge_frontier`)
    load: list[float | None]  # the machine's load average before and after (benchmarks/bench_frontier.py)


class Kept(TypedDict, total=False):
    """The configurations a merged record kept from an earlier run, and when that run was."""

    configs: list[str]
    created: str | None


class FrontierRecord(TypedDict, total=False):
    """A stored frontier (what ``benchmarks/bench_frontier.py -o`` writes)."""

    limit: float
    solve: list[FrontierRow]
    count: list[FrontierRow]
    environment: Meta
    kept: Kept


def _attempt(config: Choice, n: int, limit: float, order: int | None = None) -> tuple[bool, RunRecord]:
    spec = Run(config, n, repeat=1, order=order).spec()  # the plain board, as the sweep would run it
    record = run_worker(spec, limit)
    queens = [(q[0], q[1]) for q in record.get("queens") or ()]
    seconds = record.get("total_seconds")
    ok = (record.get("status") == "solved" and seconds is not None and seconds <= limit  # the grace does not count
          and verify(n, queens))
    return ok, record


def _check(limit: object, start: object, max_n: object) -> float:
    checked = check_time_limit(limit, "--limit")
    if checked is None:
        raise InputError("the frontier needs a time limit")
    for what, value, low in (("start", start, 4), ("max_n", max_n, 4)):
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            raise InputError(f"{what} must be a whole number of at least {low}, not {value!r}")
    return checked


def frontier(configs: Sequence[Choice], limit: float = DEFAULT_LIMIT, start: int = 8, max_n: int = DEFAULT_MAX_N,
             precision: float = 0.1, on_attempt: Callable[[str, int, bool, float], None] | None = None,
             orderings: int = 1, seed: int = 1) -> list[FrontierRow]:
    """One row per configuration: ``largest_n`` solved within ``limit`` seconds (by a majority of ``orderings``
    instances, the plain problem reordered by seeds drawn from ``seed``; see the module docstring) and the
    median time of the orderings that solved it, ``first_failure`` (the smallest n tried that was not solved,
    None if every n up to ``max_n`` was), ``attempts`` (runs), and per ordering at ``largest_n``: how many ran,
    how many solved, their times.  ``on_attempt(label, n, solved, seconds)`` reports each run."""
    limit = _check(limit, start, max_n)
    if not 0 < precision < 1:
        raise InputError(f"precision must be between 0 and 1, not {precision!r}")
    if isinstance(orderings, bool) or not isinstance(orderings, int) or not 1 <= orderings <= 99:
        raise InputError(f"orderings is a whole number of instances per n from 1 to 99, not {orderings!r}")
    rows: list[FrontierRow] = []
    for config in configs:
        best: tuple[int, float] | None = None
        failure: int | None = None
        attempts = 0
        peak: list[float | None] = [None]  # the peak memory of a run of ``best``
        kinds = orderings if orderings > 1 and get_method(config.method).honours("reorder", config) else 1
        best_ran, best_times = 0, []  # at ``best``: the orderings run, the times of those that solved it

        def attempt(n: int, config: Choice = config, peak: list[float | None] = peak, kinds: int = kinds) -> bool:
            nonlocal best, failure, attempts, best_ran, best_times
            solved: list[float] = []
            ran, memory = 0, None
            for instance in range(1, kinds + 1):
                order = order_seed(n, seed, instance) if kinds > 1 else None
                attempts += 1
                ran += 1
                ok, record = _attempt(config, n, limit, order)
                seconds = float(record.get("total_seconds") or limit)
                if on_attempt is not None:
                    on_attempt(config.label, n, ok, seconds)
                if ok:
                    solved.append(seconds)
                    memory = record.get("peak_rss_mb") if memory is None else memory
                if 2 * len(solved) > kinds or 2 * (ran - len(solved)) >= kinds:
                    break  # the majority is decided
            done = 2 * len(solved) > kinds
            if done and (best is None or n > best[0]):
                best = (n, statistics.median(solved))
                peak[0] = memory
                best_ran, best_times = ran, [round(t, 3) for t in solved]
            if not done and (failure is None or n < failure):
                failure = n
            return done

        n = min(start, max_n)
        while attempt(n) and n < max_n:
            n = min(2 * n, max_n)
        while best is not None and failure is not None and failure - best[0] > max(1, int(precision * best[0])):
            attempt((best[0] + failure) // 2)
        rows.append({"config": config.label, "method": config.method, "variant": config.variant,
                     "solver": config.solver, "settings": config.settings, "limit": limit,
                     "largest_n": best[0] if best else None, "seconds": best[1] if best else None,
                     "peak_rss_mb": peak[0] if best else None, "first_failure": failure, "attempts": attempts,
                     "orderings": kinds, "run_orderings": best_ran, "solved_orderings": len(best_times),
                     "times": best_times})
    return rows


#: The largest n with a published count (OEIS A000170), the end of the counting frontier.
COUNT_MAX_N = 27


def count_frontier(configs: Sequence[Choice], limit: float = DEFAULT_LIMIT, start: int = 8, max_n: int = COUNT_MAX_N,
                   on_attempt: Callable[[str, int, bool, float], None] | None = None) -> list[FrontierRow]:
    """One row per configuration: ``largest_n`` whose boards it counts within ``limit`` seconds (every board
    verified, the total equal to the published count), its time and ``count``, and ``first_failure``.
    Each count runs in a child process stopped at the limit; n goes up by one until a count fails."""
    limit = _check(limit, start, max_n)
    if start > COUNT_MAX_N:
        raise InputError(f"the counting frontier starts at n = {COUNT_MAX_N} at most (the largest published "
                         f"count), not {start}")
    for config in configs:
        get_method(config.method).check(None, "count", config)
    max_n = min(max_n, COUNT_MAX_N)
    rows: list[FrontierRow] = []
    for config in configs:
        best: tuple[int, float, int] | None = None
        failure: int | None = None
        reason: str | None = None
        attempts = 0
        for n in range(min(start, max_n), max_n + 1):
            attempts += 1
            result = count(n, config.method, config.variant, config.solver, settings=config.settings,
                           time_limit=limit)
            ok = (result.status == Status.SOLVED and result.seconds <= limit
                  and result.count == published_count(n))
            if on_attempt is not None:
                on_attempt(config.label, n, ok, result.seconds)
            if not ok:
                failure = n
                if result.status != Status.SOLVED:
                    reason = result.status.value
                elif result.seconds > limit:
                    reason = f"took {result.seconds:.2f} s"
                else:
                    reason = f"counted {result.count:,}, not {published_count(n):,}"
                break
            best = (n, result.seconds, result.count)
        rows.append({"config": config.label, "method": config.method, "variant": config.variant,
                     "solver": config.solver, "settings": config.settings, "limit": limit,
                     "largest_n": best[0] if best else None, "seconds": best[1] if best else None,
                     "count": best[2] if best else None, "first_failure": failure, "why": reason,
                     "attempts": attempts, "runner": jit_name()})
    return rows


def ordered(row: FrontierRow) -> str:
    """How many orderings solved the row's largest n, of those run and of those asked (``2 of 2 (3)``: the
    third was not needed, the majority was decided); ``-`` for none, and for a count."""
    if row.get("largest_n") is None or "orderings" not in row:
        return "-"
    asked, ran = row["orderings"], row.get("run_orderings", row["orderings"])
    return f"{row.get('solved_orderings', ran)} of {ran}" + (f" ({asked})" if ran != asked else "")


def standing(record: FrontierRecord, config: str) -> dict[str, list[str]]:
    """Where the solving row ``config`` of a stored frontier stands among the rows of the *other* searching
    methods (those whose instances can be reordered; the construction, which does not search, is left out):
    ``behind`` (the rows it gets further than), ``level`` (as far) and ``ahead`` (further), each in the
    record's order.  An unknown ``config`` or one without a largest n is an :class:`InputError`."""
    rows = {row["config"]: row for row in record.get("solve", ())}
    mine = rows[config].get("largest_n") if config in rows else None
    if mine is None:
        raise InputError(f"the frontier has no solved row {config!r}; its rows: {', '.join(rows) or 'none'}")
    own = rows[config].get("method")
    reach = {label: row.get("largest_n") or 0 for label, row in rows.items()
             if row.get("method") != own and _searches(row.get("method"))}
    return {"behind": [c for c, n in reach.items() if n < mine], "level": [c for c, n in reach.items() if n == mine],
            "ahead": [c for c, n in reach.items() if n > mine]}


def _searches(method: object) -> bool:
    """Whether a stored row's method searches (its instances can be reordered); False for a method this
    installation does not know."""
    try:
        return isinstance(method, str) and get_method(method).honours("reorder")
    except InputError:
        return False


def _seconds(value: float | None) -> str:
    return "—" if value is None else f"{value:.1f} s" if value >= 0.05 else f"{value:.3f} s"


def _solver_version(record: FrontierRecord, row: FrontierRow) -> str:
    versions = record.get("environment", {}).get("solvers", {})
    found = versions.get(row.get("solver") or "")
    return "" if not found else " ".join(str(found).split())[:40]


def _when(created: object) -> str:
    """``2026-11-24 09:17`` from an ISO time (as it is if it is not one)."""
    text = str(created or "an earlier run")
    return text[:16].replace("T", " ") if len(text) >= 16 and text[10:11] == "T" else text


def frontier_table(record: FrontierRecord) -> str:
    """The Markdown tables of a stored frontier (what ``benchmarks/bench_frontier.py -o`` writes): solving one
    board (largest n within the limit, its time, the peak memory of that run, the first n not solved) and
    counting every board.  Rows from an earlier run than the newest (:func:`merge_frontier`) name their run.

    >>> record = {"limit": 60, "solve": [{"config": "construct", "solver": None, "largest_n": 64,
    ...     "seconds": 0.001, "peak_rss_mb": 40.0, "first_failure": None}], "count": []}
    >>> print(frontier_table(record).splitlines()[2])
    | construct |  | 64 | 0.001 s | 40 MB | none up to the largest n tried |
    """
    limit = record.get("limit")
    rows = [*record.get("solve", ()), *record.get("count", ())]
    runs = sorted({str(row["created"]) for row in rows if row.get("created")})
    newest = runs[-1] if runs else None

    def label(row: FrontierRow) -> str:
        created = row.get("created")
        return row["config"] + ("" if created is None or str(created) == newest else f" (run of {_when(created)})")

    several = any(row.get("orderings", 1) > 1 for row in record.get("solve", ()))
    lines = [f"| solving one board | solver | largest n within {limit:g} s | its time | peak memory "
             "| first n not solved |" + (" orderings solved |" if several else ""),
             "|---|---|---:|---:|---:|---:|" + ("---:|" if several else "")]
    for row in record.get("solve", ()):
        largest = "—" if row.get("largest_n") is None else str(row["largest_n"])
        memory = "—" if row.get("peak_rss_mb") is None else f"{row['peak_rss_mb']:,.0f} MB"
        beyond = row.get("first_failure") or "none up to the largest n tried"
        lines.append(f"| {label(row)} | {_solver_version(record, row)} | {largest} | {_seconds(row.get('seconds'))} "
                     f"| {memory} | {beyond} |" + (f" {ordered(row)} |" if several else ""))
    if several:
        lines += ["", "n counts as solved when most of its orderings (the model renumbered and reordered by a seed) "
                      "are solved within the limit; its time is their median; the last column says how many solved "
                      "the largest n, of those run (the runs of an n stop once the majority is decided) and, in "
                      "brackets, of those asked."]
    counted = record.get("count", ())
    if counted:
        lines += ["", f"| counting every board | largest n within {limit:g} s | its time | boards "
                      "| first n not counted |", "|---|---:|---:|---:|---:|"]
        for row in counted:
            largest = "—" if row.get("largest_n") is None else str(row["largest_n"])
            boards = "—" if row.get("count") is None else f"{row['count']:,}"
            lines.append(f"| {label(row)} | {largest} | {_seconds(row.get('seconds'))} | {boards} "
                         f"| {row.get('first_failure') or '—'} |")
    loads = [value for row in rows for value in row.get("load") or () if value is not None]
    if loads:
        cores = record.get("environment", {}).get("machine", {}).get("cpu_count")
        lines += ["", f"The machine's load average (1 minute) was between {min(loads):.1f} and {max(loads):.1f} "
                      f"during the runs that recorded it, on {cores} cores."]
    machines = sorted({str(row["cpu"]) for row in rows if row.get("cpu")})
    if newest is not None and len(runs) > 1:
        same = "the same machine and limit" if len(machines) < 2 else "the same limit"
        lines += ["", f"Rows without a date are from the run of {_when(newest)}; the others name their run ({same})."]
    if len(machines) > 1:
        days: dict[str, set[str]] = {}
        for row in rows:
            if row.get("cpu") and row.get("created"):
                days.setdefault(str(row["cpu"]), set()).add(_when(row["created"]).split()[0])
        lines += ["", "The rows come from more than one machine: "
                  + "; ".join(f"{cpu} (runs of {', '.join(sorted(days.get(cpu, ())))})" for cpu in machines)
                  + ". Compare rows of different machines only where the gap is wide."]
    return "\n".join(lines)


def _machine(row: FrontierRow, cpu: object) -> FrontierRow:
    """The row's ``cpu`` entry: its own, else its run's machine's, else none."""
    known = row.get("cpu") or cpu
    return {"cpu": str(known)} if known else {}


def merge_frontier(new: FrontierRecord, old: FrontierRecord) -> FrontierRecord:
    """``new`` with the rows of ``old`` for the configurations ``new`` did not try (each part in ``old``'s
    order, new configurations after).  Every row records the run it comes from (``created``, the time of its
    run's environment).  Both must have the same limit.

    >>> old = {"limit": 60, "solve": [{"config": "a"}, {"config": "b"}], "count": [{"config": "c"}],
    ...        "environment": {"created": "then"}}
    >>> merged = merge_frontier({"limit": 60, "solve": [{"config": "b"}], "count": [],
    ...                          "environment": {"created": "now"}}, old)
    >>> [(r["config"], r["created"]) for r in merged["solve"]], merged["kept"]["configs"]
    ([('a', 'then'), ('b', 'now')], ['a', 'c'])
    """
    if old.get("limit") != new.get("limit"):
        raise InputError(f"the earlier frontier ran with a limit of {old.get('limit')} s, this one with "
                         f"{new.get('limit')} s: keep rows only from a run with the same limit")
    merged = new.copy()
    now = new.get("environment", {}).get("created")
    then = old.get("environment", {}).get("created")
    here = new.get("environment", {}).get("machine", {}).get("cpu")
    there = old.get("environment", {}).get("machine", {}).get("cpu")
    older: Kept = old.get("kept", {})  # rows the old record itself kept from a run before it
    kept: list[str] = []

    def merge_part(new_rows: list[FrontierRow], old_rows: list[FrontierRow]) -> list[FrontierRow]:
        fresh: dict[str, FrontierRow] = {row["config"]: {**row, "created": row.get("created") or now,
                                                         **_machine(row, here)} for row in new_rows}
        rows: list[FrontierRow] = []
        for row in old_rows:
            if row["config"] in fresh:
                rows.append(fresh.pop(row["config"]))
                continue
            earlier = older.get("created") if row["config"] in older.get("configs", ()) else then
            rows.append({**row, "created": row.get("created") or earlier, **_machine(row, there)})
            kept.append(row["config"])
        return rows + list(fresh.values())

    merged["solve"] = merge_part(new.get("solve", []), old.get("solve", []))
    merged["count"] = merge_part(new.get("count", []), old.get("count", []))
    merged["kept"] = {"configs": kept}
    environment: Meta = new.get("environment", {}).copy()
    solvers = dict(old.get("environment", {}).get("solvers", {}))
    solvers.update(environment.get("solvers", {}))
    if environment or solvers:
        environment["solvers"] = solvers
        merged["environment"] = environment
    return merged


#: The lines that enclose the generated frontier tables in a Markdown file (book/timing.md).
TABLES_BEGIN = "<!-- frontier tables: begin"
TABLES_END = "<!-- frontier tables: end -->"


def with_frontier_tables(text: str, record: FrontierRecord) -> str:
    """``text`` (Markdown) with the lines between :data:`TABLES_BEGIN` and :data:`TABLES_END` replaced by
    :func:`frontier_table` of ``record``.

    >>> page = "intro\\n<!-- frontier tables: begin -->\\nold\\n<!-- frontier tables: end -->\\nrest\\n"
    >>> with_frontier_tables(page, {"limit": 60, "solve": [], "count": []}).splitlines()[2]
    '| solving one board | solver | largest n within 60 s | its time | peak memory | first n not solved |'
    """
    begin = text.find(TABLES_BEGIN)
    end = text.find(TABLES_END, begin)
    if begin < 0 or end < 0:
        raise InputError(f"no place for the frontier tables: the text needs a line starting {TABLES_BEGIN!r} "
                         f"and a later line {TABLES_END!r}")
    after_begin = text.index("\n", begin) + 1
    return text[:after_begin] + frontier_table(record) + "\n" + text[end:]
