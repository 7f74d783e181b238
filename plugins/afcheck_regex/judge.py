"""A deterministic judge for the arithmetic a sentence asserts.

:func:`judge_claim` reads the equalities, inequalities and chains (``a = b = c``) written in a
sentence, in prose or in LaTeX (``\\(…\\)``, ``\\[…\\]``, ``$…$``, ``\\times``, ``\\cdot``,
``\\div``, ``\\frac{a}{b}``, ``\\dfrac``, ``\\$``, ``1,000``, ``20\\%``), and evaluates them exactly
with :class:`fractions.Fraction`. It answers ``true`` only when every relation it found is
readable and holds, ``false`` when a relation it could read fails, and ``unknown`` otherwise
(variables, functions it does not know, words that could change what a number means).

A relation is read only where its boundaries are unambiguous: the numbers next to it must not
be qualified by words such as "of", "times", "than" or "dozen" ("half of 10 = 5" is unknown,
not ``10 = 5``). A leading name (``Total = 2 + 1 = 3``, ``\\(R = 4 \\times 5 = 20\\)``) defines
that name and is not judged; the rest of the chain is.

:func:`effectiveness` compares a step with its perturbed counterpart: ``effective`` when the
original is true and the perturbed false, ``ineffective`` when both are true and the edit
changed what was judged, ``unknown`` otherwise.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

__all__ = ["Effectiveness", "Judgement", "Verdict", "effectiveness", "judge_claim"]

Verdict = Literal["true", "false", "unknown"]
Effectiveness = Literal["effective", "ineffective", "unknown"]


@dataclass(frozen=True)
class Judgement:
    """The judge's answer for one text."""

    verdict: Verdict
    expression: str
    """The relations that were evaluated, normalised (``9 + 5 = 14; 14 - 3 = 11``)."""
    reason: str = ""
    """Why the verdict is not ``true``, in one line; empty when it is."""


def judge_claim(text: str) -> Judgement:
    """Judge the arithmetic relations asserted in ``text`` (see the module docstring)."""
    links: list[_Link] = []
    undecided: list[str] = []
    for segment in _segments(_Scanner(text).run()):
        _read_segment(segment, links, undecided)
    expression = "; ".join(link.render() for link in links)
    false = [link for link in links if not link.holds]
    if false and _INEXACT.search(text):
        return Judgement("unknown", expression, "the text speaks of rounding or integer division")
    if false and all(_maybe_rounded(link) for link in false):
        return Judgement("unknown", expression, f"{false[0].render()} may be rounded")
    if false:
        return Judgement("false", expression, f"{false[0].render()} does not hold")
    if undecided:
        return Judgement("unknown", expression, undecided[0])
    if not links:
        return Judgement("unknown", expression, "no arithmetic relation found")
    return Judgement("true", expression)


def effectiveness(original: str, perturbed: str) -> Effectiveness:
    """Whether ``perturbed`` is known to break the arithmetic that ``original`` gets right."""
    before, after = judge_claim(original), judge_claim(perturbed)
    if before.verdict != "true":
        return "unknown"
    if after.verdict == "false":
        return "effective"
    if after.verdict == "true" and after.expression != before.expression:
        return "ineffective"
    # Same judged relations: the edit fell outside them, so it changed something unjudged.
    return "unknown"


_INEXACT = re.compile(
    r"\b(?:quotient|remainder|round(?:ed|ing)?|approx(?:imately|imate)?|nearest|floor|ceil(?:ing)?"
    r"|truncat\w*|roughly)\b",
    re.IGNORECASE,
)
_ROUNDING_TOLERANCE = Fraction(1, 200)


