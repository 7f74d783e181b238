"""Math spans: where a step's text is in LaTeX math mode, the one reading of its delimiters.

``\\(…\\)``, ``\\[…\\]``, ``$$…$$`` and ``$…$`` delimit math. ``\\$`` is an escaped dollar
and a ``$`` before a number (``$5``, ``$ 2.50``, ``$.99``) is money: neither opens math. A
delimiter that is never closed opens nothing. The scanner of :mod:`afcheck_arith.tokens`
reads the same delimiters by the same rules as it goes (its tokens say which are in math).
"""

from __future__ import annotations

import re

CURRENCY = re.compile(r"\$\s*(?=[\d.])")
"""A dollar sign written before an amount: money, never a math delimiter."""

_OPENERS = {"\\(": "\\)", "\\[": "\\]", "$$": "$$", "$": "$"}
_DELIMITER = re.compile(r"\\\(|\\\[|\$\$|(?<!\\)\$(?!\s*[\d.])")


def math_spans(text: str) -> list[tuple[int, int]]:
    """The ``[start, end)`` ranges of math content, delimiters excluded, left to right."""
    spans: list[tuple[int, int]] = []
    pos = 0
    while (match := _DELIMITER.search(text, pos)) is not None:
        closer = _OPENERS[match.group()]
        end = _closing(text, closer, match.end())
        if end < 0:
            pos = match.end()
            continue
        spans.append((match.end(), end))
        pos = end + len(closer)
    return spans


def _closing(text: str, closer: str, start: int) -> int:
    """Where ``closer`` first closes after ``start`` (a ``$`` closes unless escaped), or -1."""
    end = text.find(closer, start)
    while closer == "$" and end > 0 and text[end - 1] == "\\":
        end = text.find(closer, end + 1)
    return end


def in_spans(position: int, spans: list[tuple[int, int]]) -> bool:
    """Whether ``position`` lies in one of ``spans``."""
    return any(start <= position < end for start, end in spans)

