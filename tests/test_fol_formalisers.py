"""Where nl2fol candidates come from: gold formulas, recorded outputs, an LLM preset."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from afcheck_fol.formalisers import (
    GEMMA,
    LLAMA,
    PresetFormaliser,
    ReferenceFormaliser,
    ReplayFormaliser,
    make_formaliser,
)
from afcheck_fol.language import TARSKI
from afcheck_fol.suite import Item
from afcheck_fol.syntax import parse
from llm_fixtures import FakeEngine, FakeSamplingParams

from afcheck.errors import UsageError
from afcheck.llm.vllm_client import VLLMClient


def item(item_id: str, sentence: str, *gold: str) -> Item:
    return Item(item_id, sentence, gold, tuple(parse(g, TARSKI) for g in gold), "low", TARSKI)


ITEMS = [item("t1", "a is a cube.", "Cube(a)"), item("t2", "b is small.", "Small(b)", "¬¬Small(b)")]


def test_reference_feeds_the_chosen_gold() -> None:
    assert [c.formula for c in ReferenceFormaliser().formalise(ITEMS)] == ["Cube(a)", "Small(b)"]
    assert [c.formula for c in ReferenceFormaliser(1).formalise(ITEMS)] == ["Cube(a)", "¬¬Small(b)"]


def test_replay_reads_outputs_and_says_what_is_missing(tmp_path: Path) -> None:
    path = tmp_path / "outputs.jsonl"
    path.write_text(json.dumps({"id": "t1", "output": "= Cube(a)"}) + "\n{oops\n",
                    encoding="utf-8")
    first, second = ReplayFormaliser(path).formalise(ITEMS)
    assert (first.formula, first.output) == ("Cube(a)", "= Cube(a)")
    assert second.formula is None
    assert "no recorded output for t2" in second.error and f"{path}:2" in second.error


def test_make_formaliser_checks_options(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="path=FILE"):
        make_formaliser("replay", {})
    with pytest.raises(UsageError, match="whole number"):
        make_formaliser("reference", {"gold": "x"})
    with pytest.raises(UsageError, match="known: reference, replay"):
        make_formaliser("gpt", {})


def test_preset_sends_the_seed_prompt_in_one_call() -> None:
    engine = FakeEngine(lambda prompt, params, i: ("= Cube(a)" if "cube" in prompt
                                                   else "I cannot", "stop"))
    client = VLLMClient("m", engine=engine, sampling_params=FakeSamplingParams)  # type: ignore[arg-type]
    formaliser = PresetFormaliser(LLAMA, client, LLAMA.sampling)
    candidates = formaliser.formalise(ITEMS)
    assert [c.formula for c in candidates] == ["Cube(a)", "I cannot"]
    assert len(engine.calls) == 1
    method, conversations, params, _ = engine.calls[0]
    assert method == "chat"
    system, user = conversations[0]
    assert system["role"] == "system" and "Between(x, y, z) means" in system["content"]
    assert user["content"] == "a is a cube."
    assert params[0].temperature == 0.0 and params[0].max_tokens == LLAMA.sampling.max_tokens


def test_gemma_gets_the_instructions_in_the_user_turn() -> None:
    engine = FakeEngine(lambda prompt, params, i: ("= Cube(a)", "stop"))
    client = VLLMClient("m", engine=engine, sampling_params=FakeSamplingParams)  # type: ignore[arg-type]
    PresetFormaliser(GEMMA, client, GEMMA.sampling).formalise(ITEMS[:1])
    [conversation] = engine.calls[0][1]
    assert [turn["role"] for turn in conversation] == ["user"]
    assert conversation[0]["content"].endswith("a is a cube.")
