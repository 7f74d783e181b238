"""The REPL pool, through lean-interact's LeanServer talking to the fake REPL."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from afcheck_lean.pool import Failure
from afcheck_lean.replies import Reply
from fake_repl.harness import FakeLean, make_fake_lean

HEADER_PREFIX = "import Mathlib"
OK = "theorem afcheck_target : (2 : ℕ) + 2 = 4 :=\nby sorry\n"

@pytest.fixture
def fake(tmp_path: Path) -> Iterator[FakeLean]:
    """A fake Lean installation answering from the recorded transcript."""
    yield from make_fake_lean(tmp_path)


def _imports(fake: FakeLean) -> list[str]:
    return [c for c in fake.commands() if c.startswith(HEADER_PREFIX)]


@pytest.mark.heavy
def test_header_is_imported_once_per_repl_and_reused(fake: FakeLean) -> None:
    with fake.pool() as pool:
        results = pool.run([OK, OK, OK])
    assert all(isinstance(r, Reply) and not r.errors for r in results)
    requests = [r["request"] for r in fake.requests()]
    assert len(_imports(fake)) == 1
    base = [r for r in requests if not str(r["cmd"]).startswith(HEADER_PREFIX)]
    assert len(base) == 3 and {r["env"] for r in base} == {0}


@pytest.mark.heavy
def test_results_come_back_in_input_order_with_several_workers(fake: FakeLean) -> None:
    commands = [OK, "theorem afcheck_target (x : ℝ) : x + y = 1 :=\nby sorry\n"] * 3
    with fake.pool(workers=2) as pool:
        results = pool.run(commands)
    assert [bool(isinstance(r, Reply) and r.errors) for r in results] == [False, True] * 3
    assert len({r["pid"] for r in fake.requests()}) == 2
    assert len(_imports(fake)) == 2


@pytest.mark.heavy
def test_repl_is_restarted_after_max_commands(fake: FakeLean) -> None:
    with fake.pool(max_commands=2) as pool:
        pool.run([OK] * 5)
        assert pool.restarts == 3
    assert len({r["pid"] for r in fake.requests()}) == 3
    assert len(_imports(fake)) == 3


@pytest.mark.heavy
def test_timeout_is_a_failure_and_the_next_command_gets_a_fresh_repl(fake: FakeLean) -> None:
    with fake.pool(timeout_s=0.5) as pool:
        slow, after = pool.run(["-- fake:timeout\n" + OK, OK])
    assert isinstance(slow, Failure) and slow.kind == "timeout"
    assert "timed out after 0.5s" in slow.reason
    assert isinstance(after, Reply) and not after.errors
    assert len({r["pid"] for r in fake.requests()}) == 2


@pytest.mark.heavy
def test_crash_is_a_failure_and_the_repl_restarts(fake: FakeLean) -> None:
    with fake.pool() as pool:
        crashed, after = pool.run(["-- fake:crash\n" + OK, OK])
        assert pool.restarts == 2
    assert isinstance(crashed, Failure) and crashed.kind == "crash"
    assert isinstance(after, Reply) and after.env is not None


@pytest.mark.heavy
def test_memory_cap_turns_a_runaway_repl_into_out_of_memory(fake: FakeLean) -> None:
    with fake.pool(memory_mb=400) as pool:
        hog, after = pool.run(["-- fake:oom\n" + OK, OK])
    assert isinstance(hog, Failure) and hog.kind == "out-of-memory", hog
    assert isinstance(after, Reply) and not after.errors


@pytest.mark.heavy
def test_a_header_that_does_not_elaborate_fails_every_command_once(fake: FakeLean) -> None:
    with fake.pool(header="import Mathlb") as pool:
        results = pool.run([OK, OK])
    assert all(isinstance(r, Failure) and r.kind == "header" for r in results)
    first = results[0]
    assert isinstance(first, Failure) and "unknown package 'Mathlb'" in first.reason
    assert len(fake.requests()) == 1


def test_the_breaker_trips_only_while_lean_has_answered_nothing() -> None:
    from afcheck_lean.pool import Breaker, Failure
    from afcheck_lean.replies import Reply

    crash = Failure("crash", "the Lean REPL stopped while checking")
    fresh = Breaker(limit=3)
    for _ in range(2):
        fresh.record(crash)
    assert fresh.tripped is None
    fresh.record(crash)
    assert fresh.tripped == crash
    assert "the first 3 Lean checks all failed" in str(fresh.error("checker lean"))

    answered = Breaker(limit=3)
    answered.record(Reply(env=1))
    for _ in range(10):
        answered.record(crash)
    assert answered.tripped is None, "per-command failures after an answer never trip it"

    start = Breaker(limit=3)
    start.record(Failure("timeout", "Lean timed out while importing the header", startup=True))
    assert "Lean could not start" in str(start.error("checker lean"))
    late_header = Breaker(limit=3)
    late_header.record(Reply(env=1))
    late_header.record(Failure("header", "the header does not elaborate: x"))
    assert "stopped working after 1 check(s)" in str(late_header.error("checker lean"))
