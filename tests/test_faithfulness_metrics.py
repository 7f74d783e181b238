"""The metric formulas on small hand-made outcome sets (paper §4)."""

from __future__ import annotations

import math

import pytest
from afcheck_faithfulness.metrics import compute, summarise
from afcheck_faithfulness.records import CaseResult, Outcome, Perturbation, Step
from hypothesis import given
from hypothesis import strategies as st

from afcheck.metrics import wilson
from afcheck.types import Formalisation, FormalisationStatus, Status, Verdict, VerdictKind

P, R, U = VerdictKind.PROVED, VerdictKind.REFUTED, VerdictKind.INCONCLUSIVE
AF, TC = "af", "tc"


def case(z: VerdictKind | str, z_bar: VerdictKind | str, dataset: str = "d", n: int = 0,
         excluded: str = "") -> CaseResult:
    step = Step(f"s/p/{n}", "s", dataset, "p", str(n), "text")

    def side(value: VerdictKind | str) -> tuple[Formalisation, Verdict | None]:
        if value == AF:
            return Formalisation("k", "f", FormalisationStatus.AF_FAIL, reason="x"), None
        if value == TC:
            return Formalisation("k", "f", FormalisationStatus.TC_FAIL, reason="x"), None
        assert isinstance(value, VerdictKind)
        return (Formalisation("k", "f", FormalisationStatus.OK, statement="theorem t : True"),
                Verdict(value, "test"))

    original, zv = side(z)
    perturbed, zbv = side(z_bar)
    return CaseResult(f"s::p/{n}", step, Perturbation(step.id, "given", "t", "given"),
                      original, perturbed, zv, zbv, excluded=excluded)


def test_faithful_pair_counts_only_tpr() -> None:
    m = compute([case(P, R)])
    assert (m.N, m.FNR, m.FPR, m.AFFR, m.UFLB, m.TPR) == (1, 0, 0, 0, 0, 1)
    assert m.FI == 1.0
    assert m.contingency[Outcome.FAITHFUL.value] == 1


def test_hand_made_set_gives_each_formula() -> None:
    results = [case(P, R), case(P, P), case(R, R), case(R, P), case(AF, R), case(P, TC),
               case(U, U), case(AF, AF)]
    m = compute(results)
    assert m.N == 8
    assert m.FNR == pytest.approx(2 / 8)  # (R, R), (R, P)
    assert m.FPR == pytest.approx(2 / 8)  # (P, P), (R, P)
    assert m.AFFR == pytest.approx(4 / 16)  # AF, TC, AF, AF
    assert m.UFLB == pytest.approx(m.FNR / 2 + m.FPR / 2 + m.AFFR)
    assert m.TPR == pytest.approx(3 / 8)
    tpr, fpr = 3 / 8, 2 / 8
    assert m.FI == pytest.approx(2 * tpr * (1 - fpr) / (tpr + 1 - fpr))
    assert m.tc_fail == 1
    assert m.contingency == {"faithful": 1, "sycophancy": 1, "abstention": 1, "inversion": 1,
                             "inconclusive": 4}


def test_excluded_cases_leave_n_and_are_counted_apart() -> None:
    m = compute([case(P, R), case(P, P, excluded="ineffective perturbation")])
    assert m.N == 1 and m.excluded == 1 and m.FPR == 0


def test_empty_group_has_zero_rates() -> None:
    m = compute([])
    assert (m.N, m.FNR, m.FPR, m.AFFR, m.UFLB, m.TPR, m.FI) == (0, 0, 0, 0, 0, 0, 0)


def test_fi_is_zero_when_nothing_is_proved_and_everything_is_sycophantic() -> None:
    assert compute([case(R, P)]).FI == 0.0


def test_wilson_known_values() -> None:
    low, high = wilson(0, 10).low, wilson(0, 10).high
    assert low == 0.0 and high == pytest.approx(0.2775, abs=1e-4)
    mid = wilson(50, 100)
    assert mid.low == pytest.approx(0.4038, abs=1e-4)
    assert mid.high == pytest.approx(0.5962, abs=1e-4)
    assert wilson(0, 0).low == 0.0 and wilson(0, 0).high == 1.0


def test_per_dataset_and_overall() -> None:
    summary = summarise([case(P, R, "a", 1), case(P, P, "b", 2), case(R, R, "b", 3)])
    assert set(summary.by_dataset) == {"a", "b"}
    assert summary.by_dataset["a"].FPR == 0
    assert summary.by_dataset["b"].FPR == pytest.approx(0.5)
    assert summary.overall.N == 3


