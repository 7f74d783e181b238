"""The ineffective-perturbation finder: the perturber's edit applied to AF(x)."""

from __future__ import annotations

import json

import pytest
from conftest import write_suite

from afcheck.screen import edited_statement
from afcheck.types import Edit


def test_a_numeral_edit_lands_on_its_one_occurrence() -> None:
    statement = "theorem t (x : ℚ) (h : x = 17) : (17 : ℚ) + 3 = 20 := by sorry"
    assert edited_statement(statement, Edit(0, 2, "20", "23")) == (
        "theorem t (x : ℚ) (h : x = 17) : (17 : ℚ) + 3 = 23 := by sorry")


def test_an_operator_edit_is_translated_to_lean() -> None:
    statement = "theorem t : (6 : ℚ) * 4 = 24 := by sorry"
    assert edited_statement(statement, Edit(0, 6, "\\times", "\\div")) == (
        "theorem t : (6 : ℚ) / 4 = 24 := by sorry")


@pytest.mark.parametrize("statement, edit", [
    ("theorem t : (2 : ℚ) + 2 = 4 := by sorry", Edit(0, 1, "2", "3")),  # two places
    ("theorem t : (12 : ℚ) + 1 = 13 := by sorry", Edit(0, 1, "2", "3")),  # only inside 12
    ("theorem t : (5 : ℚ) = 5 := by sorry", Edit(0, 3, "not", "")),  # not a token
    ("theorem t : (1.5 : ℚ) * 2 = 3 := by sorry", Edit(0, 1, "5", "6")),  # inside a decimal
    ("theorem t : True := by sorry", None),
])
def test_ambiguous_or_absent_edits_are_not_tried(statement: str, edit: Edit | None) -> None:
    assert edited_statement(statement, edit) is None


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
    assert json.loads(out.read_text())["metrics"]["overall"]["counts"]["excluded"] == 1
    kept = arith.runpytest("demo", "--afcheck-plugin", "arith", "--afcheck-keep-ineffective")
    kept.assert_outcomes(passed=1, failed=1)  # 3 < 10 is provable: silent correction
