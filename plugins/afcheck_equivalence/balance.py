"""Whether a Lean text's brackets pair up: the one check of a statement's shape that holds
whatever the front end reads, so that text which cannot be Lean at all is told apart from
Lean the criteria do not model.

A reference that fails it is bad input (its suite's line is to be fixed); a candidate that
fails it is the candidate's failure (as an AF failure is), never an Inconclusive skip.
"""

from __future__ import annotations

import re

_PAIRS = {")": "(", "]": "[", "}": "{", "⟩": "⟨", "⦄": "⦃", "⟫": "⟪", "⌋": "⌊", "⌉": "⌈"}
_OPEN = set(_PAIRS.values())
_TOKENS = re.compile(r'--[^\n]*|/-.*?-/|"(?:[^"\\]|\\.)*"|[()\[\]{}⟨⟩⦃⦄⟪⟫⌊⌋⌈⌉]', re.S)


def bracket_problem(text: str) -> str:
    """Why the brackets of ``text`` do not pair up (one line, with the column), or ""."""
    stack: list[tuple[str, int]] = []
    for match in _TOKENS.finditer(text):
        token = match.group()
        if token in _OPEN:
            stack.append((token, match.start()))
        elif token in _PAIRS:
            if not stack or stack[-1][0] != _PAIRS[token]:
                return f"'{token}' at {_where(text, match.start())} closes nothing open"
            stack.pop()
    if stack:
        token, start = stack[-1]
        return f"'{token}' at {_where(text, start)} is never closed"
    return ""


def _where(text: str, offset: int) -> str:
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return f"line {line}, column {column}" if line > 1 else f"column {column}"
