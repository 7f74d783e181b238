"""Notation the literal formaliser once misread on MATH steps: each is now read exactly or
refused with one line, never turned into a different claim."""

from __future__ import annotations

import pytest
from afcheck_literal.formaliser import LiteralFormaliser, formalise_text

from afcheck.types import FormalisationStatus, FormaliseRequest


def _refusal(text: str, context: tuple[str, ...] = ()) -> str:
    request = FormaliseRequest("s#original", text, context)
    (result,) = LiteralFormaliser().formalise([request])
    assert result.status is FormalisationStatus.AF_FAIL, result.statement
    assert result.reason and "\n" not in result.reason
    return result.reason


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        (
            "\\(\\begin{pmatrix} 2 \\\\ 1 \\end{pmatrix} \\cdot \\begin{pmatrix} 2 \\\\ 1 "
            "\\end{pmatrix} = 2^2 + 1^2 = 5\\)",
            "environment 'pmatrix'",
        ),
        ("\\[ y = \\begin{cases} 2 & x < 1 \\\\ 3 & x \\ge 1 \\end{cases} \\]", "'cases'"),
        ("\\[ \\mathbf{a} \\times \\mathbf{b} = 1 \\]", "vector notation"),
        ("\\(\\vec{v} = 3\\)", "vector notation"),
        ("\\(\\boldsymbol{u} + 1 = 2\\)", "vector notation"),
        ("\\[ \\|\\mathbf{b}\\|^2 = (2)^2 + (-3)^2 = 13 \\]", "norm"),
        ("\\(\\|v\\| = 5\\)", "norm"),
        ("‖v‖ = 5", "norm"),
        ("\\(\\frac{2}{3} = 0.\\overline{6}\\)", "repeating decimal"),
        ("\\(0.\\overline{6} = \\frac{2}{3}\\)", "repeating decimal"),
        ("\\[ \\sqrt[4]{324} = \\sqrt{\\sqrt{324}} = \\sqrt{18} \\]", "\\sqrt[n]"),
        ("\\(2\\frac{5}{4} = 3.25\\)", "mixed number"),
        ("\\(1.5\\frac{1}{2} = 2\\)", "mixed number"),
        ("\\[ 2863 \\div 1344 = 2 \\quad \\text{(quotient)} \\]", "integer division"),
        ("17 / 5 = 3 remainder 2", "integer division"),
        ("This means: \\[ \\frac{1}{2} \\text{ inch} = 20 \\text{ miles} \\]", "unit conversion"),
        ("Since there are 60 minutes in an hour: 60 minutes > 1 hour.", "unit conversion"),
        ("\\(0.4 \\times 100 > 40\\%\\)", "without '%'"),
    ],
)
def test_notation_that_is_not_a_number_is_refused(text: str, reason: str) -> None:
    assert reason in _refusal(text)


@pytest.mark.parametrize(
    ("text", "statement"),
    [
        ("\\(3\\frac{4}{5} = \\frac{19}{5}\\)", "(3 : ℚ) + 4 / 5 = 19 / 5"),
        ("\\(\\frac{19}{10} = 1\\frac{9}{10}\\)", "(19 : ℚ) / 10 = 1 + 9 / 10"),
        ("\\(2 \\cdot 3 \\dfrac{1}{2} = 7\\)", "(2 : ℚ) * (3 + 1 / 2) = 7"),
        ("\\(-2\\frac{1}{2} + 3 = \\frac{1}{2}\\)", "(-((2 : ℚ) + 1 / 2)) + 3 = 1 / 2"),
    ],
)
def test_a_numeral_before_a_fraction_is_a_mixed_number(text: str, statement: str) -> None:
    assert formalise_text(text) == f"theorem step : {statement} := by sorry"


def test_a_fraction_after_a_power_is_a_product() -> None:
    assert formalise_text("\\(2^3\\frac{1}{2} = 4\\)") == (
        "theorem step : (2 : ℚ) ^ 3 * (1 / 2) = 4 := by sorry"
    )


