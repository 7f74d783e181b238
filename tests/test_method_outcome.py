"""An item's outcome (:class:`afcheck.method.ItemOutcome`): its details given as text or as a
function that makes them, called once, on the first read."""

from __future__ import annotations

import dataclasses
import functools
import pickle

import pytest
from afcheck_faithfulness import method as faithfulness_method
from afcheck_faithfulness import synthetic
from afcheck_faithfulness.method import Faithfulness
from afcheck_faithfulness.records import CaseResult
from afcheck_faithfulness.render import details, one_line

from afcheck.method import ItemOutcome
from afcheck.types import Status


class Counted:
    """A function of no arguments that makes a text and counts its calls."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.calls = 0

    def __call__(self) -> str:
        self.calls += 1
        return self.text


def test_details_given_as_a_function_are_made_on_the_first_read_and_only_then() -> None:
    made = Counted("the body")
    outcome = ItemOutcome(Status.FAILED, "why", made)
    assert made.calls == 0
    assert outcome.details == "the body"
    assert outcome.details == "the body"
    assert made.calls == 1


def test_an_outcome_with_made_details_equals_one_with_the_text() -> None:
    made = ItemOutcome(Status.FAILED, "why", Counted("the body"))
    given = ItemOutcome(Status.FAILED, "why", "the body")
    assert made == given and hash(made) == hash(given)
    assert repr(made) == repr(given)
    assert dataclasses.replace(made, message="other").details == "the body"
    assert ItemOutcome(Status.PASSED).details == ""


def test_details_cannot_be_set_from_outside() -> None:
    outcome = ItemOutcome(Status.FAILED, "why", Counted("the body"))
    with pytest.raises(dataclasses.FrozenInstanceError):
        outcome.details = "another"  # type: ignore[misc]
    assert outcome.details == "the body"


def test_details_that_are_neither_text_nor_a_function_are_refused() -> None:
    with pytest.raises(TypeError, match="not int"):
        ItemOutcome(Status.FAILED, "why", 3)  # type: ignore[arg-type]
    outcome = ItemOutcome(Status.FAILED, "why", lambda: 3)  # type: ignore[arg-type,return-value]
    with pytest.raises(TypeError, match="gave int"):
        _ = outcome.details


def test_an_outcome_whose_details_are_not_read_yet_pickles() -> None:
    outcome = ItemOutcome(Status.FAILED, "why", functools.partial(str.upper, "body"))
    assert pickle.loads(pickle.dumps(outcome)).details == "BODY"


def test_a_failed_faithfulness_case_makes_its_details_only_when_read(
        monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[str] = []

    def counted(result: CaseResult, line: str | None = None) -> str:
        made.append(result.case_id)
        return details(result, line)

    monkeypatch.setattr(faithfulness_method, "details", counted)
    method = Faithfulness()
    failed = [r for r in synthetic.results(60, seed=3) if r.status is Status.FAILED]
    assert failed
    outcomes = [method.outcome(result) for result in failed]
    assert made == []
    for result, outcome in zip(failed, outcomes, strict=True):
        assert outcome.details == details(result, one_line(result))
        assert outcome.message == one_line(result)
    assert made == [result.case_id for result in failed]
