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
@pytest.mark.heavy
def test_every_released_sentence_translates_and_gold_labels_reproduce(data_dir: Path) -> None:
    from afcheck_chains.formalise import FolChains, RuleFormaliser
    from afcheck_chains.loaders import load_logic_llm
    from afcheck_chains.pipeline import run_chains
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
    missed = [r.id for r in results if not r.first_matched]
    assert missed == []


# -- quantifier words: read exactly, or refused ------------------------------------------------

def E(body: object) -> object:  # noqa: N802 - reads like the formula
    from afcheck_fol.formula import Exists

    return Exists(x, body)  # type: ignore[arg-type]


@pytest.mark.parametrize(("sentence", "formula"), [
    ("No pets are cats.", Forall(x, Implies(P("Pet", x), Not(P("Cat", x))))),
    ("No cat is a dog.", Forall(x, Implies(P("Cat", x), Not(P("Dog", x))))),
    ("No quiet things are red and big.",
     Forall(x, Implies(P("Quiet", x), Not(And((P("Red", x), P("Big", x))))))),
    ("Some cats are red.", E(And((P("Cat", x), P("Red", x))))),
    ("Some yumpus is not a dumpus.", E(And((P("Yumpus", x), Not(P("Dumpus", x)))))),
    ("Only cats are pets.", Forall(x, Implies(P("Pet", x), P("Cat", x)))),
    ("Not all cats are red.", Not(Forall(x, Implies(P("Cat", x), P("Red", x))))),
    ("Not every wumpus is an impus.", Not(Forall(x, Implies(P("Wumpus", x), P("Impus", x))))),
    ("Nothing is red.", Forall(x, Not(P("Red", x)))),
    ("Nothing is kind and blue.", Forall(x, Not(And((P("Kind", x), P("Blue", x)))))),
    ("No one is red.", Forall(x, Not(P("Red", x)))),
    ("Everything is cold.", Forall(x, P("Cold", x))),
    ("Each impus is opaque.", Forall(x, Implies(P("Impus", x), P("Opaque", x)))),
    ("Every vumpus is a zumpus.", Forall(x, Implies(P("Vumpus", x), P("Zumpus", x)))),
    ("Any vumpus is a zumpus.", Forall(x, Implies(P("Vumpus", x), P("Zumpus", x)))),
    ("All red things are rough.", Forall(x, Implies(P("Red", x), P("Rough", x)))),
    ("Red and cold things are round.",
     Forall(x, Implies(And((P("Red", x), P("Cold", x))), P("Round", x)))),
])
def test_quantifier_words_read_as_quantifiers(sentence: str, formula: object) -> None:
    assert translate(sentence) == formula


@pytest.mark.parametrize(("sentence", "reason"), [
    ("Most cats are red.", "'most' states a proportion"),
    ("Many jompuses are shy.", "'many' states a proportion"),
    ("Few things are cold.", "'few' states a proportion"),
    ("Max is usually sour.", "'usually' states a proportion"),
    ("None of the cats are red.", "'None' as a quantifier"),
    ("No, Max is not sour.", "'No' is not followed by a class"),
    ("Only Max is red.", "'Only' is not followed by a class"),
    ("Some of the cats are red.", "'Of' would be read as a class"),
    ("Both Max and Rex are red.", "'Both' as a quantifier"),
    ("Cats and dogs are animals.", "'and' joins two classes"),
    ("Every cat and dog is red.", "'and' joins two classes"),
    ("Every cat or dog is red.", "'Or' would be read as a class"),
    ("Max and Rex are red.", "the name 'Rex' where a class should be"),
    ("Max is red and Rex.", "the name 'Rex' where a property or class should be"),
    ("All yumpuses except Max are red.", "the name 'Max' where a class should be"),
    ("Wumpuses are not red, and Max is a wumpus.", "goes on about another subject"),
    ("Each of the yumpuses is a dumpus.", "would be read as a class"),
    ("They are sour.", "'They' refers to no single named subject"),
])
def test_quantifier_words_outside_first_order_reach_are_refused(sentence: str,
                                                                reason: str) -> None:
    with pytest.raises(Untranslatable, match=reason):
        translate(sentence)