def _maybe_rounded(link: _Link) -> bool:
    """A failed relation over decimals of two or more places that misses by at most 0.5%:
    ``(2.8284)^2 = 8`` is a rounded value written with "=", not a wrong step."""
    tokens = link.left.tokens + link.right.tokens
    decimals = any(t.kind == NUM and len(t.text.partition(".")[2]) >= 2 for t in tokens)
    if link.rel != "=" or not decimals:
        return False
    a, b = link.left.value, link.right.value
    return abs(a - b) <= _ROUNDING_TOLERANCE * max(abs(a), abs(b))


# -- tokens ----------------------------------------------------------------------------------

NUM, OP, LP, RP, REL, UREL, WORD, VAR, OTHER, BOUND = (
    "num", "op", "lp", "rp", "rel", "urel", "word", "var", "other", "bound"
)
_NUMERIC = frozenset({NUM, OP, LP, RP})


@dataclass(frozen=True)
class _Token:
    kind: str
    text: str
    value: Fraction | None = None
    percent: bool = False


_NUMBER_RE = re.compile(
    r"\d{1,3}(?:(?:,|\{,\})\d{3})+(?!\d)(?:\.\d+)?|\d+(?:\.\d+)?", re.ASCII
)
_WORD_RE = re.compile(r"[A-Za-z]+(?:['’][A-Za-z]+)*")
_COMMAND_RE = re.compile(r"\\([A-Za-z]+|.)")

_TIMES = {"times", "cdot", "ast"}
_DIVIDE = {"div"}
_FRACTIONS = {"frac", "dfrac", "tfrac", "cfrac"}
_GROUPS = {"boxed", "fbox"}
_TEXTS = {"text", "textbf", "textit", "textrm", "mathrm", "mbox", "textnormal"}
_IGNORED = {"quad", "qquad", "left", "right", "big", "Big", "bigl", "bigr", "Bigl", "Bigr",
            "displaystyle",
            ",", ";", ":", "!", " ", "$"}
_BOUNDARIES = {"implies", "Rightarrow", "rightarrow", "to", "Longrightarrow",
               "iff", "Leftrightarrow", "\\", "begin", "end", "(", ")", "[", "]", "text{and}"}
_RELATIONS = {"le": "<=", "leq": "<=", "leqslant": "<=", "ge": ">=", "geq": ">=",
              "geqslant": ">=", "ne": "!=", "neq": "!=", "lt": "<", "gt": ">"}
_UNDECIDED_RELATIONS = {"approx", "sim", "simeq", "equiv", "cong", "propto", "doteq"}
_SYMBOLS = {"×": (OP, "*"), "·": (OP, "*"), "∗": (OP, "*"), "÷": (OP, "/"), "−": (OP, "-"),
            "≤": (REL, "<="), "≥": (REL, ">="), "≠": (REL, "!="), "≈": (UREL, "≈"),
            "→": (BOUND, "→"), "⇒": (BOUND, "⇒"), "…": (BOUND, "…")}
_TWO_CHAR = {"<=": (REL, "<="), ">=": (REL, ">="), "!=": (REL, "!="), "==": (REL, "="),
             "=>": (BOUND, "=>"), "->": (BOUND, "->"), ":=": (BOUND, ":=")}
_PLAIN = {"+": (OP, "+"), "-": (OP, "-"), "*": (OP, "*"), "/": (OP, "/"), "^": (OP, "^"),
          "(": (LP, "("), ")": (RP, ")"), "[": (LP, "("), "]": (RP, ")"), "{": (LP, "("),
          "}": (RP, ")"), "=": (REL, "="), "<": (REL, "<"), ">": (REL, ">"),
          ",": (BOUND, ","), ";": (BOUND, ";"), "?": (BOUND, "?"), "\n": (BOUND, "\n")}
_SPACE = frozenset(" \t\r&~\"'“”‘’`")
_ARTICLES = frozenset({"a", "A", "I"})
_DIGITS = frozenset("0123456789")


