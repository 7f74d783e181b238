"""Gates read a method's typed metrics: a rate over no item is not measured, never 0."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import pytest

from afcheck.errors import UsageError
from afcheck.gates import check_metrics, evaluate, held, parse
from afcheck.method import MethodSummary
from afcheck.metrics import Count, Metric, Metrics, Rate, Score


@dataclass(frozen=True)
class Measured:
    """A summary with the given overall metrics (and N)."""

    overall: Mapping[str, Metric]
    evaluated: int = 4
    method: str = "m"
    asked: list[int] = field(default_factory=list)

    def metrics(self) -> Metrics:
        self.asked.append(1)
        return Metrics(self.overall)

    def lines(self) -> list[str]:
        return []

    def sections(self) -> dict[str, object]:
        return {}

    def properties(self, group: str) -> dict[str, str]:
        return {}


def summaries(**by_method: Measured) -> dict[str, MethodSummary]:
    return dict(by_method)


def test_a_gate_bounds_a_rate_a_score_and_says_which_held() -> None:
    runs = summaries(m=Measured({"UFLB": Rate(1, 4), "FI": Score(0.9), "N": Count(4)}))
    gates = [parse("UFLB<=0.2"), parse("m.FI>=0.8")]
    assert evaluate(gates, runs) == ("UFLB = 0.2500 > 0.2 (--gate UFLB<=0.2)",)
    assert held(gates, runs) == ("FI = 0.9000 ≥ 0.8 (--gate m.FI>=0.8)",)


def test_a_rate_over_no_item_is_not_measured_and_fails_its_gate() -> None:
    runs = summaries(m=Measured({"execution_rate": Rate(0, 0)}))
    gate = parse("execution_rate>=0.5")
    assert evaluate([gate], runs) == (
        "execution_rate: not measured in this run (no item it counts), nothing to hold the "
        "gate to (--gate execution_rate>=0.5)",)
    assert held([gate], runs) == ()


def test_a_gate_finds_the_method_whose_metrics_name_it() -> None:
    runs = summaries(a=Measured({"accuracy": Rate(3, 4)}), b=Measured({"UFLB": Rate(0, 8)}))
    assert evaluate([parse("UFLB<=0.1")], runs) == ()
    assert evaluate([parse("a.UFLB<=0.1")], runs) == (
        "UFLB: not measured by the method 'a' in this run (no item, or no such part) "
        "(--gate a.UFLB<=0.1)",)


def test_a_method_with_no_item_holds_no_gate() -> None:
    runs = summaries(m=Measured({"UFLB": Rate(0, 0)}, evaluated=0))
    assert evaluate([parse("UFLB<=0.3")], runs) == (
        "UFLB: no evaluated item, nothing to hold the gate to (--gate UFLB<=0.3)",)


def test_the_metrics_are_computed_once_per_reading() -> None:
    summary = Measured({"UFLB": Rate(0, 8), "FPR": Rate(0, 4)})
    evaluate([parse("UFLB<=0.1"), parse("FPR<=0.1"), parse("m.FPR<=0.1")], {"m": summary})
    assert len(summary.asked) == 1


def test_a_criterion_s_figure_is_gated_as_part_colon_metric() -> None:
    runs = summaries(equivalence=Measured({"coverage": Rate(3, 4), "sae:coverage": Rate(3, 4),
                                           "syntactic:coverage": Rate(1, 4)}))
    check_metrics([parse("sae:coverage>=0.5"), parse("equivalence.syntactic:coverage>=0.1")],
                  {"equivalence": {"coverage": "min"}})
    assert evaluate([parse("sae:coverage>=0.5")], runs) == ()
    assert evaluate([parse("equivalence.syntactic:coverage>=0.5")], runs) == (
        "syntactic:coverage = 0.2500 < 0.5 (--gate equivalence.syntactic:coverage>=0.5)",)
    with pytest.raises(UsageError, match="no metric 'sae:covrage'"):
        check_metrics([parse("equivalence.sae:covrage>=0.5")],
                      {"equivalence": {"coverage": "min"}})
