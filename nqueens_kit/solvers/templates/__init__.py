"""Templates of solver entries, one per family: copy one, rename it, put your solver's calls where its own are, and
add one line to the registry (:mod:`nqueens_kit.solvers`).  Each passes the whole entry contract as it is
(``tests/test_templates.py`` registers it and runs every check of ``tests/entry_contract.py`` on it), and each
declares only what its ``solve`` does: an entry claims nothing it does not state.

- :mod:`.sat`: a SAT solver in a Python package (here pycosat), handed clauses, answering an
  :class:`~nqueens_kit.solvers.base.Outcome`;
- :mod:`.ilp`: an ILP solver that PuLP can call (here CBC through ``COIN_CMD``): the family's ``solve`` does the
  rest;
- :mod:`.cp`: a CP solver (here OR-Tools CP-SAT) building its own model from the method's solver-neutral one.

None of them is registered: the kit's own entries do each job better.
"""
