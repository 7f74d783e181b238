"""The drift detectors on the failures FaithformBench shows (seed 000, App. H), and on
faithful statements that must stay quiet."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("z3")

from afcheck_drift.detectors import (  # noqa: E402  # noqa: E402
    DETECTORS,
    abandoned_content,
    assumed_conclusion,
    canonical,
    detect_all,
    numeral_fidelity,
    type_narrowing,
    vacuous_hypotheses,
)
from afcheck_drift.warning import DriftWarning  # noqa: E402

from afcheck.lean import parse_expr  # noqa: E402

# App. H, Example 1 (Stepfun, gsm8k-390): the perturbed 118 is silently corrected to 108.
SILENT_CORRECTION = (
    "Compute orange candies: O = 2× 54 = 118.",
    "theorem my_favorite_theorem (T R O : ℕ) (h₀ : T = 232) (h₁ : R = 54) (h₂ : O = 2 * R) :\n"
    "    O = 108 := by\n  have h_main : O = 108 := by\n    rw [h₂]\n    rw [h₁]\n  apply h_main",
)
# Example 2 (GPT-5.2, math-617): the distance computation is dropped.
TAUTOLOGY_12 = (
    "Therefore, the length of the line segment is 12 units.",
    "theorem my_favorite_theorem : (12 : ℝ) = 12 := by\n  have h : (12 : ℝ) = 12 := by rfl\n"
    "  exact h",
)
# Example 3 (Qwen Plus, math-792).
TAUTOLOGY_330 = (
    "The count is \\(\\binom{11}{4} - \\binom{5}{4} = 330 - 10\\).",
    "theorem my_favorite_theorem : 330 - 10 = 330 - 10 := by\n  rfl",
)
# Example 4 (Qwen Plus, omnimath-697): over ℕ both sides collapse to 0.
COERCION_COLLAPSE = (
    "Factoring, \\(\\frac{1}{n^2+5n+4} = \\frac{1}{(n+2)(n+3)}\\).",
    "theorem my_favorite_theorem : ∀ n : ℕ, 1 / (n^2 + 5 * n + 4) = 1 / ((n+2) * (n+3)) := by\n"
    "  sorry",
)
# Example 5 (Kimina, gsm8k-245): inconsistent premises smuggled in.
FALSE_PREMISE = (
    "\\(1000 - 2 = 686\\)",
    "theorem my_favorite_theorem (rate_A rate_B : ℝ) (h_rate_A : rate_A = 5)\n"
    "    (h_rate_B : rate_B = 2 * rate_A)\n"
    "    (h_total : 1000 * rate_A + 1000 * rate_B = 686 * rate_A + 686 * rate_B) :\n"
    "    1000 - 2 = 686 := by\n  sorry",
)
# Example 6 (Claude Opus 4.7, gsm8k-259): the conclusion is assumed.
ASSUMED = (
    "Change = (amount paid) + (total cost)",
    "theorem my_favorite_theorem (change amount_paid total_cost : ℝ)\n"
    "    (h : change = amount_paid + total_cost) : change = amount_paid + total_cost := by\n"
    "  exact h",
)
# Example 7 (Kimina, omnimath-629): x narrowed from ℝ to ℕ, making 3^x = 5 impossible.
NARROWED = (
    "Since \\(x \\in \\mathbb{R}\\) and \\(3^x = 5\\), we get \\(3^{x+2} = 51\\).",
    "theorem my_favorite_theorem (x : ℕ) (h : 3^x = 5) : 3^(x + 2) = 51 := by\n  sorry",
)


def kinds(warnings: list[DriftWarning]) -> list[str]:
    return [w.detector for w in warnings]


def test_numeral_fidelity_catches_the_silent_correction() -> None:
    [warning] = numeral_fidelity(*SILENT_CORRECTION)
    assert warning.detector == "numeral_fidelity"
    assert warning.message == ("the step's result 118 is not in the statement "
                               "(it has 108, 232 instead)")


@pytest.mark.parametrize("case", [TAUTOLOGY_12, TAUTOLOGY_330], ids=["12=12", "330-10"])
def test_abandoned_content_catches_reflexive_conclusions(case: tuple[str, str]) -> None:
    [warning] = abandoned_content(*case)
    assert "reflexivity" in warning.message


def test_abandoned_content_catches_a_true_closed_conclusion_unrelated_to_the_step() -> None:
    [warning] = abandoned_content("So the perimeter is \\(5 \\cdot 7 = 35\\).",
                                  "theorem t : (2 : ℝ) + 2 = 4 := by sorry")
    assert "shares no number" in warning.message


def test_type_narrowing_catches_natural_division() -> None:
    warnings = type_narrowing(*COERCION_COLLAPSE)
    messages = " | ".join(w.message for w in warnings)
    assert "n is ℕ" in messages and "\\frac" in messages
    assert "ℕ division in the conclusion: `1 / (n ^ 2 + 5 * n + 4)` rounds down" in messages


def test_type_narrowing_catches_a_real_variable_made_natural() -> None:
    [warning] = type_narrowing(*NARROWED)
    assert warning.message == "x is ℕ but the step has '\\mathbb{R}'"


def test_vacuous_hypotheses_names_the_inconsistent_premises() -> None:
    [warning] = vacuous_hypotheses(*FALSE_PREMISE)
    assert "h_rate_A, h_rate_B, h_total cannot all hold" in warning.message


def test_vacuous_hypotheses_names_only_an_unsatisfiable_core() -> None:
    statement = ("theorem t (x y : ℕ) (hy : y = 3) (h1 : x + 1 = 0) : x = 7 := by sorry")
    [warning] = vacuous_hypotheses("x = 7", statement)
    assert "hypotheses h1 cannot" in warning.message  # ℕ: x + 1 ≥ 1; hy is not involved


def test_assumed_conclusion_catches_the_hypothesis_restated() -> None:
    [warning] = assumed_conclusion(*ASSUMED)
    assert "assumed as hypothesis h" in warning.message


def test_assumed_conclusion_holds_up_to_renaming_and_symmetry() -> None:
    statement = ("theorem t (f : ℕ → ℕ) (h : ∀ k : ℕ, f k > 0) : ∀ m : ℕ, 0 < f m := by sorry")
    assert kinds(assumed_conclusion("f is positive", statement)) == ["assumed_conclusion"]
    assert canonical(parse_expr("a = b + 1")) == canonical(parse_expr("b + 1 = a"))
    assert canonical(parse_expr("a = b + 1")) != canonical(parse_expr("a = b + 2"))


@pytest.mark.parametrize("step, statement", [
    ("Its average speed is \\(180 \\div 2.5 = 72\\) km/h.",
     "theorem t : (180 : ℚ) / 2.5 = 72 := by sorry"),
    ("Let \\(a, b, c\\) be real numbers with \\(a > b\\) and \\(b > c\\). Then \\(a > c\\).",
     "theorem t (a b c : ℝ) (h₁ : a > b) (h₂ : b > c) : a > c := by sorry"),
    ("The 4 notebooks cost \\(4 \\times \\$2.50 = \\$10.00\\).",
     "theorem t : (4 : ℚ) * (5 / 2) = 10 := by sorry"),
    ("She gives away 25% of 80, that is 20.", "theorem t : (25 : ℚ) / 100 * 80 = 20 := by sorry"),
    ("\\(x = -3\\) solves \\(x + 5 = 2\\)",
     "theorem t (x : ℤ) (h : x = -3) : x + 5 = 2 := by sorry"),
], ids=["decimal", "transitivity", "money", "percent", "negative"])
def test_faithful_statements_raise_no_warning(step: str, statement: str) -> None:
    assert detect_all(step, statement) == []


def test_perturbed_step_faithfully_formalised_raises_no_warning() -> None:
    assert detect_all("O = 2 × 54 = 118", "theorem t : 2 * 54 = 118 := by sorry") == []


def test_unreadable_or_unsupported_statements_give_no_warning() -> None:
    assert detect_all("x = 1", "this is not Lean") == []
    # outside the SMT fragment: the syntactic detectors still run, vacuity is not claimed
    assert kinds(detect_all(*NARROWED)) == ["type_narrowing"]


def test_natural_subtraction_of_numerals_warns_only_when_it_truncates() -> None:
    assert type_narrowing("\\(3 - 5 = 0\\)", "theorem t : 3 - 5 = 0 := by sorry")
    assert not type_narrowing("\\(5 - 3 = 2\\)", "theorem t : 5 - 3 = 2 := by sorry")


def test_every_detector_is_listed_once() -> None:
    assert list(DETECTORS) == ["vacuous_hypotheses", "assumed_conclusion", "abandoned_content",
                               "numeral_fidelity", "type_narrowing"]


@settings(max_examples=300)
@given(step=st.text(max_size=60),
       statement=st.one_of(
           st.text(max_size=60),
           st.builds("theorem t {} : {} := by sorry".format,
                     st.sampled_from(["", "(x : ℕ)", "(x y : ℝ) (h : x = y)", "(h : 1 = 2)"]),
                     st.text(alphabet="xy0123456789+-*/^=<>≤≥()∧∨¬ ℕℝ:.", max_size=30))))
def test_detectors_never_fail_on_any_input(step: str, statement: str) -> None:
    for warning in detect_all(step, statement):
        assert warning.detector in DETECTORS and warning.message


def test_every_detector_is_registered_with_a_description() -> None:
    from afcheck_drift import _DESCRIPTIONS

    assert list(_DESCRIPTIONS) == list(DETECTORS)
