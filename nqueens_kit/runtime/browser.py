"""The kit in a browser (Pyodide, the course's JupyterLite edition, ``make lite``): what is there and what is not.

Pyodide runs CPython compiled to WebAssembly inside the page: no child processes, no threads, no
executables, and only the packages the site ships (python-sat, PuLP 3, ipywidgets) plus, online, those of
the Pyodide CDN (numpy, matplotlib).  This module tells the rest of the kit so:

- :data:`IN_BROWSER` (``sys.platform == "emscripten"``) and :func:`can_thread`;
- :func:`run_here`: a job that would run in a child process runs in this one, and its time limit holds only
  through the solvers that stop themselves (python-sat's conflict budgets, HiGHS's time limit);
- :func:`budget_solve`: a python-sat solve that stops at a deadline by conflict budgets instead of a timer
  thread;
- :func:`needs`: the one line a figure or a method says when what it needs is not in the browser;
- :func:`install_stand_in`: offline, ``import matplotlib`` (the kit's figure modules, a chapter's first cell)
  succeeds with a stand-in whose every use raises that one line (:func:`cdn_needs`: the page is offline, and
  how to get the package), so the rest of a chapter runs; once ``%pip install matplotlib`` has brought the
  real one (online), every use goes to it;
- :func:`start_kernel`: in the site's kernel, a cell that meets something the browser lacks prints one line
  and ends without an error, so that Run All goes on to the next cell (:func:`refusal_line`); a figure that
  cannot be drawn does not even end its cell: the statements after it run (:class:`FiguresCarryOn`);
- :func:`pycosat_solve` / :func:`pycosat_itersolve`: pycosat's API on python-sat, for the chapters that call
  pycosat directly (the site ships them as its ``pycosat`` module).

Outside a browser every function here is a no-op or never called.  The parts live beside this module, which
re-exports their public names and installs the stand-in when imported: :mod:`.pyodide` (what the browser
has), :mod:`.stand_in` (matplotlib offline) and :mod:`.refusals` (the kernel's one-line refusals).

>>> IN_BROWSER
False
>>> pycosat_solve([[1, 2], [-1], [-2, 3]])
[-1, 2, 3]
>>> pycosat_solve([[1], [-1]])
'UNSAT'
>>> sorted(map(tuple, pycosat_itersolve([[1, 2]])))
[(-1, 2), (1, -2), (1, 2)]
"""

from __future__ import annotations

from .pyodide import BUDGET_CONFLICTS as BUDGET_CONFLICTS
from .pyodide import CDN_PACKAGES as CDN_PACKAGES
from .pyodide import DRIVE as DRIVE
from .pyodide import IN_BROWSER as IN_BROWSER
from .pyodide import PYCOSAT_BACKEND as PYCOSAT_BACKEND
from .pyodide import PYCOSAT_MODULE as PYCOSAT_MODULE
from .pyodide import SITE_FILES as SITE_FILES
from .pyodide import BudgetSolver as BudgetSolver
from .pyodide import NotInBrowser as NotInBrowser
from .pyodide import budget_solve as budget_solve
from .pyodide import can_thread as can_thread
from .pyodide import cdn_needs as cdn_needs
from .pyodide import cdn_reachable as cdn_reachable
from .pyodide import importable as importable
from .pyodide import needs as needs
from .pyodide import packed_builder_here as packed_builder_here
from .pyodide import pycosat_itersolve as pycosat_itersolve
from .pyodide import pycosat_solve as pycosat_solve
from .pyodide import require_browser_module as require_browser_module
from .pyodide import run_here as run_here
from .pyodide import use_site_files as use_site_files
from .refusals import REFUSAL_TYPES as REFUSAL_TYPES
from .refusals import REFUSED as REFUSED
from .refusals import FiguresCarryOn as FiguresCarryOn
from .refusals import NoFigure as NoFigure
from .refusals import explain_failure as explain_failure
from .refusals import figure_in as figure_in
from .refusals import figure_skipped as figure_skipped
from .refusals import handle_refusals as handle_refusals
from .refusals import refusal_line as refusal_line
from .refusals import say_once as say_once
from .refusals import start_kernel as start_kernel
from .stand_in import FigureNeedsPackage as FigureNeedsPackage
from .stand_in import install_stand_in as install_stand_in

install_stand_in()
