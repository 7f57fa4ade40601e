"""The template of each solver family (:mod:`nqueens_kit.solvers.templates`) passes the whole entry contract as it
is: registered for the test alone, every check of :mod:`tests.entry_contract` that applies to it finds nothing, and
the kit's commands run it like any entry."""

from __future__ import annotations

import json

import pytest

from nqueens_kit.cli import main
from nqueens_kit.methods import get_method
from nqueens_kit.problem.reference import published_count
from nqueens_kit.solvers import SAT_SOLVERS, registry
from nqueens_kit.solvers.templates.cp import TEMPLATE_CP
from nqueens_kit.solvers.templates.ilp import TEMPLATE_ILP
from nqueens_kit.solvers.templates.sat import TEMPLATE_SAT

from . import entry_contract as contract
from .conftest import need

TEMPLATES = {"sat": TEMPLATE_SAT, "ilp": TEMPLATE_ILP, "cp": TEMPLATE_CP}


@pytest.fixture(params=sorted(TEMPLATES))
def template(request, monkeypatch):
    method_name = request.param
    entry = TEMPLATES[method_name]
    need(entry.available(), f"{entry.name} ({entry.install_hint()})")
    monkeypatch.setitem(SAT_SOLVERS if method_name == "sat" else registry(method_name), entry.name, entry)
    return get_method(method_name), entry


@pytest.mark.slow
def test_a_template_passes_the_whole_contract(template, tmp_path) -> None:
    method, entry = template
    assert contract.every_claim(method, entry.name, str(tmp_path)) == []


def test_a_template_declares_only_what_it_does(template) -> None:
    """Nothing beyond its verbs, features and variants: no proofs, assumptions or incremental solving it lacks."""
    method, entry = template
    claims = entry.capabilities
    assert not (claims.proofs or claims.assumptions or claims.incremental or claims.cardinality)
    assert entry.verbs == method.verbs and entry.features <= method.features
    assert entry.marker not in {e.marker for e in method.solvers().values() if e is not entry}


def test_a_template_runs_from_the_command_line(template, capsys) -> None:
    method, entry = template
    assert main(["count", "6", "--method", method.name, "--solver", entry.name, "--json"]) == 0
    counted = json.loads(capsys.readouterr().out)
    assert counted["count"] == published_count(6) and counted["solver"] == entry.name
    assert main(["solve", "3", "--method", method.name, "--solver", entry.name, "--json"]) != 0  # no board: says so
    assert json.loads(capsys.readouterr().out)["status"] == "infeasible"


@pytest.mark.parametrize(("method_name", "line", "name"), [("ilp", "templates.ilp:TemplateIlp", "template-ilp"),
                                                          ("cp", "templates.cp:TemplateCp", "template-cp")])
def test_an_ilp_or_cp_entry_is_one_registry_line(monkeypatch, method_name: str, line: str, name: str) -> None:
    """The registry's line ``module:Class`` is all it takes: the template is made, checked and listed."""
    import nqueens_kit.solvers as solvers

    monkeypatch.setitem(solvers.ENTRIES, method_name, (*solvers.ENTRIES[method_name], line))
    monkeypatch.setattr(solvers, "_MADE", {})
    made = solvers.registry(method_name)
    assert list(made)[-1] == name and type(made[name]).__name__ == line.rpartition(":")[2]
    assert name in get_method(method_name).solvers()


def test_the_cp_template_runs_beside_highspy(monkeypatch) -> None:
    """Where OR-Tools cannot be loaded (highspy is), the template's solver runs in a fresh interpreter, and says so
    when that ends without an answer rather than listing boards cut short."""
    from nqueens_kit.methods import count, solve
    from nqueens_kit.problem.board import Problem
    from nqueens_kit.solvers.templates import cp as template

    need(TEMPLATE_CP.available(), TEMPLATE_CP.install_hint())
    monkeypatch.setitem(registry("cp"), TEMPLATE_CP.name, TEMPLATE_CP)
    monkeypatch.setattr(template, "must_isolate", lambda: True)
    result = solve(Problem(8, preplaced=[(1, 1)]), "cp", solver=TEMPLATE_CP.name, isolated=False)
    assert result.status == "solved" and result.verified and (1, 1) in result.queens
    assert count(6, "cp", solver=TEMPLATE_CP.name, isolated=False).count == published_count(6)
