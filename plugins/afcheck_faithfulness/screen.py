"""The ineffective-perturbation finder.

A perturbation is meant to make its step invalid, but a templated edit can leave it valid
("17 is odd" → "13 is odd", ``6×5×4×3×2×1`` → ``6×5×4×3×2÷1``). The finder applies the
perturber's textual edit to the original step's *formal* statement and asks the run's prover
about the result: if the edited statement is still provable, the perturbation did not break
what the step claims, and the case is left out of the metrics (counted apart;
``--keep-ineffective`` keeps it). Lean's own arithmetic decides: ``0 + 0 = 0`` edited to
``0 / 0 = 0`` is still provable (``x / 0 = 0`` in Lean), so that edit is ineffective too.

The edit is located by its token (a numeral, or an operator translated to Lean). When the
token occurs several times in the conclusion and the step text is not known, the edited
statement is the conjunction of every single-place edit: it is provable only when the edit
holds wherever it landed. Given the step text, an edit whose token occurs more often in the
text than in the conclusion is not tried (it may have landed in a part of the step the
statement does not say, such as a restatement of the problem); when both counts agree, the
edit lands on the occurrence of the same rank. Anything else leaves the perturbation's
effectiveness unknown, which keeps the case.
"""

from __future__ import annotations

import re

from afcheck_faithfulness.records import Edit

# Natural-language and LaTeX operators → the Lean token that stands for them.
_OPERATORS = {
    "+": "+", "-": "-", "−": "-", "*": "*", "×": "*", "·": "*", "\\times": "*", "\\cdot": "*",
    "/": "/", "÷": "/", "\\div": "/", "=": "=", "<": "<", ">": ">", "≤": "≤", "≥": "≥",
    "<=": "≤", ">=": "≥", "\\le": "≤", "\\leq": "≤", "\\ge": "≥", "\\geq": "≥", "≠": "≠",
    "\\neq": "≠", "\\ne": "≠", "^": "^",
}
_NUMBER = re.compile(r"^[+-]?\d[\d,]*(\.\d+)?$")


def edited_statement(statement: str, edit: Edit | None, text: str | None = None) -> str | None:
    """``statement`` with ``edit`` applied to its conclusion (see the module docstring), or
    ``None`` when the edit cannot be located there. ``text`` is the step the edit was made in,
    when known."""
    if edit is None:
        return None
    head, sep, body = _split_conclusion(statement)
    if not sep:
        return None
    proof = body.rfind(":=")
    body, tail = (body[:proof], body[proof:]) if proof >= 0 else (body, "")
    old, new = _lean_token(edit.old), _lean_token(edit.new)
    if old is None or new is None or old == new:
        return None
    matches = list(_token_pattern(old).finditer(body))
    if not matches:
        return None
    if text is not None:
        in_text = _text_occurrences(text, edit.old, old)
        if len(in_text) > len(matches) or edit.start not in in_text:
            return None
        if len(in_text) == len(matches):
            matches = [matches[in_text.index(edit.start)]]
    variants = [body[: m.start()] + new + body[m.end() :] for m in matches]
    if len(variants) == 1:
        return head + sep + variants[0] + tail
    return head + sep + " " + " ∧ ".join(f"({v.strip()})" for v in variants) + " " + tail


def _text_occurrences(text: str, written: str, token: str) -> list[int]:
    """Where ``token`` is written in ``text``, in any of its spellings (start offsets)."""
    if _NUMBER.match(written.strip()):
        pattern = re.compile(rf"(?<![\w.,]){re.escape(written.strip())}(?![\w]|[.,]\d)")
        return [m.start() for m in pattern.finditer(text)]
    spellings = sorted((s for s, t in _OPERATORS.items() if t == token), key=len, reverse=True)
    alternatives = "|".join(
        re.escape(s) + ("(?![A-Za-z])" if s.startswith("\\") else "") for s in spellings
    )
    return [m.start() for m in re.finditer(alternatives, text)]


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
