"""The ``equivalence`` metrics: rates with Wilson intervals and the confusion table per
criterion, the share of statements read, the standing of the obligations' verdicts."""

from __future__ import annotations

import pytest
from afcheck_equivalence.metrics import summarise
from afcheck_equivalence.records import (
    Eq,
    Inconclusive,
    Noneq,
    Obligation,
    Result,
    decision_from_json,
)
from afcheck_equivalence.suite import Item

from afcheck.metrics import wilson
from afcheck.types import Status, Verdict, VerdictKind

REF = "theorem a (x : ℝ) (h : x = 2) : x ^ 2 = 4 := by sorry"


def _result(gold: str | None, decision: Eq | Noneq | Inconclusive) -> Result:
    return Result(Item("i", REF, gold=gold, candidate=REF), REF, decision)


def test_metrics_with_wilson_intervals_and_confusion() -> None:
    results = ([_result("equivalent", Eq("sae", ""))] * 3
               + [_result("equivalent", Inconclusive("sae", ""))]
               + [_result("inequivalent", Noneq("sae", "", "prefix"))] * 5
               + [_result("inequivalent", Eq("sae", ""))])
    summary = summarise(results)["sae"]
    assert (summary.coverage.count, summary.coverage.total) == (3, 4)
    assert summary.coverage.interval == wilson(3, 4)
    assert summary.false_positive_rate.value == pytest.approx(1 / 6)
    assert summary.noneq_rate.value == pytest.approx(5 / 10)
    assert summary.confusion["equivalent"] == {"Eq": 3, "Noneq": 0, "Inconclusive": 1}
    assert summary.to_json()["false_positive_rate"]["ci95"] == list(
        (wilson(1, 6).low, wilson(1, 6).high))


def test_the_summary_prints_the_share_of_statements_the_front_end_reads() -> None:
    from afcheck_equivalence.metrics import EquivalenceSummary, share_read

    unreadable = "theorem b (x : ℝ) : x = := by sorry"
    results = [
        Result(Item("1", REF, gold="equivalent"), REF, Eq("sae", "same")),
        Result(Item("2", REF, gold="inequivalent"), unreadable, Inconclusive("sae", "unread")),
        Result(Item("3", REF), None, Inconclusive("sae", "no candidate")),
    ]
    # REF counted once, the unreadable candidate and the missing one as not read
    assert share_read(results) == (1, 3)
    summary = EquivalenceSummary(summarise(results), {}, read=share_read(results))
    assert "  front end: read 1 of 3 statements (33.3%)" in summary.lines()
    assert summary.sections()["details"]["read"] == {"statements": 3, "read": 1}


def test_the_share_read_counts_what_the_decisions_record_without_reading_again() -> None:
    from afcheck_equivalence.metrics import share_read

    other = "theorem c (y : ℝ) : y = y := by sorry"
    # both statements read fine; the decision's record is what is counted
    recorded = [Result(Item("1", REF), other, Eq("sae", "same", read=(True, False)))]
    assert share_read(recorded) == (1, 2)
    # a decision that records nothing (a stopped pair) is read here
    stopped = [Result(Item("1", REF), other, Inconclusive("sae", "time limit: …"))]
    assert share_read(stopped) == (2, 2)
    again = decision_from_json(Eq("sae", "same", read=(True, False)).to_json())
    assert again.read == (True, False)
    assert decision_from_json(Eq("sae", "same").to_json()).read is None


def test_the_junit_properties_count_the_obligations_verdicts_by_judge() -> None:
    from afcheck_equivalence.method import Equivalence

    from afcheck.method import Case, ItemOutcome, ItemResult

    judged = Verdict(VerdictKind.PROVED, "deepseek", certified=True, judged_by="afcheck")
    unjudged = Verdict(VerdictKind.INCONCLUSIVE, "deepseek", unjudged=VerdictKind.PROVED)
    smt = Verdict(VerdictKind.REFUTED, "smt", counterexample={"x": "3"})
    nothing = Verdict(VerdictKind.INCONCLUSIVE, "smt", reason="timeout")
    failed = Obligation("conclusion", "theorem c : False := by sorry", smt)
    decisions: dict[str, Eq | Noneq | Inconclusive] = {
        "1": Eq("sae", "same", certificate=(Obligation("premises", REF, judged),
                                            Obligation("conclusion", REF, judged))),
        # The failed obligation is also among the obligations: counted once.
        "2": Noneq("sae", "differs", "conclusion", failed, obligations=(failed,)),
        "3": Inconclusive("sae", "open", obligations=(Obligation("premises", REF, unjudged),
                                                      Obligation("conclusion", REF, nothing))),
    }
    items = []
    for key, decision in decisions.items():
        item = Item(key, REF, candidate=REF, gold="equivalent", group="minif2f")
        result = Result(item, REF, decision)
        case = Case(f"s::{key}", key, "equivalence", "s", "minif2f", None, object())
        items.append(ItemResult(case, result, ItemOutcome(Status.PASSED), Status.PASSED))
    summary = Equivalence().summarise(items)
    props = summary.properties("minif2f")
    assert {k: v for k, v in props.items() if k.startswith("verdicts.")} == {
        "verdicts.judged:afcheck": "2", "verdicts.uncertified": "1", "verdicts.unjudged": "1"}
    assert props["sae.N"] == "3"
    assert summary.sections()["verdicts"] == {
        "minif2f": {"judged:afcheck": 2, "uncertified": 1, "unjudged": 1}}
    assert ("  obligation verdicts: 2 certified by the judge afcheck, 1 decided without a judge "
            "(smt), 1 proved or refuted in a Lean REPL without a judge") in summary.lines()
    only_smt = Equivalence().summarise(items[1:2])
    assert only_smt.properties("minif2f")["verdicts.uncertified"] == "1"
    assert not any("obligation verdicts" in line for line in only_smt.lines())
