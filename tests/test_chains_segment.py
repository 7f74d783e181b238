"""Step segmentation and filtering of model responses."""

from __future__ import annotations

from afcheck_chains.records import Label
from afcheck_chains.segment import classify_sentence, kept_steps, read_answer, segment

RESPONSE = """Let's think step by step.
1. Max is a yumpus.
2. Each yumpus is a dumpus, so Max is a dumpus.
Is Max a wumpus? We know that dumpuses are wumpuses.
Therefore, Max is a wumpus.
Max is possibly sour. Wren is not necessarily a gorpus.
This contradicts the premise.
The answer is False."""


def test_kept_steps_are_the_plain_claims_without_markers() -> None:
    assert kept_steps(RESPONSE) == (
        "Max is a yumpus.",
        "Each yumpus is a dumpus, so Max is a dumpus.",
        "Dumpuses are wumpuses.",
        "Max is a wumpus.",
    )


def test_each_dropped_sentence_says_why() -> None:
    reasons = {s.text: s.reason for s in segment(RESPONSE) if not s.kept}
    assert reasons == {
        "Let's think step by step.": "meta",
        "Is Max a wumpus?": "question",
        "Max is possibly sour.": "hedged",
        "Wren is not necessarily a gorpus.": "hedged",
        "This contradicts the premise.": "hedged",
        "The answer is False.": "meta",
    }


def test_step_lists_are_segmented_too() -> None:
    assert kept_steps(["Step 1: Max is a yumpus.", "So Max is red. Maybe Max is sour."]) == (
        "Max is a yumpus.", "Max is red.")
    assert not classify_sentence("- ").kept


def test_the_last_answer_line_wins() -> None:
    assert read_answer(RESPONSE) is Label.FALSE
    assert read_answer("Answer: (A)\nFinal answer: unknown") is Label.UNKNOWN
    assert read_answer("Max is a wumpus.") is None
