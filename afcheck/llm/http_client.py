"""OpenAI-compatible HTTP backend: ``vllm serve``, llama.cpp, hosted APIs and gateways.

Chat prompts go to ``/chat/completions``, raw prompts to ``/completions``. Requests run on a
bounded thread pool over one shared connection pool; each retries on 429, 5xx, timeouts and
connection errors with capped exponential backoff. ``n`` samples are ``n`` requests with seeds
``seed + i`` (the scheme vLLM uses for its own children), so pass@k is reproducible on servers
that ignore ``n``.

``base_url`` may name several replicas of one model, ``URL1|URL2|…`` (several ``vllm serve``
behind no load balancer): each request goes to the least busy healthy replica; a replica that
fails a request (no connection, a timeout, HTTP 429 or 5xx) is taken out for a cool-down that
doubles while it keeps failing and is tried again after it, and the request is retried at
once on another replica. :meth:`HTTPClient.summary_lines` gives one line per replica.

The API key is read from the environment variable named by ``api_key_env`` when the client is
built and only ever placed in the ``Authorization`` header: it is kept out of ``repr``, and
scrubbed from any error text, which is what reaches logs, JSON and JUnit.
"""

from __future__ import annotations

import json
import math
import os
import random
import re
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from afcheck.errors import MissingDependency, UsageError
from afcheck.install import install_command
from afcheck.llm.client import BackendError, BackendFailing, BackendRefused
from afcheck.llm.records import Completion, Pricing, Prompt, Sampling
from afcheck.llm.redact import redact, scrub, url_secrets
from afcheck.llm.retry import Backoff, is_retryable_status, parse_retry_after
from afcheck.printable import printable
from afcheck.redact import remember_secret
from afcheck.runtime.progress import tick

_SIZE_REFUSAL = re.compile(
    r"max_(?:completion_)?tokens|context[ _-]?(?:length|window|size)|maximum context"
    r"|too many tokens|prompt is too long|reduce the length",
    re.I,
)
"""How servers (vLLM, llama.cpp, OpenAI and gateways) word a 400 on a request too large for
the model: no retry can fix it, so the run stops with it."""


@dataclass(frozen=True)
class HTTPSettings:
    """Connection settings of an :class:`HTTPClient`."""

    base_url: str
    model: str
    api_key_env: str = "OPENAI_API_KEY"
    concurrency: int = 8
    timeout_s: float = 600.0
    """Longest wait for one reply, from sending the request to its last byte."""
    deadline_s: float | None = None
    """Longest one request may take in all, its retries and the waits between them included
    (a stage's budget): each attempt gets at most what is left, and no retry starts that
    could not finish by then. ``None``: only ``timeout_s`` per attempt and ``max_retries``."""
    backoff: Backoff = Backoff()
    token_field: str = "max_tokens"
    """``max_completion_tokens`` for APIs that refuse ``max_tokens``."""
    pricing: Pricing | None = None
    max_reply_bytes: int = 16 * 2**20
    """A reply larger than this is not read: no completion of a sane ``max_tokens`` is near
    it, and reading a runaway one would hold the whole batch in memory."""
    fail_streak: int = 20
    """Stop with :class:`BackendFailing` after this many failed requests in a row (0: never)."""

    def __post_init__(self) -> None:
        if not (math.isfinite(self.timeout_s) and self.timeout_s > 0):
            raise UsageError(f"timeout_s must be a positive number of seconds, "
                             f"got {self.timeout_s}")
        if self.deadline_s is not None and not (math.isfinite(self.deadline_s)
                                                and self.deadline_s > 0):
            raise UsageError(f"deadline_s must be a positive number of seconds, "
                             f"got {self.deadline_s}")
        if self.concurrency < 1:
            raise UsageError(f"concurrency must be at least 1, got {self.concurrency}")
        if self.max_reply_bytes < 1:
            raise UsageError(f"max_reply_bytes must be positive, got {self.max_reply_bytes}")
        if self.fail_streak < 0:
            raise UsageError(f"fail_streak must be 0 (off) or more, got {self.fail_streak}")


_LEAST_ATTEMPT_S = 0.05
"""Less than this left of a request's deadline is no time for another attempt."""

REFUSED_RETRIES = 2
"""Retries of a connection the server's host refused (nothing listens on the port): enough
for a server that is restarting, not the full backoff a busy server gets."""


