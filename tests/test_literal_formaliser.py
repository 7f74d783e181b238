"""The literal formaliser on realistic steps: what it reads, and why it refuses."""

from __future__ import annotations

import pytest
from afcheck_arith.claims import Unreadable
from afcheck_literal.formaliser import LiteralFormaliser, formalise_text
from afcheck_literal.scope import UnknownName

from afcheck.components import Formaliser
from afcheck.errors import UsageError
from afcheck.plugins import get_plugins
from afcheck.types import FormalisationStatus, FormaliseRequest


def _one(text: str, context: tuple[str, ...] = ()) -> tuple[FormalisationStatus, str]:
    request = FormaliseRequest("s#original", text, context)
    (result,) = LiteralFormaliser().formalise([request])
    return result.status, result.statement or result.reason


@pytest.mark.parametrize(
    ("text", "statement"),
    [
        ("Natalia sold 48/2 = 24 clips in May.", "(48 : ℚ) / 2 = 24"),
        ("\\(1/3 \\times 18 = 6\\)", "(1 : ℚ) / 3 * 18 = 6"),
        ("So, the total cost is $12 + $8 = $20.", "(12 : ℚ) + 8 = 20"),
        ("\\[ \\frac{14}{2} = 7 \\]", "(14 : ℚ) / 2 = 7"),
        ("\\(6 \\div 3 \\cdot 2 = 4\\)", "(6 : ℚ) / 3 * 2 = 4"),
        ("$1,200.50 - $200.50 = $1,000", "((120050 : ℚ) / 100) - (20050 / 100) = 1000"),
        ("25% of 80 = 20", "((25 : ℚ) / 100) * 80 = 20"),
        (
            "She pays 20 \\% of $50, that is $\\dfrac{20}{100} \\times 50 = 10$.",
            "((20 : ℚ) / 100) * 50 = 10",
        ),
        ("3 x 4 = 12 eggs", "(3 : ℚ) * 4 = 12"),
        ("12 − 5 = 7 and 6 × 7 = 42", "(12 : ℚ) - 5 = 7 ∧ (6 : ℚ) * 7 = 42"),
        ("5 km + 3 km = 8 km", "(5 : ℚ) + 3 = 8"),
        ("He drives 1.5 hours × 60 minutes/hour = 90 minutes.", "((15 : ℚ) / 10) * 60 = 90"),
        (
            "Total number of sticks = 9 (red) + 14 (blue) + 11 (yellow) = 34.",
            "(9 : ℚ) + 14 + 11 = 34",
        ),
        ("\\(\\left(2 + 3\\right)^{2} = 25\\)", "((2 : ℚ) + 3) ^ 2 = 25"),
        ("\\(3(4+5) = 27\\)", "(3 : ℚ) * (4 + 5) = 27"),
        ("\\(10 - 15 = -5\\)", "(10 : ℚ) - 15 = -5"),
        ("\\(8 > 5\\) and \\(3 \\leq 3\\)", "(8 : ℚ) > 5 ∧ (3 : ℚ) ≤ 3"),
        ("\\(7 \\neq 8\\)", "(7 : ℚ) ≠ 8"),
        ("\\(84 \\times 126 = 10{,}584\\)", "(84 : ℚ) * 126 = 10584"),
        ("\\(10\\,584 \\div 42 = 252\\)", "(10584 : ℚ) / 42 = 252"),
        ("\\(2^{10} = 1{,}024\\)", "(2 : ℚ) ^ 10 = 1024"),
        ("\\(3! + 1 = 7\\)", "(Nat.factorial 3 : ℚ) + 1 = 7"),
        ("Step 2: \\$21 + \\$11 = \\$32", "(21 : ℚ) + 11 = 32"),
    ],
)
def test_ground_claims_are_written_as_read(text: str, statement: str) -> None:
    assert _one(text) == (FormalisationStatus.OK, f"theorem step : {statement} := by sorry")


def test_chain_becomes_a_conjunction() -> None:
    text = "\\( 600 + 4 \\times 600 = 600 + 2400 = 3000 \\)"
    assert formalise_text(text) == (
        "theorem step : (600 : ℚ) + 4 * 600 = 600 + 2400 ∧ (600 : ℚ) + 2400 = 3000 := by sorry"
    )


def test_every_equation_of_a_paragraph_is_claimed() -> None:
    text = "First, 5 + 3 = 8. Then she doubles it: 8 * 2 = 16. The answer is \\(\\boxed{16}\\)."
    assert formalise_text(text) == ("theorem step : (5 : ℚ) + 3 = 8 ∧ (8 : ℚ) * 2 = 16 := by sorry")


