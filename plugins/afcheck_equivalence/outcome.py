"""The test outcome of one pair: passed when the criterion's decision matches the gold label
(Eq for ``equivalent``, Noneq for ``inequivalent``), or, without gold, when it is Eq; failed
on a mismatch, with the evidence; skipped on Inconclusive, with the reason (failed when the
candidate cannot be Lean: its brackets do not pair up)."""

from __future__ import annotations

import json

from afcheck.method import ItemOutcome
from afcheck.types import Status
from afcheck_equivalence.balance import bracket_problem
from afcheck_equivalence.records import DecisionKind, Noneq, Result

__all__ = ["outcome"]


def outcome(result: Result) -> ItemOutcome:
    decision = result.decision
    record = decision.to_json()
    details = json.dumps(record, ensure_ascii=False, indent=2)
    evidence = f" [{decision.evidence}]" if isinstance(decision, Noneq) else ""
    head = f"{decision.kind.value}{evidence} ({decision.criterion}): {decision.reason}"
    if decision.kind is DecisionKind.INCONCLUSIVE:
        unbalanced = bracket_problem(result.candidate) if result.candidate else ""
        if unbalanced:
            # Text that cannot be Lean is the candidate's failure, not an open question.
            return ItemOutcome(Status.FAILED, f"the candidate is not Lean: {unbalanced}",
                               f"candidate: {result.candidate}\n" + details)
        return ItemOutcome(Status.SKIPPED, head, details)
    expected = {"equivalent": DecisionKind.EQ, "inequivalent": DecisionKind.NONEQ,
                None: DecisionKind.EQ}[result.item.gold]
    if decision.kind is expected:
        return ItemOutcome(Status.PASSED, "", details)
    gold = result.item.gold or "no gold label (Eq expected)"
    return ItemOutcome(Status.FAILED, f"gold {gold}, got {head}",
                       f"reference: {result.item.reference}\ncandidate: {result.candidate}\n"
                       + details)
