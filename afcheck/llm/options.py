"""``--<kind>-opt k=v`` strings → a client and its sampling settings, with one-line errors."""

from __future__ import annotations

import math
import os
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, TypeVar

from afcheck.errors import UsageError
from afcheck.llm.client import LLMClient
from afcheck.llm.records import Pricing, Sampling
from afcheck.llm.redact import looks_like_key
from afcheck.llm.retry import Backoff

if TYPE_CHECKING:
    from afcheck.budget import Budget

CLIENT_OPTIONS: Mapping[str, str] = {
    "model": "model id (vLLM: HF id or local path; HTTP: the served model name)",
    "base_url": "OpenAI-compatible server, e.g. http://127.0.0.1:8000/v1 (selects HTTP); "
                "replicas of one model: URL1|URL2|…",
    "backend": "vllm or http (default: http when base_url is given, else vllm)",
    "api_key_env": "name of the environment variable holding the API key (OPENAI_API_KEY)",
    "concurrency": "HTTP requests in flight at once (8)",
    "timeout_s": "HTTP request timeout in seconds (600)",
    "max_retries": "HTTP retries on 429/5xx/timeouts (4)",
    "deadline_s": "HTTP: longest one request may take, its retries and their waits included "
                  "(none: timeout_s per attempt)",
    "backoff_s": "first HTTP backoff wait in seconds, doubled per retry (0.5)",
    "backoff_cap_s": "longest HTTP backoff wait in seconds (30)",
    "token_field": "max_tokens or max_completion_tokens (HTTP body field)",
    "max_reply_mb": "HTTP replies larger than this are refused unread (16)",
    "fail_streak": "stop after this many HTTP requests failed in a row, 0 = never (20)",
    "price_in": "USD per million prompt tokens, when the server reports no cost",
    "price_out": "USD per million completion tokens, when the server reports no cost",
    "tensor_parallel_size": "vLLM: GPUs per engine",
    "max_model_len": "vLLM: context length (default: the preset's)",
    "gpu_memory_utilization": "vLLM: share of GPU memory for the engine",
    "dtype": "vLLM: weight dtype (auto, bfloat16 …)",
}
SAMPLING_OPTIONS: Mapping[str, str] = {
    "max_tokens": "tokens generated at most per sample",
    "temperature": "0 = greedy",
    "top_p": "nucleus sampling mass",
    "top_k": "top-k sampling (not sent unless set)",
    "n": "samples per prompt (pass@k); needs temperature > 0",
    "seed": "base seed; each item derives its own from it",
}

T = TypeVar("T")


@dataclass(frozen=True)
class Options:
    """String options of one component, with typed, checked access."""

    owner: str
    """``formaliser 'kimina'``: names the component in error messages."""
    values: Mapping[str, str]

    def check_known(self, extra: Mapping[str, str] = {}) -> None:  # noqa: B006 - read only
        known = {**CLIENT_OPTIONS, **SAMPLING_OPTIONS, **extra}
        for key in self.values:
            if key not in known:
                from afcheck.suggest import nearest

                close = nearest(key, known)
                hint = f" Did you mean '{close}'?" if close else ""
                raise UsageError(
                    f"{self.owner}: unknown option '{key}'.{hint} "
                    f"Known options: {', '.join(sorted(known))}."
                )

    def text(self, key: str, default: str = "") -> str:
        return self.values.get(key, default)

    def typed(self, key: str, convert: Callable[[str], T], default: T) -> T:
        raw = self.values.get(key)
        if raw is None or raw == "":
            return default
        try:
            return convert(raw)
        except ValueError:
            kind = "an integer" if convert is int else "a number" if convert is float else "valid"
            raise UsageError(
                f"{self.owner}: option {key}={raw!r} is not {kind}; "
                f"pass e.g. --…-opt {key}=1"
            ) from None


