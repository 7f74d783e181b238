"""The prompts of the nl2fol method: the seed's, with a suite's vocabulary where it gives one."""

from __future__ import annotations

from afcheck_fol.language import FOLIO
from afcheck_fol.syntax import parse
from afcheck_nl2fol.pipeline import task
from afcheck_nl2fol.prompts import FOLIO_SYSTEM, TARSKI_SYSTEM, folio_system
from afcheck_nl2fol.suite import Item, Vocabulary


def test_a_given_vocabulary_is_listed_as_the_seed_lists_tarski_s_world() -> None:
    text = folio_system((("Striker", 1), ("Plays", 2)), ("robertLewandowski",))
    assert "=== Relations to use ===" in text
    assert "(name/arity): ['Striker/1', 'Plays/2']" in text
    assert "Constants symbol: robertLewandowski" in text
    assert "⊕" in text and text.endswith("with the prefix '='.")
    # The same layout as the seed's prompt for its fixed vocabulary.
    assert "=== Relations to use ===" in TARSKI_SYSTEM
    assert folio_system() == FOLIO_SYSTEM


def test_an_item_s_vocabulary_reaches_the_model_s_prompt() -> None:
    gold = "Striker(robertLewandowski)"
    bare = Item("p1", "Robert Lewandowski is a striker.", (gold,), (parse(gold, FOLIO),),
                "unrated", FOLIO)
    assert task(bare).system == FOLIO_SYSTEM
    given = Item("p1", bare.sentence, bare.gold, bare.formulas, "unrated", FOLIO,
                 vocabulary=Vocabulary((("Striker", 1),), ("robertLewandowski",)))
    system = task(given).system
    assert system is not None and "['Striker/1']" in system
    assert task(given).user == "Robert Lewandowski is a striker."
