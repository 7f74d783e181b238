"""Reading the numbers a step asserts (afcheck_arith.asserted)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from afcheck_arith.asserted import (
    has_fraction,
    has_negative,
    mentions_reals,
    result_numbers,
    step_numbers,
)


def values(text: str) -> list[Fraction]:
    return [n.value for n in step_numbers(text)]


def test_math_spans_are_read_and_prose_is_not() -> None:
    assert values("Step 2: so \\(3 + 4 = 7\\)") == [3, 4, 7]
    assert values("Step 2: so 3 + 4 = 7") == [2, 3, 4, 7]


def test_currency_decimals_thousands_and_percent() -> None:
    assert values("cost \\(4 \\times \\$2.50 = \\$10.00\\)") == [4, Fraction(5, 2), 10]
    assert values("$1{,}250 + 1,000$") == [1250, 1000]
    [pct] = step_numbers("a 25\\% discount")
    assert pct.percent and pct.value == 25


def test_digits_inside_names_are_not_numbers() -> None:
    assert values("x_1 + h2 = 5") == [5]


def test_fraction_negative_and_real_signs() -> None:
    assert has_fraction("\\(7/2\\)") == "7/2"
    assert has_fraction("\\(8/2 = 4\\)") is None
    assert has_fraction("half of them") == "half"
    assert has_negative("1000 − 2 = 686") is None
    assert has_negative("\\(x = -3\\)") == "-3"
    assert has_negative("\\((-2)^2\\)") == "-2"
    assert mentions_reals("for all real numbers x") == "real numbers"
    assert mentions_reals("for all integers") is None


@pytest.mark.parametrize("text, result", [
    ("Compute orange candies: O = 2× 54 = 118.", ["118"]),
    ("Its average speed is \\(180 \\div 2.5 = 72\\) km/h.", ["72"]),
    ("After 20% tax she keeps 80% of \\$675, which is \\$540.", ["540"]),
    ("So 32 - 12 = 20 students do not walk.", ["20"]),
    ("so \\(x^2 \\ge 16 > 9\\).", ["9"]),
    ("\\(1 - \\frac{7}{12} = \\frac{5}{12}\\)", ["5", "12"]),
    ("\\(n^2 + n = n(n + 1)\\)", []),
    ("\\(17 = 5 \\times 3 + 2\\)", []),
    ("Then \\(y = 2n\\)", []),
    ("No claim here: \\(x^2\\)", []),
], ids=lambda value: value if isinstance(value, str) and len(value) < 12 else None)
def test_the_value_a_step_arrives_at(text: str, result: list[str]) -> None:
    assert [n.text for n in result_numbers(text)] == result
