"""The record a drift detector returns."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class DriftWarning:
    """One sign that a formal statement drifted from its step.

    ``detector`` is the detector's name (``vacuous_hypotheses`` …); ``message`` says, in one
    line, what in the statement is suspicious and why, quoting the parts involved.
    """

    detector: str
    message: str

    def to_json(self) -> dict[str, str]:
        return {"detector": self.detector, "message": self.message}
