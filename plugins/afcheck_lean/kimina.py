"""kimina-lean-server as the Lean backend: a pool that checks commands over HTTP.

`kimina-lean-server <https://github.com/project-numina/kimina-lean-server>`_ keeps warm Lean
REPLs behind ``POST /api/check``. :class:`KiminaPool` has the interface of
:class:`~afcheck_lean.pool.ReplPool` (``settings``, ``run(commands, breaker)``, ``close()``),
so the checker and the provers run unchanged on it: the same integrity rules before anything is
sent, the same ``#print axioms`` reading of the answer, the same rule that a check that did not
happen is never a pass.

The protocol (``kimina_client.models``): the request is
``{"snippets": [{"id", "code"}], "timeout": s, "debug": false, "reuse": true}``; the answer is
``{"results": [{"id", "time", "error"?, "response"?}]}``, where ``response`` is the REPL's own
JSON answer (``messages``, ``sorries``; ``{"message": …}`` when the REPL refused) and ``error``
a server-side failure (``… timed out …`` for a timeout). The server runs the leading ``import``
lines of a snippet as the REPL's header and the rest as the command, so positions in messages
count from the first line after the imports.

Each snippet's outcome is one of kimina's statuses (:func:`snippet_status`): ``valid``,
``sorry``, ``lean_error`` and ``repl_error`` are Lean's answers and are judged exactly as a
local REPL's; ``timeout_error`` is a :class:`~afcheck_lean.pool.Failure` of kind ``timeout``;
``server_error`` (and an HTTP failure: 429, 5xx, a lost connection) is retried ``retries``
times, then is a ``server`` failure. A failure is never cached (the checker marks the record
transient) and never a pass.
"""

from __future__ import annotations

import os
import threading
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Any

from afcheck.errors import MissingDependency, UsageError
from afcheck_lean.pool import Breaker, Failure, Result, Timed
from afcheck_lean.replies import Reply, parse_reply
from afcheck_lean.settings import LeanSettings

KIMINA_OPTIONS = frozenset({"url", "kimina_key_env", "batch_size", "retries", "http_timeout_s"})
"""Options of the Lean components that select and tune the kimina backend."""

STATUSES = ("valid", "sorry", "lean_error", "repl_error", "timeout_error", "server_error")
_RETRY_HTTP = {408, 425, 429, 500, 502, 503, 504}
_PREAMBLE = "-- afcheck"


@dataclass(frozen=True)
class KiminaSettings:
    url: str
    api_key: str = field(default="", repr=False)
    """Sent as a bearer token; read from the variable ``kimina_key_env`` names, never given
    on the command line (it would reach the run record and the cache fingerprint)."""
    batch_size: int = 8
    """Snippets per ``/api/check`` request."""
    retries: int = 3
    """Further attempts after a server error, with exponential back-off."""
    http_timeout_s: float = 0.0
    """Wall-clock limit of one request; 0: the per-snippet timeout times the batch, plus a
    minute (the server may queue snippets when its REPLs are busy)."""


def parse_kimina(options: Mapping[str, str], component: str) -> KiminaSettings | None:
    """The kimina settings when ``url`` is given, else ``None`` (local REPLs)."""
    url = options.get("url", "").strip().rstrip("/")
    if not url:
        extra = sorted(set(options) & (KIMINA_OPTIONS - {"url"}))
        if extra:
            raise UsageError(f"{component}: option {extra[0]} needs url=… (a kimina-lean-server)")
        return None
    if not url.startswith(("http://", "https://")):
        raise UsageError(f"{component}: url={url!r} must start with http:// or https://")
    try:
        batch = int(options.get("batch_size", "8"))
        retries = int(options.get("retries", "3"))
        http_timeout = float(options.get("http_timeout_s", "0"))
    except ValueError:
        raise UsageError(f"{component}: batch_size and retries must be whole numbers, "
                         "http_timeout_s a number") from None
    if batch < 1 or retries < 0 or http_timeout < 0:
        raise UsageError(f"{component}: batch_size must be at least 1, retries and "
                         "http_timeout_s at least 0")
    key = ""
    variable = options.get("kimina_key_env", "").strip()
    if variable:
        key = os.environ.get(variable, "")
        if not key:
            raise UsageError(f"{component}: kimina_key_env={variable} names an environment "
                             "variable that is not set")
    return KiminaSettings(url, key, batch, retries, http_timeout)


