"""Loading nl2fol items: suites written for afcheck, and FOLIO's premises."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from afcheck_fol.language import FOLIO, TARSKI
from afcheck_fol.suite import folio_path, load_folio, load_jsonl

ROOT = Path(__file__).resolve().parent.parent


def write(tmp_path: Path, lines: list[str]) -> Path:
    path = tmp_path / "items.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_good_records_and_one_line_per_bad_one(tmp_path: Path) -> None:
    good = {"id": "t1", "sentence": "a is a cube.", "gold": ["Cube(a)", "¬¬Cube(a)"],
            "difficulty": "low"}
    path = write(tmp_path, [
        json.dumps(good, ensure_ascii=False),
        "{not json",
        json.dumps({"id": "t2", "sentence": "b is small."}),
        json.dumps({"id": "t1", "sentence": "again", "gold": "Cube(a)"}),
        json.dumps({"id": "t3", "sentence": "bad gold", "gold": ["Cube(a) ∧"]}),
        json.dumps({"id": "t4", "sentence": "x", "gold": "Cube(a)", "language": "klingon"}),
        "",
        json.dumps({"id": "t5", "sentence": "b is small.", "gold": "Small(b)"}),
    ])
    loaded = load_jsonl(path, TARSKI)
    assert [item.id for item in loaded.items] == ["t1", "t5"]
    assert loaded.items[0].gold == ("Cube(a)", "¬¬Cube(a)")
    assert loaded.items[1].difficulty == "unrated"
    messages = [str(error) for error in loaded.errors]
    assert [m.split(": ", 1)[0] for m in messages] == [f"{path}:{n}" for n in (2, 3, 4, 5, 6)]
    assert "not JSON" in messages[0] and "'gold'" in messages[1] and "twice" in messages[2]
    assert "connectives and quantifiers" in messages[3] and "unknown language" in messages[4]
    assert loaded.rejections[0].error.rule == "missing-operand"


def test_tarski_suite_golds_all_parse() -> None:
    loaded = load_jsonl(ROOT / "suites" / "tarski" / "sentences.jsonl", TARSKI)
    assert loaded.errors == ()
    assert len(loaded.items) >= 80
    assert all(len(item.gold) >= 2 for item in loaded.items)
    assert {item.difficulty for item in loaded.items} == {
        "super-low", "low", "mid-low", "mid-high", "high", "super-high"}


def test_folio_items_are_distinct_premises_with_story_arities(tmp_path: Path) -> None:
    records = [
        {"story_id": 1, "example_id": 1, "premises": ["All A are B.", "rina is A."],
         "premises-FOL": ["∀x (A(x) → B(x))", "A(rina)"], "label": "True", "source": "wiki"},
        {"story_id": 1, "example_id": 2, "premises": ["All A are B.", "rina knows bo."],
         "premises-FOL": ["∀x (A(x) → B(x))", "A(rina, bo)"], "label": "True", "source": "wiki"},
        {"story_id": 2, "example_id": 3, "premises": ["One.", "Two."],
         "premises-FOL": ["P(a)"], "label": "True", "source": "hyb"},
    ]
    path = tmp_path / "folio" / "folio-train.jsonl"
    path.parent.mkdir()
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    assert folio_path(str(tmp_path)) == path
    loaded = load_folio(path)
    assert [item.id for item in loaded.items] == ["folio-1/p1", "folio-1/p2"]
    assert loaded.items[0].difficulty == "wiki" and loaded.items[0].language is FOLIO
    # A(rina, bo) uses A with two arguments after the story used it with one.
    assert [r.error.rule for r in loaded.rejections] == ["arity"]
    assert any("1 premises but" in str(e) or "2 premises but 1" in str(e) for e in loaded.errors)


@pytest.mark.realdata
def test_folio_gold_parse_rate(data_dir: Path) -> None:
    path = folio_path(str(data_dir))
    if path is None:
        pytest.skip("no folio/folio-train.jsonl under AFCHECK_DATA_DIR")
    loaded = load_folio(path)
    total = len(loaded.items) + len(loaded.rejections)
    assert total > 1500
    # FOLIO v0.0's gold FOL has errors; nearly all of it reads, and every rejection has a class.
    assert len(loaded.items) / total > 0.97
    assert all(r.error.rule for r in loaded.rejections)


@pytest.mark.parametrize("damage", [b"\xff\xfe not UTF-8\n",
                                    b'{"x": ' + b"[" * 5000 + b"]" * 5000 + b"}\n"],
                         ids=["bad-bytes", "nested-5000"])
def test_a_damaged_record_loses_only_itself_at_its_line(tmp_path: Path, damage: bytes) -> None:
    good = {"id": "a", "sentence": "a is a cube.", "gold": "Cube(a)"}
    path = tmp_path / "s.jsonl"
    path.write_bytes(json.dumps(good).encode() + b"\n" + damage
                     + json.dumps({**good, "id": "b"}).encode() + b"\n")
    loaded = load_jsonl(path, TARSKI)
    assert [item.id for item in loaded.items] == ["a", "b"]
    [error] = loaded.errors
    assert error.location.line == 2
    assert error.message.startswith(("not UTF-8 (byte 0xff", "nested more than 256 levels"))
    folio = tmp_path / "folio.jsonl"
    folio.write_bytes(damage)
    [error] = load_folio(folio).errors
    assert error.location.line == 1 and "is this FOLIO's jsonl?" in error.message
