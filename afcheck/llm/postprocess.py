"""Model-specific clean-up of raw output before statement extraction.

Each preset names an :class:`OutputRule`: whether a ``<think>`` section comes first, and whether
the Lean must sit in a fenced block (and with which language tags). :func:`lean_source` applies
it and returns the Lean text to hand to :func:`afcheck.lean.extract.extract_statement`, or raises
:class:`~afcheck.lean.extract.ExtractionError` with a one-line reason (an AF-Fail).

Truncated output (``finish_reason == "length"``) is accepted only when it still holds a complete
statement: a closed code block, or for unfenced output a declaration whose ``:=`` was reached.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from afcheck.lean.extract import ExtractionError, strip_comments

_FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_+-]*)[^\n]*\n(.*?)(```|\Z)", re.S)
_DECLARATION = re.compile(r"(?m)^\s*(?:@\[[^\]]*\]\s*)?(?:private\s+|protected\s+)?"
                          r"(theorem|lemma|example)\b")
THINK_OPEN = "<think>"
THINK_CLOSE = "</think>"


@dataclass(frozen=True)
class OutputRule:
    """How to find the Lean in one model's output."""

    think: str = "strip"
    """``none``: no reasoning section; ``strip``: drop a ``<think>…</think>`` section if present;
    ``required``: the answer is only what follows the last ``</think>``."""
    fence: str = "optional"
    """``required``: only fenced blocks count; ``optional``: fenced blocks if any hold a
    declaration, else the whole text."""
    languages: tuple[str, ...] = ("lean4", "lean", "")
    """Accepted fence tags, compared case-insensitively; ``""`` is an untagged fence."""


@dataclass(frozen=True)
class CodeBlock:
    language: str
    body: str
    closed: bool


def code_blocks(text: str) -> list[CodeBlock]:
    """Fenced blocks in order; the last may be unclosed when the output was cut off."""
    return [
        CodeBlock(m.group(1), m.group(2), m.group(3) == "```") for m in _FENCE.finditer(text)
    ]


def answer_part(text: str, think: str) -> str:
    """The text after the reasoning section, per the rule's ``think`` mode."""
    if think == "none":
        return text
    close = text.rfind(THINK_CLOSE)
    if close >= 0:
        return text[close + len(THINK_CLOSE) :]
    if think == "required":
        raise ExtractionError("no answer after the reasoning: the output has no </think>")
    if THINK_OPEN in text:
        raise ExtractionError("the output ends inside <think> (no answer after the reasoning)")
    return text


def has_declaration(lean: str) -> bool:
    return _DECLARATION.search(strip_comments(lean)) is not None


def lean_source(text: str, rule: OutputRule, truncated: bool = False) -> str:
    """The Lean text holding the statement, chosen per ``rule``."""
    try:
        answer = answer_part(text, rule.think)
    except ExtractionError as exc:
        raise _truncation(exc) if truncated else exc from None
    accepted = {lang.lower() for lang in rule.languages}
    blocks = [b for b in code_blocks(answer) if b.language.lower() in accepted]
    with_decl = [b for b in blocks if has_declaration(b.body)]
    if with_decl:
        block = with_decl[-1]
        if truncated and not block.closed:
            raise _truncation(ExtractionError("the last code block is not closed"))
        return block.body
    if rule.fence == "required":
        tags = ", ".join(f"```{t}" if t else "untagged ```" for t in rule.languages)
        problem = ExtractionError(f"no code block ({tags}) with a theorem in the output")
        raise _truncation(problem) if truncated else problem
    if truncated:
        missing = _incomplete(answer)
        if missing:
            raise _truncation(ExtractionError(missing))
    return answer


def _incomplete(text: str) -> str:
    """Why unfenced, cut-off text holds no complete statement; ``""`` when it does."""
    body = strip_comments(text)
    matches = list(_DECLARATION.finditer(body))
    if not matches:
        return "no theorem yet"
    if ":=" not in body[matches[-1].end() :]:
        return "the statement has no ':=' yet"
    return ""


def _truncation(cause: ExtractionError) -> ExtractionError:
    return ExtractionError(
        f"output truncated at max_tokens (finish_reason=length) before a complete statement: "
        f"{cause}"
    )
