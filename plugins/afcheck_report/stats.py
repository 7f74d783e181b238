"""Paired statistics for comparing two runs over the same cases.

Each metric of a run is a proportion of binary units (cases for FNR, FPR and TPR; the two
sides of each case for AFFR and UFLB). Two runs over the same cases give, per unit, a pair of
outcomes; :class:`PairedCounts` tallies them. The difference of the two proportions gets
Newcombe's hybrid score interval for paired data (Newcombe 1998, *Statistics in Medicine*
17:2635, method 10), built from the two Wilson intervals; whether the units that changed
moved one way more than the other gets McNemar's exact test.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from afcheck.metrics import Interval, wilson


@dataclass(frozen=True)
class PairedCounts:
    """Units by (base, new): ``both`` 1 in both runs, ``base_only`` 1 only in the base run,
    ``new_only`` 1 only in the new one, ``neither``."""

    both: int = 0
    base_only: int = 0
    new_only: int = 0
    neither: int = 0

    @property
    def n(self) -> int:
        return self.both + self.base_only + self.new_only + self.neither

    @property
    def base(self) -> float:
        return (self.both + self.base_only) / self.n if self.n else 0.0

    @property
    def new(self) -> float:
        return (self.both + self.new_only) / self.n if self.n else 0.0

    @property
    def difference(self) -> float:
        """new − base."""
        return self.new - self.base

    def add(self, base: bool, new: bool) -> PairedCounts:
        return PairedCounts(self.both + (base and new), self.base_only + (base and not new),
                            self.new_only + (new and not base),
                            self.neither + (not base and not new))


def paired_difference_interval(counts: PairedCounts) -> Interval:
    """The 95% interval of new − base (Newcombe's method 10); [-1, 1] with no units."""
    n = counts.n
    if n == 0:
        return Interval(-1.0, 1.0)
    a, b, c, d = counts.both, counts.base_only, counts.new_only, counts.neither
    p1, p2 = counts.base, counts.new
    w1 = wilson(a + b, n)
    w2 = wilson(a + c, n)
    margins = (a + b) * (c + d) * (a + c) * (b + d)
    phi = (a * d - b * c) / math.sqrt(margins) if margins else 0.0
    # Newcombe's bounds for θ = p1 − p2; the difference reported is p2 − p1 = −θ.
    delta = math.sqrt(max(0.0, (p1 - w1.low) ** 2 - 2 * phi * (p1 - w1.low) * (w2.high - p2)
                          + (w2.high - p2) ** 2))
    epsilon = math.sqrt(max(0.0, (w1.high - p1) ** 2 - 2 * phi * (w1.high - p1) * (p2 - w2.low)
                            + (p2 - w2.low) ** 2))
    theta = p1 - p2
    return Interval(max(-1.0, -(theta + epsilon)), min(1.0, -(theta - delta)))


def mcnemar_exact(base_only: int, new_only: int) -> float:
    """Two-sided p-value of McNemar's exact test: under "no change", each discordant unit is
    equally likely to go either way, so ``min(base_only, new_only)`` is Binomial(n, 1/2)."""
    n = base_only + new_only
    if n == 0:
        return 1.0
    k = min(base_only, new_only)
    if 2 * k == n:
        return 1.0
    return min(1.0, 2.0 * binomial_cdf_half(k, n))


def binomial_cdf_half(k: int, n: int) -> float:
    """P(X ≤ k) for X ~ Binomial(n, 1/2), in log space so that n may be large."""
    log_half_n = n * math.log(0.5)
    logs = [math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1) + log_half_n
            for i in range(k + 1)]
    top = max(logs)
    return min(1.0, math.exp(top) * sum(math.exp(x - top) for x in logs))
