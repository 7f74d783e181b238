"""The ordered rule table that classifies parse failures into the seed's five classes."""

from __future__ import annotations

import pytest
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
    exercised = {rule for _, _, rule, _ in CASES}
    names = [rule.name for rule in RULES]
    assert len(names) == len(set(names))
    assert names[-1] == "unclassified"
    assert set(names) - exercised <= {"comma-outside-arguments", "unclassified"}
