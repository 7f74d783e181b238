"""Numeric literals of a step, and how to shift one while keeping its format.

A literal is a run of digits with optional thousands separators (``1,000``, ``1{,}000``) and
decimals (``3.75``). Only its magnitude is edited: a minus sign in front stays as it is, and since
the new magnitude is at least half the old one it never reaches zero, so the sign of the value
never changes. Digits inside words (``x2``, ``H2O``), subscripts (``a_1``, ``x_{10}``), ordinals
(``2nd``), TeX's brace-less arguments (``\\frac12``) and zeros are not literals to edit.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

_NUMERAL = re.compile(
    r"(?<![\w.\\])(?<!_\{)"
    r"(?P<int>\d{1,3}(?:(?P<sep>,|\{,\})\d{3})+(?!\d)|\d+)"
    r"(?:\.(?P<frac>\d+))?"
    r"(?!\d|\.\d)",
    re.ASCII,
)
_ORDINAL = re.compile(r"(?:st|nd|rd|th)(?![A-Za-z])|e\d")


@dataclass(frozen=True)
class Numeral:
    """One literal: ``text[start:end]``, its value in units of its last digit, its format."""

    start: int
    end: int
    text: str
    units: int
    """The magnitude as an integer count of ``10**-places``."""
    places: int
    separator: str
    """The thousands separator it was written with, or ``""``."""


def find_numerals(text: str) -> list[Numeral]:
    """The editable literals of ``text``, left to right."""
    found = []
    for match in _NUMERAL.finditer(text):
        if _ORDINAL.match(text, match.end()):
            continue
        separator = match.group("sep") or ""
        whole = match.group("int").replace(separator, "") if separator else match.group("int")
        frac = match.group("frac") or ""
        units = int(whole + frac)
        if units == 0:
            continue
        found.append(
            Numeral(match.start(), match.end(), match.group(), units, len(frac), separator)
        )
    return found


def shifted(numeral: Numeral, rng: random.Random) -> str:
    """The literal moved by a non-zero offset of at most half its magnitude, same format.

    A magnitude of one unit of its last digit (``1``, ``0.1``) cannot move by a whole unit
    without exceeding half of itself, so it gains one decimal place and moves by exactly half:
    ``1`` becomes ``0.5`` or ``1.5``. Every other literal keeps its number of decimals and its
    thousands separator."""
    units, places = numeral.units, numeral.places
    if units == 1:
        units, places = 10, places + 1
        offset = rng.choice((-5, 5))
    else:
        offset = rng.randint(1, units // 2) * rng.choice((-1, 1))
    return render(units + offset, places, numeral.separator)


def render(units: int, places: int, separator: str) -> str:
    """Digits for ``units * 10**-places``, grouped by ``separator`` when it is not empty."""
    digits = str(units).rjust(places + 1, "0")
    whole, frac = (digits[:-places], digits[-places:]) if places else (digits, "")
    if separator:
        whole = _group(whole, separator)
    return whole + ("." + frac if frac else "")


def _group(whole: str, separator: str) -> str:
    head = len(whole) % 3 or 3
    parts = [whole[:head]] + [whole[i : i + 3] for i in range(head, len(whole), 3)]
    return separator.join(parts)


def parse_units(literal: str) -> tuple[int, int, str]:
    """``(units, places, separator)`` of a literal this module writes or finds."""
    separator = "{,}" if "{,}" in literal else "," if "," in literal else ""
    plain = literal.replace(separator, "") if separator else literal
    whole, _, frac = plain.partition(".")
    return int(whole + frac), len(frac), separator
