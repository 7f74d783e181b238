"""Arithmetic and comparison operators of a step, and what each may be swapped for.

An operator is only a candidate where it is unmistakably one: it has an operand on both sides
(so a unary minus in ``-5`` or a bullet in ``- item`` is left alone, even on a line after one
that ends in a number), it is not part of a longer
symbol (``**``, ``->``, ``<-``, ``=>``, ``:=``, ``--``, ``++``, ``//``), and in prose, outside
math, a ``-`` between letters is a hyphen (``x-axis``, ``5-pound``) and ``*`` or ``/`` need a
number or bracket on both sides (``*emphasis*``, ``km/h``, ``and/or`` are not arithmetic).
LaTeX commands are matched whole (``\\cdot`` but not ``\\cdots``, ``\\le`` but not ``\\left``) and
replaced by commands of the same notation.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from afcheck_arith.spans import in_spans, math_spans

_LATEX_ARITH = ("+", "-", "\\times", "\\div")
_ASCII_ARITH = ("+", "-", "*", "/")
_UNICODE_ARITH = ("+", "-", "×", "÷")

_ALTERNATIVES: dict[str, tuple[str, ...]] = {
    "\\times": ("+", "-", "\\div"),
    "\\cdot": ("+", "-", "\\div"),
    "\\div": ("+", "-", "\\times"),
    "\\le": ("\\gt",), "\\leq": ("\\gt",), "\\ge": ("\\lt",), "\\geq": ("\\lt",),
    "\\lt": ("=", "\\gt"), "\\gt": ("=", "\\lt"), "\\ne": ("=",), "\\neq": ("=",),
    "×": ("+", "-", "÷"), "·": ("+", "-", "÷"), "÷": ("+", "-", "×"), "−": ("+", "×", "÷"),
    "≤": (">",), "≥": ("<",), "≠": ("=",),
    "*": ("+", "-", "/"), "/": ("+", "-", "*"),
    "<=": (">",), ">=": ("<",), "!=": ("=",), "==": ("<", ">"),
    "=": ("<", ">"), "<": ("=", ">"), ">": ("=", "<"),
}
_COMPARISONS = frozenset({"=", "==", "<", ">", "<=", ">=", "!=", "≤", "≥", "≠", "\\le", "\\leq",
                          "\\ge", "\\geq", "\\lt", "\\gt", "\\ne", "\\neq"})

_OPERATOR = re.compile(
    r"(?<!\\)\\(?:times|cdot|div|leq|le|geq|ge|neq|ne|lt|gt)(?![A-Za-z])"
    r"|<=|>=|!=|==|[-+*/=<>×·÷−≤≥≠]"
)
_GLUED = frozenset({"**", "->", "<-", "=>", ":=", "--", "++", "//", "<<", ">>", "|-", "=<",
                    "<>", "!<", "!>", "=="})
_OPERAND_END = re.compile(r"[\w)\]}%!'$]")
_OPERAND_START = re.compile(r"[\w(\[{\\$.+\-−]")


@dataclass(frozen=True)
class Operator:
    """One swappable operator: ``text[start:end]`` and what it may become."""

    start: int
    end: int
    text: str
    alternatives: tuple[str, ...]
    comparison: bool


def find_operators(text: str) -> list[Operator]:
    """The swappable operators of ``text``, left to right."""
    spans = math_spans(text)
    found = []
    for match in _OPERATOR.finditer(text):
        start, end, op = match.start(), match.end(), match.group()
        if _glued(text, start, end) or not _binary(text, start, end, in_spans(start, spans)):
            continue
        alternatives = _alternatives(op, in_spans(start, spans) or op.startswith("\\"))
        found.append(Operator(start, end, op, alternatives, op in _COMPARISONS))
    return found


def replacement(text: str, operator: Operator, new: str) -> str:
    """``new`` as written in place of ``operator``: a command before a letter needs a space."""
    follows = text[operator.end : operator.end + 1]
    if new.startswith("\\") and (follows.isalpha() or follows == "{"):
        return new + " "
    return new


def _alternatives(op: str, math: bool) -> tuple[str, ...]:
    if op in ("+", "-"):
        family = _LATEX_ARITH if math else _ASCII_ARITH
        return tuple(o for o in family if o != op)
    return _ALTERNATIVES[op]


def _glued(text: str, start: int, end: int) -> bool:
    if text[start] == "\\":
        return False
    before, after = text[start - 1 : start], text[end : end + 1]
    op = text[start:end]
    return (
        before + op[:1] in _GLUED
        or op[-1:] + after in _GLUED
        or (len(op) == 1 and before + op + after in ("<=>", "<->"))
    )


def _binary(text: str, start: int, end: int, math: bool) -> bool:
    if _bullet(text, start, end):
        return False
    left = _neighbour(text, start - 1, -1)
    right = _neighbour(text, end, 1)
    if not left or not right or not _OPERAND_END.match(left) or not _OPERAND_START.match(right):
        return False
    if math:
        return True
    op = text[start:end]
    spaced = text[start - 1 : start].isspace() and text[end : end + 1].isspace()
    if op == "-" and not spaced and (left.isalpha() or right.isalpha()):
        return False  # a hyphen: "x-axis", "5-pound"
    if op in ("*", "/"):
        return _numberish(left, "end") and _numberish(right, "start")
    return True


def _neighbour(text: str, i: int, step: int) -> str:
    """The first character from ``i`` in direction ``step`` that is not whitespace; ``""`` at
    the text's end. (Slicing and stripping instead copies the text once per operator.)"""
    while 0 <= i < len(text) and text[i].isspace():
        i += step
    return text[i] if 0 <= i < len(text) else ""


def _bullet(text: str, start: int, end: int) -> bool:
    """``- item`` at the start of a line is a list mark, whatever the line before ends with
    (``4``, ``)``): the operand on its left is on another line."""
    if text[start:end] not in ("-", "+", "*", "•") or text[end : end + 1] not in (" ", "\t"):
        return False
    i = start - 1
    while i >= 0 and text[i] in " \t":  # only blanks back to the line's start
        i -= 1
    return i < 0 or text[i] == "\n"


def _numberish(char: str, side: str) -> bool:
    return char.isdigit() or char in (")]}%" if side == "end" else "([{$\\")
