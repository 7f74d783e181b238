"""A stand-in for the ``vllm`` package, with the exact ``LLM`` signatures of three releases.

No GPU and no vLLM here, so the tests install this module as ``vllm`` (``sys.modules``). Each
release's ``LLM.chat`` and ``LLM.generate`` have the parameters that release has, so a
keyword it lacks is a ``TypeError`` exactly as on a user's machine:

* 0.6.0: ``chat(messages, sampling_params, use_tqdm, lora_request, chat_template,
  add_generation_prompt)``; one conversation per call.
* 0.8.5: ``chat`` gains ``chat_template_content_format``, ``continue_final_message``,
  ``tools``, ``mm_processor_kwargs`` and batches of conversations; no ``chat_template_kwargs``.
* 0.9.0: ``chat`` gains ``chat_template_kwargs``.

One simulated GPU is shared by every engine: an engine takes its ``gpu_memory_utilization``
share when built and gives it back when shut down or collected; building one that does not
fit fails with vLLM's message. A ``max_model_len`` above the model's own context fails with
vLLM's message too.
"""

from __future__ import annotations

import types
import weakref
from dataclasses import dataclass, field
from typing import Any

from llm_fixtures import FakeEngine, FakeSamplingParams, FakeTokenizer

MODEL_CONTEXT: dict[str, int] = {"small-model": 4096}
"""The model's own context (``max_position_embeddings``); 163840 for any other model."""


@dataclass
class GPU:
    """One device's memory, as shares of its total."""

    used: float = 0.0
    built: list[Any] = field(default_factory=list)
    """Every engine built, as ``(model, kwargs)``."""

    def take(self, share: float) -> None:
        if self.used + share > 1.0 + 1e-9:
            free = 1.0 - self.used
            raise ValueError(
                f"Free memory on device ({free * 140:.2f}/140.0 GiB) on startup is less than "
                f"desired GPU memory utilization ({share}, {share * 140:.2f} GiB). Decrease "
                "GPU memory utilization or reduce GPU memory used by other processes."
            )
        self.used += share

    def give(self, share: float) -> None:
        self.used = max(0.0, self.used - share)


class _EngineCore:
    def __init__(self, release: Any) -> None:
        self._release = release
        self.shut_down = False

    def shutdown(self) -> None:
        self.shut_down = True
        self._release()


class _LLMEngine:
    def __init__(self, release: Any, v1: bool) -> None:
        if v1:
            self.engine_core = _EngineCore(release)


def make_vllm(version: str, gpu: GPU) -> types.ModuleType:
    """A module that imports as ``vllm`` at ``version`` (``0.6.0``, ``0.8.5`` or ``0.9.0``)."""

    class LLM(FakeEngine):
        def __init__(self, model: str, *, tokenizer: str | None = None,
                     tensor_parallel_size: int = 1, dtype: str = "auto",
                     seed: int | None = None, gpu_memory_utilization: float = 0.9,
                     enforce_eager: bool = False, **kwargs: Any) -> None:
            super().__init__()
            own = MODEL_CONTEXT.get(model, 163840)
            wanted = kwargs.get("max_model_len")
            if wanted is not None and wanted > own:
                raise ValueError(
                    f"User-specified max_model_len ({wanted}) is greater than the derived "
                    f"max_model_len (max_position_embeddings={own} or model_max_length=None "
                    "in model's config.json). To allow overriding this maximum, set the env "
                    "var VLLM_ALLOW_LONG_MAX_MODEL_LEN=1."
                )
            gpu.take(gpu_memory_utilization)
            share = gpu_memory_utilization
            released = [False]

            def release() -> None:
                if not released[0]:
                    released[0] = True
                    gpu.give(share)

            self.model = model
            self.kwargs = {"tensor_parallel_size": tensor_parallel_size, "dtype": dtype,
                           "gpu_memory_utilization": gpu_memory_utilization, **kwargs}
            self.llm_engine = _LLMEngine(release, v1=version != "0.6.0")
            weakref.finalize(self, release)
            gpu.built.append((model, dict(self.kwargs)))

    if version == "0.6.0":

        class LLM060(LLM):
            def generate(self, prompts: Any = None, sampling_params: Any = None,
                         prompt_token_ids: Any = None, use_tqdm: bool = True,
                         lora_request: Any = None, prompt_adapter_request: Any = None,
                         guided_options_request: Any = None) -> list[Any]:
                return FakeEngine.generate(self, prompts, sampling_params, use_tqdm=use_tqdm)

            def chat(self, messages: Any, sampling_params: Any = None, use_tqdm: bool = True,
                     lora_request: Any = None, chat_template: str | None = None,
                     add_generation_prompt: bool = True) -> list[Any]:
                return FakeEngine.chat(self, [messages], sampling_params, use_tqdm=use_tqdm)

        cls: type = LLM060
    elif version == "0.8.5":

        class LLM085(LLM):
            def generate(self, prompts: Any = None, sampling_params: Any = None,
                         prompt_token_ids: Any = None, use_tqdm: bool = True,
                         lora_request: Any = None, prompt_adapter_request: Any = None,
                         guided_options_request: Any = None, priority: Any = None) -> list[Any]:
                return FakeEngine.generate(self, prompts, sampling_params, use_tqdm=use_tqdm)

            def chat(self, messages: Any, sampling_params: Any = None, use_tqdm: bool = True,
                     lora_request: Any = None, chat_template: str | None = None,
                     chat_template_content_format: str = "auto",
                     add_generation_prompt: bool = True, continue_final_message: bool = False,
                     tools: Any = None, mm_processor_kwargs: Any = None) -> list[Any]:
                return FakeEngine.chat(self, messages, sampling_params, use_tqdm=use_tqdm)

        cls = LLM085
    else:

        class LLM090(LLM):
            def generate(self, prompts: Any = None, sampling_params: Any = None,
                         prompt_token_ids: Any = None, use_tqdm: bool = True,
                         lora_request: Any = None, prompt_adapter_request: Any = None,
                         guided_options_request: Any = None, priority: Any = None) -> list[Any]:
                return FakeEngine.generate(self, prompts, sampling_params, use_tqdm=use_tqdm)

            def chat(self, messages: Any, sampling_params: Any = None, use_tqdm: bool = True,
                     lora_request: Any = None, chat_template: str | None = None,
                     chat_template_content_format: str = "auto",
                     add_generation_prompt: bool = True, continue_final_message: bool = False,
                     tools: Any = None, chat_template_kwargs: dict[str, Any] | None = None,
                     mm_processor_kwargs: Any = None) -> list[Any]:
                return FakeEngine.chat(self, messages, sampling_params, use_tqdm=use_tqdm,
                                       chat_template_kwargs=chat_template_kwargs)

        cls = LLM090
    module = types.ModuleType("vllm")
    module.__version__ = version  # type: ignore[attr-defined]
    module.LLM = cls  # type: ignore[attr-defined]
    module.SamplingParams = FakeSamplingParams  # type: ignore[attr-defined]
    return module


class ThinkingTokenizer(FakeTokenizer):
    """A chat template that opens ``<think>`` when asked to (Qwen3's ``enable_thinking``)."""

    def apply_chat_template(self, messages: list[dict[str, str]], tokenize: bool = True,
                            add_generation_prompt: bool = False, **kwargs: Any) -> str:
        text = super().apply_chat_template(messages, tokenize, add_generation_prompt)
        return text + ("<think>\n" if kwargs.get("enable_thinking") else "")
