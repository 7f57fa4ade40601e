"""The CP method (:mod:`.method`) and its vocabulary, the formulations and settings (:mod:`.formulations`)."""

from __future__ import annotations

from .formulations import DEFAULT_SETTINGS, FORMULATIONS, SETTINGS, Formulation, describe, get_formulation
from .method import CpMethod, result_of

__all__ = ["DEFAULT_SETTINGS", "FORMULATIONS", "SETTINGS", "CpMethod", "Formulation", "describe", "get_formulation",
           "result_of"]
