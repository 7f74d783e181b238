"""A damaged or unwritable result cache never costs a run its results
(:mod:`afcheck.runtime.cache`, :meth:`afcheck.runtime.Runtime.cached`)."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from afcheck.components import describe
from afcheck.runtime import Components, Runtime
from afcheck.runtime import cache as cache_module
from afcheck.runtime.cache import Cache, cache_path, clear


class Doubler:
    name = "doubler"
    version = "1"

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, chunk: Sequence[int]) -> list[dict[str, int]]:
        self.calls += len(chunk)
        return [{"value": 2 * n} for n in chunk]


def _load(data: Mapping[str, Any]) -> dict[str, int]:
    return {"value": int(data["value"])}


def _runtime(cache: Cache | None) -> Runtime:
    from afcheck.plugins import Plugins

    return Runtime(Components(Plugins()), cache=cache, chunk_size=2)


def _double(rt: Runtime, doubler: Doubler, items: list[int]) -> list[dict[str, int]]:
    built = describe(doubler, "doubler", {})
    return rt.cached("double", built, items, key=lambda n: (n,), call=doubler,  # type: ignore[arg-type]
                     load=_load, dump=lambda r: r).results


def test_a_bad_row_is_a_miss_said_once_and_replaced(tmp_path: Path) -> None:
    path = cache_path(tmp_path)
    first = Cache(path)
    _double(_runtime(first), Doubler(), [1, 2, 3])
    first.close()
    db = sqlite3.connect(path)
    rows = db.execute("SELECT rowid FROM results ORDER BY rowid").fetchall()
    db.execute("UPDATE results SET value = '{broken' WHERE rowid = ?", rows[0])
    db.execute("UPDATE results SET value = '{}' WHERE rowid = ?", rows[1])
    db.commit()
    db.close()
    again = Cache(path)
    rt = _runtime(again)
    doubler = Doubler()
    assert _double(rt, doubler, [1, 2, 3]) == [{"value": 2}, {"value": 4}, {"value": 6}]
    assert doubler.calls == 2 and again.hits == 1 and again.misses == 2
    assert len(rt.notes) == 1 and str(path) in rt.notes[0]
    _double(rt, Doubler(), [1, 2])  # still damaged in no other row: said once
    again.close()
    third = Cache(path)
    rt = _runtime(third)
    doubler = Doubler()
    _double(rt, doubler, [1, 2, 3])
    assert doubler.calls == 0 and not rt.notes  # the damaged rows were written again
    third.close()


def test_results_are_kept_when_the_cache_cannot_be_written(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def full(*args: object) -> None:
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(cache_module, "_insert", full)
    cache = Cache(cache_path(tmp_path))
    rt = _runtime(cache)
    assert _double(rt, Doubler(), [1, 2, 3, 4, 5]) == [{"value": 2 * n} for n in range(1, 6)]
    assert rt.cache is None
    assert len(rt.notes) == 1 and "disk is full" in rt.notes[0]
    assert _double(rt, Doubler(), [6]) == [{"value": 12}]  # the run goes on without it


@pytest.mark.parametrize("damage", ["garbage", "wrong-schema", "truncated"])
def test_cache_clear_always_leaves_a_usable_cache(tmp_path: Path, damage: str) -> None:
    path = cache_path(tmp_path)
    if damage == "garbage":
        path.write_bytes(b"not a database at all" * 100)
    elif damage == "wrong-schema":
        db = sqlite3.connect(path)
        db.execute("CREATE TABLE results (a, b)")
        db.execute("INSERT INTO results VALUES (1, 2)")
        db.commit()
        db.close()
    else:
        cache = Cache(path)
        _double(_runtime(cache), Doubler(), list(range(600)))
        cache.close()
        data = path.read_bytes()
        path.write_bytes(data[:len(data) // 2])
    done = subprocess.run([sys.executable, "-m", "afcheck", "cache", "clear", "--cache-dir",
                           str(tmp_path)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "removed" in done.stdout
    fresh = Cache(path)
    doubler = Doubler()
    _double(_runtime(fresh), doubler, [1])
    fresh.close()
    assert doubler.calls == 1


def test_clear_of_a_healthy_cache_empties_it_in_place(tmp_path: Path) -> None:
    cache = Cache(cache_path(tmp_path))
    _double(_runtime(cache), Doubler(), [1, 2])
    cache.close()
    assert clear(tmp_path) == f"removed 2 cached results from {cache_path(tmp_path)}"
    assert clear(tmp_path).startswith("removed 0 cached results")
