"""The ``llm`` perturber (App. E prompt) over the client layer, with the fake vLLM engine."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from afcheck_faithfulness.records import Edit, Step
from afcheck_llm.perturber import LLMPerturber, clean_output, minimal_edit
from llm_fixtures import FakeEngine, FakeSamplingParams

from afcheck.errors import UsageError
from afcheck.llm import Completion, Prompt, Sampling
from afcheck.llm.vllm_client import VLLMClient
from afcheck.plugins import get_plugins

REPLIES = {
    "So 3 * 4 = 12.": "So 3 * 4 = 13.",
    "Let us look at the answer.": "Not applicable.",
    "Thus x = 5.": '<think>\nchange 5 to 6\n</think>\n"Thus x = 6."',
    "Hence y > 2.": "```\nHence y ≥ 2.\n```",
}


def _step(i: int, text: str) -> Step:
    return Step(id=f"s/p/{i}", suite="s", dataset="d", problem_id="p", node_id=str(i), text=text)


def _reply(prompt: str, params: FakeSamplingParams, index: int) -> tuple[str, str]:
    for original, perturbed in REPLIES.items():
        if prompt.endswith(f"modify: {original}<|im_end|>\n<|im_start|>assistant\n"):
            return perturbed, "stop"
    return "", "stop"


def _perturber(engine: FakeEngine) -> LLMPerturber:
    return LLMPerturber(VLLMClient("m", engine=engine, sampling_params=FakeSamplingParams))


def test_outputs_become_perturbations_or_not_applicable_in_one_call() -> None:
    engine = FakeEngine(_reply)
    steps = [_step(i, text) for i, text in enumerate(REPLIES)]
    result = _perturber(engine).perturb(steps, seed=3)
    assert len(engine.calls) == 1
    assert [(p.text, p.rule) for p in result] == [
        ("So 3 * 4 = 13.", "llm"),
        (None, "none"),
        ("Thus x = 6.", "llm"),
        ("Hence y ≥ 2.", "llm"),
    ]
    assert result[1].reason == "LLM: not applicable"
    assert result[0].edit == Edit(12, 13, "2", "3")
    system = engine.calls[0][1][0][0]["content"]
    assert "**Minimal Modification:**" in system and "**Avoid Easy Refutations:**" in system
    assert 'output "Not applicable."' in system


def test_seeds_follow_the_step_not_its_position() -> None:
    engine = FakeEngine(_reply)
    steps = [_step(i, text) for i, text in enumerate(REPLIES)]
    perturber = _perturber(engine)
    forward = perturber.perturb(steps, seed=3)
    backward = perturber.perturb(list(reversed(steps)), seed=3)
    assert list(reversed(backward)) == forward
    seeds_forward = [p.seed for p in engine.calls[0][2]]
    seeds_backward = [p.seed for p in engine.calls[1][2]]
    assert seeds_forward == list(reversed(seeds_backward))
    perturber.perturb(steps, seed=4)
    assert [p.seed for p in engine.calls[2][2]] != seeds_forward


class _ScriptedClient:
    backend = "test"
    model = "scripted"

    def __init__(self, completion: Completion) -> None:
        self.completion = completion

    def generate(
        self, prompts: Sequence[Prompt], sampling: Sampling
    ) -> list[list[Completion]]:
        return [[self.completion] for _ in prompts]


@pytest.mark.parametrize(
    ("completion", "reason"),
    [
        (Completion("", "error", error="HTTP 500: boom"), "backend error: HTTP 500: boom"),
        (Completion("So 3 * 4 = ", "length"), "LLM: output truncated at max_tokens"),
        (Completion("<think>hmm", "stop"), "LLM: output ends inside <think>"),
        (Completion("So 3 * 4 = 12.", "stop"), "LLM: output equals the original step"),
        (Completion("  ", "stop"), "LLM: empty output"),
        (Completion("**Not applicable**", "stop"), "LLM: not applicable"),
    ],
)
def test_unusable_outputs_are_unperturbable_with_the_reason(
    completion: Completion, reason: str
) -> None:
    [result] = LLMPerturber(_ScriptedClient(completion)).perturb([_step(0, "So 3 * 4 = 12.")], 0)
    assert (result.text, result.rule, result.reason) == (None, "none", reason)


def test_clean_output_and_minimal_edit() -> None:
    assert clean_output("'x = 2'") == "x = 2"
    assert clean_output("```text\na\nb\n```") == "a\nb"
    assert minimal_edit("a + b = 10", "a - b = 10") == Edit(2, 3, "+", "-")
    assert minimal_edit("x = 5", "x = 55") == Edit(5, 5, "", "5")


def test_factory_needs_a_model_and_checks_options() -> None:
    with pytest.raises(UsageError, match="needs a model: --perturber-opt model=NAME"):
        get_plugins().create("perturber", "llm", {})
    with pytest.raises(UsageError, match="unknown option 'temp'"):
        get_plugins().create("perturber", "llm", {"model": "m", "temp": "1"})


def test_an_offline_engine_asks_a_cluster_worker_for_its_gpus() -> None:
    engine = FakeEngine(lambda prompt, params, i: ("", "stop"))
    assert _perturber(engine).resources == {"GPU": 1.0}
    four = VLLMClient("m", engine=engine, sampling_params=FakeSamplingParams,
                      engine_kwargs={"tensor_parallel_size": 4})
    assert LLMPerturber(four).resources == {"GPU": 4.0}


def test_a_server_client_asks_a_cluster_worker_for_no_gpu() -> None:
    pytest.importorskip("httpx")
    from afcheck.llm.http_client import HTTPClient, HTTPSettings

    client = HTTPClient(HTTPSettings("http://127.0.0.1:9/v1", "m"))
    try:
        assert LLMPerturber(client).resources == {}
    finally:
        client.close()