class _Scanner:
    """Turns prose with inline LaTeX into tokens; letters in math mode are variables."""

    def __init__(self, text: str, math: bool = False, level: int = 0) -> None:
        self.text = text
        self.pos = 0
        self.math = math
        self.level = level
        """How many LaTeX groups (``\\frac{…}``, ``\\sqrt{…}``) enclose ``text``."""
        self.tokens: list[_Token] = []

    def run(self) -> list[_Token]:
        self._strip_bullets()
        while self.pos < len(self.text):
            self._step()
        return self.tokens

    def _strip_bullets(self) -> None:
        # Markdown bullets ("- 3 + 4 = 7") are list marks, not minus signs.
        self.text = re.sub(r"(?m)^[ \t]*[-*+][ \t]+", "", self.text)

    def _emit(self, kind: str, text: str, value: Fraction | None = None, pct: bool = False) -> None:
        self.tokens.append(_Token(kind, text, value, pct))

    def _step(self) -> None:
        text, i = self.text, self.pos
        ch = text[i]
        if ch in _DIGITS:
            self._number()
        elif ch.isalpha() and ch.isascii():
            self._word()
        elif ch == "\\":
            self._command()
        elif ch == "$":
            self._dollar()
        elif text.startswith("**", i):
            self._stars()
        elif text[i : i + 2] in _TWO_CHAR:
            self._emit(*_TWO_CHAR[text[i : i + 2]])
            self.pos += 2
        elif ch in _PLAIN:
            self._emit(*_PLAIN[ch])
            self.pos += 1
        elif ch in _SYMBOLS:
            self._emit(*_SYMBOLS[ch])
            self.pos += 1
        elif ch in ".:!":
            self._punctuation(ch)
        elif ch in _SPACE or ch.isspace():
            self.pos += 1
        else:
            self._emit(OTHER, ch)
            self.pos += 1

    def _number(self) -> None:
        match = _NUMBER_RE.match(self.text, self.pos)
        assert match is not None
        end = match.end()
        digits = match.group().replace("{,}", "").replace(",", "")
        value = Fraction(digits)
        pct = False
        for sign in ("%", "\\%"):
            if self.text.startswith(sign, end):
                end += len(sign)
                value, pct = value / 100, True
                break
        follows = self.text[end : end + 1]
        if not self.math and not pct and follows.isalpha():
            # "2nd", "10am": a numeral glued to letters in prose is not a quantity we can read.
            word = _WORD_RE.match(self.text, end)
            end = word.end() if word else end + 1
            self._emit(OTHER, self.text[self.pos : end])
        else:
            self._emit(NUM, digits + ("%" if pct else ""), value, pct)
        self.pos = end

    def _word(self) -> None:
        match = _WORD_RE.match(self.text, self.pos)
        assert match is not None
        word = match.group()
        self.pos = match.end()
        if self.math:
            self._emit(VAR, word)
        elif len(word) == 1 and word not in _ARTICLES:
            self._emit(VAR, word)
        else:
            self._emit(WORD, word)

    def _command(self) -> None:
        match = _COMMAND_RE.match(self.text, self.pos)
        if match is None:
            self._emit(OTHER, "\\")
            self.pos += 1
            return
        name = match.group(1)
        self.pos = match.end()
        if name in ("(", "["):
            self._emit(BOUND, name)
            self.math = True
        elif name in (")", "]"):
            self._emit(BOUND, name)
            self.math = False
        elif name in _TIMES:
            self._emit(OP, "*")
        elif name in _DIVIDE:
            self._emit(OP, "/")
        elif name in _RELATIONS:
            self._emit(REL, _RELATIONS[name])
        elif name in _UNDECIDED_RELATIONS:
            self._emit(UREL, name)
        elif name in _FRACTIONS:
            self._fraction()
        elif name in _GROUPS:
            self._group(as_text=False)
        elif name in _TEXTS:
            self._group(as_text=True)
        elif name == "%":
            self._emit(OTHER, "%")
        elif name in _IGNORED:
            pass
        elif name in _BOUNDARIES:
            self._emit(BOUND, name)
        else:
            self._emit(OTHER, "\\" + name)

    def _argument(self) -> str | None:
        """The next brace group (or single character) after a command, consumed."""
        text = self.text
        while self.pos < len(text) and text[self.pos] == " ":
            self.pos += 1
        if self.pos >= len(text):
            return None
        if text[self.pos] != "{":
            ch = text[self.pos]
            self.pos += 1
            return ch if ch.isalnum() else None
        depth, start = 0, self.pos
        for j in range(self.pos, len(text)):
            depth += {"{": 1, "}": -1}.get(text[j], 0)
            if depth == 0:
                self.pos = j + 1
                return text[start + 1 : j]
        return None

    def _sub(self, text: str, math: bool) -> list[_Token]:
        if self.level >= _MAX_NESTING:
            return [_Token(OTHER, "deeply nested group")]  # unreadable, and no deeper stack
        return _Scanner(text, math, self.level + 1).run()

    def _fraction(self) -> None:
        top, bottom = self._argument(), self._argument()
        if self.tokens and self.tokens[-1].kind == NUM:
            self._emit(OTHER, "mixed number")  # 3\frac{4}{5} is 3 + 4/5, not 3 * 4/5
            return
        if top is None or bottom is None:
            self._emit(OTHER, "\\frac")
            return
        self.tokens += [_Token(LP, "("), _Token(LP, "(")]
        self.tokens += self._sub(top, True)
        self.tokens += [_Token(RP, ")"), _Token(OP, "/"), _Token(LP, "(")]
        self.tokens += self._sub(bottom, True)
        self.tokens += [_Token(RP, ")"), _Token(RP, ")")]

    def _group(self, as_text: bool) -> None:
        body = self._argument()
        if body is None:
            self._emit(OTHER, "\\group")
        elif as_text:
            self.tokens += self._sub(body, False)
        else:
            self.tokens += [_Token(LP, "("), *self._sub(body, self.math), _Token(RP, ")")]

    def _dollar(self) -> None:
        text, i = self.text, self.pos
        if text.startswith("$$", i):
            self.pos += 2
        elif i + 1 < len(text) and text[i + 1].isdigit() and not self.math:
            self.pos += 1  # currency sign: "$5"
            return
        else:
            self.pos += 1
        self._emit(BOUND, "$")
        self.math = not self.math

    def _stars(self) -> None:
        text, i = self.text, self.pos
        before, after = text[i - 1 : i], text[i + 2 : i + 3]
        self.pos += 2
        if before.isdigit() and after.isdigit():
            self._emit(OP, "^")
        else:
            self._emit(BOUND, "**")  # markdown emphasis

    def _punctuation(self, ch: str) -> None:
        text, i = self.text, self.pos
        self.pos += 1
        before = text[:i].rstrip()[-1:]
        after = text[i + 1 :].lstrip()[:1]
        glued = text[i + 1 : i + 2]
        if ch == "." and before.isdigit() and glued and not glued.isspace():
            self._emit(OTHER, ".")  # "0.\overline{3}": a number we cannot read, not a full stop
        elif ch == ":" and before.isdigit() and after.isdigit():
            self._emit(OTHER, ":")  # a ratio or a time, not a separator
        elif ch == "!" and (before.isdigit() or before in ")}"):
            self._emit(OTHER, "!")  # factorial
        elif ch == "!" and text.startswith("=", i + 1):
            self._emit(REL, "!=")
            self.pos += 1
        else:
            self._emit(BOUND, ch)


