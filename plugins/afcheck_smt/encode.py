"""Translate typed statements (:mod:`afcheck.lean.typed`) into z3 with Lean's semantics.

ℕ and ℤ are z3 integers (ℕ with a ``≥ 0`` side condition on every variable); ℚ and ℝ are
z3 reals. SMT-LIB ``div``/``mod`` are Euclidean, which is exactly ``Int.ediv``/``Int.emod``
(and ``Nat.div``/``Nat.mod`` on non-negative operands); Lean's ``x / 0 = 0`` and
``x % 0 = x`` are added as explicit cases because SMT-LIB leaves division by zero open.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import z3

from afcheck.lean import typed as T
from afcheck.lean.elaborate import Unsupported


@dataclass
class Encoding:
    """Side conditions collected while encoding (ℕ ranges, definitions of ``√`` values)."""

    variables: dict[str, Any] = field(default_factory=dict)
    side: list[Any] = field(default_factory=list)
    fresh: int = 0
    bound: frozenset[str] = frozenset()


def sort_var(name: str, ty: str) -> Any:
    return z3.Int(name) if ty in ("ℕ", "ℤ") else z3.Real(name)


def declare(enc: Encoding, name: str, ty: str) -> Any:
    var = sort_var(name, ty)
    enc.variables[name] = var
    if ty == "ℕ":
        enc.side.append(var >= 0)
    return var


def term(t: T.Term, enc: Encoding, env: dict[str, Any]) -> Any:
    if isinstance(t, T.Const):
        if t.ty in ("ℕ", "ℤ"):
            return z3.IntVal(int(t.value))
        return z3.RealVal(f"{t.value.numerator}/{t.value.denominator}")
    if isinstance(t, T.Sym):
        return env[t.name]
    if isinstance(t, T.Cast):
        inner = term(t.expr, enc, env)
        return z3.ToReal(inner) if t.expr.ty in ("ℕ", "ℤ") and t.ty in ("ℚ", "ℝ") else inner
    if isinstance(t, T.Neg):
        return -term(t.operand, enc, env)
    if isinstance(t, T.Pow):
        base = term(t.base, enc, env)
        result = z3.IntVal(1) if t.ty in ("ℕ", "ℤ") else z3.RealVal(1)
        for _ in range(t.exponent):
            result = result * base
        return result
    if isinstance(t, T.Arith):
        return _arith(t, term(t.left, enc, env), term(t.right, enc, env))
    return _call(t, [term(a, enc, env) for a in t.args], enc)


def _arith(t: T.Arith, a: Any, b: Any) -> Any:
    if t.op == "+":
        return a + b
    if t.op == "*":
        return a * b
    if t.op == "-":
        return z3.If(a >= b, a - b, 0) if t.ty == "ℕ" else a - b
    if t.ty in ("ℚ", "ℝ"):
        if t.op == "/":
            return z3.If(b == 0, z3.RealVal(0), a / b)
        raise Unsupported("% on ℚ/ℝ is outside the fragment")
    if t.op == "/":
        return z3.If(b == 0, z3.IntVal(0), a / b)
    return z3.If(b == 0, a, a % b)


def _call(t: T.Call, args: list[Any], enc: Encoding) -> Any:
    fn = t.fn
    if fn == "abs":
        return z3.If(args[0] >= 0, args[0], -args[0])
    if fn in ("min", "max"):
        a, b = args
        return z3.If(a <= b, a, b) if fn == "min" else z3.If(a >= b, a, b)
    if fn == "floor":
        return z3.ToInt(args[0]) if z3.is_real(args[0]) else args[0]
    if fn == "ceil":
        return -z3.ToInt(-args[0]) if z3.is_real(args[0]) else args[0]
    if fn == "natAbs":
        return z3.If(args[0] >= 0, args[0], -args[0])
    if fn == "toNat":
        return z3.If(args[0] >= 0, args[0], 0)
    if fn == "sqrt":
        return _sqrt(args[0], t, enc)
    values = [_literal(a) for a in t.args]
    if fn in ("factorial", "choose") and values and values[0] > MAX_COMBINATORIAL:
        # 1000! has 2,568 digits; far larger ones take minutes to compute, and z3 reads
        # integers through their decimal text, which Python caps at 4,300 digits.
        raise Unsupported(f"{fn} of {values[0]} is over {MAX_COMBINATORIAL}, outside the "
                          "fragment")
    table = {
        "factorial": lambda v: math.factorial(v[0]),
        "choose": lambda v: math.comb(*v),
        "gcd": lambda v: math.gcd(*v),
        "lcm": lambda v: math.lcm(*v),
    }
    return z3.IntVal(table[fn](values))


MAX_COMBINATORIAL = 1000
"""The largest ``n`` of ``n!`` and ``Nat.choose n k`` the encoder computes."""


def _literal(t: T.Term) -> int:
    assert isinstance(t, T.Const)
    return int(t.value)


def _sqrt(x: Any, t: T.Call, enc: Encoding) -> Any:
    """A fresh ``s`` with ``x < 0 → s = 0`` and ``x ≥ 0 → s ≥ 0 ∧ s² = x``."""
    if _mentions(t, enc.bound):
        raise Unsupported("Real.sqrt of a quantified variable is outside the fragment")
    enc.fresh += 1
    s = z3.Real(f"sqrt!{enc.fresh}")
    enc.side.append(z3.If(x < 0, s == 0, z3.And(s >= 0, s * s == x)))
    return s


def _mentions(node: object, names: frozenset[str]) -> bool:
    import dataclasses

    if isinstance(node, T.Sym):
        return node.name in names
    if isinstance(node, tuple):
        return any(_mentions(n, names) for n in node)
    if dataclasses.is_dataclass(node):
        return any(_mentions(getattr(node, f.name), names) for f in dataclasses.fields(node))
    return False


def formula(f: T.Formula, enc: Encoding, env: dict[str, Any]) -> Any:
    if isinstance(f, T.Truth):
        return z3.BoolVal(f.value)
    if isinstance(f, T.Not):
        return z3.Not(formula(f.operand, enc, env))
    if isinstance(f, T.Logic):
        a, b = formula(f.left, enc, env), formula(f.right, enc, env)
        return {"∧": z3.And, "∨": z3.Or, "→": z3.Implies, "↔": lambda x, y: x == y}[f.op](a, b)
    if isinstance(f, T.Cmp):
        a, b = term(f.left, enc, env), term(f.right, enc, env)
        if f.op == "∣":
            return z3.If(a == 0, b == 0, b % a == 0)
        ops = {"=": a == b, "≠": a != b, "<": a < b, "≤": a <= b, ">": a > b, "≥": a >= b}
        return ops[f.op]
    var = sort_var(f"{f.name}!{len(enc.bound)}", f.ty)
    inner = Encoding(enc.variables, enc.side, enc.fresh, enc.bound | {f.name})
    body = formula(f.body, inner, {**env, f.name: var})
    enc.fresh = inner.fresh
    if f.ty == "ℕ":
        guard = var >= 0
        body = z3.Implies(guard, body) if f.q == "∀" else z3.And(guard, body)
    return z3.ForAll([var], body) if f.q == "∀" else z3.Exists([var], body)
