"""The shared reader, and the property that makes it one: the judge and the ``literal``
formaliser never disagree about a step both of them decide."""

from __future__ import annotations

from fractions import Fraction

import pytest
from afcheck_arith.claims import Unreadable, read_parts, read_step
from afcheck_arith.values import evaluate
from afcheck_literal.formaliser import formalise_text
from afcheck_literal.scope import UnknownName
from afcheck_regex.judge import judge_claim
from hypothesis import given
from hypothesis import strategies as st

from afcheck.lean import parse_theorem
from afcheck.lean.elaborate import elaborate
from afcheck.lean.evaluate import holds


def test_read_parts_sets_an_unreadable_clause_aside_with_its_reason() -> None:
    parts = read_parts("Half of 10 = 5, so 5 + 3 = 8.")
    assert [c.text for c in parts.chains] == ["5 + 3 = 8"]
    assert len(parts.unread) == 1 and "half" in parts.unread[0].lower()


def test_words_read_as_operators_are_marked() -> None:
    (chain,) = read_parts("3 times 4 = 12").chains
    assert chain.spelled
    (chain,) = read_parts("3 * 4 = 12").chains
    assert not chain.spelled


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("20% = 0.2", [Fraction(1, 5), Fraction(1, 5)]),
        ("25/100 = 25%", [Fraction(1, 4), Fraction(1, 4)]),
        ("0.5 > 40%", [Fraction(1, 2), Fraction(2, 5)]),
    ],
)
def test_a_percentage_compared_with_another_value_is_a_fraction(
    text: str, values: list[Fraction]
) -> None:
    (chain,) = read_step(text).chains
    assert [evaluate(e, {}) for e in chain.elements] == values


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("0.4 × 100 = 40%", "a percentage or a label"),
        ("x = 40%", "a percentage or a label"),
        ("3 hours + 30 minutes = 3.5 hours", "a unit conversion"),
        ("100 + 10% = 110", "percentage in a sum"),
        ("3:4 = 6:8", "':'"),
    ],
)
def test_readings_that_could_mean_two_things_are_refused(text: str, reason: str) -> None:
    with pytest.raises(Unreadable, match=reason):
        read_step(text)


def test_rates_keep_their_units_in_products() -> None:
    (chain,) = read_step("He drives 1.5 hours × 60 minutes/hour = 90 minutes.").chains
    assert [evaluate(e, {}) for e in chain.elements] == [Fraction(90), Fraction(90)]


# -- one reader: the judge's verdict is the truth of literal's statement ---------------------

_number = st.integers(0, 500).map(str) | st.sampled_from(["1,000", "2.5", "0.75", "12%", "3"])
_operator = st.sampled_from(["+", "-", "*", "/", "\\times", "\\cdot", "\\div", "×", "−", "x"])
_relation = st.sampled_from(["=", "<", ">", "\\le", "\\ge", "\\neq", "≠"])
_word = st.sampled_from(["", "apples", "hours", "minutes", "of", "times", "(red)", "dozen"])


@st.composite
def _texts(draw: st.DrawFn) -> str:
    parts = [draw(_number), draw(_word)]
    for _ in range(draw(st.integers(1, 3))):
        parts += [draw(_operator), draw(_number), draw(_word)]
    parts += [draw(_relation), draw(_number), draw(_word)]
    body = " ".join(p for p in parts if p)
    wrap = draw(st.sampled_from(["{}", "So \\({}\\).", "$ {} $", "Total = {}"]))
    return wrap.format(body)


@given(_texts())
def test_the_judge_and_the_formaliser_read_alike(text: str) -> None:
    verdict = judge_claim(text).verdict
    if verdict == "unknown":
        return
    try:
        statement = formalise_text(text)
    except (Unreadable, UnknownName):
        return  # the formaliser may refuse more (numbers in prose); it never reads otherwise
    typed = elaborate(parse_theorem(statement))
    assert holds(typed, {})[1] == (verdict == "true"), (text, statement)


def test_a_rate_is_a_unit_of_its_own() -> None:
    # hours per week added to weeks converts nothing: the sum is the numbers'
    text = "\\[ 8 \\text{ hours/week} + 6 \\text{ weeks} = 48 \\text{ hours} \\]"
    (chain,) = read_step(text).chains
    assert [evaluate(e, {}) for e in chain.elements] == [Fraction(14), Fraction(48)]
    with pytest.raises(Unreadable, match="a unit conversion"):
        read_step("10 yards/minute = 600 yards/hour")


def test_arithmetic_outside_every_relation_is_collected() -> None:
    reading = read_step("First, calculate \\( 16 + 21 \\): \\[ 16 + 21 = 37 \\] then 10 - 15")
    assert [e.text for e in reading.expressions] == ["16 + 21", "10 - 15"]
    # a number alone, a fraction, a unit rate, a percentage or a range is no computation
    text = "She pays $5/bag for 25% of 8 bags, 1/3 of them for 10-15 days: 5 + 3 = 8"
    assert read_step(text).expressions == ()


def test_a_counted_subject_before_is_names_the_claim() -> None:
    text = "the total number of socks in 10 pairs is 10 * 2 = 20 socks."
    (chain,) = read_step(text).chains
    assert chain.text == "10 * 2 = 20"
    with pytest.raises(Unreadable, match="joins a number to a claim"):
        read_step("5 and 3 = 8")


def test_the_quantifier_a_refusal_names_is_the_first_in_the_text() -> None:
    # Named by text order, not by a set's order, which changes with the process's hash seed.
    for text, first in (("For each \\(n\\) there is \\(m = n + 1\\).", "for each"),
                        ("There is \\(m\\) for each \\(n\\) with \\(m = n + 1\\).", "there is")):
        with pytest.raises(Unreadable, match=f"quantifier '{first}'"):
            read_step(text)
