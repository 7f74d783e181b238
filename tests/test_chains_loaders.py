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
    record, unpaired, broken = list(load_folio(path))
    assert isinstance(record, ChainRecord)
    assert record.id == "folio-7" and record.label is Label.UNKNOWN
    assert record.gold_fol is not None and record.gold_fol.premises == ("∀x (D(x) → E(x))",)
    # Premises stated in fewer formulas than sentences are still one premise set in logic.
    assert isinstance(unpaired, ChainRecord) and unpaired.location.line == 3
    assert unpaired.gold_fol is not None and unpaired.gold_fol.premises == ()
    assert isinstance(broken, LoadError) and broken.location.line == 4


def test_folio_validation_gives_the_conclusion_s_reference_fol(tmp_path: Path) -> None:
    from afcheck_chains.formalise import task

    record = {"story_id": 3, "example_id": 9, "conclusion": "Tom purrs.", "label": "True",
              "premises": ["All cats purr.", "Tom is a cat."],
              "premises-FOL": ["∀x (Cat(x) → Purr(x)) ∧ Cat(tom)"],
              "conclusion-FOL": "Purr(tom)"}
    path = _write(tmp_path / "folio-validation.jsonl", json.dumps(record) + "\n")
    (chain,) = load_folio(path)
    assert isinstance(chain, ChainRecord) and chain.gold_fol is not None
    assert chain.gold_fol.conclusion == "Purr(tom)"
    # The reference FOL is complete: premises as the data states them, then the conclusion.
    assert task(chain).reference == (("∀x (Cat(x) → Purr(x)) ∧ Cat(tom)",), ("Purr(tom)",))


def test_records_of_a_one_line_array_are_named_by_number_and_id(tmp_path: Path) -> None:
    records = [
        {"id": "ProntoQA_1", "context": "Max is a cat.", "question": "True or false? Max is a cat.",
         "options": ["A) True", "B) False"], "answer": "A"},
        {"id": "ProntoQA_2", "context": "Max is a cat.", "question": "Max is a dog?",
         "options": ["A) True", "B) False"], "answer": "D"},
        {"id": "ProntoQA_3", "question": "Max is a dog?", "answer": "A"},
    ]
    path = _write(tmp_path / "dev.json", json.dumps(records))
    good, wrong, missing = load_logic_llm(path, "prontoqa")
    assert isinstance(good, ChainRecord)
    assert isinstance(wrong, LoadError) and isinstance(missing, LoadError)
    assert str(wrong).startswith(f"{path}:1 (record 2): ProntoQA_2: answer 'D'")
    assert str(missing).startswith(f"{path}:1 (record 3): ProntoQA_3: missing context")
    assert missing.name == "ProntoQA_3"


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
    # The two records with more formulas than premise sentences are kept too.
    assert all(isinstance(r, ChainRecord) for r in folio) and len(folio) == 1004
    assert all(r.location.line > 0 for r in proof[:5])


