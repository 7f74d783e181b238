"""One test per Lean fact the SMT encoding must respect, plus the plugin and the command."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from afcheck_basic.prove import main
from afcheck_smt.prover import SmtProver
from hypothesis import given
from hypothesis import strategies as st

from afcheck.errors import UsageError
from afcheck.plugins import get_plugins
from afcheck.types import ProofTask, Verdict, VerdictKind

PROVER = SmtProver()


def verdict(statement: str, header: str = "") -> Verdict:
    return PROVER.prove([ProofTask("t", statement, header)])[0]


def kind(statement: str, header: str = "") -> VerdictKind:
    return verdict(statement, header).kind


def both(true_statement: str, false_statement: str) -> None:
    assert kind(true_statement) is VerdictKind.PROVED
    assert kind(false_statement) is VerdictKind.REFUTED


def test_nat_sub_truncates() -> None:
    both("theorem t : (3 : ℕ) - 5 = 0 := by sorry", "theorem t : (3 : ℕ) - 5 = 2 := by sorry")
    assert kind("theorem t (x : ℕ) (h : x = 3) : x - 5 = 0 := by sorry") is VerdictKind.PROVED


def test_int_sub_does_not_truncate() -> None:
    both("theorem t : (3 : ℤ) - 5 = -2 := by sorry", "theorem t : (3 : ℤ) - 5 = 0 := by sorry")


def test_unconstrained_numerals_default_to_nat() -> None:
    both("theorem t : 7 / 2 = 3 := by sorry", "theorem t : 2 - 3 = 1 := by sorry")


def test_nat_div_floors() -> None:
    both("theorem t : (7 : ℕ) / 2 = 3 := by sorry", "theorem t : (7 : ℕ) / 2 = 4 := by sorry")


def test_int_div_is_euclidean() -> None:
    assert (
        kind(
            "theorem t : (-7 : ℤ) / 2 = -4 ∧ (7 : ℤ) / (-2) = -3 ∧ (-7 : ℤ) / (-2) = 4 := by sorry"
        )
        is VerdictKind.PROVED
    )
    assert kind("theorem t : (-7 : ℤ) / 2 = -3 := by sorry") is VerdictKind.REFUTED


def test_int_mod_is_nonnegative() -> None:
    assert kind("theorem t : (-7 : ℤ) % 2 = 1 ∧ (7 : ℤ) % (-2) = 1 := by sorry") is (
        VerdictKind.PROVED
    )
    assert kind("theorem t (a b : ℤ) (h : b ≠ 0) : 0 ≤ a % b := by sorry") is VerdictKind.PROVED


def test_int_div_by_zero_is_zero() -> None:
    both("theorem t (x : ℤ) : x / 0 = 0 := by sorry", "theorem t (x : ℤ) : x / 0 = x := by sorry")


def test_nat_mod_by_zero_is_identity() -> None:
    both("theorem t (x : ℕ) : x % 0 = x := by sorry", "theorem t (x : ℕ) : x % 0 = 0 := by sorry")


def test_real_div_by_zero_is_zero() -> None:
    both("theorem t (x : ℝ) : x / 0 = 0 := by sorry", "theorem t (x : ℝ) : x / 0 = 1 := by sorry")


def test_rat_division_is_exact() -> None:
    both("theorem t : (7 : ℚ) / 2 = 3.5 := by sorry", "theorem t : (7 : ℚ) / 2 = 3 := by sorry")


def test_decimal_and_scientific_numerals_are_exact() -> None:
    both(
        "theorem t : (0.25 : ℚ) * 80 = 20 ∧ (2.5e-3 : ℝ) = 1 / 400 := by sorry",
        "theorem t : (0.1 : ℝ) + 0.2 = 0.3000001 := by sorry",
    )


def test_pow_with_numeral_exponent() -> None:
    both("theorem t (x : ℤ) : x ^ 2 ≥ 0 := by sorry", "theorem t (x : ℤ) : x ^ 3 ≥ 0 := by sorry")


def test_monoid_npow_of_a_numeral_quotient_is_its_exact_power() -> None:
    """``Monoid.npow`` of a base made of numerals alone is that rational's power, however
    large the literal exponent, with the base read by its type's rules first (``7 / 2`` is
    ``3`` in ℕ): no fact about ``npow`` is needed to decide it."""
    both("theorem t : ((7 : ℚ) / 16) ^ 111 * (16 / 7) ^ 111 = ((7 / 16) * (16 / 7)) ^ 111 := "
         "by sorry",
         "theorem t : ((7 : ℚ) / 16) ^ 111 * (16 / 7) ^ 111 = 2 := by sorry")
    both("theorem t : ((7 : ℕ) / 2) ^ 70 = 3 ^ 70 := by sorry",
         "theorem t : ((7 : ℕ) / 2) ^ 70 = 4 ^ 70 := by sorry")


def test_nat_cast_is_nonnegative() -> None:
    both(
        "theorem t (n : ℕ) : (n : ℝ) ≥ 0 := by sorry", "theorem t (n : ℤ) : (n : ℝ) ≥ 0 := by sorry"
    )


def test_ascription_casts_leaves_before_subtracting() -> None:
    # (a - b : ℝ) with a b : ℕ is ↑a - ↑b, not ↑(a - b).
    both(
        "theorem t (a b : ℕ) (h : a < b) : (a - b : ℝ) < 0 := by sorry",
        "theorem t (a b : ℕ) (h : a < b) : ((a - b : ℕ) : ℝ) < 0 := by sorry",
    )


def test_sqrt_of_negative_is_zero() -> None:
    both(
        "theorem t : Real.sqrt (-4) = 0 := by sorry", "theorem t : Real.sqrt (-4) = -2 := by sorry"
    )


def test_sqrt_is_the_nonnegative_root() -> None:
    both(
        "theorem step : Real.sqrt 16 = (4 : ℝ) := by sorry",
        "theorem t : √16 = (-4 : ℝ) := by sorry",
    )


def test_am_gm_with_sqrt() -> None:
    statement = (
        "theorem ex (a b : ℝ) (ha : 0 < a) (hb : 0 < b) :"
        " a + b ≥ {} * Real.sqrt (a * b) := by sorry"
    )
    both(statement.format(2), statement.format(3))


def test_abs_min_max() -> None:
    both(
        "theorem t (x : ℤ) : |x| ≥ 0 ∧ min x 3 ≤ max x 3 := by sorry",
        "theorem t (x : ℤ) : |x| = x := by sorry",
    )


def test_floor_and_ceil() -> None:
    both(
        "theorem t : ⌊(-2.5 : ℝ)⌋ = -3 ∧ ⌈(2.1 : ℚ)⌉ = 3 ∧ Int.floor (2 : ℝ) = 2 := by sorry",
        "theorem t : ⌊(-2.5 : ℝ)⌋ = -2 := by sorry",
    )


def test_factorial_choose_gcd_on_literals() -> None:
    both(
        "theorem t : Nat.factorial 5 = 120 ∧ 4 ! = 24 ∧ Nat.choose 5 2 = 10"
        " ∧ Nat.gcd 12 18 = 6 := by sorry",
        "theorem t : Nat.choose 5 2 = 20 := by sorry",
    )


def test_big_operators_over_literal_ranges() -> None:
    both(
        "theorem t : ∑ i in Finset.range 5, i = 10 ∧ ∏ i in Finset.Icc 1 4, i = 24 := by sorry",
        "theorem t : ∑ i in Finset.range 5, (i : ℤ) ^ 2 = 31 := by sorry",
    )


def test_divides() -> None:
    both(
        "theorem t (n : ℕ) (h : 4 ∣ n) : 2 ∣ n := by sorry",
        "theorem t (n : ℕ) (h : 2 ∣ n) : 4 ∣ n := by sorry",
    )


def test_quantifiers_over_small_domains() -> None:
    both(
        "theorem t : ∃ n : ℕ, n < 5 ∧ n * n = 9 := by sorry",
        "theorem t : ∃ n : ℕ, n * n = 7 := by sorry",
    )
    assert kind("theorem t : ∃! x : ℤ, x + 1 = 0 := by sorry") is VerdictKind.PROVED


def test_examples_suite_shapes() -> None:
    assert kind("theorem ex (x : ℝ) (h : 2 * x + 3 = 11) : x = 4 := by sorry") is VerdictKind.PROVED
    assert kind("theorem ex (n : ℕ) (h : n % 2 = 1) : (n + 1) % 2 = 0 := by sorry") is (
        VerdictKind.PROVED
    )
    refuted = verdict(
        "theorem s (clips_april : ℚ) (h₀ : clips_april = 48 / 2) :"
        " clips_april + 48 = 71 := by sorry"
    )
    assert refuted.kind is VerdictKind.REFUTED
    assert refuted.counterexample == {"clips_april": "24"}


def test_irrational_counterexample_is_inconclusive() -> None:
    result = verdict("theorem t (y : ℝ) : y * y ≠ 2 := by sorry")
    assert result.kind is VerdictKind.INCONCLUSIVE
    assert "irrational" in result.reason


def test_outside_the_fragment_is_inconclusive_with_reason() -> None:
    result = verdict("theorem t (s : Set ℕ) (h : 1 ∈ s) : 1 ∈ s := by sorry")
    assert result.kind is VerdictKind.INCONCLUSIVE
    assert result.reason.startswith("outside the SMT fragment")
    assert kind("theorem t : Real.tan 0 = 0 := by sorry") is VerdictKind.INCONCLUSIVE


def test_header_definitions_make_statements_opaque() -> None:
    assert kind("theorem t : x = 5 := by sorry", "def x : ℕ := 5") is VerdictKind.INCONCLUSIVE


def test_open_real_allows_short_names() -> None:
    assert kind("theorem t : sqrt 9 = (3 : ℝ) := by sorry", "open Real") is VerdictKind.PROVED
    assert kind("theorem t : sqrt 9 = (3 : ℝ) := by sorry") is VerdictKind.INCONCLUSIVE


def test_untyped_decimal_is_float_and_inconclusive() -> None:
    assert kind("theorem t : 0.5 + 0.5 = 1 := by sorry") is VerdictKind.INCONCLUSIVE


def test_verdicts_are_labelled_smt_and_uncertified() -> None:
    result = verdict("theorem t : 1 + 1 = 2 := by sorry")
    assert (result.backend, result.certified) == ("smt", False)


def test_unreadable_statement_is_inconclusive() -> None:
    assert kind("this is not lean") is VerdictKind.INCONCLUSIVE


def test_plugin_builds_from_options() -> None:
    prover = get_plugins().create("prover", "smt", {"timeout_ms": "500", "jobs": "2"})
    assert (prover.timeout_ms, prover.jobs) == (500, 2)
    with pytest.raises(UsageError):
        get_plugins().create("prover", "smt", {"timeout_ms": "soon"})


def test_process_pool_gives_the_same_verdicts() -> None:
    tasks = [
        ProofTask(str(i), f"theorem t : ({i} : ℤ) - 3 = {i - 3 + i % 2} := by sorry")
        for i in range(40)
    ]
    pooled = SmtProver(jobs=2).prove(tasks)
    assert [v.kind for v in pooled] == [v.kind for v in PROVER.prove(tasks)]


def test_prove_command_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["theorem t (x : ℕ) (h : x = 3) : x - 5 = 0 := by sorry"]) == 0
    out = capsys.readouterr().out
    assert "negation:  theorem t_neg : ¬(∀ (x : ℕ) (h : x = 3), x - 5 = 0) := by sorry" in out
    assert "verdict:   proved" in out and "backend:   smt" in out


def test_prove_command_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["theorem t (x : ℕ) (h : x = 3) : x - 2 = 0 := by sorry", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["verdict"] == "refuted" and data["backend"] == "smt"
    assert data["counterexample"] == {"x": "3"}
    assert data["reason"]


def test_prove_command_reads_files(tmp_path: object, capsys: pytest.CaptureFixture[str]) -> None:
    from pathlib import Path

    path = Path(str(tmp_path)) / "s.lean"
    path.write_text("import Mathlib\ntheorem t : (2 : ℤ) - 3 = -1 := by norm_num\n")
    assert main([str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["verdict"] == "proved"


def test_prove_command_unparseable_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["theorem t : (1 + = 2 := by sorry"]) == 2
    err = capsys.readouterr().err
    assert "line 1, column 13" in err and "\n" == err[-1] and err.count("\n") == 1


@pytest.mark.parametrize("digit", ["٢", "２", "𝟐", "²"])
def test_lean_numerals_are_ascii_digits_only(digit: str) -> None:
    # Lean's `Char.isDigit` is `'0' ≤ c ∧ c ≤ '9'`: Lean rejects these statements, so no verdict
    # on them may be PROVED or REFUTED.
    result = verdict(f"theorem t : ({digit} : ℕ) + 2 = 4 := by sorry")
    assert result.kind is VerdictKind.INCONCLUSIVE
    assert kind(f"theorem t : (2 : ℕ) + {digit} = 4 := by sorry") is VerdictKind.INCONCLUSIVE


# --- Lean's ``binop%`` leaves: an application is elaborated on its own, then cast ----------
def test_min_is_a_leaf_elaborated_at_its_own_type() -> None:
    # ``min (a - b) 5`` with ``a b : ℕ`` is a ℕ minimum (``2 - 3 = 0``), cast to ℝ afterwards.
    both("theorem t (a b : ℕ) (x : ℝ) (h : x = min (a - b) 5) (ha : a = 2) (hb : b = 3) :"
         " x = 0 := by sorry",
         "theorem t (a b : ℕ) (x : ℝ) (h : x = min (a - b) 5) (ha : a = 2) (hb : b = 3) :"
         " x = -1 := by sorry")
    both("theorem t (a b : ℕ) (x : ℝ) (h : x = max (a - b) 0 + 1) (ha : a = 2) (hb : b = 3) :"
         " x = 1 := by sorry",
         "theorem t (a b : ℕ) (x : ℝ) (h : x = max (a - b) (0 - 1)) (ha : a = 2) (hb : b = 3) :"
         " x = -1 := by sorry")


@given(st.integers(0, 9), st.integers(0, 9), st.integers(0, 9))
def test_min_of_a_nat_difference_is_truncated_before_the_cast(a: int, b: int, c: int) -> None:
    statement = ("theorem t (a b : ℕ) (x : ℝ) (h : x = min (a - b) {c}) (ha : a = {a}) "
                 "(hb : b = {b}) : x = {v} := by sorry")
    assert kind(statement.format(a=a, b=b, c=c, v=min(max(a - b, 0), c))) is VerdictKind.PROVED


def test_abs_is_a_leaf_elaborated_at_its_own_type() -> None:
    # ``|a / b|`` with ``a b : ℤ`` is ``|Int.ediv 7 2| = 3``, not ``7 / 2``.
    both("theorem t (a b : ℤ) (x : ℝ) (ha : a = 7) (hb : b = 2) (h : x = |a / b|) :"
         " x = 3 := by sorry",
         "theorem t (a b : ℤ) (x : ℝ) (ha : a = 7) (hb : b = 2) (h : x = |a / b|) :"
         " x = 7 / 2 := by sorry")


def test_a_big_operator_is_a_leaf_elaborated_at_its_body_type() -> None:
    # The bodies are ℕ: ``k - 1`` truncates and ``k / 2`` floors; the sum is cast afterwards.
    both("theorem t (x : ℝ) (h : x = ∑ k in Finset.range 3, (k - 1)) : x = 1 := by sorry",
         "theorem t (x : ℝ) (h : x = ∑ k in Finset.range 3, (k - 1)) : x = 0 := by sorry")
    both("theorem t : ∑ k in Finset.range 4, k / 2 = (2 : ℝ) := by sorry",
         "theorem t : ∑ k in Finset.range 4, k / 2 = (3 : ℝ) := by sorry")
    both("theorem t : ∏ k in Finset.range 3, (k - 1) + (1 : ℤ) = 1 := by sorry",
         "theorem t : ∏ k in Finset.range 3, (k - 1) + (1 : ℤ) = 0 := by sorry")


@given(st.integers(0, 8))
def test_a_sum_of_nat_quotients_floors_each_term(n: int) -> None:
    value = sum(k // 2 for k in range(n))
    assert kind(f"theorem t : ∑ k in Finset.range {n}, k / 2 = ({value} : ℝ) := by sorry") is (
        VerdictKind.PROVED)


def test_an_ascription_of_the_whole_leaf_propagates_into_it() -> None:
    # ``(min (a - b) 5 : ℝ)``: Lean's application elaborator unifies ``min``'s type with ℝ
    # first, so ``a - b`` is ``↑a - ↑b`` in ℝ; the same for a big operator's body.
    both("theorem t (a b : ℕ) (x : ℝ) (h : x = (min (a - b) 5 : ℝ)) (ha : a = 2) (hb : b = 3) :"
         " x = -1 := by sorry",
         "theorem t (a b : ℕ) (x : ℝ) (h : x = (min (a - b) 5 : ℝ)) (ha : a = 2) (hb : b = 3) :"
         " x = 0 := by sorry")
    both("theorem t (x : ℝ) (h : x = (∑ k in Finset.range 3, (k - 1) : ℝ)) : x = 0 := by sorry",
         "theorem t (x : ℝ) (h : x = (∑ k in Finset.range 3, (k - 1) : ℝ)) : x = 1 := by sorry")


def test_a_leaf_of_numerals_takes_the_type_of_its_tree() -> None:
    # ``min 2 3`` has a metavariable type on its own: it unifies with ℝ, where 2 - 5 = -3.
    both("theorem t (x : ℝ) (h : x = min 2 3 - 5) : x = -3 := by sorry",
         "theorem t (x : ℝ) (h : x = min 2 3 - 5) : x = 0 := by sorry")
    both("theorem t (x : ℝ) (h : x = min (2 - 3) 1) : x = -1 := by sorry",
         "theorem t (x : ℝ) (h : x = min (2 - 3) 1) : x = 0 := by sorry")


def test_min_takes_its_type_from_its_first_typed_argument() -> None:
    # ``min (n : ℕ) (z : ℤ)`` is a type error in Lean (ℤ does not coerce to ℕ): no verdict.
    assert kind("theorem t (n : ℕ) (z : ℤ) : min n z ≤ n := by sorry") is VerdictKind.INCONCLUSIVE
    both("theorem t (n : ℕ) (z : ℤ) (h : z = -1) : min z n = -1 := by sorry",
         "theorem t (n : ℕ) (z : ℤ) (h : z = -1) : min z n = 0 := by sorry")


def test_a_function_argument_is_elaborated_at_the_parameter_type() -> None:
    # ``Int.natAbs : ℤ → ℕ``: ``a - b`` is elaborated against ℤ, so it is ``↑a - ↑b = -1``.
    both("theorem t (a b : ℕ) (ha : a = 2) (hb : b = 3) : Int.natAbs (a - b) = 1 := by sorry",
         "theorem t (a b : ℕ) (ha : a = 2) (hb : b = 3) : Int.natAbs (a - b) = 0 := by sorry")


def test_dvd_elaborates_its_right_side_at_the_left_type() -> None:
    # ``Dvd.dvd`` is an application, not a ``binrel%``: ``n - 9`` is elaborated against ℤ.
    both("theorem t (n : ℕ) (z : ℤ) (hz : z = 2) (hn : n = 7) : z ∣ n - 9 := by sorry",
         "theorem t (n : ℕ) (z : ℤ) (hz : z = 3) (hn : n = 7) : z ∣ n - 9 := by sorry")
    assert kind("theorem t (n : ℕ) (z : ℤ) : n - 1 ∣ z := by sorry") is VerdictKind.INCONCLUSIVE


def test_a_big_operator_index_has_the_type_of_its_bounds() -> None:
    both("theorem t : ∑ i in Finset.Icc (-2 : ℤ) 2, i = 0 := by sorry",
         "theorem t : ∑ i in Finset.Icc (-2 : ℤ) 2, i = 3 := by sorry")


# --- function-typed parameters: uninterpreted functions ---------------------------------------
def test_a_statement_true_of_every_function_is_proved() -> None:
    assert kind("theorem t (f : ℝ → ℝ) (h : ∀ x, f x = 2 * x + 3) : f 2 = 7 := by sorry") is (
        VerdictKind.PROVED)
    assert kind("theorem t (a : ℕ → ℝ) (h₀ : a 0 = 1) (h₁ : ∀ n, a (n + 1) = 2 * a n) :"
                " a 3 = 8 := by sorry") is VerdictKind.PROVED
    assert kind("theorem t (f : ℕ → ℕ → ℕ) (h : ∀ x y, f x y = x + y) : f 2 3 = 5 := by sorry"
                ) is VerdictKind.PROVED


def test_a_function_into_nat_has_natural_values() -> None:
    # Lean's ``f : ℕ → ℕ`` has no negative value, and ℕ subtraction truncates at it.
    assert kind("theorem t (f : ℕ → ℕ) : f 0 ≥ 0 := by sorry") is VerdictKind.PROVED
    assert kind("theorem t (f : ℕ → ℕ) (h : f 1 = 2) : f 1 - 3 = 0 := by sorry") is (
        VerdictKind.PROVED)
    refuted = verdict("theorem t (f : ℕ → ℤ) : f 0 ≥ 0 := by sorry")
    assert refuted.kind is VerdictKind.REFUTED
    assert refuted.counterexample is not None and refuted.counterexample["f"].startswith("fun x")


def test_a_function_counterexample_is_checked_exactly() -> None:
    from afcheck_smt.symbols import FunctionTable

    from afcheck.lean import parse_theorem
    from afcheck.lean.elaborate import elaborate
    from afcheck.lean.evaluate import holds

    text = "theorem t (f : ℕ → ℕ) (h : f 1 = 2) (h2 : f 2 = 5) : f 1 + f 2 = 6 := by sorry"
    refuted = verdict(text)
    assert refuted.kind is VerdictKind.REFUTED
    statement = elaborate(parse_theorem(text), symbols=True)
    table = FunctionTable((((Fraction(1),), Fraction(2)), ((Fraction(2),), Fraction(5))),
                          Fraction(0))
    assert holds(statement, {}, {"f": table}) == (True, False)


def test_a_model_whose_function_cannot_be_checked_exactly_is_inconclusive() -> None:
    # The quantified hypothesis over ℝ cannot be checked exactly at z3's model.
    result = verdict("theorem t (f : ℝ → ℝ) (h : ∀ x, f x = 2 * x + 3) : f 2 = 8 := by sorry")
    assert result.kind is VerdictKind.INCONCLUSIVE


def test_function_parameters_need_the_symbols_option() -> None:
    from afcheck.lean import parse_theorem
    from afcheck.lean.elaborate import Unsupported, elaborate

    theorem = parse_theorem("theorem t (f : ℝ → ℝ) : f 1 = f 1 := by sorry")
    with pytest.raises(Unsupported, match="parameter 'f' has type 'ℝ → ℝ'"):
        elaborate(theorem)
    assert elaborate(theorem, symbols=True).functions == (("f", ("ℝ",), "ℝ"),)


def test_a_partial_application_is_outside_the_fragment() -> None:
    result = verdict("theorem t (f : ℕ → ℕ → ℕ) (h : f 1 = f 1) : True := by sorry")
    assert result.kind is VerdictKind.INCONCLUSIVE


def test_an_untyped_bound_variable_takes_the_type_lean_unifies_it_with() -> None:
    # ``∀ n ≥ 5, x n = …`` with ``x : ℕ → ℤ``: ``n`` is ℕ, from its use as an argument.
    assert kind("theorem t (x : ℕ → ℤ) (h₀ : x 5 = 1) (h : ∀ n ≥ 5, x (n + 1) = x n + 2) :"
                " x 7 = 5 := by sorry") is VerdictKind.PROVED
    # ``x - 3 ≠ 0`` says nothing of ``x``; ``a / (x - 3)`` with ``a : ℝ`` makes it ℝ.
    assert kind("theorem t (a : ℝ) (h : ∀ x, x - 3 ≠ 0 → a / (x - 3) = 2 / (x - 3)) :"
                " a = 2 := by sorry") is VerdictKind.PROVED
    # A use whose constraint is not read (an argument of ``min``) leaves the type unknown.
    result = verdict("theorem t : ∀ x, x - 3 ≠ 0 → min x 1 ≤ 1 := by sorry")
    assert result.kind is VerdictKind.INCONCLUSIVE and "bound variable 'x'" in result.reason


# --- functions known through true facts (Mathlib lemmas) --------------------------------------
def test_pow_succ_and_pow_pos_decide_variable_exponents() -> None:
    assert kind("theorem t (n : ℕ) : 2 ^ (n + 1) = 2 * 2 ^ n := by sorry") is VerdictKind.PROVED
    assert kind("theorem t (n : ℕ) (h : 0 < n) : 2 ^ n ≥ 2 := by sorry") is VerdictKind.PROVED
    both("theorem t (n : ℕ) (h : n = 3) : 2 ^ n = 8 := by sorry",
         "theorem t (n : ℕ) (h : n = 3) : 2 ^ n = 9 := by sorry")


def test_a_power_of_constants_past_64_is_computed() -> None:
    # 2 ^ 3 ≡ 1 (mod 7) and 2000 = 3 · 666 + 2, so 2 ^ 2000 % 7 = 4.
    both("theorem t : 2 ^ 2000 % 7 = 4 := by sorry", "theorem t : 2 ^ 2000 % 7 = 2 := by sorry")


def test_an_integer_exponent_is_zpow_and_outside() -> None:
    result = verdict("theorem t (x : ℝ) (n : ℤ) (h : x = 2) : x ^ n > 0 := by sorry")
    assert result.kind is VerdictKind.INCONCLUSIVE and "zpow" in result.reason


def test_nat_factorial_succ_defines_the_factorial_of_a_variable() -> None:
    both("theorem t (n : ℕ) (h : n = 5) : n ! = 120 := by sorry",
         "theorem t (n : ℕ) (h : n = 5) : n ! = 24 := by sorry")
    assert kind("theorem t (n : ℕ) : 0 < n ! := by sorry") is VerdictKind.PROVED


def test_nat_gcd_rec_defines_the_gcd_of_variables() -> None:
    both("theorem t (a b : ℕ) (ha : a = 12) (hb : b = 18) : Nat.gcd a b = 6 := by sorry",
         "theorem t (a b : ℕ) (ha : a = 12) (hb : b = 18) : Nat.gcd a b = 5 := by sorry")


def test_nat_gcd_mul_lcm() -> None:
    assert kind("theorem t (a b : ℕ) (h : Nat.gcd a b = 6) (h2 : Nat.lcm a b = 36) :"
                " a * b = 216 := by sorry") is VerdictKind.PROVED


def test_nat_choose_succ_succ_defines_binomials_of_variables() -> None:
    both("theorem t (n : ℕ) (h : n = 5) : Nat.choose n 2 = 10 := by sorry",
         "theorem t (n : ℕ) (h : n = 5) : Nat.choose n 2 = 11 := by sorry")


def test_real_pi_bounds() -> None:
    assert kind("theorem t : Real.pi > 3.14 ∧ Real.pi < 3.15 := by sorry") is VerdictKind.PROVED
    assert kind("theorem t : Real.pi > 3.1416 := by sorry") is VerdictKind.REFUTED
    # π > 3.1415925 is true, but 3.141592 < π < 3.141593 does not say so: no verdict.
    assert kind("theorem t : Real.pi > 3.1415925 := by sorry") is VerdictKind.INCONCLUSIVE


def test_real_exp_log_facts() -> None:
    assert kind("theorem t (x : ℝ) (h : 0 < x) : Real.exp (Real.log x) = x := by sorry") is (
        VerdictKind.PROVED)
    assert kind("theorem t (x : ℝ) : Real.exp x > 0 := by sorry") is VerdictKind.PROVED
    assert kind("theorem t (x y : ℝ) (h : x < y) : Real.exp x < Real.exp y := by sorry") is (
        VerdictKind.PROVED)
    both("theorem t : Real.log 1 = 0 := by sorry", "theorem t : Real.log 1 = 1 := by sorry")


def test_real_sin_sq_add_cos_sq() -> None:
    assert kind("theorem t (x : ℝ) : Real.sin x ^ 2 + Real.cos x ^ 2 = 1 := by sorry") is (
        VerdictKind.PROVED)
    assert kind("theorem t (x : ℝ) : Real.cos x ≤ 1 := by sorry") is VerdictKind.PROVED


def test_a_counterexample_through_a_transcendental_function_is_checked_exactly() -> None:
    # exp 0 = 1 is exact, so x = 0 refutes ``exp x = 2``; at x = 1 nothing is exact.
    assert kind("theorem t (x : ℝ) (h : x = 0) : Real.exp x = 2 := by sorry") is (
        VerdictKind.REFUTED)
    assert kind("theorem t (x : ℝ) (h : x = 1) : Real.exp x = 3 := by sorry") is (
        VerdictKind.INCONCLUSIVE)


def test_log_is_not_read_where_it_is_ambiguous() -> None:
    # ``open Real Nat`` makes a bare ``log`` ambiguous (Real.log, Nat.log); ``exp`` is not.
    header = "open BigOperators Real Nat Topology Rat"
    assert kind("theorem t : log 1 = (0 : ℝ) := by sorry", header) is VerdictKind.INCONCLUSIVE
    assert kind("theorem t : exp 0 = (1 : ℝ) := by sorry", header) is VerdictKind.PROVED


def test_real_sqrt_of_a_quantified_variable_is_the_function_with_its_facts() -> None:
    # Real.sqrt_nonneg, Real.mul_self_sqrt, Real.sqrt_eq_zero_of_nonpos
    assert kind("theorem t : ∀ x : ℝ, x ≥ 0 → Real.sqrt x * Real.sqrt x = x := by sorry") is (
        VerdictKind.PROVED)
    assert kind("theorem t : ∀ x : ℝ, Real.sqrt x ≥ 0 := by sorry") is VerdictKind.PROVED
    assert kind("theorem t : ∃ x : ℝ, Real.sqrt x < 0 := by sorry") is not VerdictKind.PROVED


def test_nat_prime_def_lt() -> None:
    # Nat.Prime p ↔ 2 ≤ p ∧ ∀ m, 2 ≤ m → m < p → ¬m ∣ p
    both("theorem t (p : ℕ) (hp : Nat.Prime p) (h : p ≤ 3) : p = 2 ∨ p = 3 := by sorry",
         "theorem t (p : ℕ) (hp : p.Prime) (h : p ≤ 5) : p = 2 ∨ p = 3 := by sorry")
    both("theorem t : Nat.Prime 7 := by sorry", "theorem t : Nat.Prime 9 := by sorry")


def test_function_injective_by_its_definition() -> None:
    # Function.Injective f ↔ ∀ x y, f x = f y → x = y
    assert kind("theorem t (f : ℕ → ℕ) (h : Function.Injective f) (h1 : f 1 = 5)"
                " (h2 : f 2 = 5) : False := by sorry") is VerdictKind.PROVED
    # False, but the unbounded ∀ of the conclusion cannot be checked at z3's model.
    assert kind("theorem t (f : ℕ → ℕ) (h1 : f 1 = 5) (h2 : f 2 = 5) : Function.Injective f"
                " := by sorry") is VerdictKind.INCONCLUSIVE


def test_finset_card_filter_counts_the_values_that_satisfy_the_predicate() -> None:
    both("theorem t : (Finset.filter (fun n => n % 3 = 0) (Finset.range 10)).card = 4"
         " := by sorry",
         "theorem t : Finset.card (Finset.filter (fun n => n % 3 = 0) (Finset.range 10)) = 3"
         " := by sorry")


def test_finset_card_range_and_nat_card_icc() -> None:
    assert kind("theorem t (n : ℕ) : (Finset.range n).card = n := by sorry") is (
        VerdictKind.PROVED)
    both("theorem t (a b : ℕ) (h : a ≤ b) : (Finset.Icc a b).card = b - a + 1 := by sorry",
         "theorem t (a b : ℕ) : (Finset.Icc a b).card = b - a + 1 := by sorry")


def test_an_empty_big_operator_has_the_type_of_its_body() -> None:
    # ``∑ i in Finset.range 0, (0 : ℕ)`` is a ℕ sum, terms or not: ``min`` of it and an ℤ is a
    # type error in Lean; a body of numerals takes the surrounding type.
    assert kind("theorem g : 0 = min (∑ i in Finset.range 0, (0 : ℕ)) (0 : ℤ) := by sorry") is (
        VerdictKind.INCONCLUSIVE)
    both("theorem g : (∑ i in Finset.range 0, 2) - 1 = (-1 : ℤ) := by sorry",
         "theorem g : (∑ i in Finset.range 0, 2) - 1 = (0 : ℤ) := by sorry")


def test_irrational_is_no_fraction() -> None:
    # Irrational x ↔ ∀ p q : ℤ, 0 < q → x * q ≠ p (x is not in the range of ℚ → ℝ)
    assert kind("theorem t (x : ℝ) (h : Irrational x) : x ≠ 1 / 2 := by sorry") is (
        VerdictKind.PROVED)
    assert kind("theorem t (x : ℝ) (h : Irrational x) (h2 : x * 3 = 2) : False := by sorry") is (
        VerdictKind.PROVED)
    assert kind("theorem t : Irrational (1 / 2 : ℝ) := by sorry") is not VerdictKind.PROVED


def test_a_filter_predicate_with_a_variable_is_outside() -> None:
    result = verdict("theorem t (a : ℕ) (h : a = 3) :"
                     " (Finset.filter (fun n => n % a = 0) (Finset.range 10)).card = 4 := by sorry")
    assert result.kind is VerdictKind.INCONCLUSIVE and "mentions a variable" in result.reason
