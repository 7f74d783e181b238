"""Step segmentation and filtering of model responses."""

from __future__ import annotations

import pytest
from afcheck_chains.records import Label
from afcheck_chains.segment import (
    Answered,
    answer_end,
    classify_sentence,
    kept_steps,
    read_answer,
    segment,
)

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


@pytest.mark.parametrize(("response", "label"), [
    # Final answers as models write them (Llama-2 / Mistral chat style).
    ("Max is a yumpus. Yumpuses are not sour.\nThe correct option is: B", Label.FALSE),
    ("The correct answer is A) True.", Label.TRUE),
    ("Answer: True", Label.TRUE),
    ("Max is a dumpus.\nTherefore, the statement is false.", Label.FALSE),
    ('So, the statement "Max is sour" is true.', Label.TRUE),
    ("Thus the statement is not true.", Label.FALSE),
    ("Max is not sour.\n\n**False**", Label.FALSE),
    ("**(C) Unknown**", Label.UNKNOWN),
    ("So the answer is (B) False.", Label.FALSE),
    ("The answer is: C) Unknown", Label.UNKNOWN),
    ("Final answer: **Unknown**", Label.UNKNOWN),
    ("Max is a wumpus.\nFalse", Label.FALSE),
    ("Max is a tumpus.\nSo, Max is sour is false.", Label.FALSE),
    ("Max is not a tumpus, so Max being sour is unknown.", Label.UNKNOWN),
    ("If Max is a yumpus, he is a dumpus. The answer is True.", Label.TRUE),
    # The last answer wins over an earlier guess.
    ("Answer: True\nWait, Max is not sour.\nThe statement is false.", Label.FALSE),
])
def test_answers_are_read_as_models_write_them(response: str, label: Label) -> None:
    assert read_answer(response) is label


@pytest.mark.parametrize("response", [
    "We need to determine if the statement is true.\nMax is a yumpus.",
    "Let's check whether the statement is true or false.",
    "The answer is a clear one: Max is a dumpus.",
    "Max is a yumpus, so Max is a dumpus.",
    "Let's see whether Max is sour is true.",
    "To check if the claim is false, look at the premises.",
])
def test_no_answer_is_found_where_none_is_given(response: str) -> None:
    assert read_answer(response) is None


def test_answer_lines_are_not_kept_as_steps() -> None:
    response = ("Max is red.\n**False**\nThe correct option is: B\n"
                "Therefore, the statement is false.\nB) False\n(B)")
    assert kept_steps(response) == ("Max is red.",)


CHAT = """Sure! Here's my reasoning:

1. Max is a yumpus (premise 10).
2. Each yumpus is a dumpus, so Max is a dumpus.
3. Based on the given information, Max is an impus.
Step 4: Tumpuses are not sour.
Okay, so we know that Max is a tumpus. From the premises, we know that every tumpus is cold.
Based on the premises we can conclude that Max is not sour.
Therefore, the statement "Max is sour" is false.

I hope this helps! Let me know if you have any other questions.
The correct option is: B) False"""


def test_a_chat_models_courtesies_and_citations_are_not_steps() -> None:
    """Llama-2-chat style: greetings, headings, cited premises, "based on …" openers."""
    assert kept_steps(CHAT) == (
        "Max is a yumpus.", "Each yumpus is a dumpus, so Max is a dumpus.", "Max is an impus.",
        "Tumpuses are not sour.", "Max is a tumpus.", "Every tumpus is cold.",
        "Max is not sour.")
    reasons = {s.text: s.reason for s in segment(CHAT) if not s.kept}
    assert reasons["Sure!"] == reasons["Here's my reasoning:"] == "meta"
    assert reasons["I hope this helps!"] == "meta"
    assert read_answer(CHAT) is Label.FALSE


def test_a_phrase_naming_a_source_is_stripped_only_up_to_its_comma() -> None:
    # Without the comma the opener is not a source phrase: the sentence is kept whole or
    # dropped, never cut in the middle.
    assert kept_steps("Based on the rule that wumpuses are red Max is red.") == ()
    assert kept_steps("From the premises, Max is red.") == ("Max is red.",)


FEW_SHOT = """Max is a yumpus. Each yumpus is a dumpus. So Max is a dumpus.
The correct option is: B
------
Context: Each wumpus is red. Max is a wumpus.
Question: Is the following statement true or false? Max is red.
Options:
A) True
B) False
Reasoning: Max is a wumpus. Each wumpus is red. So Max is red.
The correct option is: A"""


def test_the_response_ends_at_its_answer_line() -> None:
    answered = answer_end(FEW_SHOT)
    assert answered.text.endswith("The correct option is: B")
    assert answered.cut.startswith("after the answer line 2:")
    assert read_answer(answered.text) is Label.FALSE   # not the next example's A
    assert kept_steps(answered.text) == ("Max is a yumpus.", "Each yumpus is a dumpus.",
                                         "Max is a dumpus.")


@pytest.mark.parametrize("follow", ["------", "=====", "Context: Bob is big.",
                                    "Question: Is Bob big?", "Options:", "### Example 2:"])
def test_a_few_shot_continuation_after_the_answer_is_cut_where_it_starts(follow: str) -> None:
    response = (f"Max is a tumpus.\nTherefore, the statement is false.\n{follow}\n"
                "Bob is big. Bob is sour.\nThe correct option is: A")
    answered = answer_end(response)
    assert answered.text == "Max is a tumpus.\nTherefore, the statement is false."
    assert "at line 3" in answered.cut and "characters dropped" in answered.cut
    assert read_answer(answered.text) is Label.FALSE


@pytest.mark.parametrize("follow", ["------\n\nContext: Bob is big.", "Context: Bob is big."])
def test_a_new_problem_ends_a_response_even_before_its_answer(follow: str) -> None:
    answered = answer_end(f"Max is a tumpus.\n{follow}\nBob is big.\nAnswer: True")
    assert answered.text == "Max is a tumpus." and "at line 2" in answered.cut
    assert read_answer(answered.text) is None   # not the next example's answer


def test_nothing_is_cut_from_a_response_that_ends_with_its_answer() -> None:
    response = "Max is a tumpus.\nAnswer: False\n\n"
    assert answer_end(response) == Answered(response)
    # An echoed question before the reasoning opens the response; it is not a claim.
    echoed = "Question: Is Max sour?\nMax is not sour.\nAnswer: False"
    assert answer_end(echoed).cut == ""
    assert kept_steps(echoed) == ("Max is not sour.",)
    assert [s.reason for s in segment(echoed) if not s.kept][0] == "echo"
    # "We need to find the answer" is no answer line.
    assert answer_end("We need to find the answer: true or not.\nMax is sour.").cut == ""
    # A markdown rule before the answer, a restated question, an answer given first and then
    # explained: all the model's own.
    for own in ("Max is not sour.\n---\n**Answer: False**",
                "Max is not sour.\nQuestion: is Max sour? He is not.\nAnswer: False",
                "Answer: False\nMax is a tumpus. Tumpuses are not sour."):
        assert answer_end(own) == Answered(own), own
