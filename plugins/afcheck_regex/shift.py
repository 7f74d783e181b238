"""The numeral the ``number`` rule edits, and how to shift one while keeping its format.

The literals are the numerals :func:`afcheck_arith.numerals.find_numerals` reads (thousands
grouped by ``,``, ``{,}`` or ``\\,``; decimals; never the digits of a name, a subscript, an
ordinal or ``\\frac12``), less zeros, which no shift keeps non-zero. Only a literal's magnitude
is edited: a minus sign in front stays as it is, and since the new magnitude is at least half
the old one it never reaches zero, so the sign of the value never changes.
"""

from __future__ import annotations

import random

from afcheck_arith.numerals import Numeral, find_numerals


def editable_numerals(text: str) -> list[Numeral]:
    """The literals of ``text`` a shift may edit, left to right."""
    return [numeral for numeral in find_numerals(text) if numeral.units]


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
