"""A stand-in for kimina-lean-server on loopback: ``POST /api/check`` with its request and
response shapes (``kimina_client.models``: ``CheckRequest`` / ``CheckResponse``).

Like the real server, it splits each snippet into its leading ``import`` lines (the REPL's
header) and the rest (the command), so message positions count from the first line after the
imports. Lean's answer to the command comes from the fake REPL's transcript
(:mod:`fake_repl.repl`), exactly as the local backend's tests get it.

Markers in a snippet simulate the server's failures: ``fake:timeout`` gives the server's
timeout error, ``fake:server-error`` a server error every time, ``fake:flaky`` a server error
the first time that snippet is seen. ``fail_requests`` answers the first N requests with HTTP
503; ``refuse`` answers every request with that HTTP status.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from fake_repl.harness import TRANSCRIPT
from fake_repl.repl import answer


def split_snippet(code: str) -> tuple[str, str]:
    """Imports (and blank lines) before the first other line; the rest is the body."""
    header: list[str] = []
    body: list[str] = []
    for line in code.splitlines():
        if not body and (line.strip().startswith("import ") or not line.strip()):
            header.append(line)
        else:
            body.append(line)
    return "\n".join(header), "\n".join(body)


@dataclass
class FakeKimina:
    url: str = ""
    fail_requests: int = 0
    refuse: int = 0
    requests: list[dict[str, Any]] = field(default_factory=list)
    seen: set[str] = field(default_factory=set)
    lock: threading.Lock = field(default_factory=threading.Lock)
    rules: list[dict[str, Any]] = field(default_factory=lambda: [
        json.loads(line) for line in TRANSCRIPT.read_text(encoding="utf-8").splitlines()
        if line.strip()])

    def check(self, payload: dict[str, Any]) -> tuple[int, object]:
        with self.lock:
            self.requests.append(payload)
            if self.refuse:
                return self.refuse, {"detail": "Invalid API key"}
            if self.fail_requests:
                self.fail_requests -= 1
                return 503, {"detail": "No available REPLs"}
        snippets = payload.get("snippets")
        if not isinstance(snippets, list) or not snippets:
            return 422, {"detail": "`snippets` must be non empty"}
        timeout = payload.get("timeout", 30)
        return 200, {"results": [self._one(s, timeout) for s in snippets]}

    def _one(self, snippet: dict[str, Any], timeout: object) -> dict[str, Any]:
        sid, code = str(snippet["id"]), str(snippet["code"])
        _, body = split_snippet(code)
        with self.lock:
            first_time = code not in self.seen
            self.seen.add(code)
        if "fake:timeout" in code:
            return {"id": sid, "time": timeout,
                    "error": f"Lean REPL command timed out in {timeout} seconds"}
        if "fake:server-error" in code or ("fake:flaky" in code and first_time):
            return {"id": sid, "time": 0.0, "error": "REPL process died unexpectedly"}
        return {"id": sid, "time": 0.01, "response": answer({"cmd": body}, self.rules)}


@contextmanager
def serve(**settings: Any) -> Iterator[FakeKimina]:
    """The fake server on a free loopback port, stopped on exit."""
    fake = FakeKimina(**settings)

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - http.server's name
            length = int(self.headers.get("Content-Length", "0"))
            payload = json.loads(self.rfile.read(length) or b"{}")
            data: object
            if self.path.rstrip("/") != "/api/check":
                status, data = 404, {"detail": "Not Found"}
            else:
                status, data = fake.check(payload)
            raw = json.dumps(data).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(raw)))
            self.end_headers()
            self.wfile.write(raw)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    fake.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield fake
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
