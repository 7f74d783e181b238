"""The functions known through facts (``afcheck_smt.facts``) and function parameters, against
Python's own arithmetic: the prover may say INCONCLUSIVE, never the wrong verdict.

Statements pin their variables (``a = 4``) and a function parameter (``∀ x, f x = 2 * x + 1``),
so the truth of each is computed here with ``math.gcd``, ``math.comb``, ``math.factorial`` and
Python integers, with Lean's ℕ subtraction, division and ``%``."""

from __future__ import annotations

import math

import pytest
from afcheck_smt.prover import SmtProver
from hypothesis import given, settings
from hypothesis import strategies as st

from afcheck.types import ProofTask, VerdictKind

PROVER = SmtProver(timeout_ms=500)


def _nat(op: str, x: int, y: int) -> int:
    if op == "+":
        return x + y
    if op == "*":
        return x * y
    if op == "-":
        return max(x - y, 0)
    if op == "/":
        return x // y if y else 0
    return x % y if y else x


@st.composite
def terms(draw: st.DrawFn, env: dict[str, int], depth: int = 2) -> tuple[str, int]:
    """A ℕ term and its value."""
    if depth == 0 or draw(st.integers(0, 4)) == 0:
        if draw(st.booleans()):
            name = draw(st.sampled_from(sorted(env)))
            return name, env[name]
        n = draw(st.integers(0, 6))
        return str(n), n
    kind = draw(st.sampled_from(["op", "gcd", "lcm", "fact", "choose", "pow", "f"]))
    x_text, x = draw(terms(env, depth - 1))
    if kind == "fact":
        if x > 9:
            return x_text, x
        return f"Nat.factorial ({x_text})", math.factorial(x)
    if kind == "f":
        return f"f ({x_text})", 2 * x + 1
    y_text, y = draw(terms(env, depth - 1))
    if kind == "op":
        op = draw(st.sampled_from(["+", "*", "-", "/", "%"]))
        return f"({x_text} {op} {y_text})", _nat(op, x, y)
    if kind == "gcd":
        return f"Nat.gcd ({x_text}) ({y_text})", math.gcd(x, y)
    if kind == "lcm":
        return f"Nat.lcm ({x_text}) ({y_text})", math.lcm(x, y)
    if kind == "choose":
        return f"Nat.choose ({x_text}) ({y_text})", math.comb(x, y)
    if y > 12 or x > 40:
        return x_text, x
    return f"({x_text}) ^ ({y_text})", x ** y


@st.composite
def statements(draw: st.DrawFn) -> tuple[str, bool]:
    env = {"a": draw(st.integers(0, 6)), "b": draw(st.integers(0, 6))}
    left_text, left = draw(terms(env))
    right_text, right = draw(terms(env))
    rel = draw(st.sampled_from(["=", "≠", "<", "≤"]))
    truth = {"=": left == right, "≠": left != right, "<": left < right, "≤": left <= right}[rel]
    text = (f"theorem g (a b : ℕ) (f : ℕ → ℕ) (ha : a = {env['a']}) (hb : b = {env['b']}) "
            f"(hf : ∀ x, f x = 2 * x + 1) : {left_text} {rel} {right_text} := by sorry")
    return text, truth


def _check(case: tuple[str, bool]) -> None:
    text, truth = case
    got = PROVER.prove([ProofTask("g", text)])[0]
    wrong = VerdictKind.REFUTED if truth else VerdictKind.PROVED
    assert got.kind is not wrong, (text, truth, got.reason, got.evidence)


@settings(max_examples=25)
@given(statements())
def test_facts_never_give_a_wrong_verdict(case: tuple[str, bool]) -> None:
    _check(case)


@pytest.mark.slow
@settings(max_examples=2000)
@given(statements())
def test_facts_never_give_a_wrong_verdict_2k(case: tuple[str, bool]) -> None:
    _check(case)
