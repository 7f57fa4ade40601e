"""An ILP entry to copy (see :mod:`nqueens_kit.solvers.templates`): a solver PuLP can call.

The family's :meth:`~nqueens_kit.solvers.ilp_pulp.IlpSolver.solve` hands PuLP the model, a time limit and the
entry's options, and reads the answer on every PuLP version; an entry says how PuLP reaches its solver
(:meth:`TemplateIlp.candidates`, best first), how to install it, and what it does.  What to change: ``name``,
``description``, ``marker``, the candidates, the hint; add :meth:`~nqueens_kit.solvers.ilp_pulp.IlpSolver.options`
and ``engine_options`` for named settings that change its run, and ``read_statistics`` for its counters (then
name them in ``statistics``).  A name in ``settings`` that would run it as another does is not one it takes.

One line in :mod:`nqueens_kit.solvers` registers it: ``"templates.ilp:TemplateIlp",`` in ``ENTRIES["ilp"]`` (the
registry imports the module when the ILP registry is first asked for).

>>> TEMPLATE_ILP.name, TEMPLATE_ILP.settings
('template-ilp', frozenset({'tuned'}))
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from typing import TYPE_CHECKING

from ..base import Capabilities
from ..ilp_pulp import FORMULATION_NAMES, ILP_FEATURES, ILP_VERBS, Candidate, IlpSolver, pulp_module

if TYPE_CHECKING:  # PuLP has no type information: the name says what the object is
    from pulp import LpSolver


class TemplateIlp(IlpSolver):
    """CBC through PuLP's ``COIN_CMD`` (or the CBC PuLP bundles) as a template entry, run with CBC's defaults."""

    name = "template-ilp"
    kind = "template"
    description = "CBC through PuLP, as the template of an ILP entry"
    marker = "$I$"
    command_line = True  # PuLP runs an executable: it takes a log path, and is stopped with its process
    capabilities = Capabilities(time_limit=True)  # CBC stops itself at PuLP's timeLimit
    verbs, features, variants = ILP_VERBS, ILP_FEATURES, FORMULATION_NAMES
    settings = frozenset({"tuned"})  # one run only (CBC's defaults), under the method's default name

    def candidates(self) -> Iterator[Candidate]:
        pulp = pulp_module()
        yield Candidate("COIN_CMD ({path})", pulp.COIN_CMD)  # cbc on PATH, or PuLP 4's cbcbox
        if hasattr(pulp, "PULP_CBC_CMD"):  # PuLP 2 and 3 bundle CBC
            def bundled(**options: object) -> LpSolver:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", DeprecationWarning)
                    return pulp.PULP_CBC_CMD(**options)
            yield Candidate("PULP_CBC_CMD (bundled with PuLP)", bundled)

    def install_hint(self) -> str:
        return 'pip install "pulp[cbc]"'


TEMPLATE_ILP = TemplateIlp()
