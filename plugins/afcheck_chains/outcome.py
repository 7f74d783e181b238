"""One chain's test outcome (passed / failed / skipped, a one-line message, the evidence) and
its JSON record. A passed item has no message (the run's contract); its details still
hold the evidence.

- classified: passes when the class is T1, or the suite's expected class when it gives one;
- label only (no chain): passes when the prover reproduces the gold label (otherwise the
  item is an analysis failure);
- analysis failure: fails (no translation agreed with the gold label within the retries);
- undecided (a limit: a prover's, a budget's, a request with no answer), no answer (none
  found in the response), no reasoning (an answer without a kept reasoning step), cut off
  (the response stopped at the generation limit): skipped, with the reason.

The JSON record keeps what the model wrote (``response``, where the answer ended it:
``answer_cut``, the formaliser's ``raw_outputs``) and the FOL of every premise, step and the
conclusion of the translation the analysis used (``translation``), analysis failures
included.
"""

from __future__ import annotations

from afcheck_fol.formula import Formula
from afcheck_fol.printer import folio
from afcheck_fol.tptp import SymbolMap, TptpError, formula_to_tptp

from afcheck.method import ItemOutcome
from afcheck.types import Status
from afcheck_chains.method import ChainResult
from afcheck_chains.verify import FormalChain

PASSED, FAILED, SKIPPED = Status.PASSED, Status.FAILED, Status.SKIPPED


def outcome(result: ChainResult) -> ItemOutcome:
    record = result.record
    if result.status == "analysis_failure":
        return ItemOutcome(FAILED, result.reason, details(result))
    if result.status in ("undecided", "no_answer", "no_reasoning", "cut_off"):
        return ItemOutcome(SKIPPED, result.reason, details(result))
    if result.status == "label_only":
        return ItemOutcome(PASSED, "", details(result))
    labels = " ".join(label.value[0] if label.value != "Unknown" else "U"
                      for label in result.step_labels)
    want = record.expected_class or "T1"
    message = (f"class {result.chain_class} ({result.reason}); steps [{labels}]; "
               f"path {len(result.verdict.path) if result.verdict else 0} step(s)")
    if result.chain_class == want:
        return ItemOutcome(PASSED, "", details(result))
    return ItemOutcome(FAILED, f"expected {want}, got {message}", details(result))


def details(result: ChainResult) -> str:
    """The full evidence: each step with its FOL, label and prover statuses, the path."""
    record = result.record
    lines = [f"{record.id} ({record.location})", f"prover: {result.prover}",
             f"status: {result.status}: {result.reason}",
             f"gold label: {record.label.value}; predicted answer: "
             f"{record.answer.value if record.answer else '-'}; attempts: {result.attempts}"]
    symbols = SymbolMap()
    formal, verdict = result.formal, result.verdict
    if formal is not None and verdict is not None:
        printed = formula_to_tptp(formal.conclusion, symbols)
        lines.append(f"conclusion: {record.conclusion}  [{printed}] -> "
                     f"{verdict.conclusion.label.value}")
        for index, (text, formula, step) in enumerate(
                zip(record.steps, formal.steps, verdict.steps, strict=True), 1):
            statuses = "/".join(r.status.value for r in (step.positive, step.negative) if r)
            mark = " *path*" if index - 1 in verdict.path else ""
            lines.append(f"  step {index}: {text}  [{formula_to_tptp(formula, symbols)}] -> "
                         f"{step.label.value} ({statuses}){mark}")
        if verdict.path_conclusion is not None:
            lines.append(f"conclusion under the path: {verdict.path_conclusion.label.value}")
        if verdict.path_without_restating is not None:
            steps = ", ".join(str(i + 1) for i in verdict.restating)
            lines.append(f"conclusion under the path without step(s) {steps}, which restate "
                         f"it: {verdict.path_without_restating.label.value}"
                         + (" (the path is valid only by restating the conclusion)"
                            if result.restatement_only else ""))
    else:
        lines.extend(f"  step {i}: {s}" for i, s in enumerate(record.steps, 1))
    for position, earlier, text in result.repeated:
        lines.append(f"  dropped step {position} (its FOL repeats step {earlier}): {text}")
    for quality in result.quality:
        lines.append(f"  vs gold FOL, {quality.role}: FOL-BLEU {quality.bleu:.3f}, "
                     + {True: "equivalent", False: "not equivalent",
                        None: "equivalence undecided"}[quality.equivalent])
    if record.answer_cut:
        lines.append(f"response cut {record.answer_cut}")
    for index, raw in enumerate(result.raw_outputs, 1):
        lines.append(f"model output {index}:\n{raw}")
    return "\n".join(lines)


def to_json(result: ChainResult) -> dict[str, object]:
    record, verdict = result.record, result.verdict
    steps: list[dict[str, object]] = []
    symbols = SymbolMap()
    for index, text in enumerate(record.steps):
        entry: dict[str, object] = {"text": text}
        if verdict is not None and result.formal is not None:
            step = verdict.steps[index]
            entry.update(
                fol=formula_to_tptp(result.formal.steps[index], symbols),
                label=step.label.value,
                statuses=[r.status.value for r in (step.positive, step.negative) if r],
                in_path=index in verdict.path,
            )
        if record.gold_step_labels is not None:
            entry["gold"] = record.gold_step_labels[index].value
        steps.append(entry)
    conclusion: dict[str, object] = {"text": record.conclusion}
    if verdict is not None and result.formal is not None:
        conclusion.update(fol=formula_to_tptp(result.formal.conclusion, symbols),
                          label=verdict.conclusion.label.value)
    return {
        "id": record.id, "dataset": record.dataset, "location": str(record.location),
        "premises": list(record.premises), "conclusion": conclusion,
        "analysis": result.status, "reason": result.reason, "class": result.chain_class,
        "expected_class": record.expected_class, "gold_label": record.label.value,
        "answer": record.answer.value if record.answer else None,
        "answer_correct": result.answer_correct, "valid_path": result.valid_path,
        "conclusion_label": result.conclusion_label.value if result.conclusion_label else None,
        "path": list(verdict.path) if verdict else [],
        "path_conclusion_label": (verdict.path_conclusion.label.value
                                  if verdict and verdict.path_conclusion else None),
        "attempts": result.attempts, "first_executed": result.first_executed,
        "first_matched": result.first_matched, "prover": result.prover,
        "prover_seconds": verdict.seconds if verdict else 0.0,
        "steps": steps, "metadata": dict(record.metadata),
        "repeated_steps": [{"step": p, "repeats": e, "text": t} for p, e, t in result.repeated],
        "fol_quality": [q.to_json() for q in result.quality],
        "restatement_only": result.restatement_only,
        "response": record.response, "answer_cut": record.answer_cut,
        "raw_outputs": list(result.raw_outputs),
        "translation": _translation(result.translation),
    }


def _translation(chain: FormalChain | None) -> dict[str, object] | None:
    """The FOL of a translation, as TPTP (in FOLIO's notation where TPTP has no form for a
    formula, such as one with a free variable): premises, steps, conclusion."""
    if chain is None:
        return None
    symbols = SymbolMap()

    def printed(formula: Formula) -> str:
        try:
            return formula_to_tptp(formula, symbols)
        except TptpError:
            return folio(formula)

    return {"premises": [printed(f) for f in chain.premises],
            "steps": [printed(f) for f in chain.steps],
            "conclusion": printed(chain.conclusion)}