def _segments(tokens: Sequence[_Token]) -> list[list[_Token]]:
    segments: list[list[_Token]] = [[]]
    for token in tokens:
        if token.kind == BOUND:
            segments.append([])
        else:
            segments[-1].append(token)
    return [s for s in segments if s]


# -- reading relations -----------------------------------------------------------------------

# Words after which a number starts a new quantity: copulas, verbs of result, connectives.
_LEAD_WORDS = frozenset(
    """is are was were be been being equals equal equaling gives give gave giving yields yield
    makes make made get gets got getting have has had becomes become so then thus therefore
    hence now that which calculate compute find check verify since because as we where
    earns costs pays spends needs uses buys sells sold bought paid spent used needed earned
    cost total answer result""".split()
)
# Words after a number that change what the number denotes.
_QUALIFIERS = frozenset(
    """of times by plus minus over divided multiplied into per than more less fewer half halves
    twice double triple third thirds quarter quarters fourth fourths fifth fifths percent
    percentage squared cubed square cube root roots power factorial choose mod modulo dozen
    dozens hundred hundreds thousand thousands million millions billion billions raised to
    out from or""".split()
)


@dataclass(frozen=True)
class _Term:
    tokens: tuple[_Token, ...]
    value: Fraction
    percent: bool = False
    """The term is a bare percentage (``20%``)."""

    def render(self) -> str:
        return " ".join(t.text for t in self.tokens)


