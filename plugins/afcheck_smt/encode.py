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
from z3 import z3core

from afcheck.lean import typed as T
from afcheck.lean.elaborate import Unsupported
from afcheck_smt import facts
from afcheck_smt.symbols import Vocabulary


@dataclass
class Encoding:
    """Side conditions collected while encoding (ℕ ranges, definitions of ``√`` values), the
    uninterpreted functions of the statement's function parameters, and the ``limits``: one
    ``count ≤ len(terms)`` for each unrolled big operator (:data:`T.UNROLLED`), within which
    its encoded value is exact."""

    variables: dict[str, Any] = field(default_factory=dict)
    side: list[Any] = field(default_factory=list)
    fresh: int = 0
    bound: frozenset[str] = frozenset()
    vocabulary: Vocabulary = field(default_factory=Vocabulary)
    limits: list[Any] = field(default_factory=list)


def sort_var(name: str, ty: str) -> Any:
    return z3.Int(name) if ty in ("ℕ", "ℤ") else z3.Real(name)


def declare(enc: Encoding, name: str, ty: str) -> Any:
    var = sort_var(name, ty)
    enc.variables[name] = var
    if ty == "ℕ":
        enc.side.append(var >= 0)
    return var


# --- the frequent terms, built through z3's C API -----------------------------------------
# ``x + y`` through z3's Python operators checks and merges both sorts, looks up the result's
# kind and sort, each a foreign call (about 60 µs a node here). The elaborated tree already
# says the sorts: ℕ ℤ are z3 integers, ℚ ℝ reals, and both operands of an arithmetic node or a
# relation have the node's type. So these build the very same z3 calls the operators make,
# in the same order (the numeral's sort is asked for first, as ``IntVal`` does), and wrap the
# result the same way; only the checks are left out. What z3 answers depends on the ids of
# its terms, handed out in creation order and reused as terms are freed, so the same calls
# in the same order keep every answer as it was (``tests/test_smt_encode.py`` compares the
# ids with those of z3's operators).

_INTEGRAL = frozenset(("ℕ", "ℤ"))


# Every term of the encoding lives in z3's main context, as its variables do (z3.Int's
# default): numerals are made there. z3's operators check that operands share a context and
# raise; the C API does not and would crash the process, hence the assertions below.


def _int_value(value: int) -> Any:
    ctx = z3.main_ctx()
    ref = ctx.ref()
    return z3.IntNumRef(z3core.Z3_mk_numeral(ref, str(value), z3core.Z3_mk_int_sort(ref)), ctx)


def _real_value(text: str) -> Any:
    ctx = z3.main_ctx()
    ref = ctx.ref()
    return z3.RatNumRef(z3core.Z3_mk_numeral(ref, text, z3core.Z3_mk_real_sort(ref)), ctx)


def _nary(make: Any, a: Any, b: Any) -> Any:
    """``a + b``, ``a * b``, ``a - b`` of one sort, as z3's operators build them."""
    args = (z3.Ast * 2)()
    assert a.ctx is b.ctx
    args[0] = a.ast
    args[1] = b.ast
    ctx = a.ctx
    return z3.ArithRef(make(ctx.ref(), 2, args), ctx)


def _relation(make: Any, a: Any, b: Any) -> Any:
    assert a.ctx is b.ctx
    ctx = a.ctx
    return z3.BoolRef(make(ctx.ref(), a.ast, b.ast), ctx)


def _distinct(a: Any, b: Any) -> Any:
    args = (z3.Ast * 2)()
    assert a.ctx is b.ctx
    args[0] = a.ast
    args[1] = b.ast
    ctx = a.ctx
    return z3.BoolRef(z3core.Z3_mk_distinct(ctx.ref(), 2, args), ctx)


_NARY = {"+": z3core.Z3_mk_add, "*": z3core.Z3_mk_mul, "-": z3core.Z3_mk_sub}


def _ite(condition: Any, then: Any, otherwise: Any) -> Any:
    """``z3.If``: it asks for the Boolean sort before building the term."""
    ctx = then.ctx
    ref = ctx.ref()
    z3core.Z3_mk_bool_sort(ref)
    return z3.ArithRef(z3core.Z3_mk_ite(ref, condition.ast, then.ast, otherwise.ast), ctx)


def _is_zero(b: Any, integral: bool) -> Any:
    """``b == 0``: z3's operator casts the ``0`` to ``b``'s sort first."""
    zero = _int_value(0) if integral else _real_value("0")
    return _relation(z3core.Z3_mk_eq, b, zero)


