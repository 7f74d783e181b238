"""A pool of Lean REPLs that each import the header once and check commands against it.

Each worker owns one REPL process. Its first command is the header (``import Mathlib`` …);
the environment id it returns is the base every later command branches from, so a check
costs one elaboration, not one import, and checks never see each other's declarations.

Failures never hang and never raise: a command over its wall-clock limit, a crashed REPL
and an out-of-memory REPL each give a :class:`Failure` with the reason, and the worker
starts a fresh REPL for its next command. REPLs are also restarted after ``max_commands``
commands or when their memory passes the recycle limit, because the REPL never frees
environments.
"""

from __future__ import annotations

import json
import queue
import threading
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Protocol

from afcheck.errors import AfcheckError
from afcheck_lean.replies import Reply, parse_reply
from afcheck_lean.session import ReplProcess, StartRepl
from afcheck_lean.settings import LeanSettings

_OOM_MARKERS = ("out of memory", "memoryerror", "std::bad_alloc", "cannot allocate")


@dataclass(frozen=True)
class Failure:
    """A command that got no answer."""

    kind: str
    """``timeout``, ``crash``, ``out-of-memory``, ``header``, ``server`` (a Lean server that
    did not answer) or ``skipped`` (not run because the batch was stopped)."""
    reason: str
    startup: bool = False
    """The REPL could not be started or could not import the header."""


Result = Reply | Failure


@dataclass(frozen=True)
class Timed:
    """A command's result and the wall clock the command itself took (the REPL's answer or
    its failure; not the wait for a free worker nor a fresh REPL's header import)."""

    result: Result
    seconds: float


class LeanPool(Protocol):
    """What the checker and provers need of a pool: :class:`ReplPool` (local REPLs) or
    :class:`afcheck_lean.kimina.KiminaPool` (a kimina-lean-server)."""

    settings: LeanSettings

    def run(self, commands: Sequence[str], breaker: Breaker | None = None) -> list[Result]:
        """One result per command, in order; never raises for one command."""
        ...

    def run_within(self, commands: Sequence[str], timeouts: Sequence[float],
                   breaker: Breaker | None = None) -> list[Timed]:
        """As :meth:`run`, command ``i`` limited to ``timeouts[i]`` seconds (instead of the
        settings' ``timeout_s``), each result with the time it took."""
        ...

    def close(self) -> None: ...


class HeaderError(RuntimeError):
    """The header itself does not elaborate: every command would fail the same way."""


class LeanUnavailable(AfcheckError):
    """Lean could not check anything: the run stops with this one line."""


class Breaker:
    """Stops a batch when Lean is not working at all, rather than failing every command.

    It trips when the pool header does not elaborate, when no REPL could be started before
    any command was answered, or (unless ``limit`` is ``None``) when the first ``limit``
    commands all failed. Once Lean has answered one command, later failures are per-command
    (a slow statement, a crash) and never trip it.
    """

    def __init__(self, limit: int | None = 20) -> None:
        self.limit = limit
        self.answered = 0
        self.failed_in_row = 0
        self.tripped: Failure | None = None
        self._lock = threading.Lock()

    def record(self, result: Result) -> None:
        with self._lock:
            if isinstance(result, Reply):
                self.answered += 1
                self.failed_in_row = 0
                return
            if result.kind == "skipped":
                return
            self.failed_in_row += 1
            if self.tripped is None and (
                result.kind == "header"
                or (not self.answered and (result.startup or (
                    self.limit is not None and self.failed_in_row >= self.limit)))
            ):
                self.tripped = result

    def error(self, component: str) -> LeanUnavailable:
        assert self.tripped is not None
        if self.answered:
            what = f"Lean stopped working after {self.answered} check(s)"
        elif self.tripped.kind == "header" or self.tripped.startup:
            what = "Lean could not start"
        else:
            what = f"the first {self.failed_in_row} Lean checks all failed"
        checked = "the run stops" if self.answered else "no statement was checked"
        fix = ("check the server's address and logs" if self.tripped.kind == "server"
               else "run `afcheck lean doctor`")
        return LeanUnavailable(f"{component}: {what} ({self.tripped.reason}); {checked}: {fix}")


