"""The result cache's writer thread: what is put is read back, committed by close and by the
end of a stage, bounded while the disk is slow, and its failures reach the caller once.

A slow disk is another connection holding SQLite's write lock (``BEGIN IMMEDIATE``): the
writer waits on it as it would on a slow commit, and goes on once it is released."""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from afcheck.components import describe
from afcheck.plugins import Plugins
from afcheck.runtime import Components, Runtime
from afcheck.runtime.cache import QUEUED, Cache, CacheError, key


def chunk(first: int, size: int = 10) -> list[tuple[bytes, object]]:
    return [(key(i), {"i": i, "text": "∀ n : ℕ"}) for i in range(first, first + size)]


def stored(path: Path) -> int:
    """Rows committed, as a connection of another program sees them."""
    db = sqlite3.connect(str(path))
    try:
        return int(db.execute("SELECT COUNT(*) FROM results").fetchone()[0])
    finally:
        db.close()


@contextmanager
def locked(path: Path) -> Iterator[Callable[[], None]]:
    """SQLite's write lock held by another connection until the function given is called
    (or the block ends)."""
    db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
    db.execute("BEGIN IMMEDIATE")
    released = threading.Event()

    def release() -> None:
        if not released.is_set():
            released.set()
            db.execute("ROLLBACK")

    try:
        yield release
    finally:
        release()
        db.close()


