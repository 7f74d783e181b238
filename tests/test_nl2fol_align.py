"""Equivalence up to a signature alignment, on outputs shaped like real FOLIO translations."""

from __future__ import annotations

from dataclasses import replace

import pytest
from afcheck_fol.language import FOLIO
from afcheck_fol.syntax import parse
from afcheck_nl2fol.align import (
    Alignment,
    Evidence,
    align,
    glosses,
    judge,
    normalised,
    opposed,
    propose,
    similarity,
    verdict_of,
)
from afcheck_nl2fol.decide import decide, outcome
from afcheck_nl2fol.pipeline import align_groups
from afcheck_nl2fol.records import CORRECT, SEMANTIC_ERROR, Candidate
from afcheck_nl2fol.suite import Item


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


def _aligned(gold: str, candidate: str, sentence: str, raw: str = "") -> tuple[str, object]:
    """The aligned decision of one item and its alignment."""
    one = Item("p1", sentence, (gold,), (parse(gold, FOLIO),), "unrated", FOLIO, group="s")
    cand = Candidate("p1", candidate, raw or candidate)
    (alignment,) = align_groups([one], [cand])
    return decide(one, cand, alignment=alignment).aligned_decision, alignment


# A name beside its negation, its opposite or another individual: written so that renaming
# one onto the other would make the candidate equivalent. None may be aligned.
PROBES = [
    ("CanFly(tweety)", "CannotFly(tweety)", "Tweety can fly."),
    ("∀x (LegalDrug(x) → Sold(x))", "∀x (IllegalDrugs(x) → Sold(x))", "Legal drugs are sold."),
    ("∀x (Male(x) → Tall(x))", "∀x (Female(x) → Tall(x))", "All males are tall."),
    ("Employer(ann)", "Employee(ann)", "Ann is an employer."),
    ("Payee(bo)", "Payer(bo)", "Bo is the payee."),
    ("Typical(rex)", "Atypical(rex)", "Rex is typical."),
    ("Informed(ann)", "Misinformed(ann)", "Ann is informed."),
    ("Caffeinated(tea)", "Decaffeinated(tea)", "The tea is caffeinated."),
    ("Happy(ann)", "Unhappy(ann)", "Ann is happy."),
    ("∀x (NoTakeOutService(x) → Cheap(x))", "∀x (TakeOutService(x) → Cheap(x))",
     "Restaurants that do not provide take-out service are cheap."),
    ("Profit(acme)", "NonProfit(acme)", "Acme makes a profit."),
    ("Actor(kim)", "Actress(kim)", "Kim is an actor."),
    ("Buyer(lee)", "Seller(lee)", "Lee is the buyer."),
    ("Tall(max)", "Short(max)", "Max is tall."),
    ("Winner(sam)", "Loser(sam)", "Sam is the winner."),
    ("From(kangaroo, australia)", "From(kangaroo, austria)", "The kangaroo is from Australia."),
    ("Born(georgeWashingtonCarver, y1864)", "Born(georgeWashington, y1864)",
     "George Washington Carver was born in 1864."),
    ("Model(gpt3)", "Model(gpt4)", "GPT-3 is a model."),
    ("FormerPlayer(ann)", "Player(ann)", "Ann is a former player."),
    ("Legal(act)", "Lawful(act)", "The act is legal."),  # no rule of name or meaning
]


@pytest.mark.parametrize(("gold", "candidate", "sentence"), PROBES,
                         ids=[p[1].split("(")[0].split()[-1] for p in PROBES])
def test_no_name_is_aligned_with_its_negation_opposite_or_another_individual(
        gold: str, candidate: str, sentence: str) -> None:
    decision, alignment = _aligned(gold, candidate, sentence)
    assert decision == SEMANTIC_ERROR, alignment


def test_the_model_s_gloss_does_not_turn_a_name_into_its_negation() -> None:
    raw = ("Predicates:\nTakeOutService(x) ::: x provides take-out service.\n"
           "Premises:\n∀x (TakeOutService(x) → Cheap(x)) ::: (1) …")
    decision, _ = _aligned("∀x (NoTakeOutService(x) → Cheap(x))",
                           "∀x (TakeOutService(x) → Cheap(x))",
                           "Restaurants that do not provide take-out service are cheap.", raw)
    assert decision == SEMANTIC_ERROR


