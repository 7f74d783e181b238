"""Equivalence with z3 under named background theories, and the counter-models it keeps."""

from __future__ import annotations

import pytest
from afcheck_fol.equiv import check
from afcheck_fol.language import FOLIO, TARSKI
from afcheck_fol.syntax import parse
from afcheck_fol.theory import TheoryError, theories, theory_named


def decide(left: str, right: str, theory: str | None = None):  # type: ignore[no-untyped-def]
    return check(parse(left, TARSKI), parse(right, TARSKI), TARSKI, theory)


@pytest.mark.parametrize(
    ("left", "right"),
    [
        ("∀x Cube(x)", "∀w Cube(w)"),
        ("¬∀x Cube(x)", "∃x ¬Cube(x)"),
        ("∀x (Cube(x) → Small(x))", "¬∃y (Cube(y) ∧ ¬Small(y))"),
        ("Cube(a) → Small(a)", "¬Small(a) → ¬Cube(a)"),
        ("∀x (Cube(x) → ∃y LeftOf(y, x))", "∀x ∃y (Cube(x) → LeftOf(y, x))"),
    ],
)
def test_pure_logic_equivalences_are_decided_without_a_theory(left: str, right: str) -> None:
    verdict = decide(left, right)
    assert (verdict.equivalent, verdict.theory) == (True, "none")


@pytest.mark.parametrize(
    ("left", "right", "theory"),
    [
        ("Smaller(a, b)", "Larger(b, a)", "converse"),
        ("Between(a, b, c)", "Between(a, c, b)", "converse"),
        ("Cube(a)", "¬Tet(a) ∧ ¬Dodec(a)", "shapes"),
        # The Grade Grinder accepts this one for "a is left or right of d only if it is a cube".
        ("(LeftOf(a, d) ∨ RightOf(a, d)) → Cube(a)", "¬SameCol(d, a) → Cube(a)", "analytic"),
        ("∃x Larger(x, x)", "⊥", "analytic"),
        ("Adjoins(a, b)", "Adjoins(a, b) ∧ ¬(SameRow(a, b) ∧ SameCol(a, b))", "analytic"),
    ],
)
def test_analytic_equivalences_name_the_theory_that_decided(
    left: str, right: str, theory: str
) -> None:
    assert decide(left, right, "none").equivalent is False
    verdict = decide(left, right, theory)
    assert (verdict.equivalent, verdict.theory) == (True, theory)
    assert decide(left, right).equivalent is True  # the language's default is the strongest


def test_forall_exists_swap_is_refuted_by_finite_model_search() -> None:
    verdict = decide("∀x ∃y Larger(y, x)", "∃y ∀x Larger(y, x)", "none")
    assert verdict.equivalent is False
    assert verdict.how.startswith("finite-model search")
    assert verdict.model is not None and len(verdict.model.domain) == 2
    # On Tarski's boards both are false in every world: the largest block has nothing larger.
    assert decide("∀x ∃y Larger(y, x)", "∃y ∀x Larger(y, x)").equivalent is True


def test_counter_model_is_a_world_where_exactly_one_holds() -> None:
    verdict = decide("∀x (Cube(x) → Small(x))", "∀x (Small(x) → Cube(x))")
    assert verdict.equivalent is False and verdict.model is not None
    model = verdict.model
    cubes = {row[0] for row in model.relations["Cube"]}
    smalls = {row[0] for row in model.relations["Small"]}
    left_holds = cubes <= smalls
    right_holds = smalls <= cubes
    assert left_holds != right_holds
    assert model.holds == ("left" if left_holds else "right")
    assert model.blocks is not None
    picture = model.render()
    assert "row 0 at the back" in picture and len(picture.splitlines()) >= 10


def test_names_need_not_denote_distinct_blocks() -> None:
    verdict = decide("Cube(a)", "Cube(b)")
    assert verdict.equivalent is False and verdict.model is not None
    assert verdict.model.constants["a"] != verdict.model.constants["b"]
    assert decide("a = b", "b = a").equivalent is True


def test_undecided_is_never_read_as_not_equivalent() -> None:
    # Strict order with no maximum: only infinite models separate these, so z3 cannot decide.
    no_maximum = (
        "(∀x ∀y ∀z ((Larger(x, y) ∧ Larger(y, z)) → Larger(x, z)) ∧ ∀x ¬Larger(x, x) "
        "∧ ∀x ∃y Larger(y, x)) → ⊥"
    )
    verdict = check(parse(no_maximum, TARSKI), parse("¬⊥", TARSKI), TARSKI, "none",
                    rlimit=200_000)
    assert verdict.equivalent is None
    assert verdict.model is None and verdict.how.startswith("undecided")


def test_folio_uses_pure_logic() -> None:
    left = parse("∀x (P(x) ⊕ Q(x))", FOLIO)
    right = parse("∀x ((P(x) ∨ Q(x)) ∧ ¬(P(x) ∧ Q(x)))", FOLIO)
    verdict = check(left, right, FOLIO)
    assert (verdict.equivalent, verdict.theory) == (True, "none")
    rendered = check(parse("P(rina)", FOLIO), parse("Q(rina)", FOLIO), FOLIO).model
    assert rendered is not None and "rina = " in rendered.render()


def test_theories_are_named_and_checked() -> None:
    assert list(theories(TARSKI)) == ["none", "converse", "shapes", "analytic"]
    assert theory_named(TARSKI, None).name == "analytic"
    assert len(theory_named(TARSKI, "shapes").axioms) > len(theory_named(TARSKI, "converse").axioms)
    with pytest.raises(TheoryError, match="known: none"):
        theory_named(FOLIO, "analytic")


