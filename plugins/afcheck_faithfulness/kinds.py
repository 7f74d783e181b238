"""The component kinds only the faithfulness method uses, declared by its plugin, and the
interfaces their components implement."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from afcheck.registry import Kind

if TYPE_CHECKING:
    from afcheck_faithfulness.records import DetectTask, Perturbation, Step


@runtime_checkable
class Perturber(Protocol):
    """Makes an invalid counterpart of each step."""

    name: str
    version: str

    def perturb(self, steps: Sequence[Step], seed: int) -> list[Perturbation]:
        """One :class:`Perturbation` per step, in order; deterministic per (step, seed)."""
        ...


@runtime_checkable
class Detector(Protocol):
    """Looks for semantic drift: a statement that type-checks but may not say what its text
    says (vacuous hypotheses, an assumed conclusion, changed numerals …)."""

    name: str
    version: str

    def detect(self, tasks: Sequence[DetectTask]) -> list[list[str]]:
        """For each task, in order, one line per thing noticed (empty when nothing is)."""
        ...


PERTURBER: Kind[Perturber] = Kind(
    "perturber", "perturbers", "afcheck_register_perturbers", True, protocol=Perturber,
    many=True, description="make an invalid counterpart of each step")
DETECTOR: Kind[Detector] = Kind(
    "detector", "detectors", "afcheck_register_detectors", protocol=Detector,
    description="warn about a statement that may not say what its step says")
