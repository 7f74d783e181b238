"""Exact evaluation of typed statements with Lean's arithmetic, in Python integers and fractions.

This is the reference the SMT encoding is tested against and the check every counterexample
passes before a statement is called refuted, so it is written directly from Lean's
definitions and shares no code with the encoder. Irrational values (``Real.sqrt 2``) and
unbounded quantifiers cannot be evaluated exactly: they raise :class:`NotExact`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from fractions import Fraction

from afcheck.lean import typed as T

__all__ = ["NotExact", "eval_formula", "eval_term", "holds"]

Value = Fraction
_QUANTIFIER_RANGE = 200
Functions = Mapping[str, Callable[[tuple[Fraction, ...]], Fraction]]
"""Interpretations of function-typed parameters (:class:`afcheck.lean.typed.Apply`)."""
_NONE: Functions = {}


class NotExact(ValueError):
    """The value is not a rational number, or a quantifier ranges over an infinite domain."""


def eval_term(term: T.Term, env: Mapping[str, Fraction], functions: Functions = _NONE
              ) -> Fraction:
    """The exact value of ``term``; integers are returned as whole fractions."""
    if isinstance(term, T.Const):
        return term.value
    if isinstance(term, T.Sym):
        return env[term.name]
    if isinstance(term, T.Cast):
        return eval_term(term.expr, env, functions)
    if isinstance(term, T.Neg):
        return -eval_term(term.operand, env, functions)
    if isinstance(term, T.Pow):
        return eval_term(term.base, env, functions) ** term.exponent
    if isinstance(term, T.Arith):
        return _arith(term.op, eval_term(term.left, env, functions),
                      eval_term(term.right, env, functions), term.ty)
    if isinstance(term, T.Apply):
        return _apply(term, tuple(eval_term(a, env, functions) for a in term.args), functions)
    if term.fn in T.UNROLLED:
        return _unrolled(term, env, functions)
    return _call(term.fn, [eval_term(a, env, functions) for a in term.args])


def _unrolled(term: T.Call, env: Mapping[str, Fraction], functions: Functions
              ) -> Fraction:
    """``Finset.sum``/``Finset.prod`` over the first ``count`` terms (none when ``count ≤
    0``); a count beyond the terms elaborated is not known here."""
    count, terms, op = eval_term(term.args[0], env, functions), term.args[1:], T.UNROLLED[term.fn]
    if count > len(terms):
        raise NotExact(f"a big operator of {count} terms, more than the {len(terms)} unrolled")
    value = Fraction(0 if op == "+" else 1)
    for part in terms[:max(int(count), 0)]:
        value = _arith(op, value, eval_term(part, env, functions), term.ty)
    return value


def _apply(term: T.Apply, args: tuple[Fraction, ...], functions: Functions) -> Fraction:
    """A function parameter's value, checked against its Lean codomain."""
    if term.fn not in functions:
        raise NotExact(f"no interpretation of the function '{term.fn}'")
    value = functions[term.fn](args)
    if term.ty in ("ℕ", "ℤ") and value.denominator != 1 or term.ty == "ℕ" and value < 0:
        raise NotExact(f"{term.fn} {args} = {value} is not a value of {term.ty}")
    return value


def _arith(op: str, a: Fraction, b: Fraction, ty: str) -> Fraction:
    if op == "+":
        return a + b
    if op == "*":
        return a * b
    if op == "-":
        return max(a - b, Fraction(0)) if ty == "ℕ" else a - b
    if ty in ("ℚ", "ℝ"):
        if op == "/":
            return Fraction(0) if b == 0 else a / b
        raise NotExact("% on a field")
    x, y = int(a), int(b)
    if op == "/":
        return Fraction(_ediv(x, y))
    return Fraction(x - y * _ediv(x, y)) if y else Fraction(x)


def _ediv(x: int, y: int) -> int:
    """``Int.ediv``: the quotient that makes the remainder lie in ``[0, |y|)``; ``x / 0 = 0``."""
    if y == 0:
        return 0
    q = abs(x) // abs(y)
    if x >= 0:
        return q if y > 0 else -q
    # x < 0: round so that x - y * q ≥ 0.
    r = abs(x) % abs(y)
    q = q + (1 if r else 0)
    return -q if y > 0 else q


def _call(fn: str, args: list[Fraction]) -> Fraction:
    if fn == "abs":
        return abs(args[0])
    if fn == "min":
        return min(args)
    if fn == "max":
        return max(args)
    if fn == "sqrt":
        return _sqrt(args[0])
    if fn == "floor":
        return Fraction(math.floor(args[0]))
    if fn == "ceil":
        return Fraction(math.ceil(args[0]))
    if fn == "natAbs":
        return abs(args[0])
    if fn == "toNat":
        return max(args[0], Fraction(0))
    if fn in _EXACT_POINTS:
        value = _EXACT_POINTS[fn].get(args[0]) if args else None
        if value is None:
            raise NotExact(f"{fn} is known exactly only at a few points")
        return value
    if fn == "logb":  # Real.logb b x = Real.log x / Real.log b
        log_x, log_b = _call("log", [args[1]]), _call("log", [args[0]])
        return Fraction(0) if log_b == 0 else log_x / log_b
    if fn == "npow":
        base, exponent = args[0], int(args[1])
        size = max(abs(base.numerator), base.denominator)
        if size > 1 and (exponent > 40_000 or exponent * math.log10(size) > 10_000):
            raise NotExact(f"{base} ^ {exponent} is too large to compute")
        return base ** exponent
    n = [int(a) for a in args]
    if fn in ("factorial", "choose") and n and n[0] > 1000:
        raise NotExact(f"{fn} of {n[0]} is too large to compute")  # 10^6! takes ~25 s
    if fn == "factorial":
        return Fraction(math.factorial(n[0]))
    if fn == "choose":
        return Fraction(math.comb(n[0], n[1]))
    if fn == "gcd":
        return Fraction(math.gcd(n[0], n[1]))
    if fn == "lcm":
        return Fraction(math.lcm(n[0], n[1]))
    raise NotExact(f"unknown function {fn}")


