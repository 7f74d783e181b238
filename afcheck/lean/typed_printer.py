"""Print elaborated terms and formulas (:mod:`afcheck.lean.typed`) back to Lean 4 text.

Every arithmetic node is written with its type ascribed and every coercion as an explicit
``↑``, so the text elaborates to the same typed tree on its own, out of the context it came
from: ``(7 / 2 : ℝ)`` stays a real number even where a bare ``7 / 2`` would be read in ℕ.
``elaborate(parse(print(t)))`` gives a tree with the same meaning as ``t`` (rational constants
come back as a division of two literals).
"""

from __future__ import annotations

from fractions import Fraction

from afcheck.lean import typed as T

__all__ = ["print_formula", "print_term"]

_FUNCTION = {
    "sqrt": "Real.sqrt",
    "floor": "Int.floor",
    "ceil": "Int.ceil",
    "natAbs": "Int.natAbs",
    "toNat": "Int.toNat",
    "factorial": "Nat.factorial",
    "choose": "Nat.choose",
    "gcd": "Nat.gcd",
    "lcm": "Nat.lcm",
    "min": "min",
    "max": "max",
    "exp": "Real.exp",
    "log": "Real.log",
    "sin": "Real.sin",
    "cos": "Real.cos",
    "logb": "Real.logb",
}


def _constant(value: Fraction, ty: str) -> str:
    sign = "-" if value < 0 else ""
    value = abs(value)
    if value.denominator == 1:
        return f"({sign}{value.numerator} : {ty})"
    return f"({sign}{value.numerator} / {value.denominator} : {ty})"


def print_term(term: T.Term) -> str:
    """Lean text for ``term``, self-typed (parenthesised, its type ascribed)."""
    if isinstance(term, T.Const):
        return _constant(term.value, term.ty)
    if isinstance(term, T.Sym):
        return f"({term.name} : {term.ty})"
    if isinstance(term, T.Cast):
        return f"(↑{print_term(term.expr)} : {term.ty})"
    if isinstance(term, T.Arith):
        return f"({_chain(term)} : {term.ty})"
    if isinstance(term, T.Neg):
        return f"(-{print_term(term.operand)} : {term.ty})"
    if isinstance(term, T.Pow):
        return f"({print_term(term.base)} ^ {term.exponent} : {term.ty})"
    if isinstance(term, T.Apply):
        return f"({' '.join([term.fn, *(print_term(a) for a in term.args)])} : {term.ty})"
    if term.fn in T.UNROLLED:
        # Only the symbols fragment builds it, and its value past the unrolled terms has no
        # text: the body is kept only as the terms it was unrolled to.
        raise ValueError("an unrolled big operator has no Lean text of its own")
    if term.fn == "abs":
        return f"(|{print_term(term.args[0])}| : {term.ty})"
    if term.fn == "npow":
        return f"({print_term(term.args[0])} ^ {print_term(term.args[1])} : {term.ty})"
    if term.fn == "pi":
        return f"(Real.pi : {term.ty})"
    args = " ".join(print_term(a) for a in term.args)
    return f"({_FUNCTION[term.fn]} {args} : {term.ty})"


_PREC = {"+": 65, "-": 65, "*": 70, "/": 70, "%": 70}


def _chain(term: T.Arith) -> str:
    """``a + b + c`` without brackets or ascriptions around the inner sums: a left operand of
    the same type and at least the same precedence reads back the same in Lean (one
    ``binop%`` tree, one type), and a long sum must not nest one bracket per term (the
    parser refuses nesting past :data:`afcheck.lean.parser.MAX_NESTING`)."""
    rights: list[tuple[str, T.Term]] = []
    left: T.Term = term
    while (isinstance(left, T.Arith) and left.ty == term.ty
           and (left is term or _PREC[left.op] >= _PREC[rights[-1][0]])):
        rights.append((left.op, left.right))
        left = left.left
    parts = [print_term(left)]
    for op, right in reversed(rights):
        parts.append(f"{op} {print_term(right)}")
    return " ".join(parts)


def print_formula(formula: T.Formula) -> str:
    """Lean text for ``formula``; bound variables carry their types."""
    if isinstance(formula, T.Truth):
        return "True" if formula.value else "False"
    if isinstance(formula, T.Not):
        return f"¬({print_formula(formula.operand)})"
    if isinstance(formula, T.Logic):
        return f"({print_formula(formula.left)}) {formula.op} ({print_formula(formula.right)})"
    if isinstance(formula, T.Cmp):
        return f"{print_term(formula.left)} {formula.op} {print_term(formula.right)}"
    return f"{formula.q} {formula.name} : {formula.ty}, {print_formula(formula.body)}"