class _Failure(Exception):
    """One attempt failed; ``retryable`` says whether another attempt may succeed."""

    def __init__(self, message: str, retryable: bool, kind: str,
                 retry_after: float | None = None, status: int | None = None,
                 refused: bool = False) -> None:
        super().__init__(message)
        self.retryable = retryable
        self.kind = kind
        self.retry_after = retry_after
        self.status = status
        self.refused = refused
        """A connection refused: nothing listens where the request went."""


def _is_refused(exc: BaseException) -> bool:
    """Whether a connection error is a refusal (ECONNREFUSED), however httpx wraps it."""
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, ConnectionRefusedError) or "connection refused" in str(seen).lower():
            return True
        seen = seen.__cause__ or seen.__context__
    return False


class _Notices:
    """Lines on stderr that say what a client is trying while it retries: each retry round
    once per client, however many requests are retrying together."""

    def __init__(self, write: Callable[[str], None]) -> None:
        self.write = write
        self.lock = threading.Lock()
        self.said: set[tuple[str, int]] = set()

    def retrying(self, where: str, failure: _Failure, retry: int, of: int, wait: float) -> None:
        with self.lock:
            if (failure.kind, retry) in self.said:
                return
            self.said.add((failure.kind, retry))
        self.write(f"afcheck: LLM server at {where}: {failure}; retry {retry} of {of} in "
                   f"{wait:.1f} s\n")


def _stderr(text: str) -> None:
    sys.stderr.write(text)
    sys.stderr.flush()


class _Abort:
    """Shared by the requests of one client: the first unfixable answer, or a failure streak,
    stops everything still queued."""

    def __init__(self, streak_limit: int, where: str) -> None:
        self.limit = streak_limit
        self.where = where
        self.lock = threading.Lock()
        self.streak = 0
        self.unreached = True
        """Every failure of the streak was a connection never made."""
        self.answered = False
        """Whether any request of this client got an answer."""
        self.error: BackendError | None = None

    def record(self, completion: Completion) -> None:
        with self.lock:
            if completion.ok:
                self.streak, self.unreached, self.answered = 0, True, True
                return
            self.streak += 1
            self.unreached = self.unreached and completion.failure == "connect"
            if completion.failure == "connect" and not self.answered and self.error is None:
                # No request of this client ever got through and one has spent its retries:
                # the server is not there; waiting out a streak only delays the same line.
                self.error = BackendError(
                    f"cannot reach the LLM server at {self.where}: {completion.error}")
                return
            if self.limit and self.streak >= self.limit and self.error is None:
                if self.unreached:
                    self.error = BackendError(
                        f"cannot reach the LLM server at {self.where}: {completion.error}")
                    return
                self.error = BackendFailing(
                    f"the backend is failing: {self.streak} requests in a row failed; "
                    f"the last: {completion.error}"
                )

    def stop(self, error: BackendError) -> None:
        with self.lock:
            if self.error is None:
                self.error = error


_COOLDOWN_S = 10.0
_COOLDOWN_CAP_S = 300.0


@dataclass
class _Replica:
    """One server of ``base_url``, with its health and counts."""

    url: str
    http: Any
    out_until: float = 0.0
    strikes: int = 0
    """Failures in a row; the cool-down doubles with each."""
    in_flight: int = 0
    answered: int = 0
    failed: int = 0
    taken_out: int = 0

    def healthy(self, now: float) -> bool:
        return self.out_until <= now


class _Replicas:
    """Which replica the next attempt goes to, and what each attempt did to its health."""

    def __init__(self, replicas: list[_Replica], clock: Callable[[], float]) -> None:
        self.all = replicas
        self.clock = clock
        self.lock = threading.Lock()

    def pick(self, avoid: _Replica | None = None) -> _Replica:
        """The least busy healthy replica (not ``avoid`` when another is healthy); when none
        is, the one whose cool-down ends first."""
        with self.lock:
            now = self.clock()
            healthy = [r for r in self.all if r.healthy(now)]
            if avoid is not None and len(healthy) > 1:
                healthy = [r for r in healthy if r is not avoid]
            if healthy:
                chosen = min(healthy, key=lambda r: (r.in_flight, r.answered + r.failed))
            else:
                chosen = min(self.all, key=lambda r: r.out_until)
            chosen.in_flight += 1
            return chosen

    def done(self, replica: _Replica, failure: _Failure | None, *,
             takes_out: bool = False) -> None:
        with self.lock:
            replica.in_flight -= 1
            if failure is None:
                replica.answered += 1
                replica.strikes, replica.out_until = 0, 0.0
                return
            replica.failed += 1
            if not takes_out or len(self.all) == 1:
                return
            now = self.clock()
            if not replica.healthy(now):
                return  # sent before it was taken out: the same trouble, counted once
            replica.taken_out += 1
            replica.strikes += 1
            pause = min(_COOLDOWN_CAP_S, _COOLDOWN_S * 2 ** (replica.strikes - 1))
            replica.out_until = now + max(pause, failure.retry_after or 0.0)

    def another_healthy(self, replica: _Replica) -> bool:
        with self.lock:
            now = self.clock()
            return any(r is not replica and r.healthy(now) for r in self.all)


