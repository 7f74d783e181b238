"""The vLLM backend on the releases ``vllm>=0.6`` admits, and on one GPU shared by an offline
formaliser and the offline DeepSeek prover (:mod:`fake_vllm`: exact signatures, one GPU)."""

from __future__ import annotations

import gc
import sys
import weakref
from collections.abc import Iterator

import pytest
from afcheck_llm.presets import KIMINA
from fake_vllm import GPU, ThinkingTokenizer, make_vllm

from afcheck.errors import UsageError
from afcheck.llm import BackendError, Options, Sampling, chat, make_client
from afcheck.llm.preset import preset_factory
from afcheck.llm.vllm_client import VLLMClient, load_engine, release_engines
from afcheck.types import FormalisationStatus, FormaliseRequest

VERSIONS = ("0.6.0", "0.8.5", "0.9.0")
THEOREM = "theorem my_favorite_theorem : (1 : ℕ) + 1 = 2 := by sorry"


@pytest.fixture
def gpu() -> Iterator[GPU]:
    release_engines()
    yield GPU()
    release_engines()


def _install(monkeypatch: pytest.MonkeyPatch, version: str, gpu: GPU) -> type:
    module = make_vllm(version, gpu)
    monkeypatch.setitem(sys.modules, "vllm", module)
    cls: type = module.LLM
    return cls


def _requests(count: int) -> list[FormaliseRequest]:
    return [FormaliseRequest(f"s/p/{i}#original", "1 + 1 = 2")
            for i in range(count)]


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.heavy
def test_a_formaliser_runs_on_every_supported_release(
    version: str, gpu: GPU, monkeypatch: pytest.MonkeyPatch
) -> None:
    _install(monkeypatch, version, gpu)
    formaliser = preset_factory(KIMINA)({})
    engine = formaliser.client.engine  # type: ignore[attr-defined]
    engine.respond = lambda prompt, params, i: (THEOREM, "stop")
    results = formaliser.formalise(_requests(3))
    assert [r.status for r in results] == [FormalisationStatus.OK] * 3
    [(method, prompts, _, kwargs)] = engine.calls
    # One batched call either way; chat() only where it takes the template's arguments.
    assert method == ("chat" if version == "0.9.0" else "generate")
    assert len(prompts) == 3 and kwargs["use_tqdm"] is False


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.heavy
def test_chat_template_arguments_reach_the_template_on_every_release(
    version: str, gpu: GPU, monkeypatch: pytest.MonkeyPatch
) -> None:
    llm = _install(monkeypatch, version, gpu)
    engine = llm(model="qwen3")
    engine.tokenizer = ThinkingTokenizer()
    client = VLLMClient("qwen3", engine=engine, chat_template_kwargs={"enable_thinking": True})
    [[completion]] = client.generate([chat(None, "Prove it.")], Sampling(max_tokens=8))
    assert completion.ok
    [(method, prompts, _, kwargs)] = engine.calls
    if version == "0.9.0":
        assert method == "chat" and kwargs["chat_template_kwargs"] == {"enable_thinking": True}
    else:
        assert method == "generate" and prompts[0].endswith("<think>\n")


def test_the_formalisers_engine_gives_its_memory_back_before_the_prover_loads(
    gpu: GPU, monkeypatch: pytest.MonkeyPatch
) -> None:
    _install(monkeypatch, "0.9.0", gpu)
    from afcheck_lean.llm_bridge import deepseek_generate

    formaliser = preset_factory(KIMINA)({})
    first = formaliser.client.engine  # type: ignore[attr-defined]
    first.respond = lambda prompt, params, i: (THEOREM, "stop")
    assert formaliser.formalise(_requests(2))[0].ok
    core = first.llm_engine.engine_core
    gone = weakref.ref(first)
    del first
    generate = deepseek_generate({})
    assert generate(["Complete the following Lean 4 code: …"], 2) == [["seed=0", "seed=1"]]
    gc.collect()
    assert core.shut_down and gone() is None
    assert [model for model, _ in gpu.built] == [KIMINA.model, "deepseek-ai/DeepSeek-Prover-V2-7B"]
    assert gpu.used == pytest.approx(0.9)


