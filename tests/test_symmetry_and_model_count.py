"""Symmetry breaking leaves exactly the canonical boards; model counting agrees with the published counts."""

from __future__ import annotations

import json
from pathlib import Path

import pycosat
import pytest

from nqueens_kit import ENCODINGS, Problem, build_cnf, count, iter_boards, solve
from nqueens_kit.cli import main
from nqueens_kit.errors import InputError
from nqueens_kit.methods.sat.cnf import lex_leader_size
from nqueens_kit.methods.search.backtrack import iter_backtrack
from nqueens_kit.problem.board import canonical, orbit
from nqueens_kit.problem.reference import published_count


def broken(n: int) -> Problem:
    return Problem(n, break_symmetry=True)


@pytest.mark.parametrize("n", range(1, 10))
def test_sat_keeps_exactly_the_canonical_boards(n: int) -> None:
    boards = set(iter_boards(broken(n), "sat"))
    truth = {canonical(n, b) for b in iter_backtrack(Problem(n))}
    assert boards == truth
    assert len(boards) == published_count(n, fundamental=True)


@pytest.mark.parametrize("encoding", list(ENCODINGS))
def test_every_encoding_with_symmetry_breaking(encoding: str) -> None:
    for n in (5, 6, 7, 8):
        assert count(broken(n), "sat", encoding).count == published_count(n, fundamental=True)


def test_the_lex_leader_helpers_are_defined() -> None:
    """Each board has exactly one model, so even pycosat's all-variable itersolve counts right."""
    cnf = build_cnf(broken(7))
    models = list(pycosat.itersolve(cnf.clauses, vars=cnf.num_vars))
    assert len(models) == published_count(7, fundamental=True)
    assert len({cnf.decode(m) for m in models}) == len(models)
    helpers, clauses = lex_leader_size(7)
    plain = build_cnf(7)
    assert (cnf.num_vars - plain.num_vars, cnf.num_clauses - plain.num_clauses) == (helpers, clauses)


def test_ilp_with_symmetry_breaking() -> None:
    result = count(broken(6), "ilp")
    assert result.count == published_count(6, fundamental=True) == 1
    assert count(broken(5), "ilp", solver="highs").count == 2


def test_one_board_is_canonical() -> None:
    for method in ("sat", "ilp", "backtrack", "construct"):
        result = solve(broken(10), method)
        assert result.status == "solved" and result.verified, method
        assert canonical(10, result.queens) == tuple(sorted(result.queens))
        assert len(orbit(10, result.queens)) in (1, 2, 4, 8)
    assert solve(broken(3)).status == "infeasible"


def test_refusals(capsys) -> None:
    with pytest.raises(InputError, match="empty board"):
        Problem(8, [(1, 1)], break_symmetry=True)
    assert main(["count", "8", "--break-symmetry", "--fundamental"]) == 2
    assert "drop fundamental" in capsys.readouterr().err
    assert main(["count", "8", "--method", "model-count", "--fundamental"]) == 2
    assert "--break-symmetry" in capsys.readouterr().err
    assert main(["count", "8", "--no-projection"]) == 2
    assert "--method sat" in capsys.readouterr().err


def test_cli_counts(capsys) -> None:
    assert main(["count", "9", "--break-symmetry", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["count"] == data["fundamental"] == 46 and data["break_symmetry"] is True


@pytest.mark.parametrize("encoding", list(ENCODINGS))
def test_model_count_projected_is_the_number_of_boards(encoding: str) -> None:
    pytest.importorskip("pyganak")
    for n in (1, 2, 3, 4, 5, 6, 7):
        assert count(n, "model-count", encoding).count == published_count(n), (n, encoding)
    placed = Problem(8, [(1, 1)])
    assert count(placed, "model-count", encoding).count == sum(1 for _ in iter_backtrack(placed))


def test_model_count_without_projection_counts_helpers_too(capsys) -> None:
    pytest.importorskip("pyganak")
    assert count(6, "model-count", "pairwise", settings="unprojected").count == 4  # no helpers: the same
    helpers = count(6, "model-count", "binary", settings="unprojected")
    assert helpers.count > 4 and helpers.extra["projected"] is False
    assert count(broken(8), "model-count").count == 12
    assert main(["count", "7", "--method", "model-count", "--encoding", "sequential", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["count"] == 40 and data["encoding"] == "sequential" and data["solver"] == "ganak"


# -- chapter 7's stored counts: written by benchmarks/bench_ch7_counts.py, read by the chapter ---------------

STORED_COUNTS = Path(__file__).resolve().parents[1] / "notebooks" / "data" / "ch7-model-counts.csv"


def test_the_stored_counts_are_the_published_ones_and_what_the_kit_counts_now() -> None:
    """The chapter reads n = 8 from the file and counts n = 6 live against it: the file must hold every
    encoding at every n it claims, boards equal to the published counts, and, for the small boards, the
    models today's encodings give (a changed encoding would make the stored unprojected counts stale)."""
    from nqueens_kit.inside.counting import count_effort, read_counts

    pytest.importorskip("pyganak")
    stored = read_counts(STORED_COUNTS)
    sizes = sorted({n for n, _ in stored})
    assert {(n, e) for n in sizes for e in ENCODINGS} == set(stored) and {6, 8} <= set(sizes)
    assert all(row["boards"] == published_count(n) and row["models"] >= row["boards"] for (n, _), row in stored.items())
    assert all(row[k] > 0 for row in stored.values() for k in ("count_seconds", "models_seconds", "enumeration_seconds"))
    for encoding in ENCODINGS:
        live = count_effort(6, encoding)
        assert (live["boards"], live["models"]) == (stored[6, encoding]["boards"], stored[6, encoding]["models"])
        assert live["count_seconds"] > 0 and live["enumeration_seconds"] > 0
    assert stored[8, "pairwise"]["models"] == 92 < stored[8, "binary"]["models"]  # pairwise has no helpers


def test_count_effort_without_the_unprojected_count_and_its_refusals(tmp_path) -> None:
    from nqueens_kit.inside.counting import COUNT_COLUMNS, count_effort, read_counts, write_counts

    pytest.importorskip("pyganak")
    row = count_effort(5, "pairwise", unprojected=False, repeat=2)
    assert row["boards"] == 10 and row["models"] is None and row["models_seconds"] is None
    path = tmp_path / "counts.csv"
    write_counts([count_effort(4, "sequential")], path)
    back = read_counts(path)[4, "sequential"]
    assert (back["boards"], back["models"]) == (2, 32) and set(back) == set(COUNT_COLUMNS)
    for bad in (0, True, "8"):
        with pytest.raises(InputError, match="n must be"):
            count_effort(bad)  # type: ignore[arg-type]
    with pytest.raises(InputError, match="repeat"):
        count_effort(5, repeat=0)
    with pytest.raises(InputError, match="cannot read the stored counts"):
        read_counts(tmp_path / "missing.csv")
    (tmp_path / "other.csv").write_text("n,encoding\n4,pairwise\n")
    with pytest.raises(InputError, match="needs the columns"):
        read_counts(tmp_path / "other.csv")