def _takes_out(failure: _Failure, status: int | None) -> bool:
    """Whether a failure says the replica (not the request) is in trouble."""
    if failure.kind in ("connect", "timeout", "transport"):
        return True
    return status is not None and (status == 429 or status >= 500)


def split_base_url(base_url: str) -> list[str]:
    """The replicas of ``URL1|URL2|…``, in order, without duplicates."""
    urls: list[str] = []
    for part in base_url.split("|"):
        url = part.strip()
        if url and url not in urls:
            urls.append(url)
    return urls


class HTTPClient:
    """An :class:`afcheck.llm.client.LLMClient` over an OpenAI-compatible server.

    ``sleep``, ``rng`` and ``clock`` are seams for tests of the backoff schedule and of the
    replicas' cool-downs.
    """

    backend = "http"

    def __init__(
        self,
        settings: HTTPSettings,
        *,
        sleep: Callable[[float], None] = time.sleep,
        rng: random.Random | None = None,
        clock: Callable[[], float] = time.monotonic,
        notice: Callable[[str], None] = _stderr,
    ) -> None:
        try:
            import httpx
        except ImportError:
            raise MissingDependency("the HTTP LLM backend", "httpx",
                                    install_command("openai")) from None
        self.settings = settings
        self.model = settings.model
        self._sleep = sleep
        self._rng = rng or random.Random(0)
        self._rng_lock = threading.Lock()
        self._key = os.environ.get(settings.api_key_env, "") if settings.api_key_env else ""
        self._httpx = httpx
        from afcheck.llm.deadline import bounded_transport, within

        self._within = within
        # Every exchange ends by its attempt's timeout, headers and body included
        # (afcheck.llm.deadline): httpx's own timeouts bound each socket read alone.
        replicas = [
            _Replica(url, httpx.Client(
                base_url=url.rstrip("/") + "/",
                timeout=httpx.Timeout(settings.timeout_s),
                transport=bounded_transport(
                    httpx, httpx.Limits(max_connections=max(1, settings.concurrency))),
            ))
            for url in split_base_url(settings.base_url)
        ]
        if not replicas:
            raise UsageError("base_url names no server")
        self._replicas = _Replicas(replicas, clock)
        self._http = replicas[0].http
        secrets: list[str] = [self._key] if self._key else []
        for replica in replicas:
            url = replica.http.base_url
            credentials = url_secrets(url.username, url.password)
            for secret in credentials:
                remember_secret(secret)  # every output of the run masks them too
            secrets += [*credentials, url.username]
        if self._key:
            remember_secret(self._key)
        self._secrets = tuple(secrets)
        self._abort = _Abort(settings.fail_streak, self.where)
        self._notices = _Notices(notice)

    @property
    def where(self) -> str:
        """The server's URL as it may be shown: credentials masked."""
        return redact(self.settings.base_url)

    def __repr__(self) -> str:
        s = self.settings
        return f"HTTPClient(base_url={self.where!r}, model={s.model!r}, key_env={s.api_key_env!r})"

    def close(self) -> None:
        for replica in self._replicas.all:
            replica.http.close()

    def summary_lines(self) -> list[str]:
        """One line per replica when ``base_url`` names several, else none."""
        if len(self._replicas.all) < 2:
            return []
        now = self._replicas.clock()
        lines = []
        for replica in self._replicas.all:
            line = (f"LLM replica {redact(replica.url)}: {replica.answered} answered, "
                    f"{replica.failed} failed, taken out {replica.taken_out} time(s)")
            if not replica.healthy(now):
                line += f", out for {replica.out_until - now:.0f} s more"
            lines.append(line)
        return lines

    def generate(self, prompts: Sequence[Prompt], sampling: Sampling) -> list[list[Completion]]:
        """Every sample of every prompt; raises :class:`BackendRefused` on an answer no retry
        fixes and :class:`BackendFailing` once ``fail_streak`` requests failed in a row."""
        if self._abort.error is not None:
            raise self._abort.error
        jobs = [(i, k) for i in range(len(prompts)) for k in range(sampling.n)]
        results: list[list[Completion | None]] = [[None] * sampling.n for _ in prompts]
        workers = max(1, min(self.settings.concurrency, len(jobs)))
        pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="afcheck-http")
        try:
            done = pool.map(lambda job: self._one(prompts[job[0]], sampling, job[1]), jobs)
            for (i, k), completion in zip(jobs, done, strict=True):
                results[i][k] = completion
        except BaseException:
            # Ctrl-C: the queued requests are dropped, not sent one by one before the run
            # can stop; those in flight end when the client closes.
            self._abort.stop(BackendError("interrupted"))
            pool.shutdown(wait=False, cancel_futures=True)
            raise
        pool.shutdown()
        if self._abort.error is not None:
            raise self._abort.error
        out = [[c for c in row if c is not None] for row in results]
        _raise_if_unreachable(out, self.where)
        return out

    # -- one request ---------------------------------------------------------------------------

    def _one(self, prompt: Prompt, sampling: Sampling, sample: int) -> Completion | None:
        if self._abort.error is not None:
            return None
        try:
            completion = self._attempts(prompt, sampling, sample)
        except BackendRefused as refused:
            self._abort.stop(refused)
            return None
        self._abort.record(completion)
        tick(1 / max(1, sampling.n))  # the running stage's progress, per request
        return completion

    def _attempts(self, prompt: Prompt, sampling: Sampling, sample: int) -> Completion:
        path, body = self._request(prompt, sampling, sample)
        start = time.perf_counter()
        deadline = (math.inf if self.settings.deadline_s is None
                    else time.monotonic() + self.settings.deadline_s)
        attempts = 0
        replica: _Replica | None = None

        def failed(message: str, kind: str) -> Completion:
            return Completion(text="", finish_reason="error",
                              latency_s=time.perf_counter() - start,
                              error=self._scrub(message), attempts=attempts, failure=kind)

        while True:
            attempts += 1
            replica = self._replicas.pick(avoid=replica)
            try:
                timeout = max(_LEAST_ATTEMPT_S,
                              min(self.settings.timeout_s, deadline - time.monotonic()))
                data = self._post(path, body, replica, timeout)
                completion = self._completion(data, prompt, time.perf_counter() - start,
                                              attempts)
            except _Failure as failure:
                self._replicas.done(replica, failure,
                                    takes_out=_takes_out(failure, failure.status))
                retries_done = attempts - 1
                retries = (min(REFUSED_RETRIES, self.settings.backoff.max_retries)
                           if failure.refused else self.settings.backoff.max_retries)
                if (not failure.retryable or retries_done >= retries
                        or self._abort.error is not None):
                    return failed(_after(str(failure), attempts), failure.kind)
                # Another healthy replica answers now: no reason to wait.
                switch = self._replicas.another_healthy(replica)
                wait = 0.0
                if not switch:
                    with self._rng_lock:
                        wait = self.settings.backoff.delay(retries_done, self._rng,
                                                           failure.retry_after)
                if time.monotonic() + wait >= deadline - _LEAST_ATTEMPT_S:
                    # No retry could finish within the request's deadline: stop now rather
                    # than wait for nothing (a limit: the item is asked again next run).
                    return failed(f"no reply within the deadline of "
                                  f"{self.settings.deadline_s:g} s (deadline_s); last: "
                                  f"{_after(str(failure), attempts)}", "timeout")
                if not switch:
                    self._notices.retrying(redact(replica.url), failure, attempts, retries,
                                           wait)
                    self._sleep(wait)
            except BaseException:
                self._replicas.done(replica, _Failure("refused", False, "refused"))
                raise
            else:
                self._replicas.done(replica, None)
                return completion

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

    def _headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self._key}"} if self._key else {}

    def _post(self, path: str, body: Mapping[str, Any], replica: _Replica | None = None,
              timeout: float | None = None) -> Mapping[str, Any]:
        """One attempt, limited to ``timeout`` seconds (default ``timeout_s``)."""
        httpx = self._httpx
        timeout = self.settings.timeout_s if timeout is None else timeout
        http = (replica or self._replicas.all[0]).http
        try:
            with self._within(timeout), http.stream(
                    "POST", path, json=body, headers=self._headers(),
                    timeout=httpx.Timeout(timeout)) as response:
                raw = self._read(response, time.monotonic() + timeout, timeout)
        except (httpx.ConnectError, httpx.ConnectTimeout) as exc:
            raise _Failure(f"cannot connect: {_short(exc)}", True, "connect",
                           refused=_is_refused(exc)) from None
        except httpx.TimeoutException:
            raise _Failure(f"timed out after {round(timeout, 2):g} s", True, "timeout") from None
        except httpx.TransportError as exc:
            raise _Failure(f"connection broke: {_short(exc) or type(exc).__name__}", True,
                           "transport") from None
        if response.status_code != 200:
            self._refuse_for_good(response.status_code, path, body, raw,
                                  replica or self._replicas.all[0])
            raise _Failure(
                f"HTTP {response.status_code}: {_error_message(raw)}",
                is_retryable_status(response.status_code),
                "http",
                parse_retry_after(response.headers.get("retry-after")),
                response.status_code,
            )
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise _Failure(f"the reply is not valid UTF-8 (byte {exc.start})", False,
                           "malformed") from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError:
            raise _Failure(f"the reply is not JSON: {_short(text)}", True, "malformed") from None
        if not isinstance(data, dict):
            raise _Failure(f"the reply is not a JSON object: {_short(text)}", False, "malformed")
        return data

    def _read(self, response: Any, deadline: float, timeout: float) -> bytes:
        """The body, refusing more than ``max_reply_bytes`` and a trickle past the timeout."""
        limit = self.settings.max_reply_bytes
        declared = response.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > limit:
            raise _Failure(f"the reply is {_mb(int(declared))}, over the {_mb(limit)} limit "
                           "(max_reply_mb); not read", False, "malformed")
        chunks: list[bytes] = []
        size = 0
        for chunk in response.iter_bytes():
            size += len(chunk)
            if size > limit:
                raise _Failure(f"the reply is over the {_mb(limit)} limit (max_reply_mb); "
                               "not read", False, "malformed")
            if time.monotonic() > deadline:
                raise _Failure(f"timed out after {round(timeout, 2):g} s (reply still "
                               "arriving)", True, "timeout")
            chunks.append(chunk)
        return b"".join(chunks)

    def _refuse_for_good(self, status: int, path: str, body: Mapping[str, Any],
                         raw: bytes, replica: _Replica) -> None:
        """Raise :class:`BackendRefused` for an answer that every request would get."""
        message = _error_message(raw)
        where = f"the LLM server at {redact(replica.url)}"
        if status in (401, 403):
            variable = self.settings.api_key_env or "(none: api_key_env is empty)"
            sent = "the key in" if self._key else "no key: nothing is set in"
            raise BackendRefused(self._scrub(
                f"{where} refused the API key (HTTP {status}: {message}); afcheck sent {sent} "
                f"the variable {variable}: check it, or name another with api_key_env=NAME"))
        if status == 404:
            raise BackendRefused(self._scrub(self._not_found(path, message, replica)))
        if status == 400 and _SIZE_REFUSAL.search(message):
            tokens = body.get(self.settings.token_field)
            raise BackendRefused(self._scrub(
                f"{where} refused the request size (HTTP 400: {message}); lower max_tokens "
                f"(now {tokens}) or the prompt budget (max_prompt_chars)"))

    def _not_found(self, path: str, message: str, replica: _Replica) -> str:
        model = self.settings.model
        offered = self._served_models(replica.http)
        where = f"the LLM server at {redact(replica.url)}"
        if offered is None:
            return (f"{where} has no {path} (HTTP 404: {message}); check base_url "
                    "(for vLLM and most servers it ends in /v1)")
        if model in offered:
            return (f"{where} serves '{model}' but answered HTTP 404 on {path} ({message}); "
                    "it may not offer this endpoint")
        listing = ", ".join(offered[:20]) or "none"
        return f"{where} does not serve the model '{model}' (HTTP 404); it offers: {listing}. " \
               "Pass model=NAME"

    def _served_models(self, http: Any) -> list[str] | None:
        """The names ``GET /models`` lists, or ``None`` when the server has no such list."""
        try:
            response = http.get("models", headers=self._headers(),
                                      timeout=min(self.settings.timeout_s, 30.0))
            data = response.json() if response.status_code == 200 else None
        except (self._httpx.HTTPError, ValueError):
            return None
        rows = data.get("data") if isinstance(data, dict) else None
        if not isinstance(rows, list):
            return None
        return [str(row["id"]) for row in rows if isinstance(row, dict) and "id" in row]

    def _completion(
        self, data: Mapping[str, Any], prompt: Prompt, latency: float, attempts: int
    ) -> Completion:
        choice = _first_choice(data)
        usage = data.get("usage")
        usage = usage if isinstance(usage, dict) else {}
        prompt_tokens = _count(usage.get("prompt_tokens"))
        completion_tokens = _count(usage.get("completion_tokens"))
        cost = _amount(usage.get("cost"))
        if cost is None and self.settings.pricing is not None:
            cost = self.settings.pricing.cost(prompt_tokens, completion_tokens)
        text = _choice_text(choice)
        finish = choice.get("finish_reason")
        return Completion(
            text=self._scrub(prompt.assistant_prefix + text if prompt.is_chat else text),
            finish_reason=finish if isinstance(finish, str) else "",
            prompt_tokens=prompt_tokens,
            completion_tokens=completion_tokens,
            latency_s=latency,
            cost_usd=cost,
            attempts=attempts,
        )

    def _scrub(self, text: str) -> str:
        return scrub(text, self._secrets)