def test_no_sentence_yields_a_quantifier_word_as_a_predicate() -> None:
    """Before: "No pets are cats" became ∀x (No(x) ∧ Pet(x) → Cat(x)). Whatever a sentence
    with a quantifier word becomes, no predicate or constant is named after one."""
    from afcheck_fol.formula import constants, predicates

    words = ["No", "Some", "Most", "Only", "Not all", "Nothing", "Each", "Every", "All",
             "Any", "Many", "None of the", "They", "It"]
    for word in words:
        for rest in ("cats are red.", "cat is a dog.", "is red.", "red things are big.",
                     "things are not red."):
            try:
                formula = translate(f"{word} {rest}")
            except Untranslatable:
                continue
            names = {n.lower() for n in (*predicates(formula), *constants(formula))}
            assert not names & {"no", "some", "most", "only", "not", "nothing", "each",
                                "every", "all", "any", "many", "none", "they", "it"}, \
                (word, rest, formula)


def _label(premises: list[str], conclusion: str) -> str:
    from afcheck_chains.records import Label
    from afcheck_chains.verify import FormalChain, check_conclusions
    from afcheck_fol.provers import make_fol_prover

    chain = FormalChain(tuple(translate(p) for p in premises), translate(conclusion), ())
    [verdict] = check_conclusions([chain], make_fol_prover("z3-fol"))
    assert verdict.label is not Label.INVALID
    return verdict.label.value


@pytest.mark.parametrize(("premises", "conclusion", "label"), [
    (["No pets are cats.", "Tom is a pet."], "Tom is a cat.", "False"),
    (["Only cats are pets.", "Tom is a pet."], "Tom is a cat.", "True"),
    (["Only cats are pets.", "Tom is a cat."], "Tom is a pet.", "Unknown"),
    (["Nothing is red."], "Max is red.", "False"),
    (["Not all cats are red.", "Each cat is a pet."], "Some pets are not red.", "True"),
    (["Some cats are red.", "Each cat is a pet."], "Some pets are red.", "True"),
])
def test_quantified_readings_have_their_english_consequences(
        premises: list[str], conclusion: str, label: str) -> None:
    assert _label(premises, conclusion) == label


# -- a chain's context: class nouns written as names, pronouns --------------------------------

PRONTO_PREMISES = [  # ProntoQA_1's shape (Logic-LLM's dev.json)
    "Jompuses are not shy.", "Jompuses are yumpuses.", "Each yumpus is a dumpus.",
    "Dumpuses are wumpuses.", "Every wumpus is an impus.", "Zumpuses are small.",
    "Impuses are tumpuses.", "Tumpuses are not sour.", "Max is a yumpus.",
]


def test_a_class_noun_written_as_a_name_states_its_class_rule() -> None:
    from afcheck_chains.controlled import translate_chain

    *_, step = translate_chain([*PRONTO_PREMISES, "Dumpus is a wumpus."],
                               len(PRONTO_PREMISES))
    assert step == Forall(x, Implies(P("Dumpus", x), P("Wumpus", x)))
    # Alone, the sentence has no classes to go by: a name, as before.
    assert translate("Dumpus is a wumpus.") == P("Wumpus", "dumpus")


def test_a_kept_translation_is_the_one_of_its_own_context() -> None:
    """Translations are kept per sentence and context: one sentence read alone, then in a
    chain where it names a class, then alone again, reads as each context says."""
    from afcheck_chains.controlled import clear_cache, translate_chain

    clear_cache()
    alone = translate("Dumpus is a wumpus.")
    *_, in_chain = translate_chain([*PRONTO_PREMISES, "Dumpus is a wumpus."],
                                   len(PRONTO_PREMISES))
    assert alone == P("Wumpus", "dumpus")
    assert in_chain == Forall(x, Implies(P("Dumpus", x), P("Wumpus", x)))
    assert translate("Dumpus is a wumpus.") == alone


def test_a_kept_refusal_raises_a_new_exception_each_time() -> None:
    """A refusal is kept as its words: each call raises an exception of its own, whose
    traceback is that call's alone (one exception raised again would grow its traceback
    with every caller's frames and keep them alive)."""
    import traceback

    caught = []
    for _ in range(3):
        with pytest.raises(Untranslatable) as refused:
            translate("Max might be a yumpus.")
        caught.append(refused.value)
    assert len({id(exc) for exc in caught}) == 3
    assert len({str(exc) for exc in caught}) == 1
    assert caught[0].reason == caught[2].reason and caught[0].sentence == caught[2].sentence
    depths = {len(traceback.extract_tb(exc.__traceback__)) for exc in caught}
    assert len(depths) == 1


def test_a_word_that_is_both_a_class_and_a_name_is_refused() -> None:
    from afcheck_chains.controlled import translate_chain

    premises = ["Dumpuses are red.", "The cat likes Dumpus."]
    with pytest.raises(Untranslatable, match="both a class and a name"):
        translate_chain([*premises, "Dumpus is a wumpus."], len(premises))


