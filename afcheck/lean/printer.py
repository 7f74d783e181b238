"""The one printer of Lean 4 text: statements, parsed trees and elaborated trees.

- :func:`print_statement` writes a statement from its printed parts; every theorem text
  afcheck writes (:func:`print_theorem`, the equivalence method's obligations, the synthetic
  runs' formalisations) is assembled there.
- :func:`print_theorem`, :func:`print_expr`: :mod:`afcheck.lean.ast` trees. Parentheses are
  inserted exactly where Lean's precedences need them, so ``parse(print(t)) == t`` for every
  tree the parser produces.
- :func:`print_term`, :func:`print_formula`: elaborated :mod:`afcheck.lean.typed` trees.
  Every arithmetic node is written with its type ascribed and every coercion as an explicit
  ``↑``, so the text elaborates to the same typed tree on its own, out of the context it came
  from: ``(7 / 2 : ℝ)`` stays a real number even where a bare ``7 / 2`` would be read in ℕ.
  ``elaborate(parse(print(t)))`` gives a tree with the same meaning as ``t`` (rational
  constants come back as a division of two literals).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from afcheck.lean import typed as T
from afcheck.lean.ast import (
    App,
    Ascription,
    BigOp,
    Binder,
    BinOp,
    Coe,
    Expr,
    Lambda,
    Notation,
    Num,
    Opaque,
    Paren,
    Proj,
    Quant,
    Theorem,
    UnOp,
    Var,
)
from afcheck.lean.notation import BIG_BODY, INFIX, mixfix_precedence

__all__ = ["print_binder_group", "print_expr", "print_formula", "print_statement", "print_term",
           "print_theorem", "print_typed_binder"]

_CLOSE = {"explicit": ")", "implicit": "}", "instance": "]", "strict": "⦄"}
_OPEN = {"explicit": "(", "implicit": "{", "instance": "[", "strict": "⦃"}
_MAX = 1024
_LEAD = 0


def print_statement(name: str, binders: Sequence[str], conclusion: str,
                    keyword: str = "theorem") -> str:
    """``keyword name binders : conclusion := by sorry`` on one line, from printed binders and
    conclusion (an ``example`` has no name)."""
    head = keyword if keyword == "example" else f"{keyword} {name}"
    return f"{' '.join([head, *binders])} : {conclusion} := by sorry"


def print_theorem(theorem: Theorem) -> str:
    """``theorem name binders : conclusion := by sorry``, on one line."""
    return print_statement(theorem.name,
                           [print_binder_group(g) for g in group_binders(theorem.binders)],
                           print_expr(theorem.conclusion), theorem.keyword)


def group_binders(binders: tuple[Binder, ...]) -> list[tuple[Binder, ...]]:
    """Consecutive binders with the same type, kind and no default share a bracket."""
    groups: list[list[Binder]] = []
    for binder in binders:
        last = groups[-1][-1] if groups else None
        if (
            last is not None
            and binder.kind == last.kind
            and binder.kind != "instance"
            and binder.type == last.type
            and binder.default is None
            and last.default is None
            and binder.type is not None
        ):
            groups[-1].append(binder)
        else:
            groups.append([binder])
    return [tuple(g) for g in groups]


def print_binder_group(group: tuple[Binder, ...]) -> str:
    first = group[0]
    opener, closer = _OPEN[first.kind], _CLOSE[first.kind]
    if first.kind == "instance":
        name = f"{first.name} : " if first.name else ""
        assert first.type is not None
        return f"[{name}{print_expr(first.type)}]"
    inner = " ".join(b.name for b in group)
    if first.type is not None:
        inner += f" : {print_expr(first.type)}"
    if first.default is not None:
        inner += f" := {print_expr(first.default)}"
    return f"{opener}{inner}{closer}"


def print_expr(expr: Expr) -> str:
    """Lean text for ``expr``."""
    return _print(expr, 0)


def _paren(text: str, prec: int, ctx: int) -> str:
    return f"({text})" if prec < ctx else text


def _print_spine(expr: BinOp, ctx: int) -> str:
    """A binary operation and the operations down its right operands (``h₁ → h₂ → … → c``),
    printed by a loop over that spine rather than by one call per operation: a statement
    with thousands of hypotheses closed into implications is as deep as it is long."""
    spine: list[tuple[BinOp, int]] = []
    node: Expr = expr
    context = ctx
    while isinstance(node, BinOp):
        spine.append((node, context))
        context = INFIX[node.op][2]
        node = node.right
    text = _print(node, context)
    for operation, outer in reversed(spine):
        prec, left_min, _ = INFIX[operation.op]
        text = _paren(f"{_print(operation.left, left_min)} {operation.op} {text}", prec, outer)
    return text


def _print(expr: Expr, ctx: int) -> str:
    if isinstance(expr, Var):
        return expr.name
    if isinstance(expr, Num):
        return expr.text
    if isinstance(expr, Opaque):
        return expr.text
    if isinstance(expr, Paren):
        return f"({_print(expr.expr, 0)})"
    if isinstance(expr, Ascription):
        return f"({_print(expr.expr, 0)} : {_print(expr.type, 0)})"
    if isinstance(expr, Coe):
        return f"↑{_print(expr.expr, _MAX + 1)}"
    if isinstance(expr, BinOp):
        return _print_spine(expr, ctx)
    if isinstance(expr, UnOp):
        if expr.op == "-":
            return _paren(f"-{_print(expr.operand, 75)}", 75, ctx)
        return _paren(f"¬{_print(expr.operand, 40)}", 40, ctx)
    if isinstance(expr, App):
        return _print_app(expr, ctx)
    if isinstance(expr, Notation):
        return _print_notation(expr, ctx)
    if isinstance(expr, Proj):
        return f"({_print(expr.expr, 0)}).{expr.field}"
    if isinstance(expr, Quant):
        binders = _print_quant_binders(expr.binders)
        if expr.bound is not None:
            binders += f" {expr.bound[0]} {_print(expr.bound[1], 51)}"
        return _paren(f"{expr.q} {binders}, {_print(expr.body, 0)}", _LEAD, ctx)
    if isinstance(expr, Lambda):
        return _paren(
            f"fun {_print_quant_binders(expr.binders)} => {_print(expr.body, 0)}", _LEAD, ctx
        )
    if isinstance(expr, BigOp):
        var = expr.var
        if expr.var_type is not None:
            var += f" : {_print(expr.var_type, 51)}"
        domain = f" {expr.keyword} {_print(expr.domain, 0)}" if expr.domain is not None else ""
        body = BIG_BODY[expr.op]
        return _paren(f"{expr.op} {var}{domain}, {_print(expr.body, body)}", body, ctx)
    raise TypeError(f"not an expression: {expr!r}")


def _print_notation(expr: Notation, ctx: int) -> str:
    """Fill the template's holes: an operand at either end of an infix template at that side's
    precedence, a postfix operand as an atom, a bracketed one at 0."""
    prec = mixfix_precedence(expr.op)
    pieces = expr.op.split("·")
    last = len(expr.args) - 1
    out = [pieces[0]]
    for i, arg in enumerate(expr.args):
        if i == 0 and not pieces[0]:
            arg_ctx = _MAX + 1 if prec == _MAX else prec + 1
        elif i == last and not pieces[-1]:
            arg_ctx = prec
        else:
            arg_ctx = 0
        out.append(_print(arg, arg_ctx))
        out.append(pieces[i + 1])
    return _paren("".join(out), prec, ctx)


def _print_quant_binders(binders: tuple[Binder, ...]) -> str:
    if all(b.kind == "explicit" and b.default is None for b in binders) and (
        len({b.type for b in binders}) == 1
    ):
        names = " ".join(b.name for b in binders)
        if binders[0].type is None:
            return names
        return f"{names} : {_print(binders[0].type, 0)}"
    return " ".join(print_binder_group(g) for g in group_binders(binders))


def _print_app(expr: App, ctx: int) -> str:
    style = expr.style
    if style == "abs":
        return f"|{_print(expr.args[0], 0)}|"
    if style == "floor":
        return f"⌊{_print(expr.args[0], 0)}⌋"
    if style == "ceil":
        return f"⌈{_print(expr.args[0], 0)}⌉"
    if style == "sqrt":
        return _paren(f"√{_print(expr.args[0], 100)}", 100, ctx)
    if style == "factorial":
        return f"{_print(expr.args[0], _MAX + 1)} !"
    if style == "inv":
        return f"{_print(expr.args[0], _MAX + 1)}⁻¹"
    if not expr.args:
        return expr.fn
    args = " ".join(_print(a, _MAX + 1) for a in expr.args)
    return _paren(f"{expr.fn} {args}", _MAX, ctx)


# --- elaborated trees (afcheck.lean.typed) ---------------------------------------------

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


_TYPED_PREC = {"+": 65, "-": 65, "*": 70, "/": 70, "%": 70}


def _chain(term: T.Arith) -> str:
    """``a + b + c`` without brackets or ascriptions around the inner sums: a left operand of
    the same type and at least the same precedence reads back the same in Lean (one
    ``binop%`` tree, one type), and a long sum must not nest one bracket per term (the
    parser refuses nesting past :data:`afcheck.lean.parser.MAX_NESTING`)."""
    rights: list[tuple[str, T.Term]] = []
    left: T.Term = term
    while (isinstance(left, T.Arith) and left.ty == term.ty
           and (left is term or _TYPED_PREC[left.op] >= _TYPED_PREC[rights[-1][0]])):
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


def print_typed_binder(name: str, ty: str) -> str:
    """The explicit binder ``(name : ty)`` of an elaborated variable."""
    return f"({name} : {ty})"
