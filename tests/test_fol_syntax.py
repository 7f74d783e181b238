"""The surface syntaxes of Tarski's World and FOLIO, read into formula trees."""

from __future__ import annotations

import pytest
from afcheck_fol import formula as fo
from afcheck_fol.language import FOLIO, TARSKI
from afcheck_fol.syntax import FolSyntaxError, parse
from afcheck_fol.taxonomy import ErrorClass

x, y = fo.Var("x"), fo.Var("y")
a, b = fo.Const("a"), fo.Const("b")


def cube(t: fo.Var | fo.Const) -> fo.Pred:
    return fo.Pred("Cube", (t,))


def small(t: fo.Var | fo.Const) -> fo.Pred:
    return fo.Pred("Small", (t,))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("∀x (Cube(x) → Small(x))", fo.Forall(x, fo.Implies(cube(x), small(x)))),
        ("Cube(a) ∧ Small(a) ∧ Cube(b)", fo.And((cube(a), small(a), cube(b)))),
        # A parenthesised chain of the same connective is the same chain.
        ("Cube(a) ∧ (Small(a) ∧ Cube(b))", fo.And((cube(a), small(a), cube(b)))),
        ("Cube(a) ∨ Small(a) ∨ Cube(b)", fo.Or((cube(a), small(a), cube(b)))),
        ("(Cube(a) ∧ Small(a)) → Cube(b)", fo.Implies(fo.And((cube(a), small(a))), cube(b))),
        ("Cube(a) ↔ ¬Small(a)", fo.Iff(cube(a), fo.Not(small(a)))),
        ("¬∃x∃y (Larger(x, y))", fo.Not(fo.Exists(x, fo.Exists(y, fo.Pred("Larger", (x, y)))))),
        ("a = b", fo.Eq(a, b)),
        ("a ≠ b", fo.Not(fo.Eq(a, b))),
        ("⊥", fo.Truth(False)),
        # The Grade Grinder's canonical ASCII and the common arrows.
        ("@x (Cube(x) $ ~Small(x))", fo.Forall(x, fo.Implies(cube(x), fo.Not(small(x))))),
        ("/x (Cube(x) & Small(x))", fo.Exists(x, fo.And((cube(x), small(x))))),
        ("Cube(a) % Small(a)", fo.Iff(cube(a), small(a))),
        ("Cube(a) -> Small(a)", fo.Implies(cube(a), small(a))),
        ("Cube(a) <-> Small(a)", fo.Iff(cube(a), small(a))),
        ("Cube(a) | Small(a)", fo.Or((cube(a), small(a)))),
        ("  ∀x(Cube(x))  ", fo.Forall(x, cube(x))),
        ("Between(a, b, a)", fo.Pred("Between", (a, b, a))),
    ],
)
def test_tarski_sentences(text: str, expected: object) -> None:
    assert parse(text, TARSKI) == expected


@pytest.mark.parametrize(
    ("text", "error_class", "rule"),
    [
        # Quantifiers bind tightly: the second x is free.
        ("∀x Cube(x) → Small(x)", ErrorClass.TERMS, "free-variable"),
        ("Cube(a) ∧ Small(a) ∨ Cube(b)", ErrorClass.STRUCTURE, "unparenthesised-mix"),
        ("Cube(a) → Small(a) → Cube(b)", ErrorClass.STRUCTURE, "unparenthesised-mix"),
        ("Cube(a) ∧ Small(a) → Cube(b)", ErrorClass.STRUCTURE, "unparenthesised-mix"),
        ("Cube(g)", ErrorClass.TERMS, "bad-name"),
        ("Cube(x)", ErrorClass.TERMS, "free-variable"),
        ("Cube(a, b)", ErrorClass.RELATION_ARITY, "arity"),
        ("Between(a, b)", ErrorClass.RELATION_ARITY, "arity"),
        ("Square(a)", ErrorClass.RELATION_ARITY, "unknown-predicate"),
        ("LeftOF(a, b)", ErrorClass.RELATION_ARITY, "unknown-predicate"),
        ("∀a Cube(a)", ErrorClass.CONNECTIVES, "quantified-non-variable"),
    ],
)
def test_tarski_rejects(text: str, error_class: ErrorClass, rule: str) -> None:
    with pytest.raises(FolSyntaxError) as caught:
        parse(text, TARSKI)
    assert (caught.value.error_class, caught.value.rule) == (error_class, rule)


