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
