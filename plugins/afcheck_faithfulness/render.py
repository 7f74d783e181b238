"""Human-readable text for a case: one line for summaries, a block for failure details."""

from __future__ import annotations

import functools

from afcheck.printable import one_line as squash
from afcheck.types import Formalisation, Verdict, VerdictKind
from afcheck_faithfulness.records import CaseResult

_SYMBOL = {"proved": "⊤", "refuted": "⊥", "inconclusive": "∅"}


def verdict_text(verdict: Verdict | None, formalisation: Formalisation | None) -> str:
    if formalisation is None:
        return "∅ (not perturbed)"
    if not formalisation.ok:
        label = "TC-Fail" if formalisation.status.value == "tc_fail" else "AF-Fail"
        return f"∅ ({label}: {formalisation.reason})"
    if verdict is None:
        return "∅"
    text = f"{_SYMBOL[verdict.kind.value]} {verdict.kind.value} by {verdict.backend}"
    if verdict.certified and verdict.judged_by:
        text += f" (certified by the judge {verdict.judged_by})"
    elif verdict.unjudged is not None and verdict.kind is VerdictKind.INCONCLUSIVE:
        text += f" (the Lean REPL {verdict.unjudged.value} it; no judge certified it)"
    elif not verdict.certified:
        text += " (not certified)"
    if verdict.reason:
        text += f": {verdict.reason}"
    return text


def one_line(result: CaseResult) -> str:
    """Why a case failed or was skipped, in one line."""
    if result.excluded:
        return result.excluded
    parts = []
    if result.error_induction:
        parts.append(f"error induction: the valid step was formalised into a refutable "
                     f"statement{_evidence(result.z)}")
    if result.silent_correction:
        parts.append("silent correction: the perturbed (invalid) step was formalised into a "
                     f"provable statement{_evidence(result.z_bar)}")
    if result.af_fail_original:
        parts.append(f"AF failure on the step: {result.original.reason or 'no statement'}")
    if result.perturbed is not None and result.af_fail_perturbed:
        parts.append(f"AF failure on the perturbed step: {result.perturbed.reason}")
    if not parts:
        parts.append(f"undecided: z = {verdict_text(result.z, result.original)}; "
                     f"z̄ = {verdict_text(result.z_bar, result.perturbed)}")
    return "; ".join(map(_squashed_part, parts))


def details(result: CaseResult, line: str | None = None) -> str:
    """Both inputs, both statements, both verdicts and the evidence; ``line``: the case's
    :func:`one_line`, when the caller has it already."""
    perturbation = result.perturbation
    edit = ""
    if perturbation.edit is not None:
        edit = f"  [{perturbation.rule}: {perturbation.edit.old!r} → {perturbation.edit.new!r}]"
    elif perturbation.rule:
        edit = f"  [{perturbation.rule}]"
    lines = [
        f"{result.case_id}: {one_line(result) if line is None else line}",
        f"  step        : {squash(result.step.text)}",
        f"  perturbed   : {squash(perturbation.text or '(none)')}{edit}",
        f"  AF(x)       : {_statement(result.original)}",
        f"  AF(x̄)       : {_statement(result.perturbed)}",
        f"  z  = Prove(AF(x)) : {verdict_text(result.z, result.original)}",
        f"  z̄  = Prove(AF(x̄)) : {verdict_text(result.z_bar, result.perturbed)}",
    ]
    for name, verdict in (("z", result.z), ("z̄", result.z_bar)):
        if verdict is not None and verdict.evidence:
            lines.append(f"  evidence {name:<2}: {squash(verdict.evidence, 400)}")
    if result.step.source is not None:
        lines.append(f"  source      : {result.step.source}")
    return "\n".join(lines)


def _statement(formalisation: Formalisation | None) -> str:
    if formalisation is None:
        return "(no perturbation)"
    if formalisation.statement:
        return squash(formalisation.statement, 400)
    return f"(none: {formalisation.reason})"


def _evidence(verdict: Verdict | None) -> str:
    if verdict is None:
        return ""
    cx = verdict.counterexample
    if cx:
        shown = ", ".join(f"{k} = {v}" for k, v in list(cx.items())[:6])
        return f" ({verdict.backend}; counterexample {shown})"
    return f" ({verdict.backend})"


_squashed_part = functools.lru_cache(maxsize=1024)(squash)
"""A part of :func:`one_line`, squashed once per text: most parts are a failure's reason
that many cases share word for word (``AF failure on the step: no equation …``)."""
