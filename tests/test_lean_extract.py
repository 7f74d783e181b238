"""Extraction of theorem statements from raw model output."""

from __future__ import annotations

import pytest

from afcheck.lean import ExtractionError, extract_statement


def test_last_fenced_block_with_a_theorem_wins() -> None:
    text = (
        "First try:\n```lean\ntheorem a : 1 = 1 := by rfl\n```\n"
        "Better:\n```lean4\nimport Mathlib\nopen Real\n"
        "def f (x : ℕ) : ℕ := x + 1\n"
        "theorem b (x : ℕ)\n    (h : x = 3) :\n    x - 5 = 0 := by\n  omega\n```\n"
        "```\nno theorem here\n```"
    )
    got = extract_statement(text)
    assert got.name == "b"
    assert got.keyword == "theorem"
    assert got.statement == "theorem b (x : ℕ)\n    (h : x = 3) :\n    x - 5 = 0 := by sorry"
    assert got.header == "import Mathlib\nopen Real"
    assert got.auxiliary == ("def f (x : ℕ) : ℕ := x + 1",)


@pytest.mark.parametrize(
    ("text", "statement"),
    [
        ("theorem t : (48 : ℚ) / 2 = 24 := by sorry", "theorem t : (48 : ℚ) / 2 = 24 := by sorry"),
        ("example : 1 = 1 := rfl", "example : 1 = 1 := by sorry"),
        ("lemma l (a : ℕ) : a = a := sorry", "lemma l (a : ℕ) : a = a := by sorry"),
        ("theorem t (a : ℕ) : a = a := by\n", "theorem t (a : ℕ) : a = a := by sorry"),
        ("theorem t (a : ℕ) : a = a", "theorem t (a : ℕ) : a = a := by sorry"),
        (
            "theorem t (mon : ℕ := 2) (h : mon = 2) : mon + 1 = 3 := by simp [h]",
            "theorem t (mon : ℕ := 2) (h : mon = 2) : mon + 1 = 3 := by sorry",
        ),
        ("The answer: theorem x : 2 = 2 := by rfl", "theorem x : 2 = 2 := by sorry"),
        (
            "-- a comment\n/- block := -/ theorem c : (1 : ℝ) < 2 := by norm_num",
            "theorem c : (1 : ℝ) < 2 := by sorry",
        ),
    ],
)
def test_proof_is_replaced_by_sorry(text: str, statement: str) -> None:
    assert extract_statement(text).statement == statement


def test_example_has_empty_name() -> None:
    assert extract_statement("example : 1 = 1 := by rfl").name == ""


@pytest.mark.parametrize("text", ["", "just prose", "def f := 1", "```lean\nopen Real\n```"])
def test_nothing_extractable_raises_one_line(text: str) -> None:
    with pytest.raises(ExtractionError) as info:
        extract_statement(text)
    assert "\n" not in str(info.value)
