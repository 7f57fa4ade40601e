"""Stand-in jobs for the timing harness's worker: each says it is ready like the real one, then misbehaves
in one chosen way.  They live in a module so that a fresh child process can import them."""

from __future__ import annotations

import os
import subprocess
import sys
import time

from nqueens_kit.bench import worker
from nqueens_kit.runtime import isolate

PID_FILE_ENV = "NQUEENS_KIT_TEST_PID_FILE"
#: How long a stand-in "never answers": a test that sees the run end much sooner knows it was stopped.
FOREVER = 600


def sleeper(spec, time_limit):
    """Starts a solver-like child process, writes its pid, and never answers."""
    if spec["n"] != 5:
        return worker.run_job(spec, time_limit)
    isolate.ready()
    child = subprocess.Popen([sys.executable, "-c", f"import time; time.sleep({FOREVER})"])
    with open(os.environ[PID_FILE_ENV], "w", encoding="ascii") as out:
        out.write(str(child.pid))
    time.sleep(FOREVER)


def sleeper_from_5(spec, time_limit):
    if spec["n"] < 5:
        return worker.run_job(spec, time_limit)
    isolate.ready()
    time.sleep(FOREVER)


def aborter_4_quitter_5(spec, time_limit):
    if spec["n"] == 4:
        isolate.ready()
        os.abort()
    if spec["n"] == 5:
        sys.stdout.flush()
        os._exit(3)
    return worker.run_job(spec, time_limit)


def quitter_5(spec, time_limit):
    if spec["n"] == 5:
        os._exit(3)
    return worker.run_job(spec, time_limit)


def thread_settings():
    """The numerical libraries' thread settings a fresh child sees."""
    return {name: os.environ.get(name) for name in isolate.SINGLE_THREAD_ENV}


def late_answerer(spec, time_limit):
    """Says it is ready, holds on until its own clock has passed the time limit, then solves for real and
    answers (in the grace before the kill): a right answer, after the limit by every clock that measures it."""
    isolate.ready()
    start = time.perf_counter()
    while time.perf_counter() - start <= time_limit:
        time.sleep(time_limit / 10)
    record = worker.run_job(spec, None)
    record["total_seconds"] = time.perf_counter() - start
    return record
