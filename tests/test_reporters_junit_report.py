"""JUnit: each group's testsuite properties are its method's typed metrics of that group, then
the method's own properties."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Mapping
from dataclasses import dataclass

from afcheck_reporters.junit_report import xml

from afcheck.method import Case, ItemOutcome, ItemResult
from afcheck.metrics import Count, Metric, Metrics, Rate, Score
from afcheck.summary import RunSummary
from afcheck.types import Status


@dataclass(frozen=True)
class Grouped:
    groups: Mapping[str, Mapping[str, Metric]]
    own: Mapping[str, str]
    method: str = "m"
    evaluated: int = 2

    def metrics(self) -> Metrics:
        return Metrics({}, self.groups)

    def lines(self) -> list[str]:
        return []

    def sections(self) -> dict[str, object]:
        return {}

    def properties(self, group: str) -> dict[str, str]:
        return dict(self.own) if group in self.groups else {}


def _item(group: str) -> ItemResult[object]:
    case: Case[object] = Case(f"s::{group}", group, "m", "s", group, None, None)
    return ItemResult(case, None, ItemOutcome(Status.PASSED), Status.PASSED)


def properties(document: str) -> dict[str, dict[str, str]]:
    root = ET.fromstring(document.split("\n", 1)[1])
    return {str(suite.get("name")): {str(p.get("name")): str(p.get("value"))
                                     for p in suite.iter("property")}
            for suite in root.iter("testsuite")}


def test_a_groups_properties_are_its_typed_metrics_then_the_methods_own() -> None:
    summary = Grouped({"d": {"N": Count(3), "FPR": Rate(1, 3), "FI": Score(0.5),
                             "execution_rate": Rate(0, 0), "bleu": Score(None)}},
                      own={"contingency.faithful": "2"})
    found = properties(xml(RunSummary([_item("d"), _item("other")], {"m": summary})))
    assert found["d"] == {"N": "3", "FPR": "0.333333", "FI": "0.500000",
                          "contingency.faithful": "2"}
    # A group the method measured nothing in has no properties; nothing is made up for it.
    assert found["other"] == {}
