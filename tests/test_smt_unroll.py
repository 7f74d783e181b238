"""Big operators over a domain whose upper end is a term: ``Finset.sum_range_succ`` unrolled.

``∑ k in Finset.range n, f k`` is ``∑ k in Finset.range m, f k`` at ``n = m``
(``Finset.sum_range_succ``, ``Finset.prod_range_succ`` and ``Finset.range_zero`` for ``n = 0``),
so the prover splits on the number of terms up to ``UNROLL_LIMIT``; a verdict stands only
where the hypotheses keep that number within the unrolled terms.
"""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from afcheck_smt.prover import SmtProver
from hypothesis import given, settings
from hypothesis import strategies as st

from afcheck.lean import parse_theorem
from afcheck.lean.elaborate import UNROLL_LIMIT, Unsupported, elaborate
from afcheck.lean.evaluate import NotExact, holds
from afcheck.types import ProofTask, Verdict, VerdictKind

PROVER = SmtProver()


def verdict(statement: str) -> Verdict:
    return PROVER.prove([ProofTask("t", f"theorem t {statement} := by sorry")])[0]


def test_a_sum_over_a_bound_the_hypotheses_pin_is_unrolled() -> None:
    assert verdict("(n : ℕ) (h : n = 5) : ∑ k in Finset.range n, k = 10").kind \
        is VerdictKind.PROVED
    assert verdict("(n : ℕ) (h : n = 5) : ∑ k in Finset.range n, k = 11").kind \
        is VerdictKind.REFUTED


def test_a_bound_the_hypotheses_keep_small_is_proved_for_every_value() -> None:
    assert verdict("(n : ℕ) (h₀ : n ≤ 4) : ∑ k in Finset.range n, k ≤ 6").kind \
        is VerdictKind.PROVED
    assert verdict("(n : ℕ) (h₀ : 0 < n) (h₁ : n < 64) : "
                   "∑ k in Finset.range n, (2 * k + 1) = n ^ 2").kind is VerdictKind.PROVED


def test_a_counterexample_within_the_unrolled_range_refutes() -> None:
    got = verdict("(n : ℕ) (h : n < 4) : ∑ k in Finset.range n, k = 3")
    assert got.kind is VerdictKind.REFUTED
    assert got.counterexample is not None and got.counterexample["n"] != "3"
    statement = elaborate(parse_theorem(
        "theorem t (n : ℕ) (h : n < 4) : ∑ k in Finset.range n, k = 3 := by sorry"),
        symbols=True)
    assert holds(statement, {"n": Fraction(got.counterexample["n"])}) == (True, False)


def test_a_bound_the_hypotheses_do_not_pin_is_inconclusive() -> None:
    got = verdict("(n : ℕ) : ∑ k in Finset.range n, (2 * k + 1) = n ^ 2")
    assert got.kind is VerdictKind.INCONCLUSIVE
    assert f"may exceed {UNROLL_LIMIT} under the hypotheses" in got.reason
    # true for every n up to the limit, false only beyond it: still not proved
    largest = UNROLL_LIMIT * (UNROLL_LIMIT - 1) // 2  # the sum at n = UNROLL_LIMIT
    got = verdict(f"(n : ℕ) : ∑ k in Finset.range n, k ≤ {largest}")
    assert got.kind is VerdictKind.INCONCLUSIVE
    # a hypothesis about the sum itself does not pin the bound: nothing is assumed beyond it
    assert verdict("(n : ℕ) (h : ∑ k in Finset.range n, k = 10) : n = 5").kind \
        is VerdictKind.INCONCLUSIVE


def test_an_induction_over_a_quantified_bound_is_inconclusive() -> None:
    got = verdict(": ∀ n, ∑ k in Finset.range n, (2 * k + 1) = n ^ 2")
    assert got.kind is VerdictKind.INCONCLUSIVE
    assert "quantified variable" in got.reason


def test_a_bound_beyond_the_limit_is_inconclusive_even_when_false() -> None:
    got = verdict(f"(n : ℕ) (h : n = {UNROLL_LIMIT + 1}) : ∑ k in Finset.range n, k = 0")
    assert got.kind is VerdictKind.INCONCLUSIVE
    assert str(UNROLL_LIMIT) in got.reason


