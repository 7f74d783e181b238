"""The deterministic arithmetic judge: exact, conservative, LaTeX-aware."""

from __future__ import annotations

from fractions import Fraction

import pytest
from afcheck_regex.judge import effectiveness, judge_claim
from hypothesis import given
from hypothesis import strategies as st


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("3 + 4 = 7", "true"),
        ("3 + 4 = 8", "false"),
        (r"So, the number of blue sticks is \(9 + 5 = 14\).", "true"),
        (r"\(1/3 \times 18 = 6\)", "true"),
        (r"\(\frac{1}{3} \times 18 = 7\)", "false"),
        (r"\[R = 4 \times 5 = 20\]", "true"),
        (r"\[R = 4 \times 5 = 21\]", "false"),
        (r"\(\dfrac{3}{4} = 0.75\)", "true"),
        (r"\$1,000 - \$250 = \$750", "true"),
        ("1,000 + 1 = 1,001", "true"),
        (r"$3 \cdot 4 \le 12$", "true"),
        (r"$3 \div 4 > 1$", "false"),
        ("2 < 3 < 1", "false"),
        ("Total number of sticks = 9 (red) + 14 (blue) + 11 (yellow) = 34.", "true"),
        ("- Total books = 2 + 1 = 3", "true"),
        ("4 cm + 16 cm = 20 cm", "true"),
        ("20% = 0.2", "true"),
        ("50% * 20 = 10", "true"),
        ("2^{10} = 1024", "true"),
        (r"\(x = 3\) and \(y = 3 + 4 = 7\)", "true"),
        ("Tue = 4 + 1.", "unknown"),
        ("half of 10 = 5", "unknown"),
        ("3 times 4 = 12", "unknown"),
        ("the sum of 3 and 4 = 7", "unknown"),
        ("100 + 10% = 110", "unknown"),
        ("0.75 * 100 = 75%", "unknown"),
        ("3 hours + 30 minutes = 3.5 hours", "unknown"),
        ("90 minutes = 1 hour 30 minutes", "unknown"),
        ("3 boxes = 12 apples", "unknown"),
        (r"1/3 \approx 0.33", "unknown"),
        (r"\(6B + 7 = 37\)", "unknown"),
        ("5! = 120", "unknown"),
        ("3:4 = 6:8", "unknown"),
        (r"\(\sqrt{16} = 4\)", "unknown"),
        (r"\(\frac{12}{0} = 1\)", "unknown"),
        ("17 is odd", "unknown"),
        (r"The answer is \(\boxed{34}\).", "unknown"),
    ],
)
def test_verdicts(text: str, verdict: str) -> None:
    assert judge_claim(text).verdict == verdict


def test_expression_is_normalised() -> None:
    assert judge_claim(r"\(1,000 \times 2 = 2,000\)").expression == "1000 * 2 = 2000"


def test_false_reason_names_the_relation() -> None:
    judgement = judge_claim("2 + 2 = 4, so 2 + 3 = 6")
    assert judgement.verdict == "false"
    assert "2 + 3 = 6" in judgement.reason


def test_effectiveness() -> None:
    assert effectiveness("3 + 4 = 7", "3 + 4 = 9") == "effective"
    assert effectiveness("3 < 5", "3 < 4") == "ineffective"
    assert effectiveness("x = 7", "x = 9") == "unknown"
    assert effectiveness("3 + 4 = 8", "3 + 4 = 9") == "unknown"
    # The edit fell outside the judged relation: nothing is known about it.
    assert effectiveness("In 2 days, 3 + 4 = 7", "In 3 days, 3 + 4 = 7") == "unknown"


# -- properties ------------------------------------------------------------------------------

_ints = st.integers(min_value=0, max_value=10**6)
_ops = st.sampled_from(["+", "-", "*", "/"])
_APPLY = {
    "+": lambda a, b: a + b,
    "-": lambda a, b: a - b,
    "*": lambda a, b: a * b,
    "/": lambda a, b: a / b,
}


def _latex(value: int) -> str:
    return f"{value:,}"


def _render(a: int, op: str, b: int, style: str) -> str:
    if style == "plain":
        return f"{a} {op} {b}"
    if style == "latex":
        sym = {"*": r"\times", "/": r"\div"}.get(op, op)
        return rf"{_latex(a)} {sym} {_latex(b)}"
    if op == "/":
        return rf"\frac{{{a}}}{{{b}}}"
    return rf"{a} \cdot {b}" if op == "*" else f"{a} {op} {b}"


def _format(value: Fraction) -> str | None:
    if value.denominator == 1:
        return str(value.numerator)
    return None


@given(_ints, _ops, _ints, st.sampled_from(["plain", "latex", "frac"]), st.integers(-3, 3))
def test_exact_arithmetic(a: int, op: str, b: int, style: str, delta: int) -> None:
    if op == "/" and b == 0:
        return
    expected = _APPLY[op](Fraction(a), Fraction(b))
    rhs = _format(expected + delta)
    if rhs is None:
        return
    text = rf"So we get \({_render(a, op, b, style)} = {rhs}\)."
    assert judge_claim(text).verdict == ("true" if delta == 0 else "false")


@given(
    st.sampled_from(["half of", "twice", "3 times", "the sum of 2 and", "5 more than", "2 dozen"]),
    _ints,
    _ints,
)
def test_qualified_numbers_are_never_judged_false(qualifier: str, a: int, b: int) -> None:
    assert judge_claim(f"{qualifier} {a} = {b}").verdict != "false"


@given(_ints, _ints, st.sampled_from(["hours", "times", "dozen", "of them"]), _ints)
def test_quantity_continued_by_words_is_not_judged(a: int, b: int, word: str, c: int) -> None:
    # "= 1 hour 30 minutes", "= 3 times 4": the number before the words is not the whole value.
    assert judge_claim(f"{a} + {b} = {c} {word} {a}").verdict != "false"


@given(_ints, _ints)
def test_chain_is_a_conjunction(a: int, b: int) -> None:
    good = f"{a} + {b} = {a + b} = {b + a}"
    bad = f"{a} + {b} = {a + b} = {a + b + 1}"
    assert judge_claim(good).verdict == "true"
    assert judge_claim(bad).verdict == "false"


@pytest.mark.heavy
def test_nesting_deeper_than_the_judge_reads_is_unknown() -> None:
    shallow = "(" * 60 + "1 + 2" + ")" * 60 + " = 3"
    assert judge_claim(shallow).verdict == "true"
    for depth in (65, 5_000):
        deep = "(" * depth + "1 + 2" + ")" * depth + " = 3"
        assert judge_claim(deep).verdict == "unknown"
    assert judge_claim("-" * 5_000 + "1 = 1").verdict == "unknown"
