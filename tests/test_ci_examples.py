"""The example CI jobs of docs/ci/ do what they say: every command of each, as written and
with its own variables, runs in a fresh folder. Where a command talks to the CI service (the
GitHub CLI fetching the base branch's artifact, GitLab's artifacts API over curl), a stand-in
of that one program on PATH answers as the service does, from this run's own results; the
install commands run in a fresh venv under the marker ``install``."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

yaml = pytest.importorskip("yaml")

ROOT = Path(__file__).resolve().parent.parent
CI = ROOT / "docs" / "ci"

FAKE_GH = """#!{python}
# `gh run list … --json databaseId --jq …` prints a run id; `gh run download ID --name N --dir D`
# unpacks the artifact N of that run into D: here, the results the test put aside.
import json, os, shutil, sys
args = sys.argv[1:]
with open(os.environ["FAKE_CALLS"], "a") as log:
    log.write(json.dumps(["gh", *args]) + "\\n")
if args[:2] == ["run", "list"]:
    print("4242")
elif args[:2] == ["run", "download"] and args[2] == "4242":
    folder = args[args.index("--dir") + 1]
    os.makedirs(folder, exist_ok=True)
    shutil.copy(os.environ["FAKE_BASE"], os.path.join(folder, "results.json"))
else:
    sys.exit("gh: unexpected call")
"""

FAKE_CURL = """#!{python}
# curl --output FILE … URL: the artifacts archive of the job on the branch the URL names.
import json, os, sys, zipfile
args = sys.argv[1:]
with open(os.environ["FAKE_CALLS"], "a") as log:
    log.write(json.dumps(["curl", *args]) + "\\n")
with zipfile.ZipFile(args[args.index("--output") + 1], "w") as archive:
    archive.write(os.environ["FAKE_BASE"], "results.json")
"""


def _stand_ins(tmp_path: Path, base: Path) -> dict[str, str]:
    """``gh`` and ``curl`` stand-ins first on PATH; their calls logged to ``calls.jsonl``."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name, text in (("gh", FAKE_GH), ("curl", FAKE_CURL)):
        script = bin_dir / name
        script.write_text(text.format(python=sys.executable), encoding="utf-8")
        script.chmod(0o755)
    return {"PATH": os.pathsep.join([str(bin_dir), str(Path(sys.executable).parent),
                                     os.environ.get("PATH", "")]),
            "FAKE_CALLS": str(tmp_path / "calls.jsonl"), "FAKE_BASE": str(base)}


def _calls(tmp_path: Path) -> list[list[str]]:
    log = tmp_path / "calls.jsonl"
    if not log.exists():
        return []
    return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]


def _expand(value: object, context: dict[str, str]) -> str:
    """A workflow value with its ``${{ … }}`` expressions evaluated from ``context``."""
    return re.sub(r"\$\{\{\s*(.*?)\s*\}\}", lambda m: context[m[1]], str(value))


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


def _base_results(work: Path, base: Path) -> None:
    """The base branch's last results, as its stored artifact: here this run's own."""
    shutil.copy(work / "results.json", base)


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


GITHUB = {"vars.AFCHECK_SOURCE": "", "github.token": "token",
          "github.base_ref || github.ref_name": "main"}
"""The expressions of the GitHub example, as a pull request into main without the variable
set sees them."""


def test_github_actions_example(tmp_path: Path) -> None:
    workflow = yaml.safe_load((CI / "github-actions.yml").read_text(encoding="utf-8"))
    steps = workflow["jobs"]["afcheck"]["steps"]
    runs = [step for step in steps if "run" in step]
    assert [step["name"] for step in runs][0] == "Install afcheck"
    work = tmp_path / "repo"
    work.mkdir()
    base = tmp_path / "stored-results.json"
    env = _env(tmp_path, {k: _expand(v, GITHUB) for k, v in workflow["env"].items()})
    env.update(_stand_ins(tmp_path, base), GITHUB_STEP_SUMMARY=str(tmp_path / "step-summary.md"),
               GITHUB_REPOSITORY="org/model")
    # Without AFCHECK_SOURCE the install step stops with one line saying what to set.
    done = _shell(runs[0]["run"], work, env)
    assert done.returncode == 1 and "AFCHECK_SOURCE" in done.stderr, done.stderr
    for step in runs[1:]:
        if step["name"] == "The base branch's results":
            _base_results(work, base)
        step_env = {**env, **{k: _expand(v, GITHUB) for k, v in step.get("env", {}).items()}}
        done = _shell(step["run"], work, step_env)
        assert done.returncode == 0, (step["name"], done.stdout[-2000:], done.stderr[-2000:])
    _check_outputs(work)
    page = (tmp_path / "step-summary.md").read_text(encoding="utf-8")
    assert page.startswith("### afcheck: faithfulness")  # afcheck's own, then compare's
    assert "### afcheck compare: literal → literal" in page
    upload = steps[-1]["with"]
    uploaded = upload["path"].split()
    assert sorted(uploaded) == sorted(p.name for p in work.iterdir() if p.is_file())
    # The artifact asked for is the one this workflow uploads, from the base branch's runs.
    listed, fetched = _calls(tmp_path)
    assert listed[:2] == ["gh", "run"] and "--branch" in listed
    assert listed[listed.index("--branch") + 1] == "main"
    assert listed[listed.index("--workflow") + 1] == "afcheck.yml"
    assert fetched[fetched.index("--name") + 1] == upload["name"]


