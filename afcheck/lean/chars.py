"""The character classes of Lean 4's lexer, so that afcheck reads text the way Lean does.

Each function mirrors the Lean function of the same name (``Init/Meta.lean`` and
``Lean/Parser/Basic.lean``). ``Char.isAlpha``, ``Char.isDigit`` and ``Char.isAlphanum`` are
ASCII-only in Lean: ``٢``, ``２`` or ``𝟐`` are not digits to Lean, ``а`` (Cyrillic) is not a
letter, and U+00A0 or U+3164 are neither whitespace nor part of a name. Python's
``str.isdigit``/``str.isalpha``/``str.isspace`` accept all of them, which is why this module
exists.

Identifier letters follow the newest Lean 4 definition, which added Latin-1 and Latin
Extended-A letters and U+2C7C to the older ranges: a superset of what the pinned Lean accepts,
so nothing Lean reads as a name is read here as something else.
"""

from __future__ import annotations


def is_digit(ch: str) -> bool:
    """``Char.isDigit``: ``0``–``9`` only."""
    return "0" <= ch <= "9"


def is_alpha(ch: str) -> bool:
    """``Char.isAlpha``: ASCII letters only."""
    return "a" <= ch <= "z" or "A" <= ch <= "Z"


def is_letter_like(ch: str) -> bool:
    """``Lean.isLetterLike``: Greek (without λ Π Σ), Coptic, letter-like symbols (ℕ ℝ …),
    mathematical alphanumerics (𝓝 𝔽 …), Latin-1 and Latin Extended-A letters."""
    v = ord(ch)
    return (
        (0x3B1 <= v <= 0x3C9 and v != 0x3BB)
        or (0x391 <= v <= 0x3A9 and v not in (0x3A0, 0x3A3))
        or 0x3CA <= v <= 0x3FB
        or 0x1F00 <= v <= 0x1FFE
        or 0x2100 <= v <= 0x214F
        or 0x1D49C <= v <= 0x1D59F
        or (0xC0 <= v <= 0xFF and v not in (0xD7, 0xF7))
        or 0x100 <= v <= 0x17F
    )


def is_subscript_alnum(ch: str) -> bool:
    """``Lean.isSubScriptAlnum``: ``₀``–``₉``, ``ₐ``–``ₜ``, ``ᵢ``–``ᵪ`` and ``ⱼ``."""
    v = ord(ch)
    return 0x2080 <= v <= 0x2089 or 0x2090 <= v <= 0x209C or 0x1D62 <= v <= 0x1D6A or v == 0x2C7C


def is_id_first(ch: str) -> bool:
    """``Lean.isIdFirst``: a character that may start an identifier."""
    return is_alpha(ch) or ch == "_" or is_letter_like(ch)


def is_id_rest(ch: str) -> bool:
    """``Lean.isIdRest``: a character that may continue an identifier."""
    return (is_alpha(ch) or is_digit(ch) or ch in "_'!?" or is_letter_like(ch)
            or is_subscript_alnum(ch))


def is_whitespace(ch: str) -> bool:
    """What Lean's ``whitespace`` skips between tokens: space and newline. Lean refuses tabs
    and a carriage return outside ``\\r\\n``; callers treat ``\\r\\n`` as one newline."""
    return ch in " \n"


ID_BEGIN_ESCAPE = "«"
ID_END_ESCAPE = "»"
