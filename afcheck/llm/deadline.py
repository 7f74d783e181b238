"""A deadline over a whole HTTP exchange: connecting, sending, the headers and the body.

httpx bounds each socket operation on its own (a read waits at most the read timeout), so a
server that sends its headers one byte a second never trips a timeout of five seconds, and
the request runs for as long as the server cares to trickle. :func:`within` sets a deadline
for the requests the calling thread makes, and :class:`DeadlineBackend` (the connection
pool's network backend) gives every socket operation at most the time left before it:
once it has passed, the next operation times out, whatever phase the exchange is in.

The deadline is the calling thread's: the sync client does its I/O in the thread that sends
the request, one request per thread at a time.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

import httpcore

_local = threading.local()


@contextmanager
def within(seconds: float) -> Iterator[None]:
    """Within the block, this thread's requests end by ``seconds`` from now."""
    previous = getattr(_local, "deadline", None)
    _local.deadline = time.monotonic() + seconds
    try:
        yield
    finally:
        _local.deadline = previous


def _left(timeout: float | None, error: type[Exception]) -> float | None:
    """The time an operation may take: its own timeout, cut to what is left of the thread's
    deadline; ``error`` once the deadline has passed."""
    deadline = getattr(_local, "deadline", None)
    if deadline is None:
        return timeout
    left = deadline - time.monotonic()
    if left <= 0:
        raise error("the request's deadline passed")
    return left if timeout is None else min(timeout, left)


class DeadlineStream(httpcore.NetworkStream):
    """A connection whose every read and write ends by the thread's deadline."""

    def __init__(self, inner: httpcore.NetworkStream) -> None:
        self.inner = inner

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return self.inner.read(max_bytes, _left(timeout, httpcore.ReadTimeout))

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self.inner.write(buffer, _left(timeout, httpcore.WriteTimeout))

    def close(self) -> None:
        self.inner.close()

    def start_tls(self, ssl_context: Any, server_hostname: str | None = None,
                  timeout: float | None = None) -> httpcore.NetworkStream:
        return DeadlineStream(self.inner.start_tls(
            ssl_context, server_hostname, _left(timeout, httpcore.ConnectTimeout)))

    def get_extra_info(self, info: str) -> Any:
        return self.inner.get_extra_info(info)


class DeadlineBackend(httpcore.NetworkBackend):
    """The network backend of a connection pool, with :class:`DeadlineStream` connections."""

    def __init__(self, inner: httpcore.NetworkBackend) -> None:
        self.inner = inner

    def connect_tcp(self, host: str, port: int, timeout: float | None = None,
                    local_address: str | None = None,
                    socket_options: Iterable[Any] | None = None) -> httpcore.NetworkStream:
        return DeadlineStream(self.inner.connect_tcp(
            host, port, _left(timeout, httpcore.ConnectTimeout), local_address,
            socket_options))

    def connect_unix_socket(self, path: str, timeout: float | None = None,
                            socket_options: Iterable[Any] | None = None
                            ) -> httpcore.NetworkStream:
        return DeadlineStream(self.inner.connect_unix_socket(
            path, _left(timeout, httpcore.ConnectTimeout), socket_options))

    def sleep(self, seconds: float) -> None:
        self.inner.sleep(seconds)


def bounded_transport(httpx: Any, limits: Any) -> Any:
    """An ``httpx.HTTPTransport`` with ``limits`` whose connections keep :func:`within`'s
    deadline; a plain one where the pool's backend cannot be reached (another httpx)."""
    transport = httpx.HTTPTransport(limits=limits)
    pool = getattr(transport, "_pool", None)
    backend = getattr(pool, "_network_backend", None)
    if pool is not None and backend is not None:
        pool._network_backend = DeadlineBackend(backend)
    return transport
