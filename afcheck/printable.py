"""Data made safe to print on a terminal.

Steps, model outputs and statements come from files and servers that afcheck does not
control. Printed raw, an escape sequence in them can recolour, clear or retitle the user's
terminal, hide text, or (OSC 8, OSC 52) plant a link or write to the clipboard; bidirectional
overrides can make the text on screen differ from the text in the file, and a lone surrogate
(an undecodable byte in an argument) makes ``print`` raise. Everything a command prints from
data goes through :func:`printable`, which shows such characters as escapes.
"""

from __future__ import annotations

import json
import re
from typing import Any

__all__ = ["name_problem", "one_line", "printable", "printable_json"]

_UNSAFE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f"  # C0 (but tab and newline) and C1 controls, DEL
    "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"  # bidirectional marks and overrides
    "\u2028\u2029"  # line and paragraph separators, which some terminals treat as newlines
    "\ud800-\udfff]"  # lone surrogates (undecodable bytes of a file name or argument)
)


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str, *, newlines: bool = True) -> str:
    """``text`` with every control, bidirectional and separator character shown as
    ``\\xNN`` / ``\\uNNNN``. Tabs stay; newlines stay unless ``newlines`` is false."""
    if text.isprintable():
        # Every character _UNSAFE matches, and the newline, is one str.isprintable refuses
        # (a control, format, surrogate or separator): nothing to escape. Most names and
        # statements are so, and the check is several times cheaper than the substitution.
        return text
    out = _UNSAFE.sub(_escape, text)
    return out if newlines else out.replace("\n", "\\n")


def one_line(text: str, limit: int = 300) -> str:
    """``text`` on one line (each run of whitespace a space) of at most ``limit``
    characters, ending in ``…`` where it was cut: a reason or a statement shown in a
    message."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def printable_json(value: Any, indent: int | None = None) -> str:
    """``json.dumps(value, ensure_ascii=False, indent=indent)`` with the characters that JSON
    leaves raw but a terminal would act on (C1 controls, bidirectional overrides) written as
    ``\\uNNNN``."""
    text = json.dumps(value, ensure_ascii=False, indent=indent)
    # Outside strings JSON has only ASCII, so every such character is inside a string, where
    # the \\u form is the same value.
    return _UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def name_problem(name: str) -> str | None:
    """What is wrong with ``name`` as a test's name, or ``None``: a control (NUL, ESC …),
    bidirectional or separator character, a newline or a lone surrogate, which no terminal,
    JUnit file or pytest node id can show as it is."""
    shown = printable(name, newlines=False)
    if shown == name:
        return None
    if any("\ud800" <= c <= "\udfff" for c in name):
        return (f"the id {shown} holds a lone surrogate (a \\ud800-\\udfff escape without its "
                "pair); write the character itself or both halves of its pair")
    return (f"the id {shown} holds control or bidirectional characters; ids are printed as "
            "test names: remove them")
