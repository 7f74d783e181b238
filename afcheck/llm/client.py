"""The interface shared by every LLM backend."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from afcheck.errors import AfcheckError
from afcheck.llm.records import Completion, Prompt, Sampling


class BackendError(AfcheckError):
    """The backend cannot serve at all (no server, no model): one line for the user."""


class BackendRefused(BackendError):
    """The server answered, and no retry will change its answer: a wrong key (401/403), a
    model name it does not serve (404), ``max_tokens`` or a prompt over its context (400)."""


class BackendFailing(BackendError):
    """Every request failed, many in a row: the backend, not the formaliser, is broken."""


@runtime_checkable
class LLMClient(Protocol):
    """Generates completions for a whole stage in one call.

    ``generate`` returns, for each prompt in order, ``sampling.n`` completions (sample ``i``
    seeded with ``seed + i``). A request that fails comes back as a :class:`Completion` with
    ``error`` set (a *backend failure*, see :func:`afcheck.llm.records.is_backend_failure`), so
    one bad request never loses the others; only a backend that cannot serve at all raises
    :class:`BackendError`.
    """

    backend: str
    """``vllm`` or ``http``."""
    model: str

    def generate(self, prompts: Sequence[Prompt], sampling: Sampling) -> list[list[Completion]]:
        ...


def worker_resources(client: LLMClient) -> dict[str, float]:
    """What one cluster worker running a component over ``client`` needs (the component's
    ``resources``): an offline vLLM engine takes ``tensor_parallel_size`` GPUs; a client of a
    server needs none."""
    if client.backend != "vllm":
        return {}
    kwargs = getattr(client, "engine_kwargs", {}) or {}
    try:
        gpus = float(kwargs.get("tensor_parallel_size", 1))
    except (TypeError, ValueError):
        gpus = 1.0
    return {"GPU": max(1.0, gpus)}
