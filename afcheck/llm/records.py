"""The records every LLM backend speaks: a prompt, its sampling settings, and one completion."""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence
from dataclasses import dataclass

from afcheck.errors import UsageError
from afcheck.types import Usage


@dataclass(frozen=True)
class Message:
    """One chat turn."""

    role: str
    content: str


@dataclass(frozen=True)
class Prompt:
    """What one request sends: chat messages, or a raw string for completion endpoints.

    Exactly one of ``messages`` and ``raw`` is set. ``assistant_prefix`` is text the assistant
    turn starts with (StepFun's ``<think>``): backends render the chat template and append it,
    since a plain chat call cannot.
    """

    messages: tuple[Message, ...] = ()
    raw: str | None = None
    assistant_prefix: str = ""
    seed: int | None = None
    """Seed of this prompt's first sample (sample ``i`` uses ``seed + i``); ``None`` takes the
    sampling seed."""

    def __post_init__(self) -> None:
        if bool(self.messages) == (self.raw is not None):
            raise ValueError("a Prompt has either chat messages or a raw string, not both")

    @property
    def is_chat(self) -> bool:
        return self.raw is None

    @property
    def chars(self) -> int:
        """Characters of the full prompt text (the App. F prompt budget counts these)."""
        if self.raw is not None:
            return len(self.raw)
        return sum(len(m.content) for m in self.messages) + len(self.assistant_prefix)

    def as_dicts(self) -> list[dict[str, str]]:
        return [{"role": m.role, "content": m.content} for m in self.messages]


def chat(
    system: str | None, user: str, *, assistant_prefix: str = "", seed: int | None = None
) -> Prompt:
    """A chat prompt of an optional system message and one user message."""
    turns = ((Message("system", system),) if system else ()) + (Message("user", user),)
    return Prompt(messages=turns, assistant_prefix=assistant_prefix, seed=seed)


@dataclass(frozen=True)
class Sampling:
    """Generation settings, always sent explicitly (vLLM's own default ``max_tokens`` is 16)."""

    max_tokens: int = 1024
    temperature: float = 0.0
    top_p: float = 1.0
    top_k: int | None = None
    """``None``: not sent (hosted APIs reject it)."""
    repetition_penalty: float | None = None
    n: int = 1
    """Samples per prompt, for pass@k."""
    seed: int = 0
    stop: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.max_tokens < 1:
            raise UsageError(f"max_tokens must be at least 1, got {self.max_tokens}")
        if self.n < 1:
            raise UsageError(f"n must be at least 1, got {self.n}")
        if self.n > 1 and self.temperature <= 0:
            raise UsageError(
                f"n={self.n} samples need temperature > 0 (greedy decoding gives one answer); "
                "set temperature=…"
            )
        if not math.isfinite(self.temperature) or self.temperature < 0 or not 0 < self.top_p <= 1:
            raise UsageError("temperature must be >= 0 and top_p in (0, 1]")


@dataclass(frozen=True)
class Completion:
    """One generated sample, the same for every backend."""

    text: str
    finish_reason: str = ""
    """``stop``, ``length`` (cut at ``max_tokens``), or ``error``."""
    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency_s: float = 0.0
    """Wall time of the request; for a batched offline call, the call's time shared equally."""
    cost_usd: float | None = None
    error: str = ""
    """Why no text came back, in one line; empty on success. A completion with an error is a
    *backend failure*: the model never answered, so it is no result to keep."""
    attempts: int = 1
    failure: str = ""
    """What kind of backend failure: ``connect`` (the server was never reached), ``timeout``,
    ``transport`` (reached, then the connection broke), ``http`` (an error status) or
    ``malformed`` (a 200 reply that is no completion); empty on success."""

    @property
    def ok(self) -> bool:
        return not self.error

    @property
    def truncated(self) -> bool:
        return self.finish_reason == "length"

    def usage(self) -> Usage:
        return Usage(
            prompt_tokens=self.prompt_tokens,
            completion_tokens=self.completion_tokens,
            latency_s=self.latency_s,
            cost_usd=self.cost_usd,
            finish_reason=self.finish_reason,
        )


BACKEND_ERROR = "backend error: "
"""How the reason of a result that a backend failure decided begins. Such a result (a
formalisation or perturbation made without a model answer) says nothing about the model:
it must not be cached, and a re-run must send its request again."""


def backend_failure_reason(error: str) -> str:
    """The one-line reason of a result decided by a backend failure."""
    return error if error.startswith(BACKEND_ERROR) else BACKEND_ERROR + error


def is_backend_failure(reason: str) -> bool:
    """Whether a result with this ``reason`` came from a backend failure rather than a model
    answer (see :data:`BACKEND_ERROR`)."""
    return reason.startswith(BACKEND_ERROR)


def total_usage(completions: Sequence[Completion]) -> Usage:
    """Tokens, time and cost of several samples added up; the finish reason of the first."""
    costs = [c.cost_usd for c in completions if c.cost_usd is not None]
    return Usage(
        prompt_tokens=sum(c.prompt_tokens for c in completions),
        completion_tokens=sum(c.completion_tokens for c in completions),
        latency_s=sum(c.latency_s for c in completions),
        cost_usd=sum(costs) if costs else None,
        finish_reason=completions[0].finish_reason if completions else "",
    )


def derive_seed(base: int, key: str) -> int:
    """A per-item seed from the run seed and a stable key, independent of batch order."""
    digest = hashlib.sha256(f"{base}:{key}".encode()).digest()
    return int.from_bytes(digest[:4], "big") & 0x7FFFFFFF


@dataclass(frozen=True)
class Pricing:
    """US dollars per million tokens, for backends that do not report cost themselves."""

    input_per_mtok: float = 0.0
    output_per_mtok: float = 0.0

    def cost(self, prompt_tokens: int, completion_tokens: int) -> float:
        return (
            prompt_tokens * self.input_per_mtok + completion_tokens * self.output_per_mtok
        ) / 1e6

