"""Criterion ``syntactic``: equality of the two statements after normalisation.

Normalisation (each step keeps the meaning, so equal normal forms mean equal statements):
α-renaming of every binder (signature variables, quantified and summation variables,
hypothesis names, which a statement never uses), ASCII/Unicode and type-name spellings
(``Nat``/``ℕ``, ``>=``/``≥`` — the lexer already maps the ASCII ones), ``a ≥ b`` as ``b ≤ a``
and ``a > b`` as ``b < a``, notation styles of the same function (``|x|``/``abs x``,
``√x``/``Real.sqrt x``, ``sqrt`` under ``open Real``), redundant parentheses (the tree has
none), ``¬ ∃ x, P`` as ``∀ x, ¬ P`` and ``¬ ∀ x, P`` as ``∃ x, ¬ P``, ``Type _`` as
``Type*``, a named arrow ``(h : P) → B`` as ``P → B`` when ``B`` does not use ``h``, grouped
binders ``(a b : T)`` as ``(a : T) (b : T)`` and ``∀ x y, P`` as ``∀ x, ∀ y, P``, binder
predicates ``∀ x > 0, P`` as ``∀ x, x > 0 → P``, and the bracket kind of a non-instance binder.
Different normal forms give Noneq with ``structural`` evidence: this criterion claims nothing
beyond syntax.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from afcheck.lean import ast as A
from afcheck.lean.printer import print_expr
from afcheck.lean.rename import rename
from afcheck_equivalence.records import Decision, Eq, Inconclusive, Noneq, Pair

if TYPE_CHECKING:
    from afcheck_equivalence.read import PairRead

__all__ = ["Syntactic", "canonical", "canonical_statement"]

TYPE_SPELLINGS = {"Nat": "ℕ", "Int": "ℤ", "Rat": "ℚ", "Real": "ℝ", "Complex": "ℂ"}
_FLIP = {"≥": "≤", ">": "<"}
_OPENED = {
    "Real": ("sqrt", "exp", "log", "cos", "sin", "tan", "logb", "rpow"),
    "Nat": ("factorial", "choose", "gcd", "lcm", "succ", "Prime", "digits", "divisors"),
    "Int": ("floor", "ceil", "natAbs", "toNat", "fract"),
    "Finset": ("range", "Icc", "Ico", "Ioc", "Ioo", "card", "filter"),
}
"""Names compared by their full name when a header opens them (``Real.pi``, ``Finset.sum``
and ``Finset.prod`` are protected: ``open`` does not make ``pi`` or ``sum`` mean them)."""


def aliases(header: str) -> dict[str, str]:
    """Short names that ``open`` lines in ``header`` make stand for full ones, as Lean
    resolves them (:func:`afcheck.lean.names.short_names`: protected names, ``open scoped``,
    ``open … in``, scoped notation such as ``π``; an ambiguous name is left as written)."""
    from afcheck.lean.names import short_names

    return short_names(header, _OPENED)


@dataclass
class _Names:
    count: int = 0

    def next(self) -> str:
        self.count += 1
        return f"·{self.count}"


def canonical(expr: A.Expr, names: Mapping[str, str] | None = None,
              counter: _Names | None = None) -> A.Expr:
    """The normal form of ``expr`` (see the module docstring); ``names`` maps short function
    names to full ones."""
    return _canon(expr, dict(names or {}), counter or _Names())


def _canon(expr: A.Expr, names: dict[str, str], fresh: _Names) -> A.Expr:
    if isinstance(expr, A.Var):
        name = TYPE_SPELLINGS.get(expr.name, expr.name)
        return A.Var(names.get(name, name))
    if isinstance(expr, A.App) and expr.fn in ("Type", "Sort") and len(expr.args) == 1 \
            and isinstance(expr.args[0], A.Var) and expr.args[0].name == "_":
        return A.Var(f"{expr.fn}*")  # ``Type _``: a fresh universe, as ``Type*``
    if isinstance(expr, A.Num):
        return expr
    if isinstance(expr, A.Opaque):
        return A.Opaque(" ".join(expr.text.split()))
    if isinstance(expr, A.App):
        fn = names.get(expr.fn, expr.fn)
        return A.App(fn, tuple(_canon(a, names, fresh) for a in expr.args))
    if isinstance(expr, A.Ascription):
        return A.Ascription(_canon(expr.expr, names, fresh), _canon(expr.type, names, fresh))
    if isinstance(expr, A.Coe):
        return A.Coe(_canon(expr.expr, names, fresh))
    if isinstance(expr, A.BinOp):
        from afcheck_equivalence.normal import named_arrow

        arrow = named_arrow(expr)
        if arrow is not expr:
            return _canon(arrow, names, fresh)
        left, right = _canon(expr.left, names, fresh), _canon(expr.right, names, fresh)
        if expr.op in _FLIP:
            return A.BinOp(_FLIP[expr.op], right, left)
        return A.BinOp(expr.op, left, right)
    if isinstance(expr, A.UnOp):
        from afcheck_equivalence.normal import push_negation

        pushed = push_negation(expr)
        if pushed is not expr:
            return _canon(pushed, names, fresh)
        return A.UnOp(expr.op, _canon(expr.operand, names, fresh))
    if isinstance(expr, A.Proj):
        return A.Proj(_canon(expr.expr, names, fresh), expr.field)
    if isinstance(expr, A.Notation):
        return A.Notation(expr.op, tuple(_canon(a, names, fresh) for a in expr.args))
    if isinstance(expr, A.Paren):
        return _canon(expr.expr, names, fresh)
    if isinstance(expr, A.Quant):
        return _canon_quant(expr, names, fresh)
    if isinstance(expr, A.Lambda):
        body: A.Expr = expr.body
        binders = []
        for binder in expr.binders:
            new = fresh.next()
            body = rename(body, {binder.name: new})
            type_ = _canon(binder.type, names, fresh) if binder.type is not None else None
            binders.append(A.Binder(new, type_))
        return A.Lambda(tuple(binders), _canon(body, names, fresh))
    if isinstance(expr, A.BigOp):
        new = fresh.next()
        var_type = _canon(expr.var_type, names, fresh) if expr.var_type is not None else None
        domain = _canon(expr.domain, names, fresh) if expr.domain is not None else None
        body = _canon(rename(expr.body, {expr.var: new}), names, fresh)
        return A.BigOp(expr.op, new, var_type, domain, body, "in")
    raise TypeError(f"not an expression: {expr!r}")


def _canon_quant(expr: A.Quant, names: dict[str, str], fresh: _Names) -> A.Expr:
    if len(expr.binders) > 1 and expr.q != "∃!":
        inner: A.Expr = A.Quant(expr.q, expr.binders[1:], expr.body, expr.bound)
        first = expr.binders[0]
        if expr.bound is not None:
            # ``∀ x y > 0, P`` bounds both: keep the bound on the first as well.
            return _canon_quant(A.Quant(expr.q, (first,), inner, expr.bound), names, fresh)
        return _canon_quant(A.Quant(expr.q, (first,), inner), names, fresh)
    body: A.Expr = expr.body
    binders = []
    mapping: dict[str, str] = {}
    for binder in expr.binders:
        new = fresh.next()
        mapping[binder.name] = new
        type_ = binder.type
        binders.append(A.Binder(new, None if type_ is None else rename(type_, mapping),
                                "instance" if binder.kind == "instance" else "explicit"))
    body = rename(body, mapping)
    if expr.bound is not None:
        op, limit = expr.bound
        guard: A.Expr = A.BinOp(op, A.Var(binders[0].name), limit)
        body = A.BinOp("→" if expr.q == "∀" else "∧", guard, body)
    typed = tuple(
        A.Binder(b.name, _canon(b.type, names, fresh) if b.type is not None else None, b.kind)
        for b in binders
    )
    return A.Quant(expr.q, typed, _canon(body, names, fresh))


def canonical_statement(theorem: A.Theorem, header: str = "") -> tuple[str, ...]:
    """The normalised statement as text parts: one per binder, then the conclusion."""
    from afcheck_equivalence.normal import is_type

    names = aliases(header)
    fresh = _Names()
    mapping: dict[str, str] = {}
    parts: list[str] = []
    for binder in theorem.binders:
        type_ = binder.type
        shown = "?" if type_ is None else print_expr(_canon(rename(type_, mapping), names, fresh))
        if binder.kind == "instance":
            parts.append(f"[{shown}]")
        elif type_ is not None and not is_type(type_):
            # Hypothesis names are renamed too: a conclusion may use one (as a proof term).
            new = f"h{len(parts)}"
            if binder.name:
                mapping[binder.name] = new
            parts.append(f"({new} : {shown})")
        else:
            new = f"v{len(parts)}"
            mapping[binder.name] = new
            default = ""
            if binder.default is not None:
                value = _canon(rename(binder.default, mapping), names, fresh)
                default = f" := {print_expr(value)}"
            parts.append(f"({new} : {shown}{default})")
    conclusion = _canon(rename(theorem.conclusion, mapping), names, fresh)
    parts.append(print_expr(conclusion))
    return tuple(parts)


class Syntactic:
    """See the module docstring."""

    name = "syntactic"
    version = "2"
    contained = True
    """No solver and no search: each statement is read once and its tree walked once, so it
    is decided in the run's process, without a pair worker."""

    def decide(self, pairs: Sequence[Pair]) -> list[Decision]:
        from afcheck_equivalence.read import read_pair

        out: list[Decision] = []
        for pair in pairs:
            both = read_pair(pair.reference, pair.candidate, pair.header)
            out.append(replace(self._one(both), read=both.read))
        return out

    def _one(self, both: PairRead) -> Decision:
        from afcheck_equivalence.read import ReadError, shared_header

        try:
            reference, candidate = both.sides()
            shared_header(reference, candidate)
        except ReadError as error:
            return Inconclusive(self.name, str(error))
        left = canonical_statement(reference.theorem, reference.header)
        right = canonical_statement(candidate.theorem, candidate.header)
        if left == right:
            return Eq(self.name, "equal after normalisation: " + " ".join(left))
        return Noneq(self.name, f"differs after normalisation: {_first_difference(left, right)}",
                     "statement", evidence="structural")


def _first_difference(left: tuple[str, ...], right: tuple[str, ...]) -> str:
    if len(left) != len(right):
        return f"{len(left) - 1} binders vs {len(right) - 1}"
    for a, b in zip(left, right, strict=True):
        if a != b:
            return f"'{a}' vs '{b}'"
    return "?"
