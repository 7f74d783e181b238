"""Complete honest Lean files written in unusual but ordinary styles: every one must be accepted.

The counterpart of :mod:`redteam.mechanisms`: a rule strict enough to stop the cheats must not
stop these (``calc`` chains, ``show … from``, ``decide``, ``omega``, ``nlinarith [...]``,
anonymous constructors, ``<;>``, nested ``have``, focus dots, ``case`` tags, multi-line terms,
the words sorry and admit in comments and strings, doc comments, helper lemmas).
"""

from __future__ import annotations

from redteam.mechanisms import HEADER

HONEST_FILES: tuple[tuple[str, str], ...] = (
    ("calc", HEADER + "theorem t (a b c : ℝ) (h₁ : a = b) (h₂ : b = c) : a = c := by\n"
     "  calc a = b := h₁\n    _ = c := by rw [h₂]\n"),
    ("calc-term", HEADER + "theorem t (a b : ℕ) (h : a = b) : a + 0 = b :=\n"
     "  calc a + 0 = a := by simp\n  _ = b := h\n"),
    ("show-from", HEADER + "theorem t (p q : Prop) (hp : p) (hq : q) : p ∧ q :=\n"
     "  show p ∧ q from ⟨hp, hq⟩\n"),
    ("decide", HEADER + "theorem t : (7 : ℕ) ∣ 49 := by decide\n"),
    ("omega-nested-have", HEADER + "theorem t (n : ℕ) (h : n % 4 = 3) : n % 2 = 1 := by\n"
     "  have h₁ : n % 4 % 2 = n % 2 := by\n    have h₂ : 2 ∣ 4 := by norm_num\n"
     "    exact Nat.mod_mod_of_dvd n h₂\n  omega\n"),
    ("nlinarith-hints", HEADER + "theorem t (a b : ℝ) : 2 * a * b ≤ a ^ 2 + b ^ 2 := by\n"
     "  nlinarith [sq_nonneg (a - b), sq_nonneg (a + b),\n    mul_self_nonneg (a - b)]\n"),
    ("anonymous-constructor", HEADER + "theorem t : ∃ n : ℕ, n * n = 49 ∧ 0 < n :=\n"
     "  ⟨7, by norm_num, by norm_num⟩\n"),
    ("focus-dots-and-all-goals", HEADER + "theorem t (x : ℝ) (h : 0 < x) : 0 < x ∧ 0 ≤ x := by\n"
     "  constructor\n  · exact h\n  · linarith\n"),
    ("semicolon-combinator", HEADER + "theorem t (x : ℕ) : x + 0 = x ∧ 0 + x = x := by\n"
     "  constructor <;> simp\n"),
    ("case-tags", HEADER + "theorem t (n : ℕ) : 0 + n = n := by\n  induction n with\n"
     "  | zero => rfl\n  | succ k ih =>\n    rw [Nat.add_succ, ih]\n"),
    ("case-keyword", HEADER + "theorem t (p q : Prop) (hp : p) (hq : q) : p ∧ q := by\n"
     "  constructor\n  case left => exact hp\n  case right => exact hq\n"),
    ("sorry-in-comments-and-strings", HEADER +
     "/-- No `sorry`, no `admit`: the proof is complete. -/\n"
     "theorem t : \"sorry admit\".length = 11 := by\n"
     "  -- sorry is a word here; admit too\n  /- a sorry in a /- nested -/ block -/\n"
     "  decide\n"),
    ("rcases-patterns", HEADER + "theorem t (p q : Prop) (h : p ∧ q ∨ q ∧ p) : q := by\n"
     "  rcases h with ⟨_, hq⟩ | ⟨hq, _⟩\n  · exact hq\n  · exact hq\n"),
    ("obtain-multiline", HEADER + "theorem t (h : ∃ n : ℕ, 3 < n) : ∃ m : ℕ, 2 < m := by\n"
     "  obtain ⟨n, hn⟩ :=\n    h\n  exact\n    ⟨n, by omega⟩\n"),
    ("application-over-lines", HEADER + "theorem t (a b : ℝ) (ha : 0 < a) (hb : 0 < b) : "
     "0 < a * b := by\n  exact mul_pos\n    ha hb\n"),
    ("fun-pattern", HEADER + "theorem t : ∀ p : ℕ × ℕ, p.1 + p.2 = p.2 + p.1 :=\n"
     "  fun ⟨a, b⟩ => by simp [Nat.add_comm]\n"),
    ("helper-lemma-then-theorem", HEADER +
     "/-- a helper -/\nlemma helper (x : ℝ) : 0 ≤ x ^ 2 := by positivity\n\n"
     "/-- the theorem -/\n@[simp] theorem t (y : ℝ) : 0 ≤ y ^ 2 + 1 := by\n"
     "  have := helper y\n  linarith\n"),
    ("guillemet-hypothesis", HEADER + "theorem t («my h» : (1 : ℕ) = 1) : (1 : ℕ) = 1 := "
     "«my h»\n"),
    ("header-definitions", HEADER +
     "/-- the sequence of the problem -/\ndef seq : ℕ → ℤ\n  | 0 => 1\n  | n + 1 => 2 * seq n\n\n"
     "structure Pt where\n  x : ℝ\n  y : ℝ\n\n"
     "noncomputable def f (x : ℝ) : ℝ :=\n  x ^ 2\n    + 1\n\n"
     "theorem t : seq 1 = 2 := by\n  simp [seq]\n"),
    ("multi-line-signature", HEADER +
     "theorem t (f : ℕ → ℕ) (h₀ : ∀ n, f n = n + 1)\n    (h₁ : f 1 = 2) :\n"
     "    f 2 = 3 := by\n  rw [h₀]\n"),
    ("module-doc-in-header", "import Mathlib\n\n/-! # The problem\nno sorry here -/\n\n"
     "open Real\n\ntheorem t : (2 : ℝ) + 2 = 4 := by norm_num\n"),
    ("set-option-in", HEADER + "theorem t : (2 : ℕ) ^ 10 = 1024 := by\n"
     "  set_option maxRecDepth 10000 in\n  norm_num\n"),
    ("body-on-theorem-line", HEADER + "theorem t (a : ℕ) : a + 0 = a := by simp\n"),
    ("interval-cases-and-first", HEADER + "theorem t (n : ℕ) (h : n < 3) : n ^ 2 < 9 := by\n"
     "  interval_cases n <;> first | norm_num | omega\n"),
    # The shapes Lean reads as one declaration, or as scopes around it.
    ("set-option-in-theorem-line", HEADER + "set_option maxRecDepth 10000 in theorem t : "
     "(2 : ℕ) ^ 10 = 1024 := by\n  norm_num\n"),
    ("open-in-theorem-line", HEADER + "open Finset in theorem t : ∑ i in range 4, i = 6 := by\n"
     "  decide\n"),
    ("namespace-around-theorem", HEADER + "namespace Problem\n\n"
     "theorem t (a b : ℝ) (h : a = b) : a + 1 = b + 1 := by\n  rw [h]\n\nend Problem\n"),
    ("local-notation-in-helper", HEADER + "section golden\n\n"
     "local notation \"gold\" => (1 + √5) / 2\n\n"
     "lemma gold_sq : gold ^ 2 = gold + 1 := by\n"
     "  nlinarith [Real.sq_sqrt (show (0 : ℝ) ≤ 5 by norm_num)]\n\nend golden\n\n"
     "theorem t : ((1 + √5) / 2) ^ 2 = (1 + √5) / 2 + 1 := gold_sq\n"),
    ("sections-and-namespaces", HEADER + "namespace A\nsection\n"
     "theorem t₁ (n : ℕ) : n + 0 = n := by simp\nend\nend A\n\nnamespace B\n"
     "theorem t₂ (n : ℕ) : 0 + n = n := by simp\nend B\n"),
    ("noncomputable-section", HEADER + "noncomputable section\n\nopen Real\n\n"
     "theorem t : Real.sqrt 4 = 2 := by\n  rw [show (4 : ℝ) = 2 ^ 2 by norm_num]\n"
     "  exact Real.sqrt_sq (by norm_num)\n\nend\n"),
    ("private-nonrec-helper", HEADER + "private nonrec theorem aux (x : ℝ) : 0 ≤ x ^ 2 := by\n"
     "  positivity\n\ntheorem t (y : ℝ) : 0 ≤ y ^ 2 + 1 := by\n  have := aux y\n  linarith\n"),
    ("literal-configurations", HEADER + "theorem t (x : ℕ) (h : x = 2) : x + x = 4 := by\n"
     "  simp (config := { decide := true }) only [h]\n"),
    ("omega-and-decide-configs", HEADER + "theorem t (n : ℕ) (h : n % 2 = 1) : n ≠ 0 := by\n"
     "  omega (config := { splitDisjunctions := true })\n"),
    ("radix-and-scientific-numerals", HEADER + "theorem t : (0x10 : ℕ) + 0b11 + 0o7 = 26 ∧ "
     "(1.5e1 : ℝ) = 15 := by\n  norm_num\n"),
    ("greek-binders", HEADER + "theorem t (α ε : ℝ) (hα : 0 < α) (hε : 0 < ε) : "
     "0 < α * ε := by\n  positivity\n"),
    ("namespaced-helpers", HEADER + "namespace Problem\n\ndef f (x : ℝ) : ℝ := x ^ 2\n\n"
     "structure Pt where\n  x : ℝ\n\ndef Pt.sq (p : Pt) : ℝ := f p.x\n\n"
     "theorem t : Pt.sq ⟨3⟩ = 9 := by\n  norm_num [Pt.sq, f]\n\nend Problem\n"),
)
