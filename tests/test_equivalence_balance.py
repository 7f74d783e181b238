"""Brackets that do not pair up: a reference that cannot be Lean is bad input, a candidate
that cannot be Lean is the candidate's failure (never an Inconclusive skip)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from afcheck_equivalence.balance import bracket_problem
from afcheck_equivalence.outcome import outcome
from afcheck_equivalence.records import Inconclusive, Result
from afcheck_equivalence.suite import Item, load

from afcheck.errors import LoadError
from afcheck.types import Status


@pytest.mark.parametrize("text", [
    "theorem t (x : ℕ) (h : ⟨x, x⟩ = y) : {n | n > 0} = s := by sorry",
    'theorem t : f "(" = 1 := by sorry -- a ( in a comment',
    "theorem t : /- ( -/ [1] = [1] := by sorry",
])
def test_balanced_lean_has_no_problem(text: str) -> None:
    assert bracket_problem(text) == ""


@pytest.mark.parametrize(("text", "problem"), [
    ("theorem t : (1 + 1 = 2 := by sorry", "'(' at column 13 is never closed"),
    ("theorem t : 1 + 1) = 2", "')' at column 18 closes nothing open"),
    ("theorem t :\n  (x] = 1", "']' at line 2, column 5 closes nothing open"),
])
def test_unpaired_brackets_are_named_with_their_place(text: str, problem: str) -> None:
    assert bracket_problem(text) == problem


def test_a_reference_that_is_not_lean_is_bad_input_at_its_line(tmp_path: Path) -> None:
    good = {"id": "a", "reference": "theorem t : 1 + 1 = 2 := by sorry",
            "candidate": "theorem t : 2 = 1 + 1 := by sorry"}
    path = tmp_path / "items.jsonl"
    path.write_text(json.dumps(good) + "\n"
                    + json.dumps({**good, "id": "b", "reference": "theorem t : (1 = 1"}) + "\n")
    first, second = load(path)
    assert isinstance(first, Item)
    assert isinstance(second, LoadError) and second.location.line == 2 and second.name == "b"
    assert second.message == ("the reference is not Lean: '(' at column 13 is never closed; "
                              "fix the statement")


def test_a_candidate_that_is_not_lean_fails_instead_of_being_skipped() -> None:
    item = Item("a", "theorem t : 1 + 1 = 2 := by sorry")
    undecided = Inconclusive("sae", "the candidate does not parse")
    broken = outcome(Result(item, "theorem t : (1 + 1 = 2", undecided))
    assert broken.status is Status.FAILED
    assert broken.message == "the candidate is not Lean: '(' at column 13 is never closed"
    open_question = outcome(Result(item, "theorem t : Nat.Prime 7 := by sorry", undecided))
    assert open_question.status is Status.SKIPPED