def until(condition: Callable[[], bool], seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "results.sqlite"


def test_a_value_put_is_read_back_at_once(path: Path) -> None:
    cache = Cache(path)
    cache.put_many("prove", [(key("a"), {"kind": "proved"})])
    assert cache.get_many("prove", [key("a")]) == {key("a"): {"kind": "proved"}}
    cache.put_many("prove", [(key("a"), {"kind": "disproved"})])
    assert cache.get_many("prove", [key("a")]) == {key("a"): {"kind": "disproved"}}
    cache.close()


def test_every_chunk_is_committed_when_close_returns(path: Path) -> None:
    cache = Cache(path)
    for first in range(0, 50 * 20, 20):
        cache.put_many("formalise", chunk(first, 20))
    cache.close()
    assert stored(path) == 1000
    again = Cache(path)
    assert len(again.get_many("formalise", [key(i) for i in range(1000)])) == 1000
    again.close()


def test_a_chunk_larger_than_one_statement_is_stored_whole_and_in_order(path: Path) -> None:
    # One INSERT holds at most a fixed number of rows; a longer chunk takes several, and a
    # key met twice in the chunk keeps its later value, as row-by-row inserts would.
    cache = Cache(path)
    items = chunk(0, 700) + [(key(5), {"i": "again"})]
    cache.put_many("formalise", items)
    cache.close()
    assert stored(path) == 700
    again = Cache(path)
    found = again.get_many("formalise", [key(i) for i in range(700)])
    assert len(found) == 700
    assert found[key(5)] == {"i": "again"}
    assert found[key(699)] == {"i": 699, "text": "∀ n : ℕ"}
    again.close()


def test_close_commits_the_chunks_still_waiting_for_a_slow_disk(path: Path) -> None:
    cache = Cache(path)
    with locked(path) as release:
        for first in range(0, 50, 10):
            cache.put_many("formalise", chunk(first))
        assert stored(path) == 0  # put_many returned, nothing is committed yet
        threading.Timer(0.3, release).start()
        cache.close()
    assert stored(path) == 50


def test_the_queue_holds_at_most_queued_chunks_while_the_disk_is_slow(path: Path) -> None:
    cache = Cache(path)
    put = [0]

    def producer() -> None:
        for n in range(QUEUED + 4):
            cache.put_many("formalise", chunk(n * 10))
            put[0] += 1

    with locked(path) as release:
        thread = threading.Thread(target=producer, daemon=True)
        thread.start()
        # One chunk in the writer's hands (waiting for the lock), QUEUED waiting for it.
        until(lambda: put[0] == QUEUED + 1)
        time.sleep(0.3)
        assert put[0] == QUEUED + 1 and thread.is_alive()
        assert cache._writer._queue.qsize() == QUEUED
        release()
        thread.join(10)
    assert not thread.is_alive()
    cache.close()
    assert stored(path) == (QUEUED + 4) * 10


def test_a_failed_write_is_one_cache_error_on_the_next_call_and_only_once(path: Path) -> None:
    cache = Cache(path)
    db = sqlite3.connect(str(path))
    db.execute("CREATE TRIGGER full BEFORE INSERT ON results "
               "BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END")
    db.commit()
    cache.put_many("prove", chunk(0))  # queued: the writer has not met the trigger yet
    with pytest.raises(CacheError) as info:
        cache.flush()
    message = str(info.value)
    assert message.startswith(f"{path}: cannot use the result cache (database or disk is full)")
    assert "\n" not in message
    cache.flush()  # raised once
    db.execute("DROP TRIGGER full")
    db.commit()
    db.close()
    cache.put_many("prove", chunk(10))  # the writer went on
    cache.close()
    assert stored(path) == 10  # the failed chunk was rolled back whole


def test_a_value_json_cannot_write_raises_on_the_next_put(path: Path) -> None:
    cache = Cache(path)
    cache.put_many("prove", [(key("a"), {"bad": object()})])
    until(lambda: cache._writer._error is not None)
    with pytest.raises(TypeError, match="not JSON serializable"):
        cache.put_many("prove", chunk(0))
    cache.put_many("prove", chunk(10))
    cache.close()
    assert stored(path) == 10  # the chunk put while the error was raised was not queued


class Killed(BaseException):
    """Not an Exception: what a writer cannot go on after."""


class Deadly(dict[str, object]):
    """A value whose JSON ends the thread that writes it (the C encoder asks a dict subclass
    for its items, when it has any)."""

    def items(self):  # type: ignore[no-untyped-def, override]
        raise Killed("the writer is gone")


def test_a_writer_that_died_with_the_queue_full_raises_instead_of_hanging(path: Path) -> None:
    cache = Cache(path)
    raised: list[BaseException] = []

    def one_more(first: int) -> None:
        try:
            cache.put_many("formalise", chunk(first))
        except BaseException as exc:  # noqa: BLE001 - the test looks at it
            raised.append(exc)

    with locked(path) as release:
        cache.put_many("formalise", chunk(0))  # the writer waits for the lock with it
        until(lambda: cache._writer._queue.qsize() == 0)
        cache.put_many("formalise", [(key("deadly"), Deadly(x=1))])
        for n in range(1, QUEUED):
            cache.put_many("formalise", chunk(n * 10))
        # Two more: the writer frees one place when it takes the deadly chunk, and then dies
        # with the other still waiting.
        blocked = [threading.Thread(target=one_more, args=(first,), daemon=True)
                   for first in (1000, 2000)]
        for thread in blocked:
            thread.start()
        time.sleep(0.3)
        assert all(thread.is_alive() for thread in blocked) and not raised  # the queue is full
        release()
        for thread in blocked:
            thread.join(10)
    assert not any(thread.is_alive() for thread in blocked), "put_many hung on a dead writer"
    assert len(raised) == 1 and isinstance(raised[0], Killed)  # once, not once per caller
    cache.close()  # a new writer commits what was still queued
    assert stored(path) == (QUEUED + 1) * 10


def test_a_stage_is_committed_before_runtime_cached_returns(path: Path) -> None:
    cache = Cache(path)
    runtime = Runtime(Components(Plugins(autoload=False)), cache=cache, chunk_size=4)
    built = describe(object(), "double", {})
    items = list(range(20))
    with locked(path) as release:
        threading.Timer(0.3, release).start()
        batch = runtime.cached("double", built, items, key=lambda n: (n,),
                               call=lambda part: [{"n": 2 * n} for n in part],
                               load=dict, dump=lambda record: record)
        assert stored(path) == 20
    for record in batch.results:
        record["n"] = -1  # the caller owns its results now: the cache has its own text
    cache.close()
    again = Cache(path)
    rerun = Runtime(Components(Plugins(autoload=False)), cache=again)
    assert rerun.cached("double", built, items, key=lambda n: (n,), call=lambda part: [],
                        load=dict, dump=lambda record: record).results == [
        {"n": 2 * n} for n in items]
    again.close()
