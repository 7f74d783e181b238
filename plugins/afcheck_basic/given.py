"""Components that read what the suite already holds."""

from __future__ import annotations

from collections.abc import Sequence

from afcheck_faithfulness.records import Perturbation, Step

from afcheck.types import Formalisation


class GivenPerturber:
    """Returns the perturbation written with each step (``perturbed`` in the data).

    Steps with several recorded perturbations (FaithformBench's ``regex`` and ``LLM`` rows)
    use ``variant`` to choose one.
    """

    name = "given"
    version = "1"
    cacheable = False

    def __init__(self, variant: str | None = None) -> None:
        self.variant = variant

    def perturb(self, steps: Sequence[Step], seed: int) -> list[Perturbation]:
        return [self._one(step) for step in steps]

    def _one(self, step: Step) -> Perturbation:
        text = step.perturbed_text
        if self.variant:
            text = dict(step.metadata.get("perturbations") or {}).get(self.variant)
        if not text:
            which = f" of variant '{self.variant}'" if self.variant else ""
            return Perturbation(step.id, self.name, None, "none",
                                reason=f"the suite gives no perturbation{which} for this step")
        return Perturbation(step.id, self.name, text, "given", effective=None)


class NoChecker:
    """Accepts every statement: without a type-checker, AF(x) = ∅ only when extraction fails."""

    name = "none"
    version = "1"
    cacheable = False

    def check(self, formalisations: Sequence[Formalisation]) -> list[Formalisation]:
        return list(formalisations)
