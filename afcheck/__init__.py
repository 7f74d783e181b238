"""afcheck: a pytest-style test runner for autoformalisers.

Public API: :data:`hookimpl` for plugins, and the records the core's Lean kinds share
(formaliser, checker, prover) of :mod:`afcheck.types`. A method's own records are its
package's (``afcheck_faithfulness.records``, ``afcheck_equivalence.records``).
"""

from __future__ import annotations

import pluggy

from afcheck.types import (
    Formalisation,
    FormalisationStatus,
    FormaliseRequest,
    ProofTask,
    Usage,
    Verdict,
    VerdictKind,
)

__version__ = "0.1.0"

hookimpl = pluggy.HookimplMarker("afcheck")
"""Decorator for plugin functions that implement :mod:`afcheck.hookspecs` hooks."""

__all__ = [
    "Formalisation",
    "FormalisationStatus",
    "FormaliseRequest",
    "ProofTask",
    "Usage",
    "Verdict",
    "VerdictKind",
    "__version__",
    "hookimpl",
]