def sampling_from(options: Options, defaults: Sampling) -> Sampling:
    """The preset's sampling with the user's overrides."""
    try:
        return replace(
            defaults,
            max_tokens=options.typed("max_tokens", int, defaults.max_tokens),
            temperature=options.typed("temperature", float, defaults.temperature),
            top_p=options.typed("top_p", float, defaults.top_p),
            top_k=options.typed("top_k", int, defaults.top_k),
            n=options.typed("n", int, defaults.n),
            seed=options.typed("seed", int, defaults.seed),
        )
    except UsageError as exc:
        if str(exc).startswith(options.owner):
            raise
        raise UsageError(f"{options.owner}: {exc}") from None


def make_client(
    options: Options,
    *,
    model: str,
    engine_kwargs: Mapping[str, Any] | None = None,
    engine_defaults: Mapping[str, Any] | None = None,
) -> LLMClient:
    """The backend the options ask for: HTTP when ``base_url`` is given, else vLLM offline.

    ``engine_kwargs`` are forced on the vLLM engine (the user's options override them);
    ``engine_defaults`` are dropped when the model refuses them (a preset's ``max_model_len``
    above the model's own context)."""
    model = options.text("model", model)
    base_url = options.text("base_url")
    backend = options.text("backend", "http" if base_url else "vllm")
    if not model:
        raise UsageError(f"{options.owner}: no model given; pass model=NAME")
    if backend == "http":
        return _http_client(options, model, base_url)
    if backend != "vllm":
        raise UsageError(f"{options.owner}: backend={backend!r}; use 'vllm' or 'http'")
    from afcheck.llm.vllm_client import VLLMClient

    return VLLMClient(model, engine_kwargs=_engine_kwargs(options, engine_kwargs or {}),
                      engine_defaults=engine_defaults)


def _http_client(options: Options, model: str, base_url: str) -> LLMClient:
    if not base_url:
        raise UsageError(f"{options.owner}: backend=http needs base_url=http://HOST:PORT/v1")
    from afcheck.llm.http_client import HTTPClient, HTTPSettings, split_base_url

    for url in split_base_url(base_url) or [base_url]:
        if not url.startswith(("http://", "https://")):
            raise UsageError(f"{options.owner}: base_url={url!r} must start with http(s)://"
                             " (several replicas: URL1|URL2)")

    price_in = _at_least(options, "price_in", 0.0, 0.0)
    price_out = _at_least(options, "price_out", 0.0, 0.0)
    token_field = options.text("token_field", "max_tokens")
    if token_field not in ("max_tokens", "max_completion_tokens"):
        raise UsageError(
            f"{options.owner}: token_field must be max_tokens or max_completion_tokens"
        )
    timeout_s = _at_least(options, "timeout_s", 600.0, 0.0)
    if timeout_s == 0:
        raise UsageError(f"{options.owner}: timeout_s must be more than 0 seconds")
    deadline_s = None
    if options.values.get("deadline_s"):
        deadline_s = _at_least(options, "deadline_s", 0.0, 0.0)
        if deadline_s == 0:
            raise UsageError(f"{options.owner}: deadline_s must be more than 0 seconds")
    max_reply_mb = _at_least(options, "max_reply_mb", 16.0, 0.0)
    if max_reply_mb == 0:
        raise UsageError(f"{options.owner}: max_reply_mb must be more than 0")
    settings = HTTPSettings(
        base_url=base_url,
        model=model,
        api_key_env=_key_variable(options),
        concurrency=_positive(options, "concurrency", 8),
        timeout_s=timeout_s,
        deadline_s=deadline_s,
        backoff=Backoff(
            max_retries=int(_at_least(options, "max_retries", 4, 0, int)),
            base_s=_at_least(options, "backoff_s", 0.5, 0.0),
            cap_s=_at_least(options, "backoff_cap_s", 30.0, 0.0),
        ),
        token_field=token_field,
        pricing=Pricing(price_in, price_out) if (price_in or price_out) else None,
        max_reply_bytes=max(1, int(max_reply_mb * 2**20)),
        fail_streak=int(_at_least(options, "fail_streak", 20, 0, int)),
    )
    return HTTPClient(settings)


