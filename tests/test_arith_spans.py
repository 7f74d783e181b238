"""Math spans: the delimiters, money and escaped dollars."""

from __future__ import annotations

import pytest
from afcheck_arith.spans import math_spans


def _content(text: str) -> list[str]:
    return [text[start:end] for start, end in math_spans(text)]


@pytest.mark.parametrize("text, spans", [
    ("so \\(3 + 4 = 7\\) and \\[x\\]", ["3 + 4 = 7", "x"]),
    ("$$a = b$$ then $c$", ["a = b", "c"]),
    ("she pays $5 and $12 in all", []),
    ("she pays $ 2.50, so $x = 2.5$", ["x = 2.5"]),
    ("\\$3 \\(y\\)", ["y"]),
    ("$x = \\$5$", ["x = \\$5"]),
    ("an unclosed \\( stays prose", []),
    ("a remainder of $0$ when divided by $4$.", ["0", "4"]),
    ("$120 = 2^3 \\times 15$ and $3x$", ["120 = 2^3 \\times 15", "3x"]),
    ("so $10 + $5 = $15 in all", []),
    ("$4 per hour and $5$", ["5"]),
    ("the answer is $\\boxed{2800}$.", ["\\boxed{2800}"]),
])
def test_delimiters_money_and_escapes(text: str, spans: list[str]) -> None:
    assert _content(text) == spans
