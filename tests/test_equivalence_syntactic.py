"""The ``syntactic`` criterion: equality after normalisation, nothing more."""

from __future__ import annotations

import pytest
from afcheck_equivalence.records import Eq, Inconclusive, Noneq, Pair
from afcheck_equivalence.syntactic import Syntactic


def decide(reference: str, candidate: str, header: str = "") -> object:
    return Syntactic().decide([Pair("p", reference, candidate, header)])[0]


@pytest.mark.parametrize(("reference", "candidate"), [
    ("theorem a (x y : ℝ) (h₀ : x ≥ 2) : x + y > 0",
     "theorem b (a : Real) (b : ℝ) (h : 2 <= a) : 0 < (a + b)"),
    ("theorem a : ∀ x y : ℕ, x + y = y + x", "theorem b : ∀ (u : ℕ) (v : ℕ), u + v = v + u"),
    ("theorem a (x : ℝ) : |x| ≥ 0", "theorem b (x : ℝ) : abs x ≥ 0"),
    ("theorem a (x : ℝ) : x ≠ 0 → x ^ 2 > 0", "theorem b {x : ℝ} : x != 0 -> 0 < x ^ 2"),
    ("theorem a : ∀ x > 0, x + 1 > (1 : ℝ)", "theorem b : ∀ y, y > 0 → (1 : ℝ) < y + 1"),
])
def test_spellings_renamings_and_flips_are_eq(reference: str, candidate: str) -> None:
    assert isinstance(decide(reference, candidate), Eq)


def test_open_namespaces_make_short_names_equal() -> None:
    d = decide("theorem a (x : ℝ) : Real.sqrt x ≥ 0", "theorem b (x : ℝ) : sqrt x ≥ 0",
               header="open Real")
    assert isinstance(d, Eq)
    assert isinstance(decide("theorem a (x : ℝ) : Real.sqrt x ≥ 0",
                             "theorem b (x : ℝ) : sqrt x ≥ 0"), Noneq)


@pytest.mark.parametrize(("reference", "candidate"), [
    ("theorem a (x : ℝ) : x ≥ 0", "theorem b (x : ℝ) : x > 0"),
    ("theorem a (x y : ℝ) : x - y = 1", "theorem b (x y : ℝ) : y - x = 1"),
    ("theorem a (x : ℝ) : x = 1", "theorem b (x : ℤ) : x = 1"),
    ("theorem a (x : ℕ) (h : x > 1) : x ≥ 2", "theorem b (x : ℕ) : x > 1 → x ≥ 2"),
])
def test_anything_else_is_noneq(reference: str, candidate: str) -> None:
    assert isinstance(decide(reference, candidate), Noneq)


def test_hypothesis_names_are_renamed_not_dropped() -> None:
    assert isinstance(decide("theorem a (x : ℕ) (h1 : 0 < x) (h2 : x < 5) : f h1 = 0",
                             "theorem b (x : ℕ) (h2 : 0 < x) (h1 : x < 5) : f h1 = 0"), Noneq)
    assert isinstance(decide("theorem a (x : ℕ) (h1 : 0 < x) (h2 : x < 5) : f h1 = 0",
                             "theorem b (y : ℕ) (p : 0 < y) (q : y < 5) : f p = 0"), Eq)


def test_unreadable_statement_is_inconclusive() -> None:
    assert isinstance(decide("theorem a : (", "theorem b : True"), Inconclusive)