def _arith_fast(t: T.Arith, a: Any, b: Any) -> Any | None:
    """:func:`_arith` for both operands of the node's sort, through the C API as above;
    ``None`` for what only :func:`_arith` builds (``%`` on ℚ/ℝ, which it refuses)."""
    integral = t.ty in _INTEGRAL
    make = _NARY.get(t.op)
    if make is not None and not (t.op == "-" and t.ty == "ℕ"):
        return _nary(make, a, b)
    if t.op == "-":  # ℕ: ``z3.If(a >= b, a - b, 0)``, Python's comparison order as above
        if type(b) is not type(a) and isinstance(b, type(a)):
            guard = _relation(z3core.Z3_mk_le, b, a)
        else:
            guard = _relation(z3core.Z3_mk_ge, a, b)
        difference = _nary(z3core.Z3_mk_sub, a, b)
        ctx = a.ctx
        ref = ctx.ref()
        z3core.Z3_mk_bool_sort(ref)
        zero = _int_value(0)
        return z3.ArithRef(z3core.Z3_mk_ite(ref, guard.ast, difference.ast, zero.ast), ctx)
    if t.op == "/":  # ``z3.If(b == 0, 0, a / b)``
        condition = _is_zero(b, integral)
        zero = _int_value(0) if integral else _real_value("0")
        ctx = a.ctx
        quotient = z3.ArithRef(z3core.Z3_mk_div(ctx.ref(), a.ast, b.ast), ctx)
        return _ite(condition, zero, quotient)
    if t.op == "%" and integral:  # ``z3.If(b == 0, a, a % b)``
        condition = _is_zero(b, integral)
        ctx = a.ctx
        remainder = z3.ArithRef(z3core.Z3_mk_mod(ctx.ref(), a.ast, b.ast), ctx)
        return _ite(condition, a, remainder)
    return None


def term(t: T.Term, enc: Encoding, env: dict[str, Any]) -> Any:
    if isinstance(t, T.Const):
        if t.ty in _INTEGRAL:
            return _int_value(int(t.value))
        return _real_value(f"{t.value.numerator}/{t.value.denominator}")
    if isinstance(t, T.Sym):
        return env[t.name]
    if isinstance(t, T.Cast):
        inner = term(t.expr, enc, env)
        return z3.ToReal(inner) if t.expr.ty in ("ℕ", "ℤ") and t.ty in ("ℚ", "ℝ") else inner
    if isinstance(t, T.Neg):
        return -term(t.operand, enc, env)
    if isinstance(t, T.Pow):
        base = term(t.base, enc, env)
        integral = t.ty in _INTEGRAL
        result = _int_value(1) if integral else _real_value("1")
        if (t.base.ty in _INTEGRAL) != integral:  # not built by the elaborator; z3 coerces
            for _ in range(t.exponent):
                result = result * base
            return result
        for _ in range(t.exponent):
            result = _nary(z3core.Z3_mk_mul, result, base)
        return result
    if isinstance(t, T.Arith):
        left, right = term(t.left, enc, env), term(t.right, enc, env)
        if (t.left.ty in _INTEGRAL) == (t.right.ty in _INTEGRAL) == (t.ty in _INTEGRAL):
            built = _arith_fast(t, left, right)
            if built is not None:
                return built
        return _arith(t, left, right)
    if isinstance(t, T.Apply):
        decl = enc.vocabulary.functions[t.fn][0]
        return decl(*(term(a, enc, env) for a in t.args))
    if t.fn in T.UNROLLED:
        return _unrolled(t, enc, env)
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
    symbolic = _symbolic(t, args, enc)
    if symbolic is not None:
        return symbolic
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


def _symbolic(t: T.Call, args: list[Any], enc: Encoding) -> Any | None:
    """A function known through its facts (:mod:`afcheck_smt.facts`); ``None`` for the
    combinatorial functions of literals, which are computed."""
    v = enc.vocabulary
    fn = t.fn
    if fn == "npow":
        return facts.function(v, "npow_int" if t.ty in _INTEGRAL else "npow_real")(*args)
    if fn == "pi":
        return facts.function(v, "pi")
    if fn in ("exp", "log", "sin", "cos"):
        return facts.function(v, fn)(args[0])
    if fn == "logb":  # ``Real.logb b x = Real.log x / Real.log b``, by definition
        log = facts.function(v, "log")
        numerator, denominator = log(args[1]), log(args[0])
        return z3.If(denominator == 0, z3.RealVal(0), numerator / denominator)
    if fn in ("factorial", "choose", "gcd", "lcm") and not all(
            isinstance(a, T.Const) for a in t.args):
        return facts.function(v, fn)(*args)
    return None


