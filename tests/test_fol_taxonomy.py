"""The ordered rule table that classifies parse failures into the seed's five classes."""

from __future__ import annotations

import pytest
from afcheck_fol.formula import Const, Pred
from afcheck_fol.language import FOLIO, TARSKI, Language
from afcheck_fol.syntax import FolSyntaxError, parse
from afcheck_fol.taxonomy import RULES, ErrorClass

CASES = [
    # structure
    ("", ErrorClass.STRUCTURE, "empty", ""),
    ("(Cube(a) ∧ Small(a)", ErrorClass.STRUCTURE, "unbalanced-parentheses", "("),
    ("Cube(a))", ErrorClass.STRUCTURE, "unbalanced-parentheses", ")"),
    ("Cube(a) Small(a)", ErrorClass.STRUCTURE, "missing-connective", " Small"),
    ("Cube(a) ∨ Small(a) ∧ Tet(a)", ErrorClass.STRUCTURE, "unparenthesised-mix",
     "∨ Small(a) ∧"),
    ("Cube(a).", ErrorClass.STRUCTURE, "trailing-punctuation", "."),
    # connectives and quantifiers
    ("Cube(a) => Small(a)", ErrorClass.CONNECTIVES, "foreign-connective", "=>"),
    ("Cube(a) ⊕ Small(a)", ErrorClass.CONNECTIVES, "foreign-connective", "⊕"),
    ("!Cube(a)", ErrorClass.CONNECTIVES, "foreign-connective", "!"),
    ("∀ (Cube(x))", ErrorClass.CONNECTIVES, "quantifier-without-variable", "∀ "),
    ("∀Cube(x)", ErrorClass.CONNECTIVES, "quantifier-without-variable", "∀"),
    ("Cube(a) ∧", ErrorClass.CONNECTIVES, "missing-operand", "∧"),
    ("∧ Cube(a)", ErrorClass.CONNECTIVES, "missing-operand", "∧"),
    ("(Cube(a) ∨ ) ∧ Tet(b)", ErrorClass.CONNECTIVES, "missing-operand", "∨"),
    ("Cube(a) ∧ → Small(a)", ErrorClass.CONNECTIVES, "missing-operand", "∧"),
    ("¬ → Cube(a)", ErrorClass.CONNECTIVES, "missing-operand", "¬"),
    ("Cube(a) but Small(a)", ErrorClass.CONNECTIVES, "word-connective", "but"),
    ("forall x Cube(x)", ErrorClass.CONNECTIVES, "word-connective", "forall"),
    # relation/arity
    ("a = b = c", ErrorClass.RELATION_ARITY, "identity-chain", "="),
    ("a Larger b", ErrorClass.RELATION_ARITY, "infix-predicate", "Larger"),
    ("cube(a)", ErrorClass.RELATION_ARITY, "lowercase-predicate", "cube"),
    ("Larger(Cube(a), b)", ErrorClass.RELATION_ARITY, "predicate-as-term", "Cube"),
    ("Cube ∧ Small(a)", ErrorClass.RELATION_ARITY, "predicate-without-arguments", "Cube"),
    # constants and variables
    ("Cube(A)", ErrorClass.TERMS, "uppercase-term", "A"),
    ("Larger(a b, c)", ErrorClass.TERMS, "spaced-name", "a b"),
    # other
    ("The answer is Cube(a)", ErrorClass.OTHER, "prose", "The answer is"),
    ("Cube(a) # Small(a)", ErrorClass.OTHER, "unexpected-character", "#"),
]


@pytest.mark.parametrize(("text", "error_class", "rule", "spanned"), CASES)
def test_tarski_failures(text: str, error_class: ErrorClass, rule: str, spanned: str) -> None:
    with pytest.raises(FolSyntaxError) as caught:
        parse(text, TARSKI)
    error = caught.value
    assert (error.error_class, error.rule) == (error_class, rule)
    assert text[error.span[0]:error.span[1]] == spanned


