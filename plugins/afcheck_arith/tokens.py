"""Scanning a step's text into tokens: LaTeX, unicode, currency and numbers normalised.

The scanner is deliberately literal: it maps notation onto one small token vocabulary and
never guesses a value. What it cannot map becomes an ``UNKNOWN`` token, which makes any claim
it touches unreadable (see :mod:`afcheck_arith.claims`).
"""

from __future__ import annotations

import enum
import functools
import re
from fractions import Fraction
from typing import NamedTuple

from afcheck_arith.numerals import NUMERAL, ORDINAL_SUFFIX, digits, numeral_value
from afcheck_arith.spans import is_money


class Kind(str, enum.Enum):
    NUM = "num"
    WORD = "word"
    OP = "op"
    """``+ - * / ^``"""
    LP = "("
    RP = ")"
    ABS = "|"
    REL = "rel"
    """``= ≠ < ≤ > ≥``, and ``≈`` (kept so that it can be refused, never read as ``=``)."""
    PCT = "%"
    FUNC = "func"
    """``sqrt``"""
    CONST = "const"
    """``pi``"""
    FACT = "!"
    """The factorial sign written against a number (``5!``)."""
    SEP = "sep"
    """A boundary no claim crosses: sentence punctuation, line breaks, ``\\implies``."""
    ELLIPSIS = "…"
    """``\\dots``, ``…``, ``...``: an enumeration or a range, never read as values."""
    UNKNOWN = "unknown"


class Token(NamedTuple):
    """One token of a step: immutable, compared and hashed by value. A named tuple rather than
    a frozen dataclass because a step has hundreds and a frozen dataclass sets each field
    through ``object.__setattr__``: building them was a tenth of the reader's time."""

    kind: Kind
    text: str
    value: Fraction | None = None
    """Exact value of a ``NUM``."""
    spaced: bool = True
    """Whether whitespace (or a delimiter) separates it from the previous token."""
    math: bool = False
    """Whether it comes from a LaTeX math region (letters there are variables, not words)."""
    unit: str = ""
    """For a ``NUM``: ``$`` when written as an amount of money."""
    ref: int = -1
    """The token's position in the step, so that a claim can say which numbers it read."""


MAX_NESTING = 64
"""Groups and brackets nested deeper than this are unreadable: no step writes them, and reading
them would exhaust Python's stack."""


class ScanError(ValueError):
    """LaTeX that cannot be read (an unclosed brace group, say)."""


_RELATIONS = {
    "=": "=",
    "≠": "≠",
    "!=": "≠",
    "<": "<",
    "≤": "≤",
    "<=": "≤",
    ">": ">",
    "≥": "≥",
    ">=": "≥",
    "≈": "≈",
    "≃": "≈",
    "∼": "≈",
}

_UNICODE_OPS = {
    "×": "*",
    "·": "*",
    "⋅": "*",
    "∗": "*",
    "÷": "/",
    "−": "-",
    "+": "+",
    "-": "-",
    "*": "*",
    "/": "/",
    "^": "^",
}
_SUPERSCRIPTS = {"²": "2", "³": "3"}

