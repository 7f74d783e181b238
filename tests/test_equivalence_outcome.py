"""The test outcome of a pair: the decision against the gold label."""

from __future__ import annotations

from afcheck_equivalence.outcome import outcome
from afcheck_equivalence.records import (
    Eq,
    Inconclusive,
    Noneq,
    Result,
)
from afcheck_equivalence.suite import Item

from afcheck.types import Status

REF = "theorem a (x : ℝ) (h : x = 2) : x ^ 2 = 4 := by sorry"


def _result(gold: str | None, decision: Eq | Noneq | Inconclusive) -> Result:
    return Result(Item("i", REF, gold=gold, candidate=REF), REF, decision)


def test_outcome_follows_the_gold_label() -> None:
    eq, noneq = Eq("sae", "proved"), Noneq("sae", "refuted", "conclusion")
    assert outcome(_result("equivalent", eq)).status is Status.PASSED
    assert outcome(_result("inequivalent", noneq)).status is Status.PASSED
    assert outcome(_result(None, eq)).status is Status.PASSED
    failed = outcome(_result("inequivalent", eq))
    assert failed.status is Status.FAILED and "gold inequivalent, got Eq" in failed.message
    assert REF in failed.details
    assert outcome(_result(None, noneq)).status is Status.FAILED
    structural = outcome(_result("equivalent", Noneq("sae", "different computations",
                                                     "conclusion", evidence="structural")))
    assert "got Noneq [structural] (sae)" in structural.message
    assert '"evidence": "structural"' in structural.details
    skipped = outcome(_result("equivalent", Inconclusive("sae", "z3 unknown")))
    assert skipped.status is Status.SKIPPED and "z3 unknown" in skipped.message
