"""The vLLM offline path, through a fake engine that replays vLLM's protocol and records calls."""

from __future__ import annotations

import pytest
from afcheck_llm.presets import FRONTIER, GOEDEL, HERALD, KIMINA, STEPFUN
from llm_fixtures import FakeEngine, FakeSamplingParams, FakeTokenizer

from afcheck.errors import UsageError
from afcheck.llm import PresetFormaliser, Prompt, Sampling, chat, derive_seed
from afcheck.llm.preset import preset_factory
from afcheck.llm.vllm_client import VLLMClient
from afcheck.types import FormalisationStatus, FormaliseRequest

THEOREM = "theorem my_favorite_theorem : (1 : ℕ) + 1 = 2 := by sorry"


def _requests(count: int, text: str = "1 + 1 = 2") -> list[FormaliseRequest]:
    return [
        FormaliseRequest(f"s/p/{i}#original", text)
        for i in range(count)
    ]


def _client(engine: FakeEngine, **kwargs: object) -> VLLMClient:
    return VLLMClient("m", engine=engine, sampling_params=FakeSamplingParams, **kwargs)  # type: ignore[arg-type]


def test_a_whole_stage_is_one_chat_call_with_explicit_sampling() -> None:
    engine = FakeEngine(lambda prompt, params, i: (THEOREM, "stop"))
    formaliser = PresetFormaliser(KIMINA, _client(engine))
    results = formaliser.formalise(_requests(5))
    assert [r.status for r in results] == [FormalisationStatus.OK] * 5
    assert len(engine.calls) == 1
    method, conversations, params, kwargs = engine.calls[0]
    assert method == "chat"
    assert len(conversations) == 5 and len(params) == 5
    assert conversations[0][0] == {
        "role": "system", "content": "You are an expert in mathematics and Lean 4."
    }
    assert conversations[0][1]["content"].startswith(
        "Please autoformalize the following problem in Lean 4 with a header. "
        "Use the following theorem names: my_favorite_theorem.\n\n1 + 1 = 2"
    )
    assert all(p.max_tokens == 16384 and p.temperature == 0.0 and p.n == 1 for p in params)
    assert kwargs["use_tqdm"] is False


def test_stepfun_renders_the_chat_template_and_appends_think() -> None:
    engine = FakeEngine(lambda prompt, params, i: (f"ok</think>\n```lean4\n{THEOREM}\n```", "stop"))
    formaliser = PresetFormaliser(STEPFUN, _client(engine))
    [result] = formaliser.formalise(_requests(1))
    assert result.status is FormalisationStatus.OK, result.reason
    [(method, prompts, _, _)] = engine.calls
    assert method == "generate"
    assert prompts[0].startswith("<|im_start|>system\nYou are an expert in mathematics and Lean 4.")
    assert prompts[0].endswith("```\n<|im_end|>\n<|im_start|>assistant\n<think>\n")
    assert "Your code should start with:\n```Lean4\nimport Mathlib\n\n```" in prompts[0]
    assert result.raw_output.startswith("<think>\nok</think>")


def test_herald_sends_its_raw_prompt_with_a_2048_token_cap() -> None:
    engine = FakeEngine(lambda prompt, params, i: (THEOREM, "stop"))
    PresetFormaliser(HERALD, _client(engine)).formalise(_requests(2, "Two plus two is four."))
    [(method, prompts, params, _)] = engine.calls
    assert method == "generate"
    assert prompts[0] == (
        "You are an expert at Lean 4 and Mathematics.\n\nUser:Please translate the natural "
        "language statement to Lean4 code with the header\n**Name**\nmy_favorite_theorem\n"
        "**Informal statement**\nTwo plus two is four.\n\n\nAssistant:"
    )
    assert params[0].max_tokens == 2048


def test_goedel_prompt_has_no_system_turn_and_context_is_wrapped() -> None:
    engine = FakeEngine(lambda prompt, params, i: (f"```lean4\n{THEOREM}\n```", "stop"))
    request = FormaliseRequest(
        "s/p/2#perturbed", "so x = 5", context=("x + 1 = 6",)
    )
    PresetFormaliser(GOEDEL, _client(engine)).formalise([request])
    [(_, conversations, params, _)] = engine.calls
    [turn] = conversations[0]
    assert turn["role"] == "user"
    assert turn["content"] == (
        "Please autoformalize the following natural language problem statement in Lean 4. "
        "Use the following theorem name: my_favorite_theorem\nThe natural language statement "
        "is: \n<context>\nx + 1 = 6\n</context>\nBased on the context, formalize the following "
        "statement: so x = 5Think before you provide the lean statement."
    )
    assert params[0].top_k == 20


def test_mixed_prompts_still_make_one_generate_call() -> None:
    engine = FakeEngine()
    client = _client(engine)
    prompts = [chat("sys", "a"), Prompt(raw="raw b"), chat(None, "c", assistant_prefix="<p>")]
    out = client.generate(prompts, Sampling(max_tokens=7))
    assert len(engine.calls) == 1 and engine.calls[0][0] == "generate"
    rendered = engine.calls[0][1]
    assert rendered[1] == "raw b"
    assert rendered[2].endswith("<|im_start|>assistant\n<p>")
    assert [len(o) for o in out] == [1, 1, 1]
    assert out[2][0].text.startswith("<p>")


