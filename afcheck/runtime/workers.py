"""A process pool for CPU-bound backends, with a per-item deadline that kills a stuck worker.

``concurrent.futures.ProcessPoolExecutor`` cannot stop one task: a solver that ignores its own
timeout would hold a worker, and the run, forever. Here each worker gets one item at a time;
an item that outlives its deadline has its worker killed and replaced, and gets the result
``on_timeout(item)`` (a prover returns INCONCLUSIVE with the reason). Workers are started
with ``spawn``, so no solver state is inherited from the parent.

Each worker leads its own session (process group), and the whole group dies with the worker:
the pool kills the group when it kills or stops a worker, a worker ends its group when its pipe
closes, and a worker whose pool's process has died (killed, or a cluster actor that exits without
:meth:`WorkerPool.close`) ends its group within a fraction of a second. A Lean REPL an item
started goes with its worker instead of being left to PID 1, and a nested pool's workers, each
watching the worker that started them, follow.
"""

from __future__ import annotations

import math
import multiprocessing as mp
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Generator, Sequence
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


class PoolError(RuntimeError):
    """The pool could not start a worker process; ``str(error)`` says why, in one line."""


def _limit_memory(memory_mb: int | None) -> None:
    """Bound this process's address space, so that an item that needs more fails with
    ``MemoryError`` in its own worker instead of the machine's memory running out."""
    if memory_mb is None:
        return
    import resource

    limit = memory_mb * 2**20
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))


def _end_group() -> None:
    """Kill this worker's group, the worker last: the processes its items started (a Lean
    REPL, a nested pool's workers) go with it."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError, AttributeError):
            pass
    os.killpg(0, signal.SIGKILL)


def _watch(parent: int) -> None:
    """End the group once ``parent``, the pool's process, has died: a pool whose process is
    killed, or exits without :meth:`WorkerPool.close` (a cluster actor), leaves nothing behind.
    A thread, not ``PR_SET_PDEATHSIG``: that signal would kill the worker alone, leaving its
    children, and fires when the parent's starting *thread* exits."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(_WATCH_S)
        _end_group()

    threading.Thread(target=watch, name="afcheck-watch-parent", daemon=True).start()


_WATCH_S = 0.2
"""How often a worker checks that the pool's process is alive."""


def _serve(fn: Callable[[Any], Any], conn: Connection, memory_mb: int | None = None,
           prepare: Callable[[], object] | None = None, parent: int | None = None) -> None:
    # A session of its own: the pool kills this worker's whole group, the processes an item
    # started with it.
    os.setsid()
    if parent is not None:
        _watch(parent)
    try:
        _serve_items(fn, conn, memory_mb, prepare)
    except (BrokenPipeError, ConnectionResetError, EOFError):
        pass  # the pool closed the pipe (it stopped this worker, or gave up on it)
    _end_group()


def _serve_items(fn: Callable[[Any], Any], conn: Connection, memory_mb: int | None,
                 prepare: Callable[[], object] | None) -> None:
    _limit_memory(memory_mb)
    if prepare is not None:
        try:
            prepare()
        except Exception:  # noqa: BLE001 - the first item meets the same failure, and reports it
            pass
    # An item's deadline counts from here: starting a process (imports, a solver's library)
    # can take seconds on a loaded machine, and is not the item's time.
    conn.send(("ready", None))
    while True:
        try:
            item = conn.recv()
        except EOFError:
            return
        try:
            conn.send(("ok", fn(item)))
        except MemoryError:
            bound = f"the worker's {memory_mb:,} MiB" if memory_mb else "the machine's memory"
            conn.send(("error", f"over budget: the item needs more than {bound}"))
        except Exception as exc:  # noqa: BLE001 - reported to the parent as a result
            conn.send(("error", f"{type(exc).__name__}: {exc}"))


