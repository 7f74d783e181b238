"""The formula in a model's answer.

The seed asks for the formula first, after the prefix ``=``. Models also wrap it in a code fence,
write a ``<think>`` section first, or label it (``Formula:``, ``FOL:``). :func:`extract` removes
exactly these wrappings and returns the first line left; it never repairs the formula itself, so
a model's syntax errors stay what they are and are classified as such.
"""

from __future__ import annotations

import re

_THINK = re.compile(r"<think>.*?</think>", re.S)
_FENCE = re.compile(r"```[^\n]*\n(.*?)(?:```|\Z)", re.S)
_LABEL = re.compile(
    r"^\s*(?:[*_#>]+\s*|-\s+)*(?:(?:the\s+)?(?:fol\s+)?(?:formula|fol|translation|answer|output)[\s*_]*"
    r"[:=][\s*_]*|=)\s*",
    re.I,
)


def without_thinking(output: str) -> str:
    """``output`` with its closed ``<think>…</think>`` sections removed."""
    return _THINK.sub("", output)


def extract(output: str) -> str:
    """The formula text of ``output`` (possibly empty: an empty formula is a syntax error)."""
    text = without_thinking(output)
    if "<think>" in text:  # cut off while thinking: no answer
        return ""
    fenced = _FENCE.search(text)
    if fenced is not None:
        text = fenced.group(1)
    for line in text.splitlines():
        line = line.strip()
        if not line:
            continue
        line = _LABEL.sub("", line, count=1).strip()
        if len(line) >= 2 and line[0] == line[-1] and line[0] in "`\"'$":
            line = line[1:-1].strip()
        return line
    return ""
