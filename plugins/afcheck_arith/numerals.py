"""Numerals: the one grammar every plugin reads a number written in a step by.

A numeral is a run of ASCII digits, its thousands maybe grouped by ``,``, LaTeX's ``{,}`` or
its thin space ``\\,`` (``1,000``, ``1{,}000`` and ``1\\,000`` are one thousand), maybe with
decimals (``2.50`` is 5/2). A group is exactly three digits after one to three: ``1,0000``
is the numerals ``1`` and ``0000``.

Two readings use it:

- :data:`NUMERAL` matches a numeral where a reader already knows one starts (the scanner of
  :mod:`afcheck_arith.tokens`, which decides from what it has read whether ``x1`` is a name);
- :func:`find_numerals` finds the numerals a text writes on their own: not the digits of a
  name (``x1``, ``H2O``, ``x_1``, ``x_{10}``, ``\\frac12``), of an ordinal (``2nd``), of a
  mantissa (``1e5``) or of a dotted run (``1.2.3``, ``.5``). Digits against the letters after
  them are a numeral (``2x``, ``5cm``): a coefficient or a quantity is a number written.
  A ``%`` or ``\\%`` after one (blanks between allowed) makes it a percentage.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from fractions import Fraction

GRAMMAR = (
    r"[0-9]{1,3}(?:(?:,|\{,\}|\\,)[0-9]{3})+(?![0-9])(?:\.[0-9]+)?"
    r"|[0-9]+(?:\.[0-9]+)?"
)
"""The numeral's grammar, as regular-expression source without groups (for embedding)."""

NUMERAL = re.compile(GRAMMAR)
"""A numeral, matched where one is known to start (``NUMERAL.match(text, i)``)."""

_GROUPING = re.compile(r",|\{,\}|\\,")
_STANDALONE = re.compile(
    rf"(?<![\w.\\])(?<!_\{{)(?P<numeral>{GRAMMAR})(?![0-9]|\.[0-9])(?P<percent>\s*\\?%)?"
)
ORDINAL_SUFFIX = r"(?:st|nd|rd|th)\b"
"""What makes the digits before it an ordinal (``2nd``, ``10th``), not a numeral."""
_NOT_ALONE_AFTER = re.compile(rf"{ORDINAL_SUFFIX}|[eE][0-9]")
"""What, right after the digits, makes them part of an ordinal or of a mantissa."""


@dataclass(frozen=True)
class Numeral:
    """One numeral of a text: ``text[start:end]``, its exact value and how it is written."""

    start: int
    end: int
    text: str
    """As written, separators included (not the percent sign)."""
    value: Fraction
    places: int
    """Digits after the decimal point."""
    separator: str = ""
    """The thousands separator it is written with (``,``, ``{,}``, ``\\,``), or ``""``."""
    percent: bool = False
    """Written with ``%`` or ``\\%`` after it."""

    @property
    def units(self) -> int:
        """The magnitude as a whole count of ``10**-places``: ``3.75`` is 375."""
        return int(self.value * 10**self.places)


def digits(written: str) -> str:
    """``written`` without its thousands separators: ``1{,}000.5`` is ``1000.5``."""
    return _GROUPING.sub("", written) if "," in written else written


@functools.lru_cache(maxsize=4096)
def numeral_value(written: str) -> Fraction:
    """The exact value of one numeral as written (separators allowed). Memoised: steps write
    the same numerals again and again, and parsing a string is a ``Fraction``'s slowest path."""
    return Fraction(digits(written))


def numeral(written: str, start: int = 0) -> Numeral:
    """The one numeral ``written`` is; raises :class:`ValueError` when it is not exactly one."""
    if NUMERAL.fullmatch(written) is None:
        raise ValueError(f"not a numeral: {written!r}")
    return _numeral(written, start, start + len(written), False)


def find_numerals(text: str) -> list[Numeral]:
    """The numerals ``text`` writes on their own, left to right (see the module's rules)."""
    found = []
    for match in _STANDALONE.finditer(text):
        start, end = match.span("numeral")
        if _NOT_ALONE_AFTER.match(text, end):
            continue
        found.append(_numeral(match.group("numeral"), start, end, bool(match.group("percent"))))
    return found


def _numeral(written: str, start: int, end: int, percent: bool) -> Numeral:
    grouped = _GROUPING.search(written)
    places = len(written.partition(".")[2])
    return Numeral(start, end, written, numeral_value(written), places,
                   grouped.group() if grouped else "", percent)
