"""The versioned JSON result file.

Top-level keys: ``schema`` (``"afcheck-results"``), ``version``, ``afcheck_version``,
``config``, ``plugins``, ``metrics`` (``overall`` and ``by_dataset.<name>``, each with
``N, FNR, FPR, AFFR, UFLB, TPR, FI``, 95% Wilson intervals and the contingency counts),
``perturbations`` (rule counts), ``gates``, ``timings`` and ``steps`` (one record per case).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import afcheck
from afcheck.fileio import atomic_writer
from afcheck.metrics import RunSummary
from afcheck.types import CaseResult, Formalisation, Verdict, to_json

VERSION = 1


class JsonReporter:
    name = "json"

    def report(self, summary: RunSummary, destination: str) -> None:
        # The steps are streamed one record at a time: a run's document can be tens of MB.
        with atomic_writer(destination) as handle:
            head = json.dumps(header(summary), indent=1, ensure_ascii=False)
            handle.write(head[:-1].rstrip() + ',\n "steps": [')
            for index, result in enumerate(summary.results):
                handle.write(",\n  " if index else "\n  ")
                handle.write(json.dumps(record(result, summary.status_of(result).value,
                                               summary.raw_outputs), ensure_ascii=False))
            handle.write("\n ]\n}\n")


def document(summary: RunSummary) -> dict[str, Any]:
    """The whole result document in memory (what :class:`JsonReporter` writes)."""
    return {**header(summary),
            "steps": [record(r, summary.status_of(r).value) for r in summary.results]}


def header(summary: RunSummary) -> dict[str, Any]:
    return {
        "schema": "afcheck-results",
        "version": VERSION,
        "afcheck_version": afcheck.__version__,
        "config": dict(summary.config),
        "metrics": {
            "overall": summary.overall.to_json(),
            "by_dataset": {name: m.to_json() for name, m in summary.by_dataset.items()},
        },
        "perturbations": {"cases": len(summary.results),
                          "rules": dict(summary.perturbation_rules),
                          "effectiveness": dict(summary.perturbation_effect)},
        "gates": {"failures": list(summary.gate_failures)},
        "timings": dict(summary.timings),
    }


def record(result: CaseResult, status: str,
           raw_outputs: Callable[[str], str | None] | None = None) -> dict[str, Any]:
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
        "status": status,
        "source": str(step.source) if step.source else None,
    }


def _formalisation(formalisation: Formalisation | None,
                   raw_outputs: Callable[[str], str | None] | None) -> dict[str, Any] | None:
    if formalisation is None:
        return None
    data: dict[str, Any] = to_json(formalisation)
    if raw_outputs is not None and not formalisation.raw_output:
        stored = raw_outputs(formalisation.key)  # moved to the spool during the run
        if stored is not None:
            data["raw_output"] = stored
    return data


def _verdict(verdict: Verdict | None) -> dict[str, Any] | None:
    return None if verdict is None else to_json(verdict)
