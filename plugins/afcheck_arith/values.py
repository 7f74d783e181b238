"""Exact values of expression trees: what a statement pins down, to tell whether a number
written in prose only restates it."""

from __future__ import annotations

import math
from collections.abc import Mapping
from fractions import Fraction

from afcheck_arith.expr import Abs, Bin, Expr, Fact, Neg, Num, Paren, Pi, Pow, Sqrt, Var

MAX_EXPONENT = 64
"""Larger powers are left unevaluated: a restatement never needs them."""
MAX_BITS = 4096
"""Values whose numerator or denominator is longer are left unevaluated, so that nested powers
(``((10^{60})^{60})^{60}``) cannot take the machine's memory."""


def evaluate(tree: Expr, env: Mapping[str, Fraction | None]) -> Fraction | None:
    """The value of ``tree`` in Lean's semantics over ℚ (``x / 0 = 0``), or ``None`` when it
    is irrational, too large, or uses a name without a value."""
    return _Collector(env).value(tree)


def subterm_values(tree: Expr, env: Mapping[str, Fraction | None]) -> set[Fraction]:
    """The value of every subterm of ``tree`` that has one. A decimal ``(125 / 10)`` counts as
    the one number ``12.5``: its digits and its power of ten are not values the step wrote."""
    collector = _Collector(env)
    collector.value(tree)
    return collector.seen


class _Collector:
    def __init__(self, env: Mapping[str, Fraction | None]) -> None:
        self.env = env
        self.seen: set[Fraction] = set()

    def value(self, tree: Expr) -> Fraction | None:
        if _is_decimal(tree):
            result: Fraction | None = _decimal(tree)
        else:
            result = self._compute(tree)
        if result is not None and max(
            result.numerator.bit_length(), result.denominator.bit_length()
        ) > MAX_BITS:
            result = None
        if result is not None:
            self.seen.add(result)
        return result

    def _compute(self, tree: Expr) -> Fraction | None:
        if isinstance(tree, Num):
            return Fraction(int(tree.digits))
        if isinstance(tree, Fact):
            return Fraction(math.factorial(int(tree.digits)))
        if isinstance(tree, Var):
            return self.env.get(tree.key)
        if isinstance(tree, Pi):
            return None
        if isinstance(tree, Paren):
            return self.value(tree.inner)
        if isinstance(tree, Neg):
            arg = self.value(tree.arg)
            return None if arg is None else -arg
        if isinstance(tree, Abs):
            arg = self.value(tree.arg)
            return None if arg is None else abs(arg)
        if isinstance(tree, Sqrt):
            return _sqrt(self.value(tree.arg))
        if isinstance(tree, Pow):
            base = self.value(tree.base)
            exponent = int(tree.exponent)
            return None if base is None or exponent > MAX_EXPONENT else base**exponent
        return self._binary(tree)

    def _binary(self, tree: Bin) -> Fraction | None:
        left, right = self.value(tree.left), self.value(tree.right)
        if left is None or right is None:
            return None
        if tree.op == "+":
            return left + right
        if tree.op == "-":
            return left - right
        if tree.op == "*":
            return left * right
        return left / right if right else Fraction(0)


def _is_decimal(tree: Expr) -> bool:
    if not isinstance(tree, Paren) or not isinstance(tree.inner, Bin):
        return False
    inner = tree.inner
    return (
        inner.op == "/"
        and isinstance(inner.left, Num)
        and isinstance(inner.right, Num)
        and inner.right.digits.startswith("1")
        and set(inner.right.digits[1:]) <= {"0"}
        and len(inner.right.digits) > 1
    )


def _decimal(tree: Expr) -> Fraction:
    assert isinstance(tree, Paren) and isinstance(tree.inner, Bin)
    left, right = tree.inner.left, tree.inner.right
    assert isinstance(left, Num) and isinstance(right, Num)
    return Fraction(int(left.digits), int(right.digits))


def _sqrt(value: Fraction | None) -> Fraction | None:
    if value is None or value < 0:
        return None
    num, den = math.isqrt(value.numerator), math.isqrt(value.denominator)
    if num * num == value.numerator and den * den == value.denominator:
        return Fraction(num, den)
    return None
