"""The worker pool: order, per-item deadline that kills a stuck worker, errors, crashes."""

from __future__ import annotations

import time

from slowfns import square_or_hang

from afcheck.runtime.workers import WorkerPool, default_jobs


def pool(deadline_s: float = 30.0) -> WorkerPool[int, object]:
    # Long enough for a worker to start on a loaded machine; the deadline test sets its own.
    return WorkerPool(square_or_hang, jobs=2, deadline_s=deadline_s,
                      on_timeout=lambda item, s: f"timeout {item} after {s}s",
                      on_error=lambda item, why: f"error {item}: {why}")


def test_results_keep_their_order() -> None:
    assert pool().map(list(range(12))) == [n * n for n in range(12)]


def test_a_stuck_item_is_killed_and_the_rest_finish() -> None:
    start = time.monotonic()
    out = pool(deadline_s=1.0).map([1, -1, 2, 3, 4, 5, 6])
    assert out[1] == "timeout -1 after 1.0s"
    assert out[:1] + out[2:] == [1, 4, 9, 16, 25, 36]
    assert time.monotonic() - start < 20


def test_errors_and_dead_workers_become_results() -> None:
    out = pool().map([2, 13, 99, 3])
    assert out[0] == 4 and out[3] == 9
    assert out[1] == "error 13: ValueError: unlucky"
    assert out[2] == "error 99: the worker process died"


def test_default_jobs_is_positive() -> None:
    assert default_jobs() >= 1