def test_a_wrong_claim_is_kept_wrong() -> None:
    assert formalise_text("Natalia sold 48/2 = 25 clips in May.") == (
        "theorem step : (48 : ℚ) / 2 = 25 := by sorry"
    )


def test_roots_and_pi_use_the_reals() -> None:
    assert formalise_text("\\(\\sqrt{16} = 4\\)") == "theorem step : Real.sqrt 16 = 4 := by sorry"
    assert formalise_text("The area is \\(\\pi \\cdot 2^2 = 4\\pi\\)") == (
        "theorem step : Real.pi * 2 ^ 2 = 4 * Real.pi := by sorry"
    )


def test_named_quantity_from_the_context() -> None:
    statement = formalise_text("So \\(2x + 1 = 11\\).", ("Let \\(x = 5\\).",))
    assert statement == "theorem step (x : ℚ) (h₀ : x = 5) : 2 * x + 1 = 11 := by sorry"


def test_word_names_and_their_dependencies() -> None:
    context = ("Clips in April = 48.", "Clips in May = Clips in April / 2 = 24.")
    statement = formalise_text("Altogether: Clips in April + Clips in May = 72.", context)
    assert statement == (
        "theorem step (clips_in_april : ℚ) (h₀ : clips_in_april = 48) (clips_in_may : ℚ) "
        "(h₁ : clips_in_may = clips_in_april / 2) : clips_in_april + clips_in_may = 72 "
        ":= by sorry"
    )


def test_a_redefined_name_gets_a_new_binder() -> None:
    context = ("Total = 2 + 1 = 3.", "Total = Total * 2 = 6.")
    statement = formalise_text("Now Total + 1 = 7.", context)
    assert statement == (
        "theorem step (total : ℚ) (h₀ : total = 2 + 1) (total_1 : ℚ) (h₁ : total_1 = total * 2) "
        ": total_1 + 1 = 7 := by sorry"
    )


def test_a_name_first_in_a_chain_only_names_it() -> None:
    assert formalise_text("Total books = 2 + 1 = 3") == "theorem step : (2 : ℚ) + 1 = 3 := by sorry"
    assert formalise_text("Red paint = White paint = 1/3 * 6 pints = 2 pints.") == (
        "theorem step : (1 : ℚ) / 3 * 6 = 2 := by sorry"
    )
    assert (
        formalise_text(
            "\\[ \\text{Distance} = \\text{Speed} \\times \\text{Time} = 18 \\times 5 = 90 \\]"
        )
        == "theorem step : (18 : ℚ) * 5 = 90 := by sorry"
    )


def test_a_context_read_before_reads_as_if_read_anew() -> None:
    # The scope after a context is kept and copied for later requests with that context or a
    # longer one: neither what a step defines nor a longer context may leak into it.
    context = ("Total = 2 + 1 = 3.", "Total = Total * 2 = 6.", "Extra = Total - 1 = 5.")
    twice = (
        "theorem step (total : ℚ) (h₀ : total = 2 + 1) (total_1 : ℚ) (h₁ : total_1 = total * 2) "
        ": total_1 + 1 = 7 := by sorry"
    )
    assert formalise_text("Now Total + 1 = 7.", context) == twice
    assert formalise_text("Now Total + 1 = 7.", context[:1]) == (
        "theorem step (total : ℚ) (h₀ : total = 2 + 1) : total + 1 = 7 := by sorry"
    )
    assert formalise_text("So Gift = Total + 1 = 7.", context[:2]) == twice
    with pytest.raises(UnknownName, match="unknown quantity 'gift'"):
        formalise_text("Then Gift + 1 = 8.", context[:2])
    with pytest.raises(UnknownName, match="unknown quantity 'total'"):
        formalise_text("Now Total + 1 = 7.", ())
    assert formalise_text("Then Extra + 1 = 6.", context) == (
        "theorem step (total : ℚ) (h₀ : total = 2 + 1) (total_1 : ℚ) (h₁ : total_1 = total * 2) "
        "(extra : ℚ) (h₂ : extra = total_1 - 1) : extra + 1 = 6 := by sorry"
    )


def test_reserved_words_are_not_binders() -> None:
    statement = formalise_text("Then 2 * at = 10.", ("So at = 5.",))
    assert statement.startswith("theorem step (at_v : ℚ) (h₀ : at_v = 5) : 2 * at_v = 10")