# True renamings: the same meaning under the model's own names. All aligned, each with the
# rule that accepted it.
RENAMINGS = [
    ("Feud(ann, bo)", "HasFeud(ann, bo)", "Ann has a feud with Bo.", "'has' added"),
    ("Block(kim, sam)", "CanBlock(kim, sam)", "Kim can block Sam.", "'can' added"),
    ("FootballPlayer(ailton)", "Player(ailton)", "Ailton is a football player.",
     "'football' added, which the sentence says"),
    ("Player(ailton)", "FootballPlayer(ailton)", "Ailton is a player.", None),
    ("Striker(robertLewandowski)", "IsStriker(robertLewandowski)",
     "Robert Lewandowski is a striker.", "the same name up to"),
    ("PrintedText(1984)", "PrintedText(y1984)", "1984 is printed text.", "the same number"),
    ("Orchestra(viennaMusicSociety)", "Orchestra(vienna_music_society)",
     "The Vienna Music Society is an orchestra.", "the same name up to"),
    ("∀x (Student(x) → Young(x))", "∀x (Students(x) → Young(x))", "Students are young.",
     "plural"),
    ("Teach(ann, math)", "Teaching(ann, math)", "Ann teaches math.", "plural"),
    ("∀x (WorkInStudentJobs(x) → NeedMoney(x))", "∀x (Works(x) → NeedMoney(x))",
     "People who work in student jobs on campus need money.",
     "'student job' added, which the sentence says"),
]


@pytest.mark.parametrize(("gold", "candidate", "sentence", "why"), RENAMINGS,
                         ids=[r[1].split("(")[0].split()[-1] for r in RENAMINGS])
def test_true_renamings_are_aligned_with_what_accepted_them(
        gold: str, candidate: str, sentence: str, why: str | None) -> None:
    decision, alignment = _aligned(gold, candidate, sentence)
    if why is None:  # the name says less than the gold: the rules do not guess
        assert decision == SEMANTIC_ERROR
        return
    assert decision == CORRECT
    assert isinstance(alignment, Alignment)
    assert any(why in line for line in alignment.explain()), alignment.explain()


def test_a_gloss_earns_a_renaming_the_name_alone_cannot() -> None:
    raw = ("Predicates:\nWorks(x) ::: x works in student jobs on campus.\n"
           "NeedMoney(x) ::: x needs to earn money.")
    decision, alignment = _aligned("∀x (WorkInStudentJobs(x) → NeedMoney(x))",
                                   "∀x (Works(x) → NeedMoney(x))",
                                   "Those who work there need money.", raw)
    assert decision == CORRECT and isinstance(alignment, Alignment)
    assert "which the model's gloss says" in alignment.reason("Works/1")
    # Without the gloss, the sentence alone does not say which work.
    assert _aligned("∀x (WorkInStudentJobs(x) → NeedMoney(x))", "∀x (Works(x) → NeedMoney(x))",
                    "Those who work there need money.")[0] == SEMANTIC_ERROR


def test_names_that_never_meet_in_a_sentence_are_not_renamed() -> None:
    # HasFeud is used for p1, Feud in the gold of p2 only: no sentence read both ways.
    items = [item("p1", "Rival(ann, bo)"), item("p2", "Feud(ann, bo)")]
    candidates = [Candidate("p1", "HasFeud(ann, bo)"), Candidate("p2", "Fight(ann, bo)")]
    assert align_groups(items, candidates) == [None, None]


def test_opposed_names_say_why() -> None:
    assert opposed("CannotFly", "CanFly") == "negation: 'cannot'"
    assert opposed("IllegalDrugs", "LegalDrug").startswith("negating prefix 'il'")
    assert opposed("Employee", "Employer").startswith("two roles of one stem")
    assert opposed("Male", "Female").startswith(("opposites", "negating prefix"))
    assert opposed("HasFeud", "Feud") == "" and opposed("FootballPlayer", "Player") == ""


