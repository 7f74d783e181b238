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


def test_an_item_over_the_memory_budget_fails_alone() -> None:
    from slowfns import allocate

    bounded: WorkerPool[int, object] = WorkerPool(
        allocate, jobs=1, deadline_s=60.0, memory_mb=1024,
        on_timeout=lambda item, s: f"timeout {item}",
        on_error=lambda item, why: f"error {item}: {why}")
    try:
        out = bounded.map([10, 4096, 20])
    finally:
        bounded.close()
    assert out == [10, "error 4096: over budget: the item needs more than the worker's "
                   "1,024 MiB", 20]


class _NoProcesses:
    """A multiprocessing context whose processes cannot start (fork/spawn refused)."""

    def __init__(self, real: object) -> None:
        self.Pipe = real.Pipe  # type: ignore[attr-defined]

    def Process(self, **kwargs: object) -> object:  # noqa: N802 - multiprocessing's name
        class Refused:
            def start(self) -> None:
                raise OSError(11, "Resource temporarily unavailable")

        return Refused()


def test_a_pool_that_failed_to_start_starts_again_on_the_next_call() -> None:
    import pytest

    from afcheck.runtime.workers import PoolError

    workers = pool()
    real = workers.ctx
    workers.ctx = _NoProcesses(real)  # type: ignore[assignment]
    with pytest.raises(PoolError, match="could not start a worker process: BlockingIOError"):
        workers.map([1, 2])
    workers.ctx = real
    try:
        assert workers.map([1, 2, 3]) == [1, 4, 9]
        for worker in workers._workers:  # workers that die between calls are replaced
            worker.process.kill()
            worker.process.join()
        assert workers.map([4, 5]) == [16, 25]
    finally:
        workers.close()


def test_prepare_runs_once_per_worker_before_its_first_item_outside_the_deadline() -> None:
    from slowfns import slow_start, times_prepared

    workers: WorkerPool[int, object] = WorkerPool(
        times_prepared, jobs=1, deadline_s=1.0,
        on_timeout=lambda item, s: f"timeout {item}", on_error=lambda item, why: why,
        prepare=slow_start)
    try:
        # 2 s of start-up against a 1 s deadline: no item times out, and it ran once
        assert workers.map([1, 2]) == [101, 102]
        assert workers.map([3]) == [103]
    finally:
        workers.close()


def test_a_worker_that_does_not_start_in_time_is_killed_and_its_item_fails() -> None:
    from slowfns import hang_start

    workers: WorkerPool[int, object] = WorkerPool(
        square_or_hang, jobs=1, deadline_s=1.0,
        on_timeout=lambda item, s: f"timeout {item}", on_error=lambda item, why: why,
        prepare=hang_start, start_s=3.0)
    start = time.monotonic()
    try:
        assert workers.map([2]) == ["the worker did not start within 3 s"]
    finally:
        workers.close()
    assert 3.0 <= time.monotonic() - start < 20
