"""Letters that pass for Latin ones, by Unicode's confusables data."""

from __future__ import annotations

import pytest
from afcheck_lean.lookalike import looks_latin


@pytest.mark.parametrize("ch", [
    "α", "τ", "ο", "ν", "Ν", "Ι", "ϲ", "ι", "\u212a", "\U0001d4b6", "а", "ı", "Ｎ",
])
def test_letters_that_pass_for_latin_ones(ch: str) -> None:
    assert looks_latin(ch)


@pytest.mark.parametrize("ch", ["ℕ", "ℝ", "ℤ", "ℚ", "ℂ", "𝔼", "₀", "₁", "ₐ", "λ", "π", "Γ", "a"])
def test_number_sets_subscripts_and_other_letters_do_not(ch: str) -> None:
    assert not looks_latin(ch)