def test_it_is_false_that_negates_one_claim() -> None:
    assert formalise_text("It is false that 48/2 = 24.") == (
        "theorem step : (48 : ℚ) / 2 ≠ 24 := by sorry"
    )


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("The answer is 5.", "no equation or inequality"),
        ("Therefore, the answer is \\(\\boxed{16}\\).", "no equation or inequality"),
        ("sin(30) = 0.5", "unknown symbol 'sin'"),
        ("\\(\\log 8 = 3\\)", "unknown symbol '\\log'"),
        ("20/3 ≈ 6.67", "approximate"),
        ("half of 12 = 6", "'half'"),
        ("2 dozen = 24", "'dozen'"),
        ("5 and 3 = 8", "cannot tell how 'and'"),
        ("\\(6B + 7 = 37\\)", "unknown quantity 'B'"),
        ("30 minutes = 0.5 hours", "unit conversion"),
        ("\\( (2/5) \\times 100 = 40\\% \\)", "percentage or a label"),
        ("It is not true that 2 + 2 = 5 and 3 = 3", "several claims"),
        ("5 + 3 = 9 is not true", "negation 'not'"),
        ("\\(2^{1/2} = 4\\)", "exponent"),
        ("x = 48", "no equation or inequality"),
        ("\\(\\frac{3}{4 = 1\\)", "unclosed"),
        ("\\(5!=120\\)", "factorial ('5! = 120') or '≠'"),
        ("\\((2.5)! = 3\\)", "factorial of something other than a natural numeral"),
        ("\\(2{,}0485 = 20485\\)", "unknown symbol '{,}'"),
        (
            "Checking \\(n = 0, 1, \\dots, 9\\), the only \\(n < 10\\) with "
            "\\(n^2 = 2n + 15\\) is \\(n = 5\\).",
            "enumeration '\\dots'",
        ),
        ("The roots are \\(x = 2, 3\\).", "a list of values after '='"),
        ("The only \\(n\\) with \\(n + 1 = 2\\) is 1.", "quantifier 'only'"),
        ("For all \\(x\\), \\(x + 0 = x\\).", "quantifier 'all'"),
        (
            "Neither 2, 3 nor 5 divides 91, but \\(91 = 7 \\times 13\\), so 7 is the smallest "
            "prime factor of 91.",
            "'2' in 'Neither 2' is outside any claim and is written neither",
        ),
        (
                "\\(8 - 3 = 5\\), so she has 6 left.",
                "'6' in 'so she has 6 left' is outside any claim and is the value of no side",
            ),
        (
            "After the cut it costs \\(220 \\times 0.9 = \\$198\\), which is more than the "
            "original \\$200.",
            "a comparison in words ('is more than …')",
        ),
        ("Since \\(6 + 2 = 8\\), at least 8 seats are taken.", "comparison in words ('least')"),
    ],
)
def test_refusals_say_why_in_one_line(text: str, reason: str) -> None:
    status, message = _one(text)
    assert status is FormalisationStatus.AF_FAIL
    assert reason in message
    assert "\n" not in message


def test_context_that_cannot_be_read_forgets_the_names_it_mentions() -> None:
    context = ("Total = 5.", "Total = half of 12 = 6.")
    status, message = _one("Total + 1 = 7", context)
    assert status is FormalisationStatus.AF_FAIL
    assert "unknown quantity 'total'" in message


def test_factorial_keeps_every_term_of_the_chain() -> None:
    text = "There are \\(5! = 6 \\times 5 \\times 4 \\times 3 \\times 2 = 720\\) orders."
    assert formalise_text(text) == (
        "theorem step : (Nat.factorial 5 : ℚ) = 6 * 5 * 4 * 3 * 2 ∧ (6 : ℚ) * 5 * 4 * 3 * 2 = 720"
        " := by sorry"
    )


def test_the_conclusion_in_prose_must_restate_the_statement() -> None:
    context = ("The last digits of \\(3^1, 3^2, 3^3, 3^4\\) are 3, 9, 7, 1.",)
    text = (
        "Since \\(2024 = 4 \\times 506\\), the cycle of length 4 ends there and the last digit "
        "is {}."
    )
    for digit in ("1", "3"):
        status, message = _one(text.format(digit), context)
        assert status is FormalisationStatus.AF_FAIL
        # neither the 4 of the cycle nor the digit is the value of a side of ``2024 = 4 × 506``
        assert "is outside any claim and is the value of no side" in message
    assert formalise_text("\\(8 - 3 = 5\\), so she has 5 left.") == (
        "theorem step : (8 : ℚ) - 3 = 5 := by sorry"
    )


