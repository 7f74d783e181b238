"""Read trees as Lean syntax: the statement is printed by the front end's printer.

:func:`relation` and :func:`theorem` build :mod:`afcheck.lean.ast` trees, and
:func:`afcheck.lean.printer.print_theorem` writes them, with the brackets Lean's precedences
need. Two kinds of brackets are added on top, as :class:`afcheck.lean.ast.Paren`: those the step
wrote around more than one atom (``(2 + 3) ^ 2``, a decimal ``(125 / 10)``), so that the
statement shows the step's grouping, and those around a negation inside an operator
(``(-3) + 4``, ``-(x ^ 2)``), so that a reader never has to know how tightly Lean's ``-``
binds.

The first numeral of a relation whose type Lean could not otherwise infer carries the
ascription, so that ``48 / 2 = 24`` elaborates in ℚ and not in ℕ.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from afcheck_arith.expr import (
    Abs,
    Bin,
    Expr,
    Fact,
    Neg,
    Num,
    Paren,
    Pi,
    Pow,
    Sqrt,
    Var,
    children,
    unwrap,
)

from afcheck.lean import ast as L
from afcheck.lean.printer import print_theorem

_ATOMIC = (Num, Fact, Var, Pi, Paren, Abs)
"""Trees written without brackets of their own wherever they stand."""


@dataclass(frozen=True)
class Hypothesis:
    """``(ident : T) (label : ident = value)``."""

    ident: str
    label: str
    value: Expr


def theorem(
    number_type: str, hypotheses: Sequence[Hypothesis], claims: Sequence[tuple[Expr, str, Expr]]
) -> str:
    """``theorem step binders : claim ∧ claim … := by sorry`` over ``number_type``."""
    binders: list[L.Binder] = []
    for h in hypotheses:
        binders.append(L.Binder(h.ident, L.Var(number_type)))
        binders.append(L.Binder(h.label, relation(number_type, Var(h.ident), "=", h.value)))
    conclusion = relation(number_type, *claims[-1])
    for claim in reversed(claims[:-1]):
        conclusion = L.BinOp("∧", relation(number_type, *claim), conclusion)
    return print_theorem(L.Theorem("theorem", "step", tuple(binders), conclusion))


def relation(number_type: str, left: Expr, rel: str, right: Expr) -> L.Expr:
    """``left rel right`` with the ascription on its first numeral when it needs one."""
    writer = _Writer(number_type, needs_ascription([left, right]))
    return L.BinOp(rel, writer.write(unwrap(left)), writer.write(unwrap(right)))


def needs_ascription(trees: Sequence[Expr]) -> bool:
    """True when no leaf of the trees has a known type, so numerals would default to ℕ."""
    typed = (Var, Sqrt, Pi, Fact)
    return not any(isinstance(leaf, typed) for tree in trees for leaf in _leaves(tree))


def _leaves(tree: Expr) -> list[Expr]:
    """The leaves of Lean's arithmetic elaboration tree (``binop%``): what fixes its type."""
    if isinstance(tree, (Bin, Neg, Pow, Paren)):
        return [leaf for child in children(tree) for leaf in _leaves(child)]
    return [tree]


class _Writer:
    """One relation's trees as Lean syntax, left to right (the order the ascription needs)."""

    def __init__(self, number_type: str, ascribe: bool) -> None:
        self.type = L.Var(number_type)
        self.ascribe = ascribe

    def write(self, tree: Expr) -> L.Expr:
        if isinstance(tree, Num):
            if self.ascribe:
                self.ascribe = False
                return L.Ascription(L.Num(tree.digits), self.type)
            return L.Num(tree.digits)
        if isinstance(tree, Var):
            return L.Var(tree.key)
        if isinstance(tree, Fact):
            return L.Ascription(L.App("Nat.factorial", (L.Num(tree.digits),)), self.type)
        if isinstance(tree, Pi):
            return L.Var("Real.pi")
        if isinstance(tree, Paren):
            inner = self.write(tree.inner)
            # brackets around an atom say nothing
            return inner if isinstance(tree.inner, _ATOMIC) else L.Paren(inner)
        if isinstance(tree, Abs):
            # elaborated on its own: ascribed by its own leaves
            saved, self.ascribe = self.ascribe, needs_ascription([tree.arg])
            inner = self.write(tree.arg)
            self.ascribe = saved
            return L.App("abs", (inner,), "abs")
        if isinstance(tree, Sqrt):
            # ``Real.sqrt`` fixes its argument's type to ℝ: no ascription inside
            saved, self.ascribe = self.ascribe, False
            arg = self.operand(tree.arg)
            self.ascribe = saved
            return L.App("Real.sqrt", (arg,))
        if isinstance(tree, Neg):
            return L.UnOp("-", self.operand(tree.arg))
        if isinstance(tree, Pow):
            return L.BinOp("^", self.operand(tree.base), L.Num(tree.exponent))
        return L.BinOp(tree.op, self.side(tree.left), self.side(tree.right))

    def operand(self, tree: Expr) -> L.Expr:
        """The operand of a prefix or power: bracketed unless atomic."""
        written = self.write(tree)
        return written if isinstance(tree, _ATOMIC) else L.Paren(written)

    def side(self, tree: Expr) -> L.Expr:
        """An operand of ``+ - * /``: a negation there is always bracketed."""
        written = self.write(tree)
        return L.Paren(written) if isinstance(tree, Neg) else written
