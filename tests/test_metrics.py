"""Typed metrics (:mod:`afcheck.metrics`): one codec that says what each figure is."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from afcheck.metrics import (
    Count,
    Interval,
    Metric,
    Metrics,
    Rate,
    Score,
    metric_from_json,
    metric_to_json,
    metric_value,
)

rates = st.builds(lambda total, k: Rate(min(k, total), total),
                  st.integers(0, 10_000), st.integers(0, 10_000))
counts = st.builds(Count, st.integers(0, 10**9))
scores = st.builds(Score, st.none() | st.floats(-1e6, 1e6, allow_nan=False),
                   st.none() | st.builds(Interval, st.floats(0, 1), st.floats(0, 1)))
metrics: st.SearchStrategy[Metric] = rates | counts | scores


@given(metrics)
def test_every_metric_survives_the_result_file(metric: Metric) -> None:
    text = json.dumps(metric_to_json(metric))
    assert metric_from_json(json.loads(text)) == metric


@given(st.dictionaries(st.text(min_size=1, max_size=8), metrics, max_size=5),
       st.dictionaries(st.text(max_size=8),
                       st.dictionaries(st.text(min_size=1, max_size=8), metrics, max_size=3),
                       max_size=3))
def test_metrics_survive_the_result_file_with_their_order(overall: dict[str, Metric],
                                                          groups: dict[str, dict[str, Metric]]
                                                          ) -> None:
    written = Metrics(overall, groups)
    read = Metrics.from_json(json.loads(json.dumps(written.to_json())))
    assert read == written
    assert list(read.overall) == list(overall)


def test_each_figure_says_what_it_is_not_its_name() -> None:
    assert metric_to_json(Rate(1, 4))["type"] == "rate"
    assert metric_to_json(Count(4)) == {"type": "count", "value": 4}
    assert metric_to_json(Score(0.5))["type"] == "score"


def test_a_rate_over_nothing_has_no_value() -> None:
    assert metric_value(Rate(0, 0)) is None
    assert Metrics({"FNR": Rate(0, 0)}).value("FNR") is None


def test_values_by_group_and_missing_ones() -> None:
    figures = Metrics({"N": Count(3)}, {"gsm8k": {"FNR": Rate(1, 2)}})
    assert figures.value("N") == 3.0
    assert figures.value("FNR", "gsm8k") == 0.5
    assert figures.value("FNR") is None
    assert figures.value("N", "absent") is None


@pytest.mark.parametrize("bad", [
    3, {"value": 1}, {"type": "rate", "count": 1}, {"type": "count", "value": 1.5},
    {"type": "count", "value": True}, {"type": "score", "value": "x"}, {"type": "ratio"},
])
def test_what_is_no_metric_is_refused(bad: object) -> None:
    with pytest.raises(ValueError):
        metric_from_json(bad)
