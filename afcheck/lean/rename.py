"""Free names of statement syntax trees, and capture-avoiding simultaneous renaming.

Both walk :mod:`afcheck.lean.ast` trees with Lean's scoping: a binder's type sees the binders
before it in the same group, the body sees them all; a big operator binds its index in its
body only. A function position (``f x``) is a name like any other, so a bound ``f`` renames
there too. :class:`~afcheck.lean.ast.Opaque` text is renamed word by word, except the names its own
binders bind (``{x | …}``, ``{x : T | …}``, ``fun x =>``, ``∀ x,`` …: :func:`opaque_bound`),
which are neither free nor renamed, and are renamed apart when a new name would meet them;
the parser did not read the text, so a name both bound and used freely in one text cannot be
told apart (callers that need certainty check :func:`has_opaque` first).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace

from afcheck.lean import ast as A

__all__ = ["free_names", "has_opaque", "opaque_bound", "rename"]

_WORD = r"(?<![\w.'₀-₉])({})(?![\w'₀-₉])"
_NAME = r"[^\W\d][\w'₀-₉]*"
_BINDERS = re.compile(
    rf"\{{\s*((?:{_NAME}\s*)+)(?::[^|{{}}]*)?\|"  # set-builder ``{x y : T | …}``
    rf"|(?:\bfun|λ|∀|∃!?|∑|∏|⋃|⋂)\s*\(?\s*((?:{_NAME}\s*)+)")


def opaque_bound(text: str) -> set[str]:
    """The names that binders inside unread source text bind."""
    out: set[str] = set()
    for match in _BINDERS.finditer(text):
        out.update((match.group(1) or match.group(2) or "").split())
    return out


def free_names(expr: A.Expr) -> set[str]:
    """Names used in ``expr`` and not bound in it (function names included)."""
    names: set[str] = set()
    if isinstance(expr, A.Var):
        return _with_head(expr.name)
    if isinstance(expr, A.App):
        names = _with_head(expr.fn) if not expr.fn.startswith("(") else set()
        for arg in expr.args:
            names |= free_names(arg)
        return names
    if isinstance(expr, (A.Quant, A.Lambda)):
        bound: set[str] = set()
        for binder in expr.binders:
            for part in (binder.type, binder.default):
                if part is not None:
                    names |= free_names(part) - bound
            bound.add(binder.name)
        if isinstance(expr, A.Quant) and expr.bound is not None:
            names |= free_names(expr.bound[1])
        return names | (free_names(expr.body) - bound)
    if isinstance(expr, A.BigOp):
        names = set()
        for part in (expr.var_type, expr.domain):
            if part is not None:
                names |= free_names(part)
        return names | (free_names(expr.body) - {expr.var})
    if isinstance(expr, A.Opaque):
        return set(re.findall(r"[^\W\d][\w.'₀-₉]*", expr.text)) - opaque_bound(expr.text)
    names = set()
    for child in A.children(expr):
        names |= free_names(child)
    return names


def _with_head(name: str) -> set[str]:
    """``s.Nonempty`` uses ``s`` too: a dotted name whose head is a local is field notation on
    it (Lean resolves the local first)."""
    head = name.lstrip("@").split(".", 1)[0]
    return {name, head} if "." in name and head else {name}


def _renamed(name: str, mapping: Mapping[str, str]) -> str:
    if name in mapping:
        return mapping[name]
    if "." in name and not name.startswith("@"):
        head, rest = name.split(".", 1)
        if head in mapping:
            return f"{mapping[head]}.{rest}"
    return name


def has_opaque(expr: A.Expr) -> bool:
    """Whether any part of ``expr`` is source text the parser did not read."""
    return any(isinstance(e, A.Opaque) for e in A.subterms(expr))


def rename(expr: A.Expr, mapping: Mapping[str, str]) -> A.Expr:
    """``expr`` with the free names in ``mapping`` replaced, all at once (``{x: y, y: x}``
    swaps). An inner binder whose name would capture a new name is renamed apart first."""
    mapping = {k: v for k, v in mapping.items() if k != v}
    if not mapping:
        return expr
    return _rename(expr, dict(mapping))


def _fresh(name: str, avoid: set[str]) -> str:
    candidate = f"{name}'"
    while candidate in avoid:
        candidate += "'"
    return candidate


def _rename(expr: A.Expr, mapping: dict[str, str]) -> A.Expr:
    if not mapping:
        return expr
    if isinstance(expr, A.Var):
        return A.Var(_renamed(expr.name, mapping))
    if isinstance(expr, A.Num):
        return expr
    if isinstance(expr, A.Opaque):
        text = expr.text
        own = opaque_bound(text)
        local = {k: v for k, v in mapping.items() if k not in own}
        clash = own & set(local.values())
        if clash:  # a new name would be captured: rename the text's own binder apart first
            words = set(re.findall(_NAME, text)) | set(local.values())
            apart = {name: _fresh(name, words) for name in clash}
            text = re.sub(_WORD.format("|".join(re.escape(k) for k in apart)),
                          lambda m: apart[m.group(1)], text)
        if not local:
            return A.Opaque(text)
        pattern = re.compile(_WORD.format("|".join(re.escape(k) for k in local)))
        return A.Opaque(pattern.sub(lambda m: local[m.group(1)], text))
    if isinstance(expr, A.App):
        return A.App(_renamed(expr.fn, mapping),
                     tuple(_rename(a, mapping) for a in expr.args), expr.style)
    if isinstance(expr, A.Ascription):
        return A.Ascription(_rename(expr.expr, mapping), _rename(expr.type, mapping))
    if isinstance(expr, A.Coe):
        return A.Coe(_rename(expr.expr, mapping))
    if isinstance(expr, A.BinOp):
        return A.BinOp(expr.op, _rename(expr.left, mapping), _rename(expr.right, mapping))
    if isinstance(expr, A.UnOp):
        return A.UnOp(expr.op, _rename(expr.operand, mapping))
    if isinstance(expr, A.Proj):
        return A.Proj(_rename(expr.expr, mapping), expr.field)
    if isinstance(expr, A.Notation):
        return A.Notation(expr.op, tuple(_rename(a, mapping) for a in expr.args))
    if isinstance(expr, A.Paren):
        return A.Paren(_rename(expr.expr, mapping))
    if isinstance(expr, (A.Quant, A.Lambda)):
        return _rename_binding(expr, mapping)
    if isinstance(expr, A.BigOp):
        var_type = _rename(expr.var_type, mapping) if expr.var_type is not None else None
        domain = _rename(expr.domain, mapping) if expr.domain is not None else None
        inner, var = _enter(expr.var, mapping, free_names(expr.body))
        return replace(expr, var=var, var_type=var_type, domain=domain,
                       body=_rename(expr.body, inner))
    raise TypeError(f"not an expression: {expr!r}")


def _enter(name: str, mapping: dict[str, str], body_free: set[str]) -> tuple[dict[str, str], str]:
    """The mapping below a binder of ``name``, and the binder's (possibly new) name."""
    inner = {k: v for k, v in mapping.items() if k != name}
    targets = {inner[k] for k in inner if k in body_free}
    if name in targets:
        new = _fresh(name, targets | body_free | set(inner) | set(inner.values()))
        inner[name] = new
        return inner, new
    return inner, name


def _rename_binding(expr: A.Quant | A.Lambda, mapping: dict[str, str]) -> A.Expr:
    current = dict(mapping)
    binders: list[A.Binder] = []
    rest_free = free_names(expr.body)
    for later in expr.binders:
        for part in (later.type, later.default):
            if part is not None:
                rest_free |= free_names(part)
    for binder in expr.binders:
        type_ = _rename(binder.type, current) if binder.type is not None else None
        default = _rename(binder.default, current) if binder.default is not None else None
        current, name = _enter(binder.name, current, rest_free) if binder.name else (current, "")
        binders.append(replace(binder, name=name, type=type_, default=default))
    body = _rename(expr.body, current)
    if isinstance(expr, A.Quant):
        bound = None
        if expr.bound is not None:
            bound = (expr.bound[0], _rename(expr.bound[1], mapping))
        return A.Quant(expr.q, tuple(binders), body, bound)
    return A.Lambda(tuple(binders), body)
