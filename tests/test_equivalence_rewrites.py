"""The Mathlib rewrites: each rule, named after the lemma it applies, and where it must not."""

from __future__ import annotations

import pytest
from afcheck_equivalence.rewrites import RULES, rewrite

from afcheck.lean.parser import parse_expr
from afcheck.lean.printer import print_expr

TYPES = {"x": "ℝ", "y": "ℝ", "n": "ℕ", "a": "ℕ", "k": "ℤ", "s": "Set ℝ", "t": "Finset ℕ",
         "z": "ℂ", "w": "ℂ", "M": "Matrix (Fin 2) (Fin 2) ℝ", "N": "Matrix (Fin 2) (Fin 2) ℝ"}


def same(left: str, right: str, types: dict[str, str] = TYPES,
         names: dict[str, str] | None = None) -> tuple[bool, set[str]]:
    ours, our_steps = rewrite(parse_expr(left), types, names)
    theirs, their_steps = rewrite(parse_expr(right), types, names)
    return ours == theirs, {s.lemma for s in (*our_steps, *their_steps)}


@pytest.mark.parametrize(("left", "right", "lemma"), [
    ("f x = g x", "g x = f x", "eq_comm"),
    ("x ≠ y", "y ≠ x", "ne_eq"),
    ("x < 0 ∧ y < 0", "y < 0 ∧ x < 0", "and_comm"),
    ("x < 0 ∨ y < 0 ∨ x = y", "x = y ∨ (y < 0 ∨ x < 0)", "or_comm"),
    ("(x < 0 ↔ y < 0)", "(y < 0 ↔ x < 0)", "iff_comm"),
    ("¬¬ Continuous f", "Continuous f", "not_not"),
])
def test_symmetric_relations_and_commutative_connectives(left: str, right: str,
                                                         lemma: str) -> None:
    equal, lemmas = same(left, right)
    assert equal and lemma in lemmas and lemma in RULES


@pytest.mark.parametrize(("left", "right", "lemma"), [
    ("s ≠ ∅", "s.Nonempty", "Set.nonempty_iff_ne_empty"),
    ("¬ s = ∅", "s.Nonempty", "Set.nonempty_iff_ne_empty"),
    ("Set.Nonempty s", "s.Nonempty", None),
    ("t ≠ ∅", "t.Nonempty", "Finset.nonempty_iff_ne_empty"),
    ("p = Polynomial.C 12", "p = 12", "map_ofNat"),
    ("p = Polynomial.C 0", "p = 0", "map_zero"),
    ("¬ x < y", "y ≤ x", "not_lt"),
    ("¬ n ≤ a", "a < n", "not_le"),
    ("x ∈ Set.Icc 0 1", "0 ≤ x ∧ x ≤ 1", "Set.mem_Icc"),
    ("x ∈ Set.Ioo 0 1", "0 < x ∧ x < 1", "Set.mem_Ioo"),
    ("x ∈ Set.Ici 2", "2 ≤ x", "Set.mem_Ici"),
    ("Even n", "n % 2 = 0", "Nat.even_iff"),
    ("Odd k", "k % 2 = 1", "Int.odd_iff"),
    ("a ∣ n", "n % a = 0", "Nat.dvd_iff_mod_eq_zero"),
    ("f (x + 1) = y", "f (1 + x) = y", "add_comm"),
    ("x * y * 2 = 0", "2 * (y * x) = 0", "mul_comm"),
    ("z * w + 1 = 0", "1 + w * z = 0", "mul_comm"),
])
def test_standard_mathlib_equivalences(left: str, right: str, lemma: str | None) -> None:
    equal, lemmas = same(left, right)
    assert equal
    if lemma is not None:
        assert lemma in lemmas
    assert lemmas <= set(RULES)


@pytest.mark.parametrize(("left", "right", "why"), [
    ("¬ z < w", "w ≤ z", "ℂ is not linearly ordered"),
    ("¬ x < y", "y < x", "not_lt gives ≤, not <"),
    ("¬ f x < y", "y ≤ f x", "f is not known to be numeric"),
    ("u ≠ ∅", "u.Nonempty", "u's type is not known to be a set"),
    ("s = ∅", "s.Nonempty", "= ∅ is the opposite"),
    ("Even x", "x % 2 = 0", "Even on ℝ is not a remainder"),
    ("C 12 = p", "12 = p", "C is not Polynomial.C unless the header opens it"),
    ("x ∈ Set.Icc 0 1", "0 < x ∧ x ≤ 1", "Icc is closed"),
    ("a ∣ n", "a % n = 0", "divisibility is not symmetric"),
    ("f x = g y", "g x = f y", "only the sides are swapped, never their arguments"),
    ("M * N = 0", "N * M = 0", "matrices do not commute"),
    ("n + x = 0", "x + n = 0", "a sum of two types is a cast Lean places, not reordered"),
    ("x - y = 0", "y - x = 0", "subtraction does not commute"),
])
def test_the_rewrites_do_not_apply_where_the_lemma_does_not_hold(left: str, right: str,
                                                                 why: str) -> None:
    assert not same(left, right)[0], why


def test_polynomial_c_under_open_polynomial_is_the_constant() -> None:
    assert same("C 12 = p", "12 = p", names={"C": "Polynomial.C"})[0]


def test_a_binder_inside_the_expression_hides_the_outer_type() -> None:
    """``∀ x : ℂ, ¬ x < y``: the bound ``x`` is not the outer real ``x``."""
    assert not same("∀ x : ℂ, ¬ x < y", "∀ x : ℂ, y ≤ x")[0]


def test_every_step_is_an_instance_its_lemma_names() -> None:
    _, steps = rewrite(parse_expr("¬ x < y ∨ s ≠ ∅"), TYPES)
    claims = {s.lemma: s.claim for s in steps}
    assert claims["not_lt"] == "¬x < y ↔ y ≤ x"
    assert claims["Set.nonempty_iff_ne_empty"] == "s ≠ ∅ ↔ s.Nonempty"
    assert print_expr(rewrite(parse_expr("y ≤ x ∨ s.Nonempty"), TYPES)[0]) == print_expr(
        rewrite(parse_expr("¬ x < y ∨ s ≠ ∅"), TYPES)[0])