def _unrolled(t: T.Call, enc: Encoding, env: dict[str, Any]) -> Any:
    """``ite(count ≤ 0, empty, ite(count = 1, t₀, ite(count = 2, t₀ ∘ t₁, … , rest)))``, with
    ``rest`` a fresh unconstrained value standing for every count beyond the terms: the
    encoding says nothing false there, and ``count ≤ len(terms)`` joins ``enc.limits``, for
    the prover to check that the hypotheses keep it so. ``rest`` is one value, not a function
    of a quantified variable, so an unrolled operator under a quantifier that binds a
    variable it mentions is refused."""
    if _mentions(t, enc.bound):
        raise Unsupported("a big operator whose bound or body mentions a quantified variable "
                          "is outside the fragment (it would need induction)")
    count = term(t.args[0], enc, env)
    terms, op = t.args[1:], T.UNROLLED[t.fn]
    integral = t.ty in _INTEGRAL
    enc.fresh += 1
    rest = z3.Int(f"unrolled!{enc.fresh}") if integral else z3.Real(f"unrolled!{enc.fresh}")
    if t.ty == "ℕ":
        enc.side.append(rest >= 0)
    enc.limits.append(count <= len(terms))
    partial = z3.IntVal(0 if op == "+" else 1) if integral else \
        z3.RealVal(0 if op == "+" else 1)
    values = [partial]
    for part in terms:
        value = term(part, enc, env)
        partial = value if len(values) == 1 else (
            partial + value if op == "+" else partial * value)
        values.append(partial)
    result = rest
    for m in range(len(values) - 1, 0, -1):
        result = z3.If(count == m, values[m], result)
    return z3.If(count <= 0, values[0], result)


MAX_COMBINATORIAL = 1000
"""The largest ``n`` of ``n!`` and ``Nat.choose n k`` the encoder computes."""


def _literal(t: T.Term) -> int:
    assert isinstance(t, T.Const)
    return int(t.value)


def _sqrt(x: Any, t: T.Call, enc: Encoding) -> Any:
    """A fresh ``s`` with ``x < 0 → s = 0`` and ``x ≥ 0 → s ≥ 0 ∧ s² = x``; under a
    quantifier, where ``x`` varies, the function of :mod:`afcheck_smt.facts` with the same
    three facts for every ``x``."""
    if _mentions(t, enc.bound):
        return facts.function(enc.vocabulary, "sqrt")(x)
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
        if (f.left.ty in _INTEGRAL) != (f.right.ty in _INTEGRAL):  # z3's operators coerce
            ops = {"=": a == b, "≠": a != b, "<": a < b, "≤": a <= b, ">": a > b, "≥": a >= b}
            return ops[f.op]
        # All six are built and five dropped, as before: the dropped terms' ids are reused
        # by the next ones, and z3's answers depend on the ids (see above). Python asks the
        # right operand first when its class is a subclass of the left one's (a numeral's
        # ``RatNumRef`` beside an ``ArithRef``): ``x < 1`` is then ``1 > x``, a term of its own.
        if type(b) is not type(a) and isinstance(b, type(a)):
            ops = {"=": _relation(z3core.Z3_mk_eq, b, a), "≠": _distinct(b, a),
                   "<": _relation(z3core.Z3_mk_gt, b, a), "≤": _relation(z3core.Z3_mk_ge, b, a),
                   ">": _relation(z3core.Z3_mk_lt, b, a), "≥": _relation(z3core.Z3_mk_le, b, a)}
        else:
            ops = {"=": _relation(z3core.Z3_mk_eq, a, b), "≠": _distinct(a, b),
                   "<": _relation(z3core.Z3_mk_lt, a, b), "≤": _relation(z3core.Z3_mk_le, a, b),
                   ">": _relation(z3core.Z3_mk_gt, a, b), "≥": _relation(z3core.Z3_mk_ge, a, b)}
        return ops[f.op]
    var = sort_var(f"{f.name}!{len(enc.bound)}", f.ty)
    inner = Encoding(enc.variables, enc.side, enc.fresh, enc.bound | {f.name}, enc.vocabulary,
                     enc.limits)
    body = formula(f.body, inner, {**env, f.name: var})
    enc.fresh = inner.fresh
    if f.ty == "ℕ":
        guard = var >= 0
        body = z3.Implies(guard, body) if f.q == "∀" else z3.And(guard, body)
    return z3.ForAll([var], body) if f.q == "∀" else z3.Exists([var], body)
