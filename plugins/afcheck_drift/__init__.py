"""Semantic-drift detectors: warnings about a formalisation that type-checks but may not say
what the step says (vacuous hypotheses, an assumed conclusion, abandoned content, numerals
that changed, ℕ where the step needs ℚ or ℤ).

A warning never changes a verdict: it points a reader at a statement worth a look. Each
detector is a plain function ``detect(step_text, statement, header) -> list[DriftWarning]``
(see :mod:`afcheck_drift.detectors`); :func:`afcheck_drift.detectors.detect_all` runs them all.
The numbers a step writes are read by :mod:`afcheck_arith` (a plain package, imported), and a
statement's by the Lean front end: the plugin reads neither itself.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from afcheck import hookimpl
from afcheck.registry import Register

if TYPE_CHECKING:
    from afcheck_faithfulness.records import DetectTask

__all__ = ["FunctionDetector"]


class FunctionDetector:
    """One detector function as a batch component
    (:class:`afcheck_faithfulness.kinds.Detector`)."""

    version = "1"

    def __init__(self, name: str) -> None:
        from afcheck_drift.detectors import DETECTORS

        self.name = name
        self._detect = DETECTORS[name]

    def detect(self, tasks: Sequence[DetectTask]) -> list[list[str]]:
        return [[w.message for w in self._detect(t.text, t.statement, t.header)] for t in tasks]


_NEEDS_Z3 = {"vacuous_hypotheses"}
_DESCRIPTIONS = {  # every detector of afcheck_drift.detectors.DETECTORS, in its order
    "vacuous_hypotheses": "hypotheses that are jointly unsatisfiable (z3)",
    "assumed_conclusion": "a conclusion that is one of the hypotheses, up to renaming",
    "abandoned_content": "a true conclusion that shares nothing with the step",
    "numeral_fidelity": "the value the step arrives at is missing or changed",
    "type_narrowing": "ℕ where the step has fractions or negatives; truncating ℕ - or /",
}


@hookimpl
def afcheck_register_detectors(register: Register[FunctionDetector]) -> None:
    # vacuous_hypotheses asks z3; without it, "every detector" means the other four.
    has_z3 = importlib.util.find_spec("z3") is not None
    for name, description in _DESCRIPTIONS.items():
        if name in _NEEDS_Z3 and not has_z3:
            continue
        register(name, _factory(name), description=description)


def _factory(name: str) -> Callable[[Mapping[str, str]], FunctionDetector]:
    # One argument only: a factory that takes a second one is handed ``build`` (see
    # afcheck.registry.takes_build), which a ``name=name`` default would have received.
    def build(options: Mapping[str, str]) -> FunctionDetector:
        return FunctionDetector(name)

    return build
