"""The example CI jobs of docs/ci/ do what they say: every command of each, as written and
with its own variables, runs in a fresh folder; only the install step is left out (this
environment has afcheck already, and the example installs from a repository URL)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

yaml = pytest.importorskip("yaml")

ROOT = Path(__file__).resolve().parent.parent
CI = ROOT / "docs" / "ci"


def _env(tmp_path: Path, variables: dict[str, object]) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("PYTEST_", "AFCHECK_", "GITHUB_", "CI_"))}
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    env["AFCHECK_CACHE_DIR"] = str(tmp_path / "cache")
    env.update({key: str(value) for key, value in variables.items()})
    return env


def _shell(command: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    # GitHub's `run:` shell and GitLab's script lines both stop at the first failing command.
    return subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", command],
                          cwd=cwd, env=env, capture_output=True, text=True, timeout=600)


def _base_results(work: Path) -> None:
    """What a job restores from the base branch's last run: here the same results."""
    (work / "base").mkdir(exist_ok=True)
    shutil.copy(work / "results.json", work / "base" / "results.json")


def _check_outputs(work: Path) -> None:
    summary = (work / "summary.md").read_text(encoding="utf-8")
    assert summary.startswith("### afcheck: faithfulness")
    assert "68 items: 15 passed, 53 failed" in summary
    assert r"✅ held: UFLB = 0.7647 ≤ 0.8 \(--max-uflb\)" in summary
    assert (work / "results.xml").is_file()
    assert "<html" in (work / "report.html").read_text(encoding="utf-8")[:500].lower()
    compare = (work / "compare.md").read_text(encoding="utf-8")
    assert compare.startswith("### afcheck compare: literal → literal")
    assert "| FI | 0.361 | 0.361 | +0.000 |" in compare
    assert compare.rstrip().endswith("✅ no significant regression at alpha = 0.05")


def test_github_actions_example(tmp_path: Path) -> None:
    workflow = yaml.safe_load((CI / "github-actions.yml").read_text(encoding="utf-8"))
    steps = workflow["jobs"]["afcheck"]["steps"]
    runs = [step for step in steps if "run" in step]
    assert [step["name"] for step in runs][0] == "Install afcheck"
    work = tmp_path / "repo"
    work.mkdir()
    env = _env(tmp_path, workflow["env"])
    env["GITHUB_STEP_SUMMARY"] = str(tmp_path / "step-summary.md")
    for step in runs[1:]:
        if step["name"] == "Compare with the base branch":
            _base_results(work)
        done = _shell(step["run"], work, env)
        assert done.returncode == 0, (step["name"], done.stdout[-2000:], done.stderr[-2000:])
    _check_outputs(work)
    page = (tmp_path / "step-summary.md").read_text(encoding="utf-8")
    assert page.startswith("### afcheck: faithfulness")  # afcheck's own, then compare's
    assert "### afcheck compare: literal → literal" in page
    uploaded = steps[-1]["with"]["path"].split()
    assert sorted(uploaded) == sorted(p.name for p in work.iterdir() if p.is_file())


def test_gitlab_ci_example(tmp_path: Path) -> None:
    job = yaml.safe_load((CI / "gitlab-ci.yml").read_text(encoding="utf-8"))["afcheck"]
    assert [line for line in job["before_script"]] == [
        'pip install "afcheck[smt] @ git+https://github.com/OWNER/afcheck@main"']
    work = tmp_path / "repo"
    work.mkdir()
    env = _env(tmp_path, job["variables"])
    for command in job["script"]:
        done = _shell(command, work, env)
        assert done.returncode == 0, (command, done.stdout[-2000:], done.stderr[-2000:])
    _base_results(work)
    for command in job["after_script"]:
        done = _shell(command, work, env)
        assert done.returncode == 0, (command, done.stdout[-2000:], done.stderr[-2000:])
    _check_outputs(work)
    assert sorted(job["artifacts"]["paths"]) == sorted(p.name for p in work.iterdir()
                                                       if p.is_file())
    assert job["artifacts"]["reports"]["junit"] == "results.xml"