def test_error_span_points_at_the_offending_text() -> None:
    text = "∀x (Cube(x) → Small(y))"
    with pytest.raises(FolSyntaxError) as caught:
        parse(text, TARSKI)
    start, end = caught.value.span
    assert text[start:end] == "y"
    assert caught.value.to_json()["class"] == "constants and variables"


def test_relation_errors_come_before_term_errors() -> None:
    with pytest.raises(FolSyntaxError) as caught:
        parse("Cube(x) ∧ Square(a)", TARSKI)
    assert caught.value.rule == "unknown-predicate"


FOLIO_CASES = [
    ("∀x (Drinks(x) → Dependent(x))",
     fo.Forall(x, fo.Implies(fo.Pred("Drinks", (x,)), fo.Pred("Dependent", (x,))))),
    # Quantifiers scope as far right as they can.
    ("∀x Coding(x) → ¬Doctor(x)",
     fo.Forall(x, fo.Implies(fo.Pred("Coding", (x,)), fo.Not(fo.Pred("Doctor", (x,)))))),
    # ⊕ binds tighter than →.
    ("P(rina) → Q(rina) ⊕ R(rina)",
     fo.Implies(fo.Pred("P", (fo.Const("rina"),)), fo.Xor(fo.Pred("Q", (fo.Const("rina"),)),
                                              fo.Pred("R", (fo.Const("rina"),))))),
    # ∧ binds tighter than ∨, ∨ tighter than ⊕.
    ("A(a) ∧ B(a) ∨ C(a) ⊕ D(a)",
     fo.Xor(fo.Or((fo.And((fo.Pred("A", (a,)), fo.Pred("B", (a,)))), fo.Pred("C", (a,)))),
            fo.Pred("D", (a,)))),
    ("WrittenIn(gpt-3, c++) ∧ Visited(mr.smith, two)",
     fo.And((fo.Pred("WrittenIn", (fo.Const("gpt-3"), fo.Const("c++"))),
          fo.Pred("Visited", (fo.Const("mr.smith"), fo.Const("two")))))),
    ("Eco-friendlyBrand(reformation)", fo.Pred("Eco-friendlyBrand", (fo.Const("reformation"),))),
]


@pytest.mark.parametrize(("text", "expected"), FOLIO_CASES)
def test_folio_sentences(text: str, expected: object) -> None:
    assert parse(text, FOLIO) == expected


def test_folio_arity_is_fixed_by_first_use() -> None:
    with pytest.raises(FolSyntaxError) as caught:
        parse("P(a) ∧ P(a, b)", FOLIO)
    assert caught.value.rule == "arity"
    assert parse("P(a, b)", FOLIO) == fo.Pred("P", (a, b))
    with pytest.raises(FolSyntaxError):
        parse("P(a, b)", FOLIO, arities={"P": 1})


def test_folio_rejects_free_variables_and_foreign_connectives() -> None:
    with pytest.raises(FolSyntaxError) as caught:
        parse("∀x (P(x)) ∧ Q(y)", FOLIO)
    assert caught.value.rule == "free-variable"
    with pytest.raises(FolSyntaxError) as caught:
        parse("P(joe) ^ Q(joe)", FOLIO)
    assert (caught.value.error_class, caught.value.rule) == (
        ErrorClass.CONNECTIVES, "foreign-connective")


def test_absurdly_deep_formulas_are_refused_not_crashed_on() -> None:
    deep = "¬" * 5000 + "Cube(a)"
    with pytest.raises(FolSyntaxError) as caught:
        parse(deep, TARSKI)
    assert (caught.value.error_class, caught.value.rule) == (ErrorClass.OTHER, "too-deep")
    assert parse("¬" * 150 + "Cube(a)", TARSKI) is not None


def test_a_syntax_error_survives_pickling() -> None:
    # Items keep their gold's error, and items travel to worker processes.
    import pickle

    with pytest.raises(FolSyntaxError) as caught:
        parse("Cube(a", TARSKI)
    copy = pickle.loads(pickle.dumps(caught.value))
    assert (copy.error_class, copy.rule, copy.span, copy.message) == (
        caught.value.error_class, caught.value.rule, caught.value.span, caught.value.message)
