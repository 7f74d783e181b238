"""Normal form, free names and capture-avoiding renaming."""

from __future__ import annotations

from afcheck_equivalence.align import alignments
from afcheck_equivalence.normal import normalise

from afcheck.lean import parse_theorem, print_expr
from afcheck.lean.parser import parse_expr
from afcheck.lean.rename import free_names, rename


def shape(text: str) -> tuple[list[tuple[str, str, str]], list[str], str]:
    nf = normalise(parse_theorem(text))
    return ([(b.q, b.name, print_expr(b.type)) for b in nf.prefix],
            [print_expr(p) for p in nf.premises], print_expr(nf.conclusion))


def test_signature_conclusion_binders_premises_and_conjunctions() -> None:
    prefix, premises, conclusion = shape(
        "theorem t (x y : ℝ) (h : x > 0 ∧ y > 0) : ∀ z, z > x → x + y + z > 0")
    assert prefix == [("∀", "x", "ℝ"), ("∀", "y", "ℝ"), ("∀", "z", "ℝ")]
    assert premises == ["x > 0", "y > 0", "z > x"]
    assert conclusion == "x + y + z > 0"


def test_a_shadowing_binder_is_renamed_apart() -> None:
    prefix, premises, conclusion = shape("theorem t (n : ℕ) : Odd n → ∀ n : ℕ, n > 0 → n ≥ 1")
    assert [p[1] for p in prefix] == ["n", "n'"]
    assert premises == ["Odd n", "n' > 0"]
    assert conclusion == "n' ≥ 1"


def test_exists_joins_the_prefix_only_before_premises() -> None:
    assert shape("theorem t : ∃ x : ℕ, x > 2")[0] == [("∃", "x", "ℕ")]
    prefix, premises, conclusion = shape("theorem t (h : (1 : ℕ) = 1) : ∃ x : ℕ, x > 2")
    assert prefix == [] and conclusion == "∃ x : ℕ, x > 2"


def test_function_binders_are_objects_and_props_are_premises() -> None:
    prefix, premises, _ = shape(
        "theorem t (f : ℕ → ℕ) (h₀ : ∀ x, f x = 2 * x) [Fact (1 < 2)] : f 3 = 6")
    assert prefix == [("∀", "f", "ℕ → ℕ")]
    assert premises == ["∀ x, f x = 2 * x", "1 < 2"]


def test_rename_is_simultaneous_and_avoids_capture() -> None:
    assert print_expr(rename(parse_expr("x + y"), {"x": "y", "y": "x"})) == "y + x"
    renamed = rename(parse_expr("∀ y : ℕ, x < y"), {"x": "y"})
    assert free_names(renamed) == {"y", "ℕ"}
    assert print_expr(renamed) == "∀ y' : ℕ, y < y'"


def test_alignments_respect_blocks_types_and_cap() -> None:
    ref = normalise(parse_theorem("theorem a (x y : ℝ) (n : ℕ) : x + y = n"))
    cand = normalise(parse_theorem("theorem b (m : ℕ) (a b : ℝ) : a + b = m"))
    found = alignments(ref, cand, cap=10)
    assert len(found.found) == 2 and not found.capped
    assert all(dict(a)["m"] == "n" for a in found.found)
    assert alignments(ref, cand, cap=1).capped
    other = normalise(parse_theorem("theorem b (m : ℤ) (a b : ℝ) : a + b = m"))
    assert not alignments(ref, other, cap=10).found


def test_dependent_binder_types_follow_their_dependencies() -> None:
    ref = normalise(parse_theorem("theorem a (n : ℕ) (i : Fin n) : i = i"))
    cand = normalise(parse_theorem("theorem b (m : ℕ) (j : Fin m) : j = j"))
    assert alignments(ref, cand, cap=10).found == ((("m", "n"), ("j", "i")),)


def test_a_binder_without_a_type_takes_the_elaborated_one_through_arrows_and_guards() -> None:
    # ``z`` is typed by the elaborator (it meets ``x : ℝ``); ``w`` sits past a binder
    # predicate's guard and an implication, ``k`` after a written binder and its own one.
    prefix, premises, _ = shape(
        "theorem t (x : ℝ) : x > 0 → ∀ z > x, ∀ n : ℕ, ∀ j k, z + k = x + n * j → z > 0")
    assert prefix == [("∀", "x", "ℝ"), ("∀", "z", "ℝ"), ("∀", "n", "ℕ"), ("∀", "j", "ℝ"),
                      ("∀", "k", "ℝ")]
    assert premises == ["x > 0", "z > x", "z + k = x + n * j"]


def test_a_binder_the_elaborator_cannot_type_stays_in_the_conclusion() -> None:
    prefix, _, conclusion = shape("theorem t (f : ℕ → ℕ) : ∀ x, f x = x")
    assert prefix == [("∀", "f", "ℕ → ℕ")]
    assert conclusion == "∀ x, f x = x"


