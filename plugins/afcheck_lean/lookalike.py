"""Letters that pass for Latin ones, by Unicode's confusables data.

A name such as ``Nαt`` (Greek alpha) or ``Nat`` spelled with a Greek tau reads as ``Nat``; a
header that declares it can make a statement mean something else than it reads. Which
characters look like which is Unicode's ``confusables.txt`` (UTS #39), as shipped by the
``confusable-homoglyphs`` package, rather than a list kept here: a character is a look-alike
when it is confusable with a Latin letter or digit, or folds to one under NFKC (the Kelvin sign,
mathematical script letters, fullwidth letters). The double-struck letters ``ℕ ℤ ℚ ℝ ℂ`` (and
the rest of that alphabet) are the usual names of number sets, which no reader takes for Latin
letters, and Lean's subscripts (``h₀``) are read as subscripts.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from afcheck.errors import MissingDependency
from afcheck.lean.chars import is_subscript_alnum

_DOUBLE_STRUCK = frozenset("ℂℍℕℙℚℝℤⅅⅆⅇⅈⅉ") | frozenset(
    chr(v) for v in range(0x1D538, 0x1D56C))


@lru_cache(maxsize=4096)
def looks_latin(ch: str) -> bool:
    """Whether ``ch`` (one character, not ASCII) can pass for a Latin letter or digit."""
    if ch.isascii() or ch in _DOUBLE_STRUCK or is_subscript_alnum(ch):
        return False  # `h₀` is a subscripted name, as Lean's lexer reads it
    folded = unicodedata.normalize("NFKC", ch)
    if folded.isascii() and folded.isalnum():
        return True
    try:
        from confusable_homoglyphs import categories, confusables
    except ImportError:  # pragma: no cover - a dependency of the lean extra
        raise MissingDependency("the Lean audit", "confusable-homoglyphs",
                                "pip install 'afcheck[lean]'") from None
    found = confusables.is_confusable(ch, greedy=True, preferred_aliases=[]) or []
    # A homoglyph may be a sequence (``rn`` for ``m``): Latin when every part is.
    return any(all(part.isascii() and part.isalnum() or categories.alias(part) == "LATIN"
                   for part in glyph["c"])
               for entry in found for glyph in entry["homoglyphs"])
