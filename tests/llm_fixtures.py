"""Fixtures of the LLM tests: a fake vLLM engine and the local llama.cpp server.

The fake engine replays vLLM's offline protocol (``LLM.generate`` / ``LLM.chat`` /
``get_tokenizer().apply_chat_template``, ``RequestOutput`` / ``CompletionOutput``,
``SamplingParams`` with vLLM's own defaults, including ``max_tokens=16``) and records every call.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from llm_server import SKIP_REASON_NO_SERVER, llama_server, server_available


@dataclass(frozen=True)
class FakeSamplingParams:
    """vLLM's ``SamplingParams`` fields and defaults that afcheck sets."""

    n: int = 1
    temperature: float = 1.0
    top_p: float = 1.0
    top_k: int = 0
    repetition_penalty: float = 1.0
    seed: int | None = None
    stop: list[str] | None = None
    max_tokens: int = 16

    def __post_init__(self) -> None:
        if self.temperature < 1e-5 and self.n != 1:
            raise ValueError("n must be 1 when using greedy sampling")


@dataclass(frozen=True)
class FakeCompletionOutput:
    index: int
    text: str
    token_ids: tuple[int, ...]
    finish_reason: str


@dataclass(frozen=True)
class FakeRequestOutput:
    prompt: str
    prompt_token_ids: tuple[int, ...]
    outputs: list[FakeCompletionOutput]


class FakeTokenizer:
    """Qwen2.5's chat template (``<|im_start|>role\\n…<|im_end|>``); a token is a character,
    and ``add_special_tokens`` puts a ``<s>`` token (id 0) first."""

    def encode(self, text: str, add_special_tokens: bool = True) -> list[int]:
        return ([0] if add_special_tokens else []) + [ord(c) for c in text]

    def decode(self, ids: list[int]) -> str:
        return "".join("<s>" if i == 0 else chr(i) for i in ids)

    def apply_chat_template(
        self, messages: list[dict[str, str]], tokenize: bool = True,
        add_generation_prompt: bool = False, **kwargs: Any,
    ) -> str:
        assert tokenize is False
        text = "".join(f"<|im_start|>{m['role']}\n{m['content']}<|im_end|>\n" for m in messages)
        return text + ("<|im_start|>assistant\n" if add_generation_prompt else "")


Responder = Callable[[str, FakeSamplingParams, int], tuple[str, str]]
"""(rendered prompt, params, sample index) → (text, finish_reason)."""


def echo_seed(prompt: str, params: FakeSamplingParams, index: int) -> tuple[str, str]:
    return f"seed={None if params.seed is None else params.seed + index}", "stop"


@dataclass
class FakeEngine:
    """Stands in for ``vllm.LLM``; ``calls`` records (method, prompts, params, kwargs)."""

    respond: Responder = echo_seed
    calls: list[tuple[str, list[Any], Any, dict[str, Any]]] = field(default_factory=list)
    """Token prompts (``{"prompt_token_ids": …}``) are recorded decoded, as text."""
    tokenizer: FakeTokenizer = field(default_factory=FakeTokenizer)
    sent: list[Any] = field(default_factory=list)
    """Every prompt ``generate`` received, as it was sent."""

    def get_tokenizer(self) -> FakeTokenizer:
        return self.tokenizer

    def generate(self, prompts: Any, sampling_params: Any = None, **kwargs: Any) -> list[Any]:
        self.sent.extend(prompts)
        texts = [self.tokenizer.decode(p["prompt_token_ids"]) if isinstance(p, dict) else str(p)
                 for p in prompts]
        self.calls.append(("generate", texts, sampling_params, kwargs))
        return self._run(texts, sampling_params)

    def chat(self, messages: Any, sampling_params: Any = None, **kwargs: Any) -> list[Any]:
        self.calls.append(("chat", list(messages), sampling_params, kwargs))
        extra = kwargs.get("chat_template_kwargs") or {}
        rendered = [
            self.tokenizer.apply_chat_template(m, tokenize=False, add_generation_prompt=True,
                                               **extra)
            for m in messages
        ]
        return self._run(rendered, sampling_params)

    def _run(self, prompts: list[str], params: Any) -> list[FakeRequestOutput]:
        per_prompt = params if isinstance(params, list) else [params] * len(prompts)
        assert len(per_prompt) == len(prompts)
        results = []
        for prompt, p in zip(prompts, per_prompt, strict=True):
            outputs = []
            for i in range(p.n):
                text, reason = self.respond(prompt, p, i)
                tokens = tuple(range(min(len(text.split()) + 1, p.max_tokens)))
                outputs.append(FakeCompletionOutput(i, text, tokens, reason))
            results.append(FakeRequestOutput(prompt, tuple(range(len(prompt) // 4)), outputs))
        return results


@pytest.fixture(scope="session")
def llm_server_url() -> Iterator[str]:
    """Base URL of the local llama.cpp server (SmolLM2-135M), started once per session."""
    if not server_available():
        pytest.skip(SKIP_REASON_NO_SERVER)
    with llama_server() as url:
        yield url
