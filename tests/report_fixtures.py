"""Result files for the report and compare tests, written by the JSON reporter itself."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from afcheck_faithfulness.records import CaseResult, Edit, Perturbation, Step
from afcheck_faithfulness.synthetic import result_document

from afcheck.types import Formalisation, FormalisationStatus, Verdict, VerdictKind

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


ROOT = Path(__file__).resolve().parent.parent


def write_replay(path: Path) -> Path:
    """Recorded outputs for the Tarski suite from its hand-labelled candidates: for the i-th
    item, its (i mod k)-th candidate, so the run meets every kind of decision (equivalent,
    syntax errors of several classes, not equivalent with a counter-model)."""
    by_item: dict[str, list[str]] = {}
    for line in (ROOT / "suites" / "tarski" / "labelled.jsonl").read_text("utf-8").splitlines():
        if line.strip():
            row = json.loads(line)
            by_item.setdefault(row["item"], []).append(row["candidate"])
    path.write_text("".join(
        json.dumps({"id": item, "output": candidates[index % len(candidates)]},
                   ensure_ascii=False) + "\n"
        for index, (item, candidates) in enumerate(by_item.items())), encoding="utf-8")
    return path


def afcheck_run(folder: Path, name: str, *args: str) -> Path:
    """Run ``afcheck ARGS… --json FOLDER/NAME.json`` (own cache) and return the file."""
    out = folder / f"{name}.json"
    done = subprocess.run(
        [sys.executable, "-m", "afcheck", *args, "-q", "-p", "no:cacheprovider",
         "--cache-dir", str(folder / "cache"), "--json", str(out)],
        capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert out.exists(), done.stdout + done.stderr
    return out


def equivalence_record(index: int, gold: str | None, decision: str,
                       criterion: str = "sae") -> dict[str, Any]:
    """One equivalence item's record as the method writes it (a Noneq one with the obligation
    that failed and its counterexample)."""
    status = {"Eq": "passed" if gold != "inequivalent" else "failed",
              "Noneq": "passed" if gold == "inequivalent" else "failed",
              "Inconclusive": "skipped"}[decision]
    failed = {"role": "conclusion", "statement": "theorem c : a = b := by sorry",
              "verdict": "refuted", "backend": "smt", "certified": False,
              "reason": "z3 found a model", "counterexample": {"a": "1", "b": "2"}}
    return {
        "id": f"p{index}", "group": "minif2f", "gold": gold, "case_id": f"suites/eq::p{index}",
        "reference": "theorem r (x : ℕ) : x + 0 = x := by sorry",
        "candidate": "theorem c (y : ℕ) : y = y + 0 := by sorry",
        "decision": decision, "criterion": criterion, "reason": f"{decision} because",
        "component": "conclusion" if decision == "Noneq" else None,
        "alignment": [{"candidate": "y", "reference": "x"}],
        "obligations": [{"role": "premises", "statement": "theorem p : True := by sorry",
                         "verdict": "proved", "backend": "lean", "certified": True,
                         "reason": "by trivial"},
                        *([failed] if decision == "Noneq" else [])],
        "flags": [],
        **({"failed_obligation": failed, "counterexample": failed["counterexample"]}
           if decision == "Noneq" else {}),
        "method": "equivalence", "status": status,
    }
