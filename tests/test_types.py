"""The shared records as JSON data (:func:`afcheck.types.to_json`)."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from afcheck.types import (
    Formalisation,
    FormalisationStatus,
    Location,
    Usage,
    Verdict,
    VerdictKind,
    to_json,
)


def test_a_formalisation_is_written_field_by_field_in_field_order() -> None:
    formalisation = Formalisation("s/1#original", "literal", FormalisationStatus.OK,
                                  "theorem t : 1 = 1 := by sorry", usage=Usage(3, 4, 0.5))
    data = to_json(formalisation)
    assert list(data) == ["key", "formaliser", "status", "statement", "header", "raw_output",
                          "reason", "usage", "transient"]
    assert data == {"key": "s/1#original", "formaliser": "literal", "status": "ok",
                    "statement": "theorem t : 1 = 1 := by sorry", "header": "",
                    "raw_output": "", "reason": "",
                    "usage": {"prompt_tokens": 3, "completion_tokens": 4, "latency_s": 0.5,
                              "cost_usd": None, "finish_reason": ""},
                    "transient": False}


def test_a_verdicts_counterexample_mapping_and_enum_are_plain() -> None:
    verdict = Verdict(VerdictKind.REFUTED, "smt", counterexample={"x": "3"}, elapsed_s=0.25)
    assert to_json(verdict) == {"kind": "refuted", "backend": "smt", "certified": False,
                                "reason": "", "evidence": "", "counterexample": {"x": "3"},
                                "elapsed_s": 0.25, "transient": False}


class Colour(str, enum.Enum):
    RED = "red"


@dataclass(frozen=True)
class Inner:
    colour: Colour
    where: Location | None = None


@dataclass(frozen=True)
class Outer:
    name: str
    inner: Inner
    items: tuple[Inner, ...] = ()
    by_number: dict[int, Inner] = field(default_factory=dict)
    numbers: list[float] = field(default_factory=list)


def test_nested_records_sequences_and_mappings_are_written_all_the_way_down() -> None:
    inner = Inner(Colour.RED, Location("a.json", 3))
    record = Outer("o", inner, (inner, Inner(Colour.RED)), {7: inner}, [1.5, 2])
    written = {"colour": "red", "where": {"path": "a.json", "line": 3, "record": None}}
    bare = {"colour": "red", "where": None}
    assert to_json(record) == {"name": "o", "inner": written, "items": [written, bare],
                               "by_number": {"7": written}, "numbers": [1.5, 2]}


def test_two_classes_with_the_same_field_names_keep_their_own_values() -> None:
    @dataclass(frozen=True)
    class A:
        x: int

    @dataclass(frozen=True)
    class B:
        x: Colour

    assert to_json(A(1)) == {"x": 1}
    assert to_json(B(Colour.RED)) == {"x": "red"}
    assert to_json([A(2), B(Colour.RED)]) == [{"x": 2}, {"x": "red"}]


def test_plain_values_are_themselves() -> None:
    for value in ("text", 3, 2.5, True, None):
        assert to_json(value) is value
    assert to_json(Colour.RED) == "red"


def test_a_dataclass_itself_is_not_converted_as_a_record() -> None:
    from afcheck.types import Location, to_json

    assert to_json(Location) is Location
    assert to_json(Location("a.jsonl", 3)) == {"path": "a.jsonl", "line": 3, "record": None}
