"""The shared records as JSON data (:func:`afcheck.types.to_json`) and as JSON text
(:func:`afcheck.types.to_json_text`)."""

from __future__ import annotations

import enum
import json
from dataclasses import dataclass, field

import pytest

from afcheck.types import (
    Formalisation,
    FormalisationStatus,
    Location,
    Usage,
    Verdict,
    VerdictKind,
    to_json,
    to_json_text,
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
                                "elapsed_s": 0.25, "transient": False, "judged_by": "",
                                "unjudged": None}


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


class Level(enum.IntEnum):
    HIGH = 2


class Plain(enum.Enum):
    ONE = "one"


class Tag(str):
    """A str subclass that is no enum: written as its text, as ``json`` writes it."""


@dataclass(frozen=True)
class Odd:
    level: Level
    plain: Plain
    tag: Tag
    number: float
    flag: bool
    count: int
    mapping: dict[int, float] = field(default_factory=dict)


TEXT_RECORDS = [
    Formalisation("s/1#original", "literal", FormalisationStatus.OK,
                  "theorem t : (2 : ℚ) + 3 = 5 := by sorry", usage=Usage(3, 4, 0.5, 0.01, "stop")),
    Formalisation("k \"q\" \\ \n\t\u2028\x00", "llm", FormalisationStatus.AF_FAIL,
                  raw_output="lone \ud800 surrogate ⊤ 𝔽", reason="no statement"),
    Verdict(VerdictKind.REFUTED, "smt", counterexample={"x": "3", "é": "-1/2"},
            elapsed_s=0.0022777100020903163),
    Verdict(VerdictKind.INCONCLUSIVE, "smt", elapsed_s=float("nan")),
    Verdict(VerdictKind.PROVED, "lean", certified=True, elapsed_s=float("inf")),
    Location("a.json", 3, 7),
    Outer("o", Inner(Colour.RED, Location("a.json", 3)), (Inner(Colour.RED),),
          {7: Inner(Colour.RED)}, [1.5, 2, -0.0, 1e300, 5e-324]),
    Odd(Level.HIGH, Plain.ONE, Tag("tag"), float("-inf"), True, 10**30, {2: 0.1}),
    [Location("b", 1), None, True, 3, 2.5, "x"],
    {"a": Colour.RED, "b": (1, "t")},
    "text", 3, -2.5, True, False, None, Colour.RED, Level.HIGH,
]


@pytest.mark.parametrize("record", TEXT_RECORDS, ids=lambda r: type(r).__name__)
def test_to_json_text_is_json_dumps_text_of_to_json(record: object) -> None:
    assert to_json_text(record) == json.dumps(to_json(record), ensure_ascii=False)


def test_to_json_text_of_a_dataclass_itself_fails_as_json_dumps_does() -> None:
    with pytest.raises(TypeError):
        json.dumps(to_json(Location))
    with pytest.raises(TypeError):
        to_json_text(Location)


def test_a_verdicts_standing_names_its_judge_or_says_none_stood_behind_it() -> None:
    assert Verdict(VerdictKind.PROVED, "deepseek", certified=True,
                   judged_by="comparator").standing == "judged:comparator"
    assert Verdict(VerdictKind.INCONCLUSIVE, "deepseek",
                   unjudged=VerdictKind.PROVED).standing == "unjudged"
    assert Verdict(VerdictKind.REFUTED, "smt").standing == "uncertified"
    assert Verdict(VerdictKind.INCONCLUSIVE, "smt").standing == ""
