"""The stored frontier and the book's frontier tables (book/timing.md) generated from it; keeping rows of an
earlier run."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from nqueens_kit.bench.frontier import frontier, frontier_table, merge_frontier
from nqueens_kit.errors import InputError
from nqueens_kit.methods import Choice
from nqueens_kit.problem.reference import published_count

ROOT = Path(__file__).resolve().parent.parent
STORED = ROOT / "notebooks" / "data" / "frontier.json"
#: The page of the book that shows the tables (python benchmarks/bench_frontier.py --table ... --readme PAGE).
PAGE = ROOT / "book" / "timing.md"
BEGIN = "<!-- frontier tables: begin"
END = "<!-- frontier tables: end -->"


def page_tables() -> str:
    text = PAGE.read_text(encoding="utf-8")
    start = text.index(BEGIN)
    start = text.index("\n", start) + 1
    return text[start:text.index(END)].strip()


def test_the_books_tables_are_the_ones_generated_from_the_stored_frontier() -> None:
    record = json.loads(STORED.read_text(encoding="utf-8"))
    assert page_tables() == frontier_table(record).strip()
    printed = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_frontier.py"), "--table", str(STORED)],
                             capture_output=True, text=True, check=True).stdout
    assert printed.strip() == page_tables()


def test_the_stored_frontier_holds_every_method_and_the_large_board_solvers() -> None:
    record = json.loads(STORED.read_text(encoding="utf-8"))
    configs = {row["config"]: row for row in record["solve"]}
    for wanted in ("ILP lines/cbc", "ILP lines/highs", "CP alldifferent/cp-sat", "SAT product/cryptominisat5",
                   "SAT commander/cryptominisat5", "SAT commander/pysat-kissat", "construct"):
        assert wanted in configs, wanted
    for row in record["solve"]:
        assert row["limit"] == record["limit"]
        if row["largest_n"] is not None:
            assert row["seconds"] <= record["limit"]
            assert row["first_failure"] is None or row["first_failure"] > row["largest_n"]
    for row in record["count"]:  # every stored count is the published one
        if row["largest_n"] is not None:
            assert row["count"] == published_count(row["largest_n"])


def test_a_row_records_the_peak_memory_of_its_largest_run() -> None:
    row = frontier([Choice("construct")], limit=30, start=8, max_n=32)[0]
    assert row["largest_n"] == 32 and row["peak_rss_mb"] is not None and row["peak_rss_mb"] > 0


def test_merging_keeps_the_rows_not_run_again_and_refuses_another_limit() -> None:
    old = {"limit": 60.0, "environment": {"created": "earlier", "solvers": {"a": "1.0", "b": "1.0"}},
           "solve": [{"config": "A", "solver": "a", "largest_n": 10}, {"config": "B", "solver": "b", "largest_n": 20}],
           "count": [{"config": "C", "largest_n": 8, "count": 92}]}
    new = {"limit": 60.0, "environment": {"created": "now", "solvers": {"b": "2.0"}},
           "solve": [{"config": "B", "solver": "b", "largest_n": 40}, {"config": "D", "solver": "d", "largest_n": 5}],
           "count": []}
    merged = merge_frontier(new, old)
    assert [(r["config"], r["largest_n"], r["created"]) for r in merged["solve"]] == [
        ("A", 10, "earlier"), ("B", 40, "now"), ("D", 5, "now")]
    assert merged["count"] == [{**old["count"][0], "created": "earlier"}]
    assert merged["kept"] == {"configs": ["A", "C"]}
    assert merged["environment"]["solvers"] == {"a": "1.0", "b": "2.0"}
    table = frontier_table(merged)
    assert "| A (run of earlier) |" in table and "| B |" in table and "run of now" in table
    again = merge_frontier({"limit": 60.0, "environment": {"created": "later"},
                            "solve": [{"config": "B", "solver": "b", "largest_n": 41}], "count": []}, merged)
    assert [(r["config"], r["created"]) for r in again["solve"]] == [("A", "earlier"), ("B", "later"), ("D", "now")]
    with pytest.raises(InputError, match="limit of 60.0 s, this one with 10.0 s"):
        merge_frontier({"limit": 10.0, "solve": [], "count": []}, old)


def test_the_tables_go_between_the_markers_or_the_page_is_refused() -> None:
    from nqueens_kit.bench.frontier import TABLES_BEGIN, TABLES_END, with_frontier_tables

    record = {"limit": 60.0, "solve": [{"config": "construct", "solver": None, "largest_n": 64, "seconds": 0.001,
                                        "peak_rss_mb": 40.0, "first_failure": None}], "count": []}
    page = f"before\n{TABLES_BEGIN} -->\nold table\n{TABLES_END}\nafter\n"
    out = with_frontier_tables(page, record)
    assert "old table" not in out and out.startswith("before\n") and out.endswith(f"{TABLES_END}\nafter\n")
    assert "| construct |  | 64 |" in out
    assert with_frontier_tables(out, record) == out
    with pytest.raises(InputError, match="no place for the frontier tables"):
        with_frontier_tables("no markers here\n", record)


def test_a_merged_frontier_keeps_each_rows_machine_and_the_table_names_them() -> None:
    old = {"limit": 60, "solve": [{"config": "a", "largest_n": 8}], "count": [],
           "environment": {"created": "2026-01-01T10:00:00+00:00", "machine": {"cpu": "Old CPU"}}}
    new = {"limit": 60, "solve": [{"config": "b", "largest_n": 9}], "count": [],
           "environment": {"created": "2026-02-01T10:00:00+00:00", "machine": {"cpu": "New CPU"}}}
    merged = merge_frontier(new, old)
    assert [(r["config"], r["cpu"]) for r in merged["solve"]] == [("a", "Old CPU"), ("b", "New CPU")]
    table = frontier_table(merged)
    assert "New CPU (runs of 2026-02-01); Old CPU (runs of 2026-01-01)" in table and "same machine" not in table


def test_standing_places_a_row_among_the_other_searching_methods_by_largest_n() -> None:
    from nqueens_kit.bench.frontier import standing

    record = {"solve": [{"config": "SAT a", "method": "sat", "largest_n": 10},
                        {"config": "ILP b", "method": "ilp", "largest_n": 20},
                        {"config": "SAT c", "method": "sat", "largest_n": 20},
                        {"config": "CP d", "method": "cp", "largest_n": 40},
                        {"config": "ILP e", "method": "ilp", "largest_n": 5},  # ILP rows are not compared
                        {"config": "SAT f", "method": "sat", "largest_n": None},  # solved none: behind
                        {"config": "construct", "method": "construct", "largest_n": 4096},  # no search
                        {"config": "other", "method": "no-such-method", "largest_n": 8}]}  # unknown here
    assert standing(record, "ILP b") == {"behind": ["SAT a", "SAT f"], "level": ["SAT c"], "ahead": ["CP d"]}
    with pytest.raises(InputError, match="no solved row 'ILP x'.*SAT a, ILP b"):
        standing(record, "ILP x")
    with pytest.raises(InputError, match="no solved row 'SAT f'"):
        standing(record, "SAT f")
    stored = json.loads(STORED.read_text(encoding="utf-8"))
    where = standing(stored, "ILP lines/highs")
    searching = [r["config"] for r in stored["solve"] if r["method"] != "ilp" and r["config"] != "construct"]
    assert sorted(where["behind"] + where["level"] + where["ahead"]) == sorted(searching)
