"""afcheck: a pytest-style test runner for autoformalisers.

Public API: :data:`hookimpl` for plugins, and the pipeline records of :mod:`afcheck.types`.
"""

from __future__ import annotations

import pluggy

from afcheck.types import (
    CaseResult,
    Edit,
    Formalisation,
    FormalisationStatus,
    FormaliseRequest,
    Outcome,
    Perturbation,
    ProofTask,
    Side,
    Step,
    Usage,
    Verdict,
    VerdictKind,
)

__version__ = "0.1.0"

hookimpl = pluggy.HookimplMarker("afcheck")
"""Decorator for plugin functions that implement :mod:`afcheck.hookspecs` hooks."""

__all__ = [
    "CaseResult",
    "Edit",
    "Formalisation",
    "FormalisationStatus",
    "FormaliseRequest",
    "Outcome",
    "Perturbation",
    "ProofTask",
    "Side",
    "Step",
    "Usage",
    "Verdict",
    "VerdictKind",
    "__version__",
    "hookimpl",
]
