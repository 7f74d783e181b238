"""The elaborated arithmetic fragment: every node carries its Lean type, coercions are explicit.

Types are ``ℕ``, ``ℤ``, ``ℚ``, ``ℝ`` (numbers) and propositions. Both the SMT encoder and the
exact evaluator read these trees; neither re-derives types or coercions.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

NUMERIC = ("ℕ", "ℤ", "ℚ", "ℝ")
"""Number types, each coercing into the ones after it."""


@dataclass(frozen=True)
class Const:
    value: Fraction
    ty: str


@dataclass(frozen=True)
class Sym:
    name: str
    ty: str


@dataclass(frozen=True)
class Cast:
    """``↑expr``: the same number in the larger type ``ty``."""

    expr: Term
    ty: str


@dataclass(frozen=True)
class Arith:
    """``+ - * / %`` at type ``ty`` (both operands have type ``ty``)."""

    op: str
    left: Term
    right: Term
    ty: str


@dataclass(frozen=True)
class Neg:
    operand: Term
    ty: str


@dataclass(frozen=True)
class Pow:
    """``base ^ exponent`` with a literal natural exponent (``Monoid.npow``)."""

    base: Term
    exponent: int
    ty: str


@dataclass(frozen=True)
class Call:
    """A supported function: ``abs min max sqrt floor ceil natAbs toNat factorial choose gcd
    lcm``, ``factorial``/``choose``/``gcd``/``lcm`` only on constants; with ``symbols=True``
    also those of any terms and ``npow`` (``base ^ exponent``, a natural term), ``exp log sin
    cos logb pi`` (on ℝ), which an encoder knows through facts, not by value, and
    ``sum_first``/``prod_first`` (see :data:`UNROLLED`)."""

    fn: str
    args: tuple[Term, ...]
    ty: str


UNROLLED = {"sum_first": "+", "prod_first": "*"}
"""``Call(fn, (count, t₀, …, t₆₃), ty)`` with these ``fn`` (``symbols=True`` only): ``∑``/``∏``
over a domain whose upper end is a term (``Finset.range n``, ``Finset.Icc 1 n``), as the case
split over its number of terms. ``count`` (a ℤ term) is that number (none when it is ``≤ 0``),
the ``tᵢ`` are its first terms in order, and the value for ``count = m`` up to their number is
the sum (product) of the first ``m`` of them. Beyond them the value is not known here: an
encoder proves only where the hypotheses keep ``count`` within them."""


@dataclass(frozen=True)
class Apply:
    """``f a b``: a function-typed parameter applied to all its arguments (each at the
    parameter's domain type). Only elaborated with ``symbols=True``: the function is
    uninterpreted, so a statement about it holds when it holds for every function."""

    fn: str
    args: tuple[Term, ...]
    ty: str


Term = Const | Sym | Cast | Arith | Neg | Pow | Call | Apply


@dataclass(frozen=True)
class Cmp:
    """``= ≠ < ≤ > ≥ ∣`` between two terms of the same type."""

    op: str
    left: Term
    right: Term


@dataclass(frozen=True)
class Logic:
    """``∧ ∨ → ↔``."""

    op: str
    left: Formula
    right: Formula


@dataclass(frozen=True)
class Not:
    operand: Formula


@dataclass(frozen=True)
class Truth:
    value: bool


@dataclass(frozen=True)
class Quantified:
    """``∀`` or ``∃`` over one variable of a number type."""

    q: str
    name: str
    ty: str
    body: Formula


Formula = Cmp | Logic | Not | Truth | Quantified


@dataclass(frozen=True)
class Statement:
    """``∀ params, hypotheses → conclusion``, with everything typed."""

    params: tuple[tuple[str, str], ...]
    """``(name, type)`` of each variable parameter, in order."""
    hypotheses: tuple[tuple[str, Formula], ...]
    """``(name, proposition)`` of each hypothesis parameter, in order."""
    conclusion: Formula
    functions: tuple[tuple[str, tuple[str, ...], str], ...] = ()
    """``(name, domain types, codomain type)`` of each function-typed parameter
    (``f : ℕ → ℝ``), in order; only with ``symbols=True``."""
