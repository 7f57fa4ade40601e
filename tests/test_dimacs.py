"""The two readers of nqueens_kit.formats.dimacs: DIMACS CNF files and SAT solvers' answers.

Three parts: the behaviour the kit has always had (round trips, tolerated forms, messages), regression
tests for the bugs a fuzz run found (each failed on the earlier reader), and a hypothesis fuzz test that
feeds both readers generated and mutated files and checks that the only exceptions are the kit's one-line
errors and that whatever is accepted is consistent.
"""

from __future__ import annotations

import functools
import io
import re
import time
import tracemalloc
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nqueens_kit.errors import DimacsError, InputError
from nqueens_kit.formats import dimacs, solver_output
from nqueens_kit.formats.dimacs import MAX_CLAUSES, MAX_VARIABLES, parse_dimacs, read_dimacs, write_dimacs_clauses
from nqueens_kit.formats.solver_output import SolverAnswer, SolverOutputReader, parse_solver_output, read_solver_output
from nqueens_kit.methods.sat.cnf import build_cnf, dimacs_text, write_dimacs
from nqueens_kit.methods.sat.encodings import ENCODINGS
from nqueens_kit.problem.board import Problem, verify

# --------------------------------------------------------------------------------------------------------
# CNF files: what has always been read


@pytest.mark.parametrize("encoding", list(ENCODINGS))
def test_dimacs_round_trip(encoding, tmp_path):
    cnf = build_cnf(Problem(7, [(3, 3)]), encoding)
    path = write_dimacs(cnf, tmp_path / "q.cnf")
    back = read_dimacs(path)
    assert back.num_vars == cnf.num_vars and back.clauses == cnf.clauses
    assert any("variable (r-1)*7 + c" in c for c in back.comments)
    assert parse_dimacs(dimacs_text(cnf, comments=False)).clauses == cnf.clauses


def test_dimacs_tolerant_forms():
    text = "c hello\np cnf 3 3\n1 -2\n 3 0 -1 0\nc inside\n2\n0"  # wrapped, two per line, no newline
    d = parse_dimacs(text)
    assert d.clauses == [[1, -2, 3], [-1], [2]] and d.comments == ["hello", "inside"]
    assert parse_dimacs("p cnf 2 1\n1 2 0\n%\n0\n").clauses == [[1, 2]]  # SATLIB end marker
    assert parse_dimacs("p cnf 2 1\r\n1 2 0\r\n").clauses == [[1, 2]]
    assert parse_dimacs("p cnf 2 1\r1 2 0\r").clauses == [[1, 2]]  # old Mac line ends
    assert parse_dimacs("p cnf 49 0\n").board_size() == 7
    assert parse_dimacs("p\tcnf  3\t2\n1\t-3 0 0\n").clauses == [[1, -3], []]  # tabs; the empty clause
    assert parse_dimacs("c ² and ✓ are fine in comments\np cnf 2 1\nc ١٢٣\n-2 0\n").comments[1] == "١٢٣"
    assert parse_dimacs(b"p cnf 2 1\n1 0\nc \xff\n").clauses == [[1]]  # bytes; a bad byte in a comment
    assert parse_dimacs("p cnf 000002 1\n-0002 0\n").clauses == [[-2]]  # leading zeros


@pytest.mark.parametrize(
    ("text", "fragment"),
    [("1 2 0\n", ":1: clause before"), ("p cnf 2\n1 0\n", ":1: expected 'p cnf"),
     ("p cnf 2 1\n1 x 0\n", ":2: 'x' is not an integer"), ("p cnf 2 1\n1 3 0\n", ":2: literal 3 is outside"),
     ("p cnf 2 2\n1 0\n", ":1: the header declares 2 clauses but the file has 1"),
     ("p cnf 2 1\n1 2\n", ":2: the last clause is not ended by 0"), ("c only\n", "no 'p cnf"),
     ("p cnf 2 1\np cnf 2 1\n1 0\n", ":2: a second 'p' header"), ("p dnf 2 1\n1 0\n", ":1: expected"),
     ("hello\n", ":1: expected 'c' comments, then the 'p cnf"), ("p cnf 2 1\n1 - 2 0\n", ":2: '-' is not"),
     ("p cnf 2 1\n1 2 0 c\n", ":2: 'c' is not an integer")],
)
def test_dimacs_errors_name_the_line(text, fragment):
    with pytest.raises(DimacsError) as err:
        parse_dimacs(text, source="f.cnf")
    assert fragment in str(err.value) and str(err.value).startswith("f.cnf") and "\n" not in str(err.value)


def test_read_dimacs_missing_and_folder(tmp_path):
    with pytest.raises(InputError, match="no such file"):
        read_dimacs(tmp_path / "nope.cnf")
    with pytest.raises(InputError, match="is a folder"):
        read_dimacs(tmp_path)
    with pytest.raises(InputError, match="cannot write"):
        write_dimacs(build_cnf(4), tmp_path / "missing" / "x.cnf")