def test_a_pronoun_refers_to_the_named_subject_before_it() -> None:
    from afcheck_chains.controlled import translate_chain

    steps = ["Max is a yumpus.", "They are a dumpus.", "Each dumpus is a wumpus, so it is "
             "a wumpus.", "It is not shy."]
    formulas = translate_chain([*PRONTO_PREMISES, *steps], len(PRONTO_PREMISES))
    assert formulas[-3:] == [
        P("Dumpus", "max"),
        And((Forall(x, Implies(P("Dumpus", x), P("Wumpus", x))), P("Wumpus", "max"))),
        Not(P("Shy", "max"))]


def test_a_pronoun_after_a_class_rule_is_refused() -> None:
    from afcheck_chains.controlled import translate_chain

    with pytest.raises(Untranslatable, match="the sentence before it is about a class"):
        translate_chain([*PRONTO_PREMISES, "Yumpuses are dumpuses.", "They are wumpuses."],
                        len(PRONTO_PREMISES))


def test_a_pronoun_refers_across_sentences_only_to_a_named_subject() -> None:
    from afcheck_chains.controlled import translate_chain

    assert translate_chain(["Bob is cold.", "It is red."], 1)[1] == P("Red", "bob")
    with pytest.raises(Untranslatable, match="about a class"):
        translate_chain(["Bob is cold.", "If something is cold then it is red.",
                         "It is red."], 2)
    with pytest.raises(Untranslatable, match="names no single subject"):
        translate_chain(["The cat likes the dog and the dog is red.", "It is big."], 1)


@pytest.mark.realdata
def test_a_chains_context_changes_no_released_sentence(data_dir: Path) -> None:
    """The chain context only decides what a sentence alone cannot: every released PrOntoQA
    and ProofWriter sentence (premises, gold chain, conclusion) reads as it does alone."""
    from afcheck_chains.controlled import translate_chain
    from afcheck_chains.loaders import load_logic_llm
    from afcheck_chains.records import ChainRecord

    count = 0
    for name in ("prontoqa", "proofwriter"):
        for record in load_logic_llm(data_dir / name / "dev.json", name):
            assert isinstance(record, ChainRecord)
            sentences = [*record.premises, *record.steps, record.conclusion]
            assert translate_chain(sentences, len(record.premises)) == [
                translate(s) for s in sentences]
            count += 1
    assert count == 950


@pytest.mark.realdata
def test_real_prontoqa_chains_written_the_way_models_write_them(data_dir: Path) -> None:
    """Every released PrOntoQA gold chain, rewritten with two habits of chat models (a fact
    about the chain's subject as "They are a dumpus." or, after a plural rule, "It is not
    sour."; a plural class rule as "Zumpus is a jompus.", the class noun written as a name),
    translates to the gold chain's own formulas."""
    import re as regex

    from afcheck_chains.controlled import translate_chain
    from afcheck_chains.loaders import load_logic_llm
    from afcheck_chains.records import ChainRecord

    pronouns = classes = 0
    for record in load_logic_llm(data_dir / "prontoqa" / "dev.json", "prontoqa"):
        assert isinstance(record, ChainRecord)
        name = record.steps[0].split()[0]
        rewritten = [record.steps[0]]
        for previous, step in zip(record.steps, record.steps[1:], strict=False):
            fact = regex.fullmatch(rf"{name} is (not )?(an? )?(\w+)\.", step)
            rule = regex.fullmatch(r"([A-Z]\w+)uses are (\w+)uses\.", step)
            if fact and fact.group(2):
                step = f"They are {fact.group(1) or ''}{fact.group(2)}{fact.group(3)}."
                pronouns += 1
            elif fact and regex.fullmatch(r"[A-Z]\w+ are .*", previous):
                step = f"It is {fact.group(1) or ''}{fact.group(3)}."
                pronouns += 1
            elif rule:
                noun = rule.group(2) + "us"
                step = f"{rule.group(1)}us is {'an' if noun[0] in 'aeiou' else 'a'} {noun}."
                classes += 1
            rewritten.append(step)
        premises = list(record.premises)
        gold = translate_chain([*premises, *record.steps], len(premises))
        assert translate_chain([*premises, *rewritten], len(premises)) == gold, record.id
    assert pronouns > 300 and classes > 300