def test_responses_read_the_generation_limit_and_answers_in_models_words(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import json

    from afcheck_chains.loaders import load_responses
    from afcheck_chains.records import ChainRecord, Label

    base = {"premises": ["Max is a yumpus.", "Yumpuses are red."], "conclusion": "Max is red.",
            "label": "True"}
    lines = [
        {**base, "id": "cut", "response": "Max is a yumpus. Yumpuses are", "finish_reason":
         "length", "model": "Llama-2-70b-chat", "source": "prontoqa"},
        {**base, "id": "vllm", "response": "Max is red.", "stop_reason": "max_tokens"},
        {**base, "id": "done", "response": "Max is red.\nThe correct option is: A",
         "finish_reason": "stop"},
        {**base, "id": "words", "response": "Max is red.", "answer": "Answer: **True**"},
        {**base, "id": "bad", "response": "Max is red.", "answer": "maybe"},
    ]
    path = tmp_path / "r.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    cut, vllm, done, words, bad = load_responses(path)
    assert isinstance(cut, ChainRecord) and cut.cut_off == "finish_reason 'length'"
    assert cut.metadata == {"model": "Llama-2-70b-chat", "source": "prontoqa"}
    assert isinstance(vllm, ChainRecord) and vllm.cut_off == "stop_reason 'max_tokens'"
    assert isinstance(done, ChainRecord) and not done.cut_off and done.answer is Label.TRUE
    assert isinstance(words, ChainRecord) and words.answer is Label.TRUE
    assert not isinstance(bad, ChainRecord) and "r.jsonl:5" in str(bad.location) \
        and "nor a sentence that gives one" in bad.message
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


def test_folio_records_without_ids_are_distinct_items(tmp_path: Path) -> None:
    """FOLIO's validation split as released names no story or example."""
    record = {"conclusion": "Tom purrs.", "label": "True", "premises": ["Tom is a cat."],
              "premises-FOL": ["Cat(tom)"], "conclusion-FOL": "Purr(tom)"}
    other = dict(record, conclusion="Tom sleeps.", label="Uncertain")
    path = _write(tmp_path / "folio-validation.jsonl",
                  json.dumps(record) + "\n" + json.dumps(other) + "\n")
    first, second = load_folio(path)
    assert isinstance(first, ChainRecord) and isinstance(second, ChainRecord)
    assert (first.id, second.id) == ("folio-line1", "folio-line2")
    assert first.metadata["story_id"] == second.metadata["story_id"] == "line1"


def test_logic_llm_records_without_ids_are_named_by_their_element(tmp_path: Path) -> None:
    record = {"context": "Max is a cat.", "question": "True or false? Max is a cat.",
              "options": ["A) True", "B) False"], "answer": "A"}
    path = _write(tmp_path / "dev.json", json.dumps([record, record], indent=1))
    first, second = load_logic_llm(path, "prontoqa")
    assert isinstance(first, ChainRecord) and isinstance(second, ChainRecord)
    assert (first.id, second.id) == ("record1", "record2")


def test_the_folio_suite_runs_the_validation_split_as_released(tmp_path: Path) -> None:
    """``suites/folio`` with FOLIO's validation file, which names no story or example: every
    chain is its own item (no "duplicate id"), and the reference FOL decides each."""
    import subprocess
    import sys

    root = Path(__file__).resolve().parent.parent
    suite = tmp_path / "folio-validation"
    suite.mkdir()
    manifest = (root / "suites" / "folio" / "suite.toml").read_text("utf-8")
    (suite / "suite.toml").write_text(manifest.replace(
        'source = "folio"', 'source = "folio"\ndata = "folio-validation.jsonl"'), "utf-8")
    record = {"premises": ["All cats purr.", "Tom is a cat."],
              "premises-FOL": ["∀x (Cat(x) → Purr(x))", "Cat(tom)"]}
    rows = [dict(record, conclusion="Tom purrs.", label="True", **{"conclusion-FOL": "Purr(tom)"}),
            dict(record, conclusion="Tom is no cat.", label="False",
                 **{"conclusion-FOL": "¬Cat(tom)"}),
            dict(record, conclusion="Tom sleeps.", label="Uncertain",
                 **{"conclusion-FOL": "Sleeps(tom)"})]
    (suite / "folio-validation.jsonl").write_text(
        "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
    out = tmp_path / "run.json"
    done = subprocess.run(
        [sys.executable, "-m", "afcheck", str(suite), "-q", "-p", "no:cacheprovider",
         "--cache-dir", str(tmp_path / "cache"), "--json", str(out), "--fol-prover", "z3-fol"],
        capture_output=True, text=True, cwd=root, timeout=600)
    assert "duplicate id" not in done.stdout + done.stderr
    steps = json.loads(out.read_text("utf-8"))["steps"]
    assert sorted(s["id"] for s in steps) == ["folio-line1", "folio-line2", "folio-line3"]
    assert {s["status"] for s in steps} == {"passed"}, done.stdout
