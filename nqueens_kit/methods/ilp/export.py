"""The model as a file for other solvers: :func:`export_model` writes LP (the kit's own streamed writer,
:func:`lp_text` / :func:`write_lp`) or MPS (PuLP's), after :func:`export_size` has predicted the file's size
and the disk has been checked for room.  :mod:`.model` re-exports every public name here.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from ...errors import InputError
from ...problem.board import MAX_LISTED_N, Cell, Problem
from ...runtime.files import output_path, written_whole
from ...runtime.limits import Size, builder_budget, check_room, check_size, human_bytes
from ...solvers.ilp_pulp import pulp_module
from .build import _as_problem, build_model
from .formulations import DEFAULT_FORMULATION, Formulation, get_formulation

if TYPE_CHECKING:  # PuLP has no type information: these names say what the objects are
    pass


#: First line of an exported ``max-queens`` MPS file (an MPS comment), saying why the objective is negated.
MPS_MAX_NOTE = "* max-queens: maximise the number of queens, written as minimise -(number of queens)"


#: The longest line of an LP file before a term wraps onto the next (PuLP's ``LpCplexLPLineSize``).
LP_LINE_SIZE = 78


#: Memory the LP text writer needs beside the interpreter: one line's terms at a time, and the orders of
#: the rows and columns (measured: a peak 1.2 MB above the interpreter's at n = 1000, 5 MB at n = 4000).
LP_WRITER_BYTES = 32 * 1024**2


#: The largest LP file written (about n = 4000 in the lines formulation, 330 in the pairwise one, which grows
#: as n³): writing 4 GB of text takes minutes, and no solver reads such a file in reasonable time.
LP_MAX_BYTES = 4 * 1024**3


def export_size(problem: Problem | int, formulation: str | Formulation, path: str | os.PathLike[str]) -> Size:
    """The predicted size of :func:`export_model`'s work: the model's own size, with the memory of the path
    it takes.  An LP file of a problem without symmetry breaking is written as text, line by line, in a
    few megabytes; an MPS file (or a model with lex-leader constraints) is built as a PuLP model first."""
    problem = _as_problem(problem)
    form = get_formulation(formulation)
    size = form.size(problem)
    if _written_as_text(problem, Path(os.fspath(path))):
        return replace(size, memory=LP_WRITER_BYTES + 64 * problem.n)
    return size


def _written_as_text(problem: Problem, target: Path) -> bool:
    """Whether :func:`export_model` writes ``target`` with :func:`write_lp` (no PuLP model built)."""
    return target.suffix.lower() == ".lp" and not problem.break_symmetry


def _name_orders(n: int) -> tuple[list[int], list[int]]:
    """The rows and the columns in the order PuLP sorts the names ``x_R_C`` (as text): by ``R_`` first, where
    ``x_10_1`` comes before ``x_1_1`` since ``0`` sorts before ``_``, then by ``C`` as text."""
    rows = range(1, n + 1)
    return sorted(rows, key=lambda r: f"{r}_"), sorted(rows, key=str)


def _wrapped(head: str, names: Iterable[str], tail: str) -> Iterator[str]:
    """``head: a + b + ... tail`` as PuLP writes an expression, line by line: a term that would take a line
    past :data:`LP_LINE_SIZE` characters starts the next line."""
    line = [head]
    count = len(head)
    first = True
    for name in names:
        term = f" {name}" if first else f" + {name}"
        first = False
        if count + len(term) > LP_LINE_SIZE:
            yield "".join(line) + "\n"
            line, count = [term], len(term)
        else:
            line.append(term)
            count += len(term)
    if tail:
        if count + len(tail) > LP_LINE_SIZE:
            yield "".join(line) + "\n"
            line = [tail]
        else:
            line.append(tail)
    yield "".join(line) + "\n"


def lp_bytes(problem: Problem, form: Formulation) -> int:
    """About how many bytes the LP file of ``problem`` takes (within a few per cent): a name and ``+`` per
    non-zero, a name and its sense per constraint, a line per binary."""
    size = form.size(problem)
    digits = len(str(problem.n))
    return ((size.nonzeros or 0) * (2 * digits + 6) + (size.constraints or 0) * (2 * digits + 16)
            + size.variables * (2 * digits + 4) + 200)


def lp_text(problem: Problem | int, formulation: str | Formulation = DEFAULT_FORMULATION) -> Iterator[str]:
    """The LP file of the model :func:`build_model` builds, piece by piece, as PuLP's ``writeLP`` writes it
    (the same name, sense, objective, constraints by name, terms by variable name, lines wrapped at 78
    characters, bounds and binaries), without building the model: O(n) memory and text at the speed of
    string joins.  Symmetry breaking (lex-leader) is PuLP's to write: :func:`export_model` builds that model.

    >>> text = "".join(lp_text(Problem(4, [(1, 2)])))
    >>> "row_1: x_1_1 + x_1_2 + x_1_3 + x_1_4 = 1" in text, "placed_1_2: x_1_2 = 1" in text
    (True, True)
    """
    problem = _as_problem(problem)
    form = get_formulation(formulation)
    if problem.break_symmetry:
        raise InputError("the lex-leader constraints of symmetry breaking are written through PuLP: "
                         "use export_model")
    n = problem.n
    if n > MAX_LISTED_N:
        raise InputError(f"the {form.name} ILP model of {n}-queens would have {4 * n * n:,} terms in its LP file, "
                         f"more than the {4 * MAX_LISTED_N**2:,} of n = {MAX_LISTED_N:,}, the largest an LP file is "
                         "written for; use a smaller n")
    row_order, col_order = _name_orders(n)
    rank = {r: i for i, r in enumerate(row_order)}
    exact = "=" if form.exact_lines else "<="

    def name(r: int, c: int) -> str:
        return f"x_{r}_{c}"

    def line(kind: str, index: int) -> str:
        if kind == "row":
            terms = [name(index, c) for c in col_order]
        elif kind == "col":
            terms = [name(r, index) for r in row_order]
        else:
            terms = [name(r, c) for r, c in _diagonal(kind, index)]
        return "".join(_wrapped(f"{kind}_{index}:", terms, f" {exact if kind in ('row', 'col') else '<='} 1"))

    def _diagonal(kind: str, index: int) -> list[Cell]:
        # diagonal d: r - c + n = d; anti-diagonal a: r + c - 1 = a (Problem.lines numbers them so)
        shift, sign = (n - index, 1) if kind == "diag" else (index + 1, -1)
        return [(r, shift + sign * r) for r in row_order if 1 <= shift + sign * r <= n]

    def pairs(kind: str, index: int) -> Iterator[str]:
        cells = sorted(_diagonal(kind, index))  # by row, as the formulation names a pair by its two rows
        named = sorted(((f"{a[0]}_{b[0]}", a, b) for i, a in enumerate(cells) for b in cells[i + 1:]))
        for label, a, b in named:
            first, second = (a, b) if rank[a[0]] < rank[b[0]] else (b, a)
            yield f"{kind}_{index}_pair_{label}: {name(*first)} + {name(*second)} <= 1\n"

    # (the constraint's name or, for a diagonal's pairs, their common prefix; kind; index or row; column)
    blocks = [(f"{kind}_{i}", kind, i, 0) for kind in ("row", "col") for i in range(1, n + 1)]
    blocks += [(f"{kind}_{i}_pair_" if form.pair_diagonals else f"{kind}_{i}", kind, i, 0)
               for kind in ("diag", "anti") for i in range(2, 2 * n - 1)]
    blocks += [(f"{word}_{r}_{c}", word, r, c) for word, cells in (("placed", problem.preplaced),
                                                                    ("blocked", problem.blocked)) for r, c in cells]
    blocks.sort()
    yield f"\\* queens_{n}_{form.name.replace('-', '_')} *\\\n"
    if form.maximise:
        yield "Maximize\n"
        yield from _wrapped("OBJ:", (name(r, c) for r in row_order for c in col_order), "")
    else:
        yield "Minimize\nOBJ: __dummy\n"
    yield "Subject To\n"
    for _key, kind, i, c in blocks:
        if kind in ("placed", "blocked"):
            yield f"{kind}_{i}_{c}: {name(i, c)} = {1 if kind == 'placed' else 0}\n"
        elif kind in ("diag", "anti") and form.pair_diagonals:
            yield from pairs(kind, i)
        else:
            yield line(kind, i)
    if not form.maximise:
        yield "Bounds\n __dummy = 0\n"
    yield "Binaries\n"
    for r in row_order:
        yield "".join(f"x_{r}_{c}\n" for c in col_order)
    yield "End\n"


def write_lp(problem: Problem | int, formulation: str | Formulation, path: str | os.PathLike[str]) -> None:
    """Write :func:`lp_text` to ``path`` (an OSError is the caller's to report)."""
    with open(path, "w", encoding="ascii", newline="\n") as out:
        for piece in lp_text(problem, formulation):
            out.write(piece)


def _check_disk(target: Path, size: int, what: str) -> None:
    """Refuse (one line) a file of about ``size`` bytes above :data:`LP_MAX_BYTES`, or where the disk of its
    draft (the temporary folder) or of ``target`` has less room free."""
    advice = "use a smaller n" + (" or --formulation lines" if "pairwise" in what else "")
    if size > LP_MAX_BYTES:
        raise InputError(f"{what} would have about {human_bytes(size)} of text, more than the "
                         f"{human_bytes(LP_MAX_BYTES)} an LP file is written up to (no solver reads it in reasonable "
                         f"time); {advice}")
    for folder in {tempfile.gettempdir(), os.path.dirname(os.path.abspath(target))}:
        try:
            free = shutil.disk_usage(folder).free
        except OSError:
            continue
        if size > free:
            raise InputError(f"{what} would take about {human_bytes(size)}, more than the {human_bytes(free)} free "
                             f"in {folder}; {advice}")


def export_model(problem: Problem | int, formulation: str | Formulation, path: str | os.PathLike[str],
                 max_memory: object = None) -> Path:
    """Write the model as ``.lp`` or ``.mps`` (chosen by the suffix) for other solvers to read.

    An LP file is written as text by :func:`lp_text` (what PuLP's ``writeLP`` writes, without the model: O(n)
    memory, n = 1000 in seconds); an MPS file, or a model with symmetry breaking, is built with PuLP and
    written by it.  Either way the size guard runs first (:func:`export_size`, ``max_memory`` as for
    :func:`build_model`).

    An LP file says ``Maximize`` for ``max-queens``.  MPS has no sense every reader agrees on: CBC 2.10
    ignores an ``OBJSENSE`` section and HiGHS honours it, so the MPS file of ``max-queens`` minimises
    minus the number of queens (optimum -n), which every reader solves alike.

    The file appears whole or not at all (:func:`~nqueens_kit.runtime.files.written_whole`): PuLP writes a
    draft in a private temporary folder, which is then copied into place; a full disk leaves no partial file
    and an older file at ``path`` as it was.
    """
    text = os.fspath(path) if isinstance(path, (str, os.PathLike)) else None
    if not isinstance(text, str):
        raise InputError(f"a model file is named by a path such as model.lp or model.mps, not {str(path)[:40]!r}")
    if not text.strip():
        raise InputError("a model file is named by a path such as model.lp or model.mps, not an empty string")
    if "\0" in text:
        raise InputError(f"a path cannot hold a NUL character: {text[:40]!r}")
    if text.endswith(("/", os.sep)):
        raise InputError(f"cannot write {text[:80]!r}: a path ending in {text[-1]} names a folder; "
                         "name a file FILE.lp or FILE.mps")
    target = Path(text)
    suffix = target.suffix.lower()
    if suffix not in (".lp", ".mps"):
        raise InputError(f"cannot tell the format of {str(target)!r}: name the file FILE.lp or FILE.mps")
    form = get_formulation(formulation)
    try:
        if target.is_dir():
            raise InputError(f"cannot write {target}: it is a folder; name a file FILE.lp or FILE.mps")
        output_path(target, "a model file")
    except OSError as exc:
        raise InputError(f"cannot write {target}: {exc.strerror or exc}") from None
    problem = _as_problem(problem)
    if _written_as_text(problem, target):  # no PuLP model: the text alone, in a few megabytes (export_size)
        what = f"writing the {form.name} LP file of {problem.n}-queens"
        check_size(export_size(problem, form, target), what, "use a smaller n", builder_budget(max_memory))
        check_room(export_size(problem, form, target), what, "use a smaller n")
        _check_disk(target, lp_bytes(problem, form), f"the {form.name} LP file of {problem.n}-queens")
        model = None
    else:
        model = build_model(problem, form, max_memory=max_memory)
    try:
        drafts = tempfile.TemporaryDirectory(prefix="nqueens-kit-model-")
    except OSError as exc:
        raise InputError(f"cannot write {target}: no temporary folder for the draft ({exc.strerror or exc})") from None
    with drafts as scratch:
        draft = Path(scratch) / f"model{suffix}"
        try:
            if model is None:
                write_lp(problem, form, draft)
            elif suffix == ".lp":
                model.prob.writeLP(str(draft))
            else:
                pulp = pulp_module()
                if form.maximise:
                    # Negated here: PuLP 3 and 4 disagree on what writeMPS does with a maximisation.
                    model.prob.sense = pulp.LpMinimize
                    model.prob.setObjective(-pulp.lpSum(list(model.x.values())))
                model.prob.writeMPS(str(draft))
        except OSError as exc:
            raise InputError(f"cannot write {target}: {exc.strerror or exc}; nothing was written") from None
        with written_whole(target, encoding="ascii") as out, open(draft, encoding="ascii") as drafted:
            if suffix == ".mps" and form.maximise:
                out.write(f"{MPS_MAX_NOTE}\n")
            shutil.copyfileobj(drafted, out)
    return target
