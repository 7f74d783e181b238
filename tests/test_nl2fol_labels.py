"""The evaluator against its own hand-labelled test set (suites/tarski/labelled.jsonl)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from afcheck_fol.language import TARSKI
from afcheck_nl2fol.decide import decide
from afcheck_nl2fol.labels import LABELS, label_of, load_labels
from afcheck_nl2fol.records import Candidate
from afcheck_nl2fol.suite import load_jsonl

SUITE = Path(__file__).resolve().parent.parent / "suites" / "tarski"


@pytest.mark.heavy
def test_the_evaluator_agrees_with_every_hand_label() -> None:
    items = {item.id: item for item in load_jsonl(SUITE / "sentences.jsonl", TARSKI).items}
    labelled, errors = load_labels(SUITE / "labelled.jsonl")
    assert errors == []
    assert len(labelled) >= 200
    counts = Counter(entry.label for entry in labelled)
    assert set(counts) == set(LABELS), "every label is represented"
    disagreements = []
    for entry in labelled:
        decision = decide(items[entry.item], Candidate(entry.item, entry.candidate))
        found = label_of(decision)
        if found != entry.label:
            disagreements.append(f"{entry.location} {entry.candidate!r}: labelled "
                                 f"{entry.label}, evaluator says {found}")
    assert disagreements == []


def test_golds_of_an_item_are_equivalent_under_the_analytic_truths() -> None:
    from afcheck_fol.equiv import check

    for item in load_jsonl(SUITE / "sentences.jsonl", TARSKI).items:
        for index, gold in enumerate(item.formulas[1:], start=1):
            verdict = check(item.formulas[0], gold, TARSKI)
            assert verdict.equivalent is True, f"{item.id} gold {index}: {verdict.how}"


def test_bad_label_lines_are_reported(tmp_path: Path) -> None:
    path = tmp_path / "labels.jsonl"
    path.write_text('{"id": "x", "item": "i", "candidate": "Cube(a)", "label": "maybe"}\n'
                    "nope\n", encoding="utf-8")
    found, errors = load_labels(path)
    assert found == []
    assert [str(e).split(": ")[0] for e in errors] == [f"{path}:1", f"{path}:2"]
