"""Constants of the preamble unfolded into the statement, where Lean would see through them."""

from __future__ import annotations

from afcheck_equivalence.read import read_statement
from afcheck_equivalence.unfold import body_of

from afcheck.lean import print_theorem


def read(text: str) -> tuple[str, tuple[str, ...]]:
    found = read_statement(text)
    return print_theorem(found.theorem), tuple(name for name, _ in found.definitions)


def test_an_abbrev_without_parameters_is_unfolded_and_dropped() -> None:
    theorem, kept = read("abbrev I := Set.Icc (0 : ℝ) 1\n"
                         "theorem t (f : I → ℝ) : ∃ M, ∀ x, f x ≤ M := by sorry")
    assert "(f : Set.Icc (0 : ℝ) 1 → ℝ)" in theorem and kept == ()


def test_a_def_with_a_type_is_unfolded_with_its_type() -> None:
    theorem, kept = read("noncomputable def c : ℝ := 2\n"
                         "theorem t (x : ℝ) (h : x = c) : x ≤ 3 := by sorry")
    assert "x = (2 : ℝ)" in theorem and kept == ()


def test_a_definition_with_parameters_is_kept() -> None:
    theorem, kept = read("def f (n : ℕ) : ℕ := n + 1\ntheorem t : f 1 = 2 := by sorry")
    assert kept == ("f",) and "f 1 = 2" in theorem


def test_a_local_binder_of_the_name_shadows_the_constant() -> None:
    theorem, kept = read("abbrev c : ℕ := 3\ntheorem t (c : ℕ) : c + 0 = c := by sorry")
    assert kept == ("c",) and "c + 0 = c" in theorem


def test_a_constant_another_declaration_uses_stays_in_the_header() -> None:
    _, kept = read("abbrev I := Set.Icc (0 : ℝ) 1\ndef J : Set ℝ := I\n"
                   "theorem t (x : ℝ) (h : x ∈ J) : x ≤ 1 := by sorry")
    assert "I" in kept


def test_the_body_of_a_one_line_constant() -> None:
    found = body_of("abbrev I := Set.Icc 0 1")
    assert found is not None and found[0] == "I"
    assert body_of("def f (x : ℕ) := x") is None
    assert body_of("def broken := (") is None