class _Worker:
    def __init__(self, ctx: Any, fn: Callable[[Any], Any], memory_mb: int | None = None,
                 prepare: Callable[[], object] | None = None, daemon: bool = True) -> None:
        self.conn, child = ctx.Pipe()
        self.process = ctx.Process(target=_serve,
                                   args=(fn, child, memory_mb, prepare, os.getpid()),
                                   daemon=daemon)
        try:
            self.process.start()
        except Exception as exc:  # noqa: BLE001 - fork/spawn failures of any kind
            self.conn.close()
            child.close()
            raise PoolError(f"could not start a worker process: {type(exc).__name__}: "
                            f"{exc}") from exc
        child.close()
        self.index = -1
        self.started = 0.0
        self.ready = False
        """Whether the worker has started (imports, ``prepare``): until then its item's
        deadline is the pool's start allowance."""

    def give(self, index: int, item: Any) -> None:
        self.index, self.started = index, time.monotonic()
        self.conn.send(item)

    def kill(self) -> None:
        """Kill the worker and every process left in its group."""
        self._kill_group()
        self.process.kill()
        self.process.join()
        self._kill_group()  # a child started between the first signal and the worker's death
        self.conn.close()

    def stop(self) -> None:
        """Let the worker finish (its pipe closes), then kill what it left in its group."""
        self.conn.close()
        self.process.join(timeout=5)
        if self.process.is_alive():
            self.kill()
        self._kill_group()

    def _kill_group(self) -> None:
        # The group keeps the worker's pid as its id while any member lives, so the id names
        # no other process; a worker not yet in its own session has no group yet (ESRCH).
        pid = self.process.pid
        if pid is None:
            return
        try:
            os.killpg(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


class WorkerPool(Generic[T, R]):
    """``map(items)`` runs ``fn`` on each item in ``jobs`` processes, results in order
    (``each(items)``: as they finish). An item may take ``deadline_s`` (``None``: as long as
    it takes).

    ``prepare`` (picklable, optional) runs once in each worker before it takes its first
    item, outside any item's deadline: building a component there keeps its start-up out of
    the first item's time. Its failure is left to the items, which meet it again and report
    it. A worker's start (its imports and ``prepare``) may take ``start_s`` (at least the item
    deadline); past it the worker is killed and its item fails with the reason.

    ``daemon=False`` lets an item start a pool of its own in its worker (multiprocessing lets
    no daemon process have children); Python's exit then waits for the workers, so the owner
    must :meth:`close` the pool (a worker whose pool's process is gone still ends itself)."""

    def __init__(
        self,
        fn: Callable[[T], R],
        jobs: int,
        deadline_s: float | None,
        on_timeout: Callable[[T, float], R],
        on_error: Callable[[T, str], R],
        memory_mb: int | None = None,
        prepare: Callable[[], object] | None = None,
        start_s: float = 120.0,
        daemon: bool = True,
    ) -> None:
        self.daemon = daemon
        self.fn = fn
        self.memory_mb = memory_mb
        self.prepare = prepare
        self.start_s = max(start_s, deadline_s or 0.0)
        self.jobs = max(1, jobs)
        self.deadline_s = deadline_s
        self.on_timeout = on_timeout
        self.on_error = on_error
        self.ctx = mp.get_context("spawn")
        self._workers: list[_Worker] = []

    def map(self, items: Sequence[T]) -> list[R]:
        """Results in order. Workers stay up for the next call until :meth:`close`; a worker
        that died in between is replaced, and :class:`PoolError` (no worker could be started)
        leaves the pool empty, so that the next call starts it afresh."""
        results: list[Any] = [None] * len(items)
        for index, result in self.each(items):
            results[index] = result
        return results

    def each(self, items: Sequence[T]) -> Generator[tuple[int, R], None, None]:
        """``(index, result)`` of each item as soon as it is done, in the order they finish;
        otherwise as :meth:`map`. A caller that stops iterating (or raises into it) has the
        workers still busy with items killed, and the next call starts fresh ones."""
        pending = list(range(len(items)))[::-1]
        for worker in [w for w in self._workers if not w.process.is_alive()]:
            worker.kill()
            self._workers.remove(worker)
        try:
            while len(self._workers) < min(self.jobs, len(items)):
                self._workers.append(_Worker(self.ctx, self.fn, self.memory_mb, self.prepare,
                                             self.daemon))
        except PoolError:
            self.close()
            raise
        busy: dict[Connection, _Worker] = {}
        try:
            for worker in list(self._workers):
                self._next(worker, items, pending, busy)
            while busy:
                yield from self._collect(items, pending, busy)
        except BaseException:
            for worker in busy.values():
                worker.kill()
            self._workers = [w for w in self._workers if w.conn not in busy]
            raise

    def close(self) -> None:
        """Stop every worker."""
        for worker in self._workers:
            worker.stop()
        self._workers = []

    def _collect(self, items: Sequence[T], pending: list[int],
                 busy: dict[Connection, _Worker]) -> list[tuple[int, R]]:
        """The items finished (or stopped at their deadline) within the soonest deadline."""
        finished: list[tuple[int, R]] = []
        now = time.monotonic()
        soonest = min(w.started + self._allowed(w) for w in busy.values())
        timeout = None if soonest == math.inf else max(0.0, soonest - now)
        for conn in wait(list(busy), timeout=timeout):
            worker = busy.pop(cast(Connection, conn))
            index = worker.index
            try:
                status, value = worker.conn.recv()
            except (EOFError, OSError):
                status, value = "error", ("the worker process died" if worker.ready else
                                          "the worker process died while starting (its "
                                          "imports or set-up)")
                fresh = self._retire(worker, pending)
                if fresh is None:
                    finished.append((index, self.on_error(items[index], value)))
                    continue
                worker = fresh
            if status == "ready":
                worker.started, worker.ready = time.monotonic(), True
                busy[worker.conn] = worker
                continue
            finished.append((index, value if status == "ok" else
                             self.on_error(items[index], value)))
            self._next(worker, items, pending, busy)
        now = time.monotonic()
        for conn, worker in list(busy.items()):
            if now - worker.started >= self._allowed(worker):
                del busy[conn]
                item = items[worker.index]
                finished.append((worker.index, (
                    self.on_timeout(item, self._allowed(worker)) if worker.ready else
                    self.on_error(item, f"the worker did not start within {self.start_s:g} s"))))
                fresh = self._retire(worker, pending)
                if fresh is not None:
                    self._next(fresh, items, pending, busy)
        return finished

    def _allowed(self, worker: _Worker) -> float:
        if not worker.ready:
            return self.start_s
        return math.inf if self.deadline_s is None else self.deadline_s

    def _retire(self, worker: _Worker, pending: list[int]) -> _Worker | None:
        """Kill ``worker``; its replacement when an item waits for it, else ``None`` (the
        next :meth:`map` starts one): a worker started for nothing would still be starting
        when :meth:`close` shuts its pipe."""
        if pending:
            return self._replace(worker)
        worker.kill()
        self._workers.remove(worker)
        return None

    def _replace(self, worker: _Worker) -> _Worker:
        worker.kill()
        fresh = _Worker(self.ctx, self.fn, self.memory_mb, self.prepare, self.daemon)
        self._workers[self._workers.index(worker)] = fresh
        return fresh

    def _next(self, worker: _Worker, items: Sequence[T], pending: list[int],
              busy: dict[Connection, _Worker]) -> None:
        if pending:
            index = pending.pop()
            try:
                worker.give(index, items[index])
            except OSError:  # the worker died between items: a fresh one takes the item
                worker = self._replace(worker)
                worker.give(index, items[index])
            busy[worker.conn] = worker
