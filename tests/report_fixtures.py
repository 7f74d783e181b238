"""Result files for the report and compare tests, written by the JSON reporter itself."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from afcheck_report.synthetic import result_document

from afcheck.types import (
    CaseResult,
    Edit,
    Formalisation,
    FormalisationStatus,
    Perturbation,
    Step,
    Verdict,
    VerdictKind,
)

KINDS = {"P": VerdictKind.PROVED, "R": VerdictKind.REFUTED, "I": VerdictKind.INCONCLUSIVE}


def case(name: str, z: str | None, z_bar: str | None, dataset: str = "gsm8k",
         text: str = "So \\(2 + 3 = 5\\).", perturbed: str = "So \\(2 + 3 = 6\\).",
         excluded: str = "", formaliser: str = "fake", context: tuple[str, ...] = ()
         ) -> CaseResult:
    """One case: ``z``/``z_bar`` are ``"P"``, ``"R"``, ``"I"`` or ``None`` (AF failure)."""
    step = Step(id=f"s/{name}", suite="s", dataset=dataset, problem_id=name.split("/")[0],
                node_id=name.split("/")[-1], text=text, context=context)
    start = next((i for i, (a, b) in enumerate(zip(text, perturbed, strict=False))
                  if a != b), 0)
    edit = Edit(start, start + 1, text[start:start + 1], perturbed[start:start + 1])
    return CaseResult(
        case_id=f"suites/s::{name}", step=step,
        perturbation=Perturbation(step.id, "regex", perturbed, "number", edit),
        original=_formal(step, "original", z, "theorem t : 2 + 3 = 5 := by sorry", formaliser),
        perturbed=_formal(step, "perturbed", z_bar, "theorem t : 2 + 3 = 6 := by sorry",
                          formaliser),
        z=None if z is None else Verdict(KINDS[z], "smt", reason=f"decided {z}"),
        z_bar=None if z_bar is None else Verdict(
            KINDS[z_bar], "smt", reason=f"decided {z_bar}",
            evidence="counterexample: x = 3" if z_bar == "R" else "",
            counterexample={"x": "3"} if z_bar == "R" else None),
        excluded=excluded)


def _formal(step: Step, side: str, verdict: str | None, statement: str,
            formaliser: str) -> Formalisation:
    key = f"{step.id}#{side}"
    if verdict is None:
        return Formalisation(key, formaliser, FormalisationStatus.AF_FAIL,
                             raw_output="no code here", reason="no Lean code block")
    return Formalisation(key, formaliser, FormalisationStatus.OK, statement,
                         raw_output=f"Sure!\n```lean\n{statement}\n```")


def run_document(cases: list[CaseResult], formaliser: str = "fake") -> dict[str, Any]:
    config = {"suites": {"s": {"perturber": "regex", "formaliser": formaliser}}}
    return result_document(cases, config)


def write(path: Path, data: dict[str, Any]) -> Path:
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path
