"""The worker pool: order, per-item deadline that kills a stuck worker, errors, crashes."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from processes import gone_within, running
from refused_processes import NoProcesses
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



def test_a_pool_that_failed_to_start_starts_again_on_the_next_call() -> None:
    import pytest

    from afcheck.runtime.workers import PoolError

    workers = pool()
    real = workers.ctx
    workers.ctx = NoProcesses(real)  # type: ignore[assignment]
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


@pytest.mark.heavy
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


@pytest.mark.heavy
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


def test_a_worker_that_dies_while_starting_says_so() -> None:
    from slowfns import die_start

    workers: WorkerPool[int, object] = WorkerPool(
        square_or_hang, jobs=1, deadline_s=30.0,
        on_timeout=lambda item, s: f"timeout {item}", on_error=lambda item, why: why,
        prepare=die_start)
    try:
        assert workers.map([2]) == ["the worker process died while starting (its imports or "
                                    "set-up)"]
    finally:
        workers.close()


@pytest.mark.heavy
def test_a_killed_worker_takes_the_processes_its_item_started(tmp_path: Path) -> None:
    from slowfns import start_sleep

    workers: WorkerPool[str, object] = WorkerPool(
        start_sleep, jobs=1, deadline_s=2.0,
        on_timeout=lambda item, s: "timeout", on_error=lambda item, why: why)
    marker = tmp_path / "sleep.hang"
    try:
        assert workers.map([str(marker)]) == ["timeout"]
    finally:
        workers.close()
    grandchild = int(marker.read_text())
    assert gone_within(5, grandchild), f"the item's sleep ({grandchild}) outlived its worker"


def test_a_stopped_worker_takes_the_processes_its_items_left(tmp_path: Path) -> None:
    from slowfns import start_sleep

    workers: WorkerPool[str, object] = WorkerPool(
        start_sleep, jobs=1, deadline_s=30.0,
        on_timeout=lambda item, s: "timeout", on_error=lambda item, why: why)
    marker = tmp_path / "sleep.pid"
    try:
        [grandchild] = workers.map([str(marker)])
        assert isinstance(grandchild, int) and running(grandchild)
    finally:
        workers.close()
    assert gone_within(5, grandchild), f"the item's sleep ({grandchild}) outlived the pool"


def test_no_worker_is_started_after_the_last_item_times_out() -> None:
    # A replacement started for nothing would still be starting when close() shut its pipe,
    # and print a BrokenPipeError traceback.
    workers = pool(deadline_s=1.0)
    try:
        assert workers.map([-1]) == ["timeout -1 after 1.0s"]
        assert workers._workers == []
        assert workers.map([3]) == [9]  # the next call starts a worker again
    finally:
        workers.close()


_OWNER = """
import os, sys, threading, time
from pathlib import Path
from afcheck.runtime.workers import WorkerPool
from slowfns import start_sleep

marker = Path(sys.argv[1])
workers = WorkerPool(start_sleep, jobs=1, deadline_s=60.0,
                     on_timeout=lambda item, s: "timeout", on_error=lambda item, why: why)
threading.Thread(target=workers.map, args=([str(marker)],), daemon=True).start()
while not marker.exists() or not marker.read_text():
    time.sleep(0.05)
print(workers._workers[0].process.pid, flush=True)
os._exit(0)  # killed mid-item: no close, no atexit
"""


def test_a_pool_whose_process_dies_leaves_neither_workers_nor_their_children(
        tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    from conftest import TEST_PLUGINS

    marker = tmp_path / "sleep.hang"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(TEST_PLUGINS),
                                                        os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-c", _OWNER, str(marker)], capture_output=True,
                          text=True, timeout=120, env=env)
    assert done.returncode == 0, done.stderr
    worker, grandchild = int(done.stdout), int(marker.read_text())
    assert gone_within(5, worker), f"the worker ({worker}) outlived its pool's process"
    assert gone_within(5, grandchild), f"the item's sleep ({grandchild}) outlived its pool"


def test_each_answers_items_as_they_finish() -> None:
    from slowfns import nap

    workers: WorkerPool[int, object] = WorkerPool(
        nap, jobs=2, deadline_s=None, on_timeout=lambda item, s: "timeout",
        on_error=lambda item, why: why)
    try:
        # Without a deadline an item takes as long as it takes (here longer than the other).
        assert list(workers.each([12, 1])) == [(1, 1), (0, 12)]
    finally:
        workers.close()


def test_a_caller_that_stops_iterating_has_the_busy_workers_killed() -> None:
    workers = pool()
    try:
        finished = workers.each([2, -1])
        assert next(finished) == (0, 4)
        stuck = next(w for w in workers._workers if w.index == 1).process.pid
        assert stuck is not None and running(stuck)
        finished.close()
        assert gone_within(5, stuck), "the worker busy with the stuck item outlived the caller"
        assert workers.map([3]) == [9]  # a fresh worker takes the next call
    finally:
        workers.close()


def test_an_item_starts_a_pool_of_its_own_only_in_a_worker_that_is_no_daemon() -> None:
    from slowfns import square_in_a_pool_of_its_own

    def nested(daemon: bool) -> list[object]:
        workers: WorkerPool[int, object] = WorkerPool(
            square_in_a_pool_of_its_own, jobs=1, deadline_s=60.0, daemon=daemon,
            on_timeout=lambda item, s: "timeout", on_error=lambda item, why: why)
        try:
            return workers.map([7])
        finally:
            workers.close()

    assert nested(daemon=False) == [49]
    assert nested(daemon=True) == ["PoolError: could not start a worker process: "
                                   "AssertionError: daemonic processes are not allowed to "
                                   "have children"]
