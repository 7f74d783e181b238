"""A progress line for long stages: counts, rate and ETA on stderr.

Shown only when stderr is a terminal and the run is not quiet, so logs and CI output stay
clean; redrawn at most ten times a second so it costs nothing measurable.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

Write = Callable[[str], None]


def _stderr(text: str) -> None:
    sys.stderr.write(text)
    sys.stderr.flush()


class Progress:
    """Makes one :class:`StageProgress` per pipeline stage.

    ``write`` puts text on the terminal; under pytest it must get past output capturing (the
    pipeline runs inside the first test item), so the pytest bridge passes its own.
    """

    def __init__(self, enabled: bool, write: Write = _stderr) -> None:
        self.enabled = enabled
        self.write = write

    def stage(self, label: str, total: int) -> StageProgress:
        return StageProgress(label, total, self.write if self.enabled and total else None)


class StageProgress:
    def __init__(self, label: str, total: int, write: Write | None) -> None:
        self.label = label
        self.total = total
        self.done = 0
        self.write = write
        self.start = time.monotonic()
        self._drawn = 0.0

    def advance(self, count: int) -> None:
        self.done += count
        if self.write is None:
            return
        now = time.monotonic()
        if now - self._drawn >= 0.1 or self.done >= self.total:
            self._drawn = now
            self.write("\r" + self.line(now))

    def line(self, now: float) -> str:
        elapsed = max(now - self.start, 1e-9)
        rate = self.done / elapsed
        remaining = (self.total - self.done) / rate if rate > 0 else 0.0
        return (f"afcheck {self.label}: {self.done}/{self.total} "
                f"[{rate:,.1f}/s, ETA {_clock(remaining)}]   ")

    def close(self) -> None:
        if self.write is not None and self.done:
            self.write("\n")


def _clock(seconds: float) -> str:
    seconds = int(seconds + 0.5)
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"