_COMMANDS: dict[str, tuple[Kind, str]] = {
    "times": (Kind.OP, "*"),
    "cdot": (Kind.OP, "*"),
    "ast": (Kind.OP, "*"),
    "div": (Kind.OP, "/"),
    "pi": (Kind.CONST, "pi"),
    "le": (Kind.REL, "≤"),
    "leq": (Kind.REL, "≤"),
    "leqslant": (Kind.REL, "≤"),
    "ge": (Kind.REL, "≥"),
    "geq": (Kind.REL, "≥"),
    "geqslant": (Kind.REL, "≥"),
    "ne": (Kind.REL, "≠"),
    "neq": (Kind.REL, "≠"),
    "lt": (Kind.REL, "<"),
    "gt": (Kind.REL, ">"),
    "approx": (Kind.REL, "≈"),
    "sim": (Kind.REL, "≈"),
    "simeq": (Kind.REL, "≈"),
    "implies": (Kind.SEP, "⟹"),
    "Rightarrow": (Kind.SEP, "⟹"),
    "Longrightarrow": (Kind.SEP, "⟹"),
    "rightarrow": (Kind.SEP, "→"),
    "to": (Kind.SEP, "→"),
    "therefore": (Kind.SEP, "∴"),
    "quad": (Kind.SEP, " "),
    "qquad": (Kind.SEP, " "),
    "%": (Kind.PCT, "%"),
}
_SPACES = {
    ",",
    ";",
    ":",
    "!",
    " ",
    "displaystyle",
    "left",
    "right",
    "big",
    "Big",
    "bigg",
    "Bigg",
    "bigl",
    "bigr",
    "Bigl",
    "Bigr",
    "biggl",
    "biggr",
    "limits",
    "nonumber",
    "notag",
    "hfill",
    "medskip",
    "smallskip",
    "bigskip",
    "newline",
}
_WRAPPERS = {
    "boxed",
    "mathit",
    "mathrm",
    "mathsf",
    "underline",
    "fbox",
    "textbf",
    "textit",
    "text",
    "textrm",
    "mbox",
    "operatorname",
    "emph",
    "hbox",
}
_PROSE_WRAPPERS = {"text", "textrm", "textbf", "textit", "mbox", "emph", "hbox"}
_FRACTIONS = {"frac", "dfrac", "tfrac", "cfrac"}
_ENVIRONMENT = re.compile(r"\\(begin|end)\{([^}]*)\}")
_LINE_ENVS = {
    "align",
    "align*",
    "aligned",
    "alignat",
    "alignat*",
    "alignedat",
    "equation",
    "equation*",
    "eqnarray",
    "eqnarray*",
    "gather",
    "gather*",
    "gathered",
    "split",
    "multline",
    "multline*",
}
"""Environments that only lay out lines of claims; any other (``pmatrix``, ``cases``,
``array``) builds an object that is not a number, so a step that uses one is refused."""
_NOT_NUMBERS = {
    "mathbf": "vector notation",
    "boldsymbol": "vector notation",
    "bm": "vector notation",
    "vec": "vector notation",
    "overrightarrow": "vector notation",
    "hat": "vector notation",
    "|": "a norm",
    "overline": "a repeating decimal or a segment",
    "dot": "a repeating decimal",
    "angle": "an angle",
    "measuredangle": "an angle",
    "triangle": "a triangle",
}
"""Commands whose object is not a number: read as one, a vector ``\\mathbf{a}`` becomes a
scalar ``a``, ``0.\\overline{6}`` becomes ``0`` and ``6``. A step using one is refused."""
_BULLET = re.compile(r"[-*•+][ \t]")
"""A list bullet at the start of a prose line: ``- \\(8! = 40320\\)`` is no negation."""
_BULLETS = frozenset("-*•+")
_MIXED = re.compile(r"\s*\\[dt]?frac\s*\{\s*(\d+)\s*\}\s*\{\s*(\d+)\s*\}")
"""A fraction of two numerals right after a numeral: ``3\\frac{4}{5}`` is 3 + 4/5."""

_BRACE = re.compile(r"[{}]")
_ROOT_INDEX = re.compile(r" *\[")
"""The index of ``\\sqrt[3]{…}``, after blanks."""
_COMMAND = re.compile(r"\\([A-Za-z]+|.)")
"""A LaTeX command's name: letters, or one other character (``\\,``, ``\\{``)."""
_ELLIPSES = {"dots", "ldots", "cdots", "dotsc", "dotsb", "dotso", "vdots", "ddots"}
_ORDINAL = re.compile(rf"[0-9]+{ORDINAL_SUFFIX}")
_INDEX = re.compile(r"\d++(?![.,]\d|[^\W\d_])")
"""Digits written against a short word and ending there: the index of ``x1``, ``y2``."""
_WORD = re.compile(r"[^\W\d_](?:[^\W\d_]|'(?=[^\W\d_]))*")
_HYPHENATED = re.compile(r"-[^\W\d_]+")
_SEPARATORS = set('.,;:!?\n"“”[]{}&→⇒⟹∴')


