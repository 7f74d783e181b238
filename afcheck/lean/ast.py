"""The syntax tree of a Lean 4 theorem statement.

The tree keeps what was written (names, numeral spellings, notation styles) so that
:func:`afcheck.lean.printer.print_theorem` gives back text Lean reads the same way. Meaning
(types, coercions, Lean's arithmetic semantics) is assigned later, by
:mod:`afcheck.lean.elaborate`. Anything the parser does not model is an :class:`Opaque` node
that keeps its source text.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache


@dataclass(frozen=True)
class Var:
    """An identifier: a variable, a constant (``Real.pi``) or a type (``ℝ``)."""

    name: str


@dataclass(frozen=True)
class Num:
    """A numeral as written: ``2``, ``0.25``, ``1e3``, ``2.5e-3``."""

    text: str

    @property
    def value(self) -> Fraction:
        return numeral_value(self.text)

    @property
    def is_natural_literal(self) -> bool:
        """Digits only: Lean reads it through ``OfNat`` (others use ``OfScientific``)."""
        return self.text.isdigit()


@dataclass(frozen=True)
class Ascription:
    """``(expr : type)``."""

    expr: Expr
    type: Expr


@dataclass(frozen=True)
class Coe:
    """``↑expr``: a coercion whose target comes from the context."""

    expr: Expr


@dataclass(frozen=True)
class BinOp:
    """An infix operator; ``op`` is the Unicode spelling (``≤``, ``∧``, ``→`` …)."""

    op: str
    left: Expr
    right: Expr


@dataclass(frozen=True)
class UnOp:
    """Prefix ``-`` or ``¬``."""

    op: str
    operand: Expr


@dataclass(frozen=True)
class App:
    """A function applied to arguments; ``style`` records the notation it was written in.

    Styles: ``prefix`` (``f a b``), ``abs`` (``|a|``), ``floor`` (``⌊a⌋``), ``ceil`` (``⌈a⌉``),
    ``sqrt`` (``√a``), ``factorial`` (``a !``), ``inv`` (``a⁻¹``).
    """

    fn: str
    args: tuple[Expr, ...]
    style: str = "prefix"


@dataclass(frozen=True)
class Proj:
    """``(expr).field`` — generalized field notation on a compound expression."""

    expr: Expr
    field: str


@dataclass(frozen=True)
class Binder:
    """A binder: ``(x y : T)`` is two binders ``x : T``.

    ``kind``: ``explicit`` ``( )``, ``implicit`` ``{ }``, ``strict`` ``⦃ ⦄``, ``instance`` ``[ ]``.
    ``default`` is the value of an optParam binder ``(x : T := v)``. ``type`` is ``None`` when
    it was not written. ``bound`` is a binder predicate (``∀ x > 0``): ``(">", 0)``.
    """

    name: str
    type: Expr | None = None
    kind: str = "explicit"
    default: Expr | None = None


@dataclass(frozen=True)
class Quant:
    """``∀``, ``∃`` or ``∃!`` over binders; ``bound`` is a binder predicate such as ``> 0``."""

    q: str
    binders: tuple[Binder, ...]
    body: Expr
    bound: tuple[str, Expr] | None = None


@dataclass(frozen=True)
class Lambda:
    """``fun x => body``."""

    binders: tuple[Binder, ...]
    body: Expr


@dataclass(frozen=True)
class BigOp:
    """``∑ var in domain, body``; ``domain`` is ``None`` for ``∑ i, f i``.

    ``op`` is ``∑`` or ``∏`` (which the elaborator expands), or a binder notation read but not
    interpreted: ``⋃ ⋂ ⨆ ⨅`` (``⋃ i, s i``), ``∫`` (``∫ x in a..b, f x``), ``∀ᶠ ∃ᶠ``
    (``∀ᶠ x in l, p x``)."""

    op: str
    var: str
    var_type: Expr | None
    domain: Expr | None
    body: Expr
    keyword: str = "in"
    """``in`` or ``∈``, as written."""


@dataclass(frozen=True)
class Paren:
    """Brackets as a source wrote them, where Lean does not need them: ``(2 + 3) + 4``.

    The parser never builds one (Lean drops such brackets); a writer that shows its source's
    grouping (``(125 / 10)`` for a decimal ``12.5``) does, and the printer keeps them."""

    expr: Expr


@dataclass(frozen=True)
class Notation:
    """A Mathlib notation read with its operands but not interpreted: ``‖x‖``, ``⟪x, y⟫_ℝ``,
    ``sᶜ``, ``M →ₗ[R] N``, ``⁅x, y⁆``, ``⋃₀ S``.

    ``op`` is the notation's template, each ``·`` standing for one operand in ``args`` (in
    order): ``"‖·‖"``, ``"· →ₗ[·] ·"``. Its precedence is in :data:`afcheck.lean.notation.MIXFIX`.
    Only the syntax is known: no later stage gives it a meaning, so a statement using one is
    outside any typed fragment, and two are the same only when written the same.
    """

    op: str
    args: tuple[Expr, ...]


@dataclass(frozen=True)
class Opaque:
    """Source text the parser does not model (set-builder, anonymous constructors …)."""

    text: str


Expr = (
    Var | Num | Ascription | Coe | BinOp | UnOp | App | Proj | Quant | Lambda | BigOp | Paren
    | Notation | Opaque
)


@dataclass(frozen=True)
class Theorem:
    """``keyword name binders : conclusion := by sorry``."""

    keyword: str
    name: str
    binders: tuple[Binder, ...]
    conclusion: Expr


@lru_cache(maxsize=4096)  # a big operator's expansion reads its few numerals hundreds of times
def numeral_value(text: str) -> Fraction:
    """The exact value of a Lean numeral (``0.25`` is ``1/4``; ``2.5e-3`` is ``1/400``)."""
    mantissa, _, exponent = text.lower().partition("e")
    value = Fraction(mantissa)
    if exponent:
        value *= Fraction(10) ** int(exponent)
    return value


def subterms(expr: Expr) -> list[Expr]:
    """``expr`` and all expressions below it, parents first."""
    out: list[Expr] = [expr]
    for child in children(expr):
        out.extend(subterms(child))
    return out


def children(expr: Expr) -> tuple[Expr, ...]:
    """The direct sub-expressions of ``expr``, binder types included."""
    if isinstance(expr, (Ascription,)):
        return (expr.expr, expr.type)
    if isinstance(expr, (Coe, UnOp)):
        return (expr.expr,) if isinstance(expr, Coe) else (expr.operand,)
    if isinstance(expr, BinOp):
        return (expr.left, expr.right)
    if isinstance(expr, (App, Notation)):
        return expr.args
    if isinstance(expr, (Proj, Paren)):
        return (expr.expr,)
    if isinstance(expr, (Quant, Lambda)):
        types = tuple(b.type for b in expr.binders if b.type is not None)
        bound = (expr.bound[1],) if isinstance(expr, Quant) and expr.bound else ()
        return types + bound + (expr.body,)
    if isinstance(expr, BigOp):
        parts = (expr.var_type, expr.domain, expr.body)
        return tuple(p for p in parts if p is not None)
    return ()