class _Label:
    """A name being defined by the chain (``Total = …``)."""


_LABEL = _Label()


@dataclass(frozen=True)
class _Link:
    left: _Term
    rel: str
    right: _Term

    @property
    def holds(self) -> bool:
        a, b = self.left.value, self.right.value
        return {"=": a == b, "<": a < b, ">": a > b, "<=": a <= b, ">=": a >= b,
                "!=": a != b}[self.rel]

    def render(self) -> str:
        return f"{self.left.render()} {self.rel} {self.right.render()}"


class _Unreadable(Exception):
    """An expression the judge will not evaluate."""


def _read_segment(segment: list[_Token], links: list[_Link], undecided: list[str]) -> None:
    chunks: list[list[_Token]] = [[]]
    rels: list[_Token] = []
    for token in _drop_units(segment):
        if token.kind in (REL, UREL):
            rels.append(token)
            chunks.append([])
        else:
            chunks[-1].append(token)
    for i, rel in enumerate(rels):
        left = _left_operand(chunks[i], first=i == 0)
        right = _right_operand(chunks[i + 1])
        if left is _LABEL and rel.text == "=":
            continue
        if rel.kind == UREL:
            undecided.append(f"relation '{rel.text}' is not exact")
        elif isinstance(left, _Term) and isinstance(right, _Term):
            if _percent_ambiguous(left, right):
                shown = f"{left.render()} {rel.text} {right.render()}"
                undecided.append(f"'%' in '{shown}' is ambiguous")
            else:
                links.append(_Link(left, rel.text, right))
        else:
            side = chunks[i] if not isinstance(left, _Term) else chunks[i + 1]
            shown = " ".join(t.text for t in side) or "nothing"
            undecided.append(f"cannot evaluate '{shown}' around '{rel.text}'")


def _percent_ambiguous(left: _Term, right: _Term) -> bool:
    """``0.75 * 100 = 75%`` writes a conversion, not the equation 75 = 0.75."""
    if left.percent == right.percent:
        return False
    pct, other = (left, right) if left.percent else (right, left)
    return other.value == pct.value * 100


def _drop_units(segment: list[_Token]) -> list[_Token]:
    """Remove annotations between a number and an operator: ``9 (red) + 14``, ``4 cm + 3 cm``.

    Bare unit words are dropped only when they are all the same word (``3 hours + 30 minutes``
    stays unreadable)."""
    out: list[_Token] = []
    units: set[str] = set()
    i = 0
    while i < len(segment):
        token = segment[i]
        out.append(token)
        i += 1
        if token.kind != NUM:
            continue
        skip = _annotation_length(segment, i)
        if skip and _op_follows(segment, i + skip):
            if segment[i].kind == WORD:
                units.add(segment[i].text.lower().rstrip("s"))
            i += skip
    if len(units) > 1:
        return list(segment)
    return out


