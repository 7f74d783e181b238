"""One case's record in the JSON result file."""

from __future__ import annotations

from collections.abc import Callable

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