# Outputs of the kinds real models write for FOLIO's sentences, each with the class it belongs
# to (the rule table before these rules named them "missing connective", "⊕ combined with
# another binary connective", "If used without an argument list", "foreign connective $",
# "identity chain", "unexpected character").
FOLIO_OUTPUTS = [
    # A predicate name that starts with a digit ("four-sided"): the relation is misnamed.
    ("∀x (4Side(x) → Polygon(x))", ErrorClass.RELATION_ARITY, "predicate-name", "4Side"),
    # A constant standing alone as a disjunct: the predicate is missing.
    ("1984 ⊕ StreamingService(1984)", ErrorClass.RELATION_ARITY, "term-as-formula", "1984"),
    ("StreamingService(1984) ⊕ 1984", ErrorClass.RELATION_ARITY, "term-as-formula", "1984"),
    # English "If" at the start, with or without "then".
    ("If GivenOut(roses) → Happy(mary)", ErrorClass.CONNECTIVES, "word-connective", "If"),
    ("If GivenOut(roses) Then Happy(mary)", ErrorClass.CONNECTIVES, "word-connective", "If"),
    # A title in quotes as an argument.
    ('Wrote(georgeOrwell, "Nineteen Eighty-Four")', ErrorClass.TERMS, "quoted-term",
     '"Nineteen Eighty-Four"'),
    ("Directed(“The Lord of the Rings”)", ErrorClass.TERMS, "quoted-term",
     "“The Lord of the Rings”"),
    # A currency sign inside a constant: a name, not the connective `$` of other notations.
    ("∀x (Rent(x) → Costs(x, US$300))", ErrorClass.TERMS, "name-character", "US$300"),
    ("MonthlyFee(gym, $40)", ErrorClass.TERMS, "name-character", "$40"),
    # Typographic apostrophes in names.
    ("Owns(mary, mary’s_car)", ErrorClass.TERMS, "name-character", "mary’s_car"),
    ("Born(d’angelo, rome)", ErrorClass.TERMS, "name-character", "d’angelo"),
    ("∀x (Mary’sFriend(x) → Kind(x))", ErrorClass.RELATION_ARITY, "predicate-name",
     "Mary’sFriend"),
    # An atom compared with a number: there are no function symbols.
    ("∀x ∀y (Rents(x, y) → Deposit(x, y) = 1)", ErrorClass.RELATION_ARITY, "atom-in-identity",
     "="),
]


@pytest.mark.parametrize(("text", "error_class", "rule", "spanned"), FOLIO_OUTPUTS)
def test_real_folio_outputs(text: str, error_class: ErrorClass, rule: str, spanned: str) -> None:
    with pytest.raises(FolSyntaxError) as caught:
        parse(text, FOLIO)
    error = caught.value
    assert (error.error_class, error.rule) == (error_class, rule), error
    assert text[error.span[0]:error.span[1]] == spanned


def test_non_ascii_letters_are_letters_of_a_name() -> None:
    # Models keep the sentence's spelling of names (Iga Świątek).
    assert parse("LostToIgaŚwiątek(cocoGauff)", FOLIO) == Pred(
        "LostToIgaŚwiątek", (Const("cocoGauff"),))
    assert parse("Beat(igaŚwiątek, cocoGauff) ∧ Polish(igaŚwiątek)", FOLIO) is not None


def test_folio_s_connectives_in_messages_include_exclusive_or() -> None:
    with pytest.raises(FolSyntaxError) as caught:
        parse("Cat(tom) => Purrs(tom)", FOLIO)
    assert "(it has ¬ ∧ ∨ ⊕ → ↔)" in caught.value.message


@pytest.mark.parametrize(
    ("text", "language", "rule"),
    [
        # ∧/∨ ASCII spellings are Tarski's (Grade Grinder) but not FOLIO's.
        ("P(a) & Q(a)", FOLIO, "foreign-connective"),
        ("P(a) & Q(a)", TARSKI, "unknown-predicate"),
        ("A(a) ↔ B(a) ↔ C(a)", FOLIO, "unparenthesised-mix"),
    ],
)
def test_rules_depend_on_the_language(text: str, language: Language, rule: str) -> None:
    with pytest.raises(FolSyntaxError) as caught:
        parse(text, language)
    assert caught.value.rule == rule


def test_every_rule_is_exercised_and_the_last_one_catches_all() -> None:
    exercised = {rule for _, _, rule, _ in [*CASES, *FOLIO_OUTPUTS]}
    names = [rule.name for rule in RULES]
    assert len(names) == len(set(names))
    assert names[-1] == "unclassified"
    assert set(names) - exercised <= {"comma-outside-arguments", "unclassified"}
