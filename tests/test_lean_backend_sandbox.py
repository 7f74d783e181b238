"""The sandbox every Lean process runs in, tried on ordinary processes that misbehave.

Children are Python scripts (``python -I``) that try what a metaprogram in a proof could:
connect to a listener, write outside their scratch directory, read an API key from their
environment or their parent's ``/proc/PID/environ``, burn CPU, allocate memory, outlive
their time. The limits, the cleared environment and the timeout hold with or without
bubblewrap; the namespace tests run only where bwrap can create namespaces.
"""

from __future__ import annotations

import io
import os
import socket
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from afcheck_lean.sandbox import (
    Limits,
    Policy,
    Sandbox,
    SandboxError,
    as_mode,
    probe,
    python_paths,
)
from processes import gone_within

SECRET = "sk-afcheck-test-secret-0123456789"

needs_bwrap = pytest.mark.skipif(not probe().usable,
                                 reason=f"bubblewrap cannot isolate here: {probe().why}")


def _sandbox(tmp_path: Path, mode: str = "auto", **limits: int | None) -> Sandbox:
    scratch = tmp_path / "scratch"
    scratch.mkdir(exist_ok=True)
    return Sandbox(Policy(scratch=scratch, read_only=python_paths(),
                          limits=Limits(**limits)), as_mode(mode), warn=io.StringIO())


def _python(code: str) -> list[str]:
    return [sys.executable, "-I", "-c", code]


