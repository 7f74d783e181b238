"""Proportions with intervals: what every method's metrics are made of."""

from __future__ import annotations

import math
from dataclasses import dataclass

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