def scan(text: str) -> tuple[Token, ...]:
    """Tokens of ``text``; raises :class:`ScanError` for LaTeX it cannot delimit or for
    notation whose objects are not numbers (matrices, vectors, norms, repeating decimals).

    Memoised by text: a chain's earlier steps are read again as the context of each later
    step (their definitions, bound names, written values), so without it a chain of n steps
    scans its first step n times."""
    scanned = _scanned(text)
    if isinstance(scanned, str):
        raise ScanError(scanned)
    return scanned


@functools.lru_cache(maxsize=4096)
def _scanned(text: str) -> tuple[Token, ...] | str:
    """The tokens of ``text``, or the reason it cannot be scanned (an exception is not kept by
    the cache, and a refused step is as often read again as a readable one)."""
    try:
        return tuple(_Scanner(_environments(text), math=False).run())
    except ScanError as error:
        return str(error)


def _environments(text: str) -> str:
    """``text`` with line-layout environments cut at their edges; raises :class:`ScanError`
    for any other environment."""
    if "\\begin" not in text and "\\end" not in text:
        return text  # the common case, without a regex search
    for match in _ENVIRONMENT.finditer(text):
        if match.group(2) not in _LINE_ENVS:
            raise ScanError(f"environment '{match.group(2)}' is not a number: outside the fragment")
    return _ENVIRONMENT.sub("\n", text)


