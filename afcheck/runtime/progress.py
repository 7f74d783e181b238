"""Progress of long stages: counts, rate and ETA on stderr.

On a terminal, one line redrawn in place at most ten times a second. In a log (CI, output
redirected to a file), one full line per stage every ``AFCHECK_PROGRESS_INTERVAL`` seconds
(10 by default) as its chunks finish, and a last line when a stage that printed one ends, so
that a long run is never silent for minutes and a short one prints nothing extra. Off when
the run is quiet (``-q``).
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable

Write = Callable[[str], None]

DEFAULT_INTERVAL = 10.0
"""Seconds between two progress lines of a stage in a log."""


def _stderr(text: str) -> None:
    sys.stderr.write(text)
    sys.stderr.flush()


def log_interval() -> float:
    """Seconds between progress lines in a log: ``AFCHECK_PROGRESS_INTERVAL``, else 10."""
    try:
        value = float(os.environ.get("AFCHECK_PROGRESS_INTERVAL", DEFAULT_INTERVAL))
    except ValueError:
        return DEFAULT_INTERVAL
    return value if value >= 0 else DEFAULT_INTERVAL


class Progress:
    """Makes one :class:`StageProgress` per pipeline stage.

    ``write`` puts text on the terminal; under pytest it must get past output capturing (the
    pipeline runs inside the first test item), so the pytest bridge passes its own.
    ``interval`` ``None`` redraws one line in place (a terminal); a number of seconds prints
    a full line that often (a log).
    """

    def __init__(self, enabled: bool, write: Write = _stderr,
                 interval: float | None = None) -> None:
        self.enabled = enabled
        self.write = write
        self.interval = interval

    def stage(self, label: str, total: int) -> StageProgress:
        return StageProgress(label, total, self.write if self.enabled and total else None,
                             self.interval)


class StageProgress:
    def __init__(self, label: str, total: int, write: Write | None,
                 interval: float | None = None) -> None:
        self.label = label
        self.total = total
        self.done = 0
        self.write = write
        self.interval = interval
        self.start = time.monotonic()
        self._drawn = 0.0
        self._lines = 0
        """Full lines printed so far (a log)."""

    def advance(self, count: int) -> None:
        self.done += count
        if self.write is None:
            return
        now = time.monotonic()
        if self.interval is not None:
            if now - max(self._drawn, self.start) >= self.interval and self.done < self.total:
                self._drawn = now
                self._lines += 1
                # A line of its own: pytest's progress dots may be mid-line.
                self.write("\n" + self.line(now).rstrip())
            return
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
        """End the stage's output; a stage closed before all its work was done (stopped by
        Ctrl-C, an error) says it stopped, never that it is done."""
        if self.write is None or not self.done:
            return
        elapsed = time.monotonic() - self.start
        if self.done < self.total:
            self.write(f"\nafcheck {self.label}: stopped at {self.done}/{self.total} after "
                       f"{_clock(elapsed)}\n")
        elif self.interval is None:
            self.write("\n")
        elif self._lines:
            self.write(f"\nafcheck {self.label}: {self.done}/{self.total} done in "
                       f"{_clock(elapsed)} [{self.done / max(elapsed, 1e-9):,.1f}/s]\n")


def _clock(seconds: float) -> str:
    seconds = int(seconds + 0.5)
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"