def test_split_memory_keeps_both_engines(gpu: GPU, monkeypatch: pytest.MonkeyPatch) -> None:
    _install(monkeypatch, "0.9.0", gpu)
    from afcheck_lean.llm_bridge import deepseek_generate

    formaliser = preset_factory(KIMINA)({"gpu_memory_utilization": "0.45"})
    first = formaliser.client.engine  # type: ignore[attr-defined]
    deepseek_generate({"gpu_memory_utilization": "0.5", "max_model_len": "8192",
                       "tensor_parallel_size": "1"})(["p"], 1)
    assert not first.llm_engine.engine_core.shut_down and gpu.used == pytest.approx(0.95)
    _, prover = gpu.built[1]
    assert (prover["gpu_memory_utilization"], prover["max_model_len"],
            prover["tensor_parallel_size"]) == (0.5, 8192, 1)


def test_the_prover_accepts_the_engine_options() -> None:
    from afcheck_lean.llm_bridge import llm_option_names

    assert {"gpu_memory_utilization", "max_model_len", "tensor_parallel_size", "dtype",
            "backend", "timeout_s_llm"} <= llm_option_names()
    assert not {"timeout_s", "n"} & llm_option_names()  # Lean's timeout; the prover's k


def test_a_presets_context_is_not_forced_above_the_models_own(
    gpu: GPU, monkeypatch: pytest.MonkeyPatch
) -> None:
    _install(monkeypatch, "0.8.5", gpu)
    formaliser = preset_factory(KIMINA)({"model": "small-model"})
    assert "max_model_len" not in formaliser.client.engine.kwargs  # type: ignore[attr-defined]
    release_engines()
    forced = preset_factory(KIMINA)({"model": "small-model", "max_model_len": "8192"})
    with pytest.raises(BackendError, match=r"User-specified max_model_len \(8192\)"):
        forced.client.engine  # type: ignore[attr-defined] # noqa: B018 - loads the engine
    release_engines()
    fits = preset_factory(KIMINA)({})
    assert fits.client.engine.kwargs["max_model_len"] == 32768  # type: ignore[attr-defined]


@pytest.mark.heavy
def test_closing_a_client_releases_its_engine(gpu: GPU, monkeypatch: pytest.MonkeyPatch) -> None:
    _install(monkeypatch, "0.9.0", gpu)
    client = make_client(Options("x", {}), model="m")
    core = client.engine.llm_engine.engine_core  # type: ignore[attr-defined]
    client.close()  # type: ignore[attr-defined]
    gc.collect()
    assert core.shut_down and gpu.used == 0


@pytest.mark.parametrize(
    ("key", "value"),
    [("gpu_memory_utilization", "1.5"), ("gpu_memory_utilization", "nan"),
     ("gpu_memory_utilization", "0"), ("max_model_len", "0"), ("tensor_parallel_size", "-1")],
)
def test_engine_options_out_of_range_are_one_line(key: str, value: str) -> None:
    with pytest.raises(UsageError, match=key):
        make_client(Options("formaliser 'kimina'", {key: value}), model="m")


@pytest.mark.heavy
def test_engines_are_shared_by_identical_arguments(gpu: GPU,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    _install(monkeypatch, "0.9.0", gpu)
    assert load_engine("m", {"max_model_len": 1024}) is load_engine("m", {"max_model_len": 1024})
    assert len(gpu.built) == 1


@pytest.mark.parametrize("version", ["0.6.0", "0.8.5"])
@pytest.mark.heavy
def test_rendered_chats_go_as_tokens_without_a_second_bos(
    version: str, gpu: GPU, monkeypatch: pytest.MonkeyPatch
) -> None:
    llm = _install(monkeypatch, version, gpu)
    engine = llm(model="m")
    VLLMClient("m", engine=engine).generate([chat(None, "hi")], Sampling(max_tokens=4))
    [sent] = engine.sent
    assert isinstance(sent, dict) and sent["prompt_token_ids"][0] != 0  # no <s> added
    assert engine.tokenizer.decode(sent["prompt_token_ids"]).startswith("<|im_start|>user")