class FakeJudge:
    """A model that confirms a renaming when its question names one of ``yes``."""

    def __init__(self, yes: set[str]) -> None:
        self.yes = yes
        self.asked: list[str] = []

    def __call__(self, questions: list[str]) -> list[str]:
        self.asked.extend(questions)
        return ["Yes, both name the feud." if any(f"model's predicate: {k}" in q
                                                   for k in self.yes)
                else "No: one is a different property." for q in questions]


def test_a_judge_confirms_each_renaming_and_its_answer_is_kept() -> None:
    items = [item("p1", "Feud(ann, bo)"), item("p2", "∀x (Striker(x) → Player(x))")]
    candidates = [Candidate("p1", "HasFeud(ann, bo)"),
                  Candidate("p2", "∀x (IsStriker(x) → Player(x))")]
    fake = FakeJudge({"HasFeud/2"})
    first, second = align_groups(items, candidates, fake)
    assert len(fake.asked) == 2 and all("Do the two names mean" in q for q in fake.asked)
    assert first is not None and first.predicates == ((("HasFeud", 2), "Feud"),)
    assert "judge: Yes, both name the feud." in first.reason("HasFeud/2")
    decision = decide(items[0], candidates[0], alignment=first)
    assert decision.aligned_decision == CORRECT
    assert "judge: Yes" in outcome(decision).details
    # Refused: not renamed, so the aligned figure does not count it; the answer is kept.
    assert second is not None and second.empty
    refusal = decide(items[1], candidates[1], alignment=second)
    assert refusal.aligned_decision == SEMANTIC_ERROR
    assert "not renamed IsStriker/1 → Striker: judge: No" in outcome(refusal).details
    alignment = align(  # the group's whole alignment, as the judge left it
        "story-1", [Evidence(parse("∀x (IsStriker(x) → Player(x))", FOLIO),
                             (parse("∀x (Striker(x) → Player(x))", FOLIO),))])
    refused = judge(alignment, [], FakeJudge(set()))
    assert refused.empty and refused.rejected == (
        ("IsStriker/1 → Striker", "judge: No: one is a different property."),)
    assert Alignment.from_json(refused.to_json()) == refused


def test_an_answer_that_is_neither_yes_nor_no_confirms_nothing() -> None:
    alignment = propose("s", [parse("HasFeud(a, b)", FOLIO)], [parse("Feud(a, b)", FOLIO)])
    assert not alignment.empty
    assert judge(alignment, [], lambda qs: ["Perhaps." for _ in qs]).empty
    assert verdict_of("**Yes** they match") is True and verdict_of("no.") is False


def test_the_aligned_figure_lists_the_renamings_it_used_and_what_accepted_each() -> None:
    from afcheck_nl2fol.metrics import summarise

    items = [item("p1", "Feud(ann, bo)"), item("p2", "∀x (Striker(x) → Player(x))")]
    candidates = [Candidate("p1", "HasFeud(ann, bo)"),
                  Candidate("p2", "∀x (IsStriker(x) → Player(x))")]
    alignments = align_groups(items, candidates, FakeJudge({"HasFeud/2"}))
    summary = summarise([decide(i, c, alignment=a)
                         for i, c, a in zip(items, candidates, alignments, strict=True)])
    assert summary.overall.aligned_correct == 1
    [(where, renaming, by)] = summary.renamings
    assert (where, renaming) == ("nl2fol:story-1", "HasFeud/2 → Feud")
    assert by.startswith("one name is the other with 'has' added; judge: Yes")
    assert summary.refused[0][1:] == ("IsStriker/1 → Striker",
                                      "judge: No: one is a different property.")
    assert "renamings behind the aligned figure: 1 (meaning 1; confirmed by the judge 1, " \
        "refused 1)" in summary.render()
    assert summary.to_json()["renamings"] == [
        {"group": "nl2fol:story-1", "renaming": "HasFeud/2 → Feud", "by": by}]


