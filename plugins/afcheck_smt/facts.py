"""Functions the encoder knows only through true facts, each a Mathlib lemma.

``Real.log``, ``Real.exp``, ``x ^ n`` with a variable ``n``, ``Nat.gcd a b`` of variables … are
uninterpreted z3 functions constrained by axioms. Every axiom below is a theorem of Mathlib
(named beside it) about the real function, so the real function satisfies all of them: an
``unsat`` answer is a proof, and a statement that is false stays satisfiable. A ``sat``
answer proves nothing by itself (z3's model may interpret ``log`` as no real function does):
the prover refutes only after the exact evaluator recomputes every such term from the
model's parameters, or says INCONCLUSIVE. Each function and its axioms are declared once per
obligation, in its :class:`~afcheck_smt.symbols.Vocabulary`, under a name no Lean parameter
can have (it contains a dot).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import z3

from afcheck_smt.symbols import Vocabulary

__all__ = ["FACTS", "function"]


def _dvd(a: Any, b: Any) -> Any:
    """``a ∣ b`` on integers: ``∃ c, b = a * c``."""
    return z3.If(a == 0, b == 0, b % a == 0)


def _npow(v: Vocabulary, name: str, sort: str) -> list[Any]:
    f = v.functions[name][0]
    b, c = z3.Const("b", v.sort(sort)), z3.Const("c", v.sort(sort))
    n, m = z3.Int("n"), z3.Int("m")
    one = 1
    return [
        z3.ForAll([b], f(b, 0) == one, patterns=[f(b, 0)]),  # pow_zero
        # pow_succ, read downwards so that a term ``b ^ 3`` unfolds (E-matching does not
        # match ``n + 1`` against ``3``)
        z3.ForAll([b, n], z3.Implies(n >= 1, f(b, n) == f(b, n - 1) * b), patterns=[f(b, n)]),
        z3.ForAll([b, n], z3.Implies(z3.And(n >= 0, b > 0), f(b, n) > 0),  # pow_pos
                  patterns=[f(b, n)]),
        z3.ForAll([b, n], z3.Implies(z3.And(n >= 0, b >= 0), f(b, n) >= 0),  # pow_nonneg
                  patterns=[f(b, n)]),
        z3.ForAll([n], z3.Implies(n >= 0, f(1, n) == 1), patterns=[f(1, n)]),  # one_pow
        z3.ForAll([n], z3.Implies(n >= 1, f(0, n) == 0), patterns=[f(0, n)]),  # zero_pow
        # pow_le_pow_right₀ (1 ≤ b → m ≤ n → b ^ m ≤ b ^ n) and pow_lt_pow_right₀ (1 < b)
        z3.ForAll([b, m, n], z3.Implies(z3.And(b >= 1, m >= 0, m <= n), f(b, m) <= f(b, n)),
                  patterns=[z3.MultiPattern(f(b, m), f(b, n))]),
        z3.ForAll([b, m, n], z3.Implies(z3.And(b > 1, m >= 0, m < n), f(b, m) < f(b, n)),
                  patterns=[z3.MultiPattern(f(b, m), f(b, n))]),
        # pow_le_pow_left (0 ≤ b → b ≤ c → b ^ n ≤ c ^ n)
        z3.ForAll([b, c, n], z3.Implies(z3.And(b >= 0, b <= c, n >= 0), f(b, n) <= f(c, n)),
                  patterns=[z3.MultiPattern(f(b, n), f(c, n))]),
        # pow_add
        z3.ForAll([b, m, n], z3.Implies(z3.And(m >= 0, n >= 0),
                                        f(b, m + n) == f(b, m) * f(b, n)),
                  patterns=[f(b, m + n)]),
    ]


def _factorial(v: Vocabulary, name: str, sort: str) -> list[Any]:
    f = v.functions[name][0]
    n = z3.Int("n")
    return [
        f(0) == 1,  # Nat.factorial_zero
        z3.ForAll([n], z3.Implies(n >= 1, f(n) == n * f(n - 1)),  # Nat.factorial_succ
                  patterns=[f(n)]),
        z3.ForAll([n], z3.Implies(n >= 0, f(n) >= 1), patterns=[f(n)]),  # Nat.factorial_pos
        # Nat.self_le_factorial
        z3.ForAll([n], z3.Implies(n >= 0, f(n) >= n), patterns=[f(n)]),
    ]


def _choose(v: Vocabulary, name: str, sort: str) -> list[Any]:
    f = v.functions[name][0]
    n, k = z3.Int("n"), z3.Int("k")
    return [
        # Nat.choose_zero_right
        z3.ForAll([n], z3.Implies(n >= 0, f(n, 0) == 1), patterns=[f(n, 0)]),
        z3.ForAll([k], z3.Implies(k >= 0, f(0, k + 1) == 0),  # Nat.choose_zero_succ
                  patterns=[f(0, k + 1)]),
        z3.ForAll([n, k], z3.Implies(z3.And(n >= 1, k >= 1),  # Nat.choose_succ_succ
                                     f(n, k) == f(n - 1, k - 1) + f(n - 1, k)),
                  patterns=[f(n, k)]),
        # Nat.choose_eq_zero_of_lt
        z3.ForAll([n, k], z3.Implies(z3.And(n >= 0, k > n), f(n, k) == 0), patterns=[f(n, k)]),
        z3.ForAll([n], z3.Implies(n >= 0, f(n, n) == 1), patterns=[f(n, n)]),  # Nat.choose_self
        # Nat.choose_one_right
        z3.ForAll([n], z3.Implies(n >= 0, f(n, 1) == n), patterns=[f(n, 1)]),
        # Nat.choose_symm_diff: choose n k = choose n (n - k) for k ≤ n
        z3.ForAll([n, k], z3.Implies(z3.And(n >= 0, k >= 0, k <= n), f(n, k) == f(n, n - k)),
                  patterns=[f(n, k)]),
    ]


def _gcd(v: Vocabulary, name: str, sort: str) -> list[Any]:
    g = v.functions[name][0]
    m, n = z3.Int("m"), z3.Int("n")
    natural = z3.And(m >= 0, n >= 0)
    return [
        z3.ForAll([n], z3.Implies(n >= 0, g(0, n) == n), patterns=[g(0, n)]),  # gcd_zero_left
        # Nat.gcd_rec: gcd m n = gcd (n % m) m (with ``gcd_zero_left``, the definition)
        z3.ForAll([m, n], z3.Implies(z3.And(natural, m > 0), g(m, n) == g(n % m, m)),
                  patterns=[g(m, n)]),
        z3.ForAll([m, n], z3.Implies(natural, g(m, n) == g(n, m)), patterns=[g(m, n)]),  # gcd_comm
        z3.ForAll([m, n], z3.Implies(natural, z3.And(_dvd(g(m, n), m),  # Nat.gcd_dvd_left
                                                     _dvd(g(m, n), n))),  # Nat.gcd_dvd_right
                  patterns=[g(m, n)]),
        z3.ForAll([m, n], z3.Implies(z3.And(natural, m > 0),  # Nat.gcd_pos_of_pos_left,
                                     z3.And(g(m, n) > 0, g(m, n) <= m)),  # Nat.gcd_le_left
                  patterns=[g(m, n)]),
    ]


def _lcm(v: Vocabulary, name: str, sort: str) -> list[Any]:
    lcm = v.functions[name][0]
    gcd = function(v, "gcd")
    a, b = z3.Int("a"), z3.Int("b")
    natural = z3.And(a >= 0, b >= 0)
    return [
        # Nat.gcd_mul_lcm
        z3.ForAll([a, b], z3.Implies(natural, gcd(a, b) * lcm(a, b) == a * b),
                  patterns=[lcm(a, b)]),
        z3.ForAll([a, b], z3.Implies(natural, z3.And(_dvd(a, lcm(a, b)),  # Nat.dvd_lcm_left
                                                     _dvd(b, lcm(a, b)))),  # Nat.dvd_lcm_right
                  patterns=[lcm(a, b)]),
    ]


def _exp(v: Vocabulary, name: str, sort: str) -> list[Any]:
    exp = v.functions[name][0]
    x, y = z3.Real("x"), z3.Real("y")
    return [
        exp(0) == 1,  # Real.exp_zero
        z3.ForAll([x], exp(x) > 0, patterns=[exp(x)]),  # Real.exp_pos
        z3.ForAll([x], exp(x) >= x + 1, patterns=[exp(x)]),  # Real.add_one_le_exp
        z3.ForAll([x, y], (exp(x) < exp(y)) == (x < y),  # Real.exp_lt_exp
                  patterns=[z3.MultiPattern(exp(x), exp(y))]),
        z3.ForAll([x, y], exp(x + y) == exp(x) * exp(y), patterns=[exp(x + y)]),  # Real.exp_add
    ]


def _log(v: Vocabulary, name: str, sort: str) -> list[Any]:
    log = v.functions[name][0]
    exp = function(v, "exp")
    x, y = z3.Real("x"), z3.Real("y")
    return [
        log(0) == 0,  # Real.log_zero
        log(1) == 0,  # Real.log_one
        z3.ForAll([x], log(-x) == log(x), patterns=[log(-x)]),  # Real.log_neg_eq_log
        z3.ForAll([x], log(exp(x)) == x, patterns=[log(exp(x))]),  # Real.log_exp
        z3.ForAll([x], z3.Implies(x > 0, exp(log(x)) == x), patterns=[log(x)]),  # Real.exp_log
        z3.ForAll([x, y], z3.Implies(z3.And(x > 0, y > 0), (log(x) < log(y)) == (x < y)),
                  patterns=[z3.MultiPattern(log(x), log(y))]),  # Real.log_lt_log_iff
        z3.ForAll([x, y], z3.Implies(z3.And(x != 0, y != 0),  # Real.log_mul
                                     log(x * y) == log(x) + log(y)),
                  patterns=[log(x * y)]),
        # Real.log_le_sub_one_of_pos
        z3.ForAll([x], z3.Implies(x > 0, log(x) <= x - 1), patterns=[log(x)]),
        z3.ForAll([x], z3.Implies(x > 1, log(x) > 0), patterns=[log(x)]),  # Real.log_pos
        z3.ForAll([x], z3.Implies(z3.And(x > 0, x < 1), log(x) < 0),  # Real.log_neg
                  patterns=[log(x)]),
    ]


def _sin(v: Vocabulary, name: str, sort: str) -> list[Any]:
    sin = v.functions[name][0]
    x = z3.Real("x")
    pi = function(v, "pi")
    return [
        sin(0) == 0,  # Real.sin_zero
        sin(pi) == 0,  # Real.sin_pi
        z3.ForAll([x], z3.And(sin(x) <= 1, sin(x) >= -1), patterns=[sin(x)]),  # sin_le_one …
        z3.ForAll([x], sin(-x) == -sin(x), patterns=[sin(-x)]),  # Real.sin_neg
    ]


def _cos(v: Vocabulary, name: str, sort: str) -> list[Any]:
    cos = v.functions[name][0]
    sin = function(v, "sin")
    pi = function(v, "pi")
    x = z3.Real("x")
    return [
        cos(0) == 1,  # Real.cos_zero
        cos(pi) == -1,  # Real.cos_pi
        z3.ForAll([x], z3.And(cos(x) <= 1, cos(x) >= -1), patterns=[cos(x)]),  # cos_le_one …
        z3.ForAll([x], cos(-x) == cos(x), patterns=[cos(-x)]),  # Real.cos_neg
        z3.ForAll([x], sin(x) * sin(x) + cos(x) * cos(x) == 1,  # Real.sin_sq_add_cos_sq
                  patterns=[cos(x)]),
    ]


def _pi(v: Vocabulary, name: str, sort: str) -> list[Any]:
    pi = v.functions[name][0]
    return [
        pi > z3.RealVal("3.141592"),  # Real.pi_gt_3141592
        pi < z3.RealVal("3.141593"),  # Real.pi_lt_3141593
    ]


def _sqrt(v: Vocabulary, name: str, sort: str) -> list[Any]:
    sqrt = v.functions[name][0]
    x = z3.Real("x")
    return [
        z3.ForAll([x], sqrt(x) >= 0, patterns=[sqrt(x)]),  # Real.sqrt_nonneg
        z3.ForAll([x], z3.Implies(x >= 0, sqrt(x) * sqrt(x) == x),  # Real.mul_self_sqrt
                  patterns=[sqrt(x)]),
        z3.ForAll([x], z3.Implies(x <= 0, sqrt(x) == 0),  # Real.sqrt_eq_zero_of_nonpos
                  patterns=[sqrt(x)]),
    ]


_Axioms = Callable[[Vocabulary, str, str], list[Any]]

FACTS: dict[str, tuple[tuple[str, ...], str, _Axioms]] = {
    "npow_int": (("ℤ", "ℕ"), "ℤ", lambda v, n, s: _npow(v, n, "ℤ")),
    "npow_real": (("ℝ", "ℕ"), "ℝ", lambda v, n, s: _npow(v, n, "ℝ")),
    "factorial": (("ℕ",), "ℕ", _factorial),
    "choose": (("ℕ", "ℕ"), "ℕ", _choose),
    "gcd": (("ℕ", "ℕ"), "ℕ", _gcd),
    "lcm": (("ℕ", "ℕ"), "ℕ", _lcm),
    "exp": (("ℝ",), "ℝ", _exp),
    "log": (("ℝ",), "ℝ", _log),
    "sin": (("ℝ",), "ℝ", _sin),
    "cos": (("ℝ",), "ℝ", _cos),
    "pi": ((), "ℝ", _pi),
    "sqrt": (("ℝ",), "ℝ", _sqrt),
}
"""Each function: its signature (ℕ ℤ as z3 integers, ℝ as reals) and its axioms."""


def function(v: Vocabulary, key: str) -> Any:
    """The z3 function (a constant for ``pi``) of :data:`FACTS` ``key`` in ``v``, declared
    with its axioms the first time."""
    name = f"Mathlib.{key}"
    domain, codomain, axioms = FACTS[key]
    if not domain:
        known = v.functions.get(name)
        if known is None:
            const = z3.Real(name)
            v.functions[name] = (const, (), codomain)
            v.axioms.extend(axioms(v, name, codomain))
            return const
        return known[0]
    if name in v.functions:
        return v.functions[name][0]
    decl = v.function(name, domain, codomain)
    v.axioms.extend(axioms(v, name, codomain))
    return decl
