"""The built-in FOL formalisers: the data's formulas, recorded outputs, a model with the
asking method's prompt."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from afcheck_fol.formaliser import FolTask, read_answer
from afcheck_fol.formalisers import (
    PresetFormaliser,
    ReferenceFormaliser,
    ReplayFormaliser,
    make_preset,
    make_reference,
    make_replay,
    sampling_of,
)
from afcheck_fol.language import TARSKI
from afcheck_fol.presets import GEMMA, LLAMA
from afcheck_fol.syntax import parse
from afcheck_nl2fol.pipeline import task
from afcheck_nl2fol.suite import Item
from llm_fixtures import FakeEngine, FakeSamplingParams

from afcheck.errors import UsageError
from afcheck.llm.vllm_client import VLLMClient


def item(item_id: str, sentence: str, *gold: str) -> Item:
    return Item(item_id, sentence, gold, tuple(parse(g, TARSKI) for g in gold), "low", TARSKI)


ITEMS = [item("t1", "a is a cube.", "Cube(a)"), item("t2", "b is small.", "Small(b)", "¬¬Small(b)")]
TASKS = [task(i) for i in ITEMS]


def formulas(answers: list) -> list[str | None]:
    return [None if a.formulas is None else a.formulas[0] for a in answers]


def test_reference_feeds_the_chosen_gold() -> None:
    assert formulas(ReferenceFormaliser().formalise(TASKS)) == ["Cube(a)", "Small(b)"]
    assert formulas(ReferenceFormaliser(1).formalise(TASKS)) == ["Cube(a)", "¬¬Small(b)"]


def test_reference_says_why_the_data_has_none() -> None:
    bare = FolTask("x", ("a is a cube.",), "a is a cube.", no_reference="the data has no FOL")
    [answer] = ReferenceFormaliser().formalise([bare])
    assert answer.formulas is None and answer.error == "the data has no FOL"


def test_answers_in_sections_are_read_in_order_and_gaps_named() -> None:
    sectioned = FolTask("c", ("p1", "p2", "c1"), "…", sections=(("Premises", 2),
                                                                 ("Conclusions", 1)))
    text = "Premises:\nA(a) ::: (1) p1\nB(b) ::: (2) p2\nConclusions:\nC(c) ::: (1) c1"
    assert read_answer(sectioned, text).formulas == ("A(a)", "B(b)", "C(c)")
    gap = read_answer(sectioned, text.replace("B(b) ::: (2) p2\n", ""))
    assert gap.formulas is None and gap.error == "no formula for premises [2]"


def test_replay_reads_outputs_and_says_what_is_missing(tmp_path: Path) -> None:
    path = tmp_path / "outputs.jsonl"
    path.write_text(json.dumps({"id": "t1", "output": "= Cube(a)"}) + "\n{oops\n",
                    encoding="utf-8")
    first, second = ReplayFormaliser(path).formalise(TASKS)
    assert (first.formulas, first.raw) == (("Cube(a)",), "= Cube(a)")
    assert second.formulas is None
    assert "no recorded output for t2" in second.error and f"{path}:2" in second.error


def test_factories_check_options(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="path=FILE"):
        make_replay({})
    with pytest.raises(UsageError, match="whole number"):
        make_reference({"gold": "x"})
    with pytest.raises(UsageError, match="takes gold=N"):
        make_reference({"path": "x"})
    with pytest.raises(UsageError, match="model=NAME"):
        make_preset("llm", {})


def test_preset_sends_the_seed_prompt_in_one_call() -> None:
    engine = FakeEngine(lambda prompt, params, i: ("= Cube(a)" if "cube" in prompt
                                                   else "I cannot", "stop"))
    client = VLLMClient("m", engine=engine, sampling_params=FakeSamplingParams)  # type: ignore[arg-type]
    formaliser = PresetFormaliser(LLAMA, client, sampling_of(LLAMA))
    assert formulas(formaliser.formalise(TASKS)) == ["Cube(a)", "I cannot"]
    assert len(engine.calls) == 1
    method, conversations, params, _ = engine.calls[0]
    assert method == "chat"
    system, user = conversations[0]
    assert system["role"] == "system" and "Between(x, y, z) means" in system["content"]
    assert user["content"] == "a is a cube."
    assert params[0].temperature == 0.0 and params[0].max_tokens == TASKS[0].max_tokens


def test_gemma_gets_the_instructions_in_the_user_turn() -> None:
    engine = FakeEngine(lambda prompt, params, i: ("= Cube(a)", "stop"))
    client = VLLMClient("m", engine=engine, sampling_params=FakeSamplingParams)  # type: ignore[arg-type]
    PresetFormaliser(GEMMA, client, sampling_of(GEMMA)).formalise(TASKS[:1])
    [conversation] = engine.calls[0][1]
    assert [turn["role"] for turn in conversation] == ["user"]
    assert conversation[0]["content"].endswith("a is a cube.")

