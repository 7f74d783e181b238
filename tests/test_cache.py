"""The result cache: hits, misses on changed options, and resume after SIGKILL."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import TEST_PLUGINS, write_suite

from afcheck.runtime.cache import Cache, key

ROWS = [{"problem_id": f"p{i}", "node_id": "1", "step": f"So: {i} + 1 = {i + 1}",
         "perturbed": f"So: {i} + 1 = {i + 2}"} for i in range(40)]
ARITH = {"perturber": "given", "formaliser": "arith", "prover": "arith"}


def test_store_round_trip_and_info(tmp_path: Path) -> None:
    cache = Cache(tmp_path / "c.sqlite")
    cache.put_many("prove", [(key("a"), {"kind": "proved"}), (key("b"), [1, 2])])
    assert cache.get_many("prove", [key("a"), key("b"), key("c")]) == {
        key("a"): {"kind": "proved"}, key("b"): [1, 2]}
    assert (cache.hits, cache.misses) == (2, 1)
    assert cache.info()["entries"] == {"prove": 2}
    assert cache.clear() == 2 and cache.info()["entries"] == {}


def test_a_key_asked_twice_in_a_batch_is_one_hit_or_one_miss(tmp_path: Path) -> None:
    cache = Cache(tmp_path / "c.sqlite")
    cache.put_many("formalise", [(key("a"), {"status": "ok"})])
    found = cache.get_many("formalise", [key("a"), key("b"), key("a"), key("b"), key("a")])
    assert found == {key("a"): {"status": "ok"}}
    assert (cache.hits, cache.misses) == (1, 1)


def run(p: pytest.Pytester, *args: str) -> pytest.RunResult:
    return p.runpytest("demo", "--afcheck-plugin", "arith", "--tb=line", *args)


def test_rerun_hits_and_changed_option_misses(arith: pytest.Pytester) -> None:
    import arith as plugin

    write_suite(arith.path, "demo", ROWS[:5], ARITH)
    run(arith)
    assert dict(plugin.CALLS)["formalise"] == 10
    plugin.CALLS.clear()
    again = run(arith)
    again.assert_outcomes(passed=5)
    assert plugin.CALLS == []  # everything came from the cache
    run(arith, "--afcheck-formaliser-opt", "delay=0")
    assert dict(plugin.CALLS)["formalise"] == 10  # another option, another fingerprint
    plugin.CALLS.clear()
    run(arith, "--afcheck-no-cache")
    assert dict(plugin.CALLS)["formalise"] == 10


def _command(suite_root: Path, cache_dir: Path, out: Path, log: Path) -> list[str]:
    return [sys.executable, "-m", "afcheck.cli", str(suite_root / "demo"), "--plugin", "arith",
            "--formaliser-opt", f"delay=0.05,log={log}", "--chunk-size", "4",
            "--cache-dir", str(cache_dir), "--json", str(out), "-q", "-p", "no:cacheprovider"]


def _comparable(path: Path) -> dict[str, object]:
    doc = json.loads(path.read_text())
    doc.pop("timings")
    doc.pop("run")  # when and where: each run its own
    for step in doc["steps"]:
        step.pop("timings")
    return doc


@pytest.mark.heavy
def test_resume_after_sigkill_equals_an_uninterrupted_run(tmp_path: Path) -> None:
    write_suite(tmp_path, "demo", ROWS, ARITH)
    env = {**os.environ, "PYTHONPATH": str(TEST_PLUGINS)}
    fresh_log, killed_log = tmp_path / "fresh.log", tmp_path / "run.log"
    # Both runs use the same options (the log path is one of them), so their configs agree.
    subprocess.run(_command(tmp_path, tmp_path / "c1", tmp_path / "fresh.json", killed_log),
                   env=env, check=False, capture_output=True, timeout=120)
    killed_log.rename(fresh_log)
    (tmp_path / "fresh.json").rename(tmp_path / "expected.json")

    command = _command(tmp_path, tmp_path / "c2", tmp_path / "fresh.json", killed_log)
    victim = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        done = len(killed_log.read_text().splitlines()) if killed_log.exists() else 0
        if done >= 24:  # a few chunks are cached, most are not
            break
        time.sleep(0.02)
    victim.send_signal(signal.SIGKILL)
    victim.wait()
    assert not (tmp_path / "fresh.json").exists()
    before = len(killed_log.read_text().splitlines())
    assert before < 80

    subprocess.run(command, env=env, check=False, capture_output=True, timeout=120)
    formalised = killed_log.read_text().splitlines()
    assert len(formalised) - before <= 80 - 20  # finished chunks were not redone
    assert sorted(set(formalised)) == sorted(set(fresh_log.read_text().splitlines()))
    assert _comparable(tmp_path / "fresh.json") == _comparable(tmp_path / "expected.json")


def test_cache_command_info_and_clear(tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    from afcheck import cli

    cache = Cache(tmp_path / "results.sqlite")
    cache.put_many("prove", [(key("a"), 1), (key("b"), 2)])
    cache.close()
    assert cli.main(["cache", "info", "--cache-dir", str(tmp_path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["entries"] == {"prove": 2}
    assert cli.main(["cache", "clear", "--cache-dir", str(tmp_path)]) == 0
    assert "removed 2 cached results" in capsys.readouterr().out


def test_the_summary_says_how_much_came_from_the_cache(arith: pytest.Pytester) -> None:
    write_suite(arith.path, "demo", ROWS[:3], ARITH)
    first = run(arith, "--afcheck-detectors", "none")
    assert "result cache: 0 results reused" in first.stdout.str()
    second = run(arith, "--afcheck-detectors", "none")
    assert "result cache: 12 results reused, 0 computed" in second.stdout.str()


def _filled(directory: Path, count: int = 3000) -> Path:
    cache = Cache(directory / "results.sqlite")
    cache.put_many("formalise", [(key(i), {"text": "x" * 200, "i": i}) for i in range(count)])
    cache.close()
    return directory / "results.sqlite"


def _truncate(path: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def _zero_middle(path: Path) -> None:
    data = path.read_bytes()
    half = len(data) // 2
    path.write_bytes(data[:8192] + b"\0" * half + data[8192 + half:])


@pytest.mark.parametrize("damage", [
    _truncate, lambda path: path.write_bytes(b"not a database" * 100),
    lambda path: path.write_bytes(b"SQLite format 3\0")])
def test_a_damaged_database_is_one_line_when_opened(tmp_path: Path, damage) -> None:  # type: ignore[no-untyped-def]
    from afcheck.runtime.cache import CacheError, open_cache

    damage(_filled(tmp_path))
    with pytest.raises(CacheError) as info:
        open_cache(tmp_path)
    message = str(info.value)
    assert message.startswith(f"{tmp_path / 'results.sqlite'}: the result cache is damaged (")
    assert f"run `afcheck cache clear --cache-dir {tmp_path}` to remove it" in message
    assert message.endswith("or give --no-cache")
    assert "\n" not in message


def test_damage_found_while_reading_is_the_same_line(tmp_path: Path) -> None:
    from afcheck.runtime.cache import CacheError, open_cache

    _zero_middle(_filled(tmp_path))
    with pytest.raises(CacheError, match="the result cache is damaged"):  # noqa: PT012
        # Met when it is opened (its first read) or by a later read: the same line.
        cache = open_cache(tmp_path)
        try:
            cache.get_many("formalise", [key(i) for i in range(3000)])
        finally:
            cache.close()


def test_a_run_against_a_damaged_cache_stops_before_any_work(arith: pytest.Pytester) -> None:
    import arith as arith_module

    write_suite(arith.path, "demo", ROWS, ARITH)
    directory = arith.path / "cache"
    _truncate(_filled(directory))
    result = run(arith, "--afcheck-cache-dir", str(directory))
    assert result.ret == 4
    text = result.stdout.str() + result.stderr.str()
    assert "the result cache is damaged" in text and "afcheck cache clear" in text
    assert "DatabaseError" not in text and "Traceback" not in text
    assert text.count("the result cache is damaged") == 1
    assert "failed" not in result.parseoutcomes()
    assert arith_module.CALLS == []
    uncached = run(arith, "--afcheck-cache-dir", str(directory), "--afcheck-no-cache")
    uncached.assert_outcomes(passed=40)


def test_cache_clear_removes_a_damaged_database(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    from afcheck import cli

    path = _filled(tmp_path)
    _truncate(path)
    assert cli.main(["cache", "info", "--cache-dir", str(tmp_path)]) == 4
    assert "the result cache is damaged" in capsys.readouterr().err
    assert cli.main(["cache", "clear", "--cache-dir", str(tmp_path)]) == 0
    assert f"removed the damaged result cache {path}" in capsys.readouterr().out
    # What is left is a new, usable cache, not the damaged one.
    assert cli.main(["cache", "info", "--cache-dir", str(tmp_path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["entries"] == {}


def test_keys_keep_parts_apart_and_are_stable() -> None:
    from afcheck.runtime.cache import keys

    # Each part is written with its type and length: no two different part lists meet.
    assert key("ab", "c") != key("a", "bc") != key("abc")
    assert key("1") != key(1) and key(None) != key("null")
    assert key({"a": 1, "b": 2}) == key({"b": 2, "a": 1})
    assert keys(("stage", "fingerprint"), [("x",), ("y", "z")]) == [
        key("stage", "fingerprint", "x"), key("stage", "fingerprint", "y", "z")]
    # The same parts give the same key in every process and on every machine.
    assert key("prove", "smt 1", "x = 1").hex() == "bece9f65fb88aba1c0731b52c4352642"


def test_a_batch_keys_each_item_as_key_does_with_parts_it_shares() -> None:
    from afcheck.runtime.cache import keys

    context = ("Earlier paragraph one.", "Earlier paragraph two: x = 5.")
    # Values equal in Python but not in JSON must not share an encoding within a batch.
    batch = [("a", context, 1), ("b", tuple(context), 2), ("c", (1,)), ("c", (True,)),
             ("c", (1.0,)), ("d", ("x", ["y"])), ("d", ("x", ["y"])), ("e", ("\ud800",)),
             ("f", context)]
    made = keys(("formalise", "literal 1"), batch)
    assert made == [key("formalise", "literal 1", *parts) for parts in batch]
    assert len({made[2], made[3], made[4]}) == 3
    assert made[5] == made[6] and made[0] != made[8]


def test_a_cache_of_the_first_key_format_is_dropped_not_misread(tmp_path: Path) -> None:
    import sqlite3

    path = tmp_path / "results.sqlite"
    old = sqlite3.connect(str(path))
    old.execute("CREATE TABLE entries (stage TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT "
                "NULL, PRIMARY KEY (stage, key)) WITHOUT ROWID")
    old.execute("INSERT INTO entries VALUES ('prove', ?, '\"stale\"')", (key("a").hex(),))
    old.commit()
    old.close()
    cache = Cache(path)
    assert cache.info()["entries"] == {}
    assert cache.get_many("prove", [key("a")]) == {}
    tables = {name for (name,) in sqlite3.connect(str(path)).execute(
        "SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert tables == {"results"}
    cache.put_many("prove", [(key("a"), "fresh")])
    assert cache.get_many("prove", [key("a")]) == {key("a"): "fresh"}