@pytest.mark.parametrize(("statement", "expected"), [
    # Finset.Icc 1 n = {1, …, n}; Finset.prod_Icc_id_eq_factorial
    ("(n : ℕ) (h : n = 4) : ∏ i in Finset.Icc 1 n, i = 24", VerdictKind.PROVED),
    # Finset.Ico 2 n = {2, …, n - 1}
    ("(n : ℕ) (h : n = 5) : ∑ i in Finset.Ico 2 n, i = 9", VerdictKind.PROVED),
    # Finset.Ioc 0 n = {1, …, n}
    ("(n : ℕ) (h : n = 3) : ∑ i in Finset.Ioc 0 n, i = 6", VerdictKind.PROVED),
    # Finset.Ioo (-2) n over ℤ = {-1, 0, 1, 2} at n = 3
    ("(n : ℤ) (h : n = 3) : ∑ i in Finset.Ioo (-2 : ℤ) n, i = 2", VerdictKind.PROVED),
    # Finset.Icc a b = ∅ when b < a (Finset.Icc_eq_empty): the empty sum is 0
    ("(n : ℤ) (h : n = -7) : ∑ i in Finset.Icc (0 : ℤ) n, i = 0", VerdictKind.PROVED),
    # n - 1 truncates in ℕ before it is an end: Finset.Icc 0 (0 - 1) = Finset.Icc 0 0 = {0}
    ("(n : ℕ) (h : n = 0) : ∑ i in Finset.Icc 0 (n - 1), (i + 1) = 1", VerdictKind.PROVED),
    ("(n : ℕ) (h : n = 0) : ∑ i in Finset.Icc 0 (n - 1), (i + 1) = 0", VerdictKind.REFUTED),
])
def test_each_domain_has_its_own_first_and_last_index(statement: str,
                                                      expected: VerdictKind) -> None:
    assert verdict(statement).kind is expected, statement


def test_an_unrolled_sum_is_elaborated_at_its_own_type_then_cast() -> None:
    # the ℕ sum of k - 1 over range 3 is 0 + 0 + 1 = 1, then cast to ℝ
    assert verdict("(n : ℕ) (x : ℝ) (h : n = 3) (hx : x = ∑ k in Finset.range n, (k - 1)) : "
                   "x = 1").kind is VerdictKind.PROVED
    # ℕ division inside the leaf: 0 + 0 + 1 + 1 = 2, not 3
    assert verdict("(n : ℕ) (h : n = 4) : ∑ k in Finset.range n, k / 2 = (3 : ℝ)").kind \
        is VerdictKind.REFUTED
    # an ascription of the whole leaf reaches into the body: ℝ division
    assert verdict("(n : ℕ) (h : n = 4) : (∑ k in Finset.range n, k / 2 : ℝ) = 3").kind \
        is VerdictKind.PROVED


def test_an_empty_unrolled_sum_is_typed_by_its_body() -> None:
    # the body stops before ``+``; at n = 0 the sum is (0 : ℤ), so the tree is in ℤ and
    # 2 - 3 does not truncate, while beside an ℕ body it does
    assert verdict("(n : ℕ) (h : n = 0) : ∑ k in Finset.range n, (k : ℤ) + (2 - 3) = -1"
                   ).kind is VerdictKind.PROVED
    assert verdict("(n : ℕ) (h : n = 0) : ∑ k in Finset.range n, k + (2 - 3) = 0").kind \
        is VerdictKind.PROVED


def test_the_exact_evaluator_does_not_guess_beyond_the_unrolled_terms() -> None:
    statement = elaborate(parse_theorem(
        "theorem t (n : ℕ) : ∑ k in Finset.range n, k = 0 := by sorry"), symbols=True)
    assert holds(statement, {"n": Fraction(3)}) == (True, False)
    assert holds(statement, {"n": Fraction(0)}) == (True, True)
    with pytest.raises(NotExact):
        holds(statement, {"n": Fraction(UNROLL_LIMIT + 1)})


def test_without_symbols_a_term_bound_stays_outside_the_fragment() -> None:
    with pytest.raises(Unsupported, match="literals"):
        elaborate(parse_theorem(
            "theorem t (n : ℕ) : ∑ k in Finset.range n, k = 0 := by sorry"))


_DOMAINS = {  # Finset.Icc a b = {a, …, b}, Ico: b excluded, Ioc: a excluded, Ioo: both
    "Icc": lambda a, b: range(a, b + 1),
    "Ico": lambda a, b: range(a, b),
    "Ioc": lambda a, b: range(a + 1, b + 1),
    "Ioo": lambda a, b: range(a + 1, b),
}


@given(st.sampled_from(sorted(_DOMAINS)), st.integers(-3, 3), st.integers(-4, 9),
       st.sampled_from(["+", "*"]), st.integers(-20, 400))
@settings(max_examples=40, deadline=None)
def test_an_interval_over_a_pinned_integer_bound_agrees_with_its_definition(
        domain: str, lo: int, n: int, op: str, claimed: int) -> None:
    values = _DOMAINS[domain](lo, n)
    total = sum(values) if op == "+" else math.prod(values)
    symbol = "∑" if op == "+" else "∏"
    lo_text = f"({lo} : ℤ)" if lo >= 0 else f"(-{-lo} : ℤ)"
    n_text = str(n) if n >= 0 else f"-{-n}"
    for value in (claimed, total):
        got = verdict(f"(n : ℤ) (h : n = {n_text}) : "
                      f"{symbol} i in Finset.{domain} {lo_text} n, i = {value}")
        want = VerdictKind.PROVED if value == total else VerdictKind.REFUTED
        assert got.kind is want, (domain, lo, n, op, value, got.reason)