@pytest.mark.parametrize(
    ("text", "statement"),
    [
        (
            "- \\(8! = 8 \\times 7 \\times 6 \\times 5 \\times 4 \\times 3 \\times 2 \\times 1\\)",
            "(Nat.factorial 8 : ℚ) = 8 * 7 * 6 * 5 * 4 * 3 * 2 * 1",
        ),
        ("- \\(2 \\times 3^2 \\times 5 = 90\\)", "(2 : ℚ) * 3 ^ 2 * 5 = 90"),
        ("Totals:\n* 4 + 5 = 9\n• 2 + 2 = 4", "(4 : ℚ) + 5 = 9 ∧ (2 : ℚ) + 2 = 4"),
    ],
)
def test_a_list_bullet_is_not_a_minus_sign(text: str, statement: str) -> None:
    assert formalise_text(text) == f"theorem step : {statement} := by sorry"


def test_a_minus_sign_in_display_maths_stays_a_minus_sign() -> None:
    assert (
        formalise_text("\\[\n- 3 + 4 = 1\n\\]") == "theorem step : (-(3 : ℚ)) + 4 = 1 := by sorry"
    )


def test_a_letter_with_digits_is_one_name() -> None:
    context = ("So we plug in: x1 = -3, y1 = 7, x2 = 2, y2 = -5.",)
    assert formalise_text("So x2 - x1 = 5.", context) == (
        "theorem step (x_1 : ℚ) (h₀ : x_1 = -3) (x_2 : ℚ) (h₁ : x_2 = 2) : x_2 - x_1 = 5 "
        ":= by sorry"
    )
    assert "no equation" in _refusal("We plug in the values: x1 = -3, y1 = 7.")


def test_line_environments_are_read_line_by_line() -> None:
    text = "\\[ \\begin{align*} 2 + 3 &= 5 \\\\ 5 \\times 2 &= 10 \\end{align*} \\]"
    assert formalise_text(text) == "theorem step : (2 : ℚ) + 3 = 5 ∧ (5 : ℚ) * 2 = 10 := by sorry"


def test_a_value_solved_for_in_the_context_is_no_hypothesis() -> None:
    context = (
        "The roots satisfy \\(r^2 - 4r - 5 = 0\\), so \\(r = 5\\) or \\(r = -1\\).",
        "For \\(r = 5\\): \\(3(5)^2 + 5a - 115 = 0\\), so \\(5a = 40\\) and \\(a = 8\\).",
    )
    reason = _refusal("For \\(r = -1\\): \\[ 3(-1)^2 + a(-1) - 115 = 0 \\]", context)
    assert reason.startswith("unknown quantity 'a'")


def test_a_name_defined_over_unknowns_is_solved_not_given() -> None:
    context = ("The line is \\(y = -x - 1\\).", "Solving, \\(x = -3\\) and \\(y = 2\\).")
    assert _refusal("So \\(y + 1 = 3\\).", context).startswith("unknown quantity 'y'")
    assert _refusal("So \\(x + 3 = 0\\).", context).startswith("unknown quantity 'x'")


def test_a_given_definition_is_still_a_hypothesis() -> None:
    context = ("In this case, we have:\n- $a = 255$\n- $b = 245$",)
    assert formalise_text("$a + b = 500$", context) == (
        "theorem step (a : ℚ) (h₀ : a = 255) (b : ℚ) (h₁ : b = 245) : a + b = 500 := by sorry"
    )


def test_a_vector_paragraph_in_the_context_defines_nothing() -> None:
    context = ("Let \\(\\mathbf{b} = \\begin{pmatrix} 2 \\\\ -3 \\end{pmatrix}\\), so b = 2.",)
    assert _refusal("Then b + 1 = 3.", context).startswith("unknown quantity 'b'")


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("First, calculate \\( 16 - 21 \\):\n\\[ 16 - 21 = -5 \\]", True),
        ("First, calculate \\( 16 + 21 \\):\n\\[ 16 - 21 = -5 \\]", False),
        ("1/3 of the babies wear bows, so \\(\\frac{1}{3} \\times 6 = 2\\).", True),
        ("1*3 of the babies wear bows, so \\(\\frac{1}{3} \\times 6 = 2\\).", False),
    ],
)
def test_arithmetic_outside_the_claims_must_be_written_by_one(text: str, read: bool) -> None:
    if read:
        assert formalise_text(text).startswith("theorem step")
    else:
        assert "is computed outside any claim" in _refusal(text)
