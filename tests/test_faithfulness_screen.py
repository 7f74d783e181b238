"""The ineffective-perturbation finder: the perturber's edit applied to AF(x)."""

from __future__ import annotations

import json

import pytest
from afcheck_faithfulness.records import Edit
from afcheck_faithfulness.screen import edited_statement
from conftest import write_suite


def test_a_numeral_edit_lands_on_its_one_occurrence() -> None:
    statement = "theorem t (x : ℚ) (h : x = 17) : (17 : ℚ) + 3 = 20 := by sorry"
    assert edited_statement(statement, Edit(0, 2, "20", "23")) == (
        "theorem t (x : ℚ) (h : x = 17) : (17 : ℚ) + 3 = 23 := by sorry")


def test_an_operator_edit_is_translated_to_lean() -> None:
    statement = "theorem t : (6 : ℚ) * 4 = 24 := by sorry"
    assert edited_statement(statement, Edit(0, 6, "\\times", "\\div")) == (
        "theorem t : (6 : ℚ) / 4 = 24 := by sorry")


@pytest.mark.parametrize("statement, edit", [
    ("theorem t : (12 : ℚ) + 1 = 13 := by sorry", Edit(0, 1, "2", "3")),  # only inside 12
    ("theorem t : (5 : ℚ) = 5 := by sorry", Edit(0, 3, "not", "")),  # not a token
    ("theorem t : (1.5 : ℚ) * 2 = 3 := by sorry", Edit(0, 1, "5", "6")),  # inside a decimal
    ("theorem t : True := by sorry", None),
])
def test_ambiguous_or_absent_edits_are_not_tried(statement: str, edit: Edit | None) -> None:
    assert edited_statement(statement, edit) is None


def test_an_edit_of_a_repeated_token_must_hold_wherever_it_landed() -> None:
    """``6×5×4×3×2×1`` → ``6×5×4×3×2÷1``: the step text unknown, every single-place edit is
    tried together, so the statement is provable only when the edit holds at each place."""
    statement = "theorem t : (6 : ℚ) * 5 * 4 * 3 * 2 * 1 = 720 := by sorry"
    assert edited_statement(statement, Edit(0, 1, "×", "÷")) == (
        "theorem t : ((6 : ℚ) / 5 * 4 * 3 * 2 * 1 = 720) ∧ ((6 : ℚ) * 5 / 4 * 3 * 2 * 1 = 720)"
        " ∧ ((6 : ℚ) * 5 * 4 / 3 * 2 * 1 = 720) ∧ ((6 : ℚ) * 5 * 4 * 3 / 2 * 1 = 720)"
        " ∧ ((6 : ℚ) * 5 * 4 * 3 * 2 / 1 = 720) := by sorry"
    )


def test_given_the_text_the_edit_lands_on_the_occurrence_of_its_rank() -> None:
    text = "\\(6! = 6 \\times 5 \\times 4 \\times 3 \\times 2 \\times 1 = 720\\)"
    last = text.rindex("\\times")
    statement = (
        "theorem t : (Nat.factorial 6 : ℚ) = 720 ∧ (6 : ℚ) * 5 * 4 * 3 * 2 * 1 = 720 := by sorry"
    )
    assert edited_statement(statement, Edit(last, last + 6, "\\times", "\\div"), text) == (
        "theorem t : (Nat.factorial 6 : ℚ) = 720 ∧ (6 : ℚ) * 5 * 4 * 3 * 2 / 1 = 720 := by sorry"
    )
    # ``0 + 0 = 0`` with ``+`` → ``÷``: ``0 / 0 = 0`` holds in Lean, so it is tried as it is
    zero = "theorem t : (0 : ℚ) + 0 = 0 := by sorry"
    assert edited_statement(zero, Edit(2, 3, "+", "÷"), "0 + 0 = 0") == (
        "theorem t : (0 : ℚ) / 0 = 0 := by sorry"
    )


def test_an_edit_in_a_part_the_statement_does_not_say_is_not_tried() -> None:
    """``calculate 16 - 21: 16 - 21 = -5`` with the first ``-`` edited: the statement says only
    the second, so applying the edit there would judge another edit."""
    text = "First, calculate \\( 16 - 21 \\):\n\\[ 16 - 21 = -5 \\]"
    statement = "theorem t : (16 : ℚ) - 21 = -5 := by sorry"
    first = text.index("-")
    assert edited_statement(statement, Edit(first, first + 1, "-", "+"), text) is None
    five = text.index("5")
    assert edited_statement(statement, Edit(five, five + 1, "5", "6"), text) == (
        "theorem t : (16 : ℚ) - 21 = -6 := by sorry"
    )


def test_the_hypotheses_are_left_alone() -> None:
    statement = "theorem t (a : ℚ) (h : a = 4) : a + 4 = 9 := by sorry"
    assert edited_statement(statement, Edit(0, 1, "4", "5")) == (
        "theorem t (a : ℚ) (h : a = 4) : a + 5 = 9 := by sorry")


ROWS = [
    # The bump 8 → 9 breaks the claim: 7 + 1 = 9 is not provable, the case stands…
    {"problem_id": "p1", "node_id": "1", "step": "So: 7 + 1 = 8", "perturbed": "So: 7 + 1 = 9"},
    # …while 3 < 9 → 3 < 10 stays true: the perturbation is ineffective.
    {"problem_id": "p2", "node_id": "1", "step": "So: 3 < 9", "perturbed": "x"},
]


def test_ineffective_bumps_are_excluded_unless_kept(arith: pytest.Pytester) -> None:
    write_suite(arith.path, "demo", ROWS, {"perturber": "bump", "formaliser": "arith",
                                            "prover": "arith"})
    out = arith.path / "r.json"
    result = arith.runpytest("demo", "--afcheck-plugin", "arith", "--afcheck-json", str(out),
                             "-rs")
    result.assert_outcomes(passed=1, skipped=1)
    assert "ineffective perturbation: the same edit applied to AF(x) is still provable: " \
           "theorem t : 3 < 10" in result.stdout.str()
    assert json.loads(out.read_text())["details"]["overall"]["counts"]["excluded"] == 1
    kept = arith.runpytest("demo", "--afcheck-plugin", "arith", "--afcheck-keep-ineffective")
    kept.assert_outcomes(passed=1, failed=1)  # 3 < 10 is provable: silent correction