@given(st.lists(st.lists(st.integers(-30, 30).filter(bool), min_size=1, max_size=6), max_size=20))
@settings(max_examples=80, deadline=None)
def test_parse_inverts_write(clauses):
    out = io.StringIO()
    write_dimacs_clauses(out, 30, clauses, comments=["x"])
    assert parse_dimacs(out.getvalue()).clauses == clauses


# --------------------------------------------------------------------------------------------------------
# CNF files: regressions


@pytest.mark.parametrize("text", ["p cnf 2² 1\n1 0\n", "p cnf 2 1²\n1 0\n", "p cnf ٣ 1\n1 0\n"])
def test_unicode_digits_are_an_error_not_a_crash(text):
    """str.isdigit() and int() take '²' and '٣': the grammar is ASCII digits only."""
    with pytest.raises(DimacsError, match=r"^f\.cnf:1: expected 'p cnf VARIABLES CLAUSES' \(two ASCII whole") as err:
        parse_dimacs(text, source="f.cnf")
    assert "\n" not in str(err.value)


@pytest.mark.parametrize("line", ["１ -2 0", "٣ -2 0", "1\u00a0-2 0", "1\u2003-2 0", "1\u3000-2 0", "1\x1c-2 0",
                                  "1\x85-2 0", "+1 -2 0", "1_0 -2 0"])
def test_junk_outside_comments_is_refused(line):
    """Full-width and Arabic-Indic digits, Unicode spaces, control characters, '+', '_': int() and split()
    took them, so these lines were read as clauses."""
    with pytest.raises(DimacsError, match=r"^f\.cnf:2: "):
        parse_dimacs(f"p cnf 20 1\n{line}\n", source="f.cnf")
    assert parse_dimacs(f"c {line}\np cnf 3 1\n1 2 0\n").comments == [line]


@pytest.mark.parametrize(("text", "fragment"), [
    ("p cnf 2000000000 1\n1 0\n", "declares 2000000000 variables; the kit reads at most 10,000,000"),
    (f"p cnf {MAX_VARIABLES + 1} 1\n1 0\n", "the kit reads at most"),
    (f"p cnf {10 ** 30} 1\n1 0\n", "the kit reads at most"),
    (f"p cnf 3 {MAX_CLAUSES + 1}\n" + "1 0\n", "clauses; the kit reads at most"),
    ("p cnf 3 999999\n1 0\n", "declares 999,999 clauses but the file, 19 characters long, cannot hold"),
])
def test_declared_counts_are_capped(text, fragment):
    with pytest.raises(DimacsError, match=r"^f\.cnf:1: ") as err:
        parse_dimacs(text, source="f.cnf")
    assert fragment in str(err.value)


def test_caps_allow_the_limits():
    assert parse_dimacs(f"p cnf {MAX_VARIABLES} 1\n{-MAX_VARIABLES} 0\n").clauses == [[-MAX_VARIABLES]]


@pytest.mark.parametrize("literal", ["9" * 5000, "-" + "9" * 5000, "0" * 5000 + "7"])
def test_long_numbers_are_never_converted(literal):
    """int() of a 5,000-digit string fails on Python 3.11 and takes quadratic time on 3.10: a literal of
    more than nine significant digits is out of range before any conversion."""
    with pytest.raises(DimacsError, match=r"^f\.cnf:2: literal .* is outside the 3 variables"):
        parse_dimacs(f"p cnf 3 1\n1 {literal} 0\n", source="f.cnf")


def _seconds(function, *args):
    """Processor time of one call: what a busy machine disturbs least (the work of other processes is not in it)."""
    start = time.process_time()
    try:
        function(*args)
    except InputError:
        pass
    return time.process_time() - start


@functools.lru_cache(maxsize=1)
def _formula_lines() -> tuple[str, ...]:
    return tuple(" ".join(map(str, clause)) + " 0" for clause in build_cnf(64).clauses)


# Guards rather than regressions: the reader stays linear on pathological files.
@pytest.mark.parametrize("text", [
    "p cnf 1 1\n" + "1 " * 500_000 + "0\n",  # one enormous clause
    "p cnf 1 1\n" + "1" * 1_000_000 + " 0\n",  # one enormous number
    "p cnf " + "1" * 1_000_000 + " 1\n1 0\n",  # an enormous header
    "p cnf 1 1\n" + "0" * 1_000_000 + "1 0\n",  # zero padding
    "p cnf 1 1\n" + "-" * 1_000_000 + "\n",
    "c " + "x" * 1_000_000 + "\np cnf 1 1\n1 0\n",
    "p cnf 1 1\n" + "\n" * 500_000 + "1 0\n",
    "p cnf 1 1\n" + "1 0 c\n" * 125_000,
], ids=["clause", "number", "header", "zeros", "dashes", "comment", "blank lines", "trailing words"])
def test_reading_time_is_linear_on_pathological_files(text):
    """Each file is about 1 MB (a quadratic reader would take hours on it); reading it may not take much longer
    than reading a well-formed file of the same length (the n = 64 formula cut to size), both in processor
    time, measured in the same test."""
    kept = []
    size = 0
    for line in _formula_lines():
        if size > len(text):
            break
        kept.append(line)
        size += len(line) + 1
    reference = f"p cnf 4096 {len(kept)}\n" + "\n".join(kept) + "\n"
    assert len(parse_dimacs(reference).clauses) == len(kept)
    normal = min(_seconds(parse_dimacs, reference) for _ in range(2))
    odd = min(_seconds(parse_dimacs, text) for _ in range(2))
    assert odd < 20 * max(normal, 0.01), (odd, normal)


