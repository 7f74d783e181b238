"""Equivalence up to a signature alignment, on outputs shaped like real FOLIO translations."""

from __future__ import annotations

from afcheck_fol.align import Alignment, normalised, propose, similarity
from afcheck_fol.decide import CORRECT, SEMANTIC_ERROR, Candidate, decide, outcome
from afcheck_fol.language import FOLIO
from afcheck_fol.method import align_groups
from afcheck_fol.suite import Item
from afcheck_fol.syntax import parse


def item(item_id: str, gold: str, group: str = "story-1") -> Item:
    return Item(item_id, f"sentence {item_id}", (gold,), (parse(gold, FOLIO),), "unrated",
                FOLIO, group=group)


def test_names_are_compared_without_case_separators_accents_or_a_leading_is() -> None:
    assert normalised("IsStriker") == normalised("Striker") == "striker"
    assert normalised("viennamusicsociety") == normalised("viennaMusicSociety")
    assert normalised("vienna_music_society") == normalised("viennaMusicSociety")
    assert normalised("LostToIgaŚwiątek") == normalised("LostToIgaSwiatek")
    assert similarity("y1984", "1984") >= 0.8
    assert similarity("Tall", "Short") < 0.5


def test_opposites_and_other_numbers_are_not_similar() -> None:
    # As alike as letters go, but naming something else.
    assert similarity("Happy", "Unhappy") == 0.0
    assert similarity("Legal", "Illegal") == 0.0
    assert similarity("Possible", "Impossible") == 0.0
    assert similarity("gpt3", "gpt-4") == 0.0
    assert similarity("version2", "version3") == 0.0
    assert similarity("Students", "Student") >= 0.8


def test_one_injective_arity_preserving_mapping_of_similar_names() -> None:
    candidates = [parse(t, FOLIO) for t in (
        "IsStriker(robertLewandowski)", "∀x (IsStriker(x) → Tall(x))",
        "Deposit(ann, flat)", "PrintedText(y1984)")]
    golds = [parse(t, FOLIO) for t in (
        "Striker(robertLewandowski)", "∀x (Striker(x) → Short(x))", "Deposit(ann)",
        "PrintedText(1984)")]
    alignment = propose("story-1", candidates, golds)
    # Same names map onto themselves (and are not listed); Tall is never renamed to Short;
    # Deposit/2 has no gold of arity 2.
    assert alignment.predicates == ((("IsStriker", 1), "Striker"),)
    assert alignment.constants == (("y1984", "1984"),)
    assert alignment.describe() == "IsStriker/1 → Striker, y1984 → 1984"
    assert Alignment.from_json(alignment.to_json()) == alignment


def test_a_model_cannot_rename_differently_per_sentence() -> None:
    # Sentence 1 says Striker, sentence 2 IsStriker: the gold's one Striker is taken by the
    # same-named symbol, so IsStriker cannot become Striker too.
    items = [item("p1", "Striker(robertLewandowski)"), item("p2", "∀x (Striker(x) → Player(x))")]
    candidates = [Candidate("p1", "Striker(robertLewandowski)"),
                  Candidate("p2", "∀x (IsStriker(x) → Player(x))")]
    alignments = align_groups(items, candidates)
    assert alignments == [None, None]
    second = decide(items[1], candidates[1], alignment=alignments[1])
    assert second.status == SEMANTIC_ERROR and second.aligned_decision == SEMANTIC_ERROR


def test_renamed_candidate_equivalent_to_gold_is_aligned_correct_and_the_test_still_fails() -> None:
    items = [item("p1", "Striker(robertLewandowski)"),
             item("p2", "∀x (Striker(x) → SoccerPlayer(x))"),
             item("c1", "SoccerPlayer(robertLewandowski)"),
             item("q1", "Orchestra(viennaMusicSociety)", group="story-2")]
    candidates = [Candidate("p1", "IsStriker(robertLewandowski)"),
                  Candidate("p2", "∀x (IsStriker(x) → IsSoccerPlayer(x))"),
                  Candidate("c1", "IsSoccerPlayer(robertLewandowski)"),
                  Candidate("q1", "Orchestra(viennamusicsociety)")]
    alignments = align_groups(items, candidates)
    decisions = [decide(i, c, alignment=a) for i, c, a in zip(items, candidates, alignments,
                                                                 strict=True)]
    assert [d.status for d in decisions] == [SEMANTIC_ERROR] * 4
    assert [d.aligned_decision for d in decisions] == [CORRECT] * 4
    # The story's one mapping, each item showing the part it uses.
    assert decisions[1].aligned is not None
    assert decisions[1].aligned.alignment.describe() == (
        "IsSoccerPlayer/1 → SoccerPlayer, IsStriker/1 → Striker")
    assert decisions[3].aligned is not None and decisions[3].aligned.alignment.group == "story-2"
    shown = outcome(decisions[0])
    assert shown.status.value == "failed"
    assert "equivalent to gold 0 up to the renaming IsStriker/1 → Striker" in shown.message
    assert "signature alignment (shared by group story-1)" in shown.details


def test_renaming_never_makes_a_wrong_meaning_right() -> None:
    # The converse of the gold, written with the model's own names: still not equivalent.
    one = item("p1", "∀x (Player(x) → Striker(x))")
    candidate = Candidate("p1", "∀x (IsStriker(x) → IsPlayer(x))")
    (alignment,) = align_groups([one], [candidate])
    decision = decide(one, candidate, alignment=alignment)
    assert decision.aligned is not None and decision.aligned.status == SEMANTIC_ERROR
    assert decision.aligned.verdict is not None and decision.aligned.verdict.model is not None
    assert "aligned: not equivalent to any gold" in outcome(decision).details


def test_exactly_equivalent_stays_aligned_equivalent_without_another_solver_call() -> None:
    # Checked for two unrelated reasons: the renamed symbol occurs in no gold.
    one = item("p1", "Happy(ann)")
    candidate = Candidate("p1", "Happy(ann) ∧ (IsTall(ann) ∨ ¬IsTall(ann))")
    alignment = propose("story-1", [parse("IsTall(bob)", FOLIO)], [parse("Tall(bob)", FOLIO)])
    decision = decide(one, candidate, alignment=alignment)
    assert decision.status == CORRECT and decision.aligned is not None
    assert decision.aligned.status == CORRECT and decision.aligned.verdict is None


def test_a_fixed_vocabulary_is_never_renamed() -> None:
    from afcheck_fol.language import TARSKI

    tarski = Item("t1", "b is a cube", ("Cube(b)",), (parse("Cube(b)", TARSKI),), "low", TARSKI)
    assert align_groups([tarski], [Candidate("t1", "Cube(a)")]) == [None]
