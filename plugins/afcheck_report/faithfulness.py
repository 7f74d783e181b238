"""The faithfulness method's step records as the report and ``compare`` read them.

A record of the JSON result file becomes a :class:`PairRecord` holding the failure events
the FaithformBench metrics count; :func:`metrics` recomputes the metrics of any group of them
(so the report and ``compare`` agree with the run's own figures, and can compute them for
subsets such as the cases two runs share).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from afcheck_faithfulness.metrics import Metrics, compute

OUTCOMES = ("faithful", "sycophancy", "abstention", "inversion", "inconclusive")
"""The 5-way contingency of (z, z̄), in the order of FaithformBench Figure 5."""


@dataclass(frozen=True)
class PairRecord:
    """What the metrics need from one case of a faithfulness run."""

    case_id: str
    dataset: str
    rule: str
    outcome: str
    status: str
    excluded: bool
    error_induction: bool
    """z = ⊥: the valid step's statement was refuted."""
    silent_correction: bool
    """z̄ = ⊤: the invalid step's statement was proved."""
    af_fail_original: bool
    af_fail_perturbed: bool
    proved_original: bool
    tc_fail: int = 0
    warnings: int = 0

    @property
    def original_failed(self) -> bool:
        """The original side has a failure event (error induction or AF failure)."""
        return self.error_induction or self.af_fail_original

    @property
    def perturbed_failed(self) -> bool:
        return self.silent_correction or self.af_fail_perturbed

    @property
    def af_failure(self) -> bool:
        return self.af_fail_original or self.af_fail_perturbed

    @property
    def failed(self) -> bool:
        """Any failure event (what fails the test)."""
        return not self.excluded and (self.original_failed or self.perturbed_failed)

    @classmethod
    def from_json(cls, step: Mapping[str, Any]) -> PairRecord:
        """Read one step record; missing parts read as "nothing happened" (``None``)."""
        original = _mapping(step.get("original"))
        perturbed = _mapping(step.get("perturbed"))
        z = _verdict(step.get("z"))
        z_bar = _verdict(step.get("z_bar"))
        perturbation = _mapping(step.get("perturbation"))
        return cls(
            case_id=str(step.get("case_id", "")),
            dataset=str(step.get("dataset") or "(none)"),
            rule=str(perturbation.get("rule") or "(none)"),
            outcome=str(step.get("outcome") or "inconclusive"),
            status=str(step.get("status") or ""),
            excluded=bool(step.get("excluded")),
            error_induction=z == "refuted",
            silent_correction=z_bar == "proved",
            af_fail_original=original.get("status") != "ok",
            af_fail_perturbed=perturbed.get("status") != "ok",
            proved_original=z == "proved",
            tc_fail=sum(side.get("status") == "tc_fail" for side in (original, perturbed)),
            warnings=len(step.get("warnings") or ()),
        )


def _mapping(value: object) -> Mapping[str, Any]:
    return value if isinstance(value, dict) else {}


def _verdict(value: object) -> str | None:
    kind = value.get("kind") if isinstance(value, dict) else None
    return kind if isinstance(kind, str) else None


def records(steps: Iterable[Mapping[str, Any]]) -> list[PairRecord]:
    return [PairRecord.from_json(step) for step in steps]


def metrics(group: Iterable[PairRecord]) -> Metrics:
    """The FaithformBench metrics of a group, counted exactly as the run counts them."""
    return compute(group)


def by_dataset(group: Sequence[PairRecord]) -> dict[str, Metrics]:
    """Metrics per dataset, datasets in name order."""
    groups: dict[str, list[PairRecord]] = {}
    for record in group:
        groups.setdefault(record.dataset, []).append(record)
    return {name: metrics(groups[name]) for name in sorted(groups)}
