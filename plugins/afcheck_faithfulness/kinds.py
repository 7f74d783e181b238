"""The component kinds only the faithfulness method uses, declared by its plugin."""

from __future__ import annotations

from afcheck.components import Detector, Perturber
from afcheck.registry import Kind

PERTURBER: Kind[Perturber] = Kind(
    "perturber", "perturbers", "afcheck_register_perturbers", True, protocol=Perturber,
    many=True, description="make an invalid counterpart of each step")
DETECTOR: Kind[Detector] = Kind(
    "detector", "detectors", "afcheck_register_detectors", protocol=Detector,
    description="warn about a statement that may not say what its step says")
