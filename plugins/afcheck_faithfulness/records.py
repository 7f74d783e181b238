"""One case's record in the JSON result file, and its reader (:class:`CaseRecord`: what the
metrics count of a case read back, for the report and ``afcheck compare``)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from afcheck.method import JsonObject
from afcheck.types import CaseResult, Formalisation, Verdict, to_json

RawOutputs = Callable[[str], str | None]
"""Raw model outputs kept out of the records during the run, by formalisation key."""


def record(result: CaseResult, raw_outputs: RawOutputs | None = None) -> JsonObject:
    """Both inputs, the perturbation, both formalisations, both verdicts and the outcome."""
    step = result.step
    return {
        "case_id": result.case_id,
        "step_id": step.id,
        "suite": step.suite,
        "dataset": step.dataset,
        "problem_id": step.problem_id,
        "node_id": step.node_id,
        "text": step.text,
        "context": list(step.context),
        "perturbation": to_json(result.perturbation),
        "original": _formalisation(result.original, raw_outputs),
        "perturbed": _formalisation(result.perturbed, raw_outputs),
        "z": _verdict(result.z),
        "z_bar": _verdict(result.z_bar),
        "outcome": result.outcome.value,
        "events": list(result.failure_events),
        "excluded": result.excluded,
        "timings": dict(result.timings),
        "warnings": [{"detector": w.detector, "side": w.side.value, "message": w.message}
                     for w in result.warnings],
        "source": str(step.source) if step.source else None,
    }


def _formalisation(formalisation: Formalisation | None,
                   raw_outputs: RawOutputs | None) -> JsonObject | None:
    if formalisation is None:
        return None
    data: JsonObject = to_json(formalisation)
    if raw_outputs is not None and not formalisation.raw_output:
        stored = raw_outputs(formalisation.key)  # moved to the spool during the run
        if stored is not None:
            data["raw_output"] = stored
    return data


def _verdict(verdict: Verdict | None) -> JsonObject | None:
    return None if verdict is None else to_json(verdict)


@dataclass(frozen=True)
class CaseRecord:
    """What the metrics count of one case read back from a result file (a
    :class:`afcheck_faithfulness.metrics.Counted`, as a run's :class:`CaseResult` is)."""

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
    def from_json(cls, step: Mapping[str, object]) -> CaseRecord:
        """Read the record :func:`record` wrote; a part that is missing or of the wrong type
        reads as "nothing happened" (a file edited by hand, or written by an older afcheck)."""
        original = _json_object(step.get("original"))
        perturbed = _json_object(step.get("perturbed"))
        z = _verdict_kind(step.get("z"))
        z_bar = _verdict_kind(step.get("z_bar"))
        perturbation = _json_object(step.get("perturbation"))
        warnings = step.get("warnings")
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
            warnings=len(warnings) if isinstance(warnings, list) else 0,
        )


def from_json(steps: Iterable[Mapping[str, object]]) -> list[CaseRecord]:
    """Every case of ``steps`` (records of a result file) as the metrics count them."""
    return [CaseRecord.from_json(step) for step in steps]


def _json_object(value: object) -> Mapping[str, object]:
    return value if isinstance(value, dict) else {}


def _verdict_kind(value: object) -> str | None:
    kind = value.get("kind") if isinstance(value, dict) else None
    return kind if isinstance(kind, str) else None