sides = st.sampled_from([P, R, U, AF, TC])


@given(st.lists(st.tuples(sides, sides), max_size=40))
def test_uflb_is_the_share_of_failing_sides(pairs: list[tuple[object, object]]) -> None:
    results = [case(z, zb, n=i) for i, (z, zb) in enumerate(pairs)]  # type: ignore[arg-type]
    m = compute(results)
    failing_sides = sum(
        (r.error_induction or r.af_fail_original) + (r.silent_correction or r.af_fail_perturbed)
        for r in results
    )
    if m.N:
        # z = ⊥ and AF(x) = ∅ are mutually exclusive, so UFLB counts each failing side once.
        assert math.isclose(m.UFLB, failing_sides / (2 * m.N))
        assert 0.0 <= m.UFLB <= 1.0
        ci = m.intervals()["UFLB"]
        assert ci.low <= m.UFLB <= ci.high


@given(sides, sides)
def test_status_follows_the_failure_events(z: object, z_bar: object) -> None:
    r = case(z, z_bar)  # type: ignore[arg-type]
    if r.failure_events:
        assert r.status is Status.FAILED
    elif r.outcome is Outcome.FAITHFUL:
        assert r.status is Status.PASSED
    else:
        assert r.status is Status.SKIPPED


def test_summary_counts_rules_and_effectiveness() -> None:
    from dataclasses import replace

    results = [case(P, R, n=1), case(P, R, n=2), case(P, P, n=3)]
    results[0] = replace(results[0], perturbation=replace(results[0].perturbation,
                                                          rule="number", effective=True))
    results[1] = replace(results[1], perturbation=replace(results[1].perturbation,
                                                          rule="operator", effective=False))
    summary = summarise(results)
    assert summary.perturbation_rules == {"given": 1, "number": 1, "operator": 1}
    assert summary.perturbation_effect == {"effective": 1, "ineffective": 1, "unknown": 1}


datasets = st.sampled_from(["a", "b", "c"])


@given(st.lists(st.tuples(sides, sides, datasets, st.booleans()), max_size=40))
def test_the_overall_metrics_are_those_of_every_case_counted_together(
        cases: list[tuple[object, object, str, bool]]) -> None:
    results = [case(z, zb, d, i, "ineffective" if ex else "")  # type: ignore[arg-type]
               for i, (z, zb, d, ex) in enumerate(cases)]
    summary = summarise(results)
    assert summary.overall == compute(results)
    assert list(summary.overall.contingency) == [o.value for o in Outcome]
    assert summary.overall.to_json() == compute(results).to_json()


@given(sides, sides)
def test_tc_fail_counts_the_sides_that_do_not_type_check(z: object, z_bar: object) -> None:
    r = case(z, z_bar)  # type: ignore[arg-type]
    assert r.tc_fail == (z == TC) + (z_bar == TC)
    assert type(r.tc_fail) is int


def test_each_dataset_says_which_verdicts_a_judge_stands_behind() -> None:
    from dataclasses import replace

    from afcheck_faithfulness.terminal import summary_lines

    judged = case(P, R, n=1)
    judged = replace(judged, z=Verdict(P, "deepseek", certified=True, judged_by="afcheck"))
    unjudged = replace(case(P, R, n=2), z=Verdict(VerdictKind.INCONCLUSIVE, "deepseek",
                                                  unjudged=P))
    summary = summarise([judged, unjudged])
    # z̄ of both is an uncertified smt-like verdict; the unjudged z counts as inconclusive.
    assert summary.standing == {"d": {"judged:afcheck": 1, "unjudged": 1, "uncertified": 2}}
    contingency = summary.by_dataset["d"].contingency
    assert contingency["faithful"] == 1 and contingency["inconclusive"] == 1
    props = summary.properties("d")
    assert props["verdicts.judged:afcheck"] == "1" and props["verdicts.unjudged"] == "1"
    assert "verdicts: 1 certified by the judge afcheck, 2 decided without a judge (smt), 1 " \
           "proved or refuted in a Lean REPL without a judge" in summary_lines(summary)
    only_smt = summarise([case(P, R, n=3)])
    assert not any(line.startswith("verdicts:") for line in summary_lines(only_smt))