def snippet_status(result: Mapping[str, Any]) -> str:
    """kimina's status of one result, as ``kimina_client`` computes it."""
    error = result.get("error")
    if error:
        return "timeout_error" if "timed out" in str(error) else "server_error"
    response = result.get("response")
    if not isinstance(response, Mapping):
        return "server_error"
    if "message" in response:
        return "repl_error"
    messages = response.get("messages") or []
    if any(isinstance(m, Mapping) and m.get("severity") == "error" for m in messages):
        return "lean_error"
    return "sorry" if response.get("sorries") else "valid"


class KiminaPool:
    """A :class:`~afcheck_lean.pool.ReplPool` whose REPLs live in a kimina-lean-server."""

    def __init__(self, settings: LeanSettings, kimina: KiminaSettings,
                 client: Any = None) -> None:
        try:
            import httpx
        except ImportError:
            raise MissingDependency("the kimina Lean backend", "httpx",
                                    "pip install 'afcheck[kimina]'") from None
        self.settings = settings
        self.kimina = kimina
        self._httpx = httpx
        timeout = kimina.http_timeout_s or settings.timeout_s * kimina.batch_size + 60
        headers = {"Authorization": f"Bearer {kimina.api_key}"} if kimina.api_key else {}
        self._client = client or httpx.Client(timeout=timeout, headers=headers)
        self.statuses: Counter[str] = Counter()
        """How many snippets ended in each of kimina's statuses (after retries)."""
        self.requests = 0
        self._lock = threading.Lock()
        imports = [line for line in settings.header.splitlines()
                   if line.strip().startswith("import ")]
        rest = [line for line in settings.header.splitlines()
                if not line.strip().startswith("import ")]
        while rest and not rest[0].strip():
            rest.pop(0)
        # The body must start with a line of ours, so that positions shift by a known amount
        # whatever the command starts with (a blank line would be folded into the header).
        preamble = [_PREAMBLE, *rest]
        self._prefix = "\n".join(imports) + ("\n\n" if imports else "") + "\n".join(preamble)
        self._shift = len(preamble)

    @property
    def restarts(self) -> int:
        """No REPL is started here (the server owns them)."""
        return 0

    def run(self, commands: Sequence[str], breaker: Breaker | None = None) -> list[Result]:
        """Check every command; results in order. Batches are sent by ``workers`` threads;
        once ``breaker`` trips, batches not yet sent are ``skipped``."""
        timeouts = [self.settings.timeout_s] * len(commands)
        return [timed.result for timed in self.run_within(commands, timeouts, breaker)]

    def run_within(self, commands: Sequence[str], timeouts: Sequence[float],
                   breaker: Breaker | None = None) -> list[Timed]:
        """:meth:`run` with a wall-clock limit for each command. A request has one timeout
        for all its snippets, so a batch gets the least of its commands', and each snippet
        is timed as its whole request (retries included): a bound above what it spent, so
        a deadline kept with these times is never overrun."""
        if not commands:
            return []
        size = self.kimina.batch_size
        batches = [list(range(start, min(start + size, len(commands))))
                   for start in range(0, len(commands), size)]
        results: list[Timed | None] = [None] * len(commands)

        def one(indices: list[int]) -> None:
            if breaker is not None and breaker.tripped is not None:
                made: list[Timed] = [Timed(Failure("skipped",
                                                   f"not run: {breaker.tripped.reason}"), 0.0)
                                     for _ in indices]
            else:
                started = time.monotonic()
                answers = self._batch([commands[i] for i in indices], indices[0],
                                      min(timeouts[i] for i in indices))
                seconds = time.monotonic() - started
                made = [Timed(answer, seconds) for answer in answers]
            for i, timed in zip(indices, made, strict=True):
                results[i] = timed
                if breaker is not None:
                    breaker.record(timed.result)

        with ThreadPoolExecutor(max_workers=max(1, self.settings.workers)) as pool:
            list(pool.map(one, batches))
        return [r for r in results if r is not None]

    def close(self) -> None:
        self._client.close()

    # -- one request ---------------------------------------------------------------------------

    def _batch(self, commands: Sequence[str], first: int, timeout: float) -> list[Result]:
        ids = [f"afcheck-{first + i}" for i in range(len(commands))]
        code = {sid: f"{self._prefix}\n{command}" for sid, command in zip(ids, commands,
                                                                          strict=True)}
        out: dict[str, Result] = {}
        pending = list(ids)
        last = ""
        answered = False
        for attempt in range(self.kimina.retries + 1):
            if attempt:
                time.sleep(min(8.0, 0.5 * 2 ** (attempt - 1)))
            got, why, final = self._post(pending, code, timeout)
            if final:
                # The server refused the request itself (authentication, a bad request):
                # asking again would get the same answer.
                return [Failure("server", why, startup=True) for _ in ids]
            if got is None:
                last = why
                continue
            answered = True
            retry = []
            for sid in pending:
                result = got.get(sid)
                status = snippet_status(result) if result is not None else "server_error"
                if status == "server_error":
                    retry.append(sid)
                    last = (f"kimina-lean-server: {result.get('error') or 'no response'}"
                            if result is not None else
                            "kimina-lean-server answered without this snippet")
                    continue
                assert result is not None
                out[sid] = made = self._result(result, status, timeout)
                if status == "valid" and isinstance(made, Reply) and made.uses_sorry:
                    # kimina reads only the sorries list; Lean's warning says the same.
                    status = "sorry"
                self._count(status)
            pending = retry
            if not pending:
                break
        for sid in pending:
            self._count("server_error")
            out[sid] = Failure("server", f"{last} (after {self.kimina.retries + 1} attempts)",
                               startup=not answered)
        return [out[sid] for sid in ids]

    def _post(self, ids: Sequence[str], code: Mapping[str, str], timeout: float
              ) -> tuple[dict[str, Mapping[str, Any]] | None, str, bool]:
        """The results by snippet id, or ``None`` and why; the flag says the failure is final."""
        payload = {"snippets": [{"id": sid, "code": code[sid]} for sid in ids],
                   "timeout": max(1, round(timeout)), "debug": False,
                   "reuse": True, "infotree": None}
        url = f"{self.kimina.url}/api/check"
        with self._lock:
            self.requests += 1
        try:
            response = self._client.post(url, json=payload)
        except self._httpx.HTTPError as exc:
            return None, f"cannot reach kimina-lean-server at {self.kimina.url} ({exc})", False
        if response.status_code in _RETRY_HTTP:
            return None, (f"kimina-lean-server at {self.kimina.url} answered HTTP "
                          f"{response.status_code}"), False
        if response.status_code >= 400:
            text = " ".join(response.text.split())[:200]
            return None, (f"kimina-lean-server at {self.kimina.url} refused the request: HTTP "
                          f"{response.status_code} {text}"), True
        try:
            data = response.json()
        except ValueError:
            return None, "kimina-lean-server answered something that is not JSON", False
        items = data.get("results") if isinstance(data, Mapping) else data
        if not isinstance(items, list):
            return None, "kimina-lean-server answered without a results list", False
        return {str(item.get("id")): item for item in items if isinstance(item, Mapping)}, "", \
            False

    def _result(self, result: Mapping[str, Any], status: str, timeout: float) -> Result:
        if status == "timeout_error":
            return Failure("timeout", f"Lean timed out after {timeout:g}s while "
                           f"checking (kimina-lean-server: {result.get('error')})")
        reply = parse_reply(result["response"])
        return replace(reply, messages=tuple(replace(m, line=m.line - self._shift)
                                             for m in reply.messages))

    def _count(self, status: str) -> None:
        with self._lock:
            self.statuses[status] += 1

    def summary(self) -> str:
        """One line: snippets by status and requests sent."""
        counts = ", ".join(f"{s} {self.statuses[s]}" for s in STATUSES if self.statuses[s])
        return (f"kimina-lean-server {self.kimina.url}: {sum(self.statuses.values())} snippets "
                f"({counts or 'none'}) in {self.requests} requests")



def pool_summary(pool: object) -> list[str]:
    """The end-of-run line of a pool that has one (a :class:`KiminaPool`), else none."""
    summary = getattr(pool, "summary", None)
    return [str(summary())] if callable(summary) else []
