"""Unfold a statement's own ``abbrev``/``def`` constants, as Lean's definitional unfolding sees
through them.

``abbrev I := Set.Icc (0 : ℝ) 1`` then ``theorem t (x : I) : …`` claims what
``theorem t (x : Set.Icc (0 : ℝ) 1) : …`` claims: a constant without parameters is replaced by
its body (ascribed with its declared type, when it has one), so a statement that writes the
set out and one that names it compare alike. A definition is left as it is (and stays in the
header, compared by :func:`afcheck_equivalence.read.shared_header`) when it has parameters,
when its body does not parse, when the statement uses the name as a function, inside unread
text, or binds it (a local binder shadows the global), or when a binder of the statement
would capture a name of the body.
"""

from __future__ import annotations

import re
from dataclasses import replace

from afcheck.lean import ast as A
from afcheck.lean.rename import free_names

__all__ = ["body_of", "unfold"]

_CONSTANT = re.compile(
    r"^(?:@\[[^\]]*\]\s*)?(?:(?:private|protected|noncomputable)\s+)*(?:def|abbrev)\s+"
    r"([^\s(\[{⦃:]+)\s*(?::\s*(?P<type>.+?))?\s*:=\s*(?P<body>.+)$")


def body_of(declaration: str) -> tuple[str, A.Expr] | None:
    """``(name, body)`` of a one-line constant ``def``/``abbrev`` with no parameters, the body
    ascribed with the declared type; ``None`` for anything else."""
    from afcheck.lean.lexer import ParseError
    from afcheck.lean.parser import parse_expr

    match = _CONSTANT.match(" ".join(declaration.split()))
    if match is None:
        return None
    try:
        body = parse_expr(match.group("body"))
        if match.group("type"):
            body = A.Ascription(body, parse_expr(match.group("type")))
    except (ParseError, RecursionError):
        return None
    return match.group(1), body


def unfold(theorem: A.Theorem, name: str, body: A.Expr) -> A.Theorem | None:
    """``theorem`` with the constant ``name`` replaced by ``body``; ``None`` when it cannot be
    replaced everywhere with the same meaning (see the module docstring)."""
    roots = [theorem.conclusion, *(p for b in theorem.binders for p in (b.type, b.default) if p)]
    needs = free_names(body)
    for root in roots:
        for part in A.subterms(root):
            if isinstance(part, A.App) and part.fn == name:
                return None
            if isinstance(part, A.Opaque) and re.search(rf"(?<![\w.']){re.escape(name)}"
                                                       r"(?![\w'])", part.text):
                return None
            if isinstance(part, (A.Quant, A.Lambda)) and any(
                    b.name == name or b.name in needs for b in part.binders):
                return None
            if isinstance(part, A.BigOp) and part.var in (name, *needs):
                return None
    if any(b.name == name or b.name in needs for b in theorem.binders):
        return None

    def swap(expr: A.Expr | None) -> A.Expr | None:
        return None if expr is None else _replace(expr, name, body)

    binders = tuple(replace(b, type=swap(b.type), default=swap(b.default))
                    for b in theorem.binders)
    conclusion = _replace(theorem.conclusion, name, body)
    return A.Theorem(theorem.keyword, theorem.name, binders, conclusion)


def _replace(expr: A.Expr, name: str, body: A.Expr) -> A.Expr:
    if isinstance(expr, A.Var):
        return body if expr.name == name else expr
    if isinstance(expr, (A.Num, A.Opaque)):
        return expr

    def go(child: A.Expr) -> A.Expr:
        return _replace(child, name, body)

    def maybe(child: A.Expr | None) -> A.Expr | None:
        return None if child is None else go(child)

    if isinstance(expr, A.App):
        return replace(expr, args=tuple(go(a) for a in expr.args))
    if isinstance(expr, A.Ascription):
        return A.Ascription(go(expr.expr), go(expr.type))
    if isinstance(expr, (A.Coe, A.Proj, A.Paren)):
        return replace(expr, expr=go(expr.expr))
    if isinstance(expr, A.BinOp):
        return A.BinOp(expr.op, go(expr.left), go(expr.right))
    if isinstance(expr, A.UnOp):
        return A.UnOp(expr.op, go(expr.operand))
    if isinstance(expr, A.Notation):
        return A.Notation(expr.op, tuple(go(a) for a in expr.args))
    if isinstance(expr, (A.Quant, A.Lambda)):
        binders = tuple(replace(b, type=maybe(b.type), default=maybe(b.default))
                        for b in expr.binders)
        if isinstance(expr, A.Quant):
            bound = (expr.bound[0], go(expr.bound[1])) if expr.bound else None
            return A.Quant(expr.q, binders, go(expr.body), bound)
        return A.Lambda(binders, go(expr.body))
    if isinstance(expr, A.BigOp):
        return replace(expr, var_type=maybe(expr.var_type), domain=maybe(expr.domain),
                       body=go(expr.body))
    raise TypeError(f"not an expression: {expr!r}")