def _at_least(options: Options, key: str, default: float, low: float,
              convert: Callable[[str], float] = float) -> float:
    """A finite number of at least ``low``: NaN, infinities and negatives are one line."""
    value = options.typed(key, convert, default)
    if not math.isfinite(value) or value < low:
        raise UsageError(
            f"{options.owner}: option {key}={options.values.get(key)!r} must be a finite "
            f"number of at least {low:g}"
        )
    return value


def _key_variable(options: Options) -> str:
    """The name of the variable holding the API key; a key given in its place is refused
    without being repeated, since the error line may end up in a log."""
    name = options.text("api_key_env", "OPENAI_API_KEY")
    if name and looks_like_key(name):
        raise UsageError(
            f"{options.owner}: api_key_env must name the environment variable that holds the "
            "key (e.g. api_key_env=OPENAI_API_KEY), not the key itself; the value given looks "
            "like a key: put it in a variable and name that variable"
        )
    if "api_key_env" in options.values and name and not os.environ.get(name):
        # Named on purpose, so a key is expected: a server that needs one would refuse every
        # request, and one that does not would hide the slip.
        warnings.warn(f"{options.owner}: api_key_env={name}, but {name} is not set; requests "
                      "are sent without an API key", UserWarning, stacklevel=2)
    return name


def _positive(options: Options, key: str, default: int) -> int:
    value = options.typed(key, int, default)
    if value < 1:
        raise UsageError(f"{options.owner}: {key} must be at least 1, got {value}")
    return value


def _engine_kwargs(options: Options, defaults: Mapping[str, Any]) -> dict[str, Any]:
    kwargs = dict(defaults)
    for key in ("tensor_parallel_size", "max_model_len"):
        if key in options.values:
            kwargs[key] = _positive(options, key, 1)
    if "gpu_memory_utilization" in options.values:
        share = options.typed("gpu_memory_utilization", float, 0.9)
        if not (math.isfinite(share) and 0 < share <= 1):
            raise UsageError(f"{options.owner}: gpu_memory_utilization must be in (0, 1], "
                             f"got {options.values['gpu_memory_utilization']!r}")
        kwargs["gpu_memory_utilization"] = share
    if "dtype" in options.values:
        kwargs["dtype"] = options.text("dtype")
    return kwargs


VOLATILE: frozenset[str] = frozenset({
    "deadline_s", "timeout_s", "max_retries", "backoff_s", "backoff_cap_s", "fail_streak",
    "concurrency", "api_key_env"})
"""Options that change no reply the cache keeps (:attr:`afcheck.registry.Entry.volatile`):
a request stopped at its deadline or timeout, or given up after its retries, is a backend
error, ``transient``, never cached, and any other reply is the same whatever these are; how
many requests are in flight and which variable holds the key do not change a reply either.
Every other option (``model``, ``base_url``, sampling, prices, which reach the kept usage)
is in the fingerprint."""


def request_budget(budget: Budget, options: Mapping[str, str]) -> dict[str, str]:
    """The client options that carry a stage's budget on one model request
    (:class:`afcheck.registry.BudgetOptions`): ``seconds`` is ``deadline_s``, the whole
    request with its retries and the waits between them. Refused: ``memory_mb`` (the model
    runs in its server or engine, not in a process of afcheck's bounded per request) and any
    bound with the offline vLLM engine, which generates a whole batch in one call and so has
    no deadline per request."""
    if budget.memory_mb is not None:
        raise ValueError("a model runs in its server or engine, whose memory afcheck does not "
                         "bound per request; leave memory_mb unset")
    backend = options.get("backend", "http" if options.get("base_url") else "vllm")
    if backend != "http":
        raise ValueError("the offline vLLM engine generates a whole batch in one call, so a "
                         "request has no deadline of its own; serve the model over HTTP "
                         "(base_url=) or bound it with max_tokens")
    if budget.seconds is None:
        return {}
    return {"deadline_s": f"{budget.seconds:g}"}
