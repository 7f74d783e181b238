"""The Markdown summary: what a CI page shows of a run, with nothing from data as markup."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from afcheck_reporters.markdown_report import md, report_url

ROOT = Path(__file__).resolve().parent.parent
AFCHECK = str(Path(sys.executable).parent / "afcheck")


def test_text_from_data_is_inert() -> None:
    hostile = "![x](http://e/p.png) [click](javascript:alert(1)) <img src=x> | *b* `c`\x1b[31m"
    shown = md(hostile)
    assert "<img" not in shown and "&lt;img src=x&gt;" in shown
    for mark in ("![", "](", "[click]", "|", "*b*", "`c`"):
        assert mark not in shown.replace("\\", "") or f"\\{mark[0]}" in shown
    assert "\\!\\[x\\]\\(http://e/p.png\\)" in shown
    assert "\\|" in shown and "\\x1b" in shown and "\x1b" not in shown


def test_report_url_from_the_option_or_the_ci_run() -> None:
    assert report_url("https://r/report.html", {}) == "https://r/report.html"
    github = {"GITHUB_SERVER_URL": "https://github.com", "GITHUB_REPOSITORY": "o/m",
              "GITHUB_RUN_ID": "42"}
    assert report_url(None, github) == "https://github.com/o/m/actions/runs/42"
    assert report_url(None, {"CI_JOB_URL": "https://gitlab.com/o/m/-/jobs/7"}) == \
        "https://gitlab.com/o/m/-/jobs/7/artifacts/browse"
    assert report_url(None, {}) is None


def _run(tmp_path: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    full = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "CI_"))}
    full.update(AFCHECK_CACHE_DIR=str(tmp_path / "cache"), **env)
    full.pop("PYTEST_ADDOPTS", None)
    return subprocess.run([AFCHECK, "suites/examples", "-q", *args], cwd=ROOT, env=full,
                          capture_output=True, text=True, timeout=300)


def test_summary_md_and_the_github_step_summary(tmp_path: Path) -> None:
    page = tmp_path / "step.md"
    page.write_text("earlier step\n")
    done = _run(tmp_path, "--summary-md", str(tmp_path / "s.md"), "--gate", "UFLB<=0.5",
                GITHUB_STEP_SUMMARY=str(page), GITHUB_REPOSITORY="o/m", GITHUB_RUN_ID="9")
    assert done.returncode == 1  # the gate fails
    text = (tmp_path / "s.md").read_text(encoding="utf-8")
    lines = text.splitlines()
    assert lines[0] == "### afcheck: faithfulness"
    assert "68 items: 15 passed, 53 failed" in lines
    header = lines.index("| UFLB | FPR | FNR | AFFR | TPR | FI |")
    assert lines[header + 2] == "| 0.765 | 0.000 | 0.000 | 0.765 | 0.221 | 0.361 |"
    assert "**Failed items** (the first 10 of 53; every one is in the JSON and JUnit " \
        "results):" in lines
    failures = [line for line in lines if line.startswith("| suites/examples::")]
    assert len(failures) == 10
    assert r"- ❌ **failed**: UFLB = 0.7647 &gt; 0.5 \(--gate UFLB&lt;=0.5\)" in lines
    assert "[The HTML report](https://github.com/o/m/actions/runs/9) (an artifact of this " \
        "run)" in lines
    # The step summary keeps what earlier steps wrote and gets the same text.
    assert page.read_text(encoding="utf-8") == "earlier step\n" + text
