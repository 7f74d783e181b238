"""The nl2fol method's one result type and its codec: a decision written and read back is the
same decision, whatever its outcome; the metrics of a file read back are the run's; a cache
row that lacks what its decision needs is refused."""

from __future__ import annotations

from dataclasses import replace

import pytest
from afcheck_fol.language import FOLIO, TARSKI
from afcheck_fol.syntax import parse
from afcheck_nl2fol.decide import decide
from afcheck_nl2fol.metrics import summarise
from afcheck_nl2fol.pipeline import align_groups
from afcheck_nl2fol.records import (
    CORRECT,
    GOLD_ERROR,
    NO_OUTPUT,
    SEMANTIC_ERROR,
    SYNTAX_ERROR,
    Candidate,
    Decision,
    checked,
    from_json,
    to_json,
)
from afcheck_nl2fol.suite import Item, load_jsonl


def tarski(item_id: str, difficulty: str, *gold: str) -> Item:
    return Item(item_id, f"sentence {item_id}", gold, tuple(parse(g, TARSKI) for g in gold),
                difficulty, TARSKI, dataset="tw")


def folio(item_id: str, gold: str) -> Item:
    return Item(item_id, f"sentence {item_id}", (gold,), (parse(gold, FOLIO),), "wiki", FOLIO,
                dataset="folio", group="story-1")


def decisions() -> list[Decision]:
    """One decision of every kind: correct, not equivalent (with a counter-model), a syntax
    error, no output, a gold formula that does not parse, and one judged up to a renaming."""
    smaller = tarski("s", "low", "Smaller(b, c)", "Larger(c, b)")
    cubes = tarski("c", "high", "∀x (Cube(x) → Small(x))")
    found = [
        decide(smaller, Candidate("s", "Larger(c, b)", "= Larger(c, b)")),
        decide(cubes, Candidate("c", "∀x (Cube(x) → Large(x))")),
        decide(cubes, Candidate("c", "∀x (Cube(x) → Small(x)")),
        decide(cubes, Candidate("c", None, "", "the server answered 500")),
    ]
    bad_gold = load_jsonl_item('{"id": "g", "sentence": "a is a cube.", "gold": "Cube(a"}')
    found.append(decide(bad_gold, Candidate("g", "Cube(a)")))
    items = [folio("p1", "Striker(robertLewandowski)"), folio("p2", "Tall(robertLewandowski)")]
    candidates = [Candidate("p1", "IsStriker(robertLewandowski)"),
                  Candidate("p2", "Tall(robertLewandowski)")]
    alignment = align_groups(items, candidates)[0]
    found.append(decide(items[0], candidates[0], alignment=alignment))
    return found


def load_jsonl_item(line: str) -> Item:
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "items.jsonl"
        path.write_text(line + "\n", encoding="utf-8")
        loaded = load_jsonl(path, TARSKI)
    (item,) = loaded.items
    return item


DECISIONS = decisions()


def test_every_kind_of_decision_is_there() -> None:
    assert [d.status for d in DECISIONS] == [CORRECT, SEMANTIC_ERROR, SYNTAX_ERROR, NO_OUTPUT,
                                             GOLD_ERROR, SEMANTIC_ERROR]
    assert DECISIONS[1].verdict is not None and DECISIONS[1].verdict.model is not None
    assert DECISIONS[-1].aligned is not None and DECISIONS[-1].aligned_decision == CORRECT


@pytest.mark.parametrize("decision", DECISIONS, ids=lambda d: f"{d.item.id}-{d.status}")
def test_a_decision_read_back_is_the_same_decision(decision: Decision) -> None:
    # As the result file holds it: the run adds the item's group (its dataset).
    record = {**to_json(decision), "group": decision.item.dataset}
    back = from_json(record)
    assert to_json(back) == to_json(decision)
    assert back.item == decision.item and back.candidate == decision.candidate
    assert (back.status, back.error_class, back.error_rule, back.ted, back.theory,
            back.aligned_decision) == (decision.status, decision.error_class,
                                       decision.error_rule, decision.ted, decision.theory,
                                       decision.aligned_decision)
    assert back.seconds == pytest.approx(decision.seconds, abs=1e-4)
    assert checked(record) is record


def test_the_metrics_of_a_file_read_back_are_the_runs() -> None:
    back = [from_json({**to_json(d), "group": d.item.dataset}) for d in DECISIONS]
    assert summarise(back).to_json() == summarise(DECISIONS).to_json()


def test_a_gold_error_read_back_names_its_formula_and_class() -> None:
    back = from_json(to_json(DECISIONS[4]))
    assert back.item.gold_error is not None
    assert (back.item.gold_error.index, back.item.gold_error.text) == (0, "Cube(a")
    assert back.item.gold_error.error.error_class.value == "structure"


@pytest.mark.parametrize(("change", "why"), [
    ({"decision": "maybe"}, "not a decision record"),
    ({"equivalence": None}, "without its equivalence"),
    ({"gold_index": "0"}, "without its gold_index"),
    ({"equivalence": {"counter_model": {"domain": 3}}}, "cannot be read"),
])
def test_a_cache_row_without_what_its_decision_needs_is_refused(
        change: dict[str, object], why: str) -> None:
    with pytest.raises(ValueError, match=why):
        checked({**to_json(DECISIONS[1]), **change})


def test_a_syntax_error_row_needs_a_readable_error() -> None:
    record = to_json(DECISIONS[2])
    with pytest.raises(ValueError, match="without its syntax_error"):
        checked({**record, "syntax_error": None})
    with pytest.raises(ValueError, match="cannot be read"):
        checked({**record, "syntax_error": {"class": "no such class"}})


def test_a_row_is_read_for_any_item_with_the_same_golds_and_candidate() -> None:
    # The cache keys a row by the golds and the candidate: the run puts its own item back.
    decision = DECISIONS[0]
    other = replace(decision.item, id="t", sentence="another sentence")
    again = replace(from_json(to_json(decision)), item=other)
    assert to_json(again)["id"] == "t" and again.status == decision.status


def test_the_method_writes_and_reads_with_the_codec() -> None:
    from afcheck_nl2fol.method import Nl2FolMethod

    method = Nl2FolMethod()
    for decision in DECISIONS:
        assert method.to_json(decision) == to_json(decision)
        assert to_json(method.from_json(method.to_json(decision))) == to_json(decision)