def test_bulk_blocks_cut_clauses_anywhere():
    """Clauses wrapped at random over 3 MB of text: the bulk reader's blocks end inside clauses."""
    import random

    rng = random.Random(7)
    clauses = [[rng.choice([-1, 1]) * rng.randint(1, 5000) for _ in range(rng.randint(0, 9))] for _ in range(150_000)]
    tokens = [str(lit) for clause in clauses for lit in clause + [0]]
    lines, i = [], 0
    while i < len(tokens):
        width = rng.randint(1, 40)
        lines.append(" ".join(tokens[i:i + width]))
        i += width
    text = f"p cnf 5000 {len(clauses)}\n" + "\n".join(lines) + "\n"
    assert len(text) > 3 * dimacs._BLOCK
    d = parse_dimacs(text)
    assert d.clauses == clauses and dimacs._parse_in_bulk(text, "<text>") == d  # not the careful path


def test_cnf_64_reads_fast_and_right():
    """Reading is within a small factor of the least any reader must do: split the text and convert every
    number (both in processor time, measured here, so that load cancels out)."""
    cnf = build_cnf(64)
    text = dimacs_text(cnf)
    start = time.process_time()
    back = parse_dimacs(text)
    reading = time.process_time() - start
    assert back.clauses == cnf.clauses and back.num_vars == 4096
    start = time.process_time()
    numbers = [int(word) for line in text.splitlines() if line[:1] not in ("c", "p") for word in line.split()]
    floor = time.process_time() - start
    assert len(numbers) > 400_000 and reading < 10 * floor, (reading, floor)


# --------------------------------------------------------------------------------------------------------
# Solver output: what has always been read


@pytest.mark.parametrize(
    ("text", "status", "model"),
    [("s SATISFIABLE\nv 1 -2\nv 3 0\n", "sat", [1, -2, 3]),
     ("c comment\ns UNSATISFIABLE\n", "unsat", None),
     ("s UNKNOWN\n", "unknown", None),
     ("SAT\n-1 2 0\n", "sat", [-1, 2]),
     ("UNSAT\n", "unsat", None),
     ("INDET\n", "unknown", None),
     ("SAT\n1 -2 3 0", "sat", [1, -2, 3]),
     ("1 -2 3 0\n", "sat", [1, -2, 3]),  # a bare model
     ("v 1 -2 0\nc late status\ns SATISFIABLE\n", "sat", [1, -2]),
     ("s satisfiable\r\nv 1 1 -2 0\r\n", "sat", [1, -2]),  # letter case, CRLF, a repeated literal
     ("s SATISFIABLE\ns SATISFIABLE\nv\nv 2 0\nv\n", "sat", [2]),  # the same status twice, empty v lines
     ("s SATISFIABLE\nv 0\n", "sat", [])],
)
def test_parse_solver_output(text, status, model):
    answer = parse_solver_output(text)
    assert (answer.status, answer.model, answer.complete, answer.note) == (status, model, True, "")
    assert tuple(answer) == (status, model)  # old callers unpack a pair


@pytest.mark.parametrize(("text", "fragment"), [
    ("", "no SAT/UNSAT answer found in the solver output (expected 's SATISFIABLE' or 'SAT'); the output is empty"),
    ("c only a comment\n", "its last line reads 'c only a comment'"),
    ("hello world", ":1: no SAT/UNSAT answer"),
    ("SAT\n1 x 0\n", ":2: 'x' is not an integer literal"),
    ("s SATISFIABLE\nSAT\n", ":2: 'SAT' is not a competition-format line"),
    ("SAT\nv 1 0\n", ":2: a competition-format 'v' line in MiniSat-format output"),
    ("v 1 0\n", ":1: a model but no status line"),
    ("s\n", ":1: a status line without a status"),
])
def test_parse_solver_output_errors(text, fragment):
    with pytest.raises(InputError) as err:
        parse_solver_output(text, source="out.txt")
    assert fragment in str(err.value) and str(err.value).startswith("out.txt") and "\n" not in str(err.value)


def test_all_false_model_is_not_a_board():
    """A solver output claiming SAT with every variable false decodes to no queens: verify says so."""
    answer = parse_solver_output("SAT\n" + " ".join(str(-v) for v in range(1, 50)) + " 0\n")
    board = build_cnf(7).decode(answer.model)
    assert answer.status == "sat" and answer.complete and board == () and not verify(7, board)


