"""Tokens of Lean 4 statement text, with ASCII spellings mapped to their Unicode forms."""

from __future__ import annotations

import re
from dataclasses import dataclass

from afcheck.lean.chars import (
    ID_BEGIN_ESCAPE,
    is_digit,
    is_id_first,
    is_id_rest,
    number_end,
    radix_value,
)


class ParseError(ValueError):
    """Text that is not a statement the parser reads; ``str(error)`` gives line and column."""

    def __init__(self, message: str, text: str = "", offset: int = 0) -> None:
        self.offset = offset
        self.line = text.count("\n", 0, offset) + 1
        self.column = offset - (text.rfind("\n", 0, offset) + 1) + 1
        super().__init__(f"line {self.line}, column {self.column}: {message}")
        self.reason = message


@dataclass(frozen=True)
class Token:
    kind: str
    """``ident``, ``num``, ``sym`` or ``eof``."""
    text: str
    start: int
    end: int


ASCII = {
    "->": "→",
    "<->": "↔",
    "<=": "≤",
    ">=": "≥",
    "!=": "≠",
    "/\\": "∧",
    "\\/": "∨",
    "=>": "=>",
    "forall": "∀",
    "exists": "∃",
    "fun": "fun",
    "λ": "fun",
    "Not": "¬",
    "↦": "=>",
}
"""Spellings that mean the same token; the parser sees only the right-hand side."""

_SYMBOLS = sorted(
    [
        ":=",
        "<->",
        "->",
        "<=",
        ">=",
        "!=",
        "/\\",
        "\\/",
        "=>",
        "⁻¹",
        "∃!",
        "(",
        ")",
        "[",
        "]",
        "{",
        "}",
        "⟨",
        "⟩",
        "⦃",
        "⦄",
        ",",
        ":",
        "|",
        "∣",
        "+",
        "-",
        "*",
        "/",
        "%",
        "^",
        "=",
        "≠",
        "<",
        ">",
        "≤",
        "≥",
        "¬",
        "∧",
        "∨",
        "→",
        "↔",
        "∀",
        "∃",
        "↑",
        "√",
        "!",
        "⌊",
        "⌋",
        "⌈",
        "⌉",
        "∑",
        "∏",
        "∈",
        "∉",
        "⊆",
        "⊂",
        "∩",
        "∪",
        "\\",
        "•",
        "∘",
        "≡",
        "·",
        "'",
        "λ",
        "↦",
        "×",
        ";",
        "@",
        "#",
        "⋂",
        "⋃",
        "$",
        "<|",
        "|>",
        "←",
        "&",
        "∅",
        "∞",
        "≈",
        "⊢",
        "$",
        "?",
        "~",
        "∫",
        ".",
        # Mathlib notation read as uninterpreted operators (afcheck.lean.notation)
        "⧸", "≃", "≃*", "≃+", "≃+*", "→+*", "→*", "→+", "→₀", "↪", "⊕", "⊓", "⊔", "''", "⁻¹'",
        "×ˢ", "∆", "⊇", "⊃", "..", "‖", "‖₊", "⟪", "⟫", "⁅", "⁆", "ᶜ", "ᵀ", "⋃₀", "⋂₀", "→ₗ",
        "≃ₗ", "→ₐ", "≃ₐ", "Π", "⨅", "⨆", "∀ᶠ", "∃ᶠ", "⊤", "⊥",
    ],
    key=len,
    reverse=True,
)
_BY_FIRST: dict[str, tuple[str, ...]] = {}
"""The symbols by their first character, longest first as in ``_SYMBOLS``: a position tries
only the few that can start there."""
for _sym in _SYMBOLS:
    _BY_FIRST[_sym[0]] = (*_BY_FIRST.get(_sym[0], ()), _sym)
del _sym
_NUMBER = re.compile(r"[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?", re.ASCII)
"""Lean's numerals: ``Char.isDigit`` is ASCII-only, so ``٢``, ``２`` and ``𝟐`` are not digits."""


_GLUED = {"ℕ": ("+",), "ℝ": ("≥0∞", "≥0")}
"""Type notations whose token is a name glued to a symbol: ``ℕ+``, ``ℝ≥0``, ``ℝ≥0∞``."""


def _ident_start(ch: str) -> bool:
    return is_id_first(ch) or ch == ID_BEGIN_ESCAPE


def _ident_char(ch: str) -> bool:
    return is_id_rest(ch)


def tokenize(text: str) -> list[Token]:
    """The tokens of ``text``; raises :class:`ParseError` at an unknown character."""
    tokens: list[Token] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch in " \n\t\r":
            i += 1
            continue
        if is_digit(ch):
            value = radix_value(text[i : number_end(text, i)])
            if value is not None:
                # `0x10` is the literal 16 to Lean; the parser sees it in decimal.
                end = number_end(text, i)
                tokens.append(Token("num", str(value), i, end))
                i = end
                continue
            match = _NUMBER.match(text, i)
            assert match is not None
            tokens.append(Token("num", match.group(0), i, match.end()))
            i = match.end()
            continue
        if _ident_start(ch):
            j = _ident_end(text, i)
            word = text[i:j]
            for glued in _GLUED.get(word, ()):
                if text.startswith(glued, j):
                    # ``ℕ+`` is one token in Lean (Mathlib's ``notation "ℕ+" => PNat``).
                    word, j = word + glued, j + len(glued)
                    break
            if word in ASCII:
                tokens.append(Token("sym", ASCII[word], i, j))
            else:
                tokens.append(Token("ident", word, i, j))
            i = j
            continue
        for sym in _BY_FIRST.get(ch, ()):
            if text.startswith(sym, i):
                tokens.append(Token("sym", ASCII.get(sym, sym), i, i + len(sym)))
                i += len(sym)
                break
        else:
            raise ParseError(f"unexpected character {ch!r}", text, i)
    tokens.append(Token("eof", "", n, n))
    return tokens


def _ident_end(text: str, i: int) -> int:
    """End of a dotted identifier starting at ``i``; ``!`` ends it only before whitespace
    or a bracket, because ``n !`` is the factorial notation but ``Nat.factorial!`` is not."""
    n = len(text)
    while True:
        if text[i] == "«":
            close = text.find("»", i)
            i = n if close < 0 else close + 1
        else:
            while i < n and (_ident_char(text[i]) and text[i] != "!"):
                i += 1
        if i + 1 < n and text[i] == "." and (_ident_start(text[i + 1]) or is_digit(text[i + 1])):
            i += 1
            if is_digit(text[i]):
                while i < n and is_digit(text[i]):
                    i += 1
                if not (i + 1 < n and text[i] == "." and _ident_start(text[i + 1])):
                    return i
            continue
        return i
