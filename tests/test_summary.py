"""The run's record of each item (:meth:`RunSummary.record`) and its JSON text
(:meth:`RunSummary.record_texts`), with and without a method's own text."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import cast

from afcheck_faithfulness import synthetic
from afcheck_faithfulness.method import Faithfulness

from afcheck.errors import LoadError
from afcheck.method import AnyMethod, Case, ItemOutcome, ItemResult, JsonObject, MethodBase
from afcheck.summary import RunSummary
from afcheck.types import Location, Status


def _json(data: object) -> str:
    return json.dumps(data, ensure_ascii=False)


class Plain(MethodBase[object, Mapping[str, object]]):
    """A method whose records have no text of their own, and name their group."""

    name = "plain"

    def to_json(self, result: Mapping[str, object]) -> JsonObject:
        return {"group": "its own", **result}


class Texted(Plain):
    """The same records with their text, whose keys the summary learns once."""

    name = "texted"

    def to_json_text(self, result: Mapping[str, object]) -> str:
        return _json(self.to_json(result))


class Empty(MethodBase[object, object]):
    """A method whose records are empty, with their text."""

    name = "empty"

    def to_json(self, result: object) -> JsonObject:
        return {}

    def to_json_text(self, result: object) -> str:
        return "{}"


def _item(method: str, result: object, status: Status = Status.PASSED,
          group: str = "g") -> ItemResult[object]:
    case: Case[object] = Case(f"s::{method}/{id(result)}", "n", method, "s", group, None, None)
    return ItemResult(case, result, ItemOutcome(Status.PASSED), status)


def _summary(items: list[ItemResult[object]]) -> RunSummary:
    methods = {m.name: cast(AnyMethod, m) for m in (Plain(), Texted(), Empty(), Faithfulness())}
    return RunSummary(items, {}, implementations=methods)


def test_each_text_is_the_text_of_the_record_in_order() -> None:
    bad = LoadError(Location("s/a.jsonl", 3), "not JSON \ud800")
    items = [_item("plain", {"x": 1}), _item("texted", {"x": "é ⊤"}, Status.XFAILED),
             _item("empty", object(), Status.SKIPPED, "math"), _item("texted", bad, Status.FAILED),
             *(_item("faithfulness", r, r.status, r.step.dataset)
               for r in synthetic.results(50, seed=1))]
    summary = _summary(items)
    texts = list(summary.record_texts())
    assert len(texts) == len(items)
    for item, text in zip(items, texts, strict=True):
        expected = _json(summary.record(item))
        # Lone surrogates are escaped, which reads back to the same record.
        assert text == expected.replace("\ud800", "\\ud800")
        assert json.loads(text) == summary.record(item)


def test_the_keys_a_record_names_are_not_added_again() -> None:
    summary = _summary([_item("texted", {"case_id": "mine"}, group="g1")])
    record = json.loads(next(summary.record_texts()))
    assert list(record) == ["group", "case_id", "method", "status"]
    assert record["group"] == "its own" and record["case_id"] == "mine"


def test_an_empty_record_gets_the_added_keys_alone() -> None:
    item = _item("empty", None, Status.SKIPPED, "math")
    assert next(_summary([item]).record_texts()) == _json(
        {"case_id": item.case.case_id, "group": "math", "method": "empty",
         "status": "skipped"})


def test_a_record_that_names_method_or_status_is_written_from_its_record() -> None:
    # record() overwrites these in place; appended after a method's text they would repeat.
    items = [_item("texted", {"status": "mine", "x": 1}, Status.FAILED),
             _item("texted", {"status": "mine", "x": 2})]
    summary = _summary(items)
    for item, text in zip(items, summary.record_texts(), strict=True):
        assert text == _json(summary.record(item))
        assert text.count('"status"') == 1 and json.loads(text)["status"] == item.status.value


def test_texts_not_made_utf8_safe_keep_their_lone_surrogates() -> None:
    bad = LoadError(Location("s/a.jsonl", 3), "not JSON \ud800")
    items = [_item("texted", {"x": "é \udfff"}), _item("texted", bad, Status.FAILED)]
    summary = _summary(items)
    for item, text in zip(items, summary.record_texts(utf8_safe=False), strict=True):
        assert text == _json(summary.record(item))
