"""Module-level functions for worker-pool tests (spawned workers import them by name)."""

from __future__ import annotations

import os
import time


def square_or_hang(n: int) -> int:
    if n < 0:
        time.sleep(60)  # a stuck item: ignores every timeout of its own
    if n == 13:
        raise ValueError("unlucky")
    if n == 99:
        os._exit(3)  # the worker dies
    return n * n


def allocate(mib: int) -> int:
    """Hold ``mib`` MiB for a moment: an item whose memory a budget bounds."""
    block = bytearray(mib * 2**20)
    return len(block) // 2**20


_PREPARED: list[float] = []


def slow_start() -> None:
    """A worker's start-up that takes longer than an item's deadline."""
    time.sleep(2)
    _PREPARED.append(time.monotonic())


def times_prepared(n: int) -> int:
    """How often this worker ran :func:`slow_start` before the item."""
    return len(_PREPARED) * 100 + n


def die_start() -> None:
    """A worker's start-up that ends its process (an import that crashes the interpreter)."""
    os._exit(3)


def hang_start() -> None:
    """A worker's start-up that never ends."""
    time.sleep(60)


def start_sleep(path: str) -> int:
    """Start a ``sleep`` (as an item starts a Lean REPL), write its pid to ``path``, and return
    it; a ``path`` ending in ``.hang`` then hangs, as a stuck item does."""
    import subprocess

    child = subprocess.Popen(["sleep", "307"])
    with open(path, "w", encoding="utf-8") as out:
        out.write(str(child.pid))
    if path.endswith(".hang"):
        time.sleep(60)
    return child.pid


def nap(tenths: int) -> int:
    """Sleep ``tenths`` tenths of a second, then answer it: items that finish out of order."""
    time.sleep(tenths / 10)
    return tenths


def square_in_a_pool_of_its_own(n: int) -> object:
    """Square ``n`` in a one-worker pool started by this item (a component's own pool)."""
    from afcheck.runtime.workers import WorkerPool

    inner: WorkerPool[int, object] = WorkerPool(
        square_or_hang, jobs=1, deadline_s=60.0, on_timeout=lambda item, s: "timeout",
        on_error=lambda item, why: f"error: {why}")
    try:
        return inner.map([n])[0]
    finally:
        inner.close()
