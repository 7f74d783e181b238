"""A process pool for CPU-bound backends, with a per-item deadline that kills a stuck worker.

``concurrent.futures.ProcessPoolExecutor`` cannot stop one task: a solver that ignores its own
timeout would hold a worker, and the run, forever. Here each worker gets one item at a time;
an item that outlives its deadline has its worker killed and replaced, and gets the result
``on_timeout(item)`` (a prover returns INCONCLUSIVE with the reason). Workers are started
with ``spawn``, so no solver state is inherited from the parent.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import time
from collections.abc import Callable, Sequence
from multiprocessing.connection import Connection, wait
from typing import Any, Generic, TypeVar, cast

T = TypeVar("T")
R = TypeVar("R")


JOBS_VARIABLE = "AFCHECK_JOBS"
"""Set by a cluster worker (an executor's, such as the ``ray`` plugin's) to the CPUs the cluster
gave it, so that a component on a worker does not start one process per core of its node."""


def default_jobs() -> int:
    """Worker processes for this machine: ``AFCHECK_JOBS`` when set, else the CPUs this
    process may use."""
    given = os.environ.get(JOBS_VARIABLE, "").strip()
    if given.isdigit() and int(given) > 0:
        return int(given)
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not on Linux
        return max(1, os.cpu_count() or 1)


def _serve(fn: Callable[[Any], Any], conn: Connection) -> None:
    while True:
        try:
            item = conn.recv()
        except EOFError:
            return
        try:
            conn.send(("ok", fn(item)))
        except Exception as exc:  # noqa: BLE001 - reported to the parent as a result
            conn.send(("error", f"{type(exc).__name__}: {exc}"))


class _Worker:
    def __init__(self, ctx: Any, fn: Callable[[Any], Any]) -> None:
        self.conn, child = ctx.Pipe()
        self.process = ctx.Process(target=_serve, args=(fn, child), daemon=True)
        self.process.start()
        child.close()
        self.index = -1
        self.started = 0.0

    def give(self, index: int, item: Any) -> None:
        self.index, self.started = index, time.monotonic()
        self.conn.send(item)

    def kill(self) -> None:
        self.process.kill()
        self.process.join()
        self.conn.close()

    def stop(self) -> None:
        self.conn.close()
        self.process.join(timeout=5)
        if self.process.is_alive():
            self.kill()


class WorkerPool(Generic[T, R]):
    """``map(items)`` runs ``fn`` on each item in ``jobs`` processes, results in order."""

    def __init__(
        self,
        fn: Callable[[T], R],
        jobs: int,
        deadline_s: float,
        on_timeout: Callable[[T, float], R],
        on_error: Callable[[T, str], R],
    ) -> None:
        self.fn = fn
        self.jobs = max(1, jobs)
        self.deadline_s = deadline_s
        self.on_timeout = on_timeout
        self.on_error = on_error
        self.ctx = mp.get_context("spawn")
        self._workers: list[_Worker] = []

    def map(self, items: Sequence[T]) -> list[R]:
        """Results in order. Workers stay up for the next call until :meth:`close`."""
        results: list[Any] = [None] * len(items)
        pending = list(range(len(items)))[::-1]
        while len(self._workers) < min(self.jobs, len(items)):
            self._workers.append(_Worker(self.ctx, self.fn))
        busy: dict[Connection, _Worker] = {}
        try:
            for worker in list(self._workers):
                self._next(worker, items, pending, busy)
            while busy:
                self._collect(items, results, pending, busy)
        except BaseException:
            for worker in busy.values():
                worker.kill()
            self._workers = [w for w in self._workers if w.conn not in busy]
            raise
        return results

    def close(self) -> None:
        """Stop every worker."""
        for worker in self._workers:
            worker.stop()
        self._workers = []

    def _collect(self, items: Sequence[T], results: list[Any], pending: list[int],
                 busy: dict[Connection, _Worker]) -> None:
        now = time.monotonic()
        soonest = min(w.started + self.deadline_s for w in busy.values())
        for conn in wait(list(busy), timeout=max(0.0, soonest - now)):
            worker = busy.pop(cast(Connection, conn))
            index = worker.index
            try:
                status, value = worker.conn.recv()
            except (EOFError, OSError):
                status, value = "error", "the worker process died"
                worker = self._replace(worker)
            results[index] = value if status == "ok" else self.on_error(items[index], value)
            self._next(worker, items, pending, busy)
        now = time.monotonic()
        for conn, worker in list(busy.items()):
            if now - worker.started >= self.deadline_s:
                del busy[conn]
                results[worker.index] = self.on_timeout(items[worker.index], self.deadline_s)
                self._next(self._replace(worker), items, pending, busy)

    def _replace(self, worker: _Worker) -> _Worker:
        worker.kill()
        fresh = _Worker(self.ctx, self.fn)
        self._workers[self._workers.index(worker)] = fresh
        return fresh

    def _next(self, worker: _Worker, items: Sequence[T], pending: list[int],
              busy: dict[Connection, _Worker]) -> None:
        if pending:
            index = pending.pop()
            worker.give(index, items[index])
            busy[worker.conn] = worker
