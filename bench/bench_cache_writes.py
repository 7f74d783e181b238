"""Main-thread CPU seconds of the result cache's writes: the synchronous path against the
writer thread.

``--chunks`` chunks (default 300, about a 25,000-step first run's three stages with chunks of
256; ``--quick``: 60) of ``--chunk-size`` formalisation records, each as the faithfulness
method caches it (``cache.dump`` of a :class:`~afcheck.types.Formalisation`, about 400 bytes of
JSON), are stored into a fresh database in a temporary folder, two ways:

- ``sync``: what :meth:`Cache.put_many` did before it had a writer thread, in this thread:
  the JSON of each value, the writer's own ``INSERT OR REPLACE`` statements, one commit per
  chunk;
- ``threaded``: :meth:`Cache.put_many` per chunk, then :meth:`Cache.flush`.

Only the seconds the calling thread spends in those calls count (``time.thread_time`` around
them): building the records is the same work both ways and is left out. The two run
alternately, A B A B (``--rounds``); each side's figures are those of its round with the
least main-thread seconds. Prints
``cache_writes_main_cpu_ratio`` (threaded / sync, target ≤ 0.5), each side's main-thread
seconds, and the process's CPU seconds and wall of each (information only: the writer's work
is moved, not removed, and on a busy machine it competes for the other core).

Then the writer beside a caller busy in Python, as in a run whose formaliser works in process:
after each ``put_many`` the calling thread runs ``--busy-ms`` of pure Python (default 50,
a third of what ``literal`` takes for a chunk of 256 on 2 cores), and
``cache_writes_busy_caller_wait_ratio`` is the wall the caller spent in ``put_many`` and the
final ``flush`` (a writer that falls behind fills its queue and makes the caller wait) over the
caller's own busy seconds (target ≤ 0.05).

Prints ``name value target`` lines and exits 0.
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from afcheck.runtime import cache as codec
from afcheck.types import Formalisation, FormalisationStatus

Chunk = list[tuple[bytes, Any]]


def chunks(count: int, size: int) -> list[Chunk]:
    """``count`` chunks of ``size`` (key, value) pairs, every key distinct."""
    made = []
    for c in range(count):
        items = []
        for i in range(size):
            n = c * size + i
            record = Formalisation(
                key=f"gsm8k-{n}x3/{n % 7}#original", formaliser="literal 3",
                status=FormalisationStatus.OK,
                statement=f"theorem step_{n} : ({n} : ℚ) + 17 * 3 = {n + 51} := by sorry",
                header="import Mathlib\nopen Real", reason="")
            items.append((codec.key("formalise", "literal 3", n), codec.dump(record)))
        made.append(items)
    return made


def synchronous(path: Path, work: list[Chunk]) -> tuple[float, float, float]:
    codec.Cache(path).close()  # the database and its table, as the cache makes them
    db = sqlite3.connect(str(path), timeout=30)
    db.execute("PRAGMA synchronous=NORMAL")
    try:
        return timed(work, lambda items: codec._insert(db, "formalise", items), lambda: None)
    finally:
        db.close()


def threaded(path: Path, work: list[Chunk]) -> tuple[float, float, float]:
    cache = codec.Cache(path)
    try:
        return timed(work, lambda items: cache.put_many("formalise", items), cache.flush)
    finally:
        cache.close()


def timed(work: list[Chunk], put: Callable[[Chunk], None], flush: Callable[[], None]
          ) -> tuple[float, float, float]:
    """Main-thread CPU, process CPU and wall seconds of ``put`` per chunk and ``flush``."""
    main = 0.0
    process, wall = time.process_time(), time.perf_counter()
    for items in work:
        start = time.thread_time()
        put(items)
        main += time.thread_time() - start
    start = time.thread_time()
    flush()
    main += time.thread_time() - start
    return main, time.process_time() - process, time.perf_counter() - wall


def spin(seconds: float) -> None:
    """Run Python (holding the GIL, as a formaliser does) for ``seconds`` of wall."""
    end = time.perf_counter() + seconds
    n = 0
    while time.perf_counter() < end:
        for i in range(200):
            n += i & 7


def busy_caller(path: Path, work: list[Chunk], busy_s: float) -> tuple[float, float]:
    """The caller's wall seconds in ``put_many`` and ``flush``, and its busy seconds, while it
    runs Python between the chunks."""
    cache = codec.Cache(path)
    waited = busy = 0.0
    try:
        for items in work:
            start = time.perf_counter()
            cache.put_many("formalise", items)
            waited += time.perf_counter() - start
            start = time.perf_counter()
            spin(busy_s)
            busy += time.perf_counter() - start
        start = time.perf_counter()
        cache.flush()
        waited += time.perf_counter() - start
    finally:
        cache.close()
    return waited, busy


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--chunks", type=int, default=300)
    parser.add_argument("--chunk-size", type=int, default=256)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="60 chunks")
    parser.add_argument("--busy-ms", type=float, default=50.0,
                        help="Python the caller runs after each chunk in the busy-caller "
                             "figure (default 50)")
    args = parser.parse_args()
    count = 60 if args.quick else args.chunks
    if count < 1 or args.chunk_size < 1 or args.rounds < 1:
        parser.error("--chunks, --chunk-size and --rounds must be at least 1")
    work = chunks(count, args.chunk_size)
    best: dict[str, tuple[float, float, float]] = {}
    with tempfile.TemporaryDirectory(prefix="afcheck-bench-cache-") as folder:
        for round_ in range(args.rounds):
            for name, run in (("sync", synchronous), ("threaded", threaded)):
                figures = run(Path(folder) / f"{name}-{round_}.sqlite", work)
                best[name] = min(best.get(name, figures), figures)
                print(f"round {round_ + 1} {name}: main {figures[0]:.3f} s, process "
                      f"{figures[1]:.3f} s, wall {figures[2]:.3f} s", file=sys.stderr)
    ratio = best["threaded"][0] / best["sync"][0]
    print(f"cache_writes_main_cpu_ratio {ratio:.3f} <=0.5")
    for name in ("sync", "threaded"):
        main_s, process_s, wall_s = best[name]
        print(f"cache_writes_{name}_main_cpu_s {main_s:.3f} -")
        print(f"cache_writes_{name}_process_cpu_s {process_s:.3f} -")
        print(f"cache_writes_{name}_wall_s {wall_s:.3f} -")
    with tempfile.TemporaryDirectory(prefix="afcheck-bench-cache-") as folder:
        waited, busy = min(busy_caller(Path(folder) / f"busy-{round_}.sqlite", work,
                                       args.busy_ms / 1000) for round_ in range(args.rounds))
    print(f"cache_writes_busy_caller_wait_ratio {waited / busy:.3f} <=0.05")
    print(f"cache_writes_busy_caller_wait_s {waited:.3f} -")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
