"""The controlled-English translator of PrOntoQA and ProofWriter sentences."""

from __future__ import annotations

import pytest
from afcheck_chains.controlled import Untranslatable, translate
from afcheck_fol.formula import And, Const, Forall, Implies, Not, Pred, Var

x = Var("x")


def P(name: str, *args: object) -> Pred:  # noqa: N802 - reads like the formula
    return Pred(name, tuple(Const(a) if isinstance(a, str) else a for a in args))  # type: ignore[misc]


@pytest.mark.parametrize(("sentence", "formula"), [
    ("Max is a yumpus.", P("Yumpus", "max")),
    ("Wren is not an impus.", Not(P("Impus", "wren"))),
    ("Max is not sour.", Not(P("Sour", "max"))),
    ("Jompuses are not shy.", Forall(x, Implies(P("Jompus", x), Not(P("Shy", x))))),
    ("Jompuses are yumpuses.", Forall(x, Implies(P("Jompus", x), P("Yumpus", x)))),
    ("Jompuses are nervous.", Forall(x, Implies(P("Jompus", x), P("Nervous", x)))),
    ("Each yumpus is a dumpus.", Forall(x, Implies(P("Yumpus", x), P("Dumpus", x)))),
    ("Every wumpus is not an impus.", Forall(x, Implies(P("Wumpus", x), Not(P("Impus", x))))),
    ("The bald eagle chases the cat.", P("Chase", "bald_eagle", "cat")),
    ("The cat does not eat the dog.", Not(P("Eat", "cat", "dog"))),
    ("Bob is red and round.", And((P("Red", "bob"), P("Round", "bob")))),
    ("All quiet things are rough.", Forall(x, Implies(P("Quiet", x), P("Rough", x)))),
    ("Red, cold people are not round.",
     Forall(x, Implies(And((P("Red", x), P("Cold", x))), Not(P("Round", x))))),
    ("If something is quiet and cold then it is smart.",
     Forall(x, Implies(And((P("Quiet", x), P("Cold", x))), P("Smart", x)))),
    ("If someone is kind and not blue then they are round.",
     Forall(x, Implies(And((P("Kind", x), Not(P("Blue", x)))), P("Round", x)))),
    ("If someone needs the bear and they see the dog then the bear eats the dog.",
     Forall(x, Implies(And((P("Need", x, "bear"), P("See", x, "dog"))),
                       P("Eat", "bear", "dog")))),
    ("If the cow is young and the bear does not see the cow then the bear is young.",
     Implies(And((P("Young", "cow"), Not(P("See", "bear", "cow")))), P("Young", "bear"))),
    ("If something chases the dog then the dog chases the cat.",
     Forall(x, Implies(P("Chase", x, "dog"), P("Chase", "dog", "cat")))),
])
def test_sentences_translate_to_their_formula(sentence: str, formula: object) -> None:
    assert translate(sentence) == formula


@pytest.mark.parametrize("sentence", [
    "Max might be a yumpus.",
    "Something is red.",
    "If Max is a yumpus.",
    "Max is a very big yumpus.",
    "It is red.",
    "Max is sour (probably).",
    "",
])
def test_sentences_outside_the_grammar_are_refused_by_name(sentence: str) -> None:
    with pytest.raises(Untranslatable) as caught:
        translate(sentence)
    assert repr(sentence) in str(caught.value)
