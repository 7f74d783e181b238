"""The equivalence records and their codec: decisions through the result cache, results
through the result file."""

from __future__ import annotations

import json

from afcheck_equivalence.method import Equivalence
from afcheck_equivalence.records import (
    Decision,
    Eq,
    Inconclusive,
    Noneq,
    Obligation,
    Result,
    decision_from_json,
    from_json,
    to_json,
)
from afcheck_equivalence.suite import Item

from afcheck.types import Verdict, VerdictKind

REF = "theorem a (x : ℝ) (h : x = 2) : x ^ 2 = 4 := by sorry"
CAND = "theorem b (x : ℝ) (h : x = 2) : x ^ 2 = 5 := by sorry"


def test_decisions_survive_the_result_cache() -> None:
    verdict = Verdict(VerdictKind.REFUTED, "smt", reason="r", evidence="x = 2",
                      counterexample={"x": "2"})
    failed = Obligation("conclusion", "theorem t : False := by sorry", verdict)
    for decision in (Noneq("sae", "why", "conclusion", failed, (("y", "x"),), (failed,),
                           ("alignments-capped",)),
                     Eq("sae", "ok", (("y", "x"),), (failed,)),
                     Inconclusive("sae", "unknown", "premises")):
        again = decision_from_json(json.loads(json.dumps(decision.to_json())))
        assert again == decision


def _decisions() -> list[Decision]:
    verdict = Verdict(VerdictKind.REFUTED, "smt", reason="r", evidence="x = 2",
                      counterexample={"x": "2"})
    failed = Obligation("conclusion", CAND, verdict)
    return [Noneq("sae", "why", "conclusion", failed, (("x", "x"),), (failed,),
                  read=(True, True)),
            Noneq("syntactic", "different normal forms", "statement", evidence="structural"),
            Eq("sae", "ok", (("x", "x"),), (failed,), ("vacuous-reference",)),
            Inconclusive("sae", "unknown", "premises")]


def test_a_result_survives_the_result_file() -> None:
    item = Item("p1", REF, candidate=CAND, gold="inequivalent", group="perturbation")
    for decision in _decisions():
        result = Result(item, CAND, decision)
        # What the run adds to the method's record is not the result's, and is not read.
        record = {**json.loads(json.dumps(to_json(result), ensure_ascii=False)),
                  "case_id": "suites/eq::p1", "method": "equivalence", "status": "passed"}
        assert from_json(record) == result
        assert Equivalence().from_json(Equivalence().to_json(result)) == result


def test_a_result_file_record_keeps_its_keys() -> None:
    # The result file's record of a pair is what users' scripts read: its keys stay.
    result = Result(Item("p1", REF, gold="equivalent"), CAND, _decisions()[0])
    assert list(to_json(result)) == [
        "id", "group", "gold", "reference", "candidate", "decision", "criterion", "reason",
        "component", "alignment", "obligations", "flags", "read", "evidence",
        "failed_obligation", "counterexample"]


def test_a_pair_without_a_candidate_or_a_known_gold_label_reads_back_as_such() -> None:
    missing = Result(Item("p2", REF, informal="x is 2"), None,
                     Inconclusive("sae", "the formaliser wrote no candidate statement"))
    again = from_json(to_json(missing))
    assert again.candidate is None and again.item.candidate is None
    assert again.decision == missing.decision
    assert from_json({**to_json(missing), "gold": "maybe"}).item.gold is None
