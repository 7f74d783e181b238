"""The negation FaithformBench proves to refute a statement (paper §3).

For ``theorem t (x : T) (h : P x) : Q x`` the negation is the closed statement
``theorem t_neg : ¬(∀ (x : T) (h : P x), Q x)``; a statement without parameters negates to
``¬Q``. Proving the negation refutes the statement.

Binder kinds are kept inside the ``∀`` (implicit and instance binders become ``∀ {x}`` and
``∀ [C]``), so the negation ranges over exactly the same parameters.

An optParam binder ``(x : T := v)`` is a parameter with a default value: the statement is
claimed *for every* ``x``, and the default only fills it in at call sites. Its negation
therefore quantifies over all ``x`` as well — ``¬∀ (x : T), …`` — and does **not** fix
``x := v``. A binder written without a type, ``(x := v)``, gets the type of ``v`` (so
``(mon := 2)`` is ``mon : ℕ``); the printed negation writes that type explicitly.
"""

from __future__ import annotations

from dataclasses import replace

from afcheck.lean.ast import Binder, Expr, Num, Quant, Theorem, UnOp, Var

__all__ = ["negate"]


def negate(theorem: Theorem) -> Theorem:
    """The negated theorem statement (a new statement named ``<name>_neg``)."""
    name = f"{theorem.name}_neg" if theorem.name else ""
    if not theorem.binders:
        body: Expr = UnOp("¬", theorem.conclusion)
    else:
        binders = tuple(_as_quantified(b) for b in theorem.binders)
        body = UnOp("¬", Quant("∀", binders, theorem.conclusion))
    return Theorem(theorem.keyword, name, (), body)


def _as_quantified(binder: Binder) -> Binder:
    type_ = binder.type
    if type_ is None and binder.default is not None:
        type_ = _default_type(binder.default)
    return replace(binder, type=type_, default=None)


def _default_type(value: Expr) -> Expr | None:
    """The type Lean gives an untyped optParam default: ℕ for natural literals, the
    ascribed type otherwise; ``None`` (left to Lean) when it cannot be read off."""
    from afcheck.lean.ast import Ascription

    if isinstance(value, Num):
        return Var("ℕ") if value.is_natural_literal else None
    if isinstance(value, Ascription):
        return value.type
    return None
