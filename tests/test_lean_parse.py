"""Parser, printer and negation of Lean statements."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from afcheck.lean import ParseError, negate, parse_expr, parse_theorem, print_expr, print_theorem
from afcheck.lean.ast import (
    App,
    Ascription,
    Binder,
    BinOp,
    Coe,
    Notation,
    Num,
    Paren,
    Quant,
    UnOp,
    Var,
)

STATEMENTS = [
    "theorem step : (48 : ℚ) / 2 = 24 := by sorry",
    "theorem step (clips_april : ℚ) (h₀ : clips_april = 48 / 2) :\n"
    "  clips_april + 48 = 72 := by sorry",
    "theorem step : (5 : ℚ) + 3 = 8 ∧ (8 : ℚ) * 2 = 16 := by sorry",
    "theorem step : Real.sqrt 16 = (4 : ℝ) := by sorry",
    "theorem step : (0.25 : ℚ) * 80 = 20 := by sorry",
    "theorem ex (a b : ℝ) (ha : 0 < a) (hb : 0 < b) : a + b ≥ 2 * Real.sqrt (a * b) := by sorry",
    "theorem x (mon := 2) {n : ℕ} [Fact (1 < n)] (y : ℝ := 2.5) : n ! ≥ mon := by sorry",
    "theorem q : ∀ x > 0, ∃! y : ℕ, x = y ^ 2 ∨ ¬x ∣ 4 ↔ x ≠ 3 → x ≤ 9 := by sorry",
    "theorem c (n : ℕ) : ((n : ℕ) : ℝ) ≥ 0 ∧ ↑n + (1 : ℝ) > 0 ∧ |(-3 : ℤ)| = 3 := by sorry",
    "theorem f : ⌊(3.5 : ℝ)⌋ = 3 ∧ ⌈(1e-3 : ℝ)⌉ = 1 ∧ √4 = 2 := by sorry",
    "theorem s : ∑ i in Finset.range 4, (i + 1) = 10 ∧ Nat.choose 5 2 = 10 := by sorry",
    "theorem m : min 3 4 = max 2 3 ∧ Int.floor (2.5 : ℝ) = 2 ∧ -(2 : ℤ) ^ 2 = -4 := by sorry",
    "theorem o (S : Finset ℕ) (h : ∀ n : ℕ, n ∈ S ↔ 0 < n) :\n"
    "  S.card = {x : ℕ | x < 3}.ncard := by sorry",
    "theorem l (f : ℕ → ℕ) (h : ∀ x, f x = (fun y => y + 1) x) : f 2 = 3 := by sorry",
]


@pytest.mark.parametrize("text", STATEMENTS)
def test_print_then_parse_gives_the_same_tree(text: str) -> None:
    theorem = parse_theorem(text)
    assert parse_theorem(print_theorem(theorem)) == theorem


@pytest.mark.parametrize("text", STATEMENTS)
def test_negation_prints_and_reparses(text: str) -> None:
    negated = negate(parse_theorem(text))
    assert parse_theorem(print_theorem(negated)) == negated


def test_ascii_and_unicode_spellings_agree() -> None:
    ascii_text = (
        "theorem t (x : Nat) : forall y : Nat, x <= y /\\ y != 0 -> Not (x >= y) := by sorry"
    )
    unicode = "theorem t (x : Nat) : ∀ y : Nat, x ≤ y ∧ y ≠ 0 → ¬(x ≥ y) := by sorry"
    assert parse_theorem(ascii_text) == parse_theorem(unicode)


def test_lean_precedences() -> None:
    conclusion = parse_theorem("theorem t : -x ^ 2 + 1 * 2 = 3 ∧ a ∨ b → c := by sorry").conclusion
    neg_square = UnOp("-", BinOp("^", Var("x"), Num("2")))
    lhs = BinOp("+", neg_square, BinOp("*", Num("1"), Num("2")))
    relation = BinOp("=", lhs, Num("3"))
    assert conclusion == BinOp("→", BinOp("∨", BinOp("∧", relation, Var("a")), Var("b")), Var("c"))


def test_binder_kinds_and_defaults() -> None:
    theorem = parse_theorem(
        "theorem t (a b : ℕ) {c : ℤ} [Fact (1 < 2)] (m := 2) : a = b := by sorry"
    )
    kinds = [(b.name, b.kind) for b in theorem.binders]
    assert kinds == [
        ("a", "explicit"),
        ("b", "explicit"),
        ("c", "implicit"),
        ("", "instance"),
        ("m", "explicit"),
    ]
    assert theorem.binders[-1] == Binder("m", None, "explicit", Num("2"))


def test_casts_and_functions() -> None:
    conclusion = parse_theorem("theorem t : ((n : ℕ) : ℝ) = ↑n ∧ √x = |y| := by sorry").conclusion
    cast = Ascription(Ascription(Var("n"), Var("ℕ")), Var("ℝ"))
    right = BinOp("=", App("Real.sqrt", (Var("x"),), "sqrt"), App("abs", (Var("y"),), "abs"))
    assert conclusion == BinOp("∧", BinOp("=", cast, Coe(Var("n"))), right)


def test_negation_of_parameters_quantifies_them() -> None:
    negated = negate(parse_theorem("theorem t (x : ℕ) (h : x = 3) : x - 5 = 0 := by sorry"))
    assert print_theorem(negated) == (
        "theorem t_neg : ¬(∀ (x : ℕ) (h : x = 3), x - 5 = 0) := by sorry"
    )


def test_negation_without_parameters_negates_the_body() -> None:
    negated = negate(parse_theorem("theorem t : (7 : ℕ) / 2 = 3 := by sorry"))
    assert print_theorem(negated) == "theorem t_neg : ¬(7 : ℕ) / 2 = 3 := by sorry"


def test_negation_of_opt_param_ranges_over_all_values() -> None:
    negated = negate(parse_theorem("theorem t (mon := 2) {k : ℕ} : mon = k := by sorry"))
    body = negated.conclusion
    assert isinstance(body, UnOp) and isinstance(body.operand, Quant)
    assert body.operand.binders[0] == Binder("mon", Var("ℕ"), "explicit", None)
    assert body.operand.binders[1].kind == "implicit"


@pytest.mark.parametrize(
    ("text", "column"),
    [("theorem t : (1 + = 2 := by sorry", 13), ("theorem t (x : ℕ : x = 1 := by sorry", 18)],
)
def test_parse_error_has_position(text: str, column: int) -> None:
    with pytest.raises(ParseError) as info:
        parse_theorem(text)
    assert info.value.line == 1
    assert info.value.column == column


_atoms = st.sampled_from(["x", "y", "2", "0.5", "(3 : ℝ)", "↑n", "|x|", "Real.sqrt x", "n !"])


@st.composite
def _expressions(draw: st.DrawFn, depth: int = 3) -> str:
    if depth == 0 or draw(st.booleans()):
        return draw(_atoms)
    op = draw(st.sampled_from(["+", "-", "*", "/", "%", "^", "neg", "paren"]))
    left = draw(_expressions(depth - 1))
    if op == "neg":
        return f"-{left}"
    if op == "paren":
        return f"({left})"
    return f"{left} {op} {draw(_expressions(depth - 1))}"


@given(_expressions(), _expressions(), st.sampled_from(["=", "<", "≤", "≠", "∣"]))
def test_round_trip_on_generated_statements(left: str, right: str, rel: str) -> None:
    theorem = parse_theorem(f"theorem g (x y : ℝ) (n : ℕ) : {left} {rel} {right} := by sorry")
    assert parse_theorem(print_theorem(theorem)) == theorem


def test_size_limits_are_parse_errors_not_recursion_errors() -> None:
    from afcheck.lean.parser import MAX_DEPTH, MAX_NESTING, TooLarge

    assert MAX_NESTING >= 100 and MAX_DEPTH >= 500
    fine = "theorem t : " + "(" * 90 + "1" + ")" * 90 + " = 1 := by sorry"
    assert parse_theorem(fine).name == "t"
    assert parse_theorem("theorem t : " + "+".join(["1"] * 400) + " = 400 := by sorry")
    for text in [
        "(" * 10_000 + "1" + ")" * 10_000 + " = 1",
        "+".join(["1"] * 100_000) + " = 1",
        "¬" * 5_000 + "True",
        "-" * 5_000 + "1 = 1",
        "↑" * 5_000 + "x = 1",
        "∀ x, " * 2_000 + "x = x",
        "9" * 4_301 + " = 1",
        "(1e5000 : ℝ) = 1",
    ]:
        with pytest.raises(TooLarge):
            parse_theorem(f"theorem t : {text} := by sorry")
    assert parse_theorem("theorem t : " + "9" * 4_300 + " = 1 := by sorry")


@pytest.mark.parametrize("text", ["(٢ : ℕ) + 2 = 4", "２ + 2 = 4", "𝟐 + 2 = 4", "x٢ = 2",
                                  "x\u00a0= 2", "x\u3164 = 2", "а = 2"])
def test_lean_reads_only_ascii_digits_and_its_own_identifier_characters(text: str) -> None:
    # `Char.isDigit`/`Char.isAlpha` are ASCII in Lean; identifiers add only `isLetterLike` and
    # subscripts; whitespace is space and newline. Anything else is not a Lean token.
    with pytest.raises(ParseError):
        parse_theorem(f"theorem t : {text} := by sorry")


def test_lean_identifier_characters_are_kept() -> None:
    theorem = parse_theorem("theorem t (xᵢ α₁ 𝓝x : ℕ) (hé : xᵢ = 2) : α₁ + xᵢ = 4 := by sorry")
    assert [b.name for b in theorem.binders] == ["xᵢ", "α₁", "𝓝x", "hé"]


def test_written_brackets_are_printed_and_read_back_as_grouping() -> None:
    tree = BinOp("+", Paren(BinOp("+", Num("2"), Num("3"))), Num("4"))
    assert print_expr(tree) == "(2 + 3) + 4"
    assert parse_expr(print_expr(tree)) == BinOp("+", BinOp("+", Num("2"), Num("3")), Num("4"))


# --- Mathlib statements as autoformalisers write them ----------------------------------------
@pytest.mark.parametrize("text", [
    "theorem t {G : Type*} [Group G] (H : Subgroup G) : ∀ a b : G ⧸ H, a * b = b * a",
    "theorem t (X : Type u) (Y : Sort*) (f : X → X) (s : Set X) : f '' s ⊆ f '' sᶜ ∪ s",
    "theorem t {V : Type*} (u v : V) : ⟪u, v⟫_ℂ = 0 ↔ ‖u‖ ≤ ‖u + v‖₊",
    "theorem t {F V : Type*} (T : V →ₗ[F] V) (I J : Ideal F) : I ⊓ J ≤ I ⊔ J ∧ T = T",
    "theorem t (I : Ideal ℤ) : I = ⊥ ∨ I = ⊤ ∨ (∅ : Set ℕ) = ∅",
    "theorem t (n : ℕ+) (x : ℝ≥0) (G H : Type*) (e : G ≃* H) : @card G inst = n",
    "theorem t {ι : Type*} (A : ι → Set ℝ) : (⋃ i, A i) = ⋂ (i : ι), A i ∪ ⋃₀ {A i}",
    "theorem t {f : Fin n → Type*} (y : Π i, f i) : ∀ᶠ x in atTop, ∫ t in (0 : ℝ)..x, t = y",
    "theorem t (G : Type*) [Group G] (hG : IsCyclic $ G ⧸ center G) : ⁅(⊤ : Subgroup G), H⁆ ≤ H",
    "theorem t (a b : ℝ) (h : List.Pairwise (· ≠ ·) [a, b]) : a ≠ b",
])
def test_mathlib_notation_parses_and_round_trips(text: str) -> None:
    theorem = parse_theorem(text + " := by sorry")
    assert parse_theorem(print_theorem(theorem)) == theorem


def test_type_star_is_one_name_and_pi_is_forall() -> None:
    theorem = parse_theorem("theorem t {G : Type*} (y : Π i : G, G) : True := by sorry")
    assert theorem.binders[0].type == Var("Type*")
    assert isinstance(theorem.binders[1].type, Quant) and theorem.binders[1].type.q == "∀"


def test_postfix_marks_bind_to_the_argument_as_in_lean() -> None:
    # Lean reads arguments at precedence 1023, below ⁻¹ and ᶜ (1024) and ! (10000).
    assert parse_expr("f x⁻¹") == App("f", (App("Inv.inv", (Var("x"),), "inv"),))
    assert parse_expr("f sᶜ") == App("f", (Notation("·ᶜ", (Var("s"),)),))
    assert parse_expr("(f s)ᶜ") == Notation("·ᶜ", (App("f", (Var("s"),)),))


def test_bracketed_arrow_keeps_its_ring_as_an_operand() -> None:
    expr = parse_expr("V →ₗ[F] W")
    assert expr == Notation("· →ₗ[·] ·", (Var("V"), Var("F"), Var("W")))
    assert print_expr(expr) == "V →ₗ[F] W"


def test_nat_plus_is_one_token_as_in_lean() -> None:
    assert parse_expr("(n : ℕ+)") == Ascription(Var("n"), Var("ℕ+"))

