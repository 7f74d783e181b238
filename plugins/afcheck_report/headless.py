"""Open a report in headless Chromium over the DevTools protocol: how long it takes until the
step browser is ready, what the console said, what the page shows, a screenshot.

Used by the browser tests and ``bench/bench_report.py``. Needs the ``chromium`` binary
(Debian package ``chromium``) and ``websocket-client``. Chromium runs with a fresh profile in
a temporary folder, on loopback, with networking features off, and is stopped by its own pid.
"""

from __future__ import annotations

import base64
import itertools
import json
import os
import shutil
import subprocess
import tempfile
import time
import urllib.request
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from afcheck.errors import MissingDependency

CHROMIUM = "/usr/bin/chromium"
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--remote-debugging-port=0", "--remote-allow-origins=*")


def chromium_path() -> str | None:
    """The Chromium binary, or ``None`` when it is not installed."""
    if os.access(CHROMIUM, os.X_OK):
        return CHROMIUM
    return shutil.which("chromium")


@dataclass(frozen=True)
class PageLoad:
    """What opening a page gave: ``ready_ms`` is the time from navigation start until the
    page's script marked the body ready (``None`` if it never did)."""

    ready_ms: float | None
    errors: tuple[str, ...]
    """Console errors and uncaught exceptions, one line each."""


@dataclass
class Browser:
    """One headless Chromium with one page, driven over the DevTools protocol."""

    process: subprocess.Popen[bytes]
    socket: Any
    profile: str
    _ids: Iterator[int] = field(default_factory=lambda: itertools.count(1))
    _events: list[dict[str, Any]] = field(default_factory=list)

    def call(self, method: str, timeout_s: float = 30.0, **params: Any) -> dict[str, Any]:
        """Send one command and return its result; events that arrive meanwhile are kept."""
        ident = next(self._ids)
        self.socket.send(json.dumps({"id": ident, "method": method, "params": params}))
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            self.socket.settimeout(max(0.05, deadline - time.monotonic()))
            message = json.loads(self.socket.recv())
            if message.get("id") == ident:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                result: dict[str, Any] = message.get("result", {})
                return result
            self._events.append(message)
        raise TimeoutError(f"{method}: no answer within {timeout_s} s")

    def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page (JSON-serialisable values)."""
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails'].get('text')}")
        return result.get("result", {}).get("value")

    def open(self, path: Path, timeout_s: float = 30.0) -> PageLoad:
        """Load ``path`` and wait until its body has ``data-ready`` (or ``timeout_s``)."""
        self._events.clear()
        self.call("Page.navigate", url=path.resolve().as_uri())
        deadline = time.monotonic() + timeout_s
        ready: float | None = None
        while time.monotonic() < deadline:
            value = self.evaluate("document.body && document.body.getAttribute('data-ready')")
            if value:
                ready = float(value)
                break
            time.sleep(0.02)
        self.drain(0.1)
        return PageLoad(ready, tuple(self.errors()))

    def drain(self, seconds: float) -> None:
        """Collect the events that arrive in the next ``seconds``."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            self.socket.settimeout(max(0.01, deadline - time.monotonic()))
            try:
                self._events.append(json.loads(self.socket.recv()))
            except Exception:  # noqa: BLE001 - websocket timeout: nothing more arrived
                return

    def errors(self) -> list[str]:
        found = []
        for event in self._events:
            method, params = event.get("method"), event.get("params", {})
            if method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
                found.append("console: " + " ".join(str(a.get("value", a.get("description")))
                                                    for a in params.get("args", [])))
            elif method == "Runtime.exceptionThrown":
                details = params.get("exceptionDetails", {})
                text = details.get("exception", {}).get("description") or details.get("text")
                found.append(f"exception: {text}")
            elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
                entry = params["entry"]
                found.append(f"log ({entry.get('source')}): {entry.get('text')} "
                             f"{entry.get('url', '')}".rstrip())
        return found

    def screenshot(self, path: Path, width: int = 1280, height: int = 1600) -> None:
        self.call("Emulation.setDeviceMetricsOverride", width=width, height=height,
                  deviceScaleFactor=1, mobile=False)
        data = self.call("Page.captureScreenshot", format="png")["data"]
        path.write_bytes(base64.b64decode(data))


@contextmanager
def browser(extra_flags: Sequence[str] = (), start_timeout_s: float = 30.0) -> Iterator[Browser]:
    """A started headless Chromium; stopped (by its pid) and its profile removed on exit."""
    try:
        import websocket
    except ImportError:
        raise MissingDependency("report browser checks", "websocket-client",
                                "pip install websocket-client") from None
    binary = chromium_path()
    if binary is None:
        raise MissingDependency("report browser checks", "chromium",
                                "apt-get install -y chromium")
    profile = tempfile.mkdtemp(prefix="afcheck-chromium-")
    process = subprocess.Popen(
        [binary, *FLAGS, f"--user-data-dir={profile}", *extra_flags, "about:blank"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        port = _devtools_port(Path(profile), process, start_timeout_s)
        socket = websocket.create_connection(_page_socket(port, start_timeout_s),
                                             timeout=start_timeout_s, suppress_origin=True)
        try:
            session = Browser(process, socket, profile)
            for domain in ("Page", "Runtime", "Log"):
                session.call(f"{domain}.enable")
            yield session
        finally:
            socket.close()
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        shutil.rmtree(profile, ignore_errors=True)


def _devtools_port(profile: Path, process: subprocess.Popen[bytes], timeout_s: float) -> int:
    marker = profile / "DevToolsActivePort"
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"chromium exited with status {process.returncode} at start")
        if marker.exists():
            first = marker.read_text().splitlines()[:1]
            if first and first[0].isdigit():
                return int(first[0])
        time.sleep(0.05)
    raise TimeoutError(f"chromium did not open its DevTools port within {timeout_s} s")


def _page_socket(port: int, timeout_s: float) -> str:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=5) as reply:
            targets = json.load(reply)
        for target in targets:
            if target.get("type") == "page" and target.get("webSocketDebuggerUrl"):
                return str(target["webSocketDebuggerUrl"])
        time.sleep(0.05)
    raise TimeoutError("chromium has no page target")