def test_a_predicate_at_two_arities_is_two_relations_in_the_counter_model() -> None:
    # A model writes Deposit(x) where the gold writes Deposit(x, y): two unrelated predicates,
    # and the counter-model shows each with its own tuples.
    left = parse("∀x (Rent(x) → Deposit(x))", FOLIO)
    right = parse("∀x ∀y (Rent(x) → Deposit(x, y))", FOLIO)
    verdict = check(left, right, FOLIO)
    assert verdict.equivalent is False and verdict.model is not None
    relations = verdict.model.relations
    assert set(relations) == {"Rent", "Deposit/1", "Deposit/2"}
    assert all(len(row) == 1 for row in relations["Deposit/1"])
    assert all(len(row) == 2 for row in relations["Deposit/2"])
    shown = verdict.model.render()
    assert "Deposit/1:" in shown and "Deposit/2:" in shown


def test_the_expansion_is_counted_without_building_it_and_stops_at_the_cap() -> None:
    from afcheck_fol.equiv import expansion_size

    formula = parse("∀x ∃y (Larger(x, y) ∧ Cube(x))", TARSKI)
    # ∧ over two atoms: 3 nodes; ∃ over 3 elements: 3·3 + 1; ∀: 10·3 + 1
    assert expansion_size(formula, 3) == 31
    assert expansion_size(formula, 1) == 5
    deep = parse("∀x ∃y " * 95 + "Larger(x, y)", TARSKI)
    assert expansion_size(deep, 2, cap=1000) > 1000  # 2^190 is never reached


def test_a_search_budget_stops_the_finite_model_search_and_z3_still_decides() -> None:
    from afcheck.budget import Budget

    left, right = parse("∀x ∃y Larger(x, y)", TARSKI), parse("∃y ∀x Larger(x, y)", TARSKI)
    small = check(left, right, TARSKI, "none", search=Budget(size=5, unit="nodes"))
    assert small.steps[1] == "none, domain of 1: unsat"  # 3 nodes: within the budget
    assert small.steps[2] == ("none, domain of 2: not tried (over budget: finite-model search "
                              "on over 5 nodes (limit 5))")
    full = check(left, right, TARSKI, "none")
    assert full.equivalent is False and full.how.startswith("finite-model search")


def test_a_verdict_and_its_counter_model_do_not_depend_on_earlier_checks() -> None:
    # Calls inside one scope share a z3 context; each check opens its own, so what was built
    # before (other pairs, the same pair) cannot change what z3 answers for this pair. In a
    # context kept across checks the second counter-model here differs from the first.
    pair = ("SameCol(b, f)", "SameRow(b, f)")
    first = decide(*pair).to_json()
    for left, right in [("Cube(a)", "Tet(a)"), ("∃x Small(x)", "∀x Small(x)")]:
        decide(left, right)
    again = decide(*pair).to_json()
    assert first["equivalent"] is False and first["counter_model"] is not None
    assert again == first


def test_a_pair_proved_in_the_kept_context_costs_no_context_of_its_own(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # The quick call's unsat or sat is right whatever context found it, and no counter-model
    # comes from the kept context: the verdicts are those of a new context for each quick call.
    import afcheck_fol.equiv as equiv
    import z3

    pairs = [("∀x (Cube(x) → Small(x))", "¬∃y (Cube(y) ∧ ¬Small(y))"),
             ("SameCol(b, f)", "SameRow(b, f)"), ("Smaller(b, c)", "Larger(c, b)")]
    made = []
    for left, right in pairs:
        with equiv.scope():
            verdict = decide(left, right).to_json()
            made.append(equiv._shared.ctx is not None)
        with monkeypatch.context() as fresh:
            fresh.setattr(equiv._shared, "kept_context", z3.Context)
            assert decide(left, right).to_json() == verdict
    assert made == [False, True, True]


def test_the_kept_context_is_renewed_after_its_quota(monkeypatch: pytest.MonkeyPatch) -> None:
    import afcheck_fol.equiv as equiv

    monkeypatch.setattr(equiv, "_KEPT_CHECKS", 2)
    monkeypatch.setattr(equiv._shared, "kept", None)
    first = equiv._shared.kept_context()
    assert equiv._shared.kept_context() is first
    assert equiv._shared.kept_context() is not first
    assert decide("∀x Cube(x)", "∀w Cube(w)").equivalent is True


@pytest.mark.parametrize("theory", ["analytic", "shapes"])
def test_without_a_counter_model_a_pure_logic_world_does_not_refute_under_a_theory(
        theory: str) -> None:
    # Same symbols, so the quick call in pure logic runs first and answers sat: a world where a
    # block is a cube and a tet. No board allows it; under the theory the two are equivalent.
    left, right = parse("Cube(a) ∧ Tet(a)", TARSKI), parse("Cube(a) ∧ Tet(a) ∧ ¬Cube(a)", TARSKI)
    bare = check(left, right, TARSKI, theory, counter_model=False)
    assert (bare.equivalent, bare.theory, bare.model) == (True, theory, None)
    assert check(left, right, TARSKI, theory).equivalent is True
    plain = check(left, right, TARSKI, "none", counter_model=False)
    assert (plain.equivalent, plain.model, plain.steps) == (False, None, ("none (quick): sat",))
