"""When and how long to wait before retrying an HTTP request."""

from __future__ import annotations

import random
from dataclasses import dataclass

RETRY_STATUS = frozenset({408, 409, 425, 429})
"""Client-side statuses worth retrying; every 5xx is retried too."""


def is_retryable_status(status: int) -> bool:
    return status in RETRY_STATUS or 500 <= status < 600


@dataclass(frozen=True)
class Backoff:
    """Exponential backoff with jitter, capped per wait and in number of retries.

    Wait ``i`` (from 0) is drawn uniformly from ``[d/2, d]`` with ``d = min(cap_s, base_s * 2**i)``:
    the jitter spreads clients that failed together, and the lower half-bound keeps the growth.
    A server's ``Retry-After`` takes precedence, still capped.
    """

    max_retries: int = 4
    base_s: float = 0.5
    cap_s: float = 30.0

    def delay(self, retry: int, rng: random.Random, retry_after: float | None = None) -> float:
        if retry_after is not None and retry_after >= 0:
            return min(self.cap_s, retry_after)
        ceiling = min(self.cap_s, self.base_s * (2.0**retry))
        return rng.uniform(ceiling / 2, ceiling)


def parse_retry_after(value: str | None) -> float | None:
    """Seconds from a ``Retry-After`` header given in seconds; ``None`` otherwise."""
    if not value:
        return None
    try:
        return max(0.0, float(value.strip()))
    except ValueError:
        return None