def test_n_samples_use_seed_plus_index_and_are_reproducible() -> None:
    engine = FakeEngine()
    client = _client(engine)
    sampling = Sampling(max_tokens=32, temperature=0.8, n=3, seed=11)
    first = client.generate([chat(None, "x", seed=100), chat(None, "y")], sampling)
    assert [c.text for c in first[0]] == ["seed=100", "seed=101", "seed=102"]
    assert [c.text for c in first[1]] == ["seed=11", "seed=12", "seed=13"]
    again = client.generate([chat(None, "x", seed=100), chat(None, "y")], sampling)
    assert [[c.text for c in row] for row in again] == [[c.text for c in row] for row in first]
    params = engine.calls[0][2]
    assert params[0].n == 3 and params[0].temperature == 0.8


def test_formaliser_seeds_derive_from_the_request_key_not_the_batch() -> None:
    engine = FakeEngine(lambda prompt, params, i: (THEOREM, "stop"))
    formaliser = PresetFormaliser(KIMINA, _client(engine))
    requests = _requests(3)
    formaliser.formalise(requests)
    formaliser.formalise(list(reversed(requests)))
    first = [p.seed for p in engine.calls[0][2]]
    second = [p.seed for p in engine.calls[1][2]]
    assert first == list(reversed(second))
    assert first[0] == derive_seed(0, requests[0].key)
    assert len(set(first)) == 3


def test_finish_reason_length_and_token_counts_are_recorded() -> None:
    engine = FakeEngine(lambda prompt, params, i: ("```lean4\ntheorem t : 1 = 1 := by", "length"))
    [result] = PresetFormaliser(KIMINA, _client(engine)).formalise(_requests(1))
    assert result.status is FormalisationStatus.AF_FAIL
    assert "truncated" in result.reason
    assert result.usage is not None
    assert result.usage.finish_reason == "length"
    assert result.usage.completion_tokens > 0 and result.usage.prompt_tokens > 0


def test_pass_at_k_keeps_the_first_sample_that_extracts() -> None:
    def respond(prompt: str, params: FakeSamplingParams, i: int) -> tuple[str, str]:
        return ("no idea", "stop") if i == 0 else (f"theorem t{i} : 1 = 1 := by sorry", "stop")

    engine = FakeEngine(respond)
    sampling = Sampling(max_tokens=64, temperature=0.7, n=3)
    [result] = PresetFormaliser(KIMINA, _client(engine), sampling).formalise(_requests(1))
    assert result.statement == "theorem t1 : 1 = 1 := by sorry"
    assert result.usage is not None
    # Fake token counts are words + 1: "no idea" → 3, each theorem → 10; one prompt pass.
    assert result.usage.completion_tokens == 3 + 10 + 10
    rendered = FakeTokenizer().apply_chat_template(
        engine.calls[0][1][0], tokenize=False, add_generation_prompt=True
    )
    assert result.usage.prompt_tokens == len(rendered) // 4 > 0


def test_prompts_over_4000_characters_fail_without_a_model_call() -> None:
    engine = FakeEngine(lambda prompt, params, i: (THEOREM, "stop"))
    formaliser = PresetFormaliser(KIMINA, _client(engine))
    requests = _requests(1, "x" * 4000) + _requests(1)
    results = formaliser.formalise(requests)
    assert results[0].status is FormalisationStatus.AF_FAIL
    assert "over the 4000-character budget" in results[0].reason
    assert results[1].ok
    assert len(engine.calls[0][1]) == 1


def test_only_over_budget_prompts_make_no_engine_call_at_all() -> None:
    engine = FakeEngine()
    PresetFormaliser(HERALD, _client(engine)).formalise(_requests(2, "y" * 5000))
    assert engine.calls == []


def test_factory_options_override_sampling_and_reject_unknown_keys() -> None:
    engine = FakeEngine(lambda prompt, params, i: (THEOREM, "stop"))
    factory = preset_factory(KIMINA, client_factory=lambda options, preset: _client(engine))
    formaliser = factory({"max_tokens": "512", "temperature": "0.6", "n": "2", "seed": "3"})
    formaliser.formalise(_requests(1))
    params = engine.calls[0][2][0]
    assert (params.max_tokens, params.temperature, params.n) == (512, 0.6, 2)
    with pytest.raises(UsageError, match="unknown option 'max_token'. Did you mean 'max_tokens'"):
        factory({"max_token": "5"})
    with pytest.raises(UsageError, match="max_tokens='lots' is not an integer"):
        factory({"max_tokens": "lots"})
    with pytest.raises(UsageError, match="need temperature > 0"):
        factory({"n": "4"})


def test_frontier_needs_a_model_name() -> None:
    with pytest.raises(UsageError, match="no model given"):
        preset_factory(FRONTIER)({})


def test_missing_vllm_is_one_clear_line() -> None:
    pytest.importorskip("httpx")  # any environment; vllm is never installed in CI
    try:
        import vllm  # noqa: F401
    except ImportError:
        pass
    else:
        pytest.skip("vllm is installed")
    import re

    from afcheck.errors import MissingDependency
    from afcheck.install import install_command

    # The hint is the install line that fits how afcheck was installed (here: a checkout).
    with pytest.raises(MissingDependency, match=re.escape(install_command("vllm"))):
        preset_factory(KIMINA)({})