@pytest.mark.parametrize("solver", ["minisat", "cadical", "picosat"])
def test_real_solver_output(solver, tmp_path):
    import shutil
    import subprocess

    from .conftest import need

    need(shutil.which(solver) is not None, solver)
    for n, status in ((6, "sat"), (3, "unsat")):
        cnf = build_cnf(n)
        path = write_dimacs(cnf, tmp_path / f"q{n}.cnf")
        if solver == "minisat":
            subprocess.run([solver, str(path), str(tmp_path / "out")], capture_output=True)
            with open(tmp_path / "out", "rb") as stream:
                answer = read_solver_output(stream, solver, max_var=cnf.num_vars)
        else:
            proc = subprocess.Popen([solver, str(path)], stdout=subprocess.PIPE)
            answer = read_solver_output(proc.stdout, solver, max_var=cnf.num_vars)
            proc.stdout.close()
            proc.wait()
        assert answer.status == status and answer.complete
        if status == "sat":
            assert verify(n, cnf.decode(answer.model)) and len(answer.model) == cnf.num_vars


# --------------------------------------------------------------------------------------------------------
# Solver output: regressions


@pytest.mark.parametrize(("text", "fragment"), [
    ("s SATISFIABLE\nv 1 0\ns UNSATISFIABLE\n", ":3: 's UNSATISFIABLE' contradicts 's SATISFIABLE' on line 1"),
    ("SAT\n1 0\nUNSAT\n", ":3: 'UNSAT' contradicts 'SAT' on line 1"),
    ("s SATISFIABLE\nv 5 -3\nv -5 0\n", ":3: literal -5 contradicts 5 earlier in the model"),
    ("s SATISFIABLE\nv 1 0 2 0\n", ":2: literal 2 after the model's ending 0"),
    ("s SATISFIABLE\nv 1 0\nv 2 0\n", ":3: literal 2 after the model's ending 0 on line 2"),
    ("s UNSATISFIABLE\nv 1 0\n", ":2: a model, but line 1 says 's UNSATISFIABLE'"),
    ("v 1 0\ns UNKNOWN\n", ":2: 's UNKNOWN' but line 1 gives a model"),
    ("s FOO\n", ":1: unknown status 'FOO'; expected 's SATISFIABLE', 's UNSATISFIABLE' or 's UNKNOWN'"),
    ("s SAT\nv 1 0\n", ":1: unknown status 'SAT'"),
    ("s SATISFIABLE\nv 1 ² 0\n", ":2: non-ASCII character '²' (U+00B2) outside a comment line"),
    ("s SATISFIABLE\nv 1 １ 0\n", ":2: non-ASCII character"),
    (f"s SATISFIABLE\nv 1 {10 ** 30} 0\n", ":2: literal 100000000000000000000000... is beyond the 10,000,000"),
    (f"SAT\n{-(MAX_VARIABLES + 1)} 0\n", f":2: literal {-(MAX_VARIABLES + 1)} is beyond"),
])
def test_contradictory_or_malformed_answers_are_refused(text, fragment):
    with pytest.raises(InputError) as err:
        parse_solver_output(text, source="out.txt")
    assert fragment in str(err.value) and str(err.value).startswith("out.txt:") and "\n" not in str(err.value)


@pytest.mark.parametrize(("text", "note"), [
    ("s SATISFIABLE\nv 1 -2\nv 3\n", "the model is not ended by 0 (its last line is line 3)"),
    ("SAT\n1 -2 3", "the model is not ended by 0 (its last line is line 2)"),
    ("s SATISFIABLE\nc killed\n", "the output says 's SATISFIABLE' but gives no model"),
    ("SAT\n", "the output says 'SAT' but gives no model"),
])
def test_incomplete_answers_are_marked(text, note):
    answer = parse_solver_output(text)
    assert answer.status == "sat" and answer.complete is False and note in answer.note


def test_literals_beyond_the_formula_are_named():
    assert parse_solver_output("s SATISFIABLE\nv 1 -2 3 0\n", max_var=3).model == [1, -2, 3]
    with pytest.raises(InputError, match=r"^out:2: literal -4 is beyond the 3 variables of the formula$"):
        parse_solver_output("s SATISFIABLE\nv 1 -4 3 0\n", "out", max_var=3)
    with pytest.raises(InputError, match="max_var must be a whole number"):
        SolverOutputReader(max_var=-1)


def test_reader_fed_line_by_line_keeps_no_comments():
    reader = SolverOutputReader("pipe", max_var=4)
    for i in range(10_000):
        reader.feed(f"c progress {i}\n")
    for line in ["s SATISFIABLE", "v 1 -2", "v 3 -4 0"]:
        reader.feed(line)
    assert reader.tail == ("c progress 9996", "c progress 9997", "c progress 9998", "c progress 9999",
                           "s SATISFIABLE")
    assert reader.finish() == SolverAnswer("sat", [1, -2, 3, -4], True, "", "s SATISFIABLE")
    assert reader.lineno == 10_003


