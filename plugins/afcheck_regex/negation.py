"""Negation edits: remove an existing "not", else insert one after the first auxiliary verb.

Only whole words count: "cannot", "note" and "notice" hold no "not", "this" holds no "is", and
TeX's ``\\not`` is left alone. The verb must be lower-case, so a question's leading "Is" is not
turned into "Is not".
"""

from __future__ import annotations

import re

from afcheck_faithfulness.records import Edit

_NOT = re.compile(r"(?<![\\\w'’-])[Nn]ot(?![\w'’-])")
_AUXILIARY = re.compile(
    r"(?<![\\\w'’-])(?:is|are|was|were|am|can|could|may|might|must|shall|should|will|would"
    r"|does|do|did)(?![\w'’-])"
)


def negation_edit(text: str) -> Edit | None:
    """The negation edit for ``text``, or ``None`` when it has neither a "not" nor a verb."""
    found = _NOT.search(text)
    if found is not None:
        return _removal(text, found.start(), found.end())
    verb = _AUXILIARY.search(text)
    if verb is not None:
        return Edit(verb.end(), verb.end(), "", " not")
    return None


def _removal(text: str, start: int, end: int) -> Edit:
    # Take one neighbouring space with the word so no double space is left behind.
    if start > 0 and text[start - 1] == " ":
        start -= 1
    elif text[end : end + 1] == " ":
        end += 1
    return Edit(start, end, text[start:end], "")
