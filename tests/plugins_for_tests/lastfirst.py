"""A third-party executor for the runner's tests: ``last-first`` runs a stage's chunks in this
process, the last chunk first, so a run shows that results find their items whatever order
chunks finish in. With ``log=FILE`` it appends one line per chunk it ran,
``STAGE COMPONENT CHUNK ITEMS``, so a test sees which stages went through it. With
``stop_after=STAGE:N`` it stops the run after N chunks of STAGE, as a lost cluster does
(:class:`~afcheck.runtime.executor.ExecutorStopped`).

Loaded with ``--plugin lastfirst``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TypeVar

from afcheck import hookimpl
from afcheck.errors import UsageError
from afcheck.registry import Register
from afcheck.runtime.executor import Done, ExecutorStopped, Stage

T = TypeVar("T")
R = TypeVar("R")


class LastFirst:
    name = "last-first"

    def __init__(self, log: str = "", stop_after: tuple[str, int] | None = None) -> None:
        self.log = log
        self.chunks = 0
        self.stop_after = stop_after

    def run(self, stage: Stage, chunks: Sequence[list[T]],
            call: Callable[[list[T]], Sequence[R]]) -> Iterator[Done[R]]:
        for done, number in enumerate(reversed(range(len(chunks)))):
            if self.stop_after == (stage.name, done):
                raise ExecutorStopped(f"the workers of the last-first executor were lost "
                                      f"during the {stage.name} stage, after {done} chunks")
            began = time.perf_counter()
            made = list(call(chunks[number]))
            self.chunks += 1
            if self.log:
                with open(self.log, "a", encoding="utf-8") as handle:
                    handle.write(f"{stage.name} {stage.built.name} {number} "
                                 f"{len(chunks[number])}\n")
            yield Done(number, made, time.perf_counter() - began)

    def close(self) -> None:
        return None

    def describe(self) -> str:
        return f"last-first executor: {self.chunks} chunks, the last of each stage first"


def _make(options: Mapping[str, str]) -> LastFirst:
    unknown = sorted(set(options) - {"log", "stop_after"})
    if unknown:
        raise UsageError(f"--executor-opt {', '.join(unknown)}: the last-first executor takes "
                         "log=FILE and stop_after=STAGE:N only")
    stage, _, count = options.get("stop_after", "").partition(":")
    return LastFirst(options.get("log", ""), (stage, int(count)) if stage else None)


@hookimpl
def afcheck_register_executors(register: Register[LastFirst]) -> None:
    register("last-first", _make, description="test executor: each stage's last chunk first",
             details={"options": "log=FILE, stop_after=STAGE:N"})
