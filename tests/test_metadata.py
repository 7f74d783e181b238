"""A result file says where and when its run ran, and at which commits."""

from __future__ import annotations

import json
import subprocess
from datetime import datetime
from pathlib import Path

import pytest

from afcheck.metadata import RunStart, git_state


def _repo(path: Path) -> str:
    def git(*args: str) -> str:
        return subprocess.run(["git", "-C", str(path), *args], check=True, capture_output=True,
                              text=True).stdout.strip()

    path.mkdir()
    git("init", "-q")
    (path / "suite.toml").write_text("[afcheck]\n")
    git("add", "suite.toml")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "one")
    return git("rev-parse", "HEAD")


def test_git_state_is_the_commit_and_whether_tracked_files_changed(tmp_path: Path) -> None:
    commit = _repo(tmp_path / "repo")
    assert git_state(tmp_path / "repo") == {"commit": commit, "dirty": False,
                                            "root": str(tmp_path / "repo")}
    (tmp_path / "repo" / "new.txt").write_text("untracked: not a change of the commit")
    assert git_state(tmp_path / "repo")["dirty"] is False  # type: ignore[index]
    (tmp_path / "repo" / "suite.toml").write_text("[afcheck]\nname = 'x'\n")
    assert git_state(tmp_path / "repo")["dirty"] is True  # type: ignore[index]
    outside = tmp_path / "plain"
    outside.mkdir()
    assert git_state(outside) is None


def test_the_record_has_command_times_host_python_and_commits(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    commit = _repo(tmp_path / "model")
    monkeypatch.chdir(tmp_path / "model")
    start = RunStart.now(["."], ["/venv/bin/afcheck", ".", "--formaliser-opt",
                                 "model=m,api_key=sk-0123456789abcdefXYZ,"
                                 "base_url=http://user:pw@host/v1"])
    record = start.record()
    assert record["command"] == ["afcheck", ".", "--formaliser-opt",
                                 "model=m,api_key=***,base_url=http://***@host/v1"]
    started = datetime.fromisoformat(str(record["started"]))
    assert started.tzinfo is not None
    assert datetime.fromisoformat(str(record["ended"])) >= started
    assert str(record["python"]).split()[1].count(".") == 2
    assert record["host"]
    git = record["git"]
    assert isinstance(git, dict)
    assert git["checkout"]["commit"] == commit
    assert git["suites"]["."]["commit"] == commit


@pytest.mark.heavy
def test_the_json_result_file_carries_the_run_section(tmp_path: Path) -> None:
    from test_terminal import _run

    out = tmp_path / "r.json"
    _run("-q", "--json", str(out), cache=tmp_path)
    run = json.loads(out.read_text())["run"]
    assert run["command"][:2] == ["afcheck", "suites/examples"]
    assert set(run) >= {"started", "ended", "host", "python", "git"}
    # The suites are the checkout's own here (or neither is in git, in a bare copy).
    assert run["git"]["suites"]["suites/examples"] == run["git"]["checkout"]
