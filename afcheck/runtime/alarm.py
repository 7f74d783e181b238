"""A wall-clock bound on a block of code run in the main thread, by ``SIGALRM``.

Only the main thread receives signals, so elsewhere (and where the platform has no interval
timer) the block runs unbounded and the caller's other bounds are the only ones.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType


@contextmanager
def alarm(seconds: float | None, late: Callable[[], BaseException]) -> Iterator[None]:
    """Raise ``late()`` in this thread once ``seconds`` have passed inside the block
    (``None`` or ≤ 0: no bound); the previous ``SIGALRM`` handler is restored after it."""
    if not seconds or seconds <= 0 or not hasattr(signal, "setitimer") or \
            threading.current_thread() is not threading.main_thread():
        yield
        return

    def ring(signum: int, frame: FrameType | None) -> None:
        raise late()

    previous = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
