"""A deterministic judge for the arithmetic a sentence asserts.

:func:`judge_claim` reads the equalities, inequalities and chains (``a = b = c``) of a text with
the shared reader, :func:`afcheck_arith.claims.read_parts` (the one the ``literal`` formaliser
writes its statements from, so the two never read a step differently), and evaluates them
exactly with :class:`fractions.Fraction`. It answers ``true`` only when every relation it found
is readable and holds, ``false`` when a relation it could read fails, and ``unknown`` otherwise.

The judge evaluates less than the reader reads: numbers and ``+ - * / ^`` only. A relation
over a name, a factorial, a root, π or ``|x|``, one read from words (``3 times 4``, ``25% of
80``, ``equals``), a division by zero and a condition (``for n = 6``) are unknown. A clause the
reader refuses (``half of 10 = 5``, ``3 hours + 30 minutes``, ``≈``) is unknown too, with the
reader's reason. A leading name (``Total = 2 + 1 = 3``, ``\\(R = 4 \\times 5 = 20\\)``) defines
that name and is not judged; the rest of the chain is.

:func:`effectiveness` compares a step with its perturbed counterpart: ``effective`` when the
original is true and the perturbed false, ``ineffective`` when both are true and the edit
changed what was judged, ``unknown`` otherwise.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from afcheck_arith.claims import Chain, read_parts
from afcheck_arith.expr import Bin, Expr, Neg, Num, Paren, Pow, children, numerals
from afcheck_arith.numerals import find_numerals
from afcheck_arith.values import evaluate

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
    parts = read_parts(text)
    links: list[_Link] = []
    undecided: list[str] = list(parts.unread)
    for chain in parts.chains:
        _read_chain(chain, links, undecided)
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


def _has_decimals(link: _Link) -> bool:
    """A decimal of two or more places on either side, as the reader shows it."""
    return any(numeral.places >= 2 for side in (link.left, link.right)
               for numeral in find_numerals(side.text))


def _maybe_rounded(link: _Link) -> bool:
    """A failed relation over decimals of two or more places that misses by at most 0.5%:
    ``(2.8284)^2 = 8`` is a rounded value written with "=", not a wrong step."""
    if link.rel != "=" or not _has_decimals(link):
        return False
    a, b = link.left.value, link.right.value
    return abs(a - b) <= _ROUNDING_TOLERANCE * max(abs(a), abs(b))


@dataclass(frozen=True)
class _Term:
    text: str
    value: Fraction


@dataclass(frozen=True)
class _Link:
    left: _Term
    rel: str
    right: _Term

    @property
    def holds(self) -> bool:
        a, b = self.left.value, self.right.value
        return {"=": a == b, "<": a < b, ">": a > b, "≤": a <= b, "≥": a >= b,
                "≠": a != b}[self.rel]

    def render(self) -> str:
        return f"{self.left.text} {_ASCII.get(self.rel, self.rel)} {self.right.text}"


_ASCII = {"≤": "<=", "≥": ">=", "≠": "!="}
_EVALUATED = (Num, Bin, Neg, Pow, Paren)
"""The trees the judge evaluates: numbers and ``+ - * / ^``."""


def _read_chain(chain: Chain, links: list[_Link], undecided: list[str]) -> None:
    """The relations of one chain, between the elements that are neither names it defines
    nor formulas over names (``Distance = Speed × Time = 18 × 5``)."""
    if chain.conditional:
        return  # ``for n = 6`` binds a name; it claims nothing
    if chain.spelled:
        undecided.append(f"'{chain.text}' is read from words")
        return
    kept = [i for i in range(len(chain.elements)) if not _names(chain, i)]
    for a, b in zip(kept, kept[1:], strict=False):
        rel = next((r for r in chain.rels[a:b] if r != "="), "=")
        left, right = _term(chain, a), _term(chain, b)
        if left is None or right is None:
            shown = chain.texts[a] if left is None else chain.texts[b]
            undecided.append(f"cannot evaluate '{shown}' around '{rel}'")
        else:
            links.append(_Link(left, rel, right))


def _names(chain: Chain, i: int) -> bool:
    """Element ``i`` is a name being defined (``Total = …``) or a formula over names only,
    with ``=`` on both sides: the chain says what it stands for, it claims nothing of it."""
    around = chain.rels[max(i - 1, 0) : i + 1]
    if any(r != "=" for r in around):
        return False
    element = chain.elements[i]
    return chain.name_at(i) is not None or not any(True for _ in numerals(element))


def _term(chain: Chain, i: int) -> _Term | None:
    tree = chain.elements[i]
    if not _evaluated(tree) or _divides_by_zero(tree):
        return None
    value = evaluate(tree, {})
    return None if value is None else _Term(chain.texts[i], value)


def _evaluated(tree: Expr) -> bool:
    return isinstance(tree, _EVALUATED) and all(_evaluated(c) for c in children(tree))


def _divides_by_zero(tree: Expr) -> bool:
    if isinstance(tree, Bin) and tree.op == "/" and evaluate(tree.right, {}) == 0:
        return True
    return any(_divides_by_zero(c) for c in children(tree))
