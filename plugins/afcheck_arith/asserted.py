"""The numbers a natural-language step asserts, read from its text.

A step written with math delimiters (:mod:`afcheck_arith.spans`) asserts the numbers inside
them; the prose around them (``Step 2:``, ``the 3rd row``) is not read. A step without
delimiters asserts every number it writes. Its numbers are the numerals of
:func:`afcheck_arith.numerals.find_numerals`: digits that are part of a name (``x_1``, ``h2``)
are not numbers; ``1,000``, ``1{,}000`` and ``1\\,000`` are one thousand; ``2.50`` is 5/2;
``25\\%`` is 25 with ``percent`` set.
"""

from __future__ import annotations

import re
from fractions import Fraction

from afcheck_arith.numerals import GRAMMAR, Numeral, find_numerals
from afcheck_arith.spans import math_spans

_NEGATIVE = re.compile(r"(?:^|[(=,;\[{:<>≤≥+*/]|\\times|\\cdot|\bis|\bbe|\bof)\s*[-−]\s*\d")
"""A minus sign with no operand before it: ``= -3``, ``(-2)``, ``is −1`` (not ``5 - 3``)."""
_FRACTION_MARKUP = re.compile(r"\\[dt]?frac\s*\{|\\over\b|\b(?:half|halves|third|quarter)\b")
_SLASH = re.compile(r"(?<![\w.])(\d+)\s*(?:/|\\div|÷)\s*(\d+)(?![\w.])")
_REAL = re.compile(r"\\mathbb\s*\{?R\}?|ℝ|\breal numbers?\b|\breals\b", re.I)


def asserted_text(step_text: str) -> str:
    """The part of the step whose numbers it asserts: its math spans, or all of it."""
    text = step_text.replace("\\$", " ").replace("{,}", ",")
    spans = math_spans(text)
    return " ; ".join(text[start:end] for start, end in spans) if spans else text


def step_numbers(step_text: str) -> list[Numeral]:
    """The numbers the step asserts, in order, each value (and percentage) once; their
    positions are in :func:`asserted_text`."""
    first: dict[tuple[Fraction, bool], Numeral] = {}
    for number in find_numerals(asserted_text(step_text)):
        first.setdefault((number.value, number.percent), number)
    return list(first.values())


_RELATION = re.compile(r"=|<|>|≤|≥|≠|\\(?:leq?|geq?|neq?|lt|gt)(?![a-zA-Z])")
_RESULT_END = re.compile(r" ; |[,;:]\s|\\quad|\\qquad|\\text|\b(?:or|and|so|hence)\b")
_NUMERIC = re.compile(
    r"\s*(?:\\\$|\$)?\s*[-−]?\s*"
    rf"(?:\\[dt]?frac\s*\{{(?:{GRAMMAR})\}}\s*\{{(?:{GRAMMAR})\}}|(?:{GRAMMAR}))(?:\s*\\?%)?")


def result_numbers(step_text: str) -> list[Numeral]:
    """The numbers of the value the step arrives at: the single number (or ``\\frac``)
    after its last relation (``=``, ``<``, ``\\ge`` …), or, for a step in prose with no
    relation and no math, its last number. Empty when the step ends on an expression
    (``= n(n + 1)``, ``= 5 \\times 3 + 2``): its value is not a number to look for.

    Steps end on their claim (``O = 2 × 54 = 118``; ``… which is $540``); the numbers on the
    way there (``2``, ``54``, values carried over from earlier steps) may rightly be absent
    from a statement that derives them, the final value may not.
    """
    text = asserted_text(step_text)
    relations = list(_RELATION.finditer(text))
    if not relations:
        if text != step_text.replace("\\$", " ").replace("{,}", ","):
            return []  # math without a relation: no value is claimed
        return step_numbers(step_text)[-1:]
    tail = text[relations[-1].end():]
    end = _RESULT_END.search(tail)
    tail = tail[:end.start()] if end else tail
    match = _NUMERIC.match(tail)
    if match is None:
        return []
    rest = tail[match.end():]
    if rest.strip() and rest.strip()[0] not in ".)" and not (
            rest[:1].isspace() and rest.strip()[0].isalpha()):
        return []  # an expression follows (``5 \\times 3``, ``2n``): not a single value
    return step_numbers(match.group(0))


def has_fraction(step_text: str) -> str | None:
    """The first sign that the step works with non-integers (``2.5``, ``\\frac``, ``7/2``),
    quoted; ``None`` if there is none."""
    text = asserted_text(step_text)
    for number in step_numbers(step_text):
        if number.value.denominator != 1:
            return number.text
    markup = _FRACTION_MARKUP.search(text)
    if markup:
        return markup.group(0).rstrip("{ ")
    for match in _SLASH.finditer(text):
        numerator, denominator = int(match.group(1)), int(match.group(2))
        if denominator and numerator % denominator:
            return match.group(0)
    return None


def has_negative(step_text: str) -> str | None:
    """The first negative number the step writes, quoted; ``None`` if there is none."""
    match = _NEGATIVE.search(asserted_text(step_text))
    if match is None:
        return None
    return re.sub(r"^.*?([-−])", r"\1", match.group(0)).replace(" ", "")


def mentions_reals(step_text: str) -> str | None:
    """``ℝ``, ``\\mathbb{R}`` or "real number(s)" as written in the step; ``None`` if absent."""
    match = _REAL.search(step_text)
    return match.group(0) if match else None