@pytest.mark.parametrize(("rule", "step", "formula"), [
    ("Yumpuses are dumpuses.", "They are a dumpus.", P("Dumpus", "max")),
    ("Yumpuses are dumpuses.", "They are not a wumpus.", Not(P("Wumpus", "max"))),
    ("Each yumpus is a dumpus.", "They are a dumpus.", P("Dumpus", "max")),
    ("Tumpuses are not sour.", "It is not sour.", Not(P("Sour", "max"))),
    ("Each tumpus is not sour.", "She is not sour.", Not(P("Sour", "max"))),
    ("Yumpuses are dumpuses.", "They are dumpuses.", None),   # the class, or Max?
    ("Tumpuses are not sour.", "They are not sour.", None),
    ("Each tumpus is not sour.", "It is not sour.", None),    # each tumpus, or Max?
])
def test_a_pronoun_after_a_class_rule_refers_to_the_name_only_when_it_cannot_mean_the_class(
        rule: str, step: str, formula: object) -> None:
    from afcheck_chains.controlled import translate_chain

    sentences = [*PRONTO_PREMISES, "Max is a yumpus.", rule, step]
    if formula is None:
        with pytest.raises(Untranslatable, match="about a class"):
            translate_chain(sentences, len(PRONTO_PREMISES))
    else:
        assert translate_chain(sentences, len(PRONTO_PREMISES))[-1] == formula


PROOFWRITER_PREMISES = [  # ProofWriter_AttNoneg-OWA-D5-1041's shape (Logic-LLM's dev.json)
    "Bob is cold.", "Bob is quiet.", "Charlie is kind.", "Charlie is rough.",
    "If something is quiet and cold then it is smart.", "Red, cold things are round.",
    "All quiet things are rough.", "If something is rough then it is cold.",
]


@pytest.mark.parametrize(("steps", "last"), [
    # Steps as chat models write them on ProofWriter.
    (["Bob is quiet and cold, so he is smart."],
     And((And((P("Quiet", "bob"), P("Cold", "bob"))), P("Smart", "bob")))),
    (["Since Charlie is rough, he is cold."], And((P("Rough", "charlie"), P("Cold", "charlie")))),
    (["Charlie is kind.", "He is rough.", "It is cold."], P("Cold", "charlie")),
    (["All quiet things are rough.", "Bob is quiet.", "Bob is rough."], P("Rough", "bob")),
    (["Nothing is both rough and cold."], None),
    (["Most quiet things are rough."], None),
    (["No quiet things are smart."], Forall(x, Implies(P("Quiet", x), Not(P("Smart", x))))),
    (["Bob is cold and Charlie is kind.", "He is smart."], None),
])
def test_proofwriter_steps_as_models_write_them(steps: list[str], last: object) -> None:
    from afcheck_chains.controlled import translate_chain

    sentences = [*PROOFWRITER_PREMISES, *steps]
    if last is None:
        with pytest.raises(Untranslatable):
            translate_chain(sentences, len(PROOFWRITER_PREMISES))
    else:
        assert translate_chain(sentences, len(PROOFWRITER_PREMISES))[-1] == last


@pytest.mark.parametrize(("sentence", "formula"), [
    # A conditional about a name: its pronoun is the name, not a variable.
    ("If Max is a cat then it is red.", Implies(P("Cat", "max"), P("Red", "max"))),
    ("If the cat is red then it is big.", Implies(P("Red", "cat"), P("Big", "cat"))),
    ("Since Max is a yumpus, it is a dumpus.", And((P("Yumpus", "max"), P("Dumpus", "max")))),
    ("Bob is red because he is big.", And((P("Big", "bob"), P("Red", "bob")))),
    ("Max is a dumpus, since each yumpus is a dumpus.",
     And((Forall(x, Implies(P("Yumpus", x), P("Dumpus", x))), P("Dumpus", "max")))),
    # About "something": the pronoun is the rule's variable.
    ("If something likes the cat then the cat likes it.",
     Forall(x, Implies(P("Like", x, "cat"), P("Like", "cat", x)))),
    ("If the cat likes the dog then it is red.", None),   # the cat or the dog?
    ("If Bob is red and Dave is big then he is kind.", None),
])
def test_a_pronoun_in_a_sentence_about_names_is_the_one_name_or_refused(
        sentence: str, formula: object) -> None:
    if formula is None:
        with pytest.raises(Untranslatable, match="two names come before it"):
            translate(sentence)
    else:
        assert translate(sentence) == formula


def test_a_pronoun_after_a_sentence_about_two_names_is_refused() -> None:
    from afcheck_chains.controlled import translate_chain

    with pytest.raises(Untranslatable, match="names no single subject"):
        translate_chain(["Max likes the cat.", "It is red."], 0)