@pytest.mark.parametrize(("gold", "candidate"), [
    ("Grade(ann, a)", "Grade(ann, a+)"), ("Uses(ann, c)", "Uses(ann, c++)"),
    ("Chess(bo)", "Chest(bo)"), ("SummerOlympicsCity(bo)", "SummerOlympicsCountry(bo)"),
    ("TravelingFrom(ann, bo)", "TravelingTo(ann, bo)"), ("PlanA(bo)", "PlanB(bo)"),
    ("Extrovert(bo)", "Introvert(bo)"), ("Rounded(bo)", "Roundel(bo)"),
    ("ProfessionalTennisPlayer(bo)", "ProfessionalTennisUmpire(bo)"),
    ("In(ann, bo)", "StruckIn(ann, bo)"),
])
def test_two_names_of_a_folio_story_are_not_one(gold: str, candidate: str) -> None:
    """Pairs of names that FOLIO's annotators used side by side in one story, each naming
    its own thing: a model writing one where the gold has the other is not renamed."""
    assert _aligned(gold, candidate, "x is what the story says.")[0] == SEMANTIC_ERROR


def test_a_word_spelt_two_ways_is_one_name() -> None:
    decision, alignment = _aligned("∀x (FavouriteSong(x) → Old(x))",
                                   "∀x (FavoriteSong(x) → Old(x))", "Favourite songs are old.")
    assert decision == CORRECT and isinstance(alignment, Alignment)
    assert alignment.reason("FavoriteSong/1").startswith(
        "the same words spelt differently (favorite/favourite)")


def test_names_alike_that_no_rule_settles_go_to_the_judge_only() -> None:
    items = [item("p1", "∀x (Rounded(x) → Old(x))")]
    candidates = [Candidate("p1", "∀x (Roundel(x) → Old(x))")]
    assert align_groups(items, candidates) == [None]   # the rules alone: not renamed
    fake = FakeJudge({"Roundel/1"})
    (judged,) = align_groups(items, candidates, fake)
    assert judged is not None and judged.predicates == ((("Roundel", 1), "Rounded"),)
    assert judged.reason("Roundel/1").startswith("similar spelling (0.86) in the same sentence")
    assert "judge: Yes" in judged.reason("Roundel/1")
    # Never a pair the guard refuses, judge or not.
    guarded = [item("p1", "CanFly(tweety)")], [Candidate("p1", "CannotFly(tweety)")]
    assert align_groups(*guarded, FakeJudge({"CannotFly/1"})) == [None]
    # Two words of one sentence, unrelated in form: the judge's alone.
    rivals = [item("p1", "Feud(ann, bo)")], [Candidate("p1", "Rival(ann, bo)")]
    rivals[0][0] = replace(rivals[0][0], sentence="Ann is Bo's rival in a long feud.")
    assert align_groups(*rivals) == [None]
    (judged_rival,) = align_groups(*rivals, FakeJudge({"Rival/2"}))
    assert judged_rival is not None and judged_rival.predicates == ((("Rival", 2), "Feud"),)
    assert judged_rival.reason("Rival/2").startswith("both names are words of the same")
    # A constant alike in spelling is the judge's to accept (a typo) or refuse (another
    # place); a longer name of an individual is never asked.
    places = [item("p1", "From(kangaroo, australia)")], [Candidate("p1",
                                                                   "From(kangaroo, austria)")]
    (refused,) = align_groups(*places, FakeJudge(set()))
    assert refused is not None and refused.empty
    assert refused.rejected[0][0] == "austria → australia"
    people = ([item("p1", "Born(georgeWashingtonCarver, y1864)")],
              [Candidate("p1", "Born(georgeWashington, y1864)")])
    asked = FakeJudge({"georgeWashington"})
    assert align_groups(*people, asked) == [None] and asked.asked == []


def test_glosses_are_read_from_the_model_s_own_declarations() -> None:
    raw = ("Predicates:\nDependent(x) ::: x is a person dependent on caffeine.\n"
           "- Drinks(x, y) ::: x drinks y regularly.\n"
           "Premises:\n∀x (Drinks(x, coffee) → Dependent(x)) ::: All coffee drinkers …\n"
           "Dependent(x) ::: a second gloss is not read")
    assert glosses(raw) == {"Dependent": "x is a person dependent on caffeine.",
                            "Drinks": "x drinks y regularly."}
