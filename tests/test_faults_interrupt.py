"""Ctrl-C and SIGTERM stop a run one way (:mod:`afcheck.runtime.interrupt`): afcheck's own
line, what it says of the cache read from the cache, the stopped stage not called done, and
no temporary file left behind."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from fake_openai import FakeOpenAI

from afcheck.runtime.cache import Cache
from afcheck.runtime.interrupt import Terminated, handled, owned_name, remove_orphans
from afcheck.runtime.progress import StageProgress


def test_a_stage_closed_before_its_end_says_it_stopped() -> None:
    for interval in (None, 0.0):
        written: list[str] = []
        stage = StageProgress("fol-formalise (llm)", 10, written.append, interval)
        stage.advance(4)
        stage.close()
        text = "".join(written)
        assert "stopped at 4/10" in text and "done" not in text


def test_a_finished_stage_in_a_log_says_done() -> None:
    written: list[str] = []
    stage = StageProgress("prove (smt)", 3, written.append, 0.0)
    stage.advance(1)
    stage.advance(2)
    stage.close()
    assert "3/3 done in" in "".join(written)


def test_the_cache_counts_only_what_it_committed(tmp_path: Path) -> None:
    cache = Cache(tmp_path / "results.sqlite")
    cache.get_many("formalise", [b"a" * 16, b"b" * 16])  # two misses, nothing kept
    assert cache.stored == 0
    cache.put_many("formalise", [(b"a" * 16, {"x": 1})])
    cache.flush()
    assert cache.stored == 1 and cache.misses == 2
    cache.close()


def test_sigterm_raises_terminated_inside_the_block_only() -> None:
    before = signal.getsignal(signal.SIGTERM)
    with pytest.raises(Terminated), handled():
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(5)
    assert signal.getsignal(signal.SIGTERM) is before
    assert isinstance(Terminated(), KeyboardInterrupt)


def test_orphans_of_dead_processes_are_removed_and_others_kept(tmp_path: Path) -> None:
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    (tmp_path / f"afcheck-spool-{dead.pid}-abc").mkdir()
    (tmp_path / f"afcheck-spool-{dead.pid}-abc" / "raw.sqlite").write_text("x")
    (tmp_path / f".r.json.{dead.pid}-xyz").write_text("half")
    mine = tmp_path / (owned_name("afcheck-spool-") + "def")
    mine.mkdir()
    other = tmp_path / "afcheck-spool-nopid"
    other.mkdir()
    assert remove_orphans(tmp_path, "afcheck-spool-") == 1
    assert remove_orphans(tmp_path, ".r.json.") == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([mine.name, other.name])


def _start(tmp_path: Path, url: str, *extra: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "afcheck", "examples", "--limit", "2", "--formaliser",
         "frontier", "--formaliser-opt", f"base_url={url},model=m,max_retries=0,timeout_s=60",
         "--json", str(tmp_path / "r.json"), "--cache-dir", str(tmp_path / "cache"),
         "-p", "no:cacheprovider", *extra],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=tmp_path,
        env={**os.environ, "TMPDIR": str(tmp_path), "AFCHECK_PROGRESS_INTERVAL": "0"})


def _stop(process: subprocess.Popen[str], sig: int, fake: FakeOpenAI, asked: int) -> str:
    deadline = time.monotonic() + 60
    while fake.completions < asked and time.monotonic() < deadline:
        time.sleep(0.1)
    time.sleep(0.5)
    process.send_signal(sig)
    out, _ = process.communicate(timeout=30)
    return out


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_a_stop_in_a_model_stage_with_nothing_kept(tmp_path: Path, sig: int) -> None:
    pytest.importorskip("httpx")
    fake = FakeOpenAI("hang")
    with fake.running() as url:
        process = _start(tmp_path, url)
        out = _stop(process, sig, fake, 1)
    name = "SIGTERM" if sig == signal.SIGTERM else "Ctrl-C"
    assert process.returncode == 2, out
    assert f"afcheck: interrupted ({name}) before any item finished" in out, out
    assert "no result of this run was kept in the result cache" in out, out
    assert "Traceback" not in out and "KeyboardInterrupt" not in out, out
    assert " done in " not in out, out
    left = [p.name for p in tmp_path.iterdir() if p.name.startswith(("afcheck-spool-", ".r."))]
    assert not left


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_a_stop_line_counts_what_the_cache_holds(tmp_path: Path, sig: int) -> None:
    """Some requests answered and kept, one never answered: the line's count is the number
    of results the cache holds."""
    pytest.importorskip("httpx")
    fake = FakeOpenAI("ok", stall="3.50")  # step 2's perturbation
    with fake.running() as url:
        process = _start(tmp_path, url, "--chunk-size", "1")
        out = _stop(process, sig, fake, 4)
    assert process.returncode == 2, out
    info = subprocess.run([sys.executable, "-m", "afcheck", "cache", "info", "--json",
                           "--cache-dir", str(tmp_path / "cache")],
                          capture_output=True, text=True, check=True)
    held = sum(json.loads(info.stdout)["entries"].values())
    claimed = re.search(r"(\d+) results of this run are kept in the result cache", out)
    assert claimed is not None and int(claimed.group(1)) == held > 0, out
    assert "stopped at" in out and " done in " not in out.split("stopped at")[-1], out


def test_progress_moves_per_request_within_a_chunk() -> None:
    import threading

    from afcheck.runtime.progress import running, tick

    written: list[str] = []
    stage = StageProgress("formalise (frontier)", 4, written.append, 0.0)
    with running(stage):
        workers = [threading.Thread(target=tick) for _ in range(3)]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join()
    assert "formalise (frontier): 3/4" in "".join(written)
    stage.advance(4)  # the chunk's end counts it whole, once
    assert stage.shown == 4 and stage.done == 4
    tick()  # no stage runs: nothing
    assert stage.shown == 4


def test_a_model_stage_in_a_log_reports_before_its_chunk_ends(tmp_path: Path) -> None:
    pytest.importorskip("httpx")
    fake = FakeOpenAI("ok")
    with fake.running() as url:
        done = subprocess.run(
            [sys.executable, "-m", "afcheck", "examples", "--limit", "3", "--formaliser",
             "frontier", "--formaliser-opt", f"base_url={url},model=m,concurrency=1",
             "--no-cache", "-p", "no:cacheprovider"],
            capture_output=True, text=True, timeout=120, cwd=tmp_path,
            env={**os.environ, "AFCHECK_PROGRESS_INTERVAL": "0"})
    out = done.stdout + done.stderr
    counts = re.findall(r"afcheck formalise \(frontier\): (\d+)/(\d+)", out)
    assert counts and any(int(n) < int(total) for n, total in counts), out


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
@pytest.mark.parametrize("after", ["platform linux", "collected", "afcheck prove"])
def test_a_stop_at_any_point_ends_with_afchecks_own_line(tmp_path: Path, sig: int,
                                                         after: str) -> None:
    """Stopped once the session has begun, has collected, or is proving: exit 2 (or the
    run's own status when it finished first), afcheck's line last, no traceback, nothing
    temporary left."""
    process = subprocess.Popen(
        [sys.executable, "-m", "afcheck", "examples", "--json", str(tmp_path / "r.json"),
         "--cache-dir", str(tmp_path / "cache"), "-p", "no:cacheprovider"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=tmp_path,
        env={**os.environ, "TMPDIR": str(tmp_path), "AFCHECK_PROGRESS_INTERVAL": "0"})
    assert process.stdout is not None
    seen = ""
    while after not in seen:
        char = process.stdout.read(1)
        if not char:
            break
        seen += char
    process.send_signal(sig)
    rest, _ = process.communicate(timeout=60)
    out = seen + rest
    assert "Traceback" not in out and "KeyboardInterrupt" not in out, out
    assert "Terminated" not in out, out
    if process.returncode == 2:
        assert "afcheck: interrupted (" in "\n".join(out.splitlines()[-3:]), out
    else:
        assert process.returncode == 1, out  # the run had finished: its own status
    left = [p.name for p in tmp_path.iterdir() if p.name.startswith(("afcheck-spool-", ".r."))]
    assert not left


def test_a_stop_of_an_earlier_command_is_not_this_ones() -> None:
    from afcheck.runtime import interrupt

    with pytest.raises(KeyboardInterrupt), handled():
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(5)
    assert interrupt.unsaid_stop() is not None
    with handled():
        pass
    assert interrupt.unsaid_stop() is None