def test_a_statement_whose_types_are_all_written_is_not_elaborated(monkeypatch) -> None:
    # Elaborating a conclusion costs tens of milliseconds when a big operator expands to
    # hundreds of terms; the normal form reads it only for a binder with no written type.
    import afcheck.lean.elaborate as elaborate

    def refuse(*args: object) -> object:
        raise AssertionError("elaborated a statement that needs no inferred type")

    monkeypatch.setattr(elaborate, "elaborate", refuse)
    prefix, premises, conclusion = shape(
        "theorem t (x : ℝ) (h : x > 0) : ∀ y : ℝ, y > x → "
        "∏ k in Finset.Icc (1 : ℕ) 501, ((4 : ℝ) * k + 4) / (4 * k) = 502")
    assert prefix == [("∀", "x", "ℝ"), ("∀", "y", "ℝ")]
    assert premises == ["x > 0", "y > x"]
    assert conclusion.startswith("∏ k in Finset.Icc")


# --- what Lean identifies ---------------------------------------------------------------------
def test_an_instance_binder_of_a_proposition_is_the_premise_a_named_one_is() -> None:
    inst = shape("theorem t {G : Type*} [Group G] [IsSolvable G] [Fact (1 < Nat.card G)] : True")
    named = shape("theorem t {G : Type*} [Group G] (hG : IsSolvable G) "
                  "(h : Fact (1 < Nat.card G)) : True")
    assert inst == named
    assert inst[1] == ["IsSolvable G", "1 < Nat.card G"]
    assert ("inst", "", "Group G") in inst[0]  # a structure instance stays in the prefix


def test_a_named_hypothesis_nothing_uses_is_the_anonymous_arrow() -> None:
    top = "{X Y : Type*} [TopologicalSpace X] [TopologicalSpace Y] (p : X → Y)"
    named = shape(f"theorem t {top} (hq : QuotientMap p) : Continuous p")
    arrow = shape(f"theorem t {top} : QuotientMap p → Continuous p")
    named_arrow = shape(f"theorem t {top} : (hq : QuotientMap p) → Continuous p")
    assert named == arrow == named_arrow
    assert named[1] == ["QuotientMap p"]


def test_a_binder_of_an_object_type_stays_in_the_prefix_even_unused() -> None:
    prefix, premises, _ = shape("theorem t {G : Type*} [Group G] (x : ℝ) (s : Set ℝ) "
                                "(H : Subgroup G) : True")
    assert [p[1] for p in prefix if p[0] == "∀"] == ["G", "x", "s", "H"] and premises == []


def test_a_used_named_arrow_is_a_binder() -> None:
    prefix, premises, conclusion = shape("theorem t : (n : ℕ) → n + 0 = n")
    assert prefix == [("∀", "n", "ℕ")] and conclusion == "n + 0 = n"


def test_not_exists_is_forall_not_and_not_forall_is_exists_not() -> None:
    """Mathlib's not_exists and not_forall, at the root of the conclusion."""
    assert shape("theorem t : ¬ ∃ x : ℚ, x ^ 2 = 2") == shape("theorem t : ∀ x : ℚ, ¬ x ^ 2 = 2")
    assert shape("theorem t : ¬ ∀ n : ℕ, n < 5") == shape("theorem t : ∃ n : ℕ, ¬ n < 5")
    bounded = shape("theorem t (y : ℝ) : ¬ ∃ x > y, x < y")  # the type of x is inferred
    assert bounded == ([("∀", "y", "ℝ"), ("∀", "x", "ℝ")], ["x > y"], "¬x < y")


def test_not_forall_is_not_moved_past_a_premise() -> None:
    """``P → ¬ ∀ x, Q`` keeps its ``∃``-to-be in the conclusion, as a leading ``∃`` would."""
    prefix, premises, conclusion = shape("theorem t (h : (1 : ℕ) = 1) : ¬ ∀ n : ℕ, n < 5")
    assert prefix == [] and conclusion.startswith(("¬", "∃"))


def test_a_universe_variable_of_one_binder_is_type_star() -> None:
    assert shape("theorem t.{u} {α : Type u} (s : Set α) : s ⊆ s") == shape(
        "theorem t {α : Type*} (s : Set α) : s ⊆ s")
    shared = shape("theorem t.{u} {α : Type u} {β : Type u} (f : α → β) : True")
    assert ("∀", "α", "Type u") in shared[0]  # one universe for both: not two fresh ones


def test_free_names_and_renaming_skip_names_bound_inside_unread_text() -> None:
    builder = parse_expr("Subgroup.closure {x : G | x ^ 2 = y}")
    assert free_names(builder) >= {"G", "y"} and "x" not in free_names(builder)
    assert print_expr(rename(builder, {"x": "a", "y": "b"})) == \
        "Subgroup.closure {x : G | x ^ 2 = b}"
    # a new name that a binder of the text would capture renames that binder apart
    assert print_expr(rename(builder, {"y": "x"})) == "Subgroup.closure {x' : G | x' ^ 2 = x}"


def test_a_dotted_name_on_a_local_follows_the_local() -> None:
    """``s.Nonempty`` is field notation on the binder ``s``: renaming ``s`` renames it."""
    assert free_names(parse_expr("s.Nonempty")) >= {"s"}
    assert print_expr(rename(parse_expr("s.Nonempty ∧ t.card = 2"), {"s": "t", "t": "s"})) \
        == "t.Nonempty ∧ s.card = 2"


def test_a_statement_compared_with_itself_aligns_when_a_type_binds_the_binder_name() -> None:
    nf = normalise(parse_theorem(
        "theorem t {G : Type*} [Group G] : ∀ x y : Subgroup.closure {x : G | x ^ 2 = 1}, "
        "x * y = y * x"))
    assert alignments(nf, nf, 8).found
