"""The controlled-English translator of PrOntoQA and ProofWriter sentences."""

from __future__ import annotations

from pathlib import Path

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
    ("Since Max is a yumpus, Max is a dumpus.", And((P("Yumpus", "max"), P("Dumpus", "max")))),
    ("Each yumpus is red, so Max is red.",
     And((Forall(x, Implies(P("Yumpus", x), P("Red", x))), P("Red", "max")))),
    ("Bob is big; therefore, Bob is red.", And((P("Big", "bob"), P("Red", "bob")))),
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


@pytest.mark.realdata
def test_every_released_sentence_translates_and_gold_labels_reproduce(data_dir: Path) -> None:
    from afcheck_chains.formalise import FolChains, RuleFormaliser
    from afcheck_chains.loaders import load_logic_llm
    from afcheck_chains.method import run_chains
    from afcheck_chains.records import ChainRecord, Label
    from afcheck_fol.provers import make_fol_prover

    pronto = [r for r in load_logic_llm(data_dir / "prontoqa" / "dev.json", "prontoqa")
              if isinstance(r, ChainRecord)]
    proof = [r for r in load_logic_llm(data_dir / "proofwriter" / "dev.json", "proofwriter")
             if isinstance(r, ChainRecord)]
    for record in pronto + proof:
        for sentence in (*record.premises, record.conclusion, *record.steps):
            translate(sentence)
    # Labels: every PrOntoQA item, and ProofWriter's True/False items (its Unknown items
    # follow ProofWriter's forward-chaining semantics, which classical FOL can decide).
    bare = [ChainRecord(r.id, r.dataset, r.premises, r.conclusion, r.label, (), None,
                        r.location) for r in pronto]
    decided = [r for r in proof if r.label is not Label.UNKNOWN][:150]
    from afcheck_fol.provers import find_eprover

    prover = make_fol_prover("eprover" if find_eprover() is not None else "z3-fol")
    results = run_chains(bare + decided, FolChains(RuleFormaliser()), prover)
    missed = [r.record.id for r in results if not r.first_matched]
    assert missed == []
