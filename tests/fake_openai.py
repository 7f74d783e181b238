"""A fake OpenAI-compatible server that misbehaves on request, for the HTTP backend's tests.

It speaks the real protocol (``POST /v1/chat/completions``, ``POST /v1/completions``,
``GET /v1/models``) on a loopback port chosen by the OS, and answers according to its
``mode``, which a test may change while it runs (a failing server that gets fixed):

``ok``            a chat completion holding a Lean statement made from the prompt
``500``           HTTP 500
``429``           HTTP 429 with ``Retry-After: 0`` for the first ``busy`` requests, then ``ok``
``hang``          reads the request and answers nothing until the server stops
``close``         promises a body (Content-Length) and closes the connection mid-way
``nonjson``       an HTML error page with status 200
``badutf8``       a JSON body with bytes that are not UTF-8
``choices-null``  ``{"choices": [null]}``
``choices-str``   ``{"choices": "abc"}``
``choices-empty`` ``{"choices": []}``
``redirect``      HTTP 307 to another path of the same server
``slow-headers``  the status line and headers at one byte a second (the body never comes)
``slow-body``     the headers at once, then the body at one byte a second
``message-str``   a choice whose ``message`` is a string
``usage-str``     a good completion whose ``usage`` counts are strings
``empty``         a completion with empty content
``huge``          a completion of 60 MB
``huge-unsized``  the same without Content-Length (the body ends when the connection closes)
``401`` ``403``   the key is refused
``404``           the model is unknown (``GET /v1/models`` lists ``models``)
``400-context``   vLLM's refusal of a request over the model's context
``echo-key``      a completion that repeats the ``Authorization`` header it got
``mixed``         per request, by the prompt's hash: ``ok`` or one of the faults above
                  that a retry cannot fix (so each prompt always gets the same answer)

``stall`` (a text) makes one item stall among answered ones: a prompt holding it is answered
as ``hang`` whatever the mode. ``content`` makes the healthy answer's text from the prompt
(default :func:`statement_for`), for methods that ask for something other than Lean.

The server counts requests per path and keeps each chat request's user message.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

MIXED_FAULTS = ("500", "nonjson", "choices-null", "message-str", "badutf8", "close")
"""The faults ``mixed`` mode draws from, besides ``ok``."""


def statement_for(prompt: str) -> str:
    """The healthy answer to a prompt: a fenced Lean statement that depends on the prompt."""
    digits = sum(prompt.encode()) % 97
    return f"```lean4\ntheorem t : ({digits} : ℕ) + 1 = {digits + 1} := by sorry\n```"


def mixed_fault(prompt: str) -> str:
    """The mode ``mixed`` answers this prompt with: ``ok`` for about half of the prompts."""
    digest = hashlib.sha256(prompt.encode()).digest()
    if digest[0] % 2 == 0:
        return "ok"
    return MIXED_FAULTS[digest[1] % len(MIXED_FAULTS)]


def chat_reply(content: Any, **extra: Any) -> dict[str, Any]:
    reply: dict[str, Any] = {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "model": "fake",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content},
                     "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 5, "completion_tokens": 7, "total_tokens": 12},
    }
    reply.update(extra)
    return reply


@dataclass
class FakeOpenAI:
    """The server; use :meth:`running` to start it and get its base URL."""

    mode: str = "ok"
    models: tuple[str, ...] = ("fake-prover", "fake-formaliser")
    busy: int = 1
    """Requests that ``429`` mode refuses before it answers."""
    stall: str = ""
    """A prompt holding this text is answered as ``hang`` (empty: none is)."""
    content: Callable[[str], str] = statement_for
    """The text of a healthy answer to a prompt."""
    counts: dict[str, int] = field(default_factory=dict)
    prompts: list[str] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _stopping: threading.Event = field(default_factory=threading.Event)

    @property
    def completions(self) -> int:
        """Completion requests received (chat and raw)."""
        return sum(n for path, n in self.counts.items() if path.endswith("completions"))

    def _seen(self, path: str, body: Any) -> int:
        with self._lock:
            self.counts[path] = self.counts.get(path, 0) + 1
            if isinstance(body, dict) and isinstance(body.get("messages"), list):
                self.prompts.append(str(body["messages"][-1].get("content", "")))
            return self.counts[path]

    @contextlib.contextmanager
    def running(self) -> Iterator[str]:
        """Serve on ``127.0.0.1`` at a free port; yields ``http://127.0.0.1:PORT/v1``."""
        fake = self
        self._stopping.clear()

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self) -> None:  # noqa: N802 - http.server's name
                fake._seen(self.path, None)
                if self.path.rstrip("/").endswith("/models"):
                    data = [{"id": m, "object": "model", "owned_by": "fake"} for m in fake.models]
                    self._send(200, json.dumps({"object": "list", "data": data}).encode())
                else:
                    self._send(404, b'{"detail": "Not Found"}')

            def do_POST(self) -> None:  # noqa: N802
                length = int(self.headers.get("content-length", "0"))
                try:
                    body = json.loads(self.rfile.read(length) or b"null")
                except ValueError:
                    body = None
                number = fake._seen(self.path, body)
                prompt = fake.prompts[-1] if fake.prompts else ""
                mode = fake.mode
                if mode == "mixed":
                    mode = mixed_fault(prompt)
                if fake.stall and fake.stall in prompt:
                    mode = "hang"
                if mode == "429" and number <= fake.busy:
                    self._send(429, b'{"error": "slow down"}', (("Retry-After", "0"),))
                    return
                self._answer(mode, prompt)

            def _answer(self, mode: str, prompt: str) -> None:
                if mode in ("ok", "429"):
                    self._json(chat_reply(fake.content(prompt)))
                elif mode == "500":
                    self._send(500, b'{"error": {"message": "internal error"}}')
                elif mode == "hang":
                    fake._stopping.wait(30)
                elif mode == "close":
                    self.send_response(200)
                    self.send_header("content-type", "application/json")
                    self.send_header("content-length", "5000")
                    self.end_headers()
                    self.wfile.write(b'{"choices": [{"message": {"content": "theo')
                    self.wfile.flush()
                    self.close_connection = True
                    with contextlib.suppress(OSError):
                        self.connection.shutdown(2)
                elif mode == "nonjson":
                    self._send(200, b"<html><body>502 Bad Gateway</body></html>",
                               content_type="text/html")
                elif mode == "badutf8":
                    self._send(200, b'{"choices": [{"message": {"content": "\xff\xfe bad"}}]}')
                elif mode == "choices-null":
                    self._json({"choices": [None]})
                elif mode == "choices-empty":
                    self._json({"choices": []})
                elif mode == "redirect":
                    self._send(307, b"", (("Location", "/v1/elsewhere"),))
                elif mode in ("slow-headers", "slow-body"):
                    head = b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n"
                    body = json.dumps(chat_reply(fake.content(prompt))).encode()
                    head += b"content-length: %d\r\n\r\n" % len(body)
                    slow, fast = (head + body, b"") if mode == "slow-headers" else (body, head)
                    with contextlib.suppress(OSError):
                        self.wfile.write(fast)
                        self.wfile.flush()
                        for byte in slow:
                            if fake._stopping.wait(1):
                                break
                            self.wfile.write(bytes([byte]))
                            self.wfile.flush()
                    self.close_connection = True
                elif mode == "choices-str":
                    self._json({"choices": "abc"})
                elif mode == "message-str":
                    self._json({"choices": [{"index": 0, "message": "theorem t : 1 = 1",
                                             "finish_reason": "stop"}]})
                elif mode == "usage-str":
                    self._json(chat_reply(statement_for(prompt),
                                          usage={"prompt_tokens": "many",
                                                 "completion_tokens": None}))
                elif mode == "empty":
                    self._json(chat_reply(""))
                elif mode == "huge":
                    self._json(chat_reply("x" * (60 * 2**20)))
                elif mode == "huge-unsized":
                    self.send_response(200)
                    self.send_header("content-type", "application/json")
                    self.send_header("connection", "close")
                    self.end_headers()
                    self.close_connection = True
                    with contextlib.suppress(OSError):
                        self.wfile.write(json.dumps(chat_reply("x" * (60 * 2**20))).encode())
                elif mode in ("401", "403"):
                    self._send(int(mode), b'{"error": {"message": "Incorrect API key provided",'
                                          b' "type": "invalid_request_error"}}')
                elif mode == "404":
                    self._send(404, json.dumps({"error": {
                        "message": "The model `wrong` does not exist.",
                        "type": "NotFoundError", "code": 404}}).encode())
                elif mode == "400-context":
                    self._send(400, json.dumps({"object": "error", "message": (
                        "This model's maximum context length is 4096 tokens. However, you "
                        "requested 9000 tokens (1000 in the messages, 8000 in the completion). "
                        "Please reduce the length of the messages or completion."),
                        "type": "BadRequestError", "code": 400}).encode())
                elif mode == "echo-key":
                    self._json(chat_reply(
                        f"{statement_for(prompt)}\n-- {self.headers.get('authorization')}"))
                else:
                    raise ValueError(f"unknown mode {mode!r}")

            def _json(self, data: Any) -> None:
                self._send(200, json.dumps(data, ensure_ascii=False).encode())

            def _send(self, status: int, payload: bytes,
                      headers: tuple[tuple[str, str], ...] = (),
                      content_type: str = "application/json") -> None:
                try:
                    self.send_response(status)
                    for name, value in headers:
                        self.send_header(name, value)
                    self.send_header("content-type", content_type)
                    self.send_header("content-length", str(len(payload)))
                    self.end_headers()
                    self.wfile.write(payload)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up first (size limit, timeout)

            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
                return

        server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        server.daemon_threads = True
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            yield f"http://127.0.0.1:{server.server_address[1]}/v1"
        finally:
            self._stopping.set()
            server.shutdown()
            server.server_close()
            thread.join(timeout=5)
