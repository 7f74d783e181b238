"""Math spans: where a step's text is in LaTeX math mode, the one reading of its delimiters.

``\\(…\\)``, ``\\[…\\]``, ``$$…$$`` and ``$…$`` delimit math. ``\\$`` is an escaped dollar
and never a delimiter. A ``$`` before a number (``$5``, ``$ 2.50``, ``$.99``) is money unless
it opens inline math that starts with a number: the next ``$`` closes it on the same line, is
not itself money (``$10 + $5``) and no prose word stands between (``$4$``, ``$120 = 2^3$``
are math; ``$4 per hour and $5`` is money). Inside ``$…$`` math any unescaped ``$`` closes. A
delimiter that is never closed opens nothing. The scanner of :mod:`afcheck_arith.tokens`
reads the same delimiters by the same rules as it goes (its tokens say which are in math).
"""

from __future__ import annotations

import re

_AMOUNT = re.compile(r"\$\s*(?=\d|\.\d)")
_PROSE_WORD = re.compile(r"(?<![\\A-Za-z])[A-Za-z]{2,}")
"""Two letters or more that no backslash starts: a word, not a LaTeX command."""

_OPENERS = {"\\(": "\\)", "\\[": "\\]", "$$": "$$", "$": "$"}
_DELIMITER = re.compile(r"\\\(|\\\[|\$\$|(?<!\\)\$")


def is_money(text: str, i: int) -> bool:
    """Whether the ``$`` at ``i``, outside math, is money rather than an opening delimiter."""
    if _AMOUNT.match(text, i) is None:
        return False
    end = _closing(text, "$", i + 1)
    if end < 0 or _AMOUNT.match(text, end) is not None:
        return True
    between = text[i + 1 : end]
    return "\n" in between or _PROSE_WORD.search(between) is not None


def math_spans(text: str) -> list[tuple[int, int]]:
    """The ``[start, end)`` ranges of math content, delimiters excluded, left to right."""
    spans: list[tuple[int, int]] = []
    pos = 0
    while (match := _DELIMITER.search(text, pos)) is not None:
        if match.group() == "$" and is_money(text, match.start()):
            pos = match.end()
            continue
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

