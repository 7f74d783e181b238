"""One grammar of numerals: every reader of a step's numbers reads the same values.

The scanner (:mod:`afcheck_arith.tokens`), the standalone numerals
(:func:`afcheck_arith.numerals.find_numerals`), the numbers a step asserts
(:mod:`afcheck_arith.asserted`, what the drift detectors read) and the literals the regex
perturber shifts (:mod:`afcheck_regex.shift`) agree on every numeral written with any of the
thousands separators, decimals and percent signs, in prose and in math.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from afcheck_arith.asserted import step_numbers
from afcheck_arith.numerals import NUMERAL, find_numerals, numeral, numeral_value
from afcheck_arith.spans import in_spans, math_spans
from afcheck_arith.tokens import Kind, scan
from afcheck_regex.shift import editable_numerals, render
from hypothesis import given
from hypothesis import strategies as st

SEPARATORS = ("", ",", "{,}", "\\,")


@st.composite
def _numerals(draw: st.DrawFn) -> tuple[str, Fraction]:
    units = draw(st.integers(0, 10**9))
    places = draw(st.integers(0, 3))
    written = render(units, places, draw(st.sampled_from(SEPARATORS)))
    percent = draw(st.sampled_from(("", "", "%", "\\%")))
    return written + percent, Fraction(units, 10**places)


_JOINS = st.sampled_from((" + ", " = ", " \\times ", " and ", " < ", " - ", " / "))
_WRAPS = st.sampled_from((("", ""), ("\\(", "\\)"), ("\\[", "\\]"), ("$", "$"), ("$$", "$$")))


@st.composite
def _texts(draw: st.DrawFn) -> tuple[str, list[Fraction]]:
    numerals = draw(st.lists(_numerals(), min_size=1, max_size=6))
    joins = [draw(_JOINS) for _ in numerals[1:]]
    body = numerals[0][0] + "".join(j + n for j, (n, _) in zip(joins, numerals[1:], strict=True))
    opener, closer = draw(_WRAPS)
    return f"Then {opener}{body}{closer} holds.", [value for _, value in numerals]


@given(_texts())
def test_every_reader_reads_the_same_values(case: tuple[str, list[Fraction]]) -> None:
    text, values = case
    assert [n.value for n in find_numerals(text)] == values
    assert [t.value for t in scan(text) if t.kind is Kind.NUM] == values
    assert [n.value for n in editable_numerals(text)] == [v for v in values if v]
    written = [(n.value, n.percent) for n in find_numerals(text)]
    assert [(n.value, n.percent) for n in step_numbers(text)] == list(dict.fromkeys(written))


@given(_texts())
def test_the_scanner_and_the_math_spans_agree_on_what_is_math(
        case: tuple[str, list[Fraction]]) -> None:
    text, _ = case
    spans = math_spans(text)
    in_math = [in_spans(n.start, spans) for n in find_numerals(text)]
    assert [t.math for t in scan(text) if t.kind is Kind.NUM] == in_math


@given(st.integers(0, 10**12), st.integers(0, 4), st.sampled_from(SEPARATORS))
def test_a_rendered_numeral_reads_back_as_written(units: int, places: int,
                                                  separator: str) -> None:
    written = render(units, places, separator)
    read = numeral(written)
    assert (read.units, read.places) == (units, places)
    assert read.separator == (separator if len(str(units)) - places > 3 else "")
    assert NUMERAL.fullmatch(written) and numeral_value(written) == Fraction(units, 10**places)


@pytest.mark.parametrize("written", ["1,000", "1{,}000", "1\\,000"])
def test_every_thousands_separator_is_read_by_every_reader(written: str) -> None:
    text = f"so \\({written} + 2 = 1002\\)"
    assert [n.value for n in find_numerals(text)] == [1000, 2, 1002]
    assert [n.value for n in step_numbers(text)] == [1000, 2, 1002]
    assert [t.value for t in scan(text) if t.kind is Kind.NUM] == [1000, 2, 1002]
    assert editable_numerals(text)[0].separator == written[1:-3]


@pytest.mark.parametrize("text", ["x1", "H2O", "x_1", "x_{10}", "\\frac12", "2nd", "10th",
                                  "1e5", "1.2.3", ".5", "v2.0"])
def test_digits_of_names_ordinals_mantissas_and_dotted_runs_are_not_numerals(text: str) -> None:
    assert find_numerals(text) == []


def test_digits_against_the_letters_after_them_are_a_numeral() -> None:
    assert [n.text for n in find_numerals("2x + 5cm")] == ["2", "5"]


def test_a_percent_sign_makes_a_percentage_not_part_of_the_numeral() -> None:
    [plain, percent, latex] = find_numerals("3 of 25% and 7 \\%")
    assert not plain.percent and percent.percent and latex.percent
    assert (percent.text, percent.value) == ("25", 25)


def test_a_group_is_three_digits() -> None:
    assert [n.text for n in find_numerals("1,0000 and 12,34")] == ["1", "0000", "12", "34"]
    with pytest.raises(ValueError, match="not a numeral"):
        numeral("1,0000")
