"""Where a text is in LaTeX math mode: ``\\(…\\)``, ``\\[…\\]``, ``$$…$$`` and ``$…$``."""

from __future__ import annotations

import re

_OPENERS = {"\\(": "\\)", "\\[": "\\]", "$$": "$$", "$": "$"}
_DELIMITER = re.compile(r"\\\(|\\\[|\$\$|(?<!\\)\$(?!\d)")


def math_spans(text: str) -> list[tuple[int, int]]:
    """The ``[start, end)`` ranges of math content, delimiters excluded.

    A ``$`` followed by a digit is a currency sign, and ``\\$`` an escaped one; neither opens
    math. An unclosed delimiter opens nothing."""
    spans: list[tuple[int, int]] = []
    pos = 0
    while (match := _DELIMITER.search(text, pos)) is not None:
        closer = _OPENERS[match.group()]
        end = text.find(closer, match.end())
        if end < 0:
            pos = match.end()
            continue
        spans.append((match.end(), end))
        pos = end + len(closer)
    return spans


def in_spans(position: int, spans: list[tuple[int, int]]) -> bool:
    return any(start <= position < end for start, end in spans)
