"""Loaders: Logic-LLM (ProofWriter, PrOntoQA), FOLIO, recorded responses; bad records."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from afcheck_chains.loaders import find_data, load_folio, load_logic_llm, load_responses
from afcheck_chains.records import ChainRecord, Label

from afcheck.errors import LoadError, SuiteError

PRONTO = [
    {"id": "ProntoQA_1", "context": "Jompuses are not shy. Max is a jompus.",
     "question": "Is the following statement true or false? Max is shy.",
     "options": ["A) True", "B) False"], "answer": "B",
     "explanation": ["Max is a jompus.", "Jompuses are not shy.", "Max is not shy."]},
    {"id": "ProntoQA_2", "context": "Max is red.", "question": "Is it? Max is red.",
     "options": ["A) True", "B) False"], "answer": "D"},
    {"id": "ProntoQA_3", "context": "Max is red."},
]


def _write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def test_logic_llm_records_and_bad_ones_with_their_line(tmp_path: Path) -> None:
    path = _write(tmp_path / "dev.json", json.dumps(PRONTO, indent=1))
    loaded = list(load_logic_llm(path, "prontoqa"))
    record = loaded[0]
    assert isinstance(record, ChainRecord)
    assert record.premises == ("Jompuses are not shy.", "Max is a jompus.")
    assert record.conclusion == "Max is shy."
    assert record.label is Label.FALSE and record.answer is Label.FALSE
    assert record.steps[-1] == "Max is not shy."
    assert record.location.line == 2  # where the record's object starts
    bad_option, missing = loaded[1], loaded[2]
    assert isinstance(bad_option, LoadError) and "not one of the options" in bad_option.message
    assert isinstance(missing, LoadError) and "missing question, answer" in missing.message
    assert str(missing).startswith(f"{path}:")
    assert missing.location.line > bad_option.location.line > 0


def test_proofwriter_unknown_and_no_chain(tmp_path: Path) -> None:
    item = {"id": "PW_1", "context": "Bob is big.", "question":
            "Based on the above information, is the following statement true, false, or "
            "unknown? Bob is red.", "options": ["A) True", "B) False", "C) Unknown"],
            "answer": "C"}
    [record] = load_logic_llm(_write(tmp_path / "dev.json", json.dumps([item])), "proofwriter")
    assert isinstance(record, ChainRecord)
    assert record.label is Label.UNKNOWN and record.steps == () and record.answer is None


def test_not_json_is_one_error(tmp_path: Path) -> None:
    [error] = load_logic_llm(_write(tmp_path / "dev.json", "[{"), "prontoqa")
    assert isinstance(error, LoadError) and error.location.line == 1
    assert error.message.startswith("a record that never ends")


def test_folio_records_and_unparallel_lists(tmp_path: Path) -> None:
    good = {"story_id": 1, "example_id": 7, "conclusion": "Rina jokes.",
            "premises": ["All who drink are dependent."], "premises-FOL": ["∀x (D(x) → E(x))"],
            "label": "Uncertain"}
    bad = dict(good, example_id=8, **{"premises-FOL": []})
    path = _write(tmp_path / "f.jsonl", json.dumps(good) + "\n\n" + json.dumps(bad) + "\n{\n")
    record, error, broken = list(load_folio(path))
    assert isinstance(record, ChainRecord)
    assert record.id == "folio-7" and record.label is Label.UNKNOWN
    assert record.gold_fol is not None and record.gold_fol.premises == ("∀x (D(x) → E(x))",)
    assert isinstance(error, LoadError) and error.location.line == 3 and "parallel" in error.message
    assert isinstance(broken, LoadError) and broken.location.line == 4


def test_responses_are_segmented_and_checked(tmp_path: Path) -> None:
    lines = [
        {"id": "r1", "context": "Jompuses are not shy. Max is a jompus.",
         "conclusion": "Max is shy.", "label": "False",
         "response": "Max is a jompus. Maybe Max is shy. So Max is not shy.\nAnswer: False",
         "step_labels": ["True", "True"]},
        {"id": "r2", "premises": ["Max is red."], "conclusion": "Max is red.", "label": "True",
         "steps": ["Max is red."], "answer": "True", "expected_class": "T1"},
        {"id": "r3", "premises": ["Max is red."], "conclusion": "Max is red.", "label": "Yes?",
         "steps": []},
        {"id": "r4", "premises": ["Max is red."], "conclusion": "Max is red.", "label": "True",
         "steps": ["Max is red."], "step_labels": ["True", "False"]},
    ]
    path = _write(tmp_path / "gpt.jsonl", "\n".join(json.dumps(x) for x in lines))
    r1, r2, r3, r4 = load_responses(path)
    assert isinstance(r1, ChainRecord)
    assert r1.steps == ("Max is a jompus.", "Max is not shy.")
    assert r1.answer is Label.FALSE and r1.dataset == "gpt"
    assert r1.gold_step_labels == (Label.TRUE, Label.TRUE)
    assert isinstance(r2, ChainRecord) and r2.expected_class == "T1"
    assert isinstance(r3, LoadError) and "label" in r3.message and r3.location.line == 3
    assert isinstance(r4, LoadError) and "2 step_labels for 1 kept steps" in r4.message


def test_released_files_are_found_under_the_data_dir(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "prontoqa").mkdir()
    _write(tmp_path / "prontoqa" / "dev.json", "[]")
    monkeypatch.setenv("AFCHECK_DATA_DIR", str(tmp_path))
    assert find_data("prontoqa") == tmp_path / "prontoqa" / "dev.json"
    with pytest.raises(SuiteError, match="proofwriter/dev.json not found"):
        find_data("proofwriter")
    monkeypatch.delenv("AFCHECK_DATA_DIR")
    with pytest.raises(SuiteError, match="not set"):
        find_data("prontoqa")


@pytest.mark.realdata
def test_released_files_load_without_errors(data_dir: Path) -> None:
    proof = list(load_logic_llm(data_dir / "proofwriter" / "dev.json", "proofwriter"))
    pronto = list(load_logic_llm(data_dir / "prontoqa" / "dev.json", "prontoqa"))
    folio = list(load_folio(data_dir / "folio" / "folio-train.jsonl"))
    assert all(isinstance(r, ChainRecord) for r in proof + pronto)
    assert len(proof) == 600 and len(pronto) == 350
    errors = [r for r in folio if isinstance(r, LoadError)]
    assert len(errors) == 2 and all("parallel" in e.message for e in errors)
    assert all(r.location.line > 0 for r in proof[:5])


DAMAGED = (b"\xff\xfe not UTF-8\n", b'{"x": ' + b"[" * 5000 + b"]" * 5000 + b"}\n")


@pytest.mark.parametrize("damage", DAMAGED, ids=["bad-bytes", "nested-5000"])
def test_a_damaged_record_loses_only_itself_at_its_line(tmp_path: Path, damage: bytes) -> None:
    good = {"id": "a", "premises": ["P."], "conclusion": "P.", "label": "True",
            "steps": ["P."], "answer": "True"}
    path = tmp_path / "r.jsonl"
    path.write_bytes(json.dumps(good).encode() + b"\n" + damage
                     + json.dumps({**good, "id": "b"}).encode() + b"\n")
    loaded = list(load_responses(path))
    assert [r.id for r in loaded if isinstance(r, ChainRecord)] == ["a", "b"]
    [bad] = [r for r in loaded if isinstance(r, LoadError)]
    assert bad.location.line == 2
    assert bad.message.startswith(("not UTF-8 (byte 0xff", "nested more than 256 levels"))
    folio = tmp_path / "folio.jsonl"
    folio.write_bytes(damage)
    [error] = list(load_folio(folio))
    assert isinstance(error, LoadError) and error.location.line == 1


@pytest.mark.parametrize("reply", [{"response": ""}, {"steps": []}, {"steps": [], "response": ""}],
                         ids=["empty-response", "no-steps", "both-empty"])
def test_a_response_with_nothing_to_check_is_a_bad_record_not_a_pass(
        tmp_path: Path, reply: dict[str, object]) -> None:
    path = tmp_path / "r.jsonl"
    path.write_text(json.dumps({"id": "e", "premises": ["P."], "conclusion": "P.",
                                "label": "True", **reply}) + "\n")
    [error] = list(load_responses(path))
    assert isinstance(error, LoadError) and error.name == "e"
    assert error.message.startswith("the response has no reasoning step and no answer")
    with_answer = tmp_path / "a.jsonl"
    with_answer.write_text(json.dumps({"id": "e", "premises": ["P."], "conclusion": "P.",
                                       "label": "True", "steps": [], "answer": "True"}) + "\n")
    [record] = list(load_responses(with_answer))
    assert isinstance(record, ChainRecord) and record.answer is Label.TRUE
