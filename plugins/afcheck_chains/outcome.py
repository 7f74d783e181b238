"""One chain's test outcome (passed / failed / skipped, a one-line message, the evidence),
read from its :class:`~afcheck_chains.records.ChainResult`. A passed item has no message (the
run's contract); its details still hold the evidence.

- classified: passes when the class is T1, or the suite's expected class when it gives one;
- label only (no chain): passes when the prover reproduces the gold label (otherwise the
  item is an analysis failure);
- analysis failure: fails (no translation agreed with the gold label within the retries);
- undecided (a limit: a prover's, a budget's, a request with no answer), no answer (none
  found in the response), no reasoning (an answer without a kept reasoning step), cut off
  (the response stopped at the generation limit): skipped, with the reason.
"""

from __future__ import annotations

from functools import partial

from afcheck.method import ItemOutcome
from afcheck.types import Status
from afcheck_chains.records import ChainResult

PASSED, FAILED, SKIPPED = Status.PASSED, Status.FAILED, Status.SKIPPED


def outcome(result: ChainResult) -> ItemOutcome:
    if result.analysis == "analysis_failure":
        return ItemOutcome(FAILED, result.reason, partial(details, result))
    if result.analysis in ("undecided", "no_answer", "no_reasoning", "cut_off"):
        return ItemOutcome(SKIPPED, result.reason, partial(details, result))
    if result.analysis == "label_only":
        return ItemOutcome(PASSED, "", partial(details, result))
    labels = " ".join(label.value[0] if label.value != "Unknown" else "U"
                      for label in result.step_labels)
    want = result.expected_class or "T1"
    message = (f"class {result.chain_class} ({result.reason}); steps [{labels}]; "
               f"path {len(result.path)} step(s)")
    if result.chain_class == want:
        return ItemOutcome(PASSED, "", partial(details, result))
    return ItemOutcome(FAILED, f"expected {want}, got {message}", partial(details, result))


def details(result: ChainResult) -> str:
    """The full evidence: each step with its FOL, label and prover statuses, the path."""
    lines = [f"{result.id} ({result.location})", f"prover: {result.prover}",
             f"status: {result.analysis}: {result.reason}",
             f"gold label: {result.gold_label.value if result.gold_label else '-'}; "
             "predicted answer: "
             f"{result.answer.value if result.answer else '-'}; attempts: {result.attempts}"]
    conclusion = result.conclusion
    if conclusion.label is not None:
        lines.append(f"conclusion: {conclusion.text}  [{conclusion.fol}] -> "
                     f"{conclusion.label.value}")
        for index, step in enumerate(result.steps, 1):
            label = step.label.value if step.label is not None else "-"
            mark = " *path*" if step.in_path else ""
            lines.append(f"  step {index}: {step.text}  [{step.fol}] -> "
                         f"{label} ({'/'.join(step.statuses)}){mark}")
        if result.path_conclusion_label is not None:
            lines.append(f"conclusion under the path: {result.path_conclusion_label.value}")
        if result.path_without_restating_label is not None:
            steps = ", ".join(str(i + 1) for i in result.restating)
            lines.append(f"conclusion under the path without step(s) {steps}, which restate "
                         f"it: {result.path_without_restating_label.value}"
                         + (" (the path is valid only by restating the conclusion)"
                            if result.restatement_only else ""))
    else:
        lines.extend(f"  step {i}: {s.text}" for i, s in enumerate(result.steps, 1))
    for position, earlier, text in result.repeated:
        lines.append(f"  dropped step {position} (its FOL repeats step {earlier}): {text}")
    for quality in result.quality:
        lines.append(f"  vs gold FOL, {quality.role}: FOL-BLEU {quality.bleu:.3f}, "
                     + {True: "equivalent", False: "not equivalent",
                        None: "equivalence undecided"}[quality.equivalent])
    if result.answer_cut:
        lines.append(f"response cut {result.answer_cut}")
    for index, raw in enumerate(result.raw_outputs, 1):
        lines.append(f"model output {index}:\n{raw}")
    return "\n".join(lines)
