"""Semantic-drift detectors: warnings about a formalisation that type-checks but may not say
what the step says (vacuous hypotheses, an assumed conclusion, abandoned content, numerals
that changed, ℕ where the step needs ℚ or ℤ).

A warning never changes a verdict: it points a reader at a statement worth a look. Each
detector is a plain function ``detect(step_text, statement, header) -> list[DriftWarning]``
(see :mod:`afcheck_drift.detectors`); :func:`afcheck_drift.detectors.detect_all` runs them all.
"""

from __future__ import annotations

from afcheck_drift.detectors import DETECTORS, Detector, detect_all
from afcheck_drift.warning import DriftWarning

__all__ = ["DETECTORS", "Detector", "DriftWarning", "detect_all"]
