"""The class table T1–T4 / F1–F2."""

from __future__ import annotations

import pytest
from afcheck_chains.classes import CLASS_TABLE, ClassRule, classify
from afcheck_chains.records import Label

T, F, U = Label.TRUE, Label.FALSE, Label.UNKNOWN


@pytest.mark.parametrize(("correct", "labels", "path", "name"), [
    (True, [T, T], True, "T1"),
    (True, [T, F], True, "T2"),
    (True, [U, T], True, "T2"),
    (True, [T, T], False, "T3"),
    (True, [], False, "T3"),
    (True, [F], False, "T4"),
    (False, [T, T], True, "F1"),
    (False, [T, T], False, "F1"),
    (False, [T, U], True, "F2"),
])
def test_each_combination_has_its_class(correct: bool, labels: list[Label], path: bool,
                                        name: str) -> None:
    assert classify(correct, labels, path) == name


def test_the_table_is_data_a_corrected_row_changes_the_class() -> None:
    swapped = tuple(
        ClassRule("T3", r.answer_correct, r.erroneous_steps, r.valid_path, r.meaning)
        if r.name == "T2" else r for r in CLASS_TABLE
    )
    assert classify(True, [F], True, swapped) == "T3"
    with pytest.raises(ValueError, match="no class"):
        classify(True, [F], True, CLASS_TABLE[:1])