def _annotation_length(segment: Sequence[_Token], i: int) -> int:
    if i < len(segment) and segment[i].kind == WORD and _is_unit(segment[i].text):
        return 1
    if i < len(segment) and segment[i].kind == LP:
        j = i + 1
        while j < len(segment) and segment[j].kind == WORD:
            j += 1
        if j > i + 1 and j < len(segment) and segment[j].kind == RP:
            return j + 1 - i
    return 0


def _is_unit(word: str) -> bool:
    lower = word.lower()
    return len(word) > 1 and lower not in _QUALIFIERS and lower not in _LEAD_WORDS


def _op_follows(segment: Sequence[_Token], j: int) -> bool:
    if j >= len(segment):
        return False
    token = segment[j]
    if token.kind == OP and token.text in "+-*/":
        return True
    # "9 (red) + 14 (blue) + 11 (yellow) = 34", "4 cm + 16 cm = 20 cm": the last operand's
    # annotation, inside an expression (a lone "3 boxes = 12 apples" keeps its words).
    return token.kind in (REL, UREL) and _in_sum(segment, j)


def _in_sum(segment: Sequence[_Token], j: int) -> bool:
    for token in reversed(segment[:j]):
        if token.kind in (REL, UREL):
            return False
        if token.kind == OP:
            return True
    return False


def _left_operand(chunk: list[_Token], first: bool) -> _Term | _Label | None:
    """The term a chunk offers to the relation on its right."""
    start = len(chunk)
    while start > 0 and chunk[start - 1].kind in _NUMERIC:
        start -= 1
    if start < len(chunk) and (start == 0 or _leads(chunk[start - 1])):
        return _term(_trim_open(chunk[start:]))
    if start == len(chunk) and chunk and _is_name(chunk[_prefix_end(chunk, first) :]):
        return _LABEL
    return None


def _prefix_end(chunk: Sequence[_Token], first: bool) -> int:
    """Where the name after the previous relation's operand starts (``= 3 and y = …``)."""
    if first:
        return 0
    end = 0
    while end < len(chunk) and chunk[end].kind in _NUMERIC:
        end += 1
    return end if end == 0 or _closes(chunk, end) else len(chunk) + 1


def _right_operand(chunk: list[_Token]) -> _Term | None:
    """The term a chunk offers to the relation on its left."""
    end = 0
    while end < len(chunk) and chunk[end].kind in _NUMERIC:
        end += 1
    if end == 0 or not _closes(chunk, end):
        return None
    return _term(_trim_close(chunk[:end]))


def _closes(chunk: Sequence[_Token], end: int) -> bool:
    """Whether the numeric run ``chunk[:end]`` ends a quantity: nothing or an unrelated word
    follows ("= 20 cm"), not a qualifier ("= 3 times 4") or a second number ("2 hours 30")."""
    if end == len(chunk):
        return True
    token = chunk[end]
    if token.kind != WORD or token.text.lower() in _QUALIFIERS:
        return False
    return end + 1 >= len(chunk) or chunk[end + 1].kind != NUM


def _is_name(chunk: Sequence[_Token]) -> bool:
    return bool(chunk) and all(t.kind in (WORD, VAR) for t in chunk)


def _leads(token: _Token) -> bool:
    return token.kind == WORD and token.text.lower() in _LEAD_WORDS


def _trim_open(tokens: list[_Token]) -> list[_Token]:
    while tokens and tokens[0].kind == LP and _depth(tokens) > 0:
        tokens = tokens[1:]
    return tokens


def _trim_close(tokens: list[_Token]) -> list[_Token]:
    while tokens and tokens[-1].kind == RP and _depth(tokens) < 0:
        tokens = tokens[:-1]
    return tokens


def _depth(tokens: Sequence[_Token]) -> int:
    return sum(1 if t.kind == LP else -1 if t.kind == RP else 0 for t in tokens)