class _Scanner:
    def __init__(self, text: str, math: bool) -> None:
        self.text = text
        self.i = 0
        self.math = math
        self.prose_depth = 0
        self.out: list[Token] = []
        self.spaced = True
        self.currency = False
        self.closed_at = -1
        """Where the last math region closed: a region opened right after it is a new claim."""
        self.exponent_groups = 0
        """Brace groups after ``^`` open in prose."""
        self.level = 0
        """How many LaTeX groups (``\\frac{…}``, ``\\sqrt{…}``) enclose ``text``."""
        self.base = 0
        """How many tokens of the step come before this scanner's: its tokens' refs start
        there (an inner scanner's tokens are placed where it was started)."""

    def emit(self, kind: Kind, text: str, value: Fraction | None = None) -> None:
        unit = "$" if self.currency and kind is Kind.NUM else ""
        out = self.out
        out.append(
            Token(kind, text, value, self.spaced, self.math and not self.prose_depth, unit,
                  self.base + len(out))
        )
        self.spaced = False
        self.currency = False

    def run(self) -> list[Token]:
        text, n = self.text, len(self.text)
        while self.i < n:
            if text[self.i] == " ":  # the commonest character: one step of its own is costly
                self.spaced = True
                self.i += 1
            else:
                self.step()
        return self.out

    def step(self) -> None:
        text, i = self.text, self.i
        ch = text[i]
        if ch.isspace():
            if ch == "\n" and not self.math:
                self.emit(Kind.SEP, "\n")
            self.spaced = True
            self.i += 1
        elif ch == "\\":
            self.command()
        elif ch == "$":
            self.dollar()
        elif ch in _BULLETS and not self.math and _BULLET.match(text, i) and self.line_start():
            self.emit(Kind.SEP, "\n")
            self.i += 1
        elif "0" <= ch <= "9":  # not str.isdigit(): that also takes '²', which no numeral is
            self.number()
        elif (word := _WORD.match(text, i)) is not None:
            self.word(word)
        else:
            self.symbol()

    def line_start(self) -> bool:
        """Whether only blanks stand between ``self.i`` and the start of its line."""
        start = self.text.rfind("\n", 0, self.i) + 1
        return self.text[start : self.i].strip(" \t") == ""

    def dollar(self) -> None:
        if not self.math and is_money(self.text, self.i):
            self.i += 1  # money (in math a `$` closes): the number after it is read as it stands
            self.currency = True
        else:
            display = self.text.startswith("$$", self.i)
            self.i += 2 if display else 1
            if self.math:
                self.close_math(display)
            else:
                self.open_math()
        self.spaced = True

    def open_math(self) -> None:
        """Math regions written one after the other (``\\[a = b\\] \\[c = d\\]``) are separate
        claims, never one product."""
        start = self.i - 2 if self.text[self.i - 2 : self.i] in ("\\(", "\\[", "$$") else self.i - 1
        if self.closed_at >= 0 and self.text[self.closed_at : start].strip() == "":
            self.emit(Kind.SEP, "\n")
        self.math = True

    def close_math(self, display: bool) -> None:
        self.math = False
        self.closed_at = self.i
        if display:
            self.emit(Kind.SEP, "\n")  # a displayed claim stands on its own line

    def number(self) -> None:
        ordinal = _ORDINAL.match(self.text, self.i)
        if ordinal:
            self.emit(Kind.WORD, ordinal.group())
            self.i = ordinal.end()
            return
        match = NUMERAL.match(self.text, self.i)
        assert match is not None
        plain = digits(match.group())
        self.i = match.end()
        mixed = _MIXED.match(self.text, self.i)
        exponent = bool(self.out) and self.out[-1].text == "^"
        if mixed is None or exponent:
            self.emit(Kind.NUM, plain, numeral_value(plain))
            return
        numerator, denominator = int(mixed.group(1)), int(mixed.group(2))
        if "." in plain or not 0 < numerator < denominator:
            raise ScanError(
                f"'{plain}' before the fraction '{numerator}/{denominator}': neither a mixed "
                f"number nor a product one can tell"
            )
        self.mixed(plain, mixed.group(1), mixed.group(2))
        self.i = mixed.end()

    def mixed(self, whole: str, numerator: str, denominator: str) -> None:
        """``3\\frac{4}{5}``: the mixed number ``(3 + 4 / 5)``."""
        self.emit(Kind.LP, "(")
        self.emit(Kind.NUM, whole, numeral_value(whole))
        self.emit(Kind.OP, "+")
        self.emit(Kind.NUM, numerator, numeral_value(numerator))
        self.emit(Kind.OP, "/")
        self.emit(Kind.NUM, denominator, numeral_value(denominator))
        self.emit(Kind.RP, ")")

    def word(self, match: re.Match[str]) -> None:
        """The word ``match`` found at ``self.i``."""
        word = match.group()
        self.i = match.end()
        if not self.math and self.text.startswith("-", self.i):
            while (hyphen := _HYPHENATED.match(self.text, self.i)) is not None:
                word += hyphen.group()  # ``multiple-choice``: one word in prose, never a minus
                self.i = hyphen.end()
        index = _INDEX.match(self.text, self.i) if len(word) <= 2 else None
        if index is not None and not self.after_number():
            # ``x1 = -3``: one name with an index, not the letter ``x`` and the number 1
            self.emit(Kind.WORD, f"{word}_{index.group()}")
            self.i = index.end()
            return
        self.emit_word(word)

    def after_number(self) -> bool:
        """Whether the word just read is written against a number (``3x4``, ``2ab``)."""
        previous = self.out[-1] if self.out else None
        return previous is not None and previous.kind is Kind.NUM and not self.spaced

    def emit_word(self, word: str) -> None:
        if word == "sqrt":
            self.emit(Kind.FUNC, "sqrt")
        elif word == "pi":
            self.emit(Kind.CONST, "pi")
        else:
            self.emit(Kind.WORD, word)

    def symbol(self) -> None:
        text, i = self.text, self.i
        two = text[i : i + 2]
        if two == "!=" and self.out and self.out[-1].kind in {Kind.NUM, Kind.RP}:
            if text[i - 1 : i] not in {" ", ""}:
                # ``5!=120``: a factorial claim or "not equal"; the step does not say which
                self.emit(Kind.UNKNOWN, "!=")
                self.i += 2
                return
        if two in _RELATIONS:
            self.emit(Kind.REL, _RELATIONS[two])
            self.i += 2
            return
        if text.startswith("...", i):
            self.emit(Kind.ELLIPSIS, "...")
            self.i += 3
            return
        if two == "{,":
            # ``{,}`` that no numeral took: a separator in an odd place, never guessed at
            self.emit(Kind.UNKNOWN, "{,}")
            self.i += 3 if text.startswith("{,}", i) else 2
            return
        if two == "=>" or two == "->":
            self.emit(Kind.SEP, two)
            self.i += 2
            return
        ch = text[i]
        self.i += 1
        if ch in _RELATIONS:
            self.emit(Kind.REL, _RELATIONS[ch])
        elif ch in _UNICODE_OPS:
            self.emit(Kind.OP, _UNICODE_OPS[ch])
        elif ch in _SUPERSCRIPTS:
            self.emit(Kind.OP, "^")
            self.emit(Kind.NUM, _SUPERSCRIPTS[ch], numeral_value(_SUPERSCRIPTS[ch]))
        elif ch == "(":
            self.emit(Kind.LP, "(")
        elif ch == ")":
            self.emit(Kind.RP, ")")
        elif ch == "|":
            self.emit(Kind.ABS, "|")
        elif ch == "‖":
            raise ScanError("a norm '‖…‖' is not a number: outside the fragment")
        elif ch == "%":
            self.emit(Kind.PCT, "%")
        elif ch == "!" and self.factorial():
            self.emit(Kind.FACT, "!")
        elif ch == "!" and text[self.i : self.i + 1] in set("0123456789({"):
            self.emit(Kind.UNKNOWN, "!")  # ``!5``: the subfactorial, not 5
        elif ch == "…":
            self.emit(Kind.ELLIPSIS, "…")
        elif ch == "√":
            self.emit(Kind.FUNC, "sqrt")
        elif ch == "π":
            self.emit(Kind.CONST, "pi")
        elif ch == "_" and self.out and self.out[-1].kind is Kind.WORD:
            self.subscript()
        elif ch in "{}" and self.math:
            # a bare brace group in math mode groups, as in ``2^{x+1}``
            self.emit(Kind.LP if ch == "{" else Kind.RP, "(" if ch == "{" else ")")
        elif ch == ":" and text[i - 1 : i].isdigit() and text[i + 1 : i + 2].isdigit():
            self.emit(Kind.UNKNOWN, ":")  # ``3:4``, ``10:30``: a ratio or a time, not a separator
        elif ch == "{" and not self.math and self.out and self.out[-1].text == "^":
            self.exponent_groups += 1  # ``2^{10}`` in prose: the exponent's group
            self.emit(Kind.LP, "(")
        elif ch == "}" and not self.math and self.exponent_groups:
            self.exponent_groups -= 1
            self.emit(Kind.RP, ")")
        elif ch == "&" and self.math:
            self.spaced = True  # an alignment point (``x &= 5``): the line environments only
        elif ch in _SEPARATORS:
            self.emit(Kind.SEP, ch)
        elif ch in "'’`‘":
            self.spaced = True
        else:
            self.emit(Kind.UNKNOWN, ch)

    def factorial(self) -> bool:
        """Whether the ``!`` just passed is a factorial: written against a number or a bracket
        and not the start of ``!=``."""
        previous = self.out[-1] if self.out else None
        return (
            previous is not None
            and previous.kind in {Kind.NUM, Kind.RP}
            and self.text[self.i - 2 : self.i - 1] not in {" ", ""}
            and not self.text.startswith("=", self.i)
        )

    def command(self) -> None:
        text, i = self.text, self.i
        if text.startswith(("\\(", "\\["), i):
            self.i, self.spaced = i + 2, True
            self.open_math()
            return
        if text.startswith(("\\)", "\\]"), i):
            self.i, self.spaced = i + 2, True
            self.close_math(text.startswith("\\]", i))
            return
        if text.startswith("\\\\", i):
            self.emit(Kind.SEP, "\n")
            self.i += 2
            return
        match = _COMMAND.match(text, i)
        if match is None:
            self.i += 1
            return
        name = match.group(1)
        self.i = match.end()
        if name in _NOT_NUMBERS:
            raise ScanError(
                f"'\\{name}' writes {_NOT_NUMBERS[name]}, not a number: outside the fragment"
            )
        if name == "$":
            self.spaced = True
            self.currency = True
        elif name in _COMMANDS:
            kind, sym = _COMMANDS[name]
            self.emit(kind, sym)
        elif name in _SPACES:
            self.spaced = True
        elif name in _ELLIPSES:
            self.emit(Kind.ELLIPSIS, "\\" + name)
        elif name in _FRACTIONS:
            self.fraction()
        elif name == "sqrt":
            self.sqrt()
        elif name in _WRAPPERS:
            self.wrapper(name in _PROSE_WRAPPERS)
        elif name in {"{", "}"}:
            self.emit(Kind.LP if name == "{" else Kind.RP, "(" if name == "{" else ")")
        else:
            self.emit(Kind.UNKNOWN, "\\" + name)

    def subscript(self) -> None:
        """``\\text{Distance}_{\\text{west}}`` names one quantity: ``Distance_west``."""
        label = re.sub(r"\\[A-Za-z]+|[^A-Za-z0-9]", "", self.group())
        previous = self.out.pop()
        self.out.append(
            Token(Kind.WORD, f"{previous.text}_{label}", None, previous.spaced, previous.math,
                  "", previous.ref)
        )

    def group(self) -> str:
        """The next brace group's content, or the next single character (``\\frac12``)."""
        text = self.text
        while self.i < len(text) and text[self.i] == " ":
            self.i += 1
        if self.i >= len(text):
            raise ScanError("a LaTeX command is missing its argument")
        if text[self.i] != "{":
            ch = text[self.i]
            self.i += 1
            return ch
        depth, start = 0, self.i
        # from brace to brace, not character by character: a \\text{…} group holds prose
        for brace in _BRACE.finditer(text, start):
            j = brace.start()
            if text[j - 1 : j] == "\\":
                continue  # ``\\{``, ``\\}``: a literal brace
            if brace.group() == "{":
                depth += 1
            else:
                depth -= 1
                if depth == 0:
                    self.i = j + 1
                    return text[start + 1 : j]
        raise ScanError("unclosed '{' in LaTeX")

    def nested(self, source: str) -> None:
        if self.level >= MAX_NESTING:
            raise ScanError(f"LaTeX groups nested more than {MAX_NESTING} levels deep")
        inner = _Scanner(source, math=self.math)
        inner.level = self.level + 1
        inner.base = self.base + len(self.out)
        inner.prose_depth = self.prose_depth
        inner.spaced = self.spaced
        tokens = inner.run()
        self.out.extend(tokens)
        self.spaced = False

    def fraction(self) -> None:
        numerator, denominator = self.group(), self.group()
        self.emit(Kind.LP, "(")
        self.emit(Kind.LP, "(")
        self.nested(numerator)
        self.emit(Kind.RP, ")")
        self.emit(Kind.OP, "/")
        self.emit(Kind.LP, "(")
        self.nested(denominator)
        self.emit(Kind.RP, ")")
        self.emit(Kind.RP, ")")

    def sqrt(self) -> None:
        if _ROOT_INDEX.match(self.text, self.i):
            raise ScanError("a root '\\sqrt[n]' other than the square root: outside the fragment")
        self.emit(Kind.FUNC, "sqrt")
        self.emit(Kind.LP, "(")
        self.nested(self.group())
        self.emit(Kind.RP, ")")

    def wrapper(self, prose: bool) -> None:
        content = self.group()
        self.spaced = True
        if prose:
            self.prose_depth += 1
            self.nested(content)
            self.prose_depth -= 1
        else:
            self.nested(content)
        self.spaced = True
