"""OpenAI-compatible HTTP backend: ``vllm serve``, llama.cpp, hosted APIs and gateways.

Chat prompts go to ``/chat/completions``, raw prompts to ``/completions``. Requests run on a
bounded thread pool over one shared connection pool; each retries on 429, 5xx, timeouts and
connection errors with capped exponential backoff. ``n`` samples are ``n`` requests with seeds
``seed + i`` (the scheme vLLM uses for its own children), so pass@k is reproducible on servers
that ignore ``n``.

The API key is read from the environment variable named by ``api_key_env`` when the client is
built and only ever placed in the ``Authorization`` header: it is kept out of ``repr``, and
scrubbed from any error text, which is what reaches logs, JSON and JUnit.
"""

from __future__ import annotations

import json
import os
import random
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from afcheck.errors import MissingDependency
from afcheck.llm.client import BackendError
from afcheck.llm.records import Completion, Pricing, Prompt, Sampling
from afcheck.llm.retry import Backoff, is_retryable_status, parse_retry_after

_INSTALL = "pip install 'afcheck[openai]'"


@dataclass(frozen=True)
class HTTPSettings:
    """Connection settings of an :class:`HTTPClient`."""

    base_url: str
    model: str
    api_key_env: str = "OPENAI_API_KEY"
    concurrency: int = 8
    timeout_s: float = 600.0
    backoff: Backoff = Backoff()
    token_field: str = "max_tokens"
    """``max_completion_tokens`` for APIs that refuse ``max_tokens``."""
    pricing: Pricing | None = None