class _Worker:
    def __init__(self, start: StartRepl, settings: LeanSettings) -> None:
        self._start = start
        self._settings = settings
        self._repl: ReplProcess | None = None
        self._base_env: int | None = None
        self._commands = 0
        self._header_error = ""
        self.restarts = 0

    def run(self, command: str, timeout: float) -> Timed:
        if self._header_error:
            return Timed(Failure("header", self._header_error), 0.0)
        try:
            base = self._ensure_base()
        except HeaderError as exc:
            self._header_error = str(exc)
            return Timed(Failure("header", self._header_error), 0.0)
        except Exception as exc:  # noqa: BLE001 - any start/import failure is a Failure
            self._drop()
            failure = _failure_of(exc, self._settings.header_timeout_s, "importing the header")
            return Timed(Failure(failure.kind, failure.reason, startup=True), 0.0)
        assert self._repl is not None
        started = time.monotonic()
        try:
            data = self._repl.run_dict({"cmd": command, "env": base}, timeout=timeout)
        except Exception as exc:  # noqa: BLE001
            seconds = time.monotonic() - started
            self._drop()
            return Timed(_failure_of(exc, timeout, "checking"), seconds)
        seconds = time.monotonic() - started
        self._commands += 1
        self._recycle_if_needed()
        return Timed(parse_reply(data), seconds)

    def close(self) -> None:
        self._drop()

    def _ensure_base(self) -> int:
        if self._repl is not None and not self._repl.is_alive():
            self._drop()
        if self._repl is None:
            self._repl = self._start()
            self.restarts += 1
            data = self._repl.run_dict({"cmd": self._settings.header},
                                       timeout=self._settings.header_timeout_s)
            reply = parse_reply(data)
            if reply.refusal or reply.errors or reply.env is None:
                first = reply.refusal or (reply.errors[0].one_line() if reply.errors else "")
                self._drop()
                raise HeaderError(f"the header does not elaborate: {first or 'no environment'}")
            self._base_env = reply.env
            self._commands = 0
        assert self._base_env is not None
        return self._base_env

    def _recycle_if_needed(self) -> None:
        assert self._repl is not None
        if self._commands >= self._settings.max_commands:
            self._drop()
            return
        try:
            memory = self._repl.get_memory_usage()
        except Exception:  # noqa: BLE001 - memory sampling is advisory
            return
        if memory > self._settings.recycle_limit_mb:
            self._drop()

    def _drop(self) -> None:
        if self._repl is not None:
            try:
                self._repl.kill()
            except Exception:  # noqa: BLE001 - the process may already be gone
                pass
        self._repl = None
        self._base_env = None


def _failure_of(exc: BaseException, limit: float, doing: str) -> Failure:
    if isinstance(exc, TimeoutError):
        return Failure("timeout", f"Lean timed out after {limit:g}s while {doing}")
    text = str(exc).lower()
    if isinstance(exc, MemoryError) or any(m in text for m in _OOM_MARKERS):
        return Failure("out-of-memory", f"the Lean REPL ran out of memory while {doing}")
    if isinstance(exc, json.JSONDecodeError):
        return Failure("crash", f"the Lean REPL answered unreadable output while {doing}")
    kind = type(exc).__name__
    first = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    return Failure("crash", f"the Lean REPL stopped while {doing} ({kind}: {first})")


class ReplPool:
    """``workers`` REPLs sharing the work of a batch; results come back in input order."""

    def __init__(self, start: StartRepl, settings: LeanSettings) -> None:
        self.settings = settings
        self._workers = [_Worker(start, settings) for _ in range(settings.workers)]
        self._idle: queue.SimpleQueue[_Worker] = queue.SimpleQueue()
        for worker in self._workers:
            self._idle.put(worker)

    def run(self, commands: Sequence[str], breaker: Breaker | None = None) -> list[Result]:
        """Check every command in the worker's base environment. With a ``breaker``, the
        commands left once it trips are not run (``skipped`` failures)."""
        timeouts = [self.settings.timeout_s] * len(commands)
        return [timed.result for timed in self.run_within(commands, timeouts, breaker)]

    def run_within(self, commands: Sequence[str], timeouts: Sequence[float],
                   breaker: Breaker | None = None) -> list[Timed]:
        """:meth:`run` with a wall-clock limit for each command, each result timed."""
        if not commands:
            return []
        with ThreadPoolExecutor(max_workers=len(self._workers)) as executor:
            return list(executor.map(lambda c, t: self._run_one(c, t, breaker), commands,
                                     timeouts))

    def _run_one(self, command: str, timeout: float, breaker: Breaker | None) -> Timed:
        if breaker is not None and breaker.tripped is not None:
            return Timed(Failure("skipped", f"not run: {breaker.tripped.reason}"), 0.0)
        worker = self._idle.get()
        try:
            timed = worker.run(command, timeout)
        finally:
            self._idle.put(worker)
        if breaker is not None:
            breaker.record(timed.result)
        return timed

    @property
    def restarts(self) -> int:
        """REPL processes started so far, over all workers."""
        return sum(w.restarts for w in self._workers)

    def close(self) -> None:
        for worker in self._workers:
            worker.close()

    def __enter__(self) -> ReplPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
