"""The Lean 4 lexer: the one place afcheck cuts Lean text into tokens.

Two readings share its token record and the character classes and numeral rule of
:mod:`afcheck.lean.chars`:

- :func:`lex` cuts Lean source the way Lean's lexer cuts it, for the proof audit and the
  integrity rules, which judge tokens, never raw text: a word inside a ``--`` comment, a nested
  ``/- -/`` comment or a string is not code, ``Matrix.trace`` is one name (not the ``trace``
  tactic), and ``«debug».skipKernelTC`` is the name ``debug.skipKernelTC``. Outside comments and
  strings a character must be whitespace Lean skips, part of a name or a numeral, or a symbol
  character; anything else (U+00A0, U+3164, U+2800, U+034F, U+FE0F, Cyrillic look-alikes …) is
  reported, because it is either an error in Lean or a way to make the text a reader sees
  differ from the text Lean reads. Inside comments, strings and ``«»`` names Lean reads
  anything, so there only characters a reader cannot see are reported.
- :func:`tokenize` reads one statement for :mod:`afcheck.lean.parser`: ASCII spellings mapped
  to their Unicode forms, Mathlib's notation tokens (the longest one written wins), radix
  numerals as the literal Lean reads, ``n!`` as a factorial and ``h.1`` as one projection
  name, as model output writes them; a character it cannot read is a :class:`ParseError`.
  Its numerals are cut by the same rule as :func:`lex`'s.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from afcheck.lean.chars import (
    ID_BEGIN_ESCAPE,
    ID_END_ESCAPE,
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
    """One token of Lean text, with where it stands."""

    kind: str
    """``ident``, ``num``, ``sym``; from :func:`lex` also ``str``, ``char`` and ``doc`` (the
    ``/--`` or ``/-!`` that opens a doc comment: Lean reads these as tokens of a command, not
    as whitespace); from :func:`tokenize` also ``eof``."""
    text: str
    """From :func:`lex`, for ``ident``: the name with ``«»`` removed; otherwise the source
    text. From :func:`tokenize`: the spelling the parser reads (``→`` for ``->``)."""
    start: int
    end: int
    line_start: bool
    """First token on its line."""
    column: int
    """0-based column of ``start``."""
    space_before: bool
    """Whitespace (or, for :func:`lex`, a comment) separates it from the previous token."""
    escaped: bool = False
    """For ``ident``: some part was written in ``«»``, so Lean reads it as a name even when it
    spells a keyword (``«lemma»`` starts no declaration)."""


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
_GLUED = {"ℕ": ("+",), "ℝ": ("≥0∞", "≥0")}
"""Type notations whose token is a name glued to a symbol: ``ℕ+``, ``ℝ≥0``, ``ℝ≥0∞``."""


def _ident_start(ch: str) -> bool:
    return is_id_first(ch) or ch == ID_BEGIN_ESCAPE


def _ident_char(ch: str) -> bool:
    return is_id_rest(ch)


def _numeral(text: str, i: int) -> tuple[str, int]:
    """The numeral at ``i`` as the parser reads it, and where it ends: cut by Lean's rule
    (:func:`afcheck.lean.chars.number_end`), a radix numeral in decimal (``0x10`` is the literal
    16 to Lean), digit separators dropped (``1_000``), and a ``.`` with no digit after it left
    to the text after (``2.`` ending a sentence)."""
    end = number_end(text, i)
    written = text[i:end]
    value = radix_value(written)
    if value is not None:
        return str(value), end
    if written.endswith("."):
        written, end = written[:-1], end - 1
    return written.replace("_", ""), end


def tokenize(text: str) -> list[Token]:
    """The tokens of one statement for the parser, ending with an ``eof`` token; raises
    :class:`ParseError` at a character it cannot read."""
    tokens: list[Token] = []
    i, n = 0, len(text)
    line_begin, line_start, space = 0, True, True
    while i < n:
        ch = text[i]
        if ch in " \n\t\r":
            if ch == "\n":
                line_begin, line_start = i + 1, True
            space = True
            i += 1
            continue
        if is_digit(ch):
            kind, value, end = "num", *_numeral(text, i)
        elif _ident_start(ch):
            end = _ident_end(text, i)
            word = text[i:end]
            for glued in _GLUED.get(word, ()):
                if text.startswith(glued, end):
                    # ``ℕ+`` is one token in Lean (Mathlib's ``notation "ℕ+" => PNat``).
                    word, end = word + glued, end + len(glued)
                    break
            kind, value = ("sym", ASCII[word]) if word in ASCII else ("ident", word)
        else:
            for sym in _BY_FIRST.get(ch, ()):
                if text.startswith(sym, i):
                    kind, value, end = "sym", ASCII.get(sym, sym), i + len(sym)
                    break
            else:
                raise ParseError(f"unexpected character {ch!r}", text, i)
        tokens.append(Token(kind, value, i, end, line_start, i - line_begin, space,
                            kind == "ident" and ID_BEGIN_ESCAPE in value))
        i, line_start, space = end, False, False
    tokens.append(Token("eof", "", n, n, line_start, n - line_begin, space))
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


# --- Lean source, as Lean's lexer cuts it ------------------------------------------------


@dataclass(frozen=True)
class BadText:
    """Text Lean would not read as the tokens a reader sees."""

    start: int
    end: int
    why: str


@dataclass(frozen=True)
class Lexed:
    tokens: tuple[Token, ...]
    problems: tuple[BadText, ...]
    comments: tuple[tuple[int, int], ...]
    """Spans of comments (doc comments included)."""


_SOURCE_SYMBOLS = sorted(
    [":=", "<;>", "@[", "#[", "=>", "<|>", "<|", "|>.", "|>", "..", "::", "->", "<-", "<->",
     "++", "!=", "==", "&&", "||", "%[", "![", "⟨", "⟩"],
    key=len, reverse=True,
)
_LATIN1_SYMBOLS = "¬·×÷¹²³°±§¶¦¡¿¢£¥©®¯´¨¸ªºµ¼½¾"
_PUNCTUATION = "‖‹›†‡•′″‴…‼⁅⁆"
_SYMBOL_BLOCKS = (
    (0x2070, 0x209F),  # superscripts and subscripts
    (0x2190, 0x21FF),  # arrows
    (0x2200, 0x22FF),  # mathematical operators
    (0x2300, 0x23FF),  # miscellaneous technical (⌊ ⌋ ⌈ ⌉)
    (0x25A0, 0x25FF),  # geometric shapes (▸ □)
    (0x2600, 0x26FF),  # miscellaneous symbols (♯ ♭)
    (0x27C0, 0x27FF),  # mathematical symbols A, supplemental arrows A (⟨ ⟩ ⟶)
    (0x2900, 0x2BFF),  # arrows B, mathematical symbols B, operators, more arrows (⦃ ⨆ ⬝)
    (0x02B0, 0x02FF),  # spacing modifier letters (×ˢ)
    (0x1D00, 0x1DBF),  # phonetic extensions: postfix notations (ᶜ ᵀ ᵒᵈ)
    (0x1D400, 0x1D7FF),  # mathematical alphanumerics outside isLetterLike (𝟙)
)
_GREEK_TOKENS = "λΠΣ"
_RAW_STRING_START = re.compile(r'r(#*)"')
_CHAR_LITERAL = re.compile(r"'(?:[^\\'\n]|\\[\\\"'ntr]|\\x[0-9a-fA-F]{2}|\\u[0-9a-fA-F]{4})'")
_HIDDEN = frozenset(
    [0x00AD, 0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x2800, 0x3164, 0xFFA0]
    + list(range(0x180B, 0x1810)) + list(range(0xFE00, 0xFE10)) + list(range(0xE0000, 0xE1000))
)
"""Default-ignorable and blank-looking characters that Unicode does not file as format
characters (variation selectors, Hangul fillers, the braille blank, the soft hyphen)."""


def symbol_char(ch: str) -> bool:
    """A character that may be part of a Lean or Mathlib notation token."""
    if " " < ch < "\x7f":
        return not (is_id_first(ch) or is_digit(ch))
    if ch in _LATIN1_SYMBOLS or ch in _PUNCTUATION or ch in _GREEK_TOKENS:
        return True
    v = ord(ch)
    return any(lo <= v <= hi for lo, hi in _SYMBOL_BLOCKS)


def hidden_char(ch: str) -> bool:
    """A character a reader cannot see, or that may reorder or hide what is shown."""
    if ch in "\n":
        return False
    category = unicodedata.category(ch)
    if category in {"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"}:
        return True
    if category == "Zs" and ch != " ":
        return True
    return ord(ch) in _HIDDEN


def describe(ch: str) -> str:
    return f"U+{ord(ch):04X} ({unicodedata.name(ch, 'unnamed')})"


class _Lexer:
    def __init__(self, text: str, column: int = 0) -> None:
        self.text = text
        self.i = 0
        self.tokens: list[Token] = []
        self.problems: list[BadText] = []
        self.comments: list[tuple[int, int]] = []
        self.line_start = True
        self.space = True
        # The text may start inside a line (a proof body after `theorem … := `): columns on its
        # first line are those of the file, as Lean's column checks see them.
        self.line_begin = -column
        self.escaped = False

    def run(self) -> Lexed:
        text, n = self.text, len(self.text)
        while self.i < n:
            ch = text[self.i]
            if ch == "\n":
                self._newline(self.i + 1)
            elif ch == " ":
                self.i += 1
                self.space = True
            elif ch == "\r" and text.startswith("\r\n", self.i):
                self.i += 1
            elif text.startswith("--", self.i):
                self._line_comment()
            elif text.startswith("/-", self.i):
                self._block_comment()
            elif ch == '"':
                self._string()
            elif ch == "'" and self._char_literal():
                pass
            elif is_digit(ch):
                self._number()
            elif is_id_first(ch) or ch == ID_BEGIN_ESCAPE:
                self._ident()
            elif symbol_char(ch):
                self._symbol()
            else:
                self._bad_char(ch)
        return Lexed(tuple(self.tokens), tuple(self.problems), tuple(self.comments))

    def _newline(self, after: int) -> None:
        self.i = after
        self.line_start = True
        self.space = True
        self.line_begin = after

    def _emit(self, kind: str, value: str, start: int) -> None:
        self.tokens.append(Token(kind, value, start, self.i, self.line_start,
                                 start - self.line_begin, self.space, self.escaped))
        self.escaped = False
        self.line_start = False
        self.space = False

    def _bad_char(self, ch: str) -> None:
        if ch == "\t":
            why = "a tab, which Lean refuses outside comments"
        elif ch == "\r":
            why = "a carriage return outside \\r\\n, which Lean refuses"
        else:
            why = (f"the character {describe(ch)}, which Lean's lexer reads neither as "
                   "whitespace nor as part of a name, numeral or symbol")
        self.problems.append(BadText(self.i, self.i + 1, why))
        self.i += 1
        self.space = True

    def _check_hidden(self, start: int, end: int, where: str) -> None:
        for k in range(start, end):
            if hidden_char(self.text[k]) and self.text[k] != "\t" and not (
                self.text[k] == "\r" and self.text.startswith("\r\n", k)
            ):
                self.problems.append(BadText(k, k + 1, f"the invisible character "
                                             f"{describe(self.text[k])} in {where}"))

    def _line_comment(self) -> None:
        start = self.i
        end = self.text.find("\n", start)
        end = len(self.text) if end < 0 else end
        self._check_hidden(start, end, "a comment")
        self.comments.append((start, end))
        self.i = end
        self.space = True

    def _block_comment(self) -> None:
        # Lean skips the character right after `/-` before it looks for nesting (and `/--`,
        # `/-!` are doc comments whose body starts there too): `/-/- -/ x` ends at the first
        # `-/`, so x is code.
        start, depth, n = self.i, 1, len(self.text)
        k = min(start + 3, n)
        while k < n and depth:
            if self.text.startswith("/-", k):
                depth, k = depth + 1, k + 2
            elif self.text.startswith("-/", k):
                depth, k = depth - 1, k + 2
            else:
                k += 1
        if depth:
            self.problems.append(BadText(start, n, "an unterminated /- comment, which hides "
                                         "everything after it from Lean"))
        self._check_hidden(start, k, "a comment")
        self.comments.append((start, k))
        if self.text.startswith(("/--", "/-!"), start):
            # `/-- … -/` and `/-! … -/` are not whitespace to Lean: the first documents the
            # declaration after it, the second is a command of its own (a module doc).
            self.i = start + 3
            self._emit("doc", self.text[start : start + 3], start)
        if "\n" in self.text[start:k]:
            self.line_begin = self.text.rfind("\n", start, k) + 1
            self.line_start = True
        self.i = k
        self.space = True

    def _string(self) -> None:
        start, k, n = self.i, self.i + 1, len(self.text)
        while k < n and self.text[k] != '"':
            k += 2 if self.text[k] == "\\" else 1
        if k >= n:
            self.problems.append(BadText(start, n, "an unterminated string"))
            k = n - 1
        self._check_hidden(start, k + 1, "a string")
        self.i = k + 1
        self._emit("str", self.text[start : self.i], start)

    def _char_literal(self) -> bool:
        # Lean reads 'c', '\n', '\x41' and '\u03bb' as character literals; any other ' at a
        # token start is read here as a symbol, so that no code is taken for a literal.
        match = _CHAR_LITERAL.match(self.text, self.i)
        if match is None:
            return False
        start = self.i
        self._check_hidden(start, match.end(), "a character literal")
        self.i = match.end()
        self._emit("char", match.group(0), start)
        return True

    def _number(self) -> None:
        start = self.i
        self.i = number_end(self.text, start)
        self._emit("num", self.text[start : self.i], start)

    def _raw_string(self) -> bool:
        # r"…" and r#"…"#: no escapes inside, ended by a quote and as many #.
        match = _RAW_STRING_START.match(self.text, self.i)
        if match is None:
            return False
        start = self.i
        close = '"' + "#" * len(match.group(1))
        end = self.text.find(close, match.end())
        if end < 0:
            self.problems.append(BadText(start, len(self.text), "an unterminated raw string"))
            end = len(self.text) - len(close)
        self._check_hidden(start, end + len(close), "a string")
        self.i = end + len(close)
        self._emit("str", self.text[start : self.i], start)
        return True

    def _ident(self) -> None:
        if self._raw_string():
            return
        text, start, n = self.text, self.i, len(self.text)
        parts: list[str] = []
        k = start
        while True:
            if text[k] == ID_BEGIN_ESCAPE:
                close = text.find(ID_END_ESCAPE, k + 1)
                if close < 0:
                    self.problems.append(BadText(k, n, "an unterminated « name"))
                    close = n - 1
                self._check_hidden(k, close + 1, "a «» name")
                self.escaped = True
                parts.append(text[k + 1 : close])
                k = close + 1
            else:
                m = k + 1
                while m < n and is_id_rest(text[m]):
                    m += 1
                parts.append(text[k:m])
                k = m
            if k + 1 < n and text[k] == "." and (is_id_first(text[k + 1])
                                                 or text[k + 1] == ID_BEGIN_ESCAPE):
                k += 1
                continue
            break
        self.i = k
        self._emit("ident", ".".join(parts), start)

    def _symbol(self) -> None:
        start = self.i
        for sym in _SOURCE_SYMBOLS:
            if self.text.startswith(sym, start):
                self.i = start + len(sym)
                break
        else:
            self.i = start + 1
        self._emit("sym", self.text[start : self.i], start)


def lex(text: str, column: int = 0) -> Lexed:
    """The tokens of ``text`` (comments dropped, doc-comment openers kept as ``doc`` tokens)
    and every character problem found; ``column`` is where ``text`` starts on its first line
    (0-based), so that columns are those of the file it is part of."""
    return _Lexer(text, column).run()


def line_column(text: str, offset: int) -> tuple[int, int]:
    """1-based line and 1-based column of ``offset`` in ``text``."""
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1