def _first_choice(data: Mapping[str, Any]) -> Mapping[str, Any]:
    choices = data.get("choices")
    if not isinstance(choices, list) or not choices:
        raise _Failure(f"the reply has no choices: {_short(json.dumps(data))}", False,
                       "malformed")
    choice = choices[0]
    if not isinstance(choice, dict):
        raise _Failure(f"the reply's choices[0] is {_kind(choice)}, not an object", False,
                       "malformed")
    return choice


def _choice_text(choice: Mapping[str, Any]) -> str:
    """The answer text; reasoning that a server split off (``reasoning_content``) is put back
    inside ``<think>…</think>`` so that extraction rules see one format whatever the server."""
    if "message" not in choice:
        return _text_field(choice, "text", "choices[0].text")
    message = choice["message"]
    if message is None:
        return ""
    if not isinstance(message, dict):
        raise _Failure(f"the reply's choices[0].message is {_kind(message)}, not an object",
                       False, "malformed")
    content = _text_field(message, "content", "choices[0].message.content")
    reasoning = (_text_field(message, "reasoning_content", "reasoning_content")
                 or _text_field(message, "reasoning", "reasoning"))
    if reasoning:
        return f"<think>{reasoning}</think>{content}"
    return content


def _text_field(holder: Mapping[str, Any], key: str, label: str) -> str:
    value = holder.get(key)
    if value is None:
        return ""
    if not isinstance(value, str):
        raise _Failure(f"the reply's {label} is {_kind(value)}, not text", False, "malformed")
    return value