_EXACT_POINTS: dict[str, dict[Fraction, Fraction]] = {
    "exp": {Fraction(0): Fraction(1)},  # Real.exp_zero
    "log": {Fraction(0): Fraction(0), Fraction(1): Fraction(0),  # Real.log_zero, log_one
            Fraction(-1): Fraction(0)},  # Real.log_neg_eq_log
    "sin": {Fraction(0): Fraction(0)},  # Real.sin_zero
    "cos": {Fraction(0): Fraction(1)},  # Real.cos_zero
    "pi": {},
}
"""The rational points where a transcendental function has a rational value (Lindemann:
``exp`` is irrational at every other rational, ``log`` at every other positive rational …);
elsewhere its value cannot be evaluated exactly."""


def _sqrt(x: Fraction) -> Fraction:
    """``Real.sqrt``: 0 below 0, else the non-negative root, when it is rational."""
    if x <= 0:
        return Fraction(0)
    num, den = math.isqrt(x.numerator), math.isqrt(x.denominator)
    if num * num != x.numerator or den * den != x.denominator:
        raise NotExact(f"√({x}) is irrational")
    return Fraction(num, den)


def eval_formula(formula: T.Formula, env: Mapping[str, Fraction],
                 functions: Functions = _NONE) -> bool:
    """Truth of ``formula``; quantifiers only when bounded by a guard on a ℕ variable."""
    if isinstance(formula, T.Truth):
        return formula.value
    if isinstance(formula, T.Not):
        return not eval_formula(formula.operand, env, functions)
    if isinstance(formula, T.Logic):
        left = eval_formula(formula.left, env, functions)
        if formula.op == "∧":
            return left and eval_formula(formula.right, env, functions)
        if formula.op == "∨":
            return left or eval_formula(formula.right, env, functions)
        if formula.op == "→":
            return (not left) or eval_formula(formula.right, env, functions)
        return left == eval_formula(formula.right, env, functions)
    if isinstance(formula, T.Cmp):
        return _compare(formula.op, eval_term(formula.left, env, functions),
                        eval_term(formula.right, env, functions))
    return _quantified(formula, env, functions)


def _compare(op: str, a: Fraction, b: Fraction) -> bool:
    if op == "∣":
        # a ∣ b ⇔ ∃ c, b = a * c; so 0 ∣ b only for b = 0.
        return b == 0 if a == 0 else (b / a).denominator == 1
    return {
        "=": a == b,
        "≠": a != b,
        "<": a < b,
        "≤": a <= b,
        ">": a > b,
        "≥": a >= b,
    }[op]


def _quantified(formula: T.Quantified, env: Mapping[str, Fraction], functions: Functions
                ) -> bool:
    bound = _upper_bound(formula, env, functions)
    if formula.ty != "ℕ" or bound is None or bound > _QUANTIFIER_RANGE:
        raise NotExact(f"quantifier over {formula.ty} '{formula.name}' is not bounded")
    results = (
        eval_formula(formula.body, {**env, formula.name: Fraction(v)}, functions)
        for v in range(bound + 1)
    )
    return all(results) if formula.q == "∀" else any(results)


def _upper_bound(formula: T.Quantified, env: Mapping[str, Fraction], functions: Functions
                 ) -> int | None:
    """``c`` for ``∀ n, n < c → …`` / ``∃ n, n ≤ c ∧ …`` with ``c`` a constant or a term of
    the variables in ``env``."""
    body = formula.body
    connective = "→" if formula.q == "∀" else "∧"
    if not (isinstance(body, T.Logic) and body.op == connective):
        return None
    guard = body.left
    if not isinstance(guard, T.Cmp) or guard.op not in ("<", "≤"):
        return None
    if guard.left != T.Sym(formula.name, "ℕ"):
        return None
    try:
        limit = int(eval_term(guard.right, env, functions))
    except KeyError:  # a variable bound further out, not in ``env``
        return None
    return limit - 1 if guard.op == "<" else limit


def holds(statement: T.Statement, env: Mapping[str, Fraction], functions: Functions = _NONE
          ) -> tuple[bool, bool]:
    """``(all hypotheses hold, conclusion holds)`` under ``env`` and the interpretations of
    the function parameters in ``functions``."""
    hyps = all(eval_formula(h, env, functions) for _, h in statement.hypotheses)
    return hyps, eval_formula(statement.conclusion, env, functions)
