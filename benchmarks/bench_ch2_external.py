"""Chapter 2's external DIMACS solvers, stored for the machines that have none of them.

    python benchmarks/bench_ch2_external.py                                        # print the record
    python benchmarks/bench_ch2_external.py -o notebooks/data/ch2-external.json    # what chapter 2 reads

Run it where MiniSat, CaDiCaL, PicoSAT, Kissat and CryptoMiniSat are installed (``make test`` installs the
Debian packages, the ``kissat`` extra brings Kissat).  It keeps MiniSat's answer file for the chapter's
8-queens formula (the chapter parses, decodes and verifies it live, so only the program's run is stored) and
each solver's best of three round trips on the one-cell formula and on 8 queens
(:func:`nqueens_kit.course.external.external_times`): wall-clock seconds of this machine, stored with it.
"""

from __future__ import annotations

import shlex
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from nqueens_kit import build_cnf, write_dimacs
from nqueens_kit.bench.environment import environment, load_average, record_main
from nqueens_kit.course.external import external_solvers, external_times
from nqueens_kit.methods import Choice
from nqueens_kit.solvers import SAT_SOLVERS


def minisat_answer() -> str:
    """MiniSat's answer file for the chapter's formula (``build_cnf(8)``), as chapter 2 makes it."""
    executable = SAT_SOLVERS["minisat"].executable()
    if executable is None:
        raise SystemExit("this record needs MiniSat: sudo apt-get install minisat")
    with tempfile.TemporaryDirectory() as folder:
        cnf_file = write_dimacs(build_cnf(8), Path(folder) / "queens8.cnf")
        answer_file = Path(folder) / "answer.txt"
        subprocess.run([executable, "-verb=0", str(cnf_file), str(answer_file)], capture_output=True, check=False)
        return answer_file.read_text()


def record() -> dict[str, Any]:
    names = external_solvers()
    before = load_average()
    answer = minisat_answer()
    times = external_times(names)
    configs = [Choice("sat", "pairwise", name) for name in ("pycosat", *names)]
    return {"minisat_answer": answer, "times": times, "load_average_start": before,
            "load_average_end": load_average(), "command": shlex.join(["python", *sys.argv]),
            "environment": environment(configs)}


def main(argv: list[str] | None = None) -> int:
    return record_main(record, __doc__.splitlines()[0], argv)


if __name__ == "__main__":
    sys.exit(main())
