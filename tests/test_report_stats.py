"""McNemar's exact test and Newcombe's paired difference interval."""

from __future__ import annotations

import math
import random
from fractions import Fraction
from math import comb

import pytest
from afcheck_report.stats import PairedCounts, mcnemar_exact, paired_difference_interval

from afcheck.metrics import wilson


def exact_p(b: int, c: int) -> float:
    """Two-sided exact McNemar p-value in exact rational arithmetic."""
    n, k = b + c, min(b, c)
    tail = Fraction(sum(comb(n, i) for i in range(k + 1)), 2 ** n)
    return float(min(Fraction(1), 2 * tail))


@pytest.mark.parametrize("b, c", [(0, 0), (1, 9), (9, 1), (3, 12), (0, 53), (40, 60),
                                  (500, 560), (5, 5)])
def test_mcnemar_matches_exact_binomial_tail(b: int, c: int) -> None:
    assert mcnemar_exact(b, c) == pytest.approx(exact_p(b, c), rel=1e-9, abs=1e-300)


def test_mcnemar_textbook_value() -> None:
    # 1 vs 9 discordant pairs: p = 2 · (1 + 10) / 2^10
    assert mcnemar_exact(1, 9) == pytest.approx(22 / 1024)


def test_without_correlation_it_is_newcombes_independent_interval() -> None:
    # phi = 0 when a·d = b·c: the interval is then the square-and-add of the Wilson intervals
    counts = PairedCounts(both=6, base_only=4, new_only=12, neither=8)  # 6·8 = 4·12
    base, new = wilson(10, 30), wilson(18, 30)
    p1, p2 = 10 / 30, 18 / 30
    interval = paired_difference_interval(counts)
    assert interval.low == pytest.approx(
        (p2 - p1) - math.sqrt((p2 - new.low) ** 2 + (base.high - p1) ** 2))
    assert interval.high == pytest.approx(
        (p2 - p1) + math.sqrt((new.high - p2) ** 2 + (p1 - base.low) ** 2))


def test_positive_correlation_narrows_the_interval() -> None:
    loose = paired_difference_interval(PairedCounts(5, 10, 10, 5))
    tight = paired_difference_interval(PairedCounts(10, 5, 5, 10))
    assert loose.low < tight.low and tight.high < loose.high


def test_coverage_is_close_to_95_percent() -> None:
    rng = random.Random(7)
    # P(both, base only, new only, neither): base rate .30, new rate .25, correlated
    cells = [0.2, 0.1, 0.05, 0.65]
    truth = (cells[0] + cells[2]) - (cells[0] + cells[1])
    covered = 0
    trials = 2000
    for _ in range(trials):
        tally = [0, 0, 0, 0]
        for cell in rng.choices(range(4), cells, k=120):
            tally[cell] += 1
        interval = paired_difference_interval(PairedCounts(*tally))
        covered += interval.low <= truth <= interval.high
    assert 0.93 <= covered / trials <= 0.975


def test_interval_contains_the_difference_and_stays_in_bounds() -> None:
    for counts in (PairedCounts(0, 0, 0, 50), PairedCounts(0, 50, 0, 0),
                   PairedCounts(10, 0, 40, 0), PairedCounts(3, 4, 5, 6)):
        interval = paired_difference_interval(counts)
        assert -1 <= interval.low <= counts.difference <= interval.high <= 1


def test_paired_counts_tally() -> None:
    counts = PairedCounts().add(True, True).add(True, False).add(False, True).add(False, False)
    assert (counts.both, counts.base_only, counts.new_only, counts.neither) == (1, 1, 1, 1)
    assert counts.base == counts.new == 0.5