GITLAB = {"CI_API_V4_URL": "https://gitlab.example/api/v4", "CI_PROJECT_ID": "7",
          "CI_JOB_TOKEN": "token", "CI_DEFAULT_BRANCH": "main", "CI_JOB_NAME": "afcheck",
          "CI_MERGE_REQUEST_TARGET_BRANCH_NAME": "release"}
"""What GitLab sets in a merge request pipeline into ``release``."""


def test_gitlab_ci_example(tmp_path: Path) -> None:
    job = yaml.safe_load((CI / "gitlab-ci.yml").read_text(encoding="utf-8"))["afcheck"]
    guard, install = job["before_script"]
    assert install == 'pip install "afcheck[smt] @ $AFCHECK_SOURCE"'
    work = tmp_path / "repo"
    work.mkdir()
    base = tmp_path / "stored-results.json"
    env = {**_env(tmp_path, job["variables"]), **GITLAB, **_stand_ins(tmp_path, base)}
    done = _shell(guard, work, env)
    assert done.returncode == 1 and "AFCHECK_SOURCE" in done.stderr, done.stderr
    for command in job["script"]:
        done = _shell(command, work, env)
        assert done.returncode == 0, (command, done.stdout[-2000:], done.stderr[-2000:])
    _base_results(work, base)
    for command in job["after_script"]:
        done = _shell(command, work, env)
        assert done.returncode == 0, (command, done.stdout[-2000:], done.stderr[-2000:])
    _check_outputs(work)
    assert sorted(job["artifacts"]["paths"]) == sorted(p.name for p in work.iterdir()
                                                       if p.is_file())
    assert job["artifacts"]["reports"]["junit"] == "results.xml"
    ((curl, *args),) = _calls(tmp_path)
    assert args[-1] == ("https://gitlab.example/api/v4/projects/7/jobs/artifacts/release/"
                        "download?job=afcheck")
    assert "JOB-TOKEN: token" in args


@pytest.mark.install
def test_the_install_commands_install_afcheck_from_a_checkout(tmp_path: Path) -> None:
    """Both files' install command, with ``AFCHECK_SOURCE`` a checkout's ``file://`` URL, in a
    fresh venv: afcheck and its ``smt`` extra come from there and the package index."""
    from test_readme import _clean_env, _copy_checkout

    checkout = _copy_checkout(tmp_path / "afcheck")
    workflow = yaml.safe_load((CI / "github-actions.yml").read_text(encoding="utf-8"))
    github = workflow["jobs"]["afcheck"]["steps"][2]["run"]
    gitlab = yaml.safe_load((CI / "gitlab-ci.yml").read_text(encoding="utf-8"))["afcheck"]
    for name, commands in (("github", [github]), ("gitlab", gitlab["before_script"])):
        venv = tmp_path / f"venv-{name}"
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        env = {**_clean_env(tmp_path / "cache"), "AFCHECK_SOURCE": checkout.as_uri()}
        env["PATH"] = os.pathsep.join([str(venv / "bin"), env["PATH"]])
        for command in commands:
            done = _shell(command, tmp_path, env)
            assert done.returncode == 0, (name, done.stdout[-2000:], done.stderr[-2000:])
        done = _shell("afcheck --version && python -c 'import z3'", tmp_path, env)
        assert done.returncode == 0 and done.stdout.startswith("afcheck "), done.stderr