def _error_message(raw: bytes) -> str:
    """The message of an error reply: OpenAI's ``error.message``, vLLM's ``message``,
    FastAPI's ``detail``, or the body itself."""
    text = raw.decode("utf-8", "replace")
    try:
        data = json.loads(text)
    except ValueError:
        return _short(text)
    for holder in (data.get("error") if isinstance(data, dict) else None, data):
        if isinstance(holder, str):
            return _short(holder)
        if isinstance(holder, dict):
            for key in ("message", "detail", "error"):
                if isinstance(holder.get(key), str):
                    return _short(holder[key])
    return _short(text)


def _count(value: object) -> int:
    """A token count as servers report it; anything else (a string, a negative) is unknown."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return 0
    return int(value) if math.isfinite(value) and value >= 0 else 0


def _amount(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if math.isfinite(value) and value >= 0 else None


def _kind(value: object) -> str:
    return {type(None): "null", str: "a string", list: "a list", bool: "a boolean",
            int: "a number", float: "a number"}.get(type(value), type(value).__name__)


def _mb(size: int) -> str:
    return f"{size / 2**20:.3g} MB"


def _after(message: str, attempts: int) -> str:
    return message if attempts == 1 else f"{message} (after {attempts} attempts)"


def _short(value: object, limit: int = 200) -> str:
    """One line of at most ``limit`` characters; a server's control characters (terminal
    escapes) are shown escaped, since the line ends up on a terminal."""
    text = printable(" ".join(str(value).split()), newlines=False)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _raise_if_unreachable(results: list[list[Completion]], where: str) -> None:
    """No request reached a server: a configuration problem, not a per-step failure."""
    flat = [c for row in results for c in row]
    if flat and all(c.failure == "connect" for c in flat):
        raise BackendError(f"cannot reach the LLM server at {where}: {flat[0].error}")