class _Chatty(io.RawIOBase):
    """A pipe printing a ``long_line``-byte comment, ``lines`` comment lines, then ``answer``, made on the fly."""

    def __init__(self, lines: int, answer: bytes, long_line: int = 0) -> None:
        def chunks():
            if long_line:
                yield b"c "
                for _ in range(long_line // 65536):
                    yield b"x" * 65536
                yield b"\n"
            for i in range(lines):
                yield b"c conflicts %d restarts %d -------------------------------------------\n" % (i, i // 7)
            yield answer

        self.chunks = chunks()
        self.chunk, self.offset = b"", 0

    def readable(self) -> bool:
        return True

    def readinto(self, target) -> int:
        if self.offset == len(self.chunk):
            self.chunk, self.offset = next(self.chunks, b""), 0
        size = min(len(target), len(self.chunk) - self.offset)
        target[:size] = self.chunk[self.offset:self.offset + size]
        self.offset += size
        return size


def test_streaming_memory_stays_bounded():
    """About 7 MB of comments (and one 8 MB comment line) through a pipe: memory stays near nothing."""
    stream = io.BufferedReader(_Chatty(100_000, b"s SATISFIABLE\nv -1 2 0\n", long_line=8_000_000))
    tracemalloc.start()
    try:
        answer = read_solver_output(stream, "chatty")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert answer == SolverAnswer("sat", [-1, 2], True, "", "s SATISFIABLE")
    assert peak < 6_000_000, peak
    assert not stream.closed  # the caller's stream is left open


def test_streaming_long_model_line_and_long_garbage_line():
    model = " ".join(str(-v if v % 3 else v) for v in range(1, 400_001))
    answer = read_solver_output(io.BytesIO(f"SAT\n{model} 0\n".encode()), max_var=400_000)
    assert answer.complete and len(answer.model) == 400_000 and answer.model[:3] == [-1, -2, 3]
    with pytest.raises(InputError, match="out:2: literal 5 contradicts -5"):
        read_solver_output(io.StringIO(f"s SATISFIABLE\nv {model} 5 0\n"), "out")
    with pytest.raises(InputError, match="neither a comment nor a model line"):
        read_solver_output(io.StringIO("s SATISFIABLE" + " " * 3_000_000 + "\n"), "out")
    with pytest.raises(InputError, match=r"out:2: literal 7777.*\.\.\. is beyond the 10,000,000 variables"):
        read_solver_output(io.StringIO("s SATISFIABLE\nv " + "7" * 3_000_000 + " 0\n"), "out")
    with pytest.raises(InputError, match="out:2: '1-1-1-1-1.*is not an integer literal"):
        read_solver_output(io.StringIO("s SATISFIABLE\nv " + "1-" * 2_000_000 + " 0\n"), "out")


BIG = 3 * solver_output.LINE_PIECE  # lines three times the reader's piece
MODEL = " ".join(str(-v if v % 3 else v) for v in range(1, 300_001))


@pytest.mark.parametrize(("text", "expected"), [
    (" " * BIG + "\ns SATISFIABLE\nv 1 -2 0\n", "sat"),  # a blank line of 3 MiB
    ("s UNSATISFIABLE\n" + " \t\x0b\x0c" * (BIG // 4), "unsat"),  # a last blank line without its line end
    ("\r\n" + " " * BIG + "\r\nUNSAT\r\n", "unsat"),
    ("c " + "x" * BIG + "\ns UNSATISFIABLE\n", "unsat"),  # a comment of 3 MiB
    ("c " + "é✓" * BIG + "\nINDET\n", "unknown"),  # and not ASCII
    (" " * BIG + "c after blanks\ns UNSATISFIABLE\n", "unsat"),
    ("s SATISFIABLE\nv " + MODEL + " 0\n", "sat"),  # a model line of 2.3 MB
    ("SAT\n" + MODEL + " 0", "sat"),
    ("s SATISFIABLE\nv 1" + " " * BIG + "-2 0\n", "sat"),
    ("s SATISFIABLE\nv " + "1 " * BIG + "2 0\n", "sat"),  # a literal repeated a million times
    ("s SATISFIABLE\nv " + MODEL + "\n", "sat"),  # cut off: incomplete
    ("s SATISFIABLE\nv " + MODEL + " 5 0\n", ":2: literal 5 contradicts -5"),
    ("s SATISFIABLE\nv " + "7" * BIG + " 0\n", ":2: literal 7777"),
    ("s SATISFIABLE\n" + MODEL + " 0\n", ":2: '-1 -2 3 -4 -5 6"),  # MiniSat literals in competition output
    ("SAT\nv " + MODEL + " 0\n", ":2: a competition-format 'v' line in MiniSat-format output"),
    ("s SATISFIABLE" + " " * BIG + "\nv 1 0\n", ":1: a line longer than 1,048,576 characters"),
    ("junk" * BIG, ":1: a line longer than 1,048,576 characters"),
    ("\x00" * BIG, ":1: a line longer than 1,048,576 characters"),
    ("s SATISFIABLE\nv " + "1-" * BIG + " 0\n", ":2: '1-1-1-1-1"),
], ids=["blank", "last blank", "CRLF blank", "comment", "non-ASCII comment", "blanks then comment", "v model",
        "MiniSat model", "blanks in a model", "repeated literal", "cut model", "contradiction", "long number",
        "wrong form", "wrong form v", "long status", "junk", "NUL", "not a literal"])
def test_one_policy_for_whole_and_streamed_output(text, expected):
    """parse_solver_output, read_solver_output and a reader written in pieces are one reader: the same
    input gives the same answer or the same error, whatever the length of its lines."""
    whole = _outcome(lambda: parse_solver_output(text, "out", max_var=400_000))
    if expected in ("sat", "unsat", "unknown"):
        assert isinstance(whole, SolverAnswer) and whole.status == expected, whole
    else:
        assert isinstance(whole, str) and whole.startswith("out:") and expected in whole and "\n" not in whole
    raw = text.encode()
    assert _outcome(lambda: parse_solver_output(raw, "out", max_var=400_000)) == whole
    assert _outcome(lambda: read_solver_output(io.StringIO(text), "out", max_var=400_000)) == whole
    assert _outcome(lambda: read_solver_output(io.BytesIO(raw), "out", max_var=400_000)) == whole
    assert _outcome(lambda: read_solver_output(io.BufferedReader(_Trickle(raw)), "out", max_var=400_000)) == whole
    assert _in_pieces(raw, 99_991, 400_000, "out") == whole


class _Trickle(io.RawIOBase):
    """A pipe that hands out pieces of odd sizes (a CRLF or a UTF-8 character can be cut between two)."""

    def __init__(self, data: bytes) -> None:
        self.data, self.pos, self.sizes = data, 0, [1, 7, 4093, 65537, 3]

    def readable(self) -> bool:
        return True

    def readinto(self, target) -> int:
        size = min(len(target), self.sizes[self.pos % len(self.sizes)], len(self.data) - self.pos)
        target[:size] = self.data[self.pos:self.pos + size]
        self.pos += size
        return size


# --------------------------------------------------------------------------------------------------------
# the fuzz test

JUNK = ["²", "１", "٣", "\x00", "\u00a0", "\u2028", "\x85", "\x1c", "\x0b", "\ufffd", "é", "+", "_", "-", "--",
        " ", "\t", "\n", "\r", "\r\n", "0", " 0", "00000000001", str(10 ** 30), "-" + str(10 ** 30), "9" * 500,
        "c ", "%", "p cnf 2 1\n", "p cnf 2000000000 3000000000\n", f"p cnf 3 {10 ** 12}\n",
        "s SATISFIABLE\n", "s UNSATISFIABLE\n", "s UNKNOWN\n", "s FOO\n", "v ", "v -1 1 0\n", "SAT\n", "UNSAT\n",
        "INDET\n", " -5", " 5"]


DIGITS = ["²", "１", "٣", "⁵", "𝟕", str(10 ** 30), "0" * 12 + "1", "9" * 12, "4294967297", "2147483648"]


@st.composite
def cnf_files(draw):
    """A valid DIMACS CNF in one of the tolerated layouts: (variables, clauses, text)."""
    num_vars = draw(st.integers(0, 12))
    literal = st.integers(-num_vars, num_vars).filter(bool) if num_vars else st.nothing()
    clauses = draw(st.lists(st.lists(literal, max_size=5 if num_vars else 0), max_size=8))
    blank = st.sampled_from([" ", "  ", "\t", " \t"])
    parts = [f"c {draw(st.text(max_size=8).filter(lambda t: chr(10) not in t and chr(13) not in t))}\n"
             for _ in range(draw(st.integers(0, 2)))]
    parts.append(f"p{draw(blank)}cnf{draw(blank)}{num_vars}{draw(blank)}{len(clauses)}\n")
    for clause in clauses:
        for lit in clause:
            parts.append(f"{lit}{draw(st.sampled_from([' ', chr(9), chr(10)]))}")
        parts.append("0" + draw(st.sampled_from(["\n", " ", "\nc group\n"])))
    if draw(st.booleans()):
        parts.append("\n%\n0\n")
    text = "".join(parts)
    if draw(st.booleans()):
        text = text.replace("\n", "\r\n")
    if draw(st.booleans()):
        text = text.rstrip("\r\n")
    return num_vars, clauses, text


STATUS_WORDS = {"competition": {"sat": "s SATISFIABLE", "unsat": "s UNSATISFIABLE", "unknown": "s UNKNOWN"},
                "minisat": {"sat": "SAT", "unsat": "UNSAT", "unknown": "INDET"}}


@st.composite
def solver_outputs(draw, cut=False):
    """A valid solver answer: (status, model, text) in the competition or the MiniSat form; with ``cut``
    a SAT answer lacks the model's ending 0."""
    form = draw(st.sampled_from(["competition", "minisat"]))
    status = draw(st.sampled_from(["sat", "unsat", "unknown"]))
    size = draw(st.integers(0, 12))
    model = [v if draw(st.booleans()) else -v for v in draw(st.permutations(range(1, size + 1)))]
    lines = [f"c {draw(st.sampled_from(['solver 1.0', 'conflicts 17', '²✓']))}"
             for _ in range(draw(st.integers(0, 2)))]
    lines.append(STATUS_WORDS[form][status])
    if status == "sat":
        tokens = [str(lit) for lit in model] + ([] if cut else ["0"])
        width = draw(st.integers(1, 6))
        prefix = "v " if form == "competition" else ""
        lines += [prefix + " ".join(tokens[i:i + width]) for i in range(0, len(tokens), width)]
    if form == "competition" and draw(st.booleans()):
        lines.append("c done")
    return status, (model if status == "sat" else None), "\n".join(lines) + draw(st.sampled_from(["\n", ""]))


@st.composite
def mutated(draw, files):
    """A file from ``files`` with one to four mutations: flips, insertions, deletions, cuts, copied lines,
    a digit made exotic or huge, a literal's negation added; sometimes as bytes with bytes that are not
    UTF-8."""
    text = draw(files)[-1]
    for _ in range(draw(st.integers(1, 4))):
        pos = draw(st.integers(0, len(text)))
        action = draw(st.sampled_from(["flip", "insert", "insert", "delete", "cut", "copy line", "digit", "negate"]))
        numbers = [m.span() for m in re.finditer(r"-?[0-9]+", text)]
        if action in ("digit", "negate") and numbers:
            start, end = draw(st.sampled_from(numbers))
            if action == "digit":
                at = draw(st.integers(start, end - 1))
                text = text[:at] + draw(st.sampled_from(DIGITS)) + text[at + 1:]
            else:
                text = text[:end] + f" {-int(text[start:end])}" + text[end:]
        elif action == "flip":
            text = text[:pos] + draw(st.characters()) + text[pos + 1:]
        elif action == "insert":
            text = text[:pos] + draw(st.sampled_from(JUNK) | st.text(max_size=3)) + text[pos:]
        elif action == "delete":
            text = text[:pos] + text[pos + draw(st.integers(1, 12)):]
        elif action == "cut":
            text = text[:pos]
        else:
            lines = text.split("\n")
            i = draw(st.integers(0, len(lines) - 1))
            lines.insert(draw(st.integers(0, len(lines))), lines[i])
            text = "\n".join(lines)
    if draw(st.booleans()):
        data = text.encode("utf-8")
        pos = draw(st.integers(0, len(data)))
        return data[:pos] + draw(st.sampled_from([b"", b"\xff", b"\xc3", b"\xed\xa0\x80"])) + data[pos:]
    return text


def _lines(data: str | bytes) -> list[str]:
    text = data.decode("utf-8", errors="replace") if isinstance(data, bytes) else data
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def _one_line_error(err: InputError, source: str) -> None:
    message = str(err)
    assert message.startswith(source) and "\n" not in message and "\r" not in message, message


def check_cnf(data: str | bytes) -> bool:
    """The CNF reader's contract on any input; True when the input was accepted."""
    try:
        d = parse_dimacs(data, source="fuzz.cnf")
    except InputError as err:  # DimacsError is one
        _one_line_error(err, "fuzz.cnf")
        return False
    assert 0 <= d.num_vars <= MAX_VARIABLES and len(d.clauses) <= MAX_CLAUSES
    assert all(0 < abs(lit) <= d.num_vars for clause in d.clauses for lit in clause)
    for line in _lines(data):  # nothing but ASCII digits, '-' and blanks outside comments
        line = line.strip(" \t\x0b\x0c")
        if line.startswith("%"):
            break
        if line and line[0] not in "cp":
            assert set(line) <= set("0123456789- \t\x0b\x0c"), line
    text = "\n".join(_lines(data))
    assert dimacs._parse_by_line(text, "fuzz.cnf") == d  # the bulk path reads what the careful one reads
    with mock.patch.object(dimacs, "_BLOCK", 5):  # clauses cut across the bulk reader's blocks
        assert dimacs._parse_in_bulk(text, "fuzz.cnf") in (d, None)
    out = io.StringIO()
    write_dimacs_clauses(out, d.num_vars, d.clauses, comments=d.comments)
    again = parse_dimacs(out.getvalue(), source="fuzz.cnf")
    assert (again.num_vars, again.clauses, again.comments) == (d.num_vars, d.clauses, d.comments)
    return True


def _expected_model(data: str | bytes) -> tuple[list[int], bool]:
    """What an accepted SAT answer's model must be, by a simpler reading: literals in order, each once,
    and whether a 0 ended them."""
    model: list[int] = []
    for line in _lines(data):
        tokens = line.split()
        if not tokens or line.strip(" \t\x0b\x0c")[:1] == "c" or tokens[0] == "s" or line.strip().upper() in (
                "SAT", "SATISFIABLE", "UNSAT", "UNSATISFIABLE", "INDET", "UNKNOWN"):
            continue
        for value in map(int, tokens[1:] if tokens[0] == "v" else tokens):
            if value == 0:
                return model, True
            if value not in model:
                model.append(value)
    return model, False


def _outcome(read):
    """What a read gives: the answer, or the error's message."""
    try:
        return read()
    except InputError as err:
        return str(err)


def _in_pieces(data, size, max_var=None, source="fuzz.out"):
    """The outcome of a reader written ``data`` in pieces of ``size`` (cut anywhere: in a line, a CRLF, a
    UTF-8 character)."""

    def read():
        reader = SolverOutputReader(source, max_var)
        for start in range(0, len(data), size):
            reader.write(data[start:start + size])
        return reader.finish()

    return _outcome(read)


def check_answer(data: str | bytes, max_var: int | None) -> bool:
    """The solver-output reader's contract on any input; True when the input was accepted."""
    try:
        answer = parse_solver_output(data, source="fuzz.out", max_var=max_var)
    except InputError as err:
        _one_line_error(err, "fuzz.out")
        whole = None
    else:
        whole = answer
        assert answer.status in ("sat", "unsat", "unknown")
        if answer.status != "sat":
            assert answer.model is None and answer.complete and not answer.note
        else:
            model = answer.model
            assert 0 not in model and len(set(model)) == len(model)
            assert not {-lit for lit in model} & set(model), "a literal and its negation"
            assert all(abs(lit) <= (max_var if max_var is not None else MAX_VARIABLES) for lit in model)
            assert (model, answer.complete) == _expected_model(data)
            assert answer.complete == (not answer.note)
    # one reader, one policy: the same input whole, streamed and cut into pieces anywhere gives the same
    # answer or the same error, also when lines are longer than the reader's piece (made 32 characters here)
    raw = data if isinstance(data, bytes) else data.encode("utf-8", errors="surrogatepass")
    with mock.patch.object(solver_output, "LINE_PIECE", 32):
        short = _outcome(lambda: parse_solver_output(data, "fuzz.out", max_var))
        if isinstance(short, str):
            _one_line_error(InputError(short), "fuzz.out")
        assert _outcome(lambda: read_solver_output(io.BytesIO(raw), "fuzz.out", max_var)) == _outcome(
            lambda: parse_solver_output(raw, "fuzz.out", max_var))
        for size in (1, 3, 7):
            assert _in_pieces(data, size, max_var) == short
    return whole is not None


# Examples per run: 50 + 250 valid and mutated CNF files, 100 + 50 + 250 valid, cut and mutated solver outputs;
# the deep profile (pytest -m deep) tries four times as many of each.
def examples(default: int) -> list:
    return [default, pytest.param(4 * default, marks=pytest.mark.deep)]


def fuzz(count: int, *strategies):
    """Hypothesis over ``strategies`` with ``count`` examples, run inside a test parametrized by the count."""
    return lambda check: settings(max_examples=count, deadline=None, suppress_health_check=[HealthCheck.too_slow])(
        given(*strategies)(check))


@pytest.mark.parametrize("count", examples(50))
def test_fuzz_valid_cnf_files_are_read_exactly(count):
    @fuzz(count, cnf_files())
    def check(case):
        num_vars, clauses, text = case
        d = parse_dimacs(text)
        assert (d.num_vars, d.clauses) == (num_vars, clauses)
        assert check_cnf(text)

    check()


@pytest.mark.parametrize("count", examples(250))
def test_fuzz_mutated_cnf_files(count):
    @fuzz(count, mutated(cnf_files()))
    def check(data):
        check_cnf(data)  # accepted or refused, by the contract

    check()


@pytest.mark.parametrize("count", examples(100))
def test_fuzz_valid_solver_outputs_are_read_exactly(count):
    @fuzz(count, solver_outputs())
    def check(case):
        status, model, text = case
        answer = parse_solver_output(text, max_var=len(model or ()))
        assert (answer.status, answer.model, answer.complete) == (status, model, True)
        assert check_answer(text, None)

    check()


@pytest.mark.parametrize("count", examples(50))
def test_fuzz_cut_solver_outputs_are_incomplete(count):
    @fuzz(count, solver_outputs(cut=True))
    def check(case):
        status, model, text = case
        answer = parse_solver_output(text)
        assert (answer.status, answer.model, answer.complete) == (status, model, status != "sat")
        assert check_answer(text, None)

    check()


@pytest.mark.parametrize("count", examples(250))
def test_fuzz_mutated_solver_outputs(count):
    @fuzz(count, mutated(solver_outputs()), st.sampled_from([None, 0, 5, 12]))
    def check(data, max_var):
        check_answer(data, max_var)  # accepted or refused, by the contract

    check()
