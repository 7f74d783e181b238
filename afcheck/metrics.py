"""Proportions with intervals: what every method's metrics are made of."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field

Z_95 = 1.959963984540054


@dataclass(frozen=True)
class Interval:
    low: float
    high: float


def wilson(successes: int, trials: int, z: float = Z_95) -> Interval:
    """The Wilson score interval of a binomial proportion; [0, 1] when there are no trials."""
    if trials == 0:
        return Interval(0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    # At p = 0 or 1 the bound is exact; rounding would otherwise leave p just outside it.
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return Interval(low, high)


def ratio(count: int, total: int) -> float:
    """``count / total``, 0 when there is nothing to count."""
    return count / total if total else 0.0


@dataclass(frozen=True)
class Rate:
    """A proportion: ``count`` of ``total``, with its 95% Wilson interval. Every method's
    rates are this one type, written one way (:meth:`to_json`)."""

    count: int
    total: int

    @property
    def value(self) -> float | None:
        """``count / total``; ``None`` when there is nothing to count."""
        return self.count / self.total if self.total else None

    @property
    def interval(self) -> Interval:
        return wilson(self.count, self.total)

    def to_json(self) -> dict[str, object]:
        ci = self.interval
        return {"count": self.count, "total": self.total, "value": self.value,
                "ci95": [ci.low, ci.high]}

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> Rate:
        count, total = data.get("count"), data.get("total")
        if not isinstance(count, int) or not isinstance(total, int) \
                or isinstance(count, bool) or isinstance(total, bool):
            raise ValueError(f"a rate needs whole 'count' and 'total', not {dict(data)!r}")
        return cls(count, total)


@dataclass(frozen=True)
class Count:
    """A whole number of items (``N``, ``correct``): compared as a count, never as a rate."""

    value: int

    def to_json(self) -> dict[str, object]:
        return {"type": "count", "value": self.value}


@dataclass(frozen=True)
class Score:
    """A figure that is not a proportion of items (an index made of rates, a mean, a
    distance), with its interval when it has one; ``None`` when there was nothing to
    measure."""

    value: float | None
    interval: Interval | None = None

    def to_json(self) -> dict[str, object]:
        ci = self.interval
        return {"type": "score", "value": self.value,
                "ci95": None if ci is None else [ci.low, ci.high]}


Metric = Rate | Count | Score
"""One figure a method measures: the one set of types the result file, gates, JUnit and the
report read, so that none of them guesses what a number is from its name."""


def metric_to_json(metric: Metric) -> dict[str, object]:
    """A metric as the result file writes it: an object whose ``type`` says which it is."""
    data = metric.to_json()
    if isinstance(metric, Rate):
        data = {"type": "rate", **data}
    return data


def metric_from_json(data: object) -> Metric:
    """The metric :func:`metric_to_json` wrote; :class:`ValueError` for anything else."""
    if not isinstance(data, Mapping):
        raise ValueError(f"a metric is an object with a 'type', not {data!r}")
    kind = data.get("type")
    if kind == "rate":
        return Rate.from_json(data)
    value = data.get("value")
    if kind == "count":
        if not isinstance(value, int) or isinstance(value, bool):
            raise ValueError(f"a count needs a whole 'value', not {value!r}")
        return Count(value)
    if kind == "score":
        if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float))):
            raise ValueError(f"a score needs a number or null 'value', not {value!r}")
        ci = data.get("ci95")
        interval = None
        if isinstance(ci, (list, tuple)) and len(ci) == 2 \
                and all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in ci):
            interval = Interval(float(ci[0]), float(ci[1]))
        return Score(None if value is None else float(value), interval)
    raise ValueError(f"unknown metric type {kind!r}: expected 'rate', 'count' or 'score'")


def metric_value(metric: Metric) -> float | None:
    """The number a gate bounds and a table shows: a rate's proportion, a count, a score."""
    return float(metric.value) if metric.value is not None else None


@dataclass(frozen=True)
class Metrics:
    """A method's typed metrics over a run: the overall figures, and the same figures per
    group (dataset), each by name in the order the method gives them."""

    overall: Mapping[str, Metric]
    groups: Mapping[str, Mapping[str, Metric]] = field(default_factory=dict)

    def value(self, name: str, group: str | None = None) -> float | None:
        """A metric's :func:`metric_value`; ``None`` when it is not measured there."""
        figures = self.overall if group is None else self.groups.get(group, {})
        metric = figures.get(name)
        return None if metric is None else metric_value(metric)

    def to_json(self) -> dict[str, object]:
        return {"overall": {k: metric_to_json(m) for k, m in self.overall.items()},
                "groups": {g: {k: metric_to_json(m) for k, m in figures.items()}
                           for g, figures in self.groups.items()}}

    @classmethod
    def from_json(cls, data: object) -> Metrics:
        """What :meth:`to_json` wrote; :class:`ValueError` for anything else."""
        if not isinstance(data, Mapping):
            raise ValueError(f"metrics are an object with 'overall', not {data!r}")

        def figures(obj: object) -> dict[str, Metric]:
            if not isinstance(obj, Mapping):
                raise ValueError(f"metrics by name are an object, not {obj!r}")
            return {str(k): metric_from_json(v) for k, v in obj.items()}

        groups = data.get("groups", {})
        if not isinstance(groups, Mapping):
            raise ValueError(f"'groups' is an object of groups, not {groups!r}")
        return cls(figures(data.get("overall", {})),
                   {str(g): figures(v) for g, v in groups.items()})
