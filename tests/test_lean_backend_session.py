"""The sandbox a REPL is started in (the REPL protocol itself is tested through the fake)."""

from __future__ import annotations

from pathlib import Path

import pytest
from afcheck_lean.session import repl_sandbox
from afcheck_lean.settings import LeanSettings


def test_a_repl_sees_its_toolchain_and_project_and_no_secret(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ELAN_HOME", str(tmp_path / "elan"))
    monkeypatch.setenv("OPENAI_API_KEY", "sk-afcheck-test-secret-0123456789")
    settings = LeanSettings(project=tmp_path / "project", memory_mb=9000, max_commands=10,
                            timeout_s=30.0, header_timeout_s=100.0, sandbox="off",
                            pass_env=("LEAN_NUM_THREADS",))
    monkeypatch.setenv("LEAN_NUM_THREADS", "2")
    sandbox = repl_sandbox(settings, [tmp_path / "repl"])
    env = sandbox.environment()
    assert env["ELAN_HOME"] == str(tmp_path / "elan")  # HOME moves; elan must not get lost
    assert env["HOME"] == str(sandbox.policy.scratch) and env["LEAN_NUM_THREADS"] == "2"
    assert "OPENAI_API_KEY" not in env
    assert {tmp_path / "project", tmp_path / "elan", tmp_path / "repl"} <= set(
        sandbox.policy.read_only)
    assert sandbox.policy.limits.memory_mb == 9000
    assert sandbox.policy.limits.cpu_s == 10 * 30 + 100
    assert not sandbox.isolated  # sandbox=off
