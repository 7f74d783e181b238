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
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

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


_current: StageProgress | None = None
"""The stage whose chunk runs now in this process, for :func:`tick`."""


@contextmanager
def running(stage: StageProgress) -> Iterator[None]:
    """Within the block, :func:`tick` counts toward ``stage``."""
    global _current
    previous, _current = _current, stage
    try:
        yield
    finally:
        _current = previous


def tick(amount: float = 1.0) -> None:
    """``amount`` of one item of the running stage is done (a model request of a chunk,
    ``1/n`` of an item for one of its ``n`` samples): progress moves per request, not per
    chunk. Safe from any thread; nothing when no stage runs here."""
    stage = _current
    if stage is not None:
        stage.tick(amount)


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
        self._partial = 0.0
        """Work of the running chunk done so far (:func:`tick`), not yet in :attr:`done`."""
        self._lock = threading.Lock()

    @property
    def shown(self) -> int:
        """Items done, with the running chunk's finished requests."""
        return min(self.total, self.done + int(self._partial))

    def advance(self, count: int) -> None:
        with self._lock:
            self.done += count
            self._partial = max(0.0, self._partial - count)
            self._show(final=self.done >= self.total)

    def tick(self, amount: float) -> None:
        with self._lock:
            self._partial += amount
            self._show(final=False)

    def _show(self, final: bool) -> None:
        if self.write is None:
            return
        now = time.monotonic()
        if self.interval is not None:
            if now - max(self._drawn, self.start) >= self.interval and self.shown < self.total:
                self._drawn = now
                self._lines += 1
                # A line of its own: pytest's progress dots may be mid-line.
                self.write("\n" + self.line(now).rstrip())
            return
        if now - self._drawn >= 0.1 or final:
            self._drawn = now
            self.write("\r" + self.line(now))

    def line(self, now: float) -> str:
        elapsed = max(now - self.start, 1e-9)
        done = self.shown
        rate = done / elapsed
        remaining = (self.total - done) / rate if rate > 0 else 0.0
        return (f"afcheck {self.label}: {done}/{self.total} "
                f"[{rate:,.1f}/s, ETA {_clock(remaining)}]   ")

    def close(self) -> None:
        """End the stage's output; a stage closed before all its work was done (stopped by
        Ctrl-C, an error) says it stopped, never that it is done."""
        if self.write is None or not self.shown:
            return
        elapsed = time.monotonic() - self.start
        if self.done < self.total:
            self.write(f"\nafcheck {self.label}: stopped at {self.shown}/{self.total} after "
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