def test_a_premise_in_prose_may_restate_the_problem() -> None:
    text = "She buys {} apples and eats 3: \\(8 - 3 = 5\\)."
    problem = "Ann buys 8 apples and eats 3 of them."
    assert formalise_text(text.format(8), (), problem) == (
        "theorem step : (8 : ℚ) - 3 = 5 := by sorry"
    )
    assert formalise_text("There are 5 more blue sticks than red, so \\(9 + 5 = 14\\).") == (
        "theorem step : (9 : ℚ) + 5 = 14 := by sorry"
    )
    request = FormaliseRequest("s#perturbed", text.format(9), (), problem)
    (result,) = LiteralFormaliser().formalise([request])
    assert result.status is FormalisationStatus.AF_FAIL
    expected = "'9' in 'She buys 9 apples and eats 3' is outside any claim and is written neither"
    assert expected in result.reason


def test_a_name_an_earlier_equation_constrains_is_not_a_label() -> None:
    context = (
        "If the original price is \\(p\\), the sale price is \\(p - 0.25p = 0.75p\\), so "
        "\\(0.75p = 36\\).",
    )
    status, message = _one("So \\(p = 36 \\times 1.25 = \\$45\\).", context)
    assert status is FormalisationStatus.AF_FAIL
    assert "'p' is constrained by an earlier equation" in message
    # a value an earlier step solved for is never a hypothesis: it may be one case of several,
    # or a slip, and the later claim over it cannot be checked
    later = (*context, "So \\(p = 36 \\div 0.75 = \\$48\\).")
    status, message = _one("Then \\(5p = 5 \\times 48 = 240\\).", later)
    assert status is FormalisationStatus.AF_FAIL
    assert message.startswith("unknown quantity 'p'")


def test_batch_keeps_order_and_keys() -> None:
    texts = ["1 + 1 = 2", "no claim here", "2 * 3 = 7"]
    requests = [FormaliseRequest(f"k{i}", t) for i, t in enumerate(texts)]
    results = LiteralFormaliser().formalise(requests)
    assert [r.key for r in results] == ["k0", "k1", "k2"]
    assert [r.status for r in results] == [
        FormalisationStatus.OK,
        FormalisationStatus.AF_FAIL,
        FormalisationStatus.OK,
    ]
    assert (
        results[2].raw_output
        == results[2].statement
        == ("theorem step : (2 : ℚ) * 3 = 7 := by sorry")
    )
    assert all(r.formaliser == "literal" and r.header == "" for r in results)
    assert results[1].statement is None and results[1].reason


def test_registered_through_the_plugin_hook() -> None:
    formaliser = get_plugins().create("formaliser", "literal", {})
    assert isinstance(formaliser, Formaliser)
    assert formaliser.name == "literal"
    with pytest.raises(UsageError, match="takes no options"):
        get_plugins().create("formaliser", "literal", {"model": "x"})


def test_a_false_claim_is_written_whatever_the_prose_adds() -> None:
    # more conjuncts cannot make a false statement true: the prose need not be tied to it
    assert formalise_text("\\(8 - 3 = 6\\), so she has 5 left.") == (
        "theorem step : (8 : ℚ) - 3 = 6 := by sorry"
    )
    with pytest.raises(Unreadable, match="outside any claim"):
        formalise_text("\\(8 - 3 = 5\\), so she has 6 left.")


def test_a_computation_in_prose_may_be_regrouped_by_the_claim() -> None:
    text = "Sum: \\[2-4+6-8\\] Grouping terms: \\[(2-4) + (6-8) = -4\\]"
    assert formalise_text(text).startswith("theorem step : ((2 : ℚ) - 4) + (6 - 8) = -4")
    with pytest.raises(Unreadable, match="computed outside any claim"):
        formalise_text("Sum: \\[2-4+6+8\\] Grouping terms: \\[(2-4) + (6-8) = -4\\]")


def test_a_computation_in_prose_may_restate_one_of_the_problem() -> None:
    problem = "Evaluate \\(92 - 45 \\div (3 \\times 5) - 5^2\\)."
    text = "First, \\[ 3 \\times 5 = 15 \\] so it becomes \\[ 92 - 45 \\div 15 - 5^2 \\]"
    assert formalise_text(text, (), problem) == "theorem step : (3 : ℚ) * 5 = 15 := by sorry"
    with pytest.raises(Unreadable, match="computed outside any claim"):
        formalise_text(text.replace("- 5^2", "+ 5^2"), (), problem)
