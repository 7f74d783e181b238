"""Split a ProcessBench paragraph into the mathematical claims it asserts (``--steps claims``).

A paragraph is cut into units: sentences (ended by ``.``, ``?`` or ``!`` and a space, outside
math), lines, and displayed equations (``\\[…\\]``, ``$$…$$``). A display stays with the sentence
that leads into it ("Divide by 6: \\[B = 5\\]"); a second display in a row is a unit of its own.
Each unit is then classified:

- ``claim``: it asserts an equation or inequality (``=``, ``<``, ``\\le``, ``≠`` …), inline or
  displayed, and is not declarative. These become test steps.
- ``declarative``: it introduces a name or an assumption ("Let \\(x\\) be the number of …",
  "Let's denote … as \\(R\\)", "Suppose \\(x = 5\\)"). Context, not a test.
- ``context``: everything else (prose, the plan, the final boxed answer).

The split is a pure function of the text: the same paragraph gives the same claims, in order,
and the units, concatenated, give back the paragraph (up to whitespace).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["CLAIM", "CONTEXT", "DECLARATIVE", "Claim", "split_claims"]

CLAIM, DECLARATIVE, CONTEXT = "claim", "declarative", "context"


@dataclass(frozen=True)
class Claim:
    """One unit of a paragraph."""

    text: str
    kind: str
    """``claim``, ``declarative`` or ``context``."""
    index: int
    """Position among the units of the paragraph, from 0."""


def split_claims(paragraph: str) -> list[Claim]:
    """The units of ``paragraph`` in order, each classified (see the module docstring)."""
    units = _merge_displays(_units(paragraph))
    texts = [t for t in (u.strip() for u in units) if t]
    return [Claim(text, _classify(text), i) for i, text in enumerate(texts)]


# -- cutting ---------------------------------------------------------------------------------

_DISPLAY = {"\\[": "\\]", "$$": "$$"}
_ABBREVIATIONS = ("e.g", "i.e", "etc", "vs", "mr", "mrs", "ms", "dr", "st", "approx", "no", "fig")
_TRAILING = ".,;:!?)"


def _units(text: str) -> list[str]:
    units: list[str] = []
    start = i = 0
    while i < len(text):
        if text[i] in _OPENER_CHARS and not (i > 0 and text[i - 1] == "\\"):
            # A display (\[, $$) whose closer follows, else inline math (\(, or $ but not
            # money: $5) whose closer follows: passed over whole.
            two = text[i : i + 2]
            closer = _DISPLAY.get(two)
            end = -1 if closer is None else text.find(closer, i + 2)
            if closer is not None and end >= 0:
                if start < i and _has_display(text[start:i]):
                    units.append(text[start:i])
                    start = i
                i = end + len(closer)
                while i < len(text) and text[i] in _TRAILING:
                    i += 1
                units.append(text[start:i])
                start = i
                continue
            if two == "\\(":
                end = text.find("\\)", i + 2)
            elif text[i] == "$" and two != "$$" and not text[i + 1 : i + 2].isdigit():
                end = text.find("$", i + 1)
            else:
                end = -1
            if end >= 0:
                i = end + (2 if two == "\\(" else 1)
                continue
        if text[i] == "\n" or _sentence_end(text, i, start):
            units.append(text[start : i + 1])
            start = i + 1
        # Every other character is passed over as it is: go straight to the next one that
        # can open math, end a line or end a sentence.
        found = _NOTABLE.search(text, i + 1)
        i = found.start() if found else len(text)
    units.append(text[start:])
    return units


_NOTABLE = re.compile(r"[\\$\n.?!](?:(?<=\\)(?=[(\[])|(?<=[.?!])(?=\s)|(?<=[$\n]))")
"""Where :func:`_units` may act: the start of a math opener (a backslash only before ``(`` or
``[``: the many other backslashes of LaTeX commands open nothing), a line end, a sentence
mark before a space (``2.5`` ends nothing). It starts with a character class, so that the
regex engine skips to the next of those characters at C speed."""


_OPENER_CHARS = frozenset("\\$")
"""Every math opener starts with a backslash or a dollar sign."""


def _has_display(text: str) -> bool:
    return "\\[" in text or "$$" in text


def _sentence_end(text: str, i: int, start: int) -> bool:
    if text[i] not in ".?!" or (i + 1 < len(text) and not text[i + 1].isspace()):
        return False
    if i + 1 >= len(text):
        return False
    # The last word before the mark (``[\w.]*$`` of ``text[start:i]``), found from its end:
    # a search for that pattern from the start of a long unit costs a pass over the unit.
    j = i
    while j > start and (text[j - 1].isalnum() or text[j - 1] in "._"):
        j -= 1
    last = text[j:i].lower()
    if last.rstrip(".") in _ABBREVIATIONS or len(last) == 1 and last.isalpha():
        return False
    # "1. " at the start of a line numbers a list item, it does not end a sentence.
    return not (text[i] == "." and text[start:i].strip().isdigit())


def _merge_displays(units: list[str]) -> list[str]:
    """Join a display that starts its own unit to a lead-in that ends with a colon."""
    merged: list[str] = []
    for unit in units:
        if (
            merged
            and unit.lstrip().startswith(("\\[", "$$"))
            and merged[-1].rstrip().endswith(":")
            and not _has_display(merged[-1])
        ):
            merged[-1] += unit
        else:
            merged.append(unit)
    return merged


# -- classifying -----------------------------------------------------------------------------

# A relation is a sign (not part of an arrow such as "->", "=>", ":=") or a LaTeX command.
_SIGN_RELATION = re.compile(r"(?<![-<=>!:])(?:<=|>=|!=|=|<|>)(?![=>])|[≤≥≠≈]")
_COMMAND_RELATION = re.compile(r"\\(?:leq?|geq?|neq?|lt|gt|approx)(?![A-Za-z])")
_DECLARATIVE_START = re.compile(
    r"^(?:[-*+]\s+|\*\*[^*]*\*\*\s*|(?:first|second|third|next|then|now|finally)\s*,\s*)*"
    r"(?:let(?:'s|’s)?|lets|define|denote|suppose|assume|set|where|given)\b",
    re.IGNORECASE,
)
_DECLARATIVE_ANYWHERE = re.compile(
    r"\b(?:denote[sd]?|represents?|stands? for|defined? as|let (?:\\\(|\$)|let's call"
    r"|be the (?:number|amount|cost|price|length|width|height|age|total|value|speed|time)s?)\b",
    re.IGNORECASE,
)


def _classify(text: str) -> str:
    relation = _has_relation(_without_text_commands(text))
    mathematical = relation or "\\(" in text or "\\[" in text or "$" in text
    if mathematical and _declarative(text):
        return DECLARATIVE
    return CLAIM if relation else CONTEXT


def _has_relation(text: str) -> bool:
    """Whether a relation (:data:`_SIGN_RELATION` or :data:`_COMMAND_RELATION`) occurs.
    The sign regex starts with a look-behind, which makes the regex engine try every
    position: it is searched from the first sign (the look-behind still sees the text before
    where the search starts), after the commands, whose backslash the engine skips to."""
    if "\\" in text and _COMMAND_RELATION.search(text) is not None:
        return True
    first = _SIGN.search(text)
    return first is not None and _SIGN_RELATION.search(text, first.start()) is not None


_SIGN = re.compile(r"[<=>!≤≥≠≈]")
"""The characters a match of :data:`_SIGN_RELATION` starts with."""


def _declarative(text: str) -> bool:
    return bool(_DECLARATIVE_START.search(text) or _declared_anywhere(text))


def _declared_anywhere(text: str) -> bool:
    """Whether :data:`_DECLARATIVE_ANYWHERE` matches. Its leading ``\\b`` makes the regex
    engine try every position, case-insensitively; an ASCII text that, in lower case (what
    ``IGNORECASE`` compares for ASCII), holds none of the words its phrases start with
    cannot match, and most texts are ruled out so."""
    if text.isascii():
        lower = text.lower()
        if not ("denote" in lower or "represent" in lower or "stand" in lower
                or "define" in lower or "let" in lower or "be the" in lower):
            return False
    return _DECLARATIVE_ANYWHERE.search(text) is not None


def _without_text_commands(text: str) -> str:
    # "\text{a => b}" or an HTML-ish "<br>" is not a relation between quantities.
    if "\\text{" not in text and "<" not in text:
        return text  # nothing _TEXT_COMMAND can match
    return _TEXT_COMMAND.sub(" ", text)


_TEXT_COMMAND = re.compile(r"\\text\{[^}]*\}|<[a-z]+/?>")
