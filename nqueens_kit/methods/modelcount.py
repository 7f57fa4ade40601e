"""Counting without enumerating: an exact projected model counter (Ganak, through ``pyganak``).

Enumeration finds every board, one solver call (or blocking clause) each.  A model counter counts the
models of a formula without listing them: it splits the formula into independent parts, caches the counts
of parts it has seen, and multiplies.  *Projected* counting counts the distinct assignments of a chosen set
of variables (here the n² board variables) over all models: exactly the number of boards, whatever helper
variables an encoding adds.  Without the projection the helpers are counted too, and for the encodings
whose helpers are free on lines without a queen the count explodes (chapter 7 shows by how much).

>>> model_count(6).count, model_count(6, "sequential").count
(4, 4)
"""

from __future__ import annotations

import time
from typing import Any

from ..errors import InputError, SolverNotAvailable
from ..problem.board import Problem
from ..problem.results import CountResult, Status
from ..runtime import isolate
from ..runtime.limits import check_time_limit

INSTALL_HINT = "pip install pyganak (or nqueens-kit[count]); it has wheels for Linux and macOS"


def available() -> bool:
    from ..solvers.base import importable

    return importable("pyganak")


def _job(problem: Problem, encoding: str, project: bool, break_symmetry: bool) -> tuple[int, int, int]:
    import pyganak

    from .sat.cnf import build_cnf

    cnf = build_cnf(problem, encoding)
    clauses, top = cnf.clauses, cnf.num_vars
    if break_symmetry:
        from ..inside.symmetry import lex_leader_clauses

        extra, top = lex_leader_clauses(problem.n, cnf.num_vars + 1)
        clauses = clauses + extra
    counter = pyganak.Counter(verbose=0)
    counter.new_vars(top)
    counter.add_clauses(clauses)
    if project:
        counter.set_sampling_set(range(1, cnf.board_vars + 1))
    return int(counter.count()), top, len(clauses)


def model_count(problem: Problem | int, encoding: str = "pairwise", project: bool = True,
                break_symmetry: bool = False, time_limit: Any = None) -> CountResult:
    """Count the boards of ``problem`` with Ganak, projected on the board variables (``project=False``
    counts every model, helpers included).  ``break_symmetry`` adds the lex-leader constraints of
    :mod:`nqueens_kit.inside.symmetry`, so the count is that of the fundamental solutions.  Runs in a child
    process under ``time_limit`` (a model counter has no partial count to report: a stopped count is 0)."""
    from .sat.encodings import get_encoding

    problem = problem if isinstance(problem, Problem) else Problem(problem)
    get_encoding(encoding)
    if break_symmetry:
        from ..inside.symmetry import require_empty_board

        require_empty_board(problem)
    limit = check_time_limit(time_limit)
    if not available():
        raise SolverNotAvailable(f"the model counter is not installed; {INSTALL_HINT}")
    start = time.monotonic()
    run = isolate.run_in_child(_job, (problem, encoding, project, break_symmetry), time_limit=limit)
    result = CountResult(n=problem.n, count=0, method="model-count", variant=encoding, solver="ganak",
                         preplaced=problem.preplaced)
    if run.status == "done":
        result.count, variables, clauses = run.value
        result.extra.update(projected=project, variables=variables, clauses=clauses)
        if break_symmetry:
            result.fundamental = result.count
            result.extra["break_symmetry"] = True
        result.note = ("boards counted by Ganak, projected on the board variables" if project else
                       "every model counted, helper variables included (not the number of boards)")
    else:
        run.raise_error()
        result.status = Status.TIMEOUT if run.status == "timeout" else Status.MEMOUT
        result.note = f"Ganak did not finish within {limit:g} s; a model counter has no partial count" \
            if run.status == "timeout" else "Ganak ran out of memory"
    result.seconds = time.monotonic() - start
    return result


def check_options(fundamental: bool) -> None:
    if fundamental:
        raise InputError("--method model-count counts boards without listing them, so it cannot sort them into "
                         "fundamental ones; use --break-symmetry to count the fundamental solutions")
