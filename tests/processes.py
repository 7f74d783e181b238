"""What tests ask of the processes they started: whether one still runs, and whether a set of
them is gone within a while (a kill takes a moment to land)."""

from __future__ import annotations

import time
from pathlib import Path


def running(pid: int) -> bool:
    """Whether ``pid`` is a live process (a zombie waiting for PID 1 to reap it is not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def gone_within(seconds: float, *pids: int) -> bool:
    """Whether every one of ``pids`` has stopped running within ``seconds``."""
    end = time.monotonic() + seconds
    while any(running(pid) for pid in pids):
        if time.monotonic() > end:
            return False
        time.sleep(0.05)
    return True


def marked(marker: str) -> list[int]:
    """The live processes whose environment holds ``marker`` (a test's own tag)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            environment = (entry / "environ").read_bytes()
        except OSError:
            continue
        if marker.encode() in environment and running(int(entry.name)):
            found.append(int(entry.name))
    return found
