"""The ineffective-perturbation finder.

A perturbation is meant to make its step invalid, but a templated edit can leave it valid
("17 is odd" → "13 is odd"). The finder applies the perturber's textual edit to the original
step's *formal* statement, when the edited numeral or operator can be located there exactly
once, and asks the run's prover about the result: if the edited statement is still provable,
the perturbation did not break what the step claims, and the case is left out of the metrics
(counted apart; ``--keep-ineffective`` keeps it).

Only edits that map onto one token of the statement are tried; anything else leaves the
perturbation's effectiveness unknown, which keeps the case.
"""

from __future__ import annotations

import re

from afcheck.types import Edit

# Natural-language and LaTeX operators → the Lean token that stands for them.
_OPERATORS = {
    "+": "+", "-": "-", "−": "-", "*": "*", "×": "*", "·": "*", "\\times": "*", "\\cdot": "*",
    "/": "/", "÷": "/", "\\div": "/", "=": "=", "<": "<", ">": ">", "≤": "≤", "≥": "≥",
    "<=": "≤", ">=": "≥", "\\le": "≤", "\\leq": "≤", "\\ge": "≥", "\\geq": "≥", "≠": "≠",
    "\\neq": "≠", "\\ne": "≠", "^": "^",
}
_NUMBER = re.compile(r"^[+-]?\d[\d,]*(\.\d+)?$")


def edited_statement(statement: str, edit: Edit | None) -> str | None:
    """``statement`` with ``edit`` applied to its one matching token, or ``None``."""
    if edit is None:
        return None
    head, sep, body = _split_conclusion(statement)
    if not sep:
        return None
    old, new = _lean_token(edit.old), _lean_token(edit.new)
    if old is None or new is None or old == new:
        return None
    pattern = _token_pattern(old)
    matches = list(pattern.finditer(body))
    if len(matches) != 1:
        return None
    match = matches[0]
    return head + sep + body[: match.start()] + new + body[match.end():]


def _split_conclusion(statement: str) -> tuple[str, str, str]:
    """Split at the colon that starts the conclusion: the first one outside brackets."""
    depth = 0
    for index, char in enumerate(statement):
        if char in "([{⟨":
            depth += 1
        elif char in ")]}⟩":
            depth -= 1
        elif char == ":" and depth == 0 and statement[index + 1: index + 2] != "=":
            return statement[:index], ":", statement[index + 1:]
    return statement, "", ""


def _lean_token(text: str) -> str | None:
    text = text.strip()
    if _NUMBER.match(text):
        return text.replace(",", "")
    return _OPERATORS.get(text)


def _token_pattern(token: str) -> re.Pattern[str]:
    if token[0].isdigit() or token[0] in "+-" and token[1:2].isdigit():
        # A whole numeral: not part of a longer number or identifier.
        return re.compile(rf"(?<![\w.]){re.escape(token)}(?![\w.]|\.\d)")
    if token in "<>=":
        # Not part of ≤-style ASCII digraphs, := or →.
        return re.compile(rf"(?<![<>=:!]){re.escape(token)}(?![<>=])")
    if token == "-":
        return re.compile(r"(?<![<-])-(?![>-])")
    return re.compile(re.escape(token))