def _term(tokens: list[_Token]) -> _Term | None:
    try:
        value, percent = _Parser(tokens).parse()
    except _Unreadable:
        return None
    return _Term(tuple(tokens), value, percent)


# -- exact evaluation ------------------------------------------------------------------------

_MAX_EXPONENT = 64
_MAX_BITS = 4096
_MAX_NESTING = 64
"""Brackets and signs nested deeper than this are unreadable: no step writes them, and
recursing further could exhaust Python's stack."""


class _Parser:
    """Recursive descent over numeric tokens; every value is an exact Fraction."""

    def __init__(self, tokens: Sequence[_Token]) -> None:
        self.tokens = tokens
        self.pos = 0
        self.depth = 0

    def _nested(self) -> None:
        self.depth += 1
        if self.depth > _MAX_NESTING:
            raise _Unreadable(f"nested more than {_MAX_NESTING} levels deep")

    def parse(self) -> tuple[Fraction, bool]:
        """The value, and whether the expression is a bare percentage."""
        if not self.tokens:
            raise _Unreadable("empty")
        value, percent = self._sum()
        if self.pos != len(self.tokens):
            raise _Unreadable("trailing tokens")
        return value, percent

    def _peek(self) -> _Token | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def _take_op(self, ops: str) -> str | None:
        token = self._peek()
        if token is not None and token.kind == OP and token.text in ops:
            self.pos += 1
            return token.text
        return None

    def _sum(self) -> tuple[Fraction, bool]:
        value, pct = self._product()
        operands, any_pct = 1, pct
        while (op := self._take_op("+-")) is not None:
            rhs, rhs_pct = self._product()
            value = value + rhs if op == "+" else value - rhs
            operands += 1
            any_pct = any_pct or rhs_pct
        if operands > 1 and any_pct:
            raise _Unreadable("a bare percentage in a sum is ambiguous")  # 100 + 10% = 110?
        return value, pct and operands == 1

    def _product(self) -> tuple[Fraction, bool]:
        value, pct = self._unary()
        factors = 1
        while True:
            op = self._take_op("*/")
            token = self._peek()
            if op is None and (token is None or token.kind != LP):
                break
            rhs, _ = self._unary()
            factors += 1
            if op == "/":
                if rhs == 0:
                    raise _Unreadable("division by zero")
                value = value / rhs
            else:
                value = value * rhs
            _check_size(value)
        return value, pct and factors == 1

    def _unary(self) -> tuple[Fraction, bool]:
        op = self._take_op("+-")
        self._nested()
        try:
            if op is not None:
                value, pct = self._unary()
                return (-value if op == "-" else value), pct
            return self._power()
        finally:
            self.depth -= 1

    def _power(self) -> tuple[Fraction, bool]:
        base, pct = self._atom()
        if self._take_op("^") is None:
            return base, pct
        exponent, _ = self._unary()
        if exponent.denominator != 1 or abs(exponent) > _MAX_EXPONENT:
            raise _Unreadable("exponent")
        if base == 0 and exponent < 0:
            raise _Unreadable("division by zero")
        value = base ** int(exponent)
        _check_size(value)
        return value, False

    def _atom(self) -> tuple[Fraction, bool]:
        token = self._peek()
        if token is None:
            raise _Unreadable("missing operand")
        self.pos += 1
        if token.kind == NUM:
            assert token.value is not None
            return token.value, token.percent
        if token.kind == LP:
            value, pct = self._sum()
            closing = self._peek()
            if closing is None or closing.kind != RP:
                raise _Unreadable("unbalanced parenthesis")
            self.pos += 1
            return value, pct
        raise _Unreadable(f"unexpected {token.text!r}")


def _check_size(value: Fraction) -> None:
    if value.numerator.bit_length() > _MAX_BITS or value.denominator.bit_length() > _MAX_BITS:
        raise _Unreadable("number too large")
