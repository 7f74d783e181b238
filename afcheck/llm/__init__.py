"""The LLM client layer: one interface over vLLM offline and OpenAI-compatible HTTP servers.

Used by the formaliser presets, the LLM perturber, and any plugin that needs a model::

    from afcheck.llm import Options, Sampling, chat, make_client

    client = make_client(Options("prover 'mine'", {"base_url": url}), model="my-model")
    [[completion]] = client.generate([chat(None, "Prove 1 + 1 = 2")], Sampling(max_tokens=256))

Heavy dependencies (``vllm``, ``httpx``) are imported only when a client is built.
"""

from __future__ import annotations

from afcheck.llm.client import (
    BackendError,
    BackendFailing,
    BackendRefused,
    LLMClient,
    worker_resources,
)
from afcheck.llm.options import Options, make_client, sampling_from
from afcheck.llm.postprocess import OutputRule, lean_source
from afcheck.llm.preset import Preset, PresetFormaliser, PromptTemplate, preset_factory
from afcheck.llm.records import (
    Completion,
    Message,
    Pricing,
    Prompt,
    Sampling,
    chat,
    derive_seed,
    is_backend_failure,
    total_usage,
)
from afcheck.llm.redact import redact

__all__ = [
    "BackendError",
    "BackendFailing",
    "BackendRefused",
    "Completion",
    "LLMClient",
    "Message",
    "Options",
    "OutputRule",
    "Preset",
    "PresetFormaliser",
    "Pricing",
    "Prompt",
    "PromptTemplate",
    "Sampling",
    "chat",
    "derive_seed",
    "lean_source",
    "make_client",
    "is_backend_failure",
    "preset_factory",
    "redact",
    "sampling_from",
    "total_usage",
    "worker_resources",
]
