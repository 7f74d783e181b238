"""Standard Mathlib equivalences, each applied with the lemma that proves it.

Two statements a Lean prover closes at once by one rewrite — ``f x = g x`` and ``g x = f x``,
``P ∨ Q`` and ``Q ∨ P``, ``s ≠ ∅`` and ``s.Nonempty`` — must not be left undecided because
the prover the obligations go to cannot read them. :func:`rewrite` puts an expression
(already in :func:`afcheck_equivalence.syntactic.canonical` form) into one orientation of
each equivalence of :data:`RULES`, bottom-up, and returns every rewrite it made as a
:class:`Step` naming the Mathlib lemma, so a certificate shows one line per rewrite.

Every rule is an equivalence (or an equation) that holds in Lean for the types it is applied
at, so equal rewritten forms mean equivalent statements. Rules that need a type (``¬ a < b``
is ``b ≤ a`` on a linear order only; ``Even n`` is ``n % 2 = 0`` on ``ℕ`` and ``ℤ``) apply
only where every variable of the sides has a known type in ``types`` (the statement's
binders); a name bound inside the expression has none, so they do not apply under it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from afcheck.lean import ast as A
from afcheck.lean.printer import print_expr
from afcheck.lean.rename import free_names, has_opaque

__all__ = ["RULES", "Step", "rewrite"]

RULES: dict[str, str] = {
    "eq_comm": "a = b ↔ b = a",
    "ne_comm": "a ≠ b ↔ b ≠ a",
    "ne_eq": "(a ≠ b) = ¬(a = b)",
    "and_comm": "a ∧ b ↔ b ∧ a (with and_assoc)",
    "or_comm": "a ∨ b ↔ b ∨ a (with or_assoc)",
    "iff_comm": "(a ↔ b) ↔ (b ↔ a)",
    "not_not": "¬¬a ↔ a",
    "not_lt": "¬a < b ↔ b ≤ a (linear order)",
    "not_le": "¬a ≤ b ↔ b < a (linear order)",
    "Set.nonempty_iff_ne_empty": "s.Nonempty ↔ s ≠ ∅ (s : Set α)",
    "Finset.nonempty_iff_ne_empty": "s.Nonempty ↔ s ≠ ∅ (s : Finset α)",
    "map_ofNat": "Polynomial.C (OfNat.ofNat n) = OfNat.ofNat n",
    "map_zero": "Polynomial.C 0 = 0",
    "map_one": "Polynomial.C 1 = 1",
    "Set.mem_Icc": "x ∈ Set.Icc a b ↔ a ≤ x ∧ x ≤ b",
    "Set.mem_Ico": "x ∈ Set.Ico a b ↔ a ≤ x ∧ x < b",
    "Set.mem_Ioc": "x ∈ Set.Ioc a b ↔ a < x ∧ x ≤ b",
    "Set.mem_Ioo": "x ∈ Set.Ioo a b ↔ a < x ∧ x < b",
    "Set.mem_Ici": "x ∈ Set.Ici a ↔ a ≤ x",
    "Set.mem_Iic": "x ∈ Set.Iic b ↔ x ≤ b",
    "Set.mem_Ioi": "x ∈ Set.Ioi a ↔ a < x",
    "Set.mem_Iio": "x ∈ Set.Iio b ↔ x < b",
    "Nat.even_iff": "Even n ↔ n % 2 = 0 (ℕ)",
    "Nat.odd_iff": "Odd n ↔ n % 2 = 1 (ℕ)",
    "Int.even_iff": "Even n ↔ n % 2 = 0 (ℤ)",
    "Int.odd_iff": "Odd n ↔ n % 2 = 1 (ℤ)",
    "Nat.dvd_iff_mod_eq_zero": "a ∣ b ↔ b % a = 0 (ℕ)",
    "add_comm": "a + b = b + a (with add_assoc; numbers of one type)",
    "mul_comm": "a * b = b * a (with mul_assoc; numbers of one type)",
}
"""Each rule by the Mathlib lemma that proves it, with what it says."""

_TERMS = frozenset({"add_comm", "mul_comm"})
"""Rules between terms (an equation), not propositions (an ``↔``)."""
_LINEAR = frozenset({"ℕ", "ℤ", "ℚ", "ℝ"})
_COMMUTATIVE = _LINEAR | {"ℂ"}
_INTERVALS = {"Icc": ("≤", "≤"), "Ico": ("≤", "<"), "Ioc": ("<", "≤"), "Ioo": ("<", "<"),
              "Ici": ("≤", None), "Ioi": ("<", None), "Iic": (None, "≤"), "Iio": (None, "<")}
_NUMERIC = frozenset({"abs", "Real.sqrt", "Real.exp", "Real.log", "Real.cos", "Real.sin",
                      "Real.tan", "Nat.factorial", "Int.floor", "Int.ceil", "Int.natAbs",
                      "Nat.choose", "Nat.gcd", "Nat.lcm", "min", "max"})


@dataclass(frozen=True)
class Step:
    """One rewrite: ``before`` became ``after`` by ``lemma``."""

    lemma: str
    before: A.Expr
    after: A.Expr

    @property
    def claim(self) -> str:
        """The instance of the lemma, as a Lean proposition."""
        op = "=" if self.lemma.startswith("map_") or self.lemma in _TERMS else "↔"
        return f"{print_expr(self.before)} {op} {print_expr(self.after)}"


def rewrite(expr: A.Expr, types: Mapping[str, str] | None = None,
            names: Mapping[str, str] | None = None) -> tuple[A.Expr, tuple[Step, ...]]:
    """``expr`` in the rules' orientation, and the rewrites made. ``types``: the type of each
    free variable (``ℝ``, as the canonical form spells it); ``names``: short names the header
    opens, to their full names (``C`` under ``open Polynomial``), locals already removed."""
    steps: list[Step] = []
    out = _Rewriter(dict(types or {}), dict(names or {}), steps).go(expr)
    return out, tuple(steps)


@dataclass
class _Rewriter:
    types: dict[str, str]
    names: dict[str, str]
    steps: list[Step]

    def step(self, lemma: str, before: A.Expr, after: A.Expr) -> A.Expr:
        """Record the rewrite, and put what it made in the rules' orientation too (each rule
        makes the expression smaller or sorted, so this ends)."""
        self.steps.append(Step(lemma, before, after))
        return self.go(after)

    def full(self, name: str) -> str:
        return self.names.get(name, name)

    def go(self, expr: A.Expr) -> A.Expr:
        if isinstance(expr, A.BinOp):
            return self.binop(A.BinOp(expr.op, self.go(expr.left), self.go(expr.right)))
        if isinstance(expr, A.UnOp):
            return self.unop(A.UnOp(expr.op, self.go(expr.operand)))
        if isinstance(expr, A.App):
            return self.app(A.App(expr.fn, tuple(self.go(a) for a in expr.args), expr.style))
        if isinstance(expr, A.Quant):
            # Names bound here have no type in ``types``: they shadow any outer one.
            inner = _Rewriter({k: v for k, v in self.types.items()
                               if k not in {b.name for b in expr.binders}},
                              {k: v for k, v in self.names.items()
                               if k not in {b.name for b in expr.binders}}, self.steps)
            return A.Quant(expr.q, expr.binders, inner.go(expr.body), expr.bound)
        return expr

    def nonempty(self, before: A.Expr, side: A.Var) -> A.Expr:
        """``s ≠ ∅`` as ``s.Nonempty``, for a set or finset ``s`` of the statement."""
        ty = self.types.get(side.name, "")
        space = "Finset" if ty.startswith("Finset ") else "Set"
        return self.step(f"{space}.nonempty_iff_ne_empty", before, A.Var(f"{side.name}.Nonempty"))

    def collection(self, side: A.Var | None) -> A.Var | None:
        ty = self.types.get(side.name, "") if side is not None else ""
        return side if ty.startswith(("Set ", "Finset ")) else None

    def app(self, expr: A.App) -> A.Expr:
        fn = self.full(expr.fn)
        if fn in ("Set.Nonempty", "Finset.Nonempty") and len(expr.args) == 1 \
                and isinstance(expr.args[0], A.Var):
            return A.Var(f"{expr.args[0].name}.Nonempty")  # the same term, dot notation
        if fn == "Polynomial.C" and len(expr.args) == 1 and isinstance(expr.args[0], A.Num) \
                and expr.args[0].is_natural_literal:
            value = int(expr.args[0].text)
            lemma = "map_zero" if value == 0 else "map_one" if value == 1 else "map_ofNat"
            return self.step(lemma, expr, expr.args[0])
        if fn in ("Even", "Odd") and len(expr.args) == 1 and isinstance(expr.args[0], A.Var):
            ty = self.types.get(expr.args[0].name)
            if ty in ("ℕ", "ℤ"):
                space = "Nat" if ty == "ℕ" else "Int"
                after = A.BinOp("=", A.BinOp("%", expr.args[0], A.Num("2")),
                                A.Num("0" if fn == "Even" else "1"))
                return self.step(f"{space}.{fn.lower()}_iff", expr, after)
        return expr

    def unop(self, expr: A.UnOp) -> A.Expr:
        inner = expr.operand
        if expr.op != "¬":
            return expr
        if isinstance(inner, A.UnOp) and inner.op == "¬":
            return self.step("not_not", expr, inner.operand)
        if isinstance(inner, A.BinOp) and inner.op in ("<", "≤") and self.linear(inner):
            flipped = "≤" if inner.op == "<" else "<"
            after = A.BinOp(flipped, inner.right, inner.left)
            return self.step("not_lt" if inner.op == "<" else "not_le", expr, after)
        if isinstance(inner, A.BinOp) and inner.op == "=":
            empty = self.collection(_empty_side(inner))
            if empty is not None:
                return self.nonempty(expr, empty)
        return expr

    def binop(self, expr: A.BinOp) -> A.Expr:
        op = expr.op
        if op == "≠":
            empty = self.collection(_empty_side(expr))
            if empty is not None:
                return self.nonempty(expr, empty)
            negated = A.UnOp("¬", A.BinOp("=", expr.left, expr.right))
            self.steps.append(Step("ne_eq", expr, negated))
            return self.unop(A.UnOp("¬", self.binop(A.BinOp("=", expr.left, expr.right))))
        if op == "∉":
            return A.UnOp("¬", A.BinOp("∈", expr.left, expr.right))  # notation, by rfl
        if op == "∈" and isinstance(expr.right, A.App):
            interval = self.interval(expr.left, expr.right)
            if interval is not None:
                lemma, after = interval
                return self.step(lemma, expr, after)
        if op == "∣" and self.types.get(_var_name(expr.left) or "") == "ℕ" \
                and self.types.get(_var_name(expr.right) or "") == "ℕ":
            after = A.BinOp("=", A.BinOp("%", expr.right, expr.left), A.Num("0"))
            return self.step("Nat.dvd_iff_mod_eq_zero", expr, after)
        if op in ("=", "↔"):
            left, right = expr.left, expr.right
            if _key(right) < _key(left):
                after = A.BinOp(op, right, left)
                return self.step("eq_comm" if op == "=" else "iff_comm", expr, after)
            return expr
        if op in ("+", "*") and self.linear(expr, _COMMUTATIVE):
            ordered = sorted(_flatten(expr, op), key=_key)
            after = ordered[0]
            for part in ordered[1:]:
                after = A.BinOp(op, after, part)  # left-nested, as Lean reads a + b + c
            if after == expr:
                return expr
            return self.step("add_comm" if op == "+" else "mul_comm", expr, after)
        if op in ("∧", "∨"):
            parts = _flatten(expr, op)
            ordered = sorted(parts, key=_key)
            if ordered == parts:
                return expr
            after = ordered[-1]
            for part in reversed(ordered[:-1]):
                after = A.BinOp(op, part, after)
            return self.step("and_comm" if op == "∧" else "or_comm", expr, after)
        return expr

    def interval(self, x: A.Expr, domain: A.App) -> tuple[str, A.Expr] | None:
        fn = self.full(domain.fn)
        space, _, kind = fn.rpartition(".")
        if space != "Set" or kind not in _INTERVALS:
            return None
        low, high = _INTERVALS[kind]
        bounds = list(domain.args)
        if len(bounds) != (low is not None) + (high is not None):
            return None
        parts: list[A.Expr] = []
        if low is not None:
            parts.append(A.BinOp(low, bounds.pop(0), x))
        if high is not None:
            parts.append(A.BinOp(high, x, bounds.pop(0)))
        after = parts[0] if len(parts) == 1 else A.BinOp("∧", parts[0], parts[1])
        return f"Set.mem_{kind}", after

    def linear(self, expr: A.BinOp, allowed: frozenset[str] = _LINEAR) -> bool:
        """Both sides are numbers of one type among ``allowed`` (linearly ordered by
        default): every name in them is a variable of such a type (or a numeric function),
        all of one type."""
        if has_opaque(expr):
            return False
        seen: set[str] = set()
        for part in A.subterms(expr):
            if isinstance(part, (A.Notation, A.Proj, A.Quant, A.Lambda, A.BigOp)):
                return False
            if isinstance(part, A.Ascription):
                if not (isinstance(part.type, A.Var) and part.type.name in allowed):
                    return False
                seen.add(part.type.name)
        for name in free_names(expr):
            if name in self.types:
                if self.types[name] not in allowed:
                    return False
                seen.add(self.types[name])
            elif self.full(name) not in _NUMERIC:
                return False
        return len(seen) == 1


def _empty_side(expr: A.BinOp) -> A.Var | None:
    """The set of ``s = ∅`` / ``∅ = s`` / ``s ≠ ∅`` when it is a name."""
    for side, other in ((expr.left, expr.right), (expr.right, expr.left)):
        if isinstance(other, A.Var) and other.name == "∅" and isinstance(side, A.Var) \
                and side.name != "∅":
            return side
    return None


def _var_name(expr: A.Expr) -> str | None:
    return expr.name if isinstance(expr, A.Var) else None


def _flatten(expr: A.Expr, op: str) -> list[A.Expr]:
    if isinstance(expr, A.BinOp) and expr.op == op:
        return _flatten(expr.left, op) + _flatten(expr.right, op)
    return [expr]


def _key(expr: A.Expr) -> str:
    return print_expr(expr)
