"""The character classes of Lean 4's lexer, and where its numerals end, so that afcheck reads
text the way Lean does.

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


_RADIX_DIGITS = {"b": "01", "o": "01234567", "x": "0123456789abcdefABCDEF"}


def _digits_end(text: str, k: int, digits: str) -> int:
    """Lean's ``takeDigitsFn``: digits, each run of ``_`` only between two digits (Lean 4.9
    has no separators at all: there ``1_0`` is ``1`` and the name ``_0``, and a name made of
    ``_`` and digits is no keyword, so reading the newer form costs nothing)."""
    n = len(text)
    while k < n:
        if text[k] in digits:
            k += 1
            continue
        m = k
        while m < n and text[m] == "_":
            m += 1
        if m == k or m >= n or text[m] not in digits:
            return k
        k = m
    return k


def number_end(text: str, i: int) -> int:
    """Where the numeral starting at ``i`` (a digit) ends, as Lean's ``numberFnAux`` reads
    it: ``0b``/``0o``/``0x`` and the digits *of that radix* only (``0b1sorry`` is ``0b1``
    then the name ``sorry``; ``0b`` with no digit is an error in Lean, read here as ``0``
    then a name); otherwise decimal digits, then a ``.`` (taken even with no digit after it,
    as Lean does) and its digits, then ``e``/``E``, an optional sign and digits (without
    digits Lean reports an error; the numeral is read here as ending before the ``e``)."""
    n = len(text)
    if text[i] == "0" and i + 1 < n and text[i + 1].lower() in _RADIX_DIGITS:
        digits = _RADIX_DIGITS[text[i + 1].lower()]
        if i + 2 < n and text[i + 2] in digits:
            return _digits_end(text, i + 2, digits)
        return i + 1
    decimal = "0123456789"
    k = _digits_end(text, i, decimal)
    if k < n and text[k] == ".":
        k += 1
        if k < n and is_digit(text[k]):
            k = _digits_end(text, k, decimal)
    if k < n and text[k] in "eE":
        m = k + 1 + (k + 1 < n and text[k + 1] in "+-")
        if m < n and is_digit(text[m]):
            k = _digits_end(text, m, decimal)
    return k


def radix_value(numeral: str) -> int | None:
    """The value of a ``0b``/``0o``/``0x`` numeral as :func:`number_end` cut it (``0x10`` is
    ``16``: to Lean the same ``OfNat`` literal), or ``None`` for any other numeral."""
    if len(numeral) < 3 or numeral[0] != "0" or numeral[1].lower() not in _RADIX_DIGITS:
        return None
    return int(numeral[2:].replace("_", ""), {"b": 2, "o": 8, "x": 16}[numeral[1].lower()])


ID_BEGIN_ESCAPE = "«"
ID_END_ESCAPE = "»"
