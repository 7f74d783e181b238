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


@pytest.mark.parametrize(
    "text",
    [
        "theorem t : let x := 5; x + 1 = 6 := by sorry",
        "theorem t : let x := 5; x + 1 = 6 := by\n  norm_num",
        "theorem t : (let x := 5; x + 1) = 6 := by decide",
    ],
)
def test_a_let_in_the_statement_keeps_its_own_definition(text: str) -> None:
    statement = extract_statement(text).statement
    assert statement.startswith("theorem t : ") and "x + 1" in statement
    assert statement.endswith("6 := by sorry")


def test_have_in_a_hypothesis_keeps_its_definition() -> None:
    got = extract_statement("theorem t (h : have y := 2; y = 2) : True := trivial")
    assert got.statement == "theorem t (h : have y := 2; y = 2) : True := by sorry"


@pytest.mark.parametrize(
    "trailer",
    ["example : (2 : ℕ) = 2 := rfl", "lemma helper : (1 : ℕ) + 1 = 2 := by norm_num"],
)
def test_a_trailing_example_or_lemma_is_not_the_answer(trailer: str) -> None:
    text = ("```lean4\ntheorem my_favorite_theorem : (3 : ℕ) + 4 = 7 := by\n  norm_num\n\n"
            f"{trailer}\n```")
    for name in (None, "my_favorite_theorem"):
        got = extract_statement(text, name)
        assert got.name == "my_favorite_theorem"
        assert got.statement == "theorem my_favorite_theorem : (3 : ℕ) + 4 = 7 := by sorry"


def test_the_requested_name_wins_over_a_later_theorem() -> None:
    text = ("theorem my_favorite_theorem : (3 : ℕ) + 4 = 7 := by norm_num\n"
            "theorem sanity_check : (1 : ℕ) = 1 := rfl\n")
    assert extract_statement(text, "my_favorite_theorem").name == "my_favorite_theorem"
    assert extract_statement(text).name == "sanity_check"


@pytest.mark.parametrize(
    "text",
    ["For example: 2 + 2 = 4", "For example : 2 + 2 = 4.", "By the theorem above: x = 1",
     "Consider this example: 3 > 2"],
)
def test_prose_mentioning_a_keyword_is_no_statement(text: str) -> None:
    with pytest.raises(ExtractionError):
        extract_statement(text)
