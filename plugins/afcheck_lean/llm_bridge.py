"""The model call of the ``deepseek`` prover, through afcheck's LLM client layer."""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence

from afcheck.errors import MissingDependency
from afcheck_lean.deepseek import Generate

MODEL = "deepseek-ai/DeepSeek-Prover-V2-7B"


def deepseek_generate(options: Mapping[str, str]) -> Generate:
    """``generate(prompts, k)`` on DeepSeek-Prover-V2 (chat template, k samples per prompt)."""
    try:
        make_client = importlib.import_module("afcheck.llm").make_client
    except (ImportError, AttributeError):
        raise MissingDependency("prover deepseek", "the LLM client layer (afcheck.llm)",
                                "pip install 'afcheck[vllm]'") from None
    settings = {"model": MODEL, "max_tokens": "8192", "temperature": "0.6", "top_p": "0.95"}
    settings.update(options)
    client = make_client(settings)

    def generate(prompts: Sequence[str], k: int) -> list[list[str]]:
        results = client.chat([[{"role": "user", "content": p}] for p in prompts], n=k)
        return [[c.text for c in samples if c.finish_reason != "length"] for samples in results]

    return generate