@pytest.fixture
def listener() -> Iterator[int]:
    """A loopback TCP listener that records whether anything connected."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    server.settimeout(5)
    accepted: list[bool] = []

    def accept() -> None:
        try:
            conn, _ = server.accept()
            accepted.append(True)
            conn.close()
        except OSError:
            pass

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield server.getsockname()[1]
    server.close()
    thread.join(6)
    assert accepted == [], "the sandboxed child reached the listener"


def test_a_key_in_the_environment_does_not_reach_the_child(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    monkeypatch.setenv("AFCHECK_LLM_API_KEY", SECRET)
    for mode in ("auto", "off"):
        done = _sandbox(tmp_path, mode).run(_python(
            "import os; print(sorted(os.environ)); print(any('sk-afcheck' in v for v in "
            "os.environ.values()))"), timeout_s=30)
        assert done.returncode == 0, done.stderr
        names, leaked = done.stdout.splitlines()
        assert leaked == "False" and "OPENAI_API_KEY" not in names
        assert "'HOME'" in names and "'PATH'" in names


@pytest.mark.heavy
def test_cpu_time_past_the_limit_kills_the_child(tmp_path: Path) -> None:
    for mode in ("auto", "off"):
        done = _sandbox(tmp_path, mode, cpu_s=1).run(_python("while True: pass"),
                                                     timeout_s=60)
        assert not done.timed_out
        assert done.returncode != 0  # SIGXCPU (or SIGKILL at the hard limit), not a clean exit


def test_memory_past_the_limit_fails_the_allocation(tmp_path: Path) -> None:
    code = ("try:\n    b = bytearray(2 * 1024 ** 3)\n    print('allocated')\n"
            "except MemoryError:\n    print('refused')")
    for mode in ("auto", "off"):
        done = _sandbox(tmp_path, mode, memory_mb=400).run(_python(code), timeout_s=60)
        assert done.stdout.strip() == "refused", done.stderr
    unlimited = _sandbox(tmp_path, "off", memory_mb=None).run(
        _python("b = bytearray(50 * 1024 ** 2); print('allocated')"), timeout_s=60)
    assert unlimited.stdout.strip() == "allocated"


@pytest.mark.heavy
def test_a_child_past_its_wall_clock_is_killed_with_what_it_started(tmp_path: Path) -> None:
    sandbox = _sandbox(tmp_path, "off")
    pid_file = sandbox.policy.scratch / "grandchild.pid"
    code = ("import subprocess, time\n"
            f"p = subprocess.Popen(['sleep', '120'])\n"
            f"open({str(pid_file)!r}, 'w').write(str(p.pid))\n"
            "time.sleep(120)")
    done = sandbox.run(_python(code), timeout_s=2)
    assert done.timed_out
    # The group's SIGKILL is sent before run() returns; it lands a moment later.
    assert gone_within(5, int(pid_file.read_text()))


@needs_bwrap
@pytest.mark.heavy
def test_the_child_cannot_connect_to_a_loopback_listener(tmp_path: Path, listener: int) -> None:
    code = ("import socket\ntry:\n"
            f"    socket.create_connection(('127.0.0.1', {listener}), timeout=3)\n"
            "    print('connected')\nexcept OSError as e:\n    print('refused')")
    done = _sandbox(tmp_path, "on").run(_python(code), timeout_s=30)
    assert done.stdout.strip() == "refused", done.stderr


def test_without_namespaces_the_same_child_connects(tmp_path: Path) -> None:
    # The control for the test above: the listener and the child's code do work.
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    port = server.getsockname()[1]
    code = (f"import socket\nsocket.create_connection(('127.0.0.1', {port}), timeout=3)\n"
            "print('connected')")
    done = _sandbox(tmp_path, "off").run(_python(code), timeout_s=30)
    server.close()
    assert done.stdout.strip() == "connected", done.stderr


@needs_bwrap
def test_the_child_writes_only_into_its_scratch_directory(tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    outside = tmp_path / "outside.txt"
    sandbox = Sandbox(Policy(scratch=tmp_path / "scratch", read_only=(*python_paths(), project)),
                      "on")
    code = ("import sys\nfor path in sys.argv[1:]:\n    try:\n"
            "        open(path, 'w').write('x')\n        print('wrote', path)\n"
            "    except OSError:\n        print('refused', path)")
    targets = [str(outside), str(project / "lakefile.lean"), str(tmp_path / "scratch" / "ok")]
    done = sandbox.run([*_python(code), *targets], timeout_s=30)
    assert done.stdout.splitlines() == [f"refused {targets[0]}", f"refused {targets[1]}",
                                        f"wrote {targets[2]}"], done.stderr
    assert not outside.exists() and not (project / "lakefile.lean").exists()
    assert (tmp_path / "scratch" / "ok").read_text() == "x"


@needs_bwrap
def test_the_child_cannot_read_its_parents_environment(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    parent = f"/proc/{os.getpid()}/environ"
    code = ("import sys\ntry:\n    data = open(sys.argv[1], 'rb').read()\n"
            f"    print('leaked' if b{SECRET!r} in data else 'readable')\n"
            "except OSError:\n    print('unreadable')")
    # The control: without namespaces the parent's entry is there to be opened.
    control = _sandbox(tmp_path, "off").run([*_python(code), parent], timeout_s=30)
    assert control.stdout.strip() in ("readable", "leaked"), control.stderr
    done = _sandbox(tmp_path, "on").run([*_python(code), parent], timeout_s=30)
    assert done.stdout.strip() == "unreadable", done.stderr


def test_required_namespaces_that_cannot_work_are_one_clear_error(tmp_path: Path) -> None:
    policy = Policy(scratch=tmp_path)
    with pytest.raises(SandboxError, match="not installed"):
        Sandbox(policy, "on", bwrap="afcheck-no-such-bwrap")
    warning = io.StringIO()
    fallback = Sandbox(policy, "auto", bwrap="afcheck-no-such-bwrap-2", warn=warning)
    assert not fallback.isolated
    assert warning.getvalue().count("\n") == 1 and "--lean-sandbox off" in warning.getvalue()
    quiet = io.StringIO()
    assert not Sandbox(policy, "off", warn=quiet).isolated and quiet.getvalue() == ""
    with pytest.raises(ValueError, match="auto, on, off"):
        as_mode("maybe")


def test_the_missing_sandbox_warning_is_once_per_run_not_per_process(tmp_path: Path) -> None:
    # The REPLs of one run share a set: one warning. Another run (a fresh set) warns again,
    # whatever ran before it in the same process.
    policy = Policy(scratch=tmp_path)
    for _ in range(2):
        warning = io.StringIO()
        run: set[str] = set()
        for _ in range(3):
            Sandbox(policy, "auto", bwrap="afcheck-no-such-bwrap", warn=warning, warned=run)
        assert warning.getvalue().count("afcheck: warning:") == 1


@needs_bwrap
def test_the_child_runs_in_the_directory_asked_for_and_reads_it(tmp_path: Path) -> None:
    # A REPL runs `lake env` in the project: it must start there and read it, not write it.
    project = tmp_path / "project"
    project.mkdir()
    (project / "lakefile.lean").write_text("-- project\n")
    sandbox = Sandbox(Policy(scratch=tmp_path / "scratch", read_only=(*python_paths(), project)),
                      "on")
    code = "import os; print(os.getcwd()); print(open('lakefile.lean').read().strip())"
    done = sandbox.run(_python(code), cwd=project, timeout_s=30)
    assert done.stdout.splitlines() == [str(project), "-- project"], done.stderr