class _Failure(Exception):
    """One attempt failed; ``retryable`` says whether another attempt may succeed."""

    def __init__(self, message: str, retryable: bool, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retryable = retryable
        self.retry_after = retry_after


class HTTPClient:
    """An :class:`afcheck.llm.client.LLMClient` over an OpenAI-compatible server.

    ``sleep`` and ``rng`` are seams for tests of the backoff schedule.
    """

    backend = "http"

    def __init__(
        self,
        settings: HTTPSettings,
        *,
        sleep: Callable[[float], None] = time.sleep,
        rng: random.Random | None = None,
    ) -> None:
        try:
            import httpx
        except ImportError:
            raise MissingDependency("the HTTP LLM backend", "httpx", _INSTALL) from None
        self.settings = settings
        self.model = settings.model
        self._sleep = sleep
        self._rng = rng or random.Random(0)
        self._rng_lock = threading.Lock()
        self._key = os.environ.get(settings.api_key_env, "") if settings.api_key_env else ""
        self._httpx = httpx
        self._http = httpx.Client(
            base_url=settings.base_url.rstrip("/") + "/",
            timeout=httpx.Timeout(settings.timeout_s),
            limits=httpx.Limits(max_connections=max(1, settings.concurrency)),
        )

    def __repr__(self) -> str:
        s = self.settings
        return f"HTTPClient(base_url={s.base_url!r}, model={s.model!r}, key_env={s.api_key_env!r})"

    def close(self) -> None:
        self._http.close()

    def generate(self, prompts: Sequence[Prompt], sampling: Sampling) -> list[list[Completion]]:
        jobs = [(i, k) for i in range(len(prompts)) for k in range(sampling.n)]
        results: list[list[Completion | None]] = [[None] * sampling.n for _ in prompts]
        workers = max(1, min(self.settings.concurrency, len(jobs)))
        with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="afcheck-http") as pool:
            done = pool.map(lambda job: self._one(prompts[job[0]], sampling, job[1]), jobs)
            for (i, k), completion in zip(jobs, done, strict=True):
                results[i][k] = completion
        out = [[c for c in row if c is not None] for row in results]
        _raise_if_unreachable(out, self.settings.base_url)
        return out

    # -- one request ---------------------------------------------------------------------------

    def _one(self, prompt: Prompt, sampling: Sampling, sample: int) -> Completion:
        path, body = self._request(prompt, sampling, sample)
        start = time.perf_counter()
        attempts = 0
        while True:
            attempts += 1
            try:
                data = self._post(path, body)
                return self._completion(data, prompt, time.perf_counter() - start, attempts)
            except _Failure as failure:
                retries_done = attempts - 1
                if not failure.retryable or retries_done >= self.settings.backoff.max_retries:
                    return Completion(
                        text="",
                        finish_reason="error",
                        latency_s=time.perf_counter() - start,
                        error=self._scrub(_after(str(failure), attempts)),
                        attempts=attempts,
                    )
                with self._rng_lock:
                    wait = self.settings.backoff.delay(retries_done, self._rng, failure.retry_after)
                self._sleep(wait)

    def _request(
        self, prompt: Prompt, sampling: Sampling, sample: int
    ) -> tuple[str, dict[str, Any]]:
        seed = (sampling.seed if prompt.seed is None else prompt.seed) + sample
        body: dict[str, Any] = {
            "model": self.settings.model,
            self.settings.token_field: sampling.max_tokens,
            "temperature": sampling.temperature,
            "top_p": sampling.top_p,
            "seed": seed,
            "n": 1,
        }
        if sampling.top_k is not None:
            body["top_k"] = sampling.top_k
        if sampling.repetition_penalty is not None:
            body["repetition_penalty"] = sampling.repetition_penalty
        if sampling.stop:
            body["stop"] = list(sampling.stop)
        if prompt.raw is not None:
            body["prompt"] = prompt.raw
            return "completions", body
        messages = prompt.as_dicts()
        if prompt.assistant_prefix:
            # vLLM's server continues a trailing assistant turn with these two flags.
            messages.append({"role": "assistant", "content": prompt.assistant_prefix})
            body["continue_final_message"] = True
            body["add_generation_prompt"] = False
        body["messages"] = messages
        return "chat/completions", body

    def _post(self, path: str, body: Mapping[str, Any]) -> Mapping[str, Any]:
        httpx = self._httpx
        headers = {"Authorization": f"Bearer {self._key}"} if self._key else {}
        try:
            response = self._http.post(path, json=body, headers=headers)
        except httpx.TimeoutException:
            raise _Failure(f"timed out after {self.settings.timeout_s:g} s", True) from None
        except httpx.TransportError as exc:
            raise _Failure(f"connection failed: {_short(exc)}", True) from None
        if response.status_code != 200:
            raise _Failure(
                f"HTTP {response.status_code}: {_short(response.text)}",
                is_retryable_status(response.status_code),
                parse_retry_after(response.headers.get("retry-after")),
            )
        try:
            data = response.json()
        except json.JSONDecodeError:
            raise _Failure(f"response is not JSON: {_short(response.text)}", True) from None
        if not isinstance(data, dict) or not data.get("choices"):
            raise _Failure(f"response has no choices: {_short(response.text)}", False)
        return data

    def _completion(
        self, data: Mapping[str, Any], prompt: Prompt, latency: float, attempts: int
    ) -> Completion:
        choice = data["choices"][0]
        usage = data.get("usage") or {}
        prompt_tokens = int(usage.get("prompt_tokens") or 0)
        completion_tokens = int(usage.get("completion_tokens") or 0)
        cost = usage.get("cost")
        if cost is None and self.settings.pricing is not None:
            cost = self.settings.pricing.cost(prompt_tokens, completion_tokens)
        return Completion(
            text=prompt.assistant_prefix + _choice_text(choice) if prompt.is_chat
            else _choice_text(choice),
            finish_reason=str(choice.get("finish_reason") or ""),
            prompt_tokens=prompt_tokens,
            completion_tokens=completion_tokens,
            latency_s=latency,
            cost_usd=float(cost) if cost is not None else None,
            attempts=attempts,
        )

    def _scrub(self, text: str) -> str:
        return text.replace(self._key, "***") if self._key else text


def _choice_text(choice: Mapping[str, Any]) -> str:
    """The answer text; reasoning that a server split off (``reasoning_content``) is put back
    inside ``<think>…</think>`` so that extraction rules see one format whatever the server."""
    if "message" not in choice:
        return str(choice.get("text") or "")
    message = choice.get("message") or {}
    content = str(message.get("content") or "")
    reasoning = message.get("reasoning_content") or message.get("reasoning")
    if reasoning:
        return f"<think>{reasoning}</think>{content}"
    return content


def _after(message: str, attempts: int) -> str:
    return message if attempts == 1 else f"{message} (after {attempts} attempts)"


def _short(value: object, limit: int = 200) -> str:
    text = " ".join(str(value).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _raise_if_unreachable(results: list[list[Completion]], base_url: str) -> None:
    """No request reached a server: a configuration problem, not a per-step failure."""
    flat = [c for row in results for c in row]
    if flat and all(c.error.startswith("connection failed") for c in flat):
        raise BackendError(f"cannot reach the LLM server at {base_url}: {flat[0].error}")
